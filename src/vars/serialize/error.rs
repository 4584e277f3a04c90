//! [`SerializeError`]: what went wrong while a value was serialized, and where.

use std::fmt::{self, Write as _};

use serde::ser;

/// Why a value could not be made into [`Serialized`](super::Serialized) variables: what went wrong and where.
///
/// ```
/// use std::collections::BTreeMap;
/// use rfc6570::vars::Serialized;
///
/// #[derive(serde::Serialize)]
/// struct Filter { by_range: BTreeMap<(u8, u8), bool> }
/// #[derive(serde::Serialize)]
/// struct Query { filters: Vec<Filter> }
///
/// let query = Query { filters: vec![Filter { by_range: BTreeMap::from([((1, 2), true)]) }] };
/// let err = Serialized::new(&query).unwrap_err();
/// assert_eq!(err.path(), "filters[0].by_range");
/// assert_eq!(
///     err.to_string(),
///     "at `filters[0].by_range`: a map key must be a string, a number, a boolean or a char, not a tuple"
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct SerializeError {
    message: String,
    path: String,
}

impl SerializeError {
    /// What went wrong, without where.
    ///
    /// ```
    /// # use rfc6570::vars::Serialized;
    /// let err = Serialized::new("text").unwrap_err();
    /// assert_eq!(err.message(), "the top level must be a struct or a map, not a string");
    /// ```
    pub fn message(&self) -> &str {
        &self.message
    }

    /// Where it went wrong: the field names and map keys leading to the value, joined by `.`,
    /// with list indices in brackets (`filters[0].by_range`); empty for the top level.
    ///
    /// ```
    /// # use rfc6570::vars::Serialized;
    /// # use std::collections::BTreeMap;
    /// let bad_key = BTreeMap::from([("m", BTreeMap::from([(vec![1], "v")]))]);
    /// assert_eq!(Serialized::new(&bad_key).unwrap_err().path(), "m");
    /// let in_a_list = BTreeMap::from([("l", vec![BTreeMap::from([((), "v")])])]);
    /// assert_eq!(Serialized::new(&in_a_list).unwrap_err().path(), "l[0]");
    /// assert_eq!(Serialized::new(&1).unwrap_err().path(), "");
    /// ```
    pub fn path(&self) -> &str {
        &self.path
    }

    pub(super) fn new(message: String) -> Self {
        Self {
            message,
            path: String::new(),
        }
    }

    pub(super) fn not_vars(what: &str) -> Self {
        Self::new(format!(
            "the top level must be a struct or a map, not {what}"
        ))
    }

    pub(super) fn bad_key(what: &str) -> Self {
        Self::new(format!(
            "a map key must be a string, a number, a boolean or a char, not {what}"
        ))
    }

    /// The error, one level further out: inside the field or map key `name`.
    pub(super) fn in_field(self, name: &str) -> Self {
        self.within(format_args!("{name}"))
    }

    /// The error, one level further out: inside item `index` of a list.
    pub(super) fn in_item(self, index: usize) -> Self {
        self.within(format_args!("[{index}]"))
    }

    /// Puts `step` in front of the path. Errors are rare and paths short, so each level
    /// rebuilds the string.
    fn within(mut self, step: fmt::Arguments<'_>) -> Self {
        let mut path =
            String::with_capacity(step.as_str().map_or(16, str::len) + 1 + self.path.len());
        let _ = path.write_fmt(step);
        if !self.path.is_empty() {
            if !self.path.starts_with('[') {
                path.push('.');
            }
            path.push_str(&self.path);
        }
        self.path = path;
        self
    }
}

impl fmt::Display for SerializeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "at `{}`: {}", self.path, self.message)
        }
    }
}

impl ser::Error for SerializeError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Self::new(msg.to_string())
    }
}
