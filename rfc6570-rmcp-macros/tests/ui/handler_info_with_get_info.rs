// `name = ..` belongs in the impl's own `get_info`, when it writes one.
use rfc6570_rmcp::{resource, resource_handler, resource_router};
use rmcp::model::ServerConfig;
use rmcp::ServerHandler;

struct Config;

#[resource_router]
impl Config {
    #[resource("config://app")]
    async fn config(&self) -> String {
        String::new()
    }
}

#[resource_handler(name = "x")]
impl ServerHandler for Config {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(Default::default())
    }
}

fn main() {}
