//! Round trips between expansion and matching.

use rfc6570::{Malformed, MatchError, UriTemplate};
use serde_json::{json, Value};

/// Matches `uri` and returns the captures as JSON.
fn captures(template: &str, uri: &str) -> Value {
    let t = UriTemplate::parse(template).unwrap();
    let caps = t
        .match_uri(uri)
        .unwrap_or_else(|e| panic!("{template} on {uri}: {e}"));
    serde_json::to_value(&caps).unwrap()
}

/// Expands, matches, and expands the captures again: the URI must come back.
fn assert_round_trip(template: &str, vars: Value) -> Value {
    let t = UriTemplate::parse(template).unwrap();
    let uri = t.expand(&vars).unwrap();
    let caps = captures(template, &uri);
    let again = t.expand(&caps).unwrap();
    assert_eq!(again, uri, "{template} with {vars}: captured {caps}");
    caps
}

#[test]
fn path_parameter_with_equals_has_a_value() {
    // `;x=` is never written for an empty value (that is `;x`), so `=` must be followed by one.
    let caps = assert_round_trip("{;x}{o}", json!({"x": ["", ""], "o": "1"}));
    assert_eq!(caps, json!({"x": ["", ""], "o": "1"}));
    assert_round_trip("{;x:3}{o}", json!({"x": ",", "o": "1"}));
}

#[test]
fn exploded_maps_hold_only_entries() {
    let caps = assert_round_trip("{/m*,l*}", json!({"m": {"a": "", "b": ""}, "l": ["c"]}));
    assert_eq!(caps, json!({"m": {"a": "", "b": ""}, "l": ["c"]}));
    let caps = assert_round_trip("{l*,m*}", json!({"l": ["a", "b"], "m": {"k": "v"}}));
    assert_eq!(caps, json!({"l": ["a", "b"], "m": {"k": "v"}}));
    assert_round_trip("{.l*}{.m*}", json!({"l": ["a", "b"], "m": {"k": "v"}}));
}

#[test]
fn exploded_named_items_are_whole() {
    // `;l=` is never written (an empty item is `;l`), so the item cannot stop after its `=`.
    let caps = assert_round_trip("{;l*}{o}", json!({"l": ["a"]}));
    assert_eq!(caps, json!({"l": ["a"]}));
    assert_round_trip("{;l*}{o}", json!({"l": ["a", ""], "o": "x"}));
}

#[test]
fn a_query_tail_of_question_marks_starts_at_a_question_mark() {
    // `{?..}` expansions start with `?`: an `&` before it belongs to `{+path}`.
    let caps = assert_round_trip("file:///{+path}{?rev}", json!({"path": "a&b", "rev": "1"}));
    assert_eq!(caps, json!({"path": "a&b", "rev": "1"}));
    let caps = assert_round_trip("file:///{+path}{?rev}", json!({"path": "a&b=c"}));
    assert_eq!(caps, json!({"path": "a&b=c"}));
    let t = UriTemplate::parse("x{?a}").unwrap();
    assert!(t.match_uri("x&a=1").is_err());
    // With a `{&..}` expression the tail may start at `&` (`{?a}` undefined writes nothing).
    let caps = assert_round_trip("x{?a}{&b}", json!({"b": "1"}));
    assert_eq!(caps, json!({"b": "1"}));
    assert_round_trip("/x?fixed=1{&b}", json!({"b": "1"}));
}

#[test]
fn malformed_undeclared_names_are_reported_at_their_triplet() {
    // A parameter without `=` has its empty value at its end: the name starts a byte later
    // than for `name=value`.
    let t = UriTemplate::parse("x{?a,v*}").unwrap();
    for (uri, position) in [("x?a=1&b%FF", 7), ("x?a=1&b%FF=2", 7), ("x?%FF", 2)] {
        let err = t.match_uri(uri).unwrap_err();
        let expected = MatchError::Malformed {
            position,
            reason: Malformed::NotUtf8,
        };
        assert_eq!(err, expected, "{uri}");
    }
}

#[test]
fn a_query_value_with_a_prefix_is_a_string() {
    // Expansion refuses a prefix on a list, so `a,b` cannot be one: the captures must expand.
    let t = UriTemplate::parse("x{?v:3}").unwrap();
    let caps = serde_json::to_value(t.match_uri("x?v=a,b").unwrap()).unwrap();
    assert_eq!(caps, json!({"v": "a,b"}));
    assert_eq!(t.expand(&caps).unwrap(), "x?v=a%2Cb");
}
