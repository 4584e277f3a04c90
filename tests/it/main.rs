//! The crate's integration tests, one module per concern, in one test binary (the counting
//! allocator of `tests/alloc.rs` has one of its own). Modules that need a feature say so; the
//! README's test command turns on every feature.
//!
//! * expansion: `suite` (the public suites, both directions), `expand_serialize`, `partial`,
//!   `expand_props` (properties);
//! * matching: `matching` (the semantics, rule by rule), `design_examples`, `match_props`
//!   (round trips), `errors` (every error, of the right kind at the right byte), `peers`
//!   (other implementations' own tests);
//! * routing: `router`, `router_oracle` (against a brute-force reference);
//! * MCP: `mcp_types`;
//! * the testing support users get: `hostile_props`, `shrinking`, and the recipes
//!   (`recipe_router`, `recipe_mcp`, `recipe_file_server`);
//! * `fuzz_regressions` (every fuzz finding, replayed on stable) and `cli` (the command line,
//!   run as a process).
//!
//! `common` holds what several share: the test data, the fuzz targets' checks, the router's
//! reference.

mod common;

#[cfg(feature = "cli")]
mod cli;
mod design_examples;
mod errors;
#[cfg(feature = "proptest")]
mod expand_props;
mod expand_serialize;
#[cfg(feature = "testing")]
mod fuzz_regressions;
#[cfg(feature = "proptest")]
mod hostile_props;
#[cfg(feature = "proptest")]
mod match_props;
mod matching;
#[cfg(feature = "mcp")]
mod mcp_types;
mod partial;
mod peers;
#[cfg(feature = "arbitrary")]
mod recipe_file_server;
#[cfg(all(feature = "proptest", feature = "mcp"))]
mod recipe_mcp;
#[cfg(feature = "proptest")]
mod recipe_router;
#[cfg(feature = "arbitrary")]
mod recipes {
    pub mod file_server;
}
mod router;
mod router_oracle;
#[cfg(feature = "proptest")]
mod shrinking;
mod suite;
