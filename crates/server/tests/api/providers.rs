//! Every provider, not only the three clouds: a FOCUS 1.2 file mixing AWS, Microsoft, Oracle and
//! a SaaS provider (Datadog) — `web/e2e/fixtures-data/focus-1.2-four-providers.csv`, the file the
//! providers e2e journey uploads — loads, and every cost answer shows its four providers with the
//! file's totals to the cent.
//!
//! The file (one currency, USD; three days of one month; billed = effective = list):
//!
//! | provider  | day | service                        | FOCUS ServiceCategory     | billed |
//! |-----------|-----|--------------------------------|---------------------------|--------|
//! | AWS       | 1   | Amazon Elastic Compute Cloud   | Compute                   | 120.50 |
//! | AWS       | 2   | Amazon Simple Storage Service  | Storage                   |  30.25 |
//! | AWS       | 3   | AWS Lambda                     | Compute                   |   4.10 |
//! | Microsoft | 1   | Virtual Machines               | Compute                   |  80.00 |
//! | Microsoft | 2   | Azure SQL Database             | Databases                 |  45.45 |
//! | Oracle    | 1   | Compute                        | Compute                   |  60.10 |
//! | Oracle    | 2   | Block Storage                  | Storage                   |  15.15 |
//! | Oracle    | 3   | Autonomous Database            | Databases                 |  99.99 |
//! | Datadog   | 1   | Infrastructure Monitoring      | Management and Governance |  23.00 |
//! | Datadog   | 2   | Log Management                 | Management and Governance |  11.11 |
//!
//! Per provider: Oracle 175.24, AWS 154.85, Azure 125.45, Datadog 34.11; total 489.65.
//! Per category: Database 145.44, Compute 260.60, Storage 45.40, Serverless 4.10 (Lambda: FOCUS
//! Compute, narrowed by its name), Operations 34.11.
//!
//! The file is dated October 2026; the tests move it to last month, so that a monthly budget's
//! `previousSpent` covers it.

use chrono::{Datelike, Months, NaiveDate, Utc};
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::cost_fixture::post_ok;
use crate::helpers::{spawn_app, status_and_json, TestApp};

const FILE: &str = include_str!("../../../../web/e2e/fixtures-data/focus-1.2-four-providers.csv");

const ORACLE: f64 = 175.24;
const AWS: f64 = 154.85;
const AZURE: f64 = 125.45;
const DATADOG: f64 = 34.11;
const TOTAL: f64 = 489.65;

/// The first days of last month and of this month.
fn months() -> (NaiveDate, NaiveDate) {
    let today = Utc::now().date_naive();
    let this_month = today.with_day(1).unwrap();
    (this_month - Months::new(1), this_month)
}

/// The file moved from October 2026 to last month (its billing period ends on the 1st of this
/// month).
fn file_for_last_month() -> String {
    let (last, this) = months();
    FILE.replace("2026-11-01", &this.to_string())
        .replace("2026-10-", &last.format("%Y-%m-").to_string())
}

fn range() -> Value {
    let (last, this) = months();
    let end = this.pred_opt().unwrap();
    json!({"start_time": last.to_string(), "end_time": end.to_string()})
}

fn with(mut body: Value, extra: Value) -> Value {
    for (key, value) in extra.as_object().unwrap() {
        body[key] = value.clone();
    }
    body
}

fn cents(amount: &Value) -> i64 {
    (amount
        .as_f64()
        .unwrap_or_else(|| panic!("not a number: {amount}"))
        * 100.0)
        .round() as i64
}

fn assert_cents(amount: &Value, expected: f64) {
    assert_eq!(
        cents(amount),
        (expected * 100.0).round() as i64,
        "{amount} ≠ {expected}"
    );
}

async fn app_with_four_providers() -> (TestApp, String) {
    let app = spawn_app().await;
    let owner = app.signup_owner("Olivia Owner", "olivia@o.test").await;
    let job = app
        .ingest_files(
            &owner.access_token,
            &[(
                "focus-1.2-four-providers.csv",
                file_for_last_month().into_bytes(),
            )],
        )
        .await;
    assert_eq!(job["status"], "succeeded", "job: {job}");
    (app, owner.access_token)
}

fn providers(filter_values: &[&str]) -> Value {
    json!([{"operator": "AND",
            "cloud_providers": [{"operator": "equals", "values": filter_values}]}])
}

#[tokio::test]
async fn filters_list_every_provider_and_a_saas_providers_services() {
    let (app, token) = app_with_four_providers().await;
    let (last, this) = months();
    let dates =
        json!({"start_date": last.to_string(), "end_date": this.pred_opt().unwrap().to_string()});

    let options = post_ok(
        &app,
        &token,
        "/v2/cost/filters",
        with(dates.clone(), json!({"filters": []})),
    )
    .await;
    assert_eq!(
        options["cloud_providers"],
        json!(["Datadog", "Oracle", "aws", "azure"])
    );
    assert_eq!(
        options["accounts_by_provider"]["Oracle"],
        json!(["ocid1.compartment.oc1..e2eprod"])
    );

    let oracle = post_ok(
        &app,
        &token,
        "/v2/cost/filters",
        with(dates, json!({"filters": providers(&["Oracle"])})),
    )
    .await;
    assert_eq!(
        oracle["services"],
        json!(["Autonomous Database", "Block Storage", "Compute"])
    );
    assert_eq!(oracle["cloud_providers"], json!(["Oracle"]));

    let parameters =
        status_and_json(app.get("/v1/cost/filter-parameters", Some(&token)).await).await;
    assert_eq!(parameters.0, StatusCode::OK);
    assert_eq!(
        parameters.1["cloudProviders"],
        json!(["Datadog", "Oracle", "aws", "azure"])
    );
}

#[tokio::test]
async fn spend_has_every_provider_with_the_files_totals() {
    let (app, token) = app_with_four_providers().await;

    let spend = post_ok(
        &app,
        &token,
        "/v2/cost/spend",
        with(range(), json!({"filters": []})),
    )
    .await;
    let current = &spend["current_period"];
    assert_cents(&current["total_amount"], TOTAL);
    let by_provider = current["cloud_provider"].as_object().unwrap();
    let names: Vec<&str> = by_provider.keys().map(String::as_str).collect();
    assert_eq!(names, ["AWS", "Azure", "Datadog", "GCP", "Oracle"]);
    assert_cents(&by_provider["AWS"], AWS);
    assert_cents(&by_provider["Azure"], AZURE);
    assert_cents(&by_provider["Datadog"], DATADOG);
    assert_cents(&by_provider["GCP"], 0.0);
    assert_cents(&by_provider["Oracle"], ORACLE);

    // A provider filter by its name, as stored.
    let oracle = post_ok(
        &app,
        &token,
        "/v2/cost/spend",
        with(range(), json!({"filters": providers(&["Oracle"])})),
    )
    .await;
    assert_cents(&oracle["current_period"]["total_amount"], ORACLE);
}

#[tokio::test]
async fn grouping_by_provider_answers_every_provider_largest_first() {
    let (app, token) = app_with_four_providers().await;

    let answer = post_ok(
        &app,
        &token,
        "/v2/cost/aggr",
        with(range(), json!({"group_by": "cloud_provider"})),
    )
    .await;
    let rows: Vec<(String, i64)> = answer["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| {
            (
                row["cloud_provider"].as_str().unwrap().to_owned(),
                cents(&row["amount"]),
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            ("Oracle".to_owned(), 17524),
            ("aws".to_owned(), 15485),
            ("azure".to_owned(), 12545),
            ("Datadog".to_owned(), 3411),
        ]
    );
    assert_cents(&answer["summary"]["accrued_cost"], TOTAL);

    // Grouped by provider and service under a filter on the SaaS provider.
    let datadog = post_ok(
        &app,
        &token,
        "/v2/cost/aggr",
        with(
            range(),
            json!({"group_by_dimensions": ["cloud_provider", "service"], "filters": providers(&["Datadog"])}),
        ),
    )
    .await;
    let paths: Vec<&str> = datadog["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row["grouping_path"].as_str().unwrap())
        .collect();
    assert_eq!(paths.len(), 2, "{datadog}");
    assert!(
        paths.iter().all(|path| path.starts_with("Datadog")),
        "{paths:?}"
    );
    assert_cents(&datadog["summary"]["accrued_cost"], DATADOG);
}

#[tokio::test]
async fn a_budget_filtered_on_oracle_spends_oracles_costs() {
    let (app, token) = app_with_four_providers().await;

    let body = json!({
        "name": "Oracle Cloud",
        "amount": 1000,
        "period": "Monthly",
        "filters": [{"filterType": "cloudProvider", "filterValues": ["Oracle"]}],
        "alerts": [{"thresholdType": "Percentage", "thresholdValue": 80}],
    });
    let (status, budget) =
        status_and_json(app.post("/v1/budgets", Some(&token), &body).await).await;
    assert_eq!(status, StatusCode::CREATED, "{budget}");
    assert_cents(&budget["previousSpent"], ORACLE);
    assert_cents(&budget["currentSpent"], 0.0);
    assert_eq!(budget["filters"][0]["filterValues"], json!(["Oracle"]));

    // The whole SaaS bill in one budget with the clouds: every provider's name is accepted.
    let all = with(
        body,
        json!({"name": "Everything",
               "filters": [{"filterType": "cloudProvider",
                            "filterValues": ["AWS", "Microsoft", "Oracle", "Datadog"]}]}),
    );
    let (status, budget) = status_and_json(app.post("/v1/budgets", Some(&token), &all).await).await;
    assert_eq!(status, StatusCode::CREATED, "{budget}");
    assert_cents(&budget["previousSpent"], TOTAL);
}

#[tokio::test]
async fn service_categories_place_every_providers_services_from_focus_first() {
    let (app, token) = app_with_four_providers().await;

    let answer = post_ok(
        &app,
        &token,
        "/v2/cost/service-categories",
        with(range(), json!({"filters": []})),
    )
    .await;
    let categories: Vec<(String, i64, Vec<String>)> = answer["categories"]
        .as_array()
        .unwrap()
        .iter()
        .map(|category| {
            (
                category["category"].as_str().unwrap().to_owned(),
                cents(&category["amount"]),
                category["services"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|service| service["name"].as_str().unwrap().to_owned())
                    .collect(),
            )
        })
        .collect();
    let names = |list: &[&str]| {
        list.iter()
            .map(|name| (*name).to_owned())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        categories,
        [
            (
                "Database".to_owned(),
                14544,
                names(&["Autonomous Database", "Azure SQL Database"])
            ),
            (
                "Compute".to_owned(),
                26060,
                names(&[
                    "Amazon Elastic Compute Cloud",
                    "Virtual Machines",
                    "Compute"
                ])
            ),
            (
                "Storage".to_owned(),
                4540,
                names(&["Amazon Simple Storage Service", "Block Storage"])
            ),
            ("Serverless".to_owned(), 410, names(&["AWS Lambda"])),
            (
                "Operations".to_owned(),
                3411,
                names(&["Infrastructure Monitoring", "Log Management"])
            ),
        ]
    );
    let total: i64 = categories.iter().map(|(_, amount, _)| amount).sum();
    assert_eq!(total, 48965);
    assert_eq!(answer["currency"], "USD");
    assert_eq!(answer["other_currencies"], json!([]));
    // Nothing the month before: no change, no insight.
    assert_eq!(answer["categories"][0]["previous_amount"], json!(0.0));
    assert_eq!(answer["categories"][0]["percent_change"], Value::Null);
    assert_eq!(answer["categories"][0]["insight"], false);

    // Compared with last month itself, every category is unchanged.
    let (last, this) = months();
    let same = post_ok(
        &app,
        &token,
        "/v2/cost/service-categories",
        with(
            range(),
            json!({"previous_start_time": last.to_string(),
                   "previous_end_time": this.pred_opt().unwrap().to_string()}),
        ),
    )
    .await;
    assert_cents(&same["categories"][1]["previous_amount"], 260.60);
    assert_eq!(same["categories"][1]["percent_change"], json!(0.0));

    // The SaaS provider alone.
    let datadog = post_ok(
        &app,
        &token,
        "/v2/cost/service-categories",
        with(range(), json!({"filters": providers(&["Datadog"])})),
    )
    .await;
    assert_eq!(datadog["categories"].as_array().unwrap().len(), 1);
    assert_eq!(datadog["categories"][0]["category"], "Operations");
}

#[tokio::test]
async fn service_categories_refuse_a_missing_range_and_need_a_session() {
    let (app, token) = app_with_four_providers().await;
    let (status, body) = status_and_json(
        app.post(
            "/v2/cost/service-categories",
            Some(&token),
            &json!({"end_time": "2026-01-31"}),
        )
        .await,
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    let (status, _) = status_and_json(
        app.post("/v2/cost/service-categories", None, &range())
            .await,
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}
