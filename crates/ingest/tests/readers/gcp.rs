use costscope_ingest::Format;

use crate::support::*;

#[test]
fn koku_standard_export_csv_gives_one_row_per_credit() {
    let name = "koku/gcp_bq_export_202011_2020-11-08_2020-11-11.csv";
    let (conn, staged) = load(name, None);
    assert_eq!(staged.format, Format::GcpBilling);
    assert_eq!(staged.rows, 33);
    expect_totals(
        &conn,
        &[
            [
                "2020-11-08",
                "Security Command Center",
                "0.000000000",
                "0.000000000",
                "0.000000000",
            ],
            [
                "2020-11-08",
                "Stackdriver Logging",
                "0.000000000",
                "0.000000000",
                "0.000000000",
            ],
            [
                "2020-11-09",
                "BigQuery",
                "0.000000000",
                "0.000000000",
                "0.000000000",
            ],
            [
                "2020-11-09",
                "Security Command Center",
                "0.000000000",
                "0.000000000",
                "0.000000000",
            ],
            [
                "2020-11-09",
                "Stackdriver Logging",
                "0.000000000",
                "0.000000000",
                "0.000000000",
            ],
            [
                "2020-11-10",
                "BigQuery",
                "0.000000000",
                "0.000000000",
                "0.000000000",
            ],
            [
                "2020-11-10",
                "Security Command Center",
                "0.000000000",
                "0.000000000",
                "0.000000000",
            ],
            [
                "2020-11-10",
                "Stackdriver Logging",
                "0.000000000",
                "0.000000000",
                "0.000000000",
            ],
            [
                "2020-11-11",
                "BigQuery",
                "0.000000000",
                "0.000000000",
                "0.000000000",
            ],
            [
                "2020-11-11",
                "Stackdriver Logging",
                "0.000000000",
                "0.000000000",
                "0.000000000",
            ],
        ],
    );
    assert_eq!(distinct(&conn, "provider"), ["gcp"]);
    assert_eq!(
        distinct(&conn, "billing_account_id"),
        ["000000-B0BBA4-940A77"]
    );
    assert_eq!(distinct(&conn, "billing_period_start"), ["2020-11-01"]);
    assert_eq!(distinct(&conn, "account_id"), ["billing-example-00000"]);
    assert_eq!(rows(&conn, "SELECT count(*) FROM staged WHERE cost_type = 'Credit' AND charge_category = 'Credit' AND list_cost = 0"), [["8"]]);
}

#[test]
fn koku_resource_level_export_csv_is_staged() {
    let name = "koku/gcp_bq_export_2022-08-01_5.csv";
    let (conn, staged) = load(name, None);
    assert_eq!(staged.format, Format::GcpBilling);
    assert_eq!(staged.rows, 9);
    expect_totals(
        &conn,
        &[[
            "2022-08-01",
            "Compute Engine",
            "0.000012000",
            "0.000012000",
            "0.000000000",
        ]],
    );
    assert_eq!(distinct(&conn, "resource_name"), ["instance-1"]);
    assert_eq!(distinct(&conn, "billing_period_start"), ["2022-08-01"]);
}

#[test]
fn ndjson_export_with_credits_and_labels_is_staged() {
    let (conn, staged) = load("synthetic/gcp_billing.ndjson", None);
    assert_eq!(staged.format, Format::GcpBilling);
    assert_eq!(staged.rows, 7);
    expect_totals(
        &conn,
        &[
            [
                "2024-11-01",
                "Cloud Storage",
                "0.123456789",
                "0.123456789",
                "0.123456789",
            ],
            [
                "2024-11-01",
                "Compute Engine",
                "8.000000000",
                "8.000000000",
                "12.500000000",
            ],
            [
                "2024-11-02",
                "Compute Engine",
                "2.000000000",
                "2.000000000",
                "3.000000000",
            ],
            [
                "2024-11-02",
                "Invoice",
                "0.400000000",
                "0.400000000",
                "0.000000000",
            ],
        ],
    );
    assert_eq!(distinct(&conn, "billing_period_start"), ["2024-11-01"]);
    assert_eq!(distinct(&conn, "cost_type"), ["Credit", "regular", "tax"]);
    // A line with cost 10 and credits -1.5 and -0.5: three rows summing to 8.
    assert_eq!(
        rows(&conn, "SELECT cost_type, CAST(billed_cost AS VARCHAR), CAST(list_cost AS VARCHAR) FROM staged \
                     WHERE account_id = 'shop-prod' AND service = 'Compute Engine' ORDER BY billed_cost"),
        [["Credit", "-1.500000000", "0.000000000"], ["Credit", "-0.500000000", "0.000000000"], ["regular", "10.000000000", "12.500000000"]]
    );
    assert_eq!(
        distinct(&conn, "tags"),
        ["{app=shop, env=prod}", "{app=shop}", "{}"]
    );
    assert_eq!(
        distinct(&conn, "region"),
        ["", "europe-west1", "us", "us-central1"]
    );
}
