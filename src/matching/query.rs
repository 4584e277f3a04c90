//! Query tails: trailing `{?..}{&..}` expressions read as unordered `name=value` pairs.
//!
//! RFC 6570 would have a query expansion's parameters come in the template's order, all of them
//! or none; URIs written by people and other programs rarely do. So when a template ends with
//! query expressions, the URI's query (from the `?` or `&` where the rest of the template stopped
//! matching, to the end) is split on `&` and each pair bound by name, as
//! [`UriTemplate::match_uri`](crate::UriTemplate::match_uri) documents.

use super::spans::Spans;
use super::{MatchError, QueryError};
use crate::pct;
use crate::template::{Parsed, VarSpec};

/// Iterates over the `name=value` pairs of a query (without its leading `?` or `&`), with the
/// byte offset of each value in the URI. A pair without `=` has an empty value. Queries are
/// short: a byte loop finds `&` and `=` faster than a searcher's set-up.
pub(super) fn pairs(query: &str, offset: usize) -> impl Iterator<Item = (&str, &str, usize)> {
    let bytes = query.as_bytes();
    let mut start = 0;
    std::iter::from_fn(move || {
        loop {
            if start > bytes.len() {
                return None;
            }
            let end = start
                + bytes[start..]
                    .iter()
                    .position(|&b| b == b'&')
                    .unwrap_or(bytes.len() - start);
            let pair = start..end;
            start = end + 1;
            if pair.is_empty() {
                continue;
            }
            // `&` and `=` are ASCII, so every cut falls between characters.
            return Some(match bytes[pair.clone()].iter().position(|&b| b == b'=') {
                Some(eq) => (
                    &query[pair.start..pair.start + eq],
                    &query[pair.start + eq + 1..pair.end],
                    offset + pair.start + eq + 1,
                ),
                None => (&query[pair.clone()], "", offset + pair.end),
            });
        }
    })
}

/// Binds the query region `uri[from..]`, as an engine matched it, to the tail's variables
/// (those from `first_var` on), writing each bound value's span to `spans`. Exploded variables
/// get the span of the whole region; [`super::Captures`] collects their items from it. Names
/// and values are checked to decode to UTF-8 where `utf8_unknown` (see
/// [`Triplets::need_utf8_check`](crate::pct::Triplets::need_utf8_check)).
pub(super) fn bind(
    t: &Parsed,
    first_var: usize,
    uri: &str,
    from: usize,
    strict: bool,
    utf8_unknown: bool,
    spans: &mut Spans,
) -> Result<(), MatchError> {
    if from >= uri.len() {
        return Ok(());
    }
    // Every engine reads the region with `Class::query()`, which takes no `#`: a fragment
    // never reaches the pairs.
    debug_assert!(!uri.as_bytes()[from..].contains(&b'#'));
    let tail = || t.variables().skip(first_var);
    for (name, value, at) in pairs(&uri[from + 1..], from + 1) {
        // Names compare under RFC 3986 normalization: `%74oken` is `token`.
        let found = tail()
            .enumerate()
            .find(|(_, v)| pct::equivalent(v.name(), name));
        let Some((i, spec)) = found else {
            if tail().any(|v| v.is_exploded()) {
                // The name ends before the value's `=`, or, without one, where the value is.
                let name_end = at - usize::from(uri.as_bytes()[at - 1] == b'=');
                check(name, name_end - name.len(), utf8_unknown)?;
                check(value, at, utf8_unknown)?;
            } else if strict {
                return Err(QueryError::UnexpectedParameter { name: name.into() }.into());
            }
            continue;
        };
        check(value, at, utf8_unknown)?;
        if spec.is_exploded() {
            continue;
        }
        let var = match spans.get(first_var + i) {
            None if fits_prefix(value, &spec) => first_var + i,
            // A name the tail repeats (`{?q,q}`) binds its pairs to its occurrences in order.
            _ if t.has_repeats() => next_occurrence(t, first_var, i, name, value, spans)?,
            None => return Err(MatchError::NoMatch),
            Some(_) => return Err(QueryError::DuplicateParameter { name: name.into() }.into()),
        };
        spans.set(var, at..at + value.len());
    }
    if t.explodes() {
        for (i, spec) in tail().enumerate() {
            if spec.is_exploded() {
                spans.set(first_var + i, from + 1..uri.len());
            }
        }
    }
    Ok(())
}

/// For a pair whose name's first occurrence in the tail (its `i`-th variable) is taken or
/// does not fit the value: the next occurrence of the name that is free and fits.
fn next_occurrence(
    t: &Parsed,
    first_var: usize,
    i: usize,
    name: &str,
    value: &str,
    spans: &Spans,
) -> Result<usize, MatchError> {
    let mut free = t
        .variables()
        .enumerate()
        .skip(first_var + i)
        .filter(|(v, spec)| pct::equivalent(spec.name(), name) && spans.get(*v).is_none())
        .peekable();
    if free.peek().is_none() {
        return Err(QueryError::DuplicateParameter { name: name.into() }.into());
    }
    free.find(|(_, spec)| fits_prefix(value, spec))
        .map(|(v, _)| v)
        .ok_or(MatchError::NoMatch)
}

/// Checks that a value decodes to UTF-8, where that is `unknown`; `at` is its offset in the
/// URI.
fn check(value: &str, at: usize, unknown: bool) -> Result<(), MatchError> {
    if !unknown {
        return Ok(());
    }
    pct::check_utf8(value).map_err(|i| MatchError::Malformed {
        position: at + i,
        reason: super::Malformed::NotUtf8,
    })
}

fn fits_prefix(value: &str, spec: &VarSpec<'_>) -> bool {
    let Some(max) = spec.prefix() else {
        return true;
    };
    pct::char_count(value) <= usize::from(max)
}
