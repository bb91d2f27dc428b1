//! TOSCA 1.x constraint clauses (Simple Profile 1.3, section 3.6.3): reading them from a
//! `constraints` list and checking typed values against them.
//!
//! A clause is a single-entry map `operator: argument`. [`read_constraints`] checks each clause's
//! shape once, when it is read (an `in_range` of two bounds, a non-negative `length`, a `pattern`
//! that compiles, a known operator) and reports what is malformed; [`Constraint::check`] then
//! checks any number of values without reporting anything itself: it returns a short reason
//! ("must be greater than 5") for the caller to put in its own problem, at the value.
//!
//! # Decisions
//!
//! - **Arguments are typed like the value.** `in_range: [1 GB, 4 GB]` on a `scalar-unit.size`
//!   compares sizes, not text. The caller supplies the typer, so this module knows nothing of
//!   types. An argument that cannot be typed makes the clause uncheckable: `check` returns
//!   `Ok` and leaves the report to the caller's typing of the arguments, so one mistake is
//!   reported once.
//! - **Calls are not checked.** A value or argument that is (or contains) a function call
//!   ([`Typed::Call`](super::Typed::Call)) is not known at compile time; `check` returns `Ok`.
//! - **Incomparable is a violation.** A comparison operator (`greater_than` and the others,
//!   `in_range`) on values that have no order ([`Typed::compare`](super::Typed::compare)
//!   gives `None`: lists, maps, NaN, a `range` against a bound of another type) fails with
//!   "cannot be compared with …": the clause can never hold, and saying so at the value is
//!   clearer than silence.
//! - **`in_range` is inclusive.** On a `range` value (as in the normative
//!   `tosca.datatypes.network.PortSpec`, whose `source_range` has `in_range: [1, 65535]`) the
//!   whole range must lie within the bounds, which are integers and are read here, not typed
//!   (a bound is not itself a range); the upper bound may then be `UNBOUNDED`. Other values
//!   have no `UNBOUNDED`: their bounds are typed like the value.
//! - **Length** applies to strings (in characters), lists and maps
//!   ([`Typed::length`](super::Typed::length)); any other value fails the clause.
//! - **`pattern` matches the whole value**: `pattern: ab` accepts `ab` but not `abc`, as if
//!   written `\A(?:ab)\z`. Patterns are compiled once, when read, by the `regex` crate, which
//!   matches in linear time whatever the pattern (`(a+)+$` is harmless). A pattern `regex`
//!   rejects — typically because it uses look-around or backreferences, which `regex` does not
//!   support — is compiled by `fancy-regex` instead, which also accepts its other extensions
//!   (atomic groups, possessive quantifiers). `fancy-regex` backtracks, so its matching is
//!   bounded by [`BACKTRACK_LIMIT`] steps a value and [`PATTERN_BUDGET`] steps a compile
//!   (`budget`); a value that needs more is a `pattern-unchecked` warning, neither accepted
//!   nor refused, rather than hanging the compiler. A pattern on a value that is not a string
//!   fails the clause.
//! - **`schema` is kept, not checked.** Validating against an external schema is not
//!   performed; the clause always holds.

mod budget;
mod check;
mod pattern;
mod read;
mod show;
#[cfg(test)]
mod tests;

pub use budget::{
    OrderKey, PATTERN_BUDGET, PatternChecks, PendingPattern, Place, pattern_cache_hits, place, unchecked,
};
pub use pattern::{BACKTRACK_LIMIT, CHEAP_BACKTRACK_LIMIT, Pattern, pattern_runs};
pub use read::read_constraints;
pub(crate) use show::shorten;

use crate::source::Span;
use crate::yaml::Node;

/// The operator keynames of TOSCA 1.x constraint clauses, in the order of the specification.
pub const OPERATORS: [&str; 12] = [
    "equal",
    "greater_than",
    "greater_or_equal",
    "less_than",
    "less_or_equal",
    "in_range",
    "valid_values",
    "length",
    "min_length",
    "max_length",
    "pattern",
    "schema",
];

/// One constraint clause, as written.
#[derive(Clone, Debug, PartialEq)]
pub struct Constraint {
    /// The operator and its argument.
    pub operator: Operator,
    /// Where the clause was written (the whole `operator: argument` map).
    pub span: Span,
}

/// A constraint operator with its argument nodes, untyped: arguments are typed when a value is
/// checked, by the value's declared type.
#[derive(Clone, Debug, PartialEq)]
pub enum Operator {
    /// `equal`: the value equals the argument.
    Equal(Node),
    /// `greater_than`: the value is greater than the argument.
    GreaterThan(Node),
    /// `greater_or_equal`: the value is greater than or equal to the argument.
    GreaterOrEqual(Node),
    /// `less_than`: the value is less than the argument.
    LessThan(Node),
    /// `less_or_equal`: the value is less than or equal to the argument.
    LessOrEqual(Node),
    /// `in_range`: the value lies between the lower and the upper bound, both included.
    InRange(Node, Node),
    /// `valid_values`: the value equals one of the arguments.
    ValidValues(Vec<Node>),
    /// `length`: the value's length equals the argument (a non-negative integer).
    Length(Node),
    /// `min_length`: the value's length is at least the argument (a non-negative integer).
    MinLength(Node),
    /// `max_length`: the value's length is at most the argument (a non-negative integer).
    MaxLength(Node),
    /// `pattern`: the whole value matches the regular expression.
    Pattern(Pattern),
    /// `schema`: the value conforms to an external schema (kept, not checked).
    Schema(String),
}

impl Operator {
    /// The operator's keyname, e.g. `"in_range"`.
    pub fn name(&self) -> &'static str {
        match self {
            Operator::Equal(_) => "equal",
            Operator::GreaterThan(_) => "greater_than",
            Operator::GreaterOrEqual(_) => "greater_or_equal",
            Operator::LessThan(_) => "less_than",
            Operator::LessOrEqual(_) => "less_or_equal",
            Operator::InRange(..) => "in_range",
            Operator::ValidValues(_) => "valid_values",
            Operator::Length(_) => "length",
            Operator::MinLength(_) => "min_length",
            Operator::MaxLength(_) => "max_length",
            Operator::Pattern(_) => "pattern",
            Operator::Schema(_) => "schema",
        }
    }
}

impl crate::grammar::Read for Constraint {
    /// One clause of a `constraints` list; a malformed clause is reported and skipped.
    fn read(
        node: &Node,
        _: Option<&crate::source::Located<String>>,
        cx: &mut crate::grammar::ReadContext<'_>,
    ) -> Option<Self> {
        read_constraints(std::slice::from_ref(node), cx.problems).pop()
    }
}

impl crate::grammar::References for Constraint {
    fn visit_references<'a>(&'a self, _: &mut dyn FnMut(crate::grammar::Kind, &'a crate::source::Located<String>)) {}
}
