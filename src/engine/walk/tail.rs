//! Query tails that the walk binds itself. Where a tail's names are short and plain, and its
//! template repeats and explodes nothing, the walk reads the tail's pairs once, as it meets
//! them, and ends with the template's captures whole: the alternative reads the tail three
//! times (the walk's run over it, the check of the URI's triplets, then the binding).
//!
//! It binds only what it can bind exactly as the binding after the walk would
//! (`matching::query`): every pair a declared name, its `=` and a value; no name twice; every
//! triplet of an inert byte or of a whole two-byte character, as a `{v}` run reads them. Any
//! other tail is left to be read as before, from its start, so that refusals and their
//! reasons stay the binding's.

use super::run::{read_triplet, run_to_stop};
use super::{Mark, QUERY_RUN, QUERY_VALUES, RunTable, Tail, Walker, load};
use crate::template::{PackedNames, Parsed};

/// What a walk needs to bind a query tail's pairs itself: the tail's names packed as the heads
/// of their pairs (each name and its `=`: see [`PackedNames::has_heads`]), in the tail's order,
/// the [`Seen`](super::Seen) bits of each head's bytes, and the key under which the walk finds
/// the template with its tail bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct TailHeads {
    words: [u64; 4],
    bits: [u8; 4],
    len: u8,
    bound: u32,
}

impl TailHeads {
    /// The heads of template `t`'s tail, to be found under key `bound`, if the walk can bind
    /// its pairs: its names are packed as heads, and it neither repeats a name (whose
    /// occurrences would have to agree) nor explodes a variable (whose map keys would be
    /// checked).
    fn of(t: &Parsed, bound: u32, query: &RunTable) -> Option<Self> {
        if t.has_repeats() || t.explodes() {
            return None;
        }
        let words = t.tail_words()?.heads()?;
        // Every `%` of a tail the walk binds is then in a value, where `value_run` reads its
        // triplet: which is why a bound tail's bits need no unread triplet.
        debug_assert!(
            (words.iter()).all(|w| !w.to_le_bytes().contains(&b'%')),
            "packed names hold no `%`"
        );
        let mut heads = Self {
            words: [0; 4],
            bits: [0; 4],
            len: u8::try_from(words.len()).ok()?,
            bound,
        };
        for (i, &word) in words.iter().enumerate() {
            *heads.words.get_mut(i)? = word;
            heads.bits[i] = (word.to_le_bytes().iter())
                .filter(|&&b| b != 0)
                .fold(0, |bits, &b| bits | query[usize::from(b)]);
        }
        Some(heads)
    }

    fn names(&self) -> PackedNames<'_> {
        PackedNames::of_heads(&self.words[..usize::from(self.len)])
    }
}

/// Whether walks bind tails: here, yes; in WebAssembly, `tail_none` stands in for this module.
pub(in crate::engine) const BINDS_TAILS: bool = true;

#[cfg(test)]
thread_local! {
    /// Whether walks built on this thread leave every tail to be read after them: what the
    /// tails they bind are tested against (see `tail_tests`).
    pub(super) static UNBOUND: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

impl Walker {
    /// Lets the walk bind the query tails of those of `templates` (key `i` for the `i`-th)
    /// whose pairs it can: each is then found under key `templates.len() + i`, with its tail
    /// bound (see [`Walk::Found`](super::Walk::Found)).
    pub(in crate::engine) fn bind_tails(&mut self, templates: &[&Parsed]) {
        #[cfg(test)]
        if UNBOUND.get() {
            return;
        }
        let count = templates.len() as u32;
        for exits in &mut self.exits {
            let Some(tail) = exits.tail.as_mut() else {
                continue;
            };
            let t = templates[tail.key as usize];
            if let Some(heads) = TailHeads::of(t, count + tail.key, &self.runs[QUERY_RUN as usize])
            {
                tail.heads = Some(self.tails.len() as u32);
                self.tails.push(heads);
            }
        }
    }

    /// Binds `tail`, which starts at `pos` (its `?` or `&`) and runs to the end of the URI, to
    /// its variables' spans, where the walk can (see the module): the key under which its
    /// template is found so, and the [`Seen`](super::Seen) bits of the tail's bytes, which are
    /// those its run would have seen but that its triplets are read. `None` where the walk
    /// cannot: the tail's spans are left unset, for the tail to be read as before.
    ///
    /// It reads at most a word past where the tail's run would stop (a pair's first eight
    /// bytes), so that reading the tail again costs the walk no more than twice its run and
    /// a word.
    #[inline(never)]
    pub(super) fn bind_tail(
        &self,
        tail: Tail,
        uri: &[u8],
        pos: usize,
        spans: &mut [[Mark; 2]],
    ) -> Option<(u32, u8)> {
        let heads = self.tails.get(tail.heads? as usize)?;
        let first = tail.var as usize;
        let vars = spans.get_mut(first..first + usize::from(heads.len))?;
        // A walk that went another way first may have left marks here.
        vars.fill([Mark::NONE; 2]);
        let bits = self.read_pairs(heads, uri, pos, vars);
        if bits.is_none() {
            vars.fill([Mark::NONE; 2]);
        }
        Some((heads.bound, bits?))
    }

    /// At the end of the URI, a tail with no pairs: the key under which its template is
    /// found, where the walk binds its tail (its spans unset), else `None`.
    pub(super) fn bind_empty_tail(&self, tail: Tail, spans: &mut [[Mark; 2]]) -> Option<u32> {
        let heads = self.tails.get(tail.heads? as usize)?;
        let first = tail.var as usize;
        let vars = spans.get_mut(first..first + usize::from(heads.len))?;
        vars.fill([Mark::NONE; 2]);
        Some(heads.bound)
    }

    /// [`bind_tail`](Self::bind_tail)'s reading of the pairs, into `vars`, the tail's spans.
    fn read_pairs(
        &self,
        heads: &TailHeads,
        uri: &[u8],
        pos: usize,
        vars: &mut [[Mark; 2]],
    ) -> Option<u8> {
        let query = &self.runs[QUERY_RUN as usize];
        let values = &self.runs[QUERY_VALUES as usize];
        let mut seen = query[usize::from(*uri.get(pos)?)];
        let mut at = pos + 1;
        while at < uri.len() {
            let (i, len) = heads.names().head_of(load(uri, at))?;
            let start = at + len + 1;
            let (end, bits) = value_run(values, uri, start)?;
            let span = vars.get_mut(i)?;
            if !span[0].is_none() {
                // A second pair of the name, which the binding refuses.
                return None;
            }
            *span = [Mark::at(start), Mark::at(end)];
            seen |= heads.bits[i] | bits;
            if end == uri.len() {
                break;
            }
            seen |= query[usize::from(b'&')];
            at = end + 1;
        }
        Some(seen)
    }
}

/// The run of a query value from `at`: where it ends (at the `&` after it, or at the end of
/// the URI) and the bits of its bytes, each triplet read whole. `None` where another byte
/// stops it (a `#`), or at a triplet a `{v}` run would leave unread.
#[inline]
fn value_run(values: &RunTable, uri: &[u8], mut at: usize) -> Option<(usize, u8)> {
    let mut seen = 0;
    loop {
        let (stop, bits) = run_to_stop(values, uri, at);
        seen |= bits;
        match uri.get(stop) {
            None | Some(b'&') => return Some((stop, seen)),
            Some(b'%') => match read_triplet(uri, stop) {
                (next, 0) => at = next,
                _ => return None,
            },
            Some(_) => return None,
        }
    }
}
