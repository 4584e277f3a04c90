// A misspelled option: the message suggests the right one.
use rfc6570_rmcp::{resource, resource_handler, resource_router};
use rmcp::ServerHandler;

struct Config;

#[resource_router]
impl Config {
    #[resource("config://app", mimetype = "text/plain")]
    async fn config(&self) -> String {
        String::new()
    }
}

#[resource_handler]
impl ServerHandler for Config {}

fn main() {}
