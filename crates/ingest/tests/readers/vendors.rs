//! Every FOCUS version (1.0-preview to 1.4) and the FOCUS files vendors really emit (OCI,
//! Microsoft, AWS Data Exports, GCP's BigQuery view), with any provider and several billing
//! currencies. Each file's per-day totals per provider and currency come from `oracle.rs`,
//! which reads the file itself.

use std::path::Path;

use costscope_ingest::{stage, Format};
use duckdb::Connection;

use crate::oracle::daily_provider_currency_totals;
use crate::support::*;

/// The staged rows' per-day totals per provider and currency, in the oracle's shape.
fn staged_totals(conn: &Connection) -> Vec<[String; 5]> {
    rows(
        conn,
        "SELECT CAST(CAST(charge_period_start AS DATE) AS VARCHAR), provider, currency, \
         CAST(sum(billed_cost) AS VARCHAR), CAST(sum(effective_cost) AS VARCHAR) \
         FROM staged GROUP BY ALL ORDER BY 1, 2, 3",
    )
    .into_iter()
    .map(|r| {
        [
            r[0].clone(),
            r[1].clone(),
            r[2].clone(),
            r[3].clone(),
            r[4].clone(),
        ]
    })
    .collect()
}

/// Stages `path` and checks its totals against the oracle's reading of `source` (the file
/// itself, or the CSV a Parquet copy was made from).
fn load_and_reconcile(path: &Path, source: &Path) -> Connection {
    let conn = Connection::open_in_memory().unwrap();
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let staged = stage(&conn, path, &name, None, "staged").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(staged.format, Format::Focus);
    let expected = daily_provider_currency_totals(source);
    assert!(!expected.is_empty());
    assert_eq!(staged_totals(&conn), expected, "{name}");
    let lines = crate::oracle::records(source).len() as u64;
    assert_eq!(staged.rows, lines);
    conn
}

fn vendor(name: &str) -> std::path::PathBuf {
    fixture(&format!("vendors/{name}"))
}

fn one(conn: &Connection, sql: &str) -> Vec<String> {
    rows(conn, sql)
        .into_iter()
        .map(|mut r| r.remove(0))
        .collect()
}

#[test]
fn oci_focus_report_loads_with_its_own_oci_columns_kept() {
    let file = vendor("oci_focus_report.csv.gz");
    let conn = load_and_reconcile(&file, &file);
    assert_eq!(distinct(&conn, "provider"), ["Oracle"]);
    assert_eq!(distinct(&conn, "invoice_issuer"), ["Oracle"]);
    assert_eq!(distinct(&conn, "host_provider"), ["Oracle"]);
    // 1.0-preview names: Region, UsageQuantity.
    assert_eq!(distinct(&conn, "region"), ["", "eu-frankfurt-1"]);
    assert_eq!(
        one(
            &conn,
            "SELECT CAST(usage_quantity AS VARCHAR) FROM staged ORDER BY usage_quantity"
        ),
        ["0.0", "1.5", "72.0", "72.0"]
    );
    // OCI's own columns are not x_-prefixed, and kept all the same, by their own names.
    assert_eq!(
        rows(
            &conn,
            "SELECT array_to_string(map_keys(extra), ' '), extra['oci_ReferenceNumber'], \
             extra['oci_CompartmentName'], extra['oci_CostOverage'], \
             extra['oci_BackReferenceNumber'] FROM staged WHERE billed_cost = 1.8432 \
             AND charge_period_start = TIMESTAMP '2026-06-02'"
        ),
        [[
            "oci_ReferenceNumber oci_CompartmentId oci_CompartmentName oci_OverageFlag \
             oci_UnitPriceOverage oci_BilledQuantityOverage oci_CostOverage \
             oci_BackReferenceNumber",
            "1234567892:0",
            "prod",
            "0.12",
            "1234567890:0"
        ]]
    );
    assert_eq!(
        distinct(&conn, "tags"),
        ["{Oracle-Tags.CreatedBy=ops, team=web}", "{team=web}", "{}"]
    );
}

#[test]
fn microsoft_focus_export_loads_with_its_x_columns_and_focus_details() {
    let file = vendor("microsoft_focus_export.csv");
    let conn = load_and_reconcile(&file, &file);
    assert_eq!(distinct(&conn, "provider"), ["azure"]);
    assert_eq!(distinct(&conn, "currency"), ["EUR"]);
    assert_eq!(
        one(
            &conn,
            "SELECT extra['x_SkuMeterCategory'] FROM staged ORDER BY rowid"
        ),
        [
            "Virtual Machines",
            "Storage",
            "Virtual Machines",
            "Virtual Machines Reservations"
        ]
    );
    assert_eq!(
        rows(
            &conn,
            "SELECT billing_account_name, CAST(billing_period_end AS VARCHAR), \
             charge_description, charge_frequency, CAST(contracted_cost AS VARCHAR), \
             CAST(pricing_quantity AS VARCHAR), pricing_unit, pricing_category, sku_id, \
             sku_price_id, invoice_issuer, host_provider, commitment_discount_id, \
             commitment_discount_type, commitment_discount_status, region_name, \
             CAST(charge_class IS NULL AS VARCHAR) FROM staged ORDER BY rowid LIMIT 1"
        ),
        [[
            "Contoso",
            "2026-07-01 00:00:00",
            "D2s v5",
            "Usage-Based",
            "4.128000000",
            "24.0",
            "1 Hour",
            "Committed",
            "DZH318Z0BQ4L",
            "DZH318Z0BQ4L-0001",
            "Microsoft",
            "Microsoft",
            "/providers/Microsoft.Capacity/reservationOrders/r1",
            "Reservation",
            "Used",
            "West Europe",
            "true"
        ]]
    );
}

#[test]
fn aws_data_exports_focus_1_2_loads_from_gzip_csv_and_typed_parquet() {
    let csv = vendor("aws_focus_1_2.csv.gz");
    let conn = load_and_reconcile(&csv, &csv);
    assert_eq!(distinct(&conn, "provider"), ["aws"]);
    assert_eq!(
        distinct(&conn, "extra['x_ServiceCode']"),
        ["AmazonEC2", "AmazonS3"]
    );
    assert_eq!(
        distinct(&conn, "usage_type"),
        ["BoxUsage:m5.large", "EU-TimedStorage-ByteHrs", "Tax"]
    );

    // AWS's Parquet export: typed columns (decimals, timestamps with time zone, maps).
    let dir = tempfile::tempdir().unwrap();
    let parquet = dir.path().join("aws_focus_1_2.parquet");
    Connection::open_in_memory()
        .unwrap()
        .execute_batch(&format!(
            "COPY (SELECT * REPLACE (
                 CAST(BilledCost AS DECIMAL(38, 18)) AS BilledCost,
                 CAST(EffectiveCost AS DECIMAL(38, 18)) AS EffectiveCost,
                 CAST(ListCost AS DECIMAL(38, 18)) AS ListCost,
                 CAST(ContractedCost AS DECIMAL(38, 18)) AS ContractedCost,
                 CAST(PricingQuantity AS DOUBLE) AS PricingQuantity,
                 CAST(ChargePeriodStart AS TIMESTAMPTZ) AS ChargePeriodStart,
                 CAST(ChargePeriodEnd AS TIMESTAMPTZ) AS ChargePeriodEnd,
                 CAST(BillingPeriodStart AS TIMESTAMPTZ) AS BillingPeriodStart,
                 CAST(BillingPeriodEnd AS TIMESTAMPTZ) AS BillingPeriodEnd,
                 CAST(CAST(nullif(Tags, '') AS JSON) AS MAP(VARCHAR, VARCHAR)) AS Tags,
                 CAST(CAST(nullif(x_Discounts, '') AS JSON) AS MAP(VARCHAR, VARCHAR)) AS x_Discounts)
             FROM read_csv('{}', all_varchar = true)) TO '{}' (FORMAT parquet)",
            csv.display(),
            parquet.display()
        ))
        .unwrap();
    let typed = load_and_reconcile(&parquet, &csv);
    let details = "SELECT CAST(tags AS VARCHAR), extra['x_ServiceCode'], \
                   CAST(contracted_cost AS VARCHAR), CAST(pricing_quantity AS VARCHAR), \
                   CAST(billing_period_end AS VARCHAR) FROM staged ORDER BY rowid";
    assert_eq!(rows(&typed, details), rows(&conn, details));
    // A map column of the Parquet file is kept as its JSON text.
    assert_eq!(
        distinct(&typed, "extra['x_Discounts']"),
        ["{\"EdpDiscount\":\"-0.069\"}", ""]
    );
}

#[test]
fn gcp_focus_view_exported_to_csv_loads() {
    let file = vendor("gcp_focus_view.csv");
    let conn = load_and_reconcile(&file, &file);
    assert_eq!(distinct(&conn, "provider"), ["gcp"]);
    assert_eq!(distinct(&conn, "extra['x_CostType']"), ["regular", "tax"]);
    // NULL (no zone) sorts last and reads as ''.
    assert_eq!(distinct(&conn, "availability_zone"), ["europe-west1-b", ""]);
}

#[test]
fn focus_1_3_reads_service_provider_and_attributes_allocated_charges() {
    let file = vendor("focus_1_3_allocated.csv");
    let conn = load_and_reconcile(&file, &file);
    assert_eq!(distinct(&conn, "provider"), ["Datadog", "aws"]);
    assert_eq!(
        rows(
            &conn,
            "SELECT provider, host_provider, resource_id, resource_name, CAST(tags AS VARCHAR), \
             coalesce(extra['ResourceId'], ''), coalesce(extra['AllocatedMethodId'], '') \
             FROM staged ORDER BY rowid"
        ),
        [
            [
                "aws",
                "AWS",
                "pod/checkout-7d9f",
                "checkout",
                "{cluster=prod, team=checkout, app=checkout}",
                "arn:aws:ec2:us-east-1:111122223333:instance/i-node1",
                "aws-eks-split-cost-cpu-memory"
            ],
            [
                "aws",
                "AWS",
                "pod/search-5c2a",
                "search",
                "{cluster=prod, team=search}",
                "arn:aws:ec2:us-east-1:111122223333:instance/i-node1",
                "aws-eks-split-cost-cpu-memory"
            ],
            [
                "aws",
                "AWS",
                "arn:aws:ec2:us-east-1:111122223333:instance/i-node1",
                "node-1",
                "{cluster=prod, team=platform}",
                "",
                ""
            ],
            ["Datadog", "AWS", "", "", "{}", "", ""],
        ]
    );
}

#[test]
fn focus_1_4_without_provider_name_and_publisher_name_loads() {
    let file = vendor("focus_1_4.csv");
    let header = std::fs::read_to_string(&file).unwrap();
    let header = header.lines().next().unwrap();
    assert!(!header
        .split(',')
        .any(|c| c == "ProviderName" || c == "PublisherName"));
    let conn = load_and_reconcile(&file, &file);
    assert_eq!(
        rows(
            &conn,
            "SELECT provider, host_provider, invoice_issuer, currency FROM staged ORDER BY rowid"
        ),
        [
            ["Oracle", "Oracle", "Oracle", "EUR"],
            ["OpenAI", "Microsoft", "Microsoft", "USD"]
        ]
    );
}

/// AWS, Microsoft, Oracle and Datadog, in USD and EUR: every row keeps its own currency.
#[test]
fn a_file_mixing_four_providers_and_two_currencies_keeps_each_rows_currency() {
    let file = vendor("focus_mixed_providers_currencies.csv");
    let conn = load_and_reconcile(&file, &file);
    assert_eq!(
        distinct(&conn, "provider"),
        ["Datadog", "Oracle", "aws", "azure"]
    );
    assert_eq!(
        rows(
            &conn,
            "SELECT provider, currency, CAST(sum(billed_cost) AS VARCHAR) FROM staged \
             GROUP BY ALL ORDER BY 1, 2"
        ),
        [
            ["Datadog", "USD", "90.000000000"],
            ["Oracle", "EUR", "3.333333333"],
            ["aws", "EUR", "2.500000000"],
            ["aws", "USD", "10.010000000"],
            ["azure", "EUR", "20.200000000"],
            ["azure", "USD", "5.050000000"],
        ]
    );
}

#[test]
fn focus_1_0_and_1_1_files_load_and_a_file_without_custom_columns_has_no_extra() {
    let file = fixture("synthetic/focus_1_0.csv");
    let conn = load_and_reconcile(&file, &file);
    assert_eq!(distinct(&conn, "extra IS NULL"), ["true"]);
    assert_eq!(distinct(&conn, "invoice_issuer"), ["AWS", "Microsoft"]);
    assert_eq!(
        distinct(&conn, "billing_period_end"),
        ["2024-10-01 00:00:00"]
    );
    // 1.1: the 1.2 file without the columns 1.2 added.
    let dir = tempfile::tempdir().unwrap();
    let v1_1 = dir.path().join("focus_1_1.csv");
    Connection::open_in_memory()
        .unwrap()
        .execute_batch(&format!(
            "COPY (SELECT * EXCLUDE (BillingAccountType, InvoiceId, PricingCurrency, \
             PricingCurrencyContractedUnitPrice, PricingCurrencyEffectiveCost, \
             PricingCurrencyListUnitPrice, SubAccountType) \
             FROM read_csv('{}', all_varchar = true)) TO '{}' (FORMAT csv, HEADER)",
            vendor("focus_mixed_providers_currencies.csv").display(),
            v1_1.display()
        ))
        .unwrap();
    load_and_reconcile(&v1_1, &v1_1);
}

/// FOCUS 1.0-preview: UsageQuantity / UsageUnit and Region (1.0 renamed them ConsumedQuantity,
/// ConsumedUnit and RegionId); 0.5: AmortizedCost and ChargeType.
#[test]
fn focus_1_0_preview_and_0_5_names_are_read() {
    let dir = tempfile::tempdir().unwrap();
    let preview = dir.path().join("preview.csv");
    std::fs::write(
        &preview,
        "BilledCost,BillingAccountId,BillingCurrency,BillingPeriodStart,ChargeCategory,\
         ChargePeriodEnd,ChargePeriodStart,ChargeSubcategory,EffectiveCost,ProviderName,Region,\
         ServiceName,UsageQuantity,UsageUnit\n\
         1.25,42,USD,2024-01-01T00:00:00Z,Usage,2024-01-02T00:00:00Z,2024-01-01T00:00:00Z,\
         On-Demand,1.25,Snowflake,us-west-2,Compute,3.5,Credits\n",
    )
    .unwrap();
    let conn = load_and_reconcile(&preview, &preview);
    assert_eq!(
        rows(
            &conn,
            "SELECT provider, region, CAST(usage_quantity AS VARCHAR), usage_unit FROM staged"
        ),
        [["Snowflake", "us-west-2", "3.5", "Credits"]]
    );
    let v0_5 = dir.path().join("v0_5.csv");
    std::fs::write(
        &v0_5,
        "AmortizedCost,BilledCost,BillingAccountId,BillingCurrency,BillingPeriodStart,\
         ChargePeriodEnd,ChargePeriodStart,ChargeType,ProviderName,ServiceName\n\
         2,2.5,42,USD,2024-01-01T00:00:00Z,2024-01-02T00:00:00Z,2024-01-01T00:00:00Z,Usage,\
         MongoDB Atlas,Clusters\n",
    )
    .unwrap();
    let conn = Connection::open_in_memory().unwrap();
    stage(&conn, &v0_5, "v0_5.csv", None, "staged").unwrap();
    assert_eq!(
        rows(
            &conn,
            "SELECT provider, CAST(effective_cost AS VARCHAR), charge_category FROM staged"
        ),
        [["MongoDB Atlas", "2.000000000", "Usage"]]
    );
}

#[test]
fn oracle_and_the_specs_saas_example_load_with_their_provider_as_given() {
    let oracle = fixture("synthetic/focus_oracle.csv");
    let conn = load_and_reconcile(&oracle, &oracle);
    assert_eq!(distinct(&conn, "provider"), ["Oracle", "aws", "azure"]);
    let (conn, staged) = load(
        "focus-spec-examples/virtual_currency_pricing_model_a1.csv",
        None,
    );
    assert_eq!(staged.rows, 1);
    assert_eq!(
        rows(
            &conn,
            "SELECT provider, service, CAST(billed_cost AS VARCHAR), currency, invoice_issuer, \
             host_provider, sku_price_id FROM staged"
        ),
        [[
            "ACMECORP",
            "ACMECORP SERVICE",
            "200000.000000000",
            "USD",
            "ACMECORP",
            "ACMECORP",
            "45678-1"
        ]]
    );
}

/// An `x_` column no vendor documents is kept, not refused.
#[test]
fn unknown_custom_columns_are_kept() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("custom.csv");
    std::fs::write(
        &path,
        "BilledCost,BillingAccountId,BillingCurrency,BillingPeriodStart,ChargeCategory,\
         ChargePeriodEnd,ChargePeriodStart,EffectiveCost,ProviderName,ServiceName,x_Whatever,\
         Vendor Column\n\
         1,42,USD,2026-01-01T00:00:00Z,Usage,2026-01-02T00:00:00Z,2026-01-01T00:00:00Z,1,Acme,S,\
         it's kept,\"a,b\"\n\
         2,42,USD,2026-01-01T00:00:00Z,Usage,2026-01-02T00:00:00Z,2026-01-01T00:00:00Z,2,Acme,S,,\n",
    )
    .unwrap();
    let conn = load_and_reconcile(&path, &path);
    assert_eq!(
        rows(
            &conn,
            "SELECT extra['x_Whatever'], extra['Vendor Column'], CAST(cardinality(extra) AS VARCHAR) \
             FROM staged ORDER BY rowid"
        ),
        [["it's kept", "a,b", "2"], ["", "", "0"]]
    );
}
