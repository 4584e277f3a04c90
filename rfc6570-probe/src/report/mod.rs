//! The report: what was probed, the inventory, how many requests, the findings. Written as
//! JSON (the shape `probe.md` fixes, and more), as SARIF 2.1.0 ([`sarif`]), and as a summary
//! on the terminal ([`terminal`]).

mod sarif;
mod terminal;

use std::io::Write;
use std::path::Path;

use serde::Serialize;

use crate::finding::{Finding, Severity};
use crate::inventory::Inventory;

pub use terminal::print_summary;

/// Everything one probe found.
#[derive(Debug, Serialize)]
pub struct Report {
    /// What was probed: the command or the URL.
    pub server: String,
    /// The revision the server speaks.
    pub revision: String,
    /// The templates listed, in order.
    pub templates: Vec<String>,
    /// Requests sent, the inventory's included.
    pub requests: usize,
    /// What the server lists, and what the listing's checks found, first.
    pub inventory: Inventory,
    pub findings: Vec<Finding>,
    /// Cases not sent, and why (a bound reached, a server that could not be restarted).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unsent: Vec<String>,
    /// Wall time of the whole probe, in milliseconds.
    pub elapsed_ms: u64,
    /// The server's median answer time, in microseconds.
    pub median_us: u64,
    /// The probe's version.
    pub probe: String,
    /// What follows `rfc6570-probe --read URI` to read a URI again: options and target.
    #[serde(skip)]
    pub reproduce: String,
    /// The file the SARIF results point at: the server's script, when the probe started one.
    #[serde(skip)]
    pub artifact: Option<String>,
}

impl Report {
    /// Sorts the findings, most severe first, then by kind, template and URI.
    pub fn sort(&mut self) {
        self.findings.sort_by(|a, b| {
            b.severity
                .cmp(&a.severity)
                .then(a.kind.cmp(&b.kind))
                .then_with(|| a.template.cmp(&b.template))
                .then_with(|| a.uri.cmp(&b.uri))
        });
    }

    /// The exit status: 1 when a finding is at or above `fail_on`, else 0.
    pub fn status(&self, fail_on: Severity) -> u8 {
        u8::from(self.findings.iter().any(|f| f.severity >= fail_on))
    }

    /// One line that reads `uri` again.
    pub fn reproduction(&self, uri: &str) -> String {
        format!(
            "rfc6570-probe --read {}{}",
            shell_quote(uri),
            self.reproduce
        )
    }

    /// Writes the JSON report to `path` (`-` for stdout).
    pub fn write_json(&self, path: &Path) -> std::io::Result<()> {
        write_to(
            path,
            &serde_json::to_vec_pretty(self).map_err(std::io::Error::other)?,
        )
    }

    /// Writes the SARIF log to `path` (`-` for stdout).
    pub fn write_sarif(&self, path: &Path) -> std::io::Result<()> {
        let log = sarif::log(self);
        write_to(
            path,
            &serde_json::to_vec_pretty(&log).map_err(std::io::Error::other)?,
        )
    }
}

fn write_to(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    if path == Path::new("-") {
        let mut out = std::io::stdout().lock();
        out.write_all(bytes)?;
        out.write_all(b"\n")
    } else {
        std::fs::write(path, [bytes, b"\n"].concat())
    }
}

/// `text` as one word of a POSIX shell: bare when it is safe, in single quotes otherwise, and
/// in `$'...'` with escapes when it holds control characters.
pub fn shell_quote(text: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "_-./:=@%+,".contains(c);
    if !text.is_empty() && text.chars().all(safe) {
        return text.to_owned();
    }
    if text.chars().any(char::is_control) {
        let mut out = String::from("$'");
        for c in text.chars() {
            match c {
                '\\' => out.push_str("\\\\"),
                '\'' => out.push_str("\\'"),
                c if c.is_control() => {
                    let mut buf = [0; 4];
                    for b in c.encode_utf8(&mut buf).bytes() {
                        out.push_str(&format!("\\x{b:02x}"));
                    }
                }
                c => out.push(c),
            }
        }
        out.push('\'');
        return out;
    }
    format!("'{}'", text.replace('\'', "'\\''"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_for_the_shell() {
        assert_eq!(shell_quote("file:///a%2Fb"), "file:///a%2Fb");
        assert_eq!(shell_quote("notes://a b"), "'notes://a b'");
        assert_eq!(shell_quote("x://it's"), "'x://it'\\''s'");
        assert_eq!(shell_quote("x://a\0b"), "$'x://a\\x00b'");
        assert_eq!(shell_quote(""), "''");
    }
}
