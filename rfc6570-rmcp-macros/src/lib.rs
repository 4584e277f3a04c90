//! The attribute macros of [`rfc6570-rmcp`](https://docs.rs/rfc6570-rmcp): use them from there,
//! which re-exports them, documents them and holds the types their code names.
//!
//! * `args`: the arguments of `#[resource(..)]` and `#[resource_handler(..)]`;
//! * `signature`: a template's variables against a method's parameters;
//! * `router`: `#[resource_router]`, which reads every `#[resource]` of an impl block;
//! * `handler`: `#[resource_handler]`, which fills in a `ServerHandler` impl.
//!
//! The attributes are documented where users meet them, on their re-exports in `rfc6570-rmcp`
//! (docs written here would be appended to those).

#![forbid(unsafe_code)]

use proc_macro::TokenStream;

mod args;
mod handler;
mod router;
mod signature;

#[proc_macro_attribute]
pub fn resource_router(attr: TokenStream, item: TokenStream) -> TokenStream {
    router::expand(attr.into(), item.into()).into()
}

#[proc_macro_attribute]
pub fn resource(attr: TokenStream, item: TokenStream) -> TokenStream {
    router::expand_resource(attr.into(), item.into()).into()
}

#[proc_macro_attribute]
pub fn resource_handler(attr: TokenStream, item: TokenStream) -> TokenStream {
    handler::expand(attr.into(), item.into()).into()
}
