//! The tenants' exchange rates on ClickHouse: [`RATES`] on shard 0, one partition per tenant, so
//! that an upload replaces a tenant's rates whole and at once (a staging table and
//! `REPLACE PARTITION`, as a load does) and a clear drops its partition. Answers as the DuckDB
//! engine's (`duckdb_engine/currency.rs`): the same orders, the same stored text of a rate.

use costscope_clickhouse::{literal, Client, Date, Decimal, Row};
use costscope_core::cost::{ExchangeRate, Rate, RATE_SCALE};

use super::markers::new_marker;
use super::schema::{RATES, RATES_STAGING};
use super::ClickHouseEngine;
use crate::{CustomerId, EngineError, RatesPage, RatesSummary};

fn failed(error: costscope_clickhouse::Error) -> EngineError {
    EngineError::Database(format!("ClickHouse: {error}"))
}

fn unreadable(error: costscope_clickhouse::tsv::TsvError) -> EngineError {
    EngineError::Database(format!("ClickHouse exchange rates: {error}"))
}

fn stored(what: &str) -> EngineError {
    EngineError::Database(format!("stored exchange rate: bad {what}"))
}

fn date_of(row: &Row, index: usize) -> Result<chrono::NaiveDate, EngineError> {
    row.text(index)
        .map_err(unreadable)?
        .parse()
        .map_err(|_| stored("date"))
}

impl ClickHouseEngine {
    /// Replaces all of the tenant's exchange rates with `rates`, at once (a failure leaves the
    /// old ones): the trait's `replace_rates`.
    pub async fn replace_rates(
        &self,
        customer: CustomerId,
        rates: Vec<ExchangeRate>,
    ) -> Result<RatesSummary, EngineError> {
        let mut rows = Vec::with_capacity(rates.len());
        for rate in &rates {
            let date = Date::new(rate.date).map_err(|error| {
                EngineError::Database(format!("exchange rate of {}: {error}", rate.date))
            })?;
            let value = Decimal::parse(rate.rate.as_str(), RATE_SCALE)
                .map_err(|error| EngineError::Database(format!("exchange rate: {error}")))?;
            rows.push((
                customer,
                date,
                rate.from.to_string(),
                rate.to.to_string(),
                value,
            ));
        }
        let shard = self.first_shard();
        let staging = format!("{RATES_STAGING}{}", new_marker());
        let replaced = replace_partition(shard, customer, &staging, rows).await;
        let drop = format!("DROP TABLE IF EXISTS {}", literal::identifier(&staging));
        if let Err(error) = shard.execute(&drop).await {
            tracing::warn!(table = staging, %error, "could not drop a ClickHouse staging table");
        }
        replaced?;
        self.rates_summary(customer).await
    }

    /// Deletes all of the tenant's exchange rates: the trait's `clear_rates`.
    pub async fn clear_rates(&self, customer: CustomerId) -> Result<(), EngineError> {
        self.first_shard()
            .execute(&format!(
                "ALTER TABLE {} DROP PARTITION {}",
                literal::identifier(RATES),
                literal::integer(customer)
            ))
            .await
            .map_err(failed)
    }

    /// The tenant's rates at a glance: the trait's `rates_summary`.
    pub async fn rates_summary(&self, customer: CustomerId) -> Result<RatesSummary, EngineError> {
        let shard = self.first_shard();
        let table = literal::identifier(RATES);
        let tenant = literal::integer(customer);
        let answer = shard
            .query_tsv(&format!(
                "SELECT count(), min(rate_date), max(rate_date) FROM {table} \
                 WHERE customer_id = {tenant}"
            ))
            .await
            .map_err(failed)?;
        let row = answer.first().ok_or_else(|| stored("summary"))?;
        let count: u64 = row.parse(0).map_err(unreadable)?;
        // An empty table's min and max are ClickHouse's zero date, not NULL.
        let (first_date, last_date) = if count == 0 {
            (None, None)
        } else {
            (Some(date_of(row, 1)?), Some(date_of(row, 2)?))
        };
        let pairs = shard
            .query_tsv(&format!(
                "SELECT DISTINCT from_currency, to_currency FROM {table} \
                 WHERE customer_id = {tenant} ORDER BY from_currency, to_currency"
            ))
            .await
            .map_err(failed)?
            .iter()
            .map(|row| {
                Ok((
                    row.text(0).map_err(unreadable)?.to_owned(),
                    row.text(1).map_err(unreadable)?.to_owned(),
                ))
            })
            .collect::<Result<_, EngineError>>()?;
        Ok(RatesSummary {
            count,
            first_date,
            last_date,
            pairs,
        })
    }

    /// One page of the tenant's rates, by date descending, then from, then to: the trait's
    /// `list_rates`.
    pub async fn list_rates(
        &self,
        customer: CustomerId,
        limit: u64,
        offset: u64,
    ) -> Result<RatesPage, EngineError> {
        let shard = self.first_shard();
        let table = literal::identifier(RATES);
        let tenant = literal::integer(customer);
        let total: u64 = shard
            .query_tsv(&format!(
                "SELECT count() FROM {table} WHERE customer_id = {tenant}"
            ))
            .await
            .map_err(failed)?
            .first()
            .ok_or_else(|| stored("count"))?
            .parse(0)
            .map_err(unreadable)?;
        let rows = shard
            .query_tsv(&format!(
                "SELECT rate_date, from_currency, to_currency, rate FROM {table} \
                 WHERE customer_id = {tenant} ORDER BY rate_date DESC, from_currency, \
                 to_currency LIMIT {}, {}",
                literal::integer(offset),
                literal::integer(limit)
            ))
            .await
            .map_err(failed)?;
        let mut rates = Vec::with_capacity(rows.len());
        for row in &rows {
            let text = |index| row.text(index).map_err(unreadable);
            rates.push(ExchangeRate {
                date: date_of(row, 0)?,
                from: text(1)?.parse().map_err(|_| stored("currency"))?,
                to: text(2)?.parse().map_err(|_| stored("currency"))?,
                rate: Rate::from_stored(text(3)?).ok_or_else(|| stored("rate"))?,
            });
        }
        Ok(RatesPage { total, rates })
    }
}

/// Fills `staging` (a copy of [`RATES`] on `shard`) with `rows` and swaps it in as the
/// tenant's partition (an empty one removes the partition).
async fn replace_partition(
    shard: &Client,
    customer: CustomerId,
    staging: &str,
    rows: Vec<(i64, Date, String, String, Decimal)>,
) -> Result<(), EngineError> {
    let table = literal::identifier(RATES);
    shard
        .execute(&format!(
            "CREATE TABLE {} AS {table}",
            literal::identifier(staging)
        ))
        .await
        .map_err(failed)?;
    shard
        .insert_tsv(
            staging,
            &[
                "customer_id",
                "rate_date",
                "from_currency",
                "to_currency",
                "rate",
            ],
            rows,
        )
        .await
        .map_err(failed)?;
    shard
        .execute(&format!(
            "ALTER TABLE {table} REPLACE PARTITION {} FROM {}",
            literal::integer(customer),
            literal::identifier(staging)
        ))
        .await
        .map_err(failed)
}
