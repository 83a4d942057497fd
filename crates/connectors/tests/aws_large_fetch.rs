//! A large delivery streams from S3 (moto) to disk with bounded memory, and a delivery over
//! the limit is refused. Alone in its test binary so that the process's peak resident memory
//! (VmHWM) measures this fetch only. (moto checks no external id: see `aws_exports.rs`.)

use std::io::{BufRead, BufReader, Read, Write};

use costscope_connectors::aws::AwsExportSource;
use costscope_connectors::testing::moto::Moto;
use costscope_connectors::{BillingExportSource, FetchLimits};

const SIZE: u64 = 200 * 1024 * 1024;
const MIB: u64 = 1024 * 1024;

/// `VmRSS` or `VmHWM` of this process, in bytes.
fn proc_status(field: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status
        .lines()
        .find(|l| l.starts_with(field))
        .unwrap_or_else(|| panic!("no {field} in /proc/self/status"));
    let kb: u64 = line
        .split_whitespace()
        .nth(1)
        .and_then(|v| v.parse().ok())
        .unwrap();
    kb * 1024
}

/// Writes a gzip file of `SIZE` bytes of FOCUS-shaped CSV rows. The rows are stored
/// uncompressed (gzip's stored blocks) so that the object really is `SIZE` bytes without
/// spending minutes compressing ~1 GB of CSV on a shared machine.
fn write_large_gzip(path: &std::path::Path) {
    let file = std::fs::File::create(path).unwrap();
    let mut gz = flate2::write::GzEncoder::new(
        std::io::BufWriter::with_capacity(MIB as usize, file),
        flate2::Compression::none(),
    );
    gz.write_all(b"BilledCost,BillingAccountId,BillingCurrency,BillingPeriodStart,ChargePeriodStart,ChargePeriodEnd,ServiceName,ResourceId,EffectiveCost,ListCost\n")
        .unwrap();
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut written = 0u64;
    let mut row = String::with_capacity(256);
    // Stored blocks add 5 bytes per 64 KiB plus the header and trailer: stop a little early.
    while written < SIZE - SIZE / 1000 - 64 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        row.clear();
        use std::fmt::Write as _;
        let _ = writeln!(
            row,
            "{}.{:06},123456789012,USD,2026-10-01T00:00:00Z,2026-10-{:02}T00:00:00Z,2026-10-{:02}T01:00:00Z,Amazon Elastic Compute Cloud,i-{:016x},{}.{:04},{}.{:04}",
            state % 50,
            state % 1_000_000,
            state % 28 + 1,
            state % 28 + 1,
            state,
            state % 40,
            state % 10_000,
            state % 60,
            state % 10_000
        );
        gz.write_all(row.as_bytes()).unwrap();
        written += row.len() as u64;
    }
    gz.finish().unwrap().flush().unwrap();
}

fn same_content(a: &std::path::Path, b: &std::path::Path) -> bool {
    let mut a = BufReader::with_capacity(MIB as usize, std::fs::File::open(a).unwrap());
    let mut b = BufReader::with_capacity(MIB as usize, std::fs::File::open(b).unwrap());
    loop {
        let chunk_a = a.fill_buf().unwrap().to_vec();
        if chunk_a.is_empty() {
            return b.fill_buf().unwrap().is_empty();
        }
        let mut chunk_b = vec![0u8; chunk_a.len()];
        if b.read_exact(&mut chunk_b).is_err() || chunk_a != chunk_b {
            return false;
        }
        a.consume(chunk_a.len());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_200_mb_gzip_delivery_streams_to_disk_with_bounded_memory() {
    let moto = Moto::start();
    moto.create_bucket("costscope-large").await;
    let role = moto.create_role("CostscopeReadOnly", "cs-ext-large").await;
    let settings =
        moto.export_settings(&role, "cs-ext-large", "costscope-large", "exports", "focus");

    let work = tempfile::tempdir().unwrap();
    let source_file = work.path().join("focus-00001.csv.gz");
    write_large_gzip(&source_file);
    let size = std::fs::metadata(&source_file).unwrap().len();
    assert!(size >= SIZE - SIZE / 100, "{size}");
    let key = Moto::data_export_key(&settings, "2026-10", "focus-00001.csv.gz");
    moto.put_file("costscope-large", &key, &source_file).await;
    moto.put_data_export_manifest(&settings, "2026-10", &[key.clone()])
        .await;

    let source = AwsExportSource::new(&moto.sdk(), settings);
    let period = source.periods().await.unwrap().remove(0);
    assert_eq!(period.objects[0].bytes, Some(size));

    // The peak resident memory from here on: reset VmHWM to the current RSS (Linux).
    std::fs::write("/proc/self/clear_refs", "5").unwrap();
    let rss_before = proc_status("VmRSS:");
    let hwm_before = proc_status("VmHWM:");
    let out = tempfile::tempdir().unwrap();
    let files = source
        .fetch(&period, out.path(), FetchLimits { max_bytes: 1 << 40 })
        .await
        .unwrap();
    let hwm_after = proc_status("VmHWM:");
    eprintln!(
        "fetch of {:.0} MiB: VmRSS before {:.1} MiB, VmHWM before {:.1} MiB, VmHWM after {:.1} MiB (peak growth {:.1} MiB)",
        size as f64 / MIB as f64,
        rss_before as f64 / MIB as f64,
        hwm_before as f64 / MIB as f64,
        hwm_after as f64 / MIB as f64,
        hwm_after.saturating_sub(rss_before) as f64 / MIB as f64
    );
    assert_eq!(files.len(), 1);
    assert_eq!(files[0].bytes, size);
    assert!(files[0].path.to_str().unwrap().ends_with(".csv.gz"));
    assert!(same_content(&files[0].path, &source_file));
    assert!(
        hwm_after.saturating_sub(rss_before) < 64 * MIB,
        "the fetch of {size} bytes grew the peak resident memory by {} bytes",
        hwm_after - rss_before
    );

    // Over the limit: refused, nothing left behind (both before the download, from the
    // listed size, and during it, when the size is not known).
    let refused = tempfile::tempdir().unwrap();
    let limit = FetchLimits {
        max_bytes: 100 * MIB,
    };
    let err = source
        .fetch(&period, refused.path(), limit)
        .await
        .unwrap_err();
    assert!(
        err.message.contains("is larger than the limit of 100.0 MB"),
        "{}",
        err.message
    );
    let mut without_sizes = period.clone();
    without_sizes.objects[0].bytes = None;
    let err = source
        .fetch(&without_sizes, refused.path(), limit)
        .await
        .unwrap_err();
    assert!(
        err.message.contains("is larger than the limit of 100.0 MB"),
        "{}",
        err.message
    );
    assert_eq!(std::fs::read_dir(refused.path()).unwrap().count(), 0);
}
