// `free_text(..)` names a variable the template does not have.
use rfc6570_rmcp::{resource, resource_handler, resource_router};
use rmcp::ServerHandler;

struct Search;

#[resource_router]
impl Search {
    #[resource("search://{?query}", free_text(q))]
    async fn search(&self, query: Option<String>) -> String {
        query.unwrap_or_default()
    }
}

#[resource_handler]
impl ServerHandler for Search {}

fn main() {}
