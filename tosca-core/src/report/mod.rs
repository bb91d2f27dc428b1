//! Problem reports in every format `puccini-rs validate --format` writes, callable from any
//! program: [`write()`] or [`render`] the problems of one [`Compiled`] in a [`Format`] chosen in
//! [`ReportOptions`], or [`write_inputs`] for many inputs at once (one JSON or SARIF document
//! for all of them).
//!
//! ```
//! use tosca_core::report::{self, Format, ReportOptions};
//!
//! let text = "tosca_definitions_version: tosca_simple_yaml_1_3\nnode_types:\n  Server:\n    derived_from: NoSuchType\n";
//! let compiled = tosca_core::compile_text("server.yaml", text, &tosca_core::Options::default())?;
//! let human = report::render(&compiled, "server.yaml", &ReportOptions::default());
//! assert!(human.contains("error[type-not-found]"));
//! assert!(human.contains("--> server.yaml:4:19"));
//! let json = report::render(&compiled, "server.yaml", &ReportOptions { format: Format::Json, ..ReportOptions::default() });
//! assert!(json.contains(r#""code": "type-not-found""#));
//! # Ok::<(), tosca_core::loader::LoadError>(())
//! ```
//!
//! One module per format, all fed the same problems (after ruff): `human` (rustc-style snippets
//! with annotate-snippets, built within bounds by `snippet`), `json` (a documented structure with
//! a JSON Schema), `sarif` (code scanning) and `github` (Actions annotations); with what they
//! share: `lines` (each file's line starts, indexed once), `location` (line and column ranges,
//! paths relative to a root folder) and `escape` (template text made harmless for terminals and
//! logs); and `explain`, the pages of the problem catalogue (the SARIF rules carry them).

pub mod escape;
pub mod explain;
pub mod github;
pub mod human;
pub mod json;
pub mod lines;
pub mod location;
pub mod sarif;
pub mod shared;
pub mod snippet;

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use crate::compile::Compiled;
use crate::problem::Severity;

/// The formats of a problem report.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Format {
    /// For people: rustc-style snippets and a summary line (colour per
    /// [`ReportOptions::colour`]).
    #[default]
    Human,
    /// One JSON document (see [`json::schema`]).
    Json,
    /// SARIF 2.1.0, for code scanning.
    Sarif,
    /// GitHub Actions workflow commands (`::error file=…`), one per problem.
    Github,
}

/// How a report is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReportOptions {
    /// The format.
    pub format: Format,
    /// Whether the human format uses ANSI colours (the caller decides: a terminal, and
    /// `NO_COLOR` unset). Off by default.
    pub colour: bool,
    /// How many problems of one shape in one file the human format shows (0: every one); the
    /// others are counted in a note. Default [`human::DEFAULT_MAX_SIMILAR`].
    pub max_similar: usize,
    /// The folder SARIF and GitHub paths are relative to (usually the repository root); `None`
    /// is the current folder. Relative paths are taken from the current folder.
    pub root: Option<PathBuf>,
}

impl Default for ReportOptions {
    fn default() -> Self {
        ReportOptions { format: Format::Human, colour: false, max_similar: human::DEFAULT_MAX_SIMILAR, root: None }
    }
}

/// The outcome of checking one input, as the caller named it.
#[derive(Debug)]
pub struct Checked {
    /// The input as given (a path or URL): the JSON report's `input`, and the file SARIF and
    /// GitHub point at for problems in a built-in profile.
    pub input: String,
    /// The compilation, or why the input could not be read at all.
    pub outcome: Result<Compiled, String>,
}

/// One input as the renderers read it, borrowed: see [`AsInput`].
#[derive(Clone, Copy, Debug)]
pub struct Input<'a> {
    /// The input as given (see [`Checked::input`]).
    pub input: &'a str,
    /// The compilation, or why the input could not be read at all.
    pub outcome: Result<&'a Compiled, &'a str>,
}

/// What the renderers take for an input: a [`Checked`] (owning its compilation) or an
/// [`Input`] (borrowing it).
pub trait AsInput {
    /// The input, borrowed.
    fn as_input(&self) -> Input<'_>;
}

impl AsInput for Checked {
    fn as_input(&self) -> Input<'_> {
        Input { input: &self.input, outcome: self.outcome.as_ref().map_err(String::as_str) }
    }
}

impl AsInput for Input<'_> {
    fn as_input(&self) -> Input<'_> {
        *self
    }
}

/// Problem counts over every input. A problem several inputs share (see [`shared`]) is
/// counted once, as it is listed once; its repeats are counted apart.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// Problems of severity error.
    pub errors: usize,
    /// Problems of severity warning.
    pub warnings: usize,
    /// Inputs that could not be read at all.
    pub unreadable: usize,
    /// Problems of later inputs that are the same as one already counted (a problem of a file
    /// several inputs read), not counted in `errors` or `warnings` again.
    pub repeated: usize,
    /// Problems hidden by their level (`allow`) or an inline allow: neither listed nor counted
    /// above.
    pub allowed: usize,
}

impl Totals {
    /// Counts the problems and failures of `inputs`.
    pub fn of(inputs: &[impl AsInput]) -> Totals {
        Totals::with(inputs, &shared::Shared::of(inputs))
    }

    /// Counts the problems and failures of `inputs`, whose shared problems are `shared`.
    pub fn with(inputs: &[impl AsInput], shared: &shared::Shared) -> Totals {
        let mut totals = Totals::default();
        for (index, item) in inputs.iter().enumerate() {
            match item.as_input().outcome {
                Ok(compiled) => {
                    totals.allowed += compiled.allowed;
                    for (number, problem) in compiled.problems.iter().enumerate() {
                        if !shared.is_listed(index, number) {
                            totals.repeated += 1;
                            continue;
                        }
                        match problem.severity {
                            Severity::Error => totals.errors += 1,
                            Severity::Warning => totals.warnings += 1,
                        }
                    }
                }
                Err(_) => totals.unreadable += 1,
            }
        }
        totals
    }

    /// The exit code `puccini-rs validate` gives: 2 when an input could not be read, 1 when
    /// there are errors (or warnings, when they are denied), 0 otherwise.
    pub fn exit_code(self, deny_warnings: bool) -> ExitCode {
        if self.unreadable > 0 {
            ExitCode::from(2)
        } else if self.errors > 0 || (deny_warnings && self.warnings > 0) {
            ExitCode::from(1)
        } else {
            ExitCode::SUCCESS
        }
    }
}

/// Writes the problems of `compiled` (the compilation of `input`, as the caller named it) to
/// `out` in the format of `options`. The human format writes the problems and a summary line
/// (nothing when there is no problem); the others write their whole document.
pub fn write(compiled: &Compiled, input: &str, options: &ReportOptions, out: &mut dyn Write) -> std::io::Result<()> {
    match options.format {
        Format::Human => {
            human(options).write_compiled(compiled, out)?;
            Ok(())
        }
        _ => write_inputs(&[Input { input, outcome: Ok(compiled) }], options, out, &mut std::io::sink()),
    }
}

/// [`write()`] into a string.
pub fn render(compiled: &Compiled, input: &str, options: &ReportOptions) -> String {
    let mut out = Vec::new();
    // Writing to a vector cannot fail.
    let _ = write(compiled, input, options, &mut out);
    String::from_utf8_lossy(&out).into_owned()
}

/// Writes the problems of many inputs, in their order, as one report: in the human format each
/// input's problems then one summary, an input that could not be read written to `errors` (as
/// `puccini-rs: why`); in the others one document, the unreadable inputs inside it. In every
/// format a problem several inputs share is listed once, under the first of them, naming the
/// others (see [`shared`]).
pub fn write_inputs(
    inputs: &[impl AsInput],
    options: &ReportOptions,
    out: &mut dyn Write,
    errors: &mut dyn Write,
) -> std::io::Result<()> {
    match options.format {
        Format::Human => human(options).write_all(inputs, out, errors).map(|_| ()),
        Format::Json => json::write(inputs, out),
        Format::Sarif => sarif::write(inputs, &root(options), out),
        Format::Github => github::write_all(inputs, &root(options), out),
    }
}

fn human(options: &ReportOptions) -> human::Human {
    human::Human::new(options.colour).max_similar(options.max_similar)
}

/// The root of `options`, from the current folder (`/` when there is none).
fn root(options: &ReportOptions) -> location::Root {
    let current = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
    location::Root::new(&current, options.root.as_deref().unwrap_or_else(|| std::path::Path::new(".")))
}
