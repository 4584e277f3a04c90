//! The serializer of map keys: their text, as `serde_json` stringifies them.

use std::fmt;

use serde::ser::{self, Impossible, Serialize};

use super::SerializeError;
use super::tree::{Key, Text};

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
pub(super) struct KeySerializer;

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
