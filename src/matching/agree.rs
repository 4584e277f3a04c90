//! Repeated names: a template may use a name more than once (`{/var:1,var}`,
//! `dict://{term:1}/{term}`), and a URI matches only where every occurrence agrees with one
//! value. The engine places each occurrence as if it were a variable of its own; the template
//! rules refuse templates where another placing could agree where the engine's does not, so
//! checking the places it chose is exact. Within one expression whose values can hold its
//! separator (`{.who,who}` on `.fr.ed.fr.ed`), the occurrences are placed again here, by
//! length: they must be equal, so each is as long as the others.

use super::MatchError;
use super::captures::Captures;
use super::spans::Spans;
use crate::pct;
use crate::template::class::Class;
use crate::template::{Node, Parsed};

/// Checks that the occurrences of each repeated name agree outside the query tail, before
/// it is bound, placing those of an expression that writes its separator between equal values
/// by their length first. (A tail's occurrences are unset yet, and agree with anything.)
pub(super) fn agree_in_head(
    template: &Parsed,
    uri: &str,
    spans: &mut Spans,
) -> Result<(), MatchError> {
    place_by_length(template, uri, spans)?;
    agree_where(template, uri, spans, |_| true)
}

/// Checks, once the query tail is bound, that the names it repeats agree there too.
pub(super) fn agree_in_tail(
    template: &Parsed,
    uri: &str,
    spans: &mut Spans,
) -> Result<(), MatchError> {
    let Some(tail) = template.tail_var() else {
        return Ok(());
    };
    agree_where(template, uri, spans, |first| {
        template.occurrences(first).any(|v| v >= tail)
    })
}

/// Checks the names whose first variable `checked` accepts.
fn agree_where(
    template: &Parsed,
    uri: &str,
    spans: &mut Spans,
    checked: impl Fn(usize) -> bool,
) -> Result<(), MatchError> {
    // The spans lent to captures for the check, and taken back: no copy.
    let captures = Captures::new(template, uri, std::mem::replace(spans, Spans::new(0)));
    let disagreeing = (0..template.var_count())
        .filter(|&v| template.first_of(v) == v && checked(v))
        .find(|&v| !captures.occurrences_agree(v));
    *spans = captures.into_spans();
    match disagreeing {
        Some(v) => Err(disagreement(template, v)),
        None => Ok(()),
    }
}

fn disagreement(template: &Parsed, var: usize) -> MatchError {
    let name = template
        .variables()
        .nth(var)
        .map(|v| v.name())
        .unwrap_or("");
    MatchError::Disagreement {
        variable: name.to_owned(),
    }
}

/// Places again, by length, the occurrences of each expression that holds one name only,
/// more than once, and whose values can hold its separator (`{.who,who}`, `{+who,who}`):
/// the engine gave the first the shortest value, where all must be equal.
fn place_by_length(template: &Parsed, uri: &str, spans: &mut Spans) -> Result<(), MatchError> {
    let nodes = template.nodes();
    let mut var = 0;
    for (i, node) in nodes.iter().enumerate() {
        let &Node::Expression { op, vars, .. } = node else {
            continue;
        };
        let count = usize::from(vars);
        let group = var..var + count;
        var += count;
        // A query tail's occurrences are bound by name, each on its own.
        if template.tail_var().is_some_and(|tail| group.start >= tail) {
            break;
        }
        let Some(Node::Var(first)) = nodes.get(i + 1) else {
            continue;
        };
        let one_name = || {
            group
                .clone()
                .all(|v| template.first_of(v) == template.first_of(group.start))
        };
        // The class is built byte by byte: asked last, of the few expressions it decides.
        let holds_separator =
            || Class::variable_in_any_reading(op, first).allows_raw(op.separator());
        if count < 2 || !one_name() || !holds_separator() {
            continue;
        }
        let (Some(head), Some(last)) = (spans.get(group.start), spans.get(group.end - 1)) else {
            continue;
        };
        let region = head.start..last.end;
        if !place_equal(uri.as_bytes(), region, group.clone(), op.separator(), spans) {
            return Err(disagreement(template, group.start));
        }
    }
    Ok(())
}

/// Places the variables of `group` in `region` as pieces that decode to values of one length,
/// with a `separator` between each two (raw, or a triplet of it where it is unreserved), if
/// the region is that: the decoded length of the whole fixes each piece's.
fn place_equal(
    uri: &[u8],
    region: std::ops::Range<usize>,
    group: std::ops::Range<usize>,
    separator: u8,
    spans: &mut Spans,
) -> bool {
    let count = group.len();
    let decoded = pct::units(&uri[region.clone()]).count();
    let Some(values) = decoded.checked_sub(count - 1) else {
        return false;
    };
    if values % count != 0 {
        return false;
    }
    let each = values / count;
    let raw_separator = pct::Unit {
        byte: separator,
        encoded: false,
    };
    let mut at = region.start;
    for v in group {
        let start = at;
        for _ in 0..each {
            at += pct::unit_at(uri, at).1;
        }
        spans.set(v, start..at);
        if at == region.end {
            break;
        }
        // Normalized, as everywhere: `%2E` is a `.`.
        let (unit, len) = pct::unit_at(uri, at);
        if unit != raw_separator {
            return false;
        }
        at += len;
    }
    true
}
