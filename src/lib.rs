//! RFC 6570 URI templates: parse, expand, match a concrete URI back to its variables, and route
//! it to the best of many templates.
//!
//! Built for MCP (Model Context Protocol) servers and clients: a server lists
//! `resourceTemplates` such as `log://build/{job_id}`, `file:///{+path}` or
//! `search://docs{?q,lang}`, and every `resources/read` it receives is a concrete URI that must
//! reach the right handler with the right, safely decoded values; clients expand the same
//! templates with values a user picked.
//!
//! # Parse and expand
//!
//! [`UriTemplate::parse`] validates the whole template against RFC 6570 §2 and compiles it into
//! two allocations; errors say what is wrong and at which byte. [`UriTemplate::expand`] writes
//! all of §3.2 (every operator, prefixes, explode, lists and maps) from anything that implements
//! [`Vars`]: a `serde_json::Value` object, a map, a slice of pairs, or your own type.
//! [`UriTemplate::expand_to`] writes into any `fmt::Write` without allocating.
//!
//! ```
//! use rfc6570::UriTemplate;
//! use serde_json::json;
//!
//! let t = UriTemplate::parse("log://build/{job_id}{?lines}")?;
//! assert_eq!(t.expand(&json!({"job_id": 42, "lines": "10-20"}))?, "log://build/42?lines=10-20");
//!
//! let t = UriTemplate::parse("{/path*}{?q}")?;
//! assert_eq!(t.expand(&[("path", vec!["a", "b c"])])?, "/a/b%20c");
//!
//! let err = UriTemplate::parse("log://{job id}").unwrap_err();
//! assert_eq!(err.position(), Some(10));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Match
//!
//! [`UriTemplate::match_uri`] is the reverse: it finds the variables that expand to a URI. The
//! captures borrow from the URI and decode on demand; they serialize to JSON and deserialize
//! into your own types. Query parameters bind in any order and are optional; a declared one
//! given twice is refused; bad percent-encoding and bytes that are not UTF-8 are errors of their
//! own ([`MatchError`]).
//!
//! ```
//! use rfc6570::UriTemplate;
//!
//! #[derive(serde::Deserialize)]
//! struct Search { q: String, lang: Option<String> }
//!
//! let t = UriTemplate::parse("search://docs{?q,lang}")?;
//! let s: Search = t.match_uri("search://docs?lang=fr&q=caf%C3%A9")?.deserialize()?;
//! assert_eq!((s.q.as_str(), s.lang.as_deref()), ("café", Some("fr")));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Route
//!
//! A [`Router`] holds many templates and returns the best match for a URI, independent of the
//! order they were inserted in: a literal beats a variable that cannot cross `/`, which beats
//! one that can, at the first byte where two candidates differ. Captured values are checked for
//! path traversal and its disguises before your handler sees them ([`Rule`]); [`safe_join`]
//! keeps a captured path inside a directory.
//!
//! ```
//! use rfc6570::{RouteError, Router, Rule};
//!
//! let mut router = Router::new();
//! router.insert("file:///{+path}", "file")?;
//! router.insert("file:///docs/{name}", "doc")?;
//! router.insert("log://build/{job_id}{?lines}", "log")?;
//!
//! assert_eq!(*router.at("file:///docs/intro.md")?.value, "doc");
//! assert_eq!(*router.at("file:///src/lib.rs")?.value, "file");
//! let routed = router.at("log://build/42?lines=10-20")?;
//! assert_eq!(routed.captures.get("job_id").unwrap().decoded(), "42");
//!
//! let refused = router.at("file:///..%2F..%2Fetc%2Fpasswd").unwrap_err();
//! assert!(matches!(refused, RouteError::Unsafe { rule: Rule::DoubleEncoding, .. }));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Design and costs
//!
//! * **Parsing** is one pass with `nom` over the template into a flat array of literal spans,
//!   expression headers and variable specs: two allocations, whatever the template.
//! * **Expansion** walks that array and writes each value through a percent-encoder; nothing is
//!   converted to an intermediate string, so `expand_to` into a buffer with room allocates
//!   nothing.
//! * **Matching** compiles a template (once, on first use) into a small NFA over URI *units*
//!   (bytes, with percent-triplets compared by the byte they encode) and runs it as a Pike VM:
//!   all candidate threads advance together, so a match costs `O(len(uri) × len(program))`,
//!   linear in the URI for every template, with no backtracking to blow up. Threads are kept in
//!   groups of equal rank, so the VM applies the router's precedence rule within one template
//!   too; among equally ranked readings, variables are defined and short, earlier first.
//!   Templates whose variables are all delimited (`/users/{id}/x`, a final `{+path}`, a query
//!   tail: the common case) skip the VM: a radix-trie walk over their literals finds the same
//!   match for a tenth of the cost, with a budget and a bounded stack of ways back that hand
//!   pathological inputs to the VM.
//! * **Routing** merges all templates into one trie of tokens and compiles it into one program
//!   for the same VM (or one radix trie for the walk), so precedence is exact (up to one
//!   documented limit of prefix modifiers) and a lookup does not grow with the number of
//!   templates. The walk also notes whether the captured bytes hold a `%` or anything a
//!   path-safety rule looks at, so most lookups neither re-read the URI to validate it nor
//!   check the captures one by one. A GitHub-API lookup costs about 500 instructions, as many
//!   as `matchit` (which does neither check) needs, and as much time, give or take a few
//!   percent (the README's Performance section has the numbers).
//!
//! The modules, as the file list shows them: `grammar` (the template grammar), `template` (the
//! compiled form), `vars` and `expand` (expansion), `pct` (percent-encoding units), `matcher`
//! (`trie`, `program`, `vm`, `walk`, `query`, `captures`), `router`, `safety`.
//!
//! # Features
//!
//! * `json` (default): `serde_json` values as variables, captures as JSON, typed extraction.
//! * `serde`: `Serialize`/`Deserialize` for templates and captures, without `serde_json`.
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

/// The README's examples, compiled and run as doctests.
#[cfg(all(doctest, feature = "mcp"))]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
