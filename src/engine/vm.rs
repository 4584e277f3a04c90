//! A Pike virtual machine that runs a [`Program`] over a URI in one left-to-right pass.
//!
//! All live threads advance together, one URI unit at a time. Two threads that reach the same
//! instruction at the same position have the same future, so only the preferred one is kept;
//! that bounds the work per unit by the number of live instructions, which makes a match linear
//! in the URI's length whatever the templates and the input: there is no backtracking to blow up.
//! Where each thread goes without consuming is the [closure](super::closure), which the
//! table's construction runs too.
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

use super::closure::{self, Closure, Count, Guide, Reached, Sets, Start, Win};
use super::inst::Nfa;
use super::inst::{Inst, Rank};
use super::program::Program;
use crate::matching::Mark;
use crate::pct::{self, Unit, unit_at};

/// Runs `prog` over `uri`. On a match, writes the winning thread's slots to `out`
/// (`prog.slots` entries) and returns its template key.
#[inline(never)]
pub(super) fn run(prog: &Program, uri: &[u8], out: &mut [Mark]) -> Option<u32> {
    run_without(prog, uri, out, &[])
}

/// [`run`], where a match of a template whose key is in `left_out` does not count.
pub(super) fn run_without(
    prog: &Program,
    uri: &[u8],
    out: &mut [Mark],
    left_out: &[u32],
) -> Option<u32> {
    if prog.insts.is_empty() {
        return None;
    }
    CACHE.with(|cache| {
        let mut cache = cache.borrow_mut();
        let Cache {
            cur,
            next,
            closure,
            reached,
            stepped,
        } = &mut *cache;
        let nfa = prog.nfa();
        closure.prepare(nfa.insts.len());
        // The start is a thread before the URI with every slot unset, which the first
        // closure leaves from without consuming.
        cur.reset(nfa.slots);
        next.reset(nfa.slots);
        cur.push(0, 0, Count::ZERO, &[], 0, 0);
        let mut vm = Vm {
            nfa,
            uri,
            left_out,
            #[cfg(test)]
            steps: 0,
        };
        let first = [Start {
            pc: 0,
            group: 0,
            count: Count::ZERO,
            from: 0,
        }];
        let mut win = vm.close(closure, cur, next, reached, first, 0);
        std::mem::swap(cur, next);
        let mut pos = 0;
        while win.is_none() && pos < uri.len() && !cur.is_empty() {
            let (unit, len) = unit_at(uri, pos);
            vm.step(cur, unit, stepped);
            pos += len;
            win = vm.close(closure, cur, next, reached, stepped.iter().copied(), pos);
            std::mem::swap(cur, next);
        }
        #[cfg(test)]
        STEPS.with(|s| s.set(s.get() + vm.steps));
        let win = win?;
        // The winner came from a thread of the list before the last swap.
        next.write(win.from, win.sets, pos, out);
        Some(win.key)
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
pub(super) fn take_steps() -> u64 {
    STEPS.with(|s| s.replace(0))
}

/// What a run keeps from one match to the next, so that a warm match allocates nothing.
#[derive(Default)]
struct Cache {
    cur: Threads,
    next: Threads,
    closure: Closure<u16>,
    reached: Vec<Reached<u16>>,
    stepped: Vec<Start<u16>>,
}

/// A character count: the VM counts exactly.
impl Count for u16 {
    const ZERO: Self = 0;

    fn fewer_than(self, other: Self) -> Option<bool> {
        Some(self < other)
    }

    fn enters_loop(self, _: bool) -> bool {
        true
    }
}

/// A list of threads, best group first: each one's instruction, group, count and slots.
#[derive(Default)]
struct Threads {
    pcs: Vec<u32>,
    groups: Vec<u32>,
    counts: Vec<u16>,
    slots: Vec<Mark>,
    width: usize,
}

impl Threads {
    fn reset(&mut self, width: usize) {
        self.width = width;
        self.clear();
    }

    fn clear(&mut self) {
        self.pcs.clear();
        self.groups.clear();
        self.counts.clear();
        self.slots.clear();
    }

    fn is_empty(&self) -> bool {
        self.pcs.is_empty()
    }

    /// Adds a thread whose slots are `base` (unset where it is empty) with `sets` set to
    /// `pos`.
    fn push(&mut self, pc: u32, group: u32, count: u16, base: &[Mark], sets: Sets, pos: usize) {
        self.pcs.push(pc);
        self.groups.push(group);
        self.counts.push(count);
        let at = self.slots.len();
        self.slots.resize(at + self.width, Mark::NONE);
        let slots = &mut self.slots[at..];
        if !base.is_empty() {
            slots.copy_from_slice(base);
        }
        set(slots, sets, pos);
    }

    fn slots(&self, i: usize) -> &[Mark] {
        &self.slots[i * self.width..(i + 1) * self.width]
    }

    /// Writes the slots of thread `from` with `sets` set to `pos` to `out`.
    fn write(&self, from: u32, sets: Sets, pos: usize, out: &mut [Mark]) {
        out[..self.width].copy_from_slice(self.slots(from as usize));
        set(out, sets, pos);
    }

    /// The end of the group that starts at `i`.
    fn group_end(&self, i: usize) -> usize {
        let g = self.groups[i];
        i + self.groups[i..].iter().take_while(|&&x| x == g).count()
    }
}

/// Sets the slots of `sets` to `pos`.
fn set(slots: &mut [Mark], mut sets: Sets, pos: usize) {
    while sets != 0 {
        slots[sets.trailing_zeros() as usize] = Mark::at(pos);
        sets &= sets - 1;
    }
}

struct Vm<'a> {
    nfa: Nfa<'a>,
    uri: &'a [u8],
    /// The template keys whose matches do not count.
    left_out: &'a [u32],
    #[cfg(test)]
    steps: u64,
}

impl Vm<'_> {
    /// Advances every thread of `cur` over `unit`, group by group and, within a group, literal
    /// consumers first, into `stepped`: where each goes, in its new group, in preference order.
    fn step(&mut self, cur: &Threads, unit: Unit, stepped: &mut Vec<Start<u16>>) {
        #[cfg(test)]
        {
            self.steps += cur.pcs.len() as u64;
        }
        stepped.clear();
        let mut group = 0;
        let mut i = 0;
        while i < cur.pcs.len() {
            let end = cur.group_end(i);
            for rank in Rank::ALL {
                let mut advanced = false;
                for k in i..end {
                    let pc = cur.pcs[k];
                    let inst = self.nfa.insts[pc as usize];
                    if inst.rank() != Some(rank) {
                        continue;
                    }
                    let Some((target, count)) = self.advance(inst, pc, unit, cur.counts[k]) else {
                        continue;
                    };
                    stepped.push(Start {
                        pc: target,
                        group,
                        count,
                        from: k as u32,
                    });
                    advanced = true;
                }
                group += u32::from(advanced);
            }
            i = end;
        }
    }

    /// Where a consuming instruction goes after `unit`, with its character count.
    fn advance(&self, inst: Inst, pc: u32, unit: Unit, count: u16) -> Option<(u32, u16)> {
        let target = closure::advance(&self.nfa, inst, pc, unit)?;
        let count = match inst {
            Inst::Counted { max, .. } => {
                let count = count.saturating_add(u16::from(unit.starts_char()));
                (count <= max).then_some(count)?
            }
            Inst::Step { .. } => count.saturating_add(u16::from(unit.starts_char())),
            _ => count,
        };
        Some((target, count))
    }

    /// The closure of `starts`, threads of `cur`, at `pos`: the new list goes to `next`, in
    /// groups numbered as the starts', and the match at the end of the URI, if any, is
    /// returned. Retired threads are left out: they die at their next step.
    fn close(
        &mut self,
        closure: &mut Closure<u16>,
        cur: &Threads,
        next: &mut Threads,
        reached: &mut Vec<Reached<u16>>,
        starts: impl IntoIterator<Item = Start<u16>>,
        pos: usize,
    ) -> Option<Win> {
        let lookahead = (pos < self.uri.len()).then(|| unit_at(self.uri, pos).0);
        let mut guide = VmGuide {
            cur,
            uri: self.uri,
            pos,
            explored: 0,
            left_out: self.left_out,
        };
        // The VM counts exactly and reads every boundary: its closure never stops short.
        let run = closure.run(&self.nfa, starts, lookahead, &mut guide, reached);
        debug_assert!(run.is_ok(), "the VM's closure stopped short");
        let win = run.unwrap_or(None);
        #[cfg(test)]
        {
            self.steps += guide.explored;
        }
        next.clear();
        for r in reached.iter().filter(|r| !r.retired) {
            let base = cur.slots(r.from as usize);
            next.push(r.pc, r.group, r.count, base, r.sets, pos);
        }
        win
    }
}

/// What the VM's closure reads of the URI: the slots of the threads it starts from, for the
/// boundaries of values.
struct VmGuide<'a> {
    cur: &'a Threads,
    uri: &'a [u8],
    pos: usize,
    explored: u64,
    /// The keys whose matches do not count.
    left_out: &'a [u32],
}

impl Guide for VmGuide<'_> {
    fn spend(&mut self) -> bool {
        self.explored += 1;
        true
    }

    /// Whether a value may end at the closure's position: not inside one character's
    /// triplets. Where the next unit starts a character, a value cut short is not UTF-8,
    /// which the check after the match reports (rather than a silent non-match); where the
    /// template itself goes on with a continuation triplet (`{v}%AB`), a value that ends
    /// whole may end.
    fn at_boundary(&self, from: u32, sets: Sets, slot: u32) -> Option<bool> {
        let (uri, pos) = (self.uri, self.pos);
        if pos >= uri.len() || unit_at(uri, pos).0.starts_char() || sets >> slot & 1 == 1 {
            return Some(true);
        }
        let start = self.cur.slots(from as usize)[slot as usize]
            .get()
            .unwrap_or(pos);
        Some(pct::ends_char(&uri[start..pos]))
    }

    fn admits(&self, key: u32) -> bool {
        !self.left_out.contains(&key)
    }
}
