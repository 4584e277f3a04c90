// A parameter's type must be `Deserialize`: rustc's error, at the parameter's type.
use rfc6570_rmcp::{resource, resource_handler, resource_router};
use rmcp::ServerHandler;

struct UserId(u64);

struct Lines(String);

struct Users;

#[resource_router]
impl Users {
    #[resource("users://{user_id}")]
    async fn user(&self, user_id: UserId) -> String {
        user_id.0.to_string()
    }

    // With several variables, rustc underlines from the first type to the last, and names
    // the one that is not `Deserialize`.
    #[resource("log://build/{job_id}{?lines}")]
    async fn log(&self, job_id: u64, lines: Option<Lines>) -> String {
        format!("{job_id} {}", lines.map(|l| l.0).unwrap_or_default())
    }
}

#[resource_handler]
impl ServerHandler for Users {}

fn main() {}
