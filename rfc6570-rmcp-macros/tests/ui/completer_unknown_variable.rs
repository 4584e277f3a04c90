// `complete(..)` names a variable the template does not have.
use rfc6570_rmcp::{resource, resource_handler, resource_router};
use rmcp::ServerHandler;

struct Users;

#[resource_router]
impl Users {
    #[resource("users://{user_id}", complete(userid = Self::ids))]
    async fn user(&self, user_id: String) -> String {
        user_id
    }

    async fn ids(&self) -> Vec<String> {
        Vec::new()
    }
}

#[resource_handler]
impl ServerHandler for Users {}

fn main() {}
