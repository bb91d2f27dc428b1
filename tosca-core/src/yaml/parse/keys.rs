//! Finding a key repeated in a mapping: small mappings are scanned, larger ones keep a hash
//! index of their keys' structure.

use std::collections::HashMap;
use std::hash::{BuildHasher, Hash, Hasher};

use foldhash::fast::FixedState;

use crate::yaml::{Entry, Node, Value};

#[derive(Default)]
pub(super) struct MapBody {
    pub(super) entries: Vec<Entry>,
    /// A key waiting for its value, and the index of the entry it repeats, if it does: like
    /// PyYAML, a repeated key's last value wins (still reported as `duplicate-key`).
    pub(super) pending: Option<(Node, Option<usize>)>,
    /// Structural hash of each kept key → index of its entry; built only once the mapping has
    /// [`SCAN_LIMIT`] entries (smaller ones are scanned).
    keys: HashMap<u64, usize, FixedState>,
}

/// Up to this many entries, a mapping finds repeated keys by scanning them.
const SCAN_LIMIT: usize = 8;

impl MapBody {
    /// The index of the entry where `key` was first used in this mapping, if it was; otherwise
    /// remembers it.
    pub(super) fn first_use(&mut self, key: &Node) -> Option<usize> {
        let index = self.entries.len();
        if index < SCAN_LIMIT {
            return self.entries.iter().position(|entry| same_node(&entry.key, key));
        }
        if self.keys.is_empty() {
            for (earlier, entry) in self.entries.iter().enumerate() {
                self.keys.entry(hash_key(&self.keys, &entry.key)).or_insert(earlier);
            }
        }
        let hash = hash_key(&self.keys, key);
        match self.keys.get(&hash).and_then(|&i| self.entries.get(i)) {
            Some(first) if same_node(&first.key, key) => self.keys.get(&hash).copied(),
            // A hash collision: fall back to a scan.
            Some(_) => self.entries.iter().position(|entry| same_node(&entry.key, key)),
            None => {
                self.keys.insert(hash, index);
                None
            }
        }
    }
}

/// The structural hash of a key, with the hasher of `keys`.
fn hash_key(keys: &HashMap<u64, usize, FixedState>, key: &Node) -> u64 {
    let mut hasher = keys.hasher().build_hasher();
    hash_node(key, &mut hasher);
    hasher.finish()
}

/// Hashes a node's structure (scalar text only; no spans, styles or tags).
fn hash_node(node: &Node, hasher: &mut impl Hasher) {
    if let Value::Scalar(scalar) = &node.value {
        (0u8, &scalar.text).hash(hasher);
        return;
    }
    let mut stack = vec![node];
    while let Some(node) = stack.pop() {
        match &node.value {
            Value::Scalar(scalar) => (0u8, &scalar.text).hash(hasher),
            Value::Sequence(items) => {
                (1u8, items.len()).hash(hasher);
                stack.extend(items.iter().rev());
            }
            Value::Mapping(entries) => {
                (2u8, entries.len()).hash(hasher);
                for entry in entries.iter().rev() {
                    stack.push(&entry.value);
                    stack.push(&entry.key);
                }
            }
        }
    }
}

/// Whether two nodes have the same structure and scalar texts.
fn same_node(a: &Node, b: &Node) -> bool {
    match (&a.value, &b.value) {
        (Value::Scalar(x), Value::Scalar(y)) => return x.text == y.text,
        (Value::Scalar(_), _) | (_, Value::Scalar(_)) => return false,
        _ => {}
    }
    let mut stack = vec![(a, b)];
    while let Some((a, b)) = stack.pop() {
        match (&a.value, &b.value) {
            (Value::Scalar(x), Value::Scalar(y)) if x.text == y.text => {}
            (Value::Sequence(x), Value::Sequence(y)) if x.len() == y.len() => stack.extend(x.iter().zip(y)),
            (Value::Mapping(x), Value::Mapping(y)) if x.len() == y.len() => {
                for (e, f) in x.iter().zip(y) {
                    stack.push((&e.key, &f.key));
                    stack.push((&e.value, &f.value));
                }
            }
            _ => return false,
        }
    }
    true
}
