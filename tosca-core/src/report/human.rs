//! Problems for people, in the style of rustc: a title with the code, the source lines with
//! carets and labels (related locations may be in other files), a `help:` line, and a summary.
//!
//! The cost is linear in the problems: each one's snippet is built within fixed bounds (see
//! [`snippet`]), each file's line starts are indexed once, and after
//! `max_similar` problems of the same code, severity and message shape (the message with its
//! quoted names and its numbers left out) in one file, the others of that run are counted in
//! one note instead of being shown. Every problem is still counted in the summary, and the
//! JSON, SARIF and GitHub formats list every one.

use std::collections::{BTreeSet, HashMap};
use std::io::{BufWriter, Write};

use crate::problem::{Code, Problem, Severity};
use crate::source::{SourceId, SourceMap};
use annotate_snippets::{Group, Level, Renderer};

use super::escape::escape_unsafe;
use super::lines::Lines;
use super::shared::Shared;
use super::snippet::{self, Cost};
use super::{AsInput, Totals};

/// How many problems of one shape in one file are shown by default (`--max-similar`).
pub const DEFAULT_MAX_SIMILAR: usize = 10;

/// Renders problems; colour is decided by the caller (a terminal, and `NO_COLOR` unset).
pub struct Human {
    renderer: Renderer,
    max_similar: usize,
}

/// What a report showed, and what showing it cost.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rendered {
    /// Problems shown with their snippets.
    pub shown: usize,
    /// Problems counted in a "more like this" note instead.
    pub summarised: usize,
    /// The source handed to annotate-snippets.
    pub cost: Cost,
}

impl Rendered {
    fn add(&mut self, other: Rendered) {
        self.shown += other.shown;
        self.summarised += other.summarised;
        self.cost.add(other.cost);
    }
}

impl Human {
    /// A renderer, with ANSI colours or without, showing [`DEFAULT_MAX_SIMILAR`] problems of
    /// one shape per file.
    pub fn new(colour: bool) -> Human {
        Human {
            renderer: if colour { Renderer::styled() } else { Renderer::plain() },
            max_similar: DEFAULT_MAX_SIMILAR,
        }
    }

    /// Shows at most `max` problems of one shape per file (0: every problem).
    pub fn max_similar(mut self, max: usize) -> Human {
        self.max_similar = max;
        self
    }

    /// Writes every problem of every input, each input's I/O failure to `errors`, then the
    /// summary. A problem several inputs share is written once, under the first of them, with a
    /// note naming the others.
    pub fn write_all(
        &self,
        checked: &[impl AsInput],
        out: &mut dyn Write,
        errors: &mut dyn Write,
    ) -> std::io::Result<Rendered> {
        let mut out = BufWriter::new(out);
        let mut rendered = Rendered::default();
        let mut files = BTreeSet::new();
        let shared = Shared::of(checked);
        for (index, item) in checked.iter().enumerate() {
            match item.as_input().outcome {
                Ok(compiled) => {
                    let mut listed = Vec::with_capacity(compiled.problems.len());
                    let mut notes = Vec::with_capacity(compiled.problems.len());
                    for (number, problem) in compiled.problems.iter().enumerate() {
                        if shared.is_listed(index, number) {
                            listed.push(problem);
                            notes.push(shared.note(index, number));
                        }
                    }
                    rendered.add(self.write_listed(&listed, &notes, &compiled.sources, &mut out)?);
                    files.extend(listed.iter().map(|problem| compiled.sources.name(problem.span.source)));
                }
                Err(error) => {
                    out.flush()?;
                    writeln!(errors, "puccini-rs: {}", escape_unsafe(error))?;
                }
            }
        }
        if let Some(line) = summary(Totals::with(checked, &shared), files.len(), rendered.summarised) {
            writeln!(out, "{line}")?;
        }
        out.flush()?;
        Ok(rendered)
    }

    /// Writes the problems of one compilation and, if there are any, the summary.
    pub fn write_report(
        &self,
        problems: &[Problem],
        sources: &SourceMap,
        out: &mut dyn Write,
    ) -> std::io::Result<Rendered> {
        self.write_counted(problems, sources, 0, out)
    }

    /// Writes the problems of `compiled` and the summary, which counts the problems allowed
    /// (then written even when no problem is left: `no problems shown (3 allowed)`).
    pub fn write_compiled(&self, compiled: &crate::Compiled, out: &mut dyn Write) -> std::io::Result<Rendered> {
        self.write_counted(&compiled.problems, &compiled.sources, compiled.allowed, out)
    }

    fn write_counted(
        &self,
        problems: &[Problem],
        sources: &SourceMap,
        allowed: usize,
        out: &mut dyn Write,
    ) -> std::io::Result<Rendered> {
        let mut out = BufWriter::new(out);
        let rendered = self.write_problems(problems, sources, &mut out)?;
        let mut totals = Totals { allowed, ..Totals::default() };
        for problem in problems {
            match problem.severity {
                Severity::Error => totals.errors += 1,
                Severity::Warning => totals.warnings += 1,
            }
        }
        let files: BTreeSet<String> = problems.iter().map(|problem| sources.name(problem.span.source)).collect();
        match summary(totals, files.len(), rendered.summarised) {
            Some(line) => writeln!(out, "{line}")?,
            None if allowed > 0 => writeln!(out, "no problems shown ({allowed} allowed)")?,
            None => {}
        }
        out.flush()?;
        Ok(rendered)
    }

    /// Writes each problem followed by a blank line, and after the last one shown of a run of
    /// similar ones, a note counting the rest.
    pub fn write_problems(
        &self,
        problems: &[Problem],
        sources: &SourceMap,
        out: &mut dyn Write,
    ) -> std::io::Result<Rendered> {
        let listed: Vec<&Problem> = problems.iter().collect();
        self.write_listed(&listed, &vec![None; listed.len()], sources, out)
    }

    /// [`write_problems`](Human::write_problems) for the problems listed under one input, each
    /// with the note its sharing adds (`notes[i]` for `problems[i]`).
    fn write_listed(
        &self,
        problems: &[&Problem],
        notes: &[Option<String>],
        sources: &SourceMap,
        out: &mut dyn Write,
    ) -> std::io::Result<Rendered> {
        let mut rendered = Rendered::default();
        let mut lines = Lines::new(sources);
        let runs = Runs::of(problems, self.max_similar);
        let mut seen = vec![0; runs.totals.len()];
        for ((problem, &run), note) in problems.iter().zip(&runs.of_problem).zip(notes) {
            seen[run] += 1;
            if self.max_similar > 0 && seen[run] > self.max_similar {
                rendered.summarised += 1;
                continue;
            }
            let mut group = snippet::group(problem, &mut lines, &mut rendered.cost);
            if let Some(note) = note {
                group = group.element(Level::NOTE.message(escape_unsafe(note).into_owned()));
            }
            writeln!(out, "{}\n", self.renderer.render(&[group]))?;
            rendered.shown += 1;
            let more = runs.totals[run] - seen[run];
            if self.max_similar > 0 && seen[run] == self.max_similar && more > 0 {
                let file = escape_unsafe(&sources.name(problem.span.source)).into_owned();
                let note = format!(
                    "{more} more problem{} like this one in {file} {} not shown (`--max-similar 0` shows every \
                     problem; `--format json` lists them)",
                    if more == 1 { "" } else { "s" },
                    if more == 1 { "is" } else { "are" },
                );
                writeln!(out, "{}\n", self.renderer.render(&[Group::with_title(Level::NOTE.primary_title(note))]))?;
            }
        }
        Ok(rendered)
    }
}

/// The run of similar problems each problem belongs to, and each run's size.
struct Runs {
    of_problem: Vec<usize>,
    totals: Vec<usize>,
}

impl Runs {
    /// Problems are similar when they are in one file, with one code and severity, and their
    /// messages differ only in quoted names and numbers. With no limit, each is its own run.
    fn of(problems: &[&Problem], max_similar: usize) -> Runs {
        if max_similar == 0 {
            return Runs { of_problem: (0..problems.len()).collect(), totals: vec![1; problems.len()] };
        }
        let mut ids: HashMap<(SourceId, Code, Severity, String), usize> = HashMap::new();
        let mut runs = Runs { of_problem: Vec::with_capacity(problems.len()), totals: Vec::new() };
        for problem in problems {
            let key = (problem.span.source, problem.code, problem.severity, shape(&problem.message));
            let next = ids.len();
            let id = *ids.entry(key).or_insert(next);
            if id == runs.totals.len() {
                runs.totals.push(0);
            }
            runs.totals[id] += 1;
            runs.of_problem.push(id);
        }
        runs
    }
}

/// A message without what varies between problems of one kind: text in backticks becomes
/// `` `…` `` and each run of digits `#`.
fn shape(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut quoted = false;
    let mut digits = false;
    for c in message.chars() {
        if c == '`' {
            if !quoted {
                out.push_str("`…`");
            }
            quoted = !quoted;
            digits = false;
        } else if quoted {
        } else if c.is_ascii_digit() {
            if !digits {
                out.push('#');
            }
            digits = true;
        } else {
            out.push(c);
            digits = false;
        }
    }
    out
}

/// `3 errors, 1 warning in 2 files`, with how many similar problems were not shown, how many
/// repeats of problems several inputs share and how many were allowed, or nothing when there is
/// no problem.
pub fn summary(totals: Totals, files: usize, summarised: usize) -> Option<String> {
    let mut counts = Vec::new();
    if totals.errors > 0 {
        counts.push(plural(totals.errors, "error"));
    }
    if totals.warnings > 0 {
        counts.push(plural(totals.warnings, "warning"));
    }
    if counts.is_empty() {
        return None;
    }
    let mut line = format!("{} in {}", counts.join(", "), plural(files, "file"));
    let mut notes = Vec::new();
    if summarised > 0 {
        notes.push(format!("{summarised} similar not shown"));
    }
    notes.extend(repeats(totals));
    notes.extend(allowed(totals));
    if !notes.is_empty() {
        line.push_str(&format!(" ({})", notes.join("; ")));
    }
    Some(line)
}

/// `5 more in other inputs sharing a file, each listed once`, or nothing when no input repeats
/// another's problem.
pub fn repeats(totals: Totals) -> Option<String> {
    (totals.repeated > 0).then(|| format!("{} more in other inputs sharing a file, each listed once", totals.repeated))
}

/// `3 allowed`: the problems hidden by their level or an inline allow, or nothing when none was.
pub fn allowed(totals: Totals) -> Option<String> {
    (totals.allowed > 0).then(|| format!("{} allowed", totals.allowed))
}

fn plural(count: usize, word: &str) -> String {
    if count == 1 { format!("1 {word}") } else { format!("{count} {word}s") }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_leave_out_names_and_numbers() {
        assert_eq!(
            shape("`99` must be less than 10 (constraint `less_than`)"),
            "`…` must be less than # (constraint `…`)"
        );
        assert_eq!(shape("node template `n` has no property `k12`"), shape("node template `m` has no property `x`"));
        assert_ne!(shape("duplicate key `a`"), shape("unknown key `a`"));
        assert_eq!(shape("unclosed `quote"), "unclosed `…`");
    }
}
