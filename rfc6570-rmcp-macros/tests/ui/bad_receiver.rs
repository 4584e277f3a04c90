// A resource method takes `&self`: not `self`, not `&mut self`, not nothing.
use rfc6570_rmcp::{resource, resource_handler, resource_router};
use rmcp::ServerHandler;

struct Config;

#[resource_router]
impl Config {
    #[resource("config://owned")]
    async fn owned(self) -> String {
        String::new()
    }

    #[resource("config://mutable")]
    async fn mutable(&mut self) -> String {
        String::new()
    }

    #[resource("config://none")]
    async fn none() -> String {
        String::new()
    }

    #[resource("config://{key}")]
    async fn keyed(key: String) -> String {
        key
    }
}

#[resource_handler]
impl ServerHandler for Config {}

fn main() {}
