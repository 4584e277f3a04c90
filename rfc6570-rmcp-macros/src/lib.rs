//! The attribute macros of [`rfc6570-rmcp`](https://docs.rs/rfc6570-rmcp): use them from there,
//! which re-exports them, documents them and holds the types their code names.
//!
//! * `args`: the arguments of `#[resource(..)]` and `#[resource_handler(..)]`;
//! * `signature`: a template's variables against a method's parameters;
//! * `router`: `#[resource_router]`, which reads every `#[resource]` of an impl block;
//! * `handler`: `#[resource_handler]`, which fills in a `ServerHandler` impl.

#![forbid(unsafe_code)]

use proc_macro::TokenStream;

mod args;
mod handler;
mod router;
mod signature;

/// Builds `Self::resource_router()` from the `#[resource]` methods of an impl block. See
/// `rfc6570_rmcp::resource_router`.
#[proc_macro_attribute]
pub fn resource_router(attr: TokenStream, item: TokenStream) -> TokenStream {
    router::expand(attr.into(), item.into()).into()
}

/// Marks a method of a `#[resource_router]` impl block as a resource. See
/// `rfc6570_rmcp::resource`.
#[proc_macro_attribute]
pub fn resource(attr: TokenStream, item: TokenStream) -> TokenStream {
    router::expand_resource(attr.into(), item.into()).into()
}

/// Fills in the resource methods of an `impl ServerHandler`. See
/// `rfc6570_rmcp::resource_handler`.
#[proc_macro_attribute]
pub fn resource_handler(attr: TokenStream, item: TokenStream) -> TokenStream {
    handler::expand(attr.into(), item.into()).into()
}
