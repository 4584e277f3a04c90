// Captures are decoded into new strings: a parameter cannot borrow them.
use rfc6570_rmcp::{resource, resource_handler, resource_router};
use rmcp::ServerHandler;

struct Users;

#[resource_router]
impl Users {
    #[resource("users://{user_id}")]
    async fn user(&self, user_id: &str) -> String {
        user_id.to_owned()
    }

    #[resource("search://users{?name}")]
    async fn search(&self, name: Option<&str>) -> String {
        name.unwrap_or_default().to_owned()
    }
}

#[resource_handler]
impl ServerHandler for Users {}

fn main() {}
