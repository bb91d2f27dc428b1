//! Positioned YAML: a small tree where every node and every key knows where it was written.
//!
//! TOSCA types values by their declared type, not by YAML's resolution rules (`version: 1.10`
//! is the string `"1.10"` when the property is a `version`), so scalars keep their raw text and
//! quoting style; later phases decide what they mean. `parse` builds the tree from
//! `saphyr-parser` events and reports malformed input (syntax errors, duplicate keys, alias
//! bombs, excessive nesting, a second document) as problems instead of failing.

mod parse;

pub use parse::{Expanded, Limits, parse, parse_measured};
#[cfg(feature = "fuzzing")]
pub use parse::{parse_split, parse_whole};

use crate::source::Span;

/// A YAML node with its location.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    /// Where the node was written (for an alias: where the anchored node was written).
    pub span: Span,
    /// What the node holds.
    pub value: Value,
}

/// The content of a [`Node`].
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// A scalar, untyped.
    Scalar(Scalar),
    /// A sequence, in document order.
    Sequence(Vec<Node>),
    /// A mapping, in document order.
    Mapping(Vec<Entry>),
}

/// One key/value pair of a mapping.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// The key node (usually a scalar).
    pub key: Node,
    /// The value node.
    pub value: Node,
}

/// A scalar as written.
#[derive(Clone, Debug, PartialEq)]
pub struct Scalar {
    /// The scalar's text after YAML unescaping and folding, before any typing.
    pub text: String,
    /// How it was written.
    pub style: ScalarStyle,
    /// An explicit tag, e.g. `!!str` (as `tag:yaml.org,2002:str`), if any.
    pub tag: Option<String>,
}

/// The quoting style of a scalar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScalarStyle {
    /// No quotes: may be a number, boolean or null by YAML's core schema.
    Plain,
    /// `'single quoted'`.
    SingleQuoted,
    /// `"double quoted"`.
    DoubleQuoted,
    /// `|` block.
    Literal,
    /// `>` block.
    Folded,
}

/// What a scalar means under the YAML 1.2 core schema; used where TOSCA does not say
/// otherwise (for example when a value has no declared type).
#[derive(Clone, Debug, PartialEq)]
pub enum Plain<'a> {
    /// `null`, `~` or empty.
    Null,
    /// `true` / `false` (and their capitalised forms).
    Bool(bool),
    /// An integer in decimal, `0x` or `0o` form.
    Integer(i64),
    /// A float, including `.inf` and `.nan`.
    Float(f64),
    /// Anything else, or any quoted or block scalar.
    String(&'a str),
}

/// How a plain scalar written as a number of the YAML 1.2 core schema does not fit the 64-bit
/// number it stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Overflow {
    /// An integer (decimal, `0x` or `0o`) beyond the 64-bit signed range but not beyond the
    /// float range, which [`Scalar::resolve`] reads as the nearest float.
    Integer,
    /// A number written with digits (not `.inf`) beyond the 64-bit float range, which
    /// [`Scalar::resolve`] reads as an infinity.
    Float,
}

impl Scalar {
    /// Whether this scalar is quoted or a block (never a number, boolean or null).
    pub fn is_quoted(&self) -> bool {
        self.style != ScalarStyle::Plain
    }

    /// Resolves the scalar by the YAML 1.2 core schema.
    pub fn resolve(&self) -> Plain<'_> {
        if let Some(tag) = &self.tag
            && tag.ends_with(":str")
        {
            return Plain::String(&self.text);
        }
        if self.is_quoted() {
            return Plain::String(&self.text);
        }
        let text = self.text.as_str();
        match text {
            "" | "~" | "null" | "Null" | "NULL" => return Plain::Null,
            "true" | "True" | "TRUE" => return Plain::Bool(true),
            "false" | "False" | "FALSE" => return Plain::Bool(false),
            ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => return Plain::Float(f64::INFINITY),
            "-.inf" | "-.Inf" | "-.INF" => return Plain::Float(f64::NEG_INFINITY),
            ".nan" | ".NaN" | ".NAN" => return Plain::Float(f64::NAN),
            _ => {}
        }
        if let Some((radix, negative, digits)) = core_integer_form(text) {
            // A decimal keeps its sign, so that `i64::MIN` is read.
            let written = if radix == 10 { text } else { digits };
            return match i64::from_str_radix(written, radix) {
                Ok(integer) => Plain::Integer(integer),
                // Beyond 64 bits: the nearest float, as a decimal integer always was read.
                Err(_) => Plain::Float(approximate(radix, negative, digits)),
            };
        }
        if is_core_float(text)
            && let Ok(float) = text.parse::<f64>()
        {
            return Plain::Float(float);
        }
        Plain::String(text)
    }

    /// How this scalar, written as a number, does not fit 64 bits; `None` when it fits or is not
    /// a number (quoted, tagged `!!str`, or any other text).
    pub fn overflow(&self) -> Option<Overflow> {
        let Plain::Float(value) = self.resolve() else { return None };
        let text = self.text.as_str();
        let integer = core_integer_form(text).is_some();
        if value.is_infinite() && (integer || is_core_float(text)) {
            Some(Overflow::Float)
        } else if integer {
            Some(Overflow::Integer)
        } else {
            None
        }
    }

    /// The boolean YAML 1.1 (and so PyYAML) reads in a plain scalar the core schema reads as a
    /// string: `yes`, `no`, `on`, `off`, each also capitalised or in capitals. Not `y` or `n`:
    /// PyYAML reads those as strings.
    pub fn yaml_1_1_boolean(&self) -> Option<bool> {
        if self.is_quoted() || self.tag.is_some() {
            return None;
        }
        match self.text.as_str() {
            "yes" | "Yes" | "YES" | "on" | "On" | "ON" => Some(true),
            "no" | "No" | "NO" | "off" | "Off" | "OFF" => Some(false),
            _ => None,
        }
    }
}

/// The radix, sign and digits of a YAML 1.2 core schema integer: `[-+]?[0-9]+`, `0o[0-7]+` or
/// `0x[0-9a-fA-F]+`; `None` for any other text.
fn core_integer_form(text: &str) -> Option<(u32, bool, &str)> {
    let (radix, negative, digits) = if let Some(hex) = text.strip_prefix("0x") {
        (16, false, hex)
    } else if let Some(octal) = text.strip_prefix("0o") {
        (8, false, octal)
    } else {
        (10, text.starts_with('-'), text.strip_prefix(['-', '+']).unwrap_or(text))
    };
    let valid = !digits.is_empty() && digits.chars().all(|digit| digit.is_digit(radix));
    valid.then_some((radix, negative, digits))
}

/// The float nearest an integer of valid `digits` too large for `i64` (for decimal digits,
/// exactly the nearest; otherwise within a few units in the last place).
fn approximate(radix: u32, negative: bool, digits: &str) -> f64 {
    let magnitude = match radix {
        10 => digits.parse().unwrap_or(f64::INFINITY),
        _ => digits
            .chars()
            .filter_map(|digit| digit.to_digit(radix))
            .fold(0.0, |value, digit| value * f64::from(radix) + f64::from(digit)),
    };
    if negative { -magnitude } else { magnitude }
}

/// `[-+]? ( \. [0-9]+ | [0-9]+ ( \. [0-9]* )? ) ( [eE] [-+]? [0-9]+ )?`
fn is_core_float(text: &str) -> bool {
    let bytes = text.strip_prefix(['-', '+']).unwrap_or(text).as_bytes();
    let mut i = 0;
    let int_digits = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
    i += int_digits;
    let mut frac_digits = 0;
    if bytes.get(i) == Some(&b'.') {
        i += 1;
        frac_digits = bytes[i..].iter().take_while(|b| b.is_ascii_digit()).count();
        i += frac_digits;
    }
    if int_digits == 0 && frac_digits == 0 {
        return false;
    }
    if matches!(bytes.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(bytes.get(i), Some(b'-' | b'+')) {
            i += 1;
        }
        let exp_digits = bytes[i..].iter().take_while(|b| b.is_ascii_digit()).count();
        if exp_digits == 0 {
            return false;
        }
        i += exp_digits;
    }
    i == bytes.len()
}

impl Node {
    /// The scalar, if this is one.
    pub fn as_scalar(&self) -> Option<&Scalar> {
        match &self.value {
            Value::Scalar(scalar) => Some(scalar),
            _ => None,
        }
    }

    /// The entries, if this is a mapping.
    pub fn as_mapping(&self) -> Option<&[Entry]> {
        match &self.value {
            Value::Mapping(entries) => Some(entries),
            _ => None,
        }
    }

    /// The items, if this is a sequence.
    pub fn as_sequence(&self) -> Option<&[Node]> {
        match &self.value {
            Value::Sequence(items) => Some(items),
            _ => None,
        }
    }

    /// The scalar text, if this is a scalar.
    pub fn as_str(&self) -> Option<&str> {
        self.as_scalar().map(|scalar| scalar.text.as_str())
    }

    /// Whether this is a plain `null`/`~`/empty scalar.
    pub fn is_null(&self) -> bool {
        self.as_scalar().is_some_and(|scalar| scalar.resolve() == Plain::Null)
    }

    /// A short name of the node's kind for messages: "a map", "a list", "a string", ….
    pub fn kind_name(&self) -> &'static str {
        match &self.value {
            Value::Mapping(_) => "a map",
            Value::Sequence(_) => "a list",
            Value::Scalar(scalar) => match scalar.resolve() {
                Plain::Null => "null",
                Plain::Bool(_) => "a boolean",
                Plain::Integer(_) => "an integer",
                Plain::Float(_) => "a float",
                Plain::String(_) => "a string",
            },
        }
    }

    /// The value of the entry with this key, if this is a mapping that has it.
    pub fn get(&self, key: &str) -> Option<&Node> {
        self.as_mapping()?.iter().find(|entry| entry.key.as_str() == Some(key)).map(|entry| &entry.value)
    }
}
