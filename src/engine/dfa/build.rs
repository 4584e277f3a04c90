//! Building the table: the VM's closure and step, run over lists of threads instead of a URI,
//! and the classes of units the program tells apart.
//!
//! **Counts.** A thread inside a prefix modifier's loop carries a character count. The
//! construction knows it as a [`Count`]: exactly 0 or 1, which the state holds, or *many*,
//! which a register holds at match time. That is all the VM ever asks of a count: whether one
//! thread has fewer characters than another (0 < 1 < many, and one loop never holds two
//! threads with many), and whether the loop may take one more, which for many is the one
//! question left to the run ([`super::Counting`]).

use std::collections::HashMap;

use super::{
    Branch, Counting, Dfa, Move, Nfa, Transition, Win, COUNTING, DEAD, DYNAMIC, MAX_CLASSES,
    MAX_COUNTERS, MAX_STATES, MAX_TESTS, MAX_THREADS,
};
use crate::engine::inst::{dispatch, FirstSet, Inst, Rank};
use crate::pct::Unit;

/// The most epsilon steps the construction may take over all states and classes: it bounds
/// the time a template's first match spends building.
const BUILD_BUDGET: usize = 1 << 20;

/// What the construction knows of a thread's character count (the VM's `count`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Count {
    Zero,
    One,
    /// Two or more: the register of the counting loop the thread is in holds it.
    Many,
    /// Not tracked: the thread reaches no counting loop before a reset.
    Unknown,
}

impl Count {
    /// The count after a unit that starts a character (`starts`) or does not.
    fn after(self, starts: bool) -> Self {
        match (self, starts) {
            (count, false) => count,
            (Count::Zero, true) => Count::One,
            (Count::One | Count::Many, true) => Count::Many,
            (Count::Unknown, true) => Count::Unknown,
        }
    }

    /// Whether a thread with this count has fewer characters than one with `other`: what the
    /// VM asks when a second thread reaches a counting loop. `None` if the construction
    /// cannot tell.
    fn fewer_than(self, other: Self) -> Option<bool> {
        match (self, other) {
            (Count::Unknown, _) | (_, Count::Unknown) | (Count::Many, Count::Many) => None,
            (a, b) => Some(a < b),
        }
    }
}

/// A thread of a state: its instruction before its epsilon closure, its group and its count.
type Thread = (u32, u32, Count);

/// A state: its threads, in order.
type Threads = Vec<Thread>;

/// A consuming thread the closure reached: its instruction, group and count, the state's
/// thread it came from and the slots its path set; `retired` once a thread with fewer
/// characters took its place in a counting loop (the VM keeps it, and it dies at its next
/// step).
#[derive(Debug, Clone, Copy)]
struct Reached {
    pc: u32,
    group: u32,
    count: Count,
    slots: Move,
    retired: bool,
}

#[derive(Debug, Clone, Copy)]
enum Frame {
    Explore(u32, u64, Count),
    /// Add the loop at this instruction as a consuming thread, after its exit was explored.
    AddLoop(u32, u64, Count),
}

/// How the closure of a state for one lookahead turned out.
enum Outcome {
    Closed(Closure),
    /// A boundary depends on the value's bytes: the VM must decide.
    Dynamic,
}

/// What the closure of a state gives for one lookahead, besides the consuming threads it
/// reached: at the end of the URI, the best match, with its group.
struct Closure {
    win: Option<(u32, Win)>,
}

/// Buffers the construction reuses from one transition to the next: building a table
/// allocated for each closure, step and list of threads, and that was over half its cost.
#[derive(Default)]
struct Scratch {
    reached: Vec<Reached>,
    stepped: Vec<(Thread, Move)>,
    threads: Threads,
    moves: Vec<Move>,
}

pub(super) struct Builder<'p> {
    nfa: &'p Nfa<'p>,
    /// A unit of each class.
    representatives: Vec<Unit>,
    classes: Vec<u8>,
    /// For each instruction, its register if it is a counting loop.
    registers: Vec<Option<u8>>,
    /// Each register's loop's limit.
    maxima: Vec<u16>,
    states: Vec<Threads>,
    index: HashMap<Threads, u32>,
    /// Each state's transitions, one per class: a state number, [`DEAD`], [`DYNAMIC`] or
    /// [`COUNTING`] (with the number of its [`Counting`] in place of the moves).
    transitions: Vec<(u32, u16)>,
    counting: Vec<Counting>,
    /// The ways each counting transition goes, as (state, moves, sets).
    branches: Vec<(u32, u16, u32)>,
    ends: Vec<Option<Win>>,
    move_sets: Vec<u32>,
    set_index: HashMap<Vec<Move>, u16>,
    moves: Vec<Move>,
    /// For each instruction, the closure that last visited it (by [`closures`](Self::closures)),
    /// so that starting a closure clears nothing.
    visited: Vec<u32>,
    /// For each counting loop, the closure that last added it as a consuming thread, and
    /// where in that closure's list: the thread a second arrival is weighed against.
    occupant: Vec<(u32, u32)>,
    closures: u32,
    stack: Vec<Frame>,
    scratch: Scratch,
    budget: usize,
}

impl<'p> Builder<'p> {
    pub(super) fn new(nfa: &'p Nfa<'p>) -> Option<Self> {
        let (classes, representatives) = unit_classes(nfa)?;
        let mut registers = vec![None; nfa.insts.len()];
        let mut maxima = Vec::new();
        for (pc, inst) in nfa.insts.iter().enumerate() {
            if let Inst::Counted { max, .. } = *inst {
                if maxima.len() == MAX_COUNTERS {
                    return None;
                }
                registers[pc] = Some(maxima.len() as u8);
                maxima.push(max);
            }
        }
        Some(Self {
            nfa,
            representatives,
            classes,
            registers,
            maxima,
            states: Vec::new(),
            index: HashMap::new(),
            transitions: Vec::new(),
            counting: Vec::new(),
            branches: Vec::new(),
            ends: Vec::new(),
            move_sets: vec![0],
            set_index: HashMap::new(),
            moves: Vec::new(),
            visited: vec![0; nfa.insts.len()],
            occupant: vec![(0, 0); nfa.insts.len()],
            closures: 0,
            stack: Vec::new(),
            scratch: Scratch::default(),
            budget: BUILD_BUDGET,
        })
    }

    /// Builds every state reachable from the VM's start, breadth first.
    pub(super) fn run(mut self) -> Option<Dfa> {
        self.state_of(&[(0, 0, Count::Unknown)])?;
        let mut done = 0;
        while let Some(threads) = self.states.get(done).cloned() {
            done += 1;
            for class in 0..self.representatives.len() {
                let transition = self.transition(&threads, class)?;
                self.transitions.push(transition);
            }
            let mut reached = std::mem::take(&mut self.scratch.reached);
            let Outcome::Closed(end) = self.closure(&threads, None, &mut reached)? else {
                unreachable!("every boundary holds at the end of the URI");
            };
            self.scratch.reached = reached;
            self.ends.push(end.win.map(|(_, win)| win));
        }
        let stride = self.representatives.len();
        let row = |(next, moves): (u32, u16)| Transition {
            next: match next {
                s if s < u32::from(COUNTING) => (s as usize * stride) as u16,
                sentinel => sentinel as u16,
            },
            moves,
        };
        let mut raw = [0; 256];
        let mut triplet = [0; 256];
        for b in 0..=255u8 {
            raw[usize::from(b)] = self.classes[usize::from(b >= 0x80) << 8 | usize::from(b)];
            let encoded = !crate::pct::is_unreserved(b);
            triplet[usize::from(b)] = self.classes[usize::from(encoded) << 8 | usize::from(b)];
        }
        let starts = self
            .representatives
            .iter()
            .enumerate()
            .fold(0u64, |bits, (c, u)| bits | u64::from(u.starts_char()) << c);
        Some(Dfa {
            raw,
            triplet,
            stride,
            transitions: self.transitions.into_iter().map(row).collect(),
            ends: self.ends,
            move_sets: self.move_sets,
            moves: self.moves,
            width: self.nfa.slots,
            starts,
            offsets: self
                .maxima
                .iter()
                .map(|&max| u32::from(max).saturating_sub(2))
                .collect(),
            counting: self.counting,
            branches: self
                .branches
                .into_iter()
                .map(|(next, moves, sets)| Branch {
                    to: row((next, moves)),
                    sets,
                })
                .collect(),
        })
    }

    /// The number of the state with these threads, made if new; `None` past the limits.
    fn state_of(&mut self, threads: &[Thread]) -> Option<u32> {
        if let Some(&s) = self.index.get(threads) {
            return Some(s);
        }
        if self.states.len() >= MAX_STATES || threads.len() > MAX_THREADS {
            return None;
        }
        let s = self.states.len() as u32;
        self.index.insert(threads.to_vec(), s);
        self.states.push(threads.to_vec());
        Some(s)
    }

    /// What the VM does from `threads` over a unit of `class`, its closure with the unit as
    /// lookahead then its step over it: the next state (or [`DEAD`] or [`DYNAMIC`]) and the
    /// moves; or, where the step depends on whether counts are at their limits, a
    /// [`COUNTING`] transition with a branch for each answer.
    fn transition(&mut self, threads: &Threads, class: usize) -> Option<(u32, u16)> {
        let unit = self.representatives[class];
        let mut scratch = std::mem::take(&mut self.scratch);
        let transition = match self.closure(threads, Some(unit), &mut scratch.reached)? {
            Outcome::Closed(_) => self.branches_from(unit, &mut scratch),
            Outcome::Dynamic => Some((u32::from(DYNAMIC), 0)),
        };
        self.scratch = scratch;
        transition
    }

    /// The step over `unit` from the threads the closure reached (`scratch.reached`): one
    /// transition, or a [`COUNTING`] one with a branch for each answer the registers can give.
    fn branches_from(&mut self, unit: Unit, scratch: &mut Scratch) -> Option<(u32, u16)> {
        // The loops whose next character the run must allow or refuse: those holding many.
        let mut tests = [0usize; MAX_TESTS];
        let mut len = 0;
        for (i, r) in scratch.reached.iter().enumerate() {
            let inst = self.nfa.insts[r.pc as usize];
            let asks = !r.retired
                && r.count == Count::Many
                && unit.starts_char()
                && matches!(inst, Inst::Counted { .. })
                && self.advance(inst, r.pc, unit).is_some();
            if asks {
                *tests.get_mut(len)? = i;
                len += 1;
            }
        }
        let tests = &tests[..len];
        let mut branches = [(0, 0, 0); 1 << MAX_TESTS];
        for answers in 0..1u32 << len {
            let at_limit = |i: usize| {
                tests
                    .iter()
                    .position(|&t| t == i)
                    .is_some_and(|k| answers >> k & 1 == 1)
            };
            branches[answers as usize] = self.branch(unit, at_limit, scratch)?;
        }
        if len == 0 && branches[0].2 == 0 {
            let (next, moves, _) = branches[0];
            return Some((next, moves));
        }
        let mut registers = [0; MAX_TESTS];
        for (k, &i) in tests.iter().enumerate() {
            registers[k] = self.registers[scratch.reached[i].pc as usize]?;
        }
        let number = u16::try_from(self.counting.len()).ok()?;
        self.counting.push(Counting {
            registers,
            tests: len as u8,
            first: u32::try_from(self.branches.len()).ok()?,
        });
        self.branches.extend_from_slice(&branches[..1 << len]);
        Some((u32::from(COUNTING), number))
    }

    /// Where one way of the step from `scratch.reached` leads: (state or [`DEAD`], moves,
    /// registers set).
    fn branch(
        &mut self,
        unit: Unit,
        at_limit: impl Fn(usize) -> bool,
        scratch: &mut Scratch,
    ) -> Option<(u32, u16, u32)> {
        let Scratch {
            reached,
            stepped,
            threads,
            moves,
        } = scratch;
        stepped.clear();
        let sets = self.step(reached, unit, at_limit, stepped)?;
        if stepped.is_empty() {
            return Some((u32::from(DEAD), 0, 0));
        }
        // The threads stepped cost the budget too (a router can step thousands at once).
        self.budget = self.budget.checked_sub(stepped.len())?;
        self.dedup(stepped, threads, moves)?;
        let next = self.state_of(threads)?;
        Some((next, self.move_set(moves)?, sets))
    }

    /// The number of a transition's moves, made if new; 0 for moving nothing, `None` past the
    /// numbers a transition holds.
    fn move_set(&mut self, moves: &[Move]) -> Option<u16> {
        let keeps = |(j, m): (usize, &Move)| m.from == j as u32 && m.sets == 0;
        if moves.iter().enumerate().all(keeps) {
            return Some(0);
        }
        if let Some(&i) = self.set_index.get(moves) {
            return Some(i);
        }
        let i = u16::try_from(self.move_sets.len()).ok()?;
        self.move_sets.push(u32::try_from(self.moves.len()).ok()?);
        self.moves.extend_from_slice(moves);
        self.set_index.insert(moves.to_vec(), i);
        Some(i)
    }

    /// The VM's closure (`vm::Vm::closure`) of every thread of a state, in order, with one
    /// visited set, for the lookahead `next`; `None` when the build's budget runs out or a
    /// count is one the construction does not track. The consuming threads reached go to
    /// `found`. Slots are tracked as the set each path writes, all at the same position.
    fn closure(
        &mut self,
        threads: &Threads,
        next: Option<Unit>,
        found: &mut Vec<Reached>,
    ) -> Option<Outcome> {
        let insts = self.nfa.insts;
        self.closures += 1;
        let epoch = self.closures;
        found.clear();
        let mut out = Closure { win: None };
        for (from, &(start, group, count)) in threads.iter().enumerate() {
            let from = from as u32;
            self.stack.push(Frame::Explore(start, 0, count));
            while let Some(frame) = self.stack.pop() {
                let Some(budget) = self.budget.checked_sub(1) else {
                    self.stack.clear();
                    return None;
                };
                self.budget = budget;
                let (pc, sets, count, add) = match frame {
                    Frame::Explore(pc, sets, count) => (pc, sets, count, false),
                    Frame::AddLoop(pc, sets, count) => (pc, sets, count, true),
                };
                let reached = Reached {
                    pc,
                    group,
                    count,
                    slots: Move { from, sets },
                    retired: false,
                };
                let here = pc as usize;
                if add {
                    if self.registers[here].is_some() {
                        self.occupant[here] = (epoch, found.len() as u32);
                    }
                    found.push(reached);
                    continue;
                }
                if !self.nfa.first[here].admits(next) {
                    continue;
                }
                if self.visited[here] == epoch {
                    if self.registers[here].is_some() {
                        self.keep_fewer_characters(found, reached, epoch)
                            .or_else(|| {
                                self.stack.clear();
                                None
                            })?;
                    }
                    continue;
                }
                self.visited[here] = epoch;
                let inst = insts[here];
                let counting = matches!(inst, Inst::Counted { .. });
                // A loop's count is known exactly, or is many in the loop's own register.
                if counting && !(count < Count::Many || count == Count::Many && pc == start) {
                    self.stack.clear();
                    return None;
                }
                let takes = next.is_some_and(|u| self.advance(inst, pc, u).is_some());
                match inst {
                    Inst::Unit { .. } | Inst::Dispatch(_) | Inst::Step { .. } => {
                        if takes {
                            found.push(reached);
                        }
                    }
                    Inst::Loop { exit, .. } | Inst::Counted { exit, .. } => {
                        if takes {
                            self.stack.push(Frame::AddLoop(pc, sets, count));
                        }
                        self.stack.push(Frame::Explore(exit, sets, count));
                    }
                    Inst::ResetCount => self.stack.push(Frame::Explore(pc + 1, sets, Count::Zero)),
                    Inst::Split(first, second) => {
                        self.stack.push(Frame::Explore(second, sets, count));
                        self.stack.push(Frame::Explore(first, sets, count));
                    }
                    Inst::Jump(to) => self.stack.push(Frame::Explore(to, sets, count)),
                    Inst::Save(slot) => {
                        self.stack
                            .push(Frame::Explore(pc + 1, sets | 1 << slot, count))
                    }
                    Inst::Boundary(_) => match next {
                        Some(u) if !u.starts_char() => {
                            self.stack.clear();
                            return Some(Outcome::Dynamic);
                        }
                        _ => self.stack.push(Frame::Explore(pc + 1, sets, count)),
                    },
                    Inst::QueryStart(start) => {
                        let raw = next.map(|u| if u.encoded { b'%' } else { u.byte });
                        if start.admits(raw) {
                            self.stack.push(Frame::Explore(pc + 1, sets, count));
                        }
                    }
                    Inst::Match(key) if next.is_none() => {
                        record_match(&mut out.win, group, key, reached.slots)
                    }
                    Inst::Match(_) => {}
                }
            }
        }
        Some(Outcome::Closed(out))
    }

    /// A second thread reaching a counting loop (`vm::Vm::keep_fewer_characters`): if the
    /// loop's thread was added in this closure and has more characters, it is retired and
    /// the newcomer added in its group. `None` if the counts cannot be compared.
    fn keep_fewer_characters(
        &mut self,
        reached: &mut Vec<Reached>,
        newcomer: Reached,
        epoch: u32,
    ) -> Option<()> {
        let (added, i) = self.occupant[newcomer.pc as usize];
        if added != epoch {
            return Some(());
        }
        let thread = &mut reached[i as usize];
        if newcomer.count.fewer_than(thread.count)? {
            thread.retired = true;
            self.occupant[newcomer.pc as usize] = (epoch, reached.len() as u32);
            reached.push(newcomer);
        }
        Some(())
    }

    /// The VM's step (`vm::Vm::step`): each group of consuming threads, literal consumers
    /// first, advanced over `unit`; a group of the new list for each rank that advanced.
    /// `at_limit(i)` says whether the counting loop of `reached[i]`, holding many, is at its
    /// limit. The threads go to `out`; returns the registers the step sets, or `None` if a
    /// count leaves what the construction tracks.
    fn step(
        &self,
        reached: &[Reached],
        unit: Unit,
        at_limit: impl Fn(usize) -> bool,
        out: &mut Vec<(Thread, Move)>,
    ) -> Option<u32> {
        let starts = unit.starts_char();
        let mut sets = 0;
        let mut group = 0;
        let mut i = 0;
        while i < reached.len() {
            let g = reached[i].group;
            let end = i + reached[i..].iter().take_while(|r| r.group == g).count();
            for rank in Rank::ALL {
                let mut advanced = false;
                for (k, r) in reached.iter().enumerate().take(end).skip(i) {
                    let inst = self.nfa.insts[r.pc as usize];
                    if r.retired || inst.rank() != Some(rank) {
                        continue;
                    }
                    let Some(target) = self.advance(inst, r.pc, unit) else {
                        continue;
                    };
                    let count = match inst {
                        Inst::Counted { max, .. } if starts => {
                            let allowed = match r.count {
                                Count::Zero => true,
                                Count::One => max >= 2,
                                Count::Many => !at_limit(k),
                                Count::Unknown => return None,
                            };
                            if !allowed {
                                continue;
                            }
                            r.count.after(true)
                        }
                        Inst::Step { .. } => r.count.after(starts),
                        _ => r.count,
                    };
                    let count = self.count_at(target, r, count, &mut sets)?;
                    out.push(((target, group, count), r.slots));
                    advanced = true;
                }
                group += u32::from(advanced);
            }
            i = end;
        }
        Some(sets)
    }

    /// The count a thread from `r` carries to `target`: tracked only into a counting loop,
    /// where a count that becomes many sets the loop's register (a bit of `sets`). `None`
    /// if the count there is unknown, or many from another loop's register.
    fn count_at(&self, target: u32, r: &Reached, count: Count, sets: &mut u32) -> Option<Count> {
        let Some(register) = self.registers[target as usize] else {
            return Some(Count::Unknown);
        };
        match (r.count, count) {
            (_, Count::Unknown) => None,
            (Count::Many, Count::Many) => (target == r.pc).then_some(Count::Many),
            (_, Count::Many) => {
                *sets |= 1 << register;
                Some(Count::Many)
            }
            (_, exact) => Some(exact),
        }
    }

    /// Where a consuming instruction goes after `unit` (`vm::Vm::advance`, without counts).
    fn advance(&self, inst: Inst, pc: u32, unit: Unit) -> Option<u32> {
        match inst {
            Inst::Unit { unit: u, .. } => (u == unit).then_some(pc + 1),
            Inst::Dispatch(table) => dispatch(&self.nfa.dispatch[table as usize], unit),
            Inst::Loop { class, .. } | Inst::Counted { class, .. } => {
                class.allows(unit).then_some(pc)
            }
            Inst::Step { class, .. } => class.allows(unit).then_some(pc + 1),
            _ => None,
        }
    }

    /// The new list of threads after a step, as the VM keeps it: a thread that reaches an
    /// instruction another reached first has nothing left to explore (the VM prunes it at
    /// once), unless that is a counting loop, where the next closure weighs the two counts;
    /// and groups are numbered from 0 in order, which is all the VM reads of them. Stops one
    /// past [`MAX_THREADS`], which no state may hold, so that the scan for duplicates stays
    /// short. `None` if one loop would hold two counts of many.
    fn dedup(
        &self,
        stepped: &[(Thread, Move)],
        threads: &mut Threads,
        moves: &mut Vec<Move>,
    ) -> Option<()> {
        threads.clear();
        moves.clear();
        let (mut last, mut group) = (None, 0u32);
        for &((pc, g, count), m) in stepped {
            if threads.len() > MAX_THREADS {
                break;
            }
            if let Some(&(_, _, other)) = threads.iter().find(|t| t.0 == pc) {
                if self.registers[pc as usize].is_none() {
                    continue;
                }
                if count == Count::Many && other == Count::Many {
                    return None;
                }
            }
            if last.is_some_and(|l| l != g) {
                group += 1;
            }
            last = Some(g);
            threads.push((pc, group, count));
            moves.push(m);
        }
        Some(())
    }
}

/// The VM's choice at the end of the URI (`vm::Vm::record_match`): the first match, unless a
/// later one in the same group has a lower key.
fn record_match(best: &mut Option<(u32, Win)>, group: u32, key: u32, slots: Move) {
    let better = match best {
        None => true,
        Some((g, win)) => *g == group && key < win.key,
    };
    if better {
        *best = Some((group, Win { key, slots }));
    }
}

/// Classes of the units that the program tells apart: two units with the same answer to
/// every question the closure and the step ask of a unit fall in one class. Returns the class
/// of each unit, at `usize::from(unit.encoded) << 8 | unit.byte`, and a unit of each class;
/// `None` past [`MAX_CLASSES`].
///
/// Every class and first set takes all encoded units alike, so the questions that tell raw
/// ASCII bytes apart are sets of bytes, and an encoded unit is told apart only by whether it
/// starts a character and which literal it is.
fn unit_classes(nfa: &Nfa<'_>) -> Option<(Vec<u8>, Vec<Unit>)> {
    let mut questions: Vec<u128> = vec![1 << b'?', 1 << b'&'];
    let mut encoded_literals = Vec::new();
    let mut literal = |unit: Unit, questions: &mut Vec<u128>| {
        if unit.encoded {
            encoded_literals.push(unit.byte);
        } else if unit.byte < 128 {
            questions.push(1 << unit.byte);
        }
    };
    for inst in nfa.insts {
        match *inst {
            Inst::Unit { unit, .. } => literal(unit, &mut questions),
            Inst::Dispatch(t) => {
                for &(unit, _) in &nfa.dispatch[t as usize] {
                    literal(unit, &mut questions);
                }
            }
            Inst::Loop { class, .. } | Inst::Counted { class, .. } | Inst::Step { class, .. } => {
                questions.push(class.ascii())
            }
            _ => {}
        }
    }
    questions.extend(nfa.first.iter().map(FirstSet::ascii));
    questions.sort_unstable();
    questions.dedup();
    encoded_literals.sort_unstable();
    encoded_literals.dedup();

    let mut class_of = vec![0u8; 512];
    let mut representatives = Vec::new();
    let new_class = |unit: Unit, representatives: &mut Vec<Unit>| {
        representatives.push(unit);
        u8::try_from(representatives.len() - 1).ok()
    };
    // Raw ASCII: a partition of the 128 bytes, each block split by each set of bytes in
    // turn; then classes numbered by first byte.
    let mut blocks: Vec<u128> = vec![u128::MAX];
    for set in questions {
        for i in 0..blocks.len() {
            let (inside, outside) = (blocks[i] & set, blocks[i] & !set);
            if inside != 0 && outside != 0 {
                blocks[i] = inside;
                blocks.push(outside);
            }
        }
        if blocks.len() > MAX_CLASSES {
            return None;
        }
    }
    blocks.sort_unstable_by_key(|block| block.trailing_zeros());
    for mut block in blocks {
        let first = Unit {
            byte: block.trailing_zeros() as u8,
            encoded: false,
        };
        let c = new_class(first, &mut representatives)?;
        while block != 0 {
            let b = block.trailing_zeros() as usize;
            class_of[b] = c;
            // Raw bytes past ASCII are never read as such (`pct::unit_at` gives them as
            // encoded).
            class_of[b + 128] = c;
            block &= block - 1;
        }
    }
    // Encoded: by whether the unit starts a character, and which literal it is.
    let (mut starting, mut continuing) = (None, None);
    for b in 0..=255u8 {
        let unit = Unit {
            byte: b,
            encoded: true,
        };
        let shared = if unit.starts_char() {
            &mut starting
        } else {
            &mut continuing
        };
        let c = if encoded_literals.binary_search(&b).is_ok() {
            new_class(unit, &mut representatives)?
        } else {
            match *shared {
                Some(c) => c,
                None => *shared.insert(new_class(unit, &mut representatives)?),
            }
        };
        class_of[256 + usize::from(b)] = c;
    }
    (representatives.len() <= MAX_CLASSES).then_some((class_of, representatives))
}
