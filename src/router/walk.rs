//! The router's fast path: a radix-trie walk for templates whose variables are delimited.
//!
//! Most routers look like matchit's: literal text, `{var}` between delimiters (`/users/{id}/x`),
//! perhaps a trailing `{+path}` or query. For those, where each variable ends is decided by the
//! URI alone: a `{v}` runs until the first byte its class refuses, which must be the delimiter
//! the template writes next. Matching such a set needs no automaton: walk a radix trie of the
//! templates' literals, trying at each node the literal edge, then a `{v}` edge, then a query
//! tail, then a `{+v}` edge. That order is the precedence rule itself (literal beats segment
//! variable beats crossing variable at the first byte where two candidates differ), so the first
//! complete walk is the match the Pike VM would pick, with the same captures.
//!
//! A router uses the walk when every template qualifies ([`Walker::build`] says which do), and
//! the VM otherwise. The walk backtracks, so it carries a budget proportional to the URI; a walk
//! that runs out hands the lookup to the VM, which keeps every lookup linear.

use crate::matcher::program::Class;
use crate::matcher::trie::{TailStart, Token};
use crate::template::Operator;

/// A radix trie over delimited templates.
#[derive(Debug, Clone, Default)]
pub(crate) struct Walker {
    nodes: Vec<WalkNode>,
}

#[derive(Debug, Clone, Default)]
struct WalkNode {
    /// Literal bytes that lead into this node from its parent's literal edge.
    prefix: Vec<u8>,
    /// Literal edges, by the first byte of the child's prefix.
    literals: Vec<(u8, u32)>,
    /// A `{v}` edge: its slot pair and class.
    segment: Option<VarEdge>,
    /// A trailing `{+v}` edge.
    crossing: Option<VarEdge>,
    /// A query tail: the key of the template, the slot recording where the tail starts, and
    /// the bytes it can start with.
    tail: Option<(u32, u32, TailStart)>,
    /// The key of the template that ends here.
    end: Option<u32>,
}

#[derive(Debug, Clone, Copy)]
struct VarEdge {
    slot: u32,
    class: Class,
    child: u32,
}

/// The outcome of a walk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Walk {
    Found(u32),
    NotFound,
    /// The budget ran out: ask the VM.
    GaveUp,
}

impl Walker {
    /// Builds the trie for templates given as token lists (key `i` for the `i`-th), or `None`
    /// if some template does not qualify.
    pub(crate) fn build(templates: &[Vec<Token>]) -> Option<Self> {
        let mut walker = Self {
            nodes: vec![WalkNode::default()],
        };
        for (key, tokens) in templates.iter().enumerate() {
            if !qualifies(tokens) {
                return None;
            }
            walker.insert(tokens, key as u32);
        }
        walker.compress(0);
        Some(walker)
    }

    fn insert(&mut self, tokens: &[Token], key: u32) {
        let mut node = 0usize;
        let mut var = 0u32;
        for token in tokens {
            node = match token {
                Token::Unit(u) => self.literal_child(node, u.byte),
                Token::Expression { op, vars } => {
                    let edge = VarEdge {
                        slot: 2 * var,
                        class: Class::variable(*op, &vars[0].node),
                        child: 0,
                    };
                    var += 1;
                    self.var_child(node, *op == Operator::Simple, edge)
                }
                Token::Tail(start) => {
                    self.nodes[node].tail = Some((key, 2 * var, *start));
                    return;
                }
            };
        }
        self.nodes[node].end = Some(key);
    }

    /// The child behind the node's `{v}` (segment) or `{+v}` edge, made if missing.
    fn var_child(&mut self, node: usize, segment: bool, edge: VarEdge) -> usize {
        let n = &self.nodes[node];
        if let Some(existing) = if segment { n.segment } else { n.crossing } {
            return existing.child as usize;
        }
        let child = self.new_node();
        let edge = Some(VarEdge {
            child: child as u32,
            ..edge
        });
        let n = &mut self.nodes[node];
        if segment {
            n.segment = edge;
        } else {
            n.crossing = edge;
        }
        child
    }

    fn new_node(&mut self) -> usize {
        self.nodes.push(WalkNode::default());
        self.nodes.len() - 1
    }

    fn literal_child(&mut self, node: usize, byte: u8) -> usize {
        if let Some(&(_, child)) = self.nodes[node].literals.iter().find(|(b, _)| *b == byte) {
            return child as usize;
        }
        let child = self.new_node();
        self.nodes[child].prefix.push(byte);
        let literals = &mut self.nodes[node].literals;
        literals.push((byte, child as u32));
        literals.sort_unstable();
        child
    }

    /// Folds chains of single literal edges into their first node's prefix, so that a walk
    /// compares runs of literal bytes at once.
    fn compress(&mut self, node: usize) {
        loop {
            let n = &self.nodes[node];
            let only_literal = n.literals.len() == 1
                && n.segment.is_none()
                && n.crossing.is_none()
                && n.tail.is_none()
                && n.end.is_none();
            if node == 0 || !only_literal {
                break;
            }
            let child = n.literals[0].1 as usize;
            let moved = std::mem::take(&mut self.nodes[child]);
            let n = &mut self.nodes[node];
            n.prefix.extend_from_slice(&moved.prefix);
            n.literals = moved.literals;
            n.segment = moved.segment;
            n.crossing = moved.crossing;
            n.tail = moved.tail;
            n.end = moved.end;
        }
        let children: Vec<usize> = {
            let n = &self.nodes[node];
            n.literals
                .iter()
                .map(|&(_, c)| c as usize)
                .chain(n.segment.map(|e| e.child as usize))
                .chain(n.crossing.map(|e| e.child as usize))
                .collect()
        };
        for child in children {
            self.compress(child);
        }
    }

    /// Walks `uri`, recording variable spans in `slots`.
    pub(crate) fn walk(&self, uri: &[u8], slots: &mut [u32]) -> Walk {
        let mut budget = 4 * uri.len() + 64;
        match self.visit(0, 0, uri, slots, &mut budget) {
            Some(key) => Walk::Found(key),
            None if budget == 0 => Walk::GaveUp,
            None => Walk::NotFound,
        }
    }

    fn visit(
        &self,
        node: usize,
        pos: usize,
        uri: &[u8],
        slots: &mut [u32],
        budget: &mut usize,
    ) -> Option<u32> {
        let n = &self.nodes[node];
        if *budget == 0 || !uri[pos..].starts_with(&n.prefix) {
            return None;
        }
        *budget -= 1 + n.prefix.len() / 8;
        let pos = pos + n.prefix.len();
        let Some(&byte) = uri.get(pos) else {
            return self.at_end(n, pos, slots);
        };
        if let Ok(i) = n.literals.binary_search_by_key(&byte, |&(b, _)| b) {
            let child = n.literals[i].1 as usize;
            if let Some(key) = self.visit(child, pos, uri, slots, budget) {
                return Some(key);
            }
        }
        if let Some(edge) = n.segment {
            let end = run(uri, pos, edge.class);
            if end > pos {
                if let Some(key) = self.visit_var(edge, pos, end, uri, slots, budget) {
                    return Some(key);
                }
            }
        }
        if let Some((key, slot, start)) = n.tail {
            if start.admits(Some(byte)) {
                slots[slot as usize] = pos as u32;
                return Some(key);
            }
        }
        let edge = n.crossing?;
        let end = run(uri, pos, edge.class);
        if end == uri.len() && end > pos {
            return self.visit_var(edge, pos, end, uri, slots, budget);
        }
        None
    }

    /// At the end of the URI, a template ending here and one whose query tail is empty tie on
    /// rank: the lower key wins, as in the VM.
    fn at_end(&self, n: &WalkNode, pos: usize, slots: &mut [u32]) -> Option<u32> {
        let tail = n
            .tail
            .filter(|&(key, _, _)| n.end.map_or(true, |end| key < end));
        if let Some((key, slot, _)) = tail {
            slots[slot as usize] = pos as u32;
            return Some(key);
        }
        n.end
    }

    fn visit_var(
        &self,
        edge: VarEdge,
        start: usize,
        end: usize,
        uri: &[u8],
        slots: &mut [u32],
        budget: &mut usize,
    ) -> Option<u32> {
        *budget = budget.saturating_sub((end - start) / 8);
        slots[edge.slot as usize] = start as u32;
        slots[edge.slot as usize + 1] = end as u32;
        self.visit(edge.child as usize, end, uri, slots, budget)
    }
}

/// The end of the run of units the class allows from `pos` (triplets and non-ASCII bytes are
/// always allowed; the URI's triplets were validated).
fn run(uri: &[u8], mut pos: usize, class: Class) -> usize {
    while pos < uri.len() {
        let b = uri[pos];
        if b == b'%' {
            pos += 3;
        } else if b >= 0x80 || class.allows_raw(b) {
            pos += 1;
        } else {
            break;
        }
    }
    pos
}

/// Whether a template's tokens can be walked: ASCII literals without triplets; variables that
/// are single `{v}` (followed by a literal byte outside their class, a query tail or the end)
/// or a single `{+v}` ending the template; a query tail only after a literal or `{v}`.
fn qualifies(tokens: &[Token]) -> bool {
    tokens.iter().enumerate().all(|(i, token)| match token {
        Token::Unit(u) => !u.encoded && u.byte != b'%',
        Token::Tail(_) => true,
        Token::Expression { op, vars } => {
            let [var] = vars.as_slice() else {
                return false;
            };
            let plain = var.node.prefix == 0 && !var.node.explode;
            let class = Class::variable(*op, &var.node);
            let next = tokens.get(i + 1);
            plain
                && match op {
                    Operator::Simple => match next {
                        None | Some(Token::Tail(_)) => true,
                        Some(Token::Unit(u)) => !u.encoded && !class.allows_raw(u.byte),
                        Some(Token::Expression { .. }) => false,
                    },
                    Operator::Reserved => next.is_none(),
                    _ => false,
                }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matcher::trie::shape;
    use crate::UriTemplate;

    fn tokens(t: &str) -> Vec<Token> {
        shape(&UriTemplate::parse(t).unwrap())
    }

    #[test]
    fn delimited_templates_qualify() {
        for t in [
            "/users/{id}/x",
            "/a/{b}",
            "log://build/{id}{?lines}",
            "file:///{+path}",
            "/static",
        ] {
            assert!(qualifies(&tokens(t)), "{t}");
        }
        for t in [
            "/a/{name}.txt",
            "{a}{b}",
            "/{+a}/x",
            "/{a,b}",
            "/{.a}",
            "/%20/{a}",
            "/{a:3}/",
            "{+a}{?q}",
        ] {
            assert!(!qualifies(&tokens(t)), "{t}");
        }
    }
}
