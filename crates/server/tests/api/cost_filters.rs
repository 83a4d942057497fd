//! `POST /v2/cost/filters` and `GET /v1/cost/filter-parameters` over the standard data set.

use reqwest::StatusCode;
use serde_json::json;

use crate::cost_fixture::{app_with_standard_data, post_ok, JANUARY};
use crate::helpers::{assert_error, assert_invalid, status_and_json};

#[tokio::test]
async fn filter_options_list_the_sorted_distinct_values_of_the_range() {
    let (app, token) = app_with_standard_data().await;

    let answer = post_ok(
        &app,
        &token,
        "/v2/cost/filters",
        json!({"start_date": JANUARY.0, "end_date": JANUARY.1, "filters": []}),
    )
    .await;

    assert_eq!(
        answer,
        json!({
            "accounts": ["111111111111", "222222222222", "my-gcp-project", "sub-aaaa"],
            "account_names": {"111111111111": "Production", "222222222222": "Staging",
                              "my-gcp-project": "My Project", "sub-aaaa": "Azure Sub"},
            "accounts_by_provider": {"aws": ["111111111111", "222222222222"],
                                     "azure": ["sub-aaaa"], "gcp": ["my-gcp-project"]},
            "regions": ["eu-west-1", "europe-west1", "us-east-1", "westeurope"],
            "services": ["AmazonCloudWatch", "AmazonEC2", "AmazonS3", "Compute Engine",
                         "Virtual Machines"],
            "tags": {"env": ["dev", "prod"], "team": ["data", "ml", "web"]},
            "cloud_providers": ["aws", "azure", "gcp"],
            "cost_type": ["Credit", "Tax", "Usage"],
            "usage_types": ["BoxUsage:m5.large", "BoxUsage:t3.micro", "CW:Requests", "D2 v3",
                            "N1 Predefined Instance Core", "TimedStorage-ByteHrs"],
            "warnings": []
        })
    );
}

#[tokio::test]
async fn a_group_restricted_to_one_provider_gives_that_providers_options() {
    let (app, token) = app_with_standard_data().await;

    let answer = post_ok(
        &app,
        &token,
        "/v2/cost/filters",
        json!({"start_date": JANUARY.0, "end_date": JANUARY.1, "filters": [
            {"operator": "AND", "cloud_providers": [{"operator": "equals", "values": ["GCP"]}]}
        ]}),
    )
    .await;

    assert_eq!(answer["accounts"], json!(["my-gcp-project"]));
    assert_eq!(
        answer["accounts_by_provider"],
        json!({"gcp": ["my-gcp-project"]})
    );
    assert_eq!(answer["services"], json!(["Compute Engine"]));
    assert_eq!(answer["regions"], json!(["europe-west1"]));
    assert_eq!(answer["tags"], json!({"env": ["prod"], "team": ["ml"]}));
    assert_eq!(answer["cloud_providers"], json!(["gcp"]));
}

#[tokio::test]
async fn filter_options_without_dates_cover_all_data_and_a_narrow_range_less() {
    let (app, token) = app_with_standard_data().await;

    let all = post_ok(&app, &token, "/v2/cost/filters", json!({})).await;
    assert_eq!(all["cloud_providers"], json!(["aws", "azure", "gcp"]));

    let february = post_ok(
        &app,
        &token,
        "/v2/cost/filters",
        json!({"start_date": "2026-02-01", "end_date": "2026-02-28"}),
    )
    .await;
    assert_eq!(february["accounts"], json!(["111111111111"]));
    assert_eq!(february["services"], json!(["AmazonEC2"]));

    let skipped = post_ok(
        &app,
        &token,
        "/v2/cost/filters",
        json!({"filters": [{"regions": [{"operator": "in", "values": []}]}]}),
    )
    .await;
    assert_eq!(
        skipped["warnings"],
        json!(["Filter group 1: skipped a regions condition without values"])
    );
    assert_eq!(skipped["accounts"].as_array().unwrap().len(), 4);
}

#[tokio::test]
async fn filter_options_validate_dates_and_operators() {
    let (app, token) = app_with_standard_data().await;

    assert_error(
        app.post(
            "/v2/cost/filters",
            Some(&token),
            &json!({"end_date": "2026-01-31"}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "start_date is required",
    )
    .await;
    assert_error(
        app.post(
            "/v2/cost/filters",
            Some(&token),
            &json!({"start_date": "2026-02-01", "end_date": "2026-01-31"}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "end_date must not be before start_date",
    )
    .await;
    assert_invalid(
        app.post(
            "/v2/cost/filters",
            Some(&token),
            &json!({"filters": [{"services": [{"operator": "like", "values": ["x"]}]}]}),
        )
        .await,
        "filters",
        "Operator like is not supported for field services",
    )
    .await;
}

#[tokio::test]
async fn filter_parameters_are_camel_cased_over_all_the_data() {
    let (app, token) = app_with_standard_data().await;

    let (status, answer) =
        status_and_json(app.get("/v1/cost/filter-parameters", Some(&token)).await).await;

    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        answer,
        json!({
            "accounts": ["111111111111", "222222222222", "my-gcp-project", "sub-aaaa"],
            "accountNames": {"111111111111": "Production", "222222222222": "Staging",
                             "my-gcp-project": "My Project", "sub-aaaa": "Azure Sub"},
            "tags": {"env": ["dev", "prod"], "team": ["data", "ml", "web"]},
            "cloudProviders": ["aws", "azure", "gcp"],
            "regions": ["eu-west-1", "europe-west1", "us-east-1", "westeurope"],
            "services": ["AmazonCloudWatch", "AmazonEC2", "AmazonS3", "Compute Engine",
                         "Virtual Machines"],
            "costTypes": ["Credit", "Tax", "Usage"]
        })
    );
}
