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
//! VM), and `match_uri` when its one template qualifies; the VM serves the rest.
//!
//! **Costs.** Most walks meet no branch point and pay for no way back: they run a loop that
//! holds only where it is. A walk that meets one goes on, out of line, with a fixed stack of
//! [`MAX_RESUME`] ways back and a budget proportional to the URI; one that runs out of either
//! hands over to the VM, which keeps every match linear and the native stack flat. The two
//! walks are one loop, instantiated twice (see [`Ways`]). The budget is charged only when an
//! attempt fails, for the bytes it went forward (every step but its last takes at least one,
//! so they bound its steps and the runs it took) and for the runs it scanned but did not take
//! (an eighth a byte). Where no edge but a literal one leaves a node (most of a lookup), a
//! step is a subtraction to find the child, one masked 8-byte compare of its prefix and a
//! bounds check or two: about 26 instructions. A `{v}` edge reads a byte table per byte of
//! its value, which also records whether the bytes hold a `%` or anything a path-safety rule
//! looks at, so that a lookup with plain captures skips validating the URI and checking its
//! captures. The template that ends at a node is kept in the node itself, so that the end of
//! a lookup reads nothing more.

use crate::matching::program::Class;
use crate::matching::trie::{TailStart, Token};
use crate::template::Operator;

/// A radix trie over delimited templates, flattened for the walk.
///
/// A node's literal children sit side by side in [`nodes`](Self::nodes), one per first byte
/// from the lowest to the highest, so that the child to follow is found from the next byte of
/// the URI with one subtraction and no search; where no child starts with a byte in that range,
/// a [`HOLE`] that nothing matches keeps its place. A node's prefix is mostly short: its first
/// eight bytes are packed in one word, compared with one load of the URI; longer prefixes keep
/// the rest in [`long_tails`](Self::long_tails).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Walker {
    /// The root first, then each node's children, numbered breadth first.
    nodes: Vec<WalkNode>,
    /// What else leaves each node, by node.
    exits: Vec<Exits>,
    /// The prefix bytes past the eighth, of the nodes that have them, back to back.
    long_tails: Vec<u8>,
    /// The bytes each kind of variable runs over, by [`VarEdge::run`].
    runs: Vec<RunTable>,
    /// Whether a variable outside the query may be empty (see
    /// [`MatchOptions::require_path_vars`](super::MatchOptions::require_path_vars)).
    empty_vars: bool,
}

/// The node that stands where a node has no literal child for a byte: its prefix is one `0xFF`
/// byte, which no UTF-8 text holds, so no walk enters it.
const HOLE: WalkNode = WalkNode {
    head: 0xFF,
    mask: 0xFF,
    first_child: 0,
    end: NO_END,
    len: 1,
    segment_slot: 0,
    low: 0,
    span: 0,
    segment_run: 0,
    flags: 0,
};

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
/// A [`Seen`] bit: a byte that is not [plain](crate::pct::is_inert).
const NOT_PLAIN: u8 = 2;
/// A [`Seen`] bit: a `%`.
const PERCENT: u8 = 4;

/// What the walk saw in the variable spans and the query tail it took, from the bits of their
/// [`RunTable`] entries: enough to skip validating triplets and checking path safety for most
/// URIs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Seen(u8);

impl Seen {
    /// Whether every span is plain and holds no `%`: captures that need neither validating
    /// nor checking.
    #[inline]
    pub(crate) fn is_clean(self) -> bool {
        self.0 & (NOT_PLAIN | PERCENT) == 0
    }

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

/// A node, as the walk reads it at every step: its prefix, its literal children, its `{v}`
/// edge and the template that ends here, in 32 bytes, so that the nodes a lookup visits share
/// few cache lines. The rarer edges are in its [`Exits`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct WalkNode {
    /// The first eight bytes of the literal prefix that leads into this node from its parent,
    /// packed little-endian, zero past its end.
    head: u64,
    /// The bits of `head` that hold the prefix.
    mask: u64,
    /// The literal children, by the first byte of their prefix: the child for byte `b` is
    /// node `first_child + (b - low)` if `b - low` is below `span`. The child behind the `{v}`
    /// edge, if [`SEGMENT`] says there is one, comes right after them (the nodes are numbered
    /// breadth first), at `first_child + span`.
    first_child: u32,
    /// The key of the template that ends here, or [`NO_END`].
    end: u32,
    /// The prefix's length.
    len: u16,
    /// Where the `{v}` edge's span goes: slots `segment_slot` and `segment_slot + 1`.
    segment_slot: u16,
    low: u8,
    span: u8,
    /// The [`RunTable`] of the `{v}` edge.
    segment_run: u8,
    /// [`BRANCHES`], [`LATER_EDGES`], [`SEGMENT`] and [`TAIL`].
    flags: u8,
}

/// [`WalkNode::end`] of a node where no template ends.
const NO_END: u32 = u32::MAX;

// The walk reads a node a step; two share a cache line.
const _: () = assert!(std::mem::size_of::<WalkNode>() == 32);
/// A [`WalkNode::flags`] bit: an edge besides the literal ones leaves the node, so a walk
/// that follows a literal edge keeps a way back.
const BRANCHES: u8 = 1;
/// A [`WalkNode::flags`] bit: a query tail or a `{+v}` edge leaves the node, so a walk that
/// takes the `{v}` edge keeps a way back.
const LATER_EDGES: u8 = 2;
/// A [`WalkNode::flags`] bit: a `{v}` edge leaves the node.
const SEGMENT: u8 = 4;
/// A [`WalkNode::flags`] bit: a query tail leaves the node, which at the end of the URI may
/// match empty (see [`Walker::ends_here`]).
const TAIL: u8 = 8;

impl WalkNode {
    fn segment_edge(&self) -> Option<VarEdge> {
        (self.flags & SEGMENT != 0).then(|| VarEdge {
            slot: u32::from(self.segment_slot),
            run: u32::from(self.segment_run),
            child: self.segment_child(),
        })
    }

    /// The child behind the `{v}` edge (if there is one).
    #[inline(always)]
    fn segment_child(&self) -> u32 {
        self.first_child + u32::from(self.span)
    }

    /// The key of the template that ends here.
    #[inline(always)]
    fn end(&self) -> Option<u32> {
        (self.end != NO_END).then_some(self.end)
    }
}

/// What leaves a node besides literal and `{v}` edges, and the rest of a long prefix.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Exits {
    /// A trailing `{+v}` edge.
    crossing: Option<VarEdge>,
    /// A query tail.
    tail: Option<Tail>,
    /// Where the prefix's bytes past the eighth start in [`Walker::long_tails`].
    long_tail: u32,
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
    /// The budget or the resume stack ran out: ask the VM.
    GaveUp,
}

/// Where a walk resumes when the edge it took fails: a node, where its prefix ended, and
/// whether the node's segment edge is still to try or only the edges after it. Packed in one
/// word, so that the resume stack is small.
#[derive(Debug, Clone, Copy)]
struct Resume(u64);

impl Resume {
    fn new(node: u32, pos: usize, next: Step) -> Self {
        let after_segment = u64::from(next != Step::Segment);
        Self(u64::from(node) << 33 | after_segment << 32 | pos as u64)
    }

    fn node(self) -> u32 {
        (self.0 >> 33) as u32
    }

    fn pos(self) -> usize {
        self.0 as u32 as usize
    }

    fn next(self) -> Step {
        if self.0 >> 32 & 1 == 0 {
            Step::Segment
        } else {
            Step::Tail
        }
    }
}

/// Where a walk at a node stands among its edges, which it tries in precedence order: the
/// literal edge, the `{v}` edge, the query tail, then the `{+v}` edge (which always follows
/// the tail, so needs no step of its own).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Step {
    Literal,
    Segment,
    Tail,
}

/// The ways back of a walk that can [`Backtrack`].
struct Stack {
    resume: [Resume; MAX_RESUME],
    depth: usize,
}

impl Stack {
    fn new() -> Self {
        Self {
            resume: [Resume(0); MAX_RESUME],
            depth: 0,
        }
    }

    /// Keeps a way back to `node` at `pos`, from edge `next` on; false if there is no room.
    #[inline(always)]
    fn push(&mut self, node: u32, pos: usize, next: Step) -> bool {
        let Some(slot) = self.resume.get_mut(self.depth) else {
            return false;
        };
        *slot = Resume::new(node, pos, next);
        self.depth += 1;
        true
    }

    fn pop(&mut self) -> Option<Resume> {
        self.depth = self.depth.checked_sub(1)?;
        Some(self.resume[self.depth])
    }
}

/// Where a walk stands: at `node`, whose prefix ends at `pos`, with edge `step` and those
/// after it still to try, and the [`Seen`] bits of what it took so far.
#[derive(Debug, Clone, Copy)]
struct Place {
    node: u32,
    pos: usize,
    step: Step,
    seen: u8,
}

impl Place {
    const ROOT: Self = Self::at(0, 0, Step::Literal, 0);

    const fn at(node: u32, pos: usize, step: Step, seen: u8) -> Self {
        Self {
            node,
            pos,
            step,
            seen,
        }
    }
}

/// How a walk keeps its ways back, and pays for going back to one.
trait Ways {
    /// Keeps a way back to `node` at `pos`, from edge `next` on; false if it cannot.
    fn keep(&mut self, node: u32, pos: usize, next: Step) -> bool;
    /// Charges `cost` to the budget.
    fn charge(&mut self, cost: usize);
    /// The way back from an attempt that failed at `pos`, or how the walk ends.
    fn back(&mut self, pos: usize) -> Result<Resume, Walk>;
    /// How a walk at `place` goes on when it could not keep a way back there.
    fn stuck(&mut self, walker: &Walker, uri: &[u8], slots: &mut [u32], place: Place) -> Walk;
}

/// A walk that keeps no way back: it stops at the first branch point it would need one for,
/// and a failure is final. It needs no budget either: without going back, a walk takes at
/// most one step a byte or a trie level, and the runs it scans but does not take end it.
struct Straight;

impl Ways for Straight {
    #[inline(always)]
    fn keep(&mut self, _: u32, _: usize, _: Step) -> bool {
        false
    }

    #[inline(always)]
    fn charge(&mut self, _: usize) {}

    #[inline(always)]
    fn back(&mut self, _: usize) -> Result<Resume, Walk> {
        Err(Walk::NotFound)
    }

    /// Hands the walk over to one that can go back.
    #[inline(always)]
    fn stuck(&mut self, walker: &Walker, uri: &[u8], slots: &mut [u32], place: Place) -> Walk {
        walker.backtracking_walk(uri, slots, place)
    }
}

/// A walk that goes back: its resume stack, and a budget proportional to the URI (see the
/// module's **Costs**).
struct Backtrack {
    stack: Stack,
    budget: usize,
    /// Where the current attempt (from the start, or from the last way back) began.
    attempt: usize,
}

impl Ways for Backtrack {
    #[inline(always)]
    fn keep(&mut self, node: u32, pos: usize, next: Step) -> bool {
        self.stack.push(node, pos, next)
    }

    #[inline(always)]
    fn charge(&mut self, cost: usize) {
        self.budget = self.budget.saturating_sub(cost);
    }

    /// Every step but the last of an attempt takes at least one byte (or, with empty
    /// variables, goes deeper into a single template), and an attempt only moves forward: so
    /// the bytes it went forward bound its steps and the runs it took. Charged when it fails,
    /// a walk that succeeds pays nothing on its way.
    fn back(&mut self, pos: usize) -> Result<Resume, Walk> {
        self.charge(pos - self.attempt + 1);
        if self.budget == 0 {
            return Err(Walk::GaveUp);
        }
        let back = self.stack.pop().ok_or(Walk::NotFound)?;
        self.attempt = back.pos();
        Ok(back)
    }

    /// Its resume stack is full: the walk gives up.
    fn stuck(&mut self, _: &Walker, _: &[u8], _: &mut [u32], _: Place) -> Walk {
        Walk::GaveUp
    }
}

/// Where [`Walker::rarer_edges`] leads.
enum Rarer {
    Found(u32),
    Next(u32, usize),
    Fail,
}

/// How many branch points a walk keeps a way back to. A walk that needs more hands over to
/// the VM, so that a deep trie costs a slower lookup, not a deep native stack.
const MAX_RESUME: usize = 16;

/// A variable's run: where it ends, and the [`Seen`] bits of its bytes.
type Run = (usize, u8);

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
            // Keys are stored in 32 bits, and one value means "no template ends here".
            let key = u32::try_from(key).ok().filter(|&k| k != NO_END)?;
            trie.insert(tokens, key);
        }
        trie.compress(0);
        Some(Walker {
            empty_vars,
            ..trie.flatten()?
        })
    }

    /// Walks `uri` (the bytes of a `str`: no walk enters a [`HOLE`]), recording variable
    /// spans in `slots`: the first complete walk, trying each node's edges in precedence
    /// order. Most walks never meet a branch point (no GitHub API route's does), so they go
    /// [`Straight`]: a loop that keeps nothing but where it is. At the first branch point it
    /// hands its place over to a walk that can [`Backtrack`], out of line; that walk goes on
    /// exactly as if it had started at the root, since nothing before was a way back and it
    /// has spent nothing of its budget.
    #[inline]
    pub(crate) fn walk(&self, uri: &[u8], slots: &mut [u32]) -> Walk {
        self.walk_from(uri, slots, &mut Straight, Place::ROOT)
    }

    /// The walk from the first branch point on, with a resume stack and a budget.
    #[inline(never)]
    fn backtracking_walk(&self, uri: &[u8], slots: &mut [u32], place: Place) -> Walk {
        let mut ways = Backtrack {
            stack: Stack::new(),
            budget: 4 * uri.len() + 64,
            attempt: 0,
        };
        self.walk_from(uri, slots, &mut ways, place)
    }

    /// The walk's loop, from `place`, keeping its ways back in `ways`. Where a later edge
    /// could still apply, it asks `ways` to keep a [`Resume`] point, and comes back to one
    /// when the edge it took fails; everywhere else it just goes on. Where `ways` cannot keep
    /// a point, it says how the walk goes on ([`Ways::stuck`]). Its state lives in locals, so
    /// the loop runs in registers. It returns one type, [`Walk`], from every exit: each other
    /// type to unpack on the way out cost a lookup some 20 instructions.
    #[inline(always)]
    fn walk_from<W: Ways>(
        &self,
        uri: &[u8],
        slots: &mut [u32],
        ways: &mut W,
        place: Place,
    ) -> Walk {
        let Place {
            mut node,
            mut pos,
            mut step,
            mut seen,
        } = place;
        loop {
            let n;
            if step == Step::Literal {
                match self.follow_literals(uri, node, pos, ways) {
                    Ok((stop, at, end)) => (node, n, pos) = (stop, at, end),
                    Err((node, pos)) => {
                        let place = Place::at(node, pos, Step::Literal, seen);
                        return ways.stuck(self, uri, slots, place);
                    }
                }
            } else {
                n = &self.nodes[node as usize];
            }
            let byte = uri.get(pos);
            if step <= Step::Segment && byte.is_some() && n.flags & SEGMENT != 0 {
                let (end, bits) = self.run(n.segment_run.into(), uri, pos);
                if let Some((child, next)) = self.segment_child(n, pos, end, uri) {
                    if n.flags & LATER_EDGES != 0 && !ways.keep(node, pos, Step::Tail) {
                        let place = Place::at(node, pos, Step::Segment, seen);
                        return ways.stuck(self, uri, slots, place);
                    }
                    seen |= bits;
                    take(slots, n.segment_slot.into(), pos, end);
                    (node, pos, step) = (child, next, Step::Literal);
                    continue;
                }
                // A run the walk does not take is not paid for by going forward, and a walk
                // that backtracks may scan from here again.
                ways.charge((end - pos) / 8);
            }
            if byte.is_none() {
                if let Some(key) = self.ends_here(n, node, pos, slots) {
                    return Walk::Found(key, Seen(seen));
                }
            }
            let (next, bits, cost) =
                self.rarer_edges(node, uri, pos, step.max(Step::Segment), slots);
            seen |= bits;
            ways.charge(cost);
            match next {
                Rarer::Found(key) => return Walk::Found(key, Seen(seen)),
                Rarer::Next(child, end) => (node, pos, step) = (child, end, Step::Literal),
                Rarer::Fail => match ways.back(pos) {
                    Ok(back) => (node, pos, step) = (back.node(), back.pos(), back.next()),
                    Err(walk) => return walk,
                },
            }
        }
    }

    /// Follows literal edges from `node`, whose prefix ends at `pos`, as far as the URI goes
    /// along them, keeping a way back at each node with other edges. Returns the node where
    /// no literal edge goes on (its number and itself, which the walk reads next), and where
    /// its prefix ends; or the node where `ways` could not keep a way back. Most of a walk is
    /// spent here, so it keeps the current node by reference and nothing else of the walk.
    #[inline(always)]
    fn follow_literals<W: Ways>(
        &self,
        uri: &[u8],
        mut node: u32,
        mut pos: usize,
        ways: &mut W,
    ) -> Result<(u32, &WalkNode, usize), (u32, usize)> {
        let mut n = &self.nodes[node as usize];
        while let Some(&byte) = uri.get(pos) {
            let offset = byte.wrapping_sub(n.low);
            if offset >= n.span {
                break;
            }
            let child = n.first_child + u32::from(offset);
            let Some(c) = self.nodes.get(child as usize) else {
                break;
            };
            let Some(end) = self.prefix_of(c, child, uri, pos) else {
                break;
            };
            if n.flags & BRANCHES != 0 && !ways.keep(node, pos, Step::Segment) {
                return Err((node, pos));
            }
            (node, n, pos) = (child, c, end);
        }
        Ok((node, n, pos))
    }

    /// The rarer ways on from `node` at `pos`, once its literal and `{v}` edges failed (or,
    /// from [`Step::Tail`], were tried), and at the end of the URI the templates ending here:
    /// an empty variable, a query tail, a trailing `{+v}`;
    /// with the [`Seen`] bits of what it took and the budget its scans cost. Out of line, so
    /// that the common steps keep their registers.
    #[inline(never)]
    fn rarer_edges(
        &self,
        node: u32,
        uri: &[u8],
        pos: usize,
        from: Step,
        slots: &mut [u32],
    ) -> (Rarer, u8, usize) {
        let exits = &self.exits[node as usize];
        let Some(&byte) = uri.get(pos) else {
            // The walk has tried the templates that end here. An empty variable can still be
            // taken (a single template's node has one variable edge at most).
            let edge = self.nodes[node as usize].segment_edge().or(exits.crossing);
            let next = edge
                .filter(|_| self.empty_vars)
                .and_then(|edge| Some((edge, self.prefix_end(edge.child, uri, pos)?)));
            return match next {
                Some((edge, next)) => {
                    take(slots, edge.slot, pos, pos);
                    (Rarer::Next(edge.child, next), 0, 0)
                }
                None => (Rarer::Fail, 0, 0),
            };
        };
        let mut cost = 0;
        if from <= Step::Tail {
            if let Some(tail) = exits.tail.filter(|t| t.start.admits(Some(byte))) {
                let (end, bits) = self.run(tail.run, uri, pos);
                if end == uri.len() {
                    slots[tail.slot as usize] = pos as u32;
                    return (Rarer::Found(tail.key), bits, 0);
                }
                // Charged like a variable's run: a walk that fails here may scan another tail.
                cost = (end - pos) / 8;
            }
        }
        let Some(edge) = exits.crossing else {
            return (Rarer::Fail, 0, cost);
        };
        let (end, bits) = self.run(edge.run, uri, pos);
        cost += (end - pos) / 8;
        // A crossing variable ends the template, so its child's prefix is empty.
        if end != uri.len() || end == pos && !self.empty_vars {
            return (Rarer::Fail, 0, cost);
        }
        take(slots, edge.slot, pos, end);
        (Rarer::Next(edge.child, end), bits, cost)
    }

    /// Where the `{v}` edge of `n` leads when its variable runs from `start` to `end`: its
    /// child, and where the child's prefix ends after the run, if the URI takes the edge.
    #[inline]
    fn segment_child(
        &self,
        n: &WalkNode,
        start: usize,
        end: usize,
        uri: &[u8],
    ) -> Option<(u32, usize)> {
        if end == start && !self.empty_vars {
            return None;
        }
        // The variable ends where its child's prefix must start.
        let child = n.segment_child();
        let next = self.prefix_end(child, uri, end)?;
        Some((child, next))
    }

    /// The template that matches when the URI ends at node `n` (number `node`), if one does.
    #[inline(always)]
    fn ends_here(&self, n: &WalkNode, node: u32, pos: usize, slots: &mut [u32]) -> Option<u32> {
        if n.flags & TAIL == 0 {
            return n.end();
        }
        match self.exits[node as usize].tail {
            Some(tail) => Some(empty_tail_or_end(tail, n.end(), pos, slots)),
            None => n.end(),
        }
    }

    /// Where `node`'s prefix ends if the URI continues with it at `pos`. Prefix bytes are
    /// never zero and [`load`] reads zeros past the end of the URI, so a head that compares
    /// equal lies within the URI.
    #[inline(always)]
    fn prefix_end(&self, node: u32, uri: &[u8], pos: usize) -> Option<usize> {
        self.prefix_of(&self.nodes[node as usize], node, uri, pos)
    }

    /// [`prefix_end`](Self::prefix_end) for a node already at hand, as `n`.
    #[inline(always)]
    fn prefix_of(&self, n: &WalkNode, node: u32, uri: &[u8], pos: usize) -> Option<usize> {
        if (load(uri, pos) ^ n.head) & n.mask != 0 {
            return None;
        }
        let len = usize::from(n.len);
        if len > 8 && !self.long_tail_matches(node, uri.get(pos + 8..).unwrap_or_default(), len - 8)
        {
            return None;
        }
        Some(pos + len)
    }

    /// Whether `rest` starts with the `len` bytes of `node`'s prefix past its eighth.
    #[cold]
    fn long_tail_matches(&self, node: u32, rest: &[u8], len: usize) -> bool {
        let from = self.exits[node as usize].long_tail as usize;
        rest.get(..len) == Some(&self.long_tails[from..from + len])
    }

    /// The run of bytes that [`RunTable`] `run` allows, from `pos`. A plain loop: variable
    /// values are short, and an unrolled scan's set-up would be paid at every step of the walk.
    #[inline]
    fn run(&self, run: u32, uri: &[u8], pos: usize) -> Run {
        let table = &self.runs[run as usize];
        let (mut end, mut seen) = (pos, 0);
        while let Some(&b) = uri.get(end) {
            let entry = table[usize::from(b)];
            if entry == STOP {
                break;
            }
            seen |= entry;
            end += 1;
        }
        (end, seen)
    }
}

/// Records a variable's span in slots `slot` and `slot + 1`.
fn take(slots: &mut [u32], slot: u32, start: usize, end: usize) {
    slots[slot as usize] = start as u32;
    slots[slot as usize + 1] = end as u32;
}

/// Up to eight bytes of `bytes` from `at`, packed little-endian, zero past the end: prefixes
/// are short, and one load and a mask compare them faster than `memcmp` or a byte loop.
#[inline(always)]
fn load(bytes: &[u8], at: usize) -> u64 {
    let len = bytes.len();
    if let Some(word) = bytes.get(at..at + 8) {
        return u64::from_le_bytes(word.try_into().expect("eight bytes"));
    }
    if len >= 8 && at < len {
        // The last eight bytes, shifted so that the byte at `at` comes first.
        let last = u64::from_le_bytes(bytes[len - 8..].try_into().expect("eight bytes"));
        return last >> (8 * (at + 8 - len));
    }
    load_short(bytes, at)
}

/// [`load`] from a text shorter than eight bytes, or past its end: rare, so kept out of the
/// walk's loop.
#[cold]
#[inline(never)]
fn load_short(bytes: &[u8], at: usize) -> u64 {
    bytes
        .get(at..)
        .unwrap_or_default()
        .iter()
        .rev()
        .fold(0, |word, &b| word << 8 | u64::from(b))
}

/// At the end of the URI, a template ending here and one whose query tail is empty tie on
/// rank: the lower key wins, as in the VM.
fn empty_tail_or_end(tail: Tail, end: Option<u32>, pos: usize, slots: &mut [u32]) -> u32 {
    match end {
        Some(end) if end < tail.key => end,
        _ => {
            slots[tail.slot as usize] = pos as u32;
            tail.key
        }
    }
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

    /// The walker: the reachable nodes numbered breadth first, each node's literal children in
    /// a row by first byte with [`HOLE`]s between them, prefixes packed and classes turned
    /// into run tables; `None` if the trie outgrows the compact node (a prefix over 64 KiB,
    /// a template with 32k variables), which leaves it to the VM.
    fn flatten(self) -> Option<Walker> {
        let order = self.breadth_first();
        let mut number = vec![0u32; self.nodes.len()];
        for (i, &old) in order.iter().enumerate() {
            if let Some(old) = old {
                number[old] = i as u32;
            }
        }
        let mut walker = Walker::default();
        let mut classes = vec![Class::query()]; // QUERY_RUN
        walker.runs.push(run_table(Class::query()));
        for &old in &order {
            let Some(old) = old else {
                walker.nodes.push(HOLE);
                walker.exits.push(Exits::default());
                continue;
            };
            let n = &self.nodes[old];
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
            let segment = n.segment.map(&mut var_edge);
            let exits = Exits {
                crossing: n.crossing.map(&mut var_edge),
                tail: n.tail,
                long_tail: u32::try_from(walker.long_tails.len()).ok()?,
            };
            let (first_child, low, span) = match (n.literals.first(), n.literals.last()) {
                (Some(&(low, child)), Some(&(high, _))) => {
                    (number[child as usize], low, high - low + 1)
                }
                // The `{v}` child, if any, is the first child.
                _ => (segment.map_or(0, |e| e.child), 0, 0),
            };
            // Breadth first, the `{v}` child comes right after the row of literal children.
            if segment.is_some_and(|e| e.child != first_child + u32::from(span)) {
                return None;
            }
            walker.long_tails.extend(n.prefix.iter().skip(8));
            let head_len = n.prefix.len().min(8);
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
            }
            if exits.tail.is_some() {
                flags |= TAIL;
            }
            walker.nodes.push(WalkNode {
                head: load(&n.prefix[..head_len], 0),
                mask: u64::MAX.checked_shr(64 - 8 * head_len as u32).unwrap_or(0),
                first_child,
                end: n.end.unwrap_or(NO_END),
                len: u16::try_from(n.prefix.len()).ok()?,
                segment_slot: segment.map_or(Some(0), |e| u16::try_from(e.slot).ok())?,
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
    /// by first byte, with `None` for the bytes between them that start no child, then its
    /// variables' children.
    fn breadth_first(&self) -> Vec<Option<usize>> {
        let mut order = vec![Some(0)];
        let mut next = 0;
        while let Some(&old) = order.get(next) {
            next += 1;
            let Some(old) = old else { continue };
            let n = &self.nodes[old];
            let row = order.len();
            if let Some(&(low, _)) = n.literals.first() {
                for &(byte, child) in &n.literals {
                    order.resize(row + usize::from(byte - low), None);
                    order.push(Some(child as usize));
                }
            }
            order.extend(
                n.segment
                    .iter()
                    .chain(&n.crossing)
                    .map(|e| Some(e.child as usize)),
            );
        }
        order
    }
}

fn run_table(class: Class) -> RunTable {
    let mut table = [STOP; 256];
    for (b, entry) in table.iter_mut().enumerate() {
        let b = b as u8;
        if b == b'%' || b >= 0x80 || class.allows_raw(b) {
            *entry = ALLOWED;
            if !crate::pct::is_inert(&[b]) {
                *entry |= NOT_PLAIN;
            }
            if b == b'%' {
                *entry |= PERCENT;
            }
        }
    }
    table
}

/// Whether a template's tokens can be walked: ASCII literals without triplets or NUL bytes;
/// variables that are single `{v}` (followed by a literal byte outside their class, a query
/// tail or the end) or a single `{+v}` ending the template; a query tail only after a literal
/// or `{v}`.
fn qualifies(tokens: &[Token]) -> bool {
    tokens.iter().enumerate().all(|(i, token)| match token {
        Token::Unit(u) => !u.encoded && u.byte.is_ascii() && u.byte != b'%' && u.byte != 0,
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
    use crate::matching::trie::shape;
    use crate::template::Parsed;

    fn tokens(t: &str) -> Vec<Token> {
        shape(&Parsed::parse(t).unwrap())
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

    /// A path through more branch points than the walk keeps a way back to hands over to the
    /// VM; one just within the limit is walked.
    #[test]
    fn a_walk_past_its_resume_stack_gives_up() {
        // Every `/` node of `/x/x/...` has a literal `x` edge and a `{v}` edge.
        let templates: Vec<Vec<Token>> = (0..=MAX_RESUME + 1)
            .map(|k| tokens(&("/x".repeat(k) + "/{v}")))
            .collect();
        let walker = Walker::build(&templates, false).unwrap();
        let mut slots = [u32::MAX; 2];
        let within = "/x".repeat(MAX_RESUME - 1) + "/y";
        assert_eq!(
            walker.walk(within.as_bytes(), &mut slots),
            Walk::Found((MAX_RESUME - 1) as u32, Seen(ALLOWED))
        );
        let past = "/x".repeat(MAX_RESUME + 1) + "/y";
        assert_eq!(walker.walk(past.as_bytes(), &mut slots), Walk::GaveUp);
    }

    /// A straight walk that meets a branch point hands its place over to a walk that can go
    /// back to it: after a literal edge that fails further on, and after a `{v}` edge that
    /// fails further on while a `{+v}` edge leaves the same node.
    #[test]
    fn a_straight_walk_hands_over_at_its_first_branch_point() {
        let templates = [tokens("/a/b/{w}/y"), tokens("/a/{v}/x")];
        let walker = Walker::build(&templates, false).unwrap();
        let mut slots = [u32::MAX; 4];
        assert_eq!(
            walker.walk(b"/a/b/x", &mut slots),
            Walk::Found(1, Seen(ALLOWED))
        );
        assert_eq!(slots[..2], [3, 4], "{{v}} is `b`");

        let templates = [tokens("/a/{v}/{w}/y"), tokens("/a/{+p}")];
        let walker = Walker::build(&templates, false).unwrap();
        let mut slots = [u32::MAX; 4];
        assert_eq!(
            walker.walk(b"/a/b/c/z", &mut slots),
            Walk::Found(1, Seen(ALLOWED | NOT_PLAIN))
        );
        assert_eq!(slots[..2], [3, 8], "{{+p}} is `b/c/z`");
    }

    /// What a walk saw before it handed over (here a `%`) stays in what it reports, so that
    /// the router still validates and decodes it.
    #[test]
    fn a_hand_over_keeps_what_the_walk_saw() {
        let templates = [tokens("/{v}/a/b"), tokens("/{v}/a/d"), tokens("/{v}/{w}/c")];
        let walker = Walker::build(&templates, false).unwrap();
        let mut slots = [u32::MAX; 4];
        match walker.walk(b"/%41/a/c", &mut slots) {
            Walk::Found(2, seen) => assert!(seen.percent(), "{seen:?}"),
            other => panic!("{other:?}"),
        }
    }

    /// At the end of the URI, a node where one template ends and another's query tail starts
    /// gives the lower key, whichever it is; the tail's slot is written only when it wins.
    #[test]
    fn an_empty_tail_and_an_end_at_one_node_go_by_key() {
        let walker = Walker::build(&[tokens("/{v}/{?q}"), tokens("/{w}/")], false).unwrap();
        let mut slots = [u32::MAX; 4];
        assert_eq!(
            walker.walk(b"/x/", &mut slots),
            Walk::Found(0, Seen(ALLOWED))
        );
        assert_eq!(slots[2], 3, "the tail starts at the end");

        let walker = Walker::build(&[tokens("/{w}/"), tokens("/{v}/{?q}")], false).unwrap();
        let mut slots = [u32::MAX; 4];
        assert_eq!(
            walker.walk(b"/x/", &mut slots),
            Walk::Found(0, Seen(ALLOWED))
        );
        assert_eq!(slots[2], u32::MAX, "no tail taken");

        let walker = Walker::build(&[tokens("/a{?q}")], false).unwrap();
        let mut slots = [u32::MAX; 2];
        assert_eq!(
            walker.walk(b"/a", &mut slots),
            Walk::Found(0, Seen::default())
        );
        assert_eq!(slots[0], 2);
    }

    /// The path `/s1/s2/.../sk` where `si` is `a` if bit `i` of `bits` is clear, else `{vi}`.
    fn combination(k: usize, bits: usize) -> String {
        (0..k)
            .map(|i| match bits >> i & 1 {
                0 => "/a".to_owned(),
                _ => format!("/{{v{i}}}"),
            })
            .collect()
    }

    /// Every template [`combination`] of `k` segments + `suffix`: a URI of `/a` k times makes
    /// the walk try all 2^k of them when the suffix fails.
    fn every_combination(k: usize, suffix: &str) -> Walker {
        let templates: Vec<Vec<Token>> = (0..1usize << k)
            .map(|bits| tokens(&(combination(k, bits) + suffix)))
            .collect();
        Walker::build(&templates, false).unwrap()
    }

    /// A walk that would backtrack through exponentially many templates gives up once it has
    /// spent its budget, and hands over to the VM.
    #[test]
    fn a_walk_that_backtracks_too_much_gives_up() {
        let walker = every_combination(10, "/end");
        let mut slots = [u32::MAX; 22];
        let found = "/a".repeat(10) + "/end";
        assert!(matches!(
            walker.walk(found.as_bytes(), &mut slots),
            Walk::Found(..)
        ));
        let missed = "/a".repeat(10) + "/nope";
        assert_eq!(walker.walk(missed.as_bytes(), &mut slots), Walk::GaveUp);
    }

    /// The literal steps of an attempt that fails count against the budget: here each of 8
    /// attempts follows 200 literal edges (`/x` nodes that also lead to `/q`) before it fails,
    /// and the walk stops after a few.
    #[test]
    fn the_literal_steps_of_failed_attempts_count_against_the_budget() {
        let templates: Vec<Vec<Token>> = (0..8usize)
            .flat_map(|bits| {
                let path = combination(3, bits);
                (0..=200).map(move |j| tokens(&(path.clone() + &"/x".repeat(j) + "/q")))
            })
            .collect();
        let walker = Walker::build(&templates, false).unwrap();
        let mut slots = [u32::MAX; 6];
        let uri = "/a".repeat(3) + &"/x".repeat(200) + "/nope";
        assert_eq!(walker.walk(uri.as_bytes(), &mut slots), Walk::GaveUp);
    }

    /// The bytes a variable's run scans count against the budget even when the edge is not
    /// taken: here each of 64 attempts scans a 100,000-byte value, then finds no `/end` after
    /// it. With a one-byte value and as long a URI (so the same budget), the walk makes all
    /// 64 attempts and answers.
    #[test]
    fn the_runs_a_walk_scans_count_against_its_budget() {
        let walker = every_combination(6, "/{w}/end");
        let mut slots = [u32::MAX; 16];
        let long_runs = "/a".repeat(6) + "/" + &"x".repeat(100_000) + ";";
        assert_eq!(walker.walk(long_runs.as_bytes(), &mut slots), Walk::GaveUp);
        let short_runs = "/a".repeat(6) + "/x;" + &"x".repeat(100_000);
        assert_eq!(
            walker.walk(short_runs.as_bytes(), &mut slots),
            Walk::NotFound
        );
    }

    #[test]
    fn the_hole_matches_no_text() {
        let mut slots = [];
        let walker = Walker::build(&[tokens("/a"), tokens("/c")], false).unwrap();
        // `b` falls between the children `a` and `c`, on a hole.
        assert!(walker.nodes.contains(&HOLE));
        for uri in ["/b", "/\u{ff}", "/\u{0}", "/"] {
            assert_eq!(
                walker.walk(uri.as_bytes(), &mut slots),
                Walk::NotFound,
                "{uri:?}"
            );
        }
        assert_eq!(walker.walk(b"/c", &mut slots), Walk::Found(1, Seen(0)));
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
    use crate::matching::program::{Policy, Program};
    use crate::matching::vm;
    use crate::template::Parsed;

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
            let t = Parsed::parse(&text).unwrap();
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
                    crate::matching::clear_tail(&t, &mut walked);
                    prop_assert_eq!(by_vm, Some(key));
                    prop_assert_eq!(walked, ran);
                }
            }
        }
    }
}
