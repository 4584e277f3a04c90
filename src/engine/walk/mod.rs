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
//! VM), and `match_uri` when its one template qualifies; the automaton (the VM or its table)
//! serves the rest.
//!
//! **Costs.** Most walks meet no branch point and pay for no way back: they run a loop that
//! holds only where it is. A walk that meets one goes on, out of line, with a fixed stack of
//! [`MAX_RESUME`] ways back and a budget proportional to the URI; one that runs out of either
//! hands over to the VM, which keeps every match linear and the native stack flat. The two
//! walks are one loop, instantiated twice (see [`Ways`]). The budget is charged only when an
//! attempt fails, for the bytes it went forward (every step but its last takes at least one,
//! so they bound its steps and the runs it took) and for the runs it scanned but did not take
//! (an eighth a byte). Where no edge but a literal one leaves a node (most of a lookup), a
//! step is a subtraction to find the child, one masked 8-byte compare of its whole prefix (a
//! longer run of literals is a chain of nodes) and a bounds check or two. A `{v}` edge reads
//! a byte table per byte of its value, which also records whether the bytes hold anything a
//! path-safety rule looks at, so that a lookup with plain captures skips checking them; it
//! reads each triplet whole where it meets it, so that a lookup whose path values' triplets
//! are of inert bytes or two-byte characters (`a%20b`, `caf%C3%A9`) skips reading the URI
//! again to validate them. A query tail the walk binds itself (`tail`), reading its triplets
//! the same way; any other it leaves to be bound after it, and its triplets to that check. The
//! template that ends at a node is kept in the node itself, so that the end of a lookup reads
//! nothing more.

mod build;
mod run;
// The npm package's module binds no tail: the binding's code would cost the package more of
// its size than its limit leaves (benches/RESULTS.md).
#[cfg_attr(target_arch = "wasm32", path = "tail_none.rs")]
mod tail;
#[cfg(test)]
mod tail_tests;
#[cfg(test)]
mod tests;

use super::trie::TailStart;
use super::word::load;
use crate::matching::Mark;
use crate::template::class::Class;
pub(super) use tail::BINDS_TAILS;
#[cfg(not(target_arch = "wasm32"))]
use tail::TailHeads;

/// A radix trie over delimited templates, flattened for the walk.
///
/// A node's literal children sit side by side in [`nodes`](Self::nodes), one per first byte
/// from the lowest to the highest, so that the child to follow is found from the next byte of
/// the URI with one subtraction and no search; where no child starts with a byte in that range,
/// a [`HOLE`] that nothing matches keeps its place. A node's prefix is at most [`HEAD_LEN`] bytes,
/// packed in one word and compared with one load of the URI: a longer run of literal bytes is
/// a chain of nodes.
///
/// A letter of a scheme or authority compares without case: in a prefix, its case bit is out
/// of the mask; as the first byte of a literal child, the child stands at both its bytes (the
/// one at the uppercase letter is a copy, the same node under another number).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct Walker {
    /// The root first, then each node's children, numbered breadth first.
    nodes: Vec<WalkNode>,
    /// What else leaves each node, by node.
    exits: Vec<Exits>,
    /// The bytes each kind of variable runs over, by [`VarEdge::run`].
    runs: Vec<RunTable>,
    /// The query tails whose pairs the walk binds, by [`Tail::heads`]. (WebAssembly's walks
    /// bind none: the field would cost the module its copies and drops.)
    #[cfg(not(target_arch = "wasm32"))]
    tails: Vec<TailHeads>,
    /// Whether a variable outside the query may be empty (see
    /// [`MatchOptions::allow_empty_path_vars`](crate::matching::MatchOptions::allow_empty_path_vars)).
    empty_vars: bool,
    /// Whether every prefix byte is ASCII that a URI holds raw and that is neither `%` nor
    /// `#` ([`pct::is_plain`](crate::pct::is_plain)): then a URI's bytes that a walk matched
    /// as literals need no checking for faults (see [`Walk::NotFound`]).
    plain_literals: bool,
}

/// The node that stands where a node has no literal child for a byte: its prefix is one `0xFF`
/// byte, which no UTF-8 text holds, so no walk enters it.
const HOLE: WalkNode = WalkNode {
    head: 0xFF,
    mask: 0xFF,
    first_child: 0,
    end: NO_END,
    len: 1,
    segment_var: 0,
    low: 0,
    span: 0,
    segment_run: 0,
    flags: 0,
};

/// Which bytes a variable's text may hold: its class, plus triplets and every non-ASCII byte.
/// A `%` stops a variable's table loop ([`PERCENT`] alone): the run reads its triplet whole,
/// notes one that the URI's check must still read ([`UNREAD_TRIPLET`]), and goes on past it;
/// the query tail's table takes it as a byte (see [`build::Percent`]). Each
/// allowed byte also says what the walk learns from it: whether it could break a path-safety
/// rule ([`NOT_PLAIN`], or [`DOT_OR_SLASH`] for the two bytes of a path) and whether it is a
/// `#` ([`HASH`]).
type RunTable = [u8; 256];

/// The [`RunTable`] of query tails: printable ASCII but `#`, triplets and non-ASCII bytes.
const QUERY_RUN: u32 = 0;
/// The [`RunTable`] of a query value that the walk binds: [`QUERY_RUN`]'s bytes, but that `&`
/// ends the value and `%` stops the loop.
const QUERY_VALUES: u32 = 1;
/// The first [`RunTable`] of a variable's class.
const FIRST_VAR_RUN: u32 = 2;

/// A [`RunTable`] entry: the byte ends the run.
const STOP: u8 = 0;
/// A [`RunTable`] entry, and a [`Seen`] bit: the byte is allowed.
const ALLOWED: u8 = 1;
/// A [`Seen`] bit: a byte that is not [inert](crate::pct::is_inert), but for `%` (which
/// [`PERCENT`] says), whose triplet is judged by itself, and for `.` and `/` (which
/// [`DOT_OR_SLASH`] says).
const NOT_PLAIN: u8 = 2;
/// A [`RunTable`] entry and a [`Seen`] bit: a `%`, which starts a triplet or is a fault.
const PERCENT: u8 = 4;
/// A [`RunTable`] entry and a [`Seen`] bit: a byte that ends the run, but that clients send
/// raw where expansion encodes it ([`CLIENT_RAW`](crate::pct::CLIENT_RAW)), so that the
/// lenient program's run would go on.
const CLIENT_STOP: u8 = 8;
/// A [`Seen`] bit: a `.` or a `/`, the bytes of most paths that are not inert. Of the rules,
/// only those read off a value's segments (`..`, a leading separator, a separator in a
/// segment) can refuse text that holds no other.
const DOT_OR_SLASH: u8 = 16;
/// A [`Seen`] bit: a `#`, which is inert, but would start the URI's fragment. Only a `{+v}` or
/// `{#v}` run takes one, and such a run ends its template, so that a walk that took one has
/// found its match: no miss carries the bit today. It keeps what a miss vouches for (see
/// [`Walk::NotFound`]) true without leaning on that.
const HASH: u8 = 32;
/// A [`Seen`] bit: a triplet that the walk did not find to be of an inert byte or of a whole
/// two-byte character, or a `%` that starts none, or a `%` in a query tail (whose blocks take
/// triplets unread): the URI's triplets are left to check. Without it, every `%` the walk took
/// started one of those, so that the URI's triplets need no reading of their own.
const UNREAD_TRIPLET: u8 = 64;

/// What the walk saw in the variable spans and the query tail it took, from the bits of their
/// [`RunTable`] entries: enough to skip validating triplets and checking path safety for most
/// URIs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Seen(u8);

impl Seen {
    /// Whether every span is plain and holds no `%`: captures that need neither validating
    /// nor checking.
    #[inline]
    pub(super) fn is_clean(self) -> bool {
        self.0 & (NOT_PLAIN | DOT_OR_SLASH | PERCENT) == 0
    }

    /// Whether every span is inert but for its triplets: then no capture can break a safety
    /// rule if every triplet of the URI is of an inert byte too
    /// ([`Triplets::Inert`](crate::pct::Triplets::Inert)) or of a two-byte character.
    pub(super) fn inert_but_for_triplets(self) -> bool {
        self.0 & (NOT_PLAIN | DOT_OR_SLASH) == 0
    }

    /// Whether every span is inert but for its triplets, `.` and `/`: then if every triplet
    /// of the URI is of an inert byte or of a two-byte character
    /// ([`Triplets::TwoByte`](crate::pct::Triplets::TwoByte)), only the rules read off
    /// segments can apply
    /// ([`Plainness::DotsAndSlashes`](crate::engine::Plainness::DotsAndSlashes)).
    pub(super) fn inert_but_for_dots_slashes_and_triplets(self) -> bool {
        self.0 & NOT_PLAIN == 0
    }

    /// Whether the URI's triplets are left to check: see [`UNREAD_TRIPLET`].
    pub(super) fn unread_triplets(self) -> bool {
        self.0 & UNREAD_TRIPLET != 0
    }

    /// Whether a `{v}` run the walk scanned, taken or not, ended at a byte of
    /// [`CLIENT_RAW`](crate::pct::CLIENT_RAW). The lenient program differs from the strict
    /// one only in its `{v}` runs going on over those bytes (its other edges and runs are the
    /// same), so a strict walk that found nothing without one would find nothing leniently
    /// either: it took every step that walk would, with the same runs.
    pub(in crate::engine) fn stopped_at_client_raw(self) -> bool {
        self.0 & CLIENT_STOP != 0
    }
}

/// A node, as the walk reads it at every step: its prefix, its literal children, its `{v}`
/// edge and the template that ends here, in 32 bytes, so that the nodes a lookup visits share
/// few cache lines. The rarer edges are in its [`Exits`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct WalkNode {
    /// The literal prefix that leads into this node from its parent, packed little-endian,
    /// zero past its end.
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
    /// The prefix's length, at most [`HEAD_LEN`].
    len: u8,
    /// The number of the `{v}` edge's variable, whose pair of marks its span goes to.
    segment_var: u16,
    low: u8,
    span: u8,
    /// The [`RunTable`] of the `{v}` edge.
    segment_run: u8,
    /// [`BRANCHES`], [`LATER_EDGES`], [`SEGMENT`], [`TAIL`] and [`EMPTY_SEGMENT`].
    flags: u8,
}

/// The longest prefix a node holds: the bytes of one [`load`].
const HEAD_LEN: usize = 8;

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
/// A [`WalkNode::flags`] bit: the `{v}` edge may take an empty variable
/// ([`Walker::empty_vars`], kept in the node that reads it).
const EMPTY_SEGMENT: u8 = 16;

impl WalkNode {
    fn segment_edge(&self) -> Option<VarEdge> {
        (self.flags & SEGMENT != 0).then(|| VarEdge {
            var: u32::from(self.segment_var),
            run: u32::from(self.segment_run),
            child: self.segment_child(),
        })
    }

    /// The child behind the `{v}` edge (if there is one).
    #[inline]
    fn segment_child(&self) -> u32 {
        self.first_child + u32::from(self.span)
    }

    /// The key of the template that ends here.
    #[inline]
    fn end(&self) -> Option<u32> {
        (self.end != NO_END).then_some(self.end)
    }
}

/// What leaves a node besides literal and `{v}` edges.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Exits {
    /// A trailing `{+v}` edge.
    crossing: Option<VarEdge>,
    /// A query tail.
    tail: Option<Tail>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct VarEdge {
    /// The variable's number, whose pair of marks its span goes to.
    var: u32,
    /// The index of its [`RunTable`] (the trie is built with the class instead).
    run: u32,
    child: u32,
}

/// A query tail: the key of its template, its first variable (whose first mark records where
/// the tail starts), the bytes it can start with, and the [`RunTable`] of what it may hold
/// (its pairs are read when the captures are bound, unless the walk binds them: `heads`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Tail {
    key: u32,
    var: u32,
    start: TailStart,
    run: u32,
    /// Where the walk binds the tail's pairs itself, its [`TailHeads`], by index in
    /// [`Walker::tails`].
    heads: Option<u32>,
}

/// The outcome of a walk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Walk {
    /// The key of the template, and what its walk saw (with that of abandoned branches, which
    /// errs on the safe side). Past the program's keys where the walk bound the template's
    /// query tail (see [`Walker::bind_tails`]).
    Found(u32, Seen),
    /// No template matches; what the walk saw on its way, and how many of the URI's first
    /// bytes it vouches for: each matched as a literal or taken in a run, none a `%`, a `#`
    /// or a byte a URI may not hold, so that checking the URI for faults can start past
    /// them (where the walk stopped, unless it took a `%` or a `#` or a literal may hold
    /// one: then 0).
    NotFound(Seen, u32),
    /// The budget or the resume stack ran out: ask the VM.
    GaveUp,
}
