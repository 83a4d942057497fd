//! `/v1/ingest`: uploads of billing files, their background loads and the upload history.

use reqwest::StatusCode;
use serde_json::Value;

use crate::helpers::{assert_error, assert_invalid, spawn_app, spawn_app_with, status_and_json};

pub const HEADER: &str = "BilledCost,BillingAccountId,BillingAccountName,BillingCurrency,\
BillingPeriodEnd,BillingPeriodStart,ChargeCategory,ChargeClass,ChargeDescription,\
ChargeFrequency,ChargePeriodEnd,ChargePeriodStart,ContractedCost,EffectiveCost,\
InvoiceIssuerName,ListCost,ProviderName,PublisherName,RegionId,RegionName,ServiceCategory,\
ServiceName,SkuMeter,SubAccountId,SubAccountName,Tags";

/// A FOCUS 1.2 row of October 2026 (billed, effective, list).
pub fn focus_row(provider: &str, account: &str, day: u32, costs: (&str, &str, &str)) -> String {
    let (billed, effective, list) = costs;
    let billing_account = if provider == "AWS" {
        "900000000000"
    } else {
        "01AAAA-BBBBBB-CCCCCC"
    };
    format!(
        "{billed},{billing_account},Acme billing,USD,2026-11-01T00:00:00Z,2026-10-01T00:00:00Z,\
Usage,,Compute usage,Usage-Based,2026-10-{:02}T00:00:00Z,2026-10-{day:02}T00:00:00Z,\
{effective},{effective},{provider},{list},{provider},{provider},us-east-1,US East,Compute,\
AmazonEC2,BoxUsage:m5.large,{account},Production,\"{{\"\"env\"\":\"\"prod\"\"}}\"",
        day + 1
    )
}

/// Four rows: three AWS (billed 31.875, effective 30.5, list 40), one Google Cloud (billed
/// 7.123456, effective 7.123456, list 8).
pub fn focus_csv() -> Vec<u8> {
    let rows = [
        focus_row("AWS", "111111111111", 2, ("10.25", "10", "12")),
        focus_row("AWS", "111111111111", 3, ("20.5", "19.5", "25")),
        focus_row("AWS", "222222222222", 4, ("1.125", "1", "3")),
        focus_row(
            "Google Cloud",
            "my-gcp-project",
            5,
            ("7.123456", "7.123456", "8"),
        ),
    ];
    format!("{HEADER}\n{}\n", rows.join("\n")).into_bytes()
}

fn totals_of(job: &Value, provider: &str) -> (u64, f64, f64, f64, String) {
    let totals = job["totals"]
        .as_array()
        .unwrap()
        .iter()
        .find(|totals| totals["provider"] == provider)
        .unwrap_or_else(|| panic!("no {provider} totals in {job}"));
    (
        totals["rows"].as_u64().unwrap(),
        totals["billed_cost"].as_f64().unwrap(),
        totals["effective_cost"].as_f64().unwrap(),
        totals["list_cost"].as_f64().unwrap(),
        totals["currency"].as_str().unwrap().to_owned(),
    )
}

fn assert_close(actual: f64, expected: f64) {
    assert!((actual - expected).abs() < 1e-6, "{actual} != {expected}");
}

#[tokio::test]
async fn an_owners_upload_is_loaded_with_the_files_rows_and_totals() {
    let app = spawn_app().await;
    let owner = app.signup_owner("Olive Owner", "olive@acme.test").await;

    let job = app
        .ingest_files(&owner.access_token, &[("focus-2026-10.csv", focus_csv())])
        .await;

    assert_eq!(job["status"], "succeeded", "{job}");
    assert_eq!(job["rows"], 4);
    assert_eq!(job["replaced_rows"], 0);
    assert_eq!(job["created_by"], "Olive Owner");
    assert!(job.get("error").is_none(), "{job}");
    assert!(job["started_at"].is_string() && job["finished_at"].is_string());
    let file = &job["files"][0];
    assert_eq!(file["name"], "focus-2026-10.csv");
    assert_eq!(file["bytes"].as_u64().unwrap(), focus_csv().len() as u64);
    assert_eq!(file["format"], "focus");
    assert_eq!(file["rows"], 4);
    let (rows, billed, effective, list, currency) = totals_of(&job, "aws");
    assert_eq!((rows, currency.as_str()), (3, "USD"));
    assert_close(billed, 31.875);
    assert_close(effective, 30.5);
    assert_close(list, 40.0);
    let (rows, billed, _, list, _) = totals_of(&job, "gcp");
    assert_eq!(rows, 1);
    assert_close(billed, 7.123456);
    assert_close(list, 8.0);
    let periods = job["billing_periods"].as_array().unwrap();
    assert_eq!(periods.len(), 2, "{job}");
    assert!(periods
        .iter()
        .all(|period| period["billing_period_start"] == "2026-10-01"));
    assert!(
        !app.data_dir
            .path()
            .join("uploads")
            .join(job["id"].to_string())
            .exists(),
        "the uploaded files are deleted after the load"
    );
}

#[tokio::test]
async fn uploading_the_same_file_again_replaces_its_rows() {
    let app = spawn_app().await;
    let owner = app.signup_owner("Olive Owner", "olive@acme.test").await;
    let first = app
        .ingest_files(&owner.access_token, &[("focus.csv", focus_csv())])
        .await;

    let second = app
        .ingest_files(&owner.access_token, &[("focus.csv", focus_csv())])
        .await;

    assert_eq!(second["status"], "succeeded", "{second}");
    assert_eq!(second["rows"], 4);
    assert_eq!(second["replaced_rows"], 4);
    assert_eq!(second["totals"], first["totals"]);
}

#[tokio::test]
async fn an_admin_may_upload_and_a_user_may_only_read_the_history() {
    let app = spawn_app().await;
    let owner = app.signup_owner("Olive Owner", "olive@acme.test").await;
    let admin = app
        .add_member(&owner.access_token, "Ada Admin", "ada@acme.test", "Admin")
        .await;
    let user = app
        .add_member(&owner.access_token, "Uma User", "uma@acme.test", "User")
        .await;

    let job = app
        .ingest_files(&admin.access_token, &[("focus.csv", focus_csv())])
        .await;
    assert_eq!(job["created_by"], "Ada Admin");

    let refused = app
        .upload_files(&user.access_token, &[("focus.csv", focus_csv())], None)
        .await;
    assert_error(
        refused,
        StatusCode::FORBIDDEN,
        "Only owners and admins can load billing data",
    )
    .await;
    let (status, history) =
        status_and_json(app.get("/v1/ingest", Some(&user.access_token)).await).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        history.as_array().unwrap().len(),
        1,
        "the refused upload left no trace"
    );
    let id = job["id"].as_i64().unwrap();
    let (status, _) = status_and_json(
        app.get(&format!("/v1/ingest/{id}"), Some(&user.access_token))
            .await,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn uploads_need_a_signed_in_user() {
    let app = spawn_app().await;
    let response = app
        .client
        .post(app.url("/v1/ingest"))
        .multipart(reqwest::multipart::Form::new().text("format", "focus"))
        .send()
        .await
        .unwrap();
    assert_error(
        response,
        StatusCode::UNAUTHORIZED,
        "Authentication required",
    )
    .await;
    assert_error(
        app.get("/v1/ingest", None).await,
        StatusCode::UNAUTHORIZED,
        "Authentication required",
    )
    .await;
}

#[tokio::test]
async fn an_upload_without_a_file_is_refused() {
    let app = spawn_app().await;
    let owner = app.signup_owner("Olive Owner", "olive@acme.test").await;

    let response = app
        .upload_files(&owner.access_token, &[], Some("focus"))
        .await;

    assert_error(
        response,
        StatusCode::BAD_REQUEST,
        "Choose at least one file to upload",
    )
    .await;
    let (_, history) =
        status_and_json(app.get("/v1/ingest", Some(&owner.access_token)).await).await;
    assert_eq!(history, serde_json::json!([]));
}

#[tokio::test]
async fn an_unknown_format_is_refused_and_nothing_is_kept() {
    let app = spawn_app().await;
    let owner = app.signup_owner("Olive Owner", "olive@acme.test").await;

    let response = app
        .upload_files(
            &owner.access_token,
            &[("focus.csv", focus_csv())],
            Some("excel"),
        )
        .await;

    assert_invalid(
        response,
        "format",
        "Unknown format excel; expected one of focus, aws-cur, aws-cur2, gcp-billing, azure-cost-details",
    )
    .await;
    let (_, history) =
        status_and_json(app.get("/v1/ingest", Some(&owner.access_token)).await).await;
    assert_eq!(history, serde_json::json!([]));
    let uploads = app.data_dir.path().join("uploads");
    let left = std::fs::read_dir(&uploads).map_or(0, |entries| entries.count());
    assert_eq!(left, 0, "no uploaded file is kept");
}

#[tokio::test]
async fn a_chosen_format_is_recorded_and_used() {
    let app = spawn_app().await;
    let owner = app.signup_owner("Olive Owner", "olive@acme.test").await;

    let (status, accepted) = status_and_json(
        app.upload_files(
            &owner.access_token,
            &[("export.csv", focus_csv())],
            Some("focus"),
        )
        .await,
    )
    .await;

    assert_eq!(status, StatusCode::ACCEPTED);
    assert_eq!(accepted["status"], "queued");
    let job = app
        .wait_for_upload(&owner.access_token, accepted["id"].as_i64().unwrap())
        .await;
    assert_eq!(job["status"], "succeeded", "{job}");
    assert_eq!(job["format"], "focus");
}

#[tokio::test]
async fn a_bad_file_fails_the_upload_naming_file_row_and_column_and_stores_nothing() {
    let app = spawn_app().await;
    let owner = app.signup_owner("Olive Owner", "olive@acme.test").await;
    // Row 3 of the data (after a good one and before good ones) has an unparsable cost.
    let good = focus_row("AWS", "111111111111", 2, ("10.25", "10", "12"));
    let bad = focus_row("AWS", "111111111111", 3, ("12,5x", "10", "12"));
    let bad = bad.replacen("12,5x", "\"12,5x\"", 1);
    let content = format!("{HEADER}\n{good}\n{good}\n{bad}\n{good}\n").into_bytes();

    let job = app
        .ingest_files(&owner.access_token, &[("bad.csv", content)])
        .await;

    assert_eq!(job["status"], "failed", "{job}");
    let error = job["error"].as_str().unwrap();
    for part in ["bad.csv", "row 3", "BilledCost", "12,5x"] {
        assert!(error.contains(part), "{part:?} missing from {error:?}");
    }
    assert_eq!(job["rows"], 0);
    // Nothing of it was stored: loading the good file for the same period replaces nothing.
    let good = app
        .ingest_files(&owner.access_token, &[("focus.csv", focus_csv())])
        .await;
    assert_eq!(good["replaced_rows"], 0, "{good}");
    let (_, history) =
        status_and_json(app.get("/v1/ingest", Some(&owner.access_token)).await).await;
    let statuses: Vec<&str> = history
        .as_array()
        .unwrap()
        .iter()
        .map(|job| job["status"].as_str().unwrap())
        .collect();
    assert_eq!(statuses, ["succeeded", "failed"]);
}

#[tokio::test]
async fn another_customers_upload_is_not_found() {
    let app = spawn_app().await;
    let owner = app.signup_owner("Olive Owner", "olive@acme.test").await;
    let other = app.signup_owner("Otto Other", "otto@other.test").await;
    let job = app
        .ingest_files(&owner.access_token, &[("focus.csv", focus_csv())])
        .await;
    let id = job["id"].as_i64().unwrap();

    let response = app
        .get(&format!("/v1/ingest/{id}"), Some(&other.access_token))
        .await;
    assert_error(response, StatusCode::NOT_FOUND, "Upload not found").await;
    let response = app
        .get(
            &format!("/v1/ingest/{}", id + 1000),
            Some(&owner.access_token),
        )
        .await;
    assert_error(response, StatusCode::NOT_FOUND, "Upload not found").await;
    let (_, history) =
        status_and_json(app.get("/v1/ingest", Some(&other.access_token)).await).await;
    assert_eq!(history, serde_json::json!([]));
}

#[tokio::test]
async fn the_history_lists_uploads_newest_first() {
    let app = spawn_app().await;
    let owner = app.signup_owner("Olive Owner", "olive@acme.test").await;
    let mut ids = Vec::new();
    for name in ["first.csv", "second.csv", "third.csv"] {
        let job = app
            .ingest_files(&owner.access_token, &[(name, focus_csv())])
            .await;
        ids.push(job["id"].as_i64().unwrap());
    }

    let (status, history) =
        status_and_json(app.get("/v1/ingest", Some(&owner.access_token)).await).await;

    assert_eq!(status, StatusCode::OK);
    let listed: Vec<i64> = history
        .as_array()
        .unwrap()
        .iter()
        .map(|job| job["id"].as_i64().unwrap())
        .collect();
    ids.reverse();
    assert_eq!(listed, ids);
    assert_eq!(history[0]["files"][0]["name"], "third.csv");
}

#[tokio::test]
async fn several_files_are_loaded_as_one_upload() {
    let app = spawn_app().await;
    let owner = app.signup_owner("Olive Owner", "olive@acme.test").await;
    let october = focus_csv();
    let november = String::from_utf8(focus_csv())
        .unwrap()
        .replace("2026-11-01T00:00:00Z", "2026-12-01T00:00:00Z")
        .replace("2026-10-", "2026-11-")
        .into_bytes();

    let job = app
        .ingest_files(
            &owner.access_token,
            &[("2026-10.csv", october), ("2026-11.csv", november)],
        )
        .await;

    assert_eq!(job["status"], "succeeded", "{job}");
    assert_eq!(job["rows"], 8);
    assert_eq!(job["files"].as_array().unwrap().len(), 2);
    assert_eq!(job["billing_periods"].as_array().unwrap().len(), 4);
    assert_close(totals_of(&job, "aws").1, 2.0 * 31.875);
}

#[tokio::test]
async fn an_upload_over_the_limit_is_refused() {
    let app = spawn_app_with(|config| config.max_upload_bytes = 1_000).await;
    let owner = app.signup_owner("Olive Owner", "olive@acme.test").await;
    let big = focus_csv().repeat(3);
    assert!(big.len() > 1_000);

    let response = app
        .upload_files(&owner.access_token, &[("big.csv", big)], None)
        .await;

    assert_error(response, StatusCode::PAYLOAD_TOO_LARGE, "Upload too large").await;
    let (_, history) =
        status_and_json(app.get("/v1/ingest", Some(&owner.access_token)).await).await;
    assert_eq!(history, serde_json::json!([]));
}
