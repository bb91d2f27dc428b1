//! Inline allows: a YAML comment `# puccini-rs: allow(code, …)` in any TOSCA file (the root,
//! an import, a profile) suppresses the warnings of those codes at its place, as clippy's
//! `#[allow]` and ruff's `# noqa` do.
//!
//! - After a value (`key: value  # puccini-rs: allow(code)`), it covers the problems whose
//!   primary location is on its line.
//! - On its own line, it covers the entry of the key on the next line (several allow comments
//!   may stand one above the other): the key's line and its value block, the following lines
//!   indented past the key (and blank and comment lines among them; a sequence written at the
//!   key's own indentation belongs to it too).
//!
//! Comments are read from the source text (`comments`), since the YAML reader drops them. An
//! allow that suppresses nothing is an `unused-allow` warning at its code, and so is a code
//! that does not exist (with a "did you mean"), a code whose problems are errors (an error means
//! the input is wrong: a quirk accepts a known real-world deviation, a baseline records the
//! existing problems, an allow never hides one) and a `# puccini-rs:` comment that cannot be
//! read. [`apply`] runs once every problem is known, right after the quirks.

mod comments;
mod directive;

use std::collections::HashMap;
use std::ops::Range;

use crate::problem::{Code, Problem, Problems, Severity};
use crate::source::{SourceId, SourceMap, Span};

use comments::{indent, is_blank_or_comment, line_starts, line_text};
use directive::Directive;

/// One code as an allow comment writes it.
struct Written {
    code: Code,
    /// Where the code is written, inside the comment.
    span: Span,
    /// Whether it suppressed a problem.
    used: bool,
    /// Whether it covered a problem of its code that is an error here (and so was kept).
    covered_an_error: bool,
}

/// A code allowed over a byte range of a file, by one or more written codes (allow comments
/// stacked above one key may repeat a code).
struct Cover {
    code: Code,
    /// The byte range a problem's primary location must start in.
    range: Range<usize>,
    /// The indices of the written codes in [`FileAllows::written`].
    written: Vec<usize>,
    /// Whether it suppressed a problem.
    used: bool,
    /// Whether it covered a problem of its code that is an error here (and so was kept).
    covered_an_error: bool,
}

/// The allows of one file.
#[derive(Default)]
struct FileAllows {
    written: Vec<Written>,
    /// Sorted by the start of their range.
    covers: Vec<Cover>,
}

/// Takes the problems of a compilation, sorted, and returns them without those an inline allow
/// suppresses, with an `unused-allow` warning for each allow that suppressed nothing or cannot
/// be read, sorted again; and how many problems were suppressed.
pub fn apply(problems: Vec<Problem>, sources: &SourceMap) -> (Vec<Problem>, usize) {
    let mut reports = Problems::new();
    let mut files: HashMap<SourceId, FileAllows> = HashMap::new();
    for id in sources.ids() {
        let Some(file) = sources.get(id) else { continue };
        if !file.text.contains(directive::MARKER) {
            continue;
        }
        let allows = read_allows(id, &file.text, &mut reports);
        if !allows.written.is_empty() {
            files.insert(id, allows);
        }
    }
    if files.is_empty() && reports.is_empty() {
        return (problems, 0);
    }
    let mut suppressed = vec![false; problems.len()];
    let mut by_file: HashMap<SourceId, Vec<usize>> = HashMap::new();
    for (index, problem) in problems.iter().enumerate() {
        if files.contains_key(&problem.span.source) {
            by_file.entry(problem.span.source).or_default().push(index);
        }
    }
    for (source, mut indices) in by_file {
        let Some(allows) = files.get_mut(&source) else { continue };
        indices.sort_by_key(|&index| problems[index].span.start);
        // A sweep in offset order: `active` holds the covers whose range has begun and, once
        // pruned, contains the problem's start (nested entries, so few at a time).
        let mut active: Vec<usize> = Vec::new();
        let mut next = 0;
        for index in indices {
            let problem = &problems[index];
            let start = problem.span.start as usize;
            while next < allows.covers.len() && allows.covers[next].range.start <= start {
                active.push(next);
                next += 1;
            }
            active.retain(|&cover| allows.covers[cover].range.end > start);
            for &cover in &active {
                let cover = &mut allows.covers[cover];
                if cover.code != problem.code {
                    continue;
                }
                if problem.severity == Severity::Warning {
                    cover.used = true;
                    suppressed[index] = true;
                } else {
                    cover.covered_an_error = true;
                }
            }
        }
    }
    for allows in files.values_mut() {
        for cover in &allows.covers {
            for &written in &cover.written {
                allows.written[written].used |= cover.used;
                allows.written[written].covered_an_error |= cover.covered_an_error;
            }
        }
    }
    let allowed = suppressed.iter().filter(|suppressed| **suppressed).count();
    for written in files.into_values().flat_map(|allows| allows.written).filter(|written| !written.used) {
        let name = written.code.as_str();
        let problem = if written.covered_an_error {
            Problem::new(Code::UnusedAllow, written.span, format!("`{name}` is an error here, which cannot be allowed"))
                .with_help(ERROR_HELP)
        } else {
            Problem::new(Code::UnusedAllow, written.span, format!("this allow of `{name}` suppresses nothing"))
                .with_help("remove it, or write it on the problem's line or on its own line right above the key that holds the problem")
        };
        reports.push(problem);
    }
    let mut kept = Problems::new();
    for (problem, suppressed) in problems.into_iter().zip(suppressed) {
        if !suppressed {
            kept.push(problem);
        }
    }
    kept.extend(reports);
    (kept.into_sorted(sources), allowed)
}

/// Why an error cannot be allowed, and what to do instead.
const ERROR_HELP: &str = "an error means the template is wrong: fix it; `--quirk` accepts a known real-world deviation as a warning, and `--baseline` keeps existing problems out of the report";

/// The allows of one file, reporting what cannot be one.
fn read_allows(source: SourceId, text: &str, reports: &mut Problems) -> FileAllows {
    let starts = line_starts(text);
    let lines = starts.len() - 1;
    // The span of a byte range on a line, its column counted from the line's start.
    let span = |line: usize, range: Range<usize>| {
        let column = text[starts[line]..range.start].chars().count() + 1;
        Span {
            source,
            start: u32::try_from(range.start).unwrap_or(u32::MAX),
            end: u32::try_from(range.end).unwrap_or(u32::MAX),
            line: u32::try_from(line + 1).unwrap_or(u32::MAX),
            column: u32::try_from(column).unwrap_or(u32::MAX),
        }
    };
    // For each line, the first line from it on that is not a comment line (or `lines`).
    let mut below = vec![lines; lines + 1];
    for line in (0..lines).rev() {
        let comment = line_text(text, &starts, line).trim_start().starts_with('#');
        below[line] = if comment { below[line + 1] } else { line };
    }
    let mut entries: HashMap<usize, Option<Range<usize>>> = HashMap::new();
    let mut allows = FileAllows::default();
    let mut cover_of: HashMap<(Code, usize, usize), usize> = HashMap::new();
    for comment in comments::comments(text) {
        let codes = match directive::read(&comment.text) {
            Directive::None => continue,
            Directive::Malformed(message, range) => {
                reports.push(Problem::new(
                    Code::UnusedAllow,
                    span(comment.line, shift(&range, comment.start)),
                    message,
                ));
                continue;
            }
            Directive::Allow(codes) => codes,
        };
        let covered = if comment.own_line {
            let target = below[comment.line + 1];
            entries.entry(target).or_insert_with(|| entry(text, &starts, target)).clone()
        } else {
            Some(starts[comment.line]..starts[comment.line + 1])
        };
        let Some(covered) = covered else {
            let whole = comment.start..comment.start + comment.text.len();
            reports.push(
                Problem::new(Code::UnusedAllow, span(comment.line, whole), "this allow stands above no key, so it covers nothing")
                    .with_help("write it on its own line right above the key that holds the problem, or after the value on the problem's line"),
            );
            continue;
        };
        for (name, range) in codes {
            let at = span(comment.line, shift(&range, comment.start));
            match Code::from_name(&name) {
                None => reports.push(
                    Problem::new(
                        Code::UnusedAllow,
                        at,
                        format!("`{name}` is not a problem code, so this allow suppresses nothing"),
                    )
                    .with_nearest(&name, Code::ALL.iter().map(|code| code.as_str())),
                ),
                Some(code) if code.severity() == Severity::Error => reports.push(
                    Problem::new(Code::UnusedAllow, at, format!("`{name}` is an error, which cannot be allowed"))
                        .with_help(ERROR_HELP),
                ),
                Some(code) => {
                    let written = allows.written.len();
                    allows.written.push(Written { code, span: at, used: false, covered_an_error: false });
                    let cover = *cover_of.entry((code, covered.start, covered.end)).or_insert_with(|| {
                        allows.covers.push(Cover {
                            code,
                            range: covered.clone(),
                            written: Vec::new(),
                            used: false,
                            covered_an_error: false,
                        });
                        allows.covers.len() - 1
                    });
                    allows.covers[cover].written.push(written);
                }
            }
        }
    }
    allows.covers.sort_by_key(|cover| cover.range.start);
    allows
}

fn shift(range: &Range<usize>, by: usize) -> Range<usize> {
    range.start + by..range.end + by
}

/// The byte range of the entry of the key on line `target` (0-based): the key's line and the
/// lines after it indented past it (blank and comment lines among them; a sequence written at
/// the key's own indentation belongs to it too). `None` when the line is blank or past the end.
fn entry(text: &str, starts: &[usize], target: usize) -> Option<Range<usize>> {
    let lines = starts.len() - 1;
    if target >= lines {
        return None;
    }
    let key = line_text(text, starts, target);
    if key.trim().is_empty() {
        return None;
    }
    let key_indent = indent(key);
    let in_sequence = is_sequence_entry(&key[key_indent..]);
    let mut last = target;
    for line in target + 1..lines {
        let content = line_text(text, starts, line);
        if is_blank_or_comment(content) {
            continue;
        }
        let line_indent = indent(content);
        let same_level_sequence =
            !in_sequence && line_indent == key_indent && is_sequence_entry(&content[line_indent..]);
        if line_indent > key_indent || same_level_sequence {
            last = line;
        } else {
            break;
        }
    }
    Some(starts[target]..starts[last + 1])
}

/// Whether a line (its indentation left out) starts a block sequence entry.
fn is_sequence_entry(line: &str) -> bool {
    line == "-" || line.starts_with("- ") || line.starts_with("-\t")
}

#[cfg(test)]
mod tests;
