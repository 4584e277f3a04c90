// `#[resource_handler]` fills in `impl ServerHandler for ..`, not an inherent impl or another
// trait's impl.
use rfc6570_rmcp::{resource, resource_handler, resource_router};

struct Config;

#[resource_router]
impl Config {
    #[resource("config://app")]
    async fn config(&self) -> String {
        String::new()
    }
}

#[resource_handler]
impl Config {
    fn helper(&self) {}
}

#[resource_handler]
impl Clone for Config {
    fn clone(&self) -> Self {
        Config
    }
}

#[resource_handler]
fn free() {}

fn main() {}
