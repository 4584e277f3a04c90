//! The official uritemplate-test suite and std-uritemplate's edge cases: every case expands as
//! expected, negative cases fail, and every expansion matches back (round trip).

use crate::common;

use common::expansion_cases;
use rfc6570::matching::Unsupported;
use rfc6570::template::{LintKind, Operator};
use rfc6570::{MatchError, UriTemplate};

#[test]
fn every_suite_case_expands_as_expected() {
    let cases = expansion_cases();
    assert_eq!(cases.len(), 281, "the suites hold 270 + 11 cases");
    let mut failures = Vec::new();
    for case in &cases {
        let outcome = UriTemplate::parse(&case.template).and_then(|t| t.expand(&case.variables));
        let ok = match &outcome {
            Ok(uri) => case.expected.contains(uri),
            Err(_) => case.expected.is_empty(),
        };
        if !ok {
            failures.push(format!(
                "{} / {}: {:?} gave {:?}, expected {:?}",
                case.file, case.group, case.template, outcome, case.expected
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn negative_cases_fail_with_a_position() {
    let mut negatives = 0;
    for case in expansion_cases().iter().filter(|c| c.expected.is_empty()) {
        negatives += 1;
        let err = UriTemplate::parse(&case.template)
            .and_then(|t| t.expand(&case.variables))
            .expect_err(&case.template);
        assert!(err.position().is_some(), "{}: {err}", case.template);
    }
    assert_eq!(negatives, 36);
}

/// Percent-triplets compare by the byte they encode.
fn normalize_hex(uri: &str) -> String {
    let mut out = String::with_capacity(uri.len());
    let mut chars = uri.char_indices();
    while let Some((i, c)) = chars.next() {
        if c == '%' && uri.len() >= i + 3 {
            out.push('%');
            out.push_str(&uri[i + 1..i + 3].to_ascii_uppercase());
            chars.next();
            chars.next();
        } else {
            out.push(c);
        }
    }
    out
}

#[test]
fn every_suite_expansion_matches_back() {
    // The design note's exception, counted so that a change shows: a `{+v}` or `{#v}` value
    // that held a triplet comes back decoded (`admin%2F` as `admin/`), so it expands to other
    // text. Templates that repeat a name (`{/var:1,var}`, `{.who,who}`, `{/who,who}`) match
    // back like the others; none is refused.
    let (mut uris, mut refused, mut decoded) = (0, 0, 0);
    let mut failures = Vec::new();
    for case in expansion_cases() {
        let Ok(t) = UriTemplate::parse(&case.template) else {
            continue;
        };
        for uri in &case.expected {
            uris += 1;
            let caps = match t.match_uri(uri) {
                Ok(caps) => caps,
                Err(MatchError::Unsupported(Unsupported::Shape {
                    kind: LintKind::RepeatedName,
                    ..
                })) => {
                    refused += 1;
                    continue;
                }
                Err(e) => {
                    failures.push(format!("{:?} on {uri:?}: {e}", case.template));
                    continue;
                }
            };
            let json = serde_json::to_value(&caps).unwrap();
            match t.expand(&json) {
                Ok(u) if normalize_hex(&u) == normalize_hex(uri) => {}
                Ok(_) if reserved_capture_held_triplet(&t, &caps) => decoded += 1,
                other => failures.push(format!("{:?} on {uri:?}: {json} {other:?}", case.template)),
            }
        }
    }
    assert!(uris > 400, "only {uris} URIs");
    assert!(
        failures.is_empty(),
        "{} of {uris} failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!((refused, decoded), (0, 6));
}

/// Whether a `{+v}` or `{#v}` variable captured text with a triplet.
fn reserved_capture_held_triplet(t: &UriTemplate, caps: &rfc6570::Captures<'_>) -> bool {
    t.expressions()
        .filter(|e| matches!(e.operator(), Operator::Reserved | Operator::Fragment))
        .flat_map(|e| e.variables())
        .any(|v| caps.get(v.name()).is_some_and(|c| c.raw().contains('%')))
}
