//! YAML text parsed in pieces (the split of a large mapping) against the same text parsed
//! whole: whenever a split is used, it is the whole parse's tree, spans included, and the
//! whole parse has nothing to report. The first byte picks how many pieces (1 to 16).
#![no_main]

use libfuzzer_sys::fuzz_target;
use tosca_core::problem::Problems;
use tosca_core::source::SourceMap;
use tosca_core::yaml;

fuzz_target!(|data: &[u8]| {
    let Some((&chunks, rest)) = data.split_first() else { return };
    let text = String::from_utf8_lossy(rest);
    let sources = SourceMap::new();
    let source = sources.add("fuzz.yaml", text.as_ref());
    let limits = yaml::Limits::default();
    let Some(split) = yaml::parse_split(source, &text, &limits, 1 + usize::from(chunks % 16)) else { return };
    let mut problems = Problems::new();
    let whole = yaml::parse_whole(source, &text, &limits, &mut problems);
    assert!(problems.is_empty(), "split a text the whole parse reports problems in");
    assert!(whole.as_ref() == Some(&split), "the split tree differs from the whole parse's");
});
