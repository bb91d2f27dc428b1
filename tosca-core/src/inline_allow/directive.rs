//! What a `# puccini-rs: …` comment says: `allow(code, …)`, optionally followed by white space
//! and a reason for the reader. Another word followed by a parenthesis, or `allow` written
//! wrong, is malformed; prose after the marker is an ordinary comment.

use std::ops::Range;

/// The marker a comment of ours starts with (after the `#` and any white space).
pub(super) const MARKER: &str = "puccini-rs:";

/// A comment read as a directive. Ranges are byte ranges of the comment's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Directive {
    /// Not a comment of ours.
    None,
    /// `allow(…)`: each code name as written, with its range.
    Allow(Vec<(String, Range<usize>)>),
    /// A comment of ours that says nothing we can read: why, and where.
    Malformed(String, Range<usize>),
}

/// Reads a comment's text (what follows its `#`).
pub(super) fn read(text: &str) -> Directive {
    let marker = text.len() - text.trim_start().len();
    if !text[marker..].starts_with(MARKER) {
        return Directive::None;
    }
    let after_marker = marker + MARKER.len();
    let name_start = after_marker + (text[after_marker..].len() - text[after_marker..].trim_start().len());
    let name_end = name_start
        + text[name_start..]
            .find(|char: char| !(char.is_ascii_alphanumeric() || char == '-'))
            .unwrap_or(text.len() - name_start);
    let name = &text[name_start..name_end];
    // Prose after the marker (`# puccini-rs: the types tosca-parser adds`) is a comment for
    // people; a word followed by a parenthesis, or `allow`, is meant as a directive.
    if name != "allow" && !text[name_end..].starts_with('(') {
        return Directive::None;
    }
    if name != "allow" {
        return Directive::Malformed(
            format!("a `# puccini-rs:` comment says `{name}(…)`; the one directive is `allow(code, …)`"),
            marker..name_end,
        );
    }
    let rest = &text[name_end..];
    let Some(inside) = rest.strip_prefix('(') else {
        return Directive::Malformed(
            "`allow` must be followed by the codes in parentheses: `allow(code, …)`".to_owned(),
            name_start..name_end,
        );
    };
    let open = name_end + 1;
    let Some(close) = inside.find(')') else {
        return Directive::Malformed("`allow(` is not closed by a `)`".to_owned(), name_start..text.len());
    };
    let after = &inside[close + 1..];
    if !after.is_empty() && !after.starts_with([' ', '\t']) {
        return Directive::Malformed(
            "`allow(…)` must end the directive: anything after it is a reason, separated by a space".to_owned(),
            open + close + 1..text.len(),
        );
    }
    let mut codes = Vec::new();
    let mut offset = open;
    for part in inside[..close].split(',') {
        let leading = part.len() - part.trim_start().len();
        let name = part.trim();
        let start = offset + leading;
        if name.is_empty() || !name.chars().all(|char| char.is_ascii_alphanumeric() || char == '-') {
            let what = if name.is_empty() {
                "an empty code".to_owned()
            } else {
                format!("`{name}`, which is not a code name")
            };
            return Directive::Malformed(
                format!("`allow(…)` lists {what}; write `allow(code, …)` with kebab-case codes"),
                if name.is_empty() { name_start..open + close + 1 } else { start..start + name.len() },
            );
        }
        codes.push((name.to_owned(), start..start + name.len()));
        offset += part.len() + 1;
    }
    Directive::Allow(codes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn allowed(text: &str) -> Vec<(String, Range<usize>)> {
        match read(text) {
            Directive::Allow(codes) => codes,
            other => panic!("{text:?} read as {other:?}"),
        }
    }

    #[test]
    fn reads_the_codes_and_where_each_is() {
        assert_eq!(allowed(" puccini-rs: allow(a-b)"), vec![("a-b".to_owned(), 19..22)]);
        let text = "puccini-rs:allow( one ,two) the vendor's types";
        assert_eq!(allowed(text), vec![("one".to_owned(), 18..21), ("two".to_owned(), 23..26)]);
        assert_eq!(&text[18..21], "one");
    }

    #[test]
    fn other_comments_are_not_ours() {
        assert_eq!(read(" a comment about puccini-rs: fine"), Directive::None);
        assert_eq!(read(""), Directive::None);
        assert_eq!(read(" puccini-rs: the types tosca-parser adds"), Directive::None);
        assert_eq!(read(" puccini-rs:"), Directive::None);
    }

    #[test]
    fn mistakes_are_malformed_with_a_reason() {
        for text in [
            " puccini-rs: ignore(x)",
            " puccini-rs: allow x",
            " puccini-rs: allow(x",
            " puccini-rs: allow()",
            " puccini-rs: allow(x,)",
            " puccini-rs: allow(x y)",
            " puccini-rs: allow(x)y",
        ] {
            assert!(matches!(read(text), Directive::Malformed(..)), "{text:?}: {:?}", read(text));
        }
        let Directive::Malformed(message, range) = read(" puccini-rs: ignore(x)") else { unreachable!() };
        assert!(message.contains("`ignore(…)`"), "{message}");
        assert_eq!(range, 1..19);
    }
}
