//! Lines and columns of a source text, found in logarithmic time: every renderer turns many
//! spans of one file into lines and columns, so the line starts are indexed once per file
//! rather than counted from the top (or over the span) for each span.

use std::collections::HashMap;
use std::sync::Arc;

use crate::source::{SourceFile, SourceId, SourceMap};

/// How many bytes each character-count checkpoint covers: a column is counted over at most
/// this many bytes of a non-ASCII text, however long its line.
const BLOCK: usize = 4096;

/// The line starts of one text, and for a text that is not all ASCII the number of characters
/// before every 4,096th byte (`BLOCK`).
#[derive(Debug)]
pub struct LineIndex {
    /// Byte offset of the start of each line; the first is 0.
    starts: Vec<u32>,
    /// Characters before byte `i × BLOCK`, for each `i`; empty when the text is ASCII (a
    /// column is then a byte count).
    chars_before_block: Vec<u32>,
    /// The text's length in bytes.
    len: usize,
}

impl LineIndex {
    /// Indexes `text` (one pass).
    pub fn new(text: &str) -> LineIndex {
        let bytes = text.as_bytes();
        let mut starts = vec![0];
        starts.extend(memchr::memchr_iter(b'\n', bytes).map(|at| to_u32(at + 1)));
        let chars_before_block = if text.is_ascii() {
            Vec::new()
        } else {
            let mut counts = Vec::with_capacity(bytes.len() / BLOCK + 1);
            let mut chars = 0;
            for block in bytes.chunks(BLOCK) {
                counts.push(to_u32(chars));
                chars += block.iter().filter(|byte| !is_continuation(**byte)).count();
            }
            counts.push(to_u32(chars));
            counts
        };
        LineIndex { starts, chars_before_block, len: bytes.len() }
    }

    /// The number of lines (a text with no line break has one).
    pub fn lines(&self) -> usize {
        self.starts.len()
    }

    /// The 0-based line holding byte `offset` (clamped to the text).
    pub fn line_of(&self, offset: usize) -> usize {
        let offset = to_u32(offset.min(self.len));
        self.starts.partition_point(|start| *start <= offset) - 1
    }

    /// The byte offset where 0-based `line` starts (the end of the text past the last line).
    pub fn line_start(&self, line: usize) -> usize {
        self.starts.get(line).map_or(self.len, |start| *start as usize)
    }

    /// The byte offset where 0-based `line` ends, before its line break (`\n` or `\r\n`).
    pub fn line_end(&self, line: usize, text: &str) -> usize {
        let next = self.starts.get(line + 1).map_or(self.len, |start| *start as usize - 1);
        let start = self.line_start(line).min(next);
        if next > start && text.as_bytes().get(next - 1) == Some(&b'\r') { next - 1 } else { next }
    }

    /// The 1-based column, in characters, of byte `offset` of `text` (clamped to the text).
    pub fn column_of(&self, offset: usize, text: &str) -> usize {
        let offset = offset.min(self.len);
        let start = self.line_start(self.line_of(offset));
        self.chars_before(offset, text) - self.chars_before(start, text) + 1
    }

    /// Characters before byte `offset`: a byte count for ASCII, else the checkpoint before it
    /// plus at most one block counted.
    fn chars_before(&self, offset: usize, text: &str) -> usize {
        if self.chars_before_block.is_empty() {
            return offset;
        }
        let block = offset / BLOCK;
        let counted = text.as_bytes()[block * BLOCK..offset].iter().filter(|byte| !is_continuation(**byte)).count();
        self.chars_before_block[block] as usize + counted
    }
}

/// Whether `byte` continues a UTF-8 sequence (so is not the start of a character).
fn is_continuation(byte: u8) -> bool {
    byte & 0xC0 == 0x80
}

fn to_u32(value: usize) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

/// A file with its line index.
pub type IndexedFile = (Arc<SourceFile>, Arc<LineIndex>);

/// The files of one compilation with their line indexes, each built the first time a span of
/// that file is asked about.
pub struct Lines<'s> {
    sources: &'s SourceMap,
    files: HashMap<SourceId, Option<IndexedFile>>,
}

impl<'s> Lines<'s> {
    /// No file indexed yet.
    pub fn new(sources: &'s SourceMap) -> Lines<'s> {
        Lines { sources, files: HashMap::new() }
    }

    /// The source map the files come from.
    pub fn sources(&self) -> &'s SourceMap {
        self.sources
    }

    /// A file and its index; `None` for an id the map does not know.
    pub fn file(&mut self, source: SourceId) -> Option<IndexedFile> {
        let sources = self.sources;
        self.files
            .entry(source)
            .or_insert_with(|| {
                sources.get(source).map(|file| {
                    let index = Arc::new(LineIndex::new(&file.text));
                    (file, index)
                })
            })
            .clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_columns_agree_with_counting() {
        for text in ["", "a", "a\n", "ab\ncd\r\n\né\n", "é\u{202e}x\ny", &"é".repeat(5000)] {
            let index = LineIndex::new(text);
            assert_eq!(index.lines(), text.matches('\n').count() + 1, "{text:?}");
            for offset in (0..=text.len()).filter(|at| text.is_char_boundary(*at)) {
                let before = &text[..offset];
                let line = before.matches('\n').count();
                let column = before.rsplit('\n').next().map_or(0, |part| part.chars().count()) + 1;
                assert_eq!(index.line_of(offset), line, "{text:?} {offset}");
                assert_eq!(index.column_of(offset, text), column, "{text:?} {offset}");
            }
        }
    }

    #[test]
    fn line_ends_leave_out_the_line_break() {
        let text = "ab\r\ncd\n\nlast";
        let index = LineIndex::new(text);
        let lines: Vec<&str> =
            (0..index.lines()).map(|line| &text[index.line_start(line)..index.line_end(line, text)]).collect();
        assert_eq!(lines, ["ab", "cd", "", "last"]);
    }
}
