//! The comments of a YAML text, found without parsing it (the YAML reader drops comments): a
//! `#` at the start of a line or after white space, outside a quoted scalar (which may span
//! lines) and outside a block scalar's content (`|` and `>`), where a `#` is text.

/// One comment: where its `#` is and what follows it on its line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Comment {
    /// The 0-based index of its line.
    pub line: usize,
    /// The byte offset of its text, right after the `#`.
    pub start: usize,
    /// Its text, from after the `#` to the end of the line (without the line break).
    pub text: String,
    /// Whether only white space comes before it on its line.
    pub own_line: bool,
}

/// The byte offset where each line of `text` starts, and one past the end.
pub(super) fn line_starts(text: &str) -> Vec<usize> {
    let mut starts = vec![0];
    starts.extend(text.match_indices('\n').map(|(index, _)| index + 1));
    if starts.last() != Some(&text.len()) {
        starts.push(text.len());
    }
    starts
}

/// A line without its line break.
pub(super) fn line_text<'a>(text: &'a str, starts: &[usize], line: usize) -> &'a str {
    let (Some(&start), Some(&end)) = (starts.get(line), starts.get(line + 1)) else { return "" };
    text[start..end].trim_end_matches(['\n', '\r'])
}

/// How many spaces a line starts with.
pub(super) fn indent(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

/// Whether a line holds nothing but white space, or a comment.
pub(super) fn is_blank_or_comment(line: &str) -> bool {
    let trimmed = line.trim_start();
    trimmed.is_empty() || trimmed.starts_with('#')
}

/// Where a quoted scalar left the scanner at the end of a line.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Quote {
    None,
    Single,
    Double,
}

/// Every comment of `text`, in order.
pub(super) fn comments(text: &str) -> Vec<Comment> {
    let starts = line_starts(text);
    let mut comments = Vec::new();
    let mut quote = Quote::None;
    // Inside a block scalar: the lines indented past this column (and blank lines) are its text.
    let mut block_parent: Option<usize> = None;
    for line in 0..starts.len().saturating_sub(1) {
        let content = line_text(text, &starts, line);
        if let Some(parent) = block_parent {
            if content.trim().is_empty() || indent(content) > parent {
                continue;
            }
            block_parent = None;
        }
        let bytes = content.as_bytes();
        let mut code_end = content.len();
        let mut index = 0;
        while index < bytes.len() {
            let byte = bytes[index];
            match quote {
                Quote::Single if byte == b'\'' => {
                    if bytes.get(index + 1) == Some(&b'\'') {
                        index += 1;
                    } else {
                        quote = Quote::None;
                    }
                }
                Quote::Double if byte == b'\\' => index += 1,
                Quote::Double if byte == b'"' => quote = Quote::None,
                Quote::None if byte == b'#' && (index == 0 || matches!(bytes[index - 1], b' ' | b'\t')) => {
                    comments.push(Comment {
                        line,
                        start: starts[line] + index + 1,
                        text: content[index + 1..].to_owned(),
                        own_line: content[..index].trim().is_empty(),
                    });
                    code_end = index;
                    break;
                }
                Quote::None if matches!(byte, b'\'' | b'"') && opens_quote(bytes, index) => {
                    quote = if byte == b'\'' { Quote::Single } else { Quote::Double };
                }
                _ => {}
            }
            index += 1;
        }
        if quote == Quote::None {
            block_parent = block_scalar_parent(&content[..code_end]);
        }
    }
    comments
}

/// Whether the quote at `index` starts a quoted scalar: first on its line, after a flow
/// indicator, or after white space that follows an indicator (`key: '…'`, `- "…"`), a tag or
/// an anchor (`key: !!str '…'`) between them. A quote inside a plain scalar (`it's`) does not.
fn opens_quote(bytes: &[u8], index: usize) -> bool {
    if index == 0 {
        return true;
    }
    let immediate = bytes[index - 1];
    if matches!(immediate, b'[' | b'{' | b',') {
        return true;
    }
    if !matches!(immediate, b' ' | b'\t') {
        return false;
    }
    let mut before = trim_end(&bytes[..index]);
    // Tags and anchors stand between an indicator and its value.
    loop {
        let token_start = before.iter().rposition(|byte| matches!(byte, b' ' | b'\t')).map_or(0, |space| space + 1);
        match before.get(token_start) {
            Some(b'!' | b'&') => before = trim_end(&before[..token_start]),
            _ => break,
        }
    }
    before.last().is_none_or(|last| matches!(last, b':' | b'-' | b'?' | b',' | b'[' | b'{'))
}

fn trim_end(bytes: &[u8]) -> &[u8] {
    let end = bytes.iter().rposition(|byte| !matches!(byte, b' ' | b'\t')).map_or(0, |last| last + 1);
    &bytes[..end]
}

/// When a line (its comment left out) ends with a block scalar indicator (`key: |`, `- >-`),
/// the column its content must be indented past.
fn block_scalar_parent(code: &str) -> Option<usize> {
    let code = code.trim_end();
    let (before, indicator) = match code.rfind([' ', '\t']) {
        Some(space) => (&code[..space], &code[space + 1..]),
        None => ("", code),
    };
    let mut chars = indicator.chars();
    if !matches!(chars.next(), Some('|' | '>'))
        || indicator.len() > 3
        || !chars.all(|char| char.is_ascii_digit() || matches!(char, '+' | '-'))
    {
        return None;
    }
    let mut before = before.trim_end();
    // A tag or an anchor may stand between the indicator and the key (`key: !!str |`).
    while let Some(token) = before.rsplit([' ', '\t']).next()
        && (token.starts_with('!') || token.starts_with('&'))
    {
        before = before[..before.len() - token.len()].trim_end();
    }
    let line_indent = indent(code);
    if before.ends_with(':') {
        // `key: |` or `- key: |`: past the key's column.
        let key = before.trim_start().trim_start_matches(['-', ' ', '\t']);
        Some(before.len() - key.len())
    } else if before.trim().is_empty() || before.ends_with('-') || before.ends_with('?') {
        Some(line_indent)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(yaml: &str) -> Vec<(usize, String, bool)> {
        comments(yaml).into_iter().map(|comment| (comment.line, comment.text, comment.own_line)).collect()
    }

    #[test]
    fn finds_comments_on_their_own_and_after_values() {
        let yaml = "# top\nkey: value # after\nother: a#b\n";
        assert_eq!(texts(yaml), vec![(0, " top".to_owned(), true), (1, " after".to_owned(), false)]);
    }

    #[test]
    fn a_hash_inside_quotes_is_text_even_across_lines() {
        let yaml = "a: 'x # no' # yes\nb: \"one\n  # still text\" # comment\nc: it's # real\nd: 'it''s # no'\n";
        assert_eq!(
            texts(yaml),
            vec![(0, " yes".to_owned(), false), (2, " comment".to_owned(), false), (3, " real".to_owned(), false)]
        );
        let yaml = "a: !!str 'x # no'\nb: &anchor \"y # no\"  # yes\nc: [ 'p # no', \"q # no\" ]\n";
        assert_eq!(texts(yaml), vec![(1, " yes".to_owned(), false)]);
    }

    #[test]
    fn a_block_scalar_holds_text_not_comments() {
        let yaml = "a: |\n  # text\n\n  more\n# comment\nb:\n  - >-\n    # text\n  - c # comment\n";
        assert_eq!(texts("a: !!str &x |\n  # text\nb: 1 # comment\n"), vec![(2, " comment".to_owned(), false)]);
        assert_eq!(texts(yaml), vec![(4, " comment".to_owned(), true), (8, " comment".to_owned(), false)]);
    }

    #[test]
    fn line_starts_end_at_the_text_end() {
        assert_eq!(line_starts("a\nb"), vec![0, 2, 3]);
        assert_eq!(line_starts("a\n"), vec![0, 2]);
    }
}
