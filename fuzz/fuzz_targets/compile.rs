//! The whole compile of a fuzzed service template with its normative profile, offline: never a
//! panic, every problem located, and the same problems on a second compile.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use tosca_core::{Location, Options};

#[path = "check.rs"]
mod check;

/// One folder for the whole run; each input overwrites `main.yaml` in it. Imports the input
/// names resolve in this folder (or anywhere on the file system, as for a real template).
fn folder() -> &'static tempfile::TempDir {
    static FOLDER: OnceLock<tempfile::TempDir> = OnceLock::new();
    FOLDER.get_or_init(|| tempfile::tempdir().expect("a temporary folder"))
}

fuzz_target!(|data: &[u8]| {
    let path = folder().path().join("main.yaml");
    std::fs::write(&path, data).expect("writing the input");
    let mut options = Options::default();
    options.loader.offline = true;
    let compiled = tosca_core::compile(&Location::File(path), &options).expect("the root was just written");
    check::spans(&compiled.sources, &compiled.problems);
});
