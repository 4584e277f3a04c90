// A completer is a method of the same impl block.
use rfc6570_rmcp::{resource, resource_handler, resource_router};
use rmcp::ServerHandler;

struct Users;

async fn ids() -> Vec<String> {
    Vec::new()
}

#[resource_router]
impl Users {
    #[resource("users://{user_id}", complete(user_id = ids))]
    async fn user(&self, user_id: String) -> String {
        user_id
    }

    #[resource("groups://{group}", complete(group = Self::groups))]
    async fn group(&self, group: String) -> String {
        group
    }
}

#[resource_handler]
impl ServerHandler for Users {}

fn main() {}
