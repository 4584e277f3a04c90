//! Templates as token sequences, and the trie that merges them.
//!
//! A template's head is a sequence of [`Token`]s: literal units, expressions, and a query tail.
//! Two templates with equal tokens match exactly the same URIs with the same precedence, which is
//! how the router finds conflicts ([`Shape`](super::Shape)). Inserting many templates' tokens into
//! a [`Trie`] shares their common prefixes; the program compiler and the radix walk are both
//! built from it.

use crate::pct;
use crate::template::{Node, Operator, Parsed, VarNode};

pub(super) fn var_node(n: &Node) -> VarNode {
    match n {
        Node::Var(v) => *v,
        _ => unreachable!("an expression's nodes are variables"),
    }
}

/// A piece of a template's head. Two templates share a trie edge when their tokens are equal:
/// variable names matter only where the expansion writes them (named operators).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) enum Token {
    Unit(pct::Unit),
    /// An ASCII letter of the scheme or authority, in lowercase: either case matches it.
    Caseless(u8),
    Expression {
        op: Operator,
        vars: Vec<VarToken>,
    },
    Tail(TailStart),
}

/// How a query tail's expansion can start: with `?` if it has a `{?..}` expression, with `&` if
/// it has a `{&..}` one. (An `&` inside `{+path}` must not end the path before a `{?rev}`
/// tail.)
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) struct TailStart {
    question: bool,
    ampersand: bool,
}

impl TailStart {
    fn of(ops: impl Iterator<Item = Operator>) -> Self {
        ops.fold(
            Self {
                question: false,
                ampersand: false,
            },
            |s, op| Self {
                question: s.question || op == Operator::Query,
                ampersand: s.ampersand || op == Operator::QueryContinuation,
            },
        )
    }

    /// Whether a tail can start at a byte (or at the end of the URI, `None`).
    #[inline]
    pub(super) fn admits(self, byte: Option<u8>) -> bool {
        match byte {
            None => true,
            Some(b'?') => self.question,
            Some(b'&') => self.ampersand,
            Some(_) => false,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) struct VarToken {
    pub(super) node: VarNode,
    /// The name as written, for operators that write it; empty otherwise.
    pub(super) name: Box<str>,
    /// Whether the variable stands in the URI's query: after a `?` the template writes, and
    /// before any `#`.
    pub(super) in_query: bool,
}

pub(super) fn tokens(t: &Parsed) -> Vec<Token> {
    let nodes = t.nodes();
    let tail = crate::template::tail_start(nodes);
    let caseless_end = crate::template::caseless_end(t.as_str(), nodes);
    let mut out = Vec::new();
    let mut in_query = false;
    let mut i = 0;
    while i < tail {
        match nodes[i] {
            Node::Literal { start, end } => {
                let text = t.span(start, end);
                if let Some(last) = text.rfind(['?', '#']) {
                    in_query = text.as_bytes()[last] == b'?';
                }
                let bytes = text.as_bytes();
                let mut at = 0;
                while at < bytes.len() {
                    let (unit, len) = pct::unit_at(bytes, at);
                    let caseless = start as usize + at < caseless_end
                        && !unit.encoded
                        && unit.byte.is_ascii_alphabetic();
                    out.push(if caseless {
                        Token::Caseless(unit.byte.to_ascii_lowercase())
                    } else {
                        Token::Unit(unit)
                    });
                    at += len;
                }
            }
            Node::Expression { op, vars, .. } => {
                let specs = &nodes[i + 1..=i + usize::from(vars)];
                let vars = specs
                    .iter()
                    .map(|n| {
                        let node = var_node(n);
                        let written = op.is_named() && !node.explode;
                        let name = if written {
                            t.span(node.name_start, node.name_end)
                        } else {
                            ""
                        };
                        VarToken {
                            node: VarNode {
                                name_start: 0,
                                name_end: 0,
                                ..node
                            },
                            name: name.into(),
                            in_query,
                        }
                    })
                    .collect();
                out.push(Token::Expression { op, vars });
                // A query expression starts the query; a fragment ends it.
                in_query = op.is_query() || in_query && op != Operator::Fragment;
                i += usize::from(vars_len(&nodes[i]));
            }
            Node::Var(_) => unreachable!("variables follow their expression"),
        }
        i += 1;
    }
    if tail < nodes.len() {
        let ops = nodes[tail..].iter().filter_map(|n| match n {
            Node::Expression { op, .. } => Some(*op),
            _ => None,
        });
        out.push(Token::Tail(TailStart::of(ops)));
    }
    out
}

fn vars_len(n: &Node) -> u16 {
    match n {
        Node::Expression { vars, .. } => *vars,
        _ => 0,
    }
}

/// A trie of token sequences; node 0 is the root.
#[derive(Debug)]
pub(super) struct Trie {
    pub(super) nodes: Vec<TrieNode>,
}

#[derive(Debug, Default)]
pub(super) struct TrieNode {
    pub(super) children: Vec<(Token, usize)>,
    /// Templates whose tokens end here.
    pub(super) ends: Vec<u32>,
}

impl Default for Trie {
    fn default() -> Self {
        Self {
            nodes: vec![TrieNode::default()],
        }
    }
}

impl Trie {
    pub(super) fn insert(&mut self, tokens: Vec<Token>, key: u32) {
        let mut node = 0;
        for token in tokens {
            let existing = self.nodes[node]
                .children
                .iter()
                .find(|(t, _)| *t == token)
                .map(|&(_, child)| child);
            node = match existing {
                Some(child) => child,
                None => {
                    let child = self.nodes.len();
                    self.nodes.push(TrieNode::default());
                    self.nodes[node].children.push((token, child));
                    child
                }
            };
        }
        self.nodes[node].ends.push(key);
    }
}
