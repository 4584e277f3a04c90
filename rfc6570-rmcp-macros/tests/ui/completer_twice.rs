// One completer per variable: a second one would replace the first without a word.
use rfc6570_rmcp::{resource, resource_handler, resource_router};
use rmcp::ServerHandler;

struct Users;

#[resource_router]
impl Users {
    #[resource("users://{user_id}", complete(user_id = Self::ids, user_id = Self::more_ids))]
    async fn user(&self, user_id: String) -> String {
        user_id
    }

    async fn ids(&self) -> Vec<String> {
        Vec::new()
    }

    async fn more_ids(&self) -> Vec<String> {
        Vec::new()
    }
}

#[resource_handler]
impl ServerHandler for Users {}

fn main() {}
