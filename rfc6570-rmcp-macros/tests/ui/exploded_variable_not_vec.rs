// An exploded variable holds a list, so its parameter is a `Vec` (or a map).
use rfc6570_rmcp::{resource, resource_handler, resource_router};
use rmcp::ServerHandler;

struct Tree;

#[resource_router]
impl Tree {
    #[resource("tree://root{/segments*}")]
    async fn tree(&self, segments: String) -> String {
        segments
    }
}

#[resource_handler]
impl ServerHandler for Tree {}

fn main() {}
