//! The fast path for delimited templates: a radix-trie walk instead of the Pike VM.
//!
//! Most templates look like a matchit route: literal text, `{var}` between delimiters
//! (`/users/{id}/x`), perhaps a trailing `{+path}` or query. For those, where each variable
//! ends is decided by the URI alone: a `{v}` runs until the first byte its class refuses, which
//! must be the delimiter the template writes next. Matching such a set needs no automaton: walk
//! a radix trie of the templates' literals, trying at each node the literal edge, then a `{v}`
//! edge, then a query tail, then a `{+v}` edge. That order is the precedence rule itself
//! (literal beats segment variable beats crossing variable at the first byte where two
//! candidates differ), so the first complete walk is the match the Pike VM would pick, with the
//! same captures.
//!
//! A router uses the walk when every template qualifies ([`Walker::build`] says which do) and
//! path variables are required (with empty ones allowed, precedence among templates needs the
//! VM), and `match_uri` when its one template qualifies; the VM serves the rest. The walk backtracks, so it
//! carries a budget proportional to the URI; a walk that runs out hands over to the VM, which
//! keeps every match linear.

use crate::matcher::program::Class;
use crate::matcher::trie::{TailStart, Token};
use crate::template::Operator;

/// A radix trie over delimited templates, flattened for the walk.
///
/// A node finds the literal child to follow from the next byte of the URI with one subtraction
/// and one load, without a search. A node's prefix is mostly short: its first eight bytes are
/// packed in one word, compared with one load of the URI; longer prefixes keep the rest in
/// [`long_tails`](Self::long_tails).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Walker {
    nodes: Vec<WalkNode>,
    /// What else leaves each node, by node.
    exits: Vec<Exits>,
    /// Every node's literal children, in a dense range from the lowest first byte to the
    /// highest, so that finding a child is a subtraction and a load; [`NO_CHILD`] where no
    /// child starts with that byte.
    dispatch: Vec<u32>,
    /// The prefix bytes past the eighth, of the nodes that have them, back to back.
    long_tails: Vec<u8>,
    /// The bytes each kind of variable runs over, by [`VarEdge::run`].
    runs: Vec<RunTable>,
    /// Whether a variable outside the query may be empty (see
    /// [`MatchOptions::require_path_vars`](super::MatchOptions::require_path_vars)).
    empty_vars: bool,
}

const NO_CHILD: u32 = u32::MAX;

/// Which bytes a variable's text may hold: its class, plus `%` and every non-ASCII byte. The
/// hex digits of a triplet are in every class, so a run steps over a triplet byte by byte (the
/// router validates triplets whenever a run saw a `%`). Each allowed byte also says what the
/// walk learns from it: whether it could break a path-safety rule ([`NOT_PLAIN`]) and whether
/// it starts a triplet ([`PERCENT`]).
type RunTable = [u8; 256];

/// The [`RunTable`] of query tails: printable ASCII but `#`, triplets and non-ASCII bytes.
const QUERY_RUN: u32 = 0;

/// A [`RunTable`] entry: the byte ends the run.
const STOP: u8 = 0;
/// A [`RunTable`] entry, and a [`Seen`] bit: the byte is allowed.
const ALLOWED: u8 = 1;
/// A [`Seen`] bit: a byte that is not [plain](crate::safety::is_plain).
const NOT_PLAIN: u8 = 2;
/// A [`Seen`] bit: a `%`.
const PERCENT: u8 = 4;

/// What the walk saw in the variable spans and the query tail it took, from the bits of their
/// [`RunTable`] entries: enough to skip validating triplets and checking path safety for most
/// URIs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Seen(u8);

impl Seen {
    /// Whether every span is plain, so that no capture can break a safety rule.
    pub(crate) fn all_plain(self) -> bool {
        self.0 & NOT_PLAIN == 0
    }

    /// Whether a span or the tail holds a `%`: everywhere else the walk matched template
    /// literals, which hold none.
    pub(crate) fn percent(self) -> bool {
        self.0 & PERCENT != 0
    }
}

/// A node, as the walk reads it at every step: small, so that the nodes a lookup visits share
/// few cache lines. What else leaves the node is in its [`Exits`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct WalkNode {
    /// The first eight bytes of the literal prefix that leads into this node from its parent,
    /// packed little-endian, zero past its end.
    head: u64,
    /// The prefix's length.
    len: u32,
    /// Where the prefix's bytes past the eighth start in [`Walker::long_tails`].
    long_tail: u32,
    /// The literal children, by the first byte of their prefix: the child for byte `b` is
    /// at `dispatch[first_child + (b - low)]` if `b - low` is below `span`.
    first_child: u32,
    low: u8,
    span: u8,
    /// Whether anything but a literal edge leaves this node: if not, the walk follows the
    /// literal edge without keeping a way back, and never reads the node's [`Exits`].
    branches: bool,
}

/// What leaves a node besides literal edges.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Exits {
    /// A `{v}` edge.
    segment: Option<VarEdge>,
    /// A trailing `{+v}` edge.
    crossing: Option<VarEdge>,
    /// A query tail.
    tail: Option<Tail>,
    /// The key of the template that ends here.
    end: Option<u32>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct VarEdge {
    slot: u32,
    /// The index of its [`RunTable`] (the trie is built with the class instead).
    run: u32,
    child: u32,
}

/// A query tail: the key of its template, the slot that records where the tail starts, the
/// bytes it can start with, and the [`RunTable`] of what it may hold (its pairs are read when
/// the captures are bound).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Tail {
    key: u32,
    slot: u32,
    start: TailStart,
    run: u32,
}

/// The outcome of a walk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Walk {
    /// The key of the template, and what its walk saw (with that of abandoned branches, which
    /// errs on the safe side).
    Found(u32, Seen),
    NotFound,
    /// The budget ran out: ask the VM.
    GaveUp,
}

/// One walk's state: the URI, where the spans go, the work left, and what the spans held.
struct Search<'u, 's> {
    uri: &'u [u8],
    slots: &'s mut [u32],
    budget: usize,
    seen: u8,
}

impl Search<'_, '_> {
    /// Records a variable's span and what it saw, and charges its length to the budget.
    fn take(&mut self, edge: VarEdge, (start, end, seen): Run) {
        self.budget = self.budget.saturating_sub((end - start) / 8);
        self.seen |= seen;
        self.slots[edge.slot as usize] = start as u32;
        self.slots[edge.slot as usize + 1] = end as u32;
    }
}

/// A variable's run: where it starts and ends, and the [`Seen`] bits of its bytes.
type Run = (usize, usize, u8);

impl Walker {
    /// Builds the trie for templates given as token lists (key `i` for the `i`-th), or `None`
    /// if some template does not qualify. With `empty_vars`, a variable outside the query may
    /// match nothing; that takes a single template, where no two edges leave one node.
    pub(crate) fn build(templates: &[Vec<Token>], empty_vars: bool) -> Option<Self> {
        debug_assert!(!empty_vars || templates.len() <= 1);
        let mut trie = BuildTrie {
            nodes: vec![BuildNode::default()],
        };
        for (key, tokens) in templates.iter().enumerate() {
            if !qualifies(tokens) {
                return None;
            }
            trie.insert(tokens, key as u32);
        }
        trie.compress(0);
        Some(Walker {
            empty_vars,
            ..trie.flatten()
        })
    }

    /// Walks `uri`, recording variable spans in `slots`.
    pub(crate) fn walk(&self, uri: &[u8], slots: &mut [u32]) -> Walk {
        let mut search = Search {
            uri,
            slots,
            budget: 4 * uri.len() + 64,
            seen: 0,
        };
        // The root's prefix is empty.
        match self.visit(&mut search, 0, 0) {
            Some(key) => Walk::Found(key, Seen(search.seen)),
            None if search.budget == 0 => Walk::GaveUp,
            None => Walk::NotFound,
        }
    }

    /// The first complete walk from `node`, whose prefix ends at `pos`. Edges are tried in
    /// precedence order; the walk recurses only where a later edge could still apply, and
    /// loops otherwise.
    fn visit(&self, s: &mut Search<'_, '_>, mut node: u32, mut pos: usize) -> Option<u32> {
        loop {
            let n = &self.nodes[node as usize];
            if s.budget == 0 {
                return None;
            }
            s.budget -= 1;
            let Some(&byte) = s.uri.get(pos) else {
                let exits = &self.exits[node as usize];
                if let Some(key) = at_end(exits, pos, s.slots) {
                    return Some(key);
                }
                // An empty variable can still be taken at the end (a single template's node
                // has one variable edge at most).
                let edge = exits
                    .segment
                    .or(exits.crossing)
                    .filter(|_| self.empty_vars)?;
                let next = self.prefix_end(edge.child, s.uri, pos)?;
                s.take(edge, (pos, pos, 0));
                (node, pos) = (edge.child, next);
                continue;
            };
            if let Some((child, end)) = self.literal_edge(n, byte, s.uri, pos) {
                if !n.branches {
                    (node, pos) = (child, end);
                    continue;
                }
                if let Some(key) = self.visit(s, child, end) {
                    return Some(key);
                }
            }
            let exits = &self.exits[node as usize];
            if let Some(edge) = exits.segment {
                let run = self.run(edge, s.uri, pos);
                let end = run.1;
                // The variable ends where its child's prefix must start.
                let taken = end > pos || self.empty_vars;
                let next = taken.then(|| self.prefix_end(edge.child, s.uri, end));
                if let Some(Some(next)) = next {
                    s.take(edge, run);
                    if exits.tail.is_none() && exits.crossing.is_none() {
                        (node, pos) = (edge.child, next);
                        continue;
                    }
                    if let Some(key) = self.visit(s, edge.child, next) {
                        return Some(key);
                    }
                }
            }
            if let Some(tail) = exits.tail.filter(|t| t.start.admits(Some(byte))) {
                let (_, end, seen) = self.run_table(tail.run, s.uri, pos);
                // Charged like a variable's run: a walk that fails here may scan another tail.
                s.budget = s.budget.saturating_sub((end - pos) / 8);
                if end == s.uri.len() {
                    s.seen |= seen;
                    s.slots[tail.slot as usize] = pos as u32;
                    return Some(tail.key);
                }
            }
            let edge = exits.crossing?;
            let run = self.run(edge, s.uri, pos);
            let end = run.1;
            // A crossing variable ends the template, so its child's prefix is empty.
            if end != s.uri.len() || end == pos && !self.empty_vars {
                return None;
            }
            s.take(edge, run);
            (node, pos) = (edge.child, end);
        }
    }

    /// The literal child whose prefix the URI continues with at `pos`, and where that prefix
    /// ends. Children differ in their first byte, so only one can match.
    #[inline]
    fn literal_edge(&self, n: &WalkNode, byte: u8, uri: &[u8], pos: usize) -> Option<(u32, usize)> {
        let offset = byte.wrapping_sub(n.low);
        if offset >= n.span {
            return None;
        }
        let child = self.dispatch[n.first_child as usize + usize::from(offset)];
        if child == NO_CHILD {
            return None;
        }
        let end = self.prefix_end(child, uri, pos)?;
        Some((child, end))
    }

    /// Where `node`'s prefix ends if the URI continues with it at `pos`.
    #[inline(always)]
    fn prefix_end(&self, node: u32, uri: &[u8], pos: usize) -> Option<usize> {
        let n = &self.nodes[node as usize];
        let len = n.len as usize;
        let end = pos + len;
        let mask = match len {
            0..=7 => (1 << (8 * len)) - 1,
            _ => u64::MAX,
        };
        if (load(uri, pos) ^ n.head) & mask != 0 || end > uri.len() {
            return None;
        }
        if len > 8 {
            let from = n.long_tail as usize;
            if uri[pos + 8..end] != self.long_tails[from..from + len - 8] {
                return None;
            }
        }
        Some(end)
    }

    /// The run of bytes the edge's variable may hold, from `pos`.
    fn run(&self, edge: VarEdge, uri: &[u8], pos: usize) -> Run {
        self.run_table(edge.run, uri, pos)
    }

    /// The run of bytes that [`RunTable`] `run` allows, from `pos`.
    fn run_table(&self, run: u32, uri: &[u8], pos: usize) -> Run {
        let table = &self.runs[run as usize];
        let mut seen = 0;
        let len = uri[pos..]
            .iter()
            .take_while(|&&b| {
                let entry = table[usize::from(b)];
                seen |= entry;
                entry != STOP
            })
            .count();
        (pos, pos + len, seen)
    }
}

/// Up to eight bytes of `bytes` from `at`, packed little-endian, zero past the end: prefixes
/// are short, and one load and a mask compare them faster than `memcmp` or a byte loop.
#[inline(always)]
fn load(bytes: &[u8], at: usize) -> u64 {
    if let Some(word) = bytes.get(at..at + 8) {
        return u64::from_le_bytes(word.try_into().expect("eight bytes"));
    }
    let len = bytes.len();
    if len >= 8 && at < len {
        // The last eight bytes, shifted so that the byte at `at` comes first.
        let last = u64::from_le_bytes(bytes[len - 8..].try_into().expect("eight bytes"));
        return last >> (8 * (at + 8 - len));
    }
    bytes
        .get(at..)
        .unwrap_or_default()
        .iter()
        .rev()
        .fold(0, |word, &b| word << 8 | u64::from(b))
}

/// At the end of the URI, a template ending here and one whose query tail is empty tie on
/// rank: the lower key wins, as in the VM.
fn at_end(n: &Exits, pos: usize, slots: &mut [u32]) -> Option<u32> {
    let tail = n.tail.filter(|t| n.end.map_or(true, |end| t.key < end));
    if let Some(tail) = tail {
        slots[tail.slot as usize] = pos as u32;
        return Some(tail.key);
    }
    n.end
}

/// The trie as it is built: one node per literal byte at first, then compressed.
struct BuildTrie {
    nodes: Vec<BuildNode>,
}

#[derive(Debug, Clone, Default)]
struct BuildNode {
    prefix: Vec<u8>,
    /// Literal edges, by the first byte of the child's prefix, sorted.
    literals: Vec<(u8, u32)>,
    segment: Option<BuildEdge>,
    crossing: Option<BuildEdge>,
    tail: Option<Tail>,
    end: Option<u32>,
}

#[derive(Debug, Clone, Copy)]
struct BuildEdge {
    slot: u32,
    class: Class,
    child: u32,
}

impl BuildTrie {
    fn insert(&mut self, tokens: &[Token], key: u32) {
        let mut node = 0usize;
        let mut var = 0u32;
        for token in tokens {
            node = match token {
                Token::Unit(u) => self.literal_child(node, u.byte),
                Token::Expression { op, vars } => {
                    let edge = BuildEdge {
                        slot: 2 * var,
                        class: Class::variable(*op, &vars[0].node),
                        child: 0,
                    };
                    var += 1;
                    self.var_child(node, *op == Operator::Simple, edge)
                }
                Token::Tail(start) => {
                    self.nodes[node].tail = Some(Tail {
                        key,
                        slot: 2 * var,
                        start: *start,
                        run: QUERY_RUN,
                    });
                    return;
                }
            };
        }
        self.nodes[node].end = Some(key);
    }

    /// The child behind the node's `{v}` (segment) or `{+v}` edge, made if missing.
    fn var_child(&mut self, node: usize, segment: bool, edge: BuildEdge) -> usize {
        let n = &self.nodes[node];
        if let Some(existing) = if segment { n.segment } else { n.crossing } {
            return existing.child as usize;
        }
        let child = self.new_node();
        let edge = Some(BuildEdge {
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
        self.nodes.push(BuildNode::default());
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
        for child in self.children(node) {
            self.compress(child);
        }
    }

    fn children(&self, node: usize) -> Vec<usize> {
        let n = &self.nodes[node];
        n.literals
            .iter()
            .map(|&(_, c)| c as usize)
            .chain(n.segment.map(|e| e.child as usize))
            .chain(n.crossing.map(|e| e.child as usize))
            .collect()
    }

    /// The walker: the reachable nodes numbered breadth first (so that literal siblings are
    /// neighbours), with their prefixes packed and their classes turned into run tables.
    fn flatten(self) -> Walker {
        let order = self.breadth_first();
        let mut number = vec![0u32; self.nodes.len()];
        for (i, &old) in order.iter().enumerate() {
            number[old] = i as u32;
        }
        let mut walker = Walker::default();
        let mut classes = vec![Class::query()]; // QUERY_RUN
        walker.runs.push(run_table(Class::query()));
        for &old in &order {
            let n = &self.nodes[old];
            let (first_child, low, span) = walker.dispatch_for(&n.literals, &number);
            let mut var_edge = |edge: BuildEdge| {
                let run = classes
                    .iter()
                    .position(|&c| c == edge.class)
                    .unwrap_or_else(|| {
                        classes.push(edge.class);
                        walker.runs.push(run_table(edge.class));
                        classes.len() - 1
                    });
                VarEdge {
                    slot: edge.slot,
                    run: run as u32,
                    child: number[edge.child as usize],
                }
            };
            let exits = Exits {
                segment: n.segment.map(&mut var_edge),
                crossing: n.crossing.map(&mut var_edge),
                tail: n.tail,
                end: n.end,
            };
            let long_tail = walker.long_tails.len() as u32;
            walker.long_tails.extend(n.prefix.iter().skip(8));
            walker.nodes.push(WalkNode {
                head: load(&n.prefix[..n.prefix.len().min(8)], 0),
                len: n.prefix.len() as u32,
                long_tail,
                first_child,
                low,
                span,
                branches: exits.segment.is_some()
                    || exits.crossing.is_some()
                    || exits.tail.is_some(),
            });
            walker.exits.push(exits);
        }
        walker
    }

    /// The nodes reachable from the root, breadth first, each node's literal children in a row
    /// in the order of their first byte.
    fn breadth_first(&self) -> Vec<usize> {
        let mut order = vec![0];
        let mut next = 0;
        while let Some(&old) = order.get(next) {
            let n = &self.nodes[old];
            order.extend(n.literals.iter().map(|&(_, c)| c as usize));
            order.extend(
                n.segment
                    .iter()
                    .chain(&n.crossing)
                    .map(|e| e.child as usize),
            );
            next += 1;
        }
        order
    }
}

impl Walker {
    /// Lays out a node's literal children (sorted by first byte, all ASCII) as a dense range:
    /// where it starts, and the first byte and number of bytes it covers.
    fn dispatch_for(&mut self, literals: &[(u8, u32)], number: &[u32]) -> (u32, u8, u8) {
        let (Some(&(low, _)), Some(&(high, _))) = (literals.first(), literals.last()) else {
            return (0, 0, 0);
        };
        let start = self.dispatch.len();
        self.dispatch
            .resize(start + usize::from(high - low) + 1, NO_CHILD);
        for &(b, child) in literals {
            self.dispatch[start + usize::from(b - low)] = number[child as usize];
        }
        (start as u32, low, high - low + 1)
    }
}

fn run_table(class: Class) -> RunTable {
    let mut table = [STOP; 256];
    for (b, entry) in table.iter_mut().enumerate() {
        let b = b as u8;
        if b == b'%' || b >= 0x80 || class.allows_raw(b) {
            *entry = ALLOWED;
            if !crate::safety::is_plain(&[b]) {
                *entry |= NOT_PLAIN;
            }
            if b == b'%' {
                *entry |= PERCENT;
            }
        }
    }
    table
}

/// Whether a template's tokens can be walked: ASCII literals without triplets; variables that
/// are single `{v}` (followed by a literal byte outside their class, a query tail or the end)
/// or a single `{+v}` ending the template; a query tail only after a literal or `{v}`.
fn qualifies(tokens: &[Token]) -> bool {
    tokens.iter().enumerate().all(|(i, token)| match token {
        Token::Unit(u) => !u.encoded && u.byte.is_ascii() && u.byte != b'%',
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
    fn load_packs_up_to_eight_bytes_and_zeroes_past_the_end() {
        let text = b"0123456789";
        assert_eq!(load(text, 0), u64::from_le_bytes(*b"01234567"));
        assert_eq!(load(text, 2), u64::from_le_bytes(*b"23456789"));
        assert_eq!(load(text, 7), u64::from_le_bytes(*b"789\0\0\0\0\0"));
        assert_eq!(load(text, 9), u64::from(b'9'));
        assert_eq!(load(text, 10), 0);
        assert_eq!(load(b"abc", 1), u64::from_le_bytes(*b"bc\0\0\0\0\0\0"));
        assert_eq!(load(b"abc", 3), 0);
        assert_eq!(load(b"", 0), 0);
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

/// The walk against the VM on single templates, with and without empty path variables: the
/// same template key, the same spans. (The router's oracle covers sets of templates.)
#[cfg(test)]
mod agrees_with_the_vm {
    use proptest::prelude::*;

    use super::Walk;
    use crate::matcher::program::{Policy, Program};
    use crate::matcher::vm;
    use crate::UriTemplate;

    fn template() -> impl Strategy<Value = String> {
        let part = prop::sample::select(vec![
            "/",
            "a",
            "x/",
            "-",
            "/issues/comments/",
            "{p}/",
            "{q}/x",
            "{r}?",
        ]);
        let end = prop::sample::select(vec![
            "", "{s}", "{+s}", "{?t,u}", "{s}{?t}", "/{+s}", "{&t}",
        ]);
        (prop::collection::vec(part, 0..5), end).prop_map(|(parts, end)| parts.concat() + end)
    }

    fn uri() -> impl Strategy<Value = String> {
        let piece = prop::sample::select(vec![
            "/",
            "a",
            "x",
            "-",
            ".",
            "%2F",
            "%41",
            "?t=1",
            "&u=2",
            "?",
            "&",
            "=",
            "é",
            "#",
            " ",
            "/issues/comments/",
            "\u{1}",
        ]);
        prop::collection::vec(piece, 0..10).prop_map(|p| p.concat())
    }

    proptest! {
        #[test]
        fn walk_and_vm_agree(text in template(), uri in uri(), empty in any::<bool>()) {
            let t = UriTemplate::parse(&text).unwrap();
            let policy = Policy { require_path_vars: !empty };
            let program = Program::compile(&t, policy).unwrap();
            let walker = program.walker.as_ref().expect("the template is delimited");
            let width = program.slots;
            let (mut walked, mut ran) = (vec![vm::UNSET; width], vec![vm::UNSET; width]);
            let by_vm = vm::run(&program, uri.as_bytes(), &mut ran);
            match walker.walk(uri.as_bytes(), &mut walked) {
                Walk::GaveUp => {}
                Walk::NotFound => prop_assert_eq!(by_vm, None),
                Walk::Found(key, _) => {
                    program.layouts[0].clear_tail(&mut walked);
                    prop_assert_eq!(by_vm, Some(key));
                    prop_assert_eq!(walked, ran);
                }
            }
        }
    }
}
