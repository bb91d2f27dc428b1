//! GitLab's Code Quality report (`validate --format gitlab`): one JSON array of issues, each
//! `{"description", "check_name", "fingerprint", "severity", "location": {"path", "lines":
//! {"begin"}}}`, the subset of the Code Climate issue that GitLab reads
//! (<https://docs.gitlab.com/ci/testing/code_quality/#code-quality-report-format>). A job
//! publishes it with `artifacts: reports: codequality:` and merge requests show the problems
//! inline.
//!
//! Severities: an error is `major`, a warning `minor`; an input that could not be read at all
//! is `blocker` (check name `puccini-rs`). Paths are relative to `--root`, as in SARIF and
//! GitHub annotations; a problem inside an archive entry or a built-in profile points at the
//! input's first line, the entry named in the description.
//!
//! The fingerprint is the baseline's ([`crate::baseline`]: the code, the file, the message and
//! the text at the problem, not its line), so GitLab keeps a problem as the same one when lines
//! move around it. GitLab shows one issue per fingerprint, so the second and later of identical
//! problems in one file get `-2`, `-3`… appended, in the order they are reported.

use std::collections::HashMap;
use std::io::Write;

use serde::Serialize;
use tosca_core::problem::Severity;
use tosca_core::report::escape::escape_unsafe;
use tosca_core::report::lines::Lines;
use tosca_core::report::location::{Position, Root};
use tosca_core::report::shared::Shared;

use crate::baseline;
use crate::check::Checked;

/// One Code Quality issue.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Issue {
    /// The message (an archive entry's or profile's location before it).
    pub description: String,
    /// The problem code (`puccini-rs` for an unreadable input).
    pub check_name: String,
    /// Stable across runs and moved lines, unique in the report.
    pub fingerprint: String,
    /// `info`, `minor`, `major`, `critical` or `blocker`.
    pub severity: &'static str,
    /// Where.
    pub location: IssueLocation,
}

/// Where an issue is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct IssueLocation {
    /// Relative to the root, `/`-separated.
    pub path: String,
    /// The lines.
    pub lines: IssueLines,
}

/// The first line of an issue.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct IssueLines {
    /// 1-based.
    pub begin: u32,
}

/// The GitLab severity of a problem's severity.
pub fn severity(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "major",
        Severity::Warning => "minor",
    }
}

/// The issues of `checked`: each problem once (a problem several inputs share under the first
/// of them), and a `blocker` per unreadable input.
pub fn issues(checked: &[Checked], root: &Root) -> Vec<Issue> {
    let shared = Shared::of(checked);
    let mut issues = Vec::new();
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut unique = |fingerprint: String| {
        let count = seen.entry(fingerprint.clone()).or_default();
        *count += 1;
        if *count == 1 { fingerprint } else { format!("{fingerprint}-{count}") }
    };
    for (index, item) in checked.iter().enumerate() {
        let compiled = match &item.outcome {
            Ok(compiled) => compiled,
            Err(error) => {
                let location = root.locate(
                    &Position { name: item.input.clone(), line: 1, column: 1, end_line: 1, end_column: 1 },
                    &item.input,
                );
                let fingerprint = baseline::fingerprint(&["puccini-rs", &location.path, error]);
                issues.push(Issue {
                    description: escape_unsafe(error).into_owned(),
                    check_name: "puccini-rs".to_owned(),
                    fingerprint: unique(fingerprint),
                    severity: "blocker",
                    location: IssueLocation { path: location.path, lines: IssueLines { begin: 1 } },
                });
                continue;
            }
        };
        let mut lines = Lines::new(&compiled.sources);
        for (number, problem) in compiled.problems.iter().enumerate() {
            if !shared.is_listed(index, number) {
                continue;
            }
            let location = root.locate(&Position::of(problem.span, &mut lines), &item.input);
            let description = match &location.inner {
                Some(inner) => format!("{}: {}", escape_unsafe(inner), escape_unsafe(&problem.message)),
                None => escape_unsafe(&problem.message).into_owned(),
            };
            let entry = baseline::entry(problem, compiled, root, &item.input);
            issues.push(Issue {
                description,
                check_name: problem.code.as_str().to_owned(),
                fingerprint: unique(entry.fingerprint),
                severity: severity(problem.severity),
                location: IssueLocation {
                    path: location.path,
                    lines: IssueLines { begin: location.region.map_or(1, |region| region.line.max(1)) },
                },
            });
        }
    }
    issues
}

/// Writes the report of `checked` as pretty JSON with a final newline (`[]` when clean).
pub fn write(checked: &[Checked], root: &Root, out: &mut dyn Write) -> std::io::Result<()> {
    let mut text = serde_json::to_string_pretty(&issues(checked, root)).map_err(std::io::Error::other)?;
    text.push('\n');
    out.write_all(text.as_bytes())
}
