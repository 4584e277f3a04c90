//! The command line: what to probe, where the reports go, and the bounds.

use std::path::PathBuf;
use std::time::Duration;

use clap::{Parser, ValueEnum};

use crate::finding::Severity;

const EXAMPLES: &str = "\
Examples:
  # A stdio server, started by the probe in a sandbox with canaries around it
  rfc6570-probe -- python server.py
  rfc6570-probe -- npx -y @modelcontextprotocol/server-filesystem .

  # A streamable HTTP endpoint, with a token, and a file the server must never return
  rfc6570-probe --header \"Authorization: Bearer $TOKEN\" --canary ~/.ssh/id_ed25519 \\
      http://127.0.0.1:8000/mcp

  # In CI: SARIF for code scanning, JSON for the record, fail on high findings only
  rfc6570-probe --sarif probe.sarif --json probe.json --fail-on high -- node dist/server.js

  # Reproduce one finding: read one URI and print the answer
  rfc6570-probe --read 'file:///..%2F..%2Fetc%2Fpasswd' -- python server.py

Exit status: 0 no finding at or above --fail-on; 1 findings; 2 the server could not be
probed (it did not start, has no resources capability, or the handshake failed).";

/// Tests an MCP server's resources from outside: path traversal in every encoding, decoding,
/// crashes, hangs, slow matching and protocol faults.
#[derive(Debug, Parser)]
#[command(name = "rfc6570-probe", version, after_help = EXAMPLES)]
#[command(
    override_usage = "rfc6570-probe [OPTIONS] -- COMMAND [ARGS...]\n       rfc6570-probe [OPTIONS] URL"
)]
pub struct Args {
    /// The streamable HTTP endpoint to probe (http://host:port/path). Only this host is contacted.
    #[arg(value_name = "URL", required_unless_present = "command")]
    pub url: Option<String>,

    /// The stdio server to start, after `--`.
    #[arg(last = true, value_name = "COMMAND")]
    pub command: Vec<String>,

    /// Write the report as JSON to FILE (`-` for stdout).
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,

    /// Write the report as SARIF 2.1.0 to FILE (`-` for stdout), for code scanning.
    #[arg(long, value_name = "FILE")]
    pub sarif: Option<PathBuf>,

    /// A file whose bytes the server must never return; its content is the token looked for.
    #[arg(long, value_name = "PATH")]
    pub canary: Vec<PathBuf>,

    /// The lowest severity that makes the exit status 1.
    #[arg(long, value_enum, default_value_t = Severity::Medium)]
    pub fail_on: Severity,

    /// An HTTP header sent with every request (`Name: value`), such as an authorization.
    #[arg(long, value_name = "HEADER")]
    pub header: Vec<String>,

    /// The protocol revision: `auto` tries `server/discover` (2026-07-28) and falls back to the
    /// `initialize` handshake; a date forces that revision.
    #[arg(long, default_value = "auto", value_name = "REVISION")]
    pub revision: String,

    /// Read this one URI, print the answer as JSON, and exit: 1 if the server crashed or hung
    /// on it, else 0 (reproduces a finding).
    #[arg(long, value_name = "URI")]
    pub read: Option<String>,

    /// At most this many requests in all.
    #[arg(long, default_value_t = 20_000, value_name = "N")]
    pub max_requests: usize,

    /// At most this many requests in flight.
    #[arg(long, default_value_t = 4, value_name = "N")]
    pub concurrency: usize,

    /// Seconds to wait for one answer before it counts as a hang.
    #[arg(long, default_value_t = 10.0, value_name = "SECONDS")]
    pub timeout: f64,

    /// Seconds for the whole probe; what is left unsent then is reported as not sent.
    #[arg(long, default_value_t = 600.0, value_name = "SECONDS")]
    pub max_time: f64,

    /// Bytes of answers to read in all, before the probe stops sending.
    #[arg(long, default_value_t = 256 << 20, value_name = "BYTES")]
    pub max_bytes: u64,

    /// No progress bar, and only the summary on the terminal.
    #[arg(long, short)]
    pub quiet: bool,

    /// How the terminal summary is printed.
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    pub color: Color,
}

/// Whether the terminal summary has colors.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum Color {
    /// On a terminal, unless NO_COLOR is set.
    Auto,
    Always,
    Never,
}

/// The bounds of one probe, each from its flag.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub max_requests: usize,
    pub concurrency: usize,
    pub timeout: Duration,
    pub max_time: Duration,
    pub max_bytes: u64,
}

impl Args {
    /// The bounds, each at least what lets the probe work at all.
    pub fn limits(&self) -> Limits {
        let seconds = |s: f64, least: f64| Duration::from_secs_f64(s.max(least).min(86_400.0));
        Limits {
            max_requests: self.max_requests.max(1),
            concurrency: self.concurrency.clamp(1, 64),
            timeout: seconds(self.timeout, 0.1),
            max_time: seconds(self.max_time, 1.0),
            max_bytes: self.max_bytes.max(1024),
        }
    }
}
