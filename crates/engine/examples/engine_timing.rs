//! Times the DuckDB cost engine on synthetic rows, next to the same SQL run raw.
//!
//! ```text
//! cargo run --release -p costscope-engine --example engine_timing -- [ROWS] [RUNS] [memory|file]
//! ```
//! Defaults: 10 000 000 rows (customer 1; customer 2 gets 10 %), 20 runs, a temp file.
//! Then a FOCUS Parquet and a FOCUS CSV file of `COSTSCOPE_TIMING_FILE_ROWS` rows (default: ROWS,
//! at most 2 000 000) go through the real `stage()` path: `stage()` alone on a fresh connection,
//! and `engine.load` (stage + replace) for customer 3.

use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use costscope_core::cost::{
    AggregateQuery, CostFilter, Dimension, FilterGroup, GroupJoin, Interval, MatchOperator, Metric,
    TagCondition, TimeRange, ValueCondition,
};
use costscope_engine::query_builder::{self, Sql};
use costscope_engine::{CostEngine, DuckDbEngine, LoadRequest, SourceFile};
use costscope_ingest::NORMALISED_COLUMNS;

const CUSTOMER: i64 = 1;
/// 2025-01-01 .. 2026-01-31: 396 days.
const DAYS: u64 = 396;

fn at(text: &str) -> DateTime<Utc> {
    text.parse().expect("instant")
}

fn range(first: &str, last: &str) -> TimeRange {
    TimeRange::new(
        at(&format!("{first}T00:00:00Z")),
        at(&format!("{last}T23:59:59.999Z")),
    )
    .expect("range")
}

/// `CREATE TEMP TABLE {table}` with `rows` synthetic normalised rows (`offset` varies the data).
fn synthetic_sql(table: &str, rows: u64, offset: u64) -> String {
    let columns: Vec<String> = NORMALISED_COLUMNS
        .iter()
        .map(|(name, kind)| format!("{name} {kind}"))
        .collect();
    format!(
        "CREATE TEMP TABLE {table} ({columns});
         INSERT INTO {table} ({required}) SELECT
           CASE WHEN i % 10 < 6 THEN 'aws' WHEN i % 10 < 9 THEN 'gcp' ELSE 'azure' END,
           'ba-' || (i % 3),
           'acct-' || ((i // 7) % 40),
           'Account ' || ((i // 7) % 40),
           TIMESTAMP '2025-01-01' + to_days(CAST((i * {DAYS}) // {rows} AS INTEGER)) + to_hours(CAST(i % 24 AS INTEGER)),
           TIMESTAMP '2025-01-01' + to_days(CAST((i * {DAYS}) // {rows} AS INTEGER)) + to_hours(CAST(i % 24 AS INTEGER) + 1),
           CAST(date_trunc('month', TIMESTAMP '2025-01-01' + to_days(CAST((i * {DAYS}) // {rows} AS INTEGER))) AS DATE),
           'service-' || ((i // 3) % 60),
           'Compute',
           'region-' || ((i // 11) % 20),
           'usage-' || ((i // 13) % 500),
           'Usage',
           CASE WHEN i % 50 = 0 THEN 'Credit' WHEN i % 50 = 1 THEN 'Tax' ELSE 'Usage' END,
           'i-' || (i % 100000),
           '',
           'instance',
           CAST(((i + {offset}) % 1000) / 100.0 AS DECIMAL(18,9)),
           CAST(((i + {offset}) % 1000) / 120.0 AS DECIMAL(18,9)),
           CAST(((i + {offset}) % 1000) / 90.0 AS DECIMAL(18,9)),
           'USD',
           1.0,
           'Hrs',
           MAP(['team', 'env'], ['team-' || ((i // 5) % 8), CASE WHEN i % 3 = 0 THEN 'prod' ELSE 'dev' END])
         FROM range({rows}) AS r(i);",
        columns = columns.join(", "),
        required = costscope_ingest::required_columns().collect::<Vec<_>>().join(", ")
    )
}

async fn fill(engine: &DuckDbEngine, customer: i64, rows: u64) {
    let started = Instant::now();
    let request = LoadRequest {
        load_id: format!("synthetic-{customer}"),
        files: vec![SourceFile {
            path: "synthetic".into(),
            display_name: "synthetic".into(),
        }],
        format: None,
        progress: None,
    };
    let summary = engine
        .load_with(
            customer,
            request,
            Box::new(move |connection, _file, _format, table| {
                connection
                    .execute_batch(&synthetic_sql(table, rows, customer as u64))
                    .map_err(|error| costscope_ingest::IngestError::new(error.to_string()))?;
                Ok((costscope_ingest::Format::Focus, rows))
            }),
        )
        .await
        .expect("load");
    let elapsed = started.elapsed();
    println!(
        "loaded {} rows for customer {customer} in {:.1} s ({:.0} rows/s)",
        summary.rows,
        elapsed.as_secs_f64(),
        summary.rows as f64 / elapsed.as_secs_f64()
    );
}

/// `COPY` of `rows` synthetic FOCUS rows (the same shape as [`synthetic_sql`]) to `path`.
fn focus_copy_sql(path: &std::path::Path, rows: u64, format: &str) -> String {
    format!(
        "COPY (SELECT
           CASE WHEN i % 10 < 6 THEN 'AWS' WHEN i % 10 < 9 THEN 'Google Cloud' ELSE 'Microsoft Azure' END AS ProviderName,
           'ba-' || (i % 3) AS BillingAccountId,
           'acct-' || ((i // 7) % 40) AS SubAccountId,
           'Account ' || ((i // 7) % 40) AS SubAccountName,
           TIMESTAMP '2025-01-01' + to_days(CAST((i * {DAYS}) // {rows} AS INTEGER)) + to_hours(CAST(i % 24 AS INTEGER)) AS ChargePeriodStart,
           TIMESTAMP '2025-01-01' + to_days(CAST((i * {DAYS}) // {rows} AS INTEGER)) + to_hours(CAST(i % 24 AS INTEGER) + 1) AS ChargePeriodEnd,
           date_trunc('month', TIMESTAMP '2025-01-01' + to_days(CAST((i * {DAYS}) // {rows} AS INTEGER))) AS BillingPeriodStart,
           'service-' || ((i // 3) % 60) AS ServiceName,
           'Compute' AS ServiceCategory,
           'region-' || ((i // 11) % 20) AS RegionId,
           'usage-' || ((i // 13) % 500) AS x_UsageType,
           CASE WHEN i % 50 = 0 THEN 'Credit' WHEN i % 50 = 1 THEN 'Tax' ELSE 'Usage' END AS ChargeCategory,
           'i-' || (i % 100000) AS ResourceId,
           'instance' AS ResourceType,
           CAST((i % 1000) / 100.0 AS DECIMAL(18,9)) AS BilledCost,
           CAST((i % 1000) / 120.0 AS DECIMAL(18,9)) AS EffectiveCost,
           CAST((i % 1000) / 90.0 AS DECIMAL(18,9)) AS ListCost,
           'USD' AS BillingCurrency,
           1.0 AS ConsumedQuantity,
           'Hrs' AS ConsumedUnit,
           '{{\"team\": \"team-' || ((i // 5) % 8) || '\", \"env\": \"' || CASE WHEN i % 3 = 0 THEN 'prod' ELSE 'dev' END || '\"}}' AS Tags
         FROM range({rows}) AS r(i)) TO '{}' (FORMAT {format})",
        path.display()
    )
}

/// Loads a FOCUS file of `rows` rows through `stage()` alone and through `engine.load`.
async fn file_load(engine: &DuckDbEngine, dir: &std::path::Path, rows: u64, format: &str) {
    let path = dir.join(format!("focus.{format}"));
    let scratch = duckdb::Connection::open_in_memory().expect("scratch");
    scratch
        .execute_batch(&focus_copy_sql(&path, rows, format))
        .expect("write the FOCUS file");
    let started = Instant::now();
    let staged = costscope_ingest::stage(&scratch, &path, "focus", None, "staged").expect("stage");
    let stage_seconds = started.elapsed().as_secs_f64();
    drop(scratch);
    let request = LoadRequest {
        load_id: format!("focus-{format}"),
        files: vec![SourceFile {
            path: path.clone(),
            display_name: format!("focus.{format}"),
        }],
        format: None,
        progress: None,
    };
    let started = Instant::now();
    let summary = engine.load(3, request).await.expect("load");
    let load_seconds = started.elapsed().as_secs_f64();
    println!(
        "  FOCUS {format:<8} {} rows: stage() {stage_seconds:.2} s ({:.0} rows/s), engine.load {load_seconds:.2} s ({:.0} rows/s)",
        summary.rows,
        staged.rows as f64 / stage_seconds,
        summary.rows as f64 / load_seconds
    );
}

fn percentile(samples: &mut [Duration], p: f64) -> f64 {
    samples.sort();
    let index = ((samples.len() as f64 - 1.0) * p).round() as usize;
    samples[index].as_secs_f64() * 1000.0
}

fn report(name: &str, mut samples: Vec<Duration>) {
    println!(
        "  {name:<34} p50 {:>8.1} ms   p95 {:>8.1} ms",
        percentile(&mut samples, 0.5),
        percentile(&mut samples, 0.95)
    );
}

async fn time_async<F, Fut, T>(runs: usize, mut call: F) -> Vec<Duration>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = T>,
{
    call().await; // warm-up
    let mut samples = Vec::with_capacity(runs);
    for _ in 0..runs {
        let started = Instant::now();
        std::hint::black_box(call().await);
        samples.push(started.elapsed());
    }
    samples
}

fn run_raw(connection: &duckdb::Connection, sql: &Sql) -> usize {
    let mut statement = connection.prepare_cached(&sql.text).expect("prepare");
    let mut rows = statement
        .query(duckdb::params_from_iter(sql.params.iter()))
        .expect("query");
    let mut count = 0;
    while rows.next().expect("row").is_some() {
        count += 1;
    }
    count
}

fn time_raw(connection: &duckdb::Connection, runs: usize, sqls: &[Sql]) -> Vec<Duration> {
    for sql in sqls {
        run_raw(connection, sql);
    }
    (0..runs)
        .map(|_| {
            let started = Instant::now();
            for sql in sqls {
                std::hint::black_box(run_raw(connection, sql));
            }
            started.elapsed()
        })
        .collect()
}

fn plain(text: &str) -> Sql {
    Sql {
        text: text.to_owned(),
        params: Vec::new(),
        ..Sql::default()
    }
}

fn condition(operator: MatchOperator, values: &[&str]) -> ValueCondition {
    ValueCondition {
        operator,
        values: values.iter().map(|v| (*v).to_owned()).collect(),
    }
}

#[tokio::main]
async fn main() {
    // RUST_LOG=costscope_engine=debug prints the time of every load phase.
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
        .with_writer(std::io::stderr)
        .init();
    let args: Vec<String> = std::env::args().collect();
    let rows: u64 = args
        .get(1)
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000_000);
    let runs: usize = args.get(2).and_then(|v| v.parse().ok()).unwrap_or(20);
    let in_memory = args.get(3).is_some_and(|v| v == "memory");

    let dir = tempfile::tempdir().expect("temp dir");
    // COSTSCOPE_TIMING_KEEP=path keeps the database file for later inspection.
    let file = std::env::var("COSTSCOPE_TIMING_KEEP")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|_| dir.path().join("cost.duckdb"));
    let engine = if in_memory {
        DuckDbEngine::open_in_memory().expect("open")
    } else {
        DuckDbEngine::open(&file).expect("open")
    };
    println!(
        "engine_timing: {rows} rows ({}), {runs} runs, {} cores",
        if in_memory { "memory" } else { "file" },
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    );
    if engine
        .latest_charge_date(CUSTOMER)
        .await
        .expect("latest")
        .is_some()
    {
        println!("reusing the rows already in {}", file.display());
    } else {
        fill(&engine, CUSTOMER, rows).await;
        fill(&engine, 2, rows / 10).await;
    }
    let connection = engine.connection().expect("connection");
    connection.execute_batch("CHECKPOINT").expect("checkpoint");

    // 1. A year by month × service, top 10 services.
    let year = AggregateQuery {
        range: range("2025-01-01", "2025-12-31"),
        filter: CostFilter::default(),
        dimensions: vec![Dimension::Service],
        interval: Some(Interval::Monthly),
        cumulative: false,
        metric: Metric::Billed,
        limit: Some(10),
        offset: 0,
        ascending: false,
    };
    // 2. A month by day × service × account with two filter groups.
    let groups = vec![
        FilterGroup {
            join: GroupJoin::And,
            cloud_providers: vec![condition(MatchOperator::Equals, &["aws"])],
            regions: vec![condition(MatchOperator::NotIn, &["region-1", "region-2"])],
            ..FilterGroup::default()
        },
        FilterGroup {
            join: GroupJoin::Or,
            tags: vec![TagCondition {
                key: "team".into(),
                value: Some(condition(MatchOperator::In, &["team-1", "team-2"])),
            }],
            ..FilterGroup::default()
        },
    ];
    let month = AggregateQuery {
        range: range("2025-11-01", "2025-11-30"),
        filter: CostFilter {
            groups: groups.clone(),
            cost_type_inclusions: Some(vec!["Usage".into(), "Tax".into()]),
        },
        dimensions: vec![Dimension::Service, Dimension::Account],
        interval: Some(Interval::Daily),
        limit: Some(100),
        ..year.clone()
    };
    let cumulative = AggregateQuery {
        range: range("2025-11-01", "2025-11-30"),
        cumulative: true,
        interval: Some(Interval::Daily),
        ..year.clone()
    };

    let answer = engine.aggregate(CUSTOMER, &year).await.expect("aggregate");
    println!(
        "year × service: {} rows, {} groups, total {:.2}, previous {:.2}",
        answer.rows.len(),
        answer.total_groups,
        answer.total,
        answer.previous_total
    );
    let answer = engine.aggregate(CUSTOMER, &month).await.expect("aggregate");
    println!(
        "month × day × service × account: {} rows, {} groups",
        answer.rows.len(),
        answer.total_groups
    );

    println!("aggregate, year by month × service (limit 10)");
    report(
        "engine.aggregate",
        time_async(runs, || engine.aggregate(CUSTOMER, &year)).await,
    );
    report(
        "builder SQL raw (rows + summary)",
        time_raw(
            &connection,
            runs,
            &[
                query_builder::aggregate(CUSTOMER, &year),
                query_builder::previous_total(CUSTOMER, &year),
            ],
        ),
    );
    report(
        "hand-written GROUP BY raw",
        time_raw(&connection, runs, &[plain(
            "SELECT date_trunc('month', charge_period_start) AS m, service, CAST(sum(billed_cost) AS DOUBLE) \
             FROM cost_line_items WHERE customer_id = 1 AND charge_period_start BETWEEN TIMESTAMP '2025-01-01' \
             AND TIMESTAMP '2025-12-31 23:59:59.999' GROUP BY ALL",
        )]),
    );
    report(
        "same, sum as DOUBLE",
        time_raw(&connection, runs, &[plain(
            "SELECT date_trunc('month', charge_period_start) AS m, service, sum(CAST(billed_cost AS DOUBLE)) \
             FROM cost_line_items WHERE customer_id = 1 AND charge_period_start BETWEEN TIMESTAMP '2025-01-01' \
             AND TIMESTAMP '2025-12-31 23:59:59.999' GROUP BY ALL",
        )]),
    );

    println!("aggregate, month by day × service × account, two filter groups");
    report(
        "engine.aggregate",
        time_async(runs, || engine.aggregate(CUSTOMER, &month)).await,
    );
    report(
        "builder SQL raw (rows + summary)",
        time_raw(
            &connection,
            runs,
            &[
                query_builder::aggregate(CUSTOMER, &month),
                query_builder::previous_total(CUSTOMER, &month),
            ],
        ),
    );
    report(
        "hand-written GROUP BY raw",
        time_raw(&connection, runs, &[plain(
            "SELECT CAST(charge_period_start AS DATE) AS d, service, account_id, CAST(sum(billed_cost) AS DOUBLE) \
             FROM cost_line_items WHERE customer_id = 1 AND charge_period_start BETWEEN TIMESTAMP '2025-11-01' \
             AND TIMESTAMP '2025-11-30 23:59:59.999' AND cost_type IN ('Usage', 'Tax') AND ((provider IN ('aws') \
             AND region NOT IN ('region-1', 'region-2')) OR coalesce(map_extract_value(tags, 'team'), '') IN ('team-1', 'team-2')) \
             GROUP BY ALL",
        )]),
    );

    println!("aggregate, cumulative month by service");
    report(
        "engine.aggregate",
        time_async(runs, || engine.aggregate(CUSTOMER, &cumulative)).await,
    );

    println!("filter_options");
    let november = range("2025-11-01", "2025-11-30");
    let all_filter = CostFilter::default();
    report(
        "month, no filter",
        time_async(runs, || {
            engine.filter_options(CUSTOMER, Some(november), &all_filter)
        })
        .await,
    );
    let grouped = CostFilter {
        groups: groups.clone(),
        cost_type_inclusions: None,
    };
    report(
        "month, two groups",
        time_async(runs, || {
            engine.filter_options(CUSTOMER, Some(november), &grouped)
        })
        .await,
    );
    report(
        "all data, no filter",
        time_async(runs, || engine.filter_options(CUSTOMER, None, &all_filter)).await,
    );
    report(
        "builder SQL raw (values, month)",
        time_raw(
            &connection,
            runs,
            &[query_builder::filter_values(
                CUSTOMER,
                Some(&november),
                &all_filter,
            )],
        ),
    );
    report(
        "builder SQL raw (tags, month)",
        time_raw(
            &connection,
            runs,
            &[query_builder::tag_values(
                CUSTOMER,
                Some(&november),
                &all_filter,
            )],
        ),
    );

    println!("other calls");
    report(
        "spend (month)",
        time_async(runs, || {
            engine.spend(CUSTOMER, november, &all_filter, Metric::Billed)
        })
        .await,
    );
    report(
        "accounts",
        time_async(runs, || engine.accounts(CUSTOMER)).await,
    );
    report(
        "latest_charge_date",
        time_async(runs, || engine.latest_charge_date(CUSTOMER)).await,
    );
    let reload_started = Instant::now();
    fill(&engine, 2, rows / 10).await;
    println!(
        "reload (replace) of customer 2: {:.1} s",
        reload_started.elapsed().as_secs_f64()
    );

    let file_rows: u64 = std::env::var("COSTSCOPE_TIMING_FILE_ROWS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| rows.min(2_000_000));
    if file_rows > 0 {
        println!("loading FOCUS files through stage()");
        file_load(&engine, dir.path(), file_rows, "parquet").await;
        file_load(&engine, dir.path(), file_rows, "csv").await;
    }
}
