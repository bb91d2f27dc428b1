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

    /// Whether `span` is exactly a closing `]` or `}` (the end of a flow collection).
    pub(super) fn is_flow_end(&self, span: Span) -> bool {
        span.end == span.start.saturating_add(1)
            && matches!(self.text.as_bytes().get(self.shift.local(span.start) as usize), Some(b']' | b'}'))
    }
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
