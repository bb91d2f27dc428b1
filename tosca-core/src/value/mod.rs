//! Typed values: what a YAML node means once its declared TOSCA type is known.
//!
//! [`Typed`] is the compiler's value: render types every assigned value, default and
//! constraint argument into one, so constraints compare meanings (`2 GB` > `500 MB`), not
//! text. The output turns it into plain JSON ([`Typed::to_json`]). The parsers of the
//! primitive types with their own syntax live in the submodules: [`scalar_unit`],
//! [`timestamp`] and [`version`].

pub mod constraint;
pub mod scalar_unit;
pub mod timestamp;
pub mod validation;
pub mod version;

use std::cmp::Ordering;

use serde_json::{Map, Value};

pub use scalar_unit::{ScalarUnit, ScalarUnitKind};
pub use timestamp::Timestamp;
pub use version::VersionNumber;

/// A value typed by its declared TOSCA type.
#[derive(Clone, Debug, PartialEq)]
pub enum Typed {
    /// `null`.
    Null,
    /// `boolean`.
    Boolean(bool),
    /// `integer`.
    Integer(i64),
    /// `float`.
    Float(f64),
    /// `string` (and values whose type is unknown, as text).
    String(String),
    /// `timestamp`.
    Timestamp(Timestamp),
    /// `version`.
    Version(VersionNumber),
    /// `scalar-unit.*`.
    ScalarUnit(ScalarUnit),
    /// `range`: a lower and an upper bound (`None` for `UNBOUNDED`).
    Range(i64, Option<i64>),
    /// `list`.
    List(Vec<Typed>),
    /// `map` or a complex data type, in document (or definition) order.
    Map(Vec<(String, Typed)>),
    /// A function call not evaluated (yet), output in TOSCA 2.0 form.
    Call(Call),
}

/// A function call with its arguments (themselves typed, possibly calls).
#[derive(Clone, Debug)]
pub struct Call {
    /// The function's name, without `$` (`get_input`).
    pub name: String,
    /// The arguments.
    pub arguments: Vec<Typed>,
    /// Where the call is written.
    pub span: crate::source::Span,
}

impl PartialEq for Call {
    /// Calls compare by name and arguments, not by where they are written.
    fn eq(&self, other: &Call) -> bool {
        self.name == other.name && self.arguments == other.arguments
    }
}

impl Typed {
    /// Compares two values of the same type; `None` when they are not comparable (different
    /// types, different scalar-unit kinds, collections, calls).
    pub fn compare(&self, other: &Typed) -> Option<Ordering> {
        match (self, other) {
            (Typed::Integer(a), Typed::Integer(b)) => Some(a.cmp(b)),
            (Typed::Float(a), Typed::Float(b)) => a.partial_cmp(b),
            (Typed::Integer(a), Typed::Float(b)) => (*a as f64).partial_cmp(b),
            (Typed::Float(a), Typed::Integer(b)) => a.partial_cmp(&(*b as f64)),
            (Typed::String(a), Typed::String(b)) => Some(a.cmp(b)),
            (Typed::Boolean(a), Typed::Boolean(b)) => Some(a.cmp(b)),
            (Typed::Timestamp(a), Typed::Timestamp(b)) => Some(a.cmp(b)),
            (Typed::Version(a), Typed::Version(b)) => Some(a.cmp(b)),
            (Typed::ScalarUnit(a), Typed::ScalarUnit(b)) if a.kind == b.kind => a.normalized.partial_cmp(&b.normalized),
            _ => None,
        }
    }

    /// Whether two values are equal in meaning (`1 GB` equals `1000 MB`).
    pub fn equals(&self, other: &Typed) -> bool {
        match (self, other) {
            (Typed::List(a), Typed::List(b)) => a.len() == b.len() && a.iter().zip(b).all(|(a, b)| a.equals(b)),
            (Typed::Map(a), Typed::Map(b)) => {
                a.len() == b.len() && a.iter().all(|(key, value)| b.iter().any(|(k, v)| k == key && value.equals(v)))
            }
            _ => self.compare(other) == Some(Ordering::Equal) || self == other,
        }
    }

    /// The length for `length`, `min_length` and `max_length`: characters of a string, items of
    /// a list, entries of a map.
    pub fn length(&self) -> Option<usize> {
        match self {
            Typed::String(text) => Some(text.chars().count()),
            Typed::List(items) => Some(items.len()),
            Typed::Map(entries) => Some(entries.len()),
            _ => None,
        }
    }

    /// The text of a scalar, as string functions and map keys use it (`2 GB`, `1.10`, `true`);
    /// `None` for null, collections, ranges and calls.
    pub fn text(&self) -> Option<String> {
        match self {
            Typed::String(text) => Some(text.clone()),
            Typed::Boolean(value) => Some(value.to_string()),
            Typed::Integer(value) => Some(value.to_string()),
            Typed::Float(value) => Some(value.to_string()),
            Typed::Timestamp(value) => Some(value.to_string()),
            Typed::Version(value) => Some(value.to_string()),
            Typed::ScalarUnit(value) => Some(value.to_string()),
            Typed::Null | Typed::Range(..) | Typed::List(_) | Typed::Map(_) | Typed::Call(_) => None,
        }
    }

    /// Whether this is a call (or contains one), so its value is not known yet.
    pub fn is_call(&self) -> bool {
        match self {
            Typed::Call(..) => true,
            Typed::List(items) => items.iter().any(Typed::is_call),
            Typed::Map(entries) => entries.iter().any(|(_, value)| value.is_call()),
            _ => false,
        }
    }

    /// The plain JSON of the topology output.
    pub fn to_json(&self) -> Value {
        match self {
            Typed::Null => Value::Null,
            Typed::Boolean(value) => Value::Bool(*value),
            Typed::Integer(value) => Value::from(*value),
            Typed::Float(value) => float_json(*value),
            Typed::String(text) => Value::String(text.clone()),
            Typed::Timestamp(timestamp) => Value::String(timestamp.to_string()),
            Typed::Version(version) => Value::String(version.to_string()),
            Typed::ScalarUnit(scalar) => scalar.to_json(),
            Typed::Range(lower, upper) => {
                Value::Array(vec![Value::from(*lower), upper.map_or(Value::from("UNBOUNDED"), Value::from)])
            }
            Typed::List(items) => Value::Array(items.iter().map(Typed::to_json).collect()),
            Typed::Map(entries) => {
                Value::Object(entries.iter().map(|(key, value)| (key.clone(), value.to_json())).collect())
            }
            Typed::Call(call) => {
                let mut object = Map::new();
                object.insert(
                    format!("${}", call.name),
                    Value::Array(call.arguments.iter().map(Typed::to_json).collect()),
                );
                Value::Object(object)
            }
        }
    }
}

/// A float as JSON; JSON has no infinities or NaN, so those become their YAML spelling.
pub fn float_json(value: f64) -> Value {
    match serde_json::Number::from_f64(value) {
        Some(number) => Value::Number(number),
        None if value.is_nan() => Value::String(".nan".to_owned()),
        None if value > 0.0 => Value::String(".inf".to_owned()),
        None => Value::String("-.inf".to_owned()),
    }
}

impl serde::Serialize for Typed {
    /// Serializes as the plain JSON of [`Typed::to_json`], straight into the serializer (no
    /// intermediate `serde_json::Value` for the common cases).
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        match self {
            Typed::Null => serializer.serialize_unit(),
            Typed::Boolean(value) => serializer.serialize_bool(*value),
            Typed::Integer(value) => serializer.serialize_i64(*value),
            Typed::Float(value) if value.is_finite() => serializer.serialize_f64(*value),
            Typed::String(text) => serializer.serialize_str(text),
            Typed::Timestamp(timestamp) => serializer.collect_str(timestamp),
            Typed::Version(version) => serializer.collect_str(version),
            Typed::List(items) => serializer.collect_seq(items),
            // A JSON object keeps one entry per key (the first place, the last value), as
            // `to_json` does; only a map with a repeated key needs that detour.
            Typed::Map(entries) if !has_repeated_key(entries) => {
                let mut map = serializer.serialize_map(Some(entries.len()))?;
                for (key, value) in entries {
                    map.serialize_entry(key, value)?;
                }
                map.end()
            }
            Typed::Call(call) => {
                let mut map = serializer.serialize_map(Some(1))?;
                map.serialize_entry(&format_args!("${}", call.name), &call.arguments)?;
                map.end()
            }
            Typed::Float(_) | Typed::ScalarUnit(_) | Typed::Range(..) | Typed::Map(_) => {
                self.to_json().serialize(serializer)
            }
        }
    }
}

impl<'de> serde::Deserialize<'de> for Typed {
    /// Reads the plain JSON the output writes (see [`Typed::from_json`]).
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Typed, D::Error> {
        <Value as serde::Deserialize>::deserialize(deserializer).map(|value| Typed::from_json(&value))
    }
}

impl Typed {
    /// A value read back from the output's plain JSON: what it is as JSON, since the declared
    /// type is not written (a scalar-unit is its object, a timestamp or version its text). A
    /// single-key object `{"$name": [arguments]}` is a call, with no location. Written again,
    /// it gives the same JSON.
    pub fn from_json(value: &Value) -> Typed {
        match value {
            Value::Null => Typed::Null,
            Value::Bool(value) => Typed::Boolean(*value),
            Value::Number(number) => match number.as_i64() {
                Some(integer) => Typed::Integer(integer),
                None => Typed::Float(number.as_f64().unwrap_or(f64::NAN)),
            },
            Value::String(text) => Typed::String(text.clone()),
            Value::Array(items) => Typed::List(items.iter().map(Typed::from_json).collect()),
            Value::Object(object) => {
                if object.len() == 1
                    && let Some((key, Value::Array(arguments))) = object.iter().next()
                    && let Some(name) = key.strip_prefix('$')
                    && !name.is_empty()
                    && !name.starts_with('$')
                {
                    return Typed::Call(Call {
                        name: name.to_owned(),
                        arguments: arguments.iter().map(Typed::from_json).collect(),
                        span: crate::source::Span::default(),
                    });
                }
                Typed::Map(object.iter().map(|(key, value)| (key.clone(), Typed::from_json(value))).collect())
            }
        }
    }
}

/// Whether two entries of a map share a key.
fn has_repeated_key(entries: &[(String, Typed)]) -> bool {
    if entries.len() <= 16 {
        return entries.iter().enumerate().any(|(index, (key, _))| entries[..index].iter().any(|(k, _)| k == key));
    }
    let mut seen = std::collections::HashSet::with_capacity(entries.len());
    !entries.iter().all(|(key, _)| seen.insert(key.as_str()))
}

/// The absence of a value.
impl Default for Typed {
    fn default() -> Typed {
        Typed::Null
    }
}

impl schemars::JsonSchema for Typed {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Value".into()
    }

    fn inline_schema() -> bool {
        true
    }

    /// Any JSON value: what it holds depends on the declared TOSCA type.
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "A TOSCA value as plain JSON, typed by its declared type. A scalar-unit is an object {\"value\": <number in the base unit B, s, Hz or bps>, \"unit\": <base unit>, \"text\": <number and canonical unit as written>}; a timestamp an RFC 3339 string in its original offset; a version its text; a range [lower, upper] with upper a number or \"UNBOUNDED\"; a function not evaluated at compile time a single-key object {\"$<name>\": [<arguments>]}."
        })
    }
}
