//! A template as the router compares it for conflicts ([`Shape`]).

use super::trie::{self, Token};
use crate::template::Parsed;

/// A template as the router compares it for conflicts: two templates of the same shape match
/// exactly the same URIs with the same precedence.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct Shape {
    tokens: Vec<Token>,
    /// For each variable, the first with its name, where the template repeats one: `x/{a}/{a}`
    /// matches fewer URIs than `x/{a}/{b}`.
    repeats: Vec<usize>,
}

impl Shape {
    pub(crate) fn of(template: &Parsed) -> Self {
        let repeats = if template.has_repeats() {
            (0..template.var_count())
                .map(|v| template.first_of(v))
                .collect()
        } else {
            Vec::new()
        };
        Self {
            tokens: trie::tokens(template),
            repeats,
        }
    }
}
