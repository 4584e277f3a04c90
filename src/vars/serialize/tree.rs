//! The owned form a value serializes into: what `serde_json::to_value` would give, without
//! building JSON, and the [`VarValue`] view expansion reads of it.

use std::fmt::{self, Write as _};

use super::SerializeError;
use crate::vars::{VarList, VarMap, VarValue, Visit};

/// One serialized value.
#[derive(Clone)]
pub(super) enum Value {
    /// `None`, `()`, unit structs, non-finite floats: JSON's `null`, undefined in templates.
    Null,
    Bool(bool),
    Int(i64),
    UInt(u64),
    Float(JsonFloat),
    Char(char),
    Str(Box<str>),
    /// A unit variant's name, borrowed from its type.
    Name(&'static str),
    List(List),
    Map(Map),
}

impl Value {
    pub(super) fn view(&self) -> VarValue<'_> {
        match self {
            Self::Null => VarValue::Undefined,
            Self::Bool(b) => VarValue::Display(b),
            Self::Int(n) => VarValue::Display(n),
            Self::UInt(n) => VarValue::Display(n),
            Self::Float(x) => VarValue::Display(x),
            Self::Char(c) => VarValue::Display(c),
            Self::Str(s) => VarValue::String(s),
            Self::Name(s) => VarValue::String(s),
            Self::List(list) => VarValue::List(list),
            Self::Map(map) => VarValue::Map(map),
        }
    }

    /// What the value is, for error messages.
    pub(super) fn kind(&self) -> &'static str {
        match self {
            Self::Null => "null",
            Self::Bool(_) => "a boolean",
            Self::Int(_) | Self::UInt(_) => "an integer",
            Self::Float(_) => "a float",
            Self::Char(_) => "a char",
            Self::Str(_) => "a string",
            Self::Name(_) => "a unit variant",
            Self::List(_) => "a sequence",
            Self::Map(_) => "a map",
        }
    }
}

impl fmt::Debug for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Null => f.write_str("null"),
            Self::Bool(b) => write!(f, "{b}"),
            Self::Int(n) => write!(f, "{n}"),
            Self::UInt(n) => write!(f, "{n}"),
            Self::Float(x) => write!(f, "{x}"),
            Self::Char(c) => fmt::Debug::fmt(c.encode_utf8(&mut [0; 4]), f),
            Self::Str(s) => fmt::Debug::fmt(s, f),
            Self::Name(s) => fmt::Debug::fmt(s, f),
            Self::List(list) => fmt::Debug::fmt(list, f),
            Self::Map(map) => fmt::Debug::fmt(map, f),
        }
    }
}

/// A sequence: a template list.
#[derive(Clone)]
pub(super) struct List(pub(super) Box<[Value]>);

impl VarList for List {
    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    fn for_each_item(&self, f: &mut dyn FnMut(VarValue<'_>) -> Visit) -> Visit {
        self.0.iter().try_for_each(|item| f(item.view()))
    }
}

impl fmt::Debug for List {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.0.iter()).finish()
    }
}

/// A map or a struct: a template associative array, in serialization order.
#[derive(Clone)]
pub(super) struct Map(pub(super) Box<[Entry]>);

impl VarMap for Map {
    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    fn for_each_entry(&self, f: &mut dyn FnMut(&str, VarValue<'_>) -> Visit) -> Visit {
        self.0
            .iter()
            .try_for_each(|e| f(e.key.as_str(), e.value.view()))
    }
}

impl fmt::Debug for Map {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map()
            .entries(self.0.iter().map(|e| (e.key.as_str(), &e.value)))
            .finish()
    }
}

#[derive(Clone)]
pub(super) struct Entry {
    pub(super) key: Key,
    pub(super) value: Value,
}

/// A field name, borrowed from the type, or a map key, stringified.
#[derive(Clone)]
pub(super) enum Key {
    Static(&'static str),
    Owned(Box<str>),
}

impl Key {
    pub(super) fn as_str(&self) -> &str {
        match self {
            Self::Static(s) => s,
            Self::Owned(s) => s,
        }
    }
}

/// A finite float, written as `serde_json` writes it: with `zmij`, the shortest text that reads
/// back as the same number, which is `serde_json`'s own formatter.
#[derive(Clone, Copy)]
pub(super) struct JsonFloat(pub(super) f64);

impl fmt::Display for JsonFloat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(zmij::Buffer::new().format_finite(self.0))
    }
}

/// Text written through `fmt::Write`, on the stack until it outgrows it, so that a short text
/// (a number made into a map key, a `collect_str` value) costs one allocation: that of its
/// `Box<str>`.
pub(super) struct Text {
    stack: [u8; 48],
    len: usize,
    /// The text once it no longer fits on the stack; empty before.
    heap: String,
}

impl Text {
    pub(super) fn new() -> Self {
        Self {
            stack: [0; 48],
            len: 0,
            heap: String::new(),
        }
    }

    pub(super) fn of(d: impl fmt::Display) -> Result<Box<str>, SerializeError> {
        let mut text = Self::new();
        write!(text, "{d}").map_err(|_| {
            SerializeError::new("a value's `Display` failed while it was written".into())
        })?;
        Ok(text.into_boxed())
    }

    pub(super) fn as_str(&self) -> &str {
        if self.heap.is_empty() {
            // Only whole `str`s are copied in, so this is UTF-8.
            std::str::from_utf8(&self.stack[..self.len]).unwrap_or_default()
        } else {
            &self.heap
        }
    }

    pub(super) fn into_boxed(self) -> Box<str> {
        if self.heap.is_empty() {
            Box::from(self.as_str())
        } else {
            self.heap.into_boxed_str()
        }
    }
}

impl fmt::Write for Text {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        if self.heap.is_empty() {
            if let Some(room) = self.stack.get_mut(self.len..self.len + s.len()) {
                room.copy_from_slice(s.as_bytes());
                self.len += s.len();
                return Ok(());
            }
            self.heap.reserve(2 * (self.len + s.len()));
            let stack = std::str::from_utf8(&self.stack[..self.len]).unwrap_or_default();
            self.heap.push_str(stack);
        }
        self.heap.push_str(s);
        Ok(())
    }
}
