//! MCP (Model Context Protocol) resources on URI templates (feature `mcp`).
//!
//! An MCP server lists its resource templates (`resources/templates/list`) and static resources
//! (`resources/list`), answers `resources/read` for concrete URIs, and may complete template
//! arguments (`completion/complete`). This module holds the parts of that which depend on URI
//! templates, with serde types whose JSON is the MCP schema's, and no MCP SDK:
//!
//! * [`ResourceTemplate`] and [`Resource`], built from a parsed [`UriTemplate`](crate::UriTemplate) (so an invalid
//!   template can never be listed), with [`Annotations`] and [`Icon`]s;
//! * [`Resources`], a registry that wraps a [`Router`](crate::Router): it lists its entries in a stable order
//!   with cursor pagination, routes a read to its handler with typed captures, and turns every
//!   refusal into the JSON-RPC error the negotiated protocol revision expects ([`JsonRpcError`]);
//! * [`Revision`], the protocol revision a peer negotiated, which each choice that differs
//!   between revisions asks (the not-found code, subscriptions, cache hints);
//! * [`CompleteRequest`], [`Completion`] and [`CompleteResult`] for argument completion.
//!
//! Glue for an SDK is a few lines: convert its request parameters in, and these types out. For
//! `rmcp`, the official Rust SDK, the repository's `rfc6570-rmcp` crate is that glue, with
//! attribute macros that check templates against handler signatures at compile time.
//!
//! ```
//! use rfc6570::mcp::{ResourceTemplate, Resources, Revision};
//!
//! #[derive(serde::Deserialize)]
//! struct BuildLog { job_id: u64, lines: Option<String> }
//!
//! let mut resources = Resources::new();
//! resources.insert(ResourceTemplate::parse("log://build/{job_id}{?lines}", "build-log")?, "log")?;
//! resources.insert(ResourceTemplate::parse("notes://{id}", "note")?, "note")?;
//!
//! // resources/templates/list
//! let page = resources.list_templates(None)?;
//! assert_eq!(page.resource_templates[0].uri_template.as_str(), "log://build/{job_id}{?lines}");
//!
//! // resources/read
//! let read = resources.at("log://build/42?lines=1-10")?;
//! assert_eq!(*read.handler, "log");
//! let log: BuildLog = read.params()?;
//! assert_eq!((log.job_id, log.lines.as_deref()), (42, Some("1-10")));
//!
//! // An unknown URI, answered to a peer on the 2025-11-25 revision and to a newer one.
//! let err = resources.at("log://nope").unwrap_err();
//! assert_eq!(err.to_json_rpc(Revision::V2025_11_25).code, -32002);
//! let newer: Revision = "2026-07-28".parse()?;
//! assert_eq!(err.to_json_rpc(newer).code, -32602);
//! assert_eq!(err.to_json_rpc(newer).data, Some(serde_json::json!({"uri": "log://nope"})));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod complete;
mod jsonrpc;
mod list;
mod read;
mod registry;
mod revision;
mod schema;

pub use complete::{
    CompleteRequest, CompleteResult, Completion, CompletionArgument, CompletionContext,
    CompletionError, CompletionValues, Reference,
};
pub use jsonrpc::{
    INTERNAL_ERROR, INVALID_PARAMS, JsonRpcError, MAX_COMPLETION_VALUES, RESOURCE_NOT_FOUND,
};
pub use list::{InvalidCursor, ResourcePage, TemplatePage};
pub use read::{ReadError, ResourceMatch};
pub use registry::Resources;
pub use revision::{Revision, RevisionError};
pub use schema::{Annotations, Icon, Meta, Resource, ResourceTemplate, Role, Theme};
