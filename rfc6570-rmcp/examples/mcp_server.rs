//! An MCP server over stdio on `rfc6570-rmcp`: the resources of `server/mod.rs` (files, notes,
//! build logs and a search). `http_server.rs` serves the same over streamable HTTP.
//!
//! ```sh
//! cargo run -p rfc6570-rmcp --example mcp_server               # serves examples/data/
//! cargo run -p rfc6570-rmcp --example mcp_server -- /some/dir  # or MCP_FILES_DIR=/some/dir
//! ```
//!
//! `MCP_PAGE_SIZE` sets the page size of the lists (3 by default, so that clients page).

mod server;

use rmcp::service::ServerInitializeError;
use rmcp::{ServiceExt, transport::stdio};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let server = server::Server::from_env()?;
    match server.serve(stdio()).await {
        Ok(service) => drop(service.waiting().await?),
        // A client that left before the handshake (or after a `server/discover` probe alone).
        Err(ServerInitializeError::ConnectionClosed(_)) => {}
        Err(e) => return Err(e.into()),
    }
    Ok(())
}
