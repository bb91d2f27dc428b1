//! The reporting half of `puccini-rs`, as a library: the inputs under a folder, checking inputs
//! in parallel, the problem renderers in every `--format` and `explain` pages (both from
//! [`tosca_core::report`]), the summary line and the progress line. The binary (`src/main.rs`)
//! parses arguments and drives these; the hostile-input suite (`tests/tests/hostile_report.rs`)
//! renders through them and counts what they emit.

pub mod baseline;
pub mod check;
pub mod discover;
pub use tosca_core::report::explain;
pub mod format;
pub mod progress;
pub mod stdin;
pub mod summary;
