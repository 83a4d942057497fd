//! The FOCUS export: DuckDB writes the file itself (`COPY … TO`), streaming the rows, so an
//! export of any size needs no more memory than DuckDB's own buffers.

use std::collections::HashSet;
use std::path::Path;

use costscope_core::focus::FocusExportRequest;
use duckdb::Connection;

use super::database_error;
use crate::export_query;
use crate::query_builder::COST_TABLE;
use crate::{EngineError, ExportSummary};

pub(crate) fn export_focus(
    connection: &Connection,
    customer: i64,
    request: &FocusExportRequest,
    target: &Path,
) -> Result<ExportSummary, EngineError> {
    let target = target.to_str().ok_or_else(|| {
        EngineError::Database(format!(
            "the export path {} is not valid UTF-8",
            target.display()
        ))
    })?;
    let stored = stored_columns(connection)?;
    let extra = if stored.contains("extra") {
        extra_keys(connection, customer, request)?
    } else {
        Vec::new()
    };
    let sql = export_query::focus_export(
        customer,
        request,
        target,
        &|column| stored.contains(column),
        &extra,
    );
    let rows = connection.execute(&sql, []).map_err(database_error)?;
    Ok(ExportSummary { rows: rows as u64 })
}

/// The custom column names stored for the export's rows.
fn extra_keys(
    connection: &Connection,
    customer: i64,
    request: &FocusExportRequest,
) -> Result<Vec<String>, EngineError> {
    let mut statement = connection
        .prepare(&export_query::extra_keys(customer, request))
        .map_err(database_error)?;
    let keys = statement
        .query_map([], |row| row.get::<_, String>(0))
        .map_err(database_error)?;
    keys.collect::<Result<Vec<_>, _>>().map_err(database_error)
}

/// The cost table's columns (the export reads the optional ones it has).
fn stored_columns(connection: &Connection) -> Result<HashSet<String>, EngineError> {
    let mut statement = connection
        .prepare("SELECT column_name FROM information_schema.columns WHERE table_name = ?")
        .map_err(database_error)?;
    let names = statement
        .query_map([COST_TABLE], |row| row.get::<_, String>(0))
        .map_err(database_error)?;
    names
        .collect::<Result<HashSet<_>, _>>()
        .map_err(database_error)
}
