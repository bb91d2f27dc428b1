//! Checking a typed value against a clause: `Ok`, or a short reason for the caller's problem.

use std::cmp::Ordering;

use super::read::length_argument;
use super::show::{SHOWN_CHARS, shorten, show};
use super::{Constraint, Operator};
use crate::value::Typed;
use crate::yaml::{Node, Plain};

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
