//! Bounded reads through the engine's public calls: with a tiny time limit a heavy call (a
//! year-long FOCUS export of a million line items, ~10-20 s here) is cancelled with
//! `EngineError::TimedOut` within milliseconds of the limit, and the next calls answer.

mod support;

use std::time::{Duration, Instant};

use costscope_core::focus::FocusExportRequest;
use costscope_engine::{
    CostEngine, DuckDbEngine, EngineError, LoadRequest, ReadLimits, SourceFile,
};
use costscope_ingest::{Format, NORMALISED_COLUMNS};
use support::{days, query};

const ROWS: u64 = 1_000_000;

/// Loads `ROWS` line items over 2025 (one per resource) through the real load path.
async fn load_many(engine: &DuckDbEngine) {
    let request = LoadRequest {
        load_id: "many".to_owned(),
        files: vec![SourceFile {
            path: "many.csv".into(),
            display_name: "many.csv".to_owned(),
        }],
        format: None,
        progress: None,
    };
    engine
        .load_with(
            1,
            request,
            Box::new(|connection, _file, _format, table| {
                let columns: Vec<String> = NORMALISED_COLUMNS
                    .iter()
                    .map(|(name, kind)| format!("{name} {kind}"))
                    .collect();
                let sql = format!(
                    "CREATE TEMP TABLE {table} ({columns}); \
                     INSERT INTO {table} ({required}) SELECT 'aws', '900000000000', \
                     'acct-' || (i % 50), 'Account', TIMESTAMP '2025-01-01' + to_days(CAST(i % 365 AS INTEGER)), \
                     TIMESTAMP '2025-01-01' + to_days(CAST(i % 365 AS INTEGER)) + INTERVAL 1 HOUR, \
                     DATE '2025-01-01', 'service-' || (i % 7), 'Compute', 'region-' || (i % 3), \
                     'usage-' || i, 'Usage', 'Usage', 'i-' || i, 'web', 'instance', 1.5, 1.5, 2.0, \
                     'USD', 1.0, 'Hrs', MAP {{}}::MAP(VARCHAR, VARCHAR) FROM range({ROWS}) t(i);",
                    columns = columns.join(", "),
                    required = costscope_ingest::required_columns()
                        .collect::<Vec<_>>()
                        .join(", "),
                );
                connection
                    .execute_batch(&sql)
                    .map_err(|error| costscope_ingest::IngestError::new(error.to_string()))?;
                Ok((Format::Focus, ROWS))
            }),
        )
        .await
        .expect("load");
}

fn limits(timeout: Duration) -> ReadLimits {
    ReadLimits {
        threads: 2,
        concurrent: 2,
        timeout,
    }
}

#[tokio::test]
async fn a_heavy_export_past_the_time_limit_is_cancelled_and_the_engine_answers_after() {
    let dir = tempfile::tempdir().expect("temp dir");
    let engine = DuckDbEngine::open(&dir.path().join("costs.duckdb")).expect("engine");
    load_many(&engine).await;

    engine
        .configure_reads(&limits(Duration::from_millis(100)))
        .expect("limits");
    let request =
        FocusExportRequest::parse(Some("2025-01-01"), Some("2025-12-31"), None, None).unwrap();
    let target = dir.path().join("export.csv");
    let started = Instant::now();
    let export = engine.export_focus(1, &request, &target).await;
    let took = started.elapsed();
    assert!(
        matches!(export, Err(EngineError::TimedOut { .. })),
        "{export:?}"
    );
    assert!(took < Duration::from_secs(3), "took {took:?}");

    // With room, every call answers: an export of one day, the year's total.
    engine
        .configure_reads(&limits(Duration::from_secs(120)))
        .expect("limits");
    let loaded_days = |days: u64| (0..ROWS).filter(|i| i % 365 < days).count() as u64;
    assert_eq!(
        export_days(&engine, "2025-01-01", "2025-01-01", &target).await,
        loaded_days(1)
    );
    // An export of several row groups, read by both threads, comes out in its ORDER BY (the
    // database runs without insertion order; the COPY says PRESERVE_ORDER).
    assert_eq!(
        export_days(&engine, "2025-01-01", "2025-04-30", &target).await,
        loaded_days(120)
    );
    assert_eq!(charge_starts_out_of_order(&target), 0);
    let total = engine
        .aggregate(1, &query(days("2025-01-01", "2025-12-31")))
        .await
        .expect("aggregate")
        .total;
    assert!((total - 1.5 * ROWS as f64).abs() < 1e-6, "{total}");
}

/// Exports the days `from`..=`to` to `target`; answers the rows written.
async fn export_days(engine: &DuckDbEngine, from: &str, to: &str, target: &std::path::Path) -> u64 {
    let request = FocusExportRequest::parse(Some(from), Some(to), None, None).unwrap();
    engine
        .export_focus(1, &request, target)
        .await
        .expect("export")
        .rows
}

/// How many rows of an exported CSV file start their charge period before the row above.
fn charge_starts_out_of_order(file: &std::path::Path) -> i64 {
    let reader = duckdb::Connection::open_in_memory().expect("duckdb");
    reader
        .query_row(
            "SELECT count(*) FILTER (WHERE start < previous) FROM (SELECT ChargePeriodStart AS start, \
             lag(ChargePeriodStart) OVER (ORDER BY line) AS previous FROM (SELECT \
             ChargePeriodStart, row_number() OVER () AS line FROM read_csv(?)))",
            [file.to_string_lossy()],
            |row| row.get(0),
        )
        .expect("read the export")
}
