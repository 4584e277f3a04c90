//! Variables from any `Serialize` value: [`Serialized`] and its [`SerializeError`].
//!
//! This module owns a small `serde::Serializer` that turns a value (most often a
//! `#[derive(Serialize)]` struct) into a compact owned tree, once, and the [`Vars`] view that
//! expansion reads from that tree. The tree is what `serde_json::to_value` would give, without
//! building JSON: field names are borrowed from the type, numbers stay numbers (written as their
//! JSON text), and each string is one allocation. It sits below expansion: of this crate, it
//! uses only the rest of [`vars`](super).

//!
//! The parts: `tree` is the owned form, `value` the serializer that builds it, `key` the one
//! that stringifies a map key as `serde_json` does, and `error` what goes wrong and where.

mod error;
mod key;
#[cfg(test)]
mod tests;
mod tree;
mod value;

use std::fmt;

use serde::Serialize;

pub use error::SerializeError;
use tree::{Map, Value};
use value::ValueSerializer;

use super::{VarValue, Vars, same_name};

/// Template variables taken from any [`Serialize`] value: the fields of a struct, or the entries
/// of a map, are the variables.
///
/// The value is serialized once, into an owned form that borrows nothing from it, and can then
/// be expanded into any number of templates. Values map as expanding the JSON of
/// `serde_json::to_value` does (the URIs are the same), without building that JSON:
///
/// * strings and chars are strings; numbers and booleans are their JSON text (`42`, `1.5`,
///   `true`); integers beyond 64 bits, which `to_value` refuses, are their decimal text;
/// * `None`, `()`, unit structs and non-finite floats are undefined, so expansion skips them;
/// * sequences, tuples and byte strings are lists; maps and structs are associative arrays, in
///   the order they were serialized (a map's key is stringified as `serde_json` does: strings,
///   chars, integers, finite floats, booleans and unit variants);
/// * newtype structs are their content; unit variants are their name; other enum variants are
///   externally tagged, as in JSON: a one-entry map from the variant's name to its content.
///
/// A list inside a list or a map is kept as it is, so that expansion refuses it with
/// [`ErrorKind::NestedComposite`](crate::ErrorKind::NestedComposite), as for JSON. A map key
/// seen twice keeps its first place and its last value.
///
/// ```
/// use rfc6570::UriTemplate;
/// use rfc6570::vars::Serialized;
///
/// #[derive(serde::Serialize)]
/// struct Search<'a> {
///     q: &'a str,
///     lang: Option<&'a str>,
///     page: u32,
///     tags: Vec<&'a str>,
/// }
///
/// let search = Search { q: "uri templates", lang: None, page: 2, tags: vec!["rfc", "6570"] };
/// let vars = Serialized::new(&search)?;
///
/// let t = UriTemplate::parse("search://docs{?q,lang,page,tags*}")?;
/// assert_eq!(t.expand(&vars)?, "search://docs?q=uri%20templates&page=2&tags=rfc&tags=6570");
/// let t = UriTemplate::parse("search://docs/{page}{/tags*}")?;
/// assert_eq!(t.expand(&vars)?, "search://docs/2/rfc/6570");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// `Debug` shows the variables as JSON-like text:
///
/// ```
/// # use rfc6570::vars::Serialized;
/// # use std::collections::BTreeMap;
/// let vars = Serialized::new(&BTreeMap::from([("id", vec![1, 2]), ("none", vec![])]))?;
/// assert_eq!(format!("{vars:?}"), r#"{"id": [1, 2], "none": []}"#);
/// # Ok::<(), rfc6570::vars::SerializeError>(())
/// ```
#[derive(Clone)]
pub struct Serialized {
    fields: Map,
}

impl Serialized {
    /// Serializes `value`, which must serialize as a struct or a map (an enum variant with
    /// content counts as a one-entry map, as in JSON; `Some` and newtype structs around one
    /// are looked through).
    ///
    /// ```
    /// use rfc6570::UriTemplate;
    /// use rfc6570::vars::Serialized;
    ///
    /// #[derive(serde::Serialize)]
    /// struct Log { job_id: u64, lines: Option<String> }
    ///
    /// let vars = Serialized::new(&Log { job_id: 42, lines: Some("10-20".into()) })?;
    /// let t = UriTemplate::parse("log://build/{job_id}{?lines}")?;
    /// assert_eq!(t.expand(&vars)?, "log://build/42?lines=10-20");
    ///
    /// // Anything else defines no variables, and is refused.
    /// let err = Serialized::new(&["a", "b"]).unwrap_err();
    /// assert_eq!(err.to_string(), "the top level must be a struct or a map, not a tuple");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// A [`SerializeError`] when the top level is not a struct or a map, when a map key is not
    /// one that `serde_json` could stringify, or when the value's `Serialize` fails.
    pub fn new<T: Serialize + ?Sized>(value: &T) -> Result<Self, SerializeError> {
        match value.serialize(ValueSerializer { top: true })? {
            Value::Map(fields) => Ok(Self { fields }),
            // The serializer refuses everything else at the top level already.
            other => Err(SerializeError::not_vars(other.kind())),
        }
    }
}

/// Fields are few: comparing names costs less than hashing one.
impl Vars for Serialized {
    fn get(&self, name: &str) -> VarValue<'_> {
        self.fields
            .0
            .iter()
            .find(|e| same_name(e.key.as_str(), name))
            .map_or(VarValue::Undefined, |e| e.value.view())
    }
}

impl fmt::Debug for Serialized {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.fields, f)
    }
}
