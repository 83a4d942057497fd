//! `costscope ingest` of the Parquet and of the CSV file, each into a fresh data dir, next to
//! DuckDB's own reader loading the same file (`CREATE TABLE AS SELECT * FROM read_…`).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};

use crate::generate::Dataset;

pub const EMAIL: &str = "bench@costscope.dev";
pub const PASSWORD: &str = "costscope-bench";

#[derive(Debug)]
pub struct Load {
    /// Wall time of the whole `costscope ingest` command.
    pub wall: Duration,
    /// The rows the command says it loaded.
    pub reported_rows: Option<u64>,
    /// Peak resident set of the command.
    pub peak_rss_bytes: u64,
    pub data_dir: PathBuf,
}

#[derive(Debug)]
pub struct IngestResult {
    pub parquet: Load,
    pub csv: Load,
    /// DuckDB `CREATE TABLE AS SELECT * FROM read_parquet(…)` / `read_csv(…)`.
    pub raw_parquet: Duration,
    pub raw_csv: Duration,
    pub customer_id: i64,
}

impl IngestResult {
    /// The cost database the queries run on (the Parquet load).
    pub fn cost_database(&self) -> PathBuf {
        self.parquet.data_dir.join("costs.duckdb")
    }
}

pub fn run(bin: &Path, dataset: &Dataset, dir: &Path) -> anyhow::Result<IngestResult> {
    let (parquet, customer_id) = load(bin, &dataset.parquet, &dir.join("data-parquet"))?;
    let (csv, _) = load(bin, &dataset.csv, &dir.join("data-csv"))?;
    let raw_parquet = raw_load(
        dir,
        &format!("read_parquet('{}')", dataset.parquet.display()),
    )?;
    let raw_csv = raw_load(dir, &format!("read_csv('{}')", dataset.csv.display()))?;
    Ok(IngestResult {
        parquet,
        csv,
        raw_parquet,
        raw_csv,
        customer_id,
    })
}

/// A fresh data dir with one customer, then the timed `costscope ingest FILE --customer ID`
/// (its peak memory sampled).
fn load(bin: &Path, file: &Path, data_dir: &Path) -> anyhow::Result<(Load, i64)> {
    let measured = crate::memory::measure(bin, file, data_dir, None)?;
    let load = Load {
        wall: measured.wall,
        reported_rows: measured.reported_rows,
        peak_rss_bytes: measured.peak_rss_bytes,
        data_dir: data_dir.to_owned(),
    };
    Ok((load, measured.customer_id))
}

/// Empties `data_dir` and creates the bench's owner and customer in it; answers the customer id.
pub fn create_customer(bin: &Path, data_dir: &Path) -> anyhow::Result<i64> {
    if data_dir.exists() {
        std::fs::remove_dir_all(data_dir)?;
    }
    std::fs::create_dir_all(data_dir)?;
    let created = costscope(bin, data_dir)
        .args(["user", "create", "--email", EMAIL, "--name", "Bench Owner"])
        .args(["--password", PASSWORD, "--customer-name", "Bench"])
        .output()?;
    let created = check("costscope user create", created)?;
    // "Created user … (id 1) as owner of customer \"Bench\" (id 1)"
    let customer_id: i64 = created
        .rsplit("(id ")
        .next()
        .and_then(|rest| rest.split(')').next())
        .and_then(|id| id.trim().parse().ok())
        .with_context(|| format!("no customer id in {created:?}"))?;
    Ok(customer_id)
}

fn costscope(bin: &Path, data_dir: &Path) -> Command {
    let mut command = Command::new(bin);
    command
        .arg("--data-dir")
        .arg(data_dir)
        .env_remove("COSTSCOPE_DATABASE_URL")
        .env_remove("COSTSCOPE_CONFIG");
    command
}

fn check(what: &str, output: std::process::Output) -> anyhow::Result<String> {
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    if !output.status.success() {
        bail!(
            "{what} failed ({}):\n{stdout}\n{}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        );
    }
    Ok(stdout)
}

/// The first number directly followed by " rows" / " line items" in the command's output.
pub fn reported_rows(stdout: &str) -> Option<u64> {
    let words: Vec<&str> = stdout.split_whitespace().collect();
    words.windows(2).find_map(|pair| {
        let unit = pair[1].trim_end_matches([',', '.', ';', ')']);
        matches!(unit, "rows" | "line" | "items")
            .then(|| pair[0].replace([',', '_'], "").parse().ok())
            .flatten()
    })
}

/// DuckDB's own reader into a fresh database file: the floor for any loader built on it.
fn raw_load(dir: &Path, source: &str) -> anyhow::Result<Duration> {
    let path = dir.join("raw-load.duckdb");
    let _ = std::fs::remove_file(&path);
    let db = duckdb::Connection::open(&path)?;
    let started = Instant::now();
    db.execute_batch(&format!(
        "CREATE TABLE items AS SELECT * FROM {source}; CHECKPOINT;"
    ))
    .with_context(|| format!("DuckDB loading {source}"))?;
    let elapsed = started.elapsed();
    drop(db);
    std::fs::remove_file(&path)?;
    Ok(elapsed)
}
