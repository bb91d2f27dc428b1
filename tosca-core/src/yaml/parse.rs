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
//!   ([`events::PIPELINE_THRESHOLD`]), the parser runs on a thread of its own, a batch of
//!   converted and positioned events ahead of the builder ([`events`]). The tree is the same
//!   every way (tested).
//! - Events inside anchored nodes are recorded, and an alias is expanded by replaying the
//!   recorded range of its anchored node ([`builder`]), so expansion costs time and memory in
//!   proportion to the nodes and text it produces, which are counted against
//!   [`Limits::max_alias_nodes`] and [`Limits::max_alias_bytes`] before they are copied. A
//!   document without anchors records nothing.
//! - A file is one YAML document: what follows the first document's end (a `---` or `...`
//!   marker and more) is reported as [`Code::YamlExtraDocument`], never silently dropped.

mod builder;
mod events;
#[cfg(test)]
mod flow_spans;
mod keys;
mod lenient;
mod positions;
mod split;

use builder::Builder;
use events::{PIPELINE_THRESHOLD, Pull, pipelined};
use positions::Positions;

use super::{Node, Scalar, ScalarStyle, Value};
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
    /// How many bytes of scalar text (and tags) alias expansion may copy in total: a few nodes
    /// can hold a lot of text.
    pub max_alias_bytes: usize,
}

impl Default for Limits {
    /// 256 levels of nesting, and one million nodes and 16 MiB of text from aliases.
    fn default() -> Limits {
        Limits { max_depth: 256, max_alias_nodes: 1_000_000, max_alias_bytes: 16 << 20 }
    }
}

/// What alias expansion produced while a text was parsed (every attempt of the lenient re-parse
/// counted), for tests that check the work stays bounded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Expanded {
    /// Nodes copied.
    pub nodes: usize,
    /// Bytes of scalar text and tags copied.
    pub bytes: usize,
}

impl Expanded {
    fn add(&mut self, other: Expanded) {
        self.nodes += other.nodes;
        self.bytes += other.bytes;
    }
}

/// Parses the YAML document of `text`.
///
/// Returns `None` only when nothing usable could be read (the problems say why). An empty
/// document is a null scalar. After a syntax error, what was read before it is returned, with the
/// collections the error left open closed there. A second document is reported, not read.
pub fn parse(source: SourceId, text: &str, limits: &Limits, problems: &mut Problems) -> Option<Node> {
    parse_measured(source, text, limits, problems).0
}

/// [`parse`], also telling what alias expansion produced.
pub fn parse_measured(
    source: SourceId,
    text: &str,
    limits: &Limits,
    problems: &mut Problems,
) -> (Option<Node>, Expanded) {
    // A piece with an anchor or an alias is not split, so a split expands nothing.
    if text.len() >= split::THRESHOLD
        && let Some(node) = split::parse(source, text, limits)
    {
        return (Some(node), Expanded::default());
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
    parse_with(source, text, limits, problems, false).0
}

/// [`parse`], with the parser on a thread of its own when `pipeline` is set. When saphyr rejects
/// an under-indented continuation line that libyaml accepts, the text is parsed again with the
/// line indented ([`lenient`]); a text without one is parsed once.
fn parse_with(
    source: SourceId,
    text: &str,
    limits: &Limits,
    problems: &mut Problems,
    pipeline: bool,
) -> (Option<Node>, Expanded) {
    parse_retrying(source, text, limits, problems, pipeline, lenient::Budget::new(text.len()))
}

/// [`parse_with`], parsing the text again within `budget`.
fn parse_retrying(
    source: SourceId,
    text: &str,
    limits: &Limits,
    problems: &mut Problems,
    pipeline: bool,
    mut budget: lenient::Budget,
) -> (Option<Node>, Expanded) {
    let mut attempt = attempt(Positions::new(source, text), text, limits, pipeline);
    let mut expanded = attempt.expanded;
    if attempt.failure.as_ref().is_some_and(|failure| failure.code == Code::YamlSyntax) {
        let mut pads = lenient::Pads::new(text);
        while let Some(failure) = &mut attempt.failure
            && let Some(fixed) = pads.fix(text, failure)
        {
            if !budget.take(attempt.expanded) {
                let help = "libyaml accepts this line; puccini-rs accepts such lines in one file only up to a \
                            budget, and this file exceeds it";
                failure.help = Some(help);
                break;
            }
            let (failed_at, lines) = (failure.at.start, fixed.iter().map(|(line, _)| *line).collect::<Vec<_>>());
            pads.add(fixed);
            let copy = pads.apply(text);
            let mut positions = Positions::new(source, text);
            positions.inserted = pads.inserted(&positions.lines);
            let retry = self::attempt(positions, &copy, limits, pipeline);
            expanded.add(retry.expanded);
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
    (attempt.root, expanded)
}

/// One parse of a text: its tree, its problems but the error that ended it, that error, and
/// what alias expansion produced.
struct Attempt {
    root: Option<Node>,
    problems: Problems,
    failure: Option<Failure>,
    expanded: Expanded,
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
            let is_flow = |(span, _): &(Span, bool)| positions.is_flow_start(*span);
            let flow = builder.open_collections().find(is_flow).map(|(span, _)| span);
            let block = builder.open_collections().rev().find(|open| !is_flow(open));
            // When our own depth limit already cut this subtree, it has been reported.
            let reported = code == Code::NestingTooDeep && builder.skipping();
            (!reported).then(|| Failure { code, info: error.info().to_owned(), message, help: None, at, flow, block })
        }
    };
    let expanded = builder.expanded();
    let root = match builder.finish() {
        None if result.is_ok() => Some(null(Span::file_start(positions.source))),
        root => root,
    };
    Attempt { root, problems, failure, expanded }
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
#[cfg(test)]
mod tests {
    use super::events::BATCH;
    use super::*;
    use crate::yaml::Entry;

    /// Both ways of feeding the builder, on one text: the tree and the problems.
    fn both(text: &str) -> [(Option<Node>, String); 2] {
        [false, true].map(|pipeline| {
            let mut problems = Problems::new();
            let (node, _) = parse_with(SourceId(0), text, &Limits::default(), &mut problems, pipeline);
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
        let budget = lenient::Budget::with_retries(3);
        let (node, _) = parse_retrying(SourceId(0), &text, &Limits::default(), &mut problems, false, budget);
        let found: Vec<(Code, u32, bool)> =
            problems.iter().map(|problem| (problem.code, problem.span.line, problem.help.is_some())).collect();
        let warning = |line| (Code::YamlUnderIndented, line, true);
        assert_eq!(found, [warning(3), warning(6), warning(9), (Code::YamlSyntax, 12, true)]);
        // What was read before the error is kept.
        assert_eq!(node.and_then(|node| node.as_mapping().map(<[Entry]>::len)), Some(4));
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
