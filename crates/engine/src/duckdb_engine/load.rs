//! Loading an upload: check every file and stage its normalised rows as a temp view on the
//! writer connection, then, in one transaction, write them into the cost table, replace the
//! billing periods they contain and rebuild those periods' rollups. The rows are written once:
//! straight from the file (or, for CSV, from its checked text columns) into the table. Memory is
//! bounded by DuckDB's memory limit ([`LoadSettings`]): a CSV file's text columns spill to its
//! temp directory beyond it, and a transaction's large inserts are written to the database file
//! as they come, so a load's resident memory does not grow with the file.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use chrono::NaiveDate;
use costscope_core::cost::Provider;
use costscope_ingest::{Format, IngestError, NORMALISED_COLUMNS};
use duckdb::types::Value;
use duckdb::{params, Connection};

use super::daily_rollup::{self, DailyRollup};
use super::progress::{file_size, ReadWatch, Tracker};
use super::read::date_of;
use super::rollups;
use crate::query_builder::{CORE_DAILY_TABLE, COST_TABLE, DAILY_TABLE, TAGS_TABLE};
use crate::{
    BillingPeriodKey, EngineError, FileSummary, LoadError, LoadPhase, LoadRequest, LoadSummary,
    ProviderTotals, SourceFile,
};

/// The default of [`LoadSettings::memory_limit`]: 384 MiB, so that the whole server stays under
/// 1 GB while it loads. DuckDB's limit does not count the readers' buffers, its allocator's
/// slack and the process itself: syncing a 1 GiB gzip export (15.5M rows) peaked at 915 MiB
/// with this limit and at 1045 MiB with 512 MiB, in the same time (docs/PERFORMANCE.md).
pub const DEFAULT_LOAD_MEMORY_LIMIT: u64 = 384 << 20;

/// DuckDB's memory settings. They are global to the database: loads and cost queries alike.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadSettings {
    /// DuckDB's `memory_limit` in bytes; beyond it, staged rows spill to `temp_directory`.
    pub memory_limit: u64,
    /// DuckDB's `temp_directory`; `None` keeps DuckDB's own (`<database file>.tmp`).
    pub temp_directory: Option<PathBuf>,
}

impl Default for LoadSettings {
    fn default() -> Self {
        Self {
            memory_limit: DEFAULT_LOAD_MEMORY_LIMIT,
            temp_directory: None,
        }
    }
}

/// Applies `settings` to the database `connection` belongs to.
pub(crate) fn apply_settings(
    connection: &Connection,
    settings: &LoadSettings,
) -> Result<(), EngineError> {
    // Without insertion order, a load's INSERT … SELECT writes each thread's rows as they come
    // instead of holding them back to keep the source's order (DuckDB's own advice for loads
    // that run out of memory); every read that needs an order says ORDER BY.
    let mut sql = format!(
        "SET memory_limit = '{}B'; SET preserve_insertion_order = false;",
        settings.memory_limit
    );
    if let Some(dir) = &settings.temp_directory {
        std::fs::create_dir_all(dir).map_err(|error| {
            EngineError::Database(format!("cannot create {}: {error}", dir.display()))
        })?;
        let dir = dir.to_string_lossy().replace('\'', "''");
        sql.push_str(&format!("SET temp_directory = '{dir}';"));
    }
    connection
        .execute_batch(&sql)
        .map_err(|error| EngineError::Database(format!("DuckDB settings: {error}")))
}

/// Stages one file of an upload: creates the TEMP table or view `table` on `connection` with
/// exactly [`NORMALISED_COLUMNS`], or refuses the file. Answers the file's format and its rows
/// (for the progress; the file's summary counts the rows its insert writes).
pub type Stager<'a> = dyn FnMut(&Connection, &SourceFile, Option<Format>, &str) -> Result<(Format, u64), IngestError>
    + Send
    + 'a;

/// Loads an upload with the real stager (`costscope_ingest::stage_view`), which also says
/// when a file has been read whole (the progress's `checking` phase).
pub(crate) fn load_uploaded(
    connection: &Connection,
    customer: i64,
    request: &LoadRequest,
    daily: DailyRollup,
) -> Result<LoadSummary, LoadError> {
    let tracker = Tracker::new(request);
    let observer = Arc::clone(&tracker);
    let mut stage = move |connection: &Connection,
                          file: &SourceFile,
                          format: Option<Format>,
                          table: &str|
          -> Result<(Format, u64), IngestError> {
        let bytes = file_size(&file.path);
        let staged = costscope_ingest::stage_view(
            connection,
            &file.path,
            &file.display_name,
            format,
            table,
            &|rows| observer.file_read(rows, bytes),
        )?;
        Ok((staged.format, staged.rows))
    };
    run(connection, customer, request, &tracker, &mut stage, daily)
}

/// Loads an upload with `stage` creating each file's staged table.
pub(crate) fn load(
    connection: &Connection,
    customer: i64,
    request: &LoadRequest,
    stage: &mut Stager<'_>,
    daily: DailyRollup,
) -> Result<LoadSummary, LoadError> {
    run(
        connection,
        customer,
        request,
        &Tracker::new(request),
        stage,
        daily,
    )
}

/// Logs the time a load phase took (`RUST_LOG=costscope_engine=debug`) and restarts the clock.
fn phase(name: &str, clock: &mut Instant) {
    tracing::debug!(
        phase = name,
        ms = clock.elapsed().as_millis() as u64,
        "load phase"
    );
    *clock = Instant::now();
}

fn engine_error(error: duckdb::Error) -> LoadError {
    LoadError::Engine(error.to_string())
}

/// Temp relations of one load (each file's staged view or table, the staged keys), dropped
/// when it ends whatever happens.
struct StagedRelations<'a> {
    connection: &'a Connection,
    names: Vec<String>,
}

impl Drop for StagedRelations<'_> {
    fn drop(&mut self) {
        for name in &self.names {
            costscope_ingest::unstage(self.connection, name);
        }
    }
}

fn column_list() -> String {
    NORMALISED_COLUMNS
        .iter()
        .map(|(name, _)| *name)
        .collect::<Vec<_>>()
        .join(", ")
}

fn run(
    connection: &Connection,
    customer: i64,
    request: &LoadRequest,
    tracker: &Arc<Tracker>,
    stage: &mut Stager<'_>,
    daily: DailyRollup,
) -> Result<LoadSummary, LoadError> {
    let mut staged = StagedRelations {
        connection,
        names: Vec::new(),
    };
    let mut files = Vec::with_capacity(request.files.len());
    let mut clock = Instant::now();
    for (index, file) in request.files.iter().enumerate() {
        tracker.file_started(index, &file.display_name);
        let table = format!("staged_{index}");
        costscope_ingest::unstage(staged.connection, &table);
        staged.names.push(table.clone());
        let watch = ReadWatch::start(tracker, &file.path);
        let (format, rows) = stage(staged.connection, file, request.format, &table)?;
        drop(watch);
        tracker.file_staged(rows, file_size(&file.path));
        files.push(FileSummary {
            name: file.display_name.clone(),
            format,
            rows,
        });
    }
    if staged.names.is_empty() {
        return Ok(LoadSummary {
            rows: 0,
            replaced_rows: 0,
            files,
            billing_periods: Vec::new(),
            totals: Vec::new(),
        });
    }
    phase("stage", &mut clock);
    tracker.phase(LoadPhase::Writing);
    let connection = staged.connection;
    let file_tables = staged.names.clone();
    // The billing periods the upload holds (one scan of each file's key columns): what the
    // load replaces. A file whose key columns cannot be read is named.
    staged.names.push("staged_periods".to_owned());
    connection
        .execute_batch(&format!(
            "CREATE OR REPLACE TEMP TABLE staged_periods AS SELECT {} FROM temp.{} LIMIT 0",
            rollups::PERIOD_KEYS,
            file_tables[0]
        ))
        .map_err(engine_error)?;
    for (file, table) in files.iter().zip(&file_tables) {
        connection
            .execute_batch(&format!(
                "INSERT INTO staged_periods SELECT DISTINCT {} FROM temp.{table}",
                rollups::PERIOD_KEYS
            ))
            .map_err(|error| LoadError::Invalid(costscope_ingest::file_error(&file.name, error)))?;
    }
    phase("billing periods", &mut clock);
    connection
        .execute_batch(MARKER_SCHEMA)
        .map_err(engine_error)?;
    // The writer connection is borrowed by `staged` (which drops the temp relations at the
    // end), hence the unchecked (shared-borrow) transaction; nothing else uses the connection
    // meanwhile.
    let transaction = connection.unchecked_transaction().map_err(engine_error)?;
    let replaced = |table: &str| {
        format!(
            "DELETE FROM {table} WHERE customer_id = ? AND {}",
            rollups::in_periods(table, "staged_periods")
        )
    };
    let replaced_rows = transaction
        .execute(&replaced(COST_TABLE), params![customer])
        .map_err(engine_error)?;
    for table in [DAILY_TABLE, daily_rollup::ESTIMATES_TABLE, TAGS_TABLE]
        .into_iter()
        .chain(rollups::DERIVED_TABLES)
    {
        transaction
            .execute(&replaced(table), params![customer])
            .map_err(engine_error)?;
    }
    phase("delete", &mut clock);
    // Rows an earlier load with the same id keeps in other billing periods (a retried id, or
    // tests that reuse one; job ids are unique): only then must the rows of this load be told
    // apart by their periods too.
    let earlier_with_same_id: i64 = transaction
        .query_row(
            &format!("SELECT count(*) FROM {COST_TABLE} WHERE customer_id = ? AND load_id = ?"),
            params![customer, request.load_id],
            |row| row.get(0),
        )
        .map_err(engine_error)?;
    let columns = column_list();
    for (file, table) in files.iter_mut().zip(&file_tables) {
        let inserted = transaction
            .execute(
                &format!(
                    "INSERT INTO {COST_TABLE} (customer_id, load_id, charge_date, {columns}) \
                     SELECT ?, ?, CAST(charge_period_start AS DATE), {columns} FROM temp.{table}"
                ),
                params![customer, request.load_id],
            )
            .map_err(|error| LoadError::Invalid(costscope_ingest::file_error(&file.name, error)))?;
        file.rows = inserted as u64;
    }
    phase("insert", &mut clock);

    // The rows this load wrote, by its id (a scan skips every other load's row groups), not by
    // a join on its periods: the optimizer sees no statistics of rows not yet committed and
    // plans such a join with the whole load in memory (it ran out of 384 MiB at 10M rows).
    // `customer` is an integer and the load id a quoted literal.
    let mut loaded_rows = format!(
        "(SELECT * FROM {COST_TABLE} r WHERE customer_id = {customer} AND load_id = {}",
        costscope_ingest::sql::quote_literal(&request.load_id),
    );
    if earlier_with_same_id > 0 {
        loaded_rows.push_str(&format!(
            " AND {}",
            rollups::in_periods("r", "staged_periods")
        ));
    }
    loaded_rows.push(')');
    // One scan of them: count and sums per billing period and currency; the load's totals and
    // its marker come from this small table.
    staged.names.push("staged_keys".to_owned());
    transaction
        .execute_batch(&format!(
            "CREATE OR REPLACE TEMP TABLE staged_keys AS SELECT provider, billing_account_id, \
             billing_period_start, currency, count(*) AS line_items, sum(billed_cost) AS billed, \
             sum(effective_cost) AS effective, sum(list_cost) AS list, {} FROM {loaded_rows} \
             GROUP BY provider, billing_account_id, billing_period_start, currency",
            daily_rollup::estimate_column()
        ))
        .map_err(engine_error)?;
    let billing_periods = billing_periods(&transaction, "staged_periods")?;
    let totals = totals(&transaction, "staged_keys")?;
    let rows: u64 = totals.iter().map(|total| total.rows).sum();
    phase("keys and totals", &mut clock);
    tracker.phase(LoadPhase::Rollups);
    // The rollups, from the rows loaded; the monthly one and most value lists from the core
    // daily rows of the periods loaded.
    let loaded = rollups::Input::line_items(loaded_rows);
    let daily_kept =
        daily_rollup::maintain(&transaction, customer, &loaded, daily).map_err(engine_error)?;
    phase("daily rollup", &mut clock);
    transaction
        .execute_batch(&rollups::insert_core_sql(&loaded))
        .map_err(engine_error)?;
    let core = rollups::rows_in_periods(CORE_DAILY_TABLE, customer, "staged_periods");
    transaction
        .execute_batch(&rollups::insert_from_core_sql(&rollups::Input::rollup(
            core,
        )))
        .map_err(engine_error)?;
    phase("core daily, monthly and value rollups", &mut clock);
    transaction
        .execute_batch(&rollups::insert_tags_sql(&loaded))
        .map_err(engine_error)?;
    phase("tag rollup", &mut clock);
    transaction
        .execute_batch(&rollups::refresh_stats_sql(customer, daily_kept))
        .map_err(engine_error)?;
    phase("row counts", &mut clock);
    let replaced_rows = u64::try_from(replaced_rows).unwrap_or_default();
    record_marker(
        &transaction,
        customer,
        &request.load_id,
        rows,
        replaced_rows,
        &files,
    )?;
    test_pause("before the load's commit");
    transaction.commit().map_err(engine_error)?;
    test_pause("after the load's commit");
    phase("commit", &mut clock);
    drop(staged);

    Ok(LoadSummary {
        rows,
        replaced_rows,
        files,
        billing_periods,
        totals,
    })
}

fn provider_of(code: &str) -> Result<Provider, LoadError> {
    code.parse::<Provider>()
        .map_err(|error| LoadError::Engine(format!("staged rows: {error}")))
}

/// The billing periods of `keys` (`staged_keys`, or a load marker's keys).
fn billing_periods(
    connection: &Connection,
    keys: &str,
) -> Result<Vec<BillingPeriodKey>, LoadError> {
    let mut statement = connection
        .prepare(&format!(
            "SELECT DISTINCT provider, billing_account_id, billing_period_start FROM {keys} \
             ORDER BY provider, billing_account_id, billing_period_start"
        ))
        .map_err(engine_error)?;
    let rows = statement
        .query_map([], |row| {
            Ok((
                row.get::<_, String>(0)?,
                row.get::<_, String>(1)?,
                row.get::<_, Value>(2)?,
            ))
        })
        .map_err(engine_error)?;
    let mut keys = Vec::new();
    for row in rows {
        let (provider, billing_account_id, start) = row.map_err(engine_error)?;
        keys.push(BillingPeriodKey {
            provider: provider_of(&provider)?,
            billing_account_id,
            billing_period_start: date_of(&start).unwrap_or(NaiveDate::MIN),
        });
    }
    keys.sort();
    Ok(keys)
}

/// Rows and sums per provider of `keys`, with its most common currency (ties: the first by
/// name).
fn totals(connection: &Connection, keys: &str) -> Result<Vec<ProviderTotals>, LoadError> {
    let mut statement = connection
        .prepare(&format!(
            "SELECT provider, CAST(sum(line_items) AS BIGINT), CAST(sum(billed) AS DOUBLE), \
             CAST(sum(effective) AS DOUBLE), CAST(sum(list) AS DOUBLE), \
             arg_max(currency, (line_items, -rank)) FROM (SELECT provider, currency, \
             sum(line_items) AS line_items, sum(billed) AS billed, sum(effective) AS effective, \
             sum(list) AS list, rank() OVER (PARTITION BY provider ORDER BY currency) AS rank \
             FROM {keys} GROUP BY provider, currency) GROUP BY provider ORDER BY provider"
        ))
        .map_err(engine_error)?;
    let rows = statement
        .query_map([], |row| {
            Ok((
                row.get::<_, String>(0)?,
                row.get::<_, i64>(1)?,
                row.get::<_, f64>(2)?,
                row.get::<_, f64>(3)?,
                row.get::<_, f64>(4)?,
                row.get::<_, Option<String>>(5)?,
            ))
        })
        .map_err(engine_error)?;
    let mut totals = Vec::new();
    for row in rows {
        let (provider, rows, billed_cost, effective_cost, list_cost, currency) =
            row.map_err(engine_error)?;
        totals.push(ProviderTotals {
            provider: provider_of(&provider)?,
            rows: rows.max(0).unsigned_abs(),
            billed_cost,
            effective_cost,
            list_cost,
            currency: currency
                .filter(|currency| !currency.is_empty())
                .unwrap_or_else(|| "USD".to_owned()),
        });
    }
    totals.sort_by(|a, b| a.provider.cmp(&b.provider));
    Ok(totals)
}

/// A load's marker: committed in the transaction that commits its rows, so that what the
/// engine holds can be told after a crash between that commit and the job's record in the
/// metadata store (`committed_load`, read at start-up).
const MARKER_SCHEMA: &str = "\
    CREATE TABLE IF NOT EXISTS load_markers (load_id VARCHAR NOT NULL, customer_id BIGINT NOT \
    NULL, rows BIGINT NOT NULL, replaced_rows BIGINT NOT NULL, committed_at TIMESTAMP NOT NULL); \
    CREATE TABLE IF NOT EXISTS load_marker_files (load_id VARCHAR NOT NULL, position INTEGER NOT \
    NULL, name VARCHAR NOT NULL, format VARCHAR NOT NULL, rows BIGINT NOT NULL); \
    CREATE TABLE IF NOT EXISTS load_marker_keys (load_id VARCHAR NOT NULL, provider VARCHAR, \
    billing_account_id VARCHAR, billing_period_start DATE, currency VARCHAR, line_items BIGINT, \
    billed DECIMAL(38,9), effective DECIMAL(38,9), list DECIMAL(38,9));";

fn record_marker(
    transaction: &duckdb::Transaction<'_>,
    customer: i64,
    load_id: &str,
    rows: u64,
    replaced_rows: u64,
    files: &[FileSummary],
) -> Result<(), LoadError> {
    // A load id is recorded once; a retried id (never expected) keeps only its last load.
    for table in ["load_markers", "load_marker_files", "load_marker_keys"] {
        transaction
            .execute(
                &format!("DELETE FROM {table} WHERE load_id = ?"),
                params![load_id],
            )
            .map_err(engine_error)?;
    }
    transaction
        .execute(
            "INSERT INTO load_markers VALUES (?, ?, ?, ?, now())",
            params![
                load_id,
                customer,
                i64::try_from(rows).unwrap_or(i64::MAX),
                i64::try_from(replaced_rows).unwrap_or(i64::MAX)
            ],
        )
        .map_err(engine_error)?;
    for (position, file) in files.iter().enumerate() {
        transaction
            .execute(
                "INSERT INTO load_marker_files VALUES (?, ?, ?, ?, ?)",
                params![
                    load_id,
                    position as i64,
                    file.name,
                    file.format.name(),
                    i64::try_from(file.rows).unwrap_or(i64::MAX)
                ],
            )
            .map_err(engine_error)?;
    }
    transaction
        .execute(
            "INSERT INTO load_marker_keys SELECT ?, provider, billing_account_id, \
             billing_period_start, currency, line_items, billed, effective, list FROM staged_keys",
            params![load_id],
        )
        .map_err(engine_error)?;
    Ok(())
}

/// Test builds only: `COSTSCOPE_TEST_LOAD_PAUSE=<moment>` (`before the load's commit` or
/// `after the load's commit`) prints the moment to stderr and sleeps there for a minute, so
/// that the crash tests can kill the process at that exact moment.
fn test_pause(moment: &str) {
    #[cfg(debug_assertions)]
    if std::env::var("COSTSCOPE_TEST_LOAD_PAUSE").is_ok_and(|wanted| wanted == moment) {
        eprintln!("costscope test pause: {moment}");
        std::thread::sleep(std::time::Duration::from_secs(60));
    }
    #[cfg(not(debug_assertions))]
    let _ = moment;
}

impl super::DuckDbEngine {
    /// What the engine holds of load `load_id`, from its marker: `None` when the load never
    /// committed. With the customer it was for. Used at start-up to record the outcome of a
    /// load that a crash left recorded as running.
    pub fn committed_load(&self, load_id: &str) -> Result<Option<(i64, LoadSummary)>, EngineError> {
        let connection = self.connection()?;
        let database = |error: duckdb::Error| EngineError::Database(error.to_string());
        connection.execute_batch(MARKER_SCHEMA).map_err(database)?;
        let marker: Option<(i64, i64, i64)> = match connection.query_row(
            "SELECT customer_id, rows, replaced_rows FROM load_markers WHERE load_id = ?",
            params![load_id],
            |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)),
        ) {
            Ok(marker) => Some(marker),
            Err(duckdb::Error::QueryReturnedNoRows) => None,
            Err(error) => return Err(database(error)),
        };
        let Some((customer, rows, replaced_rows)) = marker else {
            return Ok(None);
        };
        let mut statement = connection
            .prepare(
                "SELECT name, format, rows FROM load_marker_files WHERE load_id = ? ORDER BY position",
            )
            .map_err(database)?;
        let files = statement
            .query_map(params![load_id], |row| {
                Ok((
                    row.get::<_, String>(0)?,
                    row.get::<_, String>(1)?,
                    row.get::<_, i64>(2)?,
                ))
            })
            .map_err(database)?
            .collect::<Result<Vec<_>, _>>()
            .map_err(database)?
            .into_iter()
            .filter_map(|(name, format, rows)| {
                Some(FileSummary {
                    name,
                    format: format.parse::<Format>().ok()?,
                    rows: rows.unsigned_abs(),
                })
            })
            .collect();
        let keys = format!(
            "(SELECT * FROM load_marker_keys WHERE load_id = {})",
            costscope_ingest::sql::quote_literal(load_id)
        );
        let unreadable = |error: LoadError| EngineError::Database(error.to_string());
        Ok(Some((
            customer,
            LoadSummary {
                rows: rows.unsigned_abs(),
                replaced_rows: replaced_rows.unsigned_abs(),
                files,
                billing_periods: billing_periods(&connection, &keys).map_err(unreadable)?,
                totals: totals(&connection, &keys).map_err(unreadable)?,
            },
        )))
    }
}
