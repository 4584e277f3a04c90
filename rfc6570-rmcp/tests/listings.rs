//! Listings that tell the truth: for every kind of value a resource method may return, with no
//! `mime_type` given, `resources/list` (or `resources/templates/list`) names the MIME type
//! that `resources/read` answers.

use std::borrow::Cow;

use rfc6570_rmcp::{resource, resource_handler, resource_router, Blob, Json, ReadError, Text};
use rmcp::model::{ReadResourceRequestParams, ResourceContents};
use rmcp::{ServerHandler, ServiceExt};

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

#[tokio::test]
async fn every_return_type_is_listed_as_it_is_read() -> Result<(), Box<dyn std::error::Error>> {
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        if let Ok(running) = Kinds.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    let client = ().serve(client_io).await?;
    let expected = [
        ("kind://string", Some("text/plain")),
        ("kind://str", Some("text/plain")),
        ("kind://cow", Some("text/plain")),
        ("kind://bytes", Some("application/octet-stream")),
        ("kind://slice", Some("application/octet-stream")),
        ("kind://json", Some("application/json")),
        ("kind://result", Some("application/json")),
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
