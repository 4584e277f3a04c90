//! The brute-force reference for routing, shared by `tests/it/router_oracle.rs` and the `router`
//! fuzz target (`tests/it/common/checks.rs` includes this file by path).
//!
//! It tries every template's `match_uri` and ranks the matches by the router precedence of the semantics (section 6),
//! independently of the matcher: it re-expands the template one piece at a time with the
//! captured values, labels each piece's units (literal, segment variable, crossing variable),
//! and compares the label strings. Ties go to static templates, then to templates that repeat
//! a name, then to the template that sorts first.

#![allow(dead_code)]

use std::cmp::Reverse;

use rfc6570::UriTemplate;
use rfc6570::matching::MatchOptions;
use rfc6570::template::LintKind;
use rfc6570::template::Operator;
use serde_json::Value;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Rank {
    Crossing,
    Segment,
    Literal,
}

/// The number of units (a byte, or a percent-triplet) in `s`.
fn units(s: &str) -> usize {
    let b = s.as_bytes();
    let (mut i, mut n) = (0, 0);
    while i < b.len() {
        i += if b[i] == b'%' { 3 } else { 1 };
        n += 1;
    }
    n
}

/// What is left of `s` after its first `n` units.
fn after_units(s: &str, n: usize) -> Option<&str> {
    let b = s.as_bytes();
    let mut i = 0;
    for _ in 0..n {
        i += if *b.get(i)? == b'%' { 3 } else { 1 };
    }
    s.get(i..)
}

fn expand_alone(text: &str, vars: &Value) -> String {
    UriTemplate::parse(text).unwrap().expand(vars).unwrap()
}

fn var_rank(op: Operator, exploded: bool) -> Rank {
    match op {
        Operator::Reserved | Operator::Fragment => Rank::Crossing,
        Operator::Path if exploded => Rank::Crossing,
        _ => Rank::Segment,
    }
}

/// The rank string of `template`'s match on `uri`, rebuilt from the captured values; `None`
/// where the captures cannot say it (a map whose repeated keys JSON folded into one).
fn rank_string(template: &UriTemplate, uri: &str, vars: &Value) -> Option<Vec<Rank>> {
    let mut ranks = Vec::new();
    let mut query_tail = false;
    for c in template.components() {
        match c {
            rfc6570::template::Component::Literal(text) => {
                query_tail = false;
                ranks.extend(std::iter::repeat_n(
                    Rank::Literal,
                    units(&expand_alone(text, vars)),
                ));
            }
            rfc6570::template::Component::Expression(e) => {
                let op = e.operator();
                if matches!(op, Operator::Query | Operator::QueryContinuation) {
                    query_tail = true;
                    continue;
                }
                let mut defined_before = false;
                for v in e.variables() {
                    let symbol = op.symbol().map(String::from).unwrap_or_default();
                    let alone = expand_alone(&format!("{{{symbol}{v}}}"), vars);
                    // Alone, a variable is written behind the operator's prefix; after another
                    // defined one, behind its one-byte separator instead.
                    let defined = vars.get(v.name()).is_some();
                    let mut len = units(&alone);
                    if defined && defined_before && op.prefix().is_empty() {
                        len += 1;
                    }
                    defined_before |= defined;
                    ranks.extend(std::iter::repeat_n(var_rank(op, v.is_exploded()), len));
                }
            }
        }
    }
    // A trailing query is read as pairs: its units count as segment variables. The head's
    // units end where the tail starts. (They count the same whether the URI holds a character
    // raw or as a triplet: raw sub-delimiters and RFC 3986 normalization change no count.)
    let head = ranks.len();
    if query_tail {
        let rest = after_units(uri, head)?;
        if !(rest.is_empty() || rest.starts_with(['?', '&'])) {
            return None;
        }
        ranks.extend(std::iter::repeat_n(
            Rank::Segment,
            units(uri).saturating_sub(head),
        ));
    } else if head != units(uri) {
        return None;
    }
    Some(ranks)
}

/// Every template's `match_uri`, ranked; `None` when nothing matches, `Err` when a match
/// cannot be ranked from its JSON captures. Two passes, as the semantics say: the templates
/// that match the URI as an expansion writes it (`strict_encoding`), and only if there are
/// none, those that match it with raw sub-delimiters in values.
pub fn reference(
    templates: &[UriTemplate],
    uri: &str,
    options: &MatchOptions,
) -> Result<Option<(String, Value)>, ()> {
    let strict = options.strict_encoding(true);
    match ranked(templates, uri, &strict)? {
        None if *options != strict => ranked(templates, uri, options),
        found => Ok(found),
    }
}

/// A match as the reference ranks it: its rank string, whether it is static or repeats a name
/// (each first on a tie), its template's text and its captures.
type Ranked<'t> = (Vec<Rank>, Reverse<(bool, bool)>, &'t str, Value);

/// The best of the templates' matches under `options`, by the precedence of the semantics.
fn ranked(
    templates: &[UriTemplate],
    uri: &str,
    options: &MatchOptions,
) -> Result<Option<(String, Value)>, ()> {
    // The rank string, then static templates first, then those that repeat a name (they
    // match a subset of the URIs of the same shape without the repeat), then by text.
    let mut best: Option<Ranked<'_>> = None;
    for t in templates {
        let Ok(caps) = t.match_uri_with(uri, options) else {
            continue;
        };
        let vars = serde_json::to_value(&caps).unwrap();
        let ranks = rank_string(t, uri, &vars).ok_or(())?;
        let repeats = t.lints().iter().any(|l| l.kind() == LintKind::RepeatedName);
        let tie = Reverse((t.is_static(), repeats));
        let better = match &best {
            None => true,
            Some((r, kind, text, _)) => {
                ranks > *r || ranks == *r && (tie < *kind || tie == *kind && t.as_str() < *text)
            }
        };
        if better {
            best = Some((ranks, tie, t.as_str(), vars));
        }
    }
    Ok(best.map(|(_, _, t, v)| (t.to_owned(), v)))
}
