//! The matching program's instruction set: what each instruction consumes or asserts, the
//! [`Rank`] of what it consumes, and the [`FirstSet`] of each instruction, which lets an engine
//! skip paths that the next unit rules out; and [`Nfa`], a program as the automata read it. The
//! compiler writes programs in it ([`super::program`]); the engines read them ([`super::vm`],
//! [`super::dfa`]).

use super::trie::TailStart;
use crate::pct;
use crate::template::class::Class;
use crate::template::{Operator, VarNode};

/// Where an [`Inst::Dispatch`] table sends `unit`, if one of its edges takes it (the edges
/// are sorted by unit).
#[inline]
pub(super) fn dispatch(edges: &[(pct::Unit, u32)], unit: pct::Unit) -> Option<u32> {
    edges
        .binary_search_by_key(&(unit.byte, unit.encoded), |(u, _)| (u.byte, u.encoded))
        .ok()
        .map(|i| edges[i].1)
}

/// What consumed a byte, for precedence: higher is preferred.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(super) enum Rank {
    /// A variable that can cross `/`: `{+v}`, `{#v}`, `{/v*}`.
    Crossing = 0,
    /// A variable that cannot cross `/`, or a query parameter.
    Segment = 1,
    /// A template literal.
    Literal = 2,
}

impl Rank {
    pub(super) const ALL: [Rank; 3] = [Rank::Literal, Rank::Segment, Rank::Crossing];

    /// The rank of what an expression writes: its values, prefix and separators.
    pub(super) fn of(op: Operator, var: &VarNode) -> Self {
        if op.crosses(var.explode) {
            Self::Crossing
        } else {
            Self::Segment
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Inst {
    /// Consume a unit equal to this one.
    Unit {
        unit: pct::Unit,
        rank: Rank,
    },
    /// Consume a literal unit and continue where the table says (a trie node's literal edges).
    Dispatch(u32),
    /// Consume a unit of the class and stay here, or (preferred) continue at `exit`.
    Loop {
        class: Class,
        rank: Rank,
        exit: u32,
    },
    /// As `Loop`, admitting at most `max` characters since the last [`Inst::ResetCount`].
    Counted {
        class: Class,
        rank: Rank,
        max: u16,
        exit: u32,
    },
    /// Consume one unit of the class (counting it) and continue: a value that must not be empty.
    Step {
        class: Class,
        rank: Rank,
    },
    /// Start counting characters at zero.
    ResetCount,
    /// Continue at both, preferring the first.
    Split(u32, u32),
    Jump(u32),
    /// Record the current position in a slot.
    Save(u32),
    /// Fail unless the text since the position in this slot ends with a whole character: a
    /// value never ends inside the triplets of one UTF-8 character.
    Boundary(u32),
    /// Fail unless the current position starts a query tail: the end, or a byte the tail's
    /// expansion can start with.
    QueryStart(TailStart),
    /// The template with this key matches if the URI ends here.
    Match(u32),
}

impl Inst {
    /// The rank of what this instruction consumes, if it consumes.
    pub(super) fn rank(self) -> Option<Rank> {
        match self {
            Self::Unit { rank, .. }
            | Self::Loop { rank, .. }
            | Self::Counted { rank, .. }
            | Self::Step { rank, .. } => Some(rank),
            Self::Dispatch(_) => Some(Rank::Literal),
            _ => None,
        }
    }
}

/// The units that the first consuming instruction reachable from an instruction can take, and
/// whether a match is reachable without consuming anything. The VM skips a path whose first set
/// does not admit the next unit: it would die at the next step anyway.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub(super) struct FirstSet {
    ascii: u128,
    encoded: bool,
    end: bool,
}

impl FirstSet {
    pub(super) fn of_class(class: Class) -> Self {
        FirstSet {
            ascii: class.ascii(),
            encoded: true,
            end: false,
        }
    }

    /// The raw ASCII bytes a thread here can take, as bits.
    pub(super) fn ascii(&self) -> u128 {
        self.ascii
    }

    /// Whether a thread here can take `next` (`None`: the end of the URI).
    #[inline]
    pub(super) fn admits(&self, next: Option<pct::Unit>) -> bool {
        match next {
            None => self.end,
            Some(u) if u.encoded => self.encoded,
            Some(u) => u.byte < 128 && self.ascii >> u.byte & 1 == 1,
        }
    }

    fn unit(u: pct::Unit) -> Self {
        if u.encoded {
            Self {
                encoded: true,
                ..Self::default()
            }
        } else {
            Self {
                ascii: 1 << u.byte,
                ..Self::default()
            }
        }
    }

    fn union(self, other: Self) -> Self {
        Self {
            ascii: self.ascii | other.ascii,
            encoded: self.encoded | other.encoded,
            end: self.end | other.end,
        }
    }
}

/// Computes every instruction's [`FirstSet`]. Epsilon edges never form a cycle (every loop in
/// a program passes through a consuming instruction), so a memoized walk terminates.
pub(super) fn first_sets(insts: &[Inst], dispatch: &[Vec<(pct::Unit, u32)>]) -> Vec<FirstSet> {
    let mut memo: Vec<Option<FirstSet>> = vec![None; insts.len()];
    for pc in (0..insts.len()).rev() {
        first_set(pc, insts, dispatch, &mut memo);
    }
    memo.into_iter().map(Option::unwrap_or_default).collect()
}

fn first_set(
    pc: usize,
    insts: &[Inst],
    dispatch: &[Vec<(pct::Unit, u32)>],
    memo: &mut Vec<Option<FirstSet>>,
) -> FirstSet {
    if let Some(set) = memo[pc] {
        return set;
    }
    let follow =
        |to: u32, memo: &mut Vec<Option<FirstSet>>| first_set(to as usize, insts, dispatch, memo);
    let set = match insts[pc] {
        Inst::Unit { unit, .. } => FirstSet::unit(unit),
        Inst::Dispatch(table) => dispatch[table as usize]
            .iter()
            .fold(FirstSet::default(), |s, &(u, _)| s.union(FirstSet::unit(u))),
        Inst::Step { class, .. } => FirstSet::of_class(class),
        Inst::Loop { class, exit, .. } | Inst::Counted { class, exit, .. } => {
            FirstSet::of_class(class).union(follow(exit, memo))
        }
        Inst::Split(a, b) => follow(a, memo).union(follow(b, memo)),
        Inst::Jump(to) => follow(to, memo),
        Inst::ResetCount | Inst::Save(_) | Inst::Boundary(_) | Inst::QueryStart(_) => {
            follow(pc as u32 + 1, memo)
        }
        Inst::Match(_) => FirstSet {
            end: true,
            ..FirstSet::default()
        },
    };
    memo[pc] = Some(set);
    set
}

/// A program as the automata read it: its instructions, dispatch tables, first sets and
/// slots.
#[derive(Clone, Copy)]
pub(super) struct Nfa<'p> {
    pub(super) insts: &'p [Inst],
    pub(super) dispatch: &'p [Vec<(pct::Unit, u32)>],
    pub(super) first: &'p [FirstSet],
    pub(super) slots: usize,
}
