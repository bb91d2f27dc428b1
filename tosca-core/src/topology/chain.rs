//! [`TypeChain`]: a type's name and its ancestors' names, shared between entities.

use std::sync::Arc;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A type's name and its ancestors' names, most derived first, written as a JSON list.
///
/// Shared twice over: every entity of a type holds the same chain, and a type's chain is its
/// own name in front of its parent's chain (a persistent list), so a derivation chain of
/// 20,000 types costs 20,000 links rather than 200 million names. Cloning is a reference count.
#[derive(Clone, Default)]
pub struct TypeChain(Option<Arc<ChainLink>>);

/// One link of a [`TypeChain`]: a type's name, how many names the chain holds from here, and
/// its parent's link.
struct ChainLink {
    name: String,
    len: usize,
    parent: Option<Arc<ChainLink>>,
}

impl TypeChain {
    /// The chain of a type named `name` whose parent's chain is `parent` (empty for a root).
    pub fn derived(name: String, parent: &TypeChain) -> TypeChain {
        let len = parent.len() + 1;
        TypeChain(Some(Arc::new(ChainLink { name, len, parent: parent.0.clone() })))
    }

    /// How many names the chain holds: the type and all its ancestors.
    pub fn len(&self) -> usize {
        self.0.as_ref().map_or(0, |link| link.len)
    }

    /// Whether the chain holds no name (the type is unknown or its chain broken).
    pub fn is_empty(&self) -> bool {
        self.0.is_none()
    }

    /// The type's own name.
    pub fn first(&self) -> Option<&String> {
        self.0.as_ref().map(|link| &link.name)
    }

    /// The chain of the type's parent: every name but the first, shared, not copied.
    pub fn parent(&self) -> TypeChain {
        TypeChain(self.0.as_ref().and_then(|link| link.parent.clone()))
    }

    /// The names, most derived first.
    pub fn iter(&self) -> impl Iterator<Item = &String> + '_ {
        std::iter::successors(self.0.as_deref(), |link| link.parent.as_deref()).map(|link| &link.name)
    }

    /// Whether two chains are the same one in memory (not only equal names): what sharing
    /// promises, for tests.
    pub fn shares(&self, other: &TypeChain) -> bool {
        match (&self.0, &other.0) {
            (Some(one), Some(other)) => Arc::ptr_eq(one, other),
            (None, None) => true,
            _ => false,
        }
    }
}

/// Drops a chain link by link: the default drop would recurse once per ancestor, and a chain
/// of a hundred thousand types would overflow the stack.
impl Drop for ChainLink {
    fn drop(&mut self) {
        let mut next = self.parent.take();
        while let Some(link) = next {
            next = match Arc::try_unwrap(link) {
                Ok(mut link) => link.parent.take(),
                // Still used by another chain, which keeps the rest alive.
                Err(_) => None,
            };
        }
    }
}

impl From<Vec<String>> for TypeChain {
    /// The chain of the names given, most derived first.
    fn from(names: Vec<String>) -> TypeChain {
        names.into_iter().rev().fold(TypeChain::default(), |parent, name| TypeChain::derived(name, &parent))
    }
}

impl std::ops::Index<usize> for TypeChain {
    type Output = String;

    /// The name `index` steps up from the type (0 is the type itself); walks the chain.
    fn index(&self, index: usize) -> &String {
        match self.iter().nth(index) {
            Some(name) => name,
            None => panic!("type chain index {index} out of range for a chain of {} names", self.len()),
        }
    }
}

impl std::fmt::Debug for TypeChain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Serialize for TypeChain {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

/// The schema of a list of strings, as the chain is written.
impl JsonSchema for TypeChain {
    fn inline_schema() -> bool {
        <Vec<String> as JsonSchema>::inline_schema()
    }

    fn schema_name() -> std::borrow::Cow<'static, str> {
        <Vec<String> as JsonSchema>::schema_name()
    }

    fn schema_id() -> std::borrow::Cow<'static, str> {
        <Vec<String> as JsonSchema>::schema_id()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        <Vec<String> as JsonSchema>::json_schema(generator)
    }
}

impl<'de> Deserialize<'de> for TypeChain {
    /// Reads the JSON list of names, most derived first.
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<TypeChain, D::Error> {
        Vec::<String>::deserialize(deserializer).map(TypeChain::from)
    }
}
