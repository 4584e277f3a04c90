// A resource method returns contents: text, bytes, `Json`, .. not a number.
use rfc6570_rmcp::{resource, resource_handler, resource_router};
use rmcp::ServerHandler;

struct Counter;

#[resource_router]
impl Counter {
    #[resource("count://now")]
    async fn now(&self) -> u32 {
        7
    }
}

#[resource_handler]
impl ServerHandler for Counter {}

fn main() {}
