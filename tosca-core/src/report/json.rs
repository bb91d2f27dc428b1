//! Problems as one JSON document, for scripts. The structure is stable: fields are only ever
//! added. Its JSON Schema is committed as `tosca-cli/problems.schema.json` (printed by
//! `puccini-rs schema problems`; a test fails if it is stale).

use schemars::JsonSchema;
use serde::Serialize;
use std::io::{BufWriter, Write};

use crate::problem::Problem;

use super::escape::write_json;
use super::lines::Lines;
use super::location::Position;
use super::{AsInput, Input, Totals};

/// The whole report of one `validate` run.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Report {
    /// The version of this structure; incremented only if a field ever changes meaning.
    pub version: u32,
    /// One entry per input, in the order given on the command line.
    pub inputs: Vec<InputReport>,
    /// Counts over every input.
    pub summary: Summary,
}

/// What checking one input found.
#[derive(Debug, Serialize, JsonSchema)]
pub struct InputReport {
    /// The input as given on the command line.
    pub input: String,
    /// Why the input could not be read at all (then `problems` is empty); `null` otherwise.
    pub error: Option<String>,
    /// Every problem, sorted by file, position and code.
    pub problems: Vec<ProblemReport>,
}

/// One problem.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ProblemReport {
    /// The stable kebab-case code (`puccini-rs explain CODE` describes it).
    pub code: String,
    /// `error` or `warning`.
    pub severity: String,
    /// One sentence.
    pub message: String,
    /// Where it is.
    #[serde(flatten)]
    pub location: LocationReport,
    /// Related locations ("parent declared here"), possibly in other files.
    pub labels: Vec<LabelReport>,
    /// A suggestion, if there is one.
    pub help: Option<String>,
}

/// A range in a file: 1-based lines and columns (in characters); the end is exclusive.
#[derive(Debug, Serialize, JsonSchema)]
pub struct LocationReport {
    /// The file as the compiler names it: a path, a URL, or `archive!/entry` inside an archive.
    pub file: String,
    /// Line of the first character.
    pub line: u32,
    /// Column of the first character.
    pub column: u32,
    /// Line of the end.
    pub end_line: u32,
    /// Column one past the last character.
    pub end_column: u32,
}

/// A related location.
#[derive(Debug, Serialize, JsonSchema)]
pub struct LabelReport {
    /// What is there.
    pub message: String,
    /// Where.
    #[serde(flatten)]
    pub location: LocationReport,
}

/// Counts over every input.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Summary {
    /// Problems of severity error.
    pub errors: usize,
    /// Problems of severity warning.
    pub warnings: usize,
    /// Inputs that could not be read at all.
    pub unreadable: usize,
}

/// Writes the report as pretty JSON with a final newline, template text escaped as
/// [`write_json`] does.
pub fn write(checked: &[impl AsInput], out: &mut dyn Write) -> std::io::Result<()> {
    let mut out = BufWriter::new(out);
    write_json(&report(checked), &mut out)?;
    out.flush()
}

/// The JSON Schema of [`Report`].
pub fn schema() -> serde_json::Value {
    serde_json::to_value(schemars::schema_for!(Report)).unwrap_or(serde_json::Value::Null)
}

fn report(checked: &[impl AsInput]) -> Report {
    let totals = Totals::of(checked);
    Report {
        version: 1,
        inputs: checked.iter().map(|item| input_report(item.as_input())).collect(),
        summary: Summary { errors: totals.errors, warnings: totals.warnings, unreadable: totals.unreadable },
    }
}

fn input_report(checked: Input<'_>) -> InputReport {
    match checked.outcome {
        Ok(compiled) => InputReport {
            input: checked.input.to_owned(),
            error: None,
            problems: {
                let mut lines = Lines::new(&compiled.sources);
                compiled.problems.iter().map(|problem| problem_report(problem, &mut lines)).collect()
            },
        },
        Err(error) => {
            InputReport { input: checked.input.to_owned(), error: Some(error.to_owned()), problems: Vec::new() }
        }
    }
}

fn problem_report(problem: &Problem, lines: &mut Lines<'_>) -> ProblemReport {
    ProblemReport {
        code: problem.code.as_str().to_owned(),
        severity: problem.severity.as_str().to_owned(),
        message: problem.message.clone(),
        location: location_report(Position::of(problem.span, lines)),
        labels: problem
            .labels
            .iter()
            .map(|label| LabelReport {
                message: label.message.clone(),
                location: location_report(Position::of(label.span, lines)),
            })
            .collect(),
        help: problem.help.clone(),
    }
}

fn location_report(position: Position) -> LocationReport {
    LocationReport {
        file: position.name,
        line: position.line,
        column: position.column,
        end_line: position.end_line,
        end_column: position.end_column,
    }
}
