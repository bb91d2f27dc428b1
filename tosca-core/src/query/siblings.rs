//! The keys already written in the map the cursor is in, read from indentation alone (like
//! [`cursor`](super::cursor())), so completion can leave them out while the text is not YAML.

use super::cursor::{key_of, split_indent};

/// The keys written at the cursor's indentation in the map holding byte `offset` of `text`,
/// above and below the cursor's line (not on it), in the order written. A sequence item is its
/// own map: the search stops at the dash that starts the cursor's item and at the next one.
pub fn siblings(text: &str, offset: usize) -> Vec<String> {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let line_start = text[..offset].rfind('\n').map_or(0, |at| at + 1);
    let line_end = text[offset..].find('\n').map_or(text.len(), |at| offset + at);
    let (indent, _) = split_indent(&text[line_start..offset]);
    let mut found = Vec::new();
    if !starts_item(&text[line_start..line_end]) {
        for line in text[..line_start].lines().rev() {
            match at_indent(line, indent) {
                Level::Deeper => continue,
                Level::Outside => break,
                Level::Same(key) => {
                    found.extend(key);
                    if starts_item(line) {
                        break;
                    }
                }
            }
        }
        found.reverse();
    }
    for line in text[line_end..].lines().skip(1) {
        match at_indent(line, indent) {
            Level::Deeper => continue,
            Level::Same(_) if starts_item(line) => break,
            Level::Same(key) => found.extend(key),
            Level::Outside => break,
        }
    }
    found
}

/// Where a line stands against the cursor's indentation.
enum Level {
    /// Deeper (a nested value), blank or a comment: no bearing on the map.
    Deeper,
    /// At the same indentation, with its key if it has one.
    Same(Option<String>),
    /// Shallower: the map has ended.
    Outside,
}

fn at_indent(line: &str, indent: usize) -> Level {
    let (line_indent, content) = split_indent(line);
    if content.is_empty() || content.starts_with('#') || line_indent > indent {
        Level::Deeper
    } else if line_indent < indent {
        Level::Outside
    } else {
        Level::Same(key_of(content).map(|(key, _)| key.to_owned()))
    }
}

/// Whether a line starts a sequence item (`- key: value`), so it begins a new map.
fn starts_item(line: &str) -> bool {
    let trimmed = line.trim_start_matches(' ');
    trimmed == "-" || trimmed.starts_with("- ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_of_the_same_map_above_and_below() {
        let text = "tosca_definitions_version: tosca_2_0\nimports:\n  - url: a.yaml\n    namespace: a\n    \n    description: |\n      text: not a key\n  - url: b.yaml\n    profile: x\nservice_template:\n  node_templates:\n    web:\n      type: Web\n      \n      properties:\n        port: 80\n";
        let in_item = text.find("    \n").expect("there") + 4;
        assert_eq!(siblings(text, in_item), ["url", "namespace", "description"]);
        let in_template = text.find("      \n").expect("there") + 6;
        assert_eq!(siblings(text, in_template), ["type", "properties"]);
        let at_root = text.len();
        assert_eq!(siblings(text, at_root), ["tosca_definitions_version", "imports", "service_template"]);
        // Typing a key's first letters: the line itself is left out.
        let typing = "node_types:\n  a:\n    derived_from: x\n    pro\n    interfaces: {}\n";
        assert_eq!(siblings(typing, typing.find("pro").expect("there") + 3), ["derived_from", "interfaces"]);
        // A new item's first key: nothing from the items around it.
        let new_item = "imports:\n  - url: a\n  - \n  - url: b\n";
        assert_eq!(siblings(new_item, new_item.find("- \n").expect("there") + 2), Vec::<String>::new());
    }
}
