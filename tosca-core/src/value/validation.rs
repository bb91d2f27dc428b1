//! TOSCA 2.0 validation clauses: Boolean expressions over `$value`, built from the 2.0
//! function syntax (section 10.1) and evaluated on typed values.
//!
//! A clause is read once, with the entities, into an [`Expr`] tree; literals stay YAML nodes
//! and are typed when a value is checked, like the value they are compared with (so
//! `{ $greater_than: [ $value, 1 GB ] }` compares sizes, not text). Functions whose value is
//! only known later (`$get_property`, `$get_input`, user-declared functions) are asked of the
//! caller; when the caller cannot know them yet, the clause is not decided and passes.

use std::cmp::Ordering;

use super::Typed;
use super::constraint::Pattern;
use crate::grammar::{Read, ReadContext, References};
use crate::problem::{Code, Problems};
use crate::source::{Located, Span};
use crate::yaml::{Node, Value};

/// A `validation` keyname's clause.
#[derive(Clone, Debug, PartialEq)]
pub struct Validation {
    /// The Boolean expression.
    pub expression: Expr,
    /// Where the clause is written.
    pub span: Span,
}

/// A node of a 2.0 expression.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    /// A function call: `{ $name: [arguments] }` or the bare string `$name`.
    Call(FunctionCall),
    /// Any other YAML value, typed when it is used.
    Literal(Node),
}

/// A function call in 2.0 syntax.
#[derive(Clone, Debug, PartialEq)]
pub struct FunctionCall {
    /// The name without `$` and without a `$suffix` key variation (`keygen$1` is `keygen`).
    pub name: String,
    /// The arguments.
    pub arguments: Vec<Expr>,
    /// The arguments as written (for functions the caller evaluates).
    pub node: Node,
    /// Where the call is written.
    pub span: Span,
}

pub use crate::function_names::function_name;

/// Reads an expression; a map mixing a `$function` key with other keys is reported as a
/// malformed function and read as a literal.
pub fn read_expression(node: &Node, problems: &mut Problems) -> Expr {
    if let Some(text) = node.as_str()
        && let Some(name) = function_name(text)
    {
        return Expr::Call(FunctionCall {
            name: name.to_owned(),
            arguments: Vec::new(),
            node: node.clone(),
            span: node.span,
        });
    }
    if let Some(entries) = node.as_mapping() {
        let calls: Vec<_> =
            entries.iter().filter(|entry| entry.key.as_str().and_then(function_name).is_some()).collect();
        match (calls.as_slice(), entries.len()) {
            ([entry], 1) => {
                let name = entry.key.as_str().and_then(function_name).unwrap_or_default().to_owned();
                let arguments = match &entry.value.value {
                    _ if entry.value.is_null() => Vec::new(),
                    Value::Sequence(items) => items.iter().map(|item| read_expression(item, problems)).collect(),
                    _ => vec![read_expression(&entry.value, problems)],
                };
                return Expr::Call(FunctionCall { name, arguments, node: entry.value.clone(), span: node.span });
            }
            ([], _) => {}
            ([first, ..], _) => problems.report(
                Code::InvalidValue,
                first.key.span,
                "malformed function: a `$function` key must be the only key of its map (escape a literal `$` as `$$`)",
            ),
        }
    }
    Expr::Literal(node.clone())
}

impl Read for Validation {
    fn read(node: &Node, _: Option<&Located<String>>, cx: &mut ReadContext<'_>) -> Option<Self> {
        // Which functions the clause may call is known only once every file's `functions:` is
        // (the render checks them, reached through `References::visit_clauses`).
        Some(Validation { expression: read_expression(node, cx.problems), span: node.span })
    }
}

impl References for Validation {
    fn visit_references<'a>(&'a self, _: &mut dyn FnMut(crate::grammar::Kind, &'a Located<String>)) {}

    fn visit_clauses<'a>(&'a self, visit: &mut dyn FnMut(&'a dyn std::any::Any)) {
        visit(self);
    }
}

/// What evaluating an expression needs from its caller.
pub trait Environment {
    /// Types a literal like the value being validated; `None` when it does not fit that type.
    fn typed_like_value(&mut self, literal: &Node) -> Option<Typed>;
    /// Types a literal by what YAML says.
    fn untyped(&mut self, literal: &Node) -> Typed;
    /// A function this module does not evaluate (`get_property`, `get_input`, user functions):
    /// `Ok(Some(value))`, `Ok(None)` when it cannot be known yet, `Err` when it is unknown.
    fn call(&mut self, call: &FunctionCall) -> Result<Option<Typed>, String>;
    /// Whether `call` names a function defined under `functions:` where it is written (cs01
    /// 10.4): such a call is the user's, left to [`Environment::call`] even when a built-in
    /// has the same name. None by default.
    fn defined(&self, call: &FunctionCall) -> bool {
        let _ = call;
        false
    }
    /// Whether the pre-csd06 drafts' `$in_range` is evaluated
    /// ([`crate::function_names::DRAFT_2_0_EXTENSIONS`], `--dialect tosca-2.0-draft`); by
    /// default it is not a function here (cs01 10.2), and the clause is not decided by it.
    fn draft_extensions(&self) -> bool {
        false
    }
    /// Whether `pattern` is found in `text` (`$matches`, written at `call`; a search, cs01
    /// 10.2.2.2.7: a pattern for the whole string writes `^` and `$`):
    /// `Ok(None)` when it is not decided here (a backtracking pattern left for the compile's
    /// budget, see `crate::value::constraint::PatternChecks`). By default the pattern is
    /// compiled and matched at once, within its per-value limit.
    fn matches(&mut self, call: &FunctionCall, pattern: &str, text: &str) -> Result<Option<bool>, String> {
        let _ = call;
        Pattern::search(pattern)?.matches(text).map(Some)
    }
}

/// The result of one step: a value, or `None` when it cannot be known before deployment.
type Step = Result<Option<Typed>, String>;

/// Checks `value` against a clause: `Ok(())` when it holds or cannot be decided yet,
/// `Err(reason)` when it is false or cannot be evaluated.
pub fn check(validation: &Validation, value: &Typed, environment: &mut dyn Environment) -> Result<(), String> {
    if value.is_call() {
        return Ok(());
    }
    match evaluate(&validation.expression, value, environment)? {
        None | Some(Typed::Boolean(true)) => Ok(()),
        Some(Typed::Boolean(false)) => Err("does not satisfy the validation clause".to_owned()),
        Some(other) => Err(format!("validation clause gives {}, not a boolean", describe(&other))),
    }
}

fn describe(value: &Typed) -> String {
    match value.text() {
        Some(text) => format!("`{text}`"),
        None => value.to_json().to_string(),
    }
}

/// Evaluates an expression with `$value` bound to `value`.
pub fn evaluate(expr: &Expr, value: &Typed, environment: &mut dyn Environment) -> Step {
    let call = match expr {
        Expr::Literal(node) => return Ok(Some(environment.untyped(node))),
        Expr::Call(call) => call,
    };
    if environment.defined(call) {
        return environment.call(call);
    }
    let arguments = &call.arguments;
    let name = call.name.as_str();
    match name {
        "value" => {
            let mut current = value.clone();
            for argument in arguments {
                let Some(key) = evaluate(argument, value, environment)? else { return Ok(None) };
                current = match (&current, &key) {
                    (Typed::Map(entries), _) => {
                        let key = key.text().unwrap_or_default();
                        entries.iter().find(|(name, _)| *name == key).map(|(_, v)| v.clone()).unwrap_or(Typed::Null)
                    }
                    (Typed::List(items), Typed::Integer(index)) => {
                        usize::try_from(*index).ok().and_then(|index| items.get(index).cloned()).unwrap_or(Typed::Null)
                    }
                    _ => return Err(format!("`$value` cannot look up {} in {}", describe(&key), describe(&current))),
                };
            }
            Ok(Some(current))
        }
        "and" | "or" | "xor" => {
            let mut results = Vec::with_capacity(arguments.len());
            for argument in arguments {
                match evaluate(argument, value, environment)? {
                    None => return Ok(None),
                    Some(Typed::Boolean(result)) => results.push(result),
                    Some(other) => return Err(format!("`${name}` needs booleans, got {}", describe(&other))),
                }
            }
            Ok(Some(Typed::Boolean(match name {
                "and" => results.iter().all(|result| *result),
                "or" => results.iter().any(|result| *result),
                _ => results.iter().filter(|result| **result).count() == 1,
            })))
        }
        "not" => {
            let [argument] = arguments.as_slice() else { return Err(arity(name, 1, arguments.len())) };
            match evaluate(argument, value, environment)? {
                None => Ok(None),
                Some(Typed::Boolean(result)) => Ok(Some(Typed::Boolean(!result))),
                Some(other) => Err(format!("`$not` needs a boolean, got {}", describe(&other))),
            }
        }
        "equal" | "greater_than" | "greater_or_equal" | "less_than" | "less_or_equal" => {
            let [left, right] = arguments.as_slice() else { return Err(arity(name, 2, arguments.len())) };
            let Some((left, right)) = pair(left, right, value, environment)? else { return Ok(None) };
            if name == "equal" {
                return Ok(Some(Typed::Boolean(left.equals(&right))));
            }
            let Some(order) = left.compare(&right) else {
                return Err(format!("`${name}` cannot compare {} with {}", describe(&left), describe(&right)));
            };
            Ok(Some(Typed::Boolean(match name {
                "greater_than" => order == Ordering::Greater,
                "greater_or_equal" => order != Ordering::Less,
                "less_than" => order == Ordering::Less,
                _ => order != Ordering::Greater,
            })))
        }
        "in_range" if environment.draft_extensions() => {
            let (subject, lower, upper) = match arguments.as_slice() {
                [subject, Expr::Literal(bounds)] if bounds.as_sequence().is_some_and(|items| items.len() == 2) => {
                    let items = bounds.as_sequence().unwrap_or_default();
                    (subject, Expr::Literal(items[0].clone()), Expr::Literal(items[1].clone()))
                }
                [subject, lower, upper] => (subject, lower.clone(), upper.clone()),
                _ => return Err("`$in_range` needs a value and two bounds".to_owned()),
            };
            let Some((subject, low)) = pair(subject, &lower, value, environment)? else { return Ok(None) };
            let Some(high) = like(&upper, &subject, value, environment)? else { return Ok(None) };
            match (subject.compare(&low), subject.compare(&high)) {
                (Some(from), Some(to)) => Ok(Some(Typed::Boolean(from != Ordering::Less && to != Ordering::Greater))),
                _ => Err(format!("`$in_range` cannot compare {} with its bounds", describe(&subject))),
            }
        }
        "valid_values" => {
            let [subject, list] = arguments.as_slice() else { return Err(arity(name, 2, arguments.len())) };
            let Some(subject) = evaluate(subject, value, environment)? else { return Ok(None) };
            let candidates = match list {
                Expr::Literal(node) if node.as_sequence().is_some() => {
                    let mut typed = Vec::new();
                    for item in node.as_sequence().unwrap_or_default() {
                        typed.push(environment.typed_like_value(item).unwrap_or_else(|| environment.untyped(item)));
                    }
                    typed
                }
                other => match evaluate(other, value, environment)? {
                    None => return Ok(None),
                    Some(Typed::List(items)) => items,
                    Some(other) => return Err(format!("`$valid_values` needs a list, got {}", describe(&other))),
                },
            };
            Ok(Some(Typed::Boolean(candidates.iter().any(|candidate| subject.equals(candidate)))))
        }
        "matches" => {
            let [subject, pattern] = arguments.as_slice() else { return Err(arity(name, 2, arguments.len())) };
            let (Some(subject), Some(pattern)) =
                (evaluate(subject, value, environment)?, evaluate(pattern, value, environment)?)
            else {
                return Ok(None);
            };
            let (Some(text), Some(pattern)) = (subject.text(), pattern.text()) else {
                return Err("`$matches` needs a string and a pattern".to_owned());
            };
            Ok(environment.matches(call, &pattern, &text)?.map(Typed::Boolean))
        }
        "has_suffix" | "has_prefix" | "contains" | "has_entry" | "has_key" | "has_all_entries" | "has_all_keys"
        | "has_any_entry" | "has_any_key" => {
            let [subject, probe] = arguments.as_slice() else { return Err(arity(name, 2, arguments.len())) };
            let (Some(subject), Some(probe)) =
                (evaluate(subject, value, environment)?, evaluate(probe, value, environment)?)
            else {
                return Ok(None);
            };
            collection_test(name, &subject, &probe).map(|result| Some(Typed::Boolean(result)))
        }
        "length" => {
            let [subject] = arguments.as_slice() else { return Err(arity(name, 1, arguments.len())) };
            let Some(subject) = evaluate(subject, value, environment)? else { return Ok(None) };
            match subject.length() {
                Some(length) => Ok(Some(Typed::Integer(i64::try_from(length).unwrap_or(i64::MAX)))),
                None => Err(format!("`$length` needs a string, list or map, got {}", describe(&subject))),
            }
        }
        "sum" | "difference" | "product" | "quotient" | "remainder" => {
            let mut values = Vec::with_capacity(arguments.len());
            for argument in arguments {
                match evaluate(argument, value, environment)? {
                    None => return Ok(None),
                    Some(result) => values.push(result),
                }
            }
            arithmetic(name, &values).map(Some)
        }
        _ => environment.call(call),
    }
}

fn arity(name: &str, wanted: usize, got: usize) -> String {
    format!("`${name}` takes {wanted} argument{}, got {got}", if wanted == 1 { "" } else { "s" })
}

/// Evaluates two operands; a literal next to a computed value is typed like the value.
fn pair(
    left: &Expr,
    right: &Expr,
    value: &Typed,
    environment: &mut dyn Environment,
) -> Result<Option<(Typed, Typed)>, String> {
    match (left, right) {
        (Expr::Literal(_), Expr::Call(_)) => {
            let Some(right) = evaluate(right, value, environment)? else { return Ok(None) };
            let Some(left) = like(left, &right, value, environment)? else { return Ok(None) };
            Ok(Some((left, right)))
        }
        _ => {
            let Some(left) = evaluate(left, value, environment)? else { return Ok(None) };
            let Some(right) = like(right, &left, value, environment)? else { return Ok(None) };
            Ok(Some((left, right)))
        }
    }
}

/// Evaluates `expr`; a literal is typed like the value (when `other` has the value's kind of
/// type), else by what YAML says.
fn like(expr: &Expr, other: &Typed, value: &Typed, environment: &mut dyn Environment) -> Step {
    match expr {
        Expr::Literal(node) => {
            if std::mem::discriminant(other) == std::mem::discriminant(value)
                && let Some(typed) = environment.typed_like_value(node)
            {
                return Ok(Some(typed));
            }
            Ok(Some(environment.untyped(node)))
        }
        call => evaluate(call, value, environment),
    }
}

fn collection_test(name: &str, subject: &Typed, probe: &Typed) -> Result<bool, String> {
    let keys = |typed: &Typed| -> Option<Vec<String>> {
        match typed {
            Typed::Map(entries) => Some(entries.iter().map(|(key, _)| key.clone()).collect()),
            _ => None,
        }
    };
    let items = |typed: &Typed| -> Option<Vec<Typed>> {
        match typed {
            Typed::List(items) => Some(items.clone()),
            Typed::Map(entries) => Some(entries.iter().map(|(_, value)| value.clone()).collect()),
            _ => None,
        }
    };
    let wrong = || format!("`${name}` cannot apply to {} and {}", describe(subject), describe(probe));
    match name {
        "has_suffix" | "has_prefix" => match (subject, probe) {
            (Typed::List(items), Typed::List(part)) => Ok(if name == "has_suffix" {
                items.len() >= part.len()
                    && items[items.len() - part.len()..].iter().zip(part).all(|(a, b)| a.equals(b))
            } else {
                items.len() >= part.len() && items.iter().zip(part).all(|(a, b)| a.equals(b))
            }),
            _ => match (subject.text(), probe.text()) {
                (Some(text), Some(part)) => {
                    Ok(if name == "has_suffix" { text.ends_with(&part) } else { text.starts_with(&part) })
                }
                _ => Err(wrong()),
            },
        },
        "contains" => match (subject, probe) {
            (Typed::List(items), Typed::List(part)) => Ok(part.is_empty()
                || items.windows(part.len()).any(|window| window.iter().zip(part).all(|(a, b)| a.equals(b)))),
            _ => match (subject.text(), probe.text()) {
                (Some(text), Some(part)) => Ok(text.contains(&part)),
                _ => Err(wrong()),
            },
        },
        "has_entry" => items(subject).map(|items| items.iter().any(|item| item.equals(probe))).ok_or_else(wrong),
        "has_key" => {
            let key = probe.text().ok_or_else(wrong)?;
            keys(subject).map(|keys| keys.contains(&key)).ok_or_else(wrong)
        }
        "has_all_entries" | "has_any_entry" => {
            let (Some(items), Some(probes)) = (items(subject), items(probe)) else { return Err(wrong()) };
            let found = |probe: &Typed| items.iter().any(|item| item.equals(probe));
            Ok(if name == "has_all_entries" { probes.iter().all(found) } else { probes.iter().any(found) })
        }
        _ => {
            let (Some(keys), Some(probes)) = (keys(subject), items(probe)) else { return Err(wrong()) };
            let found = |probe: &Typed| probe.text().is_some_and(|key| keys.contains(&key));
            Ok(if name == "has_all_keys" { probes.iter().all(found) } else { probes.iter().any(found) })
        }
    }
}

fn arithmetic(name: &str, values: &[Typed]) -> Result<Typed, String> {
    let integers: Option<Vec<i64>> =
        values.iter().map(|value| if let Typed::Integer(number) = value { Some(*number) } else { None }).collect();
    if let Some(integers) = integers.filter(|_| name != "quotient") {
        return integer_arithmetic(name, &integers);
    }
    let numbers: Option<Vec<f64>> = values
        .iter()
        .map(|value| match value {
            Typed::Integer(number) => Some(*number as f64),
            Typed::Float(number) => Some(*number),
            _ => None,
        })
        .collect();
    let Some(numbers) = numbers else { return Err(format!("`${name}` needs numbers")) };
    let result = match (name, numbers.as_slice()) {
        ("sum", _) => numbers.iter().sum(),
        ("product", _) => numbers.iter().product(),
        ("difference", [a, b]) => a - b,
        ("quotient", [a, b]) if *b != 0.0 => a / b,
        ("remainder", [a, b]) if *b != 0.0 => a % b,
        ("quotient" | "remainder", [_, _]) => return Err(format!("`${name}` divides by zero")),
        _ => return Err(arity(name, 2, values.len())),
    };
    Ok(Typed::Float(result))
}

/// `$sum`, `$difference`, `$product` and `$remainder` of integers, exactly in 64 bits (a float
/// would round past 2^53 and saturate past 2^63): a result that does not fit is refused.
fn integer_arithmetic(name: &str, integers: &[i64]) -> Result<Typed, String> {
    let result = match (name, integers) {
        ("sum", _) => integers.iter().try_fold(0_i64, |total, number| total.checked_add(*number)),
        ("product", _) => integers.iter().try_fold(1_i64, |total, number| total.checked_mul(*number)),
        ("difference", [a, b]) => a.checked_sub(*b),
        ("remainder", [_, 0]) => return Err(format!("`${name}` divides by zero")),
        ("remainder", [a, b]) => a.checked_rem(*b),
        _ => return Err(arity(name, 2, integers.len())),
    };
    result.map(Typed::Integer).ok_or_else(|| {
        format!(
            "makes `${name}` leave the 64 bits of an integer (-9223372036854775808 to \
             9223372036854775807), so the clause cannot be evaluated exactly"
        )
    })
}
