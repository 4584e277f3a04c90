//! The bridge's cost over HTTP: `resources/read` on loopback through `#[resource_router]`
//! (routing, decoding, path safety), against a hand-written rmcp `read_resource` that finds the
//! same document with `starts_with` and `strip_prefix`, on the same server setup, transport and
//! client. Throughput and p50/p99 latency for both, measured in alternating rounds of one run;
//! then the same over in-memory pipes, without HTTP, where the bridge's own work weighs more.
//!
//! ```sh
//! cargo bench -p rfc6570-rmcp --bench http_read              # 6 rounds of 5,000 reads each
//! HTTP_READ_REQUESTS=1000 cargo bench -p rfc6570-rmcp --bench http_read
//! ```
//!
//! Bounded: each round stops at its request count or after 60 s, whichever comes first.

use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, Instant};

use rfc6570_rmcp::{ReadError, resource, resource_handler, resource_router};
use rmcp::model::{
    ErrorData, ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult,
    ResourceContents, ServerCapabilities, ServerConfig,
};
use rmcp::service::{RequestContext, RunningService};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{
    StreamableHttpClientTransport, StreamableHttpServerConfig, StreamableHttpService,
};
use rmcp::{RoleClient, RoleServer, ServerHandler, ServiceExt};

/// The documents both servers serve, by path.
const DOCS: &[(&str, &str)] = &[
    (
        "guide/intro.md",
        "# Intro\n\nTemplates, expanded and matched.",
    ),
    (
        "guide/routing.md",
        "# Routing\n\nOne router for many templates.",
    ),
    (
        "guide/safety.md",
        "# Safety\n\nNo `..` ever reaches a handler.",
    ),
    ("notes/a b.md", "A note whose name has a space."),
    ("notes/todo.md", "- measure\n- publish"),
    ("api/v1/users.json", "{\"users\": []}"),
];

/// What clients ask for: every document, one with its space percent-encoded.
const URIS: &[&str] = &[
    "docs://guide/intro.md",
    "docs://guide/routing.md",
    "docs://guide/safety.md",
    "docs://notes/a%20b.md",
    "docs://notes/todo.md",
    "docs://api/v1/users.json",
];

fn find(path: &str) -> Option<&'static str> {
    DOCS.iter().find(|(p, _)| *p == path).map(|(_, text)| *text)
}

#[derive(Clone)]
struct Bridge;

#[resource_router]
impl Bridge {
    #[resource("docs://{+path}", mime_type = "text/markdown")]
    async fn doc(&self, path: String) -> Result<&'static str, ReadError> {
        find(&path).ok_or(ReadError::not_found())
    }
}

#[resource_handler]
impl ServerHandler for Bridge {}

/// The same reads by hand: the prefix cut off, the one encoded space decoded, no path safety.
#[derive(Clone)]
struct ByHand;

impl ServerHandler for ByHand {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_resources().build())
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let uri = request.uri.as_str();
        let not_found = || ErrorData::resource_not_found("not found", None);
        if !uri.starts_with("docs://") {
            return Err(not_found());
        }
        let path = uri.strip_prefix("docs://").ok_or_else(not_found)?;
        let path = path.replace("%20", " ");
        let text = find(&path).ok_or_else(not_found)?;
        let contents = ResourceContents::text(text, uri).with_mime_type("text/markdown");
        Ok(ReadResourceResult::new(vec![contents]).into())
    }
}

/// Serves `handler` on a free loopback port, as `examples/http_server.rs` does: its URL.
async fn serve<S: ServerHandler + Clone + Send + Sync + 'static>(
    handler: S,
) -> std::io::Result<String> {
    let service = StreamableHttpService::new(
        move || Ok(handler.clone()),
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default(),
    );
    let app = axum::Router::new().nest_service("/mcp", service);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let url = format!("http://{}/mcp", listener.local_addr()?);
    tokio::spawn(async move { axum::serve(listener, app).await });
    Ok(url)
}

type Client = RunningService<RoleClient, ()>;

/// One measured round: `requests` reads spread over `clients`, each client reading in turn.
/// The latencies of every read, and the wall time.
async fn round(clients: &[Arc<Client>], requests: usize) -> (Vec<Duration>, Duration) {
    let per_client = requests / clients.len();
    let deadline = Instant::now() + Duration::from_secs(60);
    let start = Instant::now();
    let tasks: Vec<_> = clients
        .iter()
        .enumerate()
        .map(|(c, client)| {
            let client = Arc::clone(client);
            tokio::spawn(async move {
                let mut latencies = Vec::with_capacity(per_client);
                for i in 0..per_client {
                    if Instant::now() > deadline {
                        break;
                    }
                    let uri = URIS[(c + i) % URIS.len()];
                    let t = Instant::now();
                    let read = client
                        .read_resource(ReadResourceRequestParams::new(uri))
                        .await
                        .expect("a read");
                    latencies.push(t.elapsed());
                    assert_eq!(read.contents.len(), 1);
                }
                latencies
            })
        })
        .collect();
    let mut all = Vec::with_capacity(requests);
    for task in tasks {
        all.extend(task.await.expect("a client task"));
    }
    (all, start.elapsed())
}

#[derive(Default)]
struct Tally {
    latencies: Vec<Duration>,
    wall: Duration,
}

impl Tally {
    fn add(&mut self, (latencies, wall): (Vec<Duration>, Duration)) {
        self.latencies.extend(latencies);
        self.wall += wall;
    }

    fn throughput(&self) -> f64 {
        self.latencies.len() as f64 / self.wall.as_secs_f64()
    }

    fn percentile(&mut self, p: f64) -> Duration {
        self.latencies.sort_unstable();
        let at = ((self.latencies.len().max(1) as f64 - 1.0) * p).round() as usize;
        self.latencies.get(at).copied().unwrap_or_default()
    }
}

/// `count` clients of `handler` over in-memory pipes, one server task each: the same reads
/// without HTTP, where the bridge's own work is a larger share of a read.
async fn connect_in_memory<S: ServerHandler + Clone + Send + Sync + 'static>(
    handler: S,
    count: usize,
) -> Result<Vec<Arc<Client>>, Box<dyn std::error::Error>> {
    let mut clients = Vec::with_capacity(count);
    for _ in 0..count {
        let (server_io, client_io) = tokio::io::duplex(1 << 16);
        let handler = handler.clone();
        tokio::spawn(async move {
            if let Ok(running) = handler.serve(server_io).await {
                let _ = running.waiting().await;
            }
        });
        clients.push(Arc::new(().serve(client_io).await?));
    }
    Ok(clients)
}

async fn connect(url: &str, count: usize) -> Result<Vec<Arc<Client>>, Box<dyn std::error::Error>> {
    let mut clients = Vec::with_capacity(count);
    for _ in 0..count {
        let transport = StreamableHttpClientTransport::from_uri(url.to_owned());
        clients.push(Arc::new(().serve(transport).await?));
    }
    Ok(clients)
}

fn within<F: Future>(f: F) -> impl Future<Output = Result<F::Output, tokio::time::error::Elapsed>> {
    tokio::time::timeout(Duration::from_secs(120), f)
}

/// Reads through `bridge` and `by_hand` in alternating rounds, and prints their table.
async fn compare(
    transport: &str,
    bridge: &[Arc<Client>],
    by_hand: &[Arc<Client>],
    requests: usize,
    concurrency: usize,
) -> Result<(), Box<dyn std::error::Error>> {
    // Both answer alike before anything is measured.
    for uri in URIS {
        let params = ReadResourceRequestParams::new(*uri);
        let ours = bridge[0].read_resource(params.clone()).await?;
        let theirs = by_hand[0].read_resource(params).await?;
        assert_eq!(ours.contents, theirs.contents, "{uri}");
    }
    within(round(bridge, requests / 5)).await?;
    within(round(by_hand, requests / 5)).await?;
    let (mut through_bridge, mut through_hand) = (Tally::default(), Tally::default());
    for _ in 0..ROUNDS {
        through_bridge.add(within(round(bridge, requests)).await?);
        through_hand.add(within(round(by_hand, requests)).await?);
    }
    println!(
        "\nresources/read over {transport}, {concurrency} clients, {ROUNDS} alternating rounds of {requests} reads"
    );
    println!("| server | reads | reads/s | p50 | p99 |");
    println!("|---|---|---|---|---|");
    for (name, tally) in [
        ("bridge", &mut through_bridge),
        ("by hand", &mut through_hand),
    ] {
        let (p50, p99) = (tally.percentile(0.50), tally.percentile(0.99));
        println!(
            "| {name} | {} | {:.0} | {:.0} µs | {:.0} µs |",
            tally.latencies.len(),
            tally.throughput(),
            p50.as_secs_f64() * 1e6,
            p99.as_secs_f64() * 1e6
        );
    }
    let ratio = through_hand.throughput() / through_bridge.throughput();
    let p50 =
        through_bridge.percentile(0.5).as_secs_f64() / through_hand.percentile(0.5).as_secs_f64();
    let p99 =
        through_bridge.percentile(0.99).as_secs_f64() / through_hand.percentile(0.99).as_secs_f64();
    println!("bridge / by hand: time per read {ratio:.3}, p50 {p50:.3}, p99 {p99:.3}");
    Ok(())
}

/// Measured rounds per server, alternating, so that drift in the machine reaches both alike.
const ROUNDS: usize = 6;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    // The size comes from the environment: `cargo bench` passes `--bench`, and this bench reads
    // no arguments.
    let requests: usize = std::env::var("HTTP_READ_REQUESTS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(5_000);
    let concurrency = 8;
    let over_http = (
        connect(&serve(Bridge).await?, concurrency).await?,
        connect(&serve(ByHand).await?, concurrency).await?,
    );
    let in_memory = (
        connect_in_memory(Bridge, concurrency).await?,
        connect_in_memory(ByHand, concurrency).await?,
    );
    for (transport, (bridge, by_hand)) in [
        ("streamable HTTP on loopback", &over_http),
        ("in-memory pipes", &in_memory),
    ] {
        compare(transport, bridge, by_hand, requests, concurrency).await?;
    }
    for client in [over_http.0, over_http.1, in_memory.0, in_memory.1]
        .into_iter()
        .flatten()
    {
        if let Ok(client) = Arc::try_unwrap(client) {
            client.cancel().await?;
        }
    }
    Ok(())
}
