//! Typing a value by the primitive its data type is or refines: each scalar primitive by its
//! YAML text, lists and maps item by item through their schemas, ranges by their bounds (a
//! complex data type is typed property by property, `super::property`).

use super::Expansion;
use super::quoted::{Quoted, read_quoted};
use super::{ValueType, plain};
use crate::catalog::TypeId;
use crate::entity::SchemaDefinition;
use crate::grammar::Kind;
use crate::problem::{Code, Problem, Problems};
use crate::render::Render;
use crate::value::{ScalarUnit, ScalarUnitKind, Timestamp, Typed, VersionNumber};
use crate::yaml::{self, Node, Overflow, Plain};

impl Render<'_> {
    /// Types a node that is not a call, without checking constraints. A 1.x value read
    /// leniently (as tosca-parser reads it, under a quirk) is typed, and the problem saying so
    /// goes to `readings`, not `problems`, so that its constraints are still checked.
    pub(super) fn type_value(
        &self,
        node: &Node,
        value_type: ValueType<'_>,
        defaults: &mut Expansion,
        readings: &mut Problems,
        problems: &mut Problems,
    ) -> Typed {
        let Some(id) = value_type.data_type else { return self.untyped_in(node, defaults, problems) };
        if self.hierarchy.kind(Kind::DataType).broken[id.index()] {
            return plain(node);
        }
        let type_name = value_type.name.map(|name| name.value.as_str()).unwrap_or("?");
        let entry_schema = value_type.entry_schema.or(self.catalog.data_types[id.index()].entity.entry_schema.as_ref());
        let key_schema = value_type.key_schema.or(self.catalog.data_types[id.index()].entity.key_schema.as_ref());
        let Some(primitive) = self.primitive(id) else {
            if self.json_types.contains(id) {
                return self.untyped_in(node, defaults, problems);
            }
            return self.complex(node, id, type_name, defaults, problems);
        };
        let schemas = (entry_schema, key_schema);
        self.type_primitive(node, (id, primitive), type_name, schemas, defaults, readings, problems)
    }

    /// [`Render::type_value`] for a primitive type. Out of line, so that the frames of values
    /// nested through data types (each level passes through `type_value`) stay small.
    #[inline(never)]
    #[allow(clippy::too_many_arguments)] // reason: the parts of `type_value`'s work it hands on
    fn type_primitive(
        &self,
        node: &Node,
        (id, primitive): (TypeId, &str),
        type_name: &str,
        (entry_schema, key_schema): (Option<&SchemaDefinition>, Option<&SchemaDefinition>),
        defaults: &mut Expansion,
        readings: &mut Problems,
        problems: &mut Problems,
    ) -> Typed {
        let scalar = node.as_scalar().filter(|scalar| !matches!(scalar.resolve(), Plain::Null));
        match primitive {
            // 2.0 (9.1.1.1): a string is a YAML string; an unquoted `0.1` or `true` is not one.
            // 1.x says the same (3.2.1: TOSCA's `string` is YAML's `str`), as Puccini reads it.
            // tosca-parser turns only a whole value into text (`str(value)` of a `string`
            // property), never an item of a list or map nor a field of a data type, so only a
            // whole value is read leniently (quirk `scalars-as-strings`).
            "string" if scalar.is_some_and(|scalar| !matches!(scalar.resolve(), Plain::String(_))) => {
                match scalar.filter(|_| !self.version.is_2() && defaults.depth <= 1) {
                    Some(scalar) => unquoted_string(node, scalar, type_name, readings),
                    None => mismatch(node, type_name, "a string (quote it)", problems),
                }
            }
            "string" => match scalar {
                Some(scalar) => Typed::String(scalar.text.clone()),
                None => mismatch(node, type_name, "a string", problems),
            },
            "integer" => match node.as_scalar().map(|scalar| (scalar.resolve(), scalar.overflow())) {
                Some((_, Some(_))) => out_of_range(node, &format!("`{type_name}`"), INTEGER_RANGE, problems),
                Some((Plain::Integer(integer), _)) => Typed::Integer(integer),
                _ => self.quoted(node, Quoted::Integer, type_name, readings, problems),
            },
            "float" => match node.as_scalar().map(|scalar| (scalar.resolve(), scalar.overflow())) {
                Some((Plain::Float(float), Some(Overflow::Float))) => {
                    problems.push(float_overflow(node, float));
                    Typed::Float(float)
                }
                Some((Plain::Integer(integer), _)) => Typed::Float(integer as f64),
                Some((Plain::Float(float), _)) => Typed::Float(float),
                _ => mismatch(node, type_name, "a float", problems),
            },
            "boolean" => match node.as_scalar().map(yaml::Scalar::resolve) {
                // 2.0 (9.1.1.4): only the lowercase words `true` and `false`.
                Some(Plain::Bool(_))
                    if self.version.is_2()
                        && !matches!(scalar.map(|scalar| scalar.text.as_str()), Some("true" | "false")) =>
                {
                    mismatch(node, type_name, "a boolean (`true` or `false`, lowercase)", problems)
                }
                Some(Plain::Bool(boolean)) => Typed::Boolean(boolean),
                _ => match scalar.and_then(yaml::Scalar::yaml_1_1_boolean).filter(|_| !self.version.is_2()) {
                    Some(boolean) => {
                        readings.push(crate::grammar::yaml_1_1_boolean(node, boolean));
                        Typed::Boolean(boolean)
                    }
                    None => self.quoted(node, Quoted::Boolean, type_name, readings, problems),
                },
            },
            "scalar" if self.is_abstract_scalar(id) => invalid(
                node,
                "`scalar` is abstract: declare a scalar type with its units and use that".to_owned(),
                problems,
            ),
            "scalar" => self.type_scalar(node, id, type_name, problems),
            "bytes" => match scalar.map(|scalar| scalar.text.as_str()) {
                Some(text) if is_base64(text) => Typed::String(text.to_owned()),
                _ => mismatch(node, type_name, "base64-encoded bytes", problems),
            },
            "null" | "nil" => match node.as_scalar().map(yaml::Scalar::resolve) {
                Some(Plain::Null) => Typed::Null,
                _ => mismatch(node, type_name, "null", problems),
            },
            // The drafts kept 1.x's YAML 1.1 forms (`2001-12-14 21:59:43.10 -5`).
            "timestamp" => match scalar.map(|scalar| match self.draft_2_0() {
                true => Timestamp::parse(&scalar.text),
                false => Timestamp::parse_for(&scalar.text, self.version),
            }) {
                Some(Ok(timestamp)) => Typed::Timestamp(timestamp),
                Some(Err(reason)) => invalid(node, reason, problems),
                None => mismatch(node, type_name, "a timestamp", problems),
            },
            "version" => match scalar.map(|scalar| VersionNumber::parse(&scalar.text)) {
                Some(Ok(version)) => Typed::Version(version),
                Some(Err(reason)) => match scalar.and_then(major_only).filter(|_| !self.version.is_2()) {
                    Some(version) => {
                        readings.push(version_without_minor(node, &reason, &version));
                        Typed::Version(version)
                    }
                    None => invalid(node, reason, problems),
                },
                None => mismatch(node, type_name, "a version", problems),
            },
            "list" => match node.as_sequence() {
                Some(items) => {
                    let item_type = entry_schema.map(|schema| self.schema_type(schema)).unwrap_or(ValueType::UNTYPED);
                    Typed::List(items.iter().map(|item| self.coerce_in(item, item_type, defaults, problems)).collect())
                }
                None => mismatch(node, type_name, "a list", problems),
            },
            "map" => match node.as_mapping() {
                Some(entries) => {
                    let item_type = entry_schema.map(|schema| self.schema_type(schema)).unwrap_or(ValueType::UNTYPED);
                    let key_type = key_schema.map(|schema| self.schema_type(schema));
                    let mut map = Vec::with_capacity(entries.len());
                    for entry in entries {
                        let Some(key) = self.map_key(&entry.key, key_type, defaults, problems) else { continue };
                        map.push((key, self.coerce_in(&entry.value, item_type, defaults, problems)));
                    }
                    Typed::Map(map)
                }
                None => mismatch(node, type_name, "a map", problems),
            },
            "range" => match node.as_sequence() {
                Some([lower, upper]) => match (bound(lower), bound(upper)) {
                    (Some(Some(low)), Some(high)) if high.is_none_or(|high| low <= high) => Typed::Range(low, high),
                    (Some(Some(_)), Some(_)) => {
                        invalid(node, "a range's lower bound must not exceed its upper bound".to_owned(), problems)
                    }
                    _ => match [lower, upper]
                        .into_iter()
                        .find(|bound| bound.as_scalar().and_then(yaml::Scalar::overflow).is_some())
                    {
                        Some(wide) => {
                            out_of_range(wide, &format!("a bound of `{type_name}`"), INTEGER_RANGE, problems);
                            plain(node)
                        }
                        None => mismatch(
                            node,
                            type_name,
                            "a range [lower, upper] of integers (upper may be UNBOUNDED)",
                            problems,
                        ),
                    },
                },
                _ => mismatch(node, type_name, "a range [lower, upper]", problems),
            },
            other => match ScalarUnitKind::from_type_name(other) {
                Some(kind) => match scalar.map(|scalar| ScalarUnit::parse(kind, &scalar.text, self.version)) {
                    Some(Ok(scalar_unit)) => Typed::ScalarUnit(scalar_unit),
                    Some(Err(reason)) => invalid(node, reason, problems),
                    None => mismatch(node, type_name, &format!("a {other}"), problems),
                },
                // A primitive this compiler does not know: kept as written.
                None => plain(node),
            },
        }
    }
}

impl Render<'_> {
    /// A value that is not the `integer` or `boolean` declared: in 1.x, a quoted one is read as
    /// what its text spells (quirk `quoted-integers-and-booleans`); anything else is a mismatch.
    /// Out of line: it is rare, and [`Render::type_value`] recurses through data types.
    #[inline(never)]
    #[cold]
    fn quoted(
        &self,
        node: &Node,
        primitive: Quoted,
        type_name: &str,
        readings: &mut Problems,
        problems: &mut Problems,
    ) -> Typed {
        match read_quoted(node, primitive, type_name).filter(|_| !self.version.is_2()) {
            Some((value, reading)) => {
                readings.push(reading);
                value
            }
            None => match primitive {
                Quoted::Integer => mismatch(node, type_name, "an integer", problems),
                Quoted::Boolean => mismatch(node, type_name, "a boolean", problems),
            },
        }
    }
}

/// A range bound: `Some(Some(n))` for an integer, `Some(None)` for `UNBOUNDED`, `None` otherwise.
fn bound(node: &Node) -> Option<Option<i64>> {
    if node.as_str() == Some("UNBOUNDED") {
        return Some(None);
    }
    match node.as_scalar().map(yaml::Scalar::resolve) {
        Some(Plain::Integer(integer)) => Some(Some(integer)),
        _ => None,
    }
}

/// The range of an integer, for messages.
const INTEGER_RANGE: &str = "an integer has 64 bits, from -9223372036854775808 to 9223372036854775807";

/// A `float` written with digits beyond the 64-bit range (2.0 section 9.1.1.3), such as `1e400`,
/// which reads as `infinity`: a warning, since infinity is a float.
fn float_overflow(node: &Node, infinity: f64) -> Problem {
    let shown = node.as_str().map_or_else(|| node.kind_name().to_owned(), |text| format!("`{text}`"));
    let read = if infinity < 0.0 { "-.inf" } else { ".inf" };
    let message =
        format!("{shown} is beyond the range of a 64-bit float (about 1.8e308 in magnitude), so it reads as `{read}`");
    Problem::new(Code::FloatOverflow, node.span, message)
        .with_help("write `.inf` or `-.inf` if infinity is meant, or a number within the range")
}

/// A number too large for the 64 bits of TOSCA's `integer` (2.0 section 9.1.1.2), such as
/// `2^64` written out, where `what` is expected (a type name in backquotes, say); `range` says
/// what fits.
fn out_of_range(node: &Node, what: &str, range: &str, problems: &mut Problems) -> Typed {
    let shown = node.as_str().map_or_else(|| node.kind_name().to_owned(), |text| format!("`{text}`"));
    invalid(node, format!("{shown} is out of range for {what}: {range}"), problems)
}

pub(super) fn mismatch(node: &Node, type_name: &str, expected: &str, problems: &mut Problems) -> Typed {
    // A plain empty scalar (`default:` with nothing) is YAML's null, not the text `""`. A
    // plain scalar is shown as written (`2.0`), a quoted one with its quotes (`"2.0"`).
    let shown = match &node.value {
        yaml::Value::Scalar(scalar) if scalar.resolve() == Plain::Null => "null".to_owned(),
        yaml::Value::Scalar(scalar) if scalar.style == yaml::ScalarStyle::Plain => format!("`{}`", scalar.text),
        yaml::Value::Scalar(scalar) => format!("{:?}", scalar.text),
        _ => node.kind_name().to_owned(),
    };
    problems.push(Problem::new(
        Code::WrongValueType,
        node.span,
        format!("{shown} is not {expected} (declared type `{type_name}`)"),
    ));
    plain(node)
}

/// A 1.x unquoted number or boolean where a `string` is declared: reported, and read as its
/// text, as tosca-parser reads it (quirk `scalars-as-strings`), so the rest still compiles.
fn unquoted_string(node: &Node, scalar: &yaml::Scalar, type_name: &str, problems: &mut Problems) -> Typed {
    problems.push(
        Problem::new(
            Code::WrongValueType,
            node.span,
            format!(
                "{:?} is not a string (declared type `{type_name}`); read as the text `{}`",
                scalar.text, scalar.text
            ),
        )
        .with_help(format!("quote it: `\"{}\"` (`--quirk scalars-as-strings` accepts it as a warning)", scalar.text))
        .with_fix(format!("\"{}\"", scalar.text)),
    );
    Typed::String(scalar.text.clone())
}

/// A 1.x version written as its major part alone (`7`), read as tosca-parser 2.15 reads it
/// ("Minor version assumed 0"): `7.0`. `0` is not read so: tosca-parser takes it for no version.
fn major_only(scalar: &yaml::Scalar) -> Option<VersionNumber> {
    let text = scalar.text.as_str();
    let digits = !text.is_empty() && text.bytes().all(|byte| byte.is_ascii_digit());
    (digits && text.bytes().any(|byte| byte != b'0')).then(|| VersionNumber::parse(&format!("{text}.0")).ok())?
}

/// The problem of a version read as [`major_only`] reads it: the parser's `reason` and the
/// reading (quirk `versions-without-minor`).
fn version_without_minor(node: &Node, reason: &str, version: &VersionNumber) -> Problem {
    Problem::new(Code::WrongValueType, node.span, format!("{reason}; read as `{version}`"))
        .with_help(format!("write `{version}` (`--quirk versions-without-minor` accepts it as a warning)"))
        .with_fix(version.to_string())
}

/// A value whose text a primitive type's parser rejected, with the parser's reason.
fn invalid(node: &Node, reason: String, problems: &mut Problems) -> Typed {
    problems.push(Problem::new(Code::WrongValueType, node.span, reason));
    plain(node)
}

/// Whether `text` is base64 (RFC 4648, padding optional, whitespace ignored).
fn is_base64(text: &str) -> bool {
    let compact: Vec<u8> = text.bytes().filter(|byte| !byte.is_ascii_whitespace()).collect();
    let data = compact.strip_suffix(b"==").or_else(|| compact.strip_suffix(b"=")).unwrap_or(&compact);
    data.iter().all(|byte| byte.is_ascii_alphanumeric() || *byte == b'+' || *byte == b'/') && compact.len() % 4 != 1
}
