//! Values whose text ClickHouse 18.16 would otherwise take wrongly without a word: a decimal
//! with more places than its column keeps (an error at best), a date outside 18.16's range (read
//! as `0000-00-00`). Each type parses, so that a value that exists is one the server stores
//! exactly; [`crate::literal`] writes them into SQL and [`crate::tsv`] into bulk inserts.

use std::fmt;

use chrono::{Datelike, NaiveDate, Timelike, Utc};

/// Decimal128 keeps 38 significant digits.
pub const MAX_PRECISION: u32 = 38;

/// Why a value was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ValueError {
    #[error("`{0}` is not a decimal number (digits with an optional sign and decimal point)")]
    NotADecimal(String),
    #[error("scale {0} is more than Decimal128's {MAX_PRECISION} digits")]
    BadScale(u32),
    #[error("`{value}` has {places} decimal places; the column keeps {scale}")]
    TooManyPlaces {
        value: String,
        places: usize,
        scale: u32,
    },
    #[error("`{value}` has more than {MAX_PRECISION} digits at scale {scale}")]
    TooManyDigits { value: String, scale: u32 },
    #[error("{0} is outside ClickHouse's date range 1970-01-02 to 2105-12-31")]
    DateOutOfRange(String),
    #[error("{0} has a fraction of a second; ClickHouse's DateTime keeps whole seconds")]
    SubSecond(String),
}

/// A decimal number at a fixed scale, as text: exactly `scale` digits after the point, no
/// leading zeros, no `-0`; the text ClickHouse itself writes for a `Decimal(P, scale)`.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Decimal {
    text: String,
    scale: u32,
}

impl Decimal {
    /// Reads `-12.5`, `+3`, `.25`, `007.10`; refuses exponents, spaces, more than `scale`
    /// decimal places (nothing is rounded) and more than 38 digits in all.
    pub fn parse(value: &str, scale: u32) -> Result<Self, ValueError> {
        if scale > MAX_PRECISION {
            return Err(ValueError::BadScale(scale));
        }
        let not_a_decimal = || ValueError::NotADecimal(value.to_owned());
        let (negative, unsigned) = match value.as_bytes().first() {
            Some(b'-') => (true, &value[1..]),
            Some(b'+') => (false, &value[1..]),
            _ => (false, value),
        };
        let (int_part, frac_part) = unsigned.split_once('.').unwrap_or((unsigned, ""));
        let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
        if int_part.len() + frac_part.len() == 0 || !digits(int_part) || !digits(frac_part) {
            return Err(not_a_decimal());
        }
        if frac_part.len() > scale as usize {
            return Err(ValueError::TooManyPlaces {
                value: value.to_owned(),
                places: frac_part.len(),
                scale,
            });
        }
        let int_part = int_part.trim_start_matches('0');
        if int_part.len() + scale as usize > MAX_PRECISION as usize {
            return Err(ValueError::TooManyDigits {
                value: value.to_owned(),
                scale,
            });
        }
        let is_zero = int_part.is_empty() && frac_part.bytes().all(|b| b == b'0');
        let mut text = String::with_capacity(int_part.len() + scale as usize + 3);
        if negative && !is_zero {
            text.push('-');
        }
        text.push_str(if int_part.is_empty() { "0" } else { int_part });
        if scale > 0 {
            text.push('.');
            text.push_str(frac_part);
            text.extend(std::iter::repeat_n('0', scale as usize - frac_part.len()));
        }
        Ok(Self { text, scale })
    }

    pub fn scale(&self) -> u32 {
        self.scale
    }

    pub fn as_str(&self) -> &str {
        &self.text
    }
}

impl fmt::Display for Decimal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl fmt::Debug for Decimal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Decimal({}, scale {})", self.text, self.scale)
    }
}

/// The first and last day ClickHouse 18.16 keeps as itself: day 0 (1970-01-01) is its "zero
/// date", written back as `0000-00-00`, and its date tables end with 2105.
fn first_day() -> NaiveDate {
    NaiveDate::from_ymd_opt(1970, 1, 2).expect("a valid date")
}

fn last_day() -> NaiveDate {
    NaiveDate::from_ymd_opt(2105, 12, 31).expect("a valid date")
}

/// A calendar day ClickHouse's `Date` stores and writes back as itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Date(NaiveDate);

impl Date {
    pub fn new(day: NaiveDate) -> Result<Self, ValueError> {
        if day < first_day() || day > last_day() {
            return Err(ValueError::DateOutOfRange(day.to_string()));
        }
        Ok(Self(day))
    }

    pub fn get(self) -> NaiveDate {
        self.0
    }
}

impl TryFrom<NaiveDate> for Date {
    type Error = ValueError;

    fn try_from(day: NaiveDate) -> Result<Self, Self::Error> {
        Self::new(day)
    }
}

impl fmt::Display for Date {
    /// `YYYY-MM-DD`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = self.0;
        write!(f, "{:04}-{:02}-{:02}", d.year(), d.month(), d.day())
    }
}

/// A UTC instant in whole seconds that ClickHouse's `DateTime` stores and writes back as itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct DateTime(chrono::DateTime<Utc>);

impl DateTime {
    pub fn new(at: chrono::DateTime<Utc>) -> Result<Self, ValueError> {
        let day = at.date_naive();
        if day < first_day() || day > last_day() {
            return Err(ValueError::DateOutOfRange(at.to_rfc3339()));
        }
        if at.nanosecond() != 0 {
            return Err(ValueError::SubSecond(at.to_rfc3339()));
        }
        Ok(Self(at))
    }

    pub fn get(self) -> chrono::DateTime<Utc> {
        self.0
    }
}

impl TryFrom<chrono::DateTime<Utc>> for DateTime {
    type Error = ValueError;

    fn try_from(at: chrono::DateTime<Utc>) -> Result<Self, Self::Error> {
        Self::new(at)
    }
}

impl fmt::Display for DateTime {
    /// `YYYY-MM-DD hh:mm:ss` in UTC, the text form of ClickHouse's `DateTime`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0.format("%Y-%m-%d %H:%M:%S"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn decimals_are_written_as_clickhouse_writes_them() {
        let cases = [
            ("1.5", 9, "1.500000000"),
            ("-0.000000001", 9, "-0.000000001"),
            ("+3", 2, "3.00"),
            (".25", 2, "0.25"),
            ("7.", 2, "7.00"),
            ("007.10", 2, "7.10"),
            ("-0", 2, "0.00"),
            ("-0.00", 2, "0.00"),
            ("42", 0, "42"),
            ("-000", 0, "0"),
            (
                "12345678901234567890123456789.123456789",
                9,
                "12345678901234567890123456789.123456789",
            ),
            (
                "00000000000012345678901234567890123456789",
                0,
                "12345678901234567890123456789",
            ),
        ];
        for (input, scale, expected) in cases {
            let d = Decimal::parse(input, scale).unwrap_or_else(|e| panic!("{input}: {e}"));
            assert_eq!((d.as_str(), d.scale()), (expected, scale), "{input}");
        }
    }

    #[test]
    fn decimals_are_refused_rather_than_rounded_or_guessed() {
        let cases = [
            ("", 2, "`` is not a decimal"),
            ("-", 2, "`-` is not a decimal"),
            (".", 2, "`.` is not a decimal"),
            ("1e5", 2, "`1e5` is not a decimal"),
            (" 1", 2, "is not a decimal"),
            ("1,5", 2, "is not a decimal"),
            ("--1", 2, "is not a decimal"),
            ("1.2.3", 2, "is not a decimal"),
            ("NaN", 2, "is not a decimal"),
            (
                "1.234",
                2,
                "`1.234` has 3 decimal places; the column keeps 2",
            ),
            ("1", 39, "scale 39 is more than"),
            (
                "123456789012345678901234567890",
                9,
                "more than 38 digits at scale 9",
            ),
        ];
        for (input, scale, expected) in cases {
            let message = Decimal::parse(input, scale).unwrap_err().to_string();
            assert!(message.contains(expected), "{input}: {message}");
        }
    }

    #[test]
    fn dates_outside_what_18_16_keeps_are_refused() {
        let day = |y, m, d| NaiveDate::from_ymd_opt(y, m, d).unwrap();
        assert_eq!(
            Date::new(day(2024, 2, 29)).unwrap().to_string(),
            "2024-02-29"
        );
        assert_eq!(
            Date::new(day(1970, 1, 2)).unwrap().to_string(),
            "1970-01-02"
        );
        assert_eq!(
            Date::new(day(2105, 12, 31)).unwrap().to_string(),
            "2105-12-31"
        );
        for bad in [
            day(1970, 1, 1),
            day(1969, 12, 31),
            day(2106, 1, 1),
            day(1, 1, 1),
        ] {
            let message = Date::new(bad).unwrap_err().to_string();
            assert!(
                message.contains("outside ClickHouse's date range"),
                "{message}"
            );
        }
    }

    #[test]
    fn date_times_are_whole_utc_seconds_in_range() {
        let at = Utc.with_ymd_and_hms(2024, 1, 31, 23, 5, 9).unwrap();
        assert_eq!(
            DateTime::new(at).unwrap().to_string(),
            "2024-01-31 23:05:09"
        );
        let fraction = at + chrono::Duration::milliseconds(1);
        assert!(DateTime::new(fraction)
            .unwrap_err()
            .to_string()
            .contains("fraction of a second"));
        let early = Utc.with_ymd_and_hms(1970, 1, 1, 12, 0, 0).unwrap();
        assert!(matches!(
            DateTime::new(early),
            Err(ValueError::DateOutOfRange(_))
        ));
        let late = Utc.with_ymd_and_hms(2106, 1, 1, 0, 0, 0).unwrap();
        assert!(matches!(
            DateTime::new(late),
            Err(ValueError::DateOutOfRange(_))
        ));
    }
}
