//! The parsers of values with a syntax of their own (scalar-unit, version, timestamp): never
//! a panic, and what parses displays as text that parses again to an equal value.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tosca_core::value::scalar_unit::{ScalarUnit, ScalarUnitKind};
use tosca_core::value::timestamp::Timestamp;
use tosca_core::value::version::VersionNumber;
use tosca_core::version::Version;

const KINDS: [&str; 4] = ["scalar-unit.size", "scalar-unit.time", "scalar-unit.frequency", "scalar-unit.bitrate"];

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else { return };
    let text = String::from_utf8_lossy(rest);
    let grammar = if selector & 0x80 == 0 { Version::V1_3 } else { Version::V2_0 };
    match selector % 6 {
        0..4 => {
            let kind = ScalarUnitKind::from_type_name(KINDS[usize::from(selector % 6)]).expect("a scalar-unit kind");
            if let Ok(value) = ScalarUnit::parse(kind, &text, grammar) {
                let _ = value.to_json();
                let again = ScalarUnit::parse(kind, &value.to_string(), grammar);
                assert_eq!(again.as_ref(), Ok(&value), "{text:?} displays as {value}");
            }
        }
        4 => {
            if let Ok(version) = VersionNumber::parse(&text) {
                let again = VersionNumber::parse(&version.to_string()).expect("a displayed version parses");
                assert_eq!(again, version);
            }
        }
        _ => {
            if let Ok(timestamp) = Timestamp::parse_for(&text, grammar) {
                let shown = timestamp.to_string();
                let again = Timestamp::parse_for(&shown, grammar).expect("a displayed timestamp parses");
                assert_eq!(again, timestamp, "{text:?} displays as {shown}");
                assert_eq!(again.offset_seconds(), timestamp.offset_seconds());
            }
        }
    }
});
