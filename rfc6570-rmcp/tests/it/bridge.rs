//! The bridge as a server author uses it: a `#[resource_router]` impl with a
//! `#[resource_handler]`, served over an in-memory pipe and driven by rmcp's client on both
//! lifecycles (legacy `initialize`, revision 2025-11-25; `server/discover`, revision
//! 2026-07-28).

use std::sync::Arc;

use crate::common::{Heard, complete, read_error, text_of};
use rfc6570_rmcp::{
    Completing, Json, ReadError, ResourceRouter, Subscriptions, resource, resource_handler,
    resource_router,
};
use rmcp::model::{
    ArgumentInfo, CompleteRequestParams, ErrorCode, PaginatedRequestParams, ProtocolVersion,
    ReadResourceRequestParams, Reference, ResourceContents, ServerNotification,
    SubscribeRequestParams, SubscriptionFilter,
};
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, RequestContext, RunningService};
use rmcp::{RoleClient, RoleServer, ServerHandler, ServiceError, ServiceExt};
use serde::Serialize;
use tokio::sync::mpsc;

#[derive(Serialize)]
struct Profile {
    id: u64,
    name: &'static str,
}

#[derive(Clone)]
struct Shop {
    router: Arc<ResourceRouter<Shop>>,
    subscriptions: Subscriptions,
}

impl Shop {
    fn new() -> Self {
        Self {
            router: Arc::new(Self::resource_router().page_size(2)),
            subscriptions: Subscriptions::new().limit(3),
        }
    }
}

#[resource_router]
impl Shop {
    /// The active shop configuration.
    #[resource("config://app")]
    async fn config(&self) -> String {
        "theme=dark\nlanguage=en".into()
    }

    /// The shop's logo.
    #[resource("img://logo", mime_type = "image/png", size = 4)]
    fn logo(&self) -> Vec<u8> {
        vec![0x89, b'P', b'N', b'G']
    }

    /// A handler with a bug.
    #[resource("bug://panic")]
    async fn bug(&self) -> String {
        panic!("a bug in a handler")
    }

    /// A customer's profile.
    #[resource("users://{user_id}/profile", mime_type = "application/json", complete(user_id = Self::user_ids))]
    async fn profile(&self, user_id: u64) -> Result<Json<Profile>, ReadError> {
        match user_id {
            7 => Ok(Json(Profile { id: 7, name: "Ada" })),
            _ => Err(ReadError::not_found_because("no customer has that id")),
        }
    }

    /// A build's log, optionally a range of lines.
    #[resource("log://build/{job_id}{?lines}", title = "Build log", complete(job_id = Self::job_ids, lines = Self::ranges))]
    async fn build_log(&self, job_id: u64, lines: Option<String>) -> Result<String, ReadError> {
        match lines.as_deref() {
            None => Ok(format!("log of {job_id}")),
            Some("1-2") => Ok(format!("lines 1-2 of {job_id}")),
            Some(_) => Err(ReadError::invalid_argument(
                "lines",
                "`lines` must be `1-2`",
            )),
        }
    }

    /// Files under a directory, by segments.
    #[resource("tree://root{/segments*}", name = "tree")]
    async fn tree(&self, segments: Vec<String>, context: RequestContext<RoleServer>) -> String {
        let version = context.protocol_version().unwrap_or_default();
        format!("{} at {}", segments.join("|"), version.as_str())
    }

    async fn user_ids(&self, prefix: &str) -> Vec<String> {
        assert!(prefix.len() < 10);
        vec!["7".into(), "70".into(), "8".into()]
    }

    async fn job_ids(&self, completing: Completing<'_>) -> Vec<&'static str> {
        assert_eq!(completing.argument(), "job_id");
        match completing.chosen("lines") {
            Some(_) => vec!["41"],
            None => vec!["41", "42", "43"],
        }
    }

    fn ranges(&self) -> [&'static str; 2] {
        ["1-2", "1-3"]
    }
}

#[resource_handler(router = self.router, subscriptions = self.subscriptions)]
impl ServerHandler for Shop {}

type Client = RunningService<RoleClient, Heard>;
type Outcome<T = ()> = std::result::Result<T, Box<dyn std::error::Error>>;

async fn connect(
    shop: Shop,
    lifecycle: ClientLifecycleMode,
) -> Outcome<(Client, mpsc::UnboundedReceiver<String>)> {
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        if let Ok(server) = shop.serve(server_io).await {
            let _ = server.waiting().await;
        }
    });
    let (tx, rx) = mpsc::unbounded_channel();
    let client = Heard(tx).serve_with_lifecycle(client_io, lifecycle).await?;
    Ok((client, rx))
}

fn legacy() -> ClientLifecycleMode {
    ClientLifecycleMode::Initialize
}

fn modern() -> ClientLifecycleMode {
    ClientLifecycleMode::Discover {
        preferred_versions: vec![ProtocolVersion::V_2026_07_28],
    }
}

/// The URI a read's contents carry.
fn uri_of(contents: &ResourceContents) -> &str {
    match contents {
        ResourceContents::TextResourceContents { uri, .. }
        | ResourceContents::BlobResourceContents { uri, .. } => uri,
        other => panic!("contents without a URI: {other:?}"),
    }
}

async fn read(client: &Client, uri: &str) -> Outcome<ResourceContents> {
    let result = client
        .read_resource(ReadResourceRequestParams::new(uri))
        .await?;
    assert_eq!(result.contents.len(), 1, "{uri}");
    Ok(result.contents[0].clone())
}

/// Lists, reads, errors and completions; `not_found` is the code of the revision in use.
async fn check(client: &Client, not_found: ErrorCode, version: &str) -> Outcome {
    let info = client.peer_info().expect("server info");
    // Without a `name`, the server is named after the crate it is compiled in: this test's.
    assert_eq!(
        info.server_info.as_ref().expect("server info").name,
        env!("CARGO_CRATE_NAME")
    );
    let resources = info.capabilities.resources.as_ref().expect("resources");
    assert_eq!(resources.subscribe, Some(true));
    assert!(info.capabilities.completions.is_some());

    // Two a page, to the end, with the same cache hints on every page for 2026-07-28.
    let mut templates = Vec::new();
    let mut cursor = None;
    loop {
        let page = client
            .list_resource_templates(Some(PaginatedRequestParams::default().with_cursor(cursor)))
            .await?;
        assert!(page.resource_templates.len() <= 2);
        templates.extend(
            page.resource_templates
                .iter()
                .map(|t| t.uri_template.clone()),
        );
        cursor = page.next_cursor;
        if cursor.is_none() {
            break;
        }
    }
    assert_eq!(
        templates,
        [
            "users://{user_id}/profile",
            "log://build/{job_id}{?lines}",
            "tree://root{/segments*}"
        ]
    );
    let all = client.list_all_resource_templates().await?;
    let log = all
        .iter()
        .find(|t| t.name == "build_log")
        .expect("build_log");
    assert_eq!(log.title.as_deref(), Some("Build log"));
    assert_eq!(
        log.description.as_deref(),
        Some("A build's log, optionally a range of lines.")
    );
    assert!(all.iter().any(|t| t.name == "tree"));
    let statics = client.list_all_resources().await?;
    let logo = statics
        .iter()
        .find(|r| r.uri == "img://logo")
        .expect("logo");
    assert_eq!(
        (logo.size, logo.mime_type.as_deref()),
        (Some(4), Some("image/png"))
    );

    // Whatever the handler returns.
    let config = read(client, "config://app").await?;
    assert_eq!(
        text_of(&config),
        ("theme=dark\nlanguage=en", Some("text/plain"))
    );
    match read(client, "img://logo").await? {
        ResourceContents::BlobResourceContents {
            blob, mime_type, ..
        } => {
            assert_eq!(
                (blob.as_str(), mime_type.as_deref()),
                ("iVBORw==", Some("image/png"))
            );
        }
        other => panic!("not a blob: {other:?}"),
    }
    let profile = read(client, "users://7/profile").await?;
    assert_eq!(
        text_of(&profile),
        (r#"{"id":7,"name":"Ada"}"#, Some("application/json"))
    );
    assert_eq!(
        text_of(&read(client, "log://build/42").await?).0,
        "log of 42"
    );
    assert_eq!(
        text_of(&read(client, "log://build/42?lines=1-2").await?).0,
        "lines 1-2 of 42"
    );
    let tree = read(client, "tree://root/a/b%20c").await?;
    assert_eq!(text_of(&tree).0, format!("a|b c at {version}"));
    // A fragment is the client's: set aside to route, and echoed with the URI read; scheme
    // and host compare without case, and the URI is echoed as sent.
    let lines = read(client, "log://build/42?lines=1-2#L1").await?;
    assert_eq!(text_of(&lines).0, "lines 1-2 of 42");
    assert_eq!(uri_of(&lines), "log://build/42?lines=1-2#L1");
    let upper = read(client, "USERS://7/profile").await?;
    assert_eq!(uri_of(&upper), "USERS://7/profile");
    assert_eq!(text_of(&upper).0, r#"{"id":7,"name":"Ada"}"#);

    // Refusals: the code of the revision, data.uri, the rule named, the value never echoed.
    let err = read_error(client, "users://9/profile").await;
    assert_eq!(
        (err.code, &*err.message),
        (not_found, "Resource not found: no customer has that id")
    );
    assert_eq!(
        err.data,
        Some(serde_json::json!({"uri": "users://9/profile"}))
    );
    let err = read_error(client, "users://seven%21/profile").await;
    assert_eq!(err.code, not_found);
    assert_eq!(
        err.message,
        "Resource not found: variable `user_id` does not have the expected form"
    );
    let err = read_error(client, "tree://root/a/..%2F..%2Fetc").await;
    assert_eq!(err.code, not_found);
    assert!(err.message.contains("`segments`"), "{}", err.message);
    assert!(!err.message.contains("etc"), "{}", err.message);
    let err = read_error(client, "nope://x").await;
    assert_eq!((err.code, &*err.message), (not_found, "Resource not found"));
    // A handler that panics is an internal error, answered at once.
    let err = read_error(client, "bug://panic").await;
    assert_eq!(
        (err.code, &*err.message),
        (ErrorCode::INTERNAL_ERROR, "the resource's handler panicked")
    );
    let err = read_error(client, "log://build/42?lines=9").await;
    assert_eq!(
        (err.code, &*err.message),
        (ErrorCode::INVALID_PARAMS, "`lines` must be `1-2`")
    );

    // Completions: filtered by the prefix, with the values already chosen.
    assert_eq!(
        complete(client, "users://{user_id}/profile", "user_id", "7", &[]).await?,
        ["7", "70"]
    );
    let jobs = complete(client, "log://build/{job_id}{?lines}", "job_id", "4", &[]).await?;
    assert_eq!(jobs, ["41", "42", "43"]);
    let jobs = complete(
        client,
        "log://build/{job_id}{?lines}",
        "job_id",
        "",
        &[("lines", "1-2")],
    )
    .await?;
    assert_eq!(jobs, ["41"]);
    let ranges = complete(client, "log://build/{job_id}{?lines}", "lines", "1-3", &[]).await?;
    assert_eq!(ranges, ["1-3"]);
    assert!(
        complete(client, "tree://root{/segments*}", "segments", "", &[])
            .await?
            .is_empty()
    );
    match complete(client, "users://{id}", "id", "", &[]).await {
        Err(ServiceError::McpError(e)) => assert_eq!(e.code, ErrorCode::INVALID_PARAMS),
        other => panic!("unknown template: {other:?}"),
    }
    let prompt =
        CompleteRequestParams::new(Reference::for_prompt("greet"), ArgumentInfo::new("who", ""));
    match client.complete(prompt).await {
        Err(ServiceError::McpError(e)) => assert_eq!(e.code, ErrorCode::INVALID_PARAMS),
        other => panic!("a prompt reference: {other:?}"),
    }
    Ok(())
}

#[tokio::test]
async fn initialize_lifecycle_2025_11_25() -> Outcome {
    let (client, _updates) = connect(Shop::new(), legacy()).await?;
    check(&client, ErrorCode::RESOURCE_NOT_FOUND, "2025-11-25").await?;
    client.cancel().await?;
    Ok(())
}

#[tokio::test]
async fn discover_lifecycle_2026_07_28() -> Outcome {
    let (client, _updates) = connect(Shop::new(), modern()).await?;
    check(&client, ErrorCode::INVALID_PARAMS, "2026-07-28").await?;
    let page = client.list_resource_templates(None).await?;
    assert_eq!(
        (page.ttl_ms, page.cache_scope),
        (Some(0), Some(rmcp::model::CacheScope::Public))
    );
    client.cancel().await?;
    Ok(())
}

#[tokio::test]
#[allow(deprecated)]
async fn legacy_subscriptions_reach_a_uri_and_what_lies_under_it() -> Outcome {
    let shop = Shop::new();
    let (client, mut updates) = connect(shop.clone(), legacy()).await?;
    client
        .subscribe(SubscribeRequestParams::new("tree://root/a"))
        .await?;
    client
        .subscribe(SubscribeRequestParams::new("users://7/profile"))
        .await?;
    assert_eq!(shop.subscriptions.len(), 2);

    assert_eq!(shop.subscriptions.deliver_updated("tree://root/a/b"), 1);
    assert_eq!(updates.recv().await.as_deref(), Some("tree://root/a/b"));
    assert_eq!(shop.subscriptions.deliver_updated("users://7/profile"), 1);
    assert_eq!(updates.recv().await.as_deref(), Some("users://7/profile"));
    assert_eq!(shop.subscriptions.deliver_updated("users://8/profile"), 0);

    // Only URIs the router serves, at most three.
    match client
        .subscribe(SubscribeRequestParams::new("tree://root/..%2Fetc"))
        .await
    {
        Err(ServiceError::McpError(e)) => assert_eq!(e.code, ErrorCode::RESOURCE_NOT_FOUND),
        other => panic!("an unsafe URI: {other:?}"),
    }
    client
        .subscribe(SubscribeRequestParams::new("config://app"))
        .await?;
    match client
        .subscribe(SubscribeRequestParams::new("img://logo"))
        .await
    {
        Err(ServiceError::McpError(e)) => {
            assert_eq!(e.code, ErrorCode::INVALID_PARAMS);
            assert!(e.message.contains("at most 3"), "{}", e.message);
        }
        other => panic!("over the limit: {other:?}"),
    }
    client
        .unsubscribe(rmcp::model::UnsubscribeRequestParams::new("config://app"))
        .await?;
    assert_eq!(shop.subscriptions.len(), 2);
    client.cancel().await?;
    Ok(())
}

#[tokio::test]
async fn listen_streams_hear_of_their_uris_and_what_lies_under_them() -> Outcome {
    let shop = Shop::new();
    let (client, _updates) = connect(shop.clone(), modern()).await?;
    let mut filter = SubscriptionFilter::default();
    filter.resource_subscriptions = Some(vec![
        "tree://root/a".into(),
        "users://7/profile".into(),
        "nope://x".into(),
    ]);
    let mut stream = client.peer().listen(filter).await?;
    assert_eq!(
        stream.acknowledged().resource_subscriptions.as_deref(),
        Some(&["tree://root/a".to_owned(), "users://7/profile".to_owned()][..])
    );
    crate::common::eventually("2 subscribed", || shop.subscriptions.len() == 2).await;
    // A stream hears of a sub-resource as the resource it subscribed to.
    for (uri, heard) in [
        ("users://7/profile", "users://7/profile"),
        ("tree://root/a/b", "tree://root/a"),
    ] {
        assert_eq!(shop.subscriptions.deliver_updated(uri), 1);
        match stream.next().await? {
            Some(ServerNotification::ResourceUpdatedNotification(n)) => {
                assert_eq!(n.params.uri, heard)
            }
            other => panic!("{uri}: {other:?}"),
        }
    }
    assert_eq!(shop.subscriptions.deliver_updated("config://app"), 0);
    // Ended by the client, the stream leaves the set.
    stream.cancel().await?;
    for _ in 0..200 {
        if shop.subscriptions.is_empty() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
    assert_eq!(shop.subscriptions.len(), 0);
    client.cancel().await?;
    Ok(())
}

#[tokio::test]
#[allow(deprecated)]
async fn sessions_sharing_one_subscriptions_keep_their_own_sets() -> Outcome {
    let shop = Shop::new();
    let (ada, mut ada_hears) = connect(shop.clone(), legacy()).await?;
    let (bob, mut bob_hears) = connect(shop.clone(), legacy()).await?;
    ada.subscribe(SubscribeRequestParams::new("tree://root/a+b"))
        .await?;
    bob.subscribe(SubscribeRequestParams::new("users://7/profile"))
        .await?;
    // Each session has its own limit of three.
    for uri in ["config://app", "img://logo"] {
        bob.subscribe(SubscribeRequestParams::new(uri)).await?;
    }
    ada.subscribe(SubscribeRequestParams::new("config://app"))
        .await?;
    assert_eq!(shop.subscriptions.len(), 5);

    // Another spelling of Ada's URI reaches Ada only.
    assert_eq!(shop.subscriptions.deliver_updated("tree://root/a%2Bb/c"), 1);
    assert_eq!(
        ada_hears.recv().await.as_deref(),
        Some("tree://root/a%2Bb/c")
    );
    assert_eq!(shop.subscriptions.deliver_updated("users://7/profile"), 1);
    assert_eq!(bob_hears.recv().await.as_deref(), Some("users://7/profile"));
    // Both hear of what both subscribed to.
    assert_eq!(shop.subscriptions.deliver_updated("config://app"), 2);
    assert_eq!(ada_hears.recv().await.as_deref(), Some("config://app"));
    assert_eq!(bob_hears.recv().await.as_deref(), Some("config://app"));

    // A session that leaves is forgotten at the next notification.
    bob.cancel().await?;
    for _ in 0..200 {
        if shop.subscriptions.deliver_updated("users://7/profile") == 0 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
    assert_eq!(shop.subscriptions.len(), 2);
    ada.cancel().await?;
    Ok(())
}

#[tokio::test]
async fn listen_filters_count_each_uri_once_and_streams_are_bounded() -> Outcome {
    let shop = Shop {
        subscriptions: Subscriptions::new().limit(3).max_streams(1),
        ..Shop::new()
    };
    let (client, _updates) = connect(shop.clone(), modern()).await?;
    let mut filter = SubscriptionFilter::default();
    filter.resource_subscriptions = Some(vec!["config://app".into(); 5]);
    let mut stream = client.peer().listen(filter.clone()).await?;
    crate::common::eventually("1 subscribed", || shop.subscriptions.len() == 1).await;
    assert_eq!(shop.subscriptions.deliver_updated("config://app"), 1);
    assert!(matches!(
        stream.next().await?,
        Some(ServerNotification::ResourceUpdatedNotification(_))
    ));
    // The second stream is one too many.
    let second = client.peer().listen(filter).await;
    let mut second = second?;
    match second.next().await {
        Err(e) => assert!(
            format!("{e:?}").contains("too many subscription streams"),
            "{e:?}"
        ),
        Ok(other) => panic!("a second stream: {other:?}"),
    }
    stream.cancel().await?;
    client.cancel().await?;
    Ok(())
}
