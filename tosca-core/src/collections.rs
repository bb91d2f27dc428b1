//! The collections every layer builds entities and topologies from. A leaf, so that no module
//! reaches up into the crate root for them.

/// The insertion-ordered map that entities and the topology are made of: `indexmap`'s, hashed
/// with foldhash rather than SipHash (names are looked up and inserted millions of times in a
/// large template; the order never depends on the hasher).
pub type IndexMap<K, V> = indexmap::IndexMap<K, V, foldhash::fast::RandomState>;
