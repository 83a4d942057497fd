use costscope_ingest::Format;

use crate::support::*;

/// Per-day, per-service billed / effective / list totals of `synthetic/aws_cur2.csv` (from
/// `expected_totals.py`); its Parquet copy must give the same.
const CUR2_TOTALS: &[[&str; 5]] = &[
    [
        "2024-10-01",
        "AmazonEC2",
        "0.096000000",
        "0.157000000",
        "0.192000000",
    ],
    [
        "2024-10-01",
        "AmazonS3",
        "1.234567891",
        "1.234567891",
        "0.000000000",
    ],
    [
        "2024-10-02",
        "AmazonEC2",
        "0.000000000",
        "0.070000000",
        "0.096000000",
    ],
    [
        "2024-10-02",
        "ComputeSavingsPlans",
        "0.100000000",
        "0.030000000",
        "0.000000000",
    ],
];

#[test]
fn legacy_cur_csv_with_the_merged_header_name_is_staged() {
    let (conn, staged) = load("koku/aws_cur_legacy_2023-06-01.csv", None);
    assert_eq!(staged.format, Format::AwsCur);
    assert_eq!(staged.rows, 3);
    expect_totals(
        &conn,
        &[[
            "2023-06-01",
            "AmazonEC2",
            "30.000000000",
            "0.300000000",
            "30.000000000",
        ]],
    );
    assert_eq!(distinct(&conn, "provider"), ["aws"]);
    assert_eq!(distinct(&conn, "billing_account_id"), ["0099999999999"]);
    assert_eq!(distinct(&conn, "billing_period_start"), ["2023-06-01"]);
    assert_eq!(distinct(&conn, "currency"), ["NOK"]);
    assert_eq!(distinct(&conn, "cost_type"), ["SavingsPlanCoveredUsage"]);
    assert_eq!(distinct(&conn, "region"), ["us-west-1"]);
}

#[test]
fn legacy_cur_with_athena_names_is_staged_with_its_tags() {
    let (conn, staged) = load("koku/aws_cur_athena_snake_2022-07-01-alt-columns.csv", None);
    assert_eq!(staged.format, Format::AwsCur);
    assert_eq!(staged.rows, 2);
    expect_totals(
        &conn,
        &[[
            "2022-07-01",
            "mra",
            "0.000000000",
            "0.000000000",
            "0.000000000",
        ]],
    );
    assert_eq!(distinct(&conn, "billing_account_id"), ["999999"]);
    assert_eq!(
        distinct(&conn, "tags['aws:created_by']"),
        ["IAMUser:fake:and"]
    );
}

#[test]
fn cur2_csv_is_staged_with_amortised_cost_and_map_tags() {
    let (conn, staged) = load("synthetic/aws_cur2.csv", None);
    assert_eq!(staged.format, Format::AwsCur2);
    assert_eq!(staged.rows, 6);
    expect_totals(&conn, CUR2_TOTALS);
    assert_eq!(distinct(&conn, "account_name"), ["Production"]);
    assert_eq!(distinct(&conn, "billing_period_start"), ["2024-10-01"]);
    assert_eq!(distinct(&conn, "region"), ["", "eu-west-1", "us-east-1"]);
    assert_eq!(
        distinct(&conn, "tags"),
        ["{team=api}", "{team=web, aws_createdBy=alice}", "{}"]
    );
    assert_eq!(
        rows(
            &conn,
            "SELECT charge_category FROM staged WHERE cost_type = 'Tax'"
        ),
        [["Tax"]]
    );
}

#[test]
fn cur2_parquet_with_a_map_column_is_staged() {
    let dir = tempfile::tempdir().unwrap();
    let parquet = dir.path().join("cur2.parquet");
    let conn = duckdb::Connection::open_in_memory().unwrap();
    conn.execute_batch(&format!(
        "COPY (SELECT * REPLACE (CAST(resource_tags::JSON AS MAP(VARCHAR, VARCHAR)) AS resource_tags, \
         CAST(line_item_unblended_cost AS DECIMAL(18,9)) AS line_item_unblended_cost, \
         CAST(line_item_usage_start_date AS TIMESTAMP) AS line_item_usage_start_date) \
         FROM read_csv('{}', all_varchar = true)) TO '{}' (FORMAT parquet)",
        fixture("synthetic/aws_cur2.csv").display(),
        parquet.display()
    ))
    .unwrap();
    let staged = costscope_ingest::stage(&conn, &parquet, "cur2.parquet", None, "staged").unwrap();
    assert_eq!(staged.format, Format::AwsCur2);
    assert_eq!(staged.rows, 6);
    expect_totals(&conn, CUR2_TOTALS);
    assert_eq!(
        distinct(&conn, "tags"),
        ["{team=api}", "{team=web, aws_createdBy=alice}", "{}"]
    );
}
