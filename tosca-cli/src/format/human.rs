//! Problems for people, in the style of rustc: a title with the code, the source lines with
//! carets and labels (related locations may be in other files), a `help:` line, and a summary.

use std::collections::BTreeSet;
use std::io::Write;

use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};
use tosca_core::problem::{Problem, Severity};
use tosca_core::source::{SourceMap, Span};

use crate::check::{Checked, Totals};

/// Renders problems; colour is decided by the caller (a terminal, and `NO_COLOR` unset).
pub(crate) struct Human {
    renderer: Renderer,
}

impl Human {
    /// A renderer, with ANSI colours or without.
    pub(crate) fn new(colour: bool) -> Human {
        Human { renderer: if colour { Renderer::styled() } else { Renderer::plain() } }
    }

    /// Writes every problem of every input, each input's I/O failure to `errors`, then the summary.
    pub(crate) fn write_all(
        &self,
        checked: &[Checked],
        out: &mut dyn Write,
        errors: &mut dyn Write,
    ) -> std::io::Result<()> {
        let mut files = BTreeSet::new();
        for item in checked {
            match &item.outcome {
                Ok(compiled) => {
                    self.write_problems(&compiled.problems, &compiled.sources, out)?;
                    files.extend(compiled.problems.iter().map(|problem| compiled.sources.name(problem.span.source)));
                }
                Err(error) => writeln!(errors, "puccini-rs: {error}")?,
            }
        }
        if let Some(line) = summary(Totals::of(checked), files.len()) {
            writeln!(out, "{line}")?;
        }
        Ok(())
    }

    /// Writes the problems of one compilation and, if there are any, the summary.
    pub(crate) fn write_report(
        &self,
        problems: &[Problem],
        sources: &SourceMap,
        out: &mut dyn Write,
    ) -> std::io::Result<()> {
        self.write_problems(problems, sources, out)?;
        let mut totals = Totals::default();
        for problem in problems {
            match problem.severity {
                Severity::Error => totals.errors += 1,
                Severity::Warning => totals.warnings += 1,
            }
        }
        let files: BTreeSet<String> = problems.iter().map(|problem| sources.name(problem.span.source)).collect();
        if let Some(line) = summary(totals, files.len()) {
            writeln!(out, "{line}")?;
        }
        Ok(())
    }

    /// Writes each problem followed by a blank line.
    pub(crate) fn write_problems(
        &self,
        problems: &[Problem],
        sources: &SourceMap,
        out: &mut dyn Write,
    ) -> std::io::Result<()> {
        for problem in problems {
            writeln!(out, "{}\n", self.renderer.render(&[group(problem, sources)]))?;
        }
        Ok(())
    }
}

/// `3 errors, 1 warning in 2 files`, or nothing when there is no problem.
pub(crate) fn summary(totals: Totals, files: usize) -> Option<String> {
    let mut counts = Vec::new();
    if totals.errors > 0 {
        counts.push(plural(totals.errors, "error"));
    }
    if totals.warnings > 0 {
        counts.push(plural(totals.warnings, "warning"));
    }
    (!counts.is_empty()).then(|| format!("{} in {}", counts.join(", "), plural(files, "file")))
}

fn plural(count: usize, word: &str) -> String {
    if count == 1 { format!("1 {word}") } else { format!("{count} {word}s") }
}

/// One report group: the title, a snippet per file touched (the primary one first), help.
fn group<'a>(problem: &'a Problem, sources: &SourceMap) -> Group<'a> {
    let level = match problem.severity {
        Severity::Error => Level::ERROR,
        Severity::Warning => Level::WARNING,
    };
    let mut group = Group::with_title(level.primary_title(problem.message.as_str()).id(problem.code.as_str()));
    // Files in order of first mention, so the primary location's file comes first.
    let mut files = vec![problem.span.source];
    for label in &problem.labels {
        if !files.contains(&label.span.source) {
            files.push(label.span.source);
        }
    }
    for source in files {
        let mut marks: Vec<(Span, AnnotationKind, Option<&'a str>)> = Vec::new();
        if problem.span.source == source {
            marks.push((problem.span, AnnotationKind::Primary, None));
        }
        for label in problem.labels.iter().filter(|label| label.span.source == source) {
            marks.push((label.span, AnnotationKind::Context, Some(label.message.as_str())));
        }
        if let Some(snippet) = snippet(source, &marks, sources) {
            group = group.element(snippet);
        }
    }
    if let Some(help) = &problem.help {
        group = group.element(Level::HELP.message(help.as_str()));
    }
    group
}

/// The lines of one file that the marks cover, annotated; `None` for an unknown file.
fn snippet<'a>(
    source: tosca_core::source::SourceId,
    marks: &[(Span, AnnotationKind, Option<&'a str>)],
    sources: &SourceMap,
) -> Option<Snippet<'a, annotate_snippets::Annotation<'a>>> {
    let file = sources.get(source)?;
    let text: &str = &file.text;
    let first = marks.iter().map(|(span, ..)| *span).min_by_key(|span| span.start)?;
    let last_end = marks.iter().map(|(span, ..)| span.end as usize).max()?.min(text.len());
    // Only the covered lines are handed over, so a large file costs nothing per problem.
    let start = (first.start as usize).min(text.len());
    let from = text[..start].rfind('\n').map_or(0, |index| index + 1);
    let to = text[last_end..].find('\n').map_or(text.len(), |index| last_end + index);
    let mut snippet =
        Snippet::source(text[from..to].to_owned()).line_start(first.line as usize).path(file.name.clone());
    for (span, kind, label) in marks {
        let begin = (span.start as usize).clamp(from, to) - from;
        let end = (span.end as usize).clamp(from, to) - from;
        let mut annotation = (*kind).span(begin..end.max(begin));
        if let Some(label) = label {
            annotation = annotation.label(*label);
        }
        snippet = snippet.annotation(annotation);
    }
    Some(snippet)
}
