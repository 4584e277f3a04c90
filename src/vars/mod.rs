//! Variables for expansion: the [`Vars`] trait and the borrowed [`VarValue`] view.
//!
//! The expander asks a [`Vars`] for one variable at a time and gets back a [`VarValue`] that
//! borrows from it: a string, something `Display` (numbers, booleans), or a list or map it walks
//! through a callback (JSON arrays and objects, in a plain loop). Nothing is converted to an
//! intermediate `String`, so expanding into a reused buffer allocates nothing.
//!
//! Implementations are provided for `serde_json::Value` objects and `serde_json::Map` (feature
//! `json`), [`Serialized`] values (feature `serde`), `HashMap` and `BTreeMap` from names to
//! values, and slices and arrays of `(name, value)` pairs. Values can be `&str`, `String`,
//! numbers, `bool`, `Option<T>` (`None` is undefined), `Vec<T>` and slices (lists), maps of
//! strings to values (associative arrays), and `serde_json::Value`.
//!
//! For your own types that derive `Serialize`, [`Serialized`] (feature `serde`) serializes a
//! value once, straight into variables: no JSON is built, and the URIs are those its
//! `serde_json::to_value` would give.
//! [`UriTemplate::expand_serialized`](crate::UriTemplate::expand_serialized) does both in one
//! call:
//!
//! ```
//! use rfc6570::UriTemplate;
//! use rfc6570::vars::Serialized;
//!
//! #[derive(serde::Serialize)]
//! struct BuildLog { job_id: u64, lines: Option<String> }
//!
//! let t = UriTemplate::parse("log://build/{job_id}{?lines}")?;
//! let log = BuildLog { job_id: 42, lines: Some("10-20".into()) };
//! assert_eq!(t.expand_serialized(&log)?, "log://build/42?lines=10-20");
//!
//! // Serialized once, expanded as often as needed.
//! let vars = Serialized::new(&log)?;
//! assert_eq!(t.expand(&vars)?, "log://build/42?lines=10-20");
//! assert_eq!(UriTemplate::parse("log://build/{job_id}/raw")?.expand(&vars)?, "log://build/42/raw");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Or implement [`Vars`] by hand, with no derive and nothing serialized:
//!
//! ```
//! use rfc6570::UriTemplate;
//! use rfc6570::vars::{VarValue, Vars};
//!
//! struct BuildLog { job_id: u64, lines: Option<String> }
//!
//! impl Vars for BuildLog {
//!     fn get(&self, name: &str) -> VarValue<'_> {
//!         match name {
//!             "job_id" => VarValue::Display(&self.job_id),
//!             "lines" => self.lines.as_deref().map_or(VarValue::Undefined, VarValue::String),
//!             _ => VarValue::Undefined,
//!         }
//!     }
//! }
//!
//! let t = UriTemplate::parse("log://build/{job_id}{?lines}")?;
//! let vars = BuildLog { job_id: 42, lines: Some("10-20".into()) };
//! assert_eq!(t.expand(&vars)?, "log://build/42?lines=10-20");
//! # Ok::<(), rfc6570::Error>(())
//! ```

use std::borrow::Borrow;
use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::hash::{BuildHasher, Hash};

#[cfg(feature = "serde")]
mod serialize;
#[cfg(feature = "serde")]
pub use serialize::{SerializeError, Serialized};

/// The outcome of a callback passed to [`VarList::for_each_item`] or [`VarMap::for_each_entry`]:
/// `Err` stops the walk and is handed back to the expander.
pub type Visit = Result<(), VisitError>;

/// Why a walk over a list or map stopped early. Opaque: only the expander creates it, and a
/// [`VarList`] or [`VarMap`] implementation passes it on with `?`.
///
/// ```
/// use rfc6570::vars::{VarList, VarValue, Visit};
///
/// struct Pair;
/// impl VarList for Pair {
///     fn is_empty(&self) -> bool { false }
///     fn for_each_item(&self, f: &mut dyn FnMut(VarValue<'_>) -> Visit) -> Visit {
///         f(VarValue::String("a"))?; // a VisitError from the expander stops the walk here
///         f(VarValue::String("b"))
///     }
/// }
/// let t = rfc6570::UriTemplate::parse("{x}")?;
/// assert_eq!(t.expand(&[("x", VarValue::List(&Pair))])?, "a,b");
/// # Ok::<(), rfc6570::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VisitError(pub(crate) VisitErrorKind);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum VisitErrorKind {
    Nested,
    Write,
}

/// A variable's value, borrowed from a [`Vars`].
///
/// ```
/// use rfc6570::UriTemplate;
/// use rfc6570::vars::VarValue;
///
/// let t = UriTemplate::parse("{/segments*}{?page}")?;
/// let segments = vec!["a", "b"];
/// let vars = [
///     ("segments", VarValue::List(&segments)),
///     ("page", VarValue::Display(&2)),
/// ];
/// assert_eq!(t.expand(&vars[..])?, "/a/b?page=2");
/// let vars = [("segments", VarValue::String("a b")), ("page", VarValue::Undefined)];
/// assert_eq!(t.expand(&vars[..])?, "/a%20b");
/// # Ok::<(), rfc6570::Error>(())
/// ```
#[derive(Clone, Copy)]
#[non_exhaustive]
pub enum VarValue<'a> {
    /// Not defined: the expansion skips it (RFC 6570 §2.3).
    Undefined,
    /// A string.
    String(&'a str),
    /// A value written through `Display`, such as a number or a boolean. Its text must not be
    /// empty; use [`VarValue::String`] for text that may be.
    Display(&'a dyn fmt::Display),
    /// A list of values; empty lists are undefined.
    List(&'a dyn VarList),
    /// An associative array; empty ones are undefined.
    Map(&'a dyn VarMap),
}

impl fmt::Debug for VarValue<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Undefined => f.write_str("Undefined"),
            Self::String(s) => f.debug_tuple("String").field(s).finish(),
            Self::Display(d) => f.debug_tuple("Display").field(&d.to_string()).finish(),
            Self::List(_) => f.write_str("List(..)"),
            Self::Map(_) => f.write_str("Map(..)"),
        }
    }
}

/// A list of values that the expander walks in order.
///
/// ```
/// use rfc6570::UriTemplate;
/// use rfc6570::vars::{VarList, VarValue, Visit};
///
/// struct Range(u32, u32);
/// impl VarList for Range {
///     fn is_empty(&self) -> bool { self.0 >= self.1 }
///     fn for_each_item(&self, f: &mut dyn FnMut(VarValue<'_>) -> Visit) -> Visit {
///         (self.0..self.1).try_for_each(|n| f(VarValue::Display(&n)))
///     }
/// }
///
/// let t = UriTemplate::parse("{?ids}")?;
/// let ids = Range(3, 6);
/// assert_eq!(t.expand(&[("ids", VarValue::List(&ids))])?, "?ids=3,4,5");
/// # Ok::<(), rfc6570::Error>(())
/// ```
pub trait VarList {
    /// Whether the list has no items (and so is undefined).
    ///
    /// ```
    /// use rfc6570::vars::VarList;
    /// assert!(VarList::is_empty(&Vec::<&str>::new()));
    /// assert!(!VarList::is_empty(&vec!["a"]));
    /// ```
    fn is_empty(&self) -> bool;
    /// Calls `f` with each item in order, stopping at the first `Err`.
    ///
    /// ```
    /// use rfc6570::vars::{VarList, VarValue};
    /// let mut items = Vec::new();
    /// vec!["a", "b"].for_each_item(&mut |item| {
    ///     if let VarValue::String(s) = item {
    ///         items.push(s.to_owned());
    ///     }
    ///     Ok(())
    /// })?;
    /// assert_eq!(items, ["a", "b"]);
    /// # Ok::<(), rfc6570::vars::VisitError>(())
    /// ```
    fn for_each_item(&self, f: &mut dyn FnMut(VarValue<'_>) -> Visit) -> Visit;

    /// The items as JSON values, when that is what the list holds. Not part of the API: the
    /// expander uses it to walk JSON arrays in a plain loop rather than through a callback
    /// per item, and the default keeps every other list on [`for_each_item`](Self::for_each_item).
    #[cfg(feature = "json")]
    #[doc(hidden)]
    fn as_json(&self) -> Option<&[serde_json::Value]> {
        None
    }
}

/// An associative array that the expander walks in order.
///
/// ```
/// use rfc6570::UriTemplate;
/// use rfc6570::vars::{VarMap, VarValue, Visit};
///
/// struct Point { x: i32, y: i32 }
/// impl VarMap for Point {
///     fn is_empty(&self) -> bool { false }
///     fn for_each_entry(&self, f: &mut dyn FnMut(&str, VarValue<'_>) -> Visit) -> Visit {
///         f("x", VarValue::Display(&self.x))?;
///         f("y", VarValue::Display(&self.y))
///     }
/// }
///
/// let t = UriTemplate::parse("/plot{?at*}")?;
/// let at = Point { x: 3, y: -1 };
/// assert_eq!(t.expand(&[("at", VarValue::Map(&at))])?, "/plot?x=3&y=-1");
/// # Ok::<(), rfc6570::Error>(())
/// ```
pub trait VarMap {
    /// Whether the map has no entries (and so is undefined).
    ///
    /// ```
    /// use std::collections::BTreeMap;
    /// use rfc6570::vars::VarMap;
    /// assert!(VarMap::is_empty(&BTreeMap::<&str, &str>::new()));
    /// assert!(!VarMap::is_empty(&BTreeMap::from([("a", "1")])));
    /// ```
    fn is_empty(&self) -> bool;
    /// Calls `f` with each key and value in order, stopping at the first `Err`.
    ///
    /// ```
    /// use std::collections::BTreeMap;
    /// use rfc6570::vars::VarMap;
    /// let mut keys = Vec::new();
    /// BTreeMap::from([("b", "2"), ("a", "1")]).for_each_entry(&mut |key, _| {
    ///     keys.push(key.to_owned());
    ///     Ok(())
    /// })?;
    /// assert_eq!(keys, ["a", "b"]);
    /// # Ok::<(), rfc6570::vars::VisitError>(())
    /// ```
    fn for_each_entry(&self, f: &mut dyn FnMut(&str, VarValue<'_>) -> Visit) -> Visit;

    /// The entries as a JSON object, when that is what the map is. Not part of the API: as
    /// [`VarList::as_json`], it lets the expander walk JSON objects without a callback per entry.
    #[cfg(feature = "json")]
    #[doc(hidden)]
    fn as_json(&self) -> Option<&serde_json::Map<String, serde_json::Value>> {
        None
    }
}

/// A source of template variables, looked up by name.
///
/// ```
/// use std::collections::HashMap;
/// use rfc6570::UriTemplate;
///
/// let t = UriTemplate::parse("db://users/{id}/profile")?;
/// let vars = HashMap::from([("id", "ada")]);
/// assert_eq!(t.expand(&vars)?, "db://users/ada/profile");
/// # Ok::<(), rfc6570::Error>(())
/// ```
pub trait Vars {
    /// The value of the variable `name`, or [`VarValue::Undefined`].
    ///
    /// ```
    /// use rfc6570::vars::{VarValue, Vars};
    /// let vars = [("id", "ada")];
    /// assert!(matches!(vars.get("id"), VarValue::String("ada")));
    /// assert!(matches!(vars.get("name"), VarValue::Undefined));
    /// ```
    fn get(&self, name: &str) -> VarValue<'_>;
}

/// A type that can be viewed as a template [`VarValue`].
///
/// ```
/// use rfc6570::vars::{AsVarValue, VarValue};
///
/// assert!(matches!(None::<&str>.as_var_value(), VarValue::Undefined));
/// assert!(matches!("x".as_var_value(), VarValue::String("x")));
/// ```
pub trait AsVarValue {
    /// Borrows `self` as a value.
    ///
    /// ```
    /// use rfc6570::vars::{AsVarValue, VarValue};
    /// assert!(matches!(String::from("x").as_var_value(), VarValue::String("x")));
    /// assert!(matches!(42u8.as_var_value(), VarValue::Display(_)));
    /// ```
    fn as_var_value(&self) -> VarValue<'_>;
}

impl<T: AsVarValue + ?Sized> AsVarValue for &T {
    fn as_var_value(&self) -> VarValue<'_> {
        (**self).as_var_value()
    }
}

impl AsVarValue for VarValue<'_> {
    fn as_var_value(&self) -> VarValue<'_> {
        *self
    }
}

impl AsVarValue for str {
    fn as_var_value(&self) -> VarValue<'_> {
        VarValue::String(self)
    }
}

impl AsVarValue for String {
    fn as_var_value(&self) -> VarValue<'_> {
        VarValue::String(self)
    }
}

impl AsVarValue for std::borrow::Cow<'_, str> {
    fn as_var_value(&self) -> VarValue<'_> {
        VarValue::String(self)
    }
}

impl<T: AsVarValue> AsVarValue for Option<T> {
    fn as_var_value(&self) -> VarValue<'_> {
        self.as_ref()
            .map_or(VarValue::Undefined, AsVarValue::as_var_value)
    }
}

macro_rules! display_values {
    ($($t:ty),*) => {$(
        impl AsVarValue for $t {
            fn as_var_value(&self) -> VarValue<'_> {
                VarValue::Display(self)
            }
        }
    )*};
}
display_values!(
    bool, char, i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize, f32, f64
);

impl<T: AsVarValue> VarList for Vec<T> {
    fn is_empty(&self) -> bool {
        Vec::is_empty(self)
    }
    fn for_each_item(&self, f: &mut dyn FnMut(VarValue<'_>) -> Visit) -> Visit {
        self.iter().try_for_each(|item| f(item.as_var_value()))
    }
}

impl<T: AsVarValue, const N: usize> VarList for [T; N] {
    fn is_empty(&self) -> bool {
        N == 0
    }
    fn for_each_item(&self, f: &mut dyn FnMut(VarValue<'_>) -> Visit) -> Visit {
        self.iter().try_for_each(|item| f(item.as_var_value()))
    }
}

impl<T: AsVarValue, const N: usize> AsVarValue for [T; N] {
    fn as_var_value(&self) -> VarValue<'_> {
        VarValue::List(self)
    }
}

impl<T: AsVarValue> AsVarValue for Vec<T> {
    fn as_var_value(&self) -> VarValue<'_> {
        VarValue::List(self)
    }
}

impl<K: Borrow<str> + Ord, V: AsVarValue> VarMap for BTreeMap<K, V> {
    fn is_empty(&self) -> bool {
        BTreeMap::is_empty(self)
    }
    fn for_each_entry(&self, f: &mut dyn FnMut(&str, VarValue<'_>) -> Visit) -> Visit {
        self.iter()
            .try_for_each(|(k, v)| f(k.borrow(), v.as_var_value()))
    }
}

impl<K: Borrow<str> + Ord, V: AsVarValue> AsVarValue for BTreeMap<K, V> {
    fn as_var_value(&self) -> VarValue<'_> {
        VarValue::Map(self)
    }
}

/// Entries are visited in the map's iteration order, which `HashMap` does not fix.
impl<K: Borrow<str> + Eq + Hash, V: AsVarValue, S: BuildHasher> VarMap for HashMap<K, V, S> {
    fn is_empty(&self) -> bool {
        HashMap::is_empty(self)
    }
    fn for_each_entry(&self, f: &mut dyn FnMut(&str, VarValue<'_>) -> Visit) -> Visit {
        self.iter()
            .try_for_each(|(k, v)| f(k.borrow(), v.as_var_value()))
    }
}

impl<K: Borrow<str> + Eq + Hash, V: AsVarValue, S: BuildHasher> AsVarValue for HashMap<K, V, S> {
    fn as_var_value(&self) -> VarValue<'_> {
        VarValue::Map(self)
    }
}

/// Whether two variable names are equal, compared inline: names are a few bytes long, shorter
/// than the call to `memcmp` that `==` would make for each candidate of the same length.
#[cfg(feature = "serde")]
#[inline]
fn same_name(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).all(|(x, y)| x == y)
}

impl<T: Vars + ?Sized> Vars for &T {
    fn get(&self, name: &str) -> VarValue<'_> {
        (**self).get(name)
    }
}

impl<K: Borrow<str> + Ord, V: AsVarValue> Vars for BTreeMap<K, V> {
    fn get(&self, name: &str) -> VarValue<'_> {
        BTreeMap::get(self, name).map_or(VarValue::Undefined, AsVarValue::as_var_value)
    }
}

impl<K: Borrow<str> + Eq + Hash, V: AsVarValue, S: BuildHasher> Vars for HashMap<K, V, S> {
    fn get(&self, name: &str) -> VarValue<'_> {
        HashMap::get(self, name).map_or(VarValue::Undefined, AsVarValue::as_var_value)
    }
}

/// The first pair with the name wins.
impl<K: AsRef<str>, V: AsVarValue> Vars for [(K, V)] {
    fn get(&self, name: &str) -> VarValue<'_> {
        self.iter()
            .find(|(k, _)| k.as_ref() == name)
            .map_or(VarValue::Undefined, |(_, v)| v.as_var_value())
    }
}

impl<K: AsRef<str>, V: AsVarValue, const N: usize> Vars for [(K, V); N] {
    fn get(&self, name: &str) -> VarValue<'_> {
        Vars::get(self.as_slice(), name)
    }
}

impl<K: AsRef<str>, V: AsVarValue> Vars for Vec<(K, V)> {
    fn get(&self, name: &str) -> VarValue<'_> {
        Vars::get(self.as_slice(), name)
    }
}

#[cfg(feature = "json")]
mod json {
    use super::*;
    use serde_json::Value as Json;

    impl AsVarValue for Json {
        fn as_var_value(&self) -> VarValue<'_> {
            match self {
                Json::Null => VarValue::Undefined,
                Json::Bool(b) => VarValue::Display(b),
                Json::Number(n) => VarValue::Display(n),
                Json::String(s) => VarValue::String(s),
                Json::Array(_) => VarValue::List(self),
                Json::Object(map) => VarValue::Map(map),
            }
        }
    }

    // A JSON array is a list of its items; any other JSON value, an empty one. A JSON array's
    // `VarValue::List` points at the array's `VarValue` rather than at its `Vec`, so that the
    // expander can tell it is JSON (see `VarList::as_json`). Not part of the API, so hidden.
    #[doc(hidden)]
    impl VarList for Json {
        fn is_empty(&self) -> bool {
            self.as_array().is_none_or(Vec::is_empty)
        }
        fn for_each_item(&self, f: &mut dyn FnMut(VarValue<'_>) -> Visit) -> Visit {
            self.as_array()
                .map_or(&[][..], Vec::as_slice)
                .iter()
                .try_for_each(|item| f(item.as_var_value()))
        }
        fn as_json(&self) -> Option<&[Json]> {
            self.as_array().map(Vec::as_slice)
        }
    }

    impl VarMap for serde_json::Map<String, Json> {
        fn is_empty(&self) -> bool {
            serde_json::Map::is_empty(self)
        }
        fn for_each_entry(&self, f: &mut dyn FnMut(&str, VarValue<'_>) -> Visit) -> Visit {
            self.iter().try_for_each(|(k, v)| f(k, v.as_var_value()))
        }
        fn as_json(&self) -> Option<&serde_json::Map<String, Json>> {
            Some(self)
        }
    }

    impl AsVarValue for serde_json::Map<String, Json> {
        fn as_var_value(&self) -> VarValue<'_> {
            VarValue::Map(self)
        }
    }

    /// A JSON object's members are the variables; any other JSON value defines none.
    impl Vars for Json {
        #[inline]
        fn get(&self, name: &str) -> VarValue<'_> {
            match self {
                Json::Object(map) => Vars::get(map, name),
                _ => VarValue::Undefined,
            }
        }
    }

    /// Objects of template variables are small: up to a dozen members, comparing names costs
    /// less than hashing one (serde_json's ordered map hashes with SipHash).
    impl Vars for serde_json::Map<String, Json> {
        fn get(&self, name: &str) -> VarValue<'_> {
            let found = if self.len() <= 12 {
                self.iter()
                    .find(|(k, _)| same_name(k, name))
                    .map(|(_, v)| v)
            } else {
                serde_json::Map::get(self, name)
            };
            found.map_or(VarValue::Undefined, AsVarValue::as_var_value)
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;
        use crate::UriTemplate;
        use serde_json::json;

        /// A JSON value reached as a list through its callback (as a caller outside the
        /// expander would) gives an array's items, and any other value none.
        #[test]
        fn a_json_value_as_a_list() {
            let mut seen = Vec::new();
            let array = json!(["a", 1]);
            VarList::for_each_item(&array, &mut |v| {
                seen.push(format!("{v:?}"));
                Ok(())
            })
            .unwrap();
            assert_eq!(seen, [r#"String("a")"#, r#"Display("1")"#]);

            let scalar = json!("x");
            assert!(VarList::is_empty(&scalar));
            let t = UriTemplate::parse("{x}").unwrap();
            assert_eq!(t.expand(&[("x", VarValue::List(&scalar))]).unwrap(), "");
        }
    }
}
