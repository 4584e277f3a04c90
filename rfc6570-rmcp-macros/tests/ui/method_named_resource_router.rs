use rfc6570_rmcp::{resource, resource_router};

struct Shop;

#[resource_router]
impl Shop {
    #[resource("config://app")]
    async fn config(&self) -> String {
        String::new()
    }

    fn resource_router() {}
}

fn main() {}
