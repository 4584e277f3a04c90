// rmcp's #[tool_handler] writes `get_info`: `name = ..` goes on it, not on #[resource_handler].
use rfc6570_rmcp::{resource, resource_handler, resource_router};
use rmcp::{tool, tool_handler, tool_router, ServerHandler};

#[derive(Clone)]
struct Both;

#[tool_router]
impl Both {
    #[tool(description = "Answers pong")]
    fn ping(&self) -> String {
        "pong".into()
    }
}

#[resource_router]
impl Both {
    #[resource("config://app")]
    async fn config(&self) -> String {
        String::new()
    }
}

#[resource_handler(name = "both", version = "1.0.0")]
#[tool_handler]
impl ServerHandler for Both {}

fn main() {}
