//! Which argument of which function call the cursor is in, read from the text alone (as
//! [`super::cursor`] does), so it answers mid-word: in a flow list on the cursor's line
//! (`{ get_property: [ server, po` ) or in a block list under the function's key
//! (`get_property:` then `- server` and `- po` on lines of their own).

/// The argument of a call being written at the cursor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArgumentCursor {
    /// The key whose value the list is, `$` left out (`get_property`): the caller tells
    /// whether it names a function.
    pub function: String,
    /// The argument's index, 0 first.
    pub index: usize,
    /// The arguments written before it, as plain text (quotes left out).
    pub before: Vec<String>,
}

/// The argument of a call's list the cursor at byte `offset` of `text` is in, if any.
pub fn argument_at(text: &str, offset: usize) -> Option<ArgumentCursor> {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let line_start = text[..offset].rfind('\n').map_or(0, |at| at + 1);
    let line = &text[line_start..offset];
    in_flow_list(line).or_else(|| in_block_list(&text[..line_start], line))
}

/// The function key a list's opening follows (`get_property: [` gives `get_property`).
fn function_before(text: &str) -> Option<String> {
    let key = text.trim_end().strip_suffix(':')?;
    let key = key.rsplit(['{', ',', ' ']).next()?.trim_matches(['"', '\'']);
    let name = key.strip_prefix('$').unwrap_or(key);
    (!name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')).then(|| name.to_owned())
}

/// A flow list opened on `line` and still open at its end.
fn in_flow_list(line: &str) -> Option<ArgumentCursor> {
    // The innermost bracket still open, outside quotes.
    let mut open: Vec<(usize, char)> = Vec::new();
    let mut quote: Option<char> = None;
    for (at, c) in line.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '[' | '{') => open.push((at, c)),
            (None, ']' | '}') => {
                open.pop();
            }
            _ => {}
        }
    }
    let &(at, '[') = open.last()? else { return None };
    let function = function_before(&line[..at])?;
    let mut before: Vec<String> = split_arguments(&line[at + 1..]).into_iter().map(unquote).collect();
    before.pop();
    Some(ArgumentCursor { function, index: before.len(), before })
}

/// `text` split at its commas outside brackets and quotes.
fn split_arguments(text: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut quote, mut start) = (0usize, None, 0);
    for (at, c) in text.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '[' | '{') => depth += 1,
            (None, ']' | '}') => depth = depth.saturating_sub(1),
            (None, ',') if depth == 0 => {
                parts.push(&text[start..at]);
                start = at + 1;
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts
}

/// An argument's text without its blanks and quotes.
fn unquote(text: &str) -> String {
    text.trim().trim_matches(['"', '\'']).to_owned()
}

/// A block list item (`- po`) under a function's key, the items before it on lines of their own.
fn in_block_list(before_line: &str, line: &str) -> Option<ArgumentCursor> {
    let content = line.trim_start_matches(' ');
    let indent = line.len() - content.len();
    content.strip_prefix("- ").or_else(|| (content == "-").then_some(""))?;
    let mut before = Vec::new();
    for previous in before_line.lines().rev() {
        let content = previous.trim_start_matches(' ');
        if content.is_empty() || content.starts_with('#') {
            continue;
        }
        let previous_indent = previous.len() - content.len();
        if previous_indent == indent
            && let Some(item) = content.strip_prefix("- ")
        {
            before.push(unquote(item));
            continue;
        }
        if previous_indent > indent {
            // A nested value of an item before (a call in an argument): not a plain argument.
            return None;
        }
        let function = function_before(content)?;
        before.reverse();
        return Some(ArgumentCursor { function, index: before.len(), before });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at_end(text: &str) -> Option<ArgumentCursor> {
        argument_at(text, text.len())
    }

    #[test]
    fn reads_the_argument_of_a_flow_list() {
        let found = at_end("    port: { get_property: [ ser").expect("an argument");
        assert_eq!((found.function.as_str(), found.index, found.before.len()), ("get_property", 0, 0));
        let found = at_end("    port: { $get_attribute: [ \"server\", po").expect("an argument");
        assert_eq!(
            (found.function.as_str(), found.index, found.before),
            ("get_attribute", 1, vec!["server".to_owned()])
        );
        let found = at_end("    port: { concat: [ { get_property: [ SELF, host, ").expect("an argument");
        assert_eq!((found.function.as_str(), found.index), ("get_property", 2));
        assert_eq!(found.before, ["SELF", "host"]);
        // Inside a nested map, or after the list closed: not an argument of the list.
        assert!(at_end("    port: { get_property: [ { get_input: x").is_none());
        assert!(at_end("    port: { get_property: [ a, b ] }").is_none());
        assert_eq!(at_end("    port: [ a, b").map(|found| found.function).as_deref(), Some("port"));
    }

    #[test]
    fn reads_the_argument_of_a_block_list() {
        let text = "properties:\n  port:\n    get_property:\n      - server\n\n      - po";
        let found = at_end(text).expect("an argument");
        assert_eq!(
            (found.function.as_str(), found.index, found.before),
            ("get_property", 1, vec!["server".to_owned()])
        );
        let found = at_end("properties:\n  port:\n    $get_property:\n      - ").expect("an argument");
        assert_eq!((found.function.as_str(), found.index), ("get_property", 0));
        assert_eq!(at_end("requirements:\n  - ho").map(|found| found.function).as_deref(), Some("requirements"));
        assert!(at_end("properties:\n  port:\n    get_property:\n      - a:\n          b\n      - c").is_none());
    }
}
