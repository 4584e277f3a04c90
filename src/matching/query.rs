//! Query tails: trailing `{?..}{&..}` expressions read as unordered `name=value` pairs.
//!
//! RFC 6570 would have a query expansion's parameters come in the template's order, all of them
//! or none; URIs written by people and other programs rarely do. So when a template ends with
//! query expressions, the URI's query (from the `?` or `&` where the rest of the template stopped
//! matching, to the end) is split on `&` and each pair bound by name, as
//! [`UriTemplate::match_uri`](crate::UriTemplate::match_uri) documents.

use std::ops::Range;

use super::spans::{Mark, Spans};
use super::{MatchError, QueryError};
use crate::pct;
use crate::template::{PackedNames, Parsed, VarSpec};

/// Iterates over the `name=value` pairs of a query (without its leading `?` or `&`), with the
/// byte offset of each value in the URI. A pair without `=` has an empty value.
pub(super) fn pairs(query: &str, offset: usize) -> impl Iterator<Item = (&str, &str, usize)> {
    // `&` and `=` are ASCII, so every cut falls between characters.
    pair_ranges(query.as_bytes()).map(move |(name, value)| {
        let at = offset + value.start;
        (&query[name], &query[value], at)
    })
}

/// [`pairs`] as the ranges of each name and value in the query's bytes.
fn pair_ranges(query: &[u8]) -> PairRanges<'_> {
    PairRanges { query, start: 0 }
}

/// The iterator of [`pair_ranges`]: a type of its own, whose `next` is always inlined (a
/// closure's was left out of line at the inliner's whim, and the binding paid a call a pair).
struct PairRanges<'q> {
    query: &'q [u8],
    start: usize,
}

impl PairRanges<'_> {
    /// The next pair, where its first bytes are a declared name and its `=` (see
    /// [`PackedNames::head_of`]): the name's index, and its range and the value's, read a
    /// word at a time. `None` where they are not, or the query is shorter than a word; then
    /// [`next`](Iterator::next) reads the pair.
    #[inline(always)]
    fn next_declared(&mut self, names: PackedNames<'_>) -> Option<(usize, PairRange)> {
        let query = self.query;
        let word = |at: usize| u64::from_le_bytes(query[at..at + 8].try_into().expect("eight"));
        let first = match query.len().checked_sub(8)? {
            _ if self.start + 8 <= query.len() => word(self.start),
            last if self.start < query.len() => word(last) >> (8 * (self.start - last)),
            _ => return None,
        };
        let (i, len) = names.head_of(first)?;
        let name = self.start..self.start + len;
        let end = pct::find_byte(query, name.end + 1, b'&').unwrap_or(query.len());
        self.start = end + 1;
        Some((i, (name.clone(), name.end + 1..end)))
    }
}

/// A pair's name and value, as ranges of the query's bytes.
type PairRange = (Range<usize>, Range<usize>);

impl Iterator for PairRanges<'_> {
    type Item = PairRange;

    #[inline(always)]
    fn next(&mut self) -> Option<Self::Item> {
        let query = self.query;
        loop {
            if self.start > query.len() {
                return None;
            }
            let pair = self.start..pct::find_byte(query, self.start, b'&').unwrap_or(query.len());
            self.start = pair.end + 1;
            if pair.is_empty() {
                continue;
            }
            // Names are short: a byte loop finds their end.
            return Some(match query[pair.clone()].iter().position(|&b| b == b'=') {
                Some(eq) => (pair.start..pair.start + eq, pair.start + eq + 1..pair.end),
                None => (pair.clone(), pair.end..pair.end),
            });
        }
    }
}

/// Binds the query region `uri[from..]`, as an engine matched it, to the tail's variables
/// (those from [`Parsed::tail_var`] on; none for a template without a tail), writing each
/// bound value's span to `spans`. Exploded variables get the span of the whole region;
/// [`super::Captures`] collects their items from it. Names and values are checked to decode to
/// UTF-8 where `utf8_unknown` (see
/// [`Triplets::need_utf8_check`](crate::pct::Triplets::need_utf8_check)).
#[inline]
pub(super) fn bind(
    t: &Parsed,
    uri: &str,
    from: usize,
    strict: bool,
    utf8_unknown: bool,
    spans: &mut Spans,
) -> Result<(), MatchError> {
    if from >= uri.len() {
        return Ok(());
    }
    let Some(first_var) = t.tail_var() else {
        return Ok(());
    };
    // Every engine reads the region with `Class::query()`, which takes no `#`: a fragment
    // never reaches the pairs.
    debug_assert!(!uri.as_bytes()[from..].contains(&b'#'));
    let tail = || t.tail_variables();
    // The tail's marks, two a variable, by its index in the tail: read once, where each
    // `Spans` call would look again at where they are kept.
    let marks = &mut spans.marks_mut()[2 * first_var..];
    let query = &uri.as_bytes()[from + 1..];
    let binding = Binding {
        t,
        uri,
        strict,
        utf8_unknown,
    };
    match t.tail_words() {
        Some(words) => bind_packed(binding, words, from, marks)?,
        None => {
            for (name, value) in pair_ranges(query) {
                let at = from + 1 + value.start;
                let (name, value) = (&query[name], &query[value]);
                bind_by_units(binding, Pair { name, value, at }, marks)?;
            }
        }
    }
    if t.explodes() {
        for (i, spec) in tail().enumerate() {
            if spec.is_exploded() {
                set(marks, i, from + 1..uri.len());
            }
        }
    }
    Ok(())
}

/// What binding a query's pairs reads besides each pair: the template, the URI, and how.
#[derive(Clone, Copy)]
struct Binding<'a> {
    t: &'a Parsed,
    uri: &'a str,
    strict: bool,
    utf8_unknown: bool,
}

/// A pair of a query: its name and value, and the value's offset in the URI.
struct Pair<'u> {
    name: &'u [u8],
    value: &'u [u8],
    at: usize,
}

/// [`bind_by_units`] out of line, for the rare pairs of a tail whose names are packed: their
/// loop keeps its registers.
#[inline(never)]
fn bind_by_units_apart(
    b: Binding<'_>,
    pair: Pair<'_>,
    marks: &mut [Mark],
) -> Result<(), MatchError> {
    bind_by_units(b, pair, marks)
}

/// Binds a pair whose name is compared unit by unit, under RFC 3986 normalization (`%74oken`
/// is `token`): one that holds a triplet or a long name, or any where the tail's names are
/// not packed.
#[inline(always)]
fn bind_by_units(b: Binding<'_>, pair: Pair<'_>, marks: &mut [Mark]) -> Result<(), MatchError> {
    let Binding {
        t,
        uri,
        strict,
        utf8_unknown,
    } = b;
    let Pair { name, value, at } = pair;
    let tail = || t.tail_variables();
    // A loop rather than `find`, which the compiler left out of line, at a call a pair.
    let mut found = None;
    for (i, v) in tail().enumerate() {
        if pct::equivalent(v.name_bytes(), name) {
            found = Some((i, v));
            break;
        }
    }
    let Some((i, spec)) = found else {
        if tail().any(|v| v.is_exploded()) {
            // The name ends before the value's `=`, or, without one, where the value is.
            let name_end = at - usize::from(uri.as_bytes()[at - 1] == b'=');
            check(name, name_end - name.len(), utf8_unknown)?;
            check(value, at, utf8_unknown)?;
        } else if strict {
            let name = text(name);
            return Err(QueryError::UnexpectedParameter { name }.into());
        }
        return Ok(());
    };
    check(value, at, utf8_unknown)?;
    if spec.is_exploded() {
        return Ok(());
    }
    let var = match marks[2 * i].get() {
        None if fits_prefix(value, &spec) => i,
        // A name the tail repeats (`{?q,q}`) binds its pairs to its occurrences in order.
        _ if t.has_repeats() => next_occurrence(t, i, name, value, marks)?,
        None => return Err(MatchError::NoMatch),
        Some(_) => return Err(QueryError::DuplicateParameter { name: text(name) }.into()),
    };
    set(marks, var, at..at + value.len());
    Ok(())
}

/// [`bind`]'s loop where the tail's names are packed in words ([`Parsed::tail_words`]):
/// a pair is bound from its first word where that is a declared name and its `=`, else by
/// its name packed the same way, else (a triplet, a long name) unit by unit.
#[inline]
fn bind_packed(
    b: Binding<'_>,
    words: PackedNames<'_>,
    from: usize,
    marks: &mut [Mark],
) -> Result<(), MatchError> {
    let Binding {
        uri,
        strict,
        utf8_unknown,
        ..
    } = b;
    let query = &uri.as_bytes()[from + 1..];
    let mut pairs = pair_ranges(query);
    loop {
        // Most pairs start with a name the tail declares: found from the pair's first word.
        if words.has_heads()
            && let Some((i, pair)) = pairs.next_declared(words)
        {
            bind_declared(marks, i, query, pair, from + 1, utf8_unknown)?;
            continue;
        }
        let Some(pair) = pairs.next() else {
            break;
        };
        let name = &query[pair.0.clone()];
        // Most tails' names, and most pairs', are short and plain: a word each, compared once
        // a variable (see `Parsed::tail_words`).
        if let Some(found) = words.find(name) {
            match found {
                Some(i) => bind_declared(marks, i, query, pair, from + 1, utf8_unknown)?,
                None if strict => {
                    return Err(QueryError::UnexpectedParameter { name: text(name) }.into());
                }
                None => {}
            }
            continue;
        }
        let at = from + 1 + pair.1.start;
        let pair = Pair {
            name,
            value: &query[pair.1],
            at,
        };
        bind_by_units_apart(b, pair, marks)?;
    }
    Ok(())
}

/// Binds a pair of `query` (which starts at `offset` in the URI) to the tail's variable `i`,
/// whose name the tail declares once: its value checked (see [`check`]), and a second pair of
/// the name refused.
#[inline(always)]
fn bind_declared(
    marks: &mut [Mark],
    i: usize,
    query: &[u8],
    (name, value): PairRange,
    offset: usize,
    utf8_unknown: bool,
) -> Result<(), MatchError> {
    let at = offset + value.start;
    check(&query[value.clone()], at, utf8_unknown)?;
    if !marks[2 * i].is_none() {
        return Err(QueryError::DuplicateParameter {
            name: text(&query[name]),
        }
        .into());
    }
    set(marks, i, at..at + value.len());
    Ok(())
}

/// Sets the span of the tail's variable `var` in its `marks`.
#[inline]
fn set(marks: &mut [Mark], var: usize, span: Range<usize>) {
    marks[2 * var] = Mark::at(span.start);
    marks[2 * var + 1] = Mark::at(span.end);
}

/// For a pair whose name's first occurrence in the tail (its variable `i`) is taken or does
/// not fit the value: the next occurrence of the name that is free and fits, by its index in
/// the tail.
fn next_occurrence(
    t: &Parsed,
    i: usize,
    name: &[u8],
    value: &[u8],
    marks: &[Mark],
) -> Result<usize, MatchError> {
    let mut free = t
        .tail_variables()
        .enumerate()
        .skip(i)
        .filter(|(v, spec)| pct::equivalent(spec.name_bytes(), name) && marks[2 * v].is_none())
        .peekable();
    if free.peek().is_none() {
        return Err(QueryError::DuplicateParameter { name: text(name) }.into());
    }
    free.find(|(_, spec)| fits_prefix(value, spec))
        .map(|(v, _)| v)
        .ok_or(MatchError::NoMatch)
}

/// Checks that a value decodes to UTF-8, where that is `unknown`; `at` is its offset in the
/// URI.
#[inline]
fn check(value: &[u8], at: usize, unknown: bool) -> Result<(), MatchError> {
    if !unknown {
        return Ok(());
    }
    pct::check_utf8(value).map_err(|i| MatchError::Malformed {
        position: at + i,
        reason: super::Malformed::NotUtf8,
    })
}

#[inline]
fn fits_prefix(value: &[u8], spec: &VarSpec<'_>) -> bool {
    let Some(max) = spec.prefix() else {
        return true;
    };
    pct::char_count(value) <= usize::from(max)
}

/// A name cut from the URI's text at ASCII bytes, as the text it is, for an error.
fn text(name: &[u8]) -> String {
    String::from_utf8_lossy(name).into_owned()
}
