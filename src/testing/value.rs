//! Generated values: what a test expands into a template and expects back from a match.
//!
//! [`Value`] and [`Values`] are owned, ordered and independent of JSON: a map keeps its entries
//! in the order written (a repeated key included), whatever features `serde_json` was built with.

use std::fmt;

use crate::matching::{Capture, CaptureKind};
use crate::vars::{VarList, VarMap, VarValue, Vars, Visit};

/// A variable's value: a string, a list of strings or an associative array (RFC 6570 §2.3).
///
/// ```
/// use rfc6570::testing::Value;
///
/// let ids = Value::list(["1", "2"]);
/// assert_eq!(ids.to_string(), r#"["1", "2"]"#);
/// assert_eq!(Value::text("a/b").to_string(), r#""a/b""#);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Value {
    /// A string.
    Text(String),
    /// A list of strings, in order.
    List(Vec<String>),
    /// An associative array, in order; a key may repeat.
    Map(Vec<(String, String)>),
}

impl Value {
    /// A string value.
    ///
    /// ```
    /// # use rfc6570::testing::Value;
    /// assert_eq!(Value::text("x"), Value::Text("x".into()));
    /// ```
    pub fn text(text: impl Into<String>) -> Self {
        Self::Text(text.into())
    }

    /// A list value.
    ///
    /// ```
    /// # use rfc6570::testing::Value;
    /// assert_eq!(Value::list(["a"]), Value::List(vec!["a".into()]));
    /// ```
    pub fn list<S: Into<String>>(items: impl IntoIterator<Item = S>) -> Self {
        Self::List(items.into_iter().map(Into::into).collect())
    }

    /// A map value.
    ///
    /// ```
    /// # use rfc6570::testing::Value;
    /// assert_eq!(Value::map([("k", "v")]).to_string(), r#"{"k": "v"}"#);
    /// ```
    pub fn map<K: Into<String>, V: Into<String>>(
        entries: impl IntoIterator<Item = (K, V)>,
    ) -> Self {
        Self::Map(
            entries
                .into_iter()
                .map(|(k, v)| (k.into(), v.into()))
                .collect(),
        )
    }

    /// What a match captured, decoded: the value a handler reads.
    ///
    /// ```
    /// use rfc6570::UriTemplate;
    /// use rfc6570::testing::Value;
    ///
    /// let t = UriTemplate::parse("{/p*}")?;
    /// let caps = t.match_uri("/a/b%20c")?;
    /// assert_eq!(Value::of(&caps.get("p").unwrap()), Value::list(["a", "b c"]));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn of(capture: &Capture<'_>) -> Self {
        match capture.kind() {
            CaptureKind::String => Self::Text(capture.decoded().into_owned()),
            CaptureKind::List => Self::List(capture.items().map(|i| i.into_owned()).collect()),
            CaptureKind::Map => Self::Map(
                capture
                    .entries()
                    .map(|(k, v)| (k.into_owned(), v.into_owned()))
                    .collect(),
            ),
        }
    }

    /// Every string the value holds: the text, the items, or the keys and values.
    ///
    /// ```
    /// # use rfc6570::testing::Value;
    /// let map = Value::map([("k", "v")]);
    /// let all: Vec<&str> = map.strings().collect();
    /// assert_eq!(all, ["k", "v"]);
    /// ```
    pub fn strings(&self) -> impl Iterator<Item = &str> + '_ {
        let (one, many, pairs) = match self {
            Self::Text(s) => (Some(s.as_str()), &[][..], &[][..]),
            Self::List(items) => (None, items.as_slice(), &[][..]),
            Self::Map(entries) => (None, &[][..], entries.as_slice()),
        };
        one.into_iter()
            .chain(many.iter().map(String::as_str))
            .chain(pairs.iter().flat_map(|(k, v)| [k.as_str(), v.as_str()]))
    }

    /// Whether expansion treats the value as undefined: an empty list or map (RFC 6570 §2.3).
    ///
    /// ```
    /// # use rfc6570::testing::Value;
    /// assert!(Value::List(vec![]).is_undefined());
    /// assert!(!Value::text("").is_undefined());
    /// ```
    pub fn is_undefined(&self) -> bool {
        match self {
            Self::Text(_) => false,
            Self::List(items) => items.is_empty(),
            Self::Map(entries) => entries.is_empty(),
        }
    }
}

impl fmt::Display for Value {
    /// One line, with Rust string escapes, so that it can be pasted into a test.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Text(s) => write!(f, "{s:?}"),
            Self::List(items) => {
                f.write_str("[")?;
                for (i, item) in items.iter().enumerate() {
                    let sep = if i == 0 { "" } else { ", " };
                    write!(f, "{sep}{item:?}")?;
                }
                f.write_str("]")
            }
            Self::Map(entries) => {
                f.write_str("{")?;
                for (i, (k, v)) in entries.iter().enumerate() {
                    let sep = if i == 0 { "" } else { ", " };
                    write!(f, "{sep}{k:?}: {v:?}")?;
                }
                f.write_str("}")
            }
        }
    }
}

impl VarList for Value {
    fn is_empty(&self) -> bool {
        self.is_undefined()
    }

    fn for_each_item(&self, f: &mut dyn FnMut(VarValue<'_>) -> Visit) -> Visit {
        match self {
            Self::List(items) => items.iter().try_for_each(|i| f(VarValue::String(i))),
            _ => Ok(()),
        }
    }
}

impl VarMap for Value {
    fn is_empty(&self) -> bool {
        self.is_undefined()
    }

    fn for_each_entry(&self, f: &mut dyn FnMut(&str, VarValue<'_>) -> Visit) -> Visit {
        match self {
            Self::Map(entries) => entries
                .iter()
                .try_for_each(|(k, v)| f(k, VarValue::String(v))),
            _ => Ok(()),
        }
    }
}

/// Variables by name, in template order; a name left out is undefined. They expand as they
/// are ([`Vars`]), with no JSON in between.
///
/// ```
/// use rfc6570::UriTemplate;
/// use rfc6570::testing::{Value, Values};
///
/// let values = Values::new().with("job_id", Value::text("42")).with("lines", Value::text("1-9"));
/// let t = UriTemplate::parse("log://build/{job_id}{?lines}")?;
/// assert_eq!(t.expand(&values)?, "log://build/42?lines=1-9");
/// assert_eq!(values.to_string(), r#"job_id="42" lines="1-9""#);
/// # Ok::<(), rfc6570::Error>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Values(Vec<(String, Value)>);

impl Values {
    /// No variables.
    ///
    /// ```
    /// # use rfc6570::testing::Values;
    /// assert!(Values::new().is_empty());
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// These values with `name` set to `value` (replacing an earlier value of that name).
    ///
    /// ```
    /// # use rfc6570::testing::{Value, Values};
    /// let v = Values::new().with("a", Value::text("1")).with("a", Value::text("2"));
    /// assert_eq!(v.get("a"), Some(&Value::text("2")));
    /// ```
    pub fn with(mut self, name: impl Into<String>, value: Value) -> Self {
        self.set(name, value);
        self
    }

    /// Sets `name` to `value`, replacing an earlier value of that name.
    ///
    /// ```
    /// # use rfc6570::testing::{Value, Values};
    /// let mut v = Values::new();
    /// v.set("a", Value::text("1"));
    /// assert_eq!(v.len(), 1);
    /// ```
    pub fn set(&mut self, name: impl Into<String>, value: Value) {
        let name = name.into();
        match self.0.iter_mut().find(|(n, _)| *n == name) {
            Some(slot) => slot.1 = value,
            None => self.0.push((name, value)),
        }
    }

    /// The value of `name`, if it is defined here.
    ///
    /// ```
    /// # use rfc6570::testing::{Value, Values};
    /// assert_eq!(Values::new().with("a", Value::text("1")).get("b"), None);
    /// ```
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.0.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }

    /// The values, in order.
    ///
    /// ```
    /// # use rfc6570::testing::{Value, Values};
    /// let v = Values::new().with("a", Value::text("1"));
    /// assert_eq!(v.iter().next(), Some(("a", &Value::text("1"))));
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Value)> + '_ {
        self.0.iter().map(|(n, v)| (n.as_str(), v))
    }

    /// How many variables are defined here.
    ///
    /// ```
    /// # use rfc6570::testing::{Value, Values};
    /// assert_eq!(Values::new().with("a", Value::text("")).len(), 1);
    /// ```
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether no variable is defined here.
    ///
    /// ```
    /// # use rfc6570::testing::Values;
    /// assert!(Values::new().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// What a match captured, decoded, in capture order.
    ///
    /// ```
    /// use rfc6570::UriTemplate;
    /// use rfc6570::testing::{Value, Values};
    ///
    /// let t = UriTemplate::parse("file:///{+path}")?;
    /// let caps = t.match_uri("file:///a%2Bb.txt")?;
    /// assert_eq!(Values::of(&caps), Values::new().with("path", Value::text("a+b.txt")));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn of(captures: &crate::Captures<'_>) -> Self {
        Self(
            captures
                .iter()
                .map(|c| (c.name().to_owned(), Value::of(&c)))
                .collect(),
        )
    }
}

#[cfg(feature = "json")]
#[cfg_attr(docsrs, doc(cfg(feature = "json")))]
impl Values {
    /// The values as a JSON object, for code that takes JSON variables (a map's repeated key
    /// keeps its last value there).
    ///
    /// ```
    /// use rfc6570::testing::{Value, Values};
    ///
    /// let v = Values::new().with("ids", Value::list(["1", "2"]));
    /// assert_eq!(v.to_json(), serde_json::json!({"ids": ["1", "2"]}));
    /// ```
    pub fn to_json(&self) -> serde_json::Value {
        let json = |v: &Value| match v {
            Value::Text(s) => serde_json::Value::from(s.as_str()),
            Value::List(items) => items.iter().map(String::as_str).collect(),
            Value::Map(entries) => serde_json::Value::Object(
                entries
                    .iter()
                    .map(|(k, v)| (k.clone(), serde_json::Value::from(v.as_str())))
                    .collect(),
            ),
        };
        serde_json::Value::Object(self.0.iter().map(|(n, v)| (n.clone(), json(v))).collect())
    }
}

impl FromIterator<(String, Value)> for Values {
    fn from_iter<I: IntoIterator<Item = (String, Value)>>(iter: I) -> Self {
        let mut values = Self::new();
        for (name, value) in iter {
            values.set(name, value);
        }
        values
    }
}

impl fmt::Display for Values {
    /// `name=value` pairs separated by spaces, each value as [`Value`] writes it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (name, value)) in self.0.iter().enumerate() {
            let sep = if i == 0 { "" } else { " " };
            write!(f, "{sep}{name}={value}")?;
        }
        Ok(())
    }
}

impl Vars for Values {
    fn get(&self, name: &str) -> VarValue<'_> {
        match Values::get(self, name) {
            None => VarValue::Undefined,
            Some(Value::Text(s)) => VarValue::String(s),
            Some(list @ Value::List(_)) => VarValue::List(list),
            Some(map @ Value::Map(_)) => VarValue::Map(map),
        }
    }
}
