//! The progress a real load reports: the file read, its rows checked, written, rolled up; bytes
//! read of the file's size; and DuckDB's memory settings.

use std::sync::{Arc, Mutex};

use costscope_engine::{
    CostEngine, DuckDbEngine, LoadPhase, LoadProgress, LoadRequest, LoadSettings, SourceFile,
};

const HEADER: &str = "BilledCost,BillingAccountId,BillingAccountName,BillingCurrency,\
BillingPeriodEnd,BillingPeriodStart,ChargeCategory,ChargeClass,ChargeDescription,\
ChargeFrequency,ChargePeriodEnd,ChargePeriodStart,ContractedCost,EffectiveCost,\
InvoiceIssuerName,ListCost,ProviderName,PublisherName,RegionId,RegionName,ServiceCategory,\
ServiceName,SkuMeter,SubAccountId,SubAccountName,Tags";

/// `rows` FOCUS 1.2 rows of October 2026, AWS, one account, 1.5 each.
fn focus_csv(rows: usize) -> String {
    let mut text = format!("{HEADER}\n");
    for i in 0..rows {
        let day = 1 + i % 28;
        text.push_str(&format!(
            "1.5,900000000000,Acme,USD,2026-11-01T00:00:00Z,2026-10-01T00:00:00Z,Usage,,\
             Compute usage,Usage-Based,2026-10-{:02}T00:00:00Z,2026-10-{day:02}T00:00:00Z,1.5,1.5,\
             AWS,2,AWS,AWS,us-east-1,US East,Compute,AmazonEC2,BoxUsage,111111111111,Prod,\n",
            day + 1
        ));
    }
    text
}

fn recorder() -> (Arc<Mutex<Vec<LoadProgress>>>, costscope_engine::ProgressFn) {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&seen);
    (
        seen,
        Arc::new(move |progress| sink.lock().unwrap().push(progress)),
    )
}

#[tokio::test]
async fn a_load_reports_reading_checking_writing_and_rollups_with_rows_and_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let engine = DuckDbEngine::open(&dir.path().join("costs.duckdb")).unwrap();
    let files: Vec<(String, u64)> = [("a.csv", 3_000), ("b.csv", 500)]
        .into_iter()
        .map(|(name, rows)| {
            let path = dir.path().join(name);
            std::fs::write(&path, focus_csv(rows)).unwrap();
            (name.to_owned(), std::fs::metadata(&path).unwrap().len())
        })
        .collect();
    let total: u64 = files.iter().map(|(_, bytes)| bytes).sum();
    let (seen, progress) = recorder();
    let request = LoadRequest {
        load_id: "1".into(),
        files: files
            .iter()
            .map(|(name, _)| SourceFile {
                path: dir.path().join(name),
                display_name: name.clone(),
            })
            .collect(),
        format: None,
        progress: Some(progress),
    };
    let summary = engine.load(1, request).await.unwrap();
    assert_eq!(summary.rows, 3_500);

    let seen = seen.lock().unwrap().clone();
    assert!(seen.iter().all(|p| p.bytes_total == total && p.files == 2));
    // Bytes and rows never go back.
    for pair in seen.windows(2) {
        assert!(pair[1].bytes_read >= pair[0].bytes_read, "{pair:?}");
        assert!(pair[1].rows_read >= pair[0].rows_read, "{pair:?}");
    }
    // The steps, without the bytes-read updates in between.
    let mut steps: Vec<(LoadPhase, usize, u64)> = Vec::new();
    for p in &seen {
        let step = (p.phase, p.file_index, p.rows_read);
        if steps.last() != Some(&step) {
            steps.push(step);
        }
    }
    assert_eq!(
        steps,
        [
            (LoadPhase::Reading, 0, 0),
            (LoadPhase::Checking, 0, 3_000),
            (LoadPhase::Reading, 1, 3_000),
            (LoadPhase::Checking, 1, 3_500),
            (LoadPhase::Writing, 1, 3_500),
            (LoadPhase::Rollups, 1, 3_500),
        ]
    );
    let checked_first = seen
        .iter()
        .find(|p| p.phase == LoadPhase::Checking)
        .unwrap();
    assert_eq!(
        checked_first.bytes_read, files[0].1,
        "the first file read whole"
    );
    assert_eq!(seen.last().unwrap().bytes_read, total);
}

#[tokio::test]
async fn the_memory_limit_and_the_spill_directory_are_set_on_the_database() {
    let dir = tempfile::tempdir().unwrap();
    let engine = DuckDbEngine::open(&dir.path().join("costs.duckdb")).unwrap();
    let spill = dir.path().join("spill");
    engine
        .configure(&LoadSettings {
            memory_limit: 256 << 20,
            temp_directory: Some(spill.clone()),
        })
        .unwrap();
    assert!(spill.is_dir(), "the spill directory is created");
    // Settings are global: a new connection sees them.
    let connection = engine.connection().unwrap();
    let (limit, temp): (String, String) = connection
        .query_row(
            "SELECT current_setting('memory_limit'), current_setting('temp_directory')",
            [],
            |row| Ok((row.get(0)?, row.get(1)?)),
        )
        .unwrap();
    assert_eq!(limit, "256.0 MiB");
    assert_eq!(temp, spill.to_string_lossy());
}

/// The marker a load commits with its rows answers what the engine holds of it (read at
/// start-up for a job a crash left running); a refused load leaves none.
#[tokio::test]
async fn a_committed_load_leaves_a_marker_with_its_summary_and_a_refused_one_none() {
    let dir = tempfile::tempdir().unwrap();
    let engine = DuckDbEngine::open(&dir.path().join("costs.duckdb")).unwrap();
    let good = dir.path().join("good.csv");
    std::fs::write(&good, focus_csv(40)).unwrap();
    let bad = dir.path().join("bad.csv");
    std::fs::write(&bad, format!("{HEADER}\n")).unwrap();
    let request = |load_id: &str, path: &std::path::Path, name: &str| LoadRequest {
        load_id: load_id.into(),
        files: vec![SourceFile {
            path: path.to_path_buf(),
            display_name: name.into(),
        }],
        format: None,
        progress: None,
    };
    assert_eq!(engine.committed_load("7").unwrap(), None);

    let summary = engine
        .load(3, request("7", &good, "good.csv"))
        .await
        .unwrap();
    engine
        .load(3, request("8", &bad, "bad.csv"))
        .await
        .unwrap_err();

    assert_eq!(engine.committed_load("7").unwrap(), Some((3, summary)));
    assert_eq!(engine.committed_load("8").unwrap(), None);
    // It survives a reopen (the marker is in the database file, not in memory).
    drop(engine);
    let engine = DuckDbEngine::open(&dir.path().join("costs.duckdb")).unwrap();
    let (customer, summary) = engine.committed_load("7").unwrap().unwrap();
    assert_eq!((customer, summary.rows, summary.files[0].rows), (3, 40, 40));
}
