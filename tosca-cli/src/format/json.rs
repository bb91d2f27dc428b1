//! Problems as one JSON document, for scripts. The structure is stable: fields are only ever
//! added. Its JSON Schema is committed as `tosca-cli/problems.schema.json` (printed by
//! `puccini-rs schema problems`; a test fails if it is stale).

use schemars::JsonSchema;
use serde::Serialize;
use tosca_core::problem::Problem;
use tosca_core::source::SourceMap;

use super::location::Position;
use crate::check::{Checked, Totals};

/// The whole report of one `validate` run.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct Report {
    /// The version of this structure; incremented only if a field ever changes meaning.
    pub(crate) version: u32,
    /// One entry per input, in the order given on the command line.
    pub(crate) inputs: Vec<InputReport>,
    /// Counts over every input.
    pub(crate) summary: Summary,
}

/// What checking one input found.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct InputReport {
    /// The input as given on the command line.
    pub(crate) input: String,
    /// Why the input could not be read at all (then `problems` is empty); `null` otherwise.
    pub(crate) error: Option<String>,
    /// Every problem, sorted by file, position and code.
    pub(crate) problems: Vec<ProblemReport>,
}

/// One problem.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct ProblemReport {
    /// The stable kebab-case code (`puccini-rs explain CODE` describes it).
    pub(crate) code: String,
    /// `error` or `warning`.
    pub(crate) severity: String,
    /// One sentence.
    pub(crate) message: String,
    /// Where it is.
    #[serde(flatten)]
    pub(crate) location: LocationReport,
    /// Related locations ("parent declared here"), possibly in other files.
    pub(crate) labels: Vec<LabelReport>,
    /// A suggestion, if there is one.
    pub(crate) help: Option<String>,
}

/// A range in a file: 1-based lines and columns (in characters); the end is exclusive.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct LocationReport {
    /// The file as the compiler names it: a path, a URL, or `archive!/entry` inside an archive.
    pub(crate) file: String,
    /// Line of the first character.
    pub(crate) line: u32,
    /// Column of the first character.
    pub(crate) column: u32,
    /// Line of the end.
    pub(crate) end_line: u32,
    /// Column one past the last character.
    pub(crate) end_column: u32,
}

/// A related location.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct LabelReport {
    /// What is there.
    pub(crate) message: String,
    /// Where.
    #[serde(flatten)]
    pub(crate) location: LocationReport,
}

/// Counts over every input.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct Summary {
    /// Problems of severity error.
    pub(crate) errors: usize,
    /// Problems of severity warning.
    pub(crate) warnings: usize,
    /// Inputs that could not be read at all.
    pub(crate) unreadable: usize,
}

/// The report as pretty JSON with a final newline.
pub(crate) fn render(checked: &[Checked]) -> anyhow::Result<String> {
    let mut text = serde_json::to_string_pretty(&report(checked))?;
    text.push('\n');
    Ok(text)
}

/// The JSON Schema of [`Report`].
pub(crate) fn schema() -> serde_json::Value {
    serde_json::to_value(schemars::schema_for!(Report)).unwrap_or(serde_json::Value::Null)
}

fn report(checked: &[Checked]) -> Report {
    let totals = Totals::of(checked);
    Report {
        version: 1,
        inputs: checked.iter().map(input_report).collect(),
        summary: Summary { errors: totals.errors, warnings: totals.warnings, unreadable: totals.unreadable },
    }
}

fn input_report(checked: &Checked) -> InputReport {
    match &checked.outcome {
        Ok(compiled) => InputReport {
            input: checked.input.clone(),
            error: None,
            problems: compiled.problems.iter().map(|problem| problem_report(problem, &compiled.sources)).collect(),
        },
        Err(error) => InputReport { input: checked.input.clone(), error: Some(error.clone()), problems: Vec::new() },
    }
}

fn problem_report(problem: &Problem, sources: &SourceMap) -> ProblemReport {
    ProblemReport {
        code: problem.code.as_str().to_owned(),
        severity: problem.severity.as_str().to_owned(),
        message: problem.message.clone(),
        location: location_report(Position::of(problem.span, sources)),
        labels: problem
            .labels
            .iter()
            .map(|label| LabelReport {
                message: label.message.clone(),
                location: location_report(Position::of(label.span, sources)),
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
