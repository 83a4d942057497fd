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

use costscope_core::normalised::{Format, NORMALISED_COLUMNS};
use duckdb::{params, Connection};

use super::daily_rollup::{self, DailyRollup};
use super::progress::Tracker;
use super::rollups;
use super::staging::{self, billing_periods, engine_error, totals};
use crate::query_builder::{CORE_DAILY_TABLE, COST_TABLE, DAILY_TABLE, TAGS_TABLE};
use crate::{EngineError, FileSummary, LoadError, LoadPhase, LoadRequest, LoadSummary};

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

pub use super::staging::Stager;

/// Loads an upload with the real stager (`costscope_ingest::stage_view`), which also says
/// when a file has been read whole (the progress's `checking` phase).
pub(crate) fn load_uploaded(
    connection: &Connection,
    customer: i64,
    request: &LoadRequest,
    daily: DailyRollup,
) -> Result<LoadSummary, LoadError> {
    let tracker = Tracker::new(request);
    let mut stage = staging::file_stager(&tracker);
    run(connection, customer, request, &tracker, &mut *stage, daily)
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
    let mut clock = Instant::now();
    let mut staged = staging::stage_upload(connection, request, tracker, stage)?;
    if staged.is_empty() {
        return Ok(LoadSummary {
            rows: 0,
            replaced_rows: 0,
            files: std::mem::take(&mut staged.files),
            billing_periods: Vec::new(),
            totals: Vec::new(),
        });
    }
    phase("stage and billing periods", &mut clock);
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
    staged.insert_files(
        &transaction,
        |view| {
            format!(
                "INSERT INTO {COST_TABLE} (customer_id, load_id, charge_date, {columns}) \
                 SELECT ?, ?, CAST(charge_period_start AS DATE), {columns} FROM {view}"
            )
        },
        params![customer, request.load_id],
    )?;
    phase("insert", &mut clock);

    // The rows this load wrote, by its id (a scan skips every other load's row groups), not by
    // a join on its periods: the optimizer sees no statistics of rows not yet committed and
    // plans such a join with the whole load in memory (it ran out of 384 MiB at 10M rows).
    // `customer` is an integer and the load id a quoted literal.
    let mut loaded_rows = format!(
        "(SELECT * FROM {COST_TABLE} r WHERE customer_id = {customer} AND load_id = {}",
        costscope_core::normalised::sql::quote_literal(&request.load_id),
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
    staged.keep("staged_keys");
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
        &staged.files,
    )?;
    test_pause("before the load's commit");
    transaction.commit().map_err(engine_error)?;
    test_pause("after the load's commit");
    phase("commit", &mut clock);
    let files = std::mem::take(&mut staged.files);
    drop(staged);

    Ok(LoadSummary {
        rows,
        replaced_rows,
        files,
        billing_periods,
        totals,
    })
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
            costscope_core::normalised::sql::quote_literal(load_id)
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
