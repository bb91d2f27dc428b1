//! `scalar-unit.*` values: a number with a unit, normalized to the kind's base unit.
//!
//! The grammar is `<number> <unit>` (TOSCA Simple Profile in YAML 1.3, section 3.3.6.1; TOSCA 2.0,
//! section 9.1.2.2), with any number of spaces, including none, between the two (1.3 section
//! 3.3.6.2, 2.0 section 9.1.2.2). Both parts are required.
//!
//! Decisions, where the specifications leave room:
//!
//! - **Units.** The kinds and their units are those of 1.3 sections 3.3.6.4 (size), 3.3.6.5
//!   (time), 3.3.6.6 (frequency) and 3.3.6.7 (bitrate, bits and bytes per second). TOSCA 2.0
//!   (section 9.1.2.2) defines no concrete unit tables of its own (concrete scalar types are left
//!   to profiles), so the same tables serve 2.0.
//! - **Case.** TOSCA 1.x matches units case-insensitively (Puccini and the 1.x parsers do; the 2.0
//!   change log removed the byte-per-second bitrate units "to make all scalar units case
//!   insensitive"), so `1 gb` is `1 GB` and `5 M` is five minutes. Where folding the case is
//!   ambiguous — every bitrate unit, `kbps` being `Kbps` or `KBps` — the exact spelling is
//!   required, with both candidates named in the error. TOSCA 2.0 says unit symbols are case
//!   sensitive (section 9.1.2.2), so a wrongly cased unit is an error with a "did you mean".
//! - **Number.** An integer or a float as YAML writes them: optional sign, digits with an
//!   optional fraction (`5`, `5.`, `.5`, `1.5`), optional exponent (`123e3`). No `.inf`, `.nan`,
//!   hexadecimal or `_` separators. A sign is allowed for every kind: the grammar only asks for
//!   a scalar, and TOSCA 2.0's own examples add an explicit `$greater_or_equal` validation to get
//!   non-negative scalars, so negatives belong to the type.
//! - **Range.** A number, or a normalized value, that does not fit a finite 64-bit float (such
//!   as `1e400 B`) is an error rather than an infinity. A size is a count of bytes, so one of
//!   2^64 bytes or more (`2^64 B` written out, `20000000 TB`), which no 64-bit count holds, is
//!   an error too. Fractional sizes (`1.5 B`) are kept as written: the specifications do not
//!   round them.
//! - **Precision.** The number is kept as a 64-bit float (the nearest to the digits written);
//!   the normalized value is computed from that float's shortest decimal form exactly and
//!   rounded once, so `0.1 ms` and `100 us` normalize to the same float, and the text a value
//!   displays parses back to an equal value even when more digits were written than a float
//!   holds.

use std::fmt;

use serde_json::Value;

use crate::version::Version;

/// The kind of a `scalar-unit` type: which units it accepts and its base unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScalarUnitKind {
    /// `scalar-unit.size`, in bytes.
    Size,
    /// `scalar-unit.time`, in seconds.
    Time,
    /// `scalar-unit.frequency`, in hertz.
    Frequency,
    /// `scalar-unit.bitrate`, in bits per second.
    Bitrate,
    /// A TOSCA 2.0 scalar type, by the index of the data type that defines its units; values
    /// are normalized to that type's canonical unit.
    Defined(u32),
}

/// A unit: its canonical spelling and its factor to the base unit, `multiplier × 10^exponent`
/// (kept apart so normalization can be exact).
struct Unit {
    name: &'static str,
    multiplier: u64,
    exponent: i32,
}

const fn unit(name: &'static str, multiplier: u64, exponent: i32) -> Unit {
    Unit { name, multiplier, exponent }
}

/// 2^64, the first size no 64-bit count of bytes holds (as a float, `u64::MAX` rounds to it).
const SIZE_LIMIT: f64 = 18_446_744_073_709_551_616.0;

const KI: u64 = 1 << 10;
const MI: u64 = 1 << 20;
const GI: u64 = 1 << 30;
const TI: u64 = 1 << 40;

const SIZE: [Unit; 9] = [
    unit("B", 1, 0),
    unit("kB", 1, 3),
    unit("KiB", KI, 0),
    unit("MB", 1, 6),
    unit("MiB", MI, 0),
    unit("GB", 1, 9),
    unit("GiB", GI, 0),
    unit("TB", 1, 12),
    unit("TiB", TI, 0),
];

const TIME: [Unit; 7] = [
    unit("d", 86_400, 0),
    unit("h", 3_600, 0),
    unit("m", 60, 0),
    unit("s", 1, 0),
    unit("ms", 1, -3),
    unit("us", 1, -6),
    unit("ns", 1, -9),
];

const FREQUENCY: [Unit; 4] = [unit("Hz", 1, 0), unit("kHz", 1, 3), unit("MHz", 1, 6), unit("GHz", 1, 9)];

const BITRATE: [Unit; 18] = [
    unit("bps", 1, 0),
    unit("Kbps", 1, 3),
    unit("Kibps", KI, 0),
    unit("Mbps", 1, 6),
    unit("Mibps", MI, 0),
    unit("Gbps", 1, 9),
    unit("Gibps", GI, 0),
    unit("Tbps", 1, 12),
    unit("Tibps", TI, 0),
    unit("Bps", 8, 0),
    unit("KBps", 8, 3),
    unit("KiBps", 8 * KI, 0),
    unit("MBps", 8, 6),
    unit("MiBps", 8 * MI, 0),
    unit("GBps", 8, 9),
    unit("GiBps", 8 * GI, 0),
    unit("TBps", 8, 12),
    unit("TiBps", 8 * TI, 0),
];

/// The `(name, factor)` pairs of a unit table, computed at compile time. Every power of ten used
/// here is exact in an `f64`, so each factor is the correctly rounded value of its decimal.
const fn pairs<const N: usize>(units: &[Unit; N]) -> [(&'static str, f64); N] {
    let mut out = [("", 0.0); N];
    let mut index = 0;
    while index < N {
        let unit = &units[index];
        let mut power = 1.0;
        let mut step = 0;
        while step < unit.exponent.unsigned_abs() {
            power *= 10.0;
            step += 1;
        }
        let multiplier = unit.multiplier as f64;
        out[index] = (unit.name, if unit.exponent < 0 { multiplier / power } else { multiplier * power });
        index += 1;
    }
    out
}

static SIZE_FACTORS: [(&str, f64); 9] = pairs(&SIZE);
static TIME_FACTORS: [(&str, f64); 7] = pairs(&TIME);
static FREQUENCY_FACTORS: [(&str, f64); 4] = pairs(&FREQUENCY);
static BITRATE_FACTORS: [(&str, f64); 18] = pairs(&BITRATE);

impl ScalarUnitKind {
    /// The kind named by a primitive type name (`scalar-unit.size`, `scalar-unit.time`,
    /// `scalar-unit.frequency`, `scalar-unit.bitrate`); `None` for any other name.
    pub fn from_type_name(name: &str) -> Option<ScalarUnitKind> {
        match name {
            "scalar-unit.size" => Some(ScalarUnitKind::Size),
            "scalar-unit.time" => Some(ScalarUnitKind::Time),
            "scalar-unit.frequency" => Some(ScalarUnitKind::Frequency),
            "scalar-unit.bitrate" => Some(ScalarUnitKind::Bitrate),
            _ => None,
        }
    }

    /// The type name, e.g. `scalar-unit.size`.
    pub fn type_name(self) -> &'static str {
        match self {
            ScalarUnitKind::Size => "scalar-unit.size",
            ScalarUnitKind::Time => "scalar-unit.time",
            ScalarUnitKind::Frequency => "scalar-unit.frequency",
            ScalarUnitKind::Bitrate => "scalar-unit.bitrate",
            ScalarUnitKind::Defined(_) => "scalar",
        }
    }

    /// The base unit values are normalized to: `B`, `s`, `Hz` or `bps` (empty for a 2.0
    /// scalar type, whose canonical unit its definition names).
    pub fn base_unit(self) -> &'static str {
        match self {
            ScalarUnitKind::Size => "B",
            ScalarUnitKind::Time => "s",
            ScalarUnitKind::Frequency => "Hz",
            ScalarUnitKind::Bitrate => "bps",
            ScalarUnitKind::Defined(_) => "",
        }
    }

    /// Every unit of the kind: its canonical spelling and its factor to the base unit, in the
    /// order of the specification's table.
    pub fn units(self) -> &'static [(&'static str, f64)] {
        match self {
            ScalarUnitKind::Size => &SIZE_FACTORS,
            ScalarUnitKind::Time => &TIME_FACTORS,
            ScalarUnitKind::Frequency => &FREQUENCY_FACTORS,
            ScalarUnitKind::Bitrate => &BITRATE_FACTORS,
            ScalarUnitKind::Defined(_) => &[],
        }
    }

    fn table(self) -> &'static [Unit] {
        match self {
            ScalarUnitKind::Size => &SIZE,
            ScalarUnitKind::Time => &TIME,
            ScalarUnitKind::Frequency => &FREQUENCY,
            ScalarUnitKind::Bitrate => &BITRATE,
            ScalarUnitKind::Defined(_) => &[],
        }
    }

    /// The unit names, comma separated, for messages.
    fn unit_list(self) -> String {
        self.table().iter().map(|unit| unit.name).collect::<Vec<_>>().join(", ")
    }
}

/// A `scalar-unit.*` value.
#[derive(Clone, Debug, PartialEq)]
pub struct ScalarUnit {
    /// The kind (which `scalar-unit.*` type).
    pub kind: ScalarUnitKind,
    /// The number as written (`2` in `2 GB`).
    pub number: f64,
    /// The unit in its canonical spelling (`GB`, even if written `gb` in TOSCA 1.x).
    pub unit: String,
    /// The value in the kind's base unit (`2000000000` for `2 GB`); always finite.
    pub normalized: f64,
}

impl ScalarUnit {
    /// Parses `<number> <unit>` for a kind. `version` decides the case rule for units
    /// (case-insensitive where unambiguous in TOSCA 1.x, exact in TOSCA 2.0). The error is a
    /// message for a problem, naming the text and what was expected.
    pub fn parse(kind: ScalarUnitKind, text: &str, version: Version) -> Result<ScalarUnit, String> {
        let fail = |reason: String| format!("`{text}` is not a {}: {reason}", kind.type_name());
        let trimmed = text.trim();
        let (number_text, rest) = split_number(trimmed);
        let unit_text = rest.trim_start_matches([' ', '\t']);
        if number_text.is_empty() {
            return Err(fail(if unit_text.is_empty() {
                format!(
                    "missing the number and the unit (expected `<number> <unit>`, unit one of {})",
                    kind.unit_list()
                )
            } else {
                "missing the number".to_owned()
            }));
        }
        let Some(number) = Number::parse(number_text) else {
            return Err(fail(format!("`{number_text}` is not a number")));
        };
        if unit_text.is_empty() {
            return Err(fail(format!("missing the unit (expected one of {})", kind.unit_list())));
        }
        let unit = find_unit(kind, unit_text, version).map_err(fail)?;
        let written = number.to_f64(1, 0);
        if !written.is_finite() {
            return Err(fail(format!("the number `{number_text}` is out of range")));
        }
        // The value is the number as kept (a float) and shown: normalizing its shortest
        // decimal form rather than the digits as written keeps a number with more significant
        // digits than a float holds (`322222222222222222222 kB`) equal to its display.
        let kept = Number::parse(&format!("{written:e}")).unwrap_or(number);
        let normalized = kept.to_f64(unit.multiplier, unit.exponent);
        if !normalized.is_finite() {
            return Err(fail(format!("out of range once converted to {}", kind.base_unit())));
        }
        if kind == ScalarUnitKind::Size && normalized.abs() >= SIZE_LIMIT {
            return Err(fail(format!(
                "out of range: a size is a 64-bit count of bytes, at most {} B, and this is {normalized:e} B",
                u64::MAX
            )));
        }
        Ok(ScalarUnit { kind, number: written, unit: unit.name.to_owned(), normalized })
    }

    /// The output JSON: `{"value": <normalized>, "unit": <base unit>, "text": "<number> <unit>"}`.
    /// The value is an integer when it is integral and fits an `i64`, a float otherwise.
    pub fn to_json(&self) -> Value {
        let value = self.normalized;
        // 2^63: the first float above i64::MAX.
        let json = if value.fract() == 0.0 && value >= i64::MIN as f64 && value < 9_223_372_036_854_775_808.0 {
            Value::from(value as i64)
        } else {
            super::float_json(value)
        };
        match self.kind {
            // The canonical unit lives in the type definition; the text keeps the unit written.
            ScalarUnitKind::Defined(_) => serde_json::json!({ "value": json, "text": self.to_string() }),
            kind => serde_json::json!({ "value": json, "unit": kind.base_unit(), "text": self.to_string() }),
        }
    }
}

/// `<number> <canonical unit>`, e.g. `2 GB`, `0.5 s`; very large or very small numbers in
/// exponent form (`1e20 B`). The text parses back to an equal value.
impl fmt::Display for ScalarUnit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let magnitude = self.number.abs();
        if magnitude != 0.0 && !(1e-6..1e16).contains(&magnitude) {
            write!(f, "{:e} {}", self.number, self.unit)
        } else {
            write!(f, "{} {}", self.number, self.unit)
        }
    }
}

/// Splits the leading number token: a sign, digits and dots, and an exponent when `e` is
/// followed by digits (no unit starts with `e`). The token is validated later.
fn split_number(text: &str) -> (&str, &str) {
    let bytes = text.as_bytes();
    let mut end = 0;
    if matches!(bytes.first(), Some(b'+' | b'-')) {
        end = 1;
    }
    while matches!(bytes.get(end), Some(b'0'..=b'9' | b'.')) {
        end += 1;
    }
    if matches!(bytes.get(end), Some(b'e' | b'E')) {
        let mut exponent = end + 1;
        if matches!(bytes.get(exponent), Some(b'+' | b'-')) {
            exponent += 1;
        }
        if matches!(bytes.get(exponent), Some(b'0'..=b'9')) {
            end = exponent;
            while matches!(bytes.get(end), Some(b'0'..=b'9')) {
                end += 1;
            }
        }
    }
    // Only ASCII bytes were consumed, so `end` is a character boundary.
    text.split_at(end)
}

/// A decimal number: `±digits × 10^exponent`, digits without leading zeros (empty for zero).
struct Number {
    negative: bool,
    digits: Vec<u8>,
    exponent: i64,
}

impl Number {
    /// Parses `[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?`.
    fn parse(text: &str) -> Option<Number> {
        let (negative, unsigned) = match text.as_bytes().first() {
            Some(b'-') => (true, &text[1..]),
            Some(b'+') => (false, &text[1..]),
            _ => (false, text),
        };
        let (mantissa, exponent) = match unsigned.find(['e', 'E']) {
            Some(at) => (&unsigned[..at], Some(&unsigned[at + 1..])),
            None => (unsigned, None),
        };
        let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        let all_digits = |part: &str| part.bytes().all(|byte| byte.is_ascii_digit());
        if (whole.is_empty() && fraction.is_empty()) || !all_digits(whole) || !all_digits(fraction) {
            return None;
        }
        let exponent = match exponent {
            None => 0,
            Some(exponent) => {
                let unsigned_exponent = exponent.strip_prefix(['+', '-']).unwrap_or(exponent);
                if unsigned_exponent.is_empty() || !all_digits(unsigned_exponent) {
                    return None;
                }
                // Huge exponents saturate: the value is then 0 or out of range anyway.
                let value = unsigned_exponent.parse::<i64>().unwrap_or(i64::MAX / 4).min(i64::MAX / 4);
                if exponent.starts_with('-') { -value } else { value }
            }
        };
        let digits: Vec<u8> =
            whole.bytes().chain(fraction.bytes()).map(|byte| byte - b'0').skip_while(|&digit| digit == 0).collect();
        let exponent = exponent.saturating_sub(i64::try_from(fraction.len()).unwrap_or(i64::MAX / 4));
        Some(Number { negative, digits, exponent })
    }

    /// The value times `multiplier × 10^power`, rounded once to the nearest `f64` (infinite when
    /// it does not fit).
    fn to_f64(&self, multiplier: u64, power: i32) -> f64 {
        let sign = if self.negative { "-" } else { "" };
        if self.digits.is_empty() {
            return format!("{sign}0").parse().unwrap_or(0.0);
        }
        // Multiply the decimal digits by the multiplier, least significant first.
        let mut product = Vec::with_capacity(self.digits.len() + 20);
        let mut carry: u128 = 0;
        for &digit in self.digits.iter().rev() {
            let value = u128::from(digit) * u128::from(multiplier) + carry;
            product.push(b'0' + (value % 10) as u8);
            carry = value / 10;
        }
        while carry > 0 {
            product.push(b'0' + (carry % 10) as u8);
            carry /= 10;
        }
        product.reverse();
        // Beyond these bounds the result is 0 or infinite whatever the exponent, so clamping
        // keeps the text short without changing the value.
        let length = i64::try_from(product.len()).unwrap_or(i64::MAX / 4);
        let exponent = self.exponent.saturating_add(i64::from(power)).clamp(-length - 400, 400);
        let digits = String::from_utf8_lossy(&product);
        // Rust's float parsing is correctly rounded.
        format!("{sign}{digits}e{exponent}").parse().unwrap_or(f64::NAN)
    }
}

/// Finds the unit for its written spelling under the version's case rule.
fn find_unit(kind: ScalarUnitKind, written: &str, version: Version) -> Result<&'static Unit, String> {
    let table = kind.table();
    if let Some(unit) = table.iter().find(|unit| unit.name == written) {
        return Ok(unit);
    }
    let folded: Vec<&Unit> = table.iter().filter(|unit| unit.name.eq_ignore_ascii_case(written)).collect();
    let case_sensitive = version == Version::V2_0;
    match folded.as_slice() {
        [unit] if !case_sensitive => Ok(unit),
        [unit] => Err(format!(
            "unknown unit `{written}` (did you mean `{}`? units are case-sensitive in TOSCA 2.0)",
            unit.name
        )),
        [] => {
            let lower = written.to_ascii_lowercase();
            let near = table
                .iter()
                .map(|unit| (strsim::levenshtein(&lower, &unit.name.to_ascii_lowercase()), unit.name))
                .filter(|&(distance, _)| distance == 1)
                .map(|(_, name)| format!("`{name}`"))
                .collect::<Vec<_>>();
            if near.is_empty() {
                Err(format!("unknown unit `{written}` (expected one of {})", kind.unit_list()))
            } else {
                Err(format!("unknown unit `{written}` (did you mean {}?)", near.join(" or ")))
            }
        }
        several => {
            let names = several.iter().map(|unit| format!("`{}`", unit.name)).collect::<Vec<_>>().join(" or ");
            let why = if kind == ScalarUnitKind::Bitrate {
                "bitrate units are case-sensitive: `b` for bits, `B` for bytes"
            } else {
                "units differing only in case"
            };
            Err(format!("ambiguous unit `{written}` (did you mean {names}? {why})"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(kind: ScalarUnitKind, text: &str) -> ScalarUnit {
        ScalarUnit::parse(kind, text, Version::V1_3).unwrap()
    }

    fn error(kind: ScalarUnitKind, text: &str, version: Version) -> String {
        ScalarUnit::parse(kind, text, version).unwrap_err()
    }

    const KINDS: [ScalarUnitKind; 4] =
        [ScalarUnitKind::Size, ScalarUnitKind::Time, ScalarUnitKind::Frequency, ScalarUnitKind::Bitrate];

    #[test]
    fn type_names_round_trip() {
        for kind in KINDS {
            assert_eq!(ScalarUnitKind::from_type_name(kind.type_name()), Some(kind));
        }
        assert_eq!(ScalarUnitKind::from_type_name("scalar-unit"), None);
        assert_eq!(ScalarUnitKind::from_type_name("Scalar-Unit.Size"), None);
    }

    #[test]
    fn factors_match_the_exact_table() {
        for kind in KINDS {
            let units = kind.units();
            assert_eq!(units.len(), kind.table().len());
            for ((name, factor), unit) in units.iter().zip(kind.table()) {
                assert_eq!(*name, unit.name);
                let exact: f64 = format!("{}e{}", unit.multiplier, unit.exponent).parse().unwrap();
                assert_eq!(*factor, exact, "{name}");
            }
            // The base unit has factor 1.
            assert!(units.iter().any(|&(name, factor)| name == kind.base_unit() && factor == 1.0));
        }
    }

    #[test]
    fn every_unit_in_every_version() {
        for kind in KINDS {
            for unit in kind.table() {
                let exact: f64 = format!("{}e{}", 3 * unit.multiplier, unit.exponent).parse().unwrap();
                for version in Version::ALL {
                    let value = ScalarUnit::parse(kind, &format!("3 {}", unit.name), version).unwrap();
                    assert_eq!(value.unit, unit.name);
                    assert_eq!(value.number, 3.0);
                    assert_eq!(value.normalized, exact, "{}", unit.name);
                }
            }
        }
    }

    #[test]
    fn size_units() {
        assert_eq!(parse(ScalarUnitKind::Size, "1 kB").normalized, 1000.0);
        assert_eq!(parse(ScalarUnitKind::Size, "1 KiB").normalized, 1024.0);
        assert_eq!(parse(ScalarUnitKind::Size, "2 GB").normalized, 2e9);
        assert_eq!(parse(ScalarUnitKind::Size, "1.5 GiB").normalized, 1_610_612_736.0);
        assert_eq!(parse(ScalarUnitKind::Size, "1 TiB").normalized, 1_099_511_627_776.0);
        assert_eq!(parse(ScalarUnitKind::Size, "1.23 GB").normalized, 1_230_000_000.0);
        assert_eq!(parse(ScalarUnitKind::Size, "0.1 KiB").normalized, 102.4);
    }

    #[test]
    fn time_units() {
        assert_eq!(parse(ScalarUnitKind::Time, "1 d").normalized, 86_400.0);
        assert_eq!(parse(ScalarUnitKind::Time, "2 h").normalized, 7_200.0);
        assert_eq!(parse(ScalarUnitKind::Time, "1.5 m").normalized, 90.0);
        assert_eq!(parse(ScalarUnitKind::Time, "0.5 s").normalized, 0.5);
        assert_eq!(parse(ScalarUnitKind::Time, "1.23ms").normalized, 0.00123);
        assert_eq!(parse(ScalarUnitKind::Time, "250 us").normalized, 0.00025);
        assert_eq!(parse(ScalarUnitKind::Time, "7 ns").normalized, 7e-9);
    }

    #[test]
    fn frequency_and_bitrate_units() {
        assert_eq!(parse(ScalarUnitKind::Frequency, "123e3 kHz").normalized, 123e6);
        assert_eq!(parse(ScalarUnitKind::Frequency, "2.4 GHz").normalized, 2.4e9);
        assert_eq!(parse(ScalarUnitKind::Bitrate, "1 Kbps").normalized, 1000.0);
        assert_eq!(parse(ScalarUnitKind::Bitrate, "1 KBps").normalized, 8000.0);
        assert_eq!(parse(ScalarUnitKind::Bitrate, "1.23 KiBps").normalized, 1.23 * 8192.0);
        assert_eq!(parse(ScalarUnitKind::Bitrate, "1 Gibps").normalized, 1_073_741_824.0);
        assert_eq!(parse(ScalarUnitKind::Bitrate, "1 TiBps").normalized, 8.0 * 1_099_511_627_776.0);
    }

    #[test]
    fn normalization_is_exact() {
        let a = parse(ScalarUnitKind::Time, "0.1 ms");
        let b = parse(ScalarUnitKind::Time, "100 us");
        let c = parse(ScalarUnitKind::Time, "100000 ns");
        assert_eq!(a.normalized, 1e-4);
        assert_eq!(a.normalized, b.normalized);
        assert_eq!(b.normalized, c.normalized);
        assert_eq!(parse(ScalarUnitKind::Size, "1 GB").normalized, parse(ScalarUnitKind::Size, "1000 MB").normalized);
        assert_eq!(parse(ScalarUnitKind::Time, "0.3 s").normalized, 0.3);
        assert_eq!(parse(ScalarUnitKind::Size, "0.000001 GB").normalized, 1000.0);
        assert_eq!(parse(ScalarUnitKind::Size, "1024 B").normalized, parse(ScalarUnitKind::Size, "1 KiB").normalized);
    }

    #[test]
    fn whitespace_between_and_around() {
        for text in ["10GB", "10 GB", "10   GB", "10\tGB", " 10 GB ", "10 \t GB"] {
            let value = parse(ScalarUnitKind::Size, text);
            assert_eq!(value.normalized, 1e10, "{text:?}");
            assert_eq!(value.to_string(), "10 GB");
        }
        assert!(error(ScalarUnitKind::Size, "10 G B", Version::V1_3).contains("unknown unit `G B`"));
    }

    #[test]
    fn numbers() {
        assert_eq!(parse(ScalarUnitKind::Time, "+5 s").number, 5.0);
        assert_eq!(parse(ScalarUnitKind::Time, "-5 s").normalized, -5.0);
        assert_eq!(parse(ScalarUnitKind::Time, ".5 s").normalized, 0.5);
        assert_eq!(parse(ScalarUnitKind::Time, "5. s").normalized, 5.0);
        assert_eq!(parse(ScalarUnitKind::Time, "1E3 ms").normalized, 1.0);
        assert_eq!(parse(ScalarUnitKind::Time, "1e+3ms").normalized, 1.0);
        assert_eq!(parse(ScalarUnitKind::Time, "1e-3 s").normalized, 0.001);
        assert_eq!(parse(ScalarUnitKind::Size, "007 B").normalized, 7.0);
        assert_eq!(parse(ScalarUnitKind::Size, "0 B").normalized, 0.0);
        assert_eq!(parse(ScalarUnitKind::Size, "-0 B").normalized, 0.0);
        assert_eq!(parse(ScalarUnitKind::Size, "0.000 GB").normalized, 0.0);
        assert_eq!(parse(ScalarUnitKind::Size, "-2 kB").normalized, -2000.0);
    }

    #[test]
    fn bad_numbers() {
        for (text, number) in
            [("1.2.3 GB", "1.2.3"), ("- GB", "-"), (". GB", "."), ("+-1 GB", "+"), ("1e GB", "1"), ("--1 GB", "-")]
        {
            let message = error(ScalarUnitKind::Size, text, Version::V1_3);
            assert!(message.starts_with(&format!("`{text}` is not a scalar-unit.size")), "{message}");
            if text != "1e GB" {
                assert!(message.contains(&format!("`{number}` is not a number")), "{message}");
            }
        }
        // `1e` is the number 1 and the unit `e GB`.
        assert!(error(ScalarUnitKind::Size, "1e GB", Version::V1_3).contains("unknown unit `e GB`"));
        assert!(error(ScalarUnitKind::Size, ".inf GB", Version::V1_3).contains("`.` is not a number"));
        assert!(error(ScalarUnitKind::Size, "0x10 B", Version::V1_3).contains("unknown unit `x10 B`"));
        assert!(error(ScalarUnitKind::Size, "1_000 B", Version::V1_3).contains("unknown unit `_000 B`"));
    }

    #[test]
    fn missing_parts() {
        assert_eq!(
            error(ScalarUnitKind::Size, "GB", Version::V1_3),
            "`GB` is not a scalar-unit.size: missing the number"
        );
        assert_eq!(
            error(ScalarUnitKind::Size, "10", Version::V1_3),
            "`10` is not a scalar-unit.size: missing the unit (expected one of B, kB, KiB, MB, MiB, GB, GiB, TB, TiB)"
        );
        assert!(error(ScalarUnitKind::Time, "", Version::V1_3).contains("missing the number and the unit"));
        assert!(error(ScalarUnitKind::Time, "   ", Version::V2_0).contains("missing the number and the unit"));
    }

    #[test]
    fn unknown_units() {
        assert_eq!(
            error(ScalarUnitKind::Size, "10 gigs", Version::V1_3),
            "`10 gigs` is not a scalar-unit.size: unknown unit `gigs` (expected one of B, kB, KiB, MB, MiB, GB, GiB, \
             TB, TiB)"
        );
        assert_eq!(
            error(ScalarUnitKind::Size, "10 GiBs", Version::V1_3),
            "`10 GiBs` is not a scalar-unit.size: unknown unit `GiBs` (did you mean `GiB`?)"
        );
        assert!(error(ScalarUnitKind::Frequency, "1 GB", Version::V1_3).contains("unknown unit `GB`"));
        assert!(error(ScalarUnitKind::Time, "1 sec", Version::V1_3).contains("unknown unit `sec`"));
        assert!(error(ScalarUnitKind::Time, "1 µs", Version::V1_3).contains("unknown unit `µs`"));
    }

    #[test]
    fn case_insensitive_in_1_x() {
        for version in [Version::V1_0, Version::V1_1, Version::V1_2, Version::V1_3] {
            let value = ScalarUnit::parse(ScalarUnitKind::Size, "1.23 gb", version).unwrap();
            assert_eq!(value.unit, "GB");
            assert_eq!(value.normalized, 1.23e9);
            assert_eq!(ScalarUnit::parse(ScalarUnitKind::Size, "1 KB", version).unwrap().unit, "kB");
            assert_eq!(ScalarUnit::parse(ScalarUnitKind::Size, "1 gib", version).unwrap().unit, "GiB");
            assert_eq!(ScalarUnit::parse(ScalarUnitKind::Time, "1 MS", version).unwrap().unit, "ms");
            assert_eq!(ScalarUnit::parse(ScalarUnitKind::Time, "1 M", version).unwrap().normalized, 60.0);
            assert_eq!(ScalarUnit::parse(ScalarUnitKind::Frequency, "1 mhz", version).unwrap().unit, "MHz");
        }
    }

    #[test]
    fn bitrate_case_is_never_folded() {
        assert_eq!(
            error(ScalarUnitKind::Bitrate, "1 kbps", Version::V1_3),
            "`1 kbps` is not a scalar-unit.bitrate: ambiguous unit `kbps` (did you mean `Kbps` or `KBps`? bitrate \
             units are case-sensitive: `b` for bits, `B` for bytes)"
        );
        assert!(error(ScalarUnitKind::Bitrate, "1 BPS", Version::V1_3).contains("`bps` or `Bps`"));
        assert!(error(ScalarUnitKind::Bitrate, "1 kibps", Version::V1_3).contains("`Kibps` or `KiBps`"));
        assert!(error(ScalarUnitKind::Bitrate, "1 kbps", Version::V2_0).contains("`Kbps` or `KBps`"));
    }

    #[test]
    fn case_sensitive_in_2_0() {
        assert_eq!(
            error(ScalarUnitKind::Size, "1 gb", Version::V2_0),
            "`1 gb` is not a scalar-unit.size: unknown unit `gb` (did you mean `GB`? units are case-sensitive in \
             TOSCA 2.0)"
        );
        assert!(error(ScalarUnitKind::Size, "1 KB", Version::V2_0).contains("did you mean `kB`?"));
        assert!(error(ScalarUnitKind::Time, "1 S", Version::V2_0).contains("did you mean `s`?"));
        assert!(error(ScalarUnitKind::Frequency, "1 hz", Version::V2_0).contains("did you mean `Hz`?"));
        assert_eq!(ScalarUnit::parse(ScalarUnitKind::Size, "1 kB", Version::V2_0).unwrap().normalized, 1000.0);
    }

    #[test]
    fn overflow_is_an_error() {
        assert_eq!(
            error(ScalarUnitKind::Size, "1e400 B", Version::V1_3),
            "`1e400 B` is not a scalar-unit.size: the number `1e400` is out of range"
        );
        assert_eq!(
            error(ScalarUnitKind::Size, "1e300 TiB", Version::V1_3),
            "`1e300 TiB` is not a scalar-unit.size: out of range once converted to B"
        );
        assert!(error(ScalarUnitKind::Time, "-1e308 d", Version::V1_3).contains("out of range"));
        assert!(error(ScalarUnitKind::Size, "1e99999999999999999999999 B", Version::V1_3).contains("out of range"));
        let huge = format!("{} B", "9".repeat(400));
        assert!(error(ScalarUnitKind::Size, &huge, Version::V1_3).contains("out of range"));
        // Underflow rounds to zero, like any float.
        assert_eq!(parse(ScalarUnitKind::Time, "1e-400 s").normalized, 0.0);
        assert_eq!(parse(ScalarUnitKind::Time, "1e-99999999999999999999 s").normalized, 0.0);
        // The largest times still fit a float.
        assert_eq!(parse(ScalarUnitKind::Time, "1e290 d").normalized, 1e290 * 86_400.0);
    }

    #[test]
    fn a_size_fits_a_64_bit_count_of_bytes() {
        // The largest float below 2^64, and 2^64 − 2^40 in TiB.
        assert_eq!(parse(ScalarUnitKind::Size, "18446744073709549568 B").normalized, 18_446_744_073_709_549_568.0);
        assert_eq!(parse(ScalarUnitKind::Size, "16777215 TiB").normalized, 16_777_215.0 * 1_099_511_627_776.0);
        assert_eq!(parse(ScalarUnitKind::Size, "-1e19 B").normalized, -1e19);
        assert_eq!(
            error(ScalarUnitKind::Size, "18446744073709551616 B", Version::V1_3),
            "`18446744073709551616 B` is not a scalar-unit.size: out of range: a size is a 64-bit count of bytes, \
             at most 18446744073709551615 B, and this is 1.8446744073709552e19 B"
        );
        for text in ["16777216 TiB", "2e10 GB", "-18446744073709551616 B", "1e290 TiB"] {
            assert!(error(ScalarUnitKind::Size, text, Version::V2_0).contains("a size is a 64-bit count"), "{text}");
        }
        // Other kinds are measures, not counts: any finite float.
        assert_eq!(parse(ScalarUnitKind::Bitrate, "2e10 Tbps").normalized, 2e22);
    }

    #[test]
    fn long_digit_strings_round_once() {
        let digits = format!("0.{}1 s", "0".repeat(50));
        assert_eq!(parse(ScalarUnitKind::Time, &digits).normalized, 1e-51);
        let many = format!("1{} Kibps", "0".repeat(60));
        assert_eq!(parse(ScalarUnitKind::Bitrate, &many).normalized, 1e60 * 1024.0);
    }

    #[test]
    fn display_and_round_trip() {
        for (text, shown) in [
            ("2 GB", "2 GB"),
            ("2.0 gb", "2 GB"),
            ("0.5s", "0.5 s"),
            ("1.23 ms", "1.23 ms"),
            ("-3 d", "-3 d"),
            ("1e18 B", "1e18 B"),
            ("0.0000001 s", "1e-7 s"),
            ("123e3 kHz", "123000 kHz"),
            ("1.23 KiBps", "1.23 KiBps"),
        ] {
            let kind = match shown.rsplit(' ').next().unwrap() {
                "s" | "ms" | "d" => ScalarUnitKind::Time,
                "kHz" => ScalarUnitKind::Frequency,
                "KiBps" => ScalarUnitKind::Bitrate,
                _ => ScalarUnitKind::Size,
            };
            let value = parse(kind, text);
            assert_eq!(value.to_string(), shown);
            assert_eq!(ScalarUnit::parse(kind, shown, Version::V2_0).unwrap(), value, "{shown}");
        }
    }

    /// Found by the `values` fuzz target: 21 digits round to a float that displays with 16,
    /// and the normalized value used to come from the 21 digits, so the display parsed back
    /// to a value 2^27 bytes away.
    #[test]
    fn more_digits_than_a_float_holds_display_as_an_equal_value() {
        // A size that large is out of range now; a frequency behaves as the size did.
        let value = parse(ScalarUnitKind::Frequency, "322222222222222222222 khz");
        assert_eq!(value.to_string(), "3.222222222222222e20 kHz");
        assert_eq!(ScalarUnit::parse(ScalarUnitKind::Frequency, &value.to_string(), Version::V1_3), Ok(value));
    }

    #[test]
    fn json() {
        assert_eq!(
            parse(ScalarUnitKind::Size, "2 GB").to_json(),
            serde_json::json!({ "value": 2_000_000_000, "unit": "B", "text": "2 GB" })
        );
        assert_eq!(
            parse(ScalarUnitKind::Time, "0.5 s").to_json(),
            serde_json::json!({ "value": 0.5, "unit": "s", "text": "0.5 s" })
        );
        assert_eq!(
            parse(ScalarUnitKind::Bitrate, "1 KBps").to_json(),
            serde_json::json!({ "value": 8000, "unit": "bps", "text": "1 KBps" })
        );
        // Integral but beyond i64: a float.
        assert_eq!(parse(ScalarUnitKind::Size, "1e19 B").to_json()["value"], serde_json::json!(1e19));
        assert_eq!(parse(ScalarUnitKind::Size, "-0 B").to_json()["value"], serde_json::json!(0));
    }

    #[test]
    fn no_panic_on_odd_input() {
        for text in
            ["", "-", "+", ".", "e", "1e", "1e+", "ее", "1 €", "€ 1", "١ GB", "1\u{0}B", "\u{feff}1 B", "1.e5 B"]
        {
            for kind in KINDS {
                for version in Version::ALL {
                    let _ = ScalarUnit::parse(kind, text, version);
                }
            }
        }
        assert_eq!(parse(ScalarUnitKind::Size, "1.e5 B").normalized, 1e5);
    }

    /// Strings of up to 24 characters from `alphabet`, from a fixed linear congruential sequence.
    fn generated(alphabet: &[char], count: usize) -> impl Iterator<Item = String> + '_ {
        let mut state: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = move || {
            state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            (state >> 33) as usize
        };
        (0..count).map(move |_| {
            let length = next() % 25;
            (0..length).map(|_| alphabet[next() % alphabet.len()]).collect()
        })
    }

    #[test]
    fn no_panic_on_generated_input() {
        let alphabet: Vec<char> = "0123456789+-.eE \tBkKiMGTbpsHzmnudh€".chars().collect();
        for text in generated(&alphabet, 20_000) {
            for kind in KINDS {
                for version in [Version::V1_3, Version::V2_0] {
                    if let Ok(value) = ScalarUnit::parse(kind, &text, version) {
                        assert!(value.normalized.is_finite() && value.number.is_finite(), "{text:?}");
                        assert_eq!(ScalarUnit::parse(kind, &value.to_string(), Version::V2_0).as_ref(), Ok(&value));
                    }
                }
            }
        }
    }
}
