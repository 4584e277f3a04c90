// rmcp's #[prompt_handler] writes `get_info` and takes no name: `name = ..` has nowhere to go
// but a `get_info` of the impl's own.
use rfc6570_rmcp::{resource, resource_handler, resource_router};
use rmcp::model::{PromptMessage, Role};
use rmcp::{prompt, prompt_handler, prompt_router, ServerHandler};

#[derive(Clone)]
struct Both;

#[prompt_router]
impl Both {
    #[prompt(name = "greeting")]
    async fn greeting(&self) -> Vec<PromptMessage> {
        vec![PromptMessage::new_text(Role::User, "hello")]
    }
}

#[resource_router]
impl Both {
    #[resource("config://app")]
    async fn config(&self) -> String {
        String::new()
    }
}

#[resource_handler(name = "both")]
#[prompt_handler]
impl ServerHandler for Both {}

fn main() {}
