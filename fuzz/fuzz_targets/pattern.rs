//! Regular-expression patterns of `pattern` constraints and `$matches`: compiling any text and
//! matching it against any value never panics and never hangs (the backtracking engine is
//! bounded).
#![no_main]

use libfuzzer_sys::fuzz_target;
use tosca_core::value::constraint::Pattern;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    // The pattern is the first line, the values the others.
    let mut lines = text.split('\n');
    let Some(source) = lines.next() else { return };
    if let Ok(pattern) = Pattern::new(source) {
        for value in lines {
            let _ = pattern.matches(value);
        }
    }
});
