// No template at all, and options without one.
use rfc6570_rmcp::{resource, resource_handler, resource_router};
use rmcp::ServerHandler;

struct Config;

#[resource_router]
impl Config {
    #[resource]
    async fn bare(&self) -> String {
        String::new()
    }

    #[resource(name = "x")]
    async fn named(&self) -> String {
        String::new()
    }
}

#[resource_handler]
impl ServerHandler for Config {}

fn main() {}
