//! Currencies of the tenant's data and its exchange rates (docs/CURRENCY.md): which currency an
//! answer is in and whether it converts, and the rates table's writes and reads.

use costscope_core::cost::{CurrencyCode, ExchangeRate, Rate};
use duckdb::types::Value;
use duckdb::{params_from_iter, Connection};

use super::database_error;
use super::read::{date_of, query_rows};
use crate::query_builder::{self, date_value, Conversion, RATES_TABLE};
use crate::{CurrencyAmount, CurrencyNote, EngineError, RatesPage, RatesSummary};

/// The currency used when a tenant has no data and no display currency.
const DEFAULT_CURRENCY: &str = "USD";
/// Rows per INSERT of a rates upload.
const INSERT_CHUNK: usize = 1_000;

/// How a read call treats currencies.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Plan {
    /// The tenant's data is in one currency (or none) that needs no conversion: amounts are
    /// summed as they are (the fast path). `Some`: the answer's currency when known up front.
    AsIs(Option<String>),
    /// Each currency kept apart and converted to `target` (with the tenant's rates when
    /// `with_rates`); what cannot be converted is listed apart.
    Convert { target: String, with_rates: bool },
}

impl Plan {
    pub(crate) fn conversion(&self) -> Option<Conversion<'_>> {
        match self {
            Plan::AsIs(_) => None,
            Plan::Convert { target, with_rates } => Some(Conversion {
                target,
                with_rates: *with_rates,
            }),
        }
    }

    /// The answer's currency note when the plan sums as is.
    pub(crate) fn as_is_note(
        &self,
        connection: &Connection,
        customer: i64,
    ) -> Result<CurrencyNote, EngineError> {
        self.note(|| some_currency(connection, customer))
    }

    /// The answer's currency note when the plan sums as is, asking `some_currency` (any
    /// currency of the tenant's data) only when the plan does not know it.
    pub(crate) fn note<E>(
        &self,
        some_currency: impl FnOnce() -> Result<Option<String>, E>,
    ) -> Result<CurrencyNote, E> {
        let currency = match self {
            Plan::AsIs(Some(currency))
            | Plan::Convert {
                target: currency, ..
            } => currency.clone(),
            Plan::AsIs(None) => some_currency()?.unwrap_or_else(|| DEFAULT_CURRENCY.to_owned()),
        };
        Ok(CurrencyNote {
            currency,
            ..CurrencyNote::default()
        })
    }

    /// The currency of an aggregation's figures, given the most common currency of its rows.
    pub(crate) fn answer_currency(&self, most_common: Option<String>) -> String {
        match (self, most_common) {
            (Plan::AsIs(Some(display)), _) => display.clone(),
            (Plan::Convert { target, .. }, _) => target.clone(),
            (Plan::AsIs(None), Some(currency)) if !currency.is_empty() => currency,
            (Plan::AsIs(None), _) => DEFAULT_CURRENCY.to_owned(),
        }
    }
}

/// The plan of a call for a tenant whose data is in `one_currency` (from the rollup stats) or
/// several, with or without a display currency.
pub(crate) fn plan(
    connection: &Connection,
    customer: i64,
    display: Option<&CurrencyCode>,
    one_currency: bool,
) -> Result<Plan, EngineError> {
    choose_plan(
        display,
        one_currency,
        || some_currency(connection, customer),
        || {
            Ok(data_currencies(connection, customer)?
                .into_iter()
                .next()
                .map(|main| main.currency))
        },
    )
}

/// The plan for a tenant whose data is in one currency or several, with or without a display
/// currency; `some_currency` (any currency of the data) and `main_currency` (the one with the
/// most billed cost) are asked only when the choice needs them.
pub(crate) fn choose_plan<E>(
    display: Option<&CurrencyCode>,
    one_currency: bool,
    some_currency: impl FnOnce() -> Result<Option<String>, E>,
    main_currency: impl FnOnce() -> Result<Option<String>, E>,
) -> Result<Plan, E> {
    if one_currency {
        let Some(display) = display else {
            return Ok(Plan::AsIs(None));
        };
        return Ok(match some_currency()? {
            Some(currency) if currency != display.as_str() => Plan::Convert {
                target: display.to_string(),
                with_rates: true,
            },
            _ => Plan::AsIs(Some(display.to_string())),
        });
    }
    Ok(match display {
        Some(display) => Plan::Convert {
            target: display.to_string(),
            with_rates: true,
        },
        None => Plan::Convert {
            target: main_currency()?.unwrap_or_else(|| DEFAULT_CURRENCY.to_owned()),
            with_rates: false,
        },
    })
}

fn some_currency(connection: &Connection, customer: i64) -> Result<Option<String>, EngineError> {
    Ok(
        query_rows(connection, &query_builder::some_currency(customer), |row| {
            row.get::<_, String>(0)
        })?
        .into_iter()
        .next(),
    )
}

pub(crate) fn data_currencies(
    connection: &Connection,
    customer: i64,
) -> Result<Vec<CurrencyAmount>, EngineError> {
    query_rows(
        connection,
        &query_builder::data_currencies(customer),
        |row| {
            Ok(CurrencyAmount {
                currency: row.get(0)?,
                amount: row.get(1)?,
            })
        },
    )
}

/// Other currencies from the `other_currencies` / `other_amounts` list columns.
pub(crate) fn other_currencies(currencies: &Value, amounts: &Value) -> Vec<CurrencyAmount> {
    let (Value::List(currencies), Value::List(amounts)) = (currencies, amounts) else {
        return Vec::new();
    };
    currencies
        .iter()
        .zip(amounts)
        .filter_map(|(currency, amount)| match (currency, amount) {
            (Value::Text(currency), Value::Double(amount)) => Some(CurrencyAmount {
                currency: currency.clone(),
                amount: *amount,
            }),
            _ => None,
        })
        .collect()
}

/// Adds `amount` of `currency` to a sorted list of other currencies.
pub(crate) fn add_other(others: &mut Vec<CurrencyAmount>, currency: String, amount: f64) {
    match others.binary_search_by(|other| other.currency.cmp(&currency)) {
        Ok(index) => others[index].amount += amount,
        Err(index) => others.insert(index, CurrencyAmount { currency, amount }),
    }
}

/// Replaces the tenant's rates in one transaction (a failure leaves the old ones).
pub(crate) fn replace_rates(
    connection: &Connection,
    customer: i64,
    rates: &[ExchangeRate],
) -> Result<RatesSummary, EngineError> {
    connection
        .execute_batch("BEGIN TRANSACTION")
        .map_err(database_error)?;
    let written = write_rates(connection, customer, rates);
    let ended = match written {
        Ok(()) => connection.execute_batch("COMMIT"),
        Err(_) => connection.execute_batch("ROLLBACK"),
    };
    written?;
    ended.map_err(database_error)?;
    rates_summary(connection, customer)
}

fn write_rates(
    connection: &Connection,
    customer: i64,
    rates: &[ExchangeRate],
) -> Result<(), EngineError> {
    connection
        .execute(
            &format!("DELETE FROM {RATES_TABLE} WHERE customer_id = ?"),
            [customer],
        )
        .map_err(database_error)?;
    for chunk in rates.chunks(INSERT_CHUNK) {
        let mut text = format!(
            "INSERT INTO {RATES_TABLE} (customer_id, rate_date, from_currency, to_currency, rate) VALUES "
        );
        let mut params = Vec::with_capacity(chunk.len() * 5);
        for (index, rate) in chunk.iter().enumerate() {
            if index > 0 {
                text.push_str(", ");
            }
            text.push_str("(?, ?, ?, ?, CAST(? AS DECIMAL(38,12)))");
            params.push(Value::BigInt(customer));
            params.push(date_value(rate.date));
            params.push(Value::Text(rate.from.to_string()));
            params.push(Value::Text(rate.to.to_string()));
            params.push(Value::Text(rate.rate.as_str().to_owned()));
        }
        connection
            .prepare_cached(&text)
            .and_then(|mut statement| statement.execute(params_from_iter(params)))
            .map_err(database_error)?;
    }
    Ok(())
}

pub(crate) fn clear_rates(connection: &Connection, customer: i64) -> Result<(), EngineError> {
    connection
        .execute(
            &format!("DELETE FROM {RATES_TABLE} WHERE customer_id = ?"),
            [customer],
        )
        .map_err(database_error)?;
    Ok(())
}

pub(crate) fn rates_summary(
    connection: &Connection,
    customer: i64,
) -> Result<RatesSummary, EngineError> {
    let (count, first, last): (i64, Value, Value) = connection
        .query_row(
            &format!(
                "SELECT count(*), min(rate_date), max(rate_date) FROM {RATES_TABLE} \
                 WHERE customer_id = ?"
            ),
            [customer],
            |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)),
        )
        .map_err(database_error)?;
    let mut statement = connection
        .prepare_cached(&format!(
            "SELECT DISTINCT from_currency, to_currency FROM {RATES_TABLE} WHERE customer_id = ? \
             ORDER BY from_currency, to_currency"
        ))
        .map_err(database_error)?;
    let pairs = statement
        .query_map([customer], |row| Ok((row.get(0)?, row.get(1)?)))
        .map_err(database_error)?
        .collect::<Result<Vec<(String, String)>, _>>()
        .map_err(database_error)?;
    Ok(RatesSummary {
        count: count.max(0).unsigned_abs(),
        first_date: date_of(&first),
        last_date: date_of(&last),
        pairs,
    })
}

pub(crate) fn list_rates(
    connection: &Connection,
    customer: i64,
    limit: u64,
    offset: u64,
) -> Result<RatesPage, EngineError> {
    let total: i64 = connection
        .query_row(
            &format!("SELECT count(*) FROM {RATES_TABLE} WHERE customer_id = ?"),
            [customer],
            |row| row.get(0),
        )
        .map_err(database_error)?;
    let mut statement = connection
        .prepare_cached(&format!(
            "SELECT rate_date, from_currency, to_currency, CAST(rate AS VARCHAR) FROM {RATES_TABLE} \
             WHERE customer_id = ? ORDER BY rate_date DESC, from_currency, to_currency \
             LIMIT ? OFFSET ?"
        ))
        .map_err(database_error)?;
    let rows = statement
        .query_map(
            params_from_iter([
                Value::BigInt(customer),
                Value::UBigInt(limit),
                Value::UBigInt(offset),
            ]),
            |row| {
                Ok((
                    row.get::<_, Value>(0)?,
                    row.get::<_, String>(1)?,
                    row.get::<_, String>(2)?,
                    row.get::<_, String>(3)?,
                ))
            },
        )
        .map_err(database_error)?
        .collect::<Result<Vec<_>, _>>()
        .map_err(database_error)?;
    let mut rates = Vec::with_capacity(rows.len());
    for (date, from, to, rate) in rows {
        let stored =
            |what: &str| EngineError::Database(format!("stored exchange rate: bad {what}"));
        rates.push(ExchangeRate {
            date: date_of(&date).ok_or_else(|| stored("date"))?,
            from: from.parse().map_err(|_| stored("currency"))?,
            to: to.parse().map_err(|_| stored("currency"))?,
            rate: Rate::from_stored(&rate).ok_or_else(|| stored("rate"))?,
        });
    }
    Ok(RatesPage {
        total: total.max(0).unsigned_abs(),
        rates,
    })
}
