use costscope_ingest::{Format, NORMALISED_COLUMNS};

use crate::support::*;

/// Per-day, per-service billed / effective / list totals of `synthetic/focus_1_0.csv`, from
/// `expected_totals.py`; its Parquet and gzip copies must give the same.
const FOCUS_1_0_TOTALS: &[[&str; 5]] = &[
    [
        "2024-09-01",
        "Amazon Elastic Compute Cloud",
        "14.295678901",
        "11.950000001",
        "13.500000000",
    ],
    [
        "2024-09-01",
        "Amazon Simple Storage Service",
        "0.023000000",
        "0.023000000",
        "0.023000000",
    ],
    [
        "2024-09-01",
        "Virtual Machines",
        "3.250000000",
        "2.500000000",
        "4.000000000",
    ],
    [
        "2024-09-02",
        "Amazon Elastic Compute Cloud",
        "7.100000000",
        "6.900000000",
        "8.000000000",
    ],
    [
        "2024-09-02",
        "Virtual Machines",
        "-1.250000000",
        "-1.250000000",
        "0.000000000",
    ],
];

#[test]
fn focus_csv_with_bom_crlf_and_null_tokens_is_staged_with_the_file_totals() {
    let (conn, staged) = load("synthetic/focus_1_0.csv", None);
    assert_eq!(staged.format, Format::Focus);
    assert_eq!(staged.rows, 6);
    expect_totals(&conn, FOCUS_1_0_TOTALS);
    assert_eq!(distinct(&conn, "provider"), ["aws", "azure"]);
    assert_eq!(
        distinct(&conn, "billing_account_id"),
        ["111111111111", "8611537"]
    );
    assert_eq!(distinct(&conn, "billing_period_start"), ["2024-09-01"]);
    assert_eq!(distinct(&conn, "cost_type"), ["Credit", "Tax", "Usage"]);
    assert_eq!(
        distinct(&conn, "tags"),
        ["{team=research}", "{team=web, env=prod}", "{}"]
    );
    // The token NULL is an empty value: region '' and list cost 0.
    let tax = rows(
        &conn,
        "SELECT region, CAST(list_cost AS VARCHAR), usage_type FROM staged WHERE cost_type = 'Tax'",
    );
    assert_eq!(tax, [["", "0.000000000", "Tax"]]);
}

#[test]
fn staged_table_has_exactly_the_normalised_columns() {
    let (conn, _) = load("synthetic/focus_1_0.csv", None);
    let expected: Vec<(String, String)> = NORMALISED_COLUMNS
        .iter()
        .map(|(name, kind)| {
            (
                (*name).to_owned(),
                kind.trim_end_matches(" NOT NULL").to_owned(),
            )
        })
        .collect();
    let actual = staged_columns(&conn);
    assert_eq!(actual, expected);
}

#[test]
fn focus_parquet_gives_the_same_rows_as_the_csv() {
    let dir = tempfile::tempdir().unwrap();
    let parquet = dir.path().join("focus.parquet");
    let conn = duckdb::Connection::open_in_memory().unwrap();
    conn.execute_batch(&format!(
        "COPY (SELECT * FROM read_csv('{}')) TO '{}' (FORMAT parquet)",
        fixture("synthetic/focus_1_0.csv").display(),
        parquet.display()
    ))
    .unwrap();
    let staged = costscope_ingest::stage(&conn, &parquet, "focus.parquet", None, "staged").unwrap();
    assert_eq!(staged.format, Format::Focus);
    assert_eq!(staged.rows, 6);
    expect_totals(&conn, FOCUS_1_0_TOTALS);
    assert_eq!(
        distinct(&conn, "tags"),
        ["{team=research}", "{team=web, env=prod}", "{}"]
    );
}

#[test]
fn gzip_csv_is_read_like_the_plain_file() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let gz = dir.path().join("focus.csv.gz");
    let mut encoder = flate2::write::GzEncoder::new(
        std::fs::File::create(&gz).unwrap(),
        flate2::Compression::default(),
    );
    encoder
        .write_all(&std::fs::read(fixture("synthetic/focus_1_0.csv")).unwrap())
        .unwrap();
    encoder.finish().unwrap();
    let conn = duckdb::Connection::open_in_memory().unwrap();
    let staged = costscope_ingest::stage(&conn, &gz, "focus.csv.gz", None, "staged").unwrap();
    assert_eq!(staged.format, Format::Focus);
    assert_eq!(staged.rows, 6);
    expect_totals(&conn, FOCUS_1_0_TOTALS);
}
