//! The builder: events in, positioned nodes out, with an explicit stack of open collections.
//! Events inside anchored nodes are recorded, and an alias is expanded by replaying the recorded
//! range of its anchored node, within the limits of [`Limits`].

use std::collections::HashMap;
use std::ops::Range;

use saphyr_parser::ScanError;

use super::events::{Consumer, Ev, Step};
use super::keys::MapBody;
use super::positions::Positions;
use super::{Expanded, Limits, null};
use crate::problem::{Code, Problem, Problems};
use crate::source::Span;
use crate::yaml::{Entry, Node, Scalar, ScalarStyle, Value};

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
pub(super) struct Builder<'b, 'a> {
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
    /// What alias expansion has produced so far.
    expanded: Expanded,
    alias_limit_hit: bool,
    skip: Option<Skip>,
}

impl<'b, 'a> Builder<'b, 'a> {
    pub(super) fn new(limits: &'b Limits, positions: &'b Positions<'b>, problems: &'b mut Problems) -> Builder<'b, 'a> {
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
            expanded: Expanded::default(),
            alias_limit_hit: false,
            skip: None,
        }
    }

    /// The collections open now, outermost first: each one's span and whether it is a mapping.
    pub(super) fn open_collections(&self) -> impl DoubleEndedIterator<Item = (Span, bool)> + '_ {
        self.frames.iter().map(|frame| (frame.span, matches!(frame.body, Body::Mapping(_))))
    }

    /// Whether a subtree is being skipped for nesting too deeply (and so was reported).
    pub(super) fn skipping(&self) -> bool {
        self.skip.is_some()
    }

    /// Whether nothing needed more than the events in order: no anchor recorded, no subtree cut
    /// for nesting too deeply, no alias limit hit.
    pub(super) fn is_plain(&self) -> bool {
        self.recorded.is_empty() && self.skip.is_none() && !self.alias_limit_hit
    }

    /// What alias expansion has produced so far.
    pub(super) fn expanded(&self) -> Expanded {
        self.expanded
    }

    /// Consumes the events of the first document, stopping at its end or at the first error.
    pub(super) fn run(&mut self, mut events: impl Iterator<Item = Step<'a>>) -> Result<(), ScanError> {
        loop {
            if let Some(range) = self.replays.last_mut() {
                match range.next() {
                    Some(index) => {
                        let Some((event, _)) = self.recorded.get(index) else { continue };
                        // Counted before it is copied, so that nothing past a limit is (a
                        // subtree cut for nesting too deeply is not copied either).
                        if let Some(bytes) = event.cost()
                            && self.skip.is_none()
                            && !self.count(bytes)
                        {
                            continue;
                        }
                        let (event, span) = self.recorded[index].clone();
                        self.step(Some(index), event, span, true);
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
            let mut span = self.positions.span(span);
            if let Ev::Scalar { style: ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted, .. } = event
                && let Some(end) = self.positions.quoted_end(span)
            {
                span.end = end.min(span.end);
            }
            if let Ev::NextDocument = event {
                let message = "a second YAML document starts here; a TOSCA file is one document, so nothing \
                               from here on is read";
                let help = "remove the document marker (`---` or `...`) and what follows, or move each \
                            further document into a file of its own";
                self.problems.push(Problem::new(Code::YamlExtraDocument, span, message).with_help(help));
                continue;
            }
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
                Ev::Scalar { .. } | Ev::Alias(_) | Ev::NextDocument => {}
            }
            return;
        }
        match event {
            Ev::Scalar { text, style, anchor, tag } => {
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
                let end = self.positions.flow_end(frame.span, span);
                self.deliver(close(frame, end));
            }
            // Handled by `run` as it arrives, never recorded.
            Ev::NextDocument => {}
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

    /// Counts one node produced by alias expansion, with `bytes` of text. When that would
    /// exceed a limit, reports it, replaces the whole expansion by a null and returns `false`.
    fn count(&mut self, bytes: usize) -> bool {
        let nodes = self.expanded.nodes + 1;
        let total = self.expanded.bytes.saturating_add(bytes);
        let message = if nodes > self.limits.max_alias_nodes {
            format!("aliases expand into more than {} nodes", self.limits.max_alias_nodes)
        } else if total > self.limits.max_alias_bytes {
            format!("aliases expand into more than {} of text", size(self.limits.max_alias_bytes))
        } else {
            self.expanded = Expanded { nodes, bytes: total };
            return true;
        };
        let Some(expansion) = self.expansion.take() else { return true };
        let help = "each alias is a copy of its anchored node; alias smaller nodes, or fewer times";
        self.problems.push(Problem::new(Code::AliasLimit, expansion.alias, message).with_help(help));
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
    pub(super) fn finish(mut self) -> Option<Node> {
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

impl<'a> Consumer<'a> for Builder<'_, 'a> {
    fn consume(&mut self, events: impl Iterator<Item = Step<'a>>) -> Result<(), ScanError> {
        self.run(events)
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

/// `bytes` for a message: in MiB or KiB when a whole number of them.
fn size(bytes: usize) -> String {
    match bytes {
        0 => "0 bytes".to_owned(),
        _ if bytes.is_multiple_of(1 << 20) => format!("{} MiB", bytes >> 20),
        _ if bytes.is_multiple_of(1 << 10) => format!("{} KiB", bytes >> 10),
        _ => format!("{bytes} bytes"),
    }
}
