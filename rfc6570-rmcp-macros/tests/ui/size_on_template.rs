// `size` is for a static resource, not for a template of many.
use rfc6570_rmcp::{resource, resource_handler, resource_router};
use rmcp::ServerHandler;

struct Users;

#[resource_router]
impl Users {
    #[resource("users://{user_id}/avatar", size = 4)]
    async fn avatar(&self, user_id: String) -> Vec<u8> {
        user_id.into_bytes()
    }
}

#[resource_handler]
impl ServerHandler for Users {}

fn main() {}
