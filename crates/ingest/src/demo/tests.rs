use std::collections::BTreeSet;

use super::*;

fn today() -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 11, 22).unwrap()
}

fn generate(today: NaiveDate) -> (tempfile_dir::Dir, Vec<PathBuf>) {
    let dir = tempfile_dir::Dir::new();
    let paths = write_demo_files(dir.path(), today).unwrap();
    (dir, paths)
}

/// A throwaway directory without a dev-dependency.
mod tempfile_dir {
    use std::path::{Path, PathBuf};
    use std::sync::atomic::{AtomicU32, Ordering};

    pub struct Dir(PathBuf);

    impl Dir {
        pub fn new() -> Self {
            static NEXT: AtomicU32 = AtomicU32::new(0);
            let path = std::env::temp_dir().join(format!(
                "costscope-demo-test-{}-{}",
                std::process::id(),
                NEXT.fetch_add(1, Ordering::Relaxed)
            ));
            std::fs::create_dir_all(&path).unwrap();
            Self(path)
        }

        pub fn path(&self) -> &Path {
            &self.0
        }
    }

    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

fn lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

#[test]
fn the_same_day_gives_the_same_bytes() {
    let (_a, first) = generate(today());
    let (_b, second) = generate(today());
    assert_eq!(first.len(), 3);
    for (a, b) in first.iter().zip(&second) {
        assert_eq!(
            std::fs::read(a).unwrap(),
            std::fs::read(b).unwrap(),
            "{a:?}"
        );
    }
}

#[test]
fn a_day_later_the_shared_days_keep_their_values() {
    let (_a, first) = generate(today());
    let (_b, second) = generate(today().succ_opt().unwrap());
    // GCP rows carry no random ids: every row of the earlier file is in the later one.
    let earlier = lines(&first[1]);
    let later: BTreeSet<String> = lines(&second[1]).into_iter().collect();
    assert!(earlier.iter().all(|line| later.contains(line)));
    assert!(later.len() > earlier.len());
}

#[test]
fn thirteen_months_of_daily_rows_up_to_today() {
    let (_dir, paths) = generate(today());
    assert_eq!(
        first_day(today()),
        NaiveDate::from_ymd_opt(2025, 11, 1).unwrap()
    );
    // AWS: usage start dates cover every day from the first to today.
    let aws = lines(&paths[0]);
    let header: Vec<&str> = aws[0].split(',').collect();
    let start = header
        .iter()
        .position(|c| *c == "line_item_usage_start_date")
        .unwrap();
    let line_type = header
        .iter()
        .position(|c| *c == "line_item_line_item_type")
        .unwrap();
    let mut days = BTreeSet::new();
    let mut types = BTreeSet::new();
    for line in &aws[1..] {
        // Cells used here are never quoted; split on commas outside quotes.
        let cells = split_csv(line);
        assert_eq!(cells.len(), header.len(), "{line}");
        days.insert(cells[start][..10].to_owned());
        types.insert(cells[line_type].clone());
    }
    let expected: BTreeSet<String> = DemoDays::new(today())
        .days()
        .map(|d| d.format("%Y-%m-%d").to_string())
        .collect();
    assert_eq!(expected.len(), 387);
    assert_eq!(days, expected);
    for wanted in [
        "Usage",
        "Tax",
        "Fee",
        "Credit",
        "Refund",
        "SavingsPlanCoveredUsage",
        "SavingsPlanNegation",
        "SavingsPlanRecurringFee",
    ] {
        assert!(types.contains(wanted), "{wanted} missing from {types:?}");
    }
}

#[test]
fn all_three_providers_have_a_realistic_amount_of_rows() {
    let (_dir, paths) = generate(today());
    let names: Vec<String> = paths
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, [AWS_FILE, GCP_FILE, AZURE_FILE]);
    let counts: Vec<usize> = paths.iter().map(|p| lines(p).len() - 1).collect();
    let total: usize = counts.iter().sum();
    assert!(counts.iter().all(|count| *count > 3_000), "{counts:?}");
    assert!((50_000..=150_000).contains(&total), "{counts:?}");

    let gcp = std::fs::read_to_string(&paths[1]).unwrap();
    for wanted in [
        "\"cost_type\":\"tax\"",
        "SUSTAINED_USAGE_DISCOUNT",
        "FREE_TIER",
        "PROMOTION",
        "acme-web-prod",
        "acme-analytics",
    ] {
        assert!(gcp.contains(wanted), "{wanted}");
    }
    let azure = std::fs::read_to_string(&paths[2]).unwrap();
    for wanted in [",Usage,", ",Purchase,", ",Refund,", ",Tax,"] {
        assert!(azure.contains(wanted), "{wanted}");
    }
}

fn split_csv(line: &str) -> Vec<String> {
    let mut cells = vec![String::new()];
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                chars.next();
                cells.last_mut().unwrap().push('"');
            }
            ('"', _) => quoted = !quoted,
            (',', false) => cells.push(String::new()),
            (c, _) => cells.last_mut().unwrap().push(c),
        }
    }
    cells
}

/// Sum of a CSV column, computed here independently of the readers.
fn column_sum(path: &Path, column: &str) -> f64 {
    let all = lines(path);
    let header = split_csv(&all[0]);
    let index = header.iter().position(|c| c == column).unwrap();
    all[1..]
        .iter()
        .map(|line| split_csv(line)[index].parse::<f64>().unwrap())
        .sum()
}

#[test]
fn every_file_loads_through_the_readers_with_its_own_totals() {
    let (_dir, paths) = generate(today());
    let conn = duckdb::Connection::open_in_memory().unwrap();
    let expected = [
        (crate::Format::AwsCur2, Some("line_item_unblended_cost")),
        (crate::Format::GcpBilling, None),
        (
            crate::Format::AzureCostDetails,
            Some("costInBillingCurrency"),
        ),
    ];
    let mut refused = Vec::new();
    for (index, (path, (format, cost_column))) in paths.iter().zip(expected).enumerate() {
        let table = format!("staged_{index}");
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let staged = match crate::stage(&conn, path, &name, None, &table) {
            Ok(staged) => staged,
            Err(error) => {
                refused.push(error.message);
                continue;
            }
        };
        assert_eq!(staged.format, format, "{name}");
        let source_rows = (lines(path).len() - 1) as u64;
        // GCP credits become rows of their own.
        assert!(
            staged.rows >= source_rows,
            "{name}: {} < {source_rows}",
            staged.rows
        );
        let (first, last, periods, tagged, billed): (String, String, i64, i64, f64) = conn
            .query_row(
                &format!(
                    "SELECT min(charge_period_start)::DATE::VARCHAR, \
                            max(charge_period_start)::DATE::VARCHAR, \
                            count(DISTINCT billing_period_start), \
                            count(*) FILTER (WHERE cardinality(tags) > 0), \
                            sum(billed_cost)::DOUBLE FROM {table}"
                ),
                [],
                |row| {
                    Ok((
                        row.get(0)?,
                        row.get(1)?,
                        row.get(2)?,
                        row.get(3)?,
                        row.get(4)?,
                    ))
                },
            )
            .unwrap();
        assert_eq!(
            (first.as_str(), last.as_str()),
            ("2025-11-01", "2026-11-22"),
            "{name}"
        );
        assert_eq!(periods, 13, "{name}");
        assert!(tagged > 0, "{name}: no tags read");
        if let Some(column) = cost_column {
            let expected = column_sum(path, column);
            assert!(
                (billed - expected).abs() < 0.01,
                "{name}: {billed} != {expected}"
            );
        }
    }
    assert!(refused.is_empty(), "refused: {refused:#?}");
}
