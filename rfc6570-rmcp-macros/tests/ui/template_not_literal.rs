// The template must be a string literal, so that the macro can read it.
use rfc6570_rmcp::{resource, resource_handler, resource_router};
use rmcp::ServerHandler;

const TEMPLATE: &str = "users://{user_id}";

struct Users;

#[resource_router]
impl Users {
    #[resource(TEMPLATE)]
    async fn user(&self, user_id: String) -> String {
        user_id
    }
}

#[resource_handler]
impl ServerHandler for Users {}

fn main() {}
