//! Loading an upload into ClickHouse, the ClickHouse way of the embedded engine's one
//! transaction:
//!
//! 1. the files are read, checked and normalised by the same staging as the DuckDB engine's
//!    ([`crate::duckdb_engine::staging`]), in an in-memory DuckDB database of the load's own,
//!    and copied there into one table (a bad file is refused here with the same message);
//! 2. each billing period of the upload (provider + billing account + billing period) is
//!    streamed into a staging table of its own on the shard that holds it ([`super::shard`]),
//!    and its row count and sums are checked against DuckDB's, exactly; then its rollups are
//!    built from that staging table into staging tables of their own on the same shard
//!    (`INSERT … SELECT … GROUP BY`, [`super::rollups`]) and checked against the same sums;
//! 3. the rows the upload replaces are counted, then each period is swapped in with
//!    `ALTER TABLE … REPLACE PARTITION … FROM staging` (atomic for readers), the line items
//!    first, then each rollup, and dropped from any other shard an earlier shard count put it on;
//! 4. the load's marker is written ([`super::markers`]) and the staging tables dropped.
//!
//! Periods are swapped one by one: a reader may see some periods of an upload replaced and
//! others not yet, never one period half loaded, empty or doubled. Nothing is swapped unless
//! every period and its rollups were staged and checked. Between a period's line items swap and
//! its rollups' (a few statements), a question answered from a rollup still gets the period's
//! previous figures while one answered from the line items gets the new ones: each figure reads
//! one table, so it is the old period or the new one, never a mix; the parts of one answer read
//! apart (an aggregation's rows and its previous total, the currencies its plan reads from the
//! monthly rollup) may straddle a swap, as they may straddle two periods' swaps.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use chrono::NaiveDate;
use costscope_clickhouse::{literal, Client, Date, Decimal};
use costscope_ingest::{IngestError, NORMALISED_COLUMNS};
use duckdb::types::Value;
use duckdb::Connection;

use super::markers::{self, MarkerKey};
use super::rollups::{self, PeriodRows, SCALE};
use super::rows;
use super::schema::{partition, LINE_ITEMS, LINE_ITEMS_STAGING};
use super::shard::shard_of;
use super::ClickHouseEngine;
use crate::duckdb_engine::staging::{
    self, billing_periods, engine_error, totals, Stager, Tracker, PERIODS_TABLE,
};
use crate::{
    BillingPeriodKey, FileSummary, LoadError, LoadRequest, LoadSettings, LoadSummary,
    ProviderTotals,
};

/// The table of the in-memory DuckDB database that holds the upload's normalised rows.
const STAGED_ROWS: &str = "staged_rows";
/// The temp table of the staged rows' count and sums per billing period and currency.
const STAGED_KEYS: &str = "staged_keys";
/// How long one bulk insert of a billing period may take.
const INSERT_TIMEOUT: Duration = Duration::from_secs(3600);

/// One billing period of the upload with what DuckDB staged of it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Period {
    provider: String,
    billing_account_id: String,
    start: Date,
    rows: u64,
    /// Billed, effective and list cost.
    sums: [Decimal; 3],
}

impl Period {
    fn partition(&self, customer: i64) -> String {
        partition(
            customer,
            &self.provider,
            &self.billing_account_id,
            self.start,
        )
    }

    /// The provider, billing account and billing period as ClickHouse literals.
    fn keys(&self) -> [String; 3] {
        [
            literal::string(&self.provider),
            literal::string(&self.billing_account_id),
            literal::date(self.start),
        ]
    }

    /// `provider = … AND billing_account_id = … AND billing_period_start = …` in ClickHouse.
    fn condition(&self) -> String {
        let [provider, account, start] = self.keys();
        format!(
            "(provider = {provider} AND billing_account_id = {account} AND \
             billing_period_start = {start})"
        )
    }

    fn describe(&self) -> String {
        format!(
            "{} billing account {} period {}",
            self.provider, self.billing_account_id, self.start
        )
    }
}

/// What staging an upload in DuckDB gave.
struct Staging {
    /// The in-memory database holding [`STAGED_ROWS`] (clones read it). In a mutex so that the
    /// load's future, which holds it across its awaits, can move between threads.
    connection: Mutex<Connection>,
    files: Vec<FileSummary>,
    billing_periods: Vec<BillingPeriodKey>,
    totals: Vec<ProviderTotals>,
    periods: Vec<Period>,
    marker_keys: Vec<MarkerKey>,
    /// Removed with the staging (DuckDB spills there beyond its memory limit).
    _spill: SpillDir,
}

/// A directory of the load's own for DuckDB's spill files, removed when dropped (the FOCUS
/// export's too).
pub(super) struct SpillDir(pub(super) PathBuf);

impl SpillDir {
    pub(super) fn new(parent: Option<&PathBuf>) -> Self {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let parent = parent.cloned().unwrap_or_else(std::env::temp_dir);
        Self(parent.join(format!(
            "costscope-load-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        )))
    }
}

impl Drop for SpillDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Loads `request` for `customer`; `stager` replaces the file reader (tests).
pub(super) async fn load(
    engine: &ClickHouseEngine,
    customer: i64,
    request: LoadRequest,
    stager: Option<Box<Stager<'static>>>,
) -> Result<LoadSummary, LoadError> {
    let _one_at_a_time = engine.inner.loading.lock().await;
    let settings = engine.load_settings();
    let load_id: Arc<str> = Arc::from(request.load_id.as_str());
    let staging = tokio::task::spawn_blocking(move || stage(&request, &settings, stager))
        .await
        .map_err(|error| LoadError::Engine(format!("load task failed: {error}")))??;
    if staging.periods.is_empty() {
        return Ok(LoadSummary {
            rows: 0,
            replaced_rows: 0,
            files: staging.files,
            billing_periods: Vec::new(),
            totals: Vec::new(),
        });
    }
    let marker = markers::new_marker();
    let mut staging_tables = Vec::new();
    let replaced = replace(
        engine,
        customer,
        &load_id,
        &staging,
        marker,
        &mut staging_tables,
    )
    .await;
    for (shard, table) in &staging_tables {
        let drop = format!("DROP TABLE IF EXISTS {}", literal::identifier(table));
        if let Err(error) = engine.shards()[*shard].execute(&drop).await {
            tracing::warn!(table, %error, "could not drop a ClickHouse staging table");
        }
    }
    let replaced_rows = replaced?;
    let rows = staging.totals.iter().map(|total| total.rows).sum();
    markers::record(
        engine.first_shard(),
        &markers::Marker {
            load_id: &load_id,
            marker,
            customer,
            rows,
            replaced_rows,
            files: &staging.files,
            keys: &staging.marker_keys,
        },
    )
    .await
    .map_err(clickhouse_error)?;
    Ok(LoadSummary {
        rows,
        replaced_rows,
        files: staging.files,
        billing_periods: staging.billing_periods,
        totals: staging.totals,
    })
}

fn clickhouse_error(error: costscope_clickhouse::Error) -> LoadError {
    LoadError::Engine(format!("ClickHouse: {error}"))
}

/// Steps 2 and 3 of the module documentation; answers the rows replaced. Every staging table
/// made is pushed to `staging_tables` (shard, name), for the caller to drop.
async fn replace(
    engine: &ClickHouseEngine,
    customer: i64,
    load_id: &Arc<str>,
    staging: &Staging,
    marker: u64,
    staging_tables: &mut Vec<(usize, String)>,
) -> Result<u64, LoadError> {
    let shards = engine.shards();
    let sent = rows::sent_columns();
    let sent: Vec<&str> = sent.iter().map(String::as_str).collect();
    let query = format!(
        "SELECT {} FROM main.{STAGED_ROWS} WHERE provider = ? AND billing_account_id = ? \
         AND billing_period_start = CAST(? AS DATE)",
        rows::select_list()
    );
    let local = literal::identifier(LINE_ITEMS);
    // Per period: its shard, its line items' and its rollups' staging tables.
    let mut staged = Vec::with_capacity(staging.periods.len());
    for (index, period) in staging.periods.iter().enumerate() {
        let home = shard_of(
            customer,
            &period.provider,
            &period.billing_account_id,
            shards.len(),
        );
        let shard = &shards[home];
        let table = format!("{LINE_ITEMS_STAGING}{marker}_{index}");
        staging_tables.push((home, table.clone()));
        shard
            .execute(&format!(
                "CREATE TABLE {} AS {local}",
                literal::identifier(&table)
            ))
            .await
            .map_err(clickhouse_error)?;
        let connection = staging
            .connection
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .try_clone()
            .map_err(engine_error)?;
        let params = vec![
            Value::Text(period.provider.clone()),
            Value::Text(period.billing_account_id.clone()),
            Value::Text(period.start.to_string()),
        ];
        let (items, reader) = rows::stream(
            connection,
            query.clone(),
            params,
            customer,
            Arc::clone(load_id),
        );
        let inserted = shard
            .clone()
            .with_timeout(INSERT_TIMEOUT)
            .insert_row_binary(&table, &sent, items)
            .await;
        reader.await.map_err(|error| {
            LoadError::Engine(format!("the staged rows' reader failed: {error}"))
        })??;
        inserted.map_err(clickhouse_error)?;
        check_staged(shard, &table, period).await?;
        let rollup_tables = rollups::staging_tables(marker, index);
        staging_tables.extend(rollup_tables.iter().map(|name| (home, name.clone())));
        let rows = PeriodRows {
            customer,
            keys: period.keys(),
            rows: period.rows,
            from: &literal::identifier(&table),
        };
        rollups::stage(shard, &rows, &period.sums, &rollup_tables)
            .await
            .map_err(|reason| {
                LoadError::Engine(format!(
                    "ClickHouse: the rollups of {}: {reason}; nothing was replaced",
                    period.describe()
                ))
            })?;
        staged.push((home, table, rollup_tables));
    }
    let replaced_rows = held_rows(engine, customer, &staging.periods).await?;
    let mut replaced = 0;
    let every_table: Vec<String> = std::iter::once(LINE_ITEMS.to_owned())
        .chain(rollups::ROLLUPS.map(rollups::local))
        .collect();
    for (index, period) in staging.periods.iter().enumerate() {
        let (home, table, rollup_tables) = &staged[index];
        let partition = period.partition(customer);
        shards[*home]
            .execute(&format!(
                "ALTER TABLE {local} REPLACE PARTITION {partition} FROM {}",
                literal::identifier(table)
            ))
            .await
            .map_err(clickhouse_error)?;
        rollups::swap(&shards[*home], &partition, rollup_tables)
            .await
            .map_err(clickhouse_error)?;
        for (other, held) in replaced_rows[index].iter().enumerate() {
            replaced += held;
            if other != *home && *held > 0 {
                for name in &every_table {
                    shards[other]
                        .execute(&format!(
                            "ALTER TABLE {} DROP PARTITION {partition}",
                            literal::identifier(name)
                        ))
                        .await
                        .map_err(clickhouse_error)?;
                }
            }
        }
    }
    Ok(replaced)
}

/// Refuses the load unless staging table `table` holds exactly what DuckDB staged of `period`.
async fn check_staged(shard: &Client, table: &str, period: &Period) -> Result<(), LoadError> {
    let (rows, sums) = rollups::read_sums(shard, &rollups::sums_sql(table, "count()"))
        .await
        .map_err(|reason| LoadError::Engine(format!("ClickHouse staged sums: {reason}")))?;
    if rows != period.rows || sums != period.sums {
        return Err(LoadError::Engine(format!(
            "ClickHouse received other rows than were staged for {}: {rows} rows costing \
             {} / {} / {} (billed / effective / list) instead of {} costing {} / {} / {}; \
             nothing was replaced",
            period.describe(),
            sums[0],
            sums[1],
            sums[2],
            period.rows,
            period.sums[0],
            period.sums[1],
            period.sums[2]
        )));
    }
    Ok(())
}

/// The rows of `customer` each shard holds in each of `periods` (before they are replaced):
/// `[period][shard]`.
async fn held_rows(
    engine: &ClickHouseEngine,
    customer: i64,
    periods: &[Period],
) -> Result<Vec<Vec<u64>>, LoadError> {
    let shards = engine.shards();
    let mut held = vec![vec![0; shards.len()]; periods.len()];
    let conditions: Vec<String> = periods.iter().map(Period::condition).collect();
    let sql = format!(
        "SELECT provider, billing_account_id, billing_period_start, count() FROM {} \
         WHERE customer_id = {} AND ({}) GROUP BY provider, billing_account_id, \
         billing_period_start",
        literal::identifier(LINE_ITEMS),
        literal::integer(customer),
        conditions.join(" OR ")
    );
    for (index, shard) in shards.iter().enumerate() {
        for row in shard.query_tsv(&sql).await.map_err(clickhouse_error)? {
            let cell = |i| {
                row.text(i)
                    .map_err(|error| LoadError::Engine(format!("ClickHouse held rows: {error}")))
            };
            let (provider, account, start) = (cell(0)?, cell(1)?, cell(2)?);
            let count: u64 = row
                .parse(3)
                .map_err(|error| LoadError::Engine(format!("ClickHouse held rows: {error}")))?;
            if let Some(period) = periods.iter().position(|p| {
                p.provider == provider
                    && p.billing_account_id == account
                    && p.start.to_string() == start
            }) {
                held[period][index] += count;
            }
        }
    }
    Ok(held)
}

// ------------------------------------------------------------------------------------ DuckDB

/// Step 1: stages the upload in an in-memory DuckDB database of its own (on a blocking thread).
fn stage(
    request: &LoadRequest,
    settings: &LoadSettings,
    stager: Option<Box<Stager<'static>>>,
) -> Result<Staging, LoadError> {
    let connection = Connection::open_in_memory().map_err(engine_error)?;
    let spill = SpillDir::new(settings.temp_directory.as_ref());
    let settings = LoadSettings {
        memory_limit: settings.memory_limit,
        temp_directory: Some(spill.0.clone()),
    };
    staging::apply_settings(&connection, &settings)
        .map_err(|error| LoadError::Engine(error.to_string()))?;
    let tracker = Tracker::new(request);
    let mut stager = stager.unwrap_or_else(|| staging::file_stager(&tracker));
    let mut staged = staging::stage_upload(&connection, request, &tracker, &mut *stager)?;
    if staged.is_empty() {
        let files = std::mem::take(&mut staged.files);
        drop(staged);
        return Ok(Staging {
            connection: Mutex::new(connection),
            files,
            billing_periods: Vec::new(),
            totals: Vec::new(),
            periods: Vec::new(),
            marker_keys: Vec::new(),
            _spill: spill,
        });
    }
    let columns: Vec<&str> = NORMALISED_COLUMNS.iter().map(|(name, _)| *name).collect();
    let definitions: Vec<String> = NORMALISED_COLUMNS
        .iter()
        .map(|(name, kind)| format!("{name} {kind}"))
        .collect();
    connection
        .execute_batch(&format!(
            "CREATE TABLE main.{STAGED_ROWS} ({})",
            definitions.join(", ")
        ))
        .map_err(engine_error)?;
    let columns = columns.join(", ");
    staged.insert_files(
        &connection,
        |view| format!("INSERT INTO main.{STAGED_ROWS} SELECT {columns} FROM {view}"),
        [],
    )?;
    staged.keep(STAGED_KEYS);
    connection
        .execute_batch(&format!(
            "CREATE OR REPLACE TEMP TABLE {STAGED_KEYS} AS SELECT provider, billing_account_id, \
             billing_period_start, currency, count(*) AS line_items, sum(billed_cost) AS billed, \
             sum(effective_cost) AS effective, sum(list_cost) AS list FROM main.{STAGED_ROWS} \
             GROUP BY provider, billing_account_id, billing_period_start, currency"
        ))
        .map_err(engine_error)?;
    check_dates(&connection)?;
    let billing_periods = billing_periods(&connection, PERIODS_TABLE)?;
    let totals = totals(&connection, STAGED_KEYS)?;
    let marker_keys = markers::staged_keys(&connection, STAGED_KEYS)?;
    let periods = periods(&marker_keys)?;
    let files = std::mem::take(&mut staged.files);
    drop(staged);
    Ok(Staging {
        connection: Mutex::new(connection),
        files,
        billing_periods,
        totals,
        periods,
        marker_keys,
        _spill: spill,
    })
}

/// The billing periods of the staged keys (summed over their currencies).
fn periods(keys: &[MarkerKey]) -> Result<Vec<Period>, LoadError> {
    let mut periods: Vec<Period> = Vec::new();
    for key in keys {
        let decimal = |text: &str| {
            Decimal::parse(text, SCALE)
                .map_err(|error| LoadError::Engine(format!("staged sums: {error}")))
        };
        let sums = [
            decimal(&key.billed)?,
            decimal(&key.effective)?,
            decimal(&key.list)?,
        ];
        let start = clickhouse_date(&key.billing_period_start)?;
        let existing = periods.iter_mut().find(|p| {
            p.provider == key.provider
                && p.billing_account_id == key.billing_account_id
                && p.start == start
        });
        match existing {
            Some(period) => {
                period.rows += key.line_items;
                for (sum, add) in period.sums.iter_mut().zip(&sums) {
                    *sum = add_decimals(sum, add)?;
                }
            }
            None => periods.push(Period {
                provider: key.provider.clone(),
                billing_account_id: key.billing_account_id.clone(),
                start,
                rows: key.line_items,
                sums,
            }),
        }
    }
    Ok(periods)
}

/// `a + b` at [`SCALE`], exactly (Decimal(38, 9) fits an i128 in billionths).
fn add_decimals(a: &Decimal, b: &Decimal) -> Result<Decimal, LoadError> {
    let nanos = |d: &Decimal| -> i128 { d.as_str().replace('.', "").parse().unwrap_or_default() };
    let sum = nanos(a) + nanos(b);
    let (sign, magnitude) = (if sum < 0 { "-" } else { "" }, sum.unsigned_abs());
    let scale = 10u128.pow(SCALE);
    Decimal::parse(
        &format!("{sign}{}.{:09}", magnitude / scale, magnitude % scale),
        SCALE,
    )
    .map_err(|error| LoadError::Engine(format!("staged sums: {error}")))
}

fn clickhouse_date(text: &str) -> Result<Date, LoadError> {
    let day = NaiveDate::parse_from_str(text, "%Y-%m-%d")
        .map_err(|error| LoadError::Engine(format!("staged date `{text}`: {error}")))?;
    Date::new(day).map_err(|error| LoadError::Engine(error.to_string()))
}

/// Refuses an upload with a date or time ClickHouse's `Date` / `DateTime` cannot keep (they
/// would silently become other dates).
fn check_dates(connection: &Connection) -> Result<(), LoadError> {
    let (first, last): (Option<String>, Option<String>) = connection
        .query_row(
            &format!(
                "SELECT CAST(least(min(billing_period_start), min(CAST(charge_period_start AS DATE)), \
                 min(CAST(charge_period_end AS DATE)), min(CAST(billing_period_end AS DATE))) AS VARCHAR), \
                 CAST(greatest(max(billing_period_start), max(CAST(charge_period_start AS DATE)), \
                 max(CAST(charge_period_end AS DATE)), max(CAST(billing_period_end AS DATE))) AS VARCHAR) \
                 FROM main.{STAGED_ROWS}"
            ),
            [],
            |row| Ok((row.get(0)?, row.get(1)?)),
        )
        .map_err(engine_error)?;
    let (Some(first), Some(last)) = (first, last) else {
        return Ok(());
    };
    if clickhouse_date(&first).is_err() || clickhouse_date(&last).is_err() {
        return Err(LoadError::Invalid(IngestError::new(format!(
            "the upload has dates from {first} to {last}; the ClickHouse cost engine keeps dates \
             from 1970-01-02 to 2105-12-31 only"
        ))));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decimal(text: &str) -> Decimal {
        Decimal::parse(text, SCALE).unwrap()
    }

    #[test]
    fn decimals_add_exactly() {
        let cases = [
            ("0.1", "0.2", "0.300000000"),
            ("-1.000000001", "1", "-0.000000001"),
            (
                "99999999999999999999999999999.999999999",
                "-0.000000001",
                "99999999999999999999999999999.999999998",
            ),
            ("-5", "2.5", "-2.500000000"),
        ];
        for (a, b, sum) in cases {
            assert_eq!(
                add_decimals(&decimal(a), &decimal(b)).unwrap().as_str(),
                sum
            );
        }
    }

    #[test]
    fn periods_sum_their_currencies() {
        let key = |currency: &str, rows: u64, billed: &str| MarkerKey {
            provider: "aws".into(),
            billing_account_id: "1".into(),
            billing_period_start: "2024-01-01".into(),
            currency: currency.into(),
            line_items: rows,
            billed: billed.into(),
            effective: "0".into(),
            list: "1".into(),
        };
        let mut other = key("USD", 1, "1");
        other.billing_account_id = "2".into();
        let periods = periods(&[key("EUR", 2, "1.5"), key("USD", 3, "-0.25"), other]).unwrap();
        assert_eq!(periods.len(), 2);
        assert_eq!(periods[0].rows, 5);
        assert_eq!(periods[0].sums[0].as_str(), "1.250000000");
        assert_eq!(periods[0].sums[2].as_str(), "2.000000000");
        assert_eq!(periods[1].billing_account_id, "2");
    }
}
