//! DuckDB and ClickHouse side by side (issue 18): the same files loaded into both engines, the
//! same questions asked of both in-process and over HTTP, their answers compared, and the
//! ratio ClickHouse / DuckDB per question next to the goal.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::Context;

use crate::clickhouse::ClickHouseLoad;
use crate::report::{mib, pass, thousands, SizeResult, Timings};
use crate::Question;

/// Issue 18's goal: ClickHouse (two shards on this machine) within 2× of DuckDB.
const RATIO_GOAL: f64 = 2.0;

/// One question's latencies on one engine and its last answer.
pub struct Answered {
    pub timings: Timings,
    pub answer: Answer,
}

/// What is compared between the engines: the whole answer (in-process its `Debug` text: rows,
/// groups, the bits of every amount, totals, currency notes; over HTTP its JSON) and, to report
/// a difference readably, its total (the aggregation's total; the filter options' number of
/// services).
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    pub total: f64,
    pub text: String,
}

/// The ClickHouse side of one size.
pub struct ClickHouseRun {
    pub load: ClickHouseLoad,
    pub engine: Vec<Answered>,
    pub http: HttpSide,
}

pub enum HttpSide {
    Measured(Vec<Answered>),
    /// Why the questions were not asked over HTTP.
    NotRun(String),
}

/// Line items whose charge starts inside each question's range (in [`Question::ALL`] order),
/// counted by DuckDB in the generated Parquet file: the rows a question without rollups reads.
pub fn rows_in_ranges(parquet: &Path) -> anyhow::Result<Vec<u64>> {
    let db = duckdb::Connection::open_in_memory()?;
    Question::ALL
        .into_iter()
        .map(|question| {
            let (first, last) = question.days();
            let sql = format!(
                "SELECT count(*) FROM read_parquet('{}') WHERE ChargePeriodStart >= DATE '{first}' \
                 AND ChargePeriodStart < DATE '{last}' + INTERVAL 1 DAY",
                parquet.display()
            );
            db.query_row(&sql, [], |row| row.get::<_, i64>(0))
                .map(|rows| rows as u64)
                .with_context(|| format!("counting the rows of {}", question.label()))
        })
        .collect()
}

/// "equal", or what differs between DuckDB's answer and ClickHouse's.
fn agreement(duckdb: &Answer, clickhouse: &Answer) -> Result<&'static str, String> {
    if duckdb == clickhouse {
        return Ok("equal");
    }
    if duckdb.total.to_bits() != clickhouse.total.to_bits() {
        return Err(format!(
            "totals differ: DuckDB {} vs ClickHouse {}",
            duckdb.total, clickhouse.total
        ));
    }
    let at = duckdb
        .text
        .bytes()
        .zip(clickhouse.text.bytes())
        .position(|(a, b)| a != b)
        .unwrap_or(duckdb.text.len().min(clickhouse.text.len()));
    let around = |text: &str| {
        let bytes = text.as_bytes();
        let end = (at + 40).min(bytes.len());
        String::from_utf8_lossy(&bytes[at.saturating_sub(40).min(end)..end]).into_owned()
    };
    Err(format!(
        "same total, answers differ at byte {at}: DuckDB `…{}…` vs ClickHouse `…{}…`",
        around(&duckdb.text),
        around(&clickhouse.text)
    ))
}

/// Every difference between the engines' answers of one size, as lines to report.
pub fn differences(result: &SizeResult) -> Vec<String> {
    let Some(clickhouse) = &result.clickhouse else {
        return Vec::new();
    };
    let mut found = Vec::new();
    let mut compare = |how: &str, duckdb: &[Answered], clickhouse: &[Answered]| {
        for (n, question) in Question::ALL.into_iter().enumerate() {
            if let Err(difference) = agreement(&duckdb[n].answer, &clickhouse[n].answer) {
                found.push(format!(
                    "{} rows, {how}, {}: {difference}",
                    thousands(result.dataset.rows as f64),
                    question.label()
                ));
            }
        }
    };
    compare("in-process", &result.engine, &clickhouse.engine);
    if let HttpSide::Measured(http) = &clickhouse.http {
        compare("over HTTP", &result.http, http);
    }
    found
}

fn ratio_cell(duckdb: &Timings, clickhouse: &Timings) -> String {
    let ratio = clickhouse.p50() / duckdb.p50();
    format!("{ratio:.2}×: {}", pass(ratio <= RATIO_GOAL))
}

fn answers_cell(duckdb: &Answered, clickhouse: &Answered) -> String {
    match agreement(&duckdb.answer, &clickhouse.answer) {
        Ok(equal) => equal.to_owned(),
        Err(_) => "**DIFFER**".to_owned(),
    }
}

fn per_million(timings: &Timings, rows: u64) -> String {
    if rows == 0 {
        return "–".to_owned();
    }
    format!("{:.2}", timings.p50() / (rows as f64 / 1e6))
}

/// The side-by-side tables of one size (empty without a ClickHouse run).
pub fn section(r: &SizeResult) -> String {
    let Some(ch) = &r.clickhouse else {
        return String::new();
    };
    let mut s = String::new();
    let rows = r.dataset.rows as f64;
    let load = &ch.load;
    let duckdb_load = &r.ingest.parquet.load;
    let duckdb_bytes = std::fs::metadata(r.ingest.cost_database()).map_or(0, |m| m.len());
    let _ = writeln!(
        s,
        "\n**DuckDB and ClickHouse side by side** (ClickHouse {} on {} shard(s) of this machine, \
         `{}`; the same Parquet file(s) loaded into each engine, the same questions asked of each)\n",
        load.server_version, load.shards, load.url
    );
    let _ = writeln!(s, "| | DuckDB | ClickHouse | ClickHouse / DuckDB |");
    let _ = writeln!(s, "|---|---|---|---|");
    let _ = writeln!(
        s,
        "| load | {:.2} s, {} rows/s (`costscope ingest`, whole command) | {:.2} s, {} rows/s \
         (the engine's load in-process, {} load(s); {} rows loaded) | {:.2}× |",
        duckdb_load.wall.as_secs_f64(),
        thousands(rows / duckdb_load.wall.as_secs_f64()),
        load.wall.as_secs_f64(),
        thousands(rows / load.wall.as_secs_f64()),
        load.files,
        thousands(load.rows as f64),
        load.wall.as_secs_f64() / duckdb_load.wall.as_secs_f64(),
    );
    let _ = writeln!(
        s,
        "| on disk | {} (`costs.duckdb`, all tables): {:.1} bytes/row | {} (`system.parts` \
         bytes_on_disk, all tables; line items alone {} for {} rows): {:.1} bytes/row | {:.2}× |",
        mib(duckdb_bytes as f64),
        duckdb_bytes as f64 / rows,
        mib(load.storage.bytes_on_disk as f64),
        mib(load.storage.line_item_bytes as f64),
        thousands(load.storage.line_item_rows as f64),
        load.storage.bytes_on_disk as f64 / rows,
        load.storage.bytes_on_disk as f64 / duckdb_bytes as f64,
    );
    let _ = writeln!(
        s,
        "\nMilliseconds p50 / p95; ratios of p50 against the goal ClickHouse ≤ {RATIO_GOAL}× DuckDB; \
         cost per row = in-process p50 per million line items in the question's range.\n"
    );
    let _ = writeln!(
        s,
        "| question | rows in range | DuckDB in-process | ClickHouse in-process | ClickHouse / DuckDB | \
         DuckDB over HTTP | ClickHouse over HTTP | ClickHouse / DuckDB | ms per million rows \
         (DuckDB / ClickHouse) | answers in-process / over HTTP |"
    );
    let _ = writeln!(s, "|---|---:|---|---|---|---|---|---|---|---|");
    for (n, question) in Question::ALL.into_iter().enumerate() {
        let in_range = r.rows_in_range[n];
        let (duck_engine, ch_engine) = (&r.engine[n], &ch.engine[n]);
        let (http_cells, http_answers) = match &ch.http {
            HttpSide::Measured(http) => (
                format!(
                    "{} | {}",
                    http[n].timings.cell(),
                    ratio_cell(&r.http[n].timings, &http[n].timings)
                ),
                answers_cell(&r.http[n], &http[n]),
            ),
            HttpSide::NotRun(_) => ("not run | –".to_owned(), "not run".to_owned()),
        };
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {http_cells} | {} / {} | {} / {http_answers} |",
            question.label(),
            thousands(in_range as f64),
            duck_engine.timings.cell(),
            ch_engine.timings.cell(),
            ratio_cell(&duck_engine.timings, &ch_engine.timings),
            r.http[n].timings.cell(),
            per_million(&duck_engine.timings, in_range),
            per_million(&ch_engine.timings, in_range),
            answers_cell(duck_engine, ch_engine),
        );
    }
    if let HttpSide::NotRun(why) = &ch.http {
        let _ = writeln!(s, "\nClickHouse over HTTP not run: {why}.");
    }
    for difference in differences(r) {
        let _ = writeln!(s, "\n**Answers differ** — {difference}");
    }
    s
}
