//! Text that is not UTF-8, decoded as Windows-1252: the encoding of the stray bytes real files
//! carry (a `’` typed in a Windows editor and pasted into a description is the byte 0x92).
//!
//! YAML 1.2 (5.2) reads UTF-8, UTF-16 and UTF-32 only, so such a file is still reported; decoding
//! it rather than dropping it lets the reader go on, and keeps each stray character where it was
//! typed. UTF-8 runs stay UTF-8; every other byte decodes to one character: 0x80–0x9F as Windows-1252 has
//! them (the five it leaves undefined as the C1 controls of the same number, as WHATWG's
//! Encoding Standard does), 0xA0–0xFF as Latin-1.

/// The characters of 0x80–0x9F.
const HIGH_CONTROLS: [char; 32] = [
    '\u{20AC}', '\u{81}', '\u{201A}', '\u{0192}', '\u{201E}', '\u{2026}', '\u{2020}', '\u{2021}', '\u{02C6}',
    '\u{2030}', '\u{0160}', '\u{2039}', '\u{0152}', '\u{8D}', '\u{017D}', '\u{8F}', '\u{90}', '\u{2018}', '\u{2019}',
    '\u{201C}', '\u{201D}', '\u{2022}', '\u{2013}', '\u{2014}', '\u{02DC}', '\u{2122}', '\u{0161}', '\u{203A}',
    '\u{0153}', '\u{9D}', '\u{017E}', '\u{0178}',
];

/// Decodes `bytes`: its UTF-8 runs as UTF-8, every other byte as Windows-1252 (a file mixing
/// both keeps its UTF-8 characters).
pub(crate) fn decode(bytes: &[u8]) -> String {
    let mut text = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        text.push_str(chunk.valid());
        text.extend(chunk.invalid().iter().map(|&byte| match byte {
            0x80..=0x9F => HIGH_CONTROLS[usize::from(byte - 0x80)],
            _ => char::from(byte),
        }));
    }
    text
}

/// Whether decoded text reads as text: no control character but tab and line breaks (a binary
/// file decodes too, but is not worth reading as YAML).
pub(crate) fn is_text(text: &str) -> bool {
    !text.chars().any(|c| c.is_control() && !matches!(c, '\t' | '\n' | '\r'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stray_windows_bytes_become_their_characters() {
        assert_eq!(
            decode(b"the client\x92s \x93IP\x94 \x80 caf\xe9"),
            "the client\u{2019}s \u{201C}IP\u{201D} \u{20AC} caf\u{e9}"
        );
        assert!(is_text(&decode(b"description: client\x92s\n\tok\r\n")));
        // UTF-8 characters around a stray byte stay themselves.
        assert_eq!(
            decode("caf\u{e9} \u{2192} ".as_bytes().iter().chain(b"\x92").copied().collect::<Vec<_>>().as_slice()),
            "caf\u{e9} \u{2192} \u{2019}"
        );
    }

    #[test]
    fn binary_is_not_text() {
        assert!(!is_text(&decode(b"PK\x03\x04\x00\x00")));
        assert!(!is_text(&decode(b"text \x81 undefined")));
    }
}
