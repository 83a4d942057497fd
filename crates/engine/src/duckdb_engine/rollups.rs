//! The cost rollups ([`DAILY_TABLE`], [`CORE_DAILY_TABLE`], [`MONTHLY_TABLE`], [`VALUES_TABLE`],
//! [`TAGS_TABLE`]):
//! the SQL that fills them, their row counts, and the creation of the newer ones in a database
//! an earlier build wrote. A load builds the daily ones from its line items (the one with usage
//! types only while it pays, see [`super::daily_rollup`]) and the rest from the core daily rows
//! of its periods; the migration builds them from the whole [`DAILY_TABLE`]. Sums of DECIMAL
//! sums are exact, so every rollup answers like the line items.

use duckdb::Connection;

use super::database_error;
pub(crate) use crate::query_builder::PERIOD_KEYS;
use crate::query_builder::{
    CORE_DAILY_TABLE, CORE_DIMENSIONS, COST_TABLE, DAILY_DIMENSIONS, DAILY_TABLE, MONTHLY_TABLE,
    ROLLUP_STATS_TABLE, TAGS_TABLE, VALUES_TABLE,
};
use crate::EngineError;

const SUM_COLUMNS: &str =
    "earliest_start, latest_start, billed_cost, effective_cost, list_cost, line_items";

/// Rows a rollup is built from: line items, or rows of a rollup (which carry their sums).
pub(crate) struct Input {
    /// A table or a parenthesised query, with `customer_id` and `charge_date`.
    from: String,
    rolled_up: bool,
}

impl Input {
    /// Line items (`cost_line_items`' columns).
    pub(crate) fn line_items(from: String) -> Self {
        Self {
            from,
            rolled_up: false,
        }
    }

    /// Rows of [`DAILY_TABLE`] or [`CORE_DAILY_TABLE`].
    pub(crate) fn rollup(from: String) -> Self {
        Self {
            from,
            rolled_up: true,
        }
    }

    /// The earliest and latest charge instants of the grouped rows.
    fn instants(&self) -> String {
        if self.rolled_up {
            "min(earliest_start) AS earliest_start, max(latest_start) AS latest_start".to_owned()
        } else {
            "min(charge_period_start) AS earliest_start, max(charge_period_start) AS latest_start"
                .to_owned()
        }
    }

    /// [`SUM_COLUMNS`] of the grouped rows, in that order.
    fn sums(&self) -> String {
        let count = if self.rolled_up {
            "sum(line_items)"
        } else {
            "count(*)"
        };
        format!(
            "{}, sum(billed_cost) AS billed_cost, sum(effective_cost) AS effective_cost, \
             sum(list_cost) AS list_cost, {count} AS line_items",
            self.instants()
        )
    }

    /// `INSERT INTO table … SELECT … GROUP BY` the date (or month), period and `dimensions`, in
    /// date order: the zone maps of `charge_date` then skip what a range or a straddle check
    /// does not read.
    fn insert_grouped(&self, table: &str, dimensions: &str, monthly: bool) -> String {
        let date = if monthly {
            "CAST(date_trunc('month', charge_date) AS DATE)"
        } else {
            "charge_date"
        };
        let group = format!("customer_id, {date}, {PERIOD_KEYS}, {dimensions}");
        format!(
            "INSERT INTO {table} (customer_id, charge_date, {PERIOD_KEYS}, {dimensions}, \
             {SUM_COLUMNS}) SELECT {group}, {} FROM {} GROUP BY {group} ORDER BY 2;",
            self.sums(),
            self.from
        )
    }

    /// The usage types' value list of [`VALUES_TABLE`] (`gid` 4), per day and period.
    fn insert_usage_values(&self) -> String {
        let day = format!("customer_id, charge_date, {PERIOD_KEYS}");
        format!(
            "INSERT INTO {VALUES_TABLE} (customer_id, charge_date, {PERIOD_KEYS}, gid, value, \
             account_name, earliest_start, latest_start) SELECT {day}, 4, usage_type, \
             max(account_name), {} FROM {} GROUP BY {day}, usage_type;",
            self.instants(),
            self.from
        )
    }
}

/// Inserts [`DAILY_TABLE`]'s rows of `input`.
pub(crate) fn insert_daily_sql(input: &Input) -> String {
    input.insert_grouped(DAILY_TABLE, DAILY_DIMENSIONS, false)
}

/// Inserts [`CORE_DAILY_TABLE`]'s rows of `input`, and the usage types of [`VALUES_TABLE`].
pub(crate) fn insert_core_sql(input: &Input) -> String {
    format!(
        "{} {}",
        input.insert_grouped(CORE_DAILY_TABLE, CORE_DIMENSIONS, false),
        input.insert_usage_values()
    )
}

/// Inserts [`TAGS_TABLE`]'s rows of `line_items`: the distinct non-empty tag pairs per day and
/// billing period.
pub(crate) fn insert_tags_sql(line_items: &Input) -> String {
    let group = format!("customer_id, charge_date, {PERIOD_KEYS}");
    format!(
        "INSERT INTO {TAGS_TABLE} (customer_id, charge_date, {PERIOD_KEYS}, key, value, \
         earliest_start, latest_start) SELECT {group}, entry.key AS key, entry.value AS value, \
         {} FROM (SELECT {group}, charge_period_start, unnest(map_entries(tags)) AS entry \
         FROM {} WHERE cardinality(tags) > 0) WHERE entry.key <> '' AND entry.value <> '' \
         GROUP BY {group}, entry.key, entry.value;",
        line_items.instants(),
        line_items.from
    )
}

/// Inserts [`MONTHLY_TABLE`] and the other value lists of [`VALUES_TABLE`] from `core`: rows of
/// [`CORE_DAILY_TABLE`] (the ones a load just inserted, or a tenant's whole).
pub(crate) fn insert_from_core_sql(core: &Input) -> String {
    // The value lists of `/v2/cost/filters`, as `query_builder::filter_values` groups them, per
    // day and billing period.
    let day = format!("customer_id, charge_date, {PERIOD_KEYS}");
    format!(
        "{} INSERT INTO {VALUES_TABLE} (customer_id, charge_date, {PERIOD_KEYS}, gid, value, \
         account_name, earliest_start, latest_start) SELECT {day}, \
         CASE WHEN grouping(account_id) = 0 THEN 0 WHEN grouping(region) = 0 THEN 1 \
         WHEN grouping(service) = 0 THEN 2 WHEN grouping(cost_type) = 0 THEN 3 ELSE 5 END, \
         coalesce(account_id, region, service, cost_type), max(account_name), {} FROM {} \
         GROUP BY GROUPING SETS (({day}, account_id), ({day}), ({day}, region), \
         ({day}, service), ({day}, cost_type));",
        core.insert_grouped(MONTHLY_TABLE, CORE_DIMENSIONS, true),
        core.instants(),
        core.from
    )
}

/// `EXISTS` a row of `keys` (a load's `staged_keys`) with the billing period of `row` (a table
/// name or alias): the rows a load replaces.
pub(crate) fn in_periods(row: &str, keys: &str) -> String {
    format!(
        "EXISTS (SELECT 1 FROM {keys} k WHERE k.provider = {row}.provider AND \
         k.billing_account_id = {row}.billing_account_id AND \
         k.billing_period_start = {row}.billing_period_start)"
    )
}

/// The rows of `table` in the billing periods of `keys` (`customer` is an integer, safe to
/// paste).
pub(crate) fn rows_in_periods(table: &str, customer: i64, keys: &str) -> String {
    format!(
        "(SELECT * FROM {table} r WHERE customer_id = {customer} AND {})",
        in_periods("r", keys)
    )
}

/// `CREATE TABLE IF NOT EXISTS` of the derived rollups.
pub(crate) fn schema_sql() -> String {
    let costs = "earliest_start TIMESTAMP NOT NULL, latest_start TIMESTAMP NOT NULL, \
                 billed_cost DECIMAL(38,9) NOT NULL, effective_cost DECIMAL(38,9) NOT NULL, \
                 list_cost DECIMAL(38,9) NOT NULL, line_items BIGINT NOT NULL";
    let keys =
        "customer_id BIGINT NOT NULL, charge_date DATE NOT NULL, provider VARCHAR NOT NULL, \
                billing_account_id VARCHAR NOT NULL, billing_period_start DATE NOT NULL";
    let dimensions = "account_id VARCHAR NOT NULL, account_name VARCHAR NOT NULL, \
                      service VARCHAR NOT NULL, region VARCHAR NOT NULL, \
                      cost_type VARCHAR NOT NULL, currency VARCHAR NOT NULL";
    format!(
        "CREATE TABLE IF NOT EXISTS {CORE_DAILY_TABLE} ({keys}, {dimensions}, {costs}); \
         CREATE TABLE IF NOT EXISTS {MONTHLY_TABLE} ({keys}, {dimensions}, {costs}); \
         CREATE TABLE IF NOT EXISTS {VALUES_TABLE} ({keys}, gid INTEGER NOT NULL, value VARCHAR, \
         account_name VARCHAR, earliest_start TIMESTAMP NOT NULL, latest_start TIMESTAMP NOT NULL); \
         ALTER TABLE {ROLLUP_STATS_TABLE} ADD COLUMN IF NOT EXISTS core_rows BIGINT; \
         ALTER TABLE {ROLLUP_STATS_TABLE} ADD COLUMN IF NOT EXISTS monthly_rows BIGINT;"
    )
}

/// The tables a load replaces billing periods in, besides the line items.
pub(crate) const DERIVED_TABLES: [&str; 3] = [CORE_DAILY_TABLE, MONTHLY_TABLE, VALUES_TABLE];

/// Replaces `customer`'s row counts (`customer` is an integer, safe to paste); the daily
/// rollup's is NULL when the customer does not keep it (`daily_kept`).
pub(crate) fn refresh_stats_sql(customer: i64, daily_kept: bool) -> String {
    let count =
        |table: &str| format!("(SELECT count(*) FROM {table} WHERE customer_id = {customer})");
    let daily_rows = if daily_kept {
        count(DAILY_TABLE)
    } else {
        "NULL".to_owned()
    };
    format!(
        "DELETE FROM {ROLLUP_STATS_TABLE} WHERE customer_id = {customer}; \
         INSERT INTO {ROLLUP_STATS_TABLE} (customer_id, line_items, daily_rows, core_rows, \
         monthly_rows, currencies) SELECT {customer}, {}, {}, {}, {}, \
         (SELECT count(DISTINCT currency) FROM {MONTHLY_TABLE} WHERE customer_id = {customer});",
        count(COST_TABLE),
        daily_rows,
        count(CORE_DAILY_TABLE),
        count(MONTHLY_TABLE),
    )
}

/// Builds the derived rollups of every tenant whose stats say they are not kept yet (a database
/// an earlier build wrote), in one transaction: from [`DAILY_TABLE`], which every load of those
/// builds kept (from the line items for a tenant that does not keep it).
pub(crate) fn backfill(connection: &Connection) -> Result<(), EngineError> {
    let pending: Vec<(i64, bool)> = {
        let mut statement = connection
            .prepare(&format!(
                "SELECT customer_id, daily_rows IS NOT NULL FROM {ROLLUP_STATS_TABLE} \
                 WHERE core_rows IS NULL ORDER BY customer_id"
            ))
            .map_err(database_error)?;
        let rows = statement
            .query_map([], |row| {
                Ok((row.get::<_, i64>(0)?, row.get::<_, bool>(1)?))
            })
            .map_err(database_error)?;
        rows.collect::<Result<_, _>>().map_err(database_error)?
    };
    if pending.is_empty() {
        return Ok(());
    }
    let transaction = connection.unchecked_transaction().map_err(database_error)?;
    for (customer, daily_kept) in pending {
        let mut sql = String::new();
        for table in DERIVED_TABLES {
            sql.push_str(&format!(
                "DELETE FROM {table} WHERE customer_id = {customer}; "
            ));
        }
        let finest = if daily_kept {
            Input::rollup(format!(
                "(SELECT * FROM {DAILY_TABLE} WHERE customer_id = {customer})"
            ))
        } else {
            Input::line_items(format!(
                "(SELECT * FROM {COST_TABLE} WHERE customer_id = {customer})"
            ))
        };
        sql.push_str(&insert_core_sql(&finest));
        sql.push_str(&insert_from_core_sql(&Input::rollup(format!(
            "(SELECT * FROM {CORE_DAILY_TABLE} WHERE customer_id = {customer})"
        ))));
        sql.push_str(&refresh_stats_sql(customer, daily_kept));
        transaction.execute_batch(&sql).map_err(database_error)?;
        tracing::info!(customer, "built the monthly and core daily cost rollups");
    }
    transaction.commit().map_err(database_error)
}
