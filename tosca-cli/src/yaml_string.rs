//! Strings in the YAML outputs, written so that every YAML reader reads them back as the same
//! string: YAML 1.2 readers (saphyr, ruamel in its default mode) and YAML 1.1 readers (PyYAML,
//! libyaml's users, ruamel in 1.1 mode) alike.
//!
//! saphyr's emitter quotes what YAML 1.2's core schema would read as another type, but writes
//! plain what only YAML 1.1 resolves (`y`, `n`, `1_000`, `0b101`, `2024-01-01`), and writes raw
//! the characters YAML does not allow in a stream or reads as line breaks (U+0085, U+2028 and
//! U+2029 are line breaks in YAML 1.1). Such strings are written here, double-quoted and escaped;
//! every other string is left to the emitter.

use saphyr::{Scalar, ScalarStyle, Yaml};

/// The YAML node for the string `text`: double-quoted and escaped when the emitter would write
/// it in a way some reader reads back differently, else a plain string for the emitter.
pub(crate) fn yaml_string(text: &str) -> Yaml<'static> {
    if text.chars().any(needs_escape) || resolves_as_another_type(text) {
        Yaml::Representation(escaped(text).into(), ScalarStyle::DoubleQuoted, None)
    } else {
        Yaml::Value(Scalar::String(text.to_owned().into()))
    }
}

/// Whether `character` must be escaped in a double-quoted scalar: what YAML 1.2 does not allow in
/// a stream (outside `c-printable`, §5.1), the line breaks YAML 1.1 adds (U+0085, U+2028,
/// U+2029, which a literal block or a plain scalar would turn into a new line), a byte order mark
/// (which readers may drop), the control characters, and the quote and backslash themselves.
fn needs_escape(character: char) -> bool {
    !matches!(character, '\u{20}'..='\u{7e}' | '\u{a0}'..='\u{d7ff}' | '\u{e000}'..='\u{fefe}' | '\u{ff00}'..='\u{fffd}' | '\u{10000}'..)
        || matches!(character, '\u{2028}' | '\u{2029}')
}

/// `text` with YAML's escapes (§5.7) for what [`needs_escape`], for inside double quotes (the
/// emitter writes the quotes of a double-quoted representation).
fn escaped(text: &str) -> String {
    let mut quoted = String::with_capacity(text.len());
    for character in text.chars() {
        match character {
            '"' => quoted.push_str("\\\""),
            '\\' => quoted.push_str("\\\\"),
            '\0' => quoted.push_str("\\0"),
            '\t' => quoted.push_str("\\t"),
            '\n' => quoted.push_str("\\n"),
            '\r' => quoted.push_str("\\r"),
            character if needs_escape(character) => {
                let code = u32::from(character);
                if code <= 0xff {
                    quoted.push_str(&format!("\\x{code:02x}"));
                } else if code <= 0xffff {
                    quoted.push_str(&format!("\\u{code:04x}"));
                } else {
                    quoted.push_str(&format!("\\U{code:08x}"));
                }
            }
            character => quoted.push(character),
        }
    }
    quoted
}

/// Whether a YAML 1.1 or 1.2 reader resolves the plain scalar `text` as something other than a
/// string: null, a boolean, an integer, a float, a timestamp, the merge key `<<` or the value key
/// `=`. The patterns are YAML 1.1's types (<https://yaml.org/type/>) as PyYAML and ruamel
/// implement them, and YAML 1.2's core schema (§10.3.2).
fn resolves_as_another_type(text: &str) -> bool {
    const WORDS: &[&str] = &[
        "", "~", "null", "Null", "NULL", "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO", "true", "True",
        "TRUE", "false", "False", "FALSE", "on", "On", "ON", "off", "Off", "OFF", "<<", "=", ".nan", ".NaN", ".NAN",
    ];
    if WORDS.contains(&text) {
        return true;
    }
    let unsigned = text.strip_prefix(['-', '+']).unwrap_or(text);
    is_number(unsigned) || is_date(text)
}

/// Whether `text` (without its sign) is a YAML 1.1 or 1.2 integer or float, in any base,
/// with `_` separators or sexagesimal `:` parts, or infinity.
fn is_number(text: &str) -> bool {
    let digits = |text: &str, radix: u32| {
        !text.is_empty() && text.chars().all(|character| character == '_' || character.is_digit(radix))
    };
    if let Some(rest) = text.strip_prefix("0b") {
        return digits(rest, 2);
    }
    if let Some(rest) = text.strip_prefix("0x") {
        return digits(rest, 16);
    }
    if let Some(rest) = text.strip_prefix("0o") {
        return digits(rest, 8);
    }
    if matches!(text, ".inf" | ".Inf" | ".INF") {
        return true;
    }
    // Sexagesimal (YAML 1.1): `190:20:30`, `1:30.5`; the first part decimal, the others 0 to 59.
    if let Some((first, rest)) = text.split_once(':') {
        let (parts, fraction) = match rest.rsplit_once('.') {
            Some((parts, fraction)) => (parts, Some(fraction)),
            None => (rest, None),
        };
        let base_60 = |part: &str| matches!(part.len(), 1 | 2) && part.parse::<u8>().is_ok_and(|value| value < 60);
        return digits(first, 10)
            && parts.split(':').all(base_60)
            && fraction.is_none_or(|fraction| fraction.chars().all(|c| c == '_' || c.is_ascii_digit()));
    }
    // Decimal: digits and `_`, an optional fraction, an optional exponent (YAML 1.1 wants a
    // fraction before an exponent and a sign in it; YAML 1.2 neither: both are taken).
    let (mantissa, exponent) = match text.find(['e', 'E']) {
        Some(at) => (&text[..at], Some(&text[at + 1..])),
        None => (text, None),
    };
    let (whole, fraction) = match mantissa.split_once('.') {
        Some((whole, fraction)) => (whole, Some(fraction)),
        None => (mantissa, None),
    };
    let whole_ok = whole.is_empty() || (whole.starts_with(|c: char| c.is_ascii_digit()) && digits(whole, 10));
    let fraction_ok = fraction.is_none_or(|fraction| fraction.is_empty() || digits(fraction, 10));
    let has_digits =
        !whole.is_empty() || fraction.is_some_and(|fraction| fraction.starts_with(|c: char| c.is_ascii_digit()));
    let exponent_ok = exponent.is_none_or(|exponent| {
        let exponent = exponent.strip_prefix(['-', '+']).unwrap_or(exponent);
        !exponent.is_empty() && exponent.chars().all(|c| c.is_ascii_digit())
    });
    has_digits && whole_ok && fraction_ok && exponent_ok
}

/// Whether `text` is a YAML 1.1 date, `YYYY-MM-DD` (the timestamps with a time hold `:` and are
/// quoted by the emitter already, but are caught here too).
fn is_date(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.len() >= 10
        && bytes[..4].iter().all(u8::is_ascii_digit)
        && bytes[4] == b'-'
        && bytes[5..7].iter().all(u8::is_ascii_digit)
        && bytes[7] == b'-'
        && bytes[8..10].iter().all(u8::is_ascii_digit)
        && (bytes.len() == 10 || matches!(bytes[10], b'T' | b't' | b' ' | b'\t'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_yaml_1_1_or_1_2_types_is_quoted() {
        for text in [
            "y",
            "n",
            "Y",
            "yes",
            "on",
            "off",
            "~",
            "",
            "null",
            "1_000",
            "0o17",
            "0x1F",
            "0b101",
            "017",
            "1e3",
            "+1",
            "-1",
            "1.5",
            ".5",
            "1.",
            "6.8523015e+5",
            "1_0.5",
            ".inf",
            "-.inf",
            "+.INF",
            ".nan",
            "190:20:30",
            "1:30.5",
            "2024-01-01",
            "2001-12-14t21:59:43.10-05:00",
            "<<",
            "=",
        ] {
            assert!(resolves_as_another_type(text), "{text:?}");
        }
        for text in [
            "server", "1.2.3", "10 GB", "v1", "x_1", "1a", "e3", ".", "-", "1e", "1:60", "2024-1-1", "0x", "yess", "_1",
        ] {
            assert!(!resolves_as_another_type(text), "{text:?}");
        }
    }

    #[test]
    fn line_breaks_and_non_printables_are_escaped() {
        assert_eq!(escaped("a\u{2028}b\u{2029}c\u{85}d"), "a\\u2028b\\u2029c\\x85d");
        assert_eq!(escaped("\u{feff}\u{1}\u{7f}\u{9f}\"\\\t"), "\\ufeff\\x01\\x7f\\x9f\\\"\\\\\\t");
        assert_eq!(escaped("é \u{1F600}"), "é \u{1F600}");
    }
}
