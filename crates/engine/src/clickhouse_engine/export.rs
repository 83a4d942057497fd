//! The FOCUS export on ClickHouse: the same file, byte for byte, as the DuckDB engine writes,
//! written by the same code. ClickHouse 18.16 writes no Parquet, and the export's formatting is
//! DuckDB's (`export_query`), so the customer's rows of the request's days are read from
//! ClickHouse page by page and put into the cost table of an in-memory DuckDB database of the
//! export's own (the engine's memory limit, spilling to a directory of its own), where
//! [`crate::duckdb_engine::export`] writes the file.
//!
//! Every value arrives exactly: text, dates and decimals as ClickHouse's text of them (cast by
//! DuckDB), timestamps as their microseconds, doubles as their bits, the maps' keys and values
//! hex-encoded (so any byte survives).
//!
//! A page is one charge day, or one of the hash buckets a day of more than [`PAGE_ROWS`] rows is
//! split into, so memory does not grow with the export. Each page is a query of its own: a load
//! that swaps in a billing period while an export reads it can have its pages read on either side
//! of the swap (ClickHouse has no snapshot across queries).

use std::path::Path;

use chrono::NaiveDate;
use costscope_clickhouse::Row;
use costscope_core::cost::CostFilter;
use costscope_core::focus::FocusExportRequest;
use duckdb::types::{TimeUnit, Value};
use duckdb::{appender_params_from_iter, Connection};

use super::load::SpillDir;
use super::schema::{normalised_columns, ColumnKind, NormalisedColumn};
use super::{client_error, ClickHouseEngine};
use crate::duckdb_engine::staging::apply_settings;
use crate::duckdb_engine::{cost_table_sql, database_error, export};
use crate::query_builder::{self, COST_TABLE};
use crate::{EngineError, ExportSummary, LoadSettings};

/// Rows read from ClickHouse at once at most (about: a day's hash buckets are not all equal).
const PAGE_ROWS: u64 = 50_000;

/// The table a page's rows are appended to, as read, before they are cast into the cost table.
const PAGE_TABLE: &str = "export_page";

/// One read of the export: the rows of `day` whose hash is `bucket` of `buckets`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Page {
    day: NaiveDate,
    buckets: u64,
    bucket: u64,
}

pub(super) async fn export_focus(
    engine: &ClickHouseEngine,
    customer: i64,
    request: &FocusExportRequest,
    target: &Path,
) -> Result<ExportSummary, EngineError> {
    let scope = scope(engine, customer, request);
    let settings = engine.load_settings();
    let mut scratch = tokio::task::spawn_blocking(move || Scratch::open(&settings))
        .await
        .map_err(task_failed)??;
    for page in pages(engine, &scope).await? {
        let rows = engine
            .client()
            .query_tsv(&page_sql(engine, &scope, page))
            .await
            .map_err(client_error)?;
        scratch = tokio::task::spawn_blocking(move || {
            scratch.insert(customer, &rows)?;
            Ok::<_, EngineError>(scratch)
        })
        .await
        .map_err(task_failed)??;
    }
    let (request, target) = (*request, target.to_path_buf());
    tokio::task::spawn_blocking(move || {
        export::export_focus(&scratch.connection, customer, &request, &target)
    })
    .await
    .map_err(task_failed)?
}

fn task_failed(error: tokio::task::JoinError) -> EngineError {
    EngineError::Database(format!("export task failed: {error}"))
}

/// `customer_id = … AND` the request's days, in ClickHouse's SQL (the query builder's scope: the
/// DuckDB export's own condition is applied again to the rows read).
fn scope(engine: &ClickHouseEngine, customer: i64, request: &FocusExportRequest) -> String {
    let range = request.range();
    query_builder::scope_in(
        engine.dialect(),
        customer,
        Some(&range),
        &CostFilter::default(),
    )
    .text
}

/// The pages of the export: each day with rows, split into enough buckets that each holds about
/// [`PAGE_ROWS`] rows.
async fn pages(engine: &ClickHouseEngine, scope: &str) -> Result<Vec<Page>, EngineError> {
    let sql = format!(
        "SELECT charge_date, count() FROM {} WHERE {scope} GROUP BY charge_date ORDER BY charge_date",
        engine.dialect().table(COST_TABLE)
    );
    let mut pages = Vec::new();
    for row in engine
        .client()
        .query_tsv(&sql)
        .await
        .map_err(client_error)?
    {
        let day: NaiveDate = row.parse(0).map_err(unreadable)?;
        let rows: u64 = row.parse(1).map_err(unreadable)?;
        let buckets = rows.div_ceil(PAGE_ROWS).max(1);
        pages.extend((0..buckets).map(|bucket| Page {
            day,
            buckets,
            bucket,
        }));
    }
    Ok(pages)
}

fn unreadable(error: impl std::fmt::Display) -> EngineError {
    EngineError::Database(format!("ClickHouse export rows: {error}"))
}

/// The columns that spread a day's rows over its buckets: identical rows share a bucket, which
/// is all a split needs (every row is in exactly one).
const BUCKET_HASH: &str = "cityHash64(load_id, provider, billing_account_id, account_id, service, \
     resource_id, usage_type, charge_period_start_us, charge_period_end_us, \
     toString(billed_cost), toString(effective_cost), usage_quantity_bits)";

fn page_sql(engine: &ClickHouseEngine, scope: &str, page: Page) -> String {
    let columns = normalised_columns();
    let selected: Vec<String> = ["load_id".to_owned(), "charge_date".to_owned()]
        .into_iter()
        .chain(columns.iter().flat_map(selected))
        .collect();
    let mut sql = format!(
        "SELECT {} FROM {} WHERE {scope} AND charge_date = toDate('{}')",
        selected.join(", "),
        engine.dialect().table(COST_TABLE),
        page.day.format("%Y-%m-%d")
    );
    if page.buckets > 1 {
        sql.push_str(&format!(
            " AND {BUCKET_HASH} % {} = {}",
            page.buckets, page.bucket
        ));
    }
    sql
}

/// A ClickHouse array of strings as one text: each element `x` and its bytes in hex, joined by
/// commas (`''` for an empty array).
fn hexed_array(column: &str) -> String {
    format!("arrayStringConcat(arrayMap(x -> concat('x', hex(x)), {column}), ',')")
}

/// [`hexed_array`]'s text back as a DuckDB `VARCHAR[]`.
fn unhexed_list(column: &str) -> String {
    format!(
        "CASE WHEN {column} = '' THEN CAST([] AS VARCHAR[]) ELSE \
         list_transform(string_split({column}, ','), lambda x: decode(unhex(x[2:]))) END"
    )
}

/// What the export reads of one stored column, in the order [`page_columns`] holds it.
fn selected(column: &NormalisedColumn) -> Vec<String> {
    let name = column.name;
    match column.kind {
        ColumnKind::Text | ColumnKind::Date | ColumnKind::Decimal => vec![name.to_owned()],
        ColumnKind::Timestamp => vec![format!("{name}_us")],
        ColumnKind::Double => vec![format!("{name}_bits")],
        ColumnKind::Map => {
            let mut read = vec![
                hexed_array(&format!("{name}_keys")),
                hexed_array(&format!("{name}_values")),
            ];
            if column.nullable {
                read.push(format!("{name}_present"));
            }
            read
        }
    }
}

/// The page table's columns for one stored column (`name TYPE`).
fn page_columns(column: &NormalisedColumn) -> Vec<String> {
    let name = column.name;
    match column.kind {
        ColumnKind::Text | ColumnKind::Date | ColumnKind::Decimal => {
            vec![format!("{name} VARCHAR")]
        }
        ColumnKind::Timestamp => vec![format!("{name} TIMESTAMP")],
        ColumnKind::Double => vec![format!("{name} DOUBLE")],
        ColumnKind::Map => {
            let mut columns = vec![
                format!("{name}_keys VARCHAR"),
                format!("{name}_values VARCHAR"),
            ];
            if column.nullable {
                columns.push(format!("{name}_present BOOLEAN"));
            }
            columns
        }
    }
}

/// The cost table's value of one stored column, from the page table.
fn stored(column: &NormalisedColumn) -> String {
    let name = column.name;
    match column.kind {
        ColumnKind::Text | ColumnKind::Timestamp | ColumnKind::Double => name.to_owned(),
        ColumnKind::Date => format!("CAST({name} AS DATE)"),
        ColumnKind::Decimal => format!("CAST({name} AS DECIMAL(18,9))"),
        ColumnKind::Map => {
            let map = format!(
                "map({}, {})",
                unhexed_list(&format!("{name}_keys")),
                unhexed_list(&format!("{name}_values"))
            );
            if column.nullable {
                format!("CASE WHEN {name}_present THEN {map} END")
            } else {
                map
            }
        }
    }
}

/// The page table's values of one stored column from a ClickHouse row's cells, from `at` on.
fn values_of(
    column: &NormalisedColumn,
    row: &Row,
    at: &mut usize,
    out: &mut Vec<Value>,
) -> Result<(), EngineError> {
    let mut next = || {
        let cell = row.opt(*at).map_err(unreadable);
        *at += 1;
        cell
    };
    let text = |cell: Option<&str>| cell.map_or(Value::Null, |text| Value::Text(text.to_owned()));
    let number = |cell: &str| {
        cell.parse::<i64>()
            .map_err(|_| unreadable(format!("`{cell}` in {} is not an integer", column.name)))
    };
    match column.kind {
        ColumnKind::Text | ColumnKind::Date | ColumnKind::Decimal => out.push(text(next()?)),
        ColumnKind::Timestamp => out.push(match next()? {
            None => Value::Null,
            Some(cell) => Value::Timestamp(TimeUnit::Microsecond, number(cell)?),
        }),
        ColumnKind::Double => out.push(match next()? {
            None => Value::Null,
            Some(cell) => Value::Double(f64::from_bits(cell.parse::<u64>().map_err(|_| {
                unreadable(format!(
                    "`{cell}` in {} is not a double's bits",
                    column.name
                ))
            })?)),
        }),
        ColumnKind::Map => {
            out.push(text(next()?));
            out.push(text(next()?));
            if column.nullable {
                out.push(Value::Boolean(next()? == Some("1")));
            }
        }
    }
    Ok(())
}

/// The export's in-memory DuckDB database: the cost table and the page table.
struct Scratch {
    connection: Connection,
    columns: Vec<NormalisedColumn>,
    /// `INSERT INTO` the cost table `SELECT` from the page table.
    insert: String,
    /// Removed with the database (DuckDB spills there beyond its memory limit).
    _spill: SpillDir,
}

impl Scratch {
    fn open(settings: &LoadSettings) -> Result<Self, EngineError> {
        let connection = Connection::open_in_memory().map_err(database_error)?;
        let spill = SpillDir::new(settings.temp_directory.as_ref());
        apply_settings(
            &connection,
            &LoadSettings {
                memory_limit: settings.memory_limit,
                temp_directory: Some(spill.0.clone()),
            },
        )?;
        let columns = normalised_columns();
        let page_table: Vec<String> = [
            "load_id VARCHAR".to_owned(),
            "charge_date VARCHAR".to_owned(),
        ]
        .into_iter()
        .chain(columns.iter().flat_map(page_columns))
        .collect();
        connection
            .execute_batch(&format!(
                "{} CREATE TABLE {PAGE_TABLE} ({});",
                cost_table_sql(),
                page_table.join(", ")
            ))
            .map_err(database_error)?;
        let names: Vec<&str> = columns.iter().map(|column| column.name).collect();
        let values: Vec<String> = columns.iter().map(stored).collect();
        let insert = format!(
            "INSERT INTO {COST_TABLE} (customer_id, load_id, charge_date, {}) \
             SELECT ?, load_id, CAST(charge_date AS DATE), {} FROM {PAGE_TABLE}",
            names.join(", "),
            values.join(", ")
        );
        Ok(Self {
            connection,
            columns,
            insert,
            _spill: spill,
        })
    }

    /// Adds one page's rows (as [`page_sql`] reads them) to the cost table.
    fn insert(&mut self, customer: i64, rows: &[Row]) -> Result<(), EngineError> {
        {
            let mut appender = self
                .connection
                .appender(PAGE_TABLE)
                .map_err(database_error)?;
            let mut values = Vec::new();
            for row in rows {
                values.clear();
                values.push(Value::Text(row.text(0).map_err(unreadable)?.to_owned()));
                values.push(Value::Text(row.text(1).map_err(unreadable)?.to_owned()));
                let mut at = 2;
                for column in &self.columns {
                    values_of(column, row, &mut at, &mut values)?;
                }
                appender
                    .append_row(appender_params_from_iter(values.iter()))
                    .map_err(database_error)?;
            }
            appender.flush().map_err(database_error)?;
        }
        self.connection
            .execute(&self.insert, [customer])
            .map_err(database_error)?;
        self.connection
            .execute_batch(&format!("DELETE FROM {PAGE_TABLE}"))
            .map_err(database_error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_stored_column_is_read_as_many_times_as_the_page_table_holds_it() {
        for column in normalised_columns() {
            assert_eq!(
                selected(&column).len(),
                page_columns(&column).len(),
                "{}",
                column.name
            );
        }
    }

    #[test]
    fn hexed_arrays_come_back_as_the_same_lists() {
        let scratch = Scratch::open(&LoadSettings::default()).unwrap();
        // As `hexed_array` writes [], [''], ['a', ''] and ["é\t'"] (its UTF-8 bytes).
        let cases: [(&str, &[&str]); 4] = [
            ("", &[]),
            ("x", &[""]),
            ("x61,x", &["a", ""]),
            ("xC3A90927", &["é\t'"]),
        ];
        for (text, expected) in cases {
            let list: Value = scratch
                .connection
                .query_row(
                    &format!(
                        "SELECT {} FROM (SELECT CAST(? AS VARCHAR) AS t)",
                        unhexed_list("t")
                    ),
                    [text],
                    |row| row.get(0),
                )
                .unwrap();
            let expected = expected
                .iter()
                .map(|item| Value::Text((*item).to_owned()))
                .collect();
            assert_eq!(list, Value::List(expected), "{text:?}");
        }
    }
}
