//! Proptest strategies for templates and variables, built from the grammar of RFC 6570 §2.
//!
//! A generated template is kept as a small syntax tree ([`Template`]) so that tests know its
//! structure (operators, names, where the query tail starts) without parsing it back.

use std::fmt::Write as _;

use proptest::prelude::*;
use serde_json::{Map, Number, Value};

/// A variable spec's modifier.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Modifier {
    None,
    Prefix(u16),
    Explode,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spec {
    pub name: String,
    pub modifier: Modifier,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Part {
    Literal(String),
    /// An operator (`None` for simple expansion) and its variable specs.
    Expression(Option<char>, Vec<Spec>),
}

/// A generated template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Template {
    pub parts: Vec<Part>,
}

pub const OPERATORS: [Option<char>; 8] = [
    None,
    Some('+'),
    Some('#'),
    Some('.'),
    Some('/'),
    Some(';'),
    Some('?'),
    Some('&'),
];

impl Template {
    /// The template's text.
    pub fn text(&self) -> String {
        render(&self.parts)
    }

    /// Index of the first part of the query tail: the trailing run of `{?..}`/`{&..}`
    /// expressions (`parts.len()` when there is none).
    pub fn tail_start(&self) -> usize {
        let is_query = |p: &Part| matches!(p, Part::Expression(Some('?' | '&'), _));
        let trailing = self.parts.iter().rev().take_while(|p| is_query(p)).count();
        self.parts.len() - trailing
    }

    /// The text of the parts before the query tail, and of the tail.
    pub fn head_and_tail(&self) -> (String, String) {
        let (head, tail) = self.parts.split_at(self.tail_start());
        (render(head), render(tail))
    }

    /// Every variable spec with the operator of its expression, in order.
    pub fn specs(&self) -> impl Iterator<Item = (Option<char>, &Spec)> + '_ {
        self.parts.iter().flat_map(|p| match p {
            Part::Expression(op, specs) => specs.iter().map(|s| (*op, s)).collect(),
            Part::Literal(_) => Vec::new(),
        })
    }

    /// The specs of the query tail.
    pub fn tail_specs(&self) -> impl Iterator<Item = (Option<char>, &Spec)> + '_ {
        self.parts[self.tail_start()..]
            .iter()
            .flat_map(|p| match p {
                Part::Expression(op, specs) => specs.iter().map(|s| (*op, s)).collect(),
                Part::Literal(_) => Vec::new(),
            })
    }
}

pub fn render(parts: &[Part]) -> String {
    let mut out = String::new();
    for part in parts {
        match part {
            Part::Literal(text) => out.push_str(text),
            Part::Expression(op, specs) => {
                out.push('{');
                out.extend(op);
                for (i, spec) in specs.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push_str(&spec.name);
                    match spec.modifier {
                        Modifier::None => {}
                        Modifier::Prefix(n) => write!(out, ":{n}").unwrap(),
                        Modifier::Explode => out.push('*'),
                    }
                }
                out.push('}');
            }
        }
    }
    out
}

/// A `%XX` triplet with any hex digits, in either case.
pub fn any_triplet() -> impl Strategy<Value = String> {
    (any::<u8>(), any::<bool>()).prop_map(|(b, lower)| hex_triplet(b, lower))
}

fn hex_triplet(b: u8, lower: bool) -> String {
    if lower {
        format!("%{b:02x}")
    } else {
        format!("%{b:02X}")
    }
}

/// The triplets that encode one character's UTF-8, hex in either case.
pub fn char_triplets() -> impl Strategy<Value = String> {
    (any::<char>(), any::<bool>()).prop_map(|(c, lower)| encode_char(c, lower))
}

fn encode_char(c: char, lower: bool) -> String {
    let mut buf = [0u8; 4];
    c.encode_utf8(&mut buf)
        .bytes()
        .map(|b| hex_triplet(b, lower))
        .collect()
}

/// One `literals` unit of §2.1: an allowed ASCII character, a non-ASCII `ucschar` or
/// `iprivate` character, or a triplet.
pub fn literal_unit() -> impl Strategy<Value = String> {
    literal_unit_with(any_triplet().boxed())
}

fn literal_unit_with(triplet: BoxedStrategy<String>) -> impl Strategy<Value = String> {
    const ASCII: &str = "!#$&()*+,-./0123456789:;=?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[]_\
                         abcdefghijklmnopqrstuvwxyz~'";
    let ascii: Vec<char> = ASCII.chars().collect();
    prop_oneof![
        6 => prop::sample::select(ascii).prop_map(String::from),
        1 => prop_oneof![
            prop::char::range('\u{A0}', '\u{D7FF}'),
            prop::char::range('\u{F900}', '\u{FDCF}'),
            prop::char::range('\u{FDF0}', '\u{FFEF}'),
            prop::char::range('\u{10000}', '\u{1FFFD}'),
            prop::char::range('\u{E000}', '\u{F8FF}'),
            prop::char::range('\u{100000}', '\u{10FFFD}'),
        ]
        .prop_map(String::from),
        1 => triplet,
    ]
}

pub fn literal() -> impl Strategy<Value = String> {
    literal_with(any_triplet().boxed())
}

fn literal_with(triplet: BoxedStrategy<String>) -> impl Strategy<Value = String> {
    prop::collection::vec(literal_unit_with(triplet), 1..6).prop_map(|units| units.concat())
}

/// A `varname`: varchars (ALPHA, DIGIT, `_`, triplets) with single dots between them.
pub fn varname() -> impl Strategy<Value = String> {
    varname_with(any_triplet().boxed())
}

/// A `varname` whose triplets encode characters that expansion encodes too: UTF-8, and not
/// unreserved (see `match_props.rs` on why).
pub fn varname_utf8() -> impl Strategy<Value = String> {
    let encoded = prop_oneof![
        prop::sample::select(
            " !\"#$%&'()*+,/:;<=>?@[\\]^`{|}"
                .chars()
                .collect::<Vec<_>>()
        ),
        prop::char::range('\u{80}', char::MAX),
    ];
    let triplets = (encoded, any::<bool>()).prop_map(|(c, lower)| encode_char(c, lower));
    varname_with(triplets.boxed())
}

fn varname_with(triplet: BoxedStrategy<String>) -> impl Strategy<Value = String> {
    let varchar = prop_oneof![
        8 => "[A-Za-z0-9_]".prop_map(String::from),
        1 => triplet,
    ];
    let segment = prop::collection::vec(varchar, 1..4).prop_map(|v| v.concat());
    prop::collection::vec(segment, 1..3).prop_map(|segments| segments.join("."))
}

pub fn modifier() -> impl Strategy<Value = Modifier> {
    prop_oneof![
        4 => Just(Modifier::None),
        1 => prop_oneof![1u16..6, 1u16..=9999].prop_map(Modifier::Prefix),
        2 => Just(Modifier::Explode),
    ]
}

pub fn operator() -> impl Strategy<Value = Option<char>> {
    prop::sample::select(OPERATORS.to_vec())
}

/// Any valid template: literals (ASCII, non-ASCII, triplets) and expressions with any
/// operator, up to four variable specs, prefixes and explode. Names may repeat.
pub fn template() -> impl Strategy<Value = Template> {
    template_with(varname().boxed(), literal().boxed())
}

fn template_with(
    name: BoxedStrategy<String>,
    literal: BoxedStrategy<String>,
) -> impl Strategy<Value = Template> {
    let spec = (name, modifier()).prop_map(|(name, modifier)| Spec { name, modifier });
    let expression = (operator(), prop::collection::vec(spec, 1..5))
        .prop_map(|(op, specs)| Part::Expression(op, specs));
    let part = prop_oneof![literal.prop_map(Part::Literal), expression];
    prop::collection::vec(part, 0..7).prop_map(|parts| Template { parts })
}

/// As [`template`], for matching: every variable name is distinct (each gets a unique `_N`
/// suffix), as a name used twice must have one value; names are [`varname_utf8`], and the
/// triplets of literals encode whole UTF-8 characters.
pub fn template_distinct_names() -> impl Strategy<Value = Template> {
    let literal = literal_with(char_triplets().boxed());
    template_with(varname_utf8().boxed(), literal.boxed()).prop_map(|mut t| {
        let mut n = 0;
        for part in &mut t.parts {
            if let Part::Expression(_, specs) = part {
                for spec in specs {
                    write!(spec.name, "_{n}").unwrap();
                    n += 1;
                }
            }
        }
        t
    })
}

/// Strings with any Unicode, biased towards the characters that matter to URIs: reserved
/// characters, `%` (alone and in triplets, valid UTF-8 or not), separators, and "".
pub fn string() -> impl Strategy<Value = String> {
    let atom = prop_oneof![
        3 => "[a-zA-Z0-9._~-]{1,3}",
        3 => prop::sample::select(
            ":/?#[]@!$&'()*+,;=% \"<>\\^`{|}".chars().collect::<Vec<_>>()
        )
        .prop_map(String::from),
        1 => any::<char>().prop_map(String::from),
        1 => char_triplets(),
        1 => any_triplet(),
    ];
    prop_oneof![
        1 => Just(String::new()),
        1 => any::<String>(),
        6 => prop::collection::vec(atom, 0..6).prop_map(|a| a.concat()),
    ]
}

/// A JSON scalar: a string, a number, a boolean or `null`.
pub fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        8 => string().prop_map(Value::String),
        1 => any::<i64>().prop_map(Value::from),
        1 => any::<f64>().prop_filter_map("finite", |f| Number::from_f64(f).map(Value::Number)),
        1 => any::<bool>().prop_map(Value::Bool),
        1 => Just(Value::Null),
    ]
}

/// A JSON object from pairs, keeping the first value of a repeated key and the pairs' order.
pub fn object(pairs: Vec<(String, Value)>) -> Value {
    let mut map = Map::new();
    for (k, v) in pairs {
        map.entry(k).or_insert(v);
    }
    Value::Object(map)
}

/// A value RFC 6570 can expand: a scalar, or a list or map of scalars (possibly empty).
pub fn value() -> impl Strategy<Value = Value> {
    prop_oneof![
        5 => scalar(),
        2 => prop::collection::vec(scalar(), 0..4).prop_map(Value::Array),
        2 => prop::collection::vec((string(), scalar()), 0..4).prop_map(object),
    ]
}

/// As [`value`], sometimes nested one level too deep, which expansion must refuse.
pub fn value_maybe_nested() -> impl Strategy<Value = Value> {
    prop_oneof![
        6 => value(),
        1 => prop::collection::vec(value(), 1..4).prop_map(Value::Array),
        1 => prop::collection::vec((string(), value()), 1..4).prop_map(object),
    ]
}

/// Variables for `template`: each name gets a value (or is left out) from `value`.
pub fn vars_for(
    template: &Template,
    value: impl Strategy<Value = Value>,
) -> impl Strategy<Value = Value> {
    let names: Vec<String> = template.specs().map(|(_, s)| s.name.clone()).collect();
    let values = prop::collection::vec(prop::option::weighted(0.85, value), names.len());
    values.prop_map(move |values| {
        let pairs = names
            .iter()
            .zip(values)
            .filter_map(|(n, v)| Some((n.clone(), v?)))
            .collect();
        object(pairs)
    })
}

/// Templates the radix walk serves: delimited `{v}`, a final `{+v}`, a query tail. Some
/// literals are longer than the eight bytes the walk compares at once; `{q}-` is not
/// delimited (`-` cannot end `{q}`), so a few templates take the VM, as a router hands over. The router's oracle
/// and the walk's own tests (which include this file) both draw from it.
pub fn walkable_template() -> impl Strategy<Value = String> {
    let part = prop_oneof![
        3 => prop::sample::select(vec!["/", "a", "b", "/a", "x/", "-"]).prop_map(String::from),
        1 => prop::sample::select(vec!["/issues/comments", "/issues/", "issue"])
            .prop_map(String::from),
        2 => prop::sample::select(vec!["{p}/", "{q}-", "{r}/x", "{q}/x", "{r}?"])
            .prop_map(String::from),
    ];
    let end = prop::sample::select(vec![
        "", "{s}", "{+s}", "{?t,u}", "{s}{?t}", "/{+s}", "{&t}",
    ]);
    (prop::collection::vec(part, 0..5), end)
        .prop_map(|(parts, end)| distinct_names(&(parts.concat() + end)))
}

/// Numbers each variable name of a template (`{p}/{p}` becomes `{p0}/{p1}`): a name used twice
/// is refused for matching.
pub fn distinct_names(template: &str) -> String {
    let (mut out, mut in_expression, mut names) = (String::new(), false, 0);
    let mut chars = template.chars().peekable();
    while let Some(c) = chars.next() {
        out.push(c);
        match c {
            '{' => in_expression = true,
            '}' => in_expression = false,
            c if in_expression
                && c.is_ascii_alphabetic()
                && !chars.peek().is_some_and(char::is_ascii_alphanumeric) =>
            {
                out.push_str(&names.to_string());
                names += 1;
            }
            _ => {}
        }
    }
    out
}

/// URIs for [`walkable_template`]s: their literals, separators, triplets, a query, and bytes
/// that stop a walk (a space, a control character, `#`).
pub fn walkable_uri() -> impl Strategy<Value = String> {
    let piece = prop::sample::select(vec![
        "/",
        "a",
        "b",
        "x",
        "-",
        ".",
        "%2F",
        "%41",
        "?t=1",
        "&u=2",
        "?",
        "&",
        "=",
        "/a",
        "\u{e9}",
        "#",
        " ",
        "\u{1}",
        "/issues/comments",
        "/issues/",
        "issue",
        "/issues/commentz",
        // What clients send: raw sub-delimiters, triplets of unreserved characters.
        "+",
        "@",
        "(1)",
        ":",
        "%66",
        "%7e",
        "\"",
    ]);
    prop::collection::vec(piece, 0..10).prop_map(|p| p.concat())
}
