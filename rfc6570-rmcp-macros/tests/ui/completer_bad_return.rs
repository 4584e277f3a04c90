// A completer returns candidates: strings, not a number.
use rfc6570_rmcp::{resource, resource_handler, resource_router};
use rmcp::ServerHandler;

struct Users;

#[resource_router]
impl Users {
    #[resource("users://{user_id}", complete(user_id = Self::ids))]
    async fn user(&self, user_id: String) -> String {
        user_id
    }

    async fn ids(&self) -> u32 {
        7
    }
}

#[resource_handler]
impl ServerHandler for Users {}

fn main() {}
