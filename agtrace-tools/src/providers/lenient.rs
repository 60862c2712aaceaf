//! Typed reading of records whose fields may hold any JSON type.
//!
//! A log record read as a `serde_json::Value` costs a map per object and a copy per string; a
//! struct deserialized straight from the bytes borrows its strings and skips the fields it
//! does not read. But a derived struct fails the whole record on a field of an unexpected type,
//! where `Value` code just finds no string there. A [`Lenient`] type takes any JSON value and
//! decides what it means to it (a string field: `None` for a number), and an [`Object`] reads
//! the fields it knows from a map, last one winning as in `Value`'s map.
//!
//! Fields a type does not read are read through with [`Skip`] rather than serde's `IgnoredAny`:
//! serde_json ignores values without its nesting limit, so a document `Value` refuses as too
//! deeply nested would otherwise parse.

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

use serde::de::value::{MapAccessDeserializer, SeqAccessDeserializer};
use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Number, Value};

/// A type that any JSON value can be read as. The shapes it has no use for fall to
/// [`Lenient::other`] as a `Value`, built as `serde_json` would build it.
pub(crate) trait Lenient<'de>: Sized {
    fn string(s: Cow<'de, str>) -> Self {
        Self::other(Value::String(s.into_owned()))
    }

    fn seq<A: SeqAccess<'de>>(seq: A) -> Result<Self, A::Error> {
        Value::deserialize(SeqAccessDeserializer::new(seq)).map(Self::other)
    }

    fn map<A: MapAccess<'de>>(map: A) -> Result<Self, A::Error> {
        Value::deserialize(MapAccessDeserializer::new(map)).map(Self::other)
    }

    /// Null, a boolean or a number, or a string, array or object this type does not override.
    fn other(v: Value) -> Self;
}

/// An object's fields, read from a map.
pub(crate) trait Object<'de>: Default {
    /// Reads the value of `key` if this type keeps it; `false` leaves it to be skipped.
    fn field<A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<bool, A::Error>;
}

/// Reads an object's fields from `map`.
pub(crate) fn object<'de, T: Object<'de>, A: MapAccess<'de>>(mut map: A) -> Result<T, A::Error> {
    let mut t = T::default();
    while let Some(Key(key)) = map.next_key()? {
        if !t.field(&key, &mut map)? {
            map.next_value::<Skip>()?;
        }
    }
    Ok(t)
}

/// The next value of `map`, read leniently.
pub(crate) fn next<'de, T: Lenient<'de>, A: MapAccess<'de>>(map: &mut A) -> Result<T, A::Error> {
    map.next_value::<L<T>>().map(|l| l.0)
}

/// `Deserialize` for a [`Lenient`] type.
pub(crate) struct L<T>(pub T);

impl<'de, T: Lenient<'de>> Deserialize<'de> for L<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(AnyVisitor(PhantomData)).map(L)
    }
}

struct AnyVisitor<T>(PhantomData<T>);

impl<'de, T: Lenient<'de>> Visitor<'de> for AnyVisitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<T, E> {
        Ok(T::other(Value::Bool(v)))
    }

    fn visit_i64<E>(self, v: i64) -> Result<T, E> {
        Ok(T::other(Value::Number(v.into())))
    }

    fn visit_u64<E>(self, v: u64) -> Result<T, E> {
        Ok(T::other(Value::Number(v.into())))
    }

    fn visit_f64<E>(self, v: f64) -> Result<T, E> {
        Ok(T::other(
            Number::from_f64(v).map_or(Value::Null, Value::Number),
        ))
    }

    fn visit_unit<E>(self) -> Result<T, E> {
        Ok(T::other(Value::Null))
    }

    fn visit_none<E>(self) -> Result<T, E> {
        Ok(T::other(Value::Null))
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<T, D::Error> {
        d.deserialize_any(self)
    }

    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<T, E> {
        Ok(T::string(Cow::Borrowed(v)))
    }

    fn visit_str<E>(self, v: &str) -> Result<T, E> {
        Ok(T::string(Cow::Owned(v.to_owned())))
    }

    fn visit_string<E>(self, v: String) -> Result<T, E> {
        Ok(T::string(Cow::Owned(v)))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<T, A::Error> {
        T::seq(seq)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
        T::map(map)
    }
}

/// A string field: `None` for any other JSON value.
impl<'de> Lenient<'de> for Option<Cow<'de, str>> {
    fn string(s: Cow<'de, str>) -> Self {
        Some(s)
    }

    fn other(_: Value) -> Self {
        None
    }
}

/// A count: 0 for anything but a non-negative integer (as `Value::as_u64` reads it).
impl<'de> Lenient<'de> for u64 {
    fn other(v: Value) -> Self {
        v.as_u64().unwrap_or(0)
    }
}

/// An array: empty for any other JSON value.
impl<'de, T: Lenient<'de>> Lenient<'de> for Vec<T> {
    fn seq<A: SeqAccess<'de>>(mut seq: A) -> Result<Self, A::Error> {
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(L(item)) = seq.next_element()? {
            out.push(item);
        }
        Ok(out)
    }

    fn other(_: Value) -> Self {
        Vec::new()
    }
}

/// An object: `None` for any other JSON value.
impl<'de, T: Object<'de>> Lenient<'de> for Option<T> {
    fn map<A: MapAccess<'de>>(map: A) -> Result<Self, A::Error> {
        object(map).map(Some)
    }

    fn other(_: Value) -> Self {
        None
    }
}

/// Any value, whole.
impl Lenient<'_> for Value {
    fn other(v: Value) -> Self {
        v
    }
}

/// A map key, borrowed when it has no escapes.
struct Key<'de>(Cow<'de, str>);

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl<'de> Visitor<'de> for KeyVisitor {
            type Value = Key<'de>;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string key")
            }

            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(v)))
            }

            fn visit_str<E>(self, v: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v.to_owned())))
            }

            fn visit_string<E>(self, v: String) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v)))
            }
        }
        d.deserialize_str(KeyVisitor)
    }
}

/// A value read through and dropped, nested levels counted against serde_json's limit.
pub(crate) struct Skip;

impl<'de> Deserialize<'de> for Skip {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(SkipVisitor)
    }
}

struct SkipVisitor;

impl<'de> Visitor<'de> for SkipVisitor {
    type Value = Skip;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<Skip, E> {
        Ok(Skip)
    }

    fn visit_i64<E>(self, _: i64) -> Result<Skip, E> {
        Ok(Skip)
    }

    fn visit_u64<E>(self, _: u64) -> Result<Skip, E> {
        Ok(Skip)
    }

    fn visit_f64<E>(self, _: f64) -> Result<Skip, E> {
        Ok(Skip)
    }

    fn visit_unit<E>(self) -> Result<Skip, E> {
        Ok(Skip)
    }

    fn visit_none<E>(self) -> Result<Skip, E> {
        Ok(Skip)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Skip, D::Error> {
        d.deserialize_any(self)
    }

    fn visit_str<E>(self, _: &str) -> Result<Skip, E> {
        Ok(Skip)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Skip, A::Error> {
        while seq.next_element::<Skip>()?.is_some() {}
        Ok(Skip)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Skip, A::Error> {
        while map.next_entry::<Skip, Skip>()?.is_some() {}
        Ok(Skip)
    }
}
