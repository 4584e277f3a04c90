//! What the fuzz targets share: the checks (`tests/common/checks.rs`, also replayed on stable by
//! `tests/fuzz_regressions.rs`) and the decoding of libFuzzer's bytes into [`checks::Case`]s.
//!
//! Inputs are laid out so that a seed can be written by hand (see `seed.py`): a template, then
//! optionally a NUL byte and the rest. For `match_uri` the rest is the URI. For the targets that
//! take variables, the rest is either a JSON object (as seeds from the test suites write it) or
//! bytes from which [`arbitrary`] builds one value per variable of the template, in order, so
//! that generated values always meet the template's names.

#[path = "../../tests/common/checks.rs"]
pub mod checks;

use arbitrary::{Arbitrary, Unstructured};
use rfc6570::UriTemplate;
use serde_json::{Map, Number, Value};

use checks::Case;

/// The whole input as a template.
pub fn template(data: &[u8]) -> Case {
    Case {
        template: String::from_utf8_lossy(data).into_owned(),
        ..Case::default()
    }
}

/// A template, NUL, a URI.
pub fn template_and_uri(data: &[u8]) -> Case {
    let (template, uri) = split(data);
    Case {
        template: String::from_utf8_lossy(template).into_owned(),
        uri: Some(String::from_utf8_lossy(uri).into_owned()),
        ..Case::default()
    }
}

/// A template, NUL, and variables: a JSON object, or bytes for [`Gen`] values.
pub fn template_and_vars(data: &[u8]) -> Case {
    let (template, rest) = split(data);
    let template = String::from_utf8_lossy(template).into_owned();
    let vars = match serde_json::from_slice::<Value>(rest) {
        Ok(json @ Value::Object(_)) => json,
        _ => Value::Object(generate(&template, rest)),
    };
    Case {
        template,
        vars: Some(vars),
        ..Case::default()
    }
}

fn split(data: &[u8]) -> (&[u8], &[u8]) {
    match data.iter().position(|&b| b == 0) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &[]),
    }
}

/// One generated value for each distinct variable name of the template, in template order.
fn generate(template: &str, bytes: &[u8]) -> Map<String, Value> {
    let mut u = Unstructured::new(bytes);
    let mut vars = Map::new();
    let Ok(t) = UriTemplate::parse(template) else {
        return vars;
    };
    for spec in t.variables() {
        if !vars.contains_key(spec.name()) {
            let value = Gen::arbitrary(&mut u).map_or(Value::Null, Value::from);
            vars.insert(spec.name().to_owned(), value);
        }
    }
    vars
}

/// A variable's value: every shape RFC 6570 knows, plus the ones it refuses (nesting).
#[derive(Debug, Arbitrary)]
enum Gen {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Text(Text),
    List(Vec<Item>),
    Map(Vec<(Text, Item)>),
}

/// A list item or map value.
#[derive(Debug, Arbitrary)]
enum Item {
    Null,
    Int(i64),
    Text(Text),
    Nested(Vec<Text>),
}

/// A string: any Unicode, or pieces chosen to hit the interesting cases (triplets, reserved
/// characters, broken triplets, non-ASCII).
#[derive(Debug, Arbitrary)]
enum Text {
    Any(String),
    Pieces(Vec<Piece>),
}

#[derive(Debug, Arbitrary)]
enum Piece {
    Char(char),
    Common(u8),
}

const COMMON: &[&str] = &[
    "a",
    "Z",
    "0",
    "-",
    ".",
    "_",
    "~",
    "%41",
    "%2F",
    "%2f",
    "%25",
    "%3D",
    "%26",
    "%",
    "%4",
    "%C3%A9",
    "%C3",
    "%A9",
    "%FF",
    "\u{e9}",
    "\u{1F600}",
    "\u{FFFD}",
    "\u{E000}",
    "/",
    "?",
    "#",
    "&",
    "=",
    ",",
    ";",
    ":",
    "@",
    "!",
    "$",
    "'",
    "(",
    ")",
    "*",
    "+",
    "[",
    "]",
    " ",
    "\"",
    "<",
    "{",
    "}",
    "|",
    "\\",
    "^",
    "`",
    "..",
    "\0",
    "\n",
];

impl From<Gen> for Value {
    fn from(g: Gen) -> Self {
        match g {
            Gen::Null => Value::Null,
            Gen::Bool(b) => Value::Bool(b),
            Gen::Int(n) => Value::from(n),
            Gen::Float(f) => Number::from_f64(f).map_or(Value::Null, Value::Number),
            Gen::Text(t) => Value::String(t.into()),
            Gen::List(items) => Value::Array(items.into_iter().map(Value::from).collect()),
            Gen::Map(entries) => Value::Object(
                entries
                    .into_iter()
                    .map(|(k, v)| (k.into(), v.into()))
                    .collect(),
            ),
        }
    }
}

impl From<Item> for Value {
    fn from(item: Item) -> Self {
        match item {
            Item::Null => Value::Null,
            Item::Int(n) => Value::from(n),
            Item::Text(t) => Value::String(t.into()),
            Item::Nested(items) => {
                Value::Array(items.into_iter().map(|t| Value::String(t.into())).collect())
            }
        }
    }
}

impl From<Text> for String {
    fn from(t: Text) -> Self {
        match t {
            Text::Any(s) => s,
            Text::Pieces(pieces) => pieces
                .into_iter()
                .map(|p| match p {
                    Piece::Char(c) => c.to_string(),
                    Piece::Common(i) => COMMON[usize::from(i) % COMMON.len()].to_owned(),
                })
                .collect(),
        }
    }
}
