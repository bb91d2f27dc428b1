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
//! Comments are read from the source text ([`comments`]), since the YAML reader drops them. An
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

use comments::{Comment, indent, is_blank_or_comment, line_starts, line_text};
use directive::Directive;

/// One code an allow comment names, and what it covers.
struct Allow {
    code: Code,
    /// Where the code is written, inside the comment.
    span: Span,
    /// The byte range of the file a problem's primary location must start in.
    covers: Range<usize>,
    /// Whether it suppressed a problem.
    used: bool,
    /// Whether it covered a problem of its code that is an error here (and so was kept).
    covered_an_error: bool,
}

/// Takes the problems of a compilation, sorted, and returns them without those an inline allow
/// suppresses, with an `unused-allow` warning for each allow that suppressed nothing or cannot
/// be read, sorted again; and how many problems were suppressed.
pub fn apply(problems: Vec<Problem>, sources: &SourceMap) -> (Vec<Problem>, usize) {
    let mut reports = Problems::new();
    let mut allows: HashMap<SourceId, Vec<Allow>> = HashMap::new();
    for id in sources.ids() {
        let Some(file) = sources.get(id) else { continue };
        if !file.text.contains(directive::MARKER) {
            continue;
        }
        let found = read_allows(id, &file.text, &mut reports);
        if !found.is_empty() {
            allows.insert(id, found);
        }
    }
    if allows.is_empty() && reports.is_empty() {
        return (problems, 0);
    }
    let mut kept = Problems::new();
    let mut allowed = 0;
    for problem in problems {
        let start = problem.span.start as usize;
        let mut suppressed = false;
        let covering = allows.get_mut(&problem.span.source).into_iter().flatten();
        for allow in covering.filter(|allow| allow.code == problem.code && allow.covers.contains(&start)) {
            if problem.severity == Severity::Warning {
                allow.used = true;
                suppressed = true;
            } else {
                allow.covered_an_error = true;
            }
        }
        if suppressed {
            allowed += 1;
        } else {
            kept.push(problem);
        }
    }
    for allow in allows.into_values().flatten().filter(|allow| !allow.used) {
        let name = allow.code.as_str();
        let problem = if allow.covered_an_error {
            Problem::new(Code::UnusedAllow, allow.span, format!("`{name}` is an error here, which cannot be allowed"))
                .with_help(ERROR_HELP)
        } else {
            Problem::new(Code::UnusedAllow, allow.span, format!("this allow of `{name}` suppresses nothing"))
                .with_help("remove it, or write it on the problem's line or on its own line right above the key that holds the problem")
        };
        reports.push(problem);
    }
    kept.extend(reports);
    (kept.into_sorted(sources), allowed)
}

/// Why an error cannot be allowed, and what to do instead.
const ERROR_HELP: &str = "an error means the template is wrong: fix it; `--quirk` accepts a known real-world deviation as a warning, and `--baseline` keeps existing problems out of the report";

/// The allows of one file, reporting what cannot be one.
fn read_allows(source: SourceId, text: &str, reports: &mut Problems) -> Vec<Allow> {
    let starts = line_starts(text);
    let span = |range: Range<usize>| {
        let mut span = Span::at_offset(source, text, range.start);
        span.end = u32::try_from(range.end).unwrap_or(u32::MAX);
        span
    };
    let mut allows = Vec::new();
    for comment in comments::comments(text) {
        let codes = match directive::read(&comment.text) {
            Directive::None => continue,
            Directive::Malformed(message, range) => {
                reports.push(Problem::new(Code::UnusedAllow, span(shift(&range, comment.start)), message));
                continue;
            }
            Directive::Allow(codes) => codes,
        };
        let Some(covers) = covered(text, &starts, &comment) else {
            let whole = comment.start..comment.start + comment.text.len();
            reports.push(
                Problem::new(Code::UnusedAllow, span(whole), "this allow stands above no key, so it covers nothing")
                    .with_help("write it on its own line right above the key that holds the problem, or after the value on the problem's line"),
            );
            continue;
        };
        for (name, range) in codes {
            let at = span(shift(&range, comment.start));
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
                    allows.push(Allow { code, span: at, covers: covers.clone(), used: false, covered_an_error: false })
                }
            }
        }
    }
    allows
}

fn shift(range: &Range<usize>, by: usize) -> Range<usize> {
    range.start + by..range.end + by
}

/// The byte range an allow comment covers: its line when it follows a value; on its own line,
/// the entry of the key below it (past any comment lines), or `None` when a blank line or the
/// end of the file comes first.
fn covered(text: &str, starts: &[usize], comment: &Comment) -> Option<Range<usize>> {
    let lines = starts.len() - 1;
    if !comment.own_line {
        return Some(starts[comment.line]..starts[comment.line + 1]);
    }
    let target =
        (comment.line + 1..lines).find(|&line| !line_text(text, starts, line).trim_start().starts_with('#'))?;
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
