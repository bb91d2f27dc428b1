//! Problems as Python objects: [`Problem`] and its [`Label`]s, with 1-based lines and columns
//! (columns in characters) and exclusive ends, as `puccini-rs validate --format json` gives them.

use pyo3::prelude::*;
use pyo3::types::PyDict;

use tosca_core::loader::{LoadError, Location};
use tosca_core::problem::{self, Code, Severity};
use tosca_core::source::{SourceMap, Span};

/// A range in a file, resolved from a span while the sources are at hand.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Position {
    file: String,
    line: u32,
    column: u32,
    end_line: u32,
    end_column: u32,
}

impl Position {
    /// The start is the span's own line and column; the end is counted from it over the
    /// span's text (a span is a key, a value or a line: short).
    fn of(span: Span, sources: &SourceMap) -> Position {
        let file = sources.get(span.source);
        let covered = file.as_ref().and_then(|file| file.text.get(span.start as usize..span.end as usize));
        let (end_line, end_column) = match covered {
            Some(text) => match text.rfind('\n') {
                Some(last) => (
                    span.line.saturating_add(to_u32(text.matches('\n').count())),
                    to_u32(text[last + 1..].chars().count() + 1),
                ),
                None => (span.line, span.column.saturating_add(to_u32(text.chars().count()))),
            },
            None => (span.line, span.column),
        };
        Position {
            file: file.map_or_else(|| "?".to_owned(), |file| file.name.clone()),
            line: span.line,
            column: span.column,
            end_line,
            end_column,
        }
    }
}

fn to_u32(value: usize) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

/// A related location of a problem ("parent declared here"), possibly in another file.
#[pyclass(frozen, eq, get_all, skip_from_py_object, module = "puccini_rs")]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    /// What is there.
    message: String,
    /// The file: a path, a URL, or `archive!/entry` inside an archive.
    file: String,
    /// 1-based line of the first character.
    line: u32,
    /// 1-based column (in characters) of the first character.
    column: u32,
    /// Line of the end.
    end_line: u32,
    /// Column one past the last character.
    end_column: u32,
}

#[pymethods]
impl Label {
    fn __repr__(&self) -> String {
        format!("Label({:?} at {}:{}:{})", self.message, self.file, self.line, self.column)
    }

    /// The label as a plain dict (`message`, `file`, `line`, `column`, `end_line`, `end_column`).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        dict.set_item("message", &self.message)?;
        dict.set_item("file", &self.file)?;
        dict.set_item("line", self.line)?;
        dict.set_item("column", self.column)?;
        dict.set_item("end_line", self.end_line)?;
        dict.set_item("end_column", self.end_column)?;
        Ok(dict)
    }
}

/// One problem found in the input: a stable code, a severity, one sentence, where it is,
/// related locations and an optional suggestion.
#[pyclass(frozen, eq, get_all, skip_from_py_object, module = "puccini_rs")]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The stable kebab-case code (`puccini-rs explain CODE` describes it).
    code: &'static str,
    /// `"error"` or `"warning"`.
    severity: &'static str,
    /// One sentence.
    message: String,
    /// The file: a path, a URL, or `archive!/entry` inside an archive.
    file: String,
    /// 1-based line of the first character.
    line: u32,
    /// 1-based column (in characters) of the first character.
    column: u32,
    /// Line of the end.
    end_line: u32,
    /// Column one past the last character.
    end_column: u32,
    /// A suggestion, if there is one.
    help: Option<String>,
    /// Related locations.
    labels: Vec<Label>,
}

impl Problem {
    /// The problem as Python sees it, positions resolved against `sources`.
    pub(crate) fn new(problem: &problem::Problem, sources: &SourceMap) -> Problem {
        let position = Position::of(problem.span, sources);
        Problem {
            code: problem.code.as_str(),
            severity: problem.severity.as_str(),
            message: for_python(&problem.message),
            file: position.file,
            line: position.line,
            column: position.column,
            end_line: position.end_line,
            end_column: position.end_column,
            help: problem.help.as_deref().map(for_python),
            labels: problem
                .labels
                .iter()
                .map(|label| {
                    let position = Position::of(label.span, sources);
                    Label {
                        message: for_python(&label.message),
                        file: position.file,
                        line: position.line,
                        column: position.column,
                        end_line: position.end_line,
                        end_column: position.end_column,
                    }
                })
                .collect(),
        }
    }

    /// The one problem of a source that could not be read at all (a missing file, a URL
    /// refused offline or unreachable): `import-failed` at the start of the source.
    pub(crate) fn unreadable(source: &Location, error: &LoadError) -> Problem {
        Problem {
            code: Code::ImportFailed.as_str(),
            severity: Severity::Error.as_str(),
            message: for_python(&error.to_string()),
            file: source.display(),
            line: 1,
            column: 1,
            end_line: 1,
            end_column: 1,
            help: error.help().map(for_python),
            labels: Vec::new(),
        }
    }

    /// Whether this problem is an error (not a warning).
    pub(crate) fn is_error(&self) -> bool {
        self.severity == Severity::Error.as_str()
    }
}

/// The compiler's words for the command line's options, and the keyword arguments that say the
/// same in Python, in the order they are replaced (longer spellings first).
const KEYWORDS: [(&str, &str); 7] = [
    ("--map-url (LoaderOptions::map_urls) or put its text in LoaderOptions::overlay", "map_urls"),
    ("--network-deadline SECONDS", "network_deadline=SECONDS"),
    ("--profile-path DIR", "profile_paths=[DIR]"),
    ("--profile-path", "profile_paths"),
    ("(--offline)", "(offline=True)"),
    ("--map-url", "map_urls"),
    ("--timeout", "timeout"),
];

/// A message or help of the compiler as a Python user reads it: the command line's options
/// (`--map-url`, `--profile-path`, `--quirk NAME`, …) named as the keyword arguments of
/// `compile` and `validate` (`map_urls`, `profile_paths`, `quirks=["NAME"]`, …).
pub(crate) fn for_python(text: &str) -> String {
    let mut text = KEYWORDS.iter().fold(text.to_owned(), |text, (option, keyword)| text.replace(option, keyword));
    let mut rewritten = String::with_capacity(text.len());
    while let Some(at) = text.find("--quirk ") {
        let rest = &text[at + "--quirk ".len()..];
        let name_end = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '-')).unwrap_or(rest.len());
        let name = &rest[..name_end];
        rewritten.push_str(&text[..at]);
        if name.is_empty() || name == "help" {
            // `--quirk help` is the command line's list of quirks: said as it is.
            rewritten.push_str("--quirk ");
            text = rest.to_owned();
        } else {
            rewritten.push_str(&format!("quirks=[\"{name}\"]"));
            text = rest[name_end..].to_owned();
        }
    }
    rewritten.push_str(&text);
    rewritten
}

#[pymethods]
impl Problem {
    fn __repr__(&self) -> String {
        format!(
            "Problem(code={:?}, severity={:?}, message={:?}, file={:?}, line={}, column={})",
            self.code, self.severity, self.message, self.file, self.line, self.column
        )
    }

    /// `file:line:column: severity[code]: message`, as the command line prints it.
    fn __str__(&self) -> String {
        format!("{}:{}:{}: {}[{}]: {}", self.file, self.line, self.column, self.severity, self.code, self.message)
    }

    /// The problem as a plain dict, with the keys of `puccini-rs validate --format json`
    /// (`code`, `severity`, `message`, `file`, `line`, `column`, `end_line`, `end_column`,
    /// `labels`, `help`): ready for `json.dumps`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        dict.set_item("code", self.code)?;
        dict.set_item("severity", self.severity)?;
        dict.set_item("message", &self.message)?;
        dict.set_item("file", &self.file)?;
        dict.set_item("line", self.line)?;
        dict.set_item("column", self.column)?;
        dict.set_item("end_line", self.end_line)?;
        dict.set_item("end_column", self.end_column)?;
        let labels = self.labels.iter().map(|label| label.to_dict(py)).collect::<PyResult<Vec<_>>>()?;
        dict.set_item("labels", labels)?;
        dict.set_item("help", &self.help)?;
        Ok(dict)
    }
}

#[cfg(test)]
mod tests {
    use super::for_python;

    #[test]
    fn the_command_lines_options_are_named_as_keyword_arguments() {
        assert_eq!(
            for_python("cannot fetch u: network access is disabled (--offline); map it to a local copy with --map-url"),
            "cannot fetch u: network access is disabled (offline=True); map it to a local copy with map_urls"
        );
        assert_eq!(
            for_python("write `true` (`--quirk yaml-1-1-booleans` accepts it as a warning)"),
            "write `true` (`quirks=[\"yaml-1-1-booleans\"]` accepts it as a warning)"
        );
        assert_eq!(
            for_python("unknown quirk (`--quirk help` lists them)"),
            "unknown quirk (`--quirk help` lists them)"
        );
        assert_eq!(
            for_python("give a folder of profiles with --profile-path DIR"),
            "give a folder of profiles with profile_paths=[DIR]"
        );
    }
}
