//! The router against a brute-force reference: for random template sets (inserted in shuffled
//! order) and random URIs, `Router::at` picks exactly what trying every template's `match_uri`
//! and ranking the matches by the semantics' router precedence (section 6) picks, with the same captures.
//!
//! The reference (`tests/it/common/oracle.rs`) ranks matches independently of the matcher, by
//! re-expanding each template piece by piece with the captured values.

use crate::common;

use common::oracle::reference;
use common::walk_strategies::{walkable_template, walkable_uri};
use proptest::prelude::*;
use rfc6570::matching::MatchOptions;
use rfc6570::router::RouterOptions;
use rfc6570::safety::{SafetyPolicy, Scope};
use rfc6570::{RouteError, Router, UriTemplate};

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
        "/", "a", "b", ".", "-", ",", "=", ";", "#", "%2F", "?s=1", "&t=2", "+", "@", ":", "!",
        "%61", "%2f",
    ]);
    prop::collection::vec(piece, 0..8).prop_map(|p| p.concat())
}

fn check(templates: Vec<String>, uris: Vec<String>, order: Vec<usize>, allow_empty: bool) {
    let mut router = Router::with_options(
        RouterOptions::new()
            .allow_empty_path_vars(allow_empty)
            .safety(SafetyPolicy::OFF),
    );
    let mut inserted = Vec::new();
    for &i in &order {
        let Some(text) = templates.get(i % templates.len().max(1)) else {
            continue;
        };
        let Ok(t) = UriTemplate::parse(text) else {
            continue;
        };
        if router.insert(t.clone(), t.to_string()).is_ok() {
            inserted.push(t);
        }
    }
    let options = MatchOptions::default().allow_empty_path_vars(allow_empty);
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

/// Values made of what the safety rules look for, raw and encoded, with triplets of inert
/// bytes (`%20`, `%2C`) that make a value plain as it is read.
fn risky_value() -> impl Strategy<Value = String> {
    let piece = prop::sample::select(vec![
        "a",
        "b",
        ".",
        "/",
        ":",
        "%20",
        "%2C",
        "%7B",
        "%2F",
        "%2E",
        "%2e",
        "%25",
        "%00",
        "%3A",
        "%5C",
        "%41",
        "%C3%A9",
        "%C2%85",
        "%C3",
        "%A9",
        "%E2%80%A4",
        "~",
        "!",
    ]);
    prop::collection::vec(piece, 1..6).prop_map(|p| p.concat())
}

/// What a router with the default policy answers for `uri`: the verdict of the policy on each
/// capture's decoded value, as a router without a policy captures it.
fn check_safety_verdict(uri: &str) {
    let templates = [
        ("t://a/{v}/x", "v", Scope::Segment),
        ("t://b/{+p}", "p", Scope::Crossing),
        ("t://c{?q}", "q", Scope::Crossing),
    ];
    let mut guarded = Router::new();
    let mut open = Router::with_options(RouterOptions::new().safety(SafetyPolicy::OFF));
    for (i, (t, _, _)) in templates.iter().enumerate() {
        guarded.insert(*t, i).unwrap();
        open.insert(*t, i).unwrap();
    }
    let Ok(found) = open.at(uri) else {
        return;
    };
    let (_, name, scope) = templates[*found.value];
    let expected = match found.captures.get(name) {
        Some(capture) => SafetyPolicy::default().verdict(&capture.decoded(), scope),
        None => Ok(()),
    };
    match (guarded.at(uri), expected) {
        (Ok(routed), Ok(())) => assert_eq!(routed.value, found.value, "{uri}"),
        (Err(RouteError::Unsafe { rule, .. }), Err(expected)) => {
            assert_eq!(rule, expected, "{uri}")
        }
        (got, expected) => panic!(
            "{uri}: {:?} where the policy says {expected:?}",
            got.map(|r| *r.value)
        ),
    }
}

proptest! {
    /// A value is refused by the router exactly when the policy refuses what it decodes to,
    /// whether the lookup read it as plain (inert bytes and triplets of inert bytes) or judged
    /// it.
    #[test]
    fn router_safety_is_the_policys_verdict_on_each_value(value in risky_value()) {
        for uri in [
            format!("t://a/{value}/x"),
            format!("t://b/{value}"),
            format!("t://c?q={value}"),
        ] {
            check_safety_verdict(&uri);
        }
    }
}

#[test]
fn values_with_triplets_of_inert_bytes_pass_and_others_are_judged() {
    for uri in [
        "t://a/a%20b/x",
        "t://a/a%2Cb%7B/x",
        "t://b/docs/a%20b",
        "t://c?q=a%20b",
    ] {
        check_safety_verdict(uri);
    }
    for uri in [
        "t://a/a%2Fb/x",
        "t://b/%2E%2E/x",
        "t://a/a%00/x",
        "t://c?q=%2e%2e/x",
    ] {
        check_safety_verdict(uri);
    }
}

#[test]
fn reference_ranks_the_semantics_examples() {
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
