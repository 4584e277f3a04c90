//! MCP resources on [rmcp](https://docs.rs/rmcp), the official Rust MCP SDK, routed by RFC 6570
//! URI templates: annotate async methods with their templates, and the server lists them,
//! routes every `resources/read` to the right method with typed, decoded, path-safe parameters,
//! completes their variables and tracks subscriptions.
//!
//! ```no_run
//! use rfc6570_rmcp::{resource, resource_handler, resource_router, ReadError};
//! use rmcp::{transport::stdio, ServerHandler, ServiceExt};
//!
//! struct Builds;
//!
//! #[resource_router]
//! impl Builds {
//!     #[resource("builds://index")]
//!     async fn index(&self) -> &'static str {
//!         "41 42 43"
//!     }
//!     #[resource("log://build/{job_id}{?lines}", complete(job_id = Self::job_ids))]
//!     async fn log(&self, job_id: u64, lines: Option<String>) -> Result<String, ReadError> {
//!         let found = (41..=43).contains(&job_id);
//!         found.then(|| format!("build {job_id}, lines {lines:?}")).ok_or(ReadError::not_found())
//!     }
//!     async fn job_ids(&self) -> [&'static str; 3] {
//!         ["41", "42", "43"]
//!     }
//! }
//!
//! #[resource_handler]
//! impl ServerHandler for Builds {}
//!
//! #[tokio::main]
//! async fn main() -> Result<(), Box<dyn std::error::Error>> {
//!     Builds.serve(stdio()).await?.waiting().await?;
//!     Ok(())
//! }
//! ```
//!
//! That is a complete server, in 29 lines: a static resource, a template and a completer (a
//! doc comment on a method would be its description). At compile time the macros parse each template with `rfc6570`'s
//! own parser (a syntax error points at the template and says where), check that every
//! variable is a parameter of its name and every parameter a variable, that a query variable
//! is an `Option` and an exploded one a `Vec` or a map, and refuse two templates that match the
//! same URIs. At run time the server answers, for both protocol revisions rmcp speaks:
//!
//! * `resources/templates/list` and `resources/list`, paged with opaque cursors, with the same
//!   cache hints on every page (revision 2026-07-28);
//! * `resources/read`: routed with `rfc6570`'s precedence and path safety; unknown and refused
//!   URIs are "resource not found" with the code of the client's revision (`-32002`, or `-32602`
//!   from 2026-07-28), `data.uri`, and a message that names the rule but never repeats what the
//!   client sent;
//! * `completion/complete` for `ref/resource`: the completer's candidates that start with the
//!   typed prefix, at most 100;
//! * with `#[resource_handler(subscriptions = ..)]`, the 2026-07-28 `subscriptions/listen` and
//!   the legacy `resources/subscribe` / `unsubscribe`, bounded per session, and
//!   [`Subscriptions::notify_updated`].
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
//!
//! The repository's `rfc6570-rmcp/examples/mcp_server.rs` serves files, notes, build logs and a
//! search on it, and is driven by rmcp's client, the official TypeScript SDK client and the
//! official Python SDK client in CI.

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
