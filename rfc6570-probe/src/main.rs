//! `rfc6570-probe`: tests any MCP server's resources from outside, whatever its language.
//!
//! It starts a server over stdio (`rfc6570-probe -- python server.py`) or reaches a streamable
//! HTTP endpoint (`rfc6570-probe http://127.0.0.1:8000/mcp`) as an rmcp client, then:
//!
//! 1. takes an **inventory** ([`inventory`]): the resources capability, both listings to their
//!    last page, each template parsed with its lints, each static resource read, a made-up URI,
//!    cache hints;
//! 2. builds **cases** per template ([`cases`]) from `rfc6570::testing`: benign values,
//!    equivalent spellings, every hostile spelling expanded correctly and raw, paths aimed at
//!    the canaries it planted ([`sandbox`]) and at well-known system files, long values, and
//!    the shapes that make a backtracking matcher slow;
//! 3. sends them within its bounds ([`session`], [`run`]) and **judges** each answer
//!    ([`judge`], with the canaries of [`canary`]) into [`finding`]s;
//! 4. **reports** them ([`report`]) on the terminal, as JSON and as SARIF, and exits 0, 1 or 2.
//!
//! Each module imports only modules of the layers below its own, lowest first: [`finding`],
//! [`canary`] and [`progress`]; [`sandbox`], [`session`] and [`cases`]; [`judge`];
//! [`inventory`]; [`report`]; [`run`]. [`cli`] reads the command line.
#![forbid(unsafe_code)]

mod canary;
mod cases;
mod cli;
mod finding;
mod inventory;
mod judge;
mod progress;
mod report;
mod run;
mod sandbox;
mod session;

use std::process::ExitCode;

use clap::Parser as _;

fn main() -> ExitCode {
    let args = cli::Args::parse();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("rfc6570-probe: cannot start the async runtime: {e}");
            return ExitCode::from(2);
        }
    };
    let code = runtime.block_on(run::main(args));
    // A server that ignores its closed stdin, or a request still in flight, must not keep the
    // probe alive: the runtime's tasks are dropped here.
    runtime.shutdown_timeout(std::time::Duration::from_millis(200));
    ExitCode::from(code)
}
