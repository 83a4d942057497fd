//! Whether a tenant keeps [`DAILY_TABLE`], the daily rollup with usage types, and keeping it in
//! step. Usage types multiply the daily rows: on data with few line items per day and usage
//! type (the benchmark's, 0.54 daily rows per line item) the rollup is never read (a question
//! reads it only at [`ROLLUP_MAX_RATIO`] or fewer, see [`crate::query_builder::rollup_pays`])
//! and building it was a quarter of a load. So a load builds it only while it pays:
//!
//! * a tenant that keeps it has its exact row count in `cost_rollup_stats.daily_rows`; a tenant
//!   that does not has NULL there, no rows in [`DAILY_TABLE`], and per billing period an
//!   estimate of the rows it would have in [`ESTIMATES_TABLE`];
//! * each load estimates its own periods' daily rows (a HyperLogLog count of the daily key, in
//!   the scan that sums the load, see [`ESTIMATE_COLUMN`]) and decides: a tenant keeping the
//!   rollup stops when the estimate passes [`ROLLUP_MAX_RATIO`] of its line items (its rows are
//!   deleted and their counts become the estimates), a tenant not keeping it starts when the
//!   estimate falls to [`START_RATIO`] (built once from all its line items). The gap between the
//!   two keeps a tenant near the line from rebuilding at every load.

use duckdb::{params, Transaction};

use super::rollups::{self, Input, PERIOD_KEYS};
use crate::query_builder::{self, COST_TABLE, DAILY_TABLE, ROLLUP_MAX_RATIO, ROLLUP_STATS_TABLE};

/// Per customer and billing period, the estimated rows of [`DAILY_TABLE`] while the customer
/// does not keep it.
pub(crate) const ESTIMATES_TABLE: &str = "cost_daily_estimates";

/// A tenant that does not keep the rollup starts keeping it at this many estimated daily rows
/// per line item or fewer.
pub(crate) const START_RATIO: f64 = ROLLUP_MAX_RATIO * 0.8;

/// Which tenants keep the daily rollup with usage types.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DailyRollup {
    /// Those whose data rolls up well enough for questions to read it (the default).
    #[default]
    WhenItPays,
    /// Every tenant, whatever it pays (the rollup tests compare its answers with the line
    /// items' on data too small to roll up).
    Always,
}

/// The column of the load's per-period sums (`staged_keys`) holding the estimated daily rows of
/// each period and currency: the daily key's distinct values, counted by HyperLogLog.
pub(crate) fn estimate_column() -> String {
    format!(
        "approx_count_distinct(hash(charge_date, account_id, account_name, service, region, \
         usage_type, cost_type)) AS {ESTIMATE_COLUMN}"
    )
}

/// The name of [`estimate_column`].
pub(crate) const ESTIMATE_COLUMN: &str = "daily_estimate";

/// `CREATE TABLE IF NOT EXISTS` of [`ESTIMATES_TABLE`], and the stats' daily row count made
/// nullable (NULL: not kept). Schema version 2: an earlier build would read the missing rows of
/// a tenant not keeping the rollup as an empty rollup.
pub(crate) fn schema_sql() -> String {
    format!(
        "CREATE TABLE IF NOT EXISTS {ESTIMATES_TABLE} (customer_id BIGINT NOT NULL, \
         provider VARCHAR NOT NULL, billing_account_id VARCHAR NOT NULL, \
         billing_period_start DATE NOT NULL, daily_rows BIGINT NOT NULL); \
         ALTER TABLE {ROLLUP_STATS_TABLE} ALTER COLUMN daily_rows DROP NOT NULL;"
    )
}

/// Whether `customer` keeps the rollup now (a customer without data does not).
pub(crate) fn kept(transaction: &Transaction<'_>, customer: i64) -> duckdb::Result<bool> {
    let kept: Option<bool> = transaction.query_row(
        &format!(
            "SELECT bool_or(daily_rows IS NOT NULL) FROM {ROLLUP_STATS_TABLE} \
                 WHERE customer_id = ?"
        ),
        params![customer],
        |row| row.get(0),
    )?;
    Ok(kept.unwrap_or(false))
}

/// Keeps the rollup in step with a load whose billing periods were emptied in every table
/// (estimates included), whose line items are inserted and summed in `staged_keys`: builds
/// `loaded`'s rows, starts or stops keeping it. Answers whether the customer keeps it now.
pub(crate) fn maintain(
    transaction: &Transaction<'_>,
    customer: i64,
    loaded: &Input,
    policy: DailyRollup,
) -> duckdb::Result<bool> {
    let was_kept = kept(transaction, customer)?;
    // `customer` is an integer, safe to paste.
    let count =
        |sql: String| -> duckdb::Result<i64> { transaction.query_row(&sql, [], |row| row.get(0)) };
    let line_items = count(format!(
        "SELECT count(*) FROM {COST_TABLE} WHERE customer_id = {customer}"
    ))?;
    let loaded_estimate = count(format!(
        "SELECT CAST(coalesce(sum({ESTIMATE_COLUMN}), 0) AS BIGINT) FROM staged_keys"
    ))?;
    let estimate_of_loaded = format!(
        "INSERT INTO {ESTIMATES_TABLE} SELECT {customer}, {PERIOD_KEYS}, \
         CAST(sum({ESTIMATE_COLUMN}) AS BIGINT) FROM staged_keys GROUP BY {PERIOD_KEYS};"
    );
    if was_kept {
        let kept_rows = count(format!(
            "SELECT count(*) FROM {DAILY_TABLE} WHERE customer_id = {customer}"
        ))?;
        // Kept while a question would read it.
        let keep = policy == DailyRollup::Always
            || query_builder::rollup_pays(kept_rows + loaded_estimate, line_items);
        if keep {
            transaction.execute_batch(&rollups::insert_daily_sql(loaded))?;
        } else {
            // Stop: the kept periods' exact counts and the load's estimates replace the rows.
            transaction.execute_batch(&format!(
                "INSERT INTO {ESTIMATES_TABLE} SELECT customer_id, {PERIOD_KEYS}, count(*) \
                 FROM {DAILY_TABLE} WHERE customer_id = {customer} \
                 GROUP BY customer_id, {PERIOD_KEYS}; {estimate_of_loaded} \
                 DELETE FROM {DAILY_TABLE} WHERE customer_id = {customer};"
            ))?;
            tracing::info!(
                customer,
                "stopped keeping the daily rollup with usage types"
            );
        }
        return Ok(keep);
    }
    transaction.execute_batch(&estimate_of_loaded)?;
    let estimated = count(format!(
        "SELECT CAST(coalesce(sum(daily_rows), 0) AS BIGINT) FROM {ESTIMATES_TABLE} \
         WHERE customer_id = {customer}"
    ))?;
    let start =
        policy == DailyRollup::Always || estimated as f64 <= line_items as f64 * START_RATIO;
    if start {
        let all_rows = Input::line_items(format!(
            "(SELECT * FROM {COST_TABLE} WHERE customer_id = {customer})"
        ));
        transaction.execute_batch(&format!(
            "DELETE FROM {ESTIMATES_TABLE} WHERE customer_id = {customer}; {}",
            rollups::insert_daily_sql(&all_rows)
        ))?;
        tracing::info!(
            customer,
            "started keeping the daily rollup with usage types"
        );
    }
    Ok(start)
}
