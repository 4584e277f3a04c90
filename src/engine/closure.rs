//! The epsilon closure: from the threads that stepped over a unit, every consuming
//! instruction their paths reach without consuming, in the order of preference, and the match
//! that ends the URI there. The VM runs it over a URI; the table's construction (`dfa`) runs
//! it over lists of threads, ahead of time. It is one closure, so that the table is the VM's
//! by construction.
//!
//! A path's slots are carried as the set of slots it saved, all at the position where the
//! closure runs; a character count is whatever the caller counts with ([`Count`]: the VM's
//! exact count, the construction's 0, 1 or many). What depends on the URI's bytes, and a
//! budget, the caller decides ([`Guide`]).

use super::inst::Nfa;
use super::inst::{Inst, dispatch};
use crate::pct::Unit;

/// The slots a path saved, a bit each: programs have at most [`MAX_SLOTS`] of them.
pub(super) type Sets = u128;

/// The most slots a program may have, so that a path's saved slots fit in [`Sets`].
pub(super) const MAX_SLOTS: usize = Sets::BITS as usize;

/// What a closure needs of a thread's character count, which a counting loop (a prefix
/// modifier) keeps.
pub(super) trait Count: Copy {
    /// The count after [`Inst::ResetCount`].
    const ZERO: Self;

    /// Whether a thread with this count has used fewer characters than one with `other`:
    /// of two threads reaching one counting loop, that one is kept. `None` if it cannot be
    /// told.
    fn fewer_than(self, other: Self) -> Option<bool>;

    /// Whether a thread with this count can be followed into a counting loop; `own` if it
    /// comes from that loop itself.
    fn enters_loop(self, own: bool) -> bool;
}

/// What the caller of a closure decides: what a value's boundary depends on, and how much
/// work the closure may do.
pub(super) trait Guide {
    /// Charges one instruction explored; false when the budget is spent.
    fn spend(&mut self) -> bool;

    /// Whether a value whose start is slot `slot` of the path from start `from`, which saved
    /// `sets` since, may end where the closure runs: not inside the triplets of one UTF-8
    /// character. `None` if that depends on more than the guide knows.
    fn at_boundary(&self, from: u32, sets: Sets, slot: u32) -> Option<bool>;

    /// Whether a match of template `key` counts: all do, unless a search leaves some out
    /// (a router's template whose repeated names disagreed, searched again without it).
    fn admits(&self, _key: u32) -> bool {
        true
    }
}

/// A thread a closure starts from: its instruction, its group, its count, and what the
/// caller calls it (its threads' `from`).
#[derive(Debug, Clone, Copy)]
pub(super) struct Start<C> {
    pub(super) pc: u32,
    pub(super) group: u32,
    pub(super) count: C,
    pub(super) from: u32,
}

/// A consuming thread a closure reached: its instruction, group and count, the start it came
/// from and the slots its path saved; `retired` once a thread with fewer characters took its
/// place in a counting loop (it dies at its next step).
#[derive(Debug, Clone, Copy)]
pub(super) struct Reached<C> {
    pub(super) pc: u32,
    pub(super) group: u32,
    pub(super) count: C,
    pub(super) from: u32,
    pub(super) sets: Sets,
    pub(super) retired: bool,
}

/// The match a closure found at the end of the URI: its group, its template's key, and the
/// start and slots of its path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Win {
    pub(super) group: u32,
    pub(super) key: u32,
    pub(super) from: u32,
    pub(super) sets: Sets,
}

/// Why a closure stopped short.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Stop {
    /// The budget is spent, or a count is one the caller cannot compare or follow.
    Untracked,
    /// A boundary depends on more than the guide knows.
    Boundary,
}

#[derive(Debug, Clone, Copy)]
enum Frame<C> {
    Explore(u32, Sets, C),
    /// Add the loop at this instruction as a consuming thread, after its exit was explored.
    AddLoop(u32, Sets, C),
}

/// The closure's own state, kept from one run to the next so that a run allocates nothing.
#[derive(Debug)]
pub(super) struct Closure<C> {
    /// For each instruction, the run that last visited it, so that starting a run clears
    /// nothing.
    visited: Vec<u32>,
    /// For each counting loop, the run that last added it as a consuming thread, and where
    /// in that run's list: the thread a second arrival is weighed against.
    occupant: Vec<(u32, u32)>,
    run: u32,
    stack: Vec<Frame<C>>,
}

impl<C> Default for Closure<C> {
    fn default() -> Self {
        Self {
            visited: Vec::new(),
            occupant: Vec::new(),
            run: 0,
            stack: Vec::new(),
        }
    }
}

impl<C: Count> Closure<C> {
    /// Makes room for a program of `insts` instructions.
    pub(super) fn prepare(&mut self, insts: usize) {
        if self.visited.len() < insts {
            self.visited.resize(insts, 0);
            self.occupant.resize(insts, (0, 0));
        }
    }

    /// Follows every epsilon path from each of `starts` in turn, with one visited set, for
    /// the lookahead `next` (`None`: the end of the URI). The consuming threads reached go to
    /// `out`, in the order of preference; the best match, at the end of the URI, is
    /// returned: the first reached, unless a later one in the same group has a lower key.
    ///
    /// A consuming thread that cannot take `next` would die at the next step, so it is not
    /// added at all, and a path whose first consuming instruction cannot take it is not
    /// followed.
    pub(super) fn run(
        &mut self,
        nfa: &Nfa<'_>,
        starts: impl IntoIterator<Item = Start<C>>,
        next: Option<Unit>,
        guide: &mut impl Guide,
        out: &mut Vec<Reached<C>>,
    ) -> Result<Option<Win>, Stop> {
        self.next_run();
        out.clear();
        let mut win = None;
        for start in starts {
            self.stack.push(Frame::Explore(start.pc, 0, start.count));
            if let Err(stop) = self.explore(nfa, start, next, guide, out, &mut win) {
                self.stack.clear();
                return Err(stop);
            }
        }
        Ok(win)
    }

    fn next_run(&mut self) {
        self.run = self.run.wrapping_add(1);
        if self.run == 0 {
            // Once in four billion runs: the marks of old runs could pass for this one's.
            self.visited.fill(0);
            self.occupant.fill((0, 0));
            self.run = 1;
        }
    }

    /// The paths of one start, from the frames on the stack.
    fn explore(
        &mut self,
        nfa: &Nfa<'_>,
        start: Start<C>,
        next: Option<Unit>,
        guide: &mut impl Guide,
        out: &mut Vec<Reached<C>>,
        win: &mut Option<Win>,
    ) -> Result<(), Stop> {
        let run = self.run;
        while let Some(frame) = self.stack.pop() {
            if !guide.spend() {
                return Err(Stop::Untracked);
            }
            let (pc, sets, count, add) = match frame {
                Frame::Explore(pc, sets, count) => (pc, sets, count, false),
                Frame::AddLoop(pc, sets, count) => (pc, sets, count, true),
            };
            let reached = Reached {
                pc,
                group: start.group,
                count,
                from: start.from,
                sets,
                retired: false,
            };
            let here = pc as usize;
            let inst = nfa.insts[here];
            let counting = matches!(inst, Inst::Counted { .. });
            if add {
                if counting {
                    self.occupant[here] = (run, out.len() as u32);
                }
                out.push(reached);
                continue;
            }
            if !nfa.first[here].admits(next) {
                continue;
            }
            if self.visited[here] == run {
                if counting {
                    self.keep_fewer_characters(out, reached)?;
                }
                continue;
            }
            self.visited[here] = run;
            if counting && !count.enters_loop(pc == start.pc) {
                return Err(Stop::Untracked);
            }
            let takes = next.is_some_and(|u| takes(nfa, inst, pc, u));
            match inst {
                Inst::Unit { .. } | Inst::Dispatch(_) | Inst::Step { .. } => {
                    if takes {
                        out.push(reached);
                    }
                }
                Inst::Loop { exit, .. } | Inst::Counted { exit, .. } => {
                    if takes {
                        self.stack.push(Frame::AddLoop(pc, sets, count));
                    }
                    self.stack.push(Frame::Explore(exit, sets, count));
                }
                Inst::ResetCount => self.stack.push(Frame::Explore(pc + 1, sets, C::ZERO)),
                Inst::Split(first, second) => {
                    self.stack.push(Frame::Explore(second, sets, count));
                    self.stack.push(Frame::Explore(first, sets, count));
                }
                Inst::Jump(to) => self.stack.push(Frame::Explore(to, sets, count)),
                Inst::Save(slot) => {
                    let sets = sets | 1 << slot;
                    self.stack.push(Frame::Explore(pc + 1, sets, count));
                }
                Inst::Boundary(slot) => match guide.at_boundary(start.from, sets, slot) {
                    Some(true) => self.stack.push(Frame::Explore(pc + 1, sets, count)),
                    Some(false) => {}
                    None => return Err(Stop::Boundary),
                },
                Inst::QueryStart(tail) => {
                    let raw = next.map(|u| if u.encoded { b'%' } else { u.byte });
                    if tail.admits(raw) {
                        self.stack.push(Frame::Explore(pc + 1, sets, count));
                    }
                }
                Inst::Match(key) if next.is_none() && guide.admits(key) => {
                    record_match(win, reached, key);
                }
                Inst::Match(_) => {}
            }
        }
        Ok(())
    }

    /// A second thread reaching a counting loop: if the loop's thread was added in this run
    /// and has used more characters, it is retired, and the newcomer goes where it arrives,
    /// so that its group is its own (the first may rank better, and its rank must not lend
    /// itself to the other's data).
    fn keep_fewer_characters(
        &mut self,
        out: &mut Vec<Reached<C>>,
        newcomer: Reached<C>,
    ) -> Result<(), Stop> {
        let (run, i) = self.occupant[newcomer.pc as usize];
        if run != self.run {
            return Ok(());
        }
        let thread = &mut out[i as usize];
        if newcomer
            .count
            .fewer_than(thread.count)
            .ok_or(Stop::Untracked)?
        {
            thread.retired = true;
            self.occupant[newcomer.pc as usize] = (self.run, out.len() as u32);
            out.push(newcomer);
        }
        Ok(())
    }
}

/// Whether a consuming instruction can take `unit`, whatever its count.
pub(super) fn takes(nfa: &Nfa<'_>, inst: Inst, pc: u32, unit: Unit) -> bool {
    advance(nfa, inst, pc, unit).is_some()
}

/// Where a consuming instruction goes after `unit`, whatever its count.
pub(super) fn advance(nfa: &Nfa<'_>, inst: Inst, pc: u32, unit: Unit) -> Option<u32> {
    match inst {
        Inst::Unit { unit: u, .. } => (u == unit).then_some(pc + 1),
        Inst::Dispatch(table) => dispatch(&nfa.dispatch[table as usize], unit),
        Inst::Loop { class, .. } | Inst::Counted { class, .. } => class.allows(unit).then_some(pc),
        Inst::Step { class, .. } => class.allows(unit).then_some(pc + 1),
        _ => None,
    }
}

/// The first match reached wins, unless a later one in the same group has a lower key.
fn record_match<C>(win: &mut Option<Win>, reached: Reached<C>, key: u32) {
    let better = match win {
        None => true,
        Some(w) => w.group == reached.group && key < w.key,
    };
    if better {
        *win = Some(Win {
            group: reached.group,
            key,
            from: reached.from,
            sets: reached.sets,
        });
    }
}
