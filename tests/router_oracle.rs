//! The router against a brute-force reference: for random template sets (inserted in shuffled
//! order) and random URIs, `Router::at` picks exactly what trying every template's `match_uri`
//! and ranking the matches by the design's section 5 rule picks, with the same captures.
//!
//! The reference computes a match's rank independently of the matcher: it re-expands the
//! template one piece at a time with the captured values, labels each piece's units (literal,
//! segment variable, crossing variable), and compares the label strings. Ties go to static
//! templates, then to the template that sorts first.

use proptest::prelude::*;
use rfc6570::{MatchOptions, Operator, RouteError, Router, SafetyPolicy, UriTemplate};
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
            rfc6570::Component::Literal(text) => {
                query_tail = false;
                ranks.extend(
                    std::iter::repeat(Rank::Literal).take(units(&expand_alone(text, vars))),
                );
            }
            rfc6570::Component::Expression(e) => {
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
                    ranks.extend(std::iter::repeat(var_rank(op, v.is_exploded())).take(len));
                }
            }
        }
    }
    // A trailing query is read as pairs: its units count as segment variables. The head must
    // re-expand to the URI up to there (it may not when JSON folded a map's repeated keys).
    let head = ranks.len();
    if query_tail {
        let text = template.as_str();
        let head_text = &text[..text.rfind("{?").or(text.rfind("{&")).unwrap_or(text.len())];
        let written = expand_alone(head_text, vars);
        let rest = uri.strip_prefix(written.as_str())?;
        if !(rest.is_empty() || rest.starts_with(['?', '&'])) {
            return None;
        }
        ranks.extend(std::iter::repeat(Rank::Segment).take(units(uri).saturating_sub(head)));
    } else if head != units(uri) {
        return None;
    }
    Some(ranks)
}

/// Every template's `match_uri`, ranked; `None` when nothing matches, `Err` when a match
/// cannot be ranked from its JSON captures.
fn reference(
    templates: &[UriTemplate],
    uri: &str,
    options: &MatchOptions,
) -> Result<Option<(String, Value)>, ()> {
    let mut best: Option<(Vec<Rank>, bool, &str, Value)> = None;
    for t in templates {
        let Ok(caps) = t.match_uri_with(uri, options) else {
            continue;
        };
        let vars = serde_json::to_value(&caps).unwrap();
        let ranks = rank_string(t, uri, &vars).ok_or(())?;
        let key = (ranks, t.is_static(), t.as_str());
        let better = match &best {
            None => true,
            Some((r, s, text, _)) => {
                key.0 > *r || key.0 == *r && (key.1 && !*s || key.1 == *s && key.2 < *text)
            }
        };
        if better {
            best = Some((key.0, key.1, key.2, vars));
        }
    }
    Ok(best.map(|(_, _, t, v)| (t.to_owned(), v)))
}

fn literal() -> impl Strategy<Value = String> {
    prop::sample::select(vec!["/", "a", "b", ".", "-", "/a", "a/", "x"]).prop_map(String::from)
}

fn expression() -> impl Strategy<Value = String> {
    let op = prop::sample::select(vec!["", "+", "#", ".", "/", ";"]);
    let var = (
        prop::sample::select(vec!["p", "q", "r"]),
        prop::sample::select(vec!["", "*", ":2"]),
    );
    (op, prop::collection::vec(var, 1..3)).prop_map(|(op, vars)| {
        let mut seen = Vec::new();
        let specs: Vec<String> = vars
            .into_iter()
            .filter(|(n, _)| {
                let fresh = !seen.contains(n);
                seen.push(*n);
                fresh
            })
            .map(|(n, m)| format!("{n}{m}"))
            .collect();
        format!("{{{op}{}}}", specs.join(","))
    })
}

fn template() -> impl Strategy<Value = String> {
    let part = prop_oneof![3 => literal(), 2 => expression()];
    (prop::collection::vec(part, 1..5), prop::bool::weighted(0.2)).prop_map(|(parts, query)| {
        let mut t: String = parts.concat();
        if query {
            t.push_str("{?s,t}");
        }
        t
    })
}

fn uri() -> impl Strategy<Value = String> {
    let piece = prop::sample::select(vec![
        "/", "a", "b", ".", "-", ",", "=", ";", "#", "%2F", "?s=1", "&t=2",
    ]);
    prop::collection::vec(piece, 0..8).prop_map(|p| p.concat())
}

/// Distinct variable names within a template, so that no repeated name can disagree.
fn has_repeated_names(t: &UriTemplate) -> bool {
    let names: Vec<&str> = t.variables().map(|v| v.name()).collect();
    (1..names.len()).any(|i| names[..i].contains(&names[i]))
}

fn check(templates: Vec<String>, uris: Vec<String>, order: Vec<usize>, allow_empty: bool) {
    let mut router = Router::builder()
        .allow_empty_path_vars(allow_empty)
        .safety(SafetyPolicy::OFF)
        .build();
    let mut inserted = Vec::new();
    for &i in &order {
        let Some(text) = templates.get(i % templates.len().max(1)) else {
            continue;
        };
        let Ok(t) = UriTemplate::parse(text) else {
            continue;
        };
        if has_repeated_names(&t) {
            continue;
        }
        if router.insert(t.clone(), t.to_string()).is_ok() {
            inserted.push(t);
        }
    }
    let options = MatchOptions::default().require_path_vars(!allow_empty);
    // URIs that the templates themselves produce are the interesting ones.
    let mut all_uris = uris;
    for t in &inserted {
        for vars in [
            serde_json::json!({"p": "a", "q": "b.a"}),
            serde_json::json!({"p": ["a", "b"], "r": "-"}),
        ] {
            if let Ok(u) = t.expand(&vars) {
                all_uris.push(u);
            }
        }
    }
    for uri in all_uris {
        let Ok(expected) = reference(&inserted, &uri, &options) else {
            continue;
        };
        let got = match router.at(&uri) {
            Ok(r) => Some((r.value.clone(), serde_json::to_value(&r.captures).unwrap())),
            Err(RouteError::NotFound) => None,
            Err(e) => {
                // Errors of the best match (malformed input, query pollution) stop routing.
                assert!(
                    expected.is_some() || !matches!(e, RouteError::Unsafe { .. }),
                    "{uri}: {e}"
                );
                continue;
            }
        };
        assert_eq!(
            got,
            expected,
            "uri {uri:?} over {:?}",
            inserted.iter().map(|t| t.as_str()).collect::<Vec<_>>()
        );
    }
}

/// Templates the router's radix walk serves: delimited `{v}`, a final `{+v}`, a query tail.
fn walkable_template() -> impl Strategy<Value = String> {
    let part = prop_oneof![
        3 => prop::sample::select(vec!["/", "a", "b", "/a", "x/", "-"]).prop_map(String::from),
        2 => prop::sample::select(vec!["{p}/", "{q}-", "{r}/x"]).prop_map(String::from),
    ];
    let end = prop::sample::select(vec!["", "{s}", "{+s}", "{?t,u}", "{s}{?t}", "/{+s}"]);
    (prop::collection::vec(part, 0..4), end).prop_map(|(parts, end)| parts.concat() + end)
}

fn walkable_uri() -> impl Strategy<Value = String> {
    let piece = prop::sample::select(vec![
        "/", "a", "b", "x", "-", "%2F", "?t=1", "&u=2", "/a", "é",
    ]);
    prop::collection::vec(piece, 0..8).prop_map(|p| p.concat())
}

proptest! {
    #[test]
    fn radix_walk_agrees_with_brute_force(
        templates in prop::collection::vec(walkable_template(), 1..8),
        uris in prop::collection::vec(walkable_uri(), 0..8),
        order in prop::collection::vec(0usize..8, 1..10),
    ) {
        check(templates, uris, order, false);
    }

    #[test]
    fn router_agrees_with_brute_force(
        templates in prop::collection::vec(template(), 1..6),
        uris in prop::collection::vec(uri(), 0..6),
        order in prop::collection::vec(0usize..6, 1..8),
        allow_empty in any::<bool>(),
    ) {
        check(templates, uris, order, allow_empty);
    }
}

#[test]
fn reference_ranks_the_design_examples() {
    let templates: Vec<UriTemplate> = ["/a/{name}.txt", "/a/{any}", "/docs/{name}", "/{+path}"]
        .iter()
        .map(|t| UriTemplate::parse(t).unwrap())
        .collect();
    let options = MatchOptions::default();
    let best = |uri| reference(&templates, uri, &options).unwrap().unwrap().0;
    assert_eq!(best("/a/pg.txt"), "/a/{name}.txt");
    assert_eq!(best("/docs/x"), "/docs/{name}");
    assert_eq!(best("/docs/x/y"), "/{+path}");
}
