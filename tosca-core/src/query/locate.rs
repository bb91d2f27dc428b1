//! The path of keys down to a byte offset of a file: what the cursor is on.

use crate::source::Span;
use crate::yaml::{Node, Value};

/// One step down a YAML tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// Into the value of the entry with this key.
    Key(String),
    /// Into the item at this index of a sequence.
    Index(usize),
}

/// What lies at an offset: the path of keys to it and the innermost node there.
#[derive(Clone, Debug)]
pub struct Target<'a> {
    /// The steps from the root to the node (for a key, the steps to the mapping holding it, then
    /// the key itself).
    pub path: Vec<Step>,
    /// The innermost node holding the offset: a key, a scalar value, or the collection whose
    /// entries do not hold it (the cursor between them).
    pub node: &'a Node,
    /// Whether the node is a mapping's key rather than a value.
    pub on_key: bool,
}

impl Target<'_> {
    /// The keys of the path, with sequence indexes left out (`["topology_template",
    /// "node_templates", "web", "requirements", "host"]`).
    pub fn keys(&self) -> Vec<&str> {
        self.path
            .iter()
            .filter_map(|step| match step {
                Step::Key(key) => Some(key.as_str()),
                Step::Index(_) => None,
            })
            .collect()
    }

    /// The span of the node.
    pub fn span(&self) -> Span {
        self.node.span
    }
}

/// What lies at byte `offset` of the tree `root` (an offset at either end of a scalar counts as
/// on it, as an editor's cursor after the last character does).
pub fn locate(root: &Node, offset: u32) -> Target<'_> {
    let mut path = Vec::new();
    let mut node = root;
    loop {
        match &node.value {
            Value::Mapping(entries) => {
                let Some(entry) =
                    entries.iter().find(|entry| holds(entry.key.span, offset) || holds(entry.value.span, offset))
                else {
                    return Target { path, node, on_key: false };
                };
                let key = entry.key.as_str().unwrap_or_default().to_owned();
                path.push(Step::Key(key));
                if holds(entry.key.span, offset) {
                    return Target { path, node: &entry.key, on_key: true };
                }
                node = &entry.value;
            }
            Value::Sequence(items) => {
                let Some((index, item)) = items.iter().enumerate().find(|(_, item)| holds(item.span, offset)) else {
                    return Target { path, node, on_key: false };
                };
                path.push(Step::Index(index));
                node = item;
            }
            Value::Scalar(_) => return Target { path, node, on_key: false },
        }
    }
}

/// The node at the end of `path` from `root`, if every step is there.
pub fn descend<'a>(root: &'a Node, path: &[Step]) -> Option<&'a Node> {
    path.iter().try_fold(root, |node, step| match step {
        Step::Key(key) => node.get(key),
        Step::Index(index) => node.as_sequence()?.get(*index),
    })
}

/// Whether `span` holds `offset`, its end included.
fn holds(span: Span, offset: u32) -> bool {
    span.start <= offset && offset <= span.end && (span.start < span.end || span.start == offset)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::SourceId;

    #[test]
    fn finds_the_keys_down_to_a_value_and_a_key() {
        let text = "topology_template:\n  node_templates:\n    web:\n      requirements:\n        - host: server\n";
        let root = super::super::parse(SourceId(0), text).expect("YAML");
        let at = text.find("server").expect("there") as u32 + 2;
        let target = locate(&root, at);
        assert_eq!(target.keys(), ["topology_template", "node_templates", "web", "requirements", "host"]);
        assert_eq!((target.node.as_str(), target.on_key), (Some("server"), false));
        let target = locate(&root, text.find("web").expect("there") as u32);
        assert_eq!(target.keys(), ["topology_template", "node_templates", "web"]);
        assert!(target.on_key);
        let item = descend(&root, &target.path[..2]).expect("there");
        assert_eq!(item.get("web").and_then(|web| web.get("requirements")).map(|list| list.span.line), Some(5));
        assert!(descend(&root, &[Step::Key("nothing".into())]).is_none());
    }
}
