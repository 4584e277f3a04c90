//! A Pike virtual machine that runs a [`Program`] over a URI in one left-to-right pass.
//!
//! All live threads advance together, one URI unit at a time. Two threads that reach the same
//! instruction at the same position have the same future, so only the preferred one is kept;
//! that bounds the work per unit by the number of live instructions, which makes a match linear
//! in the URI's length whatever the templates and the input: there is no backtracking to blow up.
//!
//! **Preference.** Threads are kept in *groups* of equal rank so far (what consumed each byte:
//! literal, segment variable, crossing variable), best group first; within a group, in the
//! program's priority order. Stepping over a unit splits each group three ways by the rank of
//! what consumed it, literal first. So the first group in which a thread reaches `Match` at the
//! end of the URI holds the best-ranked matches, and within it the highest-priority thread of
//! each template; among templates tied there, the lowest key wins.
//!
//! One exception to "the preferred thread wins": two threads inside the same counting loop (a
//! prefix modifier) differ in how many characters they have used. The one that has used fewer
//! can do everything the other can and more, so it is the one kept: the earlier thread is
//! retired, and the later one takes its own place in the order, with its own rank. Whether
//! the URI matches is still decided exactly, the match is ranked by what it consumed, and no
//! input can make a counting loop hold more than one live thread. The price is preference:
//! the retired thread may have ranked better (the Limits of `UriTemplate::match_uri` give an
//! example). Keeping both would be exact in preference too, but a loop of `{v:9999}` could
//! then hold ten thousand threads.
//!
//! The thread lists live in a per-thread cache that grows to the largest program seen, so a
//! match allocates nothing once warm.

#[cfg(test)]
use std::cell::Cell;
use std::cell::RefCell;

use super::inst::{dispatch, Inst, Rank};
use super::program::Program;
use crate::matching::Mark;
use crate::pct::{self, unit_at, Unit};

/// The character count of a thread retired from a counting loop: above every prefix
/// modifier's limit (at most 9999), so the thread dies at its next step.
const RETIRED: u16 = u16::MAX;

/// Runs `prog` over `uri`. On a match, writes the winning thread's slots to `out`
/// (`prog.slots` entries) and returns its template key.
pub(crate) fn run(prog: &Program, uri: &[u8], out: &mut [Mark]) -> Option<u32> {
    if prog.insts.is_empty() {
        return None;
    }
    CACHE.with(|cache| {
        let mut cache = cache.borrow_mut();
        cache.prepare(prog);
        let Cache {
            cur,
            next,
            stack,
            scratch,
        } = &mut *cache;
        let mut vm = Vm {
            prog,
            uri,
            stack,
            scratch,
            count: 0,
            out,
            best: None,
            #[cfg(test)]
            steps: 0,
        };
        vm.scratch.fill(Mark::NONE);
        vm.closure(cur, 0, 0, 0);
        let mut pos = 0;
        let mut swapped = false;
        while vm.best.is_none() && pos < uri.len() && !cur.order.is_empty() {
            let (unit, len) = unit_at(uri, pos);
            next.clear();
            vm.step(cur, next, unit, pos + len);
            std::mem::swap(cur, next);
            swapped = !swapped;
            pos += len;
        }
        // Give each list the same role in every run, so that once both have grown for a
        // URI, matching it again allocates nothing.
        if swapped {
            std::mem::swap(cur, next);
        }
        #[cfg(test)]
        STEPS.with(|s| s.set(s.get() + vm.steps));
        vm.best.map(|(_, key)| key)
    })
}

thread_local! {
    static CACHE: RefCell<Cache> = RefCell::new(Cache::default());
}

#[cfg(test)]
thread_local! {
    /// Work done by this thread's runs since the last [`take_steps`]: threads stepped plus
    /// instructions explored.
    static STEPS: Cell<u64> = const { Cell::new(0) };
}

/// The work done on this thread since the last call, in VM steps (threads advanced plus
/// instructions explored). Tests use it to check that matching is linear in the URI; release
/// builds do not count.
#[cfg(test)]
pub(crate) fn take_steps() -> u64 {
    STEPS.with(|s| s.replace(0))
}

#[derive(Default)]
struct Cache {
    cur: Threads,
    next: Threads,
    stack: Vec<Frame>,
    scratch: Vec<Mark>,
}

impl Cache {
    fn prepare(&mut self, prog: &Program) {
        self.cur.prepare(prog.insts.len(), prog.slots);
        self.next.prepare(prog.insts.len(), prog.slots);
        self.scratch.resize(prog.slots, Mark::NONE);
        self.stack.clear();
    }
}

/// A list of threads, each at a distinct instruction, best group first.
#[derive(Default)]
struct Threads {
    /// Sparse set of the instructions visited while building this list.
    sparse: Vec<u32>,
    dense: Vec<u32>,
    /// Instructions of the consuming threads, in preference order.
    order: Vec<u32>,
    groups: Vec<u32>,
    /// For a consuming instruction, its index in `order`.
    index_of: Vec<u32>,
    counts: Vec<u16>,
    slots: Vec<Mark>,
    width: usize,
}

impl Threads {
    fn prepare(&mut self, insts: usize, width: usize) {
        if self.sparse.len() < insts {
            self.sparse.resize(insts, 0);
            self.index_of.resize(insts, 0);
        }
        self.width = width;
        self.clear();
    }

    fn clear(&mut self) {
        self.dense.clear();
        self.order.clear();
        self.groups.clear();
        self.counts.clear();
        self.slots.clear();
    }

    /// Marks `pc` visited; false if it already was.
    fn visit(&mut self, pc: u32) -> bool {
        let i = self.sparse[pc as usize] as usize;
        if i < self.dense.len() && self.dense[i] == pc {
            return false;
        }
        self.sparse[pc as usize] = self.dense.len() as u32;
        self.dense.push(pc);
        true
    }

    fn push(&mut self, pc: u32, group: u32, slots: &[Mark], count: u16) {
        self.index_of[pc as usize] = self.order.len() as u32;
        self.order.push(pc);
        self.groups.push(group);
        self.counts.push(count);
        self.slots.extend_from_slice(slots);
    }

    fn slots(&self, i: usize) -> &[Mark] {
        &self.slots[i * self.width..(i + 1) * self.width]
    }

    /// The end of the group that starts at `i`.
    fn group_end(&self, i: usize) -> usize {
        let g = self.groups[i];
        i + self.groups[i..].iter().take_while(|&&x| x == g).count()
    }
}

#[derive(Debug, Clone, Copy)]
enum Frame {
    Explore(u32),
    /// Add the loop at this instruction as a consuming thread, after its exit was explored.
    AddLoop(u32),
    RestoreSlot(u32, Mark),
    RestoreCount(u16),
}

struct Vm<'a> {
    prog: &'a Program,
    uri: &'a [u8],
    stack: &'a mut Vec<Frame>,
    scratch: &'a mut Vec<Mark>,
    count: u16,
    out: &'a mut [Mark],
    /// The best match so far: its group and template key.
    best: Option<(u32, u32)>,
    #[cfg(test)]
    steps: u64,
}

impl Vm<'_> {
    /// Advances every thread of `cur` over `unit`, group by group and, within a group, literal
    /// consumers first, so that `next` comes out in preference order.
    fn step(&mut self, cur: &Threads, next: &mut Threads, unit: Unit, next_pos: usize) {
        #[cfg(test)]
        {
            self.steps += cur.order.len() as u64;
        }
        let mut group = 0;
        let mut i = 0;
        while i < cur.order.len() {
            let end = cur.group_end(i);
            for rank in Rank::ALL {
                let mut advanced = false;
                for k in i..end {
                    let pc = cur.order[k];
                    let inst = self.prog.insts[pc as usize];
                    if inst.rank() != Some(rank) {
                        continue;
                    }
                    self.count = cur.counts[k];
                    let Some(target) = self.advance(inst, pc, unit) else {
                        continue;
                    };
                    self.scratch.copy_from_slice(cur.slots(k));
                    self.closure(next, target, next_pos, group);
                    advanced = true;
                }
                if self.best.is_some() {
                    return;
                }
                group += u32::from(advanced);
            }
            i = end;
        }
    }

    /// Where a consuming instruction goes after `unit`, updating the character count.
    fn advance(&mut self, inst: Inst, pc: u32, unit: Unit) -> Option<u32> {
        match inst {
            Inst::Unit { unit: u, .. } => (u == unit).then_some(pc + 1),
            Inst::Dispatch(table) => dispatch(&self.prog.dispatch[table as usize], unit),
            Inst::Loop { class, .. } => class.allows(unit).then_some(pc),
            Inst::Counted { class, max, .. } => {
                self.count = self.count.saturating_add(u16::from(unit.starts_char()));
                (class.allows(unit) && self.count <= max).then_some(pc)
            }
            Inst::Step { class, .. } => {
                self.count = self.count.saturating_add(u16::from(unit.starts_char()));
                class.allows(unit).then_some(pc + 1)
            }
            _ => None,
        }
    }

    /// Whether a consuming instruction can take `unit` (ignoring character counts).
    fn accepts(&self, inst: Inst, unit: Unit) -> bool {
        match inst {
            Inst::Unit { unit: u, .. } => u == unit,
            Inst::Dispatch(table) => dispatch(&self.prog.dispatch[table as usize], unit).is_some(),
            Inst::Loop { class, .. } | Inst::Counted { class, .. } | Inst::Step { class, .. } => {
                class.allows(unit)
            }
            _ => false,
        }
    }

    /// Whether a value that started at `start` may end at `pos`: not inside one character's
    /// triplets. Where the next unit starts a character, a value cut short is not UTF-8, which
    /// the check after the match reports (rather than a silent non-match); where the template
    /// itself goes on with a continuation triplet (`{v}%AB`), a value that ends whole may end.
    fn at_boundary(&self, pos: usize, start: usize) -> bool {
        pos >= self.uri.len()
            || unit_at(self.uri, pos).0.starts_char()
            || pct::ends_char(&self.uri[start..pos])
    }

    /// Follows every epsilon path from `start` at `pos` in priority order, adding the consuming
    /// threads reached to `list` in `group`, and noting matches at the end of the URI.
    ///
    /// A consuming thread that cannot take the unit at `pos` would die at the next step, so it
    /// is not added at all: most of the time this leaves a single thread alive.
    fn closure(&mut self, list: &mut Threads, start: u32, pos: usize, group: u32) {
        let next = (pos < self.uri.len()).then(|| unit_at(self.uri, pos).0);
        self.stack.push(Frame::Explore(start));
        while let Some(frame) = self.stack.pop() {
            let pc = match frame {
                Frame::Explore(pc) => pc,
                Frame::AddLoop(pc) => {
                    list.push(pc, group, self.scratch, self.count);
                    continue;
                }
                Frame::RestoreSlot(slot, old) => {
                    self.scratch[slot as usize] = old;
                    continue;
                }
                Frame::RestoreCount(old) => {
                    self.count = old;
                    continue;
                }
            };
            #[cfg(test)]
            {
                self.steps += 1;
            }
            if !self.prog.first[pc as usize].admits(next) {
                continue;
            }
            if !list.visit(pc) {
                self.keep_fewer_characters(list, pc, group);
                continue;
            }
            let inst = self.prog.insts[pc as usize];
            match inst {
                Inst::Unit { .. } | Inst::Dispatch(_) | Inst::Step { .. } => {
                    if next.is_some_and(|u| self.accepts(inst, u)) {
                        list.push(pc, group, self.scratch, self.count);
                    }
                }
                Inst::Loop { exit, .. } | Inst::Counted { exit, .. } => {
                    if next.is_some_and(|u| self.accepts(inst, u)) {
                        self.stack.push(Frame::AddLoop(pc));
                    }
                    self.stack.push(Frame::Explore(exit));
                }
                Inst::ResetCount => {
                    self.stack.push(Frame::RestoreCount(self.count));
                    self.count = 0;
                    self.stack.push(Frame::Explore(pc + 1));
                }
                Inst::Split(first, second) => {
                    self.stack.push(Frame::Explore(second));
                    self.stack.push(Frame::Explore(first));
                }
                Inst::Jump(to) => self.stack.push(Frame::Explore(to)),
                Inst::Save(slot) => {
                    let old = std::mem::replace(&mut self.scratch[slot as usize], Mark::at(pos));
                    self.stack.push(Frame::RestoreSlot(slot, old));
                    self.stack.push(Frame::Explore(pc + 1));
                }
                Inst::Boundary(slot) => {
                    let start = self.scratch[slot as usize].get().unwrap_or(pos);
                    if self.at_boundary(pos, start) {
                        self.stack.push(Frame::Explore(pc + 1));
                    }
                }
                Inst::QueryStart(start) => {
                    if start.admits(self.uri.get(pos).copied()) {
                        self.stack.push(Frame::Explore(pc + 1));
                    }
                }
                Inst::Match(key) => self.record_match(pos, group, key),
            }
        }
    }

    fn record_match(&mut self, pos: usize, group: u32, key: u32) {
        if pos != self.uri.len() {
            return;
        }
        let better = match self.best {
            None => true,
            Some((g, k)) => g == group && key < k,
        };
        if better {
            self.best = Some((group, key));
            self.out.copy_from_slice(self.scratch);
        }
    }

    /// A second thread reaching a counting loop replaces the first if it has used fewer
    /// characters (see the module docs). It goes where it arrives, so that its group is its
    /// own: the first may rank better, and its rank must not lend itself to the other's data.
    fn keep_fewer_characters(&mut self, list: &mut Threads, pc: u32, group: u32) {
        if !matches!(self.prog.insts[pc as usize], Inst::Counted { .. }) {
            return;
        }
        let i = list.index_of[pc as usize] as usize;
        if list.order.get(i) == Some(&pc) && self.count < list.counts[i] {
            list.counts[i] = RETIRED;
            list.push(pc, group, self.scratch, self.count);
        }
    }
}
