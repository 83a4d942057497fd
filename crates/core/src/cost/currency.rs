//! Currencies and the exchange rates a tenant uploads (docs/CURRENCY.md): a currency code, and
//! the rates CSV (`date,from,to,rate`) parsed with the contract's messages. The rule that money
//! is never summed across currencies without saying so lives in the cost engine; this module
//! only says what a valid code and a valid rates file are.

use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;

use chrono::NaiveDate;

/// The most rows a rates file may have.
pub const MAX_RATE_ROWS: usize = 100_000;
/// The largest rates file accepted, in bytes (10 MB).
pub const MAX_RATES_FILE_BYTES: usize = 10 * 1024 * 1024;
/// Decimal places a rate keeps (the engine stores rates as `DECIMAL(38, 12)`); a rate that
/// rounds to zero at this precision is refused.
pub const RATE_SCALE: u32 = 12;

/// A three-letter ISO 4217 currency code, upper case (`USD`, `EUR`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CurrencyCode(String);

impl CurrencyCode {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for CurrencyCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Why a string is not a [`CurrencyCode`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a three-letter currency code")]
pub struct InvalidCurrencyCode;

impl FromStr for CurrencyCode {
    type Err = InvalidCurrencyCode;

    /// Three ASCII letters in any case, surrounding spaces ignored.
    fn from_str(value: &str) -> Result<Self, Self::Err> {
        let value = value.trim();
        if value.len() == 3 && value.bytes().all(|byte| byte.is_ascii_alphabetic()) {
            Ok(Self(value.to_ascii_uppercase()))
        } else {
            Err(InvalidCurrencyCode)
        }
    }
}

/// A positive decimal number kept as written (digits, at most one point), so that the engine
/// reads it exactly as a DECIMAL and never through a binary float.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rate(String);

impl Rate {
    /// The number as plain decimal text (`0.9213`).
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The number as a float (display and tests only; conversions use [`Rate::as_str`]).
    pub fn to_f64(&self) -> f64 {
        self.0.parse().unwrap_or_default()
    }

    /// A rate read back from storage (`0.921300000000`), trailing zeros of its fraction
    /// dropped (`0.9213`).
    pub fn from_stored(value: &str) -> Option<Self> {
        let value = value.trim();
        let value = if value.contains('.') {
            value.trim_end_matches('0').trim_end_matches('.')
        } else {
            value
        };
        Self::parse(value)
    }

    /// Plain decimal text greater than zero at [`RATE_SCALE`] decimal places.
    fn parse(value: &str) -> Option<Self> {
        let value = value.trim();
        let (whole, fraction) = value.split_once('.').unwrap_or((value, ""));
        let digits = |part: &str| part.bytes().all(|byte| byte.is_ascii_digit());
        if whole.is_empty() && fraction.is_empty() || !digits(whole) || !digits(fraction) {
            return None;
        }
        if whole.trim_start_matches('0').len() > 38 - RATE_SCALE as usize {
            return None;
        }
        let kept = &fraction[..fraction.len().min(RATE_SCALE as usize)];
        let nonzero = |part: &str| part.bytes().any(|byte| byte != b'0');
        if !nonzero(whole) && !nonzero(kept) {
            return None;
        }
        let whole = if whole.is_empty() { "0" } else { whole };
        Some(Self(if fraction.is_empty() {
            whole.to_owned()
        } else {
            format!("{whole}.{fraction}")
        }))
    }
}

/// One row of a rates file: `1 from = rate to` on `date`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExchangeRate {
    pub date: NaiveDate,
    pub from: CurrencyCode,
    pub to: CurrencyCode,
    pub rate: Rate,
}

/// Why a rates file was refused; the message names the row (the header is row 1) and column.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct RatesFileError(pub String);

/// The columns of a rates file, in the order [`parse_rates_csv`] reads them.
const COLUMNS: [&str; 4] = ["date", "from", "to", "rate"];

/// Parses a rates file: a header naming `date`, `from`, `to` and `rate` (any case, any order,
/// other columns refused), then one rate per row. A UTF-8 BOM, CRLF line ends, quoted values
/// and blank lines are accepted. At most [`MAX_RATE_ROWS`] rows and [`MAX_RATES_FILE_BYTES`]
/// bytes; one rate per date and pair.
pub fn parse_rates_csv(bytes: &[u8]) -> Result<Vec<ExchangeRate>, RatesFileError> {
    let fail = |message: String| Err(RatesFileError(message));
    if bytes.len() > MAX_RATES_FILE_BYTES {
        return fail("the file is larger than 10 MB".to_owned());
    }
    let Ok(text) = std::str::from_utf8(bytes) else {
        return fail("the file is not UTF-8 text".to_owned());
    };
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = text
        .split('\n')
        .enumerate()
        .map(|(index, line)| (index + 1, line.strip_suffix('\r').unwrap_or(line)))
        .filter(|(_, line)| !line.trim().is_empty());
    let Some((header_row, header)) = lines.next() else {
        return fail("the file has no rows".to_owned());
    };
    let positions = header_positions(header_row, header)?;
    let mut rates = Vec::new();
    let mut seen: HashMap<(NaiveDate, CurrencyCode, CurrencyCode), usize> = HashMap::new();
    for (row, line) in lines {
        if rates.len() == MAX_RATE_ROWS {
            return fail(format!("the file has more than {MAX_RATE_ROWS} rows"));
        }
        let values = split_line(row, line)?;
        if values.len() != positions.len() {
            return fail(format!(
                "row {row}: expected {} values, found {}",
                positions.len(),
                values.len()
            ));
        }
        let value = |column: usize| values[positions[column]].trim();
        let date = NaiveDate::parse_from_str(value(0), "%Y-%m-%d")
            .ok()
            .filter(|_| value(0).len() == 10);
        let Some(date) = date else {
            return fail(format!(
                "row {row}, column \"date\": \"{}\" is not a date (YYYY-MM-DD)",
                value(0)
            ));
        };
        let code = |column: usize| {
            value(column).parse::<CurrencyCode>().map_err(|_| {
                RatesFileError(format!(
                    "row {row}, column \"{}\": \"{}\" is not a three-letter currency code",
                    COLUMNS[column],
                    value(column)
                ))
            })
        };
        let (from, to) = (code(1)?, code(2)?);
        let Some(rate) = Rate::parse(value(3)) else {
            return fail(format!(
                "row {row}, column \"rate\": \"{}\" is not a positive number",
                value(3)
            ));
        };
        if from == to {
            return fail(format!("row {row}: {from} to {to} is not an exchange rate"));
        }
        if let Some(first) = seen.insert((date, from.clone(), to.clone()), row) {
            return fail(format!(
                "row {row}: {from} to {to} on {date} is already given in row {first}"
            ));
        }
        rates.push(ExchangeRate {
            date,
            from,
            to,
            rate,
        });
    }
    if rates.is_empty() {
        return fail("the file has no rows".to_owned());
    }
    Ok(rates)
}

/// The position of each of [`COLUMNS`] in the header.
fn header_positions(row: usize, header: &str) -> Result<Vec<usize>, RatesFileError> {
    let names: Vec<String> = split_line(row, header)?
        .iter()
        .map(|name| name.trim().to_ascii_lowercase())
        .collect();
    let positions: Vec<usize> = COLUMNS
        .iter()
        .filter_map(|column| names.iter().position(|name| name == column))
        .collect();
    if positions.len() != COLUMNS.len() || names.len() != COLUMNS.len() {
        return Err(RatesFileError(
            "the header must name the columns date, from, to and rate".to_owned(),
        ));
    }
    Ok(positions)
}

/// The comma-separated values of one line; a value may be double-quoted (`""` inside quotes is
/// one quote).
fn split_line(row: usize, line: &str) -> Result<Vec<String>, RatesFileError> {
    let mut values = Vec::new();
    let mut current = String::new();
    let mut chars = line.chars().peekable();
    let mut quoted = false;
    let mut was_quoted = false;
    while let Some(character) = chars.next() {
        match (quoted, character) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                current.push('"');
            }
            (true, '"') => quoted = false,
            (true, _) => current.push(character),
            (false, '"') if current.trim().is_empty() && !was_quoted => {
                current.clear();
                quoted = true;
                was_quoted = true;
            }
            (false, ',') => {
                values.push(std::mem::take(&mut current));
                was_quoted = false;
            }
            (false, _) => current.push(character),
        }
    }
    if quoted {
        return Err(RatesFileError(format!(
            "row {row}: a quoted value is not closed"
        )));
    }
    values.push(current);
    Ok(values)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(text: &str) -> String {
        parse_rates_csv(text.as_bytes()).unwrap_err().0
    }

    #[test]
    fn currency_codes_are_three_letters_upper_cased() {
        assert_eq!("eur".parse::<CurrencyCode>().unwrap().as_str(), "EUR");
        assert_eq!(" USD ".parse::<CurrencyCode>().unwrap().as_str(), "USD");
        for bad in ["US", "USDX", "U$D", "", "12A", "ÉUR"] {
            assert!(bad.parse::<CurrencyCode>().is_err(), "{bad}");
        }
    }

    #[test]
    fn a_file_in_any_column_order_with_bom_and_crlf_parses() {
        let text = "\u{feff}Rate,DATE,to,From\r\n0.9213,2026-11-01,EUR,usd\r\n\"1.25\",2026-11-02,USD,GBP\r\n\r\n";
        let rates = parse_rates_csv(text.as_bytes()).unwrap();
        assert_eq!(rates.len(), 2);
        assert_eq!(rates[0].date, NaiveDate::from_ymd_opt(2026, 11, 1).unwrap());
        assert_eq!(rates[0].from.as_str(), "USD");
        assert_eq!(rates[0].to.as_str(), "EUR");
        assert_eq!(rates[0].rate.as_str(), "0.9213");
        assert_eq!(rates[1].rate.as_str(), "1.25");
        assert_eq!(rates[1].from.as_str(), "GBP");
    }

    #[test]
    fn every_refusal_names_the_row_and_column() {
        let header = "date,from,to,rate\n";
        assert_eq!(
            error(&format!(
                "{header}2026-11-01,USD,EUR,1\n2026-11-02,USD,EUR,abc\n"
            )),
            "row 3, column \"rate\": \"abc\" is not a positive number"
        );
        assert_eq!(
            error(&format!("{header}2026-13-01,USD,EUR,1\n")),
            "row 2, column \"date\": \"2026-13-01\" is not a date (YYYY-MM-DD)"
        );
        assert_eq!(
            error(&format!("{header}2026-11-01,US,EUR,1\n")),
            "row 2, column \"from\": \"US\" is not a three-letter currency code"
        );
        assert_eq!(
            error(&format!("{header}2026-11-01,USD,EURO,1\n")),
            "row 2, column \"to\": \"EURO\" is not a three-letter currency code"
        );
        assert_eq!(
            error(&format!("{header}2026-11-01,USD,usd,1\n")),
            "row 2: USD to USD is not an exchange rate"
        );
        assert_eq!(error(header), "the file has no rows");
        assert_eq!(error(""), "the file has no rows");
        assert_eq!(
            error("day,from,to,rate\n2026-11-01,USD,EUR,1\n"),
            "the header must name the columns date, from, to and rate"
        );
        assert_eq!(
            error("date,from,to,rate,note\n2026-11-01,USD,EUR,1,x\n"),
            "the header must name the columns date, from, to and rate"
        );
        assert_eq!(
            error(&format!("{header}2026-11-01,USD,EUR\n")),
            "row 2: expected 4 values, found 3"
        );
        assert_eq!(
            error(&format!(
                "{header}2026-11-01,USD,EUR,1\n2026-11-01,USD,EUR,2\n"
            )),
            "row 3: USD to EUR on 2026-11-01 is already given in row 2"
        );
    }

    #[test]
    fn rates_must_be_positive_plain_decimals() {
        let header = "date,from,to,rate\n";
        for bad in [
            "0",
            "-1",
            "0.0000000000001",
            "1e3",
            "NaN",
            "",
            "1.2.3",
            "inf",
        ] {
            assert!(
                parse_rates_csv(format!("{header}2026-11-01,USD,EUR,{bad}\n").as_bytes()).is_err(),
                "{bad}"
            );
        }
        for (good, kept) in [
            (".5", "0.5"),
            ("007", "007"),
            ("0.000000000001", "0.000000000001"),
        ] {
            let rates =
                parse_rates_csv(format!("{header}2026-11-01,USD,EUR,{good}\n").as_bytes()).unwrap();
            assert_eq!(rates[0].rate.as_str(), kept);
        }
    }

    #[test]
    fn row_and_size_limits() {
        let mut text = String::from("date,from,to,rate\n");
        let start = NaiveDate::from_ymd_opt(1800, 1, 1).unwrap();
        for day in 0..=MAX_RATE_ROWS as i64 {
            let date = start + chrono::Duration::days(day);
            text.push_str(&format!("{date},USD,EUR,1\n"));
        }
        assert_eq!(error(&text), "the file has more than 100000 rows");
        let big = vec![b' '; MAX_RATES_FILE_BYTES + 1];
        assert_eq!(
            parse_rates_csv(&big).unwrap_err().0,
            "the file is larger than 10 MB"
        );
    }
}
