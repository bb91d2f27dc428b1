//! Quoting arguments in reasons: scalars as written, collections in flow style, cut short.

use std::fmt::Write as _;

use crate::yaml::{Node, Value};

/// How many characters of an argument a reason quotes before cutting it short with `…`.
pub(super) const SHOWN_CHARS: usize = 60;

/// A node as a reason quotes it: scalars as written, collections in flow style, cut short.
pub(super) fn show(node: &Node) -> String {
    let mut out = String::new();
    write_node(node, &mut out);
    shorten(&out)
}

fn write_node(node: &Node, out: &mut String) {
    // Stop early on big values: only the first characters are shown.
    if out.len() > SHOWN_CHARS * 4 {
        return;
    }
    match &node.value {
        Value::Scalar(scalar) => {
            for c in scalar.text.chars() {
                if c.is_control() {
                    let _ = write!(out, "{}", c.escape_default());
                } else {
                    out.push(c);
                }
            }
        }
        Value::Sequence(items) => {
            out.push('[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push_str(", ");
                }
                write_node(item, out);
            }
            out.push(']');
        }
        Value::Mapping(entries) => {
            out.push('{');
            for (index, entry) in entries.iter().enumerate() {
                if index > 0 {
                    out.push_str(", ");
                }
                write_node(&entry.key, out);
                out.push_str(": ");
                write_node(&entry.value, out);
            }
            out.push('}');
        }
    }
}

/// `text`, cut to [`SHOWN_CHARS`] characters with `…` when longer.
pub(crate) fn shorten(text: &str) -> String {
    match text.char_indices().nth(SHOWN_CHARS) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_owned(),
    }
}
