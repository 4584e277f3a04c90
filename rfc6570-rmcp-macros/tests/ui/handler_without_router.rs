// `#[resource_router]` forgotten: the `#[resource]` says so, and so does the handler that
// would serve its router.
use rfc6570_rmcp::{resource, resource_handler};
use rmcp::ServerHandler;

struct Config;

impl Config {
    #[resource("config://app")]
    async fn config(&self) -> String {
        String::new()
    }
}

#[resource_handler]
impl ServerHandler for Config {}

fn main() {}
