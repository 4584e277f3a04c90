//! RFC 6570 URI templates: parse, expand, match and route.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod error;
mod expand;
mod grammar;
mod matcher;
mod pct;
mod template;
mod vars;

pub use error::{Error, ErrorKind};
#[cfg(feature = "serde")]
pub use matcher::ExtractError;
pub use matcher::{Capture, Captures, Kind, Malformed, MatchError, MatchOptions};
pub use template::{Component, Components, Expression, Limits, Operator, UriTemplate, VarSpec};
pub use vars::{List, Map, ToValue, Value, Vars, Visit, VisitError};
