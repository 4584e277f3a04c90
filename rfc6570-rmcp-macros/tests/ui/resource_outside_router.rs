// `#[resource]` without `#[resource_router]` on its impl block, and on a free function.
use rfc6570_rmcp::resource;

struct Config;

impl Config {
    #[resource("config://app")]
    async fn config(&self) -> String {
        String::new()
    }
}

#[resource("config://free")]
async fn free() -> String {
    String::new()
}

fn main() {}
