//! The FOCUS export of the ClickHouse engine is the DuckDB engine's file: the same rows loaded
//! into both engines, the same requests (every version, CSV and Parquet, ranges with rows, part
//! of them and none), the same CSV byte for byte and the same Parquet contents as DuckDB reads
//! them (column names, types and every value).
//!
//! The tenants: the vendor fixture files through both engines' real loads (their custom `x_`
//! and FOCUS 1.3 columns), hand-made lines of the shared suite, a generated tenant filling every
//! stored column (NULL and empty text, doubles, timestamps to the microsecond, maps with tabs,
//! quotes and non-ASCII text, custom columns) with days of more rows than one ClickHouse page
//! holds, and a tenant without rows. ClickHouse runs on the local shards of
//! `make ensure-clickhouse` (or `COSTSCOPE_TEST_CLICKHOUSE_URL`); the test fails, never skips,
//! when none answers.

mod support;
mod support_clickhouse;

use std::path::{Path, PathBuf};

use chrono::NaiveDate;
use costscope_core::focus::{ExportFormat, FocusExportRequest, FocusVersion};
use costscope_engine::{
    ClickHouseEngine, CostEngine, DuckDbEngine, LoadRequest, LoadSummary, SourceFile,
};
use costscope_ingest::{Format, IngestError, NORMALISED_COLUMNS};
use duckdb::types::Value;
use support::*;

/// The vendor fixture files.
const FILES: i64 = 41;
/// The shared suite's hand-made lines.
const LINES: i64 = 42;
/// Generated rows filling every column.
const GENERATED: i64 = 43;
/// No rows at all.
const NOBODY: i64 = 44;

/// The generated tenant's rows: over two days, each of more than the 50,000 rows a ClickHouse
/// read of the export holds.
const GENERATED_ROWS: i64 = 130_000;

const FIXTURES: [&str; 7] = [
    "aws_focus_1_2.csv.gz",
    "focus_1_3_allocated.csv",
    "focus_1_4.csv",
    "focus_mixed_providers_currencies.csv",
    "gcp_focus_view.csv",
    "microsoft_focus_export.csv",
    "oci_focus_report.csv.gz",
];

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../ingest/tests/fixtures/vendors")
        .join(name)
}

fn hand_made_lines() -> Vec<Line> {
    vec![
        Line::new("2026-01-01 00:00:00", "100.1").tag("team", "data"),
        Line::new("2026-01-01 00:00:00", "100.1").tag("team", "data"),
        Line::new("2026-01-01 13:45:00", "0.000000001")
            .tag("quote'\"", "tab\tline\nend")
            .tag("ünï", ""),
        Line::new("2026-01-02 08:00:00", "9007199.254740993")
            .service("AmazonS3")
            .resource("")
            .currency("EUR"),
        Line::new("2026-01-31 23:59:59", "-20.25")
            .provider("gcp")
            .cost_type("Credit"),
        Line::new("2026-02-01 00:00:00", "7.77").provider("azure"),
    ]
}

/// The generated tenant's value of each stored column for row `i` (DuckDB SQL).
fn generated_value(column: &str) -> String {
    let decimal = |seed: u64| {
        format!(
            "CAST(CAST((i * {seed} * 104729) % 1999999999987 - 999999999993 AS DECIMAL(18,0)) \
             * CAST('0.000000001' AS DECIMAL(10,9)) AS DECIMAL(18,9))"
        )
    };
    let text = match column {
        "provider" => "CASE i % 3 WHEN 0 THEN 'aws' WHEN 1 THEN 'gcp' ELSE 'azure' END",
        "billing_account_id" => "'ba-' || (i % 2)",
        "account_id" => "'acct-' || (i % 5)",
        "account_name" => {
            "CASE WHEN i % 5 = 0 THEN 'Name, \"q\" ''s' || chr(10) || 'line' ELSE 'Account ' || (i % 5) END"
        }
        "charge_period_start" => "TIMESTAMP '2026-02-10 00:00:00' + to_microseconds(i * 1234567)",
        "charge_period_end" => {
            "TIMESTAMP '2026-02-10 00:00:00' + to_microseconds(i * 1234567) + INTERVAL 1 HOUR"
        }
        "billing_period_start" => "DATE '2026-02-01'",
        "service" => "'svc-' || (i % 11)",
        "service_category" => {
            "CASE i % 4 WHEN 0 THEN 'Compute' WHEN 1 THEN 'storage' WHEN 2 THEN '' ELSE 'Weird' END"
        }
        "region" => "CASE WHEN i % 6 = 0 THEN '' ELSE 'region-' || (i % 6) END",
        "usage_type" => "'ut-' || (i % 13)",
        "charge_category" => {
            "CASE i % 5 WHEN 0 THEN 'Usage' WHEN 1 THEN 'purchase' WHEN 2 THEN 'Tax' \
             WHEN 3 THEN 'Credit' ELSE 'refund' END"
        }
        "cost_type" => "CASE WHEN i % 9 = 0 THEN '' ELSE 'ct-' || (i % 3) END",
        "resource_id" => "CASE WHEN i % 8 = 0 THEN '' ELSE 'res-' || i END",
        "resource_name" => "'name-' || (i % 17)",
        "resource_type" => "CASE WHEN i % 2 = 0 THEN '' ELSE 'type' END",
        "billed_cost" => return decimal(7919),
        "effective_cost" => return decimal(31),
        "list_cost" => return decimal(1),
        "contracted_cost" => return format!("CASE WHEN i % 2 = 0 THEN NULL ELSE {} END", decimal(3)),
        "currency" => "CASE i % 3 WHEN 0 THEN 'USD' WHEN 1 THEN 'EUR' ELSE 'JPY' END",
        "usage_quantity" => "CAST(i AS DOUBLE) / 7.0",
        "usage_unit" => "CASE WHEN i % 4 = 0 THEN '' ELSE 'Hrs' END",
        "tags" => {
            "CASE i % 4 WHEN 0 THEN map(CAST([] AS VARCHAR[]), CAST([] AS VARCHAR[])) \
             WHEN 1 THEN map(['team', 'empty'], ['web', '']) \
             WHEN 2 THEN map(['k' || (i % 5)], ['tab' || chr(9) || 'nl' || chr(10) || 'q''\"\\']) \
             ELSE map(['ünï', 'b'], ['çødé', 'a']) END"
        }
        "billing_account_name" => "CASE WHEN i % 2 = 0 THEN NULL ELSE 'BA name' END",
        "billing_period_end" => {
            "CASE WHEN i % 3 = 0 THEN NULL ELSE TIMESTAMP '2026-03-01 00:00:00' END"
        }
        "charge_class" => "CASE WHEN i % 10 = 0 THEN 'correction' END",
        "charge_description" => {
            "CASE WHEN i % 4 = 0 THEN NULL WHEN i % 4 = 1 THEN '' ELSE 'desc ' || i END"
        }
        "charge_frequency" => "CASE i % 4 WHEN 0 THEN 'recurring' WHEN 1 THEN 'Usage-Based' END",
        "pricing_quantity" => "CASE WHEN i % 3 = 0 THEN NULL ELSE CAST(i AS DOUBLE) / 3.0 END",
        "pricing_unit" => "CASE WHEN i % 3 = 1 THEN 'Units' END",
        "pricing_category" => "CASE i % 3 WHEN 0 THEN 'standard' WHEN 1 THEN 'Committed' END",
        "sku_id" => "'sku-' || (i % 19)",
        "sku_price_id" | "host_provider" | "region_name" => "NULL",
        "invoice_issuer" => "CASE WHEN i % 2 = 0 THEN 'Reseller' END",
        "commitment_discount_id" => "CASE WHEN i % 7 = 0 THEN 'cd-' || (i % 3) END",
        "commitment_discount_type" => "CASE WHEN i % 7 = 0 THEN 'Savings Plan' END",
        "commitment_discount_status" => "CASE WHEN i % 14 = 0 THEN 'used' END",
        "availability_zone" => "CASE WHEN i % 2 = 0 THEN 'az-1' END",
        "extra" => {
            "CASE i % 4 WHEN 0 THEN NULL \
             WHEN 1 THEN map(['x_Team', 'AllocatedMethodId', 'vendor_col'], ['t' || (i % 3), 'm-1', 'v']) \
             WHEN 2 THEN map(CAST([] AS VARCHAR[]), CAST([] AS VARCHAR[])) \
             ELSE map(['x_Other'], ['o' || chr(9) || '''']) END"
        }
        other => panic!("the generated tenant has no value for the new column {other}"),
    };
    text.to_owned()
}

/// The generated tenant's staged table.
fn generated_sql(table: &str) -> String {
    let definitions: Vec<String> = NORMALISED_COLUMNS
        .iter()
        .map(|(name, kind)| format!("{name} {kind}"))
        .collect();
    let values: Vec<String> = NORMALISED_COLUMNS
        .iter()
        .map(|(name, kind)| {
            format!(
                "CAST({} AS {})",
                generated_value(name),
                kind.trim_end_matches(" NOT NULL")
            )
        })
        .collect();
    format!(
        "CREATE TEMP TABLE {table} ({}); INSERT INTO {table} SELECT {} FROM range({GENERATED_ROWS}) r(i);",
        definitions.join(", "),
        values.join(", ")
    )
}

fn request(load_id: &str, file: PathBuf) -> LoadRequest {
    LoadRequest {
        load_id: load_id.to_owned(),
        files: vec![SourceFile {
            display_name: file.file_name().unwrap().to_string_lossy().into_owned(),
            path: file,
        }],
        format: None,
        progress: None,
    }
}

fn generated_stager() -> Box<costscope_engine::Stager<'static>> {
    Box::new(|connection, _file, _format, table| {
        connection
            .execute_batch(&generated_sql(table))
            .map_err(|error| IngestError::new(error.to_string()))?;
        Ok((Format::Focus, GENERATED_ROWS as u64))
    })
}

/// Both engines holding the same rows of every tenant.
async fn both() -> (DuckDbEngine, ClickHouseEngine) {
    let duckdb = DuckDbEngine::open_in_memory().unwrap();
    load(&duckdb, LINES, hand_made_lines()).await;
    let (clickhouse, _) = support_clickhouse::clickhouse_with(
        "costscope_engines_export",
        vec![(LINES, hand_made_lines())],
        Vec::new(),
    )
    .await;
    for (index, name) in FIXTURES.iter().enumerate() {
        let load_id = format!("file-{index}");
        let embedded = duckdb.load(FILES, request(&load_id, fixture(name))).await;
        let clustered = clickhouse
            .load(FILES, request(&load_id, fixture(name)))
            .await;
        match (embedded, clustered) {
            (Ok(embedded), Ok(clustered)) => assert_same_load(name, &embedded, &clustered),
            (embedded, clustered) => panic!("{name}: {embedded:?} / {clustered:?}"),
        }
    }
    let generated = PathBuf::from("generated.csv");
    let embedded = duckdb
        .load_with(
            GENERATED,
            request("generated", generated.clone()),
            generated_stager(),
        )
        .await
        .unwrap();
    let clustered = clickhouse
        .load_with(
            GENERATED,
            request("generated", generated),
            generated_stager(),
        )
        .await
        .unwrap();
    assert_same_load("generated", &embedded, &clustered);
    assert_eq!(embedded.rows, GENERATED_ROWS as u64);
    (duckdb, clickhouse)
}

fn assert_same_load(name: &str, embedded: &LoadSummary, clustered: &LoadSummary) {
    assert!(embedded.rows > 0, "{name} loaded no rows");
    assert_eq!(embedded.rows, clustered.rows, "{name}");
    assert_eq!(
        embedded.billing_periods, clustered.billing_periods,
        "{name}"
    );
}

fn day(text: &str) -> NaiveDate {
    text.parse().unwrap()
}

/// A request of `first..=last` (built directly: a test range may be longer than the API allows).
fn export_request(
    first: &str,
    last: &str,
    format: ExportFormat,
    version: FocusVersion,
) -> FocusExportRequest {
    FocusExportRequest {
        first: day(first),
        last: day(last),
        format,
        version,
    }
}

/// Column names and types, and every row's values, of a Parquet file as DuckDB reads it.
fn parquet_contents(path: &Path) -> (Vec<(String, String)>, Vec<String>) {
    let connection = duckdb::Connection::open_in_memory().unwrap();
    let source = format!(
        "read_parquet('{}')",
        path.to_str().unwrap().replace('\'', "''")
    );
    let mut describe = connection
        .prepare(&format!("DESCRIBE SELECT * FROM {source}"))
        .unwrap();
    let columns: Vec<(String, String)> = describe
        .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let mut select = connection
        .prepare(&format!("SELECT * FROM {source}"))
        .unwrap();
    let mut rows = select.query([]).unwrap();
    let mut values = Vec::new();
    while let Some(row) = rows.next().unwrap() {
        let row: Vec<Value> = (0..columns.len())
            .map(|index| row.get(index).unwrap())
            .collect();
        values.push(format!("{row:?}"));
    }
    (columns, values)
}

/// The rows of a CSV export as DuckDB reads them.
fn csv_rows(path: &Path) -> u64 {
    let sql = format!(
        "SELECT count(*) FROM read_csv('{}', header = true, all_varchar = true)",
        path.to_str().unwrap().replace('\'', "''")
    );
    let rows: i64 = duckdb::Connection::open_in_memory()
        .unwrap()
        .query_row(&sql, [], |row| row.get(0))
        .unwrap();
    rows as u64
}

/// Exports `request` of `customer` from both engines and checks the files are the same; answers
/// the rows written and the CSV header (empty for Parquet).
async fn same_export(
    duckdb: &DuckDbEngine,
    clickhouse: &ClickHouseEngine,
    customer: i64,
    request: &FocusExportRequest,
) -> (u64, Vec<String>) {
    let dir = tempfile::tempdir().unwrap();
    let name = request.file_name();
    let (embedded_path, clustered_path) = (
        dir.path().join("duckdb").join(&name),
        dir.path().join("clickhouse").join(&name),
    );
    std::fs::create_dir_all(embedded_path.parent().unwrap()).unwrap();
    std::fs::create_dir_all(clustered_path.parent().unwrap()).unwrap();
    let embedded = duckdb
        .export_focus(customer, request, &embedded_path)
        .await
        .unwrap();
    let clustered = CostEngine::export_focus(clickhouse, customer, request, &clustered_path)
        .await
        .unwrap();
    let case = format!("tenant {customer}, {name}");
    assert_eq!(embedded, clustered, "{case}");
    match request.format {
        ExportFormat::Csv => {
            let (a, b) = (
                std::fs::read(&embedded_path).unwrap(),
                std::fs::read(&clustered_path).unwrap(),
            );
            assert!(
                a == b,
                "{case}: the CSV files differ\nDuckDB:\n{}\nClickHouse:\n{}",
                String::from_utf8_lossy(&a),
                String::from_utf8_lossy(&b)
            );
            assert_eq!(csv_rows(&embedded_path), embedded.rows, "{case}");
            let text = String::from_utf8(a).unwrap();
            let header = text.lines().next().unwrap_or_default();
            (
                embedded.rows,
                header.split(',').map(str::to_owned).collect(),
            )
        }
        ExportFormat::Parquet => {
            let (columns, rows) = parquet_contents(&embedded_path);
            let (other_columns, other_rows) = parquet_contents(&clustered_path);
            assert_eq!(columns, other_columns, "{case}");
            assert_eq!(rows.len() as u64, embedded.rows, "{case}");
            assert!(rows == other_rows, "{case}: the Parquet rows differ");
            (
                embedded.rows,
                columns.into_iter().map(|(name, _)| name).collect(),
            )
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_clickhouse_engine_exports_the_duckdb_engines_focus_files() {
    let (duckdb, clickhouse) = both().await;
    let lines_in = |first: &str, last: &str| {
        hand_made_lines()
            .iter()
            .filter(|line| {
                let charge = &line.charge[..10];
                charge >= first && charge <= last
            })
            .count() as u64
    };
    for version in [FocusVersion::V1_2, FocusVersion::V1_3] {
        for format in [ExportFormat::Csv, ExportFormat::Parquet] {
            let all = |first, last| export_request(first, last, format, version);
            // Every fixture row (they span years).
            let (rows, columns) = same_export(
                &duckdb,
                &clickhouse,
                FILES,
                &all("2015-01-01", "2030-12-31"),
            )
            .await;
            assert!(rows > 10, "{rows} fixture rows");
            assert!(
                columns
                    .iter()
                    .any(|name| name.trim_matches('"') == "x_Project"),
                "{columns:?}"
            );
            // The generated rows: whole, and their second day alone.
            let (rows, columns) = same_export(
                &duckdb,
                &clickhouse,
                GENERATED,
                &all("2026-02-01", "2026-02-28"),
            )
            .await;
            assert_eq!(rows, GENERATED_ROWS as u64);
            for custom in ["x_Team", "x_Other"] {
                assert!(
                    columns.iter().any(|name| name.trim_matches('"') == custom),
                    "{columns:?}"
                );
            }
            let (rows, _) = same_export(
                &duckdb,
                &clickhouse,
                GENERATED,
                &all("2026-02-11", "2026-02-11"),
            )
            .await;
            assert!(rows > 0 && rows < GENERATED_ROWS as u64, "{rows}");
            // The hand-made lines: whole, part, none; never another tenant's rows.
            for (first, last) in [
                ("2025-01-01", "2026-12-31"),
                ("2026-01-01", "2026-01-01"),
                ("2026-01-02", "2026-01-31"),
                ("2024-01-01", "2024-12-31"),
            ] {
                let (rows, _) = same_export(&duckdb, &clickhouse, LINES, &all(first, last)).await;
                assert_eq!(rows, lines_in(first, last), "{first}..{last}");
            }
            // A tenant without rows.
            let (rows, _) = same_export(
                &duckdb,
                &clickhouse,
                NOBODY,
                &all("2015-01-01", "2030-12-31"),
            )
            .await;
            assert_eq!(rows, 0);
        }
    }
}
