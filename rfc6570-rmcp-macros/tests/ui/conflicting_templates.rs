// Two templates that match the same URIs: the error names both methods.
use rfc6570_rmcp::{resource, resource_handler, resource_router};
use rmcp::ServerHandler;

struct Users;

#[resource_router]
impl Users {
    #[resource("users://{id}")]
    async fn by_id(&self, id: u64) -> String {
        id.to_string()
    }

    #[resource("users://{name}")]
    async fn by_name(&self, name: String) -> String {
        name
    }
}

#[resource_handler]
impl ServerHandler for Users {}

fn main() {}
