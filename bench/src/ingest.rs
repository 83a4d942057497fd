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
    /// Peak resident set of the command (the largest of the commands').
    pub peak_rss_bytes: u64,
    pub data_dir: PathBuf,
    /// Monthly files loaded one `costscope ingest` after the other (their times summed), or 0
    /// for the one file.
    pub monthly_files: usize,
}

/// One file's `costscope ingest` and, on the same file, DuckDB's own baselines.
#[derive(Debug)]
pub struct FileLoad {
    pub load: Load,
    /// DuckDB `CREATE TABLE AS SELECT * FROM read_…(file)`: every column stored.
    pub copy: Duration,
    /// DuckDB reading and decoding every column of the file, storing nothing: the floor of any
    /// load that reads the whole file.
    pub read: Duration,
    /// DuckDB storing only the 7 columns issue 17 names (start, service, account, region,
    /// provider, charge category, billed cost): the floor of a load narrowed to its hot columns.
    pub narrow_copy: Duration,
    /// The same with the 16 columns every cost question reads (the three costs, currency,
    /// billing period, account name, usage type, resource, tags as the file has them).
    pub hot_copy: Duration,
    /// Those 16 columns stored and every other column written to a Parquet file beside the
    /// database: the floor of a hot table with the wide attributes kept apart (issue 17).
    pub split_copy: Duration,
}

#[derive(Debug)]
pub struct IngestResult {
    pub parquet: FileLoad,
    /// The Parquet file(s) `costscope ingest` loaded, in order: the one file, or the monthly
    /// ones above [`crate::generate::CSV_MAX_ROWS`] (what the ClickHouse side loads too).
    pub parquet_files: Vec<PathBuf>,
    /// `None` above [`crate::generate::CSV_MAX_ROWS`].
    pub csv: Option<FileLoad>,
    pub customer_id: i64,
}

impl IngestResult {
    /// The cost database the queries run on (the Parquet load).
    pub fn cost_database(&self) -> PathBuf {
        self.parquet.load.data_dir.join("costs.duckdb")
    }
}

/// Above [`crate::generate::CSV_MAX_ROWS`] the Parquet rows are loaded as monthly files, one
/// `costscope ingest` each, as a provider delivers them: a load stages its whole upload in temp
/// tables that spill to disk uncompressed, and 100M rows in one upload spilled more than 33 GB
/// before it was stopped (docs/PERFORMANCE.md).
pub fn run(bin: &Path, dataset: &Dataset, dir: &Path) -> anyhow::Result<IngestResult> {
    let data_dir = dir.join("data-parquet");
    let (parquet_files, (parquet, customer_id)) = if dataset.csv.is_none() {
        let work_dir = dataset.parquet.parent().unwrap_or(dir);
        let files = crate::generate::monthly_files(work_dir, dataset)?;
        let loaded = load_monthly(bin, &files, &data_dir)?;
        (files, loaded)
    } else {
        let loaded = load(bin, &dataset.parquet, &data_dir)?;
        (vec![dataset.parquet.clone()], loaded)
    };
    let parquet = baselines(
        dir,
        parquet,
        &format!("read_parquet('{}')", dataset.parquet.display()),
    )?;
    let csv = match &dataset.csv {
        Some(file) => {
            let (csv, _) = load(bin, file, &dir.join("data-csv"))?;
            Some(baselines(
                dir,
                csv,
                &format!("read_csv('{}')", file.display()),
            )?)
        }
        None => None,
    };
    Ok(IngestResult {
        parquet,
        parquet_files,
        csv,
        customer_id,
    })
}

/// The FOCUS columns of [`FileLoad::narrow_copy`].
const NARROW_COLUMNS: &str =
    "ChargePeriodStart, ServiceName, SubAccountId, RegionId, ProviderName, ChargeCategory, BilledCost";
/// The FOCUS columns of [`FileLoad::hot_copy`].
const HOT_COLUMNS: &str = "ChargePeriodStart, BillingPeriodStart, ProviderName, BillingAccountId, \
    SubAccountId, SubAccountName, ServiceName, RegionId, SkuMeter, ChargeCategory, ResourceId, \
    BilledCost, EffectiveCost, ListCost, BillingCurrency, Tags";

fn baselines(dir: &Path, load: Load, source: &str) -> anyhow::Result<FileLoad> {
    Ok(FileLoad {
        load,
        copy: raw_load(dir, &format!("SELECT * FROM {source}"))?,
        read: raw_read(source)?,
        narrow_copy: raw_load(dir, &format!("SELECT {NARROW_COLUMNS} FROM {source}"))?,
        hot_copy: raw_load(dir, &format!("SELECT {HOT_COLUMNS} FROM {source}"))?,
        split_copy: split_load(dir, source)?,
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
        monthly_files: 0,
    };
    Ok((load, measured.customer_id))
}

/// A fresh data dir with one customer, then a timed `costscope ingest` of each of `files`.
fn load_monthly(bin: &Path, files: &[PathBuf], data_dir: &Path) -> anyhow::Result<(Load, i64)> {
    let customer_id = create_customer(bin, data_dir)?;
    let mut load = Load {
        wall: Duration::ZERO,
        reported_rows: Some(0),
        peak_rss_bytes: 0,
        data_dir: data_dir.to_owned(),
        monthly_files: files.len(),
    };
    for file in files {
        let measured = crate::memory::measure_into(bin, file, data_dir, customer_id, None)?;
        load.wall += measured.wall;
        load.peak_rss_bytes = load.peak_rss_bytes.max(measured.peak_rss_bytes);
        load.reported_rows = load
            .reported_rows
            .zip(measured.reported_rows)
            .map(|(sum, rows)| sum + rows);
    }
    Ok((load, customer_id))
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
        .env_remove("COSTSCOPE_COST_ENGINE")
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

/// DuckDB's own reader into a fresh database file (`select`'s rows): the floor for any loader
/// built on it.
fn raw_load(dir: &Path, select: &str) -> anyhow::Result<Duration> {
    timed_into_fresh_database(dir, &format!("CREATE TABLE items AS {select};"))
}

/// [`HOT_COLUMNS`] of `source` into a fresh database file and the rest into a Parquet file
/// beside it (zstd, as the bench's own files).
fn split_load(dir: &Path, source: &str) -> anyhow::Result<Duration> {
    let cold = dir.join("raw-cold.parquet");
    let _ = std::fs::remove_file(&cold);
    let elapsed = timed_into_fresh_database(
        dir,
        &format!(
            "CREATE TABLE items AS SELECT {HOT_COLUMNS} FROM {source};
             COPY (SELECT * EXCLUDE ({HOT_COLUMNS}) FROM {source}) TO '{}'
                 (FORMAT parquet, COMPRESSION zstd);",
            cold.display()
        ),
    )?;
    std::fs::remove_file(&cold)?;
    Ok(elapsed)
}

/// The time of `statements` and a checkpoint on a fresh database file in `dir`, removed after.
fn timed_into_fresh_database(dir: &Path, statements: &str) -> anyhow::Result<Duration> {
    let path = dir.join("raw-load.duckdb");
    let _ = std::fs::remove_file(&path);
    let db = duckdb::Connection::open(&path)?;
    let started = Instant::now();
    db.execute_batch(&format!("{statements} CHECKPOINT;"))
        .with_context(|| format!("DuckDB: {statements}"))?;
    let elapsed = started.elapsed();
    drop(db);
    std::fs::remove_file(&path)?;
    Ok(elapsed)
}

/// DuckDB decoding every column of `source` (one hash per value, folded), storing nothing.
fn raw_read(source: &str) -> anyhow::Result<Duration> {
    let db = duckdb::Connection::open_in_memory()?;
    let started = Instant::now();
    db.execute_batch(&format!("SELECT bit_xor(hash(COLUMNS(*))) FROM {source};"))
        .with_context(|| format!("DuckDB reading {source}"))?;
    Ok(started.elapsed())
}
