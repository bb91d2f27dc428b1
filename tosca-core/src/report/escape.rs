//! Template text made harmless for terminals and CI logs. A template can hold any character,
//! and its names and values reach messages, labels and source snippets: an escape sequence
//! (`ESC [ 31 m`, a title change, a hyperlink) would be obeyed by the terminal or log viewer
//! showing the report, and a bidirectional override (`U+202E`) reorders what is shown so the
//! text reads differently from what it is ("Trojan Source", CVE-2021-42574).
//!
//! Every renderer passes template text through here: the human and GitHub formats write each
//! such character as a visible `\u{…}` escape, and the JSON and SARIF documents write it as a
//! JSON `\uXXXX` escape ([`SafeJson`]), so a parser reads the same string back.

use std::borrow::Cow;
use std::io::{self, Write};

/// Whether `c` must not reach a terminal or log as it is: control characters (C0 but tab, DEL,
/// C1), the bidirectional embeddings, overrides, isolates and marks, and the line and paragraph
/// separators (which some viewers take for line breaks).
pub fn is_unsafe(c: char) -> bool {
    (c.is_control() && c != '\t')
        || matches!(
            c,
            '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{2028}' | '\u{2029}'
        )
}

/// `text` with each [unsafe](is_unsafe) character written as `\u{…}` (its code point in hex),
/// and the line breaks too: what is printed is one line, exactly as many as the renderer meant.
pub fn escape_unsafe(text: &str) -> Cow<'_, str> {
    escape_where(text, is_unsafe)
}

/// `text` with the characters `escape` selects written as `\u{…}`.
pub fn escape_where(text: &str, escape: impl Fn(char) -> bool) -> Cow<'_, str> {
    if !text.chars().any(&escape) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if escape(c) {
            out.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// A serde_json formatter that writes like the pretty printer, but also escapes every
/// [unsafe](is_unsafe) character serde_json writes as it is (DEL, C1, the bidirectional
/// controls, the line separators) as `\uXXXX`: the document means the same, and printing it
/// raw (a `cat` in a CI job) shows nothing a terminal would obey.
pub struct SafeJson<'a> {
    pretty: serde_json::ser::PrettyFormatter<'a>,
}

impl SafeJson<'_> {
    /// Two-space indentation, as `serde_json::to_string_pretty`.
    pub fn new() -> Self {
        SafeJson { pretty: serde_json::ser::PrettyFormatter::new() }
    }
}

impl Default for SafeJson<'_> {
    fn default() -> Self {
        SafeJson::new()
    }
}

/// Writes `value` as pretty JSON, escaped by [`SafeJson`], followed by a newline.
pub fn write_json(value: &impl serde::Serialize, out: &mut dyn Write) -> io::Result<()> {
    let mut serializer = serde_json::Serializer::with_formatter(&mut *out, SafeJson::new());
    value.serialize(&mut serializer).map_err(io::Error::from)?;
    out.write_all(b"\n")
}

impl serde_json::ser::Formatter for SafeJson<'_> {
    fn write_string_fragment<W: ?Sized + Write>(&mut self, writer: &mut W, fragment: &str) -> io::Result<()> {
        let mut rest = fragment;
        while let Some((at, c)) = rest.char_indices().find(|(_, c)| is_unsafe(*c)) {
            writer.write_all(&rest.as_bytes()[..at])?;
            // Every unsafe character is in the Basic Multilingual Plane: one `\uXXXX`.
            write!(writer, "\\u{:04x}", u32::from(c))?;
            rest = &rest[at + c.len_utf8()..];
        }
        writer.write_all(rest.as_bytes())
    }

    fn begin_array<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.pretty.begin_array(writer)
    }

    fn end_array<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.pretty.end_array(writer)
    }

    fn begin_array_value<W: ?Sized + Write>(&mut self, writer: &mut W, first: bool) -> io::Result<()> {
        self.pretty.begin_array_value(writer, first)
    }

    fn end_array_value<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.pretty.end_array_value(writer)
    }

    fn begin_object<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.pretty.begin_object(writer)
    }

    fn end_object<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.pretty.end_object(writer)
    }

    fn begin_object_key<W: ?Sized + Write>(&mut self, writer: &mut W, first: bool) -> io::Result<()> {
        self.pretty.begin_object_key(writer, first)
    }

    fn begin_object_value<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.pretty.begin_object_value(writer)
    }

    fn end_object_value<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.pretty.end_object_value(writer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_bidi_and_separators_are_escaped() {
        assert_eq!(escape_unsafe("plain `text`\tok"), "plain `text`\tok");
        assert_eq!(escape_unsafe("a\u{1b}[31mb"), "a\\u{1b}[31mb");
        assert_eq!(escape_unsafe("x\u{202e}y\u{2066}z"), "x\\u{202e}y\\u{2066}z");
        assert_eq!(escape_unsafe("\u{9b}\u{7f}\n\r\u{2028}"), "\\u{9b}\\u{7f}\\u{a}\\u{d}\\u{2028}");
        assert!(matches!(escape_unsafe("é ü 日本"), Cow::Borrowed(_)));
    }

    #[test]
    fn json_reads_back_the_same_and_shows_nothing_raw() {
        let value = serde_json::json!({ "key\u{202e}": ["a\u{1b}b\u{7f}\u{9b}\u{2029}", "é \"q\" \\"] });
        let mut out = Vec::new();
        write_json(&value, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(!text.chars().any(|c| is_unsafe(c) && c != '\n'), "{text:?}");
        assert!(text.contains("\\u202e") && text.contains("\\u001b") && text.contains("\\u007f"), "{text}");
        assert_eq!(serde_json::from_str::<serde_json::Value>(&text).unwrap(), value);
        // Without anything to escape it is what the pretty printer writes.
        let plain = serde_json::json!({ "a": [1, "b"], "c": {} });
        let mut out = Vec::new();
        write_json(&plain, &mut out).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), serde_json::to_string_pretty(&plain).unwrap() + "\n");
    }
}
