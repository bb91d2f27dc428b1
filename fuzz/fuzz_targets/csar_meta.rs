//! TOSCA.meta parsing and the choice of an archive's entry point: never a panic, and every
//! problem on a line of the text.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tosca_core::csar;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let lines = u32::try_from(text.lines().count()).unwrap_or(u32::MAX);
    let (_meta, problems) = csar::parse_meta(&text);
    for problem in &problems {
        assert!(problem.line <= lines.max(1), "{problem} is past the last line {lines}");
    }
    // The same text as the metadata of an archive with a few entries.
    let paths = ["TOSCA-Metadata/TOSCA.meta", "main.yaml", "Definitions/other.yaml", "dir/"];
    let read = |path: &str| match path {
        "TOSCA-Metadata/TOSCA.meta" => Some(data.to_vec()),
        "main.yaml" | "Definitions/other.yaml" => Some(b"tosca_definitions_version: tosca_2_0\n".to_vec()),
        _ => None,
    };
    let _ = csar::entry_point(&paths, &read);
});
