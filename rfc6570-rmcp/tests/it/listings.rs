//! Listings and reads that tell the truth, on both revisions:
//! - for every kind of value a resource method may return, with no `mime_type` given,
//!   `resources/list` (or `resources/templates/list`) names the MIME type that
//!   `resources/read` answers;
//! - `Json` writes compact text and `PrettyJson` indented text, keys in the value's order;
//! - a read never answers an empty `contents` (2026-07-28): it is an internal error;
//! - the lists are the same on every connection;
//! - reads carry the cache hints set per resource and per template (2026-07-28), and private
//!   hints of no time where none are set.

use std::borrow::Cow;

use crate::common::Revision;

use rfc6570_rmcp::{
    Blob, Json, PrettyJson, ReadError, Text, resource, resource_handler, resource_router,
};
use rmcp::model::{CacheScope, ErrorCode, ReadResourceRequestParams, ResourceContents};
use rmcp::service::RunningService;
use rmcp::{RoleClient, ServerHandler};

#[derive(Clone)]
struct Kinds;

#[resource_router]
impl Kinds {
    #[resource("kind://string")]
    fn string(&self) -> String {
        "s".into()
    }

    #[resource("kind://str")]
    fn str(&self) -> &'static str {
        "s"
    }

    #[resource("kind://cow")]
    fn cow(&self) -> Cow<'static, str> {
        Cow::Borrowed("s")
    }

    #[resource("kind://bytes")]
    fn bytes(&self) -> Vec<u8> {
        vec![1, 2]
    }

    #[resource("kind://slice")]
    fn slice(&self) -> &'static [u8] {
        &[1, 2]
    }

    #[resource("kind://json")]
    fn json(&self) -> Json<u32> {
        Json(7)
    }

    #[resource("kind://result")]
    async fn result(&self) -> Result<Json<u32>, ReadError> {
        Ok(Json(7))
    }

    #[resource("kind://text")]
    fn text(&self) -> Text {
        Text::new("<p>", "text/html")
    }

    #[resource("kind://blob")]
    fn blob(&self) -> Blob {
        Blob::new(vec![0x47], "image/gif")
    }

    #[resource("kind://pretty")]
    fn pretty(&self) -> PrettyJson<serde_json::Value> {
        PrettyJson(serde_json::json!({"b": [1], "a": null}))
    }

    #[resource("kind://compact")]
    fn compact(&self) -> Json<serde_json::Value> {
        Json(serde_json::json!({"b": [1], "a": null}))
    }

    #[resource("kind://nothing")]
    fn nothing(&self) -> Vec<ResourceContents> {
        Vec::new()
    }

    #[resource("kind://cached", ttl_ms = 60_000, cache_scope = "public")]
    fn cached(&self) -> &'static str {
        "s"
    }

    #[resource("kind://cached/{id}", ttl_ms = 5_000)]
    fn cached_template(&self, id: String) -> String {
        id
    }

    #[resource("kind://given", mime_type = "text/markdown")]
    fn given(&self) -> String {
        "# s".into()
    }

    #[resource("kind://template/{id}")]
    fn template(&self, id: String) -> Json<String> {
        Json(id)
    }
}

#[resource_handler]
impl ServerHandler for Kinds {}

fn mime_of(contents: &ResourceContents) -> Option<&str> {
    match contents {
        ResourceContents::TextResourceContents { mime_type, .. }
        | ResourceContents::BlobResourceContents { mime_type, .. } => mime_type.as_deref(),
        other => panic!("unexpected contents {other:?}"),
    }
}

type Outcome = Result<(), Box<dyn std::error::Error>>;

/// A client of a fresh server on the legacy revision (`initialize`) or on 2026-07-28.
async fn connect(
    modern: bool,
) -> Result<RunningService<RoleClient, ()>, Box<dyn std::error::Error>> {
    let revision = if modern {
        Revision::Modern
    } else {
        Revision::Legacy
    };
    crate::common::connect(Kinds, (), revision).await
}

#[tokio::test]
async fn every_return_type_is_listed_as_it_is_read() -> Outcome {
    for modern in [false, true] {
        listed_as_read(modern).await?;
    }
    Ok(())
}

async fn listed_as_read(modern: bool) -> Outcome {
    let client = connect(modern).await?;
    let expected = [
        ("kind://string", Some("text/plain")),
        ("kind://str", Some("text/plain")),
        ("kind://cow", Some("text/plain")),
        ("kind://bytes", Some("application/octet-stream")),
        ("kind://slice", Some("application/octet-stream")),
        ("kind://json", Some("application/json")),
        ("kind://result", Some("application/json")),
        ("kind://pretty", Some("application/json")),
        ("kind://compact", Some("application/json")),
        // Contents that carry their own type are listed without one.
        ("kind://text", None),
        ("kind://blob", None),
        ("kind://given", Some("text/markdown")),
    ];
    let listed = client.list_all_resources().await?;
    for (uri, mime) in expected {
        let entry = listed.iter().find(|r| r.uri == uri).expect(uri);
        assert_eq!(entry.mime_type.as_deref(), mime, "{uri} listed");
        let read = client
            .read_resource(ReadResourceRequestParams::new(uri))
            .await?;
        let served = mime_of(&read.contents[0]);
        match mime {
            Some(mime) => assert_eq!(served, Some(mime), "{uri} read"),
            None => assert!(served.is_some(), "{uri} read"),
        }
    }
    let templates = client.list_all_resource_templates().await?;
    let template = templates
        .iter()
        .find(|t| t.uri_template == "kind://template/{id}")
        .expect("the template");
    assert_eq!(template.mime_type.as_deref(), Some("application/json"));
    let read = client
        .read_resource(ReadResourceRequestParams::new("kind://template/7"))
        .await?;
    assert_eq!(mime_of(&read.contents[0]), Some("application/json"));
    client.cancel().await?;
    Ok(())
}

#[tokio::test]
async fn json_is_compact_and_pretty_json_indented_in_the_value_s_key_order() -> Outcome {
    let client = connect(false).await?;
    let read = |uri: &'static str| {
        let client = &client;
        async move {
            let result = client
                .read_resource(ReadResourceRequestParams::new(uri))
                .await?;
            let (text, _) = crate::common::text_of(&result.contents[0]);
            Ok::<_, Box<dyn std::error::Error>>(text.to_owned())
        }
    };
    // serde_json's `preserve_order` is on in this build (a dev-dependency turns it on), so a
    // `Value` object keeps the order its keys were written in.
    assert_eq!(read("kind://compact").await?, r#"{"b":[1],"a":null}"#);
    assert_eq!(
        read("kind://pretty").await?,
        "{\n  \"b\": [\n    1\n  ],\n  \"a\": null\n}"
    );
    client.cancel().await?;
    Ok(())
}

#[tokio::test]
async fn a_read_without_contents_is_an_internal_error_with_a_message() -> Outcome {
    for modern in [false, true] {
        let client = connect(modern).await?;
        let error = crate::common::read_error(&client, "kind://nothing").await;
        assert_eq!(error.code, ErrorCode::INTERNAL_ERROR);
        assert!(error.message.contains("no contents"), "{}", error.message);
        client.cancel().await?;
    }
    Ok(())
}

#[tokio::test]
async fn the_lists_are_the_same_on_every_connection() -> Outcome {
    let mut seen = Vec::new();
    for modern in [false, true, false, true] {
        let client = connect(modern).await?;
        let resources = serde_json::to_value(client.list_all_resources().await?)?;
        let templates = serde_json::to_value(client.list_all_resource_templates().await?)?;
        seen.push((resources, templates));
        client.cancel().await?;
    }
    assert!(seen.windows(2).all(|pair| pair[0] == pair[1]), "{seen:#?}");
    Ok(())
}

#[tokio::test]
async fn reads_carry_the_cache_hints_of_their_resource_or_template() -> Outcome {
    let expected = [
        ("kind://cached", 60_000, CacheScope::Public),
        ("kind://cached/7", 5_000, CacheScope::Private),
        ("kind://string", 0, CacheScope::Private),
    ];
    let modern = connect(true).await?;
    let legacy = connect(false).await?;
    for (uri, ttl, scope) in expected {
        let read = modern
            .read_resource(ReadResourceRequestParams::new(uri))
            .await?;
        assert_eq!(
            (read.ttl_ms, read.cache_scope),
            (Some(ttl), Some(scope)),
            "{uri}"
        );
        // The revisions before 2026-07-28 have no cache hints.
        let read = legacy
            .read_resource(ReadResourceRequestParams::new(uri))
            .await?;
        assert_eq!(
            (read.ttl_ms, read.cache_scope),
            (None, None),
            "{uri} (legacy)"
        );
    }
    modern.cancel().await?;
    legacy.cancel().await?;
    Ok(())
}
