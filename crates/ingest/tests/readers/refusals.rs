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
        "focus_header_only.csv: the file has a header but no rows"
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("zero.csv");
    std::fs::File::create(&path).unwrap();
    let conn = duckdb::Connection::open_in_memory().unwrap();
    let error = costscope_ingest::stage(&conn, &path, "zero.csv", None, "staged").unwrap_err();
    assert_eq!(error.message, "zero.csv: the file is empty");
}

#[test]
fn unparsable_csv_is_refused_with_its_line_and_no_engine_text() {
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
            .starts_with("broken.csv: cannot read the file as CSV: line 25002: expected ")
            && error
                .message
                .ends_with("columns as in the header, found 44"),
        "{}",
        error.message
    );
    assert_no_internals(&error.message);
    // DuckDB's own text is kept for the log.
    assert!(error.detail.is_some_and(|detail| detail.contains("25002")));
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

/// A refusal shown to the uploader says nothing of the engine: no SQL, no DuckDB advice, no
/// server path, and it stays short.
fn assert_no_internals(message: &str) {
    for internal in [
        "SELECT",
        "read_csv",
        "DuckDB",
        "Possible fixes",
        "Error:",
        "/tmp",
        "staged",
        "__raw",
    ] {
        assert!(!message.contains(internal), "{internal:?} in {message}");
    }
    assert!(message.len() < 400, "{} bytes: {message}", message.len());
}

fn refuse_bytes(name: &str, bytes: &[u8]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, bytes).unwrap();
    let conn = duckdb::Connection::open_in_memory().unwrap();
    let error = costscope_ingest::stage(&conn, &path, name, None, "staged").unwrap_err();
    assert_no_internals(&error.message);
    assert!(
        !error.message.contains(&dir.path().display().to_string()),
        "{}",
        error.message
    );
    // Nothing is left behind.
    assert_eq!(rows(&conn, "SELECT count(*) FROM duckdb_tables()"), [["0"]]);
    error.message
}

#[test]
fn a_zip_file_is_named_as_unsupported() {
    // A real zip: local file header magic, then anything.
    let mut zip = b"PK\x03\x04\x14\x00\x00\x00\x08\x00".to_vec();
    zip.extend_from_slice(&[0x55; 200]);
    assert_eq!(
        refuse_bytes("export.zip", &zip),
        "export.zip: zip files are not supported; extract the export and upload the CSV, \
         .csv.gz, Parquet or newline-delimited JSON files inside"
    );
    assert!(refuse_bytes("export.csv.bz2", b"BZh91AY&SY....")
        .starts_with("export.csv.bz2: bzip2 files are not supported;"));
}

#[test]
fn binary_data_is_refused_as_not_text() {
    let binary: Vec<u8> = (0..=255u8).cycle().take(4096).collect();
    assert_eq!(
        refuse_bytes("photo.csv", &binary),
        "photo.csv: the file is not UTF-8 text (it looks like binary data); upload CSV, \
         .csv.gz, Parquet or newline-delimited JSON files"
    );
}

#[test]
fn a_header_only_file_is_not_called_empty() {
    let source = std::fs::read_to_string(fixture("synthetic/focus_1_0.csv")).unwrap();
    let header = source.lines().next().unwrap();
    assert_eq!(
        refuse_bytes("header.csv", format!("{header}\n").as_bytes()),
        "header.csv: the file has a header but no rows"
    );
    assert_eq!(
        refuse_bytes("blank.csv", b"\n \n"),
        "blank.csv: the file is empty"
    );
}

#[test]
fn a_thousand_unknown_columns_get_a_short_refusal() {
    let header: Vec<String> = (0..1000).map(|i| format!("column_{i}")).collect();
    let row: Vec<String> = (0..1000).map(|i| i.to_string()).collect();
    let text = format!("{}\n{}\n", header.join(","), row.join(","));
    assert_eq!(
        refuse_bytes("wide.csv", text.as_bytes()),
        "wide.csv: unknown billing export format: the header matches none of FOCUS, AWS CUR, \
         AWS CUR 2.0, GCP billing export, Azure cost details"
    );
}

#[test]
fn an_unterminated_quote_is_refused_with_its_line() {
    let source = std::fs::read_to_string(fixture("synthetic/focus_1_0.csv")).unwrap();
    let mut lines = source.lines();
    let header = lines.next().unwrap();
    let row = lines.next().unwrap();
    let mut text = format!("{header}\n");
    for _ in 0..25_000 {
        text.push_str(row);
        text.push('\n');
    }
    text.push_str(&row.replacen(",web-1,", ",\"web-1,", 1));
    let message = refuse_bytes("quote.csv", text.as_bytes());
    assert!(
        message.starts_with("quote.csv: cannot read the file as CSV"),
        "{message}"
    );
}

#[test]
fn quoted_newlines_and_formula_cells_load_as_text() {
    let source = std::fs::read_to_string(fixture("synthetic/focus_1_0.csv")).unwrap();
    let mut lines = source.lines();
    let header = lines.next().unwrap();
    let row = lines.next().unwrap();
    let formula = "=cmd|' /C calc'!A0";
    let text = format!(
        "{header}\n{}\n{}\n",
        row.replacen(",web-1,", ",\"web\nserver 1\",", 1),
        row.replacen(",web-1,", &format!(",\"{formula}\","), 1)
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("hostile.csv");
    std::fs::write(&path, text).unwrap();
    let conn = duckdb::Connection::open_in_memory().unwrap();
    let staged = costscope_ingest::stage(&conn, &path, "hostile.csv", None, "staged").unwrap();
    assert_eq!(staged.rows, 2);
    assert_eq!(
        rows(
            &conn,
            "SELECT resource_name FROM staged ORDER BY resource_name"
        ),
        [[formula.to_owned()], ["web\nserver 1".to_owned()]]
    );
}
