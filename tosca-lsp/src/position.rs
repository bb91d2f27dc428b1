//! Byte offsets to LSP positions and back, in the encoding negotiated with the client (UTF-16
//! by default, UTF-8 when the client offers it).

use lsp_types::{Position, Range};

/// How the client counts characters in a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// UTF-16 code units (the protocol's default).
    Utf16,
    /// Bytes.
    Utf8,
}

/// The line starts of one text, to convert between byte offsets and positions.
#[derive(Clone, Debug)]
pub struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    /// Indexes `text`'s lines (a line ends after `\n`).
    pub fn new(text: &str) -> LineIndex {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(at, _)| at + 1));
        LineIndex { starts }
    }

    /// The position of byte `offset` of `text` (clamped to the text, and back to a character
    /// boundary).
    pub fn position(&self, text: &str, offset: usize, encoding: Encoding) -> Position {
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|start| *start <= offset) - 1;
        let before = &text[self.starts[line]..offset];
        let character = match encoding {
            Encoding::Utf8 => before.len(),
            Encoding::Utf16 => before.encode_utf16().count(),
        };
        Position::new(to_u32(line), to_u32(character))
    }

    /// The range of bytes `start..end` of `text`.
    pub fn range(&self, text: &str, start: usize, end: usize, encoding: Encoding) -> Range {
        Range::new(self.position(text, start, encoding), self.position(text, end.max(start), encoding))
    }

    /// The byte offset of `position` in `text`, clamped to its line and to the text.
    pub fn offset(&self, text: &str, position: Position, encoding: Encoding) -> usize {
        let Some(start) = self.starts.get(position.line as usize).copied() else { return text.len() };
        let end = self.starts.get(position.line as usize + 1).copied().unwrap_or(text.len());
        let line = &text[start..end];
        let mut units = 0usize;
        for (at, character) in line.char_indices() {
            if units >= position.character as usize || character == '\n' {
                return start + at;
            }
            units += match encoding {
                Encoding::Utf8 => character.len_utf8(),
                Encoding::Utf16 => character.len_utf16(),
            };
        }
        end
    }
}

fn to_u32(value: usize) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_utf16_units_and_bytes() {
        let text = "a: é𝄞x\nb: 1\n";
        let index = LineIndex::new(text);
        let x = text.find('x').expect("there");
        assert_eq!(index.position(text, x, Encoding::Utf16), Position::new(0, 6));
        assert_eq!(index.position(text, x, Encoding::Utf8), Position::new(0, 9));
        assert_eq!(index.offset(text, Position::new(0, 6), Encoding::Utf16), x);
        assert_eq!(index.offset(text, Position::new(1, 99), Encoding::Utf16), text.len() - 1);
        assert_eq!(index.offset(text, Position::new(9, 0), Encoding::Utf16), text.len());
        assert_eq!(index.position(text, text.len(), Encoding::Utf16), Position::new(2, 0));
    }
}
