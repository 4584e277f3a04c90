//! rfc6570 and rmcp, the official Rust SDK of the Model Context Protocol.
//!
//! **The bridge is not here yet.** This library is empty: a later release will hold the glue
//! between `rfc6570::mcp` and rmcp's types and server traits. For now the package holds the
//! example MCP server that shows that glue written by hand, `examples/mcp_server.rs`, and its
//! end-to-end tests: `tests/mcp_rmcp.rs` (rmcp's client, both protocol lifecycles),
//! `tests/e2e/` and `tests/e2e-python/` (the official TypeScript and Python SDK clients, both
//! lifecycles too, run by the repository's `.ci/e2e`).
//!
//! ```sh
//! cargo run -p rfc6570-rmcp --example mcp_server    # serves rfc6570-rmcp/examples/data/
//! cargo test -p rfc6570-rmcp                        # the rmcp client test
//! ```

#![forbid(unsafe_code)]
