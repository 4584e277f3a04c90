//! The round-trip domain: shaping generated templates and values so that matching the
//! expansion must give the values back (section 1 of the [semantics](crate::semantics)).
//!
//! Each rule names the part of the semantics it comes from. Outside this domain a match is
//! still an assignment that expands to the URI, but not necessarily the one generated.

use std::collections::BTreeSet;

use super::template::{GenModifier, GenPart, GenSpec, GenTemplate};
use super::value::{Value, Values};
use crate::template::Operator;

/// Leaves query expressions only in the query tail, and `{?..}` only as its first expression
/// (section 4: a query is read from the first `?`, and `{?..}` writes one).
///
/// ```
/// use rfc6570::testing::{shape_template, GenTemplate};
///
/// let t = GenTemplate::from(&rfc6570::UriTemplate::parse("{?a}x{?b}{?c}")?);
/// assert_eq!(shape_template(t).to_string(), "{/a}x{?b}{&c}");
/// # Ok::<(), rfc6570::Error>(())
/// ```
pub fn shape_template(mut t: GenTemplate) -> GenTemplate {
    let tail = t.tail_start();
    if tail == t.parts.len() {
        return t;
    }
    for part in &mut t.parts[..tail] {
        if let GenPart::Expression(op @ (Operator::Query | Operator::QueryContinuation), _) = part {
            *op = Operator::Path;
        }
    }
    for part in &mut t.parts[tail + 1..] {
        if let GenPart::Expression(op @ Operator::Query, _) = part {
            *op = Operator::QueryContinuation;
        }
    }
    t
}

/// What the query tail of a template looks like.
struct Tail {
    /// Number of variable specs before the tail.
    head_specs: usize,
    /// Whether the tail can start with `?`, and with `&`.
    query: bool,
    continuation: bool,
    names: BTreeSet<String>,
    first_exploded: Option<String>,
}

impl Tail {
    fn of(t: &GenTemplate) -> Self {
        let tail: Vec<_> = t.tail_specs().collect();
        Self {
            head_specs: t.specs().count() - tail.len(),
            query: tail.iter().any(|(op, _)| *op == Operator::Query),
            continuation: tail
                .iter()
                .any(|(op, _)| *op == Operator::QueryContinuation),
            names: tail.iter().map(|(_, s)| s.name.clone()).collect(),
            first_exploded: tail
                .iter()
                .find(|(_, s)| s.modifier == GenModifier::Explode)
                .map(|(_, s)| s.name.clone()),
        }
    }
}

/// Adjusts values to the round-trip domain of `t` (which [`shape_template`] shaped):
///
/// * a map's repeated key keeps its first value (a match refuses a key given twice);
/// * a variable with a prefix gets a string: a list or map would be an expansion error
///   (RFC 6570 §2.4.1), so it keeps its first item;
/// * `{+v}` values hold no `?` or `#`, which `{+v}` never captures (section 2); before a query
///   tail, `{+v}`/`{#v}` values hold no `?` or `&` where the tail can start with one;
/// * `{+v}`/`{#v}` values pass valid triplets through, so a triplet that does not decode to
///   UTF-8, or encodes an unreserved character (which a neighbour may read decoded), has its
///   `%` written `%25` (section 3); under a prefix, which could cut such a run, they hold no
///   `%`;
/// * the keys of a `{.m*}` map hold no `.`, which would make the split of entries ambiguous;
/// * in the query tail, a map's keys are undeclared names, and only the tail's first exploded
///   variable holds a map (section 4: it collects the undeclared parameters); a map elsewhere
///   becomes the list of its values.
///
/// ```
/// use rfc6570::testing::{shape_values, GenTemplate, Value, Values};
///
/// let t = GenTemplate::from(&rfc6570::UriTemplate::parse("{+path}{?q}")?);
/// let values = Values::new().with("path", Value::text("a?b&c%41")).with("q", Value::text("x"));
/// let shaped = shape_values(&t, &values);
/// assert_eq!(shaped.get("path"), Some(&Value::text("ab&c%2541")));
/// # Ok::<(), rfc6570::Error>(())
/// ```
pub fn shape_values(t: &GenTemplate, values: &Values) -> Values {
    let tail = Tail::of(t);
    let mut out = Values::new();
    for (i, (op, spec)) in t.specs().enumerate() {
        // A name used more than once is shaped for each of its places in turn.
        let Some(value) = out.get(&spec.name).or_else(|| values.get(&spec.name)) else {
            continue;
        };
        let value = &value.clone();
        let exploded = spec.modifier == GenModifier::Explode;
        let mut value = match op {
            // A prefix counts characters, so it could cut a run of triplets that reserved
            // expansion passes through: leave out `%` there.
            Operator::Reserved | Operator::Fragment
                if matches!(spec.modifier, GenModifier::Prefix(_)) =>
            {
                map_strings(value, &|s| reserved_value(&s.replace('%', ""), op, &tail))
            }
            Operator::Reserved | Operator::Fragment => {
                map_strings(value, &|s| reserved_value(s, op, &tail))
            }
            Operator::Label if exploded => map_keys(value, &|k| k.replace('.', "")),
            _ => value.clone(),
        };
        value = first_key_wins(value);
        if matches!(spec.modifier, GenModifier::Prefix(_)) {
            match first_item(value) {
                Some(text) => value = text,
                None => continue,
            }
        }
        if i >= tail.head_specs {
            value = tail_value(value, spec, &tail);
        }
        out.set(spec.name.clone(), value);
    }
    out
}

/// A value of `{+v}` or `{#v}`.
fn reserved_value(s: &str, op: Operator, tail: &Tail) -> String {
    let dropped = |c: char| match c {
        '?' | '#' if op == Operator::Reserved => true,
        '?' => tail.query,
        '&' => tail.continuation,
        _ => false,
    };
    let s: String = s.chars().filter(|&c| !dropped(c)).collect();
    escape_triplets(&s)
}

/// Writes the `%` of a triplet as `%25` unless the run of triplets it is in decodes to UTF-8
/// and it encodes a character that is not unreserved.
fn escape_triplets(s: &str) -> String {
    let b = s.as_bytes();
    let is_triplet = |i: usize| {
        b.len() > i + 2
            && b[i] == b'%'
            && b[i + 1].is_ascii_hexdigit()
            && b[i + 2].is_ascii_hexdigit()
    };
    let byte = |i: usize| u8::from_str_radix(&s[i + 1..i + 3], 16).expect("two hex digits");
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < b.len() {
        if !is_triplet(i) {
            let c = s[i..].chars().next().expect("i is on a char boundary");
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
            if !utf8 || super::oracle::is_unreserved(decoded) {
                out.push_str("%25");
                out.push_str(&triplet[1..]);
            } else {
                out.push_str(triplet);
            }
        }
    }
    out
}

/// In the query tail, a map's keys are undeclared names, and only the first exploded variable
/// holds a map.
fn tail_value(value: Value, spec: &GenSpec, tail: &Tail) -> Value {
    let Value::Map(entries) = value else {
        return value;
    };
    let collector = tail.first_exploded.as_deref() == Some(spec.name.as_str());
    if spec.modifier != GenModifier::Explode {
        Value::Map(entries)
    } else if collector {
        Value::Map(
            entries
                .into_iter()
                .filter(|(k, _)| !tail.names.contains(k))
                .collect(),
        )
    } else {
        Value::List(entries.into_iter().map(|(_, v)| v).collect())
    }
}

fn first_key_wins(value: Value) -> Value {
    let Value::Map(entries) = value else {
        return value;
    };
    let mut seen = BTreeSet::new();
    Value::Map(
        entries
            .into_iter()
            .filter(|(k, _)| seen.insert(k.clone()))
            .collect(),
    )
}

fn first_item(value: Value) -> Option<Value> {
    match value {
        Value::Text(_) => Some(value),
        Value::List(items) => items.into_iter().next().map(Value::Text),
        Value::Map(entries) => entries.into_iter().next().map(|(_, v)| Value::Text(v)),
    }
}

fn map_strings(v: &Value, f: &dyn Fn(&str) -> String) -> Value {
    match v {
        Value::Text(s) => Value::Text(f(s)),
        Value::List(items) => Value::List(items.iter().map(|s| f(s)).collect()),
        Value::Map(entries) => Value::Map(entries.iter().map(|(k, x)| (f(k), f(x))).collect()),
    }
}

fn map_keys(v: &Value, f: &dyn Fn(&str) -> String) -> Value {
    match v {
        Value::Map(entries) => Value::Map(entries.iter().map(|(k, x)| (f(k), x.clone())).collect()),
        other => other.clone(),
    }
}
