// A variable of the template that no parameter binds.
use rfc6570_rmcp::{resource, resource_handler, resource_router};
use rmcp::ServerHandler;

struct Users;

#[resource_router]
impl Users {
    #[resource("users://{user_id}/profile")]
    async fn profile(&self) -> String {
        String::new()
    }

    // A keyword is a variable name too: the parameter is `r#type`.
    #[resource("items://{type}/{id}")]
    async fn item(&self, id: u64) -> String {
        id.to_string()
    }
}

#[resource_handler]
impl ServerHandler for Users {}

fn main() {}
