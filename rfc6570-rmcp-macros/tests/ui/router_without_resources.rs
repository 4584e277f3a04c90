// A router with nothing to serve.
use rfc6570_rmcp::{resource_handler, resource_router};
use rmcp::ServerHandler;

struct Empty;

#[resource_router]
impl Empty {
    async fn config(&self) -> String {
        String::new()
    }
}

#[resource_handler]
impl ServerHandler for Empty {}

fn main() {}
