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
        refusal(
            "focus-spec-examples/commitment_discount_usage_scenario_1.csv",
            None
        ),
        "commitment_discount_usage_scenario_1.csv: missing column \"ProviderName\" \
         (\"ServiceProviderName\" from FOCUS 1.3) required by the FOCUS format"
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

/// Any provider name loads (see `providers.rs`); a value that cannot be a name does not.
#[test]
fn empty_or_control_character_provider_name_is_refused_with_row_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let source = std::fs::read_to_string(fixture("synthetic/focus_oracle.csv")).unwrap();
    for (name, value, problem) in [
        ("empty.csv", "", "provider name is empty"),
        (
            "control.csv",
            "Evil\u{7}Corp",
            "provider name \"Evil\\u{7}Corp\" contains control characters",
        ),
    ] {
        // Row 4's ProviderName is "Oracle" in the source file.
        let path = dir.path().join(name);
        std::fs::write(&path, source.replacen(",Oracle,", &format!(",{value},"), 1)).unwrap();
        let conn = duckdb::Connection::open_in_memory().unwrap();
        let error = costscope_ingest::stage(&conn, &path, name, None, "staged").unwrap_err();
        assert_eq!(
            error.message,
            format!("{name}: row 4, column \"ProviderName\": {problem}")
        );
    }
}

#[test]
fn focus_invoice_detail_and_billing_period_datasets_are_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    for (name, content, dataset) in [
        (
            "invoice.csv",
            "BilledCost,BillingAccountId,BillingCurrency,BillingPeriodEnd,BillingPeriodStart,\
             ChargeCategory,InvoiceDetailId,InvoiceId,InvoiceIssuerName\n\
             100.00,123,USD,2026-07-01T00:00:00Z,2026-06-01T00:00:00Z,Usage,d-1,inv-1,Oracle\n",
            "Invoice Detail",
        ),
        (
            "periods.csv",
            "BillingAccountId,BillingPeriodCreated,BillingPeriodEnd,BillingPeriodLastUpdated,\
             BillingPeriodStart,BillingPeriodStatus,InvoiceIssuerName\n\
             123,2026-06-01T00:00:00Z,2026-07-01T00:00:00Z,2026-07-03T00:00:00Z,\
             2026-06-01T00:00:00Z,Closed,Oracle\n",
            "Billing Period",
        ),
    ] {
        let path = dir.path().join(name);
        std::fs::write(&path, content).unwrap();
        let conn = duckdb::Connection::open_in_memory().unwrap();
        let error = costscope_ingest::stage(&conn, &path, name, None, "staged").unwrap_err();
        assert_eq!(
            error.message,
            format!(
                "{name}: this is a FOCUS {dataset} dataset, not cost and usage line items; \
                 upload the FOCUS Cost and Usage dataset of the same export"
            )
        );
        // Forcing the FOCUS format does not read it as costs either.
        let error =
            costscope_ingest::stage(&conn, &path, name, Some(Format::Focus), "staged").unwrap_err();
        assert!(error.message.contains(dataset), "{}", error.message);
    }
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
