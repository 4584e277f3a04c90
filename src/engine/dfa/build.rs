//! Building the table: the VM's closure (the one `closure` the VM runs) and its step, run over
//! lists of threads instead of a URI, and the classes of units the program tells apart.
//!
//! **Counts.** A thread inside a prefix modifier's loop carries a character count. The
//! construction knows it as a [`Count`]: exactly 0 or 1, which the state holds, or *many*,
//! which a register holds at match time. That is all the VM ever asks of a count: whether one
//! thread has fewer characters than another (0 < 1 < many, and one loop never holds two
//! threads with many), and whether the loop may take one more, which for many is the one
//! question left to the run ([`super::Counting`]).

use std::collections::HashMap;

use super::lead::Lead;
use super::{
    Branch, COUNTING, Counting, DEAD, DYNAMIC, Dfa, MAX_CLASSES, MAX_COUNTERS, MAX_STATES,
    MAX_TESTS, MAX_THREADS, Move, Transition, Win,
};
use crate::engine::closure::{self, Closure, Guide, Sets, Start, Stop};
use crate::engine::inst::Nfa;
use crate::engine::inst::{FirstSet, Inst, Rank};
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

impl closure::Count for Count {
    const ZERO: Self = Count::Zero;

    fn fewer_than(self, other: Self) -> Option<bool> {
        Count::fewer_than(self, other)
    }

    /// A loop's count is known exactly, or is many in the loop's own register.
    fn enters_loop(self, own: bool) -> bool {
        self < Count::Many || self == Count::Many && own
    }
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

/// A consuming thread the closure reached (see [`closure::Reached`]), its start being the
/// state's thread it came from.
type Reached = closure::Reached<Count>;

/// What the closure of a state for one lookahead gives besides the threads it reached: at the
/// end of the URI, the best match.
enum Outcome {
    Closed(Option<closure::Win>),
    /// A boundary depends on the value's bytes: the VM must decide.
    Dynamic,
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
    closure: Closure<Count>,
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
            closure: Closure::default(),
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
            self.ends.push(match end {
                Some(win) => Some(Win {
                    key: win.key,
                    slots: moved(win.from, win.sets)?,
                }),
                None => None,
            });
        }
        let stride = self.representatives.len();
        let row = |(next, moves): (u32, u16)| {
            let next = match next {
                s if s < u32::from(COUNTING) => (s as usize * stride) as u16,
                sentinel => sentinel as u16,
            };
            Transition::new(next, moves)
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
            lead: Lead::NONE,
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

    /// The VM's closure of every thread of a state, in order, for the lookahead `next`, with
    /// the build's budget; `None` when the budget runs out or a count is one the construction
    /// does not track. The consuming threads reached go to `found`.
    fn closure(
        &mut self,
        threads: &Threads,
        next: Option<Unit>,
        found: &mut Vec<Reached>,
    ) -> Option<Outcome> {
        let starts = threads
            .iter()
            .enumerate()
            .map(|(from, &(pc, group, count))| Start {
                pc,
                group,
                count,
                from: from as u32,
            });
        let mut guide = Ahead {
            next,
            budget: &mut self.budget,
        };
        self.closure.prepare(self.nfa.insts.len());
        match self.closure.run(self.nfa, starts, next, &mut guide, found) {
            Ok(win) => Some(Outcome::Closed(win)),
            Err(Stop::Boundary) => Some(Outcome::Dynamic),
            Err(Stop::Untracked) => None,
        }
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
                    out.push(((target, group, count), moved(r.from, r.sets)?));
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

    /// Where a consuming instruction goes after `unit`, whatever its count.
    fn advance(&self, inst: Inst, pc: u32, unit: Unit) -> Option<u32> {
        closure::advance(self.nfa, inst, pc, unit)
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

/// The move of a thread that came from thread `from` of a state, its path having saved the
/// slots of `sets`: a table keeps 64 slots at most.
fn moved(from: u32, sets: Sets) -> Option<Move> {
    Some(Move {
        from,
        sets: u64::try_from(sets).ok()?,
    })
}

/// What the construction knows when the closure asks about a boundary: the lookahead alone,
/// which settles it unless it is an encoded continuation byte; and the build's budget.
struct Ahead<'b> {
    next: Option<Unit>,
    budget: &'b mut usize,
}

impl Guide for Ahead<'_> {
    fn spend(&mut self) -> bool {
        match self.budget.checked_sub(1) {
            Some(left) => {
                *self.budget = left;
                true
            }
            None => false,
        }
    }

    fn at_boundary(&self, _: u32, _: Sets, _: u32) -> Option<bool> {
        match self.next {
            Some(u) if !u.starts_char() => None,
            _ => Some(true),
        }
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
    crate::sort::sort(&mut questions);
    questions.dedup();
    crate::sort::sort(&mut encoded_literals);
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
    crate::sort::sort_by_key(&mut blocks, |block| block.trailing_zeros());
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
