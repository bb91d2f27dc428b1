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
//!   ([`Typed::Call`]) is not known at compile time; `check` returns `Ok`.
//! - **Incomparable is a violation.** A comparison operator (`greater_than` and the others,
//!   `in_range`) on values that have no order ([`Typed::compare`] gives `None`: lists, maps,
//!   NaN, a `range` against a bound of another type) fails with "cannot be compared with …":
//!   the clause can never hold, and saying so at the value is clearer than silence.
//! - **`in_range` is inclusive.** On a `range` value (as in the normative
//!   `tosca.datatypes.network.PortSpec`, whose `source_range` has `in_range: [1, 65535]`) the
//!   whole range must lie within the bounds, which are integers and are read here, not typed
//!   (a bound is not itself a range); the upper bound may then be `UNBOUNDED`. Other values
//!   have no `UNBOUNDED`: their bounds are typed like the value.
//! - **Length** applies to strings (in characters), lists and maps ([`Typed::length`]); any
//!   other value fails the clause.
//! - **`pattern` matches the whole value**: `pattern: ab` accepts `ab` but not `abc`, as if
//!   written `\A(?:ab)\z`. Patterns are compiled once, when read, by the `regex` crate, which
//!   matches in linear time whatever the pattern (`(a+)+$` is harmless). A pattern `regex`
//!   rejects — typically because it uses look-around or backreferences, which `regex` does not
//!   support — is compiled by `fancy-regex` instead, which also accepts its other extensions
//!   (atomic groups, possessive quantifiers). `fancy-regex` backtracks, so its matching is
//!   bounded by [`BACKTRACK_LIMIT`] steps; a value that needs more fails the clause with
//!   "pattern too costly to evaluate" rather than hanging the compiler. A pattern on a value
//!   that is not a string fails the clause.
//! - **`schema` is kept, not checked.** Validating against an external schema is not
//!   performed; the clause always holds.

use std::cmp::Ordering;
use std::fmt::Write as _;

use super::Typed;
use crate::problem::{Code, Problem, Problems};
use crate::source::Span;
use crate::yaml::{Node, Plain, Value};

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

/// How many backtracking steps a `fancy-regex` pattern may take on one value before the check
/// gives up with "pattern too costly to evaluate". Patterns the `regex` crate compiles never
/// backtrack and have no such limit.
pub const BACKTRACK_LIMIT: usize = 1_000_000;

/// How many characters of an argument a reason quotes before cutting it short with `…`.
const SHOWN_CHARS: usize = 60;

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

/// Reads the clauses of a `constraints` list (each a single-entry map `operator: argument`);
/// malformed ones are reported and skipped.
///
/// Problems: a clause that is not a map of one entry, or whose argument has the wrong shape or
/// value, is an [`Code::InvalidValue`] at the offending node; an unknown operator is a
/// [`Code::UnknownKey`] at its key, suggesting the nearest known one.
pub fn read_constraints(nodes: &[Node], problems: &mut Problems) -> Vec<Constraint> {
    nodes.iter().filter_map(|node| read_constraint(node, problems)).collect()
}

fn read_constraint(node: &Node, problems: &mut Problems) -> Option<Constraint> {
    let Some(entries) = node.as_mapping() else {
        let message = format!(
            "a constraint clause must be a map of one operator, like `greater_than: 5`, not {}",
            node.kind_name()
        );
        problems.report(Code::InvalidValue, node.span, message);
        return None;
    };
    let entry = match entries {
        [entry] => entry,
        [] => {
            problems.report(
                Code::InvalidValue,
                node.span,
                "a constraint clause must have one operator, this one has none",
            );
            return None;
        }
        [_, extra, ..] => {
            let message =
                "a constraint clause must have exactly one operator; write each operator as its own list item";
            problems.report(Code::InvalidValue, extra.key.span, message);
            return None;
        }
    };
    let Some(name) = entry.key.as_str() else {
        problems.report(Code::InvalidValue, entry.key.span, "a constraint operator must be a string");
        return None;
    };
    let argument = &entry.value;
    let operator = match name {
        "equal" => Operator::Equal(argument.clone()),
        "greater_than" => Operator::GreaterThan(argument.clone()),
        "greater_or_equal" => Operator::GreaterOrEqual(argument.clone()),
        "less_than" => Operator::LessThan(argument.clone()),
        "less_or_equal" => Operator::LessOrEqual(argument.clone()),
        "in_range" => read_in_range(argument, problems)?,
        "valid_values" => match argument.as_sequence() {
            Some(items) => Operator::ValidValues(items.to_vec()),
            None => {
                let message = format!("`valid_values` needs a list of values, not {}", argument.kind_name());
                problems.report(Code::InvalidValue, argument.span, message);
                return None;
            }
        },
        "length" | "min_length" | "max_length" => {
            if length_argument(argument).is_none() {
                let found = match argument.as_scalar().map(|scalar| scalar.resolve()) {
                    Some(Plain::Integer(negative)) => negative.to_string(),
                    _ => argument.kind_name().to_owned(),
                };
                let message = format!("`{name}` needs a non-negative integer, not {found}");
                problems.report(Code::InvalidValue, argument.span, message);
                return None;
            }
            match name {
                "length" => Operator::Length(argument.clone()),
                "min_length" => Operator::MinLength(argument.clone()),
                _ => Operator::MaxLength(argument.clone()),
            }
        }
        "pattern" => {
            let Some(source) = string_argument(argument) else {
                let message = format!("`pattern` needs a regular expression as a string, not {}", argument.kind_name());
                problems.report(Code::InvalidValue, argument.span, message);
                return None;
            };
            match Pattern::new(source) {
                Ok(pattern) => Operator::Pattern(pattern),
                Err(error) => {
                    let problem = Problem::new(
                        Code::InvalidValue,
                        argument.span,
                        format!("`pattern` is not a valid regular expression: `{}`", shorten(source)),
                    );
                    problems.push(problem.with_help(error));
                    return None;
                }
            }
        }
        "schema" => match string_argument(argument) {
            Some(schema) => Operator::Schema(schema.to_owned()),
            None => {
                let message = format!("`schema` needs a string, not {}", argument.kind_name());
                problems.report(Code::InvalidValue, argument.span, message);
                return None;
            }
        },
        _ => {
            let mut problem =
                Problem::new(Code::UnknownKey, entry.key.span, format!("unknown constraint operator `{name}`"));
            problem = match crate::grammar::nearest(name, OPERATORS) {
                Some(nearest) => problem.with_help(format!("did you mean `{nearest}`?")),
                None => problem.with_help(format!("known operators: {}", OPERATORS.join(", "))),
            };
            problems.push(problem);
            return None;
        }
    };
    Some(Constraint { operator, span: node.span })
}

fn read_in_range(argument: &Node, problems: &mut Problems) -> Option<Operator> {
    let Some(bounds) = argument.as_sequence() else {
        let message = format!("`in_range` needs a list of two bounds, like [1, 10], not {}", argument.kind_name());
        problems.report(Code::InvalidValue, argument.span, message);
        return None;
    };
    let [lower, upper] = bounds else {
        let message = format!("`in_range` needs exactly two bounds, not {}", bounds.len());
        problems.report(Code::InvalidValue, argument.span, message);
        return None;
    };
    // Bounds are typed only when a value is checked; plain numbers can be checked already.
    if let (Some(low), Some(high)) = (plain_number(lower), plain_number(upper))
        && low > high
    {
        let message = format!("`in_range` lower bound {} is greater than its upper bound {}", show(lower), show(upper));
        problems.report(Code::InvalidValue, argument.span, message);
        return None;
    }
    Some(Operator::InRange(lower.clone(), upper.clone()))
}

/// A YAML integer or float, as a float, for the read-time check of `in_range` bounds.
fn plain_number(node: &Node) -> Option<f64> {
    match node.as_scalar()?.resolve() {
        Plain::Integer(value) => Some(value as f64),
        Plain::Float(value) if !value.is_nan() => Some(value),
        _ => None,
    }
}

/// The argument of `length`, `min_length` and `max_length`.
fn length_argument(node: &Node) -> Option<usize> {
    match node.as_scalar()?.resolve() {
        Plain::Integer(value) => usize::try_from(value).ok(),
        _ => None,
    }
}

/// The text of a scalar that YAML reads as a string (quoted, or plain and not a number,
/// boolean or null).
fn string_argument(node: &Node) -> Option<&str> {
    match node.as_scalar()?.resolve() {
        Plain::String(text) => Some(text),
        _ => None,
    }
}

impl Constraint {
    /// Checks a typed value. `typed` types an argument node by the value's own declared type
    /// (the caller provides it: arguments of comparison operators are typed like the value —
    /// e.g. `in_range: [1 GB, 4 GB]` on a scalar-unit.size).
    ///
    /// `Ok(())` when satisfied or not checkable: the value or an argument is a function call
    /// ([`Typed::Call`]), or an argument could not be typed (`typed` returned `None`; the
    /// caller's typing of the arguments reports that). `Err(reason)` otherwise, where reason is
    /// a short phrase for the message: "must be greater than 5", "must be one of [tcp, udp]",
    /// "must be between 1 GB and 4 GB", "must match pattern `^[a-z]+$`", "must have length 3
    /// (has 5)", "cannot be compared with 5".
    ///
    /// `typed` is not called for length operators, `pattern` and `schema`, nor for the bounds of
    /// `in_range` on a [`Typed::Range`] (they are integers or `UNBOUNDED`, read here).
    pub fn check(&self, value: &Typed, typed: &mut dyn FnMut(&Node) -> Option<Typed>) -> Result<(), String> {
        if value.is_call() {
            return Ok(());
        }
        match &self.operator {
            Operator::Equal(argument) => match type_argument(argument, typed) {
                Some(expected) if !value.equals(&expected) => Err(format!("must be equal to {}", show(argument))),
                _ => Ok(()),
            },
            Operator::GreaterThan(argument) => {
                compare(value, argument, typed, |order| order == Ordering::Greater, "must be greater than")
            }
            Operator::GreaterOrEqual(argument) => {
                compare(value, argument, typed, |order| order != Ordering::Less, "must be greater than or equal to")
            }
            Operator::LessThan(argument) => {
                compare(value, argument, typed, |order| order == Ordering::Less, "must be less than")
            }
            Operator::LessOrEqual(argument) => {
                compare(value, argument, typed, |order| order != Ordering::Greater, "must be less than or equal to")
            }
            Operator::InRange(lower, upper) => match value {
                Typed::Range(low, high) => range_in_range(*low, *high, lower, upper),
                _ => in_range(value, lower, upper, typed),
            },
            Operator::ValidValues(items) => valid_values(value, items, typed),
            Operator::Length(argument) => length(value, argument, "", |length, wanted| length == wanted),
            Operator::MinLength(argument) => length(value, argument, "at least ", |length, wanted| length >= wanted),
            Operator::MaxLength(argument) => length(value, argument, "at most ", |length, wanted| length <= wanted),
            Operator::Pattern(pattern) => match value {
                Typed::String(text) => match pattern.matches(text)? {
                    true => Ok(()),
                    false => Err(format!("must match pattern `{}`", shorten(pattern.as_str()))),
                },
                _ => Err(format!("must be a string to match pattern `{}`", shorten(pattern.as_str()))),
            },
            Operator::Schema(_) => Ok(()),
        }
    }

    /// The operator's keyname, e.g. `"in_range"`.
    pub fn name(&self) -> &'static str {
        self.operator.name()
    }

    /// The argument nodes [`check`](Constraint::check) types like the value, for a caller that
    /// reports arguments that do not fit the declared type: the arguments of `equal`, the
    /// comparisons, `in_range` and `valid_values`; none for the others. The bounds of `in_range`
    /// are listed too, but on a `range`-typed value they are integers (or `UNBOUNDED`), not
    /// ranges, and must not be typed as ranges.
    pub fn typed_arguments(&self) -> Vec<&Node> {
        match &self.operator {
            Operator::Equal(argument)
            | Operator::GreaterThan(argument)
            | Operator::GreaterOrEqual(argument)
            | Operator::LessThan(argument)
            | Operator::LessOrEqual(argument) => vec![argument],
            Operator::InRange(lower, upper) => vec![lower, upper],
            Operator::ValidValues(items) => items.iter().collect(),
            Operator::Length(_)
            | Operator::MinLength(_)
            | Operator::MaxLength(_)
            | Operator::Pattern(_)
            | Operator::Schema(_) => Vec::new(),
        }
    }
}

/// Types an argument; `None` when it cannot be typed or is a call (not checkable either way).
fn type_argument(node: &Node, typed: &mut dyn FnMut(&Node) -> Option<Typed>) -> Option<Typed> {
    typed(node).filter(|argument| !argument.is_call())
}

fn compare(
    value: &Typed,
    argument: &Node,
    typed: &mut dyn FnMut(&Node) -> Option<Typed>,
    holds: fn(Ordering) -> bool,
    phrase: &str,
) -> Result<(), String> {
    let Some(bound) = type_argument(argument, typed) else {
        return Ok(());
    };
    match value.compare(&bound) {
        Some(order) if holds(order) => Ok(()),
        Some(_) => Err(format!("{phrase} {}", show(argument))),
        None => Err(format!("cannot be compared with {}", show(argument))),
    }
}

fn in_range(
    value: &Typed,
    lower: &Node,
    upper: &Node,
    typed: &mut dyn FnMut(&Node) -> Option<Typed>,
) -> Result<(), String> {
    let (Some(low), Some(high)) = (type_argument(lower, typed), type_argument(upper, typed)) else {
        return Ok(());
    };
    let (Some(above), Some(below)) = (value.compare(&low), value.compare(&high)) else {
        let culprit = if value.compare(&low).is_none() { lower } else { upper };
        return Err(format!("cannot be compared with {}", show(culprit)));
    };
    if above != Ordering::Less && below != Ordering::Greater {
        Ok(())
    } else {
        Err(format!("must be between {} and {}", show(lower), show(upper)))
    }
}

/// `in_range` on a `range` value: the whole range lies within the bounds.
fn range_in_range(low: i64, high: Option<i64>, lower: &Node, upper: &Node) -> Result<(), String> {
    let integer = |node: &Node| match node.as_scalar().map(|scalar| scalar.resolve()) {
        Some(Plain::Integer(value)) => Some(value),
        _ => None,
    };
    let Some(lower_bound) = integer(lower) else {
        return Err(format!("cannot be compared with {}", show(lower)));
    };
    let upper_bound = match integer(upper) {
        Some(bound) => Some(bound),
        None if upper.as_str() == Some("UNBOUNDED") => None,
        None => return Err(format!("cannot be compared with {}", show(upper))),
    };
    let within_upper = match (high, upper_bound) {
        (_, None) => true,
        (Some(high), Some(bound)) => high <= bound,
        (None, Some(_)) => false,
    };
    if low >= lower_bound && within_upper {
        Ok(())
    } else {
        Err(format!("must lie between {} and {}", show(lower), show(upper)))
    }
}

fn valid_values(value: &Typed, items: &[Node], typed: &mut dyn FnMut(&Node) -> Option<Typed>) -> Result<(), String> {
    let mut uncheckable = false;
    for item in items {
        match type_argument(item, typed) {
            Some(valid) if value.equals(&valid) => return Ok(()),
            Some(_) => {}
            None => uncheckable = true,
        }
    }
    if uncheckable {
        return Ok(());
    }
    let mut list = String::from("[");
    for (index, item) in items.iter().enumerate() {
        if index > 0 {
            list.push_str(", ");
        }
        list.push_str(&show(item));
        if list.chars().count() > SHOWN_CHARS {
            break;
        }
    }
    list.push(']');
    Err(format!("must be one of {}", shorten(&list)))
}

fn length(value: &Typed, argument: &Node, qualifier: &str, holds: fn(usize, usize) -> bool) -> Result<(), String> {
    // Checked when read; a clause built by hand with a bad argument is not checkable.
    let Some(wanted) = length_argument(argument) else {
        return Ok(());
    };
    match value.length() {
        Some(length) if holds(length, wanted) => Ok(()),
        Some(length) => Err(format!("must have length {qualifier}{wanted} (has {length})")),
        None => Err("must be a string, list or map to have a length".to_owned()),
    }
}

/// A regular expression compiled once, matched against whole values.
///
/// Compiled by the `regex` crate when it can (linear-time matching), otherwise by
/// `fancy-regex` (look-around, backreferences), whose matching is bounded by
/// [`BACKTRACK_LIMIT`]. Two patterns are equal when they were written the same.
#[derive(Clone, Debug)]
pub struct Pattern {
    source: String,
    engine: Engine,
}

#[derive(Clone, Debug)]
enum Engine {
    Linear(regex::Regex),
    Backtracking(fancy_regex::Regex),
}

impl PartialEq for Pattern {
    fn eq(&self, other: &Pattern) -> bool {
        self.source == other.source
    }
}

impl Pattern {
    /// Compiles a pattern for whole-value matching; `Err` says why it is not a valid regular
    /// expression (in the `regex` crate's syntax, or else in `fancy-regex`'s).
    pub fn new(source: &str) -> Result<Pattern, String> {
        // The pattern alone is compiled first, so that a pattern with unbalanced parentheses
        // (`a)|(b`) cannot escape the anchoring group below and change its meaning.
        let engine = match regex::Regex::new(source) {
            Ok(_) => Engine::Linear(anchored(source, regex::Regex::new).map_err(|error| regex_error(&error))?),
            // Too big for `regex` is too big for `fancy-regex`, which hands such parts to it.
            Err(error @ regex::Error::CompiledTooBig(_)) => return Err(regex_error(&error)),
            Err(linear_error) => {
                let build = |text: &str| fancy_regex::RegexBuilder::new(text).backtrack_limit(BACKTRACK_LIMIT).build();
                if build(source).is_err() {
                    return Err(regex_error(&linear_error));
                }
                Engine::Backtracking(anchored(source, build).map_err(|error| error.to_string())?)
            }
        };
        Ok(Pattern { source: source.to_owned(), engine })
    }

    /// The pattern as written.
    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// Whether the pattern needed `fancy-regex` (and so backtracks, within [`BACKTRACK_LIMIT`]).
    pub fn is_backtracking(&self) -> bool {
        matches!(self.engine, Engine::Backtracking(_))
    }

    /// Whether the whole of `text` matches. `Err` with a reason when `fancy-regex` gave up:
    /// "pattern too costly to evaluate" past [`BACKTRACK_LIMIT`].
    pub fn matches(&self, text: &str) -> Result<bool, String> {
        match &self.engine {
            Engine::Linear(regex) => Ok(regex.is_match(text)),
            Engine::Backtracking(regex) => regex.is_match(text).map_err(|error| match error {
                fancy_regex::Error::RuntimeError(_) => "pattern too costly to evaluate".to_owned(),
                other => format!("pattern could not be evaluated: {other}"),
            }),
        }
    }
}

/// Compiles `\A(?:source)\z`. When the pattern ends inside a comment of verbose mode
/// (`(?x)a # note`), the comment swallows the closing `)`; a newline ends the comment, and in
/// verbose mode it is insignificant whitespace.
fn anchored<R, E>(source: &str, build: impl Fn(&str) -> Result<R, E>) -> Result<R, E> {
    build(&format!("\\A(?:{source})\\z")).or_else(|_| build(&format!("\\A(?:{source}\n)\\z")))
}

/// The gist of a `regex` error: its `error: …` line (the full text repeats the pattern with a
/// caret over several lines).
fn regex_error(error: &regex::Error) -> String {
    let text = error.to_string();
    text.lines()
        .find_map(|line| line.trim().strip_prefix("error: "))
        .map_or_else(|| text.lines().next().unwrap_or_default().to_owned(), str::to_owned)
}

/// A node as a reason quotes it: scalars as written, collections in flow style, cut short.
fn show(node: &Node) -> String {
    let mut out = String::new();
    write_node(node, &mut out);
    shorten(&out)
}

fn write_node(node: &Node, out: &mut String) {
    // Stop early on big values: only the first characters are shown.
    if out.len() > SHOWN_CHARS * 4 {
        return;
    }
    match &node.value {
        Value::Scalar(scalar) => {
            for c in scalar.text.chars() {
                if c.is_control() {
                    let _ = write!(out, "{}", c.escape_default());
                } else {
                    out.push(c);
                }
            }
        }
        Value::Sequence(items) => {
            out.push('[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push_str(", ");
                }
                write_node(item, out);
            }
            out.push(']');
        }
        Value::Mapping(entries) => {
            out.push('{');
            for (index, entry) in entries.iter().enumerate() {
                if index > 0 {
                    out.push_str(", ");
                }
                write_node(&entry.key, out);
                out.push_str(": ");
                write_node(&entry.value, out);
            }
            out.push('}');
        }
    }
}

/// `text`, cut to [`SHOWN_CHARS`] characters with `…` when longer.
fn shorten(text: &str) -> String {
    match text.char_indices().nth(SHOWN_CHARS) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_owned(),
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

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use super::*;
    use crate::source::SourceId;
    use crate::yaml::{Limits, parse};

    /// Reads the clauses of a YAML list.
    fn read(text: &str) -> (Vec<Constraint>, Problems) {
        let mut problems = Problems::new();
        let root = parse(SourceId(0), text, &Limits::default(), &mut problems).expect("the YAML parses");
        assert!(problems.is_empty(), "YAML problems: {:?}", problems.iter().collect::<Vec<_>>());
        let constraints = read_constraints(root.as_sequence().expect("a list of clauses"), &mut problems);
        (constraints, problems)
    }

    /// Reads one well-formed clause.
    fn clause(text: &str) -> Constraint {
        let (mut constraints, problems) = read(text);
        assert!(problems.is_empty(), "problems: {:?}", problems.iter().collect::<Vec<_>>());
        assert_eq!(constraints.len(), 1);
        constraints.remove(0)
    }

    /// Types by YAML's core schema; a single-entry map `get_*: argument` is a call.
    fn plain(node: &Node) -> Option<Typed> {
        Some(match &node.value {
            Value::Scalar(scalar) => match scalar.resolve() {
                Plain::Null => Typed::Null,
                Plain::Bool(value) => Typed::Boolean(value),
                Plain::Integer(value) => Typed::Integer(value),
                Plain::Float(value) => Typed::Float(value),
                Plain::String(text) => Typed::String(text.to_owned()),
            },
            Value::Sequence(items) => Typed::List(items.iter().map(plain).collect::<Option<_>>()?),
            Value::Mapping(entries) => match entries.as_slice() {
                [entry] if entry.key.as_str().is_some_and(|key| key.starts_with("get_")) => {
                    call(entry.key.as_str()?, vec![plain(&entry.value)?])
                }
                _ => Typed::Map(
                    entries
                        .iter()
                        .map(|entry| Some((entry.key.as_str()?.to_owned(), plain(&entry.value)?)))
                        .collect::<Option<_>>()?,
                ),
            },
        })
    }

    /// Types as `integer` only, like a declared `integer` property would.
    fn integer(node: &Node) -> Option<Typed> {
        match node.as_scalar()?.resolve() {
            Plain::Integer(value) => Some(Typed::Integer(value)),
            _ => None,
        }
    }

    fn check(text: &str, value: Typed) -> Result<(), String> {
        clause(text).check(&value, &mut plain)
    }

    fn call(name: &str, arguments: Vec<Typed>) -> Typed {
        Typed::Call(crate::value::Call { name: name.to_owned(), arguments, span: Span::default() })
    }

    fn string(text: &str) -> Typed {
        Typed::String(text.to_owned())
    }

    #[test]
    fn comparisons() {
        assert_eq!(check("- equal: 5", Typed::Integer(5)), Ok(()));
        assert_eq!(check("- equal: 5", Typed::Integer(6)), Err("must be equal to 5".to_owned()));
        assert_eq!(check("- equal: 5", Typed::Float(5.0)), Ok(()));
        assert_eq!(check("- greater_than: 5", Typed::Integer(6)), Ok(()));
        assert_eq!(check("- greater_than: 5", Typed::Integer(5)), Err("must be greater than 5".to_owned()));
        assert_eq!(check("- greater_or_equal: 5", Typed::Integer(5)), Ok(()));
        assert_eq!(
            check("- greater_or_equal: 5", Typed::Integer(4)),
            Err("must be greater than or equal to 5".to_owned())
        );
        assert_eq!(check("- less_than: 5", Typed::Integer(4)), Ok(()));
        assert_eq!(check("- less_than: 5", Typed::Integer(5)), Err("must be less than 5".to_owned()));
        assert_eq!(check("- less_or_equal: 5", Typed::Integer(5)), Ok(()));
        assert_eq!(check("- less_or_equal: 5", Typed::Integer(6)), Err("must be less than or equal to 5".to_owned()));
        assert_eq!(check("- less_than: b", string("a")), Ok(()));
        assert_eq!(check("- greater_than: 2.5", Typed::Integer(3)), Ok(()));
    }

    #[test]
    fn incomparable_values_fail_with_a_reason() {
        let list = Typed::List(vec![Typed::Integer(1)]);
        assert_eq!(check("- greater_than: 5", list.clone()), Err("cannot be compared with 5".to_owned()));
        assert_eq!(check("- in_range: [1, 2]", list), Err("cannot be compared with 1".to_owned()));
        assert_eq!(check("- less_than: 5", string("a")), Err("cannot be compared with 5".to_owned()));
    }

    #[test]
    fn in_range_is_inclusive() {
        for value in [1, 3, 10] {
            assert_eq!(check("- in_range: [1, 10]", Typed::Integer(value)), Ok(()));
        }
        for value in [0, 11] {
            assert_eq!(check("- in_range: [1, 10]", Typed::Integer(value)), Err("must be between 1 and 10".to_owned()));
        }
    }

    #[test]
    fn arguments_are_typed_like_the_value() {
        // A stand-in for `scalar-unit.size`: sizes as megabytes.
        let mut size = |node: &Node| {
            let text = node.as_str()?;
            let (number, unit) = text.split_once(' ')?;
            let number: i64 = number.parse().ok()?;
            Some(Typed::Integer(if unit == "GB" { number * 1000 } else { number }))
        };
        let constraint = clause("- in_range: [1 GB, 4 GB]");
        assert_eq!(constraint.check(&Typed::Integer(2000), &mut size), Ok(()));
        assert_eq!(constraint.check(&Typed::Integer(500), &mut size), Err("must be between 1 GB and 4 GB".to_owned()));
    }

    #[test]
    fn in_range_on_a_range_value_contains_the_whole_range() {
        let constraint = clause("- in_range: [1, 65535]");
        let mut never = |_: &Node| -> Option<Typed> { panic!("range bounds are not typed") };
        assert_eq!(constraint.check(&Typed::Range(1, Some(65535)), &mut never), Ok(()));
        assert_eq!(constraint.check(&Typed::Range(80, Some(90)), &mut never), Ok(()));
        let reason = Err("must lie between 1 and 65535".to_owned());
        assert_eq!(constraint.check(&Typed::Range(0, Some(90)), &mut never), reason);
        assert_eq!(constraint.check(&Typed::Range(80, Some(70000)), &mut never), reason);
        assert_eq!(constraint.check(&Typed::Range(80, None), &mut never), reason);

        let unbounded = clause("- in_range: [1, UNBOUNDED]");
        assert_eq!(unbounded.check(&Typed::Range(5, None), &mut never), Ok(()));
        assert_eq!(unbounded.check(&Typed::Range(5, Some(7)), &mut never), Ok(()));
        assert_eq!(
            unbounded.check(&Typed::Range(0, None), &mut never),
            Err("must lie between 1 and UNBOUNDED".to_owned())
        );
        let nonsense = clause("- in_range: [low, 5]");
        assert_eq!(nonsense.check(&Typed::Range(5, None), &mut never), Err("cannot be compared with low".to_owned()));
        // Other values have no `UNBOUNDED`: the bound does not type as an integer, so the
        // caller's typing reports it and the check does not.
        assert_eq!(unbounded.check(&Typed::Integer(0), &mut integer), Ok(()));
    }

    #[test]
    fn valid_values() {
        assert_eq!(check("- valid_values: [tcp, udp]", string("udp")), Ok(()));
        assert_eq!(check("- valid_values: [tcp, udp]", string("icmp")), Err("must be one of [tcp, udp]".to_owned()));
        assert_eq!(check("- valid_values: [1, 2]", Typed::Float(2.0)), Ok(()));
        assert_eq!(check("- valid_values: []", string("tcp")), Err("must be one of []".to_owned()));
        let list = Typed::List(vec![Typed::Integer(1), Typed::Integer(2)]);
        assert_eq!(check("- valid_values: [[1, 2], [3]]", list), Ok(()));
    }

    #[test]
    fn long_arguments_are_cut_short_in_reasons() {
        let items: Vec<String> = (0..100).map(|n| format!("value{n}")).collect();
        let text = format!("- valid_values: [{}]", items.join(", "));
        let reason = check(&text, string("other")).expect_err("not a valid value");
        assert!(reason.starts_with("must be one of [value0, value1, "), "{reason}");
        assert!(reason.ends_with('…'), "{reason}");
        assert!(reason.chars().count() < 100, "{reason}");
    }

    #[test]
    fn lengths_of_strings_lists_and_maps() {
        // Characters, not bytes.
        assert_eq!(check("- length: 5", string("héllo")), Ok(()));
        assert_eq!(check("- length: 3", string("hello")), Err("must have length 3 (has 5)".to_owned()));
        let list = Typed::List(vec![Typed::Integer(1), Typed::Integer(2)]);
        assert_eq!(check("- min_length: 2", list.clone()), Ok(()));
        assert_eq!(check("- min_length: 3", list.clone()), Err("must have length at least 3 (has 2)".to_owned()));
        assert_eq!(check("- max_length: 2", list.clone()), Ok(()));
        assert_eq!(check("- max_length: 1", list), Err("must have length at most 1 (has 2)".to_owned()));
        let map = Typed::Map(vec![("a".to_owned(), Typed::Null)]);
        assert_eq!(check("- length: 1", map), Ok(()));
        assert_eq!(check("- min_length: 0", string("")), Ok(()));
        assert_eq!(
            check("- length: 1", Typed::Integer(7)),
            Err("must be a string, list or map to have a length".to_owned())
        );
    }

    #[test]
    fn pattern_matches_the_whole_value() {
        assert_eq!(check("- pattern: ab", string("ab")), Ok(()));
        assert_eq!(check("- pattern: ab", string("abc")), Err("must match pattern `ab`".to_owned()));
        assert_eq!(check("- pattern: ab", string("xab")), Err("must match pattern `ab`".to_owned()));
        // `^ab` alone would find `ab` at the start of `abc`; the whole value must match.
        assert_eq!(check("- pattern: ^ab", string("abc")), Err("must match pattern `^ab`".to_owned()));
        assert_eq!(check("- pattern: '^[a-z]+$'", string("abc")), Ok(()));
        // The whole value, even where leftmost-first search would stop at a shorter branch.
        assert_eq!(check("- pattern: a|ab", string("ab")), Ok(()));
        // Anchoring is not undone by a trailing newline in the value.
        assert_eq!(check("- pattern: ab", string("ab\n")), Err("must match pattern `ab`".to_owned()));
        assert_eq!(check("- pattern: ab", Typed::Integer(1)), Err("must be a string to match pattern `ab`".to_owned()));
    }

    #[test]
    fn pattern_ending_in_a_verbose_comment() {
        let constraint = clause("- pattern: \"(?x) [a-z]+ # letters only\"");
        assert_eq!(constraint.check(&string("abc"), &mut plain), Ok(()));
        assert!(constraint.check(&string("abc1"), &mut plain).is_err());
    }

    #[test]
    fn pattern_with_unbalanced_parentheses_is_rejected() {
        // Wrapped without care, `a)|(b` would become the valid `\A(?:a)|(b)\z`.
        let (constraints, problems) = read("- pattern: a)|(b");
        assert!(constraints.is_empty());
        let problem = problems.iter().next().expect("a problem");
        assert_eq!(problem.code, Code::InvalidValue);
        assert_eq!(problem.message, "`pattern` is not a valid regular expression: `a)|(b`");
    }

    #[test]
    fn linear_patterns_cannot_be_catastrophic() {
        // Exponential for a backtracking engine; linear for the `regex` crate.
        let constraint = clause("- pattern: (a+)+$");
        let Operator::Pattern(pattern) = &constraint.operator else { panic!("a pattern") };
        assert!(!pattern.is_backtracking());
        let start = Instant::now();
        let value = string("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!");
        assert_eq!(constraint.check(&value, &mut plain), Err("must match pattern `(a+)+$`".to_owned()));
        assert_eq!(constraint.check(&string(&"a".repeat(10_000)), &mut plain), Ok(()));
        assert!(start.elapsed() < Duration::from_secs(5));
    }

    #[test]
    fn look_around_falls_back_to_fancy_regex() {
        let constraint = clause(r"- pattern: '(?=.*\d)[a-z\d]+'");
        let Operator::Pattern(pattern) = &constraint.operator else { panic!("a pattern") };
        assert!(pattern.is_backtracking());
        assert_eq!(constraint.check(&string("abc1"), &mut plain), Ok(()));
        assert!(constraint.check(&string("abc"), &mut plain).is_err());
        assert!(constraint.check(&string("abc1!"), &mut plain).is_err());
        let behind = clause(r"- pattern: '[a-z]+(?<!x)'");
        assert_eq!(behind.check(&string("abc"), &mut plain), Ok(()));
        assert!(behind.check(&string("abx"), &mut plain).is_err());
    }

    #[test]
    fn backreferences_fall_back_to_fancy_regex() {
        let constraint = clause(r"- pattern: '(\w+) \1'");
        assert_eq!(constraint.check(&string("hey hey"), &mut plain), Ok(()));
        assert_eq!(constraint.check(&string("hey you"), &mut plain), Err(r"must match pattern `(\w+) \1`".to_owned()));
        // Whole value: a repeated word inside a longer text is not enough.
        assert!(constraint.check(&string("hey hey you"), &mut plain).is_err());
    }

    #[test]
    fn costly_backtracking_is_cut_off() {
        // The backreference forces the backtracking engine, which tries every way of splitting
        // the `a`s into `a` and `aa` before failing on the `!`.
        let constraint = clause(r"- pattern: '(a|aa)+\1'");
        let start = Instant::now();
        let value = string("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!");
        assert_eq!(constraint.check(&value, &mut plain), Err("pattern too costly to evaluate".to_owned()));
        assert!(start.elapsed() < Duration::from_secs(5));
    }

    #[test]
    fn calls_are_not_checked() {
        let call = call("get_input", vec![string("port")]);
        for text in [
            "- equal: 5",
            "- greater_than: 5",
            "- in_range: [1, 2]",
            "- valid_values: [1]",
            "- length: 1",
            "- pattern: x",
        ] {
            assert_eq!(check(text, call.clone()), Ok(()), "{text}");
        }
        let in_list = Typed::List(vec![call]);
        assert_eq!(check("- length: 5", in_list), Ok(()));
        assert_eq!(check("- greater_than: {get_input: low}", Typed::Integer(1)), Ok(()));
        assert_eq!(check("- in_range: [{get_input: low}, 5]", Typed::Integer(9)), Ok(()));
        assert_eq!(check("- valid_values: [{get_input: a}, 2]", Typed::Integer(9)), Ok(()));
    }

    #[test]
    fn untyped_arguments_are_left_to_the_caller() {
        let mut typer = integer;
        assert_eq!(clause("- equal: five").check(&Typed::Integer(4), &mut typer), Ok(()));
        assert_eq!(clause("- greater_than: five").check(&Typed::Integer(4), &mut typer), Ok(()));
        assert_eq!(clause("- in_range: [1, ten]").check(&Typed::Integer(40), &mut typer), Ok(()));
        assert_eq!(clause("- valid_values: [1, two]").check(&Typed::Integer(4), &mut typer), Ok(()));
        assert_eq!(
            clause("- valid_values: [1, 2]").check(&Typed::Integer(4), &mut typer),
            Err("must be one of [1, 2]".to_owned())
        );
    }

    #[test]
    fn schema_is_kept_and_not_checked() {
        let constraint = clause("- schema: '{\"type\": \"string\"}'");
        assert_eq!(constraint.operator, Operator::Schema("{\"type\": \"string\"}".to_owned()));
        assert_eq!(constraint.check(&Typed::Integer(1), &mut plain), Ok(()));
    }

    #[test]
    fn names_spans_and_typed_arguments() {
        let (constraints, problems) = read("- equal: 1\n- in_range: [1, 2]\n- valid_values: [a, b, c]\n- length: 2\n");
        assert!(problems.is_empty());
        let names: Vec<&str> = constraints.iter().map(Constraint::name).collect();
        assert_eq!(names, ["equal", "in_range", "valid_values", "length"]);
        assert_eq!((constraints[1].span.line, constraints[1].span.column), (2, 3));
        let counts: Vec<usize> = constraints.iter().map(|c| c.typed_arguments().len()).collect();
        assert_eq!(counts, [1, 2, 3, 0]);
    }

    #[test]
    fn malformed_clauses_are_reported_where_written() {
        let text = "\
- greater_than: 5
- 7
- {}
- {less_than: 1, equal: 2}
- in_range: [1, 2, 3]
- in_range: 5
- in_range: [10, 1]
- valid_values: tcp
- length: -1
- min_length: abc
- max_length: 1.5
- pattern: '(unclosed'
- pattern: 42
- schema: [a]
- greater_then: 5
- frobnicate: 1
- ? [a]
  : 1
- less_or_equal: 9
";
        let (constraints, problems) = read(text);
        let names: Vec<&str> = constraints.iter().map(Constraint::name).collect();
        assert_eq!(names, ["greater_than", "less_or_equal"]);
        let found: Vec<(Code, u32, u32, &str)> = problems
            .iter()
            .map(|problem| (problem.code, problem.span.line, problem.span.column, problem.message.as_str()))
            .collect();
        let expected = [
            (
                Code::InvalidValue,
                2,
                3,
                "a constraint clause must be a map of one operator, like `greater_than: 5`, not an integer",
            ),
            (Code::InvalidValue, 3, 3, "a constraint clause must have one operator, this one has none"),
            (
                Code::InvalidValue,
                4,
                18,
                "a constraint clause must have exactly one operator; write each operator as its own list item",
            ),
            (Code::InvalidValue, 5, 13, "`in_range` needs exactly two bounds, not 3"),
            (Code::InvalidValue, 6, 13, "`in_range` needs a list of two bounds, like [1, 10], not an integer"),
            (Code::InvalidValue, 7, 13, "`in_range` lower bound 10 is greater than its upper bound 1"),
            (Code::InvalidValue, 8, 17, "`valid_values` needs a list of values, not a string"),
            (Code::InvalidValue, 9, 11, "`length` needs a non-negative integer, not -1"),
            (Code::InvalidValue, 10, 15, "`min_length` needs a non-negative integer, not a string"),
            (Code::InvalidValue, 11, 15, "`max_length` needs a non-negative integer, not a float"),
            (Code::InvalidValue, 12, 12, "`pattern` is not a valid regular expression: `(unclosed`"),
            (Code::InvalidValue, 13, 12, "`pattern` needs a regular expression as a string, not an integer"),
            (Code::InvalidValue, 14, 11, "`schema` needs a string, not a list"),
            (Code::UnknownKey, 15, 3, "unknown constraint operator `greater_then`"),
            (Code::UnknownKey, 16, 3, "unknown constraint operator `frobnicate`"),
            (Code::InvalidValue, 17, 5, "a constraint operator must be a string"),
        ];
        assert_eq!(found, expected);
        let helps: Vec<Option<&str>> = problems.iter().map(|problem| problem.help.as_deref()).collect();
        assert_eq!(helps[13], Some("did you mean `greater_than`?"));
        assert!(helps[14].is_some_and(|help| help.starts_with("known operators: equal, greater_than")));
        assert!(helps[10].is_some_and(|help| help.contains("unclosed group")), "{:?}", helps[10]);
    }

    #[test]
    fn hostile_patterns_are_reported_not_fatal() {
        // Too big for the `regex` crate's size limit.
        let (constraints, problems) = read(r"- pattern: '\w{1000}{1000}'");
        assert!(constraints.is_empty());
        assert_eq!(problems.len(), 1);
        let deep = format!("- pattern: '{}a{}'", "(".repeat(1000), ")".repeat(1000));
        let (constraints, problems) = read(&deep);
        assert!(constraints.is_empty());
        assert_eq!(problems.len(), 1);
    }
}
