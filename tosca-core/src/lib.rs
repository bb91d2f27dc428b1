//! The puccini-rs TOSCA compiler: phases from YAML text to a validated topology.
//!
//! [`compile::compile`] runs the pipeline. Each phase is a module with explicit input and
//! output types: [`read`] → [`namespace`] → [`hierarchy`] → [`inheritance`] → [`render`],
//! producing a [`topology::Topology`] and a list of [`problem::Problem`]s. See
//! `ARCHITECTURE.md` at the repository root for the map and the invariants.
#![deny(missing_docs)]

extern crate self as tosca_core;

pub mod archive;
pub mod catalog;
pub mod compile;
pub mod csar;
pub mod dialect;
pub mod diff;
pub mod entity;
pub mod export;
pub mod fetch;
pub mod grammar;
pub mod hierarchy;
pub mod import;
pub mod inheritance;
pub mod loader;
pub mod namespace;
pub mod problem;
pub mod query;
pub mod read;
pub mod render;
pub mod report;
pub mod source;
pub mod timings;
pub mod topology;
pub mod value;
pub mod version;
pub mod yaml;

#[doc(hidden)]
pub use grammar::private as __private;

pub use compile::{ArchiveCheck, Compiled, Options, check_archive, compile, compile_bytes, compile_text};
pub use dialect::Dialect;
pub use loader::Location;

/// The insertion-ordered map that entities and the topology are made of: `indexmap`'s, hashed
/// with foldhash rather than SipHash (names are looked up and inserted millions of times in a
/// large template; the order never depends on the hasher).
pub type IndexMap<K, V> = indexmap::IndexMap<K, V, foldhash::fast::RandomState>;
