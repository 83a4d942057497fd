//! Amounts as the DuckDB engine gives them. DuckDB sums DECIMALs exactly and its reads cast the
//! sum to DOUBLE in SQL; ClickHouse answers the exact sum as text. Parsing that text correctly
//! rounded would not always give DuckDB's DOUBLE: DuckDB's cast of a DECIMAL(38, s) is not
//! correctly rounded past 2^53 (about 9 million at scale 9), where it converts the integer and
//! fractional parts apart and adds them, and it converts a 128-bit integer from its two 64-bit
//! halves. [`duckdb_double`] repeats DuckDB's steps (1.5's `TryCastDecimalToFloatingPoint` and
//! `Hugeint::TryCast`), so that both engines answer the same bits.

use crate::EngineError;

/// DuckDB's `NumericHelper::DOUBLE_POWERS_OF_TEN` up to the largest scale a sum has (12).
const POWERS_OF_TEN: [f64; 13] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12,
];

/// The DOUBLE DuckDB casts the decimal `text` (as ClickHouse writes a `Decimal(38, s)`: digits,
/// an optional sign and exactly `s` places) to.
pub(crate) fn duckdb_double(text: &str) -> Result<f64, EngineError> {
    let bad = || EngineError::Database(format!("ClickHouse answered `{text}` for an amount"));
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
    let scale = fraction.len();
    if whole.is_empty()
        || scale >= POWERS_OF_TEN.len()
        || !whole
            .bytes()
            .chain(fraction.bytes())
            .all(|b| b.is_ascii_digit())
    {
        return Err(bad());
    }
    let mut unscaled: i128 = format!("{whole}{fraction}").parse().map_err(|_| bad())?;
    if negative {
        unscaled = -unscaled;
    }
    Ok(decimal_to_double(unscaled, scale))
}

/// DuckDB's DECIMAL → DOUBLE for a 128-bit unscaled value: exact integers (|v| ≤ 2^53, or scale
/// 0) are divided by 10^scale; larger ones are split into quotient and remainder by 10^scale,
/// each converted, the remainder divided, and the two added.
fn decimal_to_double(unscaled: i128, scale: usize) -> f64 {
    const EXACT: u128 = 1 << 53;
    let power = POWERS_OF_TEN[scale];
    if scale == 0 || unscaled.unsigned_abs() <= EXACT {
        return hugeint_to_double(unscaled) / power;
    }
    let divisor = 10_i128.pow(scale as u32);
    hugeint_to_double(unscaled / divisor) + hugeint_to_double(unscaled % divisor) / power
}

/// DuckDB's HUGEINT → DOUBLE: `lower + upper · 2^64` from the two's-complement halves, with
/// its own case for an upper half of -1 (a negative value above -2^64).
#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_precision_loss
)]
fn hugeint_to_double(value: i128) -> f64 {
    let upper = (value >> 64) as i64;
    let lower = value as u64;
    if upper == -1 {
        -((u64::MAX - lower) as f64) - 1.0
    } else {
        lower as f64 + upper as f64 * 18_446_744_073_709_551_616.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Decimal texts at scales 9 and 12 around every place the two conversions part: 2^53,
    /// 2^63, 2^64 and large sums, both signs, and a deterministic spread of ordinary amounts.
    fn samples() -> Vec<String> {
        let mut values: Vec<(i128, usize)> = Vec::new();
        let edges: [i128; 8] = [
            0,
            1,
            (1 << 53) - 1,
            1 << 53,
            (1 << 53) + 1,
            (1 << 63) + 12_345,
            (1 << 64) + 987_654_321,
            10_i128.pow(30) + 123_456_789,
        ];
        for edge in edges {
            for delta in [-3_i128, 0, 7, 999_999_999] {
                for scale in [9, 12] {
                    values.push((edge + delta, scale));
                    values.push((-(edge + delta), scale));
                }
            }
        }
        // Integer parts past 2^53 that are odd (halfway between two DOUBLEs): DuckDB rounds the
        // integer part to even first and the fraction cannot move it back, where a correctly
        // rounded parse of the whole number goes up.
        for whole in [
            (1_i128 << 53) + 1,
            (1 << 54) + 2,
            (1 << 60) + 64,
            (1 << 70) + (1 << 17),
        ] {
            for fraction in [1_i128, 500_000_000, 999_999_999] {
                for scale in [9_usize, 12] {
                    let fraction = fraction * 10_i128.pow(scale as u32 - 9);
                    let value = whole * 10_i128.pow(scale as u32) + fraction;
                    values.push((value, scale));
                    values.push((-value, scale));
                }
            }
        }
        // A linear congruential spread of magnitudes from cents to trillions.
        let mut state: u64 = 0x2545_f491_4f6c_dd1d;
        for index in 0..4_000 {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let magnitude = 10_i128.pow(3 + (index % 20) as u32);
            let value = i128::from(state >> 1) % magnitude;
            let value = if index % 3 == 0 { -value } else { value };
            values.push((value, if index % 2 == 0 { 9 } else { 12 }));
        }
        values
            .into_iter()
            .map(|(value, scale)| {
                let digits = format!("{:0>width$}", value.unsigned_abs(), width = scale + 1);
                let (whole, fraction) = digits.split_at(digits.len() - scale);
                let sign = if value < 0 { "-" } else { "" };
                format!("{sign}{whole}.{fraction}")
            })
            .collect()
    }

    /// Every sample against DuckDB itself (the engine's library): the same bits. And the proof
    /// that it matters: a correctly rounded parse of the same text differs for some of them.
    #[test]
    fn amounts_are_the_doubles_duckdb_casts_decimal_sums_to() {
        let connection = duckdb::Connection::open_in_memory().unwrap();
        let mut differ_from_parse = Vec::new();
        for text in samples() {
            let scale = text.split_once('.').map_or(0, |(_, f)| f.len());
            let expected: f64 = connection
                .query_row(
                    &format!("SELECT CAST(CAST(? AS DECIMAL(38,{scale})) AS DOUBLE)"),
                    [&text],
                    |row| row.get(0),
                )
                .unwrap();
            let ours = duckdb_double(&text).unwrap();
            assert_eq!(
                ours.to_bits(),
                expected.to_bits(),
                "{text}: ours {ours:e}, DuckDB {expected:e}"
            );
            if text.parse::<f64>().unwrap().to_bits() != expected.to_bits() {
                differ_from_parse.push(text);
            }
        }
        assert!(
            !differ_from_parse.is_empty(),
            "no sample where parsing the text differs from DuckDB's cast"
        );
    }

    #[test]
    fn sums_of_line_items_are_cast_like_duckdb() {
        // A sum of DECIMAL(18,9) line items is DECIMAL(38,9): check the cast of real sums too.
        let connection = duckdb::Connection::open_in_memory().unwrap();
        let (text, expected): (String, f64) = connection
            .query_row(
                "SELECT CAST(s AS VARCHAR), CAST(s AS DOUBLE) FROM (SELECT sum(CAST(v AS DECIMAL(18,9))) AS s \
                 FROM (VALUES ('123456789.123456789'), ('987654321.987654321'), ('-0.000000007'), \
                 ('8999999.999999999')) t(v))",
                [],
                |row| Ok((row.get(0)?, row.get(1)?)),
            )
            .unwrap();
        assert_eq!(
            duckdb_double(&text).unwrap().to_bits(),
            expected.to_bits(),
            "{text}"
        );
    }

    #[test]
    fn malformed_amounts_are_errors() {
        for text in ["", "-", "1e5", "1.2.3", "abc", ".5", "1.0000000000000"] {
            assert!(duckdb_double(text).is_err(), "{text}");
        }
        assert_eq!(duckdb_double("-0.500000000").unwrap(), -0.5);
        assert_eq!(duckdb_double("12").unwrap(), 12.0);
    }
}
