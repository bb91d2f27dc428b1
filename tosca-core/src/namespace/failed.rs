//! Failed imports as the cause of the names they leave unresolved: a type name that resolves
//! to nothing in a file whose imports (or whose imports' imports) failed is most likely defined
//! in the file that could not be read, so its problem names that import ("the import at line
//! 3 failed") with a label there, instead of guessing at a near name or advising an import the
//! file already writes.

use crate::problem::Problem;
use crate::read::Unit;
use crate::source::Span;

/// How many failed imports one problem names (each with a label).
const MAX_CAUSES: usize = 3;

/// For each unit, the failed imports that may leave its names unresolved: its own, then those
/// of the units it imports (depth first, imports before importers), at most [`MAX_CAUSES`].
pub(super) fn failed_imports(units: &[Unit], order: &[usize]) -> Vec<Vec<Span>> {
    let mut causes: Vec<Vec<Span>> = vec![Vec::new(); units.len()];
    if units.iter().all(|unit| unit.failed_imports.is_empty()) {
        return causes;
    }
    for &index in order {
        let mut found: Vec<Span> = units[index].failed_imports.iter().copied().take(MAX_CAUSES).collect();
        for import in &units[index].imports {
            for span in &causes[import.unit] {
                if found.len() < MAX_CAUSES && !found.contains(span) {
                    found.push(*span);
                }
            }
        }
        causes[index] = found;
    }
    causes
}

/// `problem`, about a name written in `source` that resolves to nothing, with the failed
/// imports `causes` named: the first in its message (`the import at line 3 failed`, or `… at
/// line 3 of types.yaml …` when it is in another file, `file_of` naming that file), each with a
/// label, and the guess at a near name dropped. Unchanged when there is no cause.
pub(super) fn name_cause(mut problem: Problem, causes: &[Span], file_of: impl Fn(Span) -> Option<String>) -> Problem {
    let Some(first) = causes.first() else { return problem };
    let place = if first.source == problem.span.source {
        format!("line {}", first.line)
    } else {
        match file_of(*first) {
            Some(file) => format!("line {} of `{file}`", first.line),
            None => format!("line {}", first.line),
        }
    };
    problem.message = format!("{} (the import at {place} failed)", problem.message);
    if problem.suggestion.take().is_some() {
        problem.help = None;
    }
    problem.help = Some(match problem.help.take() {
        Some(help) => format!("fix the failed import first: it may define it; {help}"),
        None => "fix the failed import first: it may define it".to_owned(),
    });
    for span in causes {
        problem = problem.with_label(*span, "this import failed");
    }
    problem
}
