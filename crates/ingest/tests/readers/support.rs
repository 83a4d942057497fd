use std::path::{Path, PathBuf};

use costscope_ingest::{stage, Format, IngestError, StagedFile};
use duckdb::Connection;

pub fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// Stages `fixtures/{name}` into table `staged` of a fresh in-memory database.
pub fn load(name: &str, format: Option<Format>) -> (Connection, StagedFile) {
    let conn = Connection::open_in_memory().unwrap();
    let staged = try_load(&conn, name, format).unwrap_or_else(|e| panic!("{name}: {e}"));
    (conn, staged)
}

pub fn try_load(
    conn: &Connection,
    name: &str,
    format: Option<Format>,
) -> Result<StagedFile, IngestError> {
    let path = fixture(name);
    let display = path.file_name().unwrap().to_string_lossy().into_owned();
    stage(conn, &path, &display, format, "staged")
}

/// The refusal message of staging `fixtures/{name}`.
pub fn refusal(name: &str, format: Option<Format>) -> String {
    let conn = Connection::open_in_memory().unwrap();
    match try_load(&conn, name, format) {
        Ok(staged) => panic!("{name} loaded ({staged:?}) but should have been refused"),
        Err(error) => error.message,
    }
}

/// Strings of a query's single-column-or-more rows (every value cast to VARCHAR by the query).
pub fn rows(conn: &Connection, sql: &str) -> Vec<Vec<String>> {
    let mut stmt = conn.prepare(sql).unwrap();
    let mut out = Vec::new();
    let mut result = stmt.query([]).unwrap();
    while let Some(row) = result.next().unwrap() {
        let n = row.as_ref().column_count();
        out.push(
            (0..n)
                .map(|i| text(row.get::<_, duckdb::types::Value>(i).unwrap()))
                .collect(),
        );
    }
    out
}

/// Per day (charge period start) and service: billed, effective and list totals with 9
/// decimals, as `expected_totals.py` prints them.
pub fn daily_service_totals(conn: &Connection) -> Vec<[String; 5]> {
    rows(
        conn,
        "SELECT CAST(CAST(charge_period_start AS DATE) AS VARCHAR), service, \
         CAST(sum(billed_cost) AS VARCHAR), CAST(sum(effective_cost) AS VARCHAR), CAST(sum(list_cost) AS VARCHAR) \
         FROM staged GROUP BY ALL ORDER BY 1, 2",
    )
    .into_iter()
    .map(|r| [r[0].clone(), r[1].clone(), r[2].clone(), r[3].clone(), r[4].clone()])
    .collect()
}

pub fn expect_totals(conn: &Connection, expected: &[[&str; 5]]) {
    let actual = daily_service_totals(conn);
    let expected: Vec<[String; 5]> = expected.iter().map(|r| r.map(str::to_owned)).collect();
    assert_eq!(actual, expected);
}

/// `SELECT DISTINCT` of one expression over the staged rows, sorted.
pub fn distinct(conn: &Connection, expr: &str) -> Vec<String> {
    rows(
        conn,
        &format!("SELECT DISTINCT CAST({expr} AS VARCHAR) AS v FROM staged ORDER BY v"),
    )
    .into_iter()
    .map(|mut r| r.remove(0))
    .collect()
}

/// The staged table's columns and types, to compare with NORMALISED_COLUMNS.
pub fn staged_columns(conn: &Connection) -> Vec<(String, String)> {
    rows(conn, "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'staged' ORDER BY ordinal_position")
        .into_iter()
        .map(|r| (r[0].clone(), r[1].clone()))
        .collect()
}

fn text(value: duckdb::types::Value) -> String {
    use duckdb::types::Value;
    match value {
        Value::Null => String::new(),
        Value::Text(text) => text,
        Value::BigInt(n) => n.to_string(),
        Value::Int(n) => n.to_string(),
        Value::HugeInt(n) => n.to_string(),
        Value::UBigInt(n) => n.to_string(),
        Value::Boolean(b) => b.to_string(),
        other => panic!("cast {other:?} to VARCHAR in the test query"),
    }
}
