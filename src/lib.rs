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
//! [`UriTemplate::parse`] checks the whole template against RFC 6570 and reports the byte
//! offset of the first problem. [`UriTemplate::expand`] writes every operator, prefix and
//! explode modifier from a `serde_json::Value`, a map, a slice of pairs or your own
//! [`Vars`](vars::Vars); [`UriTemplate::expand_to`] writes into any `fmt::Write`.
//! [`UriTemplate::expand_serialized`] takes your own `#[derive(Serialize)]` struct as it is,
//! without building JSON. [`UriTemplate::partial`] writes some variables and keeps the others
//! as a template ([`Partial`]).
//!
//! ```
//! use rfc6570::UriTemplate;
//! use serde_json::json;
//!
//! let t = UriTemplate::parse("log://build/{job_id}{?lines}")?;
//! assert_eq!(t.expand(&json!({"job_id": 42, "lines": "10-20"}))?, "log://build/42?lines=10-20");
//!
//! #[derive(serde::Serialize)]
//! struct Log { job_id: u64, lines: Option<String> }
//! assert_eq!(t.expand_serialized(&Log { job_id: 42, lines: None })?, "log://build/42");
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
//! [`UriTemplate::match_uri`] finds the variables that expand to a URI. The [`Captures`] borrow
//! from the URI, decode on demand, serialize to JSON and deserialize into your own types.
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
//! A [`Router`] holds many templates and returns the best match for a URI, whatever the order
//! they were inserted in, and checks every captured value for path traversal and its disguises
//! before your handler sees it. [`safe_join`] keeps a captured path inside a directory.
//!
//! ```
//! use rfc6570::safety::Rule;
//! use rfc6570::{RouteError, Router};
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
//! let refused = router.at("file:///docs/../../etc/passwd").unwrap_err();
//! assert!(matches!(refused, RouteError::Unsafe { rule: Rule::DotDotSegment, .. }));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! What matches what, which template wins, and which values are refused is one document:
//! [`semantics`]. It is the reference the methods' docs point to.
//!
//! # Modules
//!
//! The root holds the types most programs name. The rest live in one module per concern, each
//! built only on those before it:
//!
//! * [`template`]: the parsed template and its parts ([`Operator`](template::Operator),
//!   [`Expression`](template::Expression), [`VarSpec`](template::VarSpec)), parse
//!   [`Limits`](template::Limits), and the [`Lint`](template::Lint)s: templates that match
//!   ambiguously, and the shapes matching refuses;
//! * [`vars`]: where expansion reads variables from;
//! * [`matching`]: options, captures and errors of matching one template;
//! * [`safety`]: the path-safety rules and safe joins;
//! * [`router`]: the router's options and errors;
//! * `mcp` (feature `mcp`): MCP resource types and a resource registry, without an MCP SDK;
//! * `testing` (feature `testing`): generated and hostile URIs with the outcome each must
//!   have, for testing handlers (proptest strategies and cargo-fuzz builders behind `proptest`
//!   and `arbitrary`).
//!
//! How the engine works, and what each step costs, is in `ARCHITECTURE.md`, at the root of the
//! repository and of the published package.
//!
//! # Features
//!
//! * `json` (default): `serde_json` values as variables, captures as JSON, typed extraction.
//! * `serde`: `Serialize`/`Deserialize` for templates and captures, without `serde_json`.
//! * `mcp`: the `mcp` module (implies `json`).
//! * `cli`: the `rfc6570` command-line tool (`expand`, `match`, `route`, `check`).
//! * `testing`: the `testing` module; `proptest` adds its strategies, `arbitrary` its
//!   builders for cargo-fuzz (both imply `testing`).
#![forbid(unsafe_code)]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![warn(missing_docs)]

mod engine;
mod error;
mod expand;
pub mod matching;
#[cfg(feature = "mcp")]
pub mod mcp;
mod partial;
mod pct;
pub mod router;
pub mod safety;
mod sort;
pub mod template;
#[cfg(feature = "testing")]
#[cfg_attr(docsrs, doc(cfg(feature = "testing")))]
pub mod testing;
mod uri;
mod uri_template;
pub mod vars;

// Section 12 links into `testing`, which exists only with its feature: without it, the same
// links lead to the published documentation, so that the docs build clean either way. (The
// definitions come first: a definition cannot end the paragraph the document ends with.)
#[cfg_attr(
    feature = "testing",
    doc = "
[testing]: crate::testing
[testing-case-new]: crate::testing::Case::new
[testing-never-unsafe]: crate::testing::Expected::NeverUnsafe
[testing-hostile-variants]: crate::testing::hostile_variants
[testing-any]: crate::testing::Expected::Any"
)]
#[cfg_attr(
    not(feature = "testing"),
    doc = "
[testing]: https://docs.rs/rfc6570/latest/rfc6570/testing/index.html
[testing-case-new]: https://docs.rs/rfc6570/latest/rfc6570/testing/struct.Case.html#method.new
[testing-never-unsafe]: https://docs.rs/rfc6570/latest/rfc6570/testing/enum.Expected.html#variant.NeverUnsafe
[testing-hostile-variants]: https://docs.rs/rfc6570/latest/rfc6570/testing/fn.hostile_variants.html
[testing-any]: https://docs.rs/rfc6570/latest/rfc6570/testing/enum.Expected.html#variant.Any"
)]
#[doc = include_str!("semantics.md")]
pub mod semantics {}

pub use error::{Error, ErrorKind};
pub use matching::{Capture, Captures, MatchError};
pub use partial::Partial;
pub use router::{InsertError, RouteError, Routed, Router};
pub use safety::safe_join;
pub use uri_template::UriTemplate;

/// The README's examples, compiled and run as doctests.
#[cfg(all(doctest, feature = "mcp", feature = "proptest"))]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
