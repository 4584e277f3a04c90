//! Test support: generate the URIs a template matches, with their encoding edge cases and
//! attacks, each with what matching and a router must make of it (feature `testing`; the
//! strategies need `proptest`, the fuzzing builders `arbitrary`).
//!
//! A server that lists `file:///{+path}` or `log://build/{job_id}{?lines}` can test its
//! handlers against every URI a client could send:
//!
//! * [`Case`]: values, the URI they expand to, and what [`UriTemplate::match_uri`](crate::UriTemplate::match_uri),
//!   [`Router::at`](crate::Router::at) and `mcp::Resources::at` must give for it
//!   ([`Expected`]): the decoded values a handler must see, a path-safety refusal with its
//!   rule, a malformed URI with its position and reason, or no match. The `check_*` methods
//!   compare that with what the code under test did, and a [`Mismatch`] prints on one line.
//! * [`hostile_variants`]: for each variable, the spellings of a traversal and of its benign
//!   look-alikes (`..%2F`, `%252e%252e`, overlong `%C0%AE`, fullwidth `．．／`, a NUL, a lone `%`,
//!   a separator in a segment, `report(1).pdf`), raw and encoded, each labelled.
//! * [`spelled_variants`]: every one of those spellings of a text of your own, such as a path
//!   that must stay out of reach (`rfc6570-probe` aims at its canaries this way).
//! * [`strategies`] (feature `proptest`): [`cases`](strategies::cases) and
//!   [`hostile`](strategies::hostile) for your template, and random
//!   [`templates`](strategies::templates) of every operator and modifier.
//! * [`fuzz`] (feature `arbitrary`): the same from a fuzzer's bytes.
//!
//! Expectations come from expansion (RFC 6570), RFC 3986 and the safety rules, never from
//! running the matcher; where the template does not pin a reading (a template with lints, a
//! list in `{a,b}`, a value holding what the template writes next, values outside the
//! round-trip domain), the label is only that no unsafe value gets through
//! ([`Expected::NeverUnsafe`]). The
//! [semantics](crate::semantics), section 12, says how each label is derived.
//!
//! # A property test of your handler, in under 20 lines
//!
//! ```
//! # #[cfg(feature = "proptest")] {
//! use proptest::prelude::*;
//! use rfc6570::testing::strategies;
//! use rfc6570::{Router, UriTemplate};
//!
//! fn read_file(path: &str) -> String { format!("contents of {path}") } // your handler
//!
//! let template = UriTemplate::parse("file:///{+path}").unwrap();
//! let mut router = Router::new();
//! router.insert(template.as_str(), read_file).unwrap();
//! proptest!(|(case in strategies::all_cases(&template))| {
//!     let routed = router.at(case.uri());
//!     case.check_route(&routed)?; // the exact values, or the refusal, the case expects
//!     if let Ok(r) = routed {
//!         (r.value)(&r.captures.get("path").unwrap().decoded());
//!     }
//! });
//! # }
//! ```
//!
//! The same with `mcp::Resources` is `tests/it/recipe_mcp.rs` in the repository, and a cargo-fuzz
//! target of a file server that joins paths with [`safe_join_resolved`](crate::safety::safe_join_resolved)
//! is `tests/it/recipes/file_server.rs`.
//!
//! # Versions
//!
//! The strategies are proptest 1's and the builders arbitrary 1's: a major version of either
//! would be a new feature here.

// The guide links the strategies and the fuzzing builders, which exist only with their
// features: docs.rs builds every feature; elsewhere (a workspace that turns on `testing` alone)
// those links have nothing to point at.
#![cfg_attr(
    not(all(feature = "proptest", feature = "arbitrary")),
    allow(rustdoc::broken_intra_doc_links)
)]

mod case;
#[cfg(feature = "arbitrary")]
#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
pub mod fuzz;
mod hostile;
mod layout;
mod oracle;
mod pieces;
mod shape;
#[cfg(feature = "proptest")]
#[cfg_attr(docsrs, doc(cfg(feature = "proptest")))]
pub mod strategies;
mod template;
mod value;

pub use case::{Case, Expected, Mismatch};
pub use hostile::{Hostile, hostile_variants, spelled_variants};
pub use oracle::{decode, fault, normalize, query_shape};
pub use pieces::{Piece, string_of};
pub use shape::{shape_template, shape_values};
pub use template::{GenModifier, GenPart, GenSpec, GenTemplate};
pub use value::{Value, Values};
