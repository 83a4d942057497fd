//! Times the year-by-month questions on the ClickHouse cost engine with its rollups, the same
//! statement on its line items (what it read before it kept rollups), and the DuckDB engine
//! beside, on the same synthetic rows.
//!
//! ```text
//! cargo run -p costscope-engine --example clickhouse_rollup_timing -- [ROWS] [RUNS] [ALIKE]
//! ```
//! Defaults: 1 000 000 rows over 2025, 5 runs (the median is printed), ALIKE 1 (see
//! [`synthetic_sql`]). ClickHouse is
//! `COSTSCOPE_TEST_CLICKHOUSE_URL`'s server(s) (default: the two local shards of
//! `make ensure-clickhouse`), in a database `costscope_rollup_timing` made afresh.

use std::time::{Duration, Instant};

use costscope_clickhouse::Client;
use costscope_core::cost::{AggregateQuery, CostFilter, Dimension, Interval, Metric, TimeRange};
use costscope_engine::query_builder::{self, Currencies, Source};
use costscope_engine::{
    ClickHouseEngine, ClickHouseReads, CostEngine, DuckDbEngine, LoadRequest, SourceFile, Stager,
};

const CUSTOMER: i64 = 1;
const DATABASE: &str = "costscope_rollup_timing";
const DEFAULT_URL: &str = "clickhouse://default@127.0.0.1:8123/default?cluster=costscope&shards=127.0.0.1:8123,127.0.0.1:8124";

/// `CREATE TEMP TABLE {table}` of `rows` normalised rows over 2025: 40 accounts, 60 services, 20
/// regions, 3 cost types, hourly charges; `alike` consecutive rows share those columns (1: the
/// engine_timing data, which hardly rolls up; 24: a resource's day of hourly rows).
fn synthetic_sql(table: &str, rows: u64, alike: u64) -> String {
    let columns: Vec<String> = costscope_ingest::NORMALISED_COLUMNS
        .iter()
        .map(|(name, kind)| format!("{name} {kind}"))
        .collect();
    let required: Vec<&str> = costscope_ingest::required_columns().collect();
    let day = format!("to_days(CAST((i * 365) // {rows} AS INTEGER))");
    format!(
        "CREATE TEMP TABLE {table} ({}); INSERT INTO {table} ({}) SELECT 'aws', 'ba-' || (i % 3), \
         'acct-' || ((j // 7) % 40), 'Account ' || ((j // 7) % 40), \
         TIMESTAMP '2025-01-01' + {day} + to_hours(CAST(i % 24 AS INTEGER)), \
         TIMESTAMP '2025-01-01' + {day} + to_hours(CAST(i % 24 AS INTEGER) + 1), \
         CAST(date_trunc('month', TIMESTAMP '2025-01-01' + {day}) AS DATE), \
         'service-' || ((j // 3) % 60), 'Compute', 'region-' || ((j // 11) % 20), \
         'usage-' || ((i // 13) % 500), 'Usage', \
         CASE WHEN j % 50 = 0 THEN 'Credit' WHEN j % 50 = 1 THEN 'Tax' ELSE 'Usage' END, \
         'i-' || (i % 100000), '', 'instance', CAST((i % 1000) / 100.0 AS DECIMAL(18,9)), \
         CAST((i % 1000) / 120.0 AS DECIMAL(18,9)), CAST((i % 1000) / 90.0 AS DECIMAL(18,9)), \
         'USD', 1.0, 'Hrs', MAP {{}} FROM (SELECT i, i // {alike} AS j FROM range({rows}) AS r(i));",
        columns.join(", "),
        required.join(", ")
    )
}

fn request() -> LoadRequest {
    LoadRequest {
        load_id: "synthetic".to_owned(),
        files: vec![SourceFile {
            path: "synthetic".into(),
            display_name: "synthetic".into(),
        }],
        format: None,
        progress: None,
    }
}

fn stager(rows: u64, alike: u64) -> Box<Stager<'static>> {
    Box::new(move |connection, _file, _format, table| {
        connection
            .execute_batch(&synthetic_sql(table, rows, alike))
            .map_err(|error| costscope_ingest::IngestError::new(error.to_string()))?;
        Ok((costscope_ingest::Format::Focus, rows))
    })
}

/// The median of `runs` timings of `question`.
async fn median<F, Fut>(runs: usize, mut question: F) -> Duration
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs {
        let started = Instant::now();
        question().await;
        times.push(started.elapsed());
    }
    times.sort();
    times[times.len() / 2]
}

fn year_by_month(dimensions: &[Dimension]) -> AggregateQuery {
    AggregateQuery {
        range: TimeRange::new(
            "2025-01-01T00:00:00Z".parse().unwrap(),
            "2025-12-31T23:59:59.999Z".parse().unwrap(),
        )
        .unwrap(),
        filter: CostFilter::default(),
        dimensions: dimensions.to_vec(),
        interval: Some(Interval::Monthly),
        cumulative: false,
        metric: Metric::Billed,
        limit: Some(20),
        offset: 0,
        ascending: false,
    }
}

/// A database made afresh on every shard of `url`'s server(s).
async fn fresh_database(url: &str) -> String {
    let entry = Client::from_url(url).expect("ClickHouse URL");
    let shards = match entry.url().cluster() {
        Some(_) => entry.shards().await.expect("shards"),
        None => vec![entry.clone()],
    };
    for shard in shards {
        for sql in [
            format!("DROP DATABASE IF EXISTS {DATABASE}"),
            format!("CREATE DATABASE {DATABASE}"),
        ] {
            shard.execute(&sql).await.expect("database");
        }
    }
    let (base, query) = url.split_once('?').unwrap_or((url, ""));
    let (server, _database) = base.rsplit_once('/').expect("a database in the URL");
    format!("{server}/{DATABASE}?{query}")
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rows: u64 = args
        .get(1)
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_000_000);
    let runs: usize = args.get(2).and_then(|v| v.parse().ok()).unwrap_or(5);
    let alike: u64 = args.get(3).and_then(|v| v.parse().ok()).unwrap_or(1).max(1);
    let url =
        std::env::var("COSTSCOPE_TEST_CLICKHOUSE_URL").unwrap_or_else(|_| DEFAULT_URL.to_owned());
    let url = fresh_database(&url).await;

    let duckdb = DuckDbEngine::open_in_memory().expect("DuckDB");
    let started = Instant::now();
    duckdb
        .load_with(CUSTOMER, request(), stager(rows, alike))
        .await
        .expect("DuckDB load");
    println!(
        "DuckDB: loaded {rows} rows in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    let engine = ClickHouseEngine::connect(&url).await.expect("ClickHouse");
    let started = Instant::now();
    engine
        .load_with(CUSTOMER, request(), stager(rows, alike))
        .await
        .expect("ClickHouse load");
    println!(
        "ClickHouse: loaded {rows} rows (with rollups) in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    let reads = ClickHouseReads::new(engine.client().clone());

    println!("question\tDuckDB ms\tClickHouse line items ms\tClickHouse rollups ms");
    for (name, dimensions) in [
        ("2025 by month x service", vec![Dimension::Service]),
        (
            "2025 by month x service x region",
            vec![Dimension::Service, Dimension::Region],
        ),
    ] {
        let query = year_by_month(&dimensions);
        let expected = duckdb.aggregate_in(CUSTOMER, &query, None).await.unwrap();
        let got = reads.aggregate_in(CUSTOMER, &query, None).await.unwrap();
        assert_eq!(format!("{got:?}"), format!("{expected:?}"), "{name}");
        let duck = median(runs, || async {
            duckdb.aggregate_in(CUSTOMER, &query, None).await.unwrap();
        })
        .await;
        // What a read asked before the rollups: the currencies and the statement on the line
        // items (the previous total too).
        let line_items = median(runs, || async {
            let dialect = reads.dialect();
            let currencies = format!(
                "SELECT currency, toString(sum(billed_cost)) FROM {} WHERE customer_id = \
                 {CUSTOMER} GROUP BY currency ORDER BY sum(billed_cost) DESC, currency",
                dialect.table("cost_line_items")
            );
            engine.client().query_tsv(&currencies).await.unwrap();
            let sqls = [
                query_builder::aggregate_in(
                    dialect,
                    Source::LineItems,
                    CUSTOMER,
                    &query,
                    Currencies::One,
                ),
                query_builder::previous_total_in(
                    dialect,
                    Source::LineItems,
                    CUSTOMER,
                    &query,
                    None,
                ),
            ];
            for sql in sqls {
                engine.client().query_tsv(&sql.text).await.unwrap();
            }
        })
        .await;
        let rollups = median(runs, || async {
            reads.aggregate_in(CUSTOMER, &query, None).await.unwrap();
        })
        .await;
        println!(
            "{name}\t{:.1}\t{:.1}\t{:.1}",
            duck.as_secs_f64() * 1e3,
            line_items.as_secs_f64() * 1e3,
            rollups.as_secs_f64() * 1e3
        );
    }
}
