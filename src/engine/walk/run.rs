//! The walk itself: a loop down the flattened trie, straight until the first branch point,
//! then with a bounded stack of ways back and a budget, handing over to the VM past either.

use super::{
    ALLOWED, BRANCHES, CLIENT_STOP, DOT_OR_SLASH, EMPTY_SEGMENT, HASH, LATER_EDGES, Mark,
    NOT_PLAIN, PERCENT, QUERY_RUN, RunTable, SEGMENT, Seen, TAIL, UNREAD_TRIPLET, Walk, WalkNode,
    Walker, load,
};
use crate::pct::{self, Triplets};

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
    #[inline]
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
    fn back(&mut self, pos: usize) -> Result<Resume, Ended>;
    /// How a walk at `place` goes on when it could not keep a way back there.
    fn stuck(&mut self, walker: &Walker, uri: &[u8], spans: &mut [[Mark; 2]], place: Place)
    -> Walk;
}

/// A walk that keeps no way back: it stops at the first branch point it would need one for,
/// and a failure is final. It needs no budget either: without going back, a walk takes at
/// most one step a byte or a trie level, and the runs it scans but does not take end it.
struct Straight;

impl Ways for Straight {
    #[inline]
    fn keep(&mut self, _: u32, _: usize, _: Step) -> bool {
        false
    }

    #[inline]
    fn charge(&mut self, _: usize) {}

    #[inline]
    fn back(&mut self, _: usize) -> Result<Resume, Ended> {
        Err(Ended::NotFound)
    }

    /// Hands the walk over to one that can go back.
    #[inline]
    fn stuck(
        &mut self,
        walker: &Walker,
        uri: &[u8],
        spans: &mut [[Mark; 2]],
        place: Place,
    ) -> Walk {
        walker.backtracking_walk(uri, spans, place)
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
    #[inline]
    fn keep(&mut self, node: u32, pos: usize, next: Step) -> bool {
        self.stack.push(node, pos, next)
    }

    #[inline]
    fn charge(&mut self, cost: usize) {
        self.budget = self.budget.saturating_sub(cost);
    }

    /// Every step but the last of an attempt takes at least one byte (or, with empty
    /// variables, goes deeper into a single template), and an attempt only moves forward: so
    /// the bytes it went forward bound its steps and the runs it took. Charged when it fails,
    /// a walk that succeeds pays nothing on its way.
    fn back(&mut self, pos: usize) -> Result<Resume, Ended> {
        self.charge(pos - self.attempt + 1);
        if self.budget == 0 {
            return Err(Ended::GaveUp);
        }
        let back = self.stack.pop().ok_or(Ended::NotFound)?;
        self.attempt = back.pos();
        Ok(back)
    }

    /// Its resume stack is full: the walk gives up.
    fn stuck(&mut self, _: &Walker, _: &[u8], _: &mut [[Mark; 2]], _: Place) -> Walk {
        Walk::GaveUp
    }
}

/// How a walk ends when it has no way back left.
enum Ended {
    NotFound,
    GaveUp,
}

/// Where [`Walker::rarer_edges`] leads.
enum Rarer {
    Found(u32),
    Next(u32, usize),
    Fail,
}

/// How many branch points a walk keeps a way back to. A walk that needs more hands over to
/// the VM, so that a deep trie costs a slower lookup, not a deep native stack.
pub(super) const MAX_RESUME: usize = 16;

/// A variable's run: where it ends, and the [`Seen`] bits of its bytes.
type Run = (usize, u8);

impl Walker {
    /// Walks `uri` (the bytes of a `str`: no walk enters a [`HOLE`]), recording variable
    /// spans in `spans`: the first complete walk, trying each node's edges in precedence
    /// order. Most walks never meet a branch point (no GitHub API route's does), so they go
    /// [`Straight`]: a loop that keeps nothing but where it is. At the first branch point it
    /// hands its place over to a walk that can [`Backtrack`], out of line; that walk goes on
    /// exactly as if it had started at the root, since nothing before was a way back and it
    /// has spent nothing of its budget.
    ///
    /// The root's prefix is the literal text every template starts with (a `/`, a scheme),
    /// if they all start alike, up to its first cut (a word at most): compared here once,
    /// rather than at a step of the loop.
    #[inline]
    pub(in crate::engine) fn walk(&self, uri: &[u8], spans: &mut [[Mark; 2]]) -> Walk {
        let Some(pos) = self.prefix_of(&self.nodes[0], uri, 0) else {
            return Walk::NotFound(Seen(0), 0);
        };
        let root = Place::at(0, pos, Step::Literal, 0);
        self.walk_from(uri, spans, &mut Straight, root)
    }

    /// [`walk`](Self::walk), out of line: a template's own match calls it, where inlined, its
    /// runs' loop lost a register to the code around it (a load a byte).
    #[inline(never)]
    pub(in crate::engine) fn walk_apart(&self, uri: &[u8], spans: &mut [[Mark; 2]]) -> Walk {
        self.walk(uri, spans)
    }

    /// The walk from the first branch point on, with a resume stack and a budget.
    #[inline(never)]
    fn backtracking_walk(&self, uri: &[u8], spans: &mut [[Mark; 2]], place: Place) -> Walk {
        let mut ways = Backtrack {
            stack: Stack::new(),
            budget: 4 * uri.len() + 64,
            attempt: 0,
        };
        self.walk_from(uri, spans, &mut ways, place)
    }

    /// The walk's loop, from `place`, keeping its ways back in `ways`. Where a later edge
    /// could still apply, it asks `ways` to keep a [`Resume`] point, and comes back to one
    /// when the edge it took fails; everywhere else it just goes on. Where `ways` cannot keep
    /// a point, it says how the walk goes on ([`Ways::stuck`]). Its state lives in locals, so
    /// the loop runs in registers. It returns one type, [`Walk`], from every exit: another
    /// type to unpack on the way out cost every lookup its packing.
    ///
    /// `#[inline]` rather than `(always)`: left to LLVM's inliner, which keeps what the
    /// parameters' types promise (the `&mut` slots apart from the walker); inlined into its
    /// caller earlier, in MIR, it lost that, and a lookup reloaded the walker's tables after
    /// each span it wrote.
    #[inline]
    fn walk_from<W: Ways>(
        &self,
        uri: &[u8],
        spans: &mut [[Mark; 2]],
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
                        return ways.stuck(self, uri, spans, place);
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
                        return ways.stuck(self, uri, spans, place);
                    }
                    seen |= bits;
                    take(spans, n.segment_var.into(), pos, end);
                    (node, pos, step) = (child, next, Step::Literal);
                    continue;
                }
                // A run the walk does not take is not paid for by going forward, and a walk
                // that backtracks may scan from here again.
                ways.charge((end - pos) / 8);
                seen |= bits & CLIENT_STOP;
            }
            // Most nodes have no rarer edge: a walk that is not at the end of the URI fails
            // there, past its literal and `{v}` edges, without asking.
            let rarer = match byte {
                None => {
                    if let Some(key) = self.ends_here(n, node, pos, spans) {
                        return Walk::Found(key, Seen(seen));
                    }
                    true
                }
                Some(_) => n.flags & LATER_EDGES != 0,
            };
            let (next, bits, cost) = if rarer {
                self.rarer_edges(node, uri, pos, step.max(Step::Segment), spans)
            } else {
                (Rarer::Fail, 0, 0)
            };
            seen |= bits;
            ways.charge(cost);
            match next {
                Rarer::Found(key) => return Walk::Found(key, Seen(seen)),
                Rarer::Next(child, end) => (node, pos, step) = (child, end, Step::Literal),
                Rarer::Fail => match ways.back(pos) {
                    Ok(back) => (node, pos, step) = (back.node(), back.pos(), back.next()),
                    Err(Ended::NotFound) => {
                        return Walk::NotFound(Seen(seen), self.vouched_for(seen, pos));
                    }
                    Err(Ended::GaveUp) => return Walk::GaveUp,
                },
            }
        }
    }

    /// How many of the URI's first bytes a walk that ends at `pos`, having seen `seen`,
    /// vouches for (see [`Walk::NotFound`]): every byte before `pos` was matched as a literal
    /// or taken in a run of the attempt that ends there, and [`Seen`] holds the bits of every
    /// run taken. A run takes no byte a URI may not hold, and ends before an ASCII byte or
    /// at the end; literals are ASCII: so `pos` is a character boundary.
    #[inline]
    fn vouched_for(&self, seen: u8, pos: usize) -> u32 {
        if self.plain_literals && seen & (PERCENT | HASH) == 0 {
            pos as u32
        } else {
            0
        }
    }

    /// Follows literal edges from `node`, whose prefix ends at `pos`, as far as the URI goes
    /// along them, keeping a way back at each node with other edges. Returns the node where
    /// no literal edge goes on (its number and itself, which the walk reads next), and where
    /// its prefix ends; or the node where `ways` could not keep a way back. Most of a walk is
    /// spent here, so it keeps the current node by reference and nothing else of the walk.
    #[inline]
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
            let Some(end) = self.prefix_of(c, uri, pos) else {
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
        spans: &mut [[Mark; 2]],
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
                    take(spans, edge.var, pos, pos);
                    (Rarer::Next(edge.child, next), 0, 0)
                }
                None => (Rarer::Fail, 0, 0),
            };
        };
        let mut cost = 0;
        if from <= Step::Tail {
            if let Some(tail) = exits.tail.filter(|t| t.start.admits(Some(byte))) {
                if let Some((key, bits)) = self.bind_tail(tail, uri, pos, spans) {
                    return (Rarer::Found(key), bits, 0);
                }
                let (end, bits) = self.tail_run(tail.run, uri, pos);
                if end == uri.len() {
                    spans[tail.var as usize][0] = Mark::at(pos);
                    return (Rarer::Found(tail.key), bits, 0);
                }
                // Charged like a variable's run: a walk that fails here may scan another tail.
                cost = (end - pos) / 8;
            }
        }
        let Some(edge) = exits.crossing else {
            return (Rarer::Fail, 0, cost);
        };
        let (end, bits) = self.crossing_run(edge.run, uri, pos);
        cost += (end - pos) / 8;
        // A crossing variable ends the template, so its child's prefix is empty.
        if end != uri.len() || end == pos && !self.empty_vars {
            return (Rarer::Fail, 0, cost);
        }
        take(spans, edge.var, pos, end);
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
        if end == start && n.flags & EMPTY_SEGMENT == 0 {
            return None;
        }
        // The variable ends where its child's prefix must start.
        let child = n.segment_child();
        let next = self.prefix_end(child, uri, end)?;
        Some((child, next))
    }

    /// The template that matches when the URI ends at node `n` (number `node`), if one does.
    #[inline]
    fn ends_here(
        &self,
        n: &WalkNode,
        node: u32,
        pos: usize,
        spans: &mut [[Mark; 2]],
    ) -> Option<u32> {
        if n.flags & TAIL == 0 {
            return n.end();
        }
        self.ends_with_tail(n.end(), node, pos, spans)
    }

    /// [`ends_here`](Self::ends_here) at a node that a query tail leaves: out of line, so
    /// that the walk's loop does not keep the exits at hand for the few nodes that read them.
    #[inline(never)]
    fn ends_with_tail(
        &self,
        end: Option<u32>,
        node: u32,
        pos: usize,
        spans: &mut [[Mark; 2]],
    ) -> Option<u32> {
        let Some(tail) = self.exits[node as usize].tail else {
            return end;
        };
        // At the end of the URI, a template ending here and one whose query tail is empty tie
        // on rank: the lower key wins, as in the VM.
        match end {
            Some(end) if end < tail.key => Some(end),
            _ => Some(self.bind_empty_tail(tail, spans).unwrap_or_else(|| {
                spans[tail.var as usize][0] = Mark::at(pos);
                tail.key
            })),
        }
    }

    /// Where `node`'s prefix ends if the URI continues with it at `pos`. Prefix bytes are
    /// never zero and [`load`] reads zeros past the end of the URI, so a head that compares
    /// equal lies within the URI.
    #[inline]
    fn prefix_end(&self, node: u32, uri: &[u8], pos: usize) -> Option<usize> {
        self.prefix_of(&self.nodes[node as usize], uri, pos)
    }

    /// [`prefix_end`](Self::prefix_end) for a node already at hand, as `n`.
    #[inline]
    fn prefix_of(&self, n: &WalkNode, uri: &[u8], pos: usize) -> Option<usize> {
        if (load(uri, pos) ^ n.head) & n.mask != 0 {
            return None;
        }
        Some(pos + usize::from(n.len))
    }

    /// The run of bytes that [`RunTable`] `run` allows, from `pos`, with the bits of their
    /// entries and of the byte that ends it. A plain loop: variable values are short, and an
    /// unrolled scan's set-up would be paid at every step of the walk.
    ///
    /// A `%` stops the table's loop: its triplet is read whole, and the run goes on past it,
    /// out of line ([`run_past_triplets`]), so that the loop over plain bytes stays as short
    /// as it was before runs read triplets (a call inside it cost each byte a spill).
    #[inline]
    pub(super) fn run(&self, run: u32, uri: &[u8], pos: usize) -> Run {
        let table = &self.runs[run as usize];
        debug_assert_eq!(
            table[usize::from(b'%')],
            PERCENT,
            "a variable's table stops at `%`"
        );
        let (end, seen) = run_to_stop(table, uri, pos);
        if seen & PERCENT == 0 {
            return (end, seen);
        }
        run_past_triplets(table, uri, end, seen)
    }

    /// The run of a query tail, whose triplets are left unread ([`UNREAD_TRIPLET`]): the
    /// binding reads its pairs, and the URI's check its triplets. Most tails run to the end of
    /// the URI: one of a block or more is read sixteen bytes at a time ([`query_block`]), the
    /// last sixteen overlapping the block before, and by the table only from the block where it
    /// ends.
    #[inline]
    pub(super) fn tail_run(&self, run: u32, uri: &[u8], pos: usize) -> Run {
        debug_assert_eq!(run, QUERY_RUN, "tails run over the query's bytes");
        let table = &self.runs[run as usize];
        let blocks = uri.len().checked_sub(QUERY_BLOCK);
        let Some(last) = blocks.filter(|&last| pct::VECTORS && last >= pos) else {
            let (end, seen) = run_to_stop(table, uri, pos);
            return (end, triplets_unread(seen));
        };
        let (mut at, mut seen) = (pos, 0);
        while let Some(bits) = uri.get(at..at + QUERY_BLOCK).and_then(query_block) {
            seen |= bits;
            at += QUERY_BLOCK;
        }
        if at > last {
            if let Some(bits) = query_block(&uri[last..]) {
                return (uri.len(), triplets_unread(seen | bits));
            }
        }
        let (end, bits) = run_to_stop(table, uri, at);
        (end, triplets_unread(seen | bits))
    }

    /// [`run`](Self::run) for a trailing `{+v}`, which takes the rest of the URI or fails: a
    /// word of bytes at a time, their table entries joined without branches (a path's run
    /// is long), then a byte at a time from the word where it ends (or where a `%` is).
    #[inline]
    pub(super) fn crossing_run(&self, run: u32, uri: &[u8], pos: usize) -> Run {
        let table = &self.runs[run as usize];
        let (mut at, mut seen) = (pos, 0);
        while let Some(word) = uri.get(at..at + 8) {
            let (mut all, mut any) = (ALLOWED, 0);
            for &b in word {
                let entry = table[usize::from(b)];
                all &= entry;
                any |= entry;
            }
            if all == 0 {
                break;
            }
            seen |= any;
            at += 8;
        }
        let (end, bits) = self.run(run, uri, at);
        (end, seen | bits)
    }
}

/// The bytes from `pos` that `table` allows, up to the first it does not or the end: where they
/// end, and the bits of their entries and of the byte that ends them (a `%` among those: see
/// [`read_triplet`]).
#[inline]
pub(super) fn run_to_stop(table: &RunTable, uri: &[u8], pos: usize) -> Run {
    let (mut end, mut seen) = (pos, 0);
    while let Some(&b) = uri.get(end) {
        let entry = table[usize::from(b)];
        seen |= entry;
        if entry & ALLOWED == 0 {
            break;
        }
        end += 1;
    }
    (end, seen)
}

/// `seen` of a query tail, whose triplets a walk leaves to the URI's check.
#[inline]
fn triplets_unread(seen: u8) -> u8 {
    if seen & PERCENT == 0 {
        seen
    } else {
        seen | UNREAD_TRIPLET
    }
}

/// The rest of a run that stopped at a `%` at `at`, having seen `seen`: each triplet read
/// whole ([`read_triplet`]), and the table's loop going on past it. Cold: most values hold
/// no triplet.
#[cold]
#[inline(never)]
fn run_past_triplets(table: &RunTable, uri: &[u8], mut at: usize, mut seen: u8) -> Run {
    loop {
        let (next, triplet) = read_triplet(uri, at);
        let (stop, bits) = run_to_stop(table, uri, next);
        seen |= triplet | bits;
        if bits & PERCENT == 0 {
            return (stop, seen);
        }
        at = stop;
    }
}

/// A run's triplet at `at`: where the run goes on, and the [`Seen`] bits it adds. A triplet
/// of an inert byte or a whole two-byte character (the two triplets read together) needs
/// nothing more; any other, or a `%` that starts none (which the run takes, as the byte it is),
/// is [`UNREAD_TRIPLET`], left to the check of the URI's triplets.
#[inline]
pub(super) fn read_triplet(uri: &[u8], at: usize) -> (usize, u8) {
    match pct::read_triplet(uri, at) {
        Some((triplets, next)) if triplets <= Triplets::TwoByte => (next, 0),
        Some((_, next)) => (next, UNREAD_TRIPLET),
        None => (at + 1, UNREAD_TRIPLET),
    }
}

/// How many bytes [`query_block`] reads at once.
pub(super) const QUERY_BLOCK: usize = 16;

/// The [`Seen`] bits of a block of a query tail, if the tail's run takes all its bytes: those
/// of the [`QUERY_RUN`] table, as comparisons joined without branches rather than a table, so
/// that they compile to vector instructions. A test checks them against the table.
#[inline]
pub(super) fn query_block(block: &[u8]) -> Option<u8> {
    let block: &[u8; QUERY_BLOCK] = block.try_into().ok()?;
    let (mut stops, mut percent, mut dot_or_slash, mut not_plain) = (false, false, false, false);
    for &b in block {
        let is_percent = b == b'%';
        stops |= !(pct::is_plain(b) | is_percent);
        percent |= is_percent;
        // Of the bytes a query takes, those that are not inert, but for `%`.
        // `.` and `/` are 0x2E and 0x2F: one comparison finds both.
        dot_or_slash |= b | 1 == b'/';
        not_plain |= (b >= 0x80) | (b == b':');
    }
    (!stops).then_some(
        ALLOWED
            | (u8::from(percent) * PERCENT)
            | (u8::from(dot_or_slash) * DOT_OR_SLASH)
            | (u8::from(not_plain) * NOT_PLAIN),
    )
}

/// Records the span of variable `var`.
fn take(spans: &mut [[Mark; 2]], var: u32, start: usize, end: usize) {
    spans[var as usize] = [Mark::at(start), Mark::at(end)];
}
