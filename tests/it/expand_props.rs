//! Properties of parsing and expansion, over generated input:
//!
//! * any string (any Unicode, up to the template length limit) parses or fails without
//!   panicking, and a failure points at a character boundary inside the input;
//! * every template generated from the grammar of RFC 6570 §2 parses, and reads back as
//!   written (`Display`, `as_str`, `FromStr`, `TryFrom`, serde, the variable specs);
//! * expansion with arbitrary JSON variables never panics, writes only URI characters, fails
//!   exactly when a prefix meets a list or map or a list or map is nested (at the offending
//!   expression), and `expand_to` into a `String` agrees with `expand`;
//! * partial expansion agrees with expansion: `t.partial(a)?.expand(b)` is `t.expand(a ∪ b)`,
//!   and so is a partial of a partial, and it refuses what expansion refuses, where it does;
//! * templates are `Send + Sync`, and equal and hash by their text.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use proptest::prelude::*;
use rfc6570::template::Operator;
use rfc6570::testing::{GenModifier as Modifier, GenPart as Part, GenTemplate, strategies};
use rfc6570::{ErrorKind, UriTemplate};
use serde_json::{Map, Number, Value};

const _: () = {
    const fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<UriTemplate>();
    assert_send_sync::<rfc6570::Error>();
};

fn hash_of<T: Hash>(value: &T) -> u64 {
    let mut h = DefaultHasher::new();
    value.hash(&mut h);
    h.finish()
}

// ---------------------------------------------------------------------------------------------
// Variables as JSON: the strings of `rfc6570::testing`, and the scalars and nesting that only
// JSON has (numbers, booleans, null, a list in a list, which expansion must refuse)

fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        8 => strategies::strings().prop_map(Value::String),
        1 => any::<i64>().prop_map(Value::from),
        1 => any::<f64>().prop_filter_map("finite", |f| Number::from_f64(f).map(Value::Number)),
        1 => any::<bool>().prop_map(Value::Bool),
        1 => Just(Value::Null),
    ]
}

/// A JSON object from pairs, keeping the first value of a repeated key and the pairs' order.
fn object(pairs: Vec<(String, Value)>) -> Value {
    let mut map = Map::new();
    for (k, v) in pairs {
        map.entry(k).or_insert(v);
    }
    Value::Object(map)
}

/// A value RFC 6570 can expand: a scalar, or a list or map of scalars (possibly empty).
fn value() -> impl Strategy<Value = Value> {
    prop_oneof![
        5 => scalar(),
        2 => prop::collection::vec(scalar(), 0..4).prop_map(Value::Array),
        2 => prop::collection::vec((strategies::strings(), scalar()), 0..4).prop_map(object),
    ]
}

/// As [`value`], sometimes nested one level too deep, which expansion must refuse.
fn value_maybe_nested() -> impl Strategy<Value = Value> {
    prop_oneof![
        6 => value(),
        1 => prop::collection::vec(value(), 1..4).prop_map(Value::Array),
        1 => prop::collection::vec((strategies::strings(), value()), 1..4).prop_map(object),
    ]
}

/// Variables for `template`: each name gets a value (or is left out).
fn vars_for(template: &GenTemplate) -> impl Strategy<Value = Value> + use<> {
    let names: Vec<String> = template.specs().map(|(_, s)| s.name.clone()).collect();
    let values = prop::collection::vec(
        prop::option::weighted(0.85, value_maybe_nested()),
        names.len(),
    );
    values.prop_map(move |values| {
        let pairs = names
            .iter()
            .zip(values)
            .filter_map(|(n, v)| Some((n.clone(), v?)))
            .collect();
        object(pairs)
    })
}

/// The text of one part.
fn render(part: &Part) -> String {
    GenTemplate {
        parts: vec![part.clone()],
    }
    .to_string()
}

// ---------------------------------------------------------------------------------------------
// Template-like strings

/// Strings that look like templates often enough to reach every corner of the grammar.
fn template_like_string() -> impl Strategy<Value = String> {
    prop::collection::vec(template_atom(), 0..24).prop_map(|a| a.concat())
}

fn template_atom() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => prop::sample::select(
            "{}{}{}%:*,.+#/;?&=!@|-_aZ09 '\"<>\\^`".chars().collect::<Vec<_>>()
        )
        .prop_map(String::from),
        2 => "[a-z]{1,3}",
        1 => "[1-9][0-9]{0,4}",
        1 => (any::<u8>(), any::<bool>()).prop_map(|(b, lower)| if lower { format!("%{b:02x}") } else { format!("%{b:02X}") }),
        1 => any::<char>().prop_map(String::from),
    ]
}

/// Literal text and one expression, often slightly wrong: a reserved operator, a bad name,
/// a bad prefix, a stray character, no closing brace.
fn expression_like_string() -> impl Strategy<Value = String> {
    "[a-z/]{0,3}\\{[+#./;?&=,!@|]?[a-z0-9_.%]{0,4}(:[0-9]{0,5}|\\*)?[,*:}]?[a-z}]?"
}

/// A valid template with a few characters inserted, removed or replaced, which reaches the
/// errors deep inside expressions.
fn nearly_valid_template() -> impl Strategy<Value = String> {
    let edit = (any::<prop::sample::Index>(), 0u8..3, template_atom());
    (strategies::templates(), prop::collection::vec(edit, 1..3)).prop_map(|(t, edits)| {
        let mut chars: Vec<String> = t.to_string().chars().map(String::from).collect();
        for (at, kind, text) in edits {
            let at = at.index(chars.len() + 1);
            match kind {
                0 => chars.insert(at, text),
                _ if at == chars.len() => {}
                1 => drop(chars.remove(at)),
                _ => chars[at] = text,
            }
        }
        chars.concat()
    })
}

/// Any string: short ones of any Unicode or template-like text, and now and then one as long
/// as the default template length limit allows (16,384 characters of up to 4 bytes).
fn any_input() -> impl Strategy<Value = String> {
    prop_oneof![
        10 => any::<String>(),
        10 => template_like_string(),
        10 => nearly_valid_template(),
        10 => expression_like_string(),
        1 => prop::collection::vec(any::<char>(), 0..=16 * 1024)
            .prop_map(|c| c.into_iter().collect()),
        1 => prop::collection::vec(template_like_string(), 0..1000).prop_map(|s| s.concat()),
    ]
}

/// Whether RFC 6570 §2.3 counts the value as defined.
/// RFC 6570 §2.3, with nesting refused: a list or map is defined when some member is not
/// null; a member that is a list or map, even an empty one, makes the expansion fail.
fn is_defined(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Array(items) => items.iter().any(|v| !v.is_null()),
        Value::Object(map) => map.values().any(|v| !v.is_null()),
        _ => true,
    }
}

fn is_composite(v: &Value) -> bool {
    matches!(v, Value::Array(_) | Value::Object(_))
}

/// The error expansion must report, worked out from the syntax tree: the first defined
/// variable, in template order, with a prefix on a list or map, or a list or map holding a
/// list or map (even an empty one). Returns the kind and the byte offset of its expression.
fn expected_error(t: &GenTemplate, vars: &Value) -> Option<(ErrorKind, usize)> {
    let mut offset = 0;
    for part in &t.parts {
        let Part::Expression(_, specs) = part else {
            offset += render(part).len();
            continue;
        };
        for spec in specs {
            let Some(value) = vars.get(&spec.name).filter(|v| is_defined(v)) else {
                continue;
            };
            let var = spec.name.clone();
            let items: Vec<&Value> = match value {
                Value::Array(items) => items.iter().collect(),
                Value::Object(map) => map.values().collect(),
                _ => continue,
            };
            if matches!(spec.modifier, Modifier::Prefix(_)) {
                return Some((ErrorKind::PrefixOnComposite { var }, offset));
            }
            if items.iter().any(|v| is_composite(v)) {
                return Some((ErrorKind::NestedComposite { var }, offset));
            }
        }
        offset += render(part).len();
    }
    None
}

/// Characters an expansion may write: unreserved, reserved, and `%` starting a triplet.
fn is_uri_text(s: &str) -> bool {
    let b = s.as_bytes();
    b.iter().enumerate().all(|(i, &c)| match c {
        b'%' => b.len() > i + 2 && b[i + 1].is_ascii_hexdigit() && b[i + 2].is_ascii_hexdigit(),
        c => c.is_ascii_alphanumeric() || b"-._~:/?#[]@!$&'()*+,;=".contains(&c),
    })
}

proptest! {
    #[test]
    fn parsing_any_string_never_panics_and_points_inside_it(input in any_input()) {
        match UriTemplate::parse(&input) {
            Ok(t) => {
                prop_assert_eq!(t.as_str(), input.as_str());
                prop_assert_eq!(t.to_string(), input);
            }
            Err(e) => {
                prop_assert!(e.is_parse() && !e.is_expansion());
                prop_assert_eq!(e.template(), input.as_str());
                match e.position() {
                    Some(p) if p < input.len() => prop_assert!(input.is_char_boundary(p)),
                    // Just past the end: only where the input stops inside an expression that
                    // still expects a name or a prefix (`{`, `{a,`, `{a:`).
                    Some(p) => {
                        prop_assert_eq!(p, input.len(), "{:?} past the end", e.kind());
                        prop_assert!(
                            matches!(e.kind(), ErrorKind::InvalidVarName | ErrorKind::InvalidPrefix),
                            "{:?} at the end of {:?}", e.kind(), input
                        );
                        let last_open = input.rfind('{').expect("inside an expression");
                        prop_assert!(!input[last_open..].contains('}'), "closed: {:?}", input);
                    }
                    None => prop_assert!(
                        match e.kind() {
                            ErrorKind::TooManyExpressions { limit } => *limit == 1024,
                            ErrorKind::TemplateTooLong { limit } => input.len() > *limit,
                            _ => false,
                        },
                        "{:?} without a position", e.kind()
                    ),
                }
                // Both forms of Display work on any input.
                let _ = (e.to_string(), format!("{e:#}"));
            }
        }
    }

    #[test]
    fn generated_templates_parse_and_read_back_as_written(g in strategies::templates()) {
        let text = g.to_string();
        let t = UriTemplate::parse(&text).map_err(|e| TestCaseError::fail(format!("{e:#}")))?;
        prop_assert_eq!(t.as_str(), text.as_str());
        prop_assert_eq!(t.to_string(), text.as_str());
        prop_assert_eq!(&text.parse::<UriTemplate>().unwrap(), &t);
        prop_assert_eq!(&UriTemplate::try_from(text.as_str()).unwrap(), &t);

        // The variable specs come back in order.
        let specs: Vec<String> = t.variables().map(|v| v.to_string()).collect();
        let expected: Vec<String> = g
            .specs()
            .map(|(_, s)| render(&Part::Expression(Operator::Simple, vec![s.clone()])))
            .map(|braced| braced[1..braced.len() - 1].to_owned())
            .collect();
        prop_assert_eq!(specs, expected);
        let ops: Vec<Option<char>> = t.expressions().map(|e| e.operator().symbol()).collect();
        let expected: Vec<Option<char>> = g
            .parts
            .iter()
            .filter_map(|p| match p {
                Part::Expression(op, _) => Some(op.symbol()),
                Part::Literal(_) => None,
            })
            .collect();
        prop_assert_eq!(ops, expected);

        // Serde: a template is its text as a JSON string.
        let json = serde_json::to_string(&t).unwrap();
        prop_assert_eq!(&json, &serde_json::to_string(&text).unwrap());
        let back: UriTemplate = serde_json::from_str(&json).unwrap();
        prop_assert_eq!(&back, &t);
    }

    #[test]
    fn templates_are_equal_and_hash_by_text(
        a in strategies::templates(),
        b in strategies::templates(),
    ) {
        let (a, b) = (a.to_string(), b.to_string());
        let (ta, tb) = (UriTemplate::parse(&a).unwrap(), UriTemplate::parse(&b).unwrap());
        let ta2 = UriTemplate::parse(&a).unwrap();
        prop_assert_eq!(&ta, &ta2);
        prop_assert_eq!(hash_of(&ta), hash_of(&ta2));
        prop_assert_eq!(ta == tb, a == b);
        prop_assert_eq!(ta.cmp(&tb), a.cmp(&b));
        // A compiled (matched) template still equals a fresh one.
        let _ = ta.match_uri("x");
        prop_assert_eq!(hash_of(&ta), hash_of(&ta2));
    }

    #[test]
    fn expansion_never_panics_and_fails_only_where_rfc_6570_says(
        (g, vars) in strategies::templates().prop_flat_map(|g| {
            let vars = vars_for(&g);
            (Just(g), vars)
        })
    ) {
        let t = g.parse().unwrap();
        let outcome = t.expand(&vars);

        // `expand_to` into a String agrees, and appends to what is there.
        let mut buf = String::from("prefix:");
        let to = t.expand_to(&vars, &mut buf);
        prop_assert_eq!(to.is_ok(), outcome.is_ok());

        match (outcome, expected_error(&g, &vars)) {
            (Ok(uri), None) => {
                prop_assert_eq!(&buf[7..], uri.as_str());
                prop_assert!(is_uri_text(&uri), "{:?} expands to {:?}", g.to_string(), uri);
            }
            (Err(e), Some((kind, at))) => {
                prop_assert!(e.is_expansion() && !e.is_parse());
                prop_assert_eq!(e.kind(), &kind);
                prop_assert_eq!(e.position(), Some(at));
                prop_assert_eq!(e.template(), t.as_str());
                prop_assert_eq!(to.unwrap_err(), e);
            }
            (outcome, expected) => prop_assert!(
                false,
                "{:?} with {}: got {:?}, expected error {:?}", g.to_string(), vars, outcome, expected
            ),
        }
    }

    #[test]
    fn partial_expansion_then_the_rest_is_expansion_of_all(
        (g, vars, split) in strategies::templates().prop_flat_map(|g| {
            let vars = vars_for(&g);
            (Just(g), vars, prop::collection::vec(0u8..3, 0..16))
        })
    ) {
        let t = g.parse().unwrap();
        // Each variable goes to one of three sets, by its position among the names.
        let Value::Object(all) = &vars else { unreachable!("vars_for builds an object") };
        let mut sets = [Map::new(), Map::new(), Map::new()];
        for (i, (name, value)) in all.iter().enumerate() {
            sets[usize::from(split.get(i).copied().unwrap_or(0))].insert(name.clone(), value.clone());
        }
        let [a, b, c] = sets.map(Value::Object);
        let b_and_c = {
            let (Value::Object(mut b), Value::Object(c)) = (b.clone(), c.clone()) else { unreachable!() };
            b.extend(c);
            Value::Object(b)
        };
        match t.expand(&vars) {
            Ok(whole) => {
                let p = t.partial(&a).map_err(|e| TestCaseError::fail(format!("{e:#}")))?;
                prop_assert_eq!(
                    p.expand(&b_and_c).unwrap(), whole.as_str(),
                    "{} with {} gave {} bound {:?}", t, a, p, p.bound_names().collect::<Vec<_>>()
                );
                let q = p.partial(&b).map_err(|e| TestCaseError::fail(format!("{e:#}")))?;
                prop_assert_eq!(q.expand(&c).unwrap(), whole.as_str(), "{} then {} gave {}", p, b, q);
                // Nothing given, nothing changed.
                let same = t.partial(&Value::Object(Map::new())).unwrap();
                prop_assert_eq!(same.to_string(), t.as_str());
                prop_assert_eq!(same.bound_names().count(), 0);
            }
            // What expansion refuses in `a`, partial expansion refuses, at the same place;
            // the rest, the expansion of the rest.
            Err(refused) => match (t.expand(&a), t.partial(&a)) {
                (Err(in_a), Err(e)) => {
                    prop_assert_eq!(e.kind(), in_a.kind());
                    prop_assert_eq!(e.position(), in_a.position());
                }
                (Ok(_), Ok(p)) => {
                    let later = p.expand(&b_and_c).unwrap_err();
                    prop_assert_eq!(later.kind(), refused.kind(), "{} with {}", t, a);
                }
                (in_a, partial) => prop_assert!(
                    false, "{} with {}: expansion {:?}, partial {:?}", t, a, in_a, partial
                ),
            },
        }
    }
}
