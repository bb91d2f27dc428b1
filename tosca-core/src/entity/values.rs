//! Small grammar values with their own rules: `occurrences` ranges (with `UNBOUNDED`) and `status`.

use crate::grammar::{Kind, Read, ReadContext, References};
use crate::problem::Code;
use crate::source::{Located, Span};
use crate::yaml::{Node, Plain};

/// An upper bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Bound {
    /// A finite bound.
    Finite(u64),
    /// `UNBOUNDED`.
    Unbounded,
}

/// A closed range `[lower, upper]` of counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Range {
    /// The lower bound.
    pub lower: u64,
    /// The upper bound.
    pub upper: Bound,
    /// Where the range was written.
    pub span: Span,
}

impl Range {
    /// Whether `count` lies in the range.
    pub fn contains(&self, count: u64) -> bool {
        count >= self.lower && Bound::Finite(count) <= self.upper
    }
}

impl std::fmt::Display for Range {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.upper {
            Bound::Finite(upper) => write!(f, "[{}, {upper}]", self.lower),
            Bound::Unbounded => write!(f, "[{}, UNBOUNDED]", self.lower),
        }
    }
}

fn count(node: &Node) -> Option<u64> {
    match node.as_scalar()?.resolve() {
        Plain::Integer(value) => u64::try_from(value).ok(),
        _ => None,
    }
}

impl Read for Range {
    fn read(node: &Node, _: Option<&Located<String>>, cx: &mut ReadContext<'_>) -> Option<Self> {
        let invalid = |cx: &mut ReadContext<'_>, message: &str| {
            cx.problems.report(Code::InvalidValue, node.span, message.to_owned());
            None
        };
        let Some([lower, upper]) = node.as_sequence() else {
            return invalid(cx, "a range must be a list of two bounds, like [ 1, UNBOUNDED ]");
        };
        let Some(lower) = count(lower) else {
            return invalid(cx, "a range's lower bound must be a non-negative integer");
        };
        let upper = if upper.as_str() == Some("UNBOUNDED") {
            Bound::Unbounded
        } else if let Some(upper) = count(upper) {
            Bound::Finite(upper)
        } else {
            return invalid(cx, "a range's upper bound must be a non-negative integer or UNBOUNDED");
        };
        if Bound::Finite(lower) > upper {
            return invalid(cx, "a range's lower bound must not exceed its upper bound");
        }
        Some(Range { lower, upper, span: node.span })
    }
}

impl References for Range {
    fn visit_references<'a>(&'a self, _: &mut dyn FnMut(Kind, &'a Located<String>)) {}
}

/// A definition's `status`: `supported`, `unsupported`, `experimental` or `deprecated`.
#[derive(Clone, Debug, PartialEq)]
pub struct Status(pub Located<String>);

impl Status {
    /// The values the grammar allows.
    pub const VALUES: [&'static str; 4] = ["supported", "unsupported", "experimental", "deprecated"];
}

impl Read for Status {
    fn read(node: &Node, name: Option<&Located<String>>, cx: &mut ReadContext<'_>) -> Option<Self> {
        let text = Located::<String>::read(node, name, cx)?;
        if Status::VALUES.contains(&text.value.as_str()) {
            return Some(Status(text));
        }
        // The grammar's values are lower case (1.3 3.6.10); ONAP SDC writes `SUPPORTED`. The
        // meaning is plain, so the value is read as its lower-case form, and still an error.
        let lower = text.value.to_ascii_lowercase();
        if Status::VALUES.contains(&lower.as_str()) {
            cx.problems.push(
                crate::problem::Problem::new(
                    Code::InvalidValue,
                    node.span,
                    format!("`{}` is not a status: statuses are lower case; read as `{lower}`", text.value),
                )
                .with_suggestion(lower.clone()),
            );
            return Some(Status(Located::new(lower, text.span)));
        }
        cx.problems.push(
            crate::problem::Problem::new(
                Code::InvalidValue,
                node.span,
                format!("`{}` is not a status; expected one of {}", text.value, Status::VALUES.join(", ")),
            )
            .with_nearest(&text.value, Status::VALUES),
        );
        None
    }
}

impl References for Status {
    fn visit_references<'a>(&'a self, _: &mut dyn FnMut(Kind, &'a Located<String>)) {}
}

/// A property definition's `status`. TOSCA 2.0 contradicts itself on it: the keyname table of
/// cs01 9.4 leaves it out, while the grammar block of 9.4 writes `status:` and the refinement
/// rules of 9.8 refine it. It is read as the grammar has it, with a `not-portable` warning in
/// 2.0 (outside the pre-csd06 drafts, which have it), since a processor following the table
/// refuses it; cs01 defines no values for it, so in 2.0 any text is taken.
#[derive(Clone, Debug, PartialEq)]
pub struct PropertyStatus(pub Status);

impl Read for PropertyStatus {
    fn read(node: &Node, name: Option<&Located<String>>, cx: &mut ReadContext<'_>) -> Option<Self> {
        if !(cx.version.is_2() && cx.dialect.is_none()) {
            return Status::read(node, name, cx).map(PropertyStatus);
        }
        // cs01 names no status values (`<status_value>` is not defined anywhere in it), so any
        // text is taken; 1.x's four values are not imposed on 2.0.
        let text = Located::<String>::read(node, name, cx)?;
        cx.problems.push(
            crate::problem::Problem::new(
                Code::NotPortable,
                node.span,
                "`status` on a property definition: TOSCA 2.0 cs01 contradicts itself (the keyname table of \
                 9.4 leaves it out, its grammar block and the refinement rules of 9.8 have it, and no values \
                 are defined for it); read as the grammar has it, other processors may refuse it",
            )
            .with_help("leave `status` out, or say it in `metadata`, to be portable"),
        );
        Some(PropertyStatus(Status(text)))
    }
}

impl References for PropertyStatus {
    fn visit_references<'a>(&'a self, _: &mut dyn FnMut(Kind, &'a Located<String>)) {}
}
