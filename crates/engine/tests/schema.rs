//! A cost database written before the FOCUS detail columns existed opens, gains them (NULL in
//! its rows) and keeps loading.

mod support;

use costscope_core::cost::CostFilter;
use costscope_engine::DuckDbEngine;
use support::*;

#[tokio::test]
async fn a_database_without_the_focus_detail_columns_gains_them_and_keeps_its_rows() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("costs.duckdb");
    {
        // A database as the release before these columns wrote it: one load, then the table
        // without the nullable columns.
        let engine = DuckDbEngine::open(&path).unwrap();
        load(&engine, 7, vec![Line::new("2026-01-03", "2.5")]).await;
        let connection = engine.connection().unwrap();
        for (name, kind) in costscope_ingest::NORMALISED_COLUMNS {
            if !kind.ends_with(" NOT NULL") {
                connection
                    .execute_batch(&format!("ALTER TABLE cost_line_items DROP COLUMN {name}"))
                    .unwrap();
            }
        }
    }
    let engine = DuckDbEngine::open(&path).unwrap();
    let connection = engine.connection().unwrap();
    let mut statement = connection
        .prepare(
            "SELECT column_name, data_type FROM information_schema.columns \
             WHERE table_name = 'cost_line_items' ORDER BY ordinal_position",
        )
        .unwrap();
    let columns: Vec<(String, String)> = statement
        .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let expected: Vec<(String, String)> =
        ["customer_id BIGINT", "load_id VARCHAR", "charge_date DATE"]
            .iter()
            .map(|c| c.split_once(' ').unwrap())
            .map(|(n, k)| (n.to_owned(), k.to_owned()))
            .chain(
                costscope_ingest::NORMALISED_COLUMNS
                    .iter()
                    .map(|(name, kind)| {
                        (
                            (*name).to_owned(),
                            kind.trim_end_matches(" NOT NULL").to_owned(),
                        )
                    }),
            )
            .collect();
    assert_eq!(columns, expected);
    let (extra_null, end_null): (bool, bool) = connection
        .query_row(
            "SELECT extra IS NULL, billing_period_end IS NULL FROM cost_line_items",
            [],
            |row| Ok((row.get(0)?, row.get(1)?)),
        )
        .unwrap();
    assert!(extra_null && end_null);
    // The old row is still answered, and a new load lands beside it.
    assert_eq!(
        total(
            &engine,
            7,
            days("2026-01-01", "2026-01-31"),
            CostFilter::default()
        )
        .await,
        2.5
    );
    load(&engine, 7, vec![Line::new("2026-02-03", "4")]).await;
    assert_eq!(
        total(
            &engine,
            7,
            days("2026-01-01", "2026-02-28"),
            CostFilter::default()
        )
        .await,
        6.5
    );
    drop(connection);
    drop(engine);
    // Opening it again changes nothing.
    DuckDbEngine::open(&path).unwrap();
}
