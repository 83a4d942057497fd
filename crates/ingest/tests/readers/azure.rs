use costscope_ingest::Format;

use crate::support::*;

#[test]
fn ea_actual_cost_with_bom_and_us_dates_is_staged() {
    let (conn, staged) = load("finops-toolkit/EA_ActualCost_Small.csv", None);
    assert_eq!(staged.format, Format::AzureCostDetails);
    assert_eq!(staged.rows, 11);
    expect_totals(
        &conn,
        &[
            [
                "2023-09-04",
                "Advanced Data Security",
                "0.483870968",
                "0.483870968",
                "0.483870900",
            ],
            [
                "2023-09-04",
                "Advanced Threat Protection",
                "0.000002000",
                "0.000002000",
                "0.000002000",
            ],
            [
                "2023-09-04",
                "Azure Database for MySQL",
                "1.958400000",
                "1.958400000",
                "1.958400000",
            ],
            [
                "2023-09-04",
                "SQL Managed Instance",
                "0.000000000",
                "0.000000000",
                "0.000000000",
            ],
            [
                "2023-09-04",
                "Storage",
                "0.000051139",
                "0.000051139",
                "0.000051139",
            ],
            [
                "2023-09-04",
                "Virtual Machines",
                "2.640000000",
                "2.640000000",
                "2.640000000",
            ],
            [
                "2023-09-05",
                "Storage",
                "0.212683680",
                "0.212683680",
                "0.212683680",
            ],
            [
                "2023-09-21",
                "Virtual Machines",
                "3.250000000",
                "3.250000000",
                "0.000000000",
            ],
        ],
    );
    assert_eq!(distinct(&conn, "provider"), ["azure"]);
    assert_eq!(distinct(&conn, "billing_account_id"), ["8611537"]);
    assert_eq!(distinct(&conn, "billing_period_start"), ["2023-09-01"]);
    assert_eq!(distinct(&conn, "cost_type"), ["Purchase", "Usage"]);
    assert_eq!(distinct(&conn, "tags['env']"), ["prod", ""]);
}

#[test]
fn ea_amortized_cost_is_staged_with_cost_as_effective_cost() {
    let (conn, staged) = load("finops-toolkit/EA_AmortizedCost_Small.csv", None);
    assert_eq!(staged.format, Format::AzureCostDetails);
    assert_eq!(staged.rows, 28);
    expect_totals(
        &conn,
        &[
            [
                "2023-09-03",
                "Storage",
                "0.657052560",
                "0.657052560",
                "0.657052560",
            ],
            [
                "2023-09-03",
                "Virtual Machines",
                "0.006000000",
                "0.006000000",
                "0.013347595",
            ],
            [
                "2023-09-04",
                "Advanced Data Security",
                "0.483870968",
                "0.483870968",
                "0.483870900",
            ],
            [
                "2023-09-04",
                "Advanced Threat Protection",
                "0.000002000",
                "0.000002000",
                "0.000002000",
            ],
            [
                "2023-09-04",
                "Azure Database for MySQL",
                "1.958400000",
                "1.958400000",
                "1.958400000",
            ],
            [
                "2023-09-04",
                "Log Analytics",
                "2.480634996",
                "2.480634996",
                "2.480634996",
            ],
            [
                "2023-09-04",
                "SQL Managed Instance",
                "0.000000000",
                "0.000000000",
                "0.000000000",
            ],
            [
                "2023-09-04",
                "Storage",
                "4.096378819",
                "4.096378819",
                "4.096378819",
            ],
            [
                "2023-09-04",
                "Virtual Machines",
                "2.640000000",
                "2.640000000",
                "2.640000000",
            ],
            [
                "2023-09-04",
                "Virtual Network",
                "0.086400000",
                "0.086400000",
                "0.086400000",
            ],
            [
                "2023-09-05",
                "Bandwidth",
                "0.000000007",
                "0.000000007",
                "0.000000007",
            ],
            [
                "2023-09-05",
                "Storage",
                "0.212683680",
                "0.212683680",
                "0.212683680",
            ],
            [
                "2023-09-09",
                "Log Analytics",
                "2.486951242",
                "2.486951242",
                "2.486951242",
            ],
            [
                "2023-09-10",
                "Advanced Data Security",
                "0.483870968",
                "0.483870968",
                "0.483870900",
            ],
            [
                "2023-09-10",
                "Load Balancer",
                "0.025000000",
                "0.025000000",
                "0.025000000",
            ],
            [
                "2023-09-10",
                "SQL Database",
                "0.161000000",
                "0.161000000",
                "0.161000000",
            ],
            [
                "2023-09-16",
                "Bandwidth",
                "0.000000019",
                "0.000000019",
                "0.000000019",
            ],
            [
                "2023-09-16",
                "Virtual Network",
                "0.005000000",
                "0.005000000",
                "0.005000000",
            ],
            [
                "2023-09-17",
                "Bandwidth",
                "0.000118867",
                "0.000118867",
                "0.000118867",
            ],
            [
                "2023-09-17",
                "Storage",
                "0.020069150",
                "0.020069150",
                "0.020069150",
            ],
            [
                "2023-09-20",
                "Bandwidth",
                "0.000346860",
                "0.000346860",
                "0.000346860",
            ],
            [
                "2023-09-22",
                "Virtual Machines",
                "0.493152000",
                "0.493152000",
                "0.000000000",
            ],
        ],
    );
    assert_eq!(distinct(&conn, "provider"), ["azure"]);
    assert_eq!(distinct(&conn, "billing_period_start"), ["2023-09-01"]);
    assert_eq!(
        rows(
            &conn,
            "SELECT count(*) FILTER (WHERE effective_cost <> billed_cost) FROM staged"
        ),
        [["0"]]
    );
}

#[test]
fn ea_version_2_is_staged() {
    let (conn, staged) = load("koku/azure_ea_azure_version_2.csv", None);
    assert_eq!(staged.format, Format::AzureCostDetails);
    assert_eq!(staged.rows, 5);
    expect_totals(
        &conn,
        &[
            [
                "2020-09-01",
                "Unassigned",
                "0.000000000",
                "0.000000000",
                "0.000000000",
            ],
            [
                "2020-09-10",
                "Virtual Machines Licenses",
                "16.393727000",
                "16.393727000",
                "0.000000000",
            ],
            [
                "2020-09-11",
                "Storage",
                "0.034567754",
                "0.034567754",
                "0.000000000",
            ],
            [
                "2020-09-11",
                "Virtual Machines",
                "3.455664000",
                "3.455664000",
                "0.000000000",
            ],
            [
                "2020-09-22",
                "Storage",
                "0.114455000",
                "0.114455000",
                "0.000000000",
            ],
        ],
    );
    assert_eq!(distinct(&conn, "provider"), ["azure"]);
    assert_eq!(distinct(&conn, "billing_account_id"), ["99999999"]);
    assert_eq!(distinct(&conn, "currency"), ["MC"]);
}

#[test]
fn pay_as_you_go_export_uses_the_subscription_and_usage_month() {
    let (conn, staged) = load("koku/azure_legacy_payg_costreport_a243c6f2.csv", None);
    assert_eq!(staged.format, Format::AzureCostDetails);
    assert_eq!(staged.rows, 3);
    expect_totals(
        &conn,
        &[
            [
                "2019-07-28",
                "Storage",
                "0.000110160",
                "0.000110160",
                "0.000000000",
            ],
            [
                "2019-07-29",
                "Bandwidth",
                "0.000000000",
                "0.000000000",
                "0.000000000",
            ],
        ],
    );
    assert_eq!(distinct(&conn, "provider"), ["azure"]);
    assert_eq!(
        distinct(&conn, "billing_account_id"),
        ["0039de71-ca37-4a17-a104-17665a50e7fc"]
    );
    assert_eq!(distinct(&conn, "billing_period_start"), ["2019-07-01"]);
    assert_eq!(distinct(&conn, "tags"), ["{project=p1}"]);
}

#[test]
fn mca_camel_case_export_with_mixed_line_endings_is_staged() {
    let (conn, staged) = load("koku/azure_mca_camel_azure_version_2.csv", None);
    assert_eq!(staged.format, Format::AzureCostDetails);
    assert_eq!(staged.rows, 4);
    expect_totals(
        &conn,
        &[[
            "2023-08-01",
            "Storage",
            "0.000026241",
            "0.000026241",
            "0.000026241",
        ]],
    );
    assert_eq!(distinct(&conn, "provider"), ["azure"]);
    assert_eq!(
        distinct(&conn, "billing_account_id"),
        ["3c100a8a-215e-5a7e-24b2-61aa86945012"]
    );
    assert_eq!(distinct(&conn, "billing_period_start"), ["2023-08-01"]);
}

#[test]
fn every_header_variant_including_german_is_read() {
    for (name, service, billed) in [
        (
            "opencost-azure-headersets/Enterprise.csv",
            "Virtual Machines",
            "0.000000000",
        ),
        (
            "opencost-azure-headersets/EnterpriseCamel.csv",
            "Virtual Network",
            "0.012000000",
        ),
        (
            "opencost-azure-headersets/German.csv",
            "Load Balancer",
            "0.075000000",
        ),
        (
            "opencost-azure-headersets/PayAsYouGo.csv",
            "Load Balancer",
            "0.075000000",
        ),
        (
            "opencost-azure-headersets/YA.csv",
            "Load Balancer",
            "0.075000000",
        ),
        ("opencost-azure-headersets/BOM.csv", "", "0.000000000"),
    ] {
        let (conn, staged) = load(name, None);
        assert_eq!(staged.format, Format::AzureCostDetails, "{name}");
        assert_eq!(staged.rows, 1, "{name}");
        assert_eq!(
            rows(&conn, "SELECT service, CAST(billed_cost AS VARCHAR), CAST(CAST(charge_period_start AS DATE) AS VARCHAR) FROM staged"),
            [[service, billed, if name.ends_with("BOM.csv") { "2022-11-03" } else { "2021-02-02" }]],
            "{name}"
        );
    }
}
