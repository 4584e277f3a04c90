//! The conformance server: what `@modelcontextprotocol/conformance` asks of a server, over
//! streamable HTTP on loopback. Resources come from `rfc6570-rmcp` (`resources.rs`), tools and
//! prompts from rmcp's own macros (`tools.rs`, `prompts.rs`), on one `ServerHandler`, as a
//! server that uses the bridge would be built. `prompts/get` and `prompts/list` are written by
//! hand because one prompt asks for input first, which rmcp's prompt macros do not see.
//!
//! ```sh
//! cargo run -p rfc6570-conformance        # prints its URL: http://127.0.0.1:<port>/mcp
//! ```
//!
//! `MCP_HTTP_ADDR` sets the address (`127.0.0.1:0`, any free port, by default).

// The 2025-11-25 scenarios test logging, sampling and roots, which 2026-07-28 deprecates
// (SEP-2577); rmcp marks them deprecated.
#![allow(deprecated)]

mod input_required;
mod prompts;
mod resources;
mod tools;

use std::sync::Arc;

use rfc6570_rmcp::{ResourceRouter, Subscriptions, resource_handler};
use rmcp::handler::server::router::prompt::PromptRouter;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::{
    ErrorData, GetPromptRequestParams, GetPromptResponse, Implementation, ListPromptsResult,
    PaginatedRequestParams, RequestStateCodec, ServerCapabilities, ServerConfig,
    SetLevelRequestParams,
};
use rmcp::service::RequestContext;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{RoleServer, ServerHandler, tool_handler};

/// Seals `requestState` (SEP-2322). A fixed key serves a test harness; a real server keeps its
/// key out of clients' reach.
const REQUEST_STATE_KEY: &[u8] = b"rfc6570-conformance-request-state-key-0123";

/// The server's state: cheap to clone, and every clone shares it.
#[derive(Clone)]
pub struct Conformance {
    resources: Arc<ResourceRouter<Conformance>>,
    subscriptions: Subscriptions,
    tool_router: ToolRouter<Conformance>,
    prompt_router: PromptRouter<Conformance>,
    request_state: RequestStateCodec,
}

impl Conformance {
    fn new() -> Self {
        Self {
            resources: Arc::new(Self::resource_router()),
            subscriptions: Subscriptions::new(),
            tool_router: Self::tools() + Self::input_required_tools() + Self::stateless_probes(),
            prompt_router: Self::prompt_router(),
            request_state: RequestStateCodec::new_unchecked(REQUEST_STATE_KEY),
        }
    }
}

#[resource_handler(router = self.resources, subscriptions = self.subscriptions)]
#[tool_handler(router = self.tool_router)]
impl ServerHandler for Conformance {
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_prompts()
            .enable_logging()
            .build();
        ServerConfig::new(capabilities)
            .with_server_info(Implementation::new("rfc6570-conformance", "0.0.0"))
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Ok(ListPromptsResult::with_all_items(self.prompts()))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        self.prompt(request, context).await
    }

    async fn set_level(
        &self,
        _request: SetLevelRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        Ok(())
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let server = Conformance::new();
    let addr = std::env::var("MCP_HTTP_ADDR").unwrap_or_else(|_| "127.0.0.1:0".into());
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
            let _ = tokio::signal::ctrl_c().await;
            stop.cancel();
        })
        .await?;
    Ok(())
}
