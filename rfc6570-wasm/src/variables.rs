//! A match's variables as the package gives them, in the template's order: a variable that is
//! not exploded is its decoded text, whatever it holds (`{id}` on `notes://a,b` is `"a,b"`, as
//! the TypeScript SDK gives it), so that a client's comma cannot change a value's type; an
//! exploded one is a list of its items, or an object of its entries for an exploded
//! associative array (`{?filter*}`).

use std::borrow::Cow;

use rfc6570::matching::{Capture, CaptureKind};
use rfc6570::{Captures, UriTemplate};
use serde::ser::{Serialize, SerializeMap, Serializer};

/// The names of `template`'s exploded variables.
pub fn exploded(template: &UriTemplate) -> Vec<String> {
    let names = template.variables().filter(|v| v.is_exploded());
    names.map(|v| v.name().to_owned()).collect()
}

/// How a capture is given: as text, or as its items or entries. The exploded names are asked
/// first: most templates have none, and a capture's kind is read from its text.
pub fn as_text(capture: &Capture<'_>, exploded: &[String]) -> bool {
    exploded.iter().all(|n| n != capture.name()) || capture.kind() == CaptureKind::String
}

/// The variables of a match, serialized as a JSON object.
pub struct Variables<'a> {
    pub captures: &'a Captures<'a>,
    pub exploded: &'a [String],
}

impl Serialize for Variables<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        for capture in self.captures.iter() {
            map.serialize_entry(
                capture.name(),
                &Value {
                    capture: &capture,
                    exploded: self.exploded,
                },
            )?;
        }
        map.end()
    }
}

struct Value<'a> {
    capture: &'a Capture<'a>,
    exploded: &'a [String],
}

impl Serialize for Value<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let capture = self.capture;
        if as_text(capture, self.exploded) {
            return serializer.serialize_str(&capture.decoded());
        }
        match capture.kind() {
            CaptureKind::Map => {
                let entries: Vec<(Cow<'_, str>, Cow<'_, str>)> = capture.entries().collect();
                serializer.collect_map(entries)
            }
            _ => serializer.collect_seq(capture.items()),
        }
    }
}

/// A router's match: which route, and its variables.
#[derive(serde::Serialize)]
pub struct Routed<'a> {
    pub index: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub template: Option<&'a str>,
    pub variables: Variables<'a>,
}
