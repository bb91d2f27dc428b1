//! `version` values: `<major>.<minor>[.<fix>[.<qualifier>[-<build>]]]`.
//!
//! The grammar and comparison rules are those of TOSCA Simple Profile in YAML 1.3, section
//! 3.3.2, unchanged in TOSCA 2.0, section 9.1.2.3. It is not semantic versioning: a qualifier
//! follows a dot, and the build number follows the qualifier.
//!
//! Decisions, where the specifications leave room:
//!
//! - **Parts.** Major, minor, fix and build are integers ≥ 0 (decimal digits, at most
//!   `u64::MAX`; leading zeros are accepted and dropped, so `1.01` is `1.1`). The qualifier is
//!   one or more ASCII letters, digits or `_` (no `.` or `-`, which delimit the parts).
//!   Surrounding whitespace is ignored. `0.0` and `0.0.0` mean "no version"
//!   ([`VersionNumber::is_zero`]); a bare `0` is not a version (it has no minor part).
//! - **Order.** Major, minor and fix compare numerically (an absent fix is 0). A version with a
//!   qualifier is older than the same version without one. Versions with the same qualifier
//!   compare by build (an absent build is 0). The specifications make no recommendation for
//!   different qualifiers ("different branches"); a total order needs one, so they compare
//!   alphabetically ignoring ASCII case, then by exact spelling. That puts Maven's usual
//!   qualifiers (to whose policy 9.1.2.3 says TOSCA is compatible) in their order:
//!   `alpha` < `beta` < `milestone` < `rc` < `snapshot`.
//! - **Equality** follows the order: `1.0` equals `1.0.0`, and `1.0.0.beta` equals
//!   `1.0.0.beta-0`; [`Display`](fmt::Display) still shows the parts as written.

use std::cmp::Ordering;
use std::fmt;

/// The grammar, for messages.
const GRAMMAR: &str = "<major>.<minor>[.<fix>[.<qualifier>[-<build>]]]";

/// A TOSCA `version` value.
#[derive(Clone, Debug)]
pub struct VersionNumber {
    /// The major version.
    pub major: u64,
    /// The minor version.
    pub minor: u64,
    /// The fix version (0 when absent).
    pub fix: u64,
    /// The qualifier, e.g. `beta` in `1.0.0.beta-2`.
    pub qualifier: Option<String>,
    /// The build version (0 when absent).
    pub build: u64,
    /// Whether the fix part was written (for display).
    has_fix: bool,
    /// Whether the build part was written (for display).
    has_build: bool,
}

impl VersionNumber {
    /// Parses `<major>.<minor>[.<fix>[.<qualifier>[-<build>]]]`. The error is a message for a
    /// problem, naming the text and the part that is wrong.
    pub fn parse(text: &str) -> Result<VersionNumber, String> {
        let fail = |reason: String| format!("`{text}` is not a version: {reason}");
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return Err(fail(format!("it is empty (expected {GRAMMAR})")));
        }
        let mut parts = trimmed.splitn(4, '.');
        let major = number("major", parts.next().unwrap_or("")).map_err(fail)?;
        let Some(minor) = parts.next() else {
            return Err(fail(format!("missing the minor part (expected {GRAMMAR})")));
        };
        let minor = number("minor", minor).map_err(fail)?;
        let mut version =
            VersionNumber { major, minor, fix: 0, qualifier: None, build: 0, has_fix: false, has_build: false };
        let Some(fix) = parts.next() else {
            return Ok(version);
        };
        version.fix = number("fix", fix).map_err(|reason| {
            if fix.bytes().any(|byte| byte.is_ascii_alphabetic()) {
                // `1.0.0-beta` (semver style) means `1.0.0.beta`; `1.0.alpha` means `1.0.0.alpha`.
                let example = match fix.split_once('-') {
                    Some((digits, qualifier)) if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) => {
                        format!("{major}.{minor}.{digits}.{qualifier}")
                    }
                    _ => format!("{major}.{minor}.0.{fix}"),
                };
                fail(format!("{reason} (a qualifier follows the fix part, as in `{example}`)"))
            } else {
                fail(reason)
            }
        })?;
        version.has_fix = true;
        let Some(rest) = parts.next() else {
            return Ok(version);
        };
        let (qualifier, build) = match rest.split_once('-') {
            Some((qualifier, build)) => (qualifier, Some(build)),
            None => (rest, None),
        };
        if qualifier.is_empty() {
            return Err(fail("the qualifier is empty".to_owned()));
        }
        if !qualifier.bytes().all(|byte| byte.is_ascii_alphanumeric() || byte == b'_') {
            return Err(fail(format!("qualifier `{qualifier}` may only contain letters, digits and `_`")));
        }
        version.qualifier = Some(qualifier.to_owned());
        if let Some(build) = build {
            version.build = number("build", build).map_err(fail)?;
            version.has_build = true;
        }
        Ok(version)
    }

    /// Whether this is the zero version (`0.0` or `0.0.0`), which the specifications say
    /// indicates that no version is provided.
    pub fn is_zero(&self) -> bool {
        self.major == 0 && self.minor == 0 && self.fix == 0 && self.qualifier.is_none()
    }
}

/// Parses one numeric part.
fn number(name: &str, text: &str) -> Result<u64, String> {
    if text.is_empty() {
        return Err(format!("the {name} part is empty"));
    }
    if !text.bytes().all(|byte| byte.is_ascii_digit()) {
        return Err(format!("{name} part `{text}` is not a number"));
    }
    text.parse().map_err(|_| format!("{name} part `{text}` is too large"))
}

impl PartialEq for VersionNumber {
    fn eq(&self, other: &VersionNumber) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for VersionNumber {}

impl PartialOrd for VersionNumber {
    fn partial_cmp(&self, other: &VersionNumber) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// The specification's order; see the module docs.
impl Ord for VersionNumber {
    fn cmp(&self, other: &VersionNumber) -> Ordering {
        let qualifiers = match (&self.qualifier, &other.qualifier) {
            (None, None) => Ordering::Equal,
            // With a qualifier is older (a pre-release).
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (Some(a), Some(b)) => a.to_ascii_lowercase().cmp(&b.to_ascii_lowercase()).then_with(|| a.cmp(b)),
        };
        (self.major, self.minor, self.fix)
            .cmp(&(other.major, other.minor, other.fix))
            .then(qualifiers)
            .then(self.build.cmp(&other.build))
    }
}

/// The parts as written, numbers without leading zeros: `1.10`, `2.0.1.alpha-3`.
impl fmt::Display for VersionNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)?;
        if self.has_fix || self.qualifier.is_some() {
            write!(f, ".{}", self.fix)?;
        }
        if let Some(qualifier) = &self.qualifier {
            write!(f, ".{qualifier}")?;
            if self.has_build {
                write!(f, "-{}", self.build)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> VersionNumber {
        VersionNumber::parse(text).unwrap()
    }

    fn error(text: &str) -> String {
        VersionNumber::parse(text).unwrap_err()
    }

    #[test]
    fn semver_style_qualifier_gets_a_valid_suggestion() {
        let error = VersionNumber::parse("1.0.0-beta").unwrap_err();
        assert!(error.contains("as in `1.0.0.beta`"), "{error}");
        assert!(VersionNumber::parse("1.0.0.beta").is_ok());
    }

    #[test]
    fn spec_examples() {
        let basic = parse("6.1");
        assert_eq!((basic.major, basic.minor, basic.fix, basic.qualifier.as_deref(), basic.build), (6, 1, 0, None, 0));
        let fix = parse("2.0.1");
        assert_eq!((fix.major, fix.minor, fix.fix), (2, 0, 1));
        let qualified = parse("3.1.0.beta");
        assert_eq!(qualified.qualifier.as_deref(), Some("beta"));
        let built = parse("1.0.0.alpha-10");
        assert_eq!((built.qualifier.as_deref(), built.build), (Some("alpha"), 10));
        let puccini = parse("1.2.3.beta-4");
        assert_eq!((puccini.fix, puccini.build), (3, 4));
    }

    #[test]
    fn display_keeps_what_was_written() {
        for text in
            ["1.10", "1.0", "0.0", "1.0.0", "2.0.1.alpha-3", "3.1.0.beta", "1.0.0.RC_1-0", "18446744073709551615.0"]
        {
            assert_eq!(parse(text).to_string(), text);
            assert_eq!(parse(&parse(text).to_string()), parse(text));
        }
        assert_eq!(parse(" 1.2 ").to_string(), "1.2");
        assert_eq!(parse("01.002.0003").to_string(), "1.2.3");
    }

    #[test]
    fn numeric_order() {
        assert!(parse("1.10") > parse("1.9"));
        assert!(parse("1.9.10") > parse("1.9.9"));
        assert!(parse("2.0") > parse("1.99.99"));
        assert!(parse("1.0.1") > parse("1.0"));
        assert_eq!(parse("1.0"), parse("1.0.0"));
        assert_eq!(parse("1.01"), parse("1.1"));
        assert!(parse("0.0") < parse("0.0.1"));
    }

    #[test]
    fn qualifier_and_build_order() {
        // A qualifier makes a version older than the same version without one.
        assert!(parse("1.0.0.beta") < parse("1.0.0"));
        assert!(parse("1.0.0.beta-99") < parse("1.0"));
        // But not older than a lower version.
        assert!(parse("1.0.1.alpha") > parse("1.0.0"));
        // The same qualifier: by build.
        assert!(parse("1.2.3.beta-3") < parse("1.2.3.beta-5"));
        assert!(parse("1.2.3.beta-10") > parse("1.2.3.beta-9"));
        assert_eq!(parse("1.0.0.beta"), parse("1.0.0.beta-0"));
        assert!(parse("1.0.0.beta") < parse("1.0.0.beta-1"));
        // Different qualifiers: alphabetical, ignoring case, then exact spelling.
        let ordered = ["1.0.0.alpha", "1.0.0.beta", "1.0.0.milestone", "1.0.0.rc", "1.0.0.snapshot", "1.0.0"];
        for pair in ordered.windows(2) {
            assert!(parse(pair[0]) < parse(pair[1]), "{} < {}", pair[0], pair[1]);
        }
        assert!(parse("1.0.0.Beta") < parse("1.0.0.beta"));
        assert!(parse("1.0.0.Beta") > parse("1.0.0.alpha"));
        assert_ne!(parse("1.0.0.Beta"), parse("1.0.0.beta"));
        // Qualifier before build: beta-1 is after alpha-9.
        assert!(parse("1.0.0.alpha-9") < parse("1.0.0.beta-1"));
    }

    #[test]
    fn order_is_total_and_consistent() {
        let versions: Vec<VersionNumber> =
            ["0.0", "0.0.0", "1.0", "1.0.0", "1.0.0.a", "1.0.0.A", "1.0.0.a-1", "1.0.0.b", "1.9", "1.10", "2.0.0.rc-2"]
                .iter()
                .map(|text| parse(text))
                .collect();
        for a in &versions {
            for b in &versions {
                assert_eq!(a.cmp(b), b.cmp(a).reverse());
                assert_eq!(a == b, a.cmp(b) == Ordering::Equal);
                for c in &versions {
                    if a <= b && b <= c {
                        assert!(a <= c);
                    }
                }
            }
        }
    }

    #[test]
    fn zero() {
        assert!(parse("0.0").is_zero());
        assert!(parse("0.0.0").is_zero());
        assert!(!parse("0.0.0.alpha").is_zero());
        assert!(!parse("0.1").is_zero());
    }

    #[test]
    fn errors() {
        assert_eq!(error("1.x"), "`1.x` is not a version: minor part `x` is not a number");
        assert_eq!(
            error("1"),
            "`1` is not a version: missing the minor part (expected <major>.<minor>[.<fix>[.<qualifier>[-<build>]]])"
        );
        assert!(error("0").contains("missing the minor part"));
        assert!(error("").contains("it is empty"));
        assert!(error("  ").contains("it is empty"));
        assert_eq!(error("v1.0"), "`v1.0` is not a version: major part `v1` is not a number");
        assert_eq!(error("1."), "`1.` is not a version: the minor part is empty");
        assert_eq!(error(".1"), "`.1` is not a version: the major part is empty");
        assert_eq!(error("1..0"), "`1..0` is not a version: the minor part is empty");
        assert_eq!(error("1.0."), "`1.0.` is not a version: the fix part is empty");
        assert_eq!(
            error("1.0.alpha"),
            "`1.0.alpha` is not a version: fix part `alpha` is not a number (a qualifier follows the fix part, as \
             in `1.0.0.alpha`)"
        );
        assert_eq!(error("1.0.0."), "`1.0.0.` is not a version: the qualifier is empty");
        assert_eq!(error("1.0.0.-3"), "`1.0.0.-3` is not a version: the qualifier is empty");
        assert_eq!(error("1.0.0.beta-"), "`1.0.0.beta-` is not a version: the build part is empty");
        assert_eq!(error("1.0.0.beta-x"), "`1.0.0.beta-x` is not a version: build part `x` is not a number");
        assert_eq!(error("1.0.0.beta-1-2"), "`1.0.0.beta-1-2` is not a version: build part `1-2` is not a number");
        assert_eq!(
            error("1.0.0.beta.2"),
            "`1.0.0.beta.2` is not a version: qualifier `beta.2` may only contain letters, digits and `_`"
        );
        assert!(error("1.0.0.bêta").contains("may only contain letters, digits and `_`"));
        assert_eq!(error("-1.0"), "`-1.0` is not a version: major part `-1` is not a number");
        assert_eq!(error("1.+0"), "`1.+0` is not a version: minor part `+0` is not a number");
        assert_eq!(error("1.0 .0"), "`1.0 .0` is not a version: minor part `0 ` is not a number");
        assert_eq!(
            error("18446744073709551616.0"),
            "`18446744073709551616.0` is not a version: major part `18446744073709551616` is too large"
        );
        assert!(error("1.0.0.a-99999999999999999999999").contains("build part `99999999999999999999999` is too large"));
        assert!(error("١.٠").contains("is not a number"));
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
        let alphabet: Vec<char> = "0123456789.-_aZ ê".chars().collect();
        for text in generated(&alphabet, 50_000) {
            if let Ok(value) = VersionNumber::parse(&text) {
                let again = parse(&value.to_string());
                assert_eq!(again.cmp(&value), Ordering::Equal, "{text:?}");
                assert_eq!(again.to_string(), value.to_string());
            }
        }
    }
}
