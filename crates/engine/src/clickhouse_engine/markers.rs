//! Load markers on shard 0, as the DuckDB engine keeps them: what a load committed (its
//! tenant, rows, replaced rows, files and the count and sums of each billing period and
//! currency), read at start-up to record a load that a crash left running
//! ([`super::ClickHouseEngine::committed_load`]).
//!
//! ClickHouse has no transaction over a load's swaps and its marker: the marker is written once
//! every period is swapped in, so a marker means the load committed whole; a crash in between
//! leaves periods swapped without a marker (the job is then failed, and loading the upload again
//! replaces the same periods). A marker's files and keys rows are written before its
//! [`MARKERS`] row and count only with it; a retried load id's last marker wins.

use std::time::{SystemTime, UNIX_EPOCH};

use chrono::{SubsecRound, Utc};
use costscope_clickhouse::{literal, Client, DateTime};
use costscope_ingest::Format;
use duckdb::{params, Connection};

use super::schema::{MARKERS, MARKER_FILES, MARKER_KEYS};
use crate::duckdb_engine::staging::{billing_periods, engine_error, totals};
use crate::{EngineError, FileSummary, LoadError, LoadSummary};

/// The count and sums of one billing period and currency of a load (DuckDB's text of them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct MarkerKey {
    pub(crate) provider: String,
    pub(crate) billing_account_id: String,
    /// `YYYY-MM-DD`.
    pub(crate) billing_period_start: String,
    pub(crate) currency: String,
    pub(crate) line_items: u64,
    pub(crate) billed: String,
    pub(crate) effective: String,
    pub(crate) list: String,
}

/// The keys of DuckDB table `keys` (`provider, billing_account_id, billing_period_start,
/// currency, line_items, billed, effective, list`), in order.
pub(crate) fn staged_keys(
    connection: &Connection,
    keys: &str,
) -> Result<Vec<MarkerKey>, LoadError> {
    let mut statement = connection
        .prepare(&format!(
            "SELECT provider, billing_account_id, CAST(billing_period_start AS VARCHAR), \
             currency, line_items, CAST(billed AS VARCHAR), CAST(effective AS VARCHAR), \
             CAST(list AS VARCHAR) FROM {keys} \
             ORDER BY provider, billing_account_id, billing_period_start, currency"
        ))
        .map_err(engine_error)?;
    let rows = statement
        .query_map([], |row| {
            Ok(MarkerKey {
                provider: row.get(0)?,
                billing_account_id: row.get(1)?,
                billing_period_start: row.get(2)?,
                currency: row.get(3)?,
                line_items: row.get::<_, i64>(4)?.max(0).unsigned_abs(),
                billed: row.get(5)?,
                effective: row.get(6)?,
                list: row.get(7)?,
            })
        })
        .map_err(engine_error)?;
    rows.collect::<Result<_, _>>().map_err(engine_error)
}

/// A new marker id: the time in nanoseconds (loads run one at a time), which also names the
/// load's staging tables.
pub(crate) fn new_marker() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_nanos() as u64)
}

/// What a committed load writes.
pub(crate) struct Marker<'a> {
    pub(crate) load_id: &'a str,
    pub(crate) marker: u64,
    pub(crate) customer: i64,
    pub(crate) rows: u64,
    pub(crate) replaced_rows: u64,
    pub(crate) files: &'a [FileSummary],
    pub(crate) keys: &'a [MarkerKey],
}

/// Writes `marker` on `shard` (shard 0): its files and keys, then its row.
pub(crate) async fn record(
    shard: &Client,
    marker: &Marker<'_>,
) -> Result<(), costscope_clickhouse::Error> {
    let id = marker.marker;
    let files: Vec<_> = marker
        .files
        .iter()
        .enumerate()
        .map(|(position, file)| {
            (
                marker.load_id.to_owned(),
                id,
                position as u32,
                file.name.clone(),
                file.format.name().to_owned(),
                file.rows,
            )
        })
        .collect();
    shard
        .insert_tsv(
            MARKER_FILES,
            &["load_id", "marker", "position", "name", "format", "rows"],
            files,
        )
        .await?;
    let keys: Vec<_> = marker
        .keys
        .iter()
        .map(|key| {
            (
                marker.load_id.to_owned(),
                id,
                key.provider.clone(),
                key.billing_account_id.clone(),
                key.billing_period_start.clone(),
                key.currency.clone(),
                key.line_items,
                key.billed.clone(),
                key.effective.clone(),
                key.list.clone(),
            )
        })
        .collect();
    shard
        .insert_tsv(
            MARKER_KEYS,
            &[
                "load_id",
                "marker",
                "provider",
                "billing_account_id",
                "billing_period_start",
                "currency",
                "line_items",
                "billed",
                "effective",
                "list",
            ],
            keys,
        )
        .await?;
    let now = DateTime::new(Utc::now().trunc_subsecs(0))?;
    shard
        .insert_tsv(
            MARKERS,
            &[
                "load_id",
                "marker",
                "customer_id",
                "rows",
                "replaced_rows",
                "committed_at",
            ],
            [(
                marker.load_id.to_owned(),
                id,
                marker.customer,
                marker.rows,
                marker.replaced_rows,
                now,
            )],
        )
        .await?;
    Ok(())
}

/// What `shard` (shard 0) holds of load `load_id`: `None` when it never committed.
pub(crate) async fn committed_load(
    shard: &Client,
    load_id: &str,
) -> Result<Option<(i64, LoadSummary)>, EngineError> {
    let fail =
        |error: costscope_clickhouse::Error| EngineError::Database(format!("ClickHouse: {error}"));
    let unreadable = |error: costscope_clickhouse::tsv::TsvError| {
        EngineError::Database(format!("ClickHouse load marker: {error}"))
    };
    let id = literal::string(load_id);
    let markers = shard
        .query_tsv(&format!(
            "SELECT marker, customer_id, rows, replaced_rows FROM {} WHERE load_id = {id} \
             ORDER BY marker DESC LIMIT 1",
            literal::identifier(MARKERS)
        ))
        .await
        .map_err(fail)?;
    let Some(row) = markers.first() else {
        return Ok(None);
    };
    let marker: u64 = row.parse(0).map_err(unreadable)?;
    let customer: i64 = row.parse(1).map_err(unreadable)?;
    let rows: u64 = row.parse(2).map_err(unreadable)?;
    let replaced_rows: u64 = row.parse(3).map_err(unreadable)?;
    let of_marker = format!("load_id = {id} AND marker = {}", literal::integer(marker));
    let mut files = Vec::new();
    for row in shard
        .query_tsv(&format!(
            "SELECT name, format, rows FROM {} WHERE {of_marker} ORDER BY position",
            literal::identifier(MARKER_FILES)
        ))
        .await
        .map_err(fail)?
    {
        let Ok(format) = row.text(1).map_err(unreadable)?.parse::<Format>() else {
            continue;
        };
        files.push(FileSummary {
            name: row.text(0).map_err(unreadable)?.to_owned(),
            format,
            rows: row.parse(2).map_err(unreadable)?,
        });
    }
    let keys = shard
        .query_tsv(&format!(
            "SELECT provider, billing_account_id, billing_period_start, currency, line_items, \
             billed, effective, list FROM {} WHERE {of_marker}",
            literal::identifier(MARKER_KEYS)
        ))
        .await
        .map_err(fail)?;
    // The billing periods and totals as the DuckDB engine computes them from its marker keys.
    let database = |error: duckdb::Error| EngineError::Database(error.to_string());
    let loaded = |error: LoadError| EngineError::Database(error.to_string());
    let connection = Connection::open_in_memory().map_err(database)?;
    connection
        .execute_batch(
            "CREATE TABLE marker_keys (provider VARCHAR, billing_account_id VARCHAR, \
             billing_period_start DATE, currency VARCHAR, line_items BIGINT, \
             billed DECIMAL(38,9), effective DECIMAL(38,9), list DECIMAL(38,9))",
        )
        .map_err(database)?;
    for key in &keys {
        let text = |i| key.text(i).map_err(unreadable);
        connection
            .execute(
                "INSERT INTO marker_keys VALUES (?, ?, CAST(? AS DATE), ?, ?, \
                 CAST(? AS DECIMAL(38,9)), CAST(? AS DECIMAL(38,9)), CAST(? AS DECIMAL(38,9)))",
                params![
                    text(0)?,
                    text(1)?,
                    text(2)?,
                    text(3)?,
                    key.parse::<i64>(4).map_err(unreadable)?,
                    text(5)?,
                    text(6)?,
                    text(7)?
                ],
            )
            .map_err(database)?;
    }
    Ok(Some((
        customer,
        LoadSummary {
            rows,
            replaced_rows,
            files,
            billing_periods: billing_periods(&connection, "marker_keys").map_err(loaded)?,
            totals: totals(&connection, "marker_keys").map_err(loaded)?,
        },
    )))
}
