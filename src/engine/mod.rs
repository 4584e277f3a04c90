//! The matching engine: compiles templates, and finds for a URI the best of them and where
//! each of its variables lies. The only code that knows that three engines exist, and the
//! only code that chooses between them.
//!
//! * `trie` reads a template as tokens, and merges many into a trie;
//! * `program` compiles the trie into an NFA over URI units (the instructions of `inst`),
//!   refusing the shapes that the template rules name;
//! * `walk` serves delimited templates by a radix walk, with no automaton at all;
//! * `closure` follows a program's epsilon paths, for the VM and the table alike;
//! * `vm` runs a program as a Pike VM, linear in the URI;
//! * `dfa` runs the VM's choices made ahead of time, as a table;
//! * `trailer` reads a template's one trailing expression straight, where the automaton's
//!   answer is plain to see;
//! * `statics` finds a static template that a URI spells exactly, before any search;
//! * `word` packs short texts in a machine word, for the walk and the statics to compare;
//! * `search` holds the [`Matcher`] and its search, the one place that picks among them;
//! * `found` is what a search hands back, and [`Found::finish`] what completes it;
//! * `validate` finds a URI's own faults; `policy` is what the options ask of every template;
//!   `shape` is a template as the router compares it for conflicts.
//!
//! A [`Matcher`] holds what one template, or a router's set, compiles to: the program that
//! reads values as an expansion writes them, with its walk, and the one that also takes the
//! raw sub-delimiters clients send. [`Matcher::find`] tries the walk, then the automaton
//! (the table where the program has one, else the VM), then the lenient reading where the
//! strict one found nothing, and hands back the template found, its
//! [`Spans`](crate::matching::Spans) written, and
//! what they still need to be its captures.

#[cfg(test)]
mod adversarial;
mod closure;
mod dfa;
mod found;
mod inst;
mod policy;
mod program;
mod search;
mod shape;
mod statics;
#[cfg_attr(target_arch = "wasm32", path = "trailer_none.rs")]
mod trailer;
mod trie;
mod validate;
mod vm;
mod walk;
mod word;

pub(crate) use found::{Found, Plainness};
pub(crate) use policy::Policy;
pub(crate) use search::{Matcher, Templates, check};
pub(crate) use shape::Shape;
pub(crate) use validate::{check_uri, limit};
