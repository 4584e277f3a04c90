//! An MCP server over streamable HTTP on `rfc6570-rmcp`: the resources of `server/mod.rs`
//! (files, notes, build logs and a search), as `mcp_server.rs` serves them over stdio.
//!
//! ```sh
//! cargo run -p rfc6570-rmcp --example http_server    # http://127.0.0.1:8000/mcp
//! MCP_HTTP_ADDR=127.0.0.1:0 cargo run -p rfc6570-rmcp --example http_server   # any free port
//! ```
//!
//! It prints the URL it serves on its first line of standard output, and stops on Ctrl-C (or
//! SIGTERM), closing every session. `MCP_FILES_DIR` and `MCP_PAGE_SIZE` are as for
//! `mcp_server`.
//!
//! rmcp's HTTP service builds a handler per session (per request, for stateless 2026-07-28
//! clients) by calling the factory below. Each is a clone of one `Server`, so all of them share
//! the router and the subscriptions: `server.subscriptions.notify_updated(uri)`, from anywhere,
//! reaches every session subscribed to `uri`.

mod server;

use std::sync::Arc;

use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let server = server::Server::from_env()?;
    let addr = std::env::var("MCP_HTTP_ADDR").unwrap_or_else(|_| "127.0.0.1:8000".into());
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
    let listener = tokio::net::TcpListener::bind(&addr).await?;
    println!("http://{}/mcp", listener.local_addr()?);
    axum::serve(listener, app)
        .with_graceful_shutdown(async move {
            shutdown_signal().await;
            // Ends the open SSE streams too, which would otherwise hold the shutdown.
            stop.cancel();
        })
        .await?;
    Ok(())
}

/// Ctrl-C, or SIGTERM where there is one.
async fn shutdown_signal() {
    let ctrl_c = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
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
