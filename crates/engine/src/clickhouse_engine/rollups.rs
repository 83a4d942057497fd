//! The ClickHouse engine's rollups (issue 18): [`CORE_DAILY_TABLE`] and [`MONTHLY_TABLE`] with
//! the DuckDB engine's grouping columns ([`PERIOD_KEYS`], [`CORE_DIMENSIONS`]) and exact
//! `Decimal` sums, and the row counts a read chooses its [`crate::query_builder::Source`] by
//! ([`ROLLUP_STATS_TABLE`], one row per billing period). Each is partitioned exactly like the
//! line items, so one upload's billing period is one partition of every table, swapped together
//! by the load ([`super::load`]). The daily rollup with usage types, the tag and value lists are
//! not kept here: the questions they answer read the line items.
//!
//! A billing period's rollup rows are built on the shard that holds it, from the line items of
//! that period only ([`fill`]): into staging tables, checked against the period's rows and sums
//! exactly ([`check`]), then swapped in. [`backfill`] builds them the same way for a database an
//! earlier build wrote (no rollups).

use costscope_clickhouse::{literal, Client, Date, Decimal};

use super::schema::{self, NormalisedColumn, LINE_ITEMS, PARTITION_BY};
use crate::query_builder::{
    Dialect, CORE_DAILY_TABLE, CORE_DIMENSIONS, MONTHLY_TABLE, PERIOD_KEYS, ROLLUP_STATS_TABLE,
};
use crate::EngineError;

/// The rollups in the order a load swaps them (after the line items).
pub(crate) const ROLLUPS: [&str; 3] = [CORE_DAILY_TABLE, MONTHLY_TABLE, ROLLUP_STATS_TABLE];

/// The scale of the cost sums.
pub(crate) const SCALE: u32 = 9;

/// The local table of `rollup` on a shard.
pub(crate) fn local(rollup: &'static str) -> String {
    Dialect::ClickHouse { distributed: false }
        .table(rollup)
        .into_owned()
}

/// The prefix of `rollup`'s staging tables (`<prefix><marker>_<index>`, as the line items').
pub(crate) fn staging_prefix(rollup: &str) -> String {
    format!("{rollup}_stage_")
}

/// The definitions of `columns` (a comma-separated list of normalised columns), as the line
/// items keep them.
fn definitions(columns: &str) -> Vec<String> {
    let all = schema::normalised_columns();
    columns
        .split(", ")
        .flat_map(|name| {
            let column: &NormalisedColumn = all
                .iter()
                .find(|column| column.name == name)
                .unwrap_or_else(|| panic!("rollup column {name} is not a normalised column"));
            column.definitions()
        })
        .collect()
}

/// `CREATE TABLE IF NOT EXISTS` of every rollup's local table.
pub(crate) fn tables_sql() -> Vec<String> {
    let keys = [
        vec!["customer_id Int64".to_owned()],
        definitions(PERIOD_KEYS),
    ]
    .concat();
    let costs = [
        "earliest_start_us Int64",
        "latest_start_us Int64",
        "billed_cost Decimal(38, 9)",
        "effective_cost Decimal(38, 9)",
        "list_cost Decimal(38, 9)",
        "line_items UInt64",
    ]
    .map(str::to_owned);
    let grouped = [
        keys[..1].to_vec(),
        vec!["charge_date Date".to_owned()],
        keys[1..].to_vec(),
        definitions(CORE_DIMENSIONS),
        costs.to_vec(),
    ]
    .concat();
    let stats = [
        keys,
        ["line_items", "core_rows", "monthly_rows"]
            .map(|count| format!("{count} UInt64"))
            .to_vec(),
    ]
    .concat();
    let create = |name: &'static str, columns: &[String], order: &str| {
        format!(
            "CREATE TABLE IF NOT EXISTS {} ({}) ENGINE = MergeTree PARTITION BY {PARTITION_BY} \
             ORDER BY ({order})",
            literal::identifier(&local(name)),
            columns.join(", ")
        )
    };
    let order = "customer_id, charge_date, provider, account_id, service";
    vec![
        create(CORE_DAILY_TABLE, &grouped, order),
        create(MONTHLY_TABLE, &grouped, order),
        create(ROLLUP_STATS_TABLE, &stats, "customer_id"),
    ]
}

/// The staging tables of one billing period's rollups, in [`ROLLUPS`]' order.
pub(crate) fn staging_tables(marker: u64, index: usize) -> [String; 3] {
    ROLLUPS.map(|rollup| format!("{}{marker}_{index}", staging_prefix(rollup)))
}

/// One billing period of line items whose rollups are built: the tenant, the period's
/// condition and rows.
pub(crate) struct PeriodRows<'a> {
    pub(crate) customer: i64,
    /// `provider`, `billing_account_id` and `billing_period_start` as literals.
    pub(crate) keys: [String; 3],
    pub(crate) rows: u64,
    /// The line items: a table or a parenthesised query.
    pub(crate) from: &'a str,
}

/// The statements that fill `tables` (from [`staging_tables`], made `AS` the rollups) with the
/// rollups of `period`: the core daily rows from the line items, the monthly rows from those,
/// then the period's row counts.
pub(crate) fn fill(period: &PeriodRows<'_>, tables: &[String; 3]) -> Vec<String> {
    let [core, monthly, stats] = tables.each_ref().map(|table| literal::identifier(table));
    let grouped = |date: &str| format!("customer_id, {date}, {PERIOD_KEYS}, {CORE_DIMENSIONS}");
    let columns = format!(
        "{}, earliest_start_us, latest_start_us, billed_cost, effective_cost, list_cost, \
         line_items",
        grouped("charge_date")
    );
    let sums = "sum(billed_cost), sum(effective_cost), sum(list_cost)";
    // No alias: ClickHouse would read one named like a column inside the aggregates too.
    let insert = |table: &str, date: &str, instants: &str, count: &str, from: &str| {
        format!(
            "INSERT INTO {table} ({columns}) SELECT {}, {instants}, {sums}, {count} FROM {from} \
             GROUP BY {}",
            grouped(date),
            grouped(date)
        )
    };
    let [provider, account, start] = &period.keys;
    vec![
        insert(
            &core,
            "charge_date",
            "min(charge_period_start_us), max(charge_period_start_us)",
            "count()",
            period.from,
        ),
        insert(
            &monthly,
            "toStartOfMonth(charge_date)",
            "min(earliest_start_us), max(latest_start_us)",
            "sum(line_items)",
            &core,
        ),
        format!(
            "INSERT INTO {stats} (customer_id, {PERIOD_KEYS}, line_items, core_rows, \
             monthly_rows) SELECT {}, {provider}, {account}, {start}, {}, \
             (SELECT count() FROM {core}), (SELECT count() FROM {monthly})",
            literal::integer(period.customer),
            literal::integer(period.rows)
        ),
    ]
}

/// The line items a table holds and their billed, effective and list sums, as
/// `count, billed, effective, list`; `count` counts them (`count()` on line items,
/// `sum(line_items)` on a rollup).
pub(crate) fn sums_sql(table: &str, count: &str) -> String {
    format!(
        "SELECT {count}, sum(billed_cost), sum(effective_cost), sum(list_cost) FROM {}",
        literal::identifier(table)
    )
}

/// What [`sums_sql`] answered, or why it does not read.
pub(crate) async fn read_sums(shard: &Client, sql: &str) -> Result<(u64, [Decimal; 3]), String> {
    let answer = shard.query_tsv(sql).await.map_err(|e| e.to_string())?;
    let row = answer.first().ok_or("no answer to the sums")?;
    let unreadable = |error: costscope_clickhouse::tsv::TsvError| error.to_string();
    Ok((
        row.parse(0).map_err(unreadable)?,
        [
            row.decimal(1, SCALE).map_err(unreadable)?,
            row.decimal(2, SCALE).map_err(unreadable)?,
            row.decimal(3, SCALE).map_err(unreadable)?,
        ],
    ))
}

/// Checks that the filled rollup staging `tables` hold exactly `rows` line items costing
/// `sums`; a message naming the rollup that does not.
pub(crate) async fn check(
    shard: &Client,
    tables: &[String; 3],
    rows: u64,
    sums: &[Decimal; 3],
) -> Result<(), String> {
    for (rollup, table) in ROLLUPS.iter().zip(tables).take(2) {
        let (held, held_sums) = read_sums(shard, &sums_sql(table, "sum(line_items)")).await?;
        if held != rows || held_sums != *sums {
            return Err(format!(
                "the {rollup} rollup holds {held} line items costing {} / {} / {} instead of \
                 {rows} costing {} / {} / {}",
                held_sums[0], held_sums[1], held_sums[2], sums[0], sums[1], sums[2]
            ));
        }
    }
    let stats = shard
        .query_tsv(&format!(
            "SELECT sum(line_items) FROM {}",
            literal::identifier(&tables[2])
        ))
        .await
        .map_err(|e| e.to_string())?;
    let counted: u64 = stats
        .first()
        .ok_or("no answer to the counts")?
        .parse(0)
        .map_err(|e| e.to_string())?;
    if counted != rows {
        return Err(format!(
            "the row counts say {counted} line items, not {rows}"
        ));
    }
    Ok(())
}

/// Makes `tables` on `shard` as the rollups' local tables, fills them with `period`'s rollups
/// and checks them against its `sums` ([`check`]).
pub(crate) async fn stage(
    shard: &Client,
    period: &PeriodRows<'_>,
    sums: &[Decimal; 3],
    tables: &[String; 3],
) -> Result<(), String> {
    for (rollup, table) in ROLLUPS.iter().zip(tables) {
        let create = format!(
            "CREATE TABLE {} AS {}",
            literal::identifier(table),
            literal::identifier(&local(rollup))
        );
        shard.execute(&create).await.map_err(|e| e.to_string())?;
    }
    for sql in fill(period, tables) {
        shard.execute(&sql).await.map_err(|e| e.to_string())?;
    }
    check(shard, tables, period.rows, sums).await
}

/// Swaps `partition` of every rollup on `shard` for the one of its staging table in `tables`.
pub(crate) async fn swap(
    shard: &Client,
    partition: &str,
    tables: &[String; 3],
) -> Result<(), costscope_clickhouse::Error> {
    for (rollup, table) in ROLLUPS.iter().zip(tables) {
        shard
            .execute(&format!(
                "ALTER TABLE {} REPLACE PARTITION {partition} FROM {}",
                literal::identifier(&local(rollup)),
                literal::identifier(table)
            ))
            .await?;
    }
    Ok(())
}

/// Drops `tables` on `shard`, warning of one that does not go.
pub(crate) async fn drop_tables(shard: &Client, tables: &[String]) {
    for table in tables {
        let drop = format!("DROP TABLE IF EXISTS {}", literal::identifier(table));
        if let Err(error) = shard.execute(&drop).await {
            tracing::warn!(table, %error, "could not drop a ClickHouse staging table");
        }
    }
}

/// Builds the rollups of every billing period `shard` holds (a database an earlier build
/// wrote, whose loads kept none), a period at a time as a load does: staged from its line
/// items, checked, swapped in. Staging tables are named by `marker` as a load's are.
pub(crate) async fn backfill(shard: &Client, marker: u64) -> Result<(), EngineError> {
    let fail = |reason: String| {
        EngineError::Database(format!(
            "ClickHouse at {}: building the cost rollups: {reason}",
            shard.url()
        ))
    };
    let line_items = literal::identifier(LINE_ITEMS);
    let periods = shard
        .query_tsv(&format!(
            "SELECT customer_id, {PERIOD_KEYS}, count(), sum(billed_cost), sum(effective_cost),              sum(list_cost) FROM {line_items} GROUP BY customer_id, {PERIOD_KEYS}              ORDER BY customer_id, {PERIOD_KEYS}"
        ))
        .await
        .map_err(|e| fail(e.to_string()))?;
    for (index, row) in periods.iter().enumerate() {
        let read = |error: costscope_clickhouse::tsv::TsvError| fail(error.to_string());
        let customer: i64 = row.parse(0).map_err(read)?;
        let (provider, account) = (row.text(1).map_err(read)?, row.text(2).map_err(read)?);
        let start = row
            .text(3)
            .map_err(read)?
            .parse()
            .ok()
            .and_then(|day| Date::new(day).ok())
            .ok_or_else(|| fail(format!("`{:?}` is not a billing period", row.text(3))))?;
        let sums = [5, 6, 7].map(|i| row.decimal(i, SCALE));
        let [Ok(billed), Ok(effective), Ok(list)] = sums else {
            return Err(fail("unreadable sums".to_owned()));
        };
        let keys = [
            literal::string(provider),
            literal::string(account),
            literal::date(start),
        ];
        let from = format!(
            "(SELECT * FROM {line_items} WHERE customer_id = {} AND provider = {} AND              billing_account_id = {} AND billing_period_start = {})",
            literal::integer(customer),
            keys[0],
            keys[1],
            keys[2]
        );
        let period = PeriodRows {
            customer,
            keys,
            rows: row.parse(4).map_err(read)?,
            from: &from,
        };
        let tables = staging_tables(marker, index);
        let partition = schema::partition(customer, provider, account, start);
        let built = match stage(shard, &period, &[billed, effective, list], &tables).await {
            Ok(()) => swap(shard, &partition, &tables)
                .await
                .map_err(|e| e.to_string()),
            Err(reason) => Err(reason),
        };
        drop_tables(shard, &tables).await;
        built.map_err(fail)?;
    }
    tracing::info!(
        shard = %shard.url(),
        periods = periods.len(),
        "built the ClickHouse cost rollups of a database without them"
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rollups_have_the_query_builders_columns_and_the_line_items_partitions() {
        let sql = tables_sql();
        assert_eq!(sql.len(), ROLLUPS.len());
        assert!(sql[0].starts_with("CREATE TABLE IF NOT EXISTS `cost_daily_core_local` (customer_id Int64, charge_date Date, provider String, billing_account_id String, billing_period_start Date, account_id String, account_name String, service String, region String, cost_type String, currency String, earliest_start_us Int64"), "{}", sql[0]);
        for create in &sql {
            assert!(
                create.contains(&format!("PARTITION BY {PARTITION_BY}")),
                "{create}"
            );
        }
        assert!(sql[2].contains("line_items UInt64, core_rows UInt64, monthly_rows UInt64"));
    }

    #[test]
    fn a_period_is_filled_from_its_line_items_then_its_core_rows() {
        let period = PeriodRows {
            customer: 7,
            keys: ["'aws'".into(), "'1'".into(), "toDate('2026-01-01')".into()],
            rows: 12,
            from: "cost_line_items_stage_5_0",
        };
        let tables = staging_tables(5, 0);
        assert_eq!(tables[1], "cost_monthly_stage_5_0");
        let sql = fill(&period, &tables);
        assert!(sql[0].contains("count() FROM cost_line_items_stage_5_0 GROUP BY customer_id, charge_date, provider"), "{}", sql[0]);
        assert!(
            sql[1].contains("SELECT customer_id, toStartOfMonth(charge_date), provider"),
            "{}",
            sql[1]
        );
        assert!(
            sql[1].contains("sum(line_items) FROM `cost_daily_core_stage_5_0` GROUP BY"),
            "{}",
            sql[1]
        );
        assert!(sql[2].ends_with("SELECT 7, 'aws', '1', toDate('2026-01-01'), 12, (SELECT count() FROM `cost_daily_core_stage_5_0`), (SELECT count() FROM `cost_monthly_stage_5_0`)"), "{}", sql[2]);
    }
}
