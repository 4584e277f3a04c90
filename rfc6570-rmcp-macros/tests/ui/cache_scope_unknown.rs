// `cache_scope` takes MCP's two values.
use rfc6570_rmcp::{resource, resource_router};

struct Config;

#[resource_router]
impl Config {
    #[resource("config://app", ttl_ms = 60_000, cache_scope = "shared")]
    async fn config(&self) -> String {
        String::new()
    }
}

fn main() {}
