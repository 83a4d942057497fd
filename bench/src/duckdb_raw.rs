//! The baseline without Costscope: each question as hand-written SQL, run directly in DuckDB on
//! the same `costs.duckdb` file the server answered from (after the server stopped: DuckDB
//! lets one process at a time open the file). The same SQL, but for tags, runs in PostgreSQL.

use std::path::Path;
use std::time::Instant;

use anyhow::Context;
use chrono::{Duration, NaiveDate, NaiveDateTime};
use costscope_core::cost::bounds::DEFAULT_GROUPS;

use crate::ingest::IngestResult;
use crate::report::Timings;
use crate::{Args, Question, GROUP1_REGIONS, GROUP2_SERVICES};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    DuckDb,
    Postgres,
}

pub fn run(ingest: &IngestResult, args: &Args) -> anyhow::Result<Vec<Timings>> {
    let path = ingest.cost_database();
    let config = duckdb::Config::default().access_mode(duckdb::AccessMode::ReadOnly)?;
    let db = duckdb::Connection::open_with_flags(&path, config)
        .with_context(|| format!("opening {}", path.display()))?;
    let table = cost_table(&db)?;
    time_questions(&db, &table, ingest.customer_id, args)
}

/// The columns every cost question reads, copied from the line items in time order.
pub const NARROW_COPY_COLUMNS: &str = "customer_id, charge_period_start, provider, account_id, \
    account_name, service, region, cost_type, usage_type, billed_cost, tags";

/// The same SQL on a copy of the line items narrowed to [`NARROW_COPY_COLUMNS`] and ordered by
/// time (a fresh DuckDB file in `dir`): what a narrow hot table alone would give these
/// questions.
pub fn run_on_narrow_copy(
    ingest: &IngestResult,
    args: &Args,
    dir: &Path,
) -> anyhow::Result<Vec<Timings>> {
    let path = dir.join("narrow-copy.duckdb");
    let _ = std::fs::remove_file(&path);
    let db = duckdb::Connection::open(&path)?;
    db.execute_batch(&format!(
        "ATTACH '{}' AS costs (READ_ONLY);",
        ingest.cost_database().display()
    ))?;
    // The fresh file has no tables yet: the only table of line items is the attached one's.
    let table = cost_table(&db)?;
    db.execute_batch(&format!(
        "CREATE TABLE narrow AS SELECT {NARROW_COPY_COLUMNS} FROM costs.{table} \
         ORDER BY charge_period_start; DETACH costs; CHECKPOINT;"
    ))
    .context("copying the line items' hot columns")?;
    let timings = time_questions(&db, "narrow", ingest.customer_id, args);
    drop(db);
    let _ = std::fs::remove_file(&path);
    timings
}

/// Each question's hand-written SQL on `table`, warmed up, then timed.
fn time_questions(
    db: &duckdb::Connection,
    table: &str,
    customer: i64,
    args: &Args,
) -> anyhow::Result<Vec<Timings>> {
    let mut all = Vec::new();
    for question in Question::ALL {
        let statements = sql(question, table, customer, Dialect::DuckDb);
        let mut prepared = statements
            .iter()
            .map(|sql| db.prepare(sql).with_context(|| sql.clone()))
            .collect::<anyhow::Result<Vec<_>>>()?;
        // Every statement's rows, fetched; the count of the first one's is the answer size.
        let mut answer = || -> anyhow::Result<usize> {
            let mut first = None;
            for statement in &mut prepared {
                let rows = statement.query_map([], |_| Ok(()))?.count();
                first.get_or_insert(rows);
            }
            Ok(first.unwrap_or(0))
        };
        for _ in 0..args.warmups {
            answer()?;
        }
        let mut samples = Vec::with_capacity(args.runs);
        let mut rows = 0;
        for _ in 0..args.runs {
            let started = Instant::now();
            rows = answer()?;
            samples.push(started.elapsed());
        }
        all.push(Timings::new(samples, rows));
    }
    Ok(all)
}

/// The engine's table of line items (`cost_line_items`; not its daily rollups): the one with
/// `customer_id`, `load_id` and `charge_period_start`.
pub fn cost_table(db: &duckdb::Connection) -> anyhow::Result<String> {
    db.query_row(
        "SELECT table_name FROM information_schema.columns
         WHERE column_name IN ('customer_id', 'load_id', 'charge_period_start')
           AND table_schema = 'main'
         GROUP BY table_name HAVING count(*) = 3
         ORDER BY table_name = 'cost_line_items' DESC, table_name LIMIT 1",
        [],
        |row| row.get(0),
    )
    .context("no table of cost line items in the cost database")
}

/// The statements answering `question` (as the API does: the rows, ordered by bucket and group
/// rank, plus the summary over the range and the previous period of the same length).
pub fn sql(question: Question, table: &str, customer: i64, dialect: Dialect) -> Vec<String> {
    let (first, last) = question.days();
    let day = |text: &str| NaiveDate::parse_from_str(text, "%Y-%m-%d").expect("a date");
    let start = day(first).and_hms_opt(0, 0, 0).expect("midnight");
    let end = day(last)
        .and_hms_milli_opt(23, 59, 59, 999)
        .expect("a time");
    let previous_start = start - (end - start + Duration::milliseconds(1));
    let at = |t: NaiveDateTime| format!("TIMESTAMP '{}'", t.format("%Y-%m-%d %H:%M:%S%.3f"));
    let (start, end, previous_start) = (at(start), at(end), at(previous_start));
    let list = |values: &[&str]| {
        let quoted: Vec<_> = values.iter().map(|v| format!("'{v}'")).collect();
        quoted.join(", ")
    };
    let mut filter = String::new();
    if question == Question::MonthByDayServiceAccount {
        filter = format!(
            " AND ((provider = 'aws' AND region IN ({})) OR (provider = 'gcp' AND service IN ({})))",
            list(&GROUP1_REGIONS),
            list(&GROUP2_SERVICES)
        );
    }
    let scope = format!("FROM {table} WHERE customer_id = {customer}{filter}");
    let in_range = format!("{scope} AND charge_period_start BETWEEN {start} AND {end}");
    let summary = format!(
        "SELECT sum(billed_cost) FILTER (WHERE charge_period_start >= {start}),
                sum(billed_cost) FILTER (WHERE charge_period_start < {start})
         {scope} AND charge_period_start BETWEEN {previous_start} AND {end}"
    );
    match question {
        Question::YearByMonthService => vec![grouped("month", &["service"], &in_range), summary],
        Question::MonthByDayServiceAccount => vec![
            grouped("day", &["service", "account_id"], &in_range),
            summary,
        ],
        Question::MonthByDayFourDimensions => vec![
            grouped(
                "day",
                &["service", "account_id", "region", "cost_type"],
                &in_range,
            ),
            summary,
        ],
        Question::FilterOptions => vec![
            format!("SELECT DISTINCT service {in_range}"),
            format!(
                "SELECT array_agg(DISTINCT region), array_agg(DISTINCT provider),
                        array_agg(DISTINCT cost_type), array_agg(DISTINCT usage_type) {in_range}"
            ),
            format!("SELECT DISTINCT provider, account_id, account_name {in_range}"),
            match dialect {
                Dialect::DuckDb => format!(
                    "SELECT DISTINCT e.key, e.value
                     FROM (SELECT unnest(map_entries(tags)) AS e {in_range}) t"
                ),
                Dialect::Postgres => format!(
                    "SELECT DISTINCT e.key, e.value
                     FROM {table} CROSS JOIN LATERAL jsonb_each_text(tags) e
                     WHERE customer_id = {customer}
                       AND charge_period_start BETWEEN {start} AND {end}"
                ),
            },
        ],
    }
}

/// The rows of an aggregation by `unit` and `keys` as `/v2/cost/aggr` answers them: the
/// [`DEFAULT_GROUPS`] largest groups (by their total over the range), every bucket of each, in
/// bucket then rank order; with the account's name when grouped by account.
fn grouped(unit: &str, keys: &[&str], in_range: &str) -> String {
    let name = if keys.contains(&"account_id") {
        ", min(account_name) AS account_name"
    } else {
        ""
    };
    let keys = keys.join(", ");
    format!(
        "SELECT * FROM (
             SELECT *, dense_rank() OVER (ORDER BY group_total DESC, {keys}) AS rank FROM (
                 SELECT *, sum(amount) OVER (PARTITION BY {keys}) AS group_total FROM (
                     SELECT date_trunc('{unit}', charge_period_start)::DATE AS bucket, {keys}{name},
                            sum(billed_cost) AS amount
                     {in_range} GROUP BY bucket, {keys}) g) t) r
         WHERE rank <= {DEFAULT_GROUPS} ORDER BY bucket, rank"
    )
}
