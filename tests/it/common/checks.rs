//! The properties the fuzz targets check, in one place for the targets and for the stable
//! replay of `tests/fuzz_regressions/`: `tests/it/fuzz_regressions.rs` and the fuzz crate
//! (`fuzz/src/lib.rs`) include this file as a module, by path. It lives in the test tree so that
//! the published package, which has no `fuzz/`, still compiles its tests.
//!
//! A check takes a [`Case`] and says whether its property holds; it never decides what to
//! generate. A panic inside the crate is a failure too: libFuzzer reports it as a crash, and the
//! replay test catches it.

use std::collections::HashMap;

use rfc6570::matching::{Malformed, MatchOptions, QueryError};
use rfc6570::router::RouterOptions;
use rfc6570::safety::SafetyPolicy;
use rfc6570::template::{Component, Expression, Operator};
use rfc6570::{Error, MatchError, RouteError, Router, UriTemplate};

use super::oracle;
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
/// regression file.
pub fn run(target: &str, case: &Case) {
    if let Err(why) = check(target, case) {
        let json = serde_json::to_string(case).expect("a case serializes");
        panic!("{target}: {why}\nregression file: {json}");
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

/// Parsing never panics; a parsed template prints as its source and its parts put together
/// make the source again; an error, and each lint, points at a character of the template.
pub fn parse(template: &str) -> Result<(), String> {
    match UriTemplate::parse(template) {
        Ok(t) => {
            for lint in t.lints() {
                let at = lint.position();
                if at >= template.len() || !template.is_char_boundary(at) {
                    return Err(format!("{template:?}: lint {lint:?} points outside"));
                }
                let _ = lint.to_string();
            }
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

/// Routing never panics, and picks exactly what the brute-force reference of
/// `tests/it/common/oracle.rs` picks: every template's `match_uri`, ranked by the semantics'
/// precedence. `templates` holds one template per line (a template cannot hold a newline).
pub fn router(templates: &str, uri: &str) -> Result<(), String> {
    let mut router = Router::with_options(RouterOptions::new().safety(SafetyPolicy::OFF));
    let mut inserted = Vec::new();
    for line in templates.lines().take(16) {
        let Ok(t) = UriTemplate::parse(line) else {
            continue;
        };
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

/// Matching never panics. Captures serialize, and extracting them as JSON gives the same value;
/// whatever matches with a strict query, or with strict encoding, matches the same without it;
/// errors point inside the URI.
pub fn match_uri(template: &str, uri: &str) -> Result<(), String> {
    let Ok(t) = UriTemplate::parse(template) else {
        return Ok(());
    };
    let strict = MatchOptions::default().strict_query(true);
    let strict = t
        .match_uri_with(uri, &strict)
        .map(|c| serde_json::to_value(&c));
    // A URI reads the same with its unreserved characters percent-encoded (RFC 3986 makes
    // them equivalent), and fails the same way.
    let encoded = encode_unreserved(uri);
    let plain = t.match_uri(uri).map(|c| serde_json::to_value(&c).ok());
    let equivalent = t.match_uri(&encoded).map(|c| serde_json::to_value(&c).ok());
    match (&plain, &equivalent) {
        (Ok(a), Ok(b)) if a == b => {}
        (Err(a), Err(b)) if a.code() == b.code() => {}
        _ => {
            return Err(format!(
                "{uri:?} gives {plain:?}, its equivalent {encoded:?} {equivalent:?}"
            ));
        }
    }
    // A URI read as an expansion writes it reads the same with raw sub-delimiters allowed.
    let as_written = MatchOptions::default().strict_encoding(true);
    if let Ok(c) = t.match_uri_with(uri, &as_written) {
        let written = serde_json::to_value(&c).map_err(|e| e.to_string())?;
        match t.match_uri(uri).map(|c| serde_json::to_value(&c)) {
            Ok(Ok(lenient)) if lenient == written => {}
            other => {
                return Err(format!(
                    "strict encoding gives {written}, the default {other:?}"
                ));
            }
        }
    }
    fragment_set_aside(&t, uri)?;
    scheme_without_case(&t, uri)?;
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

/// The outcome of a match as data: the captures as JSON, or the error's code.
fn outcome(t: &UriTemplate, uri: &str) -> Result<Value, &'static str> {
    t.match_uri(uri)
        .map(|c| serde_json::to_value(&c).unwrap_or(Value::Null))
        .map_err(|e| e.code())
}

/// A template without a fragment part (no `#` in its text) sets a URI's fragment aside: the
/// URI matches as its text before the `#` does, with the fragment on the captures, unless the
/// fragment itself is malformed.
fn fragment_set_aside(t: &UriTemplate, uri: &str) -> Result<(), String> {
    let (Some(hash), false) = (uri.find('#'), t.as_str().contains('#')) else {
        return Ok(());
    };
    let whole = t.match_uri(uri);
    if let Err(MatchError::Malformed { position, .. }) = whole {
        if position >= hash {
            return Ok(());
        }
    }
    if let Ok(caps) = &whole {
        if caps.fragment() != Some(&uri[hash + 1..]) {
            return Err(format!("{uri:?}: fragment {:?}", caps.fragment()));
        }
    }
    let (whole, rest) = (outcome(t, uri), outcome(t, &uri[..hash]));
    if whole != rest {
        return Err(format!(
            "{uri:?} gives {whole:?}, without its fragment {rest:?}"
        ));
    }
    Ok(())
}

/// Where the template starts with a literal scheme, a URI's scheme matches without case (RFC
/// 3986 section 6.2.2.1): upper-cased, it gives the same outcome.
fn scheme_without_case(t: &UriTemplate, uri: &str) -> Result<(), String> {
    let (Some(scheme), Some(theirs)) = (scheme_len(t.as_str()), scheme_len(uri)) else {
        return Ok(());
    };
    if scheme != theirs {
        return Ok(());
    }
    let upper = format!("{}{}", uri[..scheme].to_ascii_uppercase(), &uri[scheme..]);
    let (plain, shouted) = (outcome(t, uri), outcome(t, &upper));
    if plain != shouted {
        return Err(format!("{uri:?} gives {plain:?}, {upper:?} {shouted:?}"));
    }
    Ok(())
}

/// The length of the scheme `text` starts with, if a `:` ends one (RFC 3986 section 3.1).
fn scheme_len(text: &str) -> Option<usize> {
    let b = text.as_bytes();
    if !b.first()?.is_ascii_alphabetic() {
        return None;
    }
    let len = b
        .iter()
        .position(|&c| !(c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-' | b'.')))?;
    (b[len] == b':').then_some(len)
}

/// A successful expansion matches back, and the captures expand to the same URI up to RFC 3986
/// normalization (hex case, triplets of unreserved characters), or the template is refused
/// for matching when it compiles (`MatchError::Unsupported`, with its reason). Exactly the
/// deliberate leniencies of the design note's section 10 are tolerated:
/// - a `{+v}` or `{#v}` value that held a triplet comes back decoded (`%3F` as `?`, `%25AA`
///   as `%AA`), and expands to other text: for such input (or captures), the match and the
///   expansion of its captures are what is checked;
/// - undeclared query parameters are ignored: `{?d*}` with the map `{"d": "1", "e": "2"}`
///   writes `?d=1&e=2`, which collects the parameters named `d` as a list and ignores `e`.
///
/// And two rules of the design note's sections 2 to 4 that make some expansions fail to match:
/// - `{+v}` never captures `?` or `#` (section 2): the URI's query and fragment belong to
///   query and fragment expressions, so a `{+v}` value holding one cannot match back;
/// - the entries of an exploded `{.m*}` split at the last `.` before each `=` (section 2), so
///   a key holding `.` is read as a shorter one, which may come twice (`DuplicateKey`);
/// - a parameter name given twice is parameter pollution (section 4), so a map in the query
///   whose key is a name the query declares (`{?x,m*}` with `{"x": "1", "m": {"x": "2"}}`,
///   written `?x=1&x=2`) is refused with `DuplicateParameter`;
/// - a value that decodes to bytes that are not UTF-8 is `Malformed::NotUtf8` (section 3),
///   which `{+v}` and `{#v}` can write by passing a value's triplets (`%FF`) through;
/// - the occurrences of a repeated name compare decoded (section 15), so a `{+v}` occurrence
///   that passed a value's triplet through disagrees with the others.
pub fn roundtrip(template: &str, vars: &Value) -> Result<(), String> {
    let Ok(t) = UriTemplate::parse(template) else {
        return Ok(());
    };
    let Ok(uri) = t.expand(vars) else {
        return Ok(());
    };
    if reserved_holds_query(&t, vars) {
        // The URI's query and fragment belong to query and fragment expressions (section 2):
        // a `?` or `#` that `{+v}` writes starts them, whatever follows.
        return Ok(());
    }
    let caps = match t.match_uri(&uri) {
        Ok(caps) => caps,
        Err(MatchError::Unsupported(_)) => return Ok(()),
        Err(MatchError::DuplicateKey { .. }) if label_key_holds_dot(&t, vars) => return Ok(()),
        Err(MatchError::Query(QueryError::DuplicateParameter { name }))
            if query_map_key_is_declared(&t, vars, &name) =>
        {
            return Ok(());
        }
        Err(MatchError::Malformed {
            reason: Malformed::NotUtf8,
            ..
        }) if passes_high_triplets(&t, vars) => return Ok(()),
        // A repeated name's `{+v}` occurrence that passed a triplet decodes to other text
        // than its other occurrences (section 15 compares decoded values).
        Err(MatchError::Disagreement { .. }) if passes_triplets(&t, vars) => return Ok(()),
        Err(e) => return Err(format!("{uri:?} does not match back: {e}")),
    };
    let json = serde_json::to_value(&caps).map_err(|e| format!("captures: {e}"))?;
    let again = t
        .expand(&json)
        .map_err(|e| format!("{uri:?} captured {json}, which does not expand: {e}"))?;
    if normalize(&again) == normalize(&uri) {
        return Ok(());
    }
    if passes_triplets(&t, vars) || reserved_capture_held_triplet(&t, &caps) {
        // Decoded once, such a value expands to other text (`%3F` comes back as `?`, `%25AA`
        // as `%AA`, which expansion passes as a triplet): the match and the expansion of its
        // captures are all there is to check.
        return Ok(());
    }
    if has_query_map(&t) && ignored_undeclared(&uri, &again) {
        return Ok(());
    }
    Err(format!(
        "{uri:?} captured {json}, which expands to {again:?}"
    ))
}

/// Whether `again` is `uri` without some of the parameters of its query tail, as ignoring
/// undeclared parameters leaves it: the text before the tail is the same, and so are the
/// parameters `again` keeps, in order.
fn ignored_undeclared(uri: &str, again: &str) -> bool {
    // The tail's `?` is the last one: expansion encodes a `?` inside a query value, and the
    // text before the tail may hold literal ones (`s?/user{/id}{?s*}`).
    let split = |u: &str| -> (String, Vec<String>) {
        match u.rfind('?') {
            Some(i) => (
                normalize(&u[..i]),
                u[i + 1..].split('&').map(normalize).collect(),
            ),
            None => (normalize(u), Vec::new()),
        }
    };
    let ((head, pairs), (head_again, kept)) = (split(uri), split(again));
    let mut rest = pairs.iter();
    head == head_again && kept.iter().all(|k| rest.any(|p| p == k))
}

/// Whether a `{+v}` or `{#v}` variable captured text with a triplet, which comes back decoded.
fn reserved_capture_held_triplet(t: &UriTemplate, caps: &rfc6570::Captures<'_>) -> bool {
    t.expressions()
        .filter(|e| matches!(e.operator(), Operator::Reserved | Operator::Fragment))
        .flat_map(|e| e.variables())
        .any(|v| caps.get(v.name()).is_some_and(|c| c.raw().contains('%')))
}

/// Whether a map of an exploded `{.m*}` has a key holding `.`: entries split at the last `.`
/// before each `=` (semantics, section 2), so such a key is read as a shorter one, which may
/// then come twice.
fn label_key_holds_dot(t: &UriTemplate, vars: &Value) -> bool {
    t.expressions()
        .filter(|e| e.operator() == Operator::Label)
        .flat_map(|e| e.variables())
        .filter(|v| v.is_exploded())
        .any(|v| matches!(vars.get(v.name()), Some(Value::Object(m)) if m.keys().any(|k| k.contains('.'))))
}

/// Whether a `{+v}` value holds `?` or `#`, which only query and fragment expressions capture.
fn reserved_holds_query(t: &UriTemplate, vars: &Value) -> bool {
    strings_under(t, vars, &[Operator::Reserved])
        .iter()
        .any(|s| s.contains(['?', '#']))
}

/// Whether an exploded map in the query tail has the key `name`, which the tail also declares.
fn query_map_key_is_declared(t: &UriTemplate, vars: &Value, name: &str) -> bool {
    let tail = tail(t);
    let specs = || tail.iter().flat_map(|e| e.variables());
    specs().any(|v| v.name() == name)
        && specs().filter(|v| v.is_exploded()).any(
            |v| matches!(vars.get(v.name()), Some(Value::Object(map)) if map.contains_key(name)),
        )
}

/// Whether the query tail has an exploded variable, which may be given a map.
fn has_query_map(t: &UriTemplate) -> bool {
    tail(t)
        .iter()
        .flat_map(|e| e.variables())
        .any(|v| v.is_exploded())
}

/// Whether a value of `{+v}` or `{#v}` holds a triplet, which expansion passes through.
fn passes_triplets(t: &UriTemplate, vars: &Value) -> bool {
    strings_under(t, vars, &[Operator::Reserved, Operator::Fragment])
        .iter()
        .any(|s| {
            s.as_bytes()
                .windows(3)
                .any(|w| w[0] == b'%' && w[1].is_ascii_hexdigit() && w[2].is_ascii_hexdigit())
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

/// The URI with every other unreserved ASCII character written as its triplet (`abc` as
/// `a%62c`): an equivalent URI under RFC 3986 section 6.2.2.
pub fn encode_unreserved(uri: &str) -> String {
    let mut out = String::with_capacity(uri.len() * 2);
    let (mut nth, mut in_triplet) = (0, 0);
    for c in uri.chars() {
        // The hex digits of a triplet stay as they are.
        if c == '%' {
            in_triplet = 3;
        }
        if in_triplet > 0 {
            in_triplet -= 1;
            out.push(c);
            continue;
        }
        let unreserved = c.is_ascii_alphanumeric() || "-._~".contains(c);
        if unreserved {
            nth += 1;
        }
        if unreserved && nth % 2 == 0 {
            out.push_str(&format!("%{:02X}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

/// RFC 3986 section 6.2.2 normalization, as the public test support writes it.
pub use rfc6570::testing::normalize;

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
