//! Parameter names and types that could trip the generated code: the names it uses for its
//! own locals, a raw identifier, a type written through `Self`, a generic impl, a name the
//! template uses twice.

use std::marker::PhantomData;

use crate::common::text_of;
use rfc6570_rmcp::{resource, resource_handler, resource_router};
use rmcp::model::ReadResourceRequestParams;
use rmcp::{ServerHandler, ServiceExt};

trait Ids {
    type Id;
}

#[derive(Clone)]
struct Odd;

impl Ids for Odd {
    type Id = u32;
}

#[resource_router]
impl Odd {
    #[resource("odd://{__target}/{__request}/{__context}")]
    async fn locals(&self, __target: String, __request: String, __context: String) -> String {
        format!("{__target} {__request} {__context}")
    }

    #[resource("typed://{type}/{id}")]
    fn typed(&self, r#type: String, id: <Self as Ids>::Id) -> String {
        format!("{type} {id}")
    }

    /// A repeated name is one variable, and one parameter.
    #[resource("dict://{term:1}/{term}")]
    fn term(&self, term: String) -> String {
        format!("the term {term}")
    }
}

#[resource_handler]
impl ServerHandler for Odd {}

#[derive(Clone)]
struct Generic<T>(PhantomData<T>);

#[resource_router]
impl<T: Send + Sync + 'static> Generic<T> {
    #[resource("generic://{id}")]
    async fn item(&self, id: u64) -> String {
        format!("{id} of {}", std::any::type_name::<T>())
    }
}

#[resource_handler]
impl<T: Clone + Send + Sync + 'static> ServerHandler for Generic<T> {}

/// Reads `uri` from `server` over an in-memory connection: its text, or the error.
async fn read<S: ServerHandler>(server: S, uri: &str) -> Result<String, rmcp::ServiceError> {
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    let client = ().serve(client_io).await.expect("connect");
    let read = client
        .read_resource(ReadResourceRequestParams::new(uri))
        .await
        .map(|read| text_of(&read.contents[0]).0.to_owned());
    client.cancel().await.expect("close");
    read
}

async fn read_text<S: ServerHandler>(server: S, uri: &str) -> String {
    read(server, uri).await.expect(uri)
}

#[tokio::test]
async fn the_generated_code_keeps_to_its_own_names() {
    assert_eq!(read_text(Odd, "odd://a/b/c").await, "a b c");
    assert_eq!(read_text(Odd, "typed://note/7").await, "note 7");
    assert_eq!(
        read_text(Generic::<u8>(PhantomData), "generic://3").await,
        "3 of u8"
    );
}

#[tokio::test]
async fn a_repeated_name_is_one_parameter() {
    assert_eq!(read_text(Odd, "dict://c/cat").await, "the term cat");
    // Occurrences that disagree match nothing: the read is refused.
    let refused = read(Odd, "dict://d/cat").await;
    assert!(refused.is_err(), "{refused:?}");
}

/// `vis` as rmcp's macros spell it, quoted, and bare: `resource_router()` is visible outside
/// the module either way.
mod visible {
    use rfc6570_rmcp::{resource, resource_router};

    pub struct Quoted;

    #[resource_router(vis = "pub")]
    impl Quoted {
        #[resource("quoted://{id}")]
        fn item(&self, id: String) -> String {
            id
        }
    }

    pub struct Bare;

    #[resource_router(vis = pub(crate))]
    impl Bare {
        #[resource("bare://{id}")]
        fn item(&self, id: String) -> String {
            id
        }
    }
}

#[test]
fn vis_is_taken_quoted_as_rmcp_spells_it_or_bare() {
    assert_eq!(visible::Quoted::resource_router().len(), 1);
    assert_eq!(visible::Bare::resource_router().len(), 1);
}

/// What was the compile-fail suite's one case that must compile (trybuild builds every case in
/// full where one must pass, and only checks them otherwise): `vis = "pub"` on an impl of
/// async methods makes `resource_router()` public outside its module.
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

#[test]
fn a_quoted_vis_makes_the_router_of_async_methods_public() {
    assert_eq!(catalog::Catalog::resource_router().len(), 1);
}
