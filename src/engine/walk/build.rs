//! Building the walk: which templates qualify, the trie of their tokens, its compression, and
//! the flat node array the walk reads.

use super::{
    ALLOWED, BRANCHES, CLIENT_STOP, Class, DOT_OR_SLASH, EMPTY_SEGMENT, Exits, FIRST_VAR_RUN, HASH,
    HEAD_LEN, HOLE, LATER_EDGES, NO_END, NOT_PLAIN, PERCENT, QUERY_RUN, QUERY_VALUES, RunTable,
    SEGMENT, STOP, TAIL, Tail, VarEdge, WalkNode, Walker, load,
};
use crate::engine::trie::{Token, VarToken};
use crate::template::Operator;
use crate::template::class::Reading;

impl Walker {
    /// Builds the trie for templates given as token lists (key `i` for the `i`-th), or `None`
    /// if some template does not qualify. With `empty_vars`, a variable outside the query may
    /// match nothing; that takes a single template, where no two edges leave one node.
    /// With `strict`, variables hold raw only what expansion writes (see [`Class::value`]).
    pub(in crate::engine) fn build(
        templates: &[Vec<Token>],
        empty_vars: bool,
        strict: bool,
    ) -> Option<Self> {
        debug_assert!(!empty_vars || templates.len() <= 1);
        let mut trie = BuildTrie {
            nodes: vec![BuildNode::default()],
        };
        for (key, tokens) in templates.iter().enumerate() {
            if !qualifies(tokens, strict) {
                return None;
            }
            // Keys are stored in 32 bits, and one value means "no template ends here".
            let key = u32::try_from(key).ok().filter(|&k| k != NO_END)?;
            if !trie.insert(tokens, key, strict) {
                return None;
            }
        }
        trie.compress(0);
        trie.split_long_prefixes();
        // Literals are ASCII without `%` (see `qualifies`); a `#` or a byte a URI may not
        // hold is the rest of what a check for faults looks at.
        let plain_literals = trie
            .nodes
            .iter()
            .all(|n| n.prefix.iter().all(|&b| crate::pct::is_plain(b)));
        Some(Walker {
            empty_vars,
            plain_literals,
            ..trie.flatten(empty_vars)?
        })
    }
}

/// Where a node stands in the walker's array: itself, or a copy of it at the uppercase byte of
/// a letter that compares without case.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Place {
    Node,
    Copy,
}

/// The trie as it is built: one node per literal byte at first, then compressed.
struct BuildTrie {
    nodes: Vec<BuildNode>,
}

#[derive(Debug, Clone, Default)]
struct BuildNode {
    prefix: Vec<u8>,
    /// For each byte of the prefix, whether it is a letter that compares without case (then
    /// the byte is its lowercase).
    caseless: Vec<bool>,
    /// Literal edges, by the first byte of the child's prefix, sorted.
    literals: Vec<(u8, u32)>,
    segment: Option<BuildEdge>,
    crossing: Option<BuildEdge>,
    tail: Option<Tail>,
    end: Option<u32>,
}

#[derive(Debug, Clone, Copy)]
struct BuildEdge {
    /// The variable's number in its template: its span is the walk's pair of that number.
    var: u32,
    class: Class,
    child: u32,
}

impl BuildTrie {
    /// Adds a template's tokens, or says `false` when the walk cannot hold it: a node keeps
    /// one query tail, so two templates whose tails start at the same node (`{?a}` and `{&b}`)
    /// are left to the VM, which ranks both.
    fn insert(&mut self, tokens: &[Token], key: u32, strict: bool) -> bool {
        let mut node = 0usize;
        let mut var = 0u32;
        for token in tokens {
            let literal = match token {
                Token::Unit(u) => Some((u.byte, false)),
                Token::Caseless(lower) => Some((*lower, true)),
                _ => None,
            };
            node = match token {
                Token::Unit(_) | Token::Caseless(_) => {
                    let (byte, caseless) = literal.expect("a literal token");
                    // A letter with case here and without it in another template at the same
                    // place (`users/x` and `Users:x`) needs two children for one byte.
                    let Some(child) = self.literal_child(node, byte, caseless) else {
                        return false;
                    };
                    child
                }
                Token::Expression { op, vars } => {
                    let edge = BuildEdge {
                        var,
                        class: Class::variable(*op, &vars[0].node, reading(strict, &vars[0])),
                        child: 0,
                    };
                    var += 1;
                    self.var_child(node, *op == Operator::Simple, edge)
                }
                Token::Tail(start) => {
                    if self.nodes[node].tail.is_some() {
                        return false;
                    }
                    self.nodes[node].tail = Some(Tail {
                        key,
                        var,
                        start: *start,
                        run: QUERY_RUN,
                        heads: None,
                    });
                    return true;
                }
            };
        }
        // Two templates end here only where one repeats a name the other does not
        // (`x/{a}/{a}`, `x/{a}/{b}`): the first key, which ranks first, is the walk's answer,
        // and a router searches again without it where its occurrences disagree.
        self.nodes[node].end.get_or_insert(key);
        true
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

    /// The literal child for `byte` (lowercase, if `caseless`), made if missing; `None` if
    /// the child for that byte compares it the other way, or if a letter with case and one
    /// without it would stand at one byte of the row.
    fn literal_child(&mut self, node: usize, byte: u8, caseless: bool) -> Option<usize> {
        let child_at = |trie: &Self, byte: u8| {
            let literals = &trie.nodes[node].literals;
            literals
                .iter()
                .find(|(b, _)| *b == byte)
                .map(|&(_, c)| c as usize)
        };
        if let Some(child) = child_at(self, byte) {
            let same = self.nodes[child].caseless[0] == caseless;
            return same.then_some(child);
        }
        // A letter without case stands at its uppercase byte too (see `row`): beside a child
        // that starts with the same letter in the other case, one of the two without case
        // (`e:x` beside `E/x`), it would take that child's place.
        if byte.is_ascii_alphabetic() {
            let other = child_at(self, byte ^ 0x20);
            if other.is_some_and(|c| caseless || self.nodes[c].caseless[0]) {
                return None;
            }
        }
        let child = self.new_node();
        self.nodes[child].prefix.push(byte);
        self.nodes[child].caseless.push(caseless);
        let literals = &mut self.nodes[node].literals;
        // Kept in order as they come, rather than sorted after each one.
        let entry = (byte, child as u32);
        let at = literals.partition_point(|&known| known < entry);
        literals.insert(at, entry);
        Some(child)
    }

    /// The row of `node`'s literal children as the walk reads it, by byte: each child at its
    /// first byte, and a letter that compares without case at its uppercase byte too, as a copy.
    fn row(&self, node: usize) -> Vec<(u8, usize, Place)> {
        let mut row = Vec::new();
        for &(byte, child) in &self.nodes[node].literals {
            let child = child as usize;
            row.push((byte, child, Place::Node));
            if self.nodes[child].caseless[0] && byte.is_ascii_lowercase() {
                row.push((byte.to_ascii_uppercase(), child, Place::Copy));
            }
        }
        crate::sort::sort_by_key(&mut row, |&(byte, _, _)| byte);
        row
    }

    /// Folds chains of single literal edges into their first node's prefix, so that a walk
    /// compares runs of literal bytes at once: the root's too, where every template starts
    /// with the same text (see [`Walker::walk`]), up to its first cut
    /// ([`split_long_prefixes`](Self::split_long_prefixes)).
    fn compress(&mut self, root: usize) {
        // A stack rather than a recursion: a template may have a thousand variables.
        let mut stack = vec![root];
        while let Some(node) = stack.pop() {
            self.fold(node);
            stack.extend(self.children(node));
        }
    }

    /// Folds the chain of single literal edges below `node` into its prefix.
    fn fold(&mut self, node: usize) {
        loop {
            let n = &self.nodes[node];
            let only_literal = n.literals.len() == 1
                && n.segment.is_none()
                && n.crossing.is_none()
                && n.tail.is_none()
                && n.end.is_none();
            if !only_literal {
                break;
            }
            let child = n.literals[0].1 as usize;
            let moved = std::mem::take(&mut self.nodes[child]);
            let n = &mut self.nodes[node];
            n.prefix.extend_from_slice(&moved.prefix);
            n.caseless.extend_from_slice(&moved.caseless);
            n.literals = moved.literals;
            n.segment = moved.segment;
            n.crossing = moved.crossing;
            n.tail = moved.tail;
            n.end = moved.end;
        }
    }

    /// Cuts each prefix longer than a word ([`HEAD_LEN`] bytes) into a chain of nodes of at
    /// most a word each, so that the walk compares every prefix with one load: a longer
    /// prefix costs a step a piece, where comparing its rest byte by byte cost more. A cut falls
    /// before the last byte within reach that compares with case, so that the piece after it
    /// stands at one byte of its parent's row, not at both cases of a letter; where none of
    /// the eight bytes after a piece's first does (a host's long word), after the eighth.
    /// Pieces are therefore a word or shorter: `x://hostname.example` is `x:/`, `/hostnam`,
    /// `e` (at `e` and `E`) and `.example`.
    fn split_long_prefixes(&mut self) {
        let mut node = 0;
        while node < self.nodes.len() {
            let n = &mut self.nodes[node];
            if n.prefix.len() > HEAD_LEN {
                let cut = cut(&n.caseless);
                let head = BuildNode {
                    prefix: n.prefix[..cut].to_vec(),
                    caseless: n.caseless[..cut].to_vec(),
                    ..BuildNode::default()
                };
                let mut rest = std::mem::replace(n, head);
                rest.prefix.drain(..cut);
                rest.caseless.drain(..cut);
                let child = self.nodes.len() as u32;
                self.nodes[node].literals.push((rest.prefix[0], child));
                self.nodes.push(rest);
            }
            node += 1;
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

    /// The walker: the reachable nodes numbered breadth first, each node's literal children in
    /// a row by first byte with [`HOLE`]s between them, prefixes packed and classes turned
    /// into run tables; `None` if the trie outgrows the compact node (a template with 32k
    /// variables), which leaves it to the VM.
    fn flatten(self, empty_vars: bool) -> Option<Walker> {
        let Layout {
            order,
            rows,
            first_child,
        } = self.breadth_first();
        let mut number = vec![0u32; self.nodes.len()];
        for (i, &slot) in order.iter().enumerate() {
            if let Some((old, Place::Node)) = slot {
                number[old] = i as u32;
            }
        }
        let mut walker = Walker::default();
        let query = run_table(Class::query(), Percent::Byte);
        walker.runs.push(query);
        walker.runs.push(query_values_table(query));
        debug_assert_eq!(
            (QUERY_RUN, QUERY_VALUES, FIRST_VAR_RUN),
            (0, 1, walker.runs.len() as u32),
            "the query's tables come first"
        );
        // The classes of the variables' tables, which follow the query's two.
        let mut classes = Vec::new();
        for &slot in &order {
            let Some((old, _)) = slot else {
                walker.nodes.push(HOLE);
                walker.exits.push(Exits::default());
                continue;
            };
            let n = &self.nodes[old];
            let mut var_edge = |edge: BuildEdge| {
                // Not the query's table, whatever its class: a variable's stops at `%`.
                let class = classes.iter().position(|&c| c == edge.class);
                let run = FIRST_VAR_RUN as usize
                    + class.unwrap_or_else(|| {
                        classes.push(edge.class);
                        walker.runs.push(run_table(edge.class, Percent::Stop));
                        classes.len() - 1
                    });
                VarEdge {
                    var: edge.var,
                    run: run as u32,
                    child: number[edge.child as usize],
                }
            };
            let segment = n.segment.map(&mut var_edge);
            let exits = Exits {
                crossing: n.crossing.map(&mut var_edge),
                tail: n.tail,
            };
            let row = &rows[old];
            let (low, span) = match (row.first(), row.last()) {
                (Some(&low), Some(&high)) => (low, high - low + 1),
                _ => (0, 0),
            };
            // Breadth first, the `{v}` child comes right after the row of literal children
            // (and is the first child where there is no row).
            let first_child = first_child[old];
            if segment.is_some_and(|e| e.child != first_child + u32::from(span)) {
                return None;
            }
            let later = exits.crossing.is_some() || exits.tail.is_some();
            let mut flags = 0;
            if segment.is_some() || later {
                flags |= BRANCHES;
            }
            if later {
                flags |= LATER_EDGES;
            }
            if segment.is_some() {
                flags |= SEGMENT;
                if empty_vars {
                    flags |= EMPTY_SEGMENT;
                }
            }
            if exits.tail.is_some() {
                flags |= TAIL;
            }
            debug_assert!(n.prefix.len() <= HEAD_LEN, "split_long_prefixes cut it");
            let mask = n
                .caseless
                .iter()
                .rev()
                .fold(0u64, |mask, &c| mask << 8 | u64::from(case_mask(c)));
            walker.nodes.push(WalkNode {
                head: load(&n.prefix, 0),
                mask,
                first_child,
                end: n.end.unwrap_or(NO_END),
                len: n.prefix.len() as u8,
                segment_var: segment.map_or(Some(0), |e| u16::try_from(e.var).ok())?,
                low,
                span,
                segment_run: segment.map_or(Some(0), |e| u8::try_from(e.run).ok())?,
                flags,
            });
            walker.exits.push(exits);
        }
        // A [`Resume`] packs a node number in 31 bits.
        (walker.nodes.len() <= 1 << 31).then_some(walker)
    }

    /// The nodes reachable from the root, breadth first: each node's literal children in a row
    /// by first byte (see [`row`](Self::row)), with `None` for the bytes between them that
    /// start no child, then its variables' children; and each node's row, by its bytes.
    fn breadth_first(&self) -> Layout {
        let mut order = vec![Some((0, Place::Node))];
        let mut rows = vec![Vec::new(); self.nodes.len()];
        let mut first_child = vec![0u32; self.nodes.len()];
        let mut next = 0;
        while let Some(&slot) = order.get(next) {
            next += 1;
            // A copy's children are its node's, laid out once, after the node's own place.
            let Some((old, Place::Node)) = slot else {
                continue;
            };
            let n = &self.nodes[old];
            let row = self.row(old);
            let start = order.len();
            first_child[old] = start as u32;
            if let Some(&(low, _, _)) = row.first() {
                for &(byte, child, place) in &row {
                    order.resize(start + usize::from(byte - low), None);
                    order.push(Some((child, place)));
                }
            }
            rows[old] = row.iter().map(|&(byte, _, _)| byte).collect();
            order.extend(
                n.segment
                    .iter()
                    .chain(&n.crossing)
                    .map(|e| Some((e.child as usize, Place::Node))),
            );
        }
        Layout {
            order,
            rows,
            first_child,
        }
    }
}

/// The walker's array as [`BuildTrie::breadth_first`] lays it out: each place holds a node
/// (or a copy of one) or a hole; and each node's row of literal children, by first byte.
struct Layout {
    order: Vec<Option<(usize, Place)>>,
    rows: Vec<Vec<u8>>,
    /// Where each node's children start in `order`.
    first_child: Vec<u32>,
}

/// Where a prefix longer than [`HEAD_LEN`] whose bytes compare without case where `caseless`
/// says is cut: before the last byte within reach that compares with case, else after the
/// eighth (see [`BuildTrie::split_long_prefixes`]).
fn cut(caseless: &[bool]) -> usize {
    (1..=HEAD_LEN)
        .rev()
        .find(|&len| !caseless[len])
        .unwrap_or(HEAD_LEN)
}

/// The bits of a prefix byte a URI byte must match: all but the case bit of a letter that
/// compares without case (`A` and `a` differ in that bit alone).
fn case_mask(caseless: bool) -> u8 {
    if caseless { !0x20 } else { 0xFF }
}

/// How the walk reads a variable: as the programs do (see [`Reading`]).
fn reading(strict: bool, var: &VarToken) -> Reading {
    Reading {
        strict,
        in_query: var.in_query,
    }
}

/// The [`RunTable`] of a query value that a walk binds (see [`Walker::bind_tail`]): the query
/// tail's (`query`), but that `&` ends the value and `%` stops the loop, for its triplet to be
/// read whole, as in a variable's table.
fn query_values_table(query: RunTable) -> RunTable {
    let mut table = query;
    table[usize::from(b'&')] = STOP;
    table[usize::from(b'%')] = PERCENT;
    table
}

/// How a [`RunTable`]'s loop takes a `%`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Percent {
    /// As a byte, its triplet left to the URI's check: a query tail's (see
    /// [`Walker::tail_run`]).
    Byte,
    /// As a stop, where the run reads its triplet (see [`Walker::run`]).
    Stop,
}

pub(super) fn run_table(class: Class, percent: Percent) -> RunTable {
    let mut table = [STOP; 256];
    for (b, entry) in table.iter_mut().enumerate() {
        let b = b as u8;
        if b == b'%' || b >= 0x80 || class.allows_raw(b) {
            // A walked URI has only its triplets checked: a run takes no byte a URI may not
            // hold.
            debug_assert!(!crate::pct::is_disallowed(b), "a run takes {b:#04x}");
            *entry = ALLOWED;
            if b == b'%' {
                *entry = match percent {
                    Percent::Byte => ALLOWED | PERCENT,
                    Percent::Stop => PERCENT,
                };
            } else if matches!(b, b'.' | b'/') {
                *entry |= DOT_OR_SLASH;
            } else if b == b'#' {
                *entry |= HASH;
            } else if !crate::pct::is_inert(&[b]) {
                *entry |= NOT_PLAIN;
            }
        } else if crate::pct::CLIENT_RAW.contains(&b) {
            *entry = CLIENT_STOP;
        }
    }
    table
}

/// Whether a template's tokens can be walked: ASCII literals without triplets or NUL bytes;
/// variables that are single `{v}` (followed by a literal byte outside their class, a query
/// tail or the end) or a single `{+v}` ending the template; a query tail only after a literal
/// or `{v}`.
pub(super) fn qualifies(tokens: &[Token], strict: bool) -> bool {
    tokens.iter().enumerate().all(|(i, token)| match token {
        Token::Unit(u) => !u.encoded && u.byte.is_ascii() && u.byte != b'%' && u.byte != 0,
        Token::Caseless(_) | Token::Tail(_) => true,
        Token::Expression { op, vars } => {
            let [var] = vars.as_slice() else {
                return false;
            };
            let plain = var.node.prefix == 0 && !var.node.explode;
            let class = Class::variable(*op, &var.node, reading(strict, var));
            let next = tokens.get(i + 1);
            plain
                && match op {
                    Operator::Simple => match next {
                        None => true,
                        // The walk's run is greedy: it must stop where the tail can start (a
                        // raw `&` read as clients write it could go either way: the VM decides).
                        Some(Token::Tail(start)) => !b"?&"
                            .iter()
                            .any(|&b| start.admits(Some(b)) && class.allows_raw(b)),
                        Some(Token::Unit(u)) => !u.encoded && !class.allows_raw(u.byte),
                        // A letter: every class holds both its cases.
                        Some(Token::Caseless(_)) => false,
                        Some(Token::Expression { .. }) => false,
                    },
                    Operator::Reserved => next.is_none(),
                    _ => false,
                }
        }
    })
}
