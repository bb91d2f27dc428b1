//! Properties of the value parsers with a syntax of their own (proptest): `scalar-unit.*`,
//! `version` and `timestamp` never panic on any text, accept every well-formed text, and what
//! they display parses back to an equal value.

use proptest::prelude::*;
use tosca_core::value::{ScalarUnit, ScalarUnitKind, Timestamp, VersionNumber};
use tosca_core::version::Version;

const KINDS: [ScalarUnitKind; 4] =
    [ScalarUnitKind::Size, ScalarUnitKind::Time, ScalarUnitKind::Frequency, ScalarUnitKind::Bitrate];

fn grammar() -> impl Strategy<Value = Version> {
    prop_oneof![Just(Version::V1_3), Just(Version::V2_0)]
}

/// A number as YAML writes it: sign, digits, fraction, exponent.
fn number_text() -> impl Strategy<Value = String> {
    ("[+-]?", "[0-9]{1,12}", proptest::option::of("[0-9]{0,8}"), proptest::option::of("[eE][+-]?[0-9]{1,3}")).prop_map(
        |(sign, whole, fraction, exponent)| {
            let fraction = fraction.map(|digits| format!(".{digits}")).unwrap_or_default();
            format!("{sign}{whole}{fraction}{}", exponent.unwrap_or_default())
        },
    )
}

/// A kind and one of its units, as the table spells it.
fn kind_and_unit() -> impl Strategy<Value = (ScalarUnitKind, &'static str)> {
    proptest::sample::select(KINDS.to_vec()).prop_flat_map(|kind| {
        (Just(kind), proptest::sample::select(kind.units().iter().map(|(unit, _)| *unit).collect::<Vec<_>>()))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn scalar_unit_parse_never_panics(text in any::<String>(), kind in proptest::sample::select(KINDS.to_vec()), grammar in grammar()) {
        let _ = ScalarUnit::parse(kind, &text, grammar);
    }

    #[test]
    fn scalar_unit_parse_never_panics_near_the_grammar(text in "[ \t]*[+-]?[0-9.]{0,6}([eE][+-]?[0-9]{0,4})?[ \t]{0,2}[a-zA-Z]{0,5}[ \t]*", kind in proptest::sample::select(KINDS.to_vec()), grammar in grammar()) {
        let _ = ScalarUnit::parse(kind, &text, grammar);
    }

    #[test]
    fn scalar_unit_well_formed_parses_and_round_trips(
        number in number_text(),
        (kind, unit) in kind_and_unit(),
        space in "[ \t]{0,2}",
        grammar in grammar(),
    ) {
        let text = format!("{number}{space}{unit}");
        match ScalarUnit::parse(kind, &text, grammar) {
            Ok(value) => {
                prop_assert_eq!(value.unit.as_str(), unit);
                prop_assert!(value.normalized.is_finite());
                let shown = value.to_string();
                prop_assert_eq!(ScalarUnit::parse(kind, &shown, grammar), Ok(value.clone()), "{} shown as {}", text, shown);
            }
            // Only a number too big for a float, before or after conversion, is refused.
            Err(message) => prop_assert!(message.contains("out of range"), "{}: {}", text, message),
        }
    }

    #[test]
    fn version_parse_never_panics(text in any::<String>()) {
        let _ = VersionNumber::parse(&text);
    }

    #[test]
    fn version_well_formed_parses_displays_as_written_and_round_trips(
        major in any::<u64>(),
        minor in any::<u64>(),
        tail in proptest::option::of((any::<u64>(), proptest::option::of(("[A-Za-z0-9_]{1,8}", proptest::option::of(any::<u64>()))))),
    ) {
        let mut text = format!("{major}.{minor}");
        if let Some((fix, qualifier)) = &tail {
            text.push_str(&format!(".{fix}"));
            if let Some((qualifier, build)) = qualifier {
                text.push_str(&format!(".{qualifier}"));
                if let Some(build) = build {
                    text.push_str(&format!("-{build}"));
                }
            }
        }
        let version = VersionNumber::parse(&text).map_err(TestCaseError::fail)?;
        prop_assert_eq!((version.major, version.minor), (major, minor));
        prop_assert_eq!(version.to_string(), text.clone());
        let again = VersionNumber::parse(&version.to_string()).map_err(TestCaseError::fail)?;
        prop_assert_eq!(again.cmp(&version), std::cmp::Ordering::Equal);
    }

    #[test]
    fn version_order_is_antisymmetric(a in "[0-9]{1,2}\\.[0-9]{1,2}(\\.[0-9]{1,2}(\\.[ab]{1,2}(-[0-9])?)?)?", b in "[0-9]{1,2}\\.[0-9]{1,2}(\\.[0-9]{1,2}(\\.[ab]{1,2}(-[0-9])?)?)?") {
        let (a, b) = (VersionNumber::parse(&a).map_err(TestCaseError::fail)?, VersionNumber::parse(&b).map_err(TestCaseError::fail)?);
        prop_assert_eq!(a.cmp(&b), b.cmp(&a).reverse());
        prop_assert_eq!(a == b, a.cmp(&b) == std::cmp::Ordering::Equal);
    }

    #[test]
    fn timestamp_parse_never_panics(text in any::<String>(), grammar in grammar()) {
        let _ = Timestamp::parse_for(&text, grammar);
    }

    #[test]
    fn timestamp_parse_never_panics_near_the_grammar(
        text in "[0-9]{1,5}-[0-9]{1,2}-[0-9]{1,2}([Tt \t][0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}(\\.[0-9]{0,12})?)?[ \t]?(Z|z|[+-][0-9]{1,2}(:[0-9]{1,2})?)?",
        grammar in grammar(),
    ) {
        let _ = Timestamp::parse_for(&text, grammar);
    }

    #[test]
    fn timestamp_rfc_3339_parses_and_round_trips(
        (year, month, day) in (1i16..=9999, 1i8..=12, 1i8..=28),
        (hour, minute, second) in (0i8..24, 0i8..60, 0i8..60),
        fraction in proptest::option::of("[0-9]{1,9}"),
        offset_minutes in -(23 * 60 + 59)..=(23 * 60 + 59i32),
        grammar in grammar(),
    ) {
        let fraction = fraction.map(|digits| format!(".{digits}")).unwrap_or_default();
        let zone = if offset_minutes == 0 {
            "Z".to_owned()
        } else {
            let sign = if offset_minutes < 0 { '-' } else { '+' };
            format!("{sign}{:02}:{:02}", offset_minutes.abs() / 60, offset_minutes.abs() % 60)
        };
        let text = format!("{year:04}-{month:02}-{day:02}T{hour:02}:{minute:02}:{second:02}{fraction}{zone}");
        let timestamp = Timestamp::parse_for(&text, grammar).map_err(TestCaseError::fail)?;
        prop_assert_eq!(timestamp.offset_seconds(), offset_minutes * 60);
        let shown = timestamp.to_string();
        let again = Timestamp::parse_for(&shown, grammar).map_err(TestCaseError::fail)?;
        prop_assert_eq!(&again, &timestamp, "{} shown as {}", text, shown);
        prop_assert_eq!(again.offset_seconds(), timestamp.offset_seconds());
        prop_assert_eq!(again.to_string(), shown);
    }

    #[test]
    fn timestamp_yaml_1_1_spaced_form_equals_its_rfc_3339_display(
        (year, month, day) in (1i16..=9999, 1i8..=12, 1i8..=28),
        (hour, minute, second) in (0i8..24, 0i8..60, 0i8..60),
        offset_hours in -23i32..=23,
    ) {
        let text = format!("{year:04}-{month}-{day} {hour}:{minute:02}:{second:02} {offset_hours:+}");
        let timestamp = Timestamp::parse(&text).map_err(TestCaseError::fail)?;
        prop_assert_eq!(timestamp.offset_seconds(), offset_hours * 3600);
        let again = Timestamp::parse_for(&timestamp.to_string(), Version::V2_0).map_err(TestCaseError::fail)?;
        prop_assert_eq!(again, timestamp);
    }
}
