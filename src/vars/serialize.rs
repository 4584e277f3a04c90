//! Variables from any `Serialize` value: [`Serialized`] and its [`SerializeError`].
//!
//! This module owns a small `serde::Serializer` that turns a value (most often a
//! `#[derive(Serialize)]` struct) into a compact owned tree, once, and the [`Vars`] view that
//! expansion reads from that tree. The tree is what `serde_json::to_value` would give, without
//! building JSON: field names are borrowed from the type, numbers stay numbers (written as their
//! JSON text), and each string is one allocation. It sits below expansion: of this crate, it
//! uses only the rest of [`vars`](super).

use std::fmt::{self, Write as _};

use serde::ser::{self, Impossible, Serialize};

use super::{same_name, VarList, VarMap, VarValue, Vars, Visit};

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

/// Why a value could not be made into [`Serialized`] variables: what went wrong and where.
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

    fn new(message: String) -> Self {
        Self {
            message,
            path: String::new(),
        }
    }

    fn not_vars(what: &str) -> Self {
        Self::new(format!(
            "the top level must be a struct or a map, not {what}"
        ))
    }

    fn bad_key(what: &str) -> Self {
        Self::new(format!(
            "a map key must be a string, a number, a boolean or a char, not {what}"
        ))
    }

    /// The error, one level further out: inside the field or map key `name`.
    fn in_field(self, name: &str) -> Self {
        self.within(format_args!("{name}"))
    }

    /// The error, one level further out: inside item `index` of a list.
    fn in_item(self, index: usize) -> Self {
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

// --- the owned form ---

/// One serialized value.
#[derive(Clone)]
enum Value {
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
    fn view(&self) -> VarValue<'_> {
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
    fn kind(&self) -> &'static str {
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
struct List(Box<[Value]>);

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
struct Map(Box<[Entry]>);

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
struct Entry {
    key: Key,
    value: Value,
}

/// A field name, borrowed from the type, or a map key, stringified.
#[derive(Clone)]
enum Key {
    Static(&'static str),
    Owned(Box<str>),
}

impl Key {
    fn as_str(&self) -> &str {
        match self {
            Self::Static(s) => s,
            Self::Owned(s) => s,
        }
    }
}

/// A finite float, written as `serde_json` writes it: with `zmij`, the shortest text that reads
/// back as the same number, which is `serde_json`'s own formatter.
#[derive(Clone, Copy)]
struct JsonFloat(f64);

impl fmt::Display for JsonFloat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(zmij::Buffer::new().format_finite(self.0))
    }
}

/// Text written through `fmt::Write`, on the stack until it outgrows it, so that a short text
/// (a number made into a map key, a `collect_str` value) costs one allocation: that of its
/// `Box<str>`.
struct Text {
    stack: [u8; 48],
    len: usize,
    /// The text once it no longer fits on the stack; empty before.
    heap: String,
}

impl Text {
    fn new() -> Self {
        Self {
            stack: [0; 48],
            len: 0,
            heap: String::new(),
        }
    }

    fn of(d: impl fmt::Display) -> Result<Box<str>, SerializeError> {
        let mut text = Self::new();
        write!(text, "{d}").map_err(|_| {
            SerializeError::new("a value's `Display` failed while it was written".into())
        })?;
        Ok(text.into_boxed())
    }

    fn as_str(&self) -> &str {
        if self.heap.is_empty() {
            // Only whole `str`s are copied in, so this is UTF-8.
            std::str::from_utf8(&self.stack[..self.len]).unwrap_or_default()
        } else {
            &self.heap
        }
    }

    fn into_boxed(self) -> Box<str> {
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

// --- the serializers ---

/// Serializes one value into a [`Value`]. At the top level (`top`), only what can hold
/// variables is taken: a struct, a map, or an enum variant with content (a one-entry map).
#[derive(Clone, Copy)]
struct ValueSerializer {
    top: bool,
}

/// The serializer for everything below the top level.
const NESTED: ValueSerializer = ValueSerializer { top: false };

impl ValueSerializer {
    /// Refuses a value that is not map-like at the top level.
    fn leaf(self, what: &str) -> Result<(), SerializeError> {
        if self.top {
            Err(SerializeError::not_vars(what))
        } else {
            Ok(())
        }
    }
}

fn nested<T: Serialize + ?Sized>(value: &T) -> Result<Value, SerializeError> {
    value.serialize(NESTED)
}

/// A one-entry map, `{variant: value}`: an enum variant with content, externally tagged.
fn tagged(variant: &'static str, value: Value) -> Value {
    Value::Map(Map(Box::new([Entry {
        key: Key::Static(variant),
        value,
    }])))
}

fn int(n: i128) -> Result<Value, SerializeError> {
    Ok(if let Ok(n) = u64::try_from(n) {
        Value::UInt(n)
    } else if let Ok(n) = i64::try_from(n) {
        Value::Int(n)
    } else {
        Value::Str(Text::of(n)?)
    })
}

fn float(x: f64) -> Value {
    if x.is_finite() {
        Value::Float(JsonFloat(x))
    } else {
        Value::Null
    }
}

impl ser::Serializer for ValueSerializer {
    type Ok = Value;
    type Error = SerializeError;
    type SerializeSeq = SeqBuilder;
    type SerializeTuple = SeqBuilder;
    type SerializeTupleStruct = SeqBuilder;
    type SerializeTupleVariant = Tagged<SeqBuilder>;
    type SerializeMap = MapBuilder;
    type SerializeStruct = MapBuilder;
    type SerializeStructVariant = Tagged<MapBuilder>;

    fn serialize_bool(self, v: bool) -> Result<Value, SerializeError> {
        self.leaf("a boolean")?;
        Ok(Value::Bool(v))
    }

    fn serialize_i8(self, v: i8) -> Result<Value, SerializeError> {
        self.serialize_i64(v.into())
    }

    fn serialize_i16(self, v: i16) -> Result<Value, SerializeError> {
        self.serialize_i64(v.into())
    }

    fn serialize_i32(self, v: i32) -> Result<Value, SerializeError> {
        self.serialize_i64(v.into())
    }

    fn serialize_i64(self, v: i64) -> Result<Value, SerializeError> {
        self.leaf("an integer")?;
        Ok(Value::Int(v))
    }

    fn serialize_i128(self, v: i128) -> Result<Value, SerializeError> {
        self.leaf("an integer")?;
        int(v)
    }

    fn serialize_u8(self, v: u8) -> Result<Value, SerializeError> {
        self.serialize_u64(v.into())
    }

    fn serialize_u16(self, v: u16) -> Result<Value, SerializeError> {
        self.serialize_u64(v.into())
    }

    fn serialize_u32(self, v: u32) -> Result<Value, SerializeError> {
        self.serialize_u64(v.into())
    }

    fn serialize_u64(self, v: u64) -> Result<Value, SerializeError> {
        self.leaf("an integer")?;
        Ok(Value::UInt(v))
    }

    fn serialize_u128(self, v: u128) -> Result<Value, SerializeError> {
        self.leaf("an integer")?;
        match u64::try_from(v) {
            Ok(v) => Ok(Value::UInt(v)),
            Err(_) => Ok(Value::Str(Text::of(v)?)),
        }
    }

    /// As `serde_json::to_value`: an `f32` is widened and written as that `f64` is.
    fn serialize_f32(self, v: f32) -> Result<Value, SerializeError> {
        self.serialize_f64(v.into())
    }

    fn serialize_f64(self, v: f64) -> Result<Value, SerializeError> {
        self.leaf("a float")?;
        Ok(float(v))
    }

    fn serialize_char(self, v: char) -> Result<Value, SerializeError> {
        self.leaf("a char")?;
        Ok(Value::Char(v))
    }

    fn serialize_str(self, v: &str) -> Result<Value, SerializeError> {
        self.leaf("a string")?;
        Ok(Value::Str(v.into()))
    }

    fn serialize_bytes(self, v: &[u8]) -> Result<Value, SerializeError> {
        self.leaf("bytes")?;
        let items = v.iter().map(|&b| Value::UInt(b.into())).collect();
        Ok(Value::List(List(items)))
    }

    fn serialize_none(self) -> Result<Value, SerializeError> {
        self.leaf("none")?;
        Ok(Value::Null)
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<Value, SerializeError> {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<Value, SerializeError> {
        self.leaf("unit")?;
        Ok(Value::Null)
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result<Value, SerializeError> {
        self.leaf("a unit struct")?;
        Ok(Value::Null)
    }

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<Value, SerializeError> {
        self.leaf("a unit variant")?;
        Ok(Value::Name(variant))
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<Value, SerializeError> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<Value, SerializeError> {
        let value = nested(value).map_err(|e| e.in_field(variant))?;
        Ok(tagged(variant, value))
    }

    fn serialize_seq(self, len: Option<usize>) -> Result<SeqBuilder, SerializeError> {
        self.leaf("a sequence")?;
        Ok(SeqBuilder::new(len.unwrap_or(0)))
    }

    fn serialize_tuple(self, len: usize) -> Result<SeqBuilder, SerializeError> {
        self.leaf("a tuple")?;
        Ok(SeqBuilder::new(len))
    }

    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        len: usize,
    ) -> Result<SeqBuilder, SerializeError> {
        self.leaf("a tuple struct")?;
        Ok(SeqBuilder::new(len))
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Tagged<SeqBuilder>, SerializeError> {
        Ok(Tagged {
            variant,
            inner: SeqBuilder::new(len),
        })
    }

    fn serialize_map(self, len: Option<usize>) -> Result<MapBuilder, SerializeError> {
        Ok(MapBuilder::new(len.unwrap_or(0)))
    }

    fn serialize_struct(
        self,
        _name: &'static str,
        len: usize,
    ) -> Result<MapBuilder, SerializeError> {
        Ok(MapBuilder::new(len))
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Tagged<MapBuilder>, SerializeError> {
        Ok(Tagged {
            variant,
            inner: MapBuilder::new(len),
        })
    }

    fn collect_str<T: fmt::Display + ?Sized>(self, value: &T) -> Result<Value, SerializeError> {
        self.leaf("a string")?;
        Ok(Value::Str(Text::of(value)?))
    }
}

/// The items of a sequence, tuple or tuple struct.
struct SeqBuilder {
    items: Vec<Value>,
}

impl SeqBuilder {
    fn new(len: usize) -> Self {
        Self {
            items: Vec::with_capacity(len),
        }
    }

    fn push<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), SerializeError> {
        let value = nested(value).map_err(|e| e.in_item(self.items.len()))?;
        self.items.push(value);
        Ok(())
    }

    fn finish(self) -> Value {
        Value::List(List(self.items.into_boxed_slice()))
    }
}

impl ser::SerializeSeq for SeqBuilder {
    type Ok = Value;
    type Error = SerializeError;

    fn serialize_element<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), SerializeError> {
        self.push(v)
    }

    fn end(self) -> Result<Value, SerializeError> {
        Ok(self.finish())
    }
}

impl ser::SerializeTuple for SeqBuilder {
    type Ok = Value;
    type Error = SerializeError;

    fn serialize_element<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), SerializeError> {
        self.push(v)
    }

    fn end(self) -> Result<Value, SerializeError> {
        Ok(self.finish())
    }
}

impl ser::SerializeTupleStruct for SeqBuilder {
    type Ok = Value;
    type Error = SerializeError;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), SerializeError> {
        self.push(v)
    }

    fn end(self) -> Result<Value, SerializeError> {
        Ok(self.finish())
    }
}

/// The entries of a map or the fields of a struct.
struct MapBuilder {
    entries: Vec<Entry>,
    /// A map's key, between `serialize_key` and `serialize_value`.
    key: Option<Key>,
}

impl MapBuilder {
    fn new(len: usize) -> Self {
        Self {
            entries: Vec::with_capacity(len),
            key: None,
        }
    }

    fn insert<T: Serialize + ?Sized>(&mut self, key: Key, value: &T) -> Result<(), SerializeError> {
        let value = nested(value).map_err(|e| e.in_field(key.as_str()))?;
        self.entries.push(Entry { key, value });
        Ok(())
    }

    fn finish(mut self) -> Value {
        dedup(&mut self.entries);
        Value::Map(Map(self.entries.into_boxed_slice()))
    }
}

/// Drops repeated keys as a JSON object (with `serde_json`'s `preserve_order`) does: a key keeps
/// its first place and takes its last value. Repeats are rare (`#[serde(flatten)]` can make
/// them), so the common case is only a check.
fn dedup(entries: &mut Vec<Entry>) {
    let repeated = if entries.len() <= 16 {
        entries.iter().enumerate().any(|(i, a)| {
            entries[i + 1..]
                .iter()
                .any(|b| same_name(a.key.as_str(), b.key.as_str()))
        })
    } else {
        let mut keys: Vec<&str> = entries.iter().map(|e| e.key.as_str()).collect();
        keys.sort_unstable();
        keys.windows(2).any(|w| w[0] == w[1])
    };
    if !repeated {
        return;
    }
    let mut kept: Vec<Entry> = Vec::with_capacity(entries.len());
    for entry in entries.drain(..) {
        match kept
            .iter_mut()
            .find(|k| same_name(k.key.as_str(), entry.key.as_str()))
        {
            Some(first) => first.value = entry.value,
            None => kept.push(entry),
        }
    }
    *entries = kept;
}

impl ser::SerializeMap for MapBuilder {
    type Ok = Value;
    type Error = SerializeError;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), SerializeError> {
        self.key = Some(key.serialize(KeySerializer)?);
        Ok(())
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), SerializeError> {
        let key = self.key.take().ok_or_else(|| {
            SerializeError::new("a map value was serialized before its key".into())
        })?;
        self.insert(key, v)
    }

    fn end(self) -> Result<Value, SerializeError> {
        Ok(self.finish())
    }
}

impl ser::SerializeStruct for MapBuilder {
    type Ok = Value;
    type Error = SerializeError;

    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        name: &'static str,
        v: &T,
    ) -> Result<(), SerializeError> {
        self.insert(Key::Static(name), v)
    }

    fn end(self) -> Result<Value, SerializeError> {
        Ok(self.finish())
    }
}

/// A tuple or struct variant: its content, under its name.
struct Tagged<B> {
    variant: &'static str,
    inner: B,
}

impl ser::SerializeTupleVariant for Tagged<SeqBuilder> {
    type Ok = Value;
    type Error = SerializeError;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), SerializeError> {
        let variant = self.variant;
        self.inner.push(v).map_err(|e| e.in_field(variant))
    }

    fn end(self) -> Result<Value, SerializeError> {
        Ok(tagged(self.variant, self.inner.finish()))
    }
}

impl ser::SerializeStructVariant for Tagged<MapBuilder> {
    type Ok = Value;
    type Error = SerializeError;

    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        name: &'static str,
        v: &T,
    ) -> Result<(), SerializeError> {
        let variant = self.variant;
        self.inner
            .insert(Key::Static(name), v)
            .map_err(|e| e.in_field(variant))
    }

    fn end(self) -> Result<Value, SerializeError> {
        Ok(tagged(self.variant, self.inner.finish()))
    }
}

/// The `serialize_*` methods of every integer type for [`KeySerializer`]: each writes its
/// decimal text, as `serde_json` writes integer keys.
macro_rules! integer_keys {
    ($($method:ident: $t:ty),*) => {$(
        fn $method(self, v: $t) -> Result<Key, SerializeError> {
            Self::number(v)
        }
    )*};
}

/// Serializes a map key into its text, accepting what `serde_json` accepts: strings, chars,
/// integers, finite floats, booleans, unit variants, and newtype structs around one of those.
struct KeySerializer;

impl KeySerializer {
    fn number(n: impl fmt::Display) -> Result<Key, SerializeError> {
        Text::of(n).map(Key::Owned)
    }

    /// A float key, as `serde_json` writes one: finite, in `zmij`'s shortest text (an `f32`
    /// as an `f32`, unlike an `f32` value, which `serde_json` widens).
    fn float<F: zmij::Float>(x: F, finite: bool) -> Result<Key, SerializeError> {
        if !finite {
            return Err(SerializeError::new(
                "a float map key must be finite, not NaN or infinite".into(),
            ));
        }
        Ok(Key::Owned(Box::from(zmij::Buffer::new().format_finite(x))))
    }
}

impl ser::Serializer for KeySerializer {
    type Ok = Key;
    type Error = SerializeError;
    type SerializeSeq = Impossible<Key, SerializeError>;
    type SerializeTuple = Impossible<Key, SerializeError>;
    type SerializeTupleStruct = Impossible<Key, SerializeError>;
    type SerializeTupleVariant = Impossible<Key, SerializeError>;
    type SerializeMap = Impossible<Key, SerializeError>;
    type SerializeStruct = Impossible<Key, SerializeError>;
    type SerializeStructVariant = Impossible<Key, SerializeError>;

    fn serialize_bool(self, v: bool) -> Result<Key, SerializeError> {
        Ok(Key::Static(if v { "true" } else { "false" }))
    }

    integer_keys!(
        serialize_i8: i8,
        serialize_i16: i16,
        serialize_i32: i32,
        serialize_i64: i64,
        serialize_i128: i128,
        serialize_u8: u8,
        serialize_u16: u16,
        serialize_u32: u32,
        serialize_u64: u64,
        serialize_u128: u128
    );

    /// Unlike an `f32` value, an `f32` key keeps `f32`'s own shortest text, as in `serde_json`.
    fn serialize_f32(self, v: f32) -> Result<Key, SerializeError> {
        Self::float(v, v.is_finite())
    }

    fn serialize_f64(self, v: f64) -> Result<Key, SerializeError> {
        Self::float(v, v.is_finite())
    }

    fn serialize_char(self, v: char) -> Result<Key, SerializeError> {
        Ok(Key::Owned(Box::from(&*v.encode_utf8(&mut [0; 4]))))
    }

    fn serialize_str(self, v: &str) -> Result<Key, SerializeError> {
        Ok(Key::Owned(v.into()))
    }

    fn serialize_bytes(self, _v: &[u8]) -> Result<Key, SerializeError> {
        Err(SerializeError::bad_key("bytes"))
    }

    fn serialize_none(self) -> Result<Key, SerializeError> {
        Err(SerializeError::bad_key("none"))
    }

    fn serialize_some<T: Serialize + ?Sized>(self, _value: &T) -> Result<Key, SerializeError> {
        Err(SerializeError::bad_key("an option"))
    }

    fn serialize_unit(self) -> Result<Key, SerializeError> {
        Err(SerializeError::bad_key("unit"))
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result<Key, SerializeError> {
        Err(SerializeError::bad_key("a unit struct"))
    }

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<Key, SerializeError> {
        Ok(Key::Static(variant))
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<Key, SerializeError> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Result<Key, SerializeError> {
        Err(SerializeError::bad_key("an enum variant with content"))
    }

    fn serialize_seq(self, _len: Option<usize>) -> Result<Self::SerializeSeq, SerializeError> {
        Err(SerializeError::bad_key("a sequence"))
    }

    fn serialize_tuple(self, _len: usize) -> Result<Self::SerializeTuple, SerializeError> {
        Err(SerializeError::bad_key("a tuple"))
    }

    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleStruct, SerializeError> {
        Err(SerializeError::bad_key("a tuple struct"))
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleVariant, SerializeError> {
        Err(SerializeError::bad_key("an enum variant with content"))
    }

    fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap, SerializeError> {
        Err(SerializeError::bad_key("a map"))
    }

    fn serialize_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStruct, SerializeError> {
        Err(SerializeError::bad_key("a struct"))
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant, SerializeError> {
        Err(SerializeError::bad_key("an enum variant with content"))
    }

    fn collect_str<T: fmt::Display + ?Sized>(self, value: &T) -> Result<Key, SerializeError> {
        Text::of(value).map(Key::Owned)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn float_text(x: f64) -> String {
        JsonFloat(x).to_string()
    }

    /// Each branch of the layout, with the text `serde_json` writes for it.
    #[test]
    fn floats_are_laid_out_as_serde_json_writes_them() {
        let cases = [
            (0.0, "0.0"),
            (-0.0, "-0.0"),
            (1.0, "1.0"),
            (-2.5, "-2.5"),
            (1234e7, "12340000000.0"),
            (12.34, "12.34"),
            (0.001234, "0.001234"),
            (1e-5, "0.00001"),
            (1e-6, "1e-6"),
            (1.5e-7, "1.5e-7"),
            (1e15, "1000000000000000.0"),
            (1e16, "1e+16"),
            (1.234e33, "1.234e+33"),
            (f64::MAX, "1.7976931348623157e+308"),
            (f64::MIN_POSITIVE, "2.2250738585072014e-308"),
            (5e-324, "5e-324"),
            (0.1 + 0.2, "0.30000000000000004"),
            // -132.706817626953125 exactly: a tie between two shortest texts, which goes to
            // the even digit, not up.
            (-8_697_074.0 / 65_536.0, "-132.70681762695312"),
            (f64::from(0.1f32), "0.10000000149011612"),
        ];
        for (x, text) in cases {
            assert_eq!(float_text(x), text, "{x:e}");
            #[cfg(feature = "json")]
            assert_eq!(serde_json::Number::from_f64(x).unwrap().to_string(), text);
        }
    }

    /// Short text stays on the stack; long text moves to the heap whole, at any split.
    #[test]
    fn text_spills_to_the_heap_intact() {
        let long = "é".repeat(40);
        for split in [0, 2, 40, 48, 80] {
            let mut text = Text::new();
            text.write_str(&long[..split]).unwrap();
            text.write_str(&long[split..]).unwrap();
            assert_eq!(text.as_str(), long, "split at {split}");
            assert_eq!(&*text.into_boxed(), long);
        }
        assert_eq!(&*Text::of(42).unwrap(), "42");
    }

    fn keys(entries: &[Entry]) -> Vec<(&str, String)> {
        entries
            .iter()
            .map(|e| (e.key.as_str(), format!("{:?}", e.value)))
            .collect()
    }

    /// A repeated key keeps its first place and its last value, in short and long maps.
    #[test]
    fn repeated_keys_keep_their_place_and_last_value() {
        let entry = |k: &'static str, n: u64| Entry {
            key: Key::Static(k),
            value: Value::UInt(n),
        };
        let mut short = vec![entry("a", 1), entry("b", 2), entry("a", 3)];
        dedup(&mut short);
        assert_eq!(keys(&short), [("a", "3".into()), ("b", "2".into())]);

        let names: Vec<&'static str> = (0..20)
            .map(|i| &*Box::leak(format!("k{i}").into_boxed_str()))
            .collect();
        let mut long: Vec<Entry> = names.iter().map(|k| entry(k, 0)).collect();
        long.push(entry("k3", 9));
        dedup(&mut long);
        assert_eq!(long.len(), 20);
        assert_eq!(keys(&long)[3], ("k3", "9".into()));

        let mut distinct: Vec<Entry> = names.iter().map(|k| entry(k, 0)).collect();
        dedup(&mut distinct);
        assert_eq!(distinct.len(), 20);
    }
}
