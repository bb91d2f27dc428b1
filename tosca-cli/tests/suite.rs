//! Every integration test of `puccini-rs` but the language server's (`tests/lsp/`) and its
//! benchmark harness, as modules of one test binary: one link instead of twenty keeps
//! `target/` small. Run one file's tests with its module name as the filter, e.g.
//! `cargo test -p tosca-cli --test suite stdin::`.

#[path = "support/run.rs"]
mod run;

mod baseline;
mod cli;
mod config;
mod consistency;
mod corpus;
mod csar_create;
mod diff;
mod doc_examples;
mod evaluate;
mod explain;
mod export;
mod gitlab;
mod hostile_output;
mod levels;
mod output_file;
mod package_folder;
mod stdin;
mod trust_root;
mod validate;
mod validate_dir;
mod validate_shared;
mod version;
mod yaml_read_back;
