//! Times one FOCUS file's load into the DuckDB engine and into the ClickHouse engine, side by
//! side in one run, with the bench's own generator (bench/src/generate.rs):
//!
//! ```text
//! cargo run -p costscope-bench --example clickhouse_load_timing -- ROWS [DIR] [CLICKHOUSE_URL]
//! ```
//! DIR (default `$TMPDIR/costscope-load-timing`) keeps the generated `focus-ROWS.parquet` for
//! the next run; the URL defaults to the two local shards of `make ensure-clickhouse`, in a
//! database of the run's own (`costscope_load_timing`, made afresh). For each engine it prints
//! the load's time split at its phases (reading + checking the file, then writing), the rows
//! per second, and the CPU seconds the ClickHouse servers spent (from /proc).

#[allow(dead_code)]
#[path = "../src/generate.rs"]
mod generate;

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::Context;
use costscope_engine::{
    ClickHouseEngine, CostEngine, DuckDbEngine, LoadPhase, LoadProgress, LoadRequest, SourceFile,
};

const DEFAULT_URL: &str =
    "clickhouse://default@127.0.0.1:8123/costscope_load_timing?cluster=costscope&shards=127.0.0.1:8123,127.0.0.1:8124";
const CUSTOMER: i64 = 1;

/// When the load entered each phase, from its progress reports.
#[derive(Default)]
struct Phases(Vec<(LoadPhase, Instant)>);

fn request(file: &std::path::Path, phases: &Arc<Mutex<Phases>>) -> LoadRequest {
    let phases = Arc::clone(phases);
    LoadRequest {
        load_id: "timing".to_owned(),
        files: vec![SourceFile {
            path: file.to_owned(),
            display_name: "focus.parquet".to_owned(),
        }],
        format: None,
        progress: Some(Arc::new(move |progress: LoadProgress| {
            let mut phases = phases.lock().unwrap();
            if phases.0.last().map(|(phase, _)| *phase) != Some(progress.phase) {
                phases.0.push((progress.phase, Instant::now()));
            }
        })),
    }
}

/// The CPU time (user + system) of every `clickhouse-server` process so far.
fn clickhouse_cpu() -> Duration {
    let ticks_per_second = 100.0; // USER_HZ on Linux
    let mut ticks = 0u64;
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let path = entry.path();
        let Ok(cmdline) = std::fs::read(path.join("cmdline")) else {
            continue;
        };
        if !cmdline.starts_with(b"clickhouse-server") {
            continue;
        }
        if let Ok(stat) = std::fs::read_to_string(path.join("stat")) {
            // Fields after the command's closing parenthesis: utime and stime are 14th and 15th.
            let fields: Vec<&str> = stat[stat.rfind(')').unwrap_or(0) + 2..]
                .split(' ')
                .collect();
            ticks +=
                fields[11].parse::<u64>().unwrap_or(0) + fields[12].parse::<u64>().unwrap_or(0);
        }
    }
    Duration::from_secs_f64(ticks as f64 / ticks_per_second)
}

fn report(engine: &str, rows: u64, started: Instant, phases: &Phases, finished: Instant) {
    let total = finished - started;
    let mut line = format!(
        "{engine:<10} {rows} rows in {:.2} s: {:.0} rows/s;",
        total.as_secs_f64(),
        rows as f64 / total.as_secs_f64()
    );
    let mut from = started;
    let mut name = "start";
    for (phase, at) in &phases.0 {
        line.push_str(&format!(" {name} {:.2} s,", (*at - from).as_secs_f64()));
        from = *at;
        name = phase.as_str();
    }
    line.push_str(&format!(" {name} {:.2} s", (finished - from).as_secs_f64()));
    println!("{line}");
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let rows: u64 = args
        .next()
        .context("usage: clickhouse_load_timing ROWS [DIR] [CLICKHOUSE_URL]")?
        .parse()
        .context("ROWS is a number")?;
    let dir = args
        .next()
        .map(Into::into)
        .unwrap_or_else(|| std::env::temp_dir().join("costscope-load-timing"));
    let url = args.next().unwrap_or_else(|| DEFAULT_URL.to_owned());

    let dataset = generate::ensure(&dir, rows)?;
    println!("{} ({rows} rows)", dataset.parquet.display());

    let scratch = tempfile_dir(&dir)?;
    let duckdb = DuckDbEngine::open(&scratch.join("costs.duckdb"))?;
    let phases = Arc::new(Mutex::new(Phases::default()));
    let started = Instant::now();
    let summary = duckdb
        .load(CUSTOMER, request(&dataset.parquet, &phases))
        .await?;
    report(
        "duckdb",
        summary.rows,
        started,
        &phases.lock().unwrap(),
        Instant::now(),
    );
    drop(duckdb);
    std::fs::remove_dir_all(&scratch)?;

    fresh_database(&url).await?;
    let clickhouse = ClickHouseEngine::connect(&url).await?;
    let phases = Arc::new(Mutex::new(Phases::default()));
    let cpu_before = clickhouse_cpu();
    let started = Instant::now();
    let summary = clickhouse
        .load(CUSTOMER, request(&dataset.parquet, &phases))
        .await?;
    let finished = Instant::now();
    report(
        "clickhouse",
        summary.rows,
        started,
        &phases.lock().unwrap(),
        finished,
    );
    println!(
        "clickhouse servers' CPU during the load: {:.2} s",
        (clickhouse_cpu() - cpu_before).as_secs_f64()
    );
    Ok(())
}

/// Drops and makes the URL's database on each of its `shards` (a plain name: this is a tool).
async fn fresh_database(url: &str) -> anyhow::Result<()> {
    let (_, rest) = url.split_once("://").context("a clickhouse:// URL")?;
    let (_, path) = rest.split_once('/').context("the URL names a database")?;
    let (database, query) = path
        .split_once('?')
        .context("the URL has ?cluster=…&shards=…")?;
    anyhow::ensure!(
        database
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_'),
        "database `{database}` is not a plain name"
    );
    let shards = query
        .split('&')
        .find_map(|pair| pair.strip_prefix("shards="))
        .context("the URL lists its shards")?;
    let http = reqwest::Client::new();
    for shard in shards.split(',') {
        for sql in [
            format!("DROP DATABASE IF EXISTS {database}"),
            format!("CREATE DATABASE {database}"),
        ] {
            http.post(format!("http://{shard}/"))
                .body(sql)
                .send()
                .await?
                .error_for_status()?;
        }
    }
    Ok(())
}

/// A fresh directory for the DuckDB engine's database under `dir`.
fn tempfile_dir(dir: &std::path::Path) -> anyhow::Result<std::path::PathBuf> {
    let scratch = dir.join(format!("duckdb-{}", std::process::id()));
    std::fs::create_dir_all(&scratch)?;
    Ok(scratch)
}
