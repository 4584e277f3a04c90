//! The example server over streamable HTTP on loopback, as `examples/http_server.rs` serves it:
//! one `Server`, cloned for every session rmcp's HTTP service creates, so that one router and
//! one set of subscriptions serve them all. Two legacy sessions and one 2026-07-28 listen
//! stream subscribe to the same note; one `notify_updated` reaches all three.

#[allow(dead_code)]
#[path = "../../examples/server/mod.rs"]
mod server;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use rmcp::model::{
    ProtocolVersion, ReadResourceRequestParams, ServerNotification, SubscribeRequestParams,
    SubscriptionFilter,
};
use rmcp::service::{ClientLifecycleMode, RunningService};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{
    StreamableHttpClientTransport, StreamableHttpServerConfig, StreamableHttpService,
};
use rmcp::{ClientServiceExt, RoleClient};
use tokio::sync::mpsc;
use tokio::time::timeout;

use crate::common::Heard;

type Outcome<T = ()> = Result<T, Box<dyn std::error::Error>>;

/// How long a notification may take on loopback.
const BOUND: Duration = Duration::from_secs(10);

/// Serves `server` as the example does, on a free loopback port: its URL.
async fn serve(server: server::Server) -> Outcome<String> {
    let service = StreamableHttpService::new(
        move || Ok(server.clone()),
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default(),
    );
    let app = axum::Router::new().nest_service("/mcp", service);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let url = format!("http://{}/mcp", listener.local_addr()?);
    tokio::spawn(async move { axum::serve(listener, app).await });
    Ok(url)
}

type Client = RunningService<RoleClient, Heard>;

async fn connect(
    url: &str,
    lifecycle: ClientLifecycleMode,
) -> Outcome<(Client, mpsc::UnboundedReceiver<String>)> {
    let (tx, rx) = mpsc::unbounded_channel();
    let transport = StreamableHttpClientTransport::from_uri(url.to_owned());
    let client = Heard(tx).serve_with_lifecycle(transport, lifecycle).await?;
    Ok((client, rx))
}

fn example_server() -> Outcome<server::Server> {
    let data = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples/data");
    server::Server::new(data, 3)
}

#[tokio::test]
// `resources/subscribe` is the legacy revision's way, which the two first sessions speak.
#[allow(deprecated)]
async fn one_notify_updated_reaches_every_http_session() -> Outcome {
    let server = example_server()?;
    let url = serve(server.clone()).await?;
    let (ada, mut ada_heard) = connect(&url, ClientLifecycleMode::Initialize).await?;
    let (bob, mut bob_heard) = connect(&url, ClientLifecycleMode::Initialize).await?;
    let modern = ClientLifecycleMode::Discover {
        preferred_versions: vec![ProtocolVersion::V_2026_07_28],
    };
    let (cy, _) = connect(&url, modern).await?;

    // Each session reads through the shared router.
    for client in [&ada, &bob] {
        let read = client
            .read_resource(ReadResourceRequestParams::new("notes://todo"))
            .await?;
        assert_eq!(read.contents.len(), 1);
    }
    for client in [&ada, &bob] {
        client
            .subscribe(SubscribeRequestParams::new("notes://todo"))
            .await?;
    }
    let mut filter = SubscriptionFilter::default();
    filter.resource_subscriptions = Some(vec!["notes://todo".into()]);
    let mut stream = cy.peer().listen(filter).await?;
    // rmcp acknowledges the listen before the handler registers it.
    let deadline = std::time::Instant::now() + BOUND;
    while server.subscriptions.len() < 3 {
        assert!(
            std::time::Instant::now() < deadline,
            "the listen stream never registered"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }

    // Told once, from outside any session: all three hear of it.
    server.subscriptions.notify_updated("notes://todo").await?;
    for heard in [&mut ada_heard, &mut bob_heard] {
        assert_eq!(
            timeout(BOUND, heard.recv()).await?.as_deref(),
            Some("notes://todo")
        );
    }
    match timeout(BOUND, stream.next()).await?? {
        Some(ServerNotification::ResourceUpdatedNotification(n)) => {
            assert_eq!(n.params.uri, "notes://todo")
        }
        other => panic!("the listen stream: {other:?}"),
    }
    // A note nobody subscribed to reaches no one (`deliver_updated` is what a hub's task calls;
    // without a hub, `notify_updated` is it).
    assert_eq!(server.subscriptions.deliver_updated("notes://welcome"), 0);

    stream.cancel().await?;
    for client in [ada, bob] {
        client.cancel().await?;
    }
    cy.cancel().await?;
    Ok(())
}

/// The example as a newcomer starts it, without `MCP_HTTP_ADDR`, while port 8000 is taken: it
/// serves on a free port instead, prints the URL on its first line of standard output, and says
/// on standard error why and where.
#[tokio::test]
async fn the_example_takes_a_free_port_when_8000_is_taken_and_says_so() {
    use tokio::io::{AsyncBufReadExt, BufReader};
    // Held here, or by another program: taken either way.
    let _held = std::net::TcpListener::bind("127.0.0.1:8000");
    let mut child = tokio::process::Command::new(crate::mcp_rmcp::example_bin("http_server"))
        .env_remove("MCP_HTTP_ADDR")
        .env_remove("MCP_REDIS_URL")
        .env_remove("MCP_RUNNING_BUILD_MS")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("start the example");
    let mut stdout = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut stderr = BufReader::new(child.stderr.take().unwrap()).lines();
    let bound = Duration::from_secs(30);
    let url = timeout(bound, stdout.next_line())
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    let port = url
        .strip_prefix("http://127.0.0.1:")
        .and_then(|rest| rest.strip_suffix("/mcp"))
        .unwrap_or_else(|| panic!("{url}"));
    assert_ne!(port, "8000");
    let said = [
        timeout(bound, stderr.next_line()).await.unwrap().unwrap(),
        timeout(bound, stderr.next_line()).await.unwrap().unwrap(),
    ];
    assert_eq!(
        said,
        [
            Some("port 8000 is taken: serving on a free port (MCP_HTTP_ADDR chooses one)".into()),
            Some(format!(
                "serving MCP over streamable HTTP at {url}; Ctrl-C stops"
            )),
        ]
    );
    child.kill().await.unwrap();
}
