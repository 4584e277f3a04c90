//! An MCP server over streamable HTTP on `rfc6570-rmcp`: the resources of `server/mod.rs`
//! (files, notes, build logs and a search), as `mcp_server.rs` serves them over stdio.
//!
//! ```sh
//! cargo run -p rfc6570-rmcp --example http_server    # http://127.0.0.1:8000/mcp
//! MCP_HTTP_ADDR=127.0.0.1:0 cargo run -p rfc6570-rmcp --example http_server   # any free port
//! ```
//!
//! It prints the URL it serves on its first line of standard output (and, on standard error,
//! how to reach and stop it), and stops on Ctrl-C (or SIGTERM), closing every session. Where
//! port 8000 is taken and `MCP_HTTP_ADDR` is not set, it serves on a free port instead, and
//! says so. `MCP_FILES_DIR` and `MCP_PAGE_SIZE` are as for
//! `mcp_server`.
//!
//! Several replicas (feature `redis`): with `MCP_REDIS_URL` set, the replicas share their
//! notifications over Redis, and a subscriber hears of a change whichever replica, or whichever
//! worker (`examples/publish.rs`), made it. `MCP_RUNNING_BUILD_MS=N` stands in for such a
//! change: every `N` ms, the build that runs beside this replica (job 43) notifies
//! `log://build/43`.
//!
//! ```sh
//! redis-server --port 6379 &
//! export MCP_REDIS_URL=redis://127.0.0.1:6379/
//! MCP_HTTP_ADDR=127.0.0.1:8001 cargo run -p rfc6570-rmcp --features redis --example http_server &
//! MCP_HTTP_ADDR=127.0.0.1:8002 MCP_RUNNING_BUILD_MS=1000 cargo run -p rfc6570-rmcp --features redis --example http_server
//! ```
//!
//! rmcp's HTTP service builds a handler per session (per request, for stateless 2026-07-28
//! clients) by calling the factory below. Each is a clone of one `Server`, so all of them share
//! the router and the subscriptions: `server.subscriptions.notify_updated(uri)`, from anywhere,
//! reaches every session subscribed to `uri`.

mod server;

use std::sync::Arc;
use std::time::Duration;

use rfc6570_rmcp::Subscriptions;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut server = server::Server::from_env()?;
    if let Ok(url) = std::env::var("MCP_REDIS_URL") {
        server.subscriptions = over_redis(server.subscriptions, &url).await?;
    }
    if let Some(every) = env_millis("MCP_RUNNING_BUILD_MS")? {
        tokio::spawn(running_build(server.clone(), every));
    }
    // Loopback hosts only, rmcp's default: a public deployment lists its own host names with
    // `with_allowed_hosts`.
    let config = StreamableHttpServerConfig::default();
    let stop = config.cancellation_token.clone();
    let service = StreamableHttpService::new(
        move || Ok(server.clone()),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    let app = axum::Router::new().nest_service("/mcp", service);
    let listener = listen().await?;
    let url = format!("http://{}/mcp", listener.local_addr()?);
    println!("{url}");
    eprintln!("serving MCP over streamable HTTP at {url}; Ctrl-C stops");
    axum::serve(listener, app)
        .with_graceful_shutdown(async move {
            shutdown_signal().await;
            // Ends the open SSE streams too, which would otherwise hold the shutdown.
            stop.cancel();
        })
        .await?;
    Ok(())
}

/// The listener at `MCP_HTTP_ADDR`, or else at 127.0.0.1:8000, or, where that port is taken,
/// at a free one: an example that fails because another program holds its port helps no one.
async fn listen() -> std::io::Result<tokio::net::TcpListener> {
    if let Ok(addr) = std::env::var("MCP_HTTP_ADDR") {
        return tokio::net::TcpListener::bind(&addr).await;
    }
    match tokio::net::TcpListener::bind("127.0.0.1:8000").await {
        Err(e) if e.kind() == std::io::ErrorKind::AddrInUse => {
            eprintln!("port 8000 is taken: serving on a free port (MCP_HTTP_ADDR chooses one)");
            tokio::net::TcpListener::bind("127.0.0.1:0").await
        }
        bound => bound,
    }
}

/// `subscriptions`, shared with every replica over the Redis at `url`.
#[cfg(feature = "redis")]
async fn over_redis(
    subscriptions: Subscriptions,
    url: &str,
) -> Result<Subscriptions, rfc6570_rmcp::HubError> {
    let channel = rfc6570_rmcp::RedisHub::channel("rfc6570", "rfc6570-example");
    subscriptions.hub(rfc6570_rmcp::RedisHub::connect(url, &channel).await?)
}

#[cfg(not(feature = "redis"))]
async fn over_redis(_: Subscriptions, _: &str) -> Result<Subscriptions, String> {
    Err("MCP_REDIS_URL is set, but this server was built without the `redis` feature".into())
}

/// The build that runs beside this replica: every `every`, its log grew, and every replica's
/// subscribers of `log://build/43` are told. While Redis is away, this replica's own
/// subscribers are still told, and the others hear that they may have missed something once
/// it is back.
async fn running_build(server: server::Server, every: Duration) {
    let mut tick = tokio::time::interval(every);
    // After a publish that waited on Redis, the next tick comes a period later, not at once.
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut was_away = false;
    loop {
        tick.tick().await;
        let away = server
            .subscriptions
            .notify_updated("log://build/43")
            .await
            .err();
        if let Some(e) = &away {
            if !was_away {
                let cause = std::error::Error::source(e).map(|s| format!(" ({s})"));
                let cause = cause.unwrap_or_default();
                eprintln!("the build's notices reach this replica only: {e}{cause}");
            }
        } else if was_away {
            eprintln!("the build's notices reach every replica again");
        }
        was_away = away.is_some();
    }
}

/// The milliseconds in the environment variable `name`, if it is set.
fn env_millis(name: &str) -> Result<Option<Duration>, Box<dyn std::error::Error>> {
    match std::env::var(name) {
        Err(_) => Ok(None),
        Ok(ms) => {
            let ms: u64 = ms.parse().map_err(|e| format!("{name}={ms}: {e}"))?;
            Ok(Some(Duration::from_millis(ms.max(1))))
        }
    }
}

/// Ctrl-C, or SIGTERM where there is one.
async fn shutdown_signal() {
    let ctrl_c = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => tokio::select! {
                _ = ctrl_c => {},
                _ = term.recv() => {},
            },
            Err(_) => drop(ctrl_c.await),
        }
    }
    #[cfg(not(unix))]
    drop(ctrl_c.await);
}
