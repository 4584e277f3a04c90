// `user.id` is a valid template variable but not a Rust identifier: no parameter can bind it.
use rfc6570_rmcp::{resource, resource_handler, resource_router};
use rmcp::ServerHandler;

struct Users;

#[resource_router]
impl Users {
    #[resource("x://{user.id}")]
    async fn user(&self) -> String {
        String::new()
    }
}

#[resource_handler]
impl ServerHandler for Users {}

fn main() {}
