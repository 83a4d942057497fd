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

/// Text that needs cleaning (surrounding spaces, the NULL token, US dates) takes the careful
/// path; everything else the plain cast. Both must give the same values.
#[test]
fn padded_values_null_tokens_and_us_dates_are_read_like_clean_ones() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("padded.csv");
    std::fs::write(
        &csv,
        "ProviderName,BillingAccountId,BillingPeriodStart,ChargePeriodStart,ChargePeriodEnd,\
         ServiceName,ChargeCategory,BilledCost,EffectiveCost,ListCost,BillingCurrency,Tags\n\
         AWS,111, 2024-09-01T00:00:00Z ,2024-09-02T00:00:00Z,2024-09-03T00:00:00Z,EC2,Usage, 1.50 ,1.25,NULL,USD,\"{\"\"a\"\":\"\"b\"\"}\"\n\
         AWS, 111 ,2024-09-01,09/02/2024,09/03/2024 00:00:00, EC2 ,Usage,2.5,null,3,USD,\"\"\"a\"\":\"\"c\"\"\"\n",
    )
    .unwrap();
    let conn = duckdb::Connection::open_in_memory().unwrap();
    let staged = costscope_ingest::stage(&conn, &csv, "padded.csv", None, "staged").unwrap();
    assert_eq!(staged.rows, 2);
    assert_eq!(
        rows(
            &conn,
            "SELECT billing_account_id, CAST(billing_period_start AS VARCHAR), \
             CAST(charge_period_start AS VARCHAR), service, CAST(billed_cost AS VARCHAR), \
             CAST(effective_cost AS VARCHAR), CAST(list_cost AS VARCHAR), CAST(tags AS VARCHAR) \
             FROM staged ORDER BY billed_cost"
        ),
        [
            [
                "111",
                "2024-09-01",
                "2024-09-02 00:00:00",
                "EC2",
                "1.500000000",
                "1.250000000",
                "0.000000000",
                "{a=b}"
            ],
            [
                "111",
                "2024-09-01",
                "2024-09-02 00:00:00",
                "EC2",
                "2.500000000",
                "0.000000000",
                "3.000000000",
                "{a=c}"
            ],
        ]
    );
}

/// Typed Parquet columns are read as they are; a required timestamp that is NULL still refuses
/// the file at its row.
#[test]
fn typed_parquet_without_a_charge_period_start_is_refused_at_its_row() {
    let dir = tempfile::tempdir().unwrap();
    let parquet = dir.path().join("focus.parquet");
    let conn = duckdb::Connection::open_in_memory().unwrap();
    conn.execute_batch(&format!(
        "COPY (SELECT * REPLACE (CASE WHEN ChargeCategory = 'Tax' THEN NULL \
         ELSE CAST(ChargePeriodStart AS TIMESTAMP) END AS ChargePeriodStart, \
         CAST(BilledCost AS DECIMAL(18, 10)) AS BilledCost) \
         FROM read_csv('{}')) TO '{}' (FORMAT parquet)",
        fixture("synthetic/focus_1_0.csv").display(),
        parquet.display()
    ))
    .unwrap();
    let error = costscope_ingest::stage(&conn, &parquet, "focus.parquet", None, "staged")
        .expect_err("a NULL ChargePeriodStart must refuse the file");
    assert_eq!(
        error.message,
        "focus.parquet: row 4, column \"ChargePeriodStart\": \"\" is not a date"
    );
}
