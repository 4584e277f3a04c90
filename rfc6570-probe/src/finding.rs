//! What the probe reports: a finding's kind, its severity, and the finding itself.

use std::fmt;

use clap::ValueEnum;
use serde::Serialize;

/// How bad a finding is. `--fail-on` compares with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, ValueEnum)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    Low,
    Medium,
    High,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Low => "low",
            Self::Medium => "medium",
            Self::High => "high",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What went wrong, as the report names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// An answer holds bytes from outside what the server serves.
    Escape,
    /// The server exited, or the transport closed.
    Crash,
    /// No answer within the timeout.
    Hang,
    /// An answer far slower than the server's own median: the mark of a backtracking matcher.
    Slow,
    /// An internal error where not-found or invalid params is right.
    InternalError,
    /// URIs that RFC 3986 calls equivalent read differently, or a listing disagrees with its read.
    Inconsistent,
    /// A wrong not-found code for the revision, a template that does not parse, a missing cache
    /// hint, a list that loops.
    Protocol,
}

impl Kind {
    /// The kind's severity, as `probe.md` fixes it.
    pub fn severity(self) -> Severity {
        match self {
            Self::Escape | Self::Crash | Self::Hang => Severity::High,
            Self::Slow | Self::InternalError => Severity::Medium,
            Self::Inconsistent | Self::Protocol => Severity::Low,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Escape => "escape",
            Self::Crash => "crash",
            Self::Hang => "hang",
            Self::Slow => "slow",
            Self::InternalError => "internal_error",
            Self::Inconsistent => "inconsistent",
            Self::Protocol => "protocol",
        }
    }

    /// One line on what the kind means, for the SARIF rule and the terminal.
    pub fn description(self) -> &'static str {
        match self {
            Self::Escape => "An answer holds bytes from outside what the server serves",
            Self::Crash => "The server exited, or its transport closed, on a request",
            Self::Hang => "The server gave no answer within the timeout",
            Self::Slow => {
                "An answer far slower than the server's own median, the mark of a backtracking matcher"
            }
            Self::InternalError => {
                "An internal error where not-found or invalid params is the right answer"
            }
            Self::Inconsistent => {
                "URIs that RFC 3986 calls equivalent read differently, or a listing disagrees with its read"
            }
            Self::Protocol => {
                "A wrong error code for the revision, a template that does not parse, a missing cache hint, or a list that loops"
            }
        }
    }

    /// Every kind, most severe first.
    pub const ALL: [Self; 7] = [
        Self::Escape,
        Self::Crash,
        Self::Hang,
        Self::Slow,
        Self::InternalError,
        Self::Inconsistent,
        Self::Protocol,
    ];
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One finding: what, where, the exact URI sent, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    pub kind: Kind,
    pub severity: Severity,
    /// The listed template the case came from; none for static resources and protocol findings.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub template: Option<String>,
    /// Exactly what was sent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub uri: Option<String>,
    pub detail: String,
    /// The case's name: which value, in which spelling (`dot-dot-up/separators-encoded`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub case: Option<String>,
}

impl Finding {
    /// A finding of `kind`, at its kind's severity.
    pub fn new(kind: Kind, detail: impl Into<String>) -> Self {
        Self {
            kind,
            severity: kind.severity(),
            template: None,
            uri: None,
            detail: detail.into(),
            case: None,
        }
    }

    pub fn template(mut self, template: impl Into<String>) -> Self {
        self.template = Some(template.into());
        self
    }

    pub fn uri(mut self, uri: impl Into<String>) -> Self {
        self.uri = Some(uri.into());
        self
    }

    pub fn case(mut self, case: impl Into<String>) -> Self {
        self.case = Some(case.into());
        self
    }
}
