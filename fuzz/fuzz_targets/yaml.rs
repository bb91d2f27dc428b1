//! YAML text → positioned tree and problems: never a panic, every problem located.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tosca_core::problem::Problems;
use tosca_core::source::SourceMap;
use tosca_core::yaml;

#[path = "check.rs"]
mod check;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let sources = SourceMap::new();
    let source = sources.add("fuzz.yaml", text.as_ref());
    let mut problems = Problems::new();
    let _ = yaml::parse(source, &text, &yaml::Limits::default(), &mut problems);
    check::spans(&sources, &problems.into_sorted(&sources));
});
