//! The serializer that turns a value into the owned form ([`Value`]), checking at the top
//! level that it can hold variables.

use std::fmt;

use serde::ser::{self, Serialize};

use super::SerializeError;
use super::key::KeySerializer;
use super::tree::{Entry, JsonFloat, Key, List, Map, Text, Value};
use crate::vars::same_name;

/// Serializes one value into a [`Value`]. At the top level (`top`), only what can hold
/// variables is taken: a struct, a map, or an enum variant with content (a one-entry map).
#[derive(Clone, Copy)]
pub(super) struct ValueSerializer {
    pub(super) top: bool,
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
pub(super) struct SeqBuilder {
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
pub(super) struct MapBuilder {
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
pub(super) fn dedup(entries: &mut Vec<Entry>) {
    let repeated = if entries.len() <= 16 {
        entries.iter().enumerate().any(|(i, a)| {
            entries[i + 1..]
                .iter()
                .any(|b| same_name(a.key.as_str(), b.key.as_str()))
        })
    } else {
        let mut keys: Vec<&str> = entries.iter().map(|e| e.key.as_str()).collect();
        crate::sort::sort(&mut keys);
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
pub(super) struct Tagged<B> {
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
