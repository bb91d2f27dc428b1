//! The reporting half of `puccini-rs`, as a library: the inputs under a folder, checking inputs
//! in parallel, the problem renderers in every `--format` and `explain` pages (both from
//! [`tosca_core::report`]), the summary line and the progress line. The binary (`src/bin/puccini-rs.rs`)
//! parses arguments and drives these through [`cli::main`], which the Python wheel's console
//! script runs in-process too; the hostile-input suite (`tests/tests/hostile_report.rs`)
//! renders through them and counts what they emit.

// The binary's modules spell the library's paths `tosca_cli::…`, as they did in the binary.
extern crate self as tosca_cli;

mod args;
pub mod baseline;
pub mod check;
pub mod cli;
mod config;
mod create;
mod destination;
mod diff;
pub mod discover;
mod evaluate;
pub use tosca_core::report::explain;
pub mod format;
mod manual;
mod output;
pub mod progress;
pub mod stdin;
pub mod summary;
mod timings;
mod yaml_string;

// `diff` runs the compiler as `compile` does.
use cli::{options, quirks, quirks_and_levels, run};
