//! The parser's events for the builder: converted from saphyr's, pulled one at a time
//! ([`Pull`]) or, for a large text, pulled on a thread of its own a few batches ahead
//! ([`pipelined`]) for a [`Consumer`] (the builder) to take in order.

use std::borrow::Cow;

use saphyr_parser::{Event, Parser, ScanError, StrInput};

use crate::yaml::ScalarStyle;

/// One node event of the first document, or the start of a second one.
#[derive(Clone)]
pub(super) enum Ev<'a> {
    Scalar {
        text: Cow<'a, str>,
        style: ScalarStyle,
        anchor: usize,
        tag: Option<String>,
    },
    Start {
        mapping: bool,
        anchor: usize,
    },
    End,
    Alias(usize),
    /// Another document starts after the first: the last event ([`Pull`] reads no further).
    NextDocument,
}

impl Ev<'_> {
    /// What copying the event costs alias expansion: one node and the bytes of its text and
    /// tag, for a scalar or the start of a collection; `None` for the other events.
    pub(super) fn cost(&self) -> Option<usize> {
        match self {
            Ev::Scalar { text, tag, .. } => Some(text.len() + tag.as_ref().map_or(0, String::len)),
            Ev::Start { .. } => Some(0),
            Ev::End | Ev::Alias(_) | Ev::NextDocument => None,
        }
    }
}

/// What the builder does with a parser event.
enum Next<'a> {
    Node(Ev<'a>),
    Ignore,
    /// The end of the first document: only the start of another may follow.
    DocumentEnd,
    Stop,
}

/// One event of the first document, converted but not yet positioned (the builder does that,
/// to leave the parser thread as little as possible), or the error that ends it.
pub(super) type Step<'a> = Result<(Ev<'a>, saphyr_parser::Span), ScanError>;

/// What takes the events in order: the builder. Declared here, and implemented there, so that
/// the events know nothing of what is built from them.
pub(super) trait Consumer<'a> {
    /// Consumes the events of the first document, stopping at their end or at the first error.
    fn consume(&mut self, events: impl Iterator<Item = Step<'a>>) -> Result<(), ScanError>;
}

/// From this many bytes of text, the parser runs on a thread of its own ([`pipelined`]).
/// Below it, starting a thread costs more than the overlap saves.
pub(super) const PIPELINE_THRESHOLD: usize = 256 * 1024;

/// How many events a batch from the parser thread holds, and how many batches may wait.
pub(super) const BATCH: usize = 4096;
const BATCHES_AHEAD: usize = 4;

/// The node events of the first document, pulled from the parser one at a time; ends at the
/// document's end, with [`Ev::NextDocument`] when another document follows, or after an error.
pub(super) struct Pull<'a> {
    parser: Parser<'a, StrInput<'a>>,
    /// Whether the first document has ended.
    ended: bool,
    done: bool,
}

impl<'a> Pull<'a> {
    pub(super) fn new(text: &'a str) -> Pull<'a> {
        Pull { parser: Parser::new_from_str(text), ended: false, done: false }
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
                // Past the first document only the stream's end may come; anything else starts
                // another document, which is reported, not read.
                Some(Ok((event, span))) if self.ended => match event {
                    Event::Nothing => {}
                    Event::StreamEnd => self.done = true,
                    _ => {
                        self.done = true;
                        return Some(Ok((Ev::NextDocument, span)));
                    }
                },
                Some(Ok((event, span))) => match convert(event) {
                    Next::Node(event) => return Some(Ok((event, span))),
                    Next::Ignore => {}
                    Next::DocumentEnd => self.ended = true,
                    Next::Stop => self.done = true,
                },
            }
        }
        None
    }
}

/// Runs the consumer (the builder) on events that a second thread pulls from the parser, in
/// batches. The consumer sees the same events in the same order as with [`Pull`]; if it stops
/// early, the parser thread stops at its next batch. Without a thread to spare, the consumer
/// pulls itself.
pub(super) fn pipelined<'a>(text: &'a str, consumer: &mut impl Consumer<'a>) -> Result<(), ScanError> {
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
            // The consumer may have stopped already; then nobody needs the rest.
            let _ = sender.send(batch);
        });
        match scanner {
            Ok(_) => consumer.consume(receiver.into_iter().flatten()),
            Err(_) => consumer.consume(Pull::new(text)),
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
        Event::DocumentEnd => return Next::DocumentEnd,
        Event::StreamEnd => return Next::Stop,
        Event::Nothing | Event::StreamStart | Event::DocumentStart(_) => return Next::Ignore,
    })
}
