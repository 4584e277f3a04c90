// An expression that is never closed.
use rfc6570_rmcp::{resource, resource_handler, resource_router};
use rmcp::ServerHandler;

struct Notes;

#[resource_router]
impl Notes {
    #[resource("notes://{id")]
    async fn note(&self, id: String) -> String {
        id
    }
}

#[resource_handler]
impl ServerHandler for Notes {}

fn main() {}
