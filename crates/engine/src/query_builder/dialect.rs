//! The SQL dialects the builder writes: DuckDB (bound `?` parameters) and ClickHouse (18.16 and
//! newer: no query parameters, so every value is written as a literal by
//! `costscope_clickhouse::literal`, the one function that quotes for ClickHouse). Only the
//! spellings that differ live here; the statements are the builder's.

use std::borrow::Cow;

use chrono::NaiveDate;
use costscope_clickhouse::literal;
use duckdb::types::{TimeUnit, Value};

/// Which database the SQL is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Dialect {
    /// The embedded DuckDB engine: values are bound `?` parameters.
    #[default]
    DuckDb,
    /// ClickHouse: values are literals in the text. `distributed`: read the `Distributed` tables
    /// (a cluster); else the one server's `_local` tables.
    ClickHouse { distributed: bool },
}

impl Dialect {
    pub fn is_clickhouse(self) -> bool {
        matches!(self, Dialect::ClickHouse { .. })
    }

    /// The table that holds `name`'s rows for a read: on a single ClickHouse server its local
    /// table (`name_local`), through a cluster the `Distributed` table over every shard.
    pub fn table(self, name: &'static str) -> Cow<'static, str> {
        match self {
            Dialect::DuckDb | Dialect::ClickHouse { distributed: true } => Cow::Borrowed(name),
            Dialect::ClickHouse { distributed: false } => Cow::Owned(format!("{name}_local")),
        }
    }

    /// `TRUE` / `FALSE` (18.16 has no boolean literals).
    pub(crate) fn boolean(self, value: bool) -> &'static str {
        match (self, value) {
            (Dialect::DuckDb, true) => "TRUE",
            (Dialect::DuckDb, false) => "FALSE",
            (Dialect::ClickHouse { .. }, true) => "1",
            (Dialect::ClickHouse { .. }, false) => "0",
        }
    }

    /// An amount of the answer: DuckDB casts the DECIMAL to DOUBLE in SQL; ClickHouse answers the
    /// exact decimal as text, which the engine turns into the very DOUBLE DuckDB's cast gives
    /// (`clickhouse_engine::read_amounts`).
    pub(crate) fn amount(self, expression: &str) -> String {
        match self {
            Dialect::DuckDb => format!("CAST({expression} AS DOUBLE)"),
            Dialect::ClickHouse { .. } => format!("toString({expression})"),
        }
    }

    /// Lower-casing for the case-insensitive string operators (DuckDB's `lower` is Unicode's).
    pub(crate) fn lower(self) -> &'static str {
        match self {
            Dialect::DuckDb => "lower",
            Dialect::ClickHouse { .. } => "lowerUTF8",
        }
    }

    /// A charge instant column as the value its timestamp parameters compare with: DuckDB's
    /// TIMESTAMP, or the microseconds since the epoch ClickHouse keeps beside its whole-second
    /// `DateTime` (`<column>_us`), which the parameters are written as.
    pub(crate) fn instant(self, column: &str) -> Cow<'_, str> {
        match self {
            Dialect::DuckDb => Cow::Borrowed(column),
            Dialect::ClickHouse { .. } => Cow::Owned(format!("{column}_us")),
        }
    }

    /// A bound value as ClickHouse literal text.
    pub(crate) fn literal(value: &Value) -> String {
        match value {
            Value::BigInt(number) => literal::integer(*number),
            Value::UBigInt(number) => literal::integer(*number),
            Value::Text(text) => literal::string(text),
            Value::Date32(days) => date_literal(*days),
            Value::Timestamp(unit, amount) => {
                let micros = match unit {
                    TimeUnit::Second => i128::from(*amount) * 1_000_000,
                    TimeUnit::Millisecond => i128::from(*amount) * 1_000,
                    TimeUnit::Microsecond => i128::from(*amount),
                    TimeUnit::Nanosecond => i128::from(*amount) / 1_000,
                };
                literal::integer(micros)
            }
            // The builder binds only the kinds above.
            other => unreachable!("the query builder binds no {other:?}"),
        }
    }
}

/// `toDate('…')`, clamped to the days ClickHouse's `Date` keeps (1970-01-02 to 2105-12-31): a
/// date is only ever a range's bound, and no stored row is outside those days, so a bound
/// beyond them selects the same rows as the nearest day they keep.
fn date_literal(days: i32) -> String {
    let epoch = NaiveDate::from_ymd_opt(1970, 1, 1).expect("valid date");
    let first = NaiveDate::from_ymd_opt(1970, 1, 2).expect("valid date");
    let last = NaiveDate::from_ymd_opt(2105, 12, 31).expect("valid date");
    let day = epoch
        .checked_add_signed(chrono::Duration::days(i64::from(days)))
        .unwrap_or(if days < 0 { first } else { last })
        .clamp(first, last);
    let day = costscope_clickhouse::Date::new(day).expect("clamped into range");
    literal::date(day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_become_clickhouse_literals() {
        assert_eq!(Dialect::literal(&Value::BigInt(-7)), "-7");
        assert_eq!(
            Dialect::literal(&Value::UBigInt(u64::MAX)),
            "18446744073709551615"
        );
        assert_eq!(Dialect::literal(&Value::Text("it's".into())), r"'it\'s'");
        let day = NaiveDate::from_ymd_opt(2026, 1, 31).unwrap();
        assert_eq!(
            Dialect::literal(&super::super::date_value(day)),
            "toDate('2026-01-31')"
        );
        assert_eq!(
            Dialect::literal(&super::super::date_value(
                NaiveDate::from_ymd_opt(1900, 1, 1).unwrap()
            )),
            "toDate('1970-01-02')"
        );
        assert_eq!(
            Dialect::literal(&super::super::date_value(
                NaiveDate::from_ymd_opt(2200, 1, 1).unwrap()
            )),
            "toDate('2105-12-31')"
        );
        assert_eq!(
            Dialect::literal(&Value::Timestamp(
                TimeUnit::Microsecond,
                1_767_225_600_500_000
            )),
            "1767225600500000"
        );
    }

    #[test]
    fn tables_are_the_distributed_ones_or_the_local_ones() {
        assert_eq!(Dialect::DuckDb.table("cost_line_items"), "cost_line_items");
        assert_eq!(
            Dialect::ClickHouse { distributed: true }.table("cost_line_items"),
            "cost_line_items"
        );
        assert_eq!(
            Dialect::ClickHouse { distributed: false }.table("cost_line_items"),
            "cost_line_items_local"
        );
    }
}
