//! A tenant keeps the daily rollup with usage types (`cost_daily`) only while it pays: loads
//! start and stop keeping it, and questions answer the same either way.

mod support;

use costscope_core::cost::{Dimension, Interval};
use costscope_engine::{CostEngine, DailyRollup, DuckDbEngine};
use support::*;

fn count(connection: &duckdb::Connection, sql: &str) -> i64 {
    connection.query_row(sql, [], |row| row.get(0)).unwrap()
}

/// The stats' daily row count of customer 1: `None` while it does not keep the rollup.
fn daily_rows(connection: &duckdb::Connection) -> Option<i64> {
    connection
        .query_row(
            "SELECT daily_rows FROM cost_rollup_stats WHERE customer_id = 1",
            [],
            |row| row.get(0),
        )
        .unwrap()
}

fn rollup_rows(connection: &duckdb::Connection) -> i64 {
    count(
        connection,
        "SELECT count(*) FROM cost_daily WHERE customer_id = 1",
    )
}

/// The line items the daily rollup of customer 1 sums.
fn rolled_up_line_items(connection: &duckdb::Connection) -> i64 {
    count(
        connection,
        "SELECT coalesce(sum(line_items), 0) FROM cost_daily WHERE customer_id = 1",
    )
}

fn estimated_rows(connection: &duckdb::Connection) -> i64 {
    count(
        connection,
        "SELECT coalesce(sum(daily_rows), 0) FROM cost_daily_estimates WHERE customer_id = 1",
    )
}

/// The estimates are HyperLogLog counts: within 15% of the exact count here (deterministic for
/// the same rows).
fn assert_estimated(connection: &duckdb::Connection, exact: i64) {
    let estimated = estimated_rows(connection);
    assert!(
        (estimated - exact).abs() as f64 <= exact as f64 * 0.15,
        "estimated {estimated} daily rows, exactly {exact}"
    );
}

/// A line item per usage type and day: every line item is a daily row of its own.
fn scattered(month: &'static str) -> Vec<Line> {
    const USAGE_TYPES: [&str; 4] = [
        "BoxUsage",
        "EBS:VolumeUsage",
        "DataTransfer-Out",
        "NatGateway",
    ];
    (1..=5)
        .flat_map(|day| {
            USAGE_TYPES.into_iter().map(move |usage_type| {
                let charge = format!("{month}-{day:02} 10:00:00");
                Line::new(Box::leak(charge.into_boxed_str()), "1.25").usage_type(usage_type)
            })
        })
        .collect()
}

/// Hourly line items of one usage type on two days: 48 line items, 2 daily rows.
fn hourly(month: &'static str) -> Vec<Line> {
    (1..=2)
        .flat_map(|day| {
            (0..24).map(move |hour| {
                let charge = format!("{month}-{day:02} {hour:02}:00:00");
                Line::new(Box::leak(charge.into_boxed_str()), "0.5")
            })
        })
        .collect()
}

/// Loads February, March and April of `lines` for customer 1, one load (and load id) each.
async fn load_february_to_april(engine: &DuckDbEngine, lines: fn(&'static str) -> Vec<Line>) {
    for month in ["2026-02", "2026-03", "2026-04"] {
        let month_lines = lines(month);
        let expected = month_lines.len() as u64;
        let summary = load_files(engine, 1, month, vec![("month.csv", month_lines)])
            .await
            .unwrap();
        assert_eq!(summary.rows, expected);
    }
}

/// The engine's answer by day and usage type over January to April equals the line items'.
async fn answers_like_the_line_items(engine: &DuckDbEngine) {
    let query = grouped(
        days("2026-01-01", "2026-04-30"),
        &[Dimension::UsageType],
        Some(Interval::Daily),
    );
    let answer = engine.aggregate(1, &query).await.unwrap();
    let connection = engine.connection().unwrap();
    let expected = count(
        &connection,
        "SELECT count(*) FROM (SELECT DISTINCT charge_date, usage_type FROM cost_line_items \
         WHERE customer_id = 1)",
    );
    assert_eq!(answer.rows.len() as i64, expected);
    let total = count(
        &connection,
        "SELECT CAST(sum(billed_cost) * 1000 AS BIGINT) FROM cost_line_items WHERE customer_id = 1",
    );
    assert_eq!((answer.total * 1000.0).round() as i64, total);
}

#[tokio::test]
async fn data_that_does_not_roll_up_keeps_no_daily_rollup_and_is_answered_from_the_line_items() {
    let engine = DuckDbEngine::open_in_memory().unwrap();
    load(&engine, 1, scattered("2026-01")).await;
    let connection = engine.connection().unwrap();
    assert_eq!(daily_rows(&connection), None);
    assert_eq!(rollup_rows(&connection), 0);
    // 20 line items, 20 daily rows.
    assert_estimated(&connection, 20);
    // The core daily rollup is kept whatever the usage types do.
    assert_eq!(
        count(
            &connection,
            "SELECT count(*) FROM cost_daily_core WHERE customer_id = 1"
        ),
        5
    );
    answers_like_the_line_items(&engine).await;
}

#[tokio::test]
async fn a_tenant_starts_keeping_the_daily_rollup_once_its_data_rolls_up() {
    let engine = DuckDbEngine::open_in_memory().unwrap();
    load(&engine, 1, scattered("2026-01")).await;
    let connection = engine.connection().unwrap();
    assert_eq!(daily_rows(&connection), None);
    // 20 + 48×3 line items, 20 + 2×3 estimated daily rows: 0.16 per line item, under the start
    // ratio; the rollup is built from all the tenant's line items, January's included.
    load_february_to_april(&engine, hourly).await;
    assert_eq!(daily_rows(&connection), Some(26));
    assert_eq!(rollup_rows(&connection), 26);
    assert_eq!(estimated_rows(&connection), 0);
    assert_eq!(rolled_up_line_items(&connection), 164);
    answers_like_the_line_items(&engine).await;
    // Replacing a period keeps the rollup in step.
    load(&engine, 1, hourly("2026-01")).await;
    assert_eq!(daily_rows(&connection), Some(8));
    assert_eq!(rolled_up_line_items(&connection), 192);
    answers_like_the_line_items(&engine).await;
}

#[tokio::test]
async fn a_tenant_stops_keeping_the_daily_rollup_when_its_data_stops_rolling_up() {
    let engine = DuckDbEngine::open_in_memory().unwrap();
    load(&engine, 1, hourly("2026-01")).await;
    let connection = engine.connection().unwrap();
    assert_eq!(daily_rows(&connection), Some(2));
    // 48 + 20×3 line items, 2 + 20×3 daily rows: 0.57 per line item, over the ratio at which a
    // question reads the rollup. Its rows go; their counts become the estimates.
    load_february_to_april(&engine, scattered).await;
    assert_eq!(daily_rows(&connection), None);
    assert_eq!(rollup_rows(&connection), 0);
    assert_estimated(&connection, 62);
    answers_like_the_line_items(&engine).await;
}

#[tokio::test]
async fn the_always_policy_keeps_the_rollup_of_data_that_does_not_roll_up() {
    let engine = DuckDbEngine::open_in_memory().unwrap();
    engine.keep_daily_rollup(DailyRollup::Always);
    load(&engine, 1, scattered("2026-01")).await;
    let connection = engine.connection().unwrap();
    assert_eq!(daily_rows(&connection), Some(20));
    assert_eq!(rollup_rows(&connection), 20);
    assert_eq!(estimated_rows(&connection), 0);
}

/// A database of schema version 1 (every tenant kept the rollup; its row count was NOT NULL)
/// opens as version 2 and then keeps no rollup for data that does not roll up.
#[tokio::test]
async fn a_version_1_database_opens_as_version_2() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("costs.duckdb");
    {
        let engine = DuckDbEngine::open(&path).unwrap();
        engine.keep_daily_rollup(DailyRollup::Always);
        load(&engine, 1, scattered("2026-01")).await;
        engine
            .connection()
            .unwrap()
            .execute_batch(
                "DROP TABLE cost_daily_estimates; \
                 ALTER TABLE cost_rollup_stats ALTER COLUMN daily_rows SET NOT NULL; \
                 UPDATE costscope_engine_schema SET version = 1;",
            )
            .unwrap();
    }
    let engine = DuckDbEngine::open(&path).unwrap();
    let connection = engine.connection().unwrap();
    assert_eq!(
        count(
            &connection,
            "SELECT max(version) FROM costscope_engine_schema"
        ),
        2
    );
    assert_eq!(daily_rows(&connection), Some(20));
    answers_like_the_line_items(&engine).await;
    load(&engine, 1, scattered("2026-02")).await;
    assert_eq!(daily_rows(&connection), None);
    assert_eq!(rollup_rows(&connection), 0);
    assert_estimated(&connection, 40);
    answers_like_the_line_items(&engine).await;
}
