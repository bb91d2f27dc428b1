//! A list whose items may each be written under a name: `- item` or `- name: item`.

use super::read::{empty_is_wrong, key_text, wrong_kind};
use super::{EntityInfo, Kind, Read, ReadContext, References};
use crate::source::Located;
use crate::yaml::{Node, Value};

/// A list of entities each written as it is (`- types.yaml`, `- file: types.yaml`) or under a
/// name (`- my_types: types.yaml`, `- my_types: { file: types.yaml }`), the two shapes TOSCA 1.x
/// import definitions take.
///
/// An item is named when it is a single-entry map whose key is not one of the entity's
/// keynames ([`EntityInfo::KEYS`]); any other item is the entity itself. The container only
/// tells the shapes apart: whether a name is allowed, and whether names must be unique, is for
/// the phase that reads the list to say (it knows the version and has every name).
#[derive(Clone, Debug)]
pub struct MaybeNamed<T>(pub Vec<NamedItem<T>>);

/// One item of a [`MaybeNamed`] list.
#[derive(Clone, Debug)]
pub struct NamedItem<T> {
    /// The name the item was written under, if any.
    pub name: Option<Located<String>>,
    /// The entity.
    pub value: T,
}

impl<T> std::ops::Deref for NamedItem<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.value
    }
}

impl<T> Default for MaybeNamed<T> {
    fn default() -> Self {
        MaybeNamed(Vec::new())
    }
}

impl<T> MaybeNamed<T> {
    /// The items, in document order.
    pub fn iter(&self) -> std::slice::Iter<'_, NamedItem<T>> {
        self.0.iter()
    }

    /// How many items there are.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl<'a, T> IntoIterator for &'a MaybeNamed<T> {
    type Item = &'a NamedItem<T>;
    type IntoIter = std::slice::Iter<'a, NamedItem<T>>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

/// The entry of an item written under a name: a single-entry map whose key is no keyname of `T`.
fn named_entry<T: EntityInfo>(item: &Node) -> Option<&crate::yaml::Entry> {
    match item.as_mapping() {
        Some([entry]) => {
            let key = entry.key.as_scalar()?;
            (!T::KEYS.contains(&key.text.as_str())).then_some(entry)
        }
        _ => None,
    }
}

impl<T: Read + EntityInfo> Read for MaybeNamed<T> {
    fn read(node: &Node, _: Option<&Located<String>>, cx: &mut ReadContext<'_>) -> Option<Self> {
        let items = match &node.value {
            Value::Sequence(items) => items,
            _ if node.is_null() && !empty_is_wrong(cx) => return Some(MaybeNamed::default()),
            _ => {
                wrong_kind(node, "a list", cx);
                return None;
            }
        };
        let mut list = Vec::with_capacity(items.len());
        for item in items {
            let read = match named_entry::<T>(item) {
                Some(entry) => {
                    let Some(key) = key_text(entry, cx) else { continue };
                    let name = Located::new(key.to_owned(), entry.key.span);
                    T::read(&entry.value, Some(&name), cx).map(|value| NamedItem { name: Some(name), value })
                }
                None => T::read(item, None, cx).map(|value| NamedItem { name: None, value }),
            };
            list.extend(read);
        }
        Some(MaybeNamed(list))
    }
}

impl<T: References> References for MaybeNamed<T> {
    fn visit_references<'a>(&'a self, visit: &mut dyn FnMut(Kind, &'a Located<String>)) {
        for item in &self.0 {
            item.value.visit_references(visit);
        }
    }

    fn visit_clauses<'a>(&'a self, visit: &mut dyn FnMut(&'a dyn std::any::Any)) {
        for item in &self.0 {
            item.value.visit_clauses(visit);
        }
    }
}
