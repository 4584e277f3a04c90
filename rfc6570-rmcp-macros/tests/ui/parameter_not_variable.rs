// `name` is a parameter, but the template has no such variable (the Python SDK's "Mismatch
// between URI parameters and function parameters", at compile time).
use rfc6570_rmcp::{resource, resource_handler, resource_router};
use rmcp::ServerHandler;

struct Users;

#[resource_router]
impl Users {
    #[resource("users://{user_id}/profile")]
    async fn profile(&self, user_id: u64, name: String) -> String {
        format!("{user_id} {name}")
    }

    // A misspelled variable: one error, with the name it likely means.
    #[resource("orders://{order_id}")]
    async fn order(&self, orderid: u64) -> String {
        orderid.to_string()
    }
}

#[resource_handler]
impl ServerHandler for Users {}

fn main() {}
