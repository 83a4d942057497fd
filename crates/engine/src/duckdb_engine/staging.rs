//! Staging an upload on a DuckDB connection, for either engine: each file read, checked and
//! normalised into a temp view of [`costscope_core::normalised::NORMALISED_COLUMNS`]
//! (`costscope_ingest::stage_view`), and the billing periods the upload holds. The DuckDB engine
//! inserts those views into its cost table; the ClickHouse engine copies them into a table of an
//! in-memory database and sends that to its shards. A bad file is refused here, or by the insert
//! that reads its view ([`Staged::insert_files`]), with the same message for both.

use std::sync::Arc;

use chrono::NaiveDate;
use costscope_core::cost::Provider;
use costscope_core::normalised::{Format, IngestError};
use duckdb::types::Value;
use duckdb::Connection;

pub(crate) use super::load::apply_settings;
pub(crate) use super::progress::Tracker;
use super::progress::{file_size, ReadWatch};
use super::read::date_of;
use super::rollups;
use crate::{
    BillingPeriodKey, FileSummary, LoadError, LoadPhase, LoadRequest, ProviderTotals, SourceFile,
};

/// Stages one file of an upload: creates the TEMP table or view `table` on `connection` with
/// exactly [`costscope_core::normalised::NORMALISED_COLUMNS`], or refuses the file. Answers the file's
/// format and its rows (for the progress; the file's summary counts the rows its insert writes).
pub type Stager<'a> = dyn FnMut(&Connection, &SourceFile, Option<Format>, &str) -> Result<(Format, u64), IngestError>
    + Send
    + 'a;

/// The temp table of the billing periods an upload holds (`provider, billing_account_id,
/// billing_period_start`): what the load replaces.
pub(crate) const PERIODS_TABLE: &str = "staged_periods";

/// The real stager (`costscope_ingest::stage_view`), which also says when a file has been read
/// whole (the progress's `checking` phase).
pub(crate) fn file_stager(tracker: &Arc<Tracker>) -> Box<Stager<'static>> {
    let observer = Arc::clone(tracker);
    Box::new(
        move |connection: &Connection,
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
        },
    )
}

pub(crate) fn engine_error(error: duckdb::Error) -> LoadError {
    LoadError::Engine(error.to_string())
}

/// The staged files of one upload, and the temp relations dropped when it ends, whatever happens.
pub(crate) struct Staged<'a> {
    connection: &'a Connection,
    names: Vec<String>,
    /// One per file, in order; `rows` is what [`Staged::insert_files`] wrote.
    pub(crate) files: Vec<FileSummary>,
    /// The view (or table) of each file's normalised rows.
    file_tables: Vec<String>,
}

impl Staged<'_> {
    /// No file was given: nothing is staged and [`PERIODS_TABLE`] does not exist.
    pub(crate) fn is_empty(&self) -> bool {
        self.file_tables.is_empty()
    }

    /// `name` is a temp relation of this load too: dropped with the others.
    pub(crate) fn keep(&mut self, name: &str) {
        self.names.push(name.to_owned());
    }

    /// Runs `insert(view)` on `connection` (the staging connection, or a transaction on it) for
    /// each file's view of normalised rows, in order, and records the rows each wrote. An error
    /// is the file's ([`costscope_ingest::file_error`]): its rows are read here for the first time.
    pub(crate) fn insert_files(
        &mut self,
        connection: &Connection,
        insert: impl Fn(&str) -> String,
        params: impl duckdb::Params + Clone,
    ) -> Result<(), LoadError> {
        for (file, table) in self.files.iter_mut().zip(&self.file_tables) {
            let inserted = connection
                .execute(&insert(&format!("temp.{table}")), params.clone())
                .map_err(|error| {
                    LoadError::Invalid(costscope_ingest::file_error(&file.name, error))
                })?;
            file.rows = inserted as u64;
        }
        Ok(())
    }
}

impl Drop for Staged<'_> {
    fn drop(&mut self) {
        for name in &self.names {
            costscope_ingest::unstage(self.connection, name);
        }
    }
}

/// Stages every file of `request` with `stage` (a view per file), then — moving the progress to
/// [`LoadPhase::Writing`] — the billing periods they hold in [`PERIODS_TABLE`] (one scan of each
/// file's key columns; a file whose key columns cannot be read is named).
pub(crate) fn stage_upload<'a>(
    connection: &'a Connection,
    request: &LoadRequest,
    tracker: &Arc<Tracker>,
    stage: &mut Stager<'_>,
) -> Result<Staged<'a>, LoadError> {
    let mut staged = Staged {
        connection,
        names: Vec::new(),
        files: Vec::with_capacity(request.files.len()),
        file_tables: Vec::with_capacity(request.files.len()),
    };
    for (index, file) in request.files.iter().enumerate() {
        tracker.file_started(index, &file.display_name);
        let table = format!("staged_{index}");
        costscope_ingest::unstage(connection, &table);
        staged.names.push(table.clone());
        let watch = ReadWatch::start(tracker, &file.path);
        let (format, rows) = stage(connection, file, request.format, &table)?;
        drop(watch);
        tracker.file_staged(rows, file_size(&file.path));
        staged.files.push(FileSummary {
            name: file.display_name.clone(),
            format,
            rows,
        });
        staged.file_tables.push(table);
    }
    if staged.is_empty() {
        return Ok(staged);
    }
    tracker.phase(LoadPhase::Writing);
    staged.keep(PERIODS_TABLE);
    connection
        .execute_batch(&format!(
            "CREATE OR REPLACE TEMP TABLE {PERIODS_TABLE} AS SELECT {} FROM temp.{} LIMIT 0",
            rollups::PERIOD_KEYS,
            staged.file_tables[0]
        ))
        .map_err(engine_error)?;
    for (file, table) in staged.files.iter().zip(&staged.file_tables) {
        connection
            .execute_batch(&format!(
                "INSERT INTO {PERIODS_TABLE} SELECT DISTINCT {} FROM temp.{table}",
                rollups::PERIOD_KEYS
            ))
            .map_err(|error| LoadError::Invalid(costscope_ingest::file_error(&file.name, error)))?;
    }
    Ok(staged)
}

fn provider_of(code: &str) -> Result<Provider, LoadError> {
    code.parse::<Provider>()
        .map_err(|error| LoadError::Engine(format!("staged rows: {error}")))
}

/// The billing periods of `keys` (the staged keys, or a load marker's keys).
pub(crate) fn billing_periods(
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

/// Rows and sums per provider of `keys` (`provider, currency, line_items, billed, effective,
/// list` per billing period and currency), with its most common currency (ties: the first by
/// name).
pub(crate) fn totals(
    connection: &Connection,
    keys: &str,
) -> Result<Vec<ProviderTotals>, LoadError> {
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
