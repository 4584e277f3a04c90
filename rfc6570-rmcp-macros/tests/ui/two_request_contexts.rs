// At most one `RequestContext`.
use rfc6570_rmcp::{resource, resource_handler, resource_router};
use rmcp::service::RequestContext;
use rmcp::{RoleServer, ServerHandler};

struct Users;

#[resource_router]
impl Users {
    #[resource("users://{user_id}")]
    async fn user(
        &self,
        user_id: String,
        first: RequestContext<RoleServer>,
        second: RequestContext<RoleServer>,
    ) -> String {
        drop((first, second));
        user_id
    }
}

#[resource_handler]
impl ServerHandler for Users {}

fn main() {}
