#![doc = include_str!("../README.md")]
//!
//! # The parts
//!
//! | item | what it does |
//! |---|---|
//! | [`#[resource_router]`](resource_router), [`#[resource]`](resource) | build `Self::resource_router()` from annotated methods |
//! | [`#[resource_handler]`](resource_handler) | fill in `impl ServerHandler`, merging capabilities |
//! | [`ResourceRouter`] | the router itself, also usable by hand, with forwarding methods |
//! | [`IntoContents`], [`Json`], [`PrettyJson`], [`Text`], [`Blob`] | what a handler may return |
//! | [`ReadError`] | why a read has no contents |
//! | [`Completing`], [`IntoCompletions`] | what a completer gets and returns |
//! | [`Subscriptions`] | the subscriptions of every session, bounded, and notifications |
//! | [`Hub`], [`Notice`], [`HubEvent`], [`HubError`] | how notifications reach every replica of a server |
//! | `RedisHub` (feature `redis`) | a hub over Redis pub/sub |
//! | [`Directory`] | a directory served as `file:///{+path}`, safely |
//! | [`semantics`] | the choices the bridge makes where the protocol leaves room |
//!
//! Modules, each owning one concept: `read` (requests, contents, errors), `complete`,
//! `convert` (the core crate's MCP types as rmcp's), `router`, `hub`, `redis_hub` (a hub),
//! `subscriptions` (over a hub), `directory` (on the router), and `__private` (what generated
//! code names; not public API).

#![forbid(unsafe_code)]
#![cfg_attr(docsrs, feature(doc_cfg))]

mod complete;
mod convert;
mod directory;
mod hub;
mod read;
#[cfg(feature = "redis")]
mod redis_hub;
mod router;
mod subscriptions;

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;

pub use complete::{Completing, IntoCompletions};
pub use directory::Directory;
pub use hub::{Hub, HubError, HubEvent, Notice};
pub use read::{
    Blob, BoxFuture, IntoContents, PrettyJson, ReadError, ReadRequest, ReadTarget, Text,
};
#[cfg(feature = "redis")]
pub use redis_hub::RedisHub;
/// Builds `Self::resource_router()` from the `#[resource]` methods of an impl block.
///
/// Every template is parsed, checked against its method's parameters and against the other
/// templates of the block, at compile time. `#[resource_router(vis = pub)]` (or `vis = "pub"`,
/// as rmcp's macros spell it) makes the generated function public. The router is a fresh [`ResourceRouter`] each call; add to it
/// (`.page_size(n)`, `.directory(..)`) before handing it to
/// [`#[resource_handler(router = ..)]`](resource_handler).
///
/// ```
/// use rfc6570_rmcp::{resource, resource_router};
///
/// struct Notes;
///
/// #[resource_router]
/// impl Notes {
///     /// A note by id.
///     #[resource("notes://{id}", mime_type = "text/markdown")]
///     async fn note(&self, id: String) -> String {
///         format!("# {id}")
///     }
/// }
///
/// let router = Notes::resource_router();
/// assert_eq!(router.templates().next().unwrap().description.as_deref(), Some("A note by id."));
/// ```
pub use rfc6570_rmcp_macros::resource_router;

/// Marks a method of a [`#[resource_router]`](resource_router) impl block as a resource:
/// `#[resource("template", key = value, ..)]`.
///
/// The first argument is the URI template, a string literal. A template without variables is a
/// static resource. Options: `name` (default: the method's name), `title`, `description`
/// (default: the doc comment), `mime_type`, `size` (static resources), `complete(var =
/// Self::method, ..)` for completers, `free_text(var, ..)` for variables that are free text, not
/// paths (no path safety for them). The method takes `&self`, one parameter per variable, named
/// as it (`Option<_>` for query variables, `Vec<_>` or a map for exploded ones), and at most one
/// `RequestContext<RoleServer>`; it returns anything [`IntoContents`].
///
/// ```
/// use rfc6570_rmcp::{resource, resource_router, Completing, ReadError};
///
/// struct Logs;
///
/// #[resource_router]
/// impl Logs {
///     #[resource("log://build/{job_id}{?lines}", title = "Build log", complete(job_id = Self::jobs, lines = Self::ranges))]
///     async fn log(&self, job_id: u64, lines: Option<String>) -> Result<String, ReadError> {
///         Ok(format!("{job_id} {lines:?}"))
///     }
///
///     #[resource("tree://root{/segments*}", free_text(segments))]
///     fn tree(&self, segments: Vec<String>) -> String {
///         segments.join("/")
///     }
///
///     async fn jobs(&self, prefix: &str) -> Vec<String> {
///         vec![format!("{prefix}1")]
///     }
///
///     fn ranges(&self, completing: Completing<'_>) -> [&'static str; 1] {
///         ["1-10"]
///     }
/// }
/// # assert_eq!(Logs::resource_router().len(), 2);
/// ```
pub use rfc6570_rmcp_macros::resource;

/// Fills in the resource methods of an `impl ServerHandler`: `resources/list`,
/// `resources/templates/list`, `resources/read` and `completion/complete`, each a call into the
/// router; with `subscriptions = expr`, `resources/subscribe`, `resources/unsubscribe` and
/// `subscriptions/listen`; with `directory_read`, `resources/directory/read`.
///
/// Methods the impl writes itself are kept. Without a `get_info`, it generates one that declares
/// resources and completions, named by `name` and `version` (default: your crate's) with
/// `instructions`; with one, it merges those capabilities into what it returns. It stacks with
/// rmcp's `#[tool_handler]` and `#[prompt_handler]`, in either order. `router = expr` names the
/// router (default: the impl block's `resource_router()`, built once).
///
/// ```
/// use std::sync::Arc;
/// use rfc6570_rmcp::{resource, resource_handler, resource_router, ResourceRouter, Subscriptions};
/// use rmcp::ServerHandler;
///
/// #[derive(Clone)]
/// struct Server {
///     router: Arc<ResourceRouter<Server>>,
///     subscriptions: Subscriptions,
/// }
///
/// #[resource_router]
/// impl Server {
///     #[resource("config://app")]
///     async fn config(&self) -> &'static str {
///         "theme=dark"
///     }
/// }
///
/// #[resource_handler(router = self.router, subscriptions = self.subscriptions, name = "app")]
/// impl ServerHandler for Server {}
///
/// let server = Server {
///     router: Arc::new(Server::resource_router().page_size(20)),
///     subscriptions: Subscriptions::new(),
/// };
/// let info = server.get_info();
/// assert_eq!(info.server_info.name, "app");
/// assert_eq!(info.capabilities.resources.unwrap().subscribe, Some(true));
/// ```
pub use rfc6570_rmcp_macros::resource_handler;
/// rmcp's `Json<T>`: a handler that returns it is read as compact JSON text
/// (`serde_json::to_string`), keys in the order `T` serializes them, served as the listed MIME
/// type or `application/json`. [`PrettyJson`] writes the same indented.
pub use rmcp::Json;
pub use router::{RegisterError, ResourceRouter};
pub use subscriptions::Subscriptions;

/// The bridge's semantics: errors, lists, completion, subscriptions, directories, macros.
#[doc = include_str!("semantics.md")]
pub mod semantics {}
