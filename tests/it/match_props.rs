//! Round trips between expansion and matching, over generated templates and values:
//!
//! * **Round trip.** Expanding random variables (any Unicode, reserved characters, `%`, empty
//!   strings, empty lists, maps) into a random template, matching the URI, and expanding the
//!   captures again gives the same URI, up to the hex case of triplets. The query tail is read
//!   as unordered pairs (section 5 of the semantics), so there the comparison is of its
//!   leading `?`/`&` and, for each name, the values in order: exactly what those rules keep.
//! * **No query, no match.** A template with no place for a query does not match its own
//!   expansion with a query added.
//! * **No panics.** Any URI against any template gives captures or a [`MatchError`]; a
//!   malformed one points at a `%` in the URI.
//!
//! The cases are the public generators of `rfc6570::testing` (`strategies::round_trip_cases`),
//! which users get too. They respect the documented matching semantics
//! (`UriTemplate::match_uri`), and a few shapes whose reading needs a design decision, each
//! documented on `testing::shape_values` and `shape_template`; the property tests' own
//! findings F1 to F10 (numbered apart from the fuzz findings of `fuzz/README.md`) led to them:
//!
//! * names are distinct (a name used twice must have one value), and their triplets encode
//!   whole UTF-8 characters (F8) that expansion encodes too, not unreserved ones (F3); the
//!   triplets of literals encode whole UTF-8 characters (F7);
//! * a variable with a prefix gets a string (a list or map would be an expansion error);
//! * `{+v}` values hold no `?` or `#`, which `{+v}` never captures; before a query tail,
//!   `{+v}`/`{#v}` values hold no `?` or `&` where the tail can start with one (F1);
//! * `{+v}`/`{#v}` values pass valid triplets through, so their triplets decode to UTF-8
//!   (others would be malformed) and do not encode unreserved characters (F2);
//! * before a query tail there is no other query expression, and only the tail's first
//!   expression may be `{?..}` (F1);
//! * the keys of a map in the query tail are undeclared names, and only the tail's first
//!   exploded variable holds a map: undeclared parameters are collected by the first exploded
//!   variable that has no parameters of its own name (F4);
//! * the keys of a `{.m*}` map hold no `.`, which would make the split of entries ambiguous
//!   (F5);
//!
//! A generated template that the matcher refuses when it compiles (`MatchError::Unsupported`,
//! such as a repeated name) passes: it is never answered wrongly.

// The fuzz targets' checks, which include the router oracle by path as `common` does.
use crate::common::checks;

use proptest::prelude::*;
use rfc6570::matching::{Malformed, MatchOptions, QueryError, Unsupported};
use rfc6570::template::{LintKind, Operator};
use rfc6570::testing::{Case, GenPart, strategies};
use rfc6570::{MatchError, UriTemplate};
use serde_json::{Value, json};

// ---------------------------------------------------------------------------------------------
// Cases: the public generators of `rfc6570::testing`, which shape them (`shape_template`,
// `shape_values`; the rules above are documented there)

/// As `strategies::round_trip_cases`, with no place for a query in the template: no `?` or
/// `#` in literals, no query or fragment expressions.
fn no_query_case() -> impl Strategy<Value = Case> {
    let template = strategies::matchable_templates().prop_map(|mut t| {
        for part in &mut t.parts {
            match part {
                GenPart::Literal(text) => text.retain(|c| c != '?' && c != '#'),
                GenPart::Expression(op @ (Operator::Query | Operator::QueryContinuation), _) => {
                    *op = Operator::Path
                }
                GenPart::Expression(op @ Operator::Fragment, _) => *op = Operator::Reserved,
                GenPart::Expression(..) => {}
            }
        }
        t
    });
    template
        .prop_flat_map(|g| {
            let t = g.parse().unwrap();
            (strategies::values_for(&t), Just(t))
        })
        .prop_filter_map("a case that expands", |(values, t)| {
            Case::new(&t, values).ok()
        })
}

/// Matches the case's URI and checks the captures: a template the matcher refuses when it
/// compiles passes (`Case::check_match` lets it), for a reason a caller can match on: never a
/// wrong answer.
fn check_round_trip(case: &Case) -> Result<(), TestCaseError> {
    case.check_match(&case.template().match_uri(case.uri()))?;
    Ok(())
}

/// Changes a URI a little: inserts, removes or replaces a few characters.
fn mutate(uri: &str, edits: &[(usize, u8, String)]) -> String {
    let mut chars: Vec<String> = uri.chars().map(String::from).collect();
    for (at, kind, text) in edits {
        let at = at % (chars.len() + 1);
        match kind % 3 {
            0 => chars.insert(at, text.clone()),
            1 if at < chars.len() => drop(chars.remove(at)),
            _ if at < chars.len() => chars[at] = text.clone(),
            _ => {}
        }
    }
    chars.concat()
}

/// Checks that matching `uri` gives captures that serialize and expand, or an error that
/// makes sense for it.
fn check_no_panic(t: &UriTemplate, uri: &str) -> Result<(), TestCaseError> {
    for strict in [false, true] {
        let options = MatchOptions::default().strict_query(strict);
        match t.match_uri_with(uri, &options) {
            Ok(caps) => {
                let json = serde_json::to_value(&caps).unwrap();
                if let Err(e) = t.expand(&json) {
                    prop_assert!(false, "{} on {:?}: {} gave {}", t, uri, json, e);
                }
                let _ = format!("{caps:?}");
            }
            Err(MatchError::Malformed { position, reason }) => {
                // A fault points at its byte: a `%`, or the byte a URI may not hold.
                let expected = match reason {
                    Malformed::InvalidPercentEncoding | Malformed::NotUtf8 => b'%',
                    Malformed::Disallowed { byte } => byte,
                    other => return Err(TestCaseError::fail(format!("{other:?}"))),
                };
                prop_assert_eq!(
                    uri.as_bytes().get(position),
                    Some(&expected),
                    "{:?} at {} of {:?} for {}",
                    reason,
                    position,
                    uri,
                    t
                );
            }
            Err(MatchError::Query(QueryError::UnexpectedParameter { .. })) => prop_assert!(strict),
            Err(_) => {}
        }
    }
    Ok(())
}

proptest! {
    #[test]
    fn expansions_match_back_to_the_same_uri(case in strategies::round_trip_cases()) {
        check_round_trip(&case)?;
    }

    #[test]
    fn expansions_of_repeated_names_match_back_with_one_value(
        case in strategies::repeated_round_trip_cases(),
    ) {
        check_round_trip(&case)?;
        // Every case is one the template serves: it repeats a name, and no rule refuses it.
        let caps = case.template().match_uri(case.uri());
        prop_assert!(
            !matches!(caps, Err(MatchError::Unsupported(_))),
            "{} on {:?}: {:?}", case.template(), case.uri(), caps
        );
        // Each name once, with one value that expands back to the URI.
        if let Ok(caps) = caps {
            let names: Vec<&str> = caps.iter().map(|c| c.name()).collect();
            let distinct: std::collections::BTreeSet<&str> = names.iter().copied().collect();
            prop_assert_eq!(names.len(), distinct.len());
        }
    }

    #[test]
    fn repeated_names_whose_occurrences_differ_give_the_disagreeing_variable(
        g in strategies::repeated_name_templates(),
        uri in strategies::uri_like(),
    ) {
        let t = g.parse().unwrap();
        check_no_panic(&t, &uri)?;
        if let Err(MatchError::Disagreement { variable }) = t.match_uri(&uri) {
            prop_assert!(t.variables().filter(|v| v.name() == variable).count() > 1);
        }
    }

    #[test]
    fn a_query_where_the_template_has_none_does_not_match(
        case in no_query_case(),
        query in "[a-z=&]{0,6}",
    ) {
        let t = case.template();
        prop_assert!(!t.as_str().contains(['?', '#']));
        let uri = format!("{}?{query}", case.uri());
        // A template too big to match in linear time with a small constant is refused.
        let err = t.match_uri(&uri).unwrap_err();
        prop_assert!(
            matches!(err, MatchError::NoMatch | MatchError::Unsupported { .. }),
            "{}: {:?}",
            uri,
            err
        );
    }

    #[test]
    fn any_uri_against_any_template_gives_captures_or_an_error(
        g in strategies::templates(),
        uri in strategies::uri_like(),
    ) {
        let t = g.parse().unwrap();
        check_no_panic(&t, &uri)?;
        // The fuzz target's properties too: an equivalent URI (unreserved characters encoded)
        // reads the same, and a strict reading agrees with the default one.
        checks::match_uri(t.as_str(), &uri).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn nearly_matching_uris_give_captures_or_an_error(
        case in strategies::round_trip_cases(),
        edits in prop::collection::vec((any::<usize>(), any::<u8>(), strategies::uri_like()), 1..4),
    ) {
        check_no_panic(case.template(), &mutate(case.uri(), &edits))?;
    }
}

// ---------------------------------------------------------------------------------------------
// Regressions: matcher bugs these properties found

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
    let caps = assert_round_trip("{/m*}/{l*}", json!({"m": {"a": "", "b": ""}, "l": ["c"]}));
    assert_eq!(caps, json!({"m": {"a": "", "b": ""}, "l": ["c"]}));
    // Two exploded variables with no literal between could share the entries of two maps
    // (`{.w*,n,r*}` with `{"w": {"x": "", "": ""}, "r": {"": ""}}` writes `.x=.=.=`, read
    // as `r` holding the key "" twice): such templates are refused (F18).
    for text in ["{/m*,l*}", "{l*,m*}", "{.l*}{.m*}", "{.w*,n,r*}"] {
        let t = UriTemplate::parse(text).unwrap();
        assert_eq!(
            refused_by(t.match_uri("/a")),
            Some(LintKind::ExplodedBeforeVariable),
            "{text}"
        );
    }
}

#[test]
fn a_variable_that_could_take_a_map_s_first_entry_is_refused() {
    // Found by the public generators: `a = "="`, `m = {"": ""}` expands to `=,=`, and the
    // reading that gives `a` the shortest value leaves `m` the key "" twice.
    for text in [
        "{+a}{b,c,m*}",
        "{a}{m*}",
        "{+path}{/m*}",
        "{#a}{;m*}",
        "{a}{.m*}",
    ] {
        let t = UriTemplate::parse(text).unwrap();
        assert_eq!(
            refused_by(t.match_uri("=,=")),
            Some(LintKind::VariableBeforeExploded),
            "{text}"
        );
    }
    // Where the map starts with what the variable cannot hold, it is served.
    let caps = assert_round_trip("{a}{/m*}", json!({"a": "x", "m": {"": "", "k": "1"}}));
    assert_eq!(caps, json!({"a": "x", "m": {"": "", "k": "1"}}));
    assert_round_trip("{a,m*}", json!({"a": "k", "m": {"": "1", "k": "1"}}));
}

#[test]
fn exploded_named_items_are_whole() {
    // `;l=` is never written (an empty item is `;l`), so the item cannot stop after its `=`.
    let caps = assert_round_trip("{;l*}/{o}", json!({"l": ["a"]}));
    assert_eq!(caps, json!({"l": ["a"]}));
    assert_round_trip("{;l*}/{o}", json!({"l": ["a", ""], "o": "x"}));
    // Followed by a variable with no literal between, its map could take that variable's
    // items: refused (F18).
    let t = UriTemplate::parse("{;l*}{o}").unwrap();
    assert_eq!(
        refused_by(t.match_uri(";l=a")),
        Some(LintKind::ExplodedBeforeVariable)
    );
}

#[test]
fn a_query_tail_of_question_marks_starts_at_a_question_mark() {
    // `{?..}` expansions start with `?`: an `&` before it belongs to `{+path}`.
    let caps = assert_round_trip("file:///{+path}{?rev}", json!({"path": "a&b", "rev": "1"}));
    assert_eq!(caps, json!({"path": "a&b", "rev": "1"}));
    let caps = assert_round_trip("file:///{+path}{?rev}", json!({"path": "a&b=c"}));
    assert_eq!(caps, json!({"path": "a&b=c"}));
    let t = UriTemplate::parse("x{?a}").unwrap();
    assert_eq!(t.match_uri("x&a=1").unwrap_err(), MatchError::NoMatch);
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

#[test]
fn a_repeated_name_whose_occurrences_a_match_cannot_place_is_refused() {
    // F3, F4: occurrences of one name must agree, which is checked on the places the match
    // chose; where another placing could agree, the template is refused when it compiles.
    for text in [
        "{a,b}{b}",
        "{#y,x,y}",
        "{x,h,h,y}",
        "{/a,a}{+b}",
        "{_:1}{+_*}",
        "{+a}/{+a}",
    ] {
        let t = UriTemplate::parse(text).unwrap();
        assert_eq!(
            refused_by(t.match_uri("ab/ab")),
            Some(LintKind::RepeatedAmbiguous),
            "{text}"
        );
    }
    let t = UriTemplate::parse("{a:3}/{a}").unwrap();
    assert_eq!(
        t.match_uri("abc/abcd").unwrap().get("a").unwrap().decoded(),
        "abcd"
    );
}

/// The rule that refused a template when it compiled, if one did.
fn refused_by<T>(outcome: Result<T, MatchError>) -> Option<LintKind> {
    match outcome {
        Err(MatchError::Unsupported(Unsupported::Shape { kind, .. })) => Some(kind),
        _ => None,
    }
}

#[test]
fn hostile_variants_leave_a_repeated_name_out() {
    let t = UriTemplate::parse("dict://{term:1}/{term}/{id}").unwrap();
    let variants = rfc6570::testing::hostile_variants(&t);
    assert!(!variants.is_empty());
    assert!(variants.iter().all(|v| v.variable() == "id"));
}
