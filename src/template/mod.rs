//! Templates as parsed: the views over a template's parts ([`Component`], [`Expression`],
//! [`VarSpec`], [`Operator`]), the [`Limits`] a parse enforces, and the [`Lint`]s of templates
//! that cannot be matched back unambiguously.
//!
//! A template is parsed once (`grammar`) into two allocations: its source text and a flat
//! array of nodes (literal spans, expression headers, variable specs). Expansion, matching and
//! routing walk that array and never scan the source text for structure again. The
//! [`UriTemplate`](crate::UriTemplate) that users hold wraps this parsed form.

pub(crate) mod class;
mod grammar;
mod limits;
mod lint;
mod node;
mod parsed;
mod parts;
mod rules;

pub use limits::Limits;
pub use lint::{Lint, LintKind};
pub use node::Operator;
pub(crate) use node::{Node, VarNode, caseless_end, tail_start};
pub(crate) use parsed::{PackedNames, Parsed};
pub use parts::{Component, Components, Expression, VarSpec};
