//! A match's variables as the package gives them, in the template's order: a variable that is
//! not exploded is its decoded text, whatever it holds (`{id}` on `notes://a,b` is `"a,b"`, as
//! the TypeScript SDK gives it), so that a client's comma cannot change a value's type; an
//! exploded one is a list of its items, or an object of its entries for an exploded
//! associative array (`{?filter*}`).

use std::borrow::Cow;
use std::collections::HashMap;

use rfc6570::matching::{Capture, CaptureKind};
use rfc6570::{Captures, UriTemplate};
use serde::ser::{Serialize, SerializeMap, Serializer};

/// A template's variables as a match names them: each name once, where it first appears (as
/// [`Captures::iter`] walks them), and whether any of its occurrences is exploded. The
/// package holds the same list, so that a match's answer can give a name by its index.
pub struct Names(Vec<Name>);

struct Name {
    text: String,
    exploded: bool,
}

impl Names {
    pub const EMPTY: Self = Self(Vec::new());

    pub fn of(template: &UriTemplate) -> Self {
        let mut names: Vec<Name> = Vec::new();
        let mut seen: HashMap<&str, usize> = HashMap::new();
        for variable in template.variables() {
            let at = *seen.entry(variable.name()).or_insert_with(|| {
                names.push(Name {
                    text: variable.name().to_owned(),
                    exploded: false,
                });
                names.len() - 1
            });
            names[at].exploded |= variable.is_exploded();
        }
        Self(names)
    }

    /// The names as a JSON array, in order.
    pub fn to_json(&self) -> String {
        let names: Vec<&str> = self.0.iter().map(|n| n.text.as_str()).collect();
        serde_json::to_string(&names).unwrap_or_else(|_| "[]".into())
    }

    /// Each of `captures` with its name's index, in one pass (they come in the names'
    /// order), and whether it is given as text rather than as its items or entries. A name
    /// not found (it cannot be: the names are the captures' template's) is `None`.
    pub fn walk<'c>(
        &'c self,
        captures: &'c Captures<'c>,
    ) -> impl Iterator<Item = (Option<u32>, bool, Capture<'c>)> + 'c {
        let mut from = 0;
        captures.iter().map(move |capture| {
            let rest = self.0.get(from..).unwrap_or_default();
            let found = rest.iter().position(|n| n.text == capture.name());
            let at = found.map(|at| from + at);
            from = at.map_or(from, |at| at + 1);
            // Whether it is exploded is asked first: most names are not, and a capture's kind
            // is read from its text.
            let exploded = at.is_none_or(|at| self.0[at].exploded);
            let as_text = !exploded || capture.kind() == CaptureKind::String;
            (at.and_then(|at| u32::try_from(at).ok()), as_text, capture)
        })
    }
}

/// The variables of a match, serialized as a JSON object.
pub struct Variables<'a> {
    pub captures: &'a Captures<'a>,
    pub names: &'a Names,
}

impl Serialize for Variables<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        for (_, as_text, capture) in self.names.walk(self.captures) {
            let value = Value {
                capture: &capture,
                as_text,
            };
            map.serialize_entry(capture.name(), &value)?;
        }
        map.end()
    }
}

struct Value<'a> {
    capture: &'a Capture<'a>,
    as_text: bool,
}

impl Serialize for Value<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let capture = self.capture;
        if self.as_text {
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
