//! The properties the fuzz targets check, in one place for the targets and for the stable
//! replay of `tests/fuzz_regressions/`: `tests/fuzz_regressions.rs` and the fuzz crate
//! (`fuzz/src/lib.rs`) include this file as a module, by path. It lives in the test tree so that
//! the published package, which has no `fuzz/`, still compiles its tests.
//!
//! A check takes a [`Case`] and says whether its property holds; it never decides what to
//! generate. A panic inside the crate is a failure too: libFuzzer reports it as a crash, and the
//! replay test catches it.

use std::collections::HashMap;
use std::sync::OnceLock;

use rfc6570::matching::{Malformed, MatchOptions};
use rfc6570::router::RouterOptions;
use rfc6570::safety::SafetyPolicy;
use rfc6570::template::{Component, Expression, Operator};
use rfc6570::{Error, MatchError, RouteError, Router, UriTemplate};

#[path = "oracle.rs"]
mod oracle;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The fuzz targets, each the name of a check and of a `tests/fuzz_regressions/` folder.
pub const TARGETS: [&str; 6] = [
    "parse",
    "expand",
    "match_uri",
    "roundtrip",
    "differential",
    "router",
];

/// One input: what a target generates, and what a regression file holds as JSON.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    pub template: String,
    /// The variables, a JSON object (`null` members are undefined).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vars: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uri: Option<String>,
    /// Set in a regression file whose check still fails: the open finding it belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open: Option<String>,
}

/// Runs the check of `target` on `case`.
pub fn check(target: &str, case: &Case) -> Result<(), String> {
    let vars = case.vars.clone().unwrap_or(Value::Null);
    match target {
        "parse" => parse(&case.template),
        "expand" => expand(&case.template, &vars),
        "match_uri" => match_uri(&case.template, case.uri.as_deref().unwrap_or("")),
        "router" => router(&case.template, case.uri.as_deref().unwrap_or("")),
        "roundtrip" => roundtrip(&case.template, &vars),
        "differential" => differential(&case.template, &vars),
        other => Err(format!("no fuzz target is called {other:?}")),
    }
}

/// [`check`] for a fuzz target: a failure panics with the case as JSON, ready to be saved as a
/// regression file. With `RFC6570_FUZZ_SKIP_OPEN` set, a failure that fits an [`open_finding`]
/// is let through, so that a long run can explore past bugs already reported.
pub fn run(target: &str, case: &Case) {
    static SKIP_OPEN: OnceLock<bool> = OnceLock::new();
    if let Err(why) = check(target, case) {
        let skip = *SKIP_OPEN.get_or_init(|| std::env::var_os("RFC6570_FUZZ_SKIP_OPEN").is_some());
        if skip && open_finding(target, case).is_some() {
            return;
        }
        let json = serde_json::to_string(case).expect("a case serializes");
        panic!("{target}: {why}\nregression file: {json}");
    }
}

/// The reported, unfixed bugs of this crate (listed in `fuzz/README.md`, and marked `"open"` in
/// their regression files) that a failing case may be an instance of, by its input's shape.
pub fn open_finding(target: &str, case: &Case) -> Option<&'static str> {
    let t = UriTemplate::parse(&case.template).ok()?;
    let vars = case.vars.as_ref().unwrap_or(&Value::Null);
    let names: Vec<&str> = t.variables().map(|v| v.name()).collect();
    let repeated = names
        .iter()
        .enumerate()
        .any(|(i, n)| names[..i].contains(n));
    match target {
        "roundtrip" if repeated => Some("F3, F4: repeated variable names"),
        "roundtrip" if tail_may_start_with_ampersand(&t) && passed_through(&t, vars, "&") => {
            Some("F6: `&` in a `{+v}` or `{#v}` value before a tail that may start with `&`")
        }
        "roundtrip"
            if tail(&t)
                .iter()
                .flat_map(|e| e.variables())
                .filter(|v| v.is_exploded())
                .count()
                > 1 =>
        {
            Some("F14: two exploded variables in a query tail share its undeclared parameters")
        }
        "roundtrip" if query_in_head(&t) => {
            Some("F13: a query expression before the query tail, which can end the head early")
        }
        "roundtrip" if names.iter().any(|n| n.contains('%')) => {
            Some("F12: a variable name with a triplet, written into the URI by a named explode")
        }
        "roundtrip" if continuation_triplet_after_expression(&t) => {
            Some("F16: a literal triplet of a UTF-8 continuation byte right after an expression")
        }
        "roundtrip" if passed_through(&t, vars, "%") => {
            Some("F9: a triplet in a `{+v}` or `{#v}` value")
        }
        "roundtrip" if !tail(&t).is_empty() && passed_through(&t, vars, "?") => {
            Some("F17: `?` in a `{#v}` value before a query tail, which takes it")
        }
        "differential" if prefix_on_passed_triplet(&t, vars) => {
            Some("F10: a prefix over a triplet in `{+v:n}` or `{#v:n}`")
        }
        _ => None,
    }
}

/// The trailing run of `{?..}` and `{&..}` expressions, which matching reads as a query tail.
fn tail(t: &UriTemplate) -> Vec<Expression<'_>> {
    let mut tail = Vec::new();
    for c in t.components() {
        match c {
            Component::Expression(e)
                if matches!(e.operator(), Operator::Query | Operator::QueryContinuation) =>
            {
                tail.push(e)
            }
            _ => tail.clear(),
        }
    }
    tail
}

/// Whether the query tail has a `{&..}` expression, so that it may start with `&`.
fn tail_may_start_with_ampersand(t: &UriTemplate) -> bool {
    tail(t)
        .iter()
        .any(|e| e.operator() == Operator::QueryContinuation)
}

/// Whether a literal right after an expression starts with a triplet of a UTF-8 continuation
/// byte (`{r}%AB`), which the matcher reads as the end of the variable's last character.
fn continuation_triplet_after_expression(t: &UriTemplate) -> bool {
    t.as_str().match_indices("}%").any(|(i, _)| {
        let hex = t.as_str().get(i + 2..i + 4).unwrap_or("");
        u8::from_str_radix(hex, 16).is_ok_and(|b| (0x80..0xC0).contains(&b))
    })
}

/// Whether a `{?..}` or `{&..}` expression stands before the template's query tail.
fn query_in_head(t: &UriTemplate) -> bool {
    let query =
        |e: &Expression<'_>| matches!(e.operator(), Operator::Query | Operator::QueryContinuation);
    let in_tail = tail(t).len();
    !tail(t).is_empty() && t.expressions().filter(query).count() > in_tail
}

/// Whether a value of `{+v}` or `{#v}` holds any of `chars`.
fn passed_through(t: &UriTemplate, vars: &Value, chars: &str) -> bool {
    strings_under(t, vars, &[Operator::Reserved, Operator::Fragment])
        .iter()
        .any(|s| s.contains(|c| chars.contains(c)))
}

fn prefix_on_passed_triplet(t: &UriTemplate, vars: &Value) -> bool {
    let passes = |op| matches!(op, Operator::Reserved | Operator::Fragment);
    t.expressions().filter(|e| passes(e.operator())).any(|e| {
        e.variables().any(|v| {
            v.prefix().is_some()
                && vars
                    .get(v.name())
                    .and_then(Value::as_str)
                    .is_some_and(|s| s.contains('%'))
        })
    })
}

/// Parsing never panics; a parsed template prints as its source and its parts put together
/// make the source again; an error points at a character of the template.
pub fn parse(template: &str) -> Result<(), String> {
    match UriTemplate::parse(template) {
        Ok(t) => {
            let printed = t.to_string();
            if printed != template {
                return Err(format!("parsed {template:?} prints as {printed:?}"));
            }
            let joined: String = t
                .components()
                .map(|c| match c {
                    Component::Literal(text) => text,
                    Component::Expression(e) => e.as_str(),
                })
                .collect();
            if joined != template {
                return Err(format!(
                    "{template:?} parsed into parts that make {joined:?}"
                ));
            }
            Ok(())
        }
        Err(e) => error_is_sound(&e, template, true),
    }
}

/// An error says whether it is about parsing, and points at a character of the template.
fn error_is_sound(e: &Error, template: &str, parsing: bool) -> Result<(), String> {
    if e.is_parse() != parsing || e.template() != template {
        return Err(format!("{template:?}: misfiled error {e:?}"));
    }
    if let Some(at) = e.position() {
        if at > template.len() || !template.is_char_boundary(at) {
            return Err(format!(
                "{template:?}: error {e:?} points outside the template"
            ));
        }
    }
    let _ = format!("{e} {e:#}");
    Ok(())
}

/// Expansion never panics; it writes an ASCII URI whose every `%` starts a triplet, the same
/// into a `String` as into any writer; an expansion error names the expression at fault.
pub fn expand(template: &str, vars: &Value) -> Result<(), String> {
    let Ok(t) = UriTemplate::parse(template) else {
        return Ok(());
    };
    let mut written = String::from("kept:");
    let streamed = t.expand_to(vars, &mut written);
    match t.expand(vars) {
        Ok(uri) => {
            if streamed.is_err() || written.strip_prefix("kept:") != Some(uri.as_str()) {
                return Err(format!("expand gave {uri:?}, expand_to {written:?}"));
            }
            if !uri.is_ascii() || bad_percent(&uri).is_some() {
                return Err(format!("expansion {uri:?} is not a valid URI text"));
            }
            Ok(())
        }
        Err(e) => {
            error_is_sound(&e, template, false)?;
            match e.position() {
                Some(at) if template[at..].starts_with('{') => Ok(()),
                _ => Err(format!(
                    "{template:?}: expansion error {e:?} is not at an expression"
                )),
            }
        }
    }
}

/// The offset of the first `%` that does not start a triplet.
fn bad_percent(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    (0..b.len()).find(|&i| {
        b[i] == b'%'
            && !(i + 2 < b.len() && b[i + 1].is_ascii_hexdigit() && b[i + 2].is_ascii_hexdigit())
    })
}

/// Matching never panics. Captures serialize, and extracting them as JSON gives the same value;
/// whatever matches with a strict query matches the same without one; errors point inside the
/// URI.
/// Routing never panics, and picks exactly what the brute-force reference of
/// `tests/common/oracle.rs` picks: every template's `match_uri`, ranked by the semantics'
/// precedence. `templates` holds one template per line (a template cannot hold a newline).
pub fn router(templates: &str, uri: &str) -> Result<(), String> {
    let mut router = Router::with_options(RouterOptions::new().safety(SafetyPolicy::OFF));
    let mut inserted = Vec::new();
    for line in templates.lines().take(16) {
        let Ok(t) = UriTemplate::parse(line) else {
            continue;
        };
        if oracle::has_repeated_names(&t) {
            // F3: repeated names are checked after the VM picks a path, not by the reference.
            continue;
        }
        if router.insert(t.clone(), t.to_string()).is_ok() {
            inserted.push(t);
        }
    }
    let options = MatchOptions::default().allow_empty_path_vars(false);
    let Ok(expected) = oracle::reference(&inserted, uri, &options) else {
        return Ok(()); // captures the reference cannot rank (a map's repeated keys)
    };
    let got = match router.at(uri) {
        Ok(r) => Some((
            r.value.clone(),
            serde_json::to_value(&r.captures).map_err(|e| e.to_string())?,
        )),
        Err(RouteError::NotFound) => None,
        // Errors of the best match (malformed input, query pollution) stop routing.
        Err(_) => return Ok(()),
    };
    if got != expected {
        return Err(format!(
            "{uri:?} over {templates:?}: router {got:?}, reference {expected:?}"
        ));
    }
    Ok(())
}

pub fn match_uri(template: &str, uri: &str) -> Result<(), String> {
    let Ok(t) = UriTemplate::parse(template) else {
        return Ok(());
    };
    let strict = MatchOptions::default().strict_query(true);
    let strict = t
        .match_uri_with(uri, &strict)
        .map(|c| serde_json::to_value(&c));
    match t.match_uri(uri) {
        Ok(caps) => {
            let json = serde_json::to_value(&caps).map_err(|e| format!("captures: {e}"))?;
            let extracted: Value = caps.deserialize().map_err(|e| format!("extract: {e}"))?;
            if extracted != json {
                return Err(format!(
                    "captures serialize as {json}, extract as {extracted}"
                ));
            }
            for c in caps.iter() {
                let _ = (
                    c.kind(),
                    c.raw(),
                    c.decoded(),
                    c.items().count(),
                    c.entries().count(),
                );
            }
            match strict {
                Ok(Ok(s)) if s != json => Err(format!("strict {s} but lenient {json}")),
                _ => Ok(()),
            }
        }
        Err(MatchError::Malformed { position, .. }) if position > uri.len() => {
            Err(format!("{uri:?}: malformed at {position}, past the end"))
        }
        Err(e) if strict.is_ok() => Err(format!("strict matched, lenient failed: {e}")),
        Err(_) => Ok(()),
    }
}

/// A successful expansion matches back, and the captures expand to the same URI (up to hex
/// case). The one tolerated failure: `{+v}` and `{#v}` pass a value's triplets through, so a
/// value holding triplets that are not UTF-8 (`%FF`) makes a URI whose capture cannot be decoded
/// (`Malformed::NotUtf8`, as the matcher documents).
pub fn roundtrip(template: &str, vars: &Value) -> Result<(), String> {
    let Ok(t) = UriTemplate::parse(template) else {
        return Ok(());
    };
    let Ok(uri) = t.expand(vars) else {
        return Ok(());
    };
    if outside_the_design(&t, vars) {
        return Ok(());
    }
    let caps = match t.match_uri(&uri) {
        Ok(caps) => caps,
        Err(MatchError::Unsupported { .. }) => return Ok(()),
        Err(MatchError::Malformed {
            reason: Malformed::NotUtf8,
            ..
        }) if passes_high_triplets(&t, vars) => return Ok(()),
        Err(e) => return Err(format!("{uri:?} does not match back: {e}")),
    };
    let json = serde_json::to_value(&caps).map_err(|e| format!("captures: {e}"))?;
    let again = t
        .expand(&json)
        .map_err(|e| format!("{uri:?} captured {json}, which does not expand: {e}"))?;
    if normalize_hex(&again) != normalize_hex(&uri) {
        return Err(format!(
            "{uri:?} captured {json}, which expands to {again:?}"
        ));
    }
    Ok(())
}

/// Inputs whose round trip the semantics give up, each a documented limitation:
/// - `{+v}` never captures `?` or `#` (semantics, section 2), so a reserved expansion of a value
///   that holds one cannot match back;
/// - in a query tail, an exploded `{?m*}` collects the parameters named `m` before the
///   undeclared ones, and a declared name given twice is an error (semantics, section 5), so a map
///   whose key is a name the tail declares cannot match back.
fn outside_the_design(t: &UriTemplate, vars: &Value) -> bool {
    let reserved = strings_under(t, vars, &[Operator::Reserved]);
    if reserved.iter().any(|s| s.contains(['?', '#'])) {
        return true;
    }
    let tail = tail(t);
    let specs = || tail.iter().flat_map(|e| e.variables());
    let declared = |key: &String| specs().any(|v| v.name() == key);
    specs()
        .filter(|v| v.is_exploded())
        .any(|v| match vars.get(v.name()) {
            Some(Value::Object(map)) => map.keys().any(declared),
            _ => false,
        })
}

/// Every string (value, item, key) of the variables of expressions with one of `ops`.
fn strings_under<'v>(t: &UriTemplate, vars: &'v Value, ops: &[Operator]) -> Vec<&'v str> {
    fn collect<'v>(v: &'v Value, out: &mut Vec<&'v str>) {
        match v {
            Value::String(s) => out.push(s),
            Value::Array(items) => items.iter().for_each(|i| collect(i, out)),
            Value::Object(map) => map.iter().for_each(|(k, v)| {
                out.push(k);
                collect(v, out);
            }),
            _ => {}
        }
    }
    let mut out = Vec::new();
    for e in t.expressions().filter(|e| ops.contains(&e.operator())) {
        for spec in e.variables() {
            if let Some(v) = vars.get(spec.name()) {
                collect(v, &mut out);
            }
        }
    }
    out
}

/// Whether `s` has a `%` that starts no triplet with a `%`, a space or a non-ASCII character
/// among the next two characters.
fn broken_percent_before_special(s: &str) -> bool {
    s.char_indices().any(|(i, c)| {
        c == '%'
            && bad_percent(&s[i..]) == Some(0)
            && s[i + 1..]
                .chars()
                .take(2)
                .any(|c| c == '%' || c == ' ' || !c.is_ascii())
    })
}

/// Whether a value of `{+v}` or `{#v}` holds a triplet for a byte over 0x7F, which expansion
/// passes through.
fn passes_high_triplets(t: &UriTemplate, vars: &Value) -> bool {
    let high = |s: &&str| {
        s.as_bytes().windows(3).any(|w| {
            w[0] == b'%' && w[1].is_ascii_hexdigit() && w[2].is_ascii_hexdigit() && w[1] >= b'8'
        })
    };
    strings_under(t, vars, &[Operator::Reserved, Operator::Fragment])
        .iter()
        .any(high)
}

/// Upper-cases the hex digits of triplets: URIs that differ only there are equivalent.
pub fn normalize_hex(uri: &str) -> String {
    let mut out = String::with_capacity(uri.len());
    let mut rest = uri;
    while let Some(i) = rest.find('%') {
        out.push_str(&rest[..i]);
        let triplet = rest.get(i..i + 3).unwrap_or(&rest[i..]);
        out.push_str(&triplet.to_ascii_uppercase());
        rest = &rest[i + triplet.len()..];
    }
    out.push_str(rest);
    out
}

/// Expansion agrees with std-uritemplate on every template this crate accepts, except where
/// [`known_difference`] names a documented bug of std-uritemplate (listed in `fuzz/README.md`).
pub fn differential(template: &str, vars: &Value) -> Result<(), String> {
    let Ok(t) = UriTemplate::parse(template) else {
        return Ok(());
    };
    let Some(theirs_vars) = std_vars(vars) else {
        return Ok(());
    };
    let ours = t.expand(vars).map_err(|e| e.to_string());
    let theirs = stduritemplate::expand(template, &theirs_vars).map_err(|e| e.to_string());
    let agree = match (&ours, &theirs) {
        (Ok(a), Ok(b)) => a == b,
        (Err(_), Err(_)) => true,
        _ => false,
    };
    if agree || known_difference(&t, vars).is_some() {
        return Ok(());
    }
    Err(format!(
        "rfc6570 gives {ours:?}, std-uritemplate {theirs:?}"
    ))
}

/// The variables as std-uritemplate takes them. It has no `null`: undefined members and items
/// are left out, which RFC 6570 §2.3 makes equivalent. Numbers other than `i64` go as their
/// JSON text, which is what this crate writes (RFC 6570 has no numbers; std-uritemplate prints
/// floats its own way). `None` when `vars` is not an object.
fn std_vars(vars: &Value) -> Option<HashMap<String, stduritemplate::Value>> {
    fn convert(v: &Value) -> Option<stduritemplate::Value> {
        use stduritemplate::Value as V;
        Some(match v {
            Value::Null => return None,
            Value::Bool(b) => V::Bool(*b),
            Value::Number(n) => n
                .as_i64()
                .map_or_else(|| V::String(n.to_string()), V::Integer),
            Value::String(s) => V::String(s.clone()),
            Value::Array(items) => V::List(items.iter().filter_map(convert).collect()),
            Value::Object(map) => V::Map(
                map.iter()
                    .filter_map(|(k, v)| Some((k.clone(), convert(v)?)))
                    .collect(),
            ),
        })
    }
    match vars {
        Value::Object(map) => Some(
            map.iter()
                .filter_map(|(k, v)| Some((k.clone(), convert(v)?)))
                .collect(),
        ),
        Value::Null => Some(HashMap::new()),
        _ => None,
    }
}

/// Why std-uritemplate is expected to differ on this input, if it is: each reason is one of its
/// bugs, with an example in `fuzz/README.md`.
pub fn known_difference(t: &UriTemplate, vars: &Value) -> Option<&'static str> {
    let reserved = strings_under(t, vars, &[Operator::Reserved, Operator::Fragment]);
    let disallowed = |c: char| c.is_ascii_control() || "\"<>\\^`{|}".contains(c);
    if reserved.iter().any(|s| s.contains(disallowed)) {
        return Some("std-uritemplate writes characters outside U+R raw in `{+v}` and `{#v}`");
    }
    if reserved.iter().any(|s| broken_percent_before_special(s)) {
        return Some("std-uritemplate loses text after a `%` that starts no triplet in `{+v}`");
    }
    let specs = || {
        t.expressions()
            .flat_map(|e| e.variables().map(move |v| (e.operator(), v)))
    };
    let first_member_empty = |name: &str| match vars.get(name) {
        Some(Value::Array(items)) => items.iter().find(|i| !i.is_null()) == Some(&Value::from("")),
        Some(Value::Object(map)) => map
            .iter()
            .find(|(_, v)| !v.is_null())
            .is_some_and(|(k, _)| k.is_empty()),
        _ => false,
    };
    let is_list = |name: &str| matches!(vars.get(name), Some(Value::Array(_)));
    if specs().any(|(_, v)| v.prefix().is_some() && is_list(v.name())) {
        return Some("std-uritemplate cuts each list item to a prefix instead of refusing it");
    }
    if specs().any(|(op, v)| {
        op == Operator::PathParam && !v.is_exploded() && first_member_empty(v.name())
    }) {
        return Some("std-uritemplate leaves out `=` in `{;v}` when a list or map starts empty");
    }
    let has_empty_value = |name: &str| match vars.get(name) {
        Some(Value::Object(map)) => map.values().any(|v| v == ""),
        _ => false,
    };
    if specs()
        .any(|(op, v)| op == Operator::PathParam && v.is_exploded() && has_empty_value(v.name()))
    {
        return Some("std-uritemplate writes `;key=` for an empty value in `{;m*}`");
    }
    None
}
