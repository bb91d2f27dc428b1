//! The string functions whose arguments are known values (`concat`, `join`, `token`): shared by
//! the evaluator and by map keys written as calls over constants.

use crate::problem::{Code, Problems};
use crate::source::Span;
use crate::value::Typed;

/// `concat`: the texts of known scalar arguments, joined.
pub(in crate::render) fn concat(arguments: &[Typed], at: Span, problems: &mut Problems) -> Option<Typed> {
    match arguments.iter().map(Typed::text).collect::<Option<Vec<String>>>() {
        Some(parts) => Some(Typed::String(parts.concat())),
        None => {
            problems.report(Code::InvalidValue, at, "`concat` joins strings and scalars, not lists, maps or null");
            None
        }
    }
}

/// `join`: the texts of a known list's scalars, joined by the optional delimiter.
pub(in crate::render) fn join(arguments: &[Typed], at: Span, problems: &mut Problems) -> Option<Typed> {
    let (Some(Typed::List(items)), 1..=2) = (arguments.first(), arguments.len()) else {
        problems.report(Code::InvalidValue, at, "`join` needs a list of strings and an optional delimiter");
        return None;
    };
    let delimiter = arguments.get(1).map_or(Some(String::new()), Typed::text);
    match (items.iter().map(Typed::text).collect::<Option<Vec<String>>>(), delimiter) {
        (Some(parts), Some(delimiter)) => Some(Typed::String(parts.join(&delimiter))),
        _ => {
            problems.report(Code::InvalidValue, at, "`join` joins strings and scalars with a string delimiter");
            None
        }
    }
}

/// `token`: the `index`-th part of a string split at any of the separator characters.
pub(in crate::render) fn token(arguments: &[Typed], at: Span, problems: &mut Problems) -> Option<Typed> {
    let (Some(Typed::String(string)), Some(Typed::String(separators)), Some(Typed::Integer(index))) =
        (arguments.first(), arguments.get(1), arguments.get(2))
    else {
        problems.report(Code::InvalidValue, at, "`token` needs a string, a string of separators and an index");
        return None;
    };
    let tokens: Vec<&str> = string.split(|c| separators.contains(c)).collect();
    match usize::try_from(*index).ok().and_then(|index| tokens.get(index)) {
        Some(token) => Some(Typed::String((*token).to_owned())),
        None => {
            problems.report(
                Code::InvalidValue,
                at,
                format!("`token` index {index} is out of range: `{string}` has {} tokens", tokens.len()),
            );
            None
        }
    }
}
