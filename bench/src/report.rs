//! Percentiles, the table printed after each size and docs/PERFORMANCE.md.

use std::fmt::Write as _;
use std::path::Path;
use std::time::Duration;

use crate::generate::Dataset;
use crate::ingest::IngestResult;
use crate::postgres::PostgresResult;
use crate::side_by_side::{self, Answered, ClickHouseRun};
use crate::{Args, Question};

/// Everything below this line of docs/PERFORMANCE.md is hand-written and kept across runs.
const KEEP_MARKER: &str =
    "<!-- Hand-written notes below this line are kept when the bench rewrites this file. -->";

/// Issue 17's targets at 10M rows: aggregation p50 ≤ 25 ms, filter options ≤ 10 ms (over HTTP).
const AGGR_P50_TARGET_MS: f64 = 25.0;
const FILTERS_P50_TARGET_MS: f64 = 10.0;
/// Issue 17's targets at 100M rows: a year by month × service ≤ 300 ms, a month by day × four
/// dimensions ≤ 1 s.
const LARGE_ROWS: u64 = 100_000_000;
const LARGE_YEAR_P50_TARGET_MS: f64 = 300.0;
const LARGE_MONTH_P50_TARGET_MS: f64 = 1000.0;
/// Issue 3's bound, kept: no slower than hand-written SQL on the line items.
const AGGR_RATIO_TARGET: f64 = 1.5;
const PARQUET_ROWS_PER_S_TARGET: f64 = 1_000_000.0;
const CSV_ROWS_PER_S_TARGET: f64 = 400_000.0;
/// A whole load's time over DuckDB's own copy of the same file.
const LOAD_OVERHEAD_TARGET: f64 = 1.2;

/// Latencies of one question (sorted) and the size of its answer.
#[derive(Debug)]
pub struct Timings {
    samples: Vec<Duration>,
    pub answer_rows: usize,
}

impl Timings {
    pub fn new(mut samples: Vec<Duration>, answer_rows: usize) -> Self {
        samples.sort();
        Self {
            samples,
            answer_rows,
        }
    }

    /// Nearest-rank percentile, in milliseconds.
    fn percentile(&self, p: f64) -> f64 {
        let rank = ((p / 100.0) * self.samples.len() as f64).ceil().max(1.0) as usize;
        self.samples[rank - 1].as_secs_f64() * 1000.0
    }

    pub fn p50(&self) -> f64 {
        self.percentile(50.0)
    }

    pub fn p95(&self) -> f64 {
        self.percentile(95.0)
    }

    pub(crate) fn cell(&self) -> String {
        format!("{:.1} / {:.1}", self.p50(), self.p95())
    }
}

pub struct SizeResult {
    pub dataset: Dataset,
    pub ingest: IngestResult,
    /// The cost API of `costscope serve` on the DuckDB file, and the engine in-process.
    pub http: Vec<Answered>,
    pub engine: Vec<Answered>,
    pub raw: Vec<Timings>,
    /// The same SQL on a narrow copy of the line items (`duckdb_raw::run_on_narrow_copy`).
    pub narrow: Vec<Timings>,
    pub postgres: Option<PostgresResult>,
    /// The same files and questions on ClickHouse (`--engines … clickhouse`).
    pub clickhouse: Option<ClickHouseRun>,
    /// Line items in each question's range ([`crate::side_by_side::rows_in_ranges`]).
    pub rows_in_range: Vec<u64>,
    /// `/proc/loadavg` (1, 5, 15 min) when this size started and ended: the machine is shared.
    pub load_before: String,
    pub load_after: String,
}

pub fn load_average() -> String {
    let text = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    text.split_whitespace()
        .take(3)
        .collect::<Vec<_>>()
        .join(" ")
}

impl SizeResult {
    fn rows_per_s(&self, time: Duration) -> f64 {
        self.dataset.rows as f64 / time.as_secs_f64()
    }
}

pub(crate) fn pass(ok: bool) -> &'static str {
    if ok {
        "pass"
    } else {
        "**FAIL**"
    }
}

pub(crate) fn thousands(value: f64) -> String {
    let digits = format!("{:.0}", value);
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn bytes(path: &Path) -> String {
    std::fs::metadata(path).map_or("?".into(), |m| mib(m.len() as f64))
}

pub(crate) fn mib(bytes: f64) -> String {
    format!("{:.0} MiB", bytes / (1024.0 * 1024.0))
}

/// The markdown tables of one data size.
fn size_section(r: &SizeResult) -> String {
    let mut s = String::new();
    let rows = thousands(r.dataset.rows as f64);
    let i = &r.ingest;
    let reported = |n: Option<u64>| n.map_or("not reported".into(), |n| thousands(n as f64));
    let _ = writeln!(s, "### {rows} line items\n");
    let _ = writeln!(
        s,
        "Data: FOCUS Parquet {}, FOCUS CSV {}, Costscope's `costs.duckdb` after the Parquet load {}.\n",
        bytes(&r.dataset.parquet),
        r.dataset.csv.as_deref().map_or("not written".into(), bytes),
        bytes(&i.cost_database())
    );
    let _ = writeln!(
        s,
        "**Ingest** (wall time of the whole `costscope ingest` command, fresh data dir; beside it, \
         DuckDB on the same file: `CREATE TABLE AS SELECT * FROM read_…`, then the floors — \
         reading and decoding every column without storing it; storing the 16 columns the cost \
         questions read and writing the other 41 to a Parquet file beside it; storing only those \
         16; storing only the 7 columns issue 17 names)\n"
    );
    let _ = writeln!(s, "| file | costscope ingest | rows/s | rows reported | peak RSS | target | DuckDB copy | rows/s | Costscope / copy (≤ {LOAD_OVERHEAD_TARGET}×) | DuckDB read only | 16 stored + 41 to Parquet | 16 stored | 7 stored |");
    let _ = writeln!(s, "|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    let files = [
        ("Parquet", Some(&i.parquet), PARQUET_ROWS_PER_S_TARGET),
        ("CSV", i.csv.as_ref(), CSV_ROWS_PER_S_TARGET),
    ];
    for (name, file, target) in files {
        let Some(file) = file else {
            let _ = writeln!(
                s,
                "| {name} | not run above {} rows | | | | | | | | | | | |",
                thousands(crate::generate::CSV_MAX_ROWS as f64)
            );
            continue;
        };
        let load = &file.load;
        let name = match load.monthly_files {
            0 => name.to_owned(),
            files => format!("{name} ({files} monthly files, one `costscope ingest` each)"),
        };
        let rate = r.rows_per_s(load.wall);
        let overhead = load.wall.as_secs_f64() / file.copy.as_secs_f64();
        let floor = |time: Duration| {
            format!(
                "{:.2} s ({} rows/s)",
                time.as_secs_f64(),
                thousands(r.rows_per_s(time))
            )
        };
        let _ = writeln!(
            s,
            "| {name} | {:.2} s | {} | {} | {} | ≥ {} rows/s: {} | {:.2} s | {} | {:.2}×: {} | {} | {} | {} | {} |",
            load.wall.as_secs_f64(),
            thousands(rate),
            reported(load.reported_rows),
            mib(load.peak_rss_bytes as f64),
            thousands(target),
            pass(rate >= target),
            file.copy.as_secs_f64(),
            thousands(r.rows_per_s(file.copy)),
            overhead,
            pass(overhead <= LOAD_OVERHEAD_TARGET),
            floor(file.read),
            floor(file.split_copy),
            floor(file.hot_copy),
            floor(file.narrow_copy),
        );
    }
    if let Some(pg) = &r.postgres {
        let _ = writeln!(
            s,
            "\nPostgreSQL {}: `COPY FROM STDIN` of the same {} rows (as Costscope stored them, CSV) {:.2} s = {} rows/s, \
             then index + ANALYZE {:.2} s; table with index {}.",
            pg.version,
            thousands(pg.rows as f64),
            pg.copy.as_secs_f64(),
            thousands(pg.rows as f64 / pg.copy.as_secs_f64()),
            pg.index_and_analyze.as_secs_f64(),
            mib(pg.table_bytes as f64)
        );
    }
    let _ = writeln!(
        s,
        "\n**Queries**, milliseconds p50 / p95 (answer rows in brackets; load average before / after \
         this size: {} / {})\n",
        r.load_before,
        r.load_after
    );
    let _ = writeln!(s, "| question | Costscope over HTTP | Costscope engine in-process | DuckDB, hand-written SQL | Costscope / DuckDB (p50) | DuckDB, same SQL on a narrow copy | PostgreSQL, same SQL | PostgreSQL / Costscope (p50) | targets |");
    let _ = writeln!(s, "|---|---|---|---|---|---|---|---|---|");
    for (n, question) in Question::ALL.into_iter().enumerate() {
        let (http, raw) = (&r.http[n].timings, &r.raw[n]);
        let ratio = http.p50() / raw.p50();
        let (pg_cell, pg_ratio) = match &r.postgres {
            Some(pg) => {
                let t = &pg.queries[n];
                (
                    format!("{} ({}, {} runs)", t.cell(), t.answer_rows, t.samples.len()),
                    format!("{:.1}×", t.p50() / http.p50()),
                )
            }
            None => ("not run".into(), "–".into()),
        };
        let mut targets = match target_ms(question, r.dataset.rows) {
            Some(target) => format!("p50 ≤ {target} ms: {}", pass(http.p50() <= target)),
            None => "–".to_owned(),
        };
        if question.is_aggregation() {
            let _ = write!(
                targets,
                "; ≤ {AGGR_RATIO_TARGET}× DuckDB: {}",
                pass(ratio <= AGGR_RATIO_TARGET)
            );
        }
        let _ = writeln!(
            s,
            "| {} | {} ({}) | {} ({}) | {} ({}) | {:.2}× | {} ({}) | {pg_cell} | {pg_ratio} | {targets} |",
            question.label(),
            http.cell(),
            http.answer_rows,
            r.engine[n].timings.cell(),
            r.engine[n].timings.answer_rows,
            raw.cell(),
            raw.answer_rows,
            ratio,
            r.narrow[n].cell(),
            r.narrow[n].answer_rows,
        );
    }
    s.push_str(&side_by_side::section(r));
    s
}

/// Issue 17's latency target of `question` at `rows` line items, over HTTP: the 10M ones at
/// every size below 100M (for reference), the 100M ones from there.
fn target_ms(question: Question, rows: u64) -> Option<f64> {
    match (question, rows >= LARGE_ROWS) {
        (Question::YearByMonthService, true) => Some(LARGE_YEAR_P50_TARGET_MS),
        (Question::MonthByDayFourDimensions, true) => Some(LARGE_MONTH_P50_TARGET_MS),
        (_, true) => None,
        (Question::FilterOptions, false) => Some(FILTERS_P50_TARGET_MS),
        (_, false) => Some(AGGR_P50_TARGET_MS),
    }
}

pub fn print(result: &SizeResult) {
    println!("\n{}", size_section(result));
}

pub(crate) fn machine() -> String {
    let read = |path: &str| std::fs::read_to_string(path).unwrap_or_default();
    let cpuinfo = read("/proc/cpuinfo");
    let cpu = cpuinfo
        .lines()
        .find_map(|line| line.strip_prefix("model name"))
        .map_or("unknown CPU", |rest| {
            rest.trim_start_matches([' ', '\t', ':'])
        });
    let mem_kib: f64 = read("/proc/meminfo")
        .lines()
        .find_map(|line| line.strip_prefix("MemTotal:"))
        .and_then(|rest| rest.trim().trim_end_matches(" kB").parse().ok())
        .unwrap_or(0.0);
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    format!(
        "{cores} cores (nproc), {cpu}, {:.0} GiB RAM, Linux {}",
        mem_kib / (1024.0 * 1024.0),
        read("/proc/sys/kernel/osrelease").trim()
    )
}

fn git_commit() -> String {
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .ok()
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
            .unwrap_or_default()
    };
    let commit = git(&["rev-parse", "--short", "HEAD"]);
    let dirty = !git(&["status", "--porcelain"]).is_empty();
    format!(
        "{commit}{}",
        if dirty { " + uncommitted changes" } else { "" }
    )
}

fn duckdb_version() -> String {
    duckdb::Connection::open_in_memory()
        .and_then(|db| db.query_row("SELECT version()", [], |row| row.get(0)))
        .unwrap_or_else(|_| "?".into())
}

/// The peak memory of gzip CSV loads (`bench/src/memory.rs`).
pub fn memory_section(loads: &[crate::memory::MemoryLoad]) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "### Peak memory of a load
"
    );
    let _ = writeln!(
        s,
        "`costscope ingest` of a gzip FOCUS CSV file in its own process; peak resident set = \
         the largest `VmHWM` read from `/proc/<pid>/status` every 50 ms until it exited.\n"
    );
    let _ = writeln!(
        s,
        "| rows | gzip file | uncompressed | costscope ingest | rows/s | rows reported | peak RSS |"
    );
    let _ = writeln!(s, "|---:|---:|---:|---:|---:|---:|---:|");
    for load in loads {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {:.2} s | {} | {} | {} |",
            thousands(load.rows as f64),
            mib(load.gzip_bytes as f64),
            mib(load.csv_bytes as f64),
            load.wall.as_secs_f64(),
            thousands(load.rows as f64 / load.wall.as_secs_f64()),
            load.reported_rows
                .map_or("not reported".into(), |n| thousands(n as f64)),
            mib(load.peak_rss_bytes as f64),
        );
    }
    s
}

pub fn write(
    args: &Args,
    results: &[SizeResult],
    memory: &[crate::memory::MemoryLoad],
) -> anyhow::Result<()> {
    let command: Vec<String> = std::env::args().skip(1).collect();
    let bin = args
        .costscope_bin
        .as_ref()
        .map_or("$CARGO_TARGET_DIR/debug/costscope".into(), |p| {
            p.display().to_string()
        });
    let mut s = String::new();
    let _ = writeln!(s, "# Costscope performance\n");
    let _ = writeln!(
        s,
        "Written by `make bench` (crate `bench/`, `costscope-bench`); every figure below comes from \
         the run described here (DESIGN §9). Re-run the command to refresh it.\n"
    );
    let _ = writeln!(s, "## The run\n");
    let _ = writeln!(
        s,
        "* Date: {}",
        chrono::Utc::now().format("%Y-%m-%d %H:%M UTC")
    );
    let _ = writeln!(s, "* Machine: {}", machine());
    let sizes: Vec<String> = args.rows.iter().map(u64::to_string).collect();
    let _ = match command.is_empty() {
        true => writeln!(
            s,
            "* Command: `make bench` (= `costscope-bench`; sizes {})",
            sizes.join(", ")
        ),
        false => writeln!(
            s,
            "* Command: `make bench BENCH_ARGS=\"{0}\"` (= `costscope-bench {0}`; sizes {1})",
            command.join(" "),
            sizes.join(", ")
        ),
    };
    let _ = writeln!(s, "* Costscope: commit {}, binary `{bin}`", git_commit());
    let _ = writeln!(
        s,
        "* DuckDB {} (the same library in Costscope and in the baseline)",
        duckdb_version()
    );
    let _ = writeln!(
        s,
        "* Data: deterministic FOCUS 1.2 line items (57 columns; 13 months from {}; AWS, Google \
         Cloud, Microsoft; 20 accounts, 40 services, 15 regions; Usage, Purchase, Tax, Credit, \
         Adjustment; JSON Tags), written by DuckDB as Parquet (zstd) and as CSV.",
        crate::generate::FIRST_DAY
    );
    let _ = writeln!(
        s,
        "* Latency: {} warm-up runs, then {} timed runs per question, one at a time; HTTP time is \
         from sending the request to the last byte of the answer (`costscope serve` on \
         127.0.0.1, signed in). The DuckDB baseline runs the hand-written SQL (`bench/src/duckdb_raw.rs`) \
         on the same `costs.duckdb` after the server stopped, including the summary query \
         (total and previous period) the API answer carries. PostgreSQL gets the same rows \
         exported from that file, typed columns, an index on (customer_id, charge_period_start), \
         ANALYZE, and the same SQL (at most {} s of timed runs per question, at least 5).",
        args.warmups, args.runs, args.postgres_budget_secs
    );
    let _ = writeln!(
        s,
        "* Targets (issue 17, at 10M rows on this 2-core machine): aggregation p50 ≤ {AGGR_P50_TARGET_MS} ms \
         (and, from issue 3, ≤ {AGGR_RATIO_TARGET}× raw DuckDB on the line items), filter options p50 ≤ \
         {FILTERS_P50_TARGET_MS} ms; ingest ≥ {} rows/s from Parquet and ≥ {} rows/s from CSV, whole \
         `costscope ingest` ≤ {LOAD_OVERHEAD_TARGET}× DuckDB's own copy of the file; at 100M rows (Parquet \
         only), a year by month × service ≤ {LARGE_YEAR_P50_TARGET_MS} ms and a month by day × four \
         dimensions ≤ {LARGE_MONTH_P50_TARGET_MS} ms. Smaller sizes show the 10M checks for reference. \
         The narrow copy is the line items' {narrow} columns copied by DuckDB into a fresh file in \
         time order, asked the same hand-written SQL.\n",
        thousands(PARQUET_ROWS_PER_S_TARGET),
        thousands(CSV_ROWS_PER_S_TARGET),
        narrow = crate::duckdb_raw::NARROW_COPY_COLUMNS.split(',').count(),
    );
    let _ = writeln!(s, "## Results\n");
    for result in results {
        let _ = writeln!(s, "{}", size_section(result));
    }
    if !memory.is_empty() {
        let _ = writeln!(s, "{}", memory_section(memory));
    }
    let previous = std::fs::read_to_string(&args.report).unwrap_or_default();
    let notes = previous
        .split_once(KEEP_MARKER)
        .map_or("\n", |(_, notes)| notes);
    let _ = write!(s, "{KEEP_MARKER}{notes}");
    std::fs::write(&args.report, s)?;
    Ok(())
}
