// One method, one template: a second `#[resource]` on the same method.
use rfc6570_rmcp::{resource, resource_handler, resource_router};
use rmcp::ServerHandler;

struct Users;

#[resource_router]
impl Users {
    #[resource("users://{user_id}")]
    #[resource("people://{user_id}")]
    async fn user(&self, user_id: String) -> String {
        user_id
    }
}

#[resource_handler]
impl ServerHandler for Users {}

fn main() {}
