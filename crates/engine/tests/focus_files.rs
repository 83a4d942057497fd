//! FOCUS files through the whole load (the real stager, the cost table and its daily rollup):
//! a file mixing AWS, Microsoft, Oracle and Datadog in USD and EUR keeps every row's provider
//! and currency, to the cent, against an oracle reading the file itself.

#[path = "../../ingest/tests/readers/oracle.rs"]
#[allow(dead_code)]
mod oracle;

use std::path::PathBuf;

use costscope_engine::{CostEngine, DailyRollup, DuckDbEngine, LoadRequest, SourceFile};

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../ingest/tests/fixtures/vendors")
        .join(name)
}

fn strings(connection: &duckdb::Connection, sql: &str) -> Vec<[String; 5]> {
    let mut statement = connection.prepare(sql).unwrap();
    statement
        .query_map([], |row| {
            Ok([
                row.get(0)?,
                row.get(1)?,
                row.get(2)?,
                row.get(3)?,
                row.get(4)?,
            ])
        })
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

#[tokio::test]
async fn a_focus_file_of_four_providers_and_two_currencies_is_stored_row_by_row_and_in_the_rollup()
{
    let path = fixture("focus_mixed_providers_currencies.csv");
    let engine = DuckDbEngine::open_in_memory().unwrap();
    // Kept whatever it pays, to compare it with the file.
    engine.keep_daily_rollup(DailyRollup::Always);
    let summary = engine
        .load(
            3,
            LoadRequest {
                load_id: "mixed".into(),
                files: vec![SourceFile {
                    path: path.clone(),
                    display_name: "mixed.csv".into(),
                }],
                format: None,
                progress: None,
            },
        )
        .await
        .unwrap();
    let expected = oracle::daily_provider_currency_totals(&path);
    assert_eq!(summary.rows, oracle::records(&path).len() as u64);
    let connection = engine.connection().unwrap();
    for table in ["cost_line_items", "cost_daily", "cost_daily_core"] {
        let stored = strings(
            &connection,
            &format!(
                "SELECT CAST(charge_date AS VARCHAR), provider, currency, \
                 CAST(CAST(sum(billed_cost) AS DECIMAL(38,9)) AS VARCHAR), \
                 CAST(CAST(sum(effective_cost) AS DECIMAL(38,9)) AS VARCHAR) FROM {table} \
                 WHERE customer_id = 3 GROUP BY ALL ORDER BY 1, 2, 3"
            ),
        );
        assert_eq!(stored, expected, "{table}");
    }
    let providers: Vec<String> = {
        let mut statement = connection
            .prepare("SELECT DISTINCT provider FROM cost_line_items ORDER BY provider")
            .unwrap();
        statement
            .query_map([], |row| row.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap()
    };
    assert_eq!(providers, ["Datadog", "Oracle", "aws", "azure"]);
}
