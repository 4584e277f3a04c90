// `vis = "pub"`, as rmcp's #[tool_router] spells it: `resource_router()` is public.
mod catalog {
    use rfc6570_rmcp::{resource, resource_router};

    pub struct Catalog;

    #[resource_router(vis = "pub")]
    impl Catalog {
        #[resource("catalog://{id}")]
        async fn item(&self, id: String) -> String {
            id
        }
    }
}

fn main() {
    assert_eq!(catalog::Catalog::resource_router().len(), 1);
}
