//! Captures as serde data: `Serialize` to JSON-like maps, and typed extraction through
//! `Deserialize`, in the manner of axum's `Path` extractor.

use std::borrow::Cow;

use serde::de::{self, DeserializeSeed, Error as _, IntoDeserializer, MapAccess, Visitor};
use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Deserialize, Serialize, Serializer};

use super::capture::{Capture, CaptureKind};
use super::captures::Captures;

/// Parses the text for each numeric type, naming the type in the error.
macro_rules! parse_numbers {
    ($($method:ident $ty:ident $visit:ident),* $(,)?) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, ExtractError> {
            match self.0.parse::<$ty>() {
                Ok(n) => visitor.$visit(n),
                Err(_) => Err(ExtractError::custom(format_args!(
                    concat!("expected ", stringify!($ty), ", found {:?}"),
                    self.0
                ))),
            }
        }
    )*};
}

/// A capture asked for a scalar type reads its decoded text as that type.
macro_rules! forward_scalars_to_text {
    ($field:tt) => {
        forward_scalars_to_text!(@ $field;
            deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64
            deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64
            deserialize_u128 deserialize_f32 deserialize_f64 deserialize_char deserialize_str
            deserialize_string deserialize_bytes deserialize_byte_buf deserialize_unit
            deserialize_identifier deserialize_ignored_any);

        fn deserialize_unit_struct<V: Visitor<'de>>(
            self,
            name: &'static str,
            visitor: V,
        ) -> Result<V::Value, ExtractError> {
            Text(self.$field.decoded()).deserialize_unit_struct(name, visitor)
        }

        fn deserialize_enum<V: Visitor<'de>>(
            self,
            name: &'static str,
            variants: &'static [&'static str],
            visitor: V,
        ) -> Result<V::Value, ExtractError> {
            Text(self.$field.decoded()).deserialize_enum(name, variants, visitor)
        }
    };
    (@ $field:tt; $($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, ExtractError> {
            de::Deserializer::$method(Text(self.$field.decoded()), visitor)
        }
    )*};
}

impl Serialize for Captures<'_> {
    /// A map from each defined variable to a string, a list of strings or a map of strings, all
    /// percent-decoded; absent variables are left out.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        for capture in self.iter() {
            map.serialize_entry(capture.name(), &capture)?;
        }
        map.end()
    }
}

impl Serialize for Capture<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.kind() {
            CaptureKind::List => {
                let mut seq = s.serialize_seq(None)?;
                for item in self.items() {
                    seq.serialize_element(&item)?;
                }
                seq.end()
            }
            CaptureKind::Map => {
                let mut map = s.serialize_map(None)?;
                for (k, v) in self.entries() {
                    map.serialize_entry(&k, &v)?;
                }
                map.end()
            }
            _ => s.serialize_str(&self.decoded()),
        }
    }
}

/// Why [`Captures::deserialize`] failed: the variable and what was wrong with its value.
///
/// ```
/// use rfc6570::UriTemplate;
///
/// #[derive(serde::Deserialize, Debug)]
/// struct Job { job_id: u64 }
///
/// let t = UriTemplate::parse("log://build/{job_id}")?;
/// let err = t.match_uri("log://build/abc")?.deserialize::<Job>().unwrap_err();
/// assert_eq!(err.variable(), Some("job_id"));
/// assert_eq!(err.to_string(), "variable `job_id`: expected u64, found \"abc\"");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExtractError {
    variable: Option<String>,
    message: String,
}

impl ExtractError {
    /// The variable whose value could not be extracted, if the error is about one.
    ///
    /// ```
    /// # use rfc6570::UriTemplate;
    /// #[derive(serde::Deserialize, Debug)]
    /// struct Page { n: u8 }
    /// let t = UriTemplate::parse("/page/{n}")?;
    /// let err = t.match_uri("/page/300")?.deserialize::<Page>().unwrap_err();
    /// assert_eq!(err.variable(), Some("n"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn variable(&self) -> Option<&str> {
        self.variable.as_deref()
    }

    fn in_variable(mut self, name: &str) -> Self {
        self.variable.get_or_insert_with(|| name.to_owned());
        self
    }
}

impl std::fmt::Display for ExtractError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.variable {
            Some(var) => write!(f, "variable `{var}`: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for ExtractError {}

impl de::Error for ExtractError {
    fn custom<T: std::fmt::Display>(msg: T) -> Self {
        Self {
            variable: None,
            message: msg.to_string(),
        }
    }
}

impl<'a> Captures<'a> {
    /// Extracts the captures into a typed value through serde, in the manner of axum's `Path`
    /// extractor: a struct's fields are looked up by variable name, numbers and booleans are
    /// parsed from the text, `Option` fields are `None` for absent variables, lists go into
    /// `Vec`s and maps into maps. Strings without escapes can be borrowed from the URI.
    ///
    /// ```
    /// use rfc6570::UriTemplate;
    ///
    /// #[derive(serde::Deserialize)]
    /// struct BuildLog<'a> { job_id: u64, lines: Option<String>, host: &'a str }
    ///
    /// let t = UriTemplate::parse("log://{host}/build/{job_id}{?lines}")?;
    /// let log: BuildLog = t.match_uri("log://ci/build/42")?.deserialize()?;
    /// assert_eq!((log.host, log.job_id, log.lines), ("ci", 42, None));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// An [`ExtractError`] that names the variable whose text does not fit the field's type,
    /// or says which required field is missing.
    pub fn deserialize<T: Deserialize<'a>>(&self) -> Result<T, ExtractError> {
        T::deserialize(CapturesDeserializer { captures: self })
    }
}

struct CapturesDeserializer<'c, 'a> {
    captures: &'c Captures<'a>,
}

impl<'de> de::Deserializer<'de> for CapturesDeserializer<'_, 'de> {
    type Error = ExtractError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, ExtractError> {
        let mut entries = self.captures.iter();
        visitor.visit_map(CaptureEntries {
            entries: &mut entries,
            pending: None,
        })
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum
        identifier ignored_any
    }
}

struct CaptureEntries<'i, I: Iterator> {
    entries: &'i mut I,
    pending: Option<I::Item>,
}

impl<'de, I: Iterator<Item = Capture<'de>>> MapAccess<'de> for CaptureEntries<'_, I> {
    type Error = ExtractError;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, ExtractError> {
        let Some(capture) = self.entries.next() else {
            return Ok(None);
        };
        let key = seed.deserialize(capture.name().into_deserializer())?;
        self.pending = Some(capture);
        Ok(Some(key))
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(
        &mut self,
        seed: V,
    ) -> Result<V::Value, ExtractError> {
        let capture = self
            .pending
            .take()
            .expect("serde asks for a value after its key");
        let name = capture.name();
        seed.deserialize(CaptureDeserializer(capture))
            .map_err(|e| e.in_variable(name))
    }
}

/// One capture: a string, a list or a map, by its kind.
struct CaptureDeserializer<'a>(Capture<'a>);

impl<'de> de::Deserializer<'de> for CaptureDeserializer<'de> {
    type Error = ExtractError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, ExtractError> {
        match self.0.kind() {
            CaptureKind::List => self.deserialize_seq(visitor),
            CaptureKind::Map => self.deserialize_map(visitor),
            _ => Text(self.0.decoded()).deserialize_any(visitor),
        }
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, ExtractError> {
        visitor.visit_seq(de::value::SeqDeserializer::new(self.0.items().map(Text)))
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, ExtractError> {
        let entries = self.0.entries().map(|(k, v)| (Text(k), Text(v)));
        visitor.visit_map(de::value::MapDeserializer::new(entries))
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, ExtractError> {
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        visitor: V,
    ) -> Result<V::Value, ExtractError> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, ExtractError> {
        self.deserialize_map(visitor)
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        _: usize,
        visitor: V,
    ) -> Result<V::Value, ExtractError> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: usize,
        visitor: V,
    ) -> Result<V::Value, ExtractError> {
        self.deserialize_seq(visitor)
    }

    forward_scalars_to_text!(0);
}

/// One decoded text, read as whatever type is asked for: numbers and booleans are parsed.
struct Text<'a>(Cow<'a, str>);

impl<'de> IntoDeserializer<'de, ExtractError> for Text<'de> {
    type Deserializer = Self;

    fn into_deserializer(self) -> Self {
        self
    }
}

impl<'de> de::Deserializer<'de> for Text<'de> {
    type Error = ExtractError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, ExtractError> {
        match self.0 {
            Cow::Borrowed(s) => visitor.visit_borrowed_str(s),
            Cow::Owned(s) => visitor.visit_string(s),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, ExtractError> {
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        visitor: V,
    ) -> Result<V::Value, ExtractError> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, ExtractError> {
        visitor.visit_enum(self.0.into_deserializer())
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, ExtractError> {
        match &*self.0 {
            "true" => visitor.visit_bool(true),
            "false" => visitor.visit_bool(false),
            other => Err(ExtractError::custom(format_args!(
                "expected bool, found {other:?}"
            ))),
        }
    }

    parse_numbers! {
        deserialize_i8 i8 visit_i8, deserialize_i16 i16 visit_i16, deserialize_i32 i32 visit_i32,
        deserialize_i64 i64 visit_i64, deserialize_i128 i128 visit_i128,
        deserialize_u8 u8 visit_u8, deserialize_u16 u16 visit_u16, deserialize_u32 u32 visit_u32,
        deserialize_u64 u64 visit_u64, deserialize_u128 u128 visit_u128,
        deserialize_f32 f32 visit_f32, deserialize_f64 f64 visit_f64, deserialize_char char visit_char
    }

    serde::forward_to_deserialize_any! {
        str string bytes byte_buf unit unit_struct seq tuple tuple_struct map struct
        identifier ignored_any
    }
}
