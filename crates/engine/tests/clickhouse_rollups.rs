//! The ClickHouse engine's rollups (issue 18): kept by every load on the shard of each billing
//! period with the same sums as its line items, replaced with them by a reload, built for a
//! database an earlier build wrote, and answering every question as the line items do — the
//! engine's own answers compared with the DuckDB engine's on data that rolls up (so both read
//! their rollups), and the builder's statements on each rollup compared with the same statement
//! on the line items.
//!
//! ClickHouse runs on the local shards of `make ensure-clickhouse` (or
//! `COSTSCOPE_TEST_CLICKHOUSE_URL`); a test fails, never skips, when none answers.

mod support;
mod support_clickhouse;

use costscope_clickhouse::{literal, Client};
use costscope_core::cost::{AggregateQuery, Dimension, Interval, Metric, TimeRange};
use costscope_engine::query_builder::{self, Currencies, Reads, Source};
use costscope_engine::{ClickHouseEngine, ClickHouseReads, CostEngine, DuckDbEngine};
use support::*;

const CUSTOMER: i64 = 21;
const OTHER: i64 = 22;

fn leak(text: String) -> &'static str {
    Box::leak(text.into_boxed_str())
}

/// January and February 2026, six charge hours a day on two AWS services (and an Azure
/// subscription every third day): many line items per day and group, so the rollups pay and
/// both engines read them. `offset` changes every amount (a reload's other figures).
fn rolling_lines(offset: u32) -> Vec<Line> {
    lines_of_days(offset, 59)
}

/// [`rolling_lines`] of the first `days` days.
fn lines_of_days(offset: u32, days: u32) -> Vec<Line> {
    let mut lines = Vec::new();
    for day in 0..days {
        let date = chrono::NaiveDate::from_ymd_opt(2026, 1, 1).unwrap()
            + chrono::Duration::days(i64::from(day));
        for hour in [0, 3, 7, 12, 18, 23] {
            let at = leak(format!("{date} {hour:02}:00:00"));
            let cents = (day * 37 + hour * 11 + offset) % 1000;
            let billed = leak(format!("{}.{:02}5", cents / 10, cents % 100));
            lines.push(Line::new(at, billed).resource("i-1"));
            lines.push(
                Line::new(at, leak(format!("0.{cents:03}000001")))
                    .service("AmazonS3")
                    .region("eu-west-1")
                    .account("222222222222", "Staging"),
            );
            if day % 3 == 0 {
                lines.push(
                    Line::new(at, billed)
                        .provider("azure")
                        .billing_account("sub-billing")
                        .account("sub-1", "Azure Sub")
                        .service("Virtual Machines")
                        .currency("USD"),
                );
            }
        }
    }
    lines
}

/// Per tenant and billing period of `table` on `client`: its line items (`count`) and sums.
async fn period_sums(client: &Client, table: &str, count: &str) -> Vec<Vec<Option<String>>> {
    let keys = "customer_id, provider, billing_account_id, billing_period_start";
    let sums = if count == "sum(line_items)" && table.starts_with("cost_rollup_stats") {
        String::new()
    } else {
        ", sum(billed_cost), sum(effective_cost), sum(list_cost)".to_owned()
    };
    client
        .query_tsv(&format!(
            "SELECT {keys}, {count}{sums} FROM {} GROUP BY {keys} ORDER BY {keys}",
            literal::identifier(table)
        ))
        .await
        .unwrap()
        .iter()
        .map(|row| row.cells().to_vec())
        .collect()
}

/// On every shard, each rollup holds exactly the line items and sums of the billing periods
/// that shard holds; answers the periods of the whole cluster.
async fn assert_rollups_match(engine: &ClickHouseEngine) -> Vec<Vec<Option<String>>> {
    let mut all = Vec::new();
    for shard in engine.shards() {
        let line_items = period_sums(shard, "cost_line_items_local", "count()").await;
        for rollup in ["cost_daily_core_local", "cost_monthly_local"] {
            assert_eq!(
                period_sums(shard, rollup, "sum(line_items)").await,
                line_items,
                "{rollup} on {}",
                shard.url()
            );
        }
        let counted = period_sums(shard, "cost_rollup_stats_local", "sum(line_items)").await;
        let without_sums: Vec<_> = line_items.iter().map(|row| row[..5].to_vec()).collect();
        assert_eq!(counted, without_sums, "row counts on {}", shard.url());
        all.extend(line_items);
    }
    all.sort();
    all
}

/// The tenants' lines in both engines (the ClickHouse one in `database`).
async fn both(database: &str) -> (DuckDbEngine, ClickHouseEngine, ClickHouseReads) {
    let tenants = vec![
        (CUSTOMER, rolling_lines(0)),
        (OTHER, rolling_lines(500)[..40].to_vec()),
    ];
    let duckdb = DuckDbEngine::open_in_memory().unwrap();
    for (customer, lines) in tenants.clone() {
        load(&duckdb, customer, lines).await;
    }
    let (engine, reads) = support_clickhouse::clickhouse_with(database, tenants, Vec::new()).await;
    (duckdb, engine, reads)
}

/// Questions the rollups answer: whole months by month (the monthly rollup), days (the core
/// daily one), a range whose boundary days straddle (the line items), filtered and grouped.
fn questions() -> Vec<AggregateQuery> {
    let months = days("2026-01-01", "2026-02-28");
    let straddling =
        TimeRange::new(at("2026-01-05T05:00:00Z"), at("2026-02-10T13:00:00Z")).unwrap();
    let mut questions = Vec::new();
    for range in [months, days("2026-01-10", "2026-02-03"), straddling] {
        for (dimensions, interval) in [
            (vec![], None),
            (vec![Dimension::Service], Some(Interval::Monthly)),
            (
                vec![Dimension::Account, Dimension::Region],
                Some(Interval::Monthly),
            ),
            (vec![Dimension::CloudProvider], Some(Interval::Daily)),
        ] {
            questions.push(grouped(range, &dimensions, interval));
        }
        let mut filtered = grouped(range, &[Dimension::Service], None);
        filtered.filter = filter(vec![{
            let mut group = group(costscope_core::cost::GroupJoin::And);
            group.services = vec![cond(
                costscope_core::cost::MatchOperator::Equals,
                &["AmazonS3"],
            )];
            group
        }]);
        filtered.metric = Metric::List;
        questions.push(filtered);
    }
    questions
}

#[tokio::test]
async fn loads_keep_the_rollups_of_each_period_on_its_shard_with_the_line_items_sums() {
    let (_duckdb, engine, _reads) = both("costscope_rollups_sums").await;
    let periods = assert_rollups_match(&engine).await;
    // Two tenants, two providers' billing accounts, two months.
    // Two months of two billing accounts; the other tenant's first days.
    assert_eq!(periods.len(), 2 * 2 + 2, "{periods:?}");
    // The stats make the rollups pay on this data, so reads choose them.
    let stats = engine
        .client()
        .query_tsv(&query_builder::rollup_stats_in(reads_dialect(&engine), CUSTOMER).text)
        .await
        .unwrap();
    let row = &stats[0];
    let line_items: i64 = row.parse(0).unwrap();
    let monthly: i64 = row.parse(1).unwrap();
    let core: i64 = row.parse(2).unwrap();
    assert_eq!(line_items, rolling_lines(0).len() as i64);
    assert!(
        query_builder::rollup_pays(core, line_items),
        "{core} core rows"
    );
    assert_eq!(monthly, 2 * 3, "per month: 2 AWS groups and Azure");
}

fn reads_dialect(engine: &ClickHouseEngine) -> query_builder::Dialect {
    ClickHouseReads::new(engine.client().clone()).dialect()
}

#[tokio::test]
async fn a_reload_replaces_the_rollup_rows_of_its_periods() {
    let (_duckdb, engine, reads) = both("costscope_rollups_reload").await;
    let first = assert_rollups_match(&engine).await;
    // The same periods again with other amounts, fewer rows in February: no doubled totals.
    let lines = lines_of_days(7, 50);
    let rows = lines.len();
    let summary = support_clickhouse::load_lines(&engine, CUSTOMER, "load-2", lines.clone())
        .await
        .unwrap();
    assert_eq!(summary.rows, rows as u64);
    let second = assert_rollups_match(&engine).await;
    assert_eq!(second.len(), first.len());
    assert_ne!(second, first);
    let duckdb = DuckDbEngine::open_in_memory().unwrap();
    load(&duckdb, CUSTOMER, lines).await;
    same_aggregates(&duckdb, &reads, CUSTOMER).await;
}

/// Every question of [`questions`] answers alike on both engines.
async fn same_aggregates(duckdb: &DuckDbEngine, reads: &ClickHouseReads, customer: i64) {
    for question in questions() {
        let expected = duckdb
            .aggregate_in(customer, &question, None)
            .await
            .unwrap();
        let got = reads.aggregate_in(customer, &question, None).await.unwrap();
        assert_eq!(
            format!("{got:#?}"),
            format!("{expected:#?}"),
            "customer {customer}, {question:#?}"
        );
    }
}

#[tokio::test]
async fn answers_from_the_rollups_equal_the_duckdb_engines() {
    let (duckdb, _engine, reads) = both("costscope_rollups_answers").await;
    for customer in [CUSTOMER, OTHER] {
        same_aggregates(&duckdb, &reads, customer).await;
        for question in questions() {
            for metric in [Metric::Billed, Metric::Effective] {
                let expected = duckdb
                    .spend_in(customer, question.range, &question.filter, metric, None)
                    .await
                    .unwrap();
                let got = reads
                    .spend_in(customer, question.range, &question.filter, metric, None)
                    .await
                    .unwrap();
                assert_eq!(format!("{got:#?}"), format!("{expected:#?}"));
            }
        }
        let expected = duckdb.accounts(customer).await.unwrap();
        let got = reads.accounts(customer).await.unwrap();
        assert_eq!(format!("{got:#?}"), format!("{expected:#?}"));
    }
}

/// The rows ClickHouse answers to `sql`, as text.
async fn answer(client: &Client, sql: &query_builder::Sql) -> Vec<Vec<Option<String>>> {
    client
        .query_tsv(&sql.text)
        .await
        .unwrap_or_else(|error| panic!("{error}\n{}", sql.text))
        .iter()
        .map(|row| row.cells().to_vec())
        .collect()
}

/// Whether `source` answers `range` exactly (no row of a partly covered day straddles it).
async fn exact(
    client: &Client,
    dialect: query_builder::Dialect,
    range: &TimeRange,
    source: Source,
) -> bool {
    let check = query_builder::straddle_check_in(
        dialect,
        CUSTOMER,
        range,
        query_builder::Rollup::Costs(source),
    );
    match check {
        _ if source == Source::LineItems => true,
        None => true,
        Some(check) => answer(client, &check).await[0][0].as_deref() == Some("0"),
    }
}

#[tokio::test]
async fn each_rollup_answers_a_question_as_the_line_items_do() {
    let (_duckdb, engine, _reads) = both("costscope_rollups_sources").await;
    let dialect = reads_dialect(&engine);
    let client = engine.client();
    let (mut compared, mut straddling) = (0, 0);
    for question in questions() {
        let previous = question.range.previous();
        let reads = Reads::aggregation(&question, &question.range, false);
        let previous_reads = Reads::aggregation(&question, &previous, false);
        let mut statements = Vec::new();
        for source in [Source::LineItems, Source::CoreDaily, Source::Monthly] {
            if !source.covers(reads) {
                continue;
            }
            if !exact(client, dialect, &question.range, source).await {
                straddling += 1;
                continue;
            }
            let mut on = vec![
                query_builder::aggregate_in(dialect, source, CUSTOMER, &question, Currencies::One),
                query_builder::spend_in(
                    dialect,
                    source,
                    CUSTOMER,
                    &question.range,
                    &question.filter,
                    question.metric,
                ),
            ];
            if source.covers(previous_reads) && exact(client, dialect, &previous, source).await {
                on.push(query_builder::previous_total_in(
                    dialect, source, CUSTOMER, &question, None,
                ));
            }
            statements.push((source, on));
        }
        let (_, expected) = &statements[0];
        for (source, on) in &statements[1..] {
            for (sql, line_items) in on.iter().zip(expected) {
                assert!(sql.text.contains(&*dialect.table(source.table())));
                assert_eq!(
                    answer(client, sql).await,
                    answer(client, line_items).await,
                    "{source:?}: {}",
                    sql.text
                );
                compared += 1;
            }
        }
    }
    assert!(compared >= 20, "{compared} statements compared");
    assert!(straddling > 0, "the straddling range reads the line items");
}

#[tokio::test]
async fn connecting_builds_the_rollups_of_a_database_an_earlier_build_wrote() {
    let database = "costscope_rollups_backfill";
    let (duckdb, engine, _reads) = both(database).await;
    let loaded = assert_rollups_match(&engine).await;
    // The layout of version 1: no rollups.
    for shard in engine.shards() {
        for table in [
            "cost_daily_core_local",
            "cost_monthly_local",
            "cost_rollup_stats_local",
            "costscope_engine_schema_local",
        ] {
            shard
                .execute(&format!("DROP TABLE {}", literal::identifier(table)))
                .await
                .unwrap();
        }
        shard
            .execute("CREATE TABLE costscope_engine_schema_local (version UInt32) ENGINE = TinyLog")
            .await
            .unwrap();
        shard
            .execute("INSERT INTO costscope_engine_schema_local (version) VALUES (1)")
            .await
            .unwrap();
    }
    let engine = ClickHouseEngine::connect(&support_clickhouse::url_of(&engine))
        .await
        .unwrap();
    assert_eq!(assert_rollups_match(&engine).await, loaded);
    for shard in engine.shards() {
        let version = shard
            .query_tsv("SELECT max(version) FROM costscope_engine_schema_local")
            .await
            .unwrap();
        assert_eq!(version[0].text(0).unwrap(), "2");
    }
    let reads = ClickHouseReads::new(engine.client().clone());
    same_aggregates(&duckdb, &reads, CUSTOMER).await;
}
