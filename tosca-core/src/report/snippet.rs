//! One problem as an annotate-snippets [`Group`], at a cost bounded whatever the problem and
//! its file look like. annotate-snippets works on the text it is handed, so the text handed
//! over is kept small:
//!
//! - only the lines of each mark (the primary span and each label), in excerpts: marks at
//!   most [`GAP`] lines apart share one, the lines between them left empty where
//!   annotate-snippets folds them (`...`), and marks further apart get one each (`:::`), so a
//!   constraint declared 4,000 lines above its violation costs two lines, not 4,000;
//! - a mark over more than [`MAX_MARK_LINES`] lines is shown by its first line;
//! - each line is cut [`LINE_BYTES`] bytes in, and a mark starting more than [`MAX_COLUMN`]
//!   bytes into its line is not shown but located (`--> file:line:column` for the primary, a
//!   note for a label), so 20,000 problems on one 200 KB line cost 20,000 short excerpts;
//! - at most [`MAX_LABELS`] labels are shown, the others counted in a note;
//! - at most [`MAX_SOURCE_BYTES`] bytes of source per problem, excerpts past it located only.
//!
//! Every limit bounds what is shown, never what is reported: the JSON, SARIF and GitHub
//! formats give every label and full range. Template text is escaped (see
//! [`escape`](super::escape)) in titles, labels, help, paths and source lines alike.

use std::borrow::Cow;

use crate::problem::{Problem, Severity};
use crate::source::{SourceId, Span};
use annotate_snippets::{AnnotationKind, Group, Level, Origin, Snippet};

use super::escape::{escape_unsafe, escape_where, is_unsafe};
use super::lines::Lines;

/// Marks at most this many lines apart share one excerpt (annotate-snippets folds the lines
/// between them, which are handed over empty); further apart, each gets its own.
pub const GAP: usize = 50;

/// A mark spanning more lines is shown by its first line.
pub const MAX_MARK_LINES: usize = 12;

/// A mark starting further into its line (in bytes) is located, not shown.
pub const MAX_COLUMN: usize = 1024;

/// Each line of an excerpt is cut after this many bytes (then ends with `...`).
pub const LINE_BYTES: usize = MAX_COLUMN + 256;

/// Labels shown per problem; the others are counted in a note.
pub const MAX_LABELS: usize = 16;

/// Source bytes handed to annotate-snippets per problem; excerpts past it are located only.
pub const MAX_SOURCE_BYTES: usize = 16 * 1024;

/// What building one group cost: the excerpts made and the source bytes and lines in them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cost {
    /// Excerpts of source handed over (one annotate-snippets `Snippet` each).
    pub excerpts: usize,
    /// Source lines in them.
    pub lines: usize,
    /// Bytes of source in them.
    pub bytes: usize,
}

impl Cost {
    /// Adds `other` to this cost.
    pub fn add(&mut self, other: Cost) {
        self.excerpts += other.excerpts;
        self.lines += other.lines;
        self.bytes += other.bytes;
    }
}

/// A span to show: the primary one (no label) or a label.
#[derive(Clone, Copy)]
struct Mark<'p> {
    span: Span,
    label: Option<&'p str>,
}

/// A mark placed in its file: 0-based lines and byte offsets, the end already clipped.
struct Placed<'p> {
    mark: Mark<'p>,
    line: usize,
    end_line: usize,
    start: usize,
    end: usize,
}

/// The group of `problem`: title, excerpts, notes locating what is not shown, help.
pub fn group<'p>(problem: &'p Problem, lines: &mut Lines<'_>, cost: &mut Cost) -> Group<'p> {
    let level = match problem.severity {
        Severity::Error => Level::ERROR,
        Severity::Warning => Level::WARNING,
    };
    let mut group = Group::with_title(level.primary_title(escape_unsafe(&problem.message)).id(problem.code.as_str()));
    let mut marks = vec![Mark { span: problem.span, label: None }];
    marks.extend(
        problem
            .labels
            .iter()
            .take(MAX_LABELS)
            .map(|label| Mark { span: label.span, label: Some(label.message.as_str()) }),
    );
    // Files in order of first mention, so the primary location's file comes first.
    let mut files: Vec<SourceId> = Vec::new();
    for mark in &marks {
        if !files.contains(&mark.span.source) {
            files.push(mark.span.source);
        }
    }
    // Marks not shown, each with whether its line was too long to show.
    let mut located: Vec<(Mark<'p>, bool)> = Vec::new();
    let mut excerpts = Vec::new();
    let mut budget = MAX_SOURCE_BYTES;
    for source in files {
        let Some((file, index)) = lines.file(source) else {
            located.extend(marks.iter().filter(|mark| mark.span.source == source).map(|mark| (*mark, false)));
            continue;
        };
        let text: &str = &file.text;
        let mut placed: Vec<Placed<'p>> = Vec::new();
        for mark in marks.iter().copied().filter(|mark| mark.span.source == source) {
            match place(mark, text, &index) {
                Some(mark) => placed.push(mark),
                None => located.push((mark, true)),
            }
        }
        placed.sort_by_key(|placed| (placed.line, placed.mark.label.is_some()));
        let mut clusters = clusters(placed);
        // The primary mark's excerpt first: annotate-snippets heads the group with its place,
        // and it is never the one left without budget.
        if let Some(at) = clusters.iter().position(|cluster| cluster.iter().any(|placed| placed.mark.label.is_none())) {
            let primary = clusters.remove(at);
            clusters.insert(0, primary);
        }
        let name = escape_unsafe(&file.name).into_owned();
        for cluster in clusters {
            let first = cluster.iter().map(|placed| placed.line).min().unwrap_or(0);
            let last = cluster.iter().map(|placed| placed.end_line).max().unwrap_or(first);
            let (source_text, offsets) = excerpt(text, &index, first, last, &shown_lines(&cluster));
            let bytes = source_text.len();
            if bytes > budget {
                located.extend(cluster.iter().map(|placed| (placed.mark, false)));
                continue;
            }
            budget -= bytes;
            let mut snippet = Snippet::source(source_text).line_start(first + 1).path(name.clone());
            for placed in &cluster {
                let begin = offsets.map(text, placed.line, placed.start);
                let end = offsets.map(text, placed.end_line, placed.end).max(begin);
                let annotation = match placed.mark.label {
                    None => AnnotationKind::Primary.span(begin..end),
                    Some(label) => AnnotationKind::Context.span(begin..end).label(escape_unsafe(label)),
                };
                snippet = snippet.annotation(annotation);
            }
            cost.add(Cost { excerpts: 1, lines: last - first + 1, bytes });
            excerpts.push(snippet);
        }
    }
    let mut notes = Vec::new();
    for (mark, long_line) in located {
        let Some(file) = lines.sources().get(mark.span.source) else { continue };
        let name = escape_unsafe(&file.name).into_owned();
        match mark.label {
            None => {
                // Heads the group, before any excerpt, as `--> file:line:column`.
                let origin = Origin::path(name).line(mark.span.line as usize).char_column(mark.span.column as usize);
                group = group.element(origin);
                if long_line {
                    notes.push(format!("line {} is too long to show", mark.span.line));
                }
            }
            Some(label) => {
                notes.push(format!("{} at {name}:{}:{}", escape_unsafe(label), mark.span.line, mark.span.column));
            }
        }
    }
    for snippet in excerpts {
        group = group.element(snippet);
    }
    for note in notes {
        group = group.element(Level::NOTE.message(note));
    }
    let hidden = problem.labels.len().saturating_sub(MAX_LABELS);
    if hidden > 0 {
        group = group.element(Level::NOTE.message(format!(
            "{hidden} more related location{} not shown (`--format json` lists every one)",
            if hidden == 1 { " is" } else { "s are" }
        )));
    }
    if let Some(help) = &problem.help {
        group = group.element(Level::HELP.message(escape_unsafe(help)));
    }
    group
}

/// `mark` in its file's lines, or `None` when it starts too far into its line to be shown.
fn place<'p>(mark: Mark<'p>, text: &str, index: &super::lines::LineIndex) -> Option<Placed<'p>> {
    let start = (mark.span.start as usize).min(text.len());
    let line = index.line_of(start);
    if start - index.line_start(line) > MAX_COLUMN {
        return None;
    }
    let mut end = (mark.span.end as usize).clamp(start, text.len());
    let mut end_line = index.line_of(end);
    if end_line - line >= MAX_MARK_LINES {
        end_line = line;
        end = index.line_end(line, text).max(start);
    }
    // Within the part of its last line that is shown.
    end = end.min(cut(text, index.line_start(end_line), index.line_end(end_line, text))).max(start);
    Some(Placed { mark, line, end_line, start, end })
}

/// Marks (sorted by line) grouped into excerpts: a mark joins the previous excerpt when it
/// starts at most [`GAP`] lines after that excerpt's last line.
fn clusters(placed: Vec<Placed<'_>>) -> Vec<Vec<Placed<'_>>> {
    let mut clusters: Vec<Vec<Placed<'_>>> = Vec::new();
    let mut last_line = 0;
    for mark in placed {
        match clusters.last_mut() {
            Some(cluster) if mark.line <= last_line + GAP => {
                last_line = last_line.max(mark.end_line);
                cluster.push(mark);
            }
            _ => {
                last_line = mark.end_line;
                clusters.push(vec![mark]);
            }
        }
    }
    clusters
}

/// Where line `line`'s shown part ends: at its end, or [`LINE_BYTES`] in (on a character
/// boundary).
fn cut(text: &str, start: usize, end: usize) -> usize {
    let mut cut = end.min(start + LINE_BYTES);
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    cut
}

/// Where each line of an excerpt starts in the excerpt's text.
struct Offsets {
    /// The excerpt's first line.
    first: usize,
    /// For each line: its start in the file, where its shown part ends in the file, and its
    /// start in the excerpt.
    starts: Vec<(usize, usize, usize)>,
}

impl Offsets {
    /// The excerpt offset of file offset `at` on `line` (clamped to the line's shown part).
    fn map(&self, text: &str, line: usize, at: usize) -> usize {
        let (file_start, cut, excerpt_start) = self.starts[line - self.first];
        let mut at = at.clamp(file_start, cut);
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        excerpt_start + escape_source(&text[file_start..at]).len()
    }
}

/// The lines of an excerpt annotate-snippets shows, as `(first, last)` ranges: those of each
/// mark, and a single line between two marks (two or more between are folded to `...`).
fn shown_lines(cluster: &[Placed<'_>]) -> Vec<(usize, usize)> {
    let mut ranges: Vec<(usize, usize)> = Vec::new();
    for placed in cluster {
        match ranges.last_mut() {
            // Overlapping, adjacent, or one line apart: that line is shown too.
            Some(last) if placed.line <= last.1 + 2 => last.1 = last.1.max(placed.end_line),
            _ => ranges.push((placed.line, placed.end_line)),
        }
    }
    ranges
}

/// Lines `first..=last` of `text`, each cut and escaped, joined by `\n`; the lines outside
/// `shown` are left empty (annotate-snippets folds them).
fn excerpt(
    text: &str,
    index: &super::lines::LineIndex,
    first: usize,
    last: usize,
    shown: &[(usize, usize)],
) -> (String, Offsets) {
    let mut out = String::new();
    let mut starts = Vec::with_capacity(last - first + 1);
    for line in first..=last {
        if line > first {
            out.push('\n');
        }
        let (start, end) = (index.line_start(line), index.line_end(line, text));
        if !shown.iter().any(|(from, to)| (*from..=*to).contains(&line)) {
            starts.push((start, start, out.len()));
            continue;
        }
        let cut = cut(text, start, end);
        starts.push((start, cut, out.len()));
        out.push_str(&escape_source(&text[start..cut]));
        if cut < end {
            out.push_str("...");
        }
    }
    (out, Offsets { first, starts })
}

/// A source line escaped like any template text (tabs are left to annotate-snippets).
fn escape_source(line: &str) -> Cow<'_, str> {
    escape_where(line, is_unsafe)
}

#[cfg(test)]
mod tests {
    use crate::problem::Code;
    use crate::source::SourceMap;
    use annotate_snippets::Renderer;

    use super::*;

    /// Renders one problem over `text` with its primary mark at `primary` and a label at
    /// `label` (both the first occurrence of a needle).
    fn render(text: &str, primary: &str, label: &str) -> (String, Cost) {
        let sources = SourceMap::new();
        let source = sources.add("a.yaml", text);
        let span = |needle: &str| {
            let at = text.find(needle).unwrap();
            let mut span = Span::at_offset(source, text, at);
            span.end = u32::try_from(at + needle.len()).unwrap();
            span
        };
        let problem = Problem::new(Code::InvalidValue, span(primary), "wrong").with_label(span(label), "here");
        let mut cost = Cost::default();
        let group = group(&problem, &mut Lines::new(&sources), &mut cost);
        (Renderer::plain().render(&[group]), cost)
    }

    #[test]
    fn lines_folded_between_near_marks_are_not_handed_over() {
        let filler: String = (0..30).map(|line| format!("  filler{line}: {}\n", "x".repeat(60))).collect();
        let text = format!("label: 1\n{filler}primary: 2\n");
        let (shown, cost) = render(&text, "primary", "label");
        let expected = "error[invalid-value]: wrong\n  --> a.yaml:32:1\n   |\n 1 | label: 1\n   | ----- here\n...\n32 \
                        | primary: 2\n   | ^^^^^^^";
        assert_eq!(shown, expected);
        assert_eq!(cost, Cost { excerpts: 1, lines: 32, bytes: "label: 1".len() + 30 + 1 + "primary: 2".len() });
    }
}
