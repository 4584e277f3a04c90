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
//! The generators respect the documented matching semantics (`UriTemplate::match_uri`), and a
//! few shapes whose reading needs a design decision; each is named where it is shaped, with the
//! number of the finding it came from (the property tests' own F1 to F10, numbered apart from
//! the fuzz findings of `fuzz/README.md`):
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
#[path = "common/checks.rs"]
#[allow(dead_code, clippy::duplicate_mod)]
mod checks;
mod common;

use std::collections::{BTreeMap, BTreeSet};

use common::strategies::{self, Modifier, Part, Template};
use proptest::prelude::*;
use rfc6570::matching::{Malformed, MatchOptions, QueryError, Unsupported};
use rfc6570::template::Operator;
use rfc6570::{Captures, MatchError, UriTemplate};
use serde_json::{json, Map, Value};

// ---------------------------------------------------------------------------------------------
// Shaping generated cases to the documented semantics

/// Leaves query expressions only in the query tail, and `{?..}` only as its first (F1).
fn shape_template(mut t: Template) -> Template {
    let tail = t.tail_start();
    if tail == t.parts.len() {
        return t;
    }
    for part in &mut t.parts[..tail] {
        if let Part::Expression(op @ Some('?' | '&'), _) = part {
            *op = Some('/');
        }
    }
    for part in &mut t.parts[tail + 1..] {
        if let Part::Expression(op @ Some('?'), _) = part {
            *op = Some('&');
        }
    }
    t
}

/// What the query tail of a template looks like.
struct TailInfo {
    /// Number of variable specs before the tail.
    head_specs: usize,
    /// Whether the tail can start with `?`, and with `&`.
    query: bool,
    continuation: bool,
    names: BTreeSet<String>,
    first_exploded: Option<String>,
}

impl TailInfo {
    fn of(t: &Template) -> Self {
        let tail: Vec<_> = t.tail_specs().collect();
        Self {
            head_specs: t.specs().count() - tail.len(),
            query: tail.iter().any(|(op, _)| *op == Some('?')),
            continuation: tail.iter().any(|(op, _)| *op == Some('&')),
            names: tail.iter().map(|(_, s)| s.name.clone()).collect(),
            first_exploded: tail
                .iter()
                .find(|(_, s)| s.modifier == Modifier::Explode)
                .map(|(_, s)| s.name.clone()),
        }
    }
}

/// Adjusts generated variables to the documented semantics (see the module docs).
fn shape_vars(t: &Template, vars: &Value) -> Value {
    let tail = TailInfo::of(t);
    let mut out = Map::new();
    for (i, (op, spec)) in t.specs().enumerate() {
        let Some(value) = vars.get(&spec.name) else {
            continue;
        };
        let exploded = spec.modifier == Modifier::Explode;
        let mut value = match op {
            Some(op @ ('+' | '#')) => map_strings(value, &|s| reserved_value(s, op, &tail)),
            // F5: a `.` in a `{.m*}` key would make the split of the entries ambiguous.
            Some('.') if exploded => map_keys(value, &|k| k.replace('.', "")),
            _ => value.clone(),
        };
        if let (Modifier::Prefix(_), Value::Array(_) | Value::Object(_)) = (&spec.modifier, &value)
        {
            // A prefix applies to strings only (RFC 6570 §2.4.1): keep the first item.
            value = first_item(&value);
        }
        if i >= tail.head_specs {
            value = tail_value(value, spec, &tail);
        }
        out.insert(spec.name.clone(), value);
    }
    Value::Object(out)
}

/// A value of `{+v}` or `{#v}`.
fn reserved_value(s: &str, op: char, tail: &TailInfo) -> String {
    let dropped = |c: char| match c {
        // `{+v}` never captures `?` or `#` (documented).
        '?' | '#' if op == '+' => true,
        // F1: the head ends where the query tail can start.
        '?' => tail.query,
        '&' => tail.continuation,
        _ => false,
    };
    let s: String = s.chars().filter(|&c| !dropped(c)).collect();
    escape_triplets(&s)
}

/// Reserved expansion passes triplets through. Runs of triplets that do not decode to UTF-8
/// would be malformed in the URI (documented), and triplets of unreserved characters may be
/// read by a neighbouring simple variable, which decodes them (F2): write their `%` as `%25`.
fn escape_triplets(s: &str) -> String {
    let b = s.as_bytes();
    let is_triplet = |i: usize| {
        b.len() > i + 2
            && b[i] == b'%'
            && b[i + 1].is_ascii_hexdigit()
            && b[i + 2].is_ascii_hexdigit()
    };
    let byte = |i: usize| u8::from_str_radix(&s[i + 1..i + 3], 16).unwrap();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < b.len() {
        if !is_triplet(i) {
            let c = s[i..].chars().next().unwrap();
            out.push(c);
            i += c.len_utf8();
            continue;
        }
        let start = i;
        let mut bytes = Vec::new();
        while is_triplet(i) {
            bytes.push(byte(i));
            i += 3;
        }
        let utf8 = std::str::from_utf8(&bytes).is_ok();
        for (k, &decoded) in bytes.iter().enumerate() {
            let triplet = &s[start + 3 * k..start + 3 * k + 3];
            if !utf8 || is_unreserved(decoded) {
                out.push_str("%25");
                out.push_str(&triplet[1..]);
            } else {
                out.push_str(triplet);
            }
        }
    }
    out
}

fn is_unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"-._~".contains(&b)
}

/// F4: in the query tail, a map's keys are undeclared names, and only the first exploded
/// variable holds a map (a map elsewhere becomes the list of its values).
fn tail_value(value: Value, spec: &strategies::Spec, tail: &TailInfo) -> Value {
    let Value::Object(map) = value else {
        return value;
    };
    let collector = tail.first_exploded.as_deref() == Some(spec.name.as_str());
    if spec.modifier != Modifier::Explode {
        Value::Object(map)
    } else if collector {
        let map = map
            .into_iter()
            .filter(|(k, _)| !tail.names.contains(k))
            .collect();
        Value::Object(map)
    } else {
        Value::Array(map.into_iter().map(|(_, v)| v).collect())
    }
}

fn first_item(v: &Value) -> Value {
    match v {
        Value::Array(items) => items.first().cloned().unwrap_or(Value::Null),
        Value::Object(map) => map.values().next().cloned().unwrap_or(Value::Null),
        other => other.clone(),
    }
}

fn map_strings(v: &Value, f: &dyn Fn(&str) -> String) -> Value {
    match v {
        Value::String(s) => Value::String(f(s)),
        Value::Array(items) => Value::Array(items.iter().map(|x| map_strings(x, f)).collect()),
        Value::Object(map) => {
            let map = map.iter().map(|(k, x)| (f(k), map_strings(x, f)));
            Value::Object(map.collect())
        }
        other => other.clone(),
    }
}

fn map_keys(v: &Value, f: &dyn Fn(&str) -> String) -> Value {
    match v {
        Value::Object(map) => Value::Object(map.iter().map(|(k, x)| (f(k), x.clone())).collect()),
        other => other.clone(),
    }
}

/// A template and variables for a round trip.
fn round_trip_case() -> impl Strategy<Value = (Template, Value)> {
    case_for(strategies::template_distinct_names().prop_map(shape_template))
}

/// As [`round_trip_case`], with no place for a query in the template: no `?` or `#` in
/// literals, no query or fragment expressions.
fn no_query_case() -> impl Strategy<Value = (Template, Value)> {
    let template = strategies::template_distinct_names().prop_map(|mut t| {
        for part in &mut t.parts {
            match part {
                Part::Literal(text) => text.retain(|c| c != '?' && c != '#'),
                Part::Expression(op @ Some('?' | '&'), _) => *op = Some('/'),
                Part::Expression(op @ Some('#'), _) => *op = Some('+'),
                Part::Expression(..) => {}
            }
        }
        t
    });
    case_for(template)
}

fn case_for(template: impl Strategy<Value = Template>) -> impl Strategy<Value = (Template, Value)> {
    template
        .prop_flat_map(|t| {
            let vars = strategies::vars_for(&t, strategies::value());
            (Just(t), vars)
        })
        .prop_map(|(t, vars)| {
            let vars = shape_vars(&t, &vars);
            (t, vars)
        })
}

// ---------------------------------------------------------------------------------------------
// Comparing URIs

/// What section 5 of the semantics keeps of a query tail's text: its leading `?` or `&`,
/// and for each name its values in order.
fn query_shape(text: &str) -> (Option<char>, BTreeMap<String, Vec<String>>) {
    let text = checks::normalize(text);
    let mut chars = text.chars();
    let lead = chars.next();
    let mut params: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for pair in chars.as_str().split('&').filter(|p| !p.is_empty()) {
        let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
        params.entry(name.into()).or_default().push(value.into());
    }
    (lead, params)
}

/// Whether a value of a `{+v}` or `{#v}` expression holds a `%`, which expansion may pass
/// through as a triplet.
fn passes_triplets(text: &str, vars: &Value) -> bool {
    fn has_percent(v: &Value) -> bool {
        match v {
            Value::String(s) => s.contains('%'),
            Value::Array(items) => items.iter().any(has_percent),
            Value::Object(map) => map.iter().any(|(k, v)| k.contains('%') || has_percent(v)),
            _ => false,
        }
    }
    let t = UriTemplate::parse(text).unwrap();
    let passes = t
        .expressions()
        .filter(|e| matches!(e.operator(), Operator::Reserved | Operator::Fragment))
        .flat_map(|e| e.variables())
        .any(|v| vars.get(v.name()).is_some_and(has_percent));
    passes
}

/// Whether a `{+v}` or `{#v}` variable captured text with a triplet, which comes back decoded.
fn reserved_capture_held_triplet(t: &UriTemplate, caps: &Captures<'_>) -> bool {
    t.expressions()
        .filter(|e| matches!(e.operator(), Operator::Reserved | Operator::Fragment))
        .flat_map(|e| e.variables())
        .any(|v| caps.get(v.name()).is_some_and(|c| c.raw().contains('%')))
}

// ---------------------------------------------------------------------------------------------
// Properties

/// Expands `vars` into `g`, matches the URI, expands the captures, and compares.
fn check_round_trip(g: &Template, vars: &Value) -> Result<(), TestCaseError> {
    let text = g.text();
    let t = UriTemplate::parse(&text).unwrap();
    let uri = t.expand(vars).unwrap();
    let caps = match t.match_uri(&uri) {
        Ok(caps) => caps,
        // Refused when it compiles, for a reason a caller can match on: never a wrong answer.
        Err(MatchError::Unsupported(_)) => return Ok(()),

        // Design note, section 3: `{+v}` and `{#v}` pass a value's triplets through, and a
        // prefix may cut a run of them (`{#v:4}` of `%C2%A1` writes `%C2%25`): what is left
        // does not decode to UTF-8, which a match reports.
        Err(MatchError::Malformed {
            reason: Malformed::NotUtf8,
            ..
        }) if passes_triplets(&text, vars) => return Ok(()),
        Err(e) => {
            return Err(TestCaseError::fail(format!(
                "{text:?} with {vars} gave {uri:?}: {e}"
            )))
        }
    };
    let json = serde_json::to_value(&caps).unwrap();

    // Compare the part before the query tail exactly, and the tail by its pairs.
    let (head, tail) = g.head_and_tail();
    let (head, tail) = (
        UriTemplate::parse(&head).unwrap(),
        UriTemplate::parse(&tail).unwrap(),
    );
    let (head_uri, tail_uri) = (head.expand(vars).unwrap(), tail.expand(vars).unwrap());
    prop_assert_eq!(format!("{head_uri}{tail_uri}"), uri.as_str());
    let (head_again, tail_again) = (head.expand(&json).unwrap(), tail.expand(&json).unwrap());
    let context = || format!("{text:?} with {vars}: {uri:?} gave {json}");
    if passes_triplets(&text, vars) || reserved_capture_held_triplet(&t, &caps) {
        // Section 10 of the design: a `{+v}` or `{#v}` value that held a triplet comes back
        // decoded (`%3F` as `?`, `%25AA` as `%AA`), and expanding it writes something else
        // (`?`, or the triplet `%AA`): the match and the expansion of its captures are all
        // there is to check.
        return Ok(());
    }
    prop_assert_eq!(
        checks::normalize(&head_again),
        checks::normalize(&head_uri),
        "{}",
        context()
    );
    prop_assert_eq!(
        query_shape(&tail_again),
        query_shape(&tail_uri),
        "{}",
        context()
    );
    Ok(())
}

/// A URI-like string: URI characters, triplets (valid, not UTF-8, malformed), non-ASCII.
fn uri_like() -> impl Strategy<Value = String> {
    let atom = prop_oneof![
        4 => "[a-z0-9]{1,3}",
        4 => prop::sample::select(":/?#[]@!$&'()*+,;=.-_~%".chars().collect::<Vec<_>>())
            .prop_map(String::from),
        1 => strategies::any_triplet(),
        1 => strategies::char_triplets(),
        1 => any::<char>().prop_map(String::from),
    ];
    prop::collection::vec(atom, 0..24).prop_map(|a| a.concat())
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
    fn expansions_match_back_to_the_same_uri((g, vars) in round_trip_case()) {
        check_round_trip(&g, &vars)?;
    }

    #[test]
    fn a_query_where_the_template_has_none_does_not_match(
        (g, vars) in no_query_case(),
        query in "[a-z=&]{0,6}",
    ) {
        let t = UriTemplate::parse(&g.text()).unwrap();
        prop_assert!(!g.text().contains(['?', '#']));
        let uri = format!("{}?{query}", t.expand(&vars).unwrap());
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
        g in strategies::template(),
        uri in uri_like(),
    ) {
        let t = UriTemplate::parse(&g.text()).unwrap();
        check_no_panic(&t, &uri)?;
        // The fuzz target's properties too: an equivalent URI (unreserved characters encoded)
        // reads the same, and a strict reading agrees with the default one.
        checks::match_uri(&g.text(), &uri).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn nearly_matching_uris_give_captures_or_an_error(
        (g, vars) in round_trip_case(),
        edits in prop::collection::vec((any::<usize>(), any::<u8>(), uri_like()), 1..4),
    ) {
        let t = UriTemplate::parse(&g.text()).unwrap();
        let uri = mutate(&t.expand(&vars).unwrap(), &edits);
        check_no_panic(&t, &uri)?;
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
            t.match_uri("/a").unwrap_err(),
            MatchError::Unsupported(Unsupported::ExplodedBeforeVariable),
            "{text}"
        );
    }
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
        t.match_uri(";l=a").unwrap_err(),
        MatchError::Unsupported(Unsupported::ExplodedBeforeVariable)
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
fn a_repeated_name_is_refused_when_the_template_compiles() {
    // F3, F4: occurrences of one name must agree, which no linear-time match can enforce.
    for text in [
        "{a:3}/{a}",
        "{a,b}{b}",
        "{#y,x,y}",
        "{x,h,h,y}",
        "{/a,a}{+b}",
        "{_:1}{+_*}",
    ] {
        let t = UriTemplate::parse(text).unwrap();
        assert_eq!(
            t.match_uri("ab/ab").unwrap_err(),
            MatchError::Unsupported(Unsupported::RepeatedName),
            "{text}"
        );
    }
}
