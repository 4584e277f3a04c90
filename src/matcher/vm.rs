//! A Pike virtual machine that runs a [`Program`] over a URI in one left-to-right pass.
//!
//! All live threads advance together, one URI unit at a time; two threads that reach the same
//! instruction at the same position have the same future, so only the one with the higher
//! priority is kept. That bounds the work per unit by the program's size, which makes a match
//! linear in the URI's length whatever the template and the input: there is no backtracking to
//! blow up. Thread lists are ordered by priority, so the first thread to reach `Match` at an
//! accepting position is the answer (see [`super::program`] for what priority means).
//!
//! One exception to "higher priority wins": two threads inside the same counting loop (a prefix
//! modifier) differ in how many characters they have used. The one that has used fewer can do
//! everything the other can and more, so it is kept instead; the match found is still exact, and
//! no input can make the loop hold more than one thread.
//!
//! The thread lists live in a per-thread cache that grows to the largest program seen, so a
//! match allocates nothing once warm.

use std::cell::{Cell, RefCell};

use super::program::{Inst, Program};
use crate::pct::unit_at;

/// Slot value for "not recorded".
pub(crate) const UNSET: u32 = u32::MAX;

/// Runs `prog` over `uri`. `accept(p)` says whether the head may end at byte `p`; the first
/// (highest-priority) thread to reach `Match` at the earliest accepting position wins, and its
/// slots are written to `out` (`2 * prog.vars` entries). Returns the accepted end position.
pub(crate) fn run(
    prog: &Program,
    uri: &[u8],
    accept: &dyn Fn(usize) -> bool,
    out: &mut [u32],
) -> Option<usize> {
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
            accept,
            stack,
            scratch,
            count: 0,
            out,
            matched: None,
            steps: 0,
        };
        vm.scratch.fill(UNSET);
        vm.closure(cur, 0, 0);
        let mut pos = 0;
        while vm.matched.is_none() && pos < uri.len() && !cur.order.is_empty() {
            let (unit, len) = unit_at(uri, pos);
            let next_pos = pos + len;
            next.clear();
            vm.steps += cur.order.len() as u64;
            for i in 0..cur.order.len() {
                let pc = cur.order[i];
                vm.scratch.copy_from_slice(cur.slots(i));
                vm.count = cur.counts[i];
                let target = match prog.insts[pc as usize] {
                    Inst::Unit(u) if u == unit => Some(pc + 1),
                    Inst::Class(class) if class.allows(unit) => Some(pc + 1),
                    Inst::Loop { class, .. } if class.allows(unit) => Some(pc),
                    Inst::Counted { class, max, .. } if class.allows(unit) => {
                        vm.count += u16::from(unit.starts_char());
                        (vm.count <= max).then_some(pc)
                    }
                    _ => None,
                };
                if let Some(target) = target {
                    vm.closure(next, target, next_pos);
                    if vm.matched.is_some() {
                        break;
                    }
                }
            }
            std::mem::swap(cur, next);
            pos = next_pos;
        }
        STEPS.with(|s| s.set(vm.steps));
        vm.matched
    })
}

thread_local! {
    static CACHE: RefCell<Cache> = RefCell::new(Cache::default());
    /// Work done by this thread's last run: threads stepped plus instructions explored.
    static STEPS: Cell<u64> = const { Cell::new(0) };
}

/// The work done by the last match on this thread, in VM steps (threads advanced plus
/// instructions explored). Tests use it to check that matching is linear in the URI.
pub(crate) fn last_steps() -> u64 {
    STEPS.with(Cell::get)
}

#[derive(Default)]
struct Cache {
    cur: Threads,
    next: Threads,
    stack: Vec<Frame>,
    scratch: Vec<u32>,
}

impl Cache {
    fn prepare(&mut self, prog: &Program) {
        let slots = 2 * prog.vars;
        self.cur.prepare(prog.insts.len(), slots);
        self.next.prepare(prog.insts.len(), slots);
        self.scratch.resize(slots, UNSET);
        self.stack.clear();
    }
}

/// A priority-ordered list of threads, each at a distinct instruction.
#[derive(Default)]
struct Threads {
    /// Sparse set of the instructions visited in this step's closure.
    sparse: Vec<u32>,
    dense: Vec<u32>,
    /// Instructions of the consuming threads, highest priority first.
    order: Vec<u32>,
    /// For a consuming instruction, its index in `order`.
    index_of: Vec<u32>,
    counts: Vec<u16>,
    slots: Vec<u32>,
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

    fn push(&mut self, pc: u32, slots: &[u32], count: u16) {
        self.index_of[pc as usize] = self.order.len() as u32;
        self.order.push(pc);
        self.counts.push(count);
        self.slots.extend_from_slice(slots);
    }

    fn slots(&self, i: usize) -> &[u32] {
        &self.slots[i * self.width..(i + 1) * self.width]
    }
}

#[derive(Debug, Clone, Copy)]
enum Frame {
    Explore(u32),
    /// Add the loop at this instruction as a consuming thread, after its exit was explored.
    AddLoop(u32),
    RestoreSlot(u32, u32),
    RestoreCount(u16),
}

struct Vm<'a> {
    prog: &'a Program,
    uri: &'a [u8],
    accept: &'a dyn Fn(usize) -> bool,
    stack: &'a mut Vec<Frame>,
    scratch: &'a mut Vec<u32>,
    count: u16,
    out: &'a mut [u32],
    matched: Option<usize>,
    steps: u64,
}

impl Vm<'_> {
    fn at_boundary(&self, pos: usize) -> bool {
        pos >= self.uri.len() || unit_at(self.uri, pos).0.starts_char()
    }

    /// Follows every epsilon path from `start` at `pos` in priority order, adding the consuming
    /// threads reached to `list` and noting the first accepted match.
    fn closure(&mut self, list: &mut Threads, start: u32, pos: usize) {
        self.stack.push(Frame::Explore(start));
        while let Some(frame) = self.stack.pop() {
            let pc = match frame {
                Frame::Explore(pc) => pc,
                Frame::AddLoop(pc) => {
                    list.push(pc, self.scratch, self.count);
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
            self.steps += 1;
            if !list.visit(pc) {
                self.keep_fewer_characters(list, pc);
                continue;
            }
            match self.prog.insts[pc as usize] {
                Inst::Unit(_) | Inst::Class(_) => list.push(pc, self.scratch, self.count),
                Inst::Loop { exit, .. } | Inst::Counted { exit, .. } => {
                    self.stack.push(Frame::AddLoop(pc));
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
                    let old = std::mem::replace(&mut self.scratch[slot as usize], pos as u32);
                    self.stack.push(Frame::RestoreSlot(slot, old));
                    self.stack.push(Frame::Explore(pc + 1));
                }
                Inst::Boundary => {
                    if self.at_boundary(pos) {
                        self.stack.push(Frame::Explore(pc + 1));
                    }
                }
                Inst::Match => {
                    if self.matched.is_none() && (self.accept)(pos) {
                        self.matched = Some(pos);
                        self.out.copy_from_slice(self.scratch);
                        self.stack.clear();
                        return;
                    }
                }
            }
        }
    }

    /// A second thread reaching a counting loop replaces the first if it has used fewer
    /// characters (see the module docs).
    fn keep_fewer_characters(&mut self, list: &mut Threads, pc: u32) {
        if !matches!(self.prog.insts[pc as usize], Inst::Counted { .. }) {
            return;
        }
        let i = list.index_of[pc as usize] as usize;
        if list.order.get(i) == Some(&pc) && self.count < list.counts[i] {
            list.counts[i] = self.count;
            let w = list.width;
            list.slots[i * w..(i + 1) * w].copy_from_slice(self.scratch);
        }
    }
}
