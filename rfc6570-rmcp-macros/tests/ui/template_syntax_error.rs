// A space is not allowed in a variable name: the parser's message, with a caret at the byte.
use rfc6570_rmcp::{resource, resource_handler, resource_router};
use rmcp::ServerHandler;

struct Users;

#[resource_router]
impl Users {
    #[resource("users://{user id}")]
    async fn user(&self, user_id: String) -> String {
        user_id
    }
}

#[resource_handler]
impl ServerHandler for Users {}

fn main() {}
