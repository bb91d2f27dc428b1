//! Reading constraint clauses: each clause's shape is checked once, when it is read, and what
//! is malformed is reported where it is written.

use super::pattern::Pattern;
use super::show::{shorten, show};
use super::{Constraint, OPERATORS, Operator};
use crate::problem::{Code, Problem, Problems};
use crate::yaml::{Node, Plain};

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
            problem = match crate::problem::nearest(name, OPERATORS) {
                Some(nearest) => problem.with_suggestion(nearest),
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
pub(super) fn length_argument(node: &Node) -> Option<usize> {
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
