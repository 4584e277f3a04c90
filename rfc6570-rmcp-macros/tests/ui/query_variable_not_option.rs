// A query variable may be left out of the URI, so its parameter is an `Option`.
use rfc6570_rmcp::{resource, resource_handler, resource_router};
use rmcp::ServerHandler;

struct Logs;

#[resource_router]
impl Logs {
    #[resource("log://build/{job_id}{?lines}")]
    async fn log(&self, job_id: u64, lines: String) -> String {
        format!("{job_id} {lines}")
    }
}

#[resource_handler]
impl ServerHandler for Logs {}

fn main() {}
