//! The client against real ClickHouse servers: the two local shards of cluster `costscope` that
//! `make ensure-clickhouse` starts (Debian's 18.16), or the server at
//! `COSTSCOPE_TEST_CLICKHOUSE_URL`. Nothing here is skipped: with no server answering, every test
//! that needs one fails and says how to start one. Each test makes its own uniquely named tables,
//! so tests run in parallel, and drops them when it ends (failing or not).

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use chrono::{NaiveDate, TimeZone, Utc};
use costscope_clickhouse::{
    literal, Client, Date, DateTime, Decimal, Error, RowWriter, ServerVersion, Settings, TsvRow,
};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

const URL_VAR: &str = "COSTSCOPE_TEST_CLICKHOUSE_URL";
const DEFAULT_URL: &str =
    "clickhouse://default@127.0.0.1:8123/test?cluster=costscope&shards=127.0.0.1:8123,127.0.0.1:8124";
/// The scale of the cost columns, as in the cost engine.
const SCALE: u32 = 9;
/// How long the atomicity test may keep swapping while it waits for enough reads.
const MAX_SWAPPING: Duration = Duration::from_secs(30);

// ------------------------------------------------------------------------------------ helpers

/// The client of the test server; panics, saying what to run, when none answers.
async fn client() -> Client {
    let url = std::env::var(URL_VAR).unwrap_or_else(|_| DEFAULT_URL.to_owned());
    let client = Client::from_url(&url)
        .unwrap_or_else(|e| panic!("{URL_VAR}: {e}"))
        .with_timeout(Duration::from_secs(120));
    if let Err(e) = client.server_version().await {
        panic!(
            "no ClickHouse answers at {}: {e}\nRun `make ensure-clickhouse` (scripts/ensure-clickhouse.sh) \
             to start the two local test shards, or set {URL_VAR} to a server of yours.",
            client.url()
        );
    }
    client
}

/// A table name no other test (or run) uses.
fn unique(prefix: &str) -> String {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    format!(
        "{prefix}_{}_{}_{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed),
        Utc::now().timestamp_micros()
    )
}

/// Tables a test made, dropped when the test ends, even by a panic.
struct Scratch {
    tables: Vec<(Client, String)>,
}

impl Scratch {
    fn new() -> Self {
        Self { tables: Vec::new() }
    }

    /// Creates `CREATE TABLE <name> <definition>` on `client` and returns the quoted name.
    async fn create(&mut self, client: &Client, name: &str, definition: &str) -> String {
        let table = literal::identifier(name);
        self.tables.push((client.clone(), name.to_owned()));
        client
            .execute(&format!("CREATE TABLE {table} {definition}"))
            .await
            .unwrap_or_else(|e| panic!("create {name}: {e}"));
        table
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        // The test's runtime may be unwinding, and it is blocked while this waits: drop them
        // from a runtime of our own, with clients of its own (a pooled connection is served by
        // the runtime that opened it).
        let tables: Vec<(Client, String)> = std::mem::take(&mut self.tables)
            .into_iter()
            .map(|(client, name)| (Client::new(client.url().clone()).expect("a client"), name))
            .collect();
        let dropper = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("a runtime");
            runtime.block_on(async {
                for (client, name) in tables.iter().rev() {
                    let sql = format!("DROP TABLE IF EXISTS {}", literal::identifier(name));
                    if let Err(e) = client.execute(&sql).await {
                        eprintln!("could not drop test table {name}: {e}");
                    }
                }
            });
        });
        let _ = dropper.join();
    }
}

/// One line item of the test tables: tenant, day, service and cost.
#[derive(Debug, Clone)]
struct Item {
    tenant: String,
    date: Date,
    service: String,
    nanos: i128,
}

impl TsvRow for Item {
    fn write_row(&self, row: &mut RowWriter<'_>) {
        row.field(&self.tenant)
            .field(self.date)
            .field(&self.service)
            .field(decimal(self.nanos));
    }
}

const ITEM_COLUMNS: [&str; 4] = ["tenant", "date", "service", "cost"];
const ITEM_TABLE: &str = "(tenant String, date Date, service String, cost Decimal(38, 9)) \
    ENGINE = MergeTree PARTITION BY (tenant, toYYYYMM(date)) ORDER BY (tenant, date, service)";

/// A cost in billionths as the decimal ClickHouse writes for `Decimal(38, 9)`.
fn decimal(nanos: i128) -> Decimal {
    let sign = if nanos < 0 { "-" } else { "" };
    let n = nanos.unsigned_abs();
    Decimal::parse(
        &format!("{sign}{}.{:09}", n / 1_000_000_000, n % 1_000_000_000),
        SCALE,
    )
    .expect("a decimal at scale 9")
}

fn day(y: i32, m: u32, d: u32) -> Date {
    Date::new(NaiveDate::from_ymd_opt(y, m, d).expect("a day")).expect("in range")
}

/// `n` deterministic line items over `tenants`, January to March 2024, with credits (negative
/// costs), costs up to a million with nine decimals, and services whose names need escaping.
fn items(n: u64, tenants: &[&str]) -> Vec<Item> {
    const SERVICES: [&str; 6] = [
        "AmazonEC2",
        "Cloud Storage",
        "it's \"quoted\"",
        "tab\there\nnewline",
        r"back\slash \N",
        "ünïcødé € 😀",
    ];
    let first = day(2024, 1, 1).get();
    (0..n)
        .map(|i| {
            // A spread of magnitudes, every tenth a credit.
            let magnitude = (i as i128 * 7_919_000_003 + 12_345) % 1_000_000_000_000_000;
            Item {
                tenant: tenants[i as usize % tenants.len()].to_owned(),
                date: Date::new(first + chrono::Days::new(i % 91)).expect("in range"),
                service: SERVICES[i as usize % SERVICES.len()].to_owned(),
                nanos: if i % 10 == 9 { -magnitude } else { magnitude },
            }
        })
        .collect()
}

/// (tenant, yyyymm) → (sum of cost in billionths, rows), computed here, not by ClickHouse.
fn expected_by_partition(items: &[Item]) -> BTreeMap<(String, u32), (i128, u64)> {
    let mut totals = BTreeMap::new();
    for item in items {
        let d = item.date.get();
        let month = d.format("%Y%m").to_string().parse().expect("yyyymm");
        let entry = totals.entry((item.tenant.clone(), month)).or_insert((0, 0));
        entry.0 += item.nanos;
        entry.1 += 1;
    }
    totals
}

/// The same totals as ClickHouse computes them from `table`.
async fn partition_totals(client: &Client, table: &str) -> BTreeMap<(String, u32), (i128, u64)> {
    let sql = format!(
        "SELECT tenant, toYYYYMM(date) AS month, sum(cost), count() FROM {table} \
         GROUP BY tenant, month ORDER BY tenant, month"
    );
    let rows = client.query_tsv(&sql).await.expect("totals");
    rows.iter()
        .map(|row| {
            let sum = row.decimal(2, SCALE).expect("a Decimal(38, 9) sum");
            (
                (row.text(0).unwrap().to_owned(), row.parse(1).unwrap()),
                (nanos(&sum), row.parse(3).unwrap()),
            )
        })
        .collect()
}

fn nanos(d: &Decimal) -> i128 {
    d.as_str().replace('.', "").parse().expect("digits")
}

fn total(totals: &BTreeMap<(String, u32), (i128, u64)>) -> (i128, u64) {
    totals
        .values()
        .fold((0, 0), |(s, c), (sum, count)| (s + sum, c + count))
}

// ------------------------------------------------------------------------------------ literals

/// What the server makes of a string literal: its text (through the TSV decoder) and the hex of
/// its bytes (an oracle that does not depend on the decoder).
async fn server_reads(client: &Client, value: &str) -> (String, String) {
    let lit = literal::string(value);
    let rows = client
        .query_tsv(&format!("SELECT {lit}, hex({lit})"))
        .await
        .unwrap_or_else(|e| panic!("SELECT {lit}: {e}"));
    (
        rows[0].text(0).unwrap().to_owned(),
        rows[0].text(1).unwrap().to_owned(),
    )
}

fn hex(value: &str) -> String {
    value.bytes().map(|b| format!("{b:02X}")).collect()
}

#[test]
fn string_literals_read_back_as_the_original_string_for_any_unicode() {
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    let client = runtime.block_on(client());
    let fixed = [
        "",
        "plain",
        "it's",
        "''",
        r"\",
        r"\\'\'",
        "\0",
        "a\0b",
        "line\nfeed\r\ncrlf",
        "\ttab",
        "\u{1}\u{7}\u{8}\u{b}\u{c}\u{1b}\u{1f}\u{7f}",
        "`backquote`",
        r#""double""#,
        r"\N",
        "€ 😀 ünïcödé 中文 \u{85}\u{2028}\u{feff}",
        "'; DROP TABLE x; --",
    ];
    for value in fixed {
        assert_eq!(
            runtime.block_on(server_reads(&client, value)),
            (value.to_owned(), hex(value))
        );
    }
    // Arbitrary Unicode, and strings dense in what needs escaping.
    let strategy = prop_oneof![any::<String>(), "[\\\\'`\"\\x00-\\x1f\\x7f aé€😀]{0,40}",];
    let mut runner = TestRunner::new(Config {
        cases: 512,
        failure_persistence: None,
        ..Config::default()
    });
    runner
        .run(&strategy, |value| {
            let (text, bytes) = runtime.block_on(server_reads(&client, &value));
            prop_assert_eq!(&text, &value);
            prop_assert_eq!(bytes, hex(&value));
            Ok(())
        })
        .unwrap();
}

#[tokio::test]
async fn identifiers_name_tables_and_columns_exactly() {
    let client = client().await;
    let mut scratch = Scratch::new();
    let name = unique("we`ird \\ it's ünï");
    let columns = ["cost `quoted`", r"back\slash", "it's", "ünï €", "tab\there"];
    let definition = columns
        .iter()
        .map(|c| format!("{} String", literal::identifier(c)))
        .collect::<Vec<_>>()
        .join(", ");
    let table = scratch
        .create(&client, &name, &format!("({definition}) ENGINE = Memory"))
        .await;
    let rows = client
        .query_tsv(&format!("DESCRIBE TABLE {table}"))
        .await
        .unwrap();
    let names: Vec<&str> = rows.iter().map(|r| r.text(0).unwrap()).collect();
    assert_eq!(names, columns);
    client
        .insert_tsv(&name, &columns, [vec!["a", "b", "c", "d", "e"]])
        .await
        .unwrap();
    let rows = client
        .query_tsv(&format!(
            "SELECT {} FROM {table}",
            literal::identifier("ünï €")
        ))
        .await
        .unwrap();
    assert_eq!(rows[0].text(0).unwrap(), "d");
}

#[tokio::test]
async fn decimal_date_and_integer_literals_read_back_exactly() {
    let client = client().await;
    let decimals = [
        "0",
        "-0.000000001",
        "1.5",
        "99999999999999999999999999999.999999999",
        "-99999999999999999999999999999.999999999",
    ];
    for text in decimals {
        let d = Decimal::parse(text, SCALE).unwrap();
        let sql = format!(
            "SELECT {}, toTypeName({})",
            literal::decimal(&d),
            literal::decimal(&d)
        );
        let rows = client.query_tsv(&sql).await.unwrap();
        assert_eq!(rows[0].text(0).unwrap(), d.as_str(), "{text}");
        assert_eq!(rows[0].text(1).unwrap(), "Decimal(38, 9)");
    }
    for d in [day(1970, 1, 2), day(2024, 2, 29), day(2105, 12, 31)] {
        let rows = client
            .query_tsv(&format!("SELECT {}", literal::date(d)))
            .await
            .unwrap();
        assert_eq!(rows[0].text(0).unwrap(), d.to_string());
    }
    let instants = [
        Utc.with_ymd_and_hms(1970, 1, 2, 0, 0, 0).unwrap(),
        Utc.with_ymd_and_hms(2024, 3, 31, 23, 59, 59).unwrap(),
        Utc.with_ymd_and_hms(2105, 12, 31, 23, 59, 59).unwrap(),
    ];
    for at in instants {
        let at = DateTime::new(at).unwrap();
        let lit = literal::date_time(at);
        let rows = client
            .query_tsv(&format!(
                "SELECT {lit}, toUnixTimestamp({lit}), toTypeName({lit})"
            ))
            .await
            .unwrap();
        assert_eq!(rows[0].text(0).unwrap(), at.to_string());
        assert_eq!(rows[0].parse::<i64>(1).unwrap(), at.get().timestamp());
        assert_eq!(rows[0].text(2).unwrap(), "DateTime('UTC')");
    }
    let rows = client
        .query_tsv(&format!(
            "SELECT {}, {}",
            literal::integer(i64::MIN),
            literal::integer(u64::MAX)
        ))
        .await
        .unwrap();
    assert_eq!(rows[0].text(0).unwrap(), i64::MIN.to_string());
    assert_eq!(rows[0].text(1).unwrap(), u64::MAX.to_string());
}

// ------------------------------------------------------------------------------------ tables

#[tokio::test]
async fn bulk_insert_of_100k_rows_into_a_partitioned_merge_tree_sums_exactly() {
    let client = client().await;
    let mut scratch = Scratch::new();
    let name = unique("items");
    let table = scratch.create(&client, &name, ITEM_TABLE).await;
    let items = items(100_000, &["acme", "globex", "initech"]);
    let expected = expected_by_partition(&items);

    let started = Instant::now();
    let sent = client
        .insert_tsv(&name, &ITEM_COLUMNS, items.clone())
        .await
        .unwrap();
    eprintln!("inserted {sent} rows in {:?}", started.elapsed());

    assert_eq!(sent, 100_000);
    assert_eq!(expected.len(), 9, "3 tenants × 3 months");
    assert_eq!(partition_totals(&client, &table).await, expected);
    let parts = client
        .query_tsv(&format!(
            "SELECT count(DISTINCT partition) FROM system.parts \
             WHERE database = currentDatabase() AND table = {} AND active",
            literal::string(&name)
        ))
        .await
        .unwrap();
    assert_eq!(
        parts[0].parse::<u64>(0).unwrap(),
        9,
        "one partition per tenant and month"
    );
    // Strings that need escaping come back as they went in.
    let services = client
        .query_tsv(&format!(
            "SELECT DISTINCT service FROM {table} ORDER BY service"
        ))
        .await
        .unwrap();
    let mut want: Vec<&str> = items.iter().map(|i| i.service.as_str()).collect();
    want.sort_unstable();
    want.dedup();
    let got: Vec<&str> = services.iter().map(|r| r.text(0).unwrap()).collect();
    assert_eq!(got, want);
}

/// One row of [`row_binary_round_trip_table`]'s columns, encoded by `rowbinary`.
struct BinaryRow {
    id: u32,
    text: &'static [u8],
    maybe: Option<&'static str>,
    count: Option<i64>,
    bits: u64,
    cost: i128,
    small: i128,
    big: i128,
    days: i64,
    seconds: i64,
    tags: &'static [&'static str],
    flag: u8,
}

impl BinaryRow {
    fn encode(&self, out: &mut Vec<u8>) {
        use costscope_clickhouse::rowbinary as rb;
        rb::uint32(out, self.id);
        rb::string(out, self.text);
        rb::null_flag(out, self.maybe.is_none());
        if let Some(maybe) = self.maybe {
            rb::string(out, maybe.as_bytes());
        }
        rb::null_flag(out, self.count.is_none());
        if let Some(count) = self.count {
            rb::int64(out, count);
        }
        rb::uint64(out, self.bits);
        rb::float64(out, f64::from_bits(self.bits));
        rb::decimal(out, 18, self.cost).unwrap();
        rb::decimal(out, 9, self.small).unwrap();
        rb::decimal(out, 38, self.big).unwrap();
        rb::date(out, self.days).unwrap();
        rb::date_time(out, self.seconds).unwrap();
        rb::array_len(out, self.tags.len());
        for tag in self.tags {
            rb::string(out, tag.as_bytes());
        }
        rb::uint8(out, self.flag);
    }
}

/// The test client, a scratch holding a new table `prefix_…` of `definition`, and its name.
async fn scratch_table(prefix: &str, definition: &str) -> (Client, Scratch, String) {
    let client = client().await;
    let mut scratch = Scratch::new();
    let name = unique(prefix);
    scratch.create(&client, &name, definition).await;
    (client, scratch, name)
}

const BINARY_COLUMNS: [&str; 13] = [
    "id", "text", "maybe", "count", "bits", "double", "cost", "small", "big", "day", "at", "tags",
    "flag",
];
const BINARY_TABLE: &str = "(id UInt32, text String, maybe Nullable(String), \
    count Nullable(Int64), bits UInt64, double Float64, cost Decimal(18, 9), small Decimal(9, 2), \
    big Decimal(38, 9), day Date, at DateTime('UTC'), tags Array(String), flag UInt8) \
    ENGINE = MergeTree ORDER BY id";

#[tokio::test]
async fn row_binary_values_of_every_written_type_read_back_exactly() {
    let (client, _scratch, name) = scratch_table("binary", BINARY_TABLE).await;
    let table = literal::identifier(&name);
    let rows = [
        BinaryRow {
            id: 1,
            text: "tab\there, 'quote', é, \\N".as_bytes(),
            maybe: Some(""),
            count: Some(i64::MIN),
            bits: 0.1f64.to_bits(),
            cost: -999_999_999_999_999_999,
            small: 999_999_999,
            big: -(10i128.pow(38) - 1),
            days: 1,
            seconds: 0,
            tags: &["a", "", "line\nfeed"],
            flag: 0,
        },
        BinaryRow {
            id: 2,
            text: b"",
            maybe: None,
            count: None,
            bits: (-0.0f64).to_bits(),
            cost: 1,
            small: -1,
            big: 10i128.pow(38) - 1,
            days: 49_672, // 2105-12-31
            seconds: i64::from(u32::MAX),
            tags: &[],
            flag: 255,
        },
    ];
    let mut body = Vec::new();
    for row in &rows {
        row.encode(&mut body);
    }
    // Sent cut anywhere, as chunks of a stream are.
    let chunks: Vec<Vec<u8>> = body.chunks(7).map(<[u8]>::to_vec).collect();
    client
        .insert_row_binary(&name, &BINARY_COLUMNS, chunks)
        .await
        .unwrap();
    let answer = client
        .query_tsv(&format!(
            "SELECT id, text, maybe, count, bits, reinterpretAsUInt64(reinterpretAsString(double)), \
             cost, small, big, day, toUnixTimestamp(at), arrayStringConcat(tags, '|'), flag FROM {table} \
             ORDER BY id"
        ))
        .await
        .unwrap();
    let texts: Vec<Vec<Option<&str>>> = answer
        .iter()
        .map(|row| (0..13).map(|i| row.opt(i).unwrap()).collect())
        .collect();
    let first = [
        "1",
        "tab\there, 'quote', é, \\N",
        "",
        "-9223372036854775808",
        &0.1f64.to_bits().to_string(),
        &0.1f64.to_bits().to_string(),
        "-999999999.999999999",
        "9999999.99",
        "-99999999999999999999999999999.999999999",
        "1970-01-02",
        "0",
        "a||line\nfeed",
        "0",
    ];
    let second = [
        "2",
        "",
        "\\N",
        "\\N",
        &(-0.0f64).to_bits().to_string(),
        &(-0.0f64).to_bits().to_string(),
        "0.000000001",
        "-0.01",
        "99999999999999999999999999999.999999999",
        "2105-12-31",
        &u32::MAX.to_string(),
        "",
        "255",
    ];
    let want: Vec<Vec<Option<&str>>> = [first, second]
        .iter()
        .map(|row| row.iter().map(|t| (*t != "\\N").then_some(*t)).collect())
        .collect();
    assert_eq!(texts, want);
}

#[tokio::test]
async fn row_binary_doubles_keep_every_bit() {
    let (client, _scratch, name) = scratch_table(
        "doubles",
        "(id UInt32, d Float64) ENGINE = MergeTree ORDER BY id",
    )
    .await;
    let table = literal::identifier(&name);
    // The doubles 18.16's text parser reads one unit in the last place off are among these.
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut doubles = Vec::new();
    for _ in 0..20_000 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let value = f64::from_bits(state);
        if value.is_finite() {
            doubles.push(value);
        }
    }
    doubles.extend([0.1, 1.0 / 3.0, f64::MIN_POSITIVE, f64::MAX, -0.0, 5e-324]);
    let mut body = Vec::new();
    for (id, value) in doubles.iter().enumerate() {
        costscope_clickhouse::rowbinary::uint32(&mut body, id as u32);
        costscope_clickhouse::rowbinary::float64(&mut body, *value);
    }
    client
        .insert_row_binary(&name, &["id", "d"], [body])
        .await
        .unwrap();
    let answer = client
        .query_tsv(&format!(
            "SELECT reinterpretAsUInt64(reinterpretAsString(d)) FROM {table} ORDER BY id"
        ))
        .await
        .unwrap();
    let bits: Vec<u64> = answer.iter().map(|row| row.parse(0).unwrap()).collect();
    let want: Vec<u64> = doubles.iter().map(|d| d.to_bits()).collect();
    assert_eq!(bits, want);
}

#[tokio::test]
async fn a_cut_row_binary_body_is_refused_by_the_server() {
    let (client, _scratch, name) = scratch_table(
        "cut",
        "(id UInt32, s String) ENGINE = MergeTree ORDER BY id",
    )
    .await;
    let mut body = Vec::new();
    costscope_clickhouse::rowbinary::uint32(&mut body, 1);
    costscope_clickhouse::rowbinary::string(&mut body, b"complete");
    costscope_clickhouse::rowbinary::uint32(&mut body, 2);
    costscope_clickhouse::rowbinary::varint(&mut body, 10);
    body.extend_from_slice(b"short");
    let error = client
        .insert_row_binary(&name, &["id", "s"], [body])
        .await
        .unwrap_err();
    assert!(matches!(error, Error::Server { .. }), "{error:?}");
}

#[tokio::test]
async fn a_row_of_the_wrong_width_stops_the_insert_and_nothing_is_stored() {
    let client = client().await;
    let mut scratch = Scratch::new();
    let name = unique("narrow");
    let table = scratch
        .create(
            &client,
            &name,
            "(a String, b UInt32) ENGINE = MergeTree ORDER BY a",
        )
        .await;
    let rows = vec![
        vec!["x".to_owned(), "1".to_owned()],
        vec!["y".to_owned(), "2".to_owned()],
        vec!["z".to_owned()],
    ];
    let error = client
        .insert_tsv(&name, &["a", "b"], rows)
        .await
        .unwrap_err();
    assert_eq!(error.to_string(), "row 3 has 1 fields for 2 columns");
    let count = client
        .query_tsv(&format!("SELECT count() FROM {table}"))
        .await
        .unwrap();
    assert_eq!(count[0].parse::<u64>(0).unwrap(), 0);
}

#[tokio::test]
async fn a_distributed_table_spreads_rows_over_both_shards_and_sums_them() {
    let client = client().await;
    let shards = client.shards().await.expect("the URL's shards");
    assert_eq!(shards.len(), 2, "the test cluster has two shards");
    let mut scratch = Scratch::new();
    let local = unique("items_local");
    for shard in &shards {
        scratch.create(shard, &local, ITEM_TABLE).await;
    }
    let all = unique("items_all");
    let cluster = client.url().cluster().expect("a cluster");
    // Sharded by tenant: a tenant's partitions live on one shard, so a partition swap there is
    // one atomic REPLACE PARTITION.
    let distributed = scratch
        .create(
            &client,
            &all,
            &format!(
                "(tenant String, date Date, service String, cost Decimal(38, 9)) \
                 ENGINE = Distributed({}, {}, {}, cityHash64(tenant))",
                literal::string(cluster),
                literal::string(client.url().database()),
                literal::string(&local),
            ),
        )
        .await;
    let tenants = ["t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8", "t9"];
    let items = items(30_000, &tenants);
    let expected = expected_by_partition(&items);

    let sync = client.clone().with_settings(Settings {
        insert_distributed_sync: true,
        ..Settings::default()
    });
    sync.insert_tsv(&all, &ITEM_COLUMNS, items).await.unwrap();

    let mut per_shard = Vec::new();
    for shard in &shards {
        per_shard.push(partition_totals(shard, &literal::identifier(&local)).await);
    }
    for (i, totals) in per_shard.iter().enumerate() {
        assert!(!totals.is_empty(), "shard {} got no rows", i + 1);
    }
    let tenants_on = |totals: &BTreeMap<(String, u32), (i128, u64)>| -> Vec<String> {
        let mut t: Vec<String> = totals.keys().map(|(tenant, _)| tenant.clone()).collect();
        t.dedup();
        t
    };
    let (on_first, on_second) = (tenants_on(&per_shard[0]), tenants_on(&per_shard[1]));
    assert!(
        on_first.iter().all(|t| !on_second.contains(t)),
        "each tenant on one shard: {on_first:?} / {on_second:?}"
    );
    let mut merged = per_shard[0].clone();
    merged.extend(per_shard[1].clone());
    assert_eq!(merged, expected, "the shards together hold every row once");
    assert_eq!(partition_totals(&client, &distributed).await, expected);
    let (sum, count) = total(&expected);
    let (first, second) = (total(&per_shard[0]), total(&per_shard[1]));
    assert_eq!((first.0 + second.0, first.1 + second.1), (sum, count));
    eprintln!("shard 1: {} rows, shard 2: {} rows", first.1, second.1);
}

// ------------------------------------------------------------------------------------ REPLACE PARTITION

/// Swaps the January 2024 partition of tenant `acme` in `live` for the one in `staging` (both
/// quoted names): `ALTER TABLE live REPLACE PARTITION ('acme', 202401) FROM staging`.
async fn replace_acme_january(client: &Client, live: &str, staging: &str) {
    let partition = format!(
        "({}, {})",
        literal::string("acme"),
        literal::integer(202401)
    );
    let sql = format!("ALTER TABLE {live} REPLACE PARTITION {partition} FROM {staging}");
    client
        .execute(&sql)
        .await
        .unwrap_or_else(|e| panic!("{sql}: {e}"));
}

/// The January 2024 rows of `n` items of tenant `acme`, their costs changed by `cost`.
fn acme_january(n: u64, cost: impl Fn(i128) -> i128) -> Vec<Item> {
    items(n, &["acme"])
        .into_iter()
        .filter(|i| i.date.get().format("%Y%m").to_string() == "202401")
        .map(|i| Item {
            nanos: cost(i.nanos),
            ..i
        })
        .collect()
}

#[tokio::test]
async fn replace_partition_swaps_one_tenant_month_and_nothing_else() {
    let client = client().await;
    let mut scratch = Scratch::new();
    let (live_name, staging_name) = (unique("live"), unique("staging"));
    let live = scratch.create(&client, &live_name, ITEM_TABLE).await;
    let staging = scratch
        .create(&client, &staging_name, &format!("AS {live}"))
        .await;
    let before = items(6_000, &["acme", "globex"]);
    client
        .insert_tsv(&live_name, &ITEM_COLUMNS, before.clone())
        .await
        .unwrap();
    let mut expected = expected_by_partition(&before);

    // The reloaded January of acme: other rows, another total.
    let reload = acme_january(500, |nanos| nanos / 3 + 1);
    client
        .insert_tsv(&staging_name, &ITEM_COLUMNS, reload.clone())
        .await
        .unwrap();
    replace_acme_january(&client, &live, &staging).await;
    expected.insert(
        ("acme".into(), 202401),
        expected_by_partition(&reload)[&("acme".into(), 202401)],
    );
    assert_eq!(partition_totals(&client, &live).await, expected);
    // The staging table keeps its rows (the parts are shared, not moved) until it is dropped.
    assert_eq!(
        total(&partition_totals(&client, &staging).await).1,
        reload.len() as u64
    );

    // A period that is now empty: replacing from an empty staging partition removes it.
    client
        .execute(&format!("TRUNCATE TABLE {staging}"))
        .await
        .unwrap();
    replace_acme_january(&client, &live, &staging).await;
    expected.remove(&("acme".into(), 202401));
    assert_eq!(partition_totals(&client, &live).await, expected);
}

/// `REPLACE PARTITION` on 18.16 swaps the parts of a partition under the table's parts lock in
/// one step: a query sees the old partition or the new one, never a mix, never neither. Here a
/// reader sums the partition without pause while it is swapped back and forth between two
/// stagings of different totals and row counts, each in several parts. (The same loop with
/// `DROP PARTITION` then `ATTACH PARTITION … FROM` instead sees the partition empty: tried.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replace_partition_is_atomic_for_a_concurrent_reader() {
    let client = client().await;
    let mut scratch = Scratch::new();
    let live_name = unique("live");
    let live = scratch.create(&client, &live_name, ITEM_TABLE).await;
    let mut stagings = Vec::new();
    for (n, factor) in [(9_000, 1), (15_000, -2)] {
        let name = unique("staging");
        let table = scratch.create(&client, &name, &format!("AS {live}")).await;
        let rows = acme_january(n, |nanos| nanos * factor);
        // Three inserts, three parts.
        for part in rows.chunks(rows.len() / 3 + 1) {
            client
                .insert_tsv(&name, &ITEM_COLUMNS, part.to_vec())
                .await
                .unwrap();
        }
        let sum = rows.iter().map(|i| i.nanos).sum::<i128>();
        stagings.push((table, (sum, rows.len() as u64)));
    }
    let (a, b) = (stagings[0].1, stagings[1].1);
    assert_ne!(a, b);
    replace_acme_january(&client, &live, &stagings[0].0).await;

    let stop = Arc::new(AtomicBool::new(false));
    let reads = Arc::new(AtomicUsize::new(0));
    let reader = {
        let (client, stop, reads, live) =
            (client.clone(), stop.clone(), reads.clone(), live.clone());
        tokio::spawn(async move {
            let sql = format!("SELECT sum(cost), count() FROM {live} WHERE tenant = 'acme'");
            let mut seen = Vec::new();
            while !stop.load(Ordering::Relaxed) {
                let rows = client.query_tsv(&sql).await.expect("read while swapping");
                let sum = nanos(&rows[0].decimal(0, SCALE).unwrap());
                seen.push((sum, rows[0].parse::<u64>(1).unwrap()));
                reads.fetch_add(1, Ordering::Relaxed);
            }
            seen
        })
    };
    // At least 40 swaps and 200 reads among them (bounded, should the reader starve).
    let started = Instant::now();
    let mut swaps = 0;
    while swaps < 40 || (reads.load(Ordering::Relaxed) < 200 && started.elapsed() < MAX_SWAPPING) {
        swaps += 1;
        replace_acme_january(&client, &live, &stagings[swaps % 2].0).await;
    }
    stop.store(true, Ordering::Relaxed);
    let seen = reader.await.unwrap();

    assert!(
        seen.len() >= 200,
        "the reader ran during the swaps ({} reads)",
        seen.len()
    );
    let mixed: Vec<_> = seen.iter().filter(|s| **s != a && **s != b).collect();
    assert!(
        mixed.is_empty(),
        "reads that were neither staging: {mixed:?}"
    );
    assert!(
        seen.contains(&a) && seen.contains(&b),
        "both versions were seen"
    );
    eprintln!(
        "{} reads during {swaps} swaps, each exactly one staging",
        seen.len()
    );
}

// ------------------------------------------------------------------------------------ errors and limits

#[tokio::test]
async fn bad_sql_is_refused_with_clickhouse_message_and_code() {
    let client = client().await;
    let error = client.execute("SELEC 1").await.unwrap_err();
    assert_eq!(error.code(), Some(62), "{error}");
    assert!(error.to_string().starts_with("Code: 62"), "{error}");
    assert!(error.to_string().contains("Syntax error"), "{error}");

    let missing = unique("missing");
    let error = client
        .query_tsv(&format!("SELECT * FROM {}", literal::identifier(&missing)))
        .await
        .unwrap_err();
    assert_eq!(error.code(), Some(60), "{error}");
    assert!(error.to_string().contains(&missing), "{error}");
    assert!(error.to_string().contains("exist"), "{error}");
    assert!(!error.to_string().contains("e.what()"), "{error}");
}

#[tokio::test]
async fn execution_time_memory_and_request_timeout_bound_the_work() {
    let client = client().await;
    let limited = client.clone().with_settings(Settings {
        max_execution_time: Some(Duration::from_secs(1)),
        ..Settings::default()
    });
    let started = Instant::now();
    let error = limited
        .query_tsv("SELECT sum(cityHash64(number)) FROM numbers(100000000000)")
        .await
        .unwrap_err();
    assert_eq!(error.code(), Some(159), "{error}");
    assert!(started.elapsed() < Duration::from_secs(10));

    let small = client.clone().with_settings(Settings {
        max_memory_usage: Some(1 << 20),
        ..Settings::default()
    });
    let error = small
        .query_tsv("SELECT groupArray(number) FROM numbers(10000000)")
        .await
        .unwrap_err();
    assert_eq!(error.code(), Some(241), "{error}");

    let impatient = client.clone().with_timeout(Duration::from_millis(500));
    let error = impatient.query_tsv("SELECT sleep(2)").await.unwrap_err();
    assert!(matches!(error, Error::Timeout { .. }), "{error:?}");
    assert!(
        error.to_string().contains("did not answer within 500ms"),
        "{error}"
    );
}

#[tokio::test]
async fn an_unreachable_server_is_named_in_the_error() {
    let client = Client::from_url("clickhouse://u:hunter2@127.0.0.1:1/test").unwrap();
    let error = client.execute("SELECT 1").await.unwrap_err();
    let message = error.to_string();
    assert!(matches!(error, Error::Transport { .. }), "{error:?}");
    assert!(
        message.starts_with("cannot reach ClickHouse at clickhouse://u:***@127.0.0.1:1/test"),
        "{message}"
    );
    assert!(message.contains("refused"), "{message}");
    assert!(!message.contains("hunter2"), "{message}");
}

#[tokio::test]
async fn wrong_credentials_are_refused_without_echoing_the_password() {
    let client = client().await;
    let url = client.url();
    for (user, password) in [("nobody_here", "x"), ("default", "hunter2")] {
        let wrong = Client::from_url(&format!(
            "clickhouse://{user}:{password}@{}:{}/{}",
            url.host(),
            url.port(),
            url.database()
        ))
        .unwrap();
        let error = wrong.execute("SELECT 1").await.unwrap_err();
        assert!(error.code().is_some(), "{user}: {error}");
        assert!(!error.to_string().contains("hunter2"), "{error}");
    }
}

#[tokio::test]
async fn shards_must_be_those_of_the_cluster() {
    let client = client().await;
    let count = client.shards().await.expect("the URL's shards").len();
    let url = client.url();
    let cluster = url.cluster().expect("a cluster");
    // One shard too many: the entry server listed once more.
    let listed = vec![format!("{}:{}", url.host(), url.port()); count + 1];
    let wrong = Client::from_url(&format!(
        "clickhouse://{}:{}/{}?cluster={cluster}&shards={}",
        url.host(),
        url.port(),
        url.database(),
        listed.join(",")
    ))
    .unwrap();
    let error = wrong.shards().await.unwrap_err().to_string();
    let expected = format!("has {count} shards there; the URL lists {}", count + 1);
    assert!(error.contains(&expected), "{error}");
}

#[tokio::test]
async fn the_server_is_18_16_or_newer() {
    let client = client().await;
    let version = client.server_version().await.unwrap();
    assert!(version >= ServerVersion::new(18, 16), "{version}");
    for shard in client.shards().await.unwrap() {
        assert!(shard.server_version().await.unwrap() >= ServerVersion::new(18, 16));
    }
}
