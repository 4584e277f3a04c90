//! The bridge's integration tests, one binary (each linking rmcp, tokio and axum on its own
//! cost more than running them all): a module per concern, with what they share in `common`.
//! The compile-fail cases of the macros are `rfc6570-rmcp-macros`'s tests.

mod common;

mod bridge;
mod directory;
mod http;
mod hub;
mod listings;
mod macro_names;
mod mcp_rmcp;
mod recipe_bridge;
#[cfg(feature = "redis")]
mod redis_hub;
mod slow_subscriber;
mod stacking;
