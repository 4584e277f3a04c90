// #[tool_handler] above #[resource_handler(name = ..)] expands first and writes `get_info`: the
// message says so, and how to fix it.
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

#[tool_handler]
#[resource_handler(name = "both", version = "1.0.0")]
impl ServerHandler for Both {}

fn main() {}
