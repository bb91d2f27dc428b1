//! Problems as one JSON document, for scripts. The structure is stable: fields are only ever
//! added, and `version` changes when a field changes meaning. Its JSON Schema is committed as
//! `tosca-cli/problems.schema.json` (printed by `puccini-rs schema problems`; a test fails if
//! it is stale).
//!
//! Version 2: a problem several inputs share (one of a file they all import) is listed once,
//! under the first of them in input order, with the others in its `also_in`; each later input
//! points at it from its `elsewhere` and still counts it in its own `errors` and `warnings`,
//! and the run's `summary` counts it once (its repeats in `summary.repeated`).

use schemars::JsonSchema;
use serde::Serialize;
use std::io::{BufWriter, Write};

use crate::problem::Problem;

use super::escape::write_json;
use super::lines::Lines;
use super::location::Position;
use super::shared::{Listing, Shared};
use super::{AsInput, Input, Totals};

/// The version of the structure [`write()`] writes.
pub const VERSION: u32 = 2;

/// The whole report of one `validate` run.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Report {
    /// The version of this structure; incremented only if a field ever changes meaning.
    /// Version 2: a problem several inputs share is listed once (see `elsewhere` and
    /// `also_in`), and `summary` counts it once.
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
    /// Errors this input has, including those listed under an earlier input (`elsewhere`):
    /// the input is clean when this is 0.
    pub errors: usize,
    /// Warnings this input has, including those listed under an earlier input.
    pub warnings: usize,
    /// Problems of this input hidden by their level (`allow`) or an inline allow: not listed,
    /// not counted in `errors` and `warnings`.
    pub allowed: usize,
    /// Every problem of this input not already listed under an earlier one, sorted by file,
    /// position and code.
    pub problems: Vec<ProblemReport>,
    /// This input's other problems: the same as a problem listed under an earlier input (a
    /// problem of a file both read), in this input's order; empty for most inputs.
    pub elsewhere: Vec<ListedElsewhere>,
}

/// A problem of an input that is listed under an earlier input.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ListedElsewhere {
    /// The index, in `inputs`, of the input it is listed under.
    pub input: usize,
    /// Its index in that input's `problems`.
    pub problem: usize,
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
    /// The later inputs (as given) that have this same problem and list it only here, in input
    /// order; empty for a problem of this input alone.
    pub also_in: Vec<String>,
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

/// Counts over every input, each problem listed in the document counted once.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Summary {
    /// Problems of severity error.
    pub errors: usize,
    /// Problems of severity warning.
    pub warnings: usize,
    /// Inputs that could not be read at all.
    pub unreadable: usize,
    /// Problems of inputs listed under an earlier input (every `elsewhere` entry), not counted
    /// in `errors` and `warnings` again.
    pub repeated: usize,
    /// Problems hidden by their level (`allow`, from the command line or `puccini-rs.toml`) or
    /// an inline allow: not listed, not counted in `errors` and `warnings`; the sum of the
    /// inputs' `allowed` (a problem of a file several inputs read counted in each).
    pub allowed: usize,
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
    tosca_core::topology::output_schema::<Report>()
}

fn report(checked: &[impl AsInput]) -> Report {
    let shared = Shared::of(checked);
    let totals = Totals::with(checked, &shared);
    Report {
        version: VERSION,
        inputs: checked.iter().enumerate().map(|(index, item)| input_report(index, item.as_input(), &shared)).collect(),
        summary: Summary {
            errors: totals.errors,
            warnings: totals.warnings,
            unreadable: totals.unreadable,
            repeated: totals.repeated,
            allowed: totals.allowed,
        },
    }
}

fn input_report(index: usize, checked: Input<'_>, shared: &Shared) -> InputReport {
    let mut report = InputReport {
        input: checked.input.to_owned(),
        error: None,
        errors: 0,
        warnings: 0,
        allowed: 0,
        problems: Vec::new(),
        elsewhere: Vec::new(),
    };
    let compiled = match checked.outcome {
        Ok(compiled) => compiled,
        Err(error) => {
            report.error = Some(error.to_owned());
            return report;
        }
    };
    report.allowed = compiled.allowed;
    let mut lines = Lines::new(&compiled.sources);
    for (number, problem) in compiled.problems.iter().enumerate() {
        match problem.severity {
            crate::problem::Severity::Error => report.errors += 1,
            crate::problem::Severity::Warning => report.warnings += 1,
        }
        match shared.listing(index, number) {
            Listing::Here { also_in } => {
                let mut listed = problem_report(problem, &mut lines);
                listed.also_in = also_in.iter().map(|&other| shared.name(other).to_owned()).collect();
                report.problems.push(listed);
            }
            Listing::Elsewhere { input, listed, .. } => {
                report.elsewhere.push(ListedElsewhere { input: *input, problem: *listed })
            }
        }
    }
    report
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
        also_in: Vec::new(),
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
