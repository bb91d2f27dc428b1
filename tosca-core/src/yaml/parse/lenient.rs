//! Accepting, with a warning, the under-indented continuation lines that libyaml accepts.
//!
//! YAML 1.2 wants every continuation line of a flow collection or a quoted scalar indented past
//! the block collection that holds it; libyaml (PyYAML, tosca-parser, Tacker) and go-yaml
//! (Puccini) do not check, and files written for them rely on it: the ETSI NFV SOL001 types
//! shipped in nearly every Tacker package continue a `valid_values` list at column 1. saphyr
//! rejects such a line and loses the rest of the file.
//!
//! The mechanism pays only on the error path: a text saphyr accepts is parsed once, as before.
//! When saphyr stops at such a line, the text is copied with the offending lines indented
//! (spaces inserted at their start) and parsed again. That changes no value: the leading white
//! space of a continuation line inside a flow collection or a quoted scalar is not content.
//! The copy's positions are mapped back to the original text ([`Inserted`]), so every span and
//! problem points at what was written, and each indented line gets one
//! [`Code::YamlUnderIndented`] warning.
//!
//! A retry indents every line of the construct that saphyr is sure to reject for the same
//! reason (so a list of thousands of lines at column 1 costs one retry, not thousands), and each
//! retry indents at least one line that was not indented before, after the line the previous
//! retry fixed; a line that is still rejected once indented stays an error. The number of
//! retries is capped by a budget of bytes parsed again and of aliases expanded again
//! ([`Budget`]); past it the error stays an error and says why.

use std::collections::BTreeMap;

use super::{Expanded, Failure};
use crate::problem::{Code, Problem, Problems};
use crate::source::{SourceId, Span};

/// The messages saphyr gives for a line indented less than its block wants.
const FLOW_INDENTATION: [&str; 2] = ["invalid indentation", "invalid indentation in flow construct"];
const QUOTED_INDENTATION: &str = "invalid indentation in quoted scalar";

/// How many bytes of text all retries of one file may parse again together, at least.
const RETRY_BUDGET: usize = 64 * 1024 * 1024;

/// How much alias expansion all parses of one file may do together, counted as the bytes of
/// text copied plus [`NODE_COST`] for each node: every retry expands the aliases again, so a
/// file near the alias limits with many under-indented lines would otherwise take minutes.
const EXPANSION_BUDGET: usize = 64 * 1024 * 1024;

/// What expanding one node costs in [`EXPANSION_BUDGET`], about its size in the tree.
const NODE_COST: usize = 64;

/// What retries of one file may still take.
pub(super) struct Budget {
    /// Retries left.
    retries: usize,
    /// Alias expansion done so far by every parse, in bytes (see [`EXPANSION_BUDGET`]).
    expansion: usize,
}

impl Budget {
    /// The budget of a text of `len` bytes: as many retries as fit the byte budget, within 16
    /// and 1,024.
    pub(super) fn new(len: usize) -> Budget {
        Budget { retries: (RETRY_BUDGET / len.max(1)).clamp(16, 1024), expansion: 0 }
    }

    /// A budget of `retries` retries.
    #[cfg(test)]
    pub(super) fn with_retries(retries: usize) -> Budget {
        Budget { retries, expansion: 0 }
    }

    /// Takes one retry after a parse that expanded `last`: `false` when no retry is left, or
    /// when another parse expanding as much would pass the expansion budget.
    pub(super) fn take(&mut self, last: Expanded) -> bool {
        let cost = last.bytes.saturating_add(last.nodes.saturating_mul(NODE_COST));
        self.expansion = self.expansion.saturating_add(cost);
        if self.retries == 0 || self.expansion.saturating_add(cost) > EXPANSION_BUDGET {
            return false;
        }
        self.retries -= 1;
        true
    }
}

/// What kind of construct a line continues (for the warning's message).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Flow,
    Quoted,
}

/// One line indented in the copy.
#[derive(Clone, Copy, Debug)]
pub(super) struct Pad {
    /// Spaces inserted at the start of the line.
    spaces: u32,
    /// How many characters indent the line in the original text.
    indent: u32,
    kind: Kind,
}

/// The lines indented so far, by 1-based line number, and the byte offset where each line of
/// the original text starts.
pub(super) struct Pads {
    lines: BTreeMap<u32, Pad>,
    starts: Vec<usize>,
}

/// Spaces inserted into the copy at a line start, for mapping the copy's character indexes
/// back to the original's.
#[derive(Clone, Copy, Debug)]
pub(super) struct Inserted {
    /// The character index in the copy where the spaces start.
    at: u32,
    /// How many spaces.
    spaces: u32,
    /// How many spaces were inserted before them.
    before: u32,
}

/// The character index in the original text of character `index` of the copy described by
/// `inserted` (in order). A character of inserted spaces maps to the start of its line.
pub(super) fn original_index(inserted: &[Inserted], index: u32) -> u32 {
    let after = inserted.partition_point(|insert| insert.at <= index);
    let Some(insert) = after.checked_sub(1).map(|at| inserted[at]) else { return index };
    if index < insert.at + insert.spaces { insert.at - insert.before } else { index - insert.before - insert.spaces }
}

impl Pads {
    /// No line indented yet, for `text`.
    pub(super) fn new(text: &str) -> Pads {
        let breaks = memchr::memchr_iter(b'\n', text.as_bytes()).map(|at| at + 1);
        Pads { lines: BTreeMap::new(), starts: std::iter::once(0).chain(breaks).collect() }
    }

    /// Whether no line is indented.
    pub(super) fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// The copy of `text` with every indented line's spaces inserted.
    pub(super) fn apply(&self, text: &str) -> String {
        let added: usize = self.lines.values().map(|pad| pad.spaces as usize).sum();
        let mut copy = String::with_capacity(text.len() + added);
        let mut from = 0;
        for (&line, pad) in &self.lines {
            let start = self.starts[line as usize - 1];
            copy.push_str(&text[from..start]);
            copy.extend(std::iter::repeat_n(' ', pad.spaces as usize));
            from = start;
        }
        copy.push_str(&text[from..]);
        copy
    }

    /// Where the copy's spaces are, in characters; `line_chars` gives the character index at
    /// which each line of the original starts.
    pub(super) fn inserted(&self, line_chars: &[u32]) -> Vec<Inserted> {
        let mut before = 0;
        let mut out = Vec::with_capacity(self.lines.len());
        for (&line, pad) in &self.lines {
            out.push(Inserted { at: line_chars[line as usize - 1] + before, spaces: pad.spaces, before });
            before += pad.spaces;
        }
        out
    }

    /// One warning per indented line, at its first character.
    pub(super) fn report(&self, source: SourceId, text: &str, problems: &mut Problems) {
        for (&line, pad) in &self.lines {
            let start = self.starts[line as usize - 1] + pad.indent as usize;
            let width = text[start..].chars().next().map_or(0, char::len_utf8);
            let span = Span { source, start: to_u32(start), end: to_u32(start + width), line, column: pad.indent + 1 };
            let what = match pad.kind {
                Kind::Flow => "a flow collection",
                Kind::Quoted => "a quoted scalar",
            };
            let message = format!(
                "not YAML 1.2: this continuation line of {what} is not indented past its block; accepted as libyaml does"
            );
            let help = "indent the line past the key or `-` that holds the value";
            problems.push(Problem::new(Code::YamlUnderIndented, span, message).with_help(help));
        }
    }

    /// The lines to indent so that saphyr gets past `failure`, or `None` when it is not a line
    /// libyaml accepts (or indenting it was tried already): then the error stays an error.
    pub(super) fn fix(&self, text: &str, failure: &Failure) -> Option<Vec<(u32, Pad)>> {
        if FLOW_INDENTATION.contains(&failure.info.as_str()) {
            self.fix_flow(text, failure)
        } else if failure.info == QUOTED_INDENTATION {
            self.fix_quoted(text, failure)
        } else {
            None
        }
    }

    /// A line inside a flow collection: saphyr rejects the first token of line `L` (the error's
    /// line), indented by `k` spaces, so it rejects every line of the collection after it that
    /// starts with a token no further in. Those are indented to the column of the outermost
    /// open bracket, past the block that holds it.
    fn fix_flow(&self, text: &str, failure: &Failure) -> Option<Vec<(u32, Pad)>> {
        let open = failure.flow?;
        let line = failure.at.line;
        let target = open.column - 1;
        let first = self.line(text, line);
        if line <= open.line || self.lines.contains_key(&line) || !first.content || first.tab || first.indent >= target
        {
            return None;
        }
        let pad = |indent: u32| Pad { spaces: target - indent, indent, kind: Kind::Flow };
        // Where the collection's end cannot be found, the one line saphyr named is indented.
        let lines = self.construct_lines(text, open).filter(|lines| lines.iter().any(|(number, _)| *number == line));
        let Some(lines) = lines else { return Some(vec![(line, pad(first.indent))]) };
        let fixed = lines
            .into_iter()
            .filter(|(number, info)| {
                *number >= line
                    && info.content
                    && !info.tab
                    && info.indent <= first.indent
                    && !self.lines.contains_key(number)
            })
            .map(|(number, info)| (number, pad(info.indent)))
            .collect();
        Some(fixed)
    }

    /// A quoted scalar: saphyr points at its opening quote and rejects a continuation line
    /// indented no further than the innermost open block mapping, or less than the innermost
    /// open block sequence (measured: `- "x` may go on at the column of its `-`). Every such
    /// line of the scalar is indented to the column of the quote.
    fn fix_quoted(&self, text: &str, failure: &Failure) -> Option<Vec<(u32, Pad)>> {
        let quote = failure.at;
        let (block, mapping) = failure.block?;
        let block = block.column - 1 + u32::from(mapping);
        let target = quote.column - 1;
        if target < block {
            return None;
        }
        let rejected: Vec<(u32, LineInfo)> = self
            .construct_lines(text, quote)?
            .into_iter()
            .filter(|(number, info)| info.content && info.indent < block && !self.lines.contains_key(number))
            .collect();
        // A tab in the indentation is another matter (PyYAML rejects it too).
        if rejected.is_empty() || rejected.iter().any(|(_, info)| info.tab) {
            return None;
        }
        let pad = |indent: u32| Pad { spaces: target - indent, indent, kind: Kind::Quoted };
        Some(rejected.into_iter().map(|(number, info)| (number, pad(info.indent))).collect())
    }

    /// Indents `fixed` lines.
    pub(super) fn add(&mut self, fixed: Vec<(u32, Pad)>) {
        self.lines.extend(fixed);
    }

    /// Takes back the indentation of `lines`.
    pub(super) fn remove(&mut self, lines: &[u32]) {
        for line in lines {
            self.lines.remove(line);
        }
    }

    /// Line `number` (1-based) of `text`, read outside any construct.
    fn line(&self, text: &str, number: u32) -> LineInfo {
        let start = self.starts.get(number as usize - 1).copied().unwrap_or(text.len());
        LineInfo::read(&text.as_bytes()[start..], false)
    }

    /// The lines after the first one of the flow collection or quoted scalar that starts at
    /// `open`, up to the one that closes it, by number; `None` when it does not close (the text
    /// ends, or a document marker starts a line).
    fn construct_lines(&self, text: &str, open: Span) -> Option<Vec<(u32, LineInfo)>> {
        let bytes = text.as_bytes();
        let mut scanner = Scanner::new(*bytes.get(open.start as usize)?)?;
        let mut lines = Vec::new();
        let mut number = open.line;
        let mut at = open.start as usize + 1;
        while at < bytes.len() {
            let byte = bytes[at];
            if byte == b'\n' {
                number += 1;
                let rest = &bytes[at + 1..];
                if rest.starts_with(b"---") || rest.starts_with(b"...") {
                    return None;
                }
                let info = LineInfo::read(rest, scanner.in_quotes());
                lines.push((number, info));
                at += 1;
                if !info.content && !info.blank {
                    // A comment line (which ends a plain scalar): skipped whole.
                    scanner.mode = Mode::Flow;
                    at += rest.iter().position(|&byte| byte == b'\n').unwrap_or(rest.len());
                }
                continue;
            }
            match scanner.step(bytes, at) {
                Step::Next(next) => at = next,
                Step::Closed => return Some(lines),
            }
        }
        None
    }
}

/// What a line starts with.
#[derive(Clone, Copy, Debug)]
struct LineInfo {
    /// How many spaces and tabs indent it.
    indent: u32,
    /// Whether a tab is among them.
    tab: bool,
    /// Whether it holds a token (is neither blank nor, outside quotes, a comment).
    content: bool,
    /// Whether it holds only white space.
    blank: bool,
}

impl LineInfo {
    fn read(line: &[u8], in_quotes: bool) -> LineInfo {
        let indent = line.iter().take_while(|&&byte| byte == b' ' || byte == b'\t').count();
        let tab = line[..indent].contains(&b'\t');
        let blank = matches!(line.get(indent), None | Some(b'\n' | b'\r'));
        let comment = !in_quotes && line.get(indent) == Some(&b'#');
        LineInfo { indent: to_u32(indent), tab, content: !blank && !comment, blank }
    }
}

/// Where a [`Scanner`] is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Between the tokens of a flow collection.
    Flow,
    /// Inside a plain scalar of a flow collection.
    Plain,
    Double,
    Single,
}

enum Step {
    Next(usize),
    Closed,
}

/// Finds where a flow collection or quoted scalar ends, by the few rules that matter: brackets,
/// quotes (a quote starts a scalar only where a token starts), comments (after white space)
/// and the flow indicators that end a plain scalar.
struct Scanner {
    mode: Mode,
    /// Open brackets; 0 for a quoted scalar that is the construct itself.
    depth: usize,
}

impl Scanner {
    fn new(open: u8) -> Option<Scanner> {
        match open {
            b'[' | b'{' => Some(Scanner { mode: Mode::Flow, depth: 1 }),
            b'"' => Some(Scanner { mode: Mode::Double, depth: 0 }),
            b'\'' => Some(Scanner { mode: Mode::Single, depth: 0 }),
            _ => None,
        }
    }

    fn in_quotes(&self) -> bool {
        matches!(self.mode, Mode::Double | Mode::Single)
    }

    /// Handles the byte at `at` (not a line break).
    fn step(&mut self, bytes: &[u8], at: usize) -> Step {
        let byte = bytes[at];
        let next = bytes.get(at + 1).copied();
        let after_space = at == 0 || matches!(bytes[at - 1], b' ' | b'\t' | b'\n' | b'\r');
        let closed = |scanner: &mut Scanner| {
            scanner.mode = Mode::Flow;
            if scanner.depth == 0 { Step::Closed } else { Step::Next(at + 1) }
        };
        match self.mode {
            Mode::Double => match byte {
                // An escaped line break is handled as a line break.
                b'\\' if next != Some(b'\n') => Step::Next(at + 2),
                b'"' => closed(self),
                _ => Step::Next(at + 1),
            },
            Mode::Single => match (byte, next) {
                (b'\'', Some(b'\'')) => Step::Next(at + 2),
                (b'\'', _) => closed(self),
                _ => Step::Next(at + 1),
            },
            Mode::Flow | Mode::Plain => match byte {
                b'#' if after_space => {
                    self.mode = Mode::Flow;
                    Step::Next(at + bytes[at..].iter().position(|&byte| byte == b'\n').unwrap_or(bytes.len() - at))
                }
                b'[' | b'{' => {
                    self.mode = Mode::Flow;
                    self.depth += 1;
                    Step::Next(at + 1)
                }
                b']' | b'}' => {
                    self.mode = Mode::Flow;
                    self.depth -= 1;
                    if self.depth == 0 { Step::Closed } else { Step::Next(at + 1) }
                }
                b',' => {
                    self.mode = Mode::Flow;
                    Step::Next(at + 1)
                }
                b':' if matches!(
                    next,
                    None | Some(b' ' | b'\t' | b'\n' | b'\r' | b',' | b'[' | b']' | b'{' | b'}')
                ) =>
                {
                    self.mode = Mode::Flow;
                    Step::Next(at + 1)
                }
                b'"' if self.mode == Mode::Flow => {
                    self.mode = Mode::Double;
                    Step::Next(at + 1)
                }
                b'\'' if self.mode == Mode::Flow => {
                    self.mode = Mode::Single;
                    Step::Next(at + 1)
                }
                b' ' | b'\t' | b'\r' => Step::Next(at + 1),
                _ => {
                    self.mode = Mode::Plain;
                    Step::Next(at + 1)
                }
            },
        }
    }
}

fn to_u32(value: usize) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}
