//! Building the table: the VM's closure and step, run over lists of threads instead of a URI,
//! and the classes of units the program tells apart.

use std::collections::HashMap;

use super::{Dfa, Move, Nfa, Transition, Win, DEAD, DYNAMIC, MAX_CLASSES, MAX_STATES, MAX_THREADS};
use crate::matching::inst::{dispatch, FirstSet, Inst, Rank};
use crate::pct::Unit;

/// The most epsilon steps the construction may take over all states and classes: it bounds
/// the time a template's first match spends building.
const BUILD_BUDGET: usize = 1 << 20;

/// A state: each thread's instruction before its epsilon closure, and its group.
type Threads = Vec<(u32, u32)>;

/// A consuming thread the closure reached: its instruction and group, the state's thread it
/// came from, and the slots its path set.
#[derive(Debug, Clone, Copy)]
struct Reached {
    pc: u32,
    group: u32,
    slots: Move,
}

#[derive(Debug, Clone, Copy)]
enum Frame {
    Explore(u32, u64),
    /// Add the loop at this instruction as a consuming thread, after its exit was explored.
    AddLoop(u32, u64),
}

/// How the closure of a state for one lookahead turned out.
enum Outcome {
    Closed(Closure),
    /// A boundary depends on the value's bytes: the VM must decide.
    Dynamic,
}

/// What the closure of a state gives for one lookahead.
struct Closure {
    reached: Vec<Reached>,
    /// At the end of the URI: the best match, with its group.
    win: Option<(u32, Win)>,
}

pub(super) struct Builder<'p> {
    nfa: &'p Nfa<'p>,
    /// A unit of each class.
    representatives: Vec<Unit>,
    classes: Vec<u8>,
    states: Vec<Threads>,
    index: HashMap<Threads, u32>,
    /// Each state's transitions, one per class: a state number, [`DEAD`] or [`DYNAMIC`].
    transitions: Vec<(u32, u16)>,
    ends: Vec<Option<Win>>,
    move_sets: Vec<u32>,
    set_index: HashMap<Vec<Move>, u16>,
    moves: Vec<Move>,
    /// For each instruction, the closure that last visited it (by [`closures`](Self::closures)),
    /// so that starting a closure clears nothing.
    visited: Vec<u32>,
    closures: u32,
    stack: Vec<Frame>,
    budget: usize,
}

impl<'p> Builder<'p> {
    pub(super) fn new(nfa: &'p Nfa<'p>) -> Option<Self> {
        let (classes, representatives) = unit_classes(nfa)?;
        Some(Self {
            nfa,
            representatives,
            classes,
            states: Vec::new(),
            index: HashMap::new(),
            transitions: Vec::new(),
            ends: Vec::new(),
            move_sets: vec![0],
            set_index: HashMap::new(),
            moves: Vec::new(),
            visited: vec![0; nfa.insts.len()],
            closures: 0,
            stack: Vec::new(),
            budget: BUILD_BUDGET,
        })
    }

    /// Builds every state reachable from the VM's start, breadth first.
    pub(super) fn run(mut self) -> Option<Dfa> {
        self.state_of(vec![(0, 0)])?;
        let mut done = 0;
        while let Some(threads) = self.states.get(done).cloned() {
            done += 1;
            for class in 0..self.representatives.len() {
                let unit = self.representatives[class];
                let transition = self.transition(&threads, unit)?;
                self.transitions.push(transition);
            }
            let Outcome::Closed(end) = self.closure(&threads, None)? else {
                unreachable!("every boundary holds at the end of the URI");
            };
            self.ends.push(end.win.map(|(_, win)| win));
        }
        let stride = self.representatives.len();
        let row = |(next, moves): (u32, u16)| Transition {
            next: match next {
                s if s < u32::from(DYNAMIC) => (s as usize * stride) as u16,
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
        Some(Dfa {
            raw,
            triplet,
            stride,
            transitions: self.transitions.into_iter().map(row).collect(),
            ends: self.ends,
            move_sets: self.move_sets,
            moves: self.moves,
            width: self.nfa.slots,
        })
    }

    /// The number of the state with these threads, made if new; `None` past the limits.
    fn state_of(&mut self, threads: Threads) -> Option<u32> {
        if let Some(&s) = self.index.get(&threads) {
            return Some(s);
        }
        if self.states.len() >= MAX_STATES || threads.len() > MAX_THREADS {
            return None;
        }
        let s = self.states.len() as u32;
        self.index.insert(threads.clone(), s);
        self.states.push(threads);
        Some(s)
    }

    /// What the VM does from `threads` over `unit`, its closure with `unit` as lookahead then
    /// its step over `unit`: the next state (or [`DEAD`] or [`DYNAMIC`]) and the moves.
    fn transition(&mut self, threads: &Threads, unit: Unit) -> Option<(u32, u16)> {
        let Outcome::Closed(closure) = self.closure(threads, Some(unit))? else {
            return Some((u32::from(DYNAMIC), 0));
        };
        let stepped = self.step(&closure.reached, unit);
        if stepped.is_empty() {
            return Some((u32::from(DEAD), 0));
        }
        // The threads stepped cost the budget too (a router can step thousands at once).
        self.budget = self.budget.checked_sub(stepped.len())?;
        let (threads, moves) = dedup(stepped);
        let next = self.state_of(threads)?;
        Some((next, self.move_set(moves)?))
    }

    /// The number of a transition's moves, made if new; 0 for moving nothing, `None` past the
    /// numbers a transition holds.
    fn move_set(&mut self, moves: Vec<Move>) -> Option<u16> {
        let keeps = |(j, m): (usize, &Move)| m.from == j as u32 && m.sets == 0;
        if moves.iter().enumerate().all(keeps) {
            return Some(0);
        }
        if let Some(&i) = self.set_index.get(&moves) {
            return Some(i);
        }
        let i = u16::try_from(self.move_sets.len()).ok()?;
        self.move_sets.push(u32::try_from(self.moves.len()).ok()?);
        self.moves.extend_from_slice(&moves);
        self.set_index.insert(moves, i);
        Some(i)
    }

    /// The VM's closure (`vm::Vm::closure`) of every thread of a state, in order, with one
    /// visited set, for the lookahead `next`; `None` when the build's budget runs out. Slots
    /// are tracked as the set each path writes, all at the same position.
    fn closure(&mut self, threads: &Threads, next: Option<Unit>) -> Option<Outcome> {
        let insts = self.nfa.insts;
        self.closures += 1;
        let epoch = self.closures;
        let mut out = Closure {
            reached: Vec::new(),
            win: None,
        };
        for (from, &(start, group)) in threads.iter().enumerate() {
            let from = from as u32;
            self.stack.push(Frame::Explore(start, 0));
            while let Some(frame) = self.stack.pop() {
                let Some(budget) = self.budget.checked_sub(1) else {
                    self.stack.clear();
                    return None;
                };
                self.budget = budget;
                let (pc, sets) = match frame {
                    Frame::Explore(pc, sets) => (pc, sets),
                    Frame::AddLoop(pc, sets) => {
                        out.reached.push(Reached {
                            pc,
                            group,
                            slots: Move { from, sets },
                        });
                        continue;
                    }
                };
                let here = pc as usize;
                if !self.nfa.first[here].admits(next) || self.visited[here] == epoch {
                    continue;
                }
                self.visited[here] = epoch;
                let reached = Reached {
                    pc,
                    group,
                    slots: Move { from, sets },
                };
                let inst = insts[here];
                match inst {
                    Inst::Unit { .. } | Inst::Dispatch(_) | Inst::Step { .. } => {
                        if next.is_some_and(|u| self.advance(inst, pc, u).is_some()) {
                            out.reached.push(reached);
                        }
                    }
                    Inst::Loop { exit, .. } => {
                        if next.is_some_and(|u| self.advance(inst, pc, u).is_some()) {
                            self.stack.push(Frame::AddLoop(pc, sets));
                        }
                        self.stack.push(Frame::Explore(exit, sets));
                    }
                    Inst::Split(first, second) => {
                        self.stack.push(Frame::Explore(second, sets));
                        self.stack.push(Frame::Explore(first, sets));
                    }
                    Inst::Jump(to) => self.stack.push(Frame::Explore(to, sets)),
                    Inst::Save(slot) => self.stack.push(Frame::Explore(pc + 1, sets | 1 << slot)),
                    Inst::Boundary(_) => match next {
                        Some(u) if !u.starts_char() => {
                            self.stack.clear();
                            return Some(Outcome::Dynamic);
                        }
                        _ => self.stack.push(Frame::Explore(pc + 1, sets)),
                    },
                    Inst::QueryStart(start) => {
                        let raw = next.map(|u| if u.encoded { b'%' } else { u.byte });
                        if start.admits(raw) {
                            self.stack.push(Frame::Explore(pc + 1, sets));
                        }
                    }
                    Inst::Match(key) if next.is_none() => {
                        record_match(&mut out.win, group, key, reached.slots)
                    }
                    Inst::Match(_) => {}
                    Inst::Counted { .. } | Inst::ResetCount => unreachable!("refused by `build`"),
                }
            }
        }
        Some(Outcome::Closed(out))
    }

    /// The VM's step (`vm::Vm::step`): each group of consuming threads, literal consumers
    /// first, advanced over `unit`; a group of the new list for each rank that advanced.
    fn step(&self, reached: &[Reached], unit: Unit) -> Vec<(u32, u32, Move)> {
        let mut out = Vec::new();
        let mut group = 0;
        let mut i = 0;
        while i < reached.len() {
            let g = reached[i].group;
            let end = i + reached[i..].iter().take_while(|r| r.group == g).count();
            for rank in Rank::ALL {
                let mut advanced = false;
                for r in &reached[i..end] {
                    let inst = self.nfa.insts[r.pc as usize];
                    if inst.rank() != Some(rank) {
                        continue;
                    }
                    if let Some(target) = self.advance(inst, r.pc, unit) {
                        out.push((target, group, r.slots));
                        advanced = true;
                    }
                }
                group += u32::from(advanced);
            }
            i = end;
        }
        out
    }

    /// Where a consuming instruction goes after `unit` (`vm::Vm::advance`, without counts).
    fn advance(&self, inst: Inst, pc: u32, unit: Unit) -> Option<u32> {
        match inst {
            Inst::Unit { unit: u, .. } => (u == unit).then_some(pc + 1),
            Inst::Dispatch(table) => dispatch(&self.nfa.dispatch[table as usize], unit),
            Inst::Loop { class, .. } => class.allows(unit).then_some(pc),
            Inst::Step { class, .. } => class.allows(unit).then_some(pc + 1),
            _ => None,
        }
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

/// The new list of threads after a step, as the VM keeps it: a thread that reaches an
/// instruction another reached first has nothing left to explore (the VM prunes it at once),
/// and groups are numbered from 0 in order, which is all the VM reads of them. Stops one past
/// [`MAX_THREADS`], which no state may hold, so that the scan for duplicates stays short.
fn dedup(stepped: Vec<(u32, u32, Move)>) -> (Threads, Vec<Move>) {
    let mut threads: Threads = Vec::with_capacity(stepped.len().min(MAX_THREADS + 1));
    let mut moves = Vec::with_capacity(threads.capacity());
    let (mut last, mut group) = (None, 0u32);
    for (pc, g, m) in stepped {
        if threads.len() > MAX_THREADS {
            break;
        }
        if threads.iter().any(|&(p, _)| p == pc) {
            continue;
        }
        if last.is_some_and(|l| l != g) {
            group += 1;
        }
        last = Some(g);
        threads.push((pc, group));
        moves.push(m);
    }
    (threads, moves)
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
            Inst::Loop { class, .. } | Inst::Step { class, .. } => questions.push(class.ascii()),
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
    // Raw ASCII: split by each set of bytes in turn, numbering classes by first byte.
    let mut ascii = [0u16; 128];
    let mut count = 1;
    for set in questions {
        let mut renumber = [u16::MAX; 2 * (MAX_CLASSES + 1)];
        let mut next = 0;
        for (b, class) in ascii.iter_mut().enumerate() {
            let key = 2 * usize::from(*class) + usize::from(set >> b & 1 == 1);
            if renumber[key] == u16::MAX {
                renumber[key] = next;
                next += 1;
            }
            *class = renumber[key];
        }
        count = usize::from(next);
        if count > MAX_CLASSES {
            return None;
        }
    }
    let mut first_of = vec![None; count];
    for (b, &class) in ascii.iter().enumerate() {
        let unit = Unit {
            byte: b as u8,
            encoded: false,
        };
        let c = match first_of[usize::from(class)] {
            Some(c) => c,
            None => *first_of[usize::from(class)].insert(new_class(unit, &mut representatives)?),
        };
        class_of[b] = c;
        // Raw bytes past ASCII are never read as such (`pct::unit_at` gives them as encoded).
        class_of[b + 128] = c;
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
