// A template the router cannot match correctly: a name repeated after a variable that can
// cross `/`, so the occurrences could be placed where they disagree while another placing agrees.
use rfc6570_rmcp::{resource, resource_handler, resource_router};
use rmcp::ServerHandler;

struct Pairs;

#[resource_router]
impl Pairs {
    #[resource("x://{+a}/{+a}")]
    async fn pair(&self, a: String) -> String {
        a
    }
}

#[resource_handler]
impl ServerHandler for Pairs {}

fn main() {}
