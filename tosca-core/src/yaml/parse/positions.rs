//! Where each event is: saphyr's character-indexed markers turned into the byte-offset spans,
//! lines and columns the rest of the compiler uses.

use std::cell::Cell;

use saphyr_parser::Marker;

use super::{lenient, to_u32};
use crate::source::{SourceId, Span};

/// Converts saphyr's character-indexed markers into byte-offset spans.
///
/// Line and column are computed here from the character index, against the lines as the rest
/// of the compiler counts them (ended by `\n`), not taken from the marker: saphyr's own line and
/// column can disagree with its index (a "simple key expected" error at the start of a line
/// carries the previous line's position, found by the `yaml` fuzz target), and it also counts a
/// lone `\r` as a line break.
pub(super) struct Positions<'t> {
    pub(super) source: SourceId,
    text: &'t str,
    /// How positions in `text` move to the file it was cut from ([`split`]).
    pub(super) shift: Shift,
    /// Byte offset of each character index, plus one past the end; `None` for ASCII text,
    /// where the two are the same.
    bytes: Option<Vec<u32>>,
    /// The character index at which each line starts.
    pub(super) lines: Vec<u32>,
    /// The index in `lines` of the line last asked for: positions come mostly in document
    /// order, so the next one is usually on that line or a few after it.
    cursor: Cell<usize>,
    /// Where the parsed copy of the text has spaces the text has not ([`lenient`]); empty when
    /// the text itself is parsed.
    pub(super) inserted: Vec<lenient::Inserted>,
}

impl<'t> Positions<'t> {
    pub(super) fn new(source: SourceId, text: &'t str) -> Positions<'t> {
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
    pub(super) fn shifted(source: SourceId, text: &'t str, shift: Shift) -> Positions<'t> {
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

    pub(super) fn span(&self, span: saphyr_parser::Span) -> Span {
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

    pub(super) fn point(&self, marker: Marker) -> Span {
        self.span(saphyr_parser::Span::empty(marker))
    }

    /// Whether `span` starts at an opening `[` or `{` (the start of a flow collection).
    pub(super) fn is_flow_start(&self, span: Span) -> bool {
        matches!(self.text.as_bytes().get(self.shift.local(span.start) as usize), Some(b'[' | b'{'))
    }

    /// Where the flow collection opened at `open` (the span of its start event) ends, given the
    /// span saphyr gave its end event: just after its closing `]` or `}`. `None` when `open` is
    /// not a `[` or `{` (after its anchor and tag, if any), or the end has no closing bracket
    /// (the end of a block collection, of an implicit pair in a flow sequence, or of one that
    /// an error left open).
    ///
    /// saphyr's closing token runs over the blanks and the comment after the bracket
    /// (`} # note`), and the end of a flow mapping with a trailing comma (`{a: b, }`) is given
    /// at the comma; from there, blanks, line breaks and comments are passed over to the
    /// bracket.
    pub(super) fn flow_end(&self, open: Span, end: Span) -> Option<u32> {
        let bytes = self.text.as_bytes();
        let close = match self.opening_bracket(open)? {
            b'[' => b']',
            _ => b'}',
        };
        // An empty end span marks no token (a block collection's end).
        if end.end <= end.start {
            return None;
        }
        let mut at = self.shift.local(end.start) as usize;
        if bytes.get(at) == Some(&b',') {
            at = skip_blanks(bytes, at + 1, bytes.len());
        }
        // The bracket is one byte, contiguous in the file even where a piece was cut.
        (bytes.get(at) == Some(&close)).then(|| self.shift.byte(to_u32(at)) + 1)
    }

    /// Where the quoted scalar at `span` (a scalar event's) ends: just after its closing quote.
    /// saphyr's span runs on over the blanks and the comment after it (`"a"   # note`), to the
    /// next token. `None` when the span holds no complete quoted scalar, past the node's
    /// properties (`&anchor`, `!tag`).
    pub(super) fn quoted_end(&self, span: Span) -> Option<u32> {
        let bytes = self.text.as_bytes();
        let limit = (self.shift.local(span.end) as usize).min(bytes.len());
        let mut at = self.shift.local(span.start) as usize;
        while at < limit && matches!(bytes[at], b'&' | b'!') {
            let ends = |byte: &u8| is_blank(*byte) || matches!(byte, b'[' | b']' | b'{' | b'}' | b',');
            let property_end = bytes[at..limit].iter().position(ends).map_or(limit, |after| at + after);
            at = skip_blanks(bytes, property_end, limit);
        }
        let quote = *bytes.get(at).filter(|quote| matches!(quote, b'\'' | b'"'))?;
        at += 1;
        while at < limit {
            match bytes[at] {
                // `\"` and `\\` in a double-quoted scalar, `''` in a single-quoted one.
                b'\\' if quote == b'"' => at += 2,
                b'\'' if quote == b'\'' && bytes.get(at + 1) == Some(&b'\'') => at += 2,
                byte if byte == quote => return Some(self.shift.byte(to_u32(at)) + 1),
                _ => at += 1,
            }
        }
        None
    }

    /// The `[` or `{` that the start event at `span` opens, past the node's properties
    /// (`&anchor`, `!tag`, `!<verbatim>`) and the blanks between them; `None` for a block
    /// collection. The properties and the bracket all lie within the event's span.
    fn opening_bracket(&self, span: Span) -> Option<u8> {
        let bytes = self.text.as_bytes();
        let limit = (self.shift.local(span.end) as usize).min(bytes.len());
        let mut at = self.shift.local(span.start) as usize;
        while at < limit {
            match bytes[at] {
                bracket @ (b'[' | b'{') => return Some(bracket),
                b'&' | b'!' => {
                    let verbatim = bytes[at..limit].starts_with(b"!<");
                    let property_end = if verbatim {
                        memchr::memchr(b'>', &bytes[at..limit]).map_or(limit, |close| at + close + 1)
                    } else {
                        // An anchor's name and a tag's shorthand end at a blank or a flow indicator.
                        let ends = |byte: &u8| is_blank(*byte) || matches!(byte, b'[' | b']' | b'{' | b'}' | b',');
                        bytes[at..limit].iter().position(ends).map_or(limit, |after| at + after)
                    };
                    at = skip_blanks(bytes, property_end, limit);
                }
                _ => return None,
            }
        }
        None
    }
}

/// Whether `byte` is a space, a tab or a line break.
fn is_blank(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\r' | b'\n')
}

/// The offset of the first byte from `at` (before `limit`) that is not a blank, a line break
/// or in a comment. Called only where a `#` can start nothing but a comment.
fn skip_blanks(bytes: &[u8], mut at: usize, limit: usize) -> usize {
    while at < limit {
        match bytes[at] {
            byte if is_blank(byte) => at += 1,
            b'#' => at = memchr::memchr(b'\n', &bytes[at..limit]).map_or(limit, |line_end| at + line_end),
            _ => break,
        }
    }
    at
}

/// Where a piece of a file sits in it: byte offsets from `from` on move by `bytes`, and every
/// line number by `lines`. The default leaves positions as they are.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Shift {
    pub(super) from: u32,
    pub(super) bytes: u32,
    pub(super) lines: u32,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quoted_scalar_ends_at_its_closing_quote() {
        let text = "a: \"x \\\" y\"   # note\nb: 'it''s'  \nc: &k !t \"z\" \nd: \"open\n";
        let positions = Positions::new(SourceId(0), text);
        let end_of = |start: &str, end: usize| {
            let start = to_u32(text.find(start).expect("in the text"));
            positions.quoted_end(Span { source: SourceId(0), start, end: to_u32(end), line: 1, column: 1 })
        };
        let line_end =
            |from: &str| text[text.find(from).expect("in the text")..].find('\n').unwrap() + text.find(from).unwrap();
        assert_eq!(end_of("\"x", line_end("\"x")), Some(to_u32(text.find("   #").unwrap())));
        assert_eq!(end_of("'it", line_end("'it")), Some(to_u32(text.find("  \nc").unwrap())));
        assert_eq!(end_of("&k", line_end("&k")), Some(to_u32(text.find(" \nd").unwrap())));
        assert_eq!(end_of("\"open", text.len()), None);
        assert_eq!(end_of("b:", line_end("b:")), None);
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
}
