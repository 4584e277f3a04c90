//! Where a match found each variable's text: [`Spans`], which the engine fills and
//! [`Captures`](super::Captures) reads, and the [`Mark`] of one end of a span.

use std::num::NonZeroU32;
use std::ops::Range;

/// The longest URI a match reads: a [`Mark`] holds an offset plus one in 32 bits.
pub(crate) const LONGEST_URI: usize = u32::MAX as usize - 1;

/// One end of a span in the URI, or none yet. It holds the offset plus one, so that "none"
/// takes no value of its own and a mark stays four bytes: the engine copies marks a thread at
/// a time, and the captures keep twenty inline.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub(crate) struct Mark(Option<NonZeroU32>);

impl Mark {
    pub(crate) const NONE: Self = Self(None);

    /// The mark of offset `pos`, which is at most [`LONGEST_URI`].
    #[inline]
    pub(crate) fn at(pos: usize) -> Self {
        debug_assert!(pos <= LONGEST_URI);
        Self(NonZeroU32::new(pos as u32 + 1))
    }

    /// The offset, if the mark is set.
    #[inline]
    pub(crate) fn get(self) -> Option<usize> {
        self.0.map(|p| p.get() as usize - 1)
    }

    #[inline]
    pub(crate) fn is_none(self) -> bool {
        self.0.is_none()
    }
}

/// Inline room for the spans of this many variable specs; more spill to the heap. Ten covers
/// nearly every real template and keeps `Captures` at 112 bytes, so that a router's `Routed`
/// fits in 128: callers move it with a few vector stores rather than a call to `memcpy`.
const INLINE_VARS: usize = 10;

/// The span of each variable spec of a template (or of the widest template of a router),
/// in template order: a pair of marks a variable, its start and its end.
#[derive(Clone)]
pub(crate) enum Spans {
    Inline {
        vars: u8,
        pairs: [[Mark; 2]; INLINE_VARS],
    },
    Heap(Vec<[Mark; 2]>),
}

impl Spans {
    /// Unset spans for `vars` variables.
    #[inline]
    pub(crate) fn new(vars: usize) -> Self {
        if vars <= INLINE_VARS {
            Self::Inline {
                vars: vars as u8,
                pairs: [[Mark::NONE; 2]; INLINE_VARS],
            }
        } else {
            Self::Heap(vec![[Mark::NONE; 2]; vars])
        }
    }

    /// The marks, a pair a variable: what a walk writes, one bounds check a span. Inline,
    /// all the room there is, past the last variable too: a walk writes only the pairs of its
    /// template's variables, and the lookup reads no length back.
    #[inline]
    pub(crate) fn pairs_mut(&mut self) -> &mut [[Mark; 2]] {
        match self {
            Self::Inline { pairs, .. } => pairs,
            Self::Heap(v) => v,
        }
    }

    /// The marks, two a variable: what the automaton writes.
    #[inline]
    pub(crate) fn marks_mut(&mut self) -> &mut [Mark] {
        let pairs = match self {
            Self::Inline { vars, pairs } => &mut pairs[..usize::from(*vars)],
            Self::Heap(v) => v,
        };
        pairs.as_flattened_mut()
    }

    #[inline]
    fn pairs(&self) -> &[[Mark; 2]] {
        match self {
            Self::Inline { vars, pairs } => &pairs[..usize::from(*vars)],
            Self::Heap(v) => v,
        }
    }

    /// The span of variable `var`, if both its ends are set.
    #[inline]
    pub(crate) fn get(&self, var: usize) -> Option<Range<usize>> {
        let [start, end] = self.pairs().get(var)?;
        Some(start.get()?..end.get()?)
    }

    /// Sets the span of variable `var`.
    #[inline]
    pub(crate) fn set(&mut self, var: usize, span: Range<usize>) {
        // `pairs_mut` lends the inline room past the last variable too.
        debug_assert!(var < self.pairs().len(), "variable {var} of the spans");
        self.pairs_mut()[var] = [Mark::at(span.start), Mark::at(span.end)];
    }

    /// The spans of the first `vars` variables, set or not.
    pub(crate) fn first(&self, vars: usize) -> impl Iterator<Item = Option<Range<usize>>> + '_ {
        (0..vars).map(|var| self.get(var))
    }
}
