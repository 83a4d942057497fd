//! The ClickHouse engine's loads against real servers: the two local shards of cluster
//! `costscope` that `make ensure-clickhouse` starts (Debian's 18.16), or the server at
//! `COSTSCOPE_TEST_CLICKHOUSE_URL`. Nothing is skipped: with no server answering, every test
//! fails and says how to start one. Each test works in a database of its own (made on every
//! shard, dropped when the test ends), so tests run in parallel.
//!
//! The DuckDB engine is the oracle: the same files loaded into both give the same summary, the
//! same rows and the same sums per partition, to the last digit.

mod support;
mod support_clickhouse;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use costscope_clickhouse::{literal, Client};
use costscope_core::cost::ExchangeRate;
use costscope_engine::{
    ClickHouseEngine, CostEngine, DuckDbEngine, LoadError, LoadPhase, LoadProgress, LoadRequest,
    SourceFile,
};
use costscope_ingest::Format;
use support::Line;
use support_clickhouse::{load_lines, url_with_database, URL_VAR};

// ------------------------------------------------------------------------------------ helpers

/// A database of the test's own on every shard, dropped when the test ends (even by a panic).
struct Database {
    name: String,
    shards: Vec<Client>,
}

impl Database {
    async fn new() -> Self {
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let name = format!(
            "costscope_load_{}_{}_{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed),
            chrono::Utc::now().timestamp_micros()
        );
        let entry = Client::from_url(&url_with_database("default"))
            .unwrap_or_else(|e| panic!("{URL_VAR}: {e}"));
        if let Err(e) = entry.server_version().await {
            panic!(
                "no ClickHouse answers at {}: {e}\nRun `make ensure-clickhouse` \
                 (scripts/ensure-clickhouse.sh) to start the two local test shards, or set \
                 {URL_VAR} to a server of yours.",
                entry.url()
            );
        }
        let shards = if entry.url().cluster().is_some() {
            entry.shards().await.expect("the URL's shards")
        } else {
            vec![entry]
        };
        for shard in &shards {
            shard
                .execute(&format!("CREATE DATABASE {}", literal::identifier(&name)))
                .await
                .expect("create the test database");
        }
        Self { name, shards }
    }

    fn url(&self) -> String {
        url_with_database(&self.name)
    }

    async fn engine(&self) -> ClickHouseEngine {
        ClickHouseEngine::connect(&self.url())
            .await
            .unwrap_or_else(|e| panic!("connect: {e}"))
    }
}

impl Drop for Database {
    fn drop(&mut self) {
        // The test's runtime may be unwinding and is blocked while this waits: drop it from a
        // runtime of our own, with clients of its own.
        let shards: Vec<Client> = self
            .shards
            .iter()
            .map(|shard| Client::new(shard.url().clone()).expect("a client"))
            .collect();
        let sql = format!(
            "DROP DATABASE IF EXISTS {}",
            literal::identifier(&self.name)
        );
        let _ = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("a runtime");
            runtime.block_on(async {
                for shard in &shards {
                    if let Err(e) = shard.execute(&sql).await {
                        eprintln!("could not drop the test database: {e}");
                    }
                }
            });
        })
        .join();
    }
}

fn fixture(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../ingest/tests/fixtures")
        .join(path)
}

fn request(load_id: &str, files: &[&str]) -> LoadRequest {
    LoadRequest {
        load_id: load_id.to_owned(),
        files: files
            .iter()
            .map(|path| SourceFile {
                path: fixture(path),
                display_name: path.rsplit('/').next().unwrap_or(path).to_owned(),
            })
            .collect(),
        format: None,
        progress: None,
    }
}

/// Files of several providers, currencies, accounts and billing periods, with tags and FOCUS
/// details (custom columns too).
const FIXTURES: [&str; 4] = [
    "vendors/focus_mixed_providers_currencies.csv",
    "vendors/focus_1_3_allocated.csv",
    "koku/aws_cur_legacy_2023-06-01.csv",
    "koku/gcp_bq_export_202011_2020-11-08_2020-11-11.csv",
];

/// Per partition (provider, billing account, period): rows and the exact sums of billed,
/// effective and list cost, as text with nine decimals.
type Partitions = BTreeMap<(String, String, String), (u64, String, String, String)>;

fn duckdb_partitions(engine: &DuckDbEngine, customer: i64) -> Partitions {
    let connection = engine.connection().unwrap();
    let mut statement = connection
        .prepare(
            "SELECT provider, billing_account_id, CAST(billing_period_start AS VARCHAR), \
             count(*), CAST(CAST(sum(billed_cost) AS DECIMAL(38,9)) AS VARCHAR), \
             CAST(CAST(sum(effective_cost) AS DECIMAL(38,9)) AS VARCHAR), \
             CAST(CAST(sum(list_cost) AS DECIMAL(38,9)) AS VARCHAR) FROM cost_line_items \
             WHERE customer_id = ? GROUP BY ALL",
        )
        .unwrap();
    statement
        .query_map([customer], |row| {
            Ok((
                (row.get(0)?, row.get(1)?, row.get(2)?),
                (
                    row.get::<_, i64>(3)? as u64,
                    row.get(4)?,
                    row.get(5)?,
                    row.get(6)?,
                ),
            ))
        })
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

async fn clickhouse_partitions(engine: &ClickHouseEngine, customer: i64) -> Partitions {
    let sql = format!(
        "SELECT provider, billing_account_id, billing_period_start, count(), sum(billed_cost), \
         sum(effective_cost), sum(list_cost) FROM cost_line_items WHERE customer_id = {customer} \
         GROUP BY provider, billing_account_id, billing_period_start"
    );
    let entry = client_of(engine);
    entry
        .query_tsv(&sql)
        .await
        .unwrap()
        .iter()
        .map(|row| {
            let text = |i| row.text(i).unwrap().to_owned();
            (
                (text(0), text(1), text(2)),
                (row.parse(3).unwrap(), text(4), text(5), text(6)),
            )
        })
        .collect()
}

fn client_of(engine: &ClickHouseEngine) -> Client {
    engine.client().clone()
}

/// Every stored row of `customer` in DuckDB, as text in one canonical form per column (sorted):
/// the columns whose ClickHouse types differ most from DuckDB's.
fn duckdb_rows(engine: &DuckDbEngine, customer: i64) -> Vec<String> {
    let connection = engine.connection().unwrap();
    let mut statement = connection
        .prepare(
            "SELECT concat_ws('|', load_id, provider, billing_account_id, account_id, \
             CAST(charge_date AS VARCHAR), CAST(epoch_us(charge_period_start) AS VARCHAR), \
             CAST(epoch_us(charge_period_end) AS VARCHAR), \
             coalesce(CAST(epoch_us(billing_period_end) AS VARCHAR), 'NULL'), service, \
             CAST(billed_cost AS VARCHAR), coalesce(CAST(contracted_cost AS VARCHAR), 'NULL'), \
             coalesce(sku_id, 'NULL'), array_to_string(map_keys(tags), ','), \
             array_to_string(map_values(tags), ','), \
             coalesce(array_to_string(map_keys(extra), ','), 'NULL'), \
             coalesce(array_to_string(map_values(extra), ','), 'NULL')), usage_quantity, \
             pricing_quantity FROM cost_line_items WHERE customer_id = ?",
        )
        .unwrap();
    let mut rows: Vec<String> = statement
        .query_map([customer], |row| {
            Ok(format!(
                "{}|{}|{}",
                row.get::<_, String>(0)?,
                row.get::<_, f64>(1)?.to_bits(),
                row.get::<_, Option<f64>>(2)?
                    .map_or("NULL".to_owned(), |q| q.to_bits().to_string())
            ))
        })
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    rows.sort();
    rows
}

async fn clickhouse_rows(engine: &ClickHouseEngine, customer: i64) -> Vec<String> {
    let sql = format!(
        "SELECT load_id, provider, billing_account_id, account_id, charge_date, \
         toUnixTimestamp(charge_period_start) * 1000000 + charge_period_start_us % 1000000, \
         charge_period_end_us, billing_period_end_us, service, billed_cost, contracted_cost, \
         sku_id, arrayStringConcat(tags_keys, ','), arrayStringConcat(tags_values, ','), \
         if(extra_present = 1, arrayStringConcat(extra_keys, ','), 'NULL'), \
         if(extra_present = 1, arrayStringConcat(extra_values, ','), 'NULL'), usage_quantity, \
         pricing_quantity FROM cost_line_items WHERE customer_id = {customer}"
    );
    let mut rows: Vec<String> = client_of(engine)
        .query_tsv(&sql)
        .await
        .unwrap()
        .iter()
        .map(|row| {
            let mut fields: Vec<String> = (0..16)
                .map(|i| row.opt(i).unwrap().unwrap_or("NULL").to_owned())
                .collect();
            // Float64 as ClickHouse writes it (shortest round trip), compared by bits.
            let bits = |i| {
                row.opt(i).unwrap().map_or("NULL".to_owned(), |q| {
                    q.parse::<f64>().unwrap().to_bits().to_string()
                })
            };
            fields.push(bits(16));
            fields.push(bits(17));
            fields.join("|")
        })
        .collect();
    rows.sort();
    rows
}

async fn count(engine: &ClickHouseEngine, customer: i64) -> u64 {
    client_of(engine)
        .query_tsv(&format!(
            "SELECT count() FROM cost_line_items WHERE customer_id = {customer}"
        ))
        .await
        .unwrap()[0]
        .parse(0)
        .unwrap()
}

/// A tenant id of this test run's own.
fn tenant(n: i64) -> i64 {
    i64::from(std::process::id()) * 1_000 + n
}

/// The engine's calls can run on any thread of a multi-threaded runtime (the server's, and the
/// `CostEngine` trait's): checked by the compiler.
#[allow(dead_code)]
fn calls_are_send(engine: &ClickHouseEngine, request: LoadRequest) {
    fn send<T: Send>(_: T) {}
    send(engine.load(1, request.clone()));
    send(engine.load_with(1, request, Box::new(|_, _, _, _| Ok((Format::Focus, 0)))));
    send(engine.committed_load("load"));
    send(engine.replace_rates(1, Vec::new()));
    send(engine.rates_summary(1));
    send(engine.list_rates(1, 10, 0));
    send(engine.clear_rates(1));
    send(engine.latest_charge_date(1));
    send(ClickHouseEngine::connect("clickhouse://localhost/test"));
}

// ------------------------------------------------------------------------------------ tests

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fixture_loads_give_the_duckdb_summary_rows_and_sums_per_partition() {
    let database = Database::new().await;
    let engine = database.engine().await;
    let duckdb = DuckDbEngine::open_in_memory().unwrap();
    let customer = tenant(1);
    for (index, files) in [&FIXTURES[..2], &FIXTURES[2..]].into_iter().enumerate() {
        let load_id = format!("load-{index}");
        let expected = duckdb
            .load(customer, request(&load_id, files))
            .await
            .unwrap();
        let summary = engine
            .load(customer, request(&load_id, files))
            .await
            .unwrap();
        assert_eq!(summary, expected, "{files:?}");
        assert!(summary.rows > 0);
    }
    let expected = duckdb_partitions(&duckdb, customer);
    assert!(expected.len() >= 5, "{expected:?}");
    assert_eq!(clickhouse_partitions(&engine, customer).await, expected);
    let rows = duckdb_rows(&duckdb, customer);
    assert_eq!(clickhouse_rows(&engine, customer).await, rows);
    assert!(
        rows.iter().any(|row| row.contains("Allocated")),
        "custom columns are stored"
    );

    // The marker answers the summary of a committed load, as the DuckDB engine's does.
    assert_eq!(
        engine.committed_load("load-1").await.unwrap(),
        duckdb.committed_load("load-1").unwrap()
    );
    assert_eq!(engine.committed_load("never").await.unwrap(), None);
    assert_eq!(
        engine.latest_charge_date(customer).await.unwrap(),
        duckdb.latest_charge_date(customer).await.unwrap()
    );
    assert!(engine.latest_charge_date(customer).await.unwrap().is_some());
    assert_eq!(engine.latest_charge_date(tenant(99)).await.unwrap(), None);
    // Connecting again finds the layout and keeps the rows.
    let again = database.engine().await;
    assert_eq!(count(&again, customer).await, rows.len() as u64);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reloading_a_period_replaces_it_without_counting_twice() {
    let database = Database::new().await;
    let engine = database.engine().await;
    let customer = tenant(2);
    let files = [FIXTURES[0]];
    let first = engine
        .load(customer, request("first", &files))
        .await
        .unwrap();
    let partitions = clickhouse_partitions(&engine, customer).await;
    let second = engine
        .load(customer, request("second", &files))
        .await
        .unwrap();
    assert_eq!(second.replaced_rows, first.rows);
    assert_eq!(second.rows, first.rows);
    assert_eq!(count(&engine, customer).await, first.rows);
    assert_eq!(clickhouse_partitions(&engine, customer).await, partitions);
    let load_ids = client_of(&engine)
        .query_tsv(&format!(
            "SELECT DISTINCT load_id FROM cost_line_items WHERE customer_id = {customer}"
        ))
        .await
        .unwrap();
    assert_eq!(load_ids.len(), 1);
    assert_eq!(load_ids[0].text(0).unwrap(), "second");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_tenants_with_the_same_periods_do_not_see_each_other() {
    let database = Database::new().await;
    let engine = database.engine().await;
    let (a, b) = (tenant(3), tenant(4));
    let both = engine.load(a, request("a", &[FIXTURES[0]])).await.unwrap();
    engine.load(b, request("b", &[FIXTURES[0]])).await.unwrap();
    let of_a = clickhouse_partitions(&engine, a).await;
    assert_eq!(clickhouse_partitions(&engine, b).await, of_a);
    // Reloading b's periods from another file leaves a's as they were.
    let other = engine.load(b, request("b2", &[FIXTURES[0]])).await.unwrap();
    assert_eq!(
        other.replaced_rows, both.rows,
        "only b's own rows are replaced"
    );
    assert_eq!(clickhouse_partitions(&engine, a).await, of_a);
    assert_eq!(count(&engine, a).await, both.rows);
    assert_eq!(count(&engine, b).await, both.rows);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bad_file_is_refused_as_on_duckdb_and_leaves_the_stored_periods() {
    let database = Database::new().await;
    let engine = database.engine().await;
    let duckdb = DuckDbEngine::open_in_memory().unwrap();
    let customer = tenant(5);
    let good = [FIXTURES[0]];
    engine.load(customer, request("good", &good)).await.unwrap();
    let before = clickhouse_partitions(&engine, customer).await;
    for bad in [
        "synthetic/focus_bad_number.csv",
        "synthetic/focus_bad_date.csv",
        "synthetic/focus_header_only.csv",
        "synthetic/unknown_format.csv",
    ] {
        let files = [FIXTURES[0], bad];
        let expected = duckdb
            .load(customer, request("bad", &files))
            .await
            .unwrap_err();
        let error = engine
            .load(customer, request("bad", &files))
            .await
            .unwrap_err();
        assert!(matches!(error, LoadError::Invalid(_)), "{bad}: {error:?}");
        assert_eq!(error.to_string(), expected.to_string(), "{bad}");
        assert_eq!(
            clickhouse_partitions(&engine, customer).await,
            before,
            "{bad}"
        );
    }
    assert_eq!(engine.committed_load("bad").await.unwrap(), None);
    // No staging table is left behind.
    for shard in engine.shards() {
        let left = shard
            .query_tsv("SELECT name FROM system.tables WHERE database = currentDatabase() AND name LIKE '%stage%'")
            .await
            .unwrap();
        assert!(left.is_empty(), "{left:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_partition_lands_on_the_shard_its_hash_names() {
    let database = Database::new().await;
    let engine = database.engine().await;
    assert_eq!(engine.shards().len(), 2, "the test cluster has two shards");
    let customers: Vec<i64> = (10..16).map(tenant).collect();
    for &customer in &customers {
        engine
            .load(customer, request("spread", &FIXTURES))
            .await
            .unwrap();
    }
    let mut on_shard = [0usize; 2];
    for (index, shard) in engine.shards().iter().enumerate() {
        let held = shard
            .query_tsv(
                "SELECT DISTINCT customer_id, provider, billing_account_id FROM cost_line_items_local",
            )
            .await
            .unwrap();
        for row in &held {
            let customer: i64 = row.parse(0).unwrap();
            let (provider, account) = (row.text(1).unwrap(), row.text(2).unwrap());
            assert_eq!(
                engine.shard_of(customer, provider, account),
                index,
                "{customer} {provider} {account}"
            );
            on_shard[index] += 1;
        }
    }
    assert!(
        on_shard.iter().all(|&n| n > 0),
        "both shards hold partitions: {on_shard:?}"
    );
}

/// Lines of one billing period: `n` line items costing `cost` each.
fn period_lines(n: usize, cost: &'static str) -> Vec<Line> {
    (0..n)
        .map(|_| Line::new("2024-03-05 10:00:00", cost))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reader_during_the_swap_never_sees_a_period_empty_or_doubled() {
    let database = Database::new().await;
    let engine = database.engine().await;
    let customer = tenant(20);
    let versions = [(1_000, "0.5"), (1_500, "-0.25")];
    let expected: Vec<(u64, String)> = versions
        .iter()
        .map(|(n, cost)| {
            let total = *n as f64 * cost.parse::<f64>().unwrap();
            (*n as u64, format!("{total:.9}"))
        })
        .collect();
    load_lines(
        &engine,
        customer,
        "v0",
        period_lines(versions[0].0, versions[0].1),
    )
    .await
    .unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let reader = {
        let (client, stop) = (client_of(&engine), Arc::clone(&stop));
        tokio::spawn(async move {
            let sql = format!(
                "SELECT count(), sum(billed_cost) FROM cost_line_items WHERE customer_id = {customer}"
            );
            let mut seen = Vec::new();
            while !stop.load(Ordering::Relaxed) {
                let rows = client.query_tsv(&sql).await.expect("read while loading");
                seen.push((
                    rows[0].parse::<u64>(0).unwrap(),
                    rows[0].text(1).unwrap().to_owned(),
                ));
            }
            seen
        })
    };
    for round in 1..=6 {
        let (n, cost) = versions[round % 2];
        let summary = load_lines(
            &engine,
            customer,
            &format!("v{round}"),
            period_lines(n, cost),
        )
        .await
        .unwrap();
        assert_eq!(summary.replaced_rows, versions[(round + 1) % 2].0 as u64);
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    stop.store(true, Ordering::Relaxed);
    let seen = reader.await.unwrap();
    assert!(
        seen.len() >= 20,
        "the reader ran during the loads ({} reads)",
        seen.len()
    );
    let odd: Vec<_> = seen.iter().filter(|s| !expected.contains(s)).collect();
    assert!(odd.is_empty(), "reads that were neither version: {odd:?}");
    assert!(
        expected.iter().all(|e| seen.contains(e)),
        "both versions were seen"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dates_clickhouse_cannot_keep_are_refused_before_anything_is_sent() {
    let database = Database::new().await;
    let engine = database.engine().await;
    let customer = tenant(21);
    let lines = vec![Line::new("1969-12-31 23:00:00", "1")];
    let error = load_lines(&engine, customer, "old", lines)
        .await
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "the upload has dates from 1969-12-01 to 1970-01-01; the ClickHouse cost engine keeps \
         dates from 1970-01-02 to 2105-12-31 only"
    );
    assert_eq!(count(&engine, customer).await, 0);
}

fn rate(date: &str, from: &str, to: &str, value: &str) -> ExchangeRate {
    let csv = format!("date,from,to,rate\n{date},{from},{to},{value}\n");
    costscope_core::cost::parse_rates_csv(csv.as_bytes())
        .expect("a rate")
        .remove(0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn exchange_rates_are_replaced_whole_listed_and_cleared_as_on_duckdb() {
    let database = Database::new().await;
    let engine = database.engine().await;
    let duckdb = DuckDbEngine::open_in_memory().unwrap();
    let (customer, other) = (tenant(30), tenant(31));
    let first = vec![
        rate("2024-01-01", "EUR", "USD", "1.1"),
        rate("2024-01-01", "GBP", "USD", "1.27"),
        rate("2024-02-01", "EUR", "USD", "1.0875"),
        rate("2024-03-01", "JPY", "USD", "0.006712345678"),
    ];
    let second = vec![
        rate("2023-12-01", "USD", "EUR", "0.92"),
        rate("2024-04-30", "CHF", "EUR", "1.0412"),
    ];
    let empty = engine.rates_summary(customer).await.unwrap();
    assert_eq!(empty, duckdb.rates_summary(customer).await.unwrap());
    assert_eq!(empty.first_date, None);
    for rates in [first.clone(), second, first] {
        let summary = engine.replace_rates(customer, rates.clone()).await.unwrap();
        assert_eq!(
            summary,
            duckdb.replace_rates(customer, rates).await.unwrap()
        );
        for (limit, offset) in [(10, 0), (2, 1), (1, 3), (5, 10)] {
            assert_eq!(
                engine.list_rates(customer, limit, offset).await.unwrap(),
                duckdb.list_rates(customer, limit, offset).await.unwrap(),
                "{limit} {offset}"
            );
        }
    }
    engine
        .replace_rates(other, vec![rate("2024-01-01", "EUR", "USD", "2")])
        .await
        .unwrap();
    assert_eq!(engine.rates_summary(customer).await.unwrap().count, 4);
    engine.clear_rates(customer).await.unwrap();
    assert_eq!(engine.rates_summary(customer).await.unwrap(), empty);
    assert_eq!(engine.list_rates(customer, 10, 0).await.unwrap().total, 0);
    assert_eq!(engine.rates_summary(other).await.unwrap().count, 1);
    // Replacing with none removes them too.
    engine.replace_rates(other, Vec::new()).await.unwrap();
    assert_eq!(engine.rates_summary(other).await.unwrap(), empty);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_load_reports_the_progress_the_duckdb_engine_reports_but_rollups() {
    let database = Database::new().await;
    let engine = database.engine().await;
    let duckdb = DuckDbEngine::open_in_memory().unwrap();
    let watched = |seen: Arc<Mutex<Vec<LoadProgress>>>| {
        let mut request = request("progress", &FIXTURES[2..]);
        request.progress = Some(Arc::new(move |progress| {
            seen.lock().unwrap().push(progress)
        }));
        request
    };
    let (on_duckdb, on_clickhouse) = (Arc::default(), Arc::default());
    duckdb
        .load(tenant(40), watched(Arc::clone(&on_duckdb)))
        .await
        .unwrap();
    engine
        .load(tenant(40), watched(Arc::clone(&on_clickhouse)))
        .await
        .unwrap();
    let phases = |seen: &Arc<Mutex<Vec<LoadProgress>>>| {
        let mut phases: Vec<(LoadPhase, usize)> = seen
            .lock()
            .unwrap()
            .iter()
            .map(|p| (p.phase, p.file_index))
            .collect();
        phases.dedup();
        phases
    };
    let mut expected = phases(&on_duckdb);
    assert_eq!(
        expected.pop().map(|(phase, _)| phase),
        Some(LoadPhase::Rollups)
    );
    assert_eq!(phases(&on_clickhouse), expected);
    let last = |seen: &Arc<Mutex<Vec<LoadProgress>>>| {
        let last = seen.lock().unwrap().last().cloned().unwrap();
        (
            last.rows_read,
            last.bytes_read,
            last.bytes_total,
            last.files,
        )
    };
    assert_eq!(last(&on_clickhouse), last(&on_duckdb));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connecting_drops_the_staging_tables_a_stopped_load_left() {
    let database = Database::new().await;
    let engine = database.engine().await;
    let now = chrono::Utc::now().timestamp_nanos_opt().unwrap();
    let fresh = format!("cost_line_items_stage_{now}_0");
    for shard in engine.shards() {
        for name in [
            "cost_line_items_stage_1000_0",
            "exchange_rates_stage_1000",
            &fresh,
        ] {
            shard
                .execute(&format!(
                    "CREATE TABLE {} (x UInt8) ENGINE = TinyLog",
                    literal::identifier(name)
                ))
                .await
                .unwrap();
        }
    }
    database.engine().await;
    for shard in engine.shards() {
        let left: Vec<String> = shard
            .query_tsv(
                "SELECT name FROM system.tables WHERE database = currentDatabase() \
                 AND name LIKE '%stage%' ORDER BY name",
            )
            .await
            .unwrap()
            .iter()
            .map(|row| row.text(0).unwrap().to_owned())
            .collect();
        assert_eq!(left, [fresh.as_str()]);
    }
}
