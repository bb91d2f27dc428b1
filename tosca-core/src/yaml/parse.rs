//! Builds the positioned tree from `saphyr-parser` events.
//!
//! Nothing here recurses, so no input can exhaust the stack:
//!
//! - Events are pulled one at a time through [`Parser::next_event`], a state machine with an
//!   explicit state stack (the parser's `load` API recurses and is not used). The scanner caps
//!   flow nesting (`[`, `{`) at 255 levels with the error `recursion limit exceeded`, reported
//!   as [`Code::NestingTooDeep`]; block nesting has no cap there (its indentation stack is a
//!   `Vec`) and is bounded by [`Limits::max_depth`] here.
//! - A builder with an explicit stack of open collections turns the events into [`Node`]s.
//!   A large text ([`split::THRESHOLD`]) whose largest block mapping holds most of it is parsed
//!   in pieces on several threads when that is safe ([`split`]); otherwise, for a large text
//!   ([`PIPELINE_THRESHOLD`]), the parser runs on a thread of its own, a batch of converted and
//!   positioned events ahead of the builder. The tree is the same every way (tested).
//! - Events inside anchored nodes are recorded, and an alias is expanded by replaying the
//!   recorded range of its anchored node, so expansion costs time and memory in proportion to the
//!   nodes it produces, which are counted against [`Limits::max_alias_nodes`]. A document without
//!   anchors records nothing.

use std::borrow::Cow;
use std::cell::Cell;
use std::collections::HashMap;
use std::hash::{BuildHasher, Hash, Hasher};
use std::ops::Range;

use foldhash::fast::FixedState;
use saphyr_parser::{Event, Marker, Parser, ScanError, StrInput};

mod lenient;
mod split;

use super::{Entry, Node, Scalar, ScalarStyle, Value};
use crate::problem::{Code, Problem, Problems};
use crate::source::{SourceId, Span};

/// Limits that keep hostile documents from exhausting time or memory.
#[derive(Clone, Debug)]
pub struct Limits {
    /// How many collections may nest inside each other (the root collection is level 1).
    pub max_depth: usize,
    /// How many nodes alias expansion may produce in total, counting every node of every
    /// expanded copy.
    pub max_alias_nodes: usize,
}

impl Default for Limits {
    /// 256 levels of nesting and one million nodes from aliases.
    fn default() -> Limits {
        Limits { max_depth: 256, max_alias_nodes: 1_000_000 }
    }
}

/// Parses the first YAML document of `text`.
///
/// Returns `None` only when nothing usable could be read (the problems say why). An empty
/// document is a null scalar. After a syntax error, what was read before it is returned, with the
/// collections the error left open closed there. Later documents are ignored.
pub fn parse(source: SourceId, text: &str, limits: &Limits, problems: &mut Problems) -> Option<Node> {
    if text.len() >= split::THRESHOLD
        && let Some(node) = split::parse(source, text, limits)
    {
        return Some(node);
    }
    parse_with(source, text, limits, problems, text.len() >= PIPELINE_THRESHOLD)
}

/// The tree of `text` parsed in about `chunks` pieces ([`split`]), or `None` when it cannot be
/// split cleanly. For the differential fuzz target, with [`parse_whole`].
#[cfg(feature = "fuzzing")]
pub fn parse_split(source: SourceId, text: &str, limits: &Limits, chunks: usize) -> Option<Node> {
    split::parse_in(source, text, limits, chunks)
}

/// [`parse`] in one piece, on this thread. For the differential fuzz target.
#[cfg(feature = "fuzzing")]
pub fn parse_whole(source: SourceId, text: &str, limits: &Limits, problems: &mut Problems) -> Option<Node> {
    parse_with(source, text, limits, problems, false)
}

/// [`parse`], with the parser on a thread of its own when `pipeline` is set. When saphyr rejects
/// an under-indented continuation line that libyaml accepts, the text is parsed again with the
/// line indented ([`lenient`]); a text without one is parsed once.
fn parse_with(source: SourceId, text: &str, limits: &Limits, problems: &mut Problems, pipeline: bool) -> Option<Node> {
    parse_retrying(source, text, limits, problems, pipeline, lenient::retries_allowed(text.len()))
}

/// [`parse_with`], parsing the text again at most `retries` times.
fn parse_retrying(
    source: SourceId,
    text: &str,
    limits: &Limits,
    problems: &mut Problems,
    pipeline: bool,
    mut retries: usize,
) -> Option<Node> {
    let mut attempt = attempt(Positions::new(source, text), text, limits, pipeline);
    if attempt.failure.as_ref().is_some_and(|failure| failure.code == Code::YamlSyntax) {
        let mut pads = lenient::Pads::new(text);
        while let Some(failure) = &mut attempt.failure
            && let Some(fixed) = pads.fix(text, failure)
        {
            if retries == 0 {
                let help = "libyaml accepts this line; puccini-rs accepts such lines in one file only up to a \
                            budget, and this file exceeds it";
                failure.help = Some(help);
                break;
            }
            retries -= 1;
            let (failed_at, lines) = (failure.at.start, fixed.iter().map(|(line, _)| *line).collect::<Vec<_>>());
            pads.add(fixed);
            let copy = pads.apply(text);
            let mut positions = Positions::new(source, text);
            positions.inserted = pads.inserted(&positions.lines);
            let retry = self::attempt(positions, &copy, limits, pipeline);
            // Still rejected once indented (libyaml rejects it too, say `- x` at column 1 in a
            // flow): the error stays the one the text gave before.
            if let Some(failure) = &retry.failure
                && (failure.at.start == failed_at || lines.contains(&failure.at.line))
            {
                pads.remove(&lines);
                break;
            }
            attempt = retry;
        }
        if !pads.is_empty() {
            pads.report(source, text, &mut attempt.problems);
        }
    }
    problems.extend(attempt.problems);
    if let Some(failure) = attempt.failure {
        let problem = Problem::new(failure.code, failure.at, failure.message);
        problems.push(match failure.help {
            Some(help) => problem.with_help(help),
            None => problem,
        });
    }
    attempt.root
}

/// One parse of a text: its tree, its problems but the error that ended it, and that error.
struct Attempt {
    root: Option<Node>,
    problems: Problems,
    failure: Option<Failure>,
}

/// The error that ended a parse, with what [`lenient`] needs to tell whether libyaml accepts
/// the line.
struct Failure {
    code: Code,
    /// saphyr's own message.
    info: String,
    message: String,
    help: Option<&'static str>,
    at: Span,
    /// The outermost flow collection open at the error, if any.
    flow: Option<Span>,
    /// The innermost block collection open at the error, if any, and whether it is a mapping.
    block: Option<(Span, bool)>,
}

/// Parses `parsed`, which is the text of `positions` or a copy of it with some lines indented
/// (then `positions` maps the copy's positions back to the text).
fn attempt(positions: Positions<'_>, parsed: &str, limits: &Limits, pipeline: bool) -> Attempt {
    let mut problems = Problems::new();
    let mut builder = Builder::new(limits, &positions, &mut problems);
    let result = if pipeline { pipelined(parsed, &mut builder) } else { builder.run(Pull::new(parsed)) };
    let failure = match &result {
        Ok(()) => None,
        Err(error) => {
            let at = positions.point(*error.marker());
            let (code, message) = if error.info() == "recursion limit exceeded" {
                (Code::NestingTooDeep, "flow collections nest more than 255 levels deep".to_owned())
            } else {
                (Code::YamlSyntax, readable(error.info()))
            };
            let is_flow = |frame: &&Frame| positions.is_flow_start(frame.span);
            let flow = builder.frames.iter().find(is_flow).map(|frame| frame.span);
            let block = builder.frames.iter().rev().find(|frame| !is_flow(frame));
            let block = block.map(|frame| (frame.span, matches!(frame.body, Body::Mapping(_))));
            // When our own depth limit already cut this subtree, it has been reported.
            let reported = code == Code::NestingTooDeep && builder.skip.is_some();
            (!reported).then(|| Failure { code, info: error.info().to_owned(), message, help: None, at, flow, block })
        }
    };
    let root = match builder.finish() {
        None if result.is_ok() => Some(null(Span::file_start(positions.source))),
        root => root,
    };
    Attempt { root, problems, failure }
}

/// Rewords a scanner message as a problem message: no trailing period, and saphyr's
/// "while parsing X, did not find Y" turned around so the defect comes first.
fn readable(info: &str) -> String {
    let info = info.trim().trim_end_matches('.');
    if let Some(rest) = info.strip_prefix("while ")
        && let Some((context, defect)) = rest.split_once(", ")
    {
        return format!("{defect} (while {context})");
    }
    if info.is_empty() { "malformed YAML".to_owned() } else { info.to_owned() }
}

/// A null scalar at `span`.
fn null(span: Span) -> Node {
    let scalar = Scalar { text: String::new(), style: ScalarStyle::Plain, tag: None };
    Node { span, value: Value::Scalar(scalar) }
}

fn to_u32(value: usize) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

/// Converts saphyr's character-indexed markers into byte-offset spans.
///
/// Line and column are computed here from the character index, against the lines as the rest
/// of the compiler counts them (ended by `\n`), not taken from the marker: saphyr's own line and
/// column can disagree with its index (a "simple key expected" error at the start of a line
/// carries the previous line's position, found by the `yaml` fuzz target), and it also counts a
/// lone `\r` as a line break.
struct Positions<'t> {
    source: SourceId,
    text: &'t str,
    /// How positions in `text` move to the file it was cut from ([`split`]).
    shift: Shift,
    /// Byte offset of each character index, plus one past the end; `None` for ASCII text,
    /// where the two are the same.
    bytes: Option<Vec<u32>>,
    /// The character index at which each line starts.
    lines: Vec<u32>,
    /// The index in `lines` of the line last asked for: positions come mostly in document
    /// order, so the next one is usually on that line or a few after it.
    cursor: Cell<usize>,
    /// Where the parsed copy of the text has spaces the text has not ([`lenient`]); empty when
    /// the text itself is parsed.
    inserted: Vec<lenient::Inserted>,
}

impl<'t> Positions<'t> {
    fn new(source: SourceId, text: &'t str) -> Positions<'t> {
        let bytes: Option<Vec<u32>> = (!text.is_ascii()).then(|| {
            let starts = text.char_indices().map(|(offset, _)| to_u32(offset));
            starts.chain(std::iter::once(to_u32(text.len()))).collect()
        });
        let lines = match bytes {
            // ASCII: character indexes are byte offsets.
            None => {
                std::iter::once(0).chain(memchr::memchr_iter(b'\n', text.as_bytes()).map(|at| to_u32(at + 1))).collect()
            }
            Some(_) => std::iter::once(0)
                .chain(text.chars().enumerate().filter(|(_, c)| *c == '\n').map(|(index, _)| to_u32(index + 1)))
                .collect(),
        };
        Positions { source, text, shift: Shift::default(), bytes, lines, cursor: Cell::new(0), inserted: Vec::new() }
    }

    /// Positions in a piece of a file, `shift` placing them in the whole file.
    fn shifted(source: SourceId, text: &'t str, shift: Shift) -> Positions<'t> {
        Positions { shift, ..Positions::new(source, text) }
    }

    /// The 1-based line holding character `index`: the last line that starts at or before it.
    /// Looked for from the line asked for last, a few lines forward, else by bisection.
    fn line_of(&self, index: u32) -> usize {
        let lines = &self.lines;
        let mut at = self.cursor.get();
        if lines.get(at).is_some_and(|&start| start <= index) {
            let mut steps = 0;
            while lines.get(at + 1).is_some_and(|&start| start <= index) {
                at += 1;
                steps += 1;
                if steps == 16 {
                    at += lines[at..].partition_point(|&start| start <= index).saturating_sub(1);
                    break;
                }
            }
        } else {
            at = lines.partition_point(|&start| start <= index).saturating_sub(1);
        }
        self.cursor.set(at);
        at + 1
    }

    /// The number of characters in the text.
    fn chars(&self) -> u32 {
        match &self.bytes {
            None => to_u32(self.text.len()),
            Some(bytes) => to_u32(bytes.len().saturating_sub(1)),
        }
    }

    fn byte(&self, index: u32) -> u32 {
        match &self.bytes {
            None => index,
            Some(bytes) => bytes.get(index as usize).copied().unwrap_or(to_u32(self.text.len())),
        }
    }

    fn span(&self, span: saphyr_parser::Span) -> Span {
        let (mut first, mut last) = (to_u32(span.start.index()), to_u32(span.end.index()));
        if !self.inserted.is_empty() {
            first = lenient::original_index(&self.inserted, first);
            last = lenient::original_index(&self.inserted, last);
        }
        let first = first.min(self.chars());
        let last = last.min(self.chars()).max(first);
        let line = self.line_of(first);
        let line_start = self.lines[line - 1];
        Span {
            source: self.source,
            start: self.shift.byte(self.byte(first)),
            end: self.shift.byte(self.byte(last)),
            line: to_u32(line) + self.shift.lines,
            column: first - line_start + 1,
        }
    }

    fn point(&self, marker: Marker) -> Span {
        self.span(saphyr_parser::Span::empty(marker))
    }

    /// Whether `span` starts at an opening `[` or `{` (the start of a flow collection).
    fn is_flow_start(&self, span: Span) -> bool {
        matches!(self.text.as_bytes().get(self.shift.local(span.start) as usize), Some(b'[' | b'{'))
    }

    /// Whether `span` is exactly a closing `]` or `}` (the end of a flow collection).
    fn is_flow_end(&self, span: Span) -> bool {
        span.end == span.start.saturating_add(1)
            && matches!(self.text.as_bytes().get(self.shift.local(span.start) as usize), Some(b']' | b'}'))
    }
}

/// Where a piece of a file sits in it: byte offsets from `from` on move by `bytes`, and every
/// line number by `lines`. The default leaves positions as they are.
#[derive(Clone, Copy, Debug, Default)]
struct Shift {
    from: u32,
    bytes: u32,
    lines: u32,
}

impl Shift {
    /// A byte offset of the piece as an offset of the file.
    fn byte(self, offset: u32) -> u32 {
        if offset >= self.from { offset + self.bytes } else { offset }
    }

    /// A byte offset of the file (one [`Shift::byte`] gave) as an offset of the piece.
    fn local(self, offset: u32) -> u32 {
        if offset >= self.from + self.bytes { offset - self.bytes } else { offset }
    }
}

/// One node event of the first document.
#[derive(Clone)]
enum Ev<'a> {
    Scalar { text: Cow<'a, str>, style: ScalarStyle, anchor: usize, tag: Option<String> },
    Start { mapping: bool, anchor: usize },
    End,
    Alias(usize),
}

/// What the builder does with a parser event.
enum Next<'a> {
    Node(Ev<'a>),
    Ignore,
    Stop,
}

/// One event of the first document, converted but not yet positioned (the builder does that,
/// to leave the parser thread as little as possible), or the error that ends it.
type Step<'a> = Result<(Ev<'a>, saphyr_parser::Span), ScanError>;

/// From this many bytes of text, the parser runs on a thread of its own ([`pipelined`]).
/// Below it, starting a thread costs more than the overlap saves.
const PIPELINE_THRESHOLD: usize = 256 * 1024;

/// How many events a batch from the parser thread holds, and how many batches may wait.
const BATCH: usize = 4096;
const BATCHES_AHEAD: usize = 4;

/// The node events of the first document, pulled from the parser one at a time; ends at the
/// document's end or after an error.
struct Pull<'a> {
    parser: Parser<'a, StrInput<'a>>,
    done: bool,
}

impl<'a> Pull<'a> {
    fn new(text: &'a str) -> Pull<'a> {
        Pull { parser: Parser::new_from_str(text), done: false }
    }
}

impl<'a> Iterator for Pull<'a> {
    type Item = Step<'a>;

    fn next(&mut self) -> Option<Step<'a>> {
        while !self.done {
            match self.parser.next_event() {
                None => self.done = true,
                Some(Err(error)) => {
                    self.done = true;
                    return Some(Err(error));
                }
                Some(Ok((event, span))) => match convert(event) {
                    Next::Node(event) => return Some(Ok((event, span))),
                    Next::Ignore => {}
                    Next::Stop => self.done = true,
                },
            }
        }
        None
    }
}

/// Runs the builder on events that a second thread pulls from the parser, in batches. The
/// builder sees the same events in the same order as with [`Pull`]; if it stops early, the
/// parser thread stops at its next batch. Without a thread to spare, the builder pulls itself.
fn pipelined<'a>(text: &'a str, builder: &mut Builder<'_, 'a>) -> Result<(), ScanError> {
    std::thread::scope(|scope| {
        let (sender, receiver) = std::sync::mpsc::sync_channel::<Vec<Step<'a>>>(BATCHES_AHEAD);
        let scanner = std::thread::Builder::new().name("yaml-scanner".to_owned()).spawn_scoped(scope, move || {
            let mut batch = Vec::with_capacity(BATCH);
            for step in Pull::new(text) {
                batch.push(step);
                if batch.len() == BATCH
                    && sender.send(std::mem::replace(&mut batch, Vec::with_capacity(BATCH))).is_err()
                {
                    return;
                }
            }
            // The builder may have stopped already; then nobody needs the rest.
            let _ = sender.send(batch);
        });
        match scanner {
            Ok(_) => builder.run(receiver.into_iter().flatten()),
            Err(_) => builder.run(Pull::new(text)),
        }
    })
}

fn convert(event: Event<'_>) -> Next<'_> {
    Next::Node(match event {
        Event::Scalar(text, style, anchor, tag) => Ev::Scalar {
            text,
            style: match style {
                saphyr_parser::ScalarStyle::Plain => ScalarStyle::Plain,
                saphyr_parser::ScalarStyle::SingleQuoted => ScalarStyle::SingleQuoted,
                saphyr_parser::ScalarStyle::DoubleQuoted => ScalarStyle::DoubleQuoted,
                saphyr_parser::ScalarStyle::Literal => ScalarStyle::Literal,
                saphyr_parser::ScalarStyle::Folded => ScalarStyle::Folded,
            },
            anchor,
            // saphyr resolves `!!str` to handle `tag:yaml.org,2002:` and suffix `str`,
            // `!local` to `!` and `local`, and `!<verbatim>` to an empty handle and `verbatim`.
            tag: tag.map(|tag| format!("{}{}", tag.handle, tag.suffix)),
        },
        Event::SequenceStart(anchor, _) => Ev::Start { mapping: false, anchor },
        Event::MappingStart(anchor, _) => Ev::Start { mapping: true, anchor },
        Event::SequenceEnd | Event::MappingEnd => Ev::End,
        Event::Alias(id) => Ev::Alias(id),
        Event::DocumentEnd | Event::StreamEnd => return Next::Stop,
        Event::Nothing | Event::StreamStart | Event::DocumentStart(_) => return Next::Ignore,
    })
}

/// An open collection.
struct Frame {
    /// The span of its start event.
    span: Span,
    anchor: usize,
    /// Index in `recorded` of its start event, when it is an anchored node being recorded.
    recorded_from: Option<usize>,
    /// Whether it is part of an alias expansion (problems inside were reported already).
    replayed: bool,
    body: Body,
}

enum Body {
    Sequence(Vec<Node>),
    Mapping(MapBody),
}

#[derive(Default)]
struct MapBody {
    entries: Vec<Entry>,
    /// A key waiting for its value, and the index of the entry it repeats, if it does: like
    /// PyYAML, a repeated key's last value wins (still reported as `duplicate-key`).
    pending: Option<(Node, Option<usize>)>,
    /// Structural hash of each kept key → index of its entry; built only once the mapping has
    /// [`SCAN_LIMIT`] entries (smaller ones are scanned).
    keys: HashMap<u64, usize, FixedState>,
}

/// Up to this many entries, a mapping finds repeated keys by scanning them.
const SCAN_LIMIT: usize = 8;

impl MapBody {
    /// The index of the entry where `key` was first used in this mapping, if it was; otherwise
    /// remembers it.
    fn first_use(&mut self, key: &Node) -> Option<usize> {
        let index = self.entries.len();
        if index < SCAN_LIMIT {
            return self.entries.iter().position(|entry| same_node(&entry.key, key));
        }
        if self.keys.is_empty() {
            for (earlier, entry) in self.entries.iter().enumerate() {
                self.keys.entry(hash_key(&self.keys, &entry.key)).or_insert(earlier);
            }
        }
        let hash = hash_key(&self.keys, key);
        match self.keys.get(&hash).and_then(|&i| self.entries.get(i)) {
            Some(first) if same_node(&first.key, key) => self.keys.get(&hash).copied(),
            // A hash collision: fall back to a scan.
            Some(_) => self.entries.iter().position(|entry| same_node(&entry.key, key)),
            None => {
                self.keys.insert(hash, index);
                None
            }
        }
    }
}

/// The structural hash of a key, with the hasher of `keys`.
fn hash_key(keys: &HashMap<u64, usize, FixedState>, key: &Node) -> u64 {
    let mut hasher = keys.hasher().build_hasher();
    hash_node(key, &mut hasher);
    hasher.finish()
}

/// Hashes a node's structure (scalar text only; no spans, styles or tags).
fn hash_node(node: &Node, hasher: &mut impl Hasher) {
    if let Value::Scalar(scalar) = &node.value {
        (0u8, &scalar.text).hash(hasher);
        return;
    }
    let mut stack = vec![node];
    while let Some(node) = stack.pop() {
        match &node.value {
            Value::Scalar(scalar) => (0u8, &scalar.text).hash(hasher),
            Value::Sequence(items) => {
                (1u8, items.len()).hash(hasher);
                stack.extend(items.iter().rev());
            }
            Value::Mapping(entries) => {
                (2u8, entries.len()).hash(hasher);
                for entry in entries.iter().rev() {
                    stack.push(&entry.value);
                    stack.push(&entry.key);
                }
            }
        }
    }
}

/// Whether two nodes have the same structure and scalar texts.
fn same_node(a: &Node, b: &Node) -> bool {
    match (&a.value, &b.value) {
        (Value::Scalar(x), Value::Scalar(y)) => return x.text == y.text,
        (Value::Scalar(_), _) | (_, Value::Scalar(_)) => return false,
        _ => {}
    }
    let mut stack = vec![(a, b)];
    while let Some((a, b)) = stack.pop() {
        match (&a.value, &b.value) {
            (Value::Scalar(x), Value::Scalar(y)) if x.text == y.text => {}
            (Value::Sequence(x), Value::Sequence(y)) if x.len() == y.len() => stack.extend(x.iter().zip(y)),
            (Value::Mapping(x), Value::Mapping(y)) if x.len() == y.len() => {
                for (e, f) in x.iter().zip(y) {
                    stack.push((&e.key, &f.key));
                    stack.push((&e.value, &f.value));
                }
            }
            _ => return false,
        }
    }
    true
}

/// A subtree being skipped because it nests too deeply.
struct Skip {
    /// Open collections inside it, itself included.
    depth: usize,
    span: Span,
}

/// The outermost alias being expanded.
struct Expansion {
    alias: Span,
    /// How many frames were open when it started.
    frames: usize,
    /// Whether nesting too deep inside it was reported (once is enough).
    too_deep: bool,
}

/// Turns events into nodes. Events inside anchored nodes are recorded, so that aliases can be
/// expanded by replaying them; a document without anchors records nothing.
struct Builder<'b, 'a> {
    limits: &'b Limits,
    positions: &'b Positions<'b>,
    problems: &'b mut Problems,
    frames: Vec<Frame>,
    root: Option<Node>,
    /// Events of anchored nodes, in document order.
    recorded: Vec<(Ev<'a>, Span)>,
    /// How many open frames are being recorded.
    recording: usize,
    /// Anchor id → range of `recorded` holding the completed anchored node.
    anchors: HashMap<usize, Range<usize>>,
    /// Ranges of `recorded` being replayed for alias expansion, innermost last.
    replays: Vec<Range<usize>>,
    expansion: Option<Expansion>,
    /// Nodes produced by alias expansion so far.
    expanded: usize,
    alias_limit_hit: bool,
    skip: Option<Skip>,
}

impl<'b, 'a> Builder<'b, 'a> {
    fn new(limits: &'b Limits, positions: &'b Positions<'b>, problems: &'b mut Problems) -> Builder<'b, 'a> {
        Builder {
            limits,
            positions,
            problems,
            frames: Vec::new(),
            root: None,
            recorded: Vec::new(),
            recording: 0,
            anchors: HashMap::new(),
            replays: Vec::new(),
            expansion: None,
            expanded: 0,
            alias_limit_hit: false,
            skip: None,
        }
    }

    /// Consumes the events of the first document, stopping at its end or at the first error.
    fn run(&mut self, mut events: impl Iterator<Item = Step<'a>>) -> Result<(), ScanError> {
        loop {
            if let Some(range) = self.replays.last_mut() {
                match range.next() {
                    Some(index) => {
                        if let Some((event, span)) = self.recorded.get(index) {
                            let (event, span) = (event.clone(), *span);
                            self.step(Some(index), event, span, true);
                        }
                    }
                    None => {
                        self.replays.pop();
                        if self.replays.is_empty() {
                            self.expansion = None;
                        }
                    }
                }
                continue;
            }
            let Some(next) = events.next() else { return Ok(()) };
            let (event, span) = next?;
            let span = self.positions.span(span);
            let anchored = matches!(event, Ev::Start { anchor, .. } | Ev::Scalar { anchor, .. } if anchor != 0);
            let record = self.recording > 0 || (anchored && self.skip.is_none());
            let index = record.then_some(self.recorded.len());
            if record {
                // The end event of an anchored node is recorded before its step, which closes
                // the anchor's range to include it.
                self.recorded.push((event.clone(), span));
            }
            self.step(index, event, span, false);
        }
    }

    /// Handles one event. `index` is its place in `recorded`, if it is recorded.
    fn step(&mut self, index: Option<usize>, event: Ev<'_>, span: Span, replayed: bool) {
        if let Some(skip) = &mut self.skip {
            match event {
                Ev::Start { .. } => skip.depth += 1,
                Ev::End => {
                    skip.depth -= 1;
                    if skip.depth == 0 {
                        let span = skip.span;
                        self.skip = None;
                        self.deliver(null(span));
                    }
                }
                Ev::Scalar { .. } | Ev::Alias(_) => {}
            }
            return;
        }
        match event {
            Ev::Scalar { text, style, anchor, tag } => {
                if replayed && !self.count() {
                    return;
                }
                if let Some(index) = index.filter(|_| !replayed && anchor != 0) {
                    self.anchors.insert(anchor, index..index + 1);
                }
                let mut span = span;
                if text.is_empty() && style == ScalarStyle::Plain && tag.is_none() {
                    // An implicit empty value: saphyr gives it the span of a nearby token.
                    span.end = span.start;
                }
                // Owned and no larger than it needs to be: the tree keeps it.
                let mut text = text.into_owned();
                text.shrink_to_fit();
                let scalar = Scalar { text, style, tag };
                self.deliver(Node { span, value: Value::Scalar(scalar) });
            }
            Ev::Alias(id) => self.alias(id, index, span, replayed),
            Ev::Start { mapping, anchor } => {
                if replayed && !self.count() {
                    return;
                }
                if self.frames.len() >= self.limits.max_depth {
                    // Inside an alias expansion the alias is the place to point at, once.
                    let at = match &mut self.expansion {
                        None => Some(span),
                        Some(expansion) if !expansion.too_deep => {
                            expansion.too_deep = true;
                            Some(expansion.alias)
                        }
                        Some(_) => None,
                    };
                    if let Some(at) = at {
                        let message = format!("collections nest more than {} levels deep", self.limits.max_depth);
                        self.problems.report(Code::NestingTooDeep, at, message);
                    }
                    self.skip = Some(Skip { depth: 1, span });
                    return;
                }
                let recorded_from = if replayed || anchor == 0 { None } else { index };
                self.recording += usize::from(recorded_from.is_some());
                let body = if mapping { Body::Mapping(MapBody::default()) } else { Body::Sequence(Vec::new()) };
                self.frames.push(Frame { span, anchor, recorded_from, replayed, body });
            }
            Ev::End => {
                let Some(frame) = self.frames.pop() else { return };
                if let Some(first) = frame.recorded_from {
                    self.recording -= 1;
                    // The end event was recorded just before this step.
                    self.anchors.insert(frame.anchor, first..self.recorded.len());
                }
                let end = self.positions.is_flow_end(span).then_some(span.end);
                self.deliver(close(frame, end));
            }
        }
    }

    fn alias(&mut self, id: usize, index: Option<usize>, span: Span, replayed: bool) {
        if self.alias_limit_hit {
            self.deliver(null(span));
            return;
        }
        match self.anchors.get(&id) {
            // Inside its own anchored node (reported when that node was first read).
            Some(range) if index.is_some_and(|index| range.contains(&index)) => self.deliver(null(span)),
            Some(range) => {
                if !replayed {
                    self.expansion = Some(Expansion { alias: span, frames: self.frames.len(), too_deep: false });
                }
                self.replays.push(range.clone());
            }
            None => {
                // saphyr rejects unknown aliases itself; what is left is an alias inside the node
                // it names, or to a node dropped for nesting too deeply (reported already).
                if !replayed && self.frames.iter().any(|frame| frame.anchor == id) {
                    let message = "an alias cannot refer to a node that contains it";
                    self.problems.report(Code::YamlSyntax, span, message);
                }
                self.deliver(null(span));
            }
        }
    }

    /// Counts one node produced by alias expansion. When that exceeds the limit, reports it,
    /// replaces the whole expansion by a null and returns `false`.
    fn count(&mut self) -> bool {
        self.expanded += 1;
        if self.expanded <= self.limits.max_alias_nodes {
            return true;
        }
        let Some(expansion) = self.expansion.take() else { return true };
        let message = format!("aliases expand into more than {} nodes", self.limits.max_alias_nodes);
        self.problems.report(Code::AliasLimit, expansion.alias, message);
        self.alias_limit_hit = true;
        self.frames.truncate(expansion.frames);
        self.replays.clear();
        self.skip = None;
        self.deliver(null(expansion.alias));
        false
    }

    /// Adds a finished node to the innermost open collection, or makes it the root.
    fn deliver(&mut self, node: Node) {
        let Some(frame) = self.frames.last_mut() else {
            self.root.get_or_insert(node);
            return;
        };
        match &mut frame.body {
            Body::Sequence(items) => items.push(node),
            Body::Mapping(map) => match map.pending.take() {
                // The first key keeps its place; its value is the last one written.
                Some((_, Some(first))) => map.entries[first].value = node,
                Some((key, None)) => map.entries.push(Entry { key, value: node }),
                None => {
                    let first = map.first_use(&node);
                    if let Some(first) = first.filter(|_| !frame.replayed) {
                        let message = match node.as_str() {
                            Some(text) => format!("duplicate key `{text}`"),
                            None => "duplicate key".to_owned(),
                        };
                        let problem = Problem::new(Code::DuplicateKey, node.span, message).with_help(
                            "the last value is used, as PyYAML does (`--quirk duplicate-keys` accepts it as a warning)",
                        );
                        self.problems.push(problem.with_label(map.entries[first].key.span, "first defined here"));
                    }
                    map.pending = Some((node, first));
                }
            },
        }
    }

    /// Closes whatever an early end of the events left open and returns the root.
    fn finish(mut self) -> Option<Node> {
        self.replays.clear();
        if let Some(skip) = self.skip.take() {
            self.deliver(null(skip.span));
        }
        while let Some(frame) = self.frames.pop() {
            self.deliver(close(frame, None));
        }
        self.root
    }
}

/// Turns a finished frame into a node. `end` is the end of its closing bracket, if it has one;
/// otherwise the node ends with its last child.
fn close(frame: Frame, end: Option<u32>) -> Node {
    let mut span = frame.span;
    let (value, last) = match frame.body {
        Body::Sequence(mut items) => {
            let last = items.last().map(|item| item.span.end);
            items.shrink_to_fit();
            (Value::Sequence(items), last)
        }
        Body::Mapping(mut map) => {
            let last = map.entries.last().map(|entry| entry.value.span.end.max(entry.key.span.end));
            map.entries.shrink_to_fit();
            (Value::Mapping(map.entries), last)
        }
    };
    span.end = end.or(last).unwrap_or(span.end).max(span.start);
    Node { span, value }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both ways of feeding the builder, on one text: the tree and the problems.
    fn both(text: &str) -> [(Option<Node>, String); 2] {
        [false, true].map(|pipeline| {
            let mut problems = Problems::new();
            let node = parse_with(SourceId(0), text, &Limits::default(), &mut problems, pipeline);
            (node, format!("{:?}", problems.iter().collect::<Vec<_>>()))
        })
    }

    /// A document past the pipeline threshold, with anchors, aliases, multibyte text, a
    /// duplicate key, and a syntax error near its end.
    fn large_document() -> String {
        let mut text = String::from("base: &base { zone: ž, rack: 1 }\nnodes:\n");
        let mut index = 0;
        while text.len() < PIPELINE_THRESHOLD + 4 * BATCH {
            text.push_str(&format!(
                "  n{index}:\n    <<: *base\n    name: \"nœud {index}\"\n    list: [a, {{b: c}}]\n"
            ));
            index += 1;
        }
        text.push_str("  n0:\n    twice: true\n");
        text
    }

    #[test]
    fn under_indented_lines_past_the_retry_budget_stay_errors() {
        // Five constructs, each needing a retry of its own; the budget allows three.
        let text: String = (0..5).map(|index| format!("k{index}:\n  d: [x,\ny]\n")).collect();
        let mut problems = Problems::new();
        let node = parse_retrying(SourceId(0), &text, &Limits::default(), &mut problems, false, 3);
        let found: Vec<(Code, u32, bool)> =
            problems.iter().map(|problem| (problem.code, problem.span.line, problem.help.is_some())).collect();
        let warning = |line| (Code::YamlUnderIndented, line, true);
        assert_eq!(found, [warning(3), warning(6), warning(9), (Code::YamlSyntax, 12, true)]);
        // What was read before the error is kept.
        assert_eq!(node.and_then(|node| node.as_mapping().map(<[Entry]>::len)), Some(4));
    }

    #[test]
    fn lines_are_found_in_any_order() {
        let text = "a: 1\n\nnœud:\n  - ž\n".repeat(40);
        let positions = Positions::new(SourceId(0), &text);
        let chars = positions.chars();
        let expected = |index: u32| positions.lines.partition_point(|&start| start <= index);
        // Forward in small and large steps, then backward and scattered.
        let mut order: Vec<u32> = (0..chars).chain((0..chars).step_by(97)).chain((0..chars).rev()).collect();
        let mut seed = 7u32;
        order.extend((0..500).map(|_| {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            seed % chars
        }));
        for index in order {
            assert_eq!(positions.line_of(index), expected(index), "character {index}");
        }
    }

    #[test]
    fn the_parser_thread_gives_the_same_tree_and_problems() {
        let large = large_document();
        assert!(large.len() >= PIPELINE_THRESHOLD);
        let broken = format!("{large}  bad: [unclosed\n");
        let cases = [large.as_str(), broken.as_str(), "", "a: 1\n---\nb: 2\n", "x: &a [*a]\n", "k: v\nk: w\n"];
        for text in cases {
            let [pulled, piped] = both(text);
            assert_eq!(pulled, piped, "a text of {} bytes", text.len());
        }
        let [(tree, problems), _] = both(&broken);
        assert!(tree.is_some() && problems.contains("YamlSyntax") && problems.contains("DuplicateKey"), "{problems}");
    }
}
