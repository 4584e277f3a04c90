//! The probe as users run it: a process, against real servers. Our own example servers (over
//! stdio and streamable HTTP) give no finding at medium or above; each fixture on the Python
//! SDK, FastMCP and the TypeScript SDK has its planted fault found, with its kind and template,
//! and its fixed twin gives nothing at medium or above; the command line keeps its promises.

mod cli;
mod common;
mod fixtures;
mod own;
mod protocol;
