//! A 1.x quoted scalar where an `integer` or a `boolean` is declared (`default: '-1'`,
//! `enabled: "false"`): a YAML string, so not the value declared (1.x 3.2.1 maps TOSCA's
//! `integer` and `boolean` to YAML's `int` and `bool`), but OpenStack tosca-parser reads the
//! quoted text as the number or boolean it spells. The value is read so too, and the reading
//! reported (quirk `quoted-integers-and-booleans`), so the rest of the template still compiles.

use crate::problem::{Code, Problem};
use crate::value::Typed;
use crate::yaml::{Node, Scalar, ScalarStyle};

/// The quirk that accepts these readings, as its help names it.
const QUIRK: &str = "quoted-integers-and-booleans";

/// The primitive a quoted scalar can be read as.
#[derive(Clone, Copy)]
pub(super) enum Quoted {
    Integer,
    Boolean,
}

impl Quoted {
    /// The value `scalar` spells, when it is written in quotes (`'…'` or `"…"`, no tag) and its
    /// text is what tosca-parser 2.15 turns into this primitive: an optional sign and decimal
    /// digits within 64 bits (`int(text)` in Python, less its whitespace and underscores), or
    /// `true` / `false` in any case (its `validate_boolean`).
    fn read(self, scalar: &Scalar) -> Option<Typed> {
        if !matches!(scalar.style, ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted) || scalar.tag.is_some() {
            return None;
        }
        let text = scalar.text.as_str();
        match self {
            Quoted::Integer => text.parse::<i64>().ok().map(Typed::Integer),
            Quoted::Boolean if text.eq_ignore_ascii_case("true") => Some(Typed::Boolean(true)),
            Quoted::Boolean if text.eq_ignore_ascii_case("false") => Some(Typed::Boolean(false)),
            Quoted::Boolean => None,
        }
    }

    /// What the declared primitive is, for messages.
    fn expected(self) -> &'static str {
        match self {
            Quoted::Integer => "an integer",
            Quoted::Boolean => "a boolean",
        }
    }
}

/// Reads a quoted `node` as the `primitive` its text spells, with the problem that says so;
/// `None` when it is not such a scalar (then it is a plain mismatch).
pub(super) fn read_quoted(node: &Node, primitive: Quoted, type_name: &str) -> Option<(Typed, Problem)> {
    let scalar = node.as_scalar()?;
    let value = primitive.read(scalar)?;
    let written = value.text().unwrap_or_default();
    let problem = Problem::new(
        Code::WrongValueType,
        node.span,
        format!(
            "{:?} is quoted, so it is a string, not {} (declared type `{type_name}`); read as `{written}`",
            scalar.text,
            primitive.expected()
        ),
    )
    .with_help(format!("write it without quotes: `{written}` (`--quirk {QUIRK}` accepts it as a warning)"))
    .with_fix(written);
    Some((value, problem))
}
