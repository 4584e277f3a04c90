#![doc = include_str!("../README.md")]
//!
//! # The parts
//!
//! | item | what it does |
//! |---|---|
//! | [`#[resource_router]`](resource_router), [`#[resource]`](resource) | build `Self::resource_router()` from annotated methods |
//! | [`#[resource_handler]`](resource_handler) | fill in `impl ServerHandler`, merging capabilities |
//! | [`ResourceRouter`] | the router itself, also usable by hand, with forwarding methods |
//! | [`IntoContents`], [`Json`], [`Text`], [`Blob`] | what a handler may return |
//! | [`ReadError`] | why a read has no contents |
//! | [`Completing`], [`IntoCompletions`] | what a completer gets and returns |
//! | [`Subscriptions`] | one session's subscriptions, and notifications |
//! | [`Directory`] | a directory served as `file:///{+path}`, safely |
//! | [`semantics`] | the choices the bridge makes where the protocol leaves room |
//!
//! Modules, each owning one concept: `read` (requests, contents, errors), `complete`,
//! `convert` (the core crate's MCP types as rmcp's), `router`, `subscriptions`, `directory`
//! (on the router), and `__private` (what generated code names; not public API).

#![forbid(unsafe_code)]
#![cfg_attr(docsrs, feature(doc_cfg))]

mod complete;
mod convert;
mod directory;
mod read;
mod router;
mod subscriptions;

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;

pub use complete::{Completing, IntoCompletions};
pub use directory::Directory;
pub use read::{Blob, BoxFuture, IntoContents, ReadError, ReadRequest, ReadTarget, Text};
pub use rfc6570_rmcp_macros::{resource, resource_handler, resource_router};
pub use rmcp::Json;
pub use router::{RegisterError, ResourceRouter};
pub use subscriptions::Subscriptions;

/// The bridge's semantics: errors, lists, completion, subscriptions, directories, macros.
#[doc = include_str!("semantics.md")]
pub mod semantics {}
