//! `timestamp` values: an instant with the UTC offset it was written in.
//!
//! TOSCA 1.x (Simple Profile in YAML 1.3, section 3.3.1 and its YAML reference) takes the YAML 1.1
//! timestamp forms (<http://yaml.org/type/timestamp.html>); TOSCA 2.0 (section 9.1.2.1) takes
//! RFC 3339 only and says the relaxed YAML notation with whitespace does not conform.
//!
//! - [`Timestamp::parse`] accepts the YAML 1.1 forms: `2001-12-14t21:59:43.10-05:00`,
//!   `2001-12-14 21:59:43.10 -5` (spaces or tabs between date and time, and before the zone),
//!   `2001-12-15T02:59:43.1Z`, and the date alone `2002-12-14` (midnight UTC). Month, day and hour
//!   may have one digit when a time follows; the fraction has any number of digits; the zone is
//!   `Z`/`z`, `±H`, `±HH` or `±HH:MM`, and a missing zone means UTC.
//! - [`Timestamp::parse_for`] with TOSCA 2.0 accepts RFC 3339 only: `YYYY-MM-DDTHH:MM:SS[.f]`
//!   with a `T`/`t` separator and a required `Z`/`z`/`±HH:MM` offset, or the date alone
//!   (`full-date`, midnight UTC). `-00:00` (RFC 3339's "unknown offset") is UTC, as 9.1.2.1 says.
//!
//! Decisions:
//!
//! - Equality and order are by instant (9.1.2.1: comparisons use the universal instant), so
//!   `2001-12-14t21:59:43.10-05:00` equals `2001-12-15T02:59:43.1Z`.
//! - [`Display`](fmt::Display) writes RFC 3339 in the offset the value was written in (a zero
//!   offset as `Z`), always with seconds, the fraction without trailing zeros (omitted when
//!   zero) and the date-only form as midnight: `2001-12-14T21:59:43.1-05:00`,
//!   `2002-12-14T00:00:00Z`. TOSCA defines no canonical form; keeping the offset keeps the local
//!   time the author wrote.
//! - Fractions beyond nanoseconds are truncated (the precision of the instant).
//! - A leap second (`23:59:60` UTC, RFC 3339 section 5.6) is accepted, shown as written, and
//!   ordered after every instant of the second before it; second 60 at any other UTC time is an
//!   error. Offsets are limited to ±23:59 (RFC 3339 `time-numoffset`).

use std::cmp::Ordering;
use std::fmt;

use jiff::civil::{Date, DateTime, Time};
use jiff::tz::Offset;

use crate::version::Version;

/// A `timestamp` value: an instant, and the offset it was written in (for display).
#[derive(Clone, Debug)]
pub struct Timestamp {
    /// The instant; for a leap second, the same fraction of the second before it.
    instant: jiff::Timestamp,
    /// The offset as written (zero when absent).
    offset: Offset,
    /// Written as second 60.
    leap_second: bool,
}

impl Timestamp {
    /// Parses a timestamp in any YAML 1.1 form (the TOSCA 1.x rule; see the module docs). The
    /// error is a message for a problem, naming the text and what is wrong.
    pub fn parse(text: &str) -> Result<Timestamp, String> {
        parse(text, false)
    }

    /// Parses a timestamp under the rule of a TOSCA version: RFC 3339 for TOSCA 2.0, the YAML 1.1
    /// forms of [`Timestamp::parse`] otherwise.
    pub fn parse_for(text: &str, version: Version) -> Result<Timestamp, String> {
        parse(text, version == Version::V2_0)
    }

    /// The instant (for a leap second, the same fraction of the second before it).
    pub fn instant(&self) -> jiff::Timestamp {
        self.instant
    }

    /// The UTC offset it was written in, in seconds east of UTC.
    pub fn offset_seconds(&self) -> i32 {
        self.offset.seconds()
    }

    /// The order key: whole seconds (floored), then the leap second flag, then nanoseconds, so
    /// a leap second sorts after the whole second before it and before the next one.
    fn key(&self) -> (i128, bool, i128) {
        let nanoseconds = self.instant.as_nanosecond();
        (nanoseconds.div_euclid(1_000_000_000), self.leap_second, nanoseconds.rem_euclid(1_000_000_000))
    }
}

impl PartialEq for Timestamp {
    fn eq(&self, other: &Timestamp) -> bool {
        self.key() == other.key()
    }
}

impl Eq for Timestamp {}

impl PartialOrd for Timestamp {
    fn partial_cmp(&self, other: &Timestamp) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Timestamp {
    fn cmp(&self, other: &Timestamp) -> Ordering {
        self.key().cmp(&other.key())
    }
}

/// RFC 3339 in the original offset, e.g. `2001-12-14T21:59:43.1-05:00` (see the module docs).
impl fmt::Display for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let local = self.offset.to_datetime(self.instant);
        let second = if self.leap_second { 60 } else { local.second() };
        write!(
            f,
            "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}",
            local.year(),
            local.month(),
            local.day(),
            local.hour(),
            local.minute(),
            second
        )?;
        let nanoseconds = local.subsec_nanosecond();
        if nanoseconds != 0 {
            let fraction = format!("{nanoseconds:09}");
            write!(f, ".{}", fraction.trim_end_matches('0'))?;
        }
        let seconds = self.offset.seconds();
        if seconds == 0 {
            f.write_str("Z")
        } else {
            let sign = if seconds < 0 { '-' } else { '+' };
            let minutes = seconds.unsigned_abs() / 60;
            write!(f, "{sign}{:02}:{:02}", minutes / 60, minutes % 60)
        }
    }
}

/// A cursor over the text; it only ever steps over ASCII, so its position is always a
/// character boundary.
struct Cursor<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Cursor<'a> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    fn rest(&self) -> &'a str {
        self.text.get(self.at..).unwrap_or("")
    }

    fn eat(&mut self, byte: u8) -> bool {
        let found = self.peek() == Some(byte);
        if found {
            self.at += 1;
        }
        found
    }

    fn eat_blanks(&mut self) -> bool {
        let start = self.at;
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.at += 1;
        }
        self.at > start
    }

    /// Up to `max` digits, at least `min`; their value and count.
    fn digits(&mut self, min: usize, max: usize) -> Option<(u32, usize)> {
        let start = self.at;
        let mut value: u32 = 0;
        let mut count = 0;
        while count < max {
            match self.peek() {
                Some(byte @ b'0'..=b'9') => {
                    value = value * 10 + u32::from(byte - b'0');
                    count += 1;
                    self.at += 1;
                }
                _ => break,
            }
        }
        if count < min {
            self.at = start;
            return None;
        }
        Some((value, count))
    }

    /// What follows, for messages: `the end` or the rest in backticks.
    fn found(&self) -> String {
        match self.rest() {
            "" => "the end".to_owned(),
            rest => format!("`{rest}`"),
        }
    }
}

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

fn days_in_month(year: u32, month: u32) -> u32 {
    match month {
        2 if year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400)) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

fn parse(text: &str, strict: bool) -> Result<Timestamp, String> {
    let fail = |reason: String| format!("`{text}` is not a timestamp: {reason}");
    let mut cursor = Cursor { text: text.trim(), at: 0 };
    // The minimum digits of the parts YAML lets shrink to one digit.
    let one = if strict { 2 } else { 1 };

    // Date.
    let Some((year, _)) = cursor.digits(4, 4) else {
        return Err(fail(if cursor.text.is_empty() {
            "it is empty (expected YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS with a time zone)".to_owned()
        } else {
            format!("expected a four-digit year, found {}", cursor.found())
        }));
    };
    if cursor.peek().is_some_and(|byte| byte.is_ascii_digit()) {
        return Err(fail("expected a four-digit year".to_owned()));
    }
    let part = |cursor: &mut Cursor<'_>, name: &str, min: usize| {
        cursor.digits(min, 2).ok_or_else(|| fail(format!("expected the {name}, found {}", cursor.found())))
    };
    let separator = |cursor: &mut Cursor<'_>, byte: u8, after: &str| {
        if cursor.eat(byte) {
            Ok(())
        } else {
            Err(fail(format!("expected `{}` after the {after}, found {}", byte as char, cursor.found())))
        }
    };
    separator(&mut cursor, b'-', "year")?;
    let (month, month_digits) = part(&mut cursor, "month", one)?;
    separator(&mut cursor, b'-', "month")?;
    let (day, day_digits) = part(&mut cursor, "day", one)?;
    if cursor.peek().is_some_and(|byte| byte.is_ascii_digit()) {
        return Err(fail("expected a two-digit day".to_owned()));
    }
    if !(1..=12).contains(&month) {
        return Err(fail(format!("month {month} out of range (1 to 12)")));
    }
    let days = days_in_month(year, month);
    if !(1..=days).contains(&day) {
        let name = MONTHS.get(month as usize - 1).copied().unwrap_or("");
        return Err(fail(format!("day {day} out of range ({name} {year} has {days} days)")));
    }

    // The date alone: midnight UTC.
    if cursor.rest().is_empty() {
        if month_digits != 2 || day_digits != 2 {
            return Err(fail("a date without a time needs a two-digit month and day (YYYY-MM-DD)".to_owned()));
        }
        return build(year, month, day, (0, 0, 0, 0), 0).map_err(fail);
    }

    // Time.
    if !(cursor.eat(b'T') || cursor.eat(b't') || (!strict && cursor.eat_blanks())) {
        let expected = if strict { "`T`" } else { "`T` or a space" };
        let found = cursor.found();
        let hint = if strict && matches!(cursor.peek(), Some(b' ' | b'\t')) {
            " (TOSCA 2.0 takes RFC 3339 timestamps, without the YAML spaces)"
        } else {
            ""
        };
        return Err(fail(format!("expected {expected} between the date and the time, found {found}{hint}")));
    }
    let (hour, _) = part(&mut cursor, "hour", one)?;
    separator(&mut cursor, b':', "hour")?;
    let (minute, _) = part(&mut cursor, "minute", 2)?;
    separator(&mut cursor, b':', "minute")?;
    let (second, _) = part(&mut cursor, "second", 2)?;
    let mut nanoseconds = 0;
    if cursor.eat(b'.') {
        let mut count = 0;
        while let Some(byte @ b'0'..=b'9') = cursor.peek() {
            if count < 9 {
                nanoseconds = nanoseconds * 10 + u32::from(byte - b'0');
            }
            count += 1;
            cursor.at += 1;
        }
        if strict && count == 0 {
            return Err(fail(format!("expected the fraction's digits after `.`, found {}", cursor.found())));
        }
        for _ in count..9 {
            nanoseconds *= 10;
        }
    }
    if hour > 23 {
        return Err(fail(format!("hour {hour} out of range (0 to 23)")));
    }
    if minute > 59 {
        return Err(fail(format!("minute {minute} out of range (0 to 59)")));
    }
    if second > 60 {
        return Err(fail(format!("second {second} out of range (0 to 59, or 60 for a leap second)")));
    }

    // Time zone.
    let blanks = !strict && cursor.eat_blanks();
    let offset = match cursor.peek() {
        None if strict => {
            return Err(fail("missing the time zone (`Z` or an offset such as `+01:00`)".to_owned()));
        }
        None => 0,
        Some(b'Z' | b'z') => {
            cursor.at += 1;
            0
        }
        Some(sign @ (b'+' | b'-')) => {
            cursor.at += 1;
            let (hours, _) = part(&mut cursor, "offset's hours", one)?;
            let minutes = if strict {
                separator(&mut cursor, b':', "offset's hours")?;
                part(&mut cursor, "offset's minutes", 2)?.0
            } else if cursor.eat(b':') {
                part(&mut cursor, "offset's minutes", 2)?.0
            } else {
                0
            };
            if hours > 23 {
                return Err(fail(format!("offset hour {hours} out of range (0 to 23)")));
            }
            if minutes > 59 {
                return Err(fail(format!("offset minute {minutes} out of range (0 to 59)")));
            }
            let seconds = i32::try_from((hours * 60 + minutes) * 60).unwrap_or(0);
            if sign == b'-' { -seconds } else { seconds }
        }
        Some(_) if blanks || strict => {
            return Err(fail(format!("expected a time zone (`Z` or `±HH:MM`), found {}", cursor.found())));
        }
        Some(_) => {
            return Err(fail(format!(
                "expected a fraction or a time zone after the seconds, found {}",
                cursor.found()
            )));
        }
    };
    if !cursor.rest().is_empty() {
        return Err(fail(format!("unexpected {} after the time zone", cursor.found())));
    }

    let timestamp = build(year, month, day, (hour, minute, second.min(59), nanoseconds), offset).map_err(fail)?;
    if second == 60 {
        let utc = Offset::UTC.to_datetime(timestamp.instant);
        if (utc.hour(), utc.minute()) != (23, 59) {
            return Err(fail("second 60 is a leap second, only valid at 23:59:60 UTC".to_owned()));
        }
        return Ok(Timestamp { leap_second: true, ..timestamp });
    }
    Ok(timestamp)
}

/// Builds the instant from validated parts.
fn build(year: u32, month: u32, day: u32, time: (u32, u32, u32, u32), offset: i32) -> Result<Timestamp, String> {
    let (hour, minute, second, nanoseconds) = time;
    let small = |value: u32| i8::try_from(value).map_err(|_| "out of range".to_owned());
    let year = i16::try_from(year).map_err(|_| "year out of range".to_owned())?;
    let date = Date::new(year, small(month)?, small(day)?).map_err(|error| error.to_string())?;
    let nanoseconds = i32::try_from(nanoseconds).map_err(|_| "fraction out of range".to_owned())?;
    let time =
        Time::new(small(hour)?, small(minute)?, small(second)?, nanoseconds).map_err(|error| error.to_string())?;
    let offset = Offset::from_seconds(offset).map_err(|error| error.to_string())?;
    let instant = offset
        .to_timestamp(DateTime::from_parts(date, time))
        .map_err(|_| "out of the supported range (years 0000 to 9999 in UTC)".to_owned())?;
    Ok(Timestamp { instant, offset, leap_second: false })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Timestamp {
        Timestamp::parse(text).unwrap()
    }

    fn strict(text: &str) -> Result<Timestamp, String> {
        Timestamp::parse_for(text, Version::V2_0)
    }

    #[test]
    fn yaml_examples() {
        // The four examples of http://yaml.org/type/timestamp.html.
        let canonical = parse("2001-12-15T02:59:43.1Z");
        let iso8601 = parse("2001-12-14t21:59:43.10-05:00");
        let spaced = parse("2001-12-14 21:59:43.10 -5");
        let date = parse("2002-12-14");
        assert_eq!(canonical, iso8601);
        assert_eq!(canonical, spaced);
        assert_eq!(canonical.to_string(), "2001-12-15T02:59:43.1Z");
        assert_eq!(iso8601.to_string(), "2001-12-14T21:59:43.1-05:00");
        assert_eq!(spaced.to_string(), "2001-12-14T21:59:43.1-05:00");
        assert_eq!(date.to_string(), "2002-12-14T00:00:00Z");
        assert_eq!(date, parse("2002-12-14T00:00:00Z"));
        assert_eq!(iso8601.offset_seconds(), -5 * 3600);
        assert_eq!(canonical.instant().as_millisecond(), 1_008_385_183_100);
    }

    #[test]
    fn yaml_relaxations() {
        let expected = parse("2001-02-03T04:05:06Z");
        for text in [
            "2001-2-3T4:05:06Z",
            "2001-02-03t04:05:06z",
            "2001-02-03 04:05:06",
            "2001-02-03\t04:05:06",
            "2001-02-03  04:05:06 Z",
            "2001-02-03T04:05:06+00",
            "2001-02-03T04:05:06-0",
            "2001-02-03T04:05:06.",
            "2001-02-03T04:05:06.000000000000",
            " 2001-02-03T04:05:06Z ",
        ] {
            assert_eq!(parse(text), expected, "{text}");
        }
        assert_eq!(parse("2001-02-03T04:05:06+1").to_string(), "2001-02-03T04:05:06+01:00");
        assert_eq!(parse("2001-02-03T04:05:06 +05:30").to_string(), "2001-02-03T04:05:06+05:30");
        assert_eq!(parse("1975-09-15 12:34:56.7 +2").to_string(), "1975-09-15T12:34:56.7+02:00");
    }

    #[test]
    fn offsets_and_equality() {
        let utc = parse("2020-01-01T00:00:00Z");
        let east = parse("2020-01-01T05:30:00+05:30");
        let west = parse("2019-12-31T14:00:00-10:00");
        assert_eq!(utc, east);
        assert_eq!(utc, west);
        assert_eq!(east.to_string(), "2020-01-01T05:30:00+05:30");
        assert_eq!(west.to_string(), "2019-12-31T14:00:00-10:00");
        assert!(parse("2020-01-01T00:00:00+01:00") < utc);
        assert!(parse("2020-01-01T00:00:00-01:00") > utc);
        assert!(parse("2020-01-01T00:00:00.000000001Z") > utc);
        assert_eq!(parse("2020-01-01T00:00:00-00:00"), utc);
    }

    #[test]
    fn fractions() {
        assert_eq!(parse("2020-01-01T00:00:00.5Z").to_string(), "2020-01-01T00:00:00.5Z");
        assert_eq!(parse("2020-01-01T00:00:00.123456789Z").to_string(), "2020-01-01T00:00:00.123456789Z");
        // Beyond nanoseconds: truncated.
        assert_eq!(parse("2020-01-01T00:00:00.1234567899Z").to_string(), "2020-01-01T00:00:00.123456789Z");
        assert_eq!(parse("2020-01-01T00:00:00.10Z"), parse("2020-01-01T00:00:00.1Z"));
        assert!(parse("2020-01-01T00:00:00.1Z") < parse("2020-01-01T00:00:00.11Z"));
    }

    #[test]
    fn ordering_before_1970() {
        let a = parse("1969-12-31T23:59:59.5Z");
        let b = parse("1969-12-31T23:59:59.7Z");
        let c = parse("1970-01-01T00:00:00Z");
        assert!(a < b && b < c);
        assert_eq!(parse("0000-01-01T00:00:00Z").to_string(), "0000-01-01T00:00:00Z");
        assert!(parse("0000-01-01T00:00:00Z") < a);
    }

    #[test]
    fn leap_seconds() {
        let leap = parse("1990-12-31T15:59:60-08:00");
        assert_eq!(leap.to_string(), "1990-12-31T15:59:60-08:00");
        let before = parse("1990-12-31T23:59:59.999Z");
        let after = parse("1991-01-01T00:00:00Z");
        assert!(before < leap && leap < after);
        assert_eq!(leap, parse("1990-12-31T23:59:60Z"));
        assert!(parse("1990-12-31T23:59:60.5Z") > leap);
        assert!(parse("1990-12-31T23:59:60.5Z") < after);
        assert_eq!(
            Timestamp::parse("1990-12-31T12:00:60Z").unwrap_err(),
            "`1990-12-31T12:00:60Z` is not a timestamp: second 60 is a leap second, only valid at 23:59:60 UTC"
        );
        assert!(strict("1990-12-31T15:59:60-08:00").is_ok());
    }

    #[test]
    fn invalid_dates() {
        let error = |text: &str| Timestamp::parse(text).unwrap_err();
        assert_eq!(error("2001-13-01"), "`2001-13-01` is not a timestamp: month 13 out of range (1 to 12)");
        assert_eq!(error("2001-00-01"), "`2001-00-01` is not a timestamp: month 0 out of range (1 to 12)");
        assert_eq!(
            error("2001-02-29"),
            "`2001-02-29` is not a timestamp: day 29 out of range (February 2001 has 28 days)"
        );
        assert!(Timestamp::parse("2000-02-29").is_ok());
        assert!(Timestamp::parse("2004-02-29").is_ok());
        assert!(error("1900-02-29").contains("February 1900 has 28 days"));
        assert!(error("2001-04-31").contains("day 31 out of range (April 2001 has 30 days)"));
        assert!(error("2001-01-00").contains("day 0 out of range"));
        assert!(error("2001-01-01T24:00:00Z").contains("hour 24 out of range"));
        assert!(error("2001-01-01T23:60:00Z").contains("minute 60 out of range"));
        assert!(error("2001-01-01T23:59:61Z").contains("second 61 out of range"));
        assert!(error("2001-01-01T00:00:00+24:00").contains("offset hour 24 out of range"));
        assert!(error("2001-01-01T00:00:00+01:60").contains("offset minute 60 out of range"));
    }

    #[test]
    fn malformed() {
        let error = |text: &str| Timestamp::parse(text).unwrap_err();
        assert!(error("").contains("it is empty"));
        assert!(error("yesterday").contains("expected a four-digit year, found `yesterday`"));
        assert!(error("01-02-03").contains("four-digit year"));
        assert!(error("20011-02-03").contains("four-digit year"));
        assert!(error("2001/02/03").contains("expected `-` after the year, found `/02/03`"));
        assert!(error("2001-2-3").contains("a date without a time needs a two-digit month and day"));
        assert!(error("2001-02-003").contains("two-digit day"));
        assert!(error("2001-02-03X04:05:06").contains("expected `T` or a space between the date and the time"));
        assert!(error("2001-02-03T04").contains("expected `:` after the hour, found the end"));
        assert!(error("2001-02-03T04:5:06").contains("expected the minute"));
        assert!(error("2001-02-03T04:05").contains("expected `:` after the minute"));
        assert!(error("2001-02-03T04:05:06 PST").contains("expected a time zone"));
        assert!(error("2001-02-03T04:05:06Zulu").contains("unexpected `ulu` after the time zone"));
        assert!(error("2001-02-03T04:05:06+0530").contains("unexpected `30` after the time zone"));
        assert!(error("2001-02-03T04:05:06+").contains("expected the offset's hours"));
        assert!(error("2001-02-03T04:05:06x").contains("expected a fraction or a time zone"));
        assert!(error("2001-02-03T04:05:06.5.5Z").contains("expected a fraction or a time zone"));
        assert!(error("2001-02-03T04:05:06Z 2").contains("unexpected ` 2`"));
        assert!(error("2001-02-03T04:05:06Z\u{e9}").contains("unexpected `\u{e9}`"));
        assert!(error("\u{e9}").contains("four-digit year"));
    }

    #[test]
    fn rfc_3339_in_tosca_2_0() {
        assert_eq!(strict("2025-04-12T23:20:50.52Z").unwrap().to_string(), "2025-04-12T23:20:50.52Z");
        assert_eq!(strict("1996-12-19T16:39:57-08:00").unwrap().to_string(), "1996-12-19T16:39:57-08:00");
        assert_eq!(strict("2000-02-29").unwrap().to_string(), "2000-02-29T00:00:00Z");
        assert_eq!(strict("2000-02-29t00:00:00z").unwrap(), strict("2000-02-29").unwrap());
        assert_eq!(strict("2000-02-29T00:00:00-00:00").unwrap().offset_seconds(), 0);
        assert_eq!(
            strict("2001-12-14 21:59:43.10").unwrap_err(),
            "`2001-12-14 21:59:43.10` is not a timestamp: expected `T` between the date and the time, found \
             ` 21:59:43.10` (TOSCA 2.0 takes RFC 3339 timestamps, without the YAML spaces)"
        );
        assert!(strict("2001-12-14T21:59:43.10").unwrap_err().contains("missing the time zone"));
        assert!(strict("2001-12-14T21:59:43 Z").unwrap_err().contains("expected a time zone"));
        assert!(strict("2001-12-14T21:59:43-5").unwrap_err().contains("expected the offset's hours"));
        assert!(strict("2001-12-14T21:59:43-05").unwrap_err().contains("expected `:` after the offset's hours"));
        assert!(strict("2001-12-14T21:59:43.Z").unwrap_err().contains("fraction's digits"));
        assert!(strict("2001-2-14T21:59:43Z").unwrap_err().contains("expected the month"));
        assert!(strict("2001-12-14T1:59:43Z").unwrap_err().contains("expected the hour"));
        // Every form is accepted by the 1.x rule.
        for version in [Version::V1_0, Version::V1_1, Version::V1_2, Version::V1_3] {
            assert!(Timestamp::parse_for("2001-12-14 21:59:43.10 -5", version).is_ok());
        }
    }

    #[test]
    fn supported_range() {
        assert_eq!(parse("9999-12-30T00:00:00Z").to_string(), "9999-12-30T00:00:00Z");
        assert!(Timestamp::parse("9999-12-31T23:59:59-23:00").unwrap_err().contains("out of the supported range"));
    }

    #[test]
    fn display_round_trips() {
        for text in [
            "2001-12-14t21:59:43.10-05:00",
            "2001-12-14 21:59:43.10 -5",
            "2002-12-14",
            "1990-12-31T15:59:60-08:00",
            "2020-06-01T12:00:00.000001+14:00",
            "2020-06-01T12:00:00-00:30",
        ] {
            let value = parse(text);
            let shown = value.to_string();
            let again = strict(&shown).unwrap();
            assert_eq!(again, value, "{text}");
            assert_eq!(again.to_string(), shown);
            assert_eq!(again.offset_seconds(), value.offset_seconds());
        }
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
        let alphabet: Vec<char> = "0123456789-:.TtZz+ \t9\u{e9}".chars().collect();
        for text in generated(&alphabet, 50_000) {
            for version in [Version::V1_3, Version::V2_0] {
                if let Ok(value) = Timestamp::parse_for(&text, version) {
                    assert_eq!(strict(&value.to_string()).as_ref(), Ok(&value), "{text:?}");
                }
            }
        }
        // Shaped like timestamps, to get past the year.
        let alphabet: Vec<char> = "0123456789-:.Tz+ ".chars().collect();
        for tail in generated(&alphabet, 50_000) {
            let text = format!("2001-{tail}");
            if let Ok(value) = Timestamp::parse(&text) {
                assert_eq!(strict(&value.to_string()).as_ref(), Ok(&value), "{text:?}");
            }
        }
    }
}
