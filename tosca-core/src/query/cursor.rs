//! What the cursor is in, read from the text's indentation alone, so it answers while the text
//! being typed is not valid YAML yet (as it usually is, mid-word, when completion is asked).

/// The keys around a cursor.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cursor {
    /// The keys of the maps holding the cursor's line, outermost first (sequence dashes
    /// skipped): `["topology_template", "node_templates", "web", "requirements"]`.
    pub parents: Vec<String>,
    /// The key written on the cursor's line before the cursor, when the cursor is after its
    /// colon (in its value).
    pub key: Option<String>,
    /// The word being typed, up to the cursor (in a value, with its colons: `a:Ser`).
    pub prefix: String,
}

impl Cursor {
    /// Whether the cursor is in a value (after `key:`) rather than where a key is written.
    pub fn in_value(&self) -> bool {
        self.key.is_some()
    }

    /// The parents and the key, as one path.
    pub fn path(&self) -> Vec<&str> {
        self.parents.iter().map(String::as_str).chain(self.key.as_deref()).collect()
    }
}

/// The cursor at byte `offset` of `text` (a block-style YAML text).
pub fn cursor(text: &str, offset: usize) -> Cursor {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let line_start = text[..offset].rfind('\n').map_or(0, |at| at + 1);
    let line = &text[line_start..offset];
    let (indent, content) = split_indent(line);
    let word_start = content
        .char_indices()
        .rev()
        .take_while(|(_, c)| !c.is_whitespace() && !"[]{},".contains(*c))
        .last()
        .map_or(content.len(), |(at, _)| at);
    let word = &content[word_start..];
    // In a value the word keeps its colons (a namespace prefix: `a:Server`); before the first
    // `: ` of the line it ends at its last colon (`key:` is no word of a value).
    let prefix = match content.find(": ") {
        Some(colon) if word_start > colon => word,
        _ => word.rsplit(':').next().unwrap_or_default(),
    }
    .to_owned();
    let key = key_of(content)
        .filter(|(_, rest)| !rest.is_empty() || content.trim_end().ends_with(':'))
        .map(|(key, _)| key.to_owned());
    // A line holding only `key:` with more after the colon counts as in that key's value; a
    // flow map (`{ get_input: i`) names its innermost key.
    let key = match content.rfind(['{', ',']) {
        Some(at) if content[at + 1..].contains(':') => {
            key_of(content[at + 1..].trim_start()).map(|(key, _)| key.to_owned())
        }
        _ => key,
    };
    let mut parents = Vec::new();
    let mut threshold = indent;
    for previous in text[..line_start].lines().rev() {
        if threshold == 0 {
            break;
        }
        let (indent, content) = split_indent(previous);
        if content.is_empty() || content.starts_with('#') || indent >= threshold {
            continue;
        }
        if let Some((key, _)) = key_of(content) {
            parents.push(key.to_owned());
        }
        threshold = indent;
    }
    parents.reverse();
    Cursor { parents, key, prefix }
}

/// A line's indentation (sequence dashes counted as indentation) and the rest.
pub(super) fn split_indent(line: &str) -> (usize, &str) {
    let mut indent = 0;
    let mut rest = line;
    loop {
        let trimmed = rest.trim_start_matches(' ');
        indent += rest.len() - trimmed.len();
        rest = trimmed;
        match rest.strip_prefix("- ").or_else(|| (rest == "-").then_some("")) {
            Some(after) => {
                indent += rest.len() - after.len();
                rest = after;
            }
            None => return (indent, rest),
        }
    }
}

/// The key of a `key: value` line and what follows its colon.
pub(super) fn key_of(content: &str) -> Option<(&str, &str)> {
    let at = content.find(": ").or_else(|| content.strip_suffix(':').map(str::len))?;
    let key = content[..at].trim().trim_matches(['"', '\'']);
    (!key.is_empty() && !key.contains(['{', '[', '#'])).then(|| (key, content.get(at + 1..).unwrap_or("").trim_start()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_keys_around_the_cursor_from_indentation() {
        let text = "topology_template:\n  node_templates:\n    web:\n      type: tosca.nodes.Web\n      requirements:\n        - host: ser\n      prop\n";
        let at = text.find("ser\n").expect("there") + 3;
        let found = cursor(text, at);
        assert_eq!(found.parents, ["topology_template", "node_templates", "web", "requirements"]);
        assert_eq!((found.key.as_deref(), found.prefix.as_str()), (Some("host"), "ser"));
        let at = text.find("prop").expect("there") + 4;
        let found = cursor(text, at);
        assert_eq!(found.parents, ["topology_template", "node_templates", "web"]);
        assert_eq!((found.key, found.prefix.as_str()), (None, "prop"));
        let text = "x:\n  y: { get_input: po";
        let found = cursor(text, text.len());
        assert_eq!(
            (found.parents.clone(), found.key.as_deref(), found.prefix.as_str()),
            (vec!["x".to_owned()], Some("get_input"), "po")
        );
    }

    #[test]
    fn a_value_being_typed_keeps_its_namespace_prefix() {
        let prefix = |text: &str| cursor(text, text.len()).prefix;
        assert_eq!(prefix("x:\n  type: a:Ser"), "a:Ser");
        assert_eq!(prefix("x:\n  type: a:"), "a:");
        assert_eq!(prefix("x:\n  type: [ b:Server, a:"), "a:");
        // Not in a value yet, or no space after the key's colon: nothing of the key.
        assert_eq!(prefix("x:\n  type:"), "");
        assert_eq!(prefix("x:\n  type:Ser"), "Ser");
        assert_eq!(prefix("x:\n  typ"), "typ");
        assert_eq!(cursor("x:\n  type: a:", 14).key.as_deref(), Some("type"));
    }
}
