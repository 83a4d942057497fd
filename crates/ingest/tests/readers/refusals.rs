use std::io::Write;

use costscope_ingest::Format;

use crate::support::*;

#[test]
fn unknown_header_is_refused() {
    assert_eq!(
        refusal("synthetic/unknown_format.csv", None),
        "unknown_format.csv: unknown billing export format: the header matches none of FOCUS, \
         AWS CUR, AWS CUR 2.0, GCP billing export, Azure cost details"
    );
}

#[test]
fn missing_required_column_is_refused_with_the_format_name() {
    assert_eq!(
        refusal("focus-spec-examples/commitment_discount_usage_scenario_1.csv", None),
        "commitment_discount_usage_scenario_1.csv: missing column \"ProviderName\" required by the FOCUS format"
    );
    assert_eq!(
        refusal("synthetic/focus_1_0.csv", Some(Format::AwsCur)),
        "focus_1_0.csv: missing column \"line_item_unblended_cost\" required by the AWS CUR format"
    );
    assert_eq!(
        refusal("synthetic/aws_cur2.csv", Some(Format::AzureCostDetails)),
        "aws_cur2.csv: missing column \"CostInBillingCurrency\" required by the Azure cost details format"
    );
}

#[test]
fn bad_number_is_refused_with_row_and_column() {
    assert_eq!(
        refusal("synthetic/focus_bad_number.csv", None),
        "focus_bad_number.csv: row 3, column \"BilledCost\": \"12,5x\" is not a number"
    );
}

#[test]
fn bad_date_is_refused_with_row_and_column() {
    assert_eq!(
        refusal("synthetic/focus_bad_date.csv", None),
        "focus_bad_date.csv: row 2, column \"ChargePeriodStart\": \"2024-13-45\" is not a date"
    );
}

#[test]
fn provider_other_than_aws_gcp_azure_is_refused() {
    assert_eq!(
        refusal("synthetic/focus_oracle.csv", None),
        "focus_oracle.csv: row 4, column \"ProviderName\": provider \"Oracle\" is not supported; \
         expected AWS, Google Cloud or Microsoft Azure"
    );
    assert_eq!(
        refusal("focus-spec-examples/virtual_currency_pricing_model_a1.csv", None),
        "virtual_currency_pricing_model_a1.csv: row 1, column \"ProviderName\": provider \"ACMECORP\" \
         is not supported; expected AWS, Google Cloud or Microsoft Azure"
    );
}

#[test]
fn file_without_data_rows_is_empty() {
    assert_eq!(
        refusal("synthetic/focus_header_only.csv", None),
        "focus_header_only.csv: the file is empty"
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("zero.csv");
    std::fs::File::create(&path).unwrap();
    let conn = duckdb::Connection::open_in_memory().unwrap();
    let error = costscope_ingest::stage(&conn, &path, "zero.csv", None, "staged").unwrap_err();
    assert_eq!(error.message, "zero.csv: the file is empty");
}

#[test]
fn unparsable_csv_is_refused_with_duckdbs_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("broken.csv");
    let mut file = std::fs::File::create(&path).unwrap();
    let source = std::fs::read_to_string(fixture("synthetic/focus_bad_number.csv")).unwrap();
    let mut lines = source.lines();
    let header = lines.next().unwrap();
    let row = lines.nth(1).unwrap();
    writeln!(file, "{header}").unwrap();
    // Past the sniffer's sample, so that the reader finds the bad line while reading.
    for _ in 0..25_000 {
        writeln!(file, "{row}").unwrap();
    }
    writeln!(file, "{row},one too many").unwrap();
    drop(file);
    let conn = duckdb::Connection::open_in_memory().unwrap();
    let error = costscope_ingest::stage(&conn, &path, "broken.csv", None, "staged").unwrap_err();
    assert!(
        error
            .message
            .starts_with("broken.csv: cannot read the file as CSV: ")
            && error.message.contains("Line: 25002"),
        "{}",
        error.message
    );
    assert!(
        !error.message.contains(&dir.path().display().to_string()),
        "{}",
        error.message
    );
}

#[test]
fn a_refused_file_leaves_no_tables_behind() {
    let conn = duckdb::Connection::open_in_memory().unwrap();
    try_load(&conn, "synthetic/focus_bad_number.csv", None).unwrap_err();
    assert_eq!(rows(&conn, "SELECT count(*) FROM duckdb_tables()"), [["0"]]);
    // and the same table name can be used again
    try_load(&conn, "synthetic/focus_1_0.csv", None).unwrap();
}
