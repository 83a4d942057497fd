//! Peak memory of a load: `costscope ingest` of a gzip FOCUS CSV in a spawned process whose
//! peak resident set (`VmHWM` in `/proc/<pid>/status`) is sampled until it exits, for a file and
//! one twice as big, so that a flat curve (memory bounded by the load memory limit, not by the
//! file) shows.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{bail, Context};

use crate::generate;
use crate::ingest::{create_customer, reported_rows};

/// How often the child's status is read. `VmHWM` is a high-water mark, so a sample taken any
/// time after the peak sees it; only a peak in the last interval before exit could be missed.
const SAMPLE_EVERY: Duration = Duration::from_millis(50);

#[derive(Debug)]
pub struct MemoryLoad {
    pub rows: u64,
    pub gzip_bytes: u64,
    /// The same rows as plain CSV.
    pub csv_bytes: u64,
    pub wall: Duration,
    /// Peak resident set of the `costscope ingest` process.
    pub peak_rss_bytes: u64,
    pub reported_rows: Option<u64>,
}

/// Loads `focus-{rows}.csv.gz` and `focus-{2·rows}.csv.gz` (generated when missing).
pub fn run(
    bin: &Path,
    work_dir: &Path,
    rows: u64,
    memory_limit: Option<&str>,
) -> anyhow::Result<Vec<MemoryLoad>> {
    [rows, rows * 2]
        .into_iter()
        .map(|rows| {
            eprintln!("[memory] generating {rows} rows of gzip FOCUS CSV (reused when present)");
            let file = generate::ensure_gzip_csv(work_dir, rows)?;
            eprintln!("[memory] costscope ingest {}", file.gzip.display());
            let load = measure(
                bin,
                &file.gzip,
                &work_dir.join(format!("memory-{rows}")),
                memory_limit,
            )?;
            Ok(MemoryLoad {
                rows,
                gzip_bytes: std::fs::metadata(&file.gzip)?.len(),
                csv_bytes: file.csv_bytes,
                wall: load.wall,
                peak_rss_bytes: load.peak_rss_bytes,
                reported_rows: load.reported_rows,
            })
        })
        .collect()
}

/// What [`measure`] saw of one `costscope ingest`.
pub struct Measured {
    pub wall: Duration,
    pub peak_rss_bytes: u64,
    pub reported_rows: Option<u64>,
    pub customer_id: i64,
}

/// `costscope ingest FILE` into a fresh data dir with one customer: wall time, peak RSS, rows
/// reported.
pub fn measure(
    bin: &Path,
    file: &Path,
    data_dir: &Path,
    memory_limit: Option<&str>,
) -> anyhow::Result<Measured> {
    let customer_id = create_customer(bin, data_dir)?;
    measure_into(bin, file, data_dir, customer_id, memory_limit)
}

/// `costscope ingest FILE --customer ID` into an existing data dir: wall time, peak RSS, rows
/// reported.
pub fn measure_into(
    bin: &Path,
    file: &Path,
    data_dir: &Path,
    customer_id: i64,
    memory_limit: Option<&str>,
) -> anyhow::Result<Measured> {
    let mut command = Command::new(bin);
    command
        .arg("--data-dir")
        .arg(data_dir)
        .env_remove("COSTSCOPE_DATABASE_URL")
        .env_remove("COSTSCOPE_COST_ENGINE")
        .env_remove("COSTSCOPE_CONFIG")
        .env_remove("COSTSCOPE_LOAD_MEMORY_LIMIT")
        .arg("ingest")
        .arg(file)
        .args(["--customer", &customer_id.to_string()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(limit) = memory_limit {
        command.args(["--load-memory-limit", limit]);
    }
    let started = Instant::now();
    let mut child = command.spawn().context("starting costscope ingest")?;
    let status_path = PathBuf::from(format!("/proc/{}/status", child.id()));
    let mut peak = 0;
    // The pipes are small; drain them on threads so the child never blocks on a full pipe.
    let stdout = child.stdout.take().map(drain);
    let stderr = child.stderr.take().map(drain);
    let status = loop {
        if let Some(hwm) = std::fs::read_to_string(&status_path)
            .ok()
            .as_deref()
            .and_then(vm_hwm_bytes)
        {
            peak = peak.max(hwm);
        }
        if let Some(status) = child.try_wait()? {
            break status;
        }
        std::thread::sleep(SAMPLE_EVERY);
    };
    let wall = started.elapsed();
    let stdout = stdout.map(join).unwrap_or_default();
    let stderr = stderr.map(join).unwrap_or_default();
    if !status.success() {
        bail!("costscope ingest failed ({status}):\n{stdout}\n{stderr}");
    }
    if peak == 0 {
        bail!("could not read the peak memory of costscope ingest from {status_path:?}");
    }
    Ok(Measured {
        wall,
        peak_rss_bytes: peak,
        reported_rows: reported_rows(&stdout),
        customer_id,
    })
}

fn drain(mut pipe: impl std::io::Read + Send + 'static) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut text = String::new();
        let _ = pipe.read_to_string(&mut text);
        text
    })
}

fn join(handle: std::thread::JoinHandle<String>) -> String {
    handle.join().unwrap_or_default()
}

/// `VmHWM:   123456 kB` → bytes.
pub fn vm_hwm_bytes(status: &str) -> Option<u64> {
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

#[cfg(test)]
mod tests {
    use super::vm_hwm_bytes;

    #[test]
    fn reads_the_high_water_mark_in_bytes() {
        let status = "Name:\tcostscope\nVmPeak:\t 2000 kB\nVmHWM:\t    1536 kB\nVmRSS:\t 1000 kB\n";
        assert_eq!(vm_hwm_bytes(status), Some(1536 * 1024));
        assert_eq!(vm_hwm_bytes("Name:\tx\n"), None);
    }
}
