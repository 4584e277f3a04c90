//! RFC 6570 URI templates: parse, expand, match and route.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod error;
mod expand;
mod grammar;
mod matcher;
#[cfg(feature = "mcp")]
pub mod mcp;
mod pct;
mod router;
mod safety;
mod template;
mod vars;

pub use error::{Error, ErrorKind};
#[cfg(feature = "serde")]
pub use matcher::ExtractError;
pub use matcher::{Capture, Captures, Kind, Malformed, MatchError, MatchOptions};
pub use router::{
    InsertError, IntoTemplate, RouteError, RouteOptions, Routed, Router, RouterBuilder,
    RouterOptions,
};
pub use safety::{safe_join, safe_join_resolved, JoinError, Rule, SafetyPolicy, LOOK_ALIKES};
pub use template::{Component, Components, Expression, Limits, Operator, UriTemplate, VarSpec};
pub use vars::{List, Map, ToValue, Value, Vars, Visit, VisitError};

/// Instrumentation for the crate's own tests and benches; not part of the API.
#[doc(hidden)]
pub mod __private {
    /// The work done by the last match on this thread, in VM steps.
    pub fn last_match_steps() -> u64 {
        crate::matcher::vm::last_steps()
    }
}
