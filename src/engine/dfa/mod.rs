//! The VM's choices made once: a table-driven engine for the templates the walk does not serve.
//!
//! What the Pike VM ([`super::vm`]) does at a unit depends on the unit and on its list of
//! threads (their instructions, groups and order), never on the slots they carry: which
//! threads the epsilon closure reaches, which of them advance, into which groups, where each
//! new thread's slots come from and which of them its path sets to the current position. The
//! slots are only copied and written. So the VM can run ahead of time over lists of threads
//! instead of over a URI: each distinct list is a *state*, each class of units the program
//! cannot tell apart a column, and each transition keeps, for every thread of the new list,
//! the old thread its slots come from and the slots it sets (a DFA with slot moves, as in a
//! tagged DFA). At match time what is left is a table lookup per unit; the slots are read
//! back from the few transitions that move them (see [`Dfa::run`]).
//!
//! **Exact by construction.** The table is the VM's own closure and step, run on every list
//! it can reach, with the same order of exploration, the same pruning and the same choice of
//! match; the tests compare the two on random templates and URIs.
//!
//! **Costs.** Per unit, one byte load, one class load and one transition load, and a note
//! where the transition moves slots; then, for a match, one step back per note. The text
//! every match starts with costs one word's comparison ([`lead`]). Linear in
//! the URI whatever the template, and the same however many threads the VM would hold
//! (`{+a}/{+b}/{+c}/end` over slashes costs a hundredth of what the VM spends on it). The
//! table is built when the template is first matched, within a budget of
//! epsilon steps, and takes 4 bytes a state and class.
//!
//! **Counts.** A prefix modifier's loop counts characters, and a count is data no state can
//! hold in full. But the VM asks only two things of one: whether a thread has fewer
//! characters than another at the same loop (it keeps that one), and whether the loop may
//! take one more. So a state knows a count as 0, 1 or *many*; one loop never holds two
//! threads with many; and the run keeps, for each loop with many, a register of the number
//! of characters at which it reaches its limit. A transition that depends on a limit is a
//! [`COUNTING`] one: the run compares the characters read with each register concerned
//! (at most [`MAX_TESTS`]) and takes the branch the answers name, which may set registers in
//! turn. Characters are counted only in tables that have counting loops.
//!
//! **Refused**, so that the VM serves them: more than 64 slots or [`MAX_COUNTERS`] counting
//! loops, programs whose lists of threads take more than [`MAX_STATES`] shapes, and counts
//! the construction cannot compare (which the compiler's programs never produce). At match
//! time, where a value could end right before an encoded continuation byte (`%A9`, or the
//! second byte of a raw `é`), whether it ends a character there depends on its bytes: the
//! engine hands that URI to the VM.

mod build;
#[cfg_attr(target_arch = "wasm32", path = "lead_none.rs")]
mod lead;
#[cfg(test)]
mod tests;

use std::cell::RefCell;

use super::inst::Nfa;
use crate::matching::Mark;
use crate::pct::unit_at;
pub(super) use lead::LEADS;
use lead::Lead;

/// The most states a table may have.
pub(super) const MAX_STATES: usize = 512;
/// The most threads one state may hold (the VM's list at one position).
pub(super) const MAX_THREADS: usize = 32;
/// The most classes of units a program may tell apart.
const MAX_CLASSES: usize = 64;

/// A program's table: see the module documentation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Dfa {
    /// The class of each raw byte (`%` aside: it starts a triplet).
    raw: [u8; 256],
    /// The class of each byte a triplet encodes.
    triplet: [u8; 256],
    /// Columns per state: one per class.
    stride: usize,
    /// The transitions of state `s`, one per class, from `s * stride` on.
    transitions: Vec<Transition>,
    /// What each state gives at the end of the URI.
    ends: Vec<Option<Win>>,
    /// Where the moves of each set start in [`moves`](Self::moves), by
    /// [`Transition::moves`]: one move per thread of the new state, in order.
    move_sets: Vec<u32>,
    moves: Vec<Move>,
    /// Slots per thread.
    width: usize,
    /// A bit per class: whether its units start a character (what a count counts).
    starts: u64,
    /// For each counting loop's register, what to add to the characters read when its count
    /// becomes two (see [`Branch::sets`]): its limit less two.
    offsets: Vec<u32>,
    /// The [`COUNTING`] transitions, by [`Transition::moves`].
    counting: Vec<Counting>,
    /// The ways each counting transition goes, from [`Counting::first`] on.
    branches: Vec<Branch>,
    /// The text every match starts with, which a run reads at once.
    lead: Lead,
}

/// A transition that depends on whether counting loops are at their limits: the registers
/// of the loops (at most [`MAX_TESTS`]), each giving a bit of the branch's number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Counting {
    registers: [u8; MAX_TESTS],
    tests: u8,
    first: u32,
}

/// One way a counting transition goes: the transition it becomes, and the registers whose
/// loop's count becomes two here (a bit per register). A register holds the number of
/// characters read by which its loop's count reaches the limit; the run sets it to the
/// characters read so far plus the loop's [offset](Dfa::offsets).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Branch {
    to: Transition,
    sets: u32,
}

/// Where a transition leads: where its state's transitions start (its number times the
/// stride, so that the run multiplies nothing), or [`DEAD`] or [`DYNAMIC`]. In 4 bytes, so
/// that a state's row of transitions shares few cache lines.
///
/// Packed in one word, `next` in its low half and the index of its set of moves in
/// [`Dfa::move_sets`] in its high half (0 is the set that moves nothing), so that one
/// comparison tells the common transition: to a state, moving nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Transition(u32);

impl Transition {
    const fn new(next: u16, moves: u16) -> Self {
        Self((moves as u32) << 16 | next as u32)
    }

    #[inline]
    fn next(self) -> u16 {
        self.0 as u16
    }

    #[inline]
    fn moves(self) -> u16 {
        (self.0 >> 16) as u16
    }

    /// Whether it leads to a state and moves no slot.
    #[inline]
    fn is_quiet(self) -> bool {
        self.0 < u32::from(COUNTING)
    }
}

/// No thread survives: the URI does not match.
const DEAD: u16 = u16::MAX;
/// The VM must decide (see the module documentation).
const DYNAMIC: u16 = u16::MAX - 1;
/// Where to go depends on counts: the run asks the registers ([`Counting`]).
const COUNTING: u16 = u16::MAX - 2;

// Every state's row starts below the sentinels.
const _: () = assert!(MAX_STATES * MAX_CLASSES <= COUNTING as usize);

/// The most counting loops (prefix modifiers) a program may have: one register each.
const MAX_COUNTERS: usize = 32;
/// The most loops whose limits one transition may depend on.
const MAX_TESTS: usize = 4;

/// Where a thread's slots come from: the old thread `from`, with the slots of `sets` (a bit
/// per slot) set to the current position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Move {
    from: u32,
    sets: u64,
}

/// The match a state gives at the end of the URI: its template's key and its slots.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Win {
    key: u32,
    slots: Move,
}

/// What a run found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Run {
    Match(u32),
    NoMatch,
    /// The VM must decide.
    Dynamic,
}

impl Dfa {
    /// The table of `nfa`, or `None` if the program is refused (see the module documentation).
    pub(super) fn build(nfa: &Nfa<'_>) -> Option<Self> {
        if nfa.insts.is_empty() || nfa.slots > 64 {
            return None;
        }
        let mut dfa = build::Builder::new(nfa)?.run()?;
        dfa.lead = Lead::of(&dfa);
        Some(dfa)
    }

    /// How many of the first bytes of `uri` the table's [lead](lead) covers: a run past
    /// them reads on from where they lead, and they need no validation.
    #[inline]
    pub(super) fn led(&self, uri: &[u8]) -> usize {
        self.lead.covers(uri)
    }

    /// Runs the table over a validated `uri`, past its first `led` bytes, which its lead
    /// covers ([`led`](Self::led), or 0); on a match, writes the winning thread's slots to
    /// `out`, as the VM does.
    ///
    /// Two passes. The first follows the transitions, noting each one that moves slots; it
    /// decides whether the URI matches, and which thread of the last state wins. The second
    /// goes back over the notes from that thread: each says which thread of the state before
    /// the winner came from and which slots its path set there, and the latest position that
    /// set a slot is its value. No slot array is copied, so a unit costs the same however many
    /// threads the VM would hold, and a value running on costs one table load a byte.
    pub(super) fn run(&self, uri: &[u8], led: usize, out: &mut [Mark]) -> Run {
        if uri.len() > MAX_NOTED {
            return Run::Dynamic;
        }
        NOTES.with(|notes| {
            let mut notes = notes.borrow_mut();
            notes.clear();
            let last = if self.counting.is_empty() {
                self.forward::<false>(uri, led, &mut notes)
            } else {
                self.forward::<true>(uri, led, &mut notes)
            };
            #[cfg(test)]
            WORK.with(|w| w.set(w.get() + uri.len() as u64));
            let last = match last {
                Ok(state) => state,
                Err(run) => return run,
            };
            let Some(win) = self.ends[last] else {
                return Run::NoMatch;
            };
            self.backward(&notes, win.slots, uri.len(), &mut out[..self.width]);
            #[cfg(test)]
            WORK.with(|w| w.set(w.get() + (uri.len() + notes.len()) as u64));
            Run::Match(win.key)
        })
    }

    /// The first pass: the last state, with a note of each transition that moves slots and
    /// where; or how the run ends early. `COUNTS` for a table with counting loops, whose
    /// run counts characters and keeps a register per loop. Out of line: inlined into `run`,
    /// its loop kept fewer values in registers (2 more instructions a byte, by callgrind).
    #[inline(never)]
    fn forward<const COUNTS: bool>(
        &self,
        uri: &[u8],
        led: usize,
        notes: &mut Vec<(u32, u16)>,
    ) -> Result<usize, Run> {
        let (mut row, mut pos, mut chars) = self.lead.start(led);
        let mut limits = [0u32; MAX_COUNTERS];
        while let Some(&byte) = uri.get(pos) {
            let mut class = self.raw[usize::from(byte)];
            let mut next = pos + 1;
            if byte == b'%' {
                let (unit, len) = unit_at(uri, pos);
                class = self.triplet[usize::from(unit.byte)];
                next = pos + len;
            }
            let mut t = self.transitions[row + usize::from(class)];
            if COUNTS {
                chars += (self.starts >> class) as u32 & 1;
            }
            // With counting loops, most transitions count: no quick test for them.
            if COUNTS || !t.is_quiet() {
                if COUNTS && t.next() == COUNTING {
                    t = self.count(t.moves(), chars, &mut limits);
                }
                if t.next() >= COUNTING {
                    return Err(if t.next() == DEAD {
                        Run::NoMatch
                    } else {
                        Run::Dynamic
                    });
                }
                // Without counting, a transition to a state that is not quiet moves slots.
                if !COUNTS || t.moves() != 0 {
                    notes.push((pos as u32, t.moves()));
                }
            }
            row = usize::from(t.next());
            pos = next;
        }
        Ok(row / self.stride)
    }

    /// A counting transition taken after `chars` characters: the branch the registers
    /// choose (a loop is at its limit once the characters read pass its register), with the
    /// registers it sets.
    #[inline]
    fn count(&self, number: u16, chars: u32, limits: &mut [u32; MAX_COUNTERS]) -> Transition {
        let counting = self.counting[usize::from(number)];
        let mut branch = 0;
        for (k, &register) in counting.registers[..usize::from(counting.tests)]
            .iter()
            .enumerate()
        {
            branch |= usize::from(chars > limits[usize::from(register)]) << k;
        }
        let Branch { to, mut sets } = self.branches[counting.first as usize + branch];
        while sets != 0 {
            let register = sets.trailing_zeros() as usize;
            limits[register] = chars + self.offsets[register];
            sets &= sets - 1;
        }
        to
    }

    /// The second pass: the winner's slots, from `last` (the move that ends the URI, at
    /// `len`) back to the start.
    #[inline]
    fn backward(&self, notes: &[(u32, u16)], last: Move, len: usize, out: &mut [Mark]) {
        out.fill(Mark::NONE);
        set_unset(out, last.sets, len);
        let mut thread = last.from as usize;
        for &(pos, set) in notes.iter().rev() {
            let m = self.moves[self.move_sets[usize::from(set)] as usize + thread];
            set_unset(out, m.sets, pos as usize);
            thread = m.from as usize;
        }
    }
}

/// The longest URI the table runs over: its notes may take 8 bytes a URI byte. Longer ones
/// (past a raised length limit) go to the VM.
const MAX_NOTED: usize = 1 << 20;

thread_local! {
    /// The first pass's notes, grown to the most a URI has needed, so that a warm match
    /// allocates nothing.
    static NOTES: RefCell<Vec<(u32, u16)>> = const { RefCell::new(Vec::new()) };
}

#[cfg(test)]
thread_local! {
    /// Work done by this thread's runs since the last [`take_work`]: bytes read forward
    /// (counted whole, an upper bound) and notes read back.
    static WORK: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// The work done on this thread since the last call: what the adversarial tests count, as
/// they count the VM's steps.
#[cfg(test)]
pub(super) fn take_work() -> u64 {
    WORK.with(|w| w.replace(0))
}

/// Sets the slots of `sets` that are still unset to `pos`: going back, the first position
/// met is the latest, the one the VM's slot holds.
#[inline]
fn set_unset(slots: &mut [Mark], mut sets: u64, pos: usize) {
    while sets != 0 {
        let slot = &mut slots[sets.trailing_zeros() as usize];
        if slot.is_none() {
            *slot = Mark::at(pos);
        }
        sets &= sets - 1;
    }
}
