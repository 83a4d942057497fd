//! `POST /v2/cost/spend` over the standard data set.

use reqwest::StatusCode;
use serde_json::json;

use crate::cost_fixture::{app_with_standard_data, post_ok, JANUARY};
use crate::helpers::{assert_error, assert_invalid};

#[tokio::test]
async fn spend_splits_the_period_by_provider_and_charge_type_against_the_previous_one() {
    let (app, token) = app_with_standard_data().await;

    let answer = post_ok(
        &app,
        &token,
        "/v2/cost/spend",
        json!({"start_time": JANUARY.0, "end_time": JANUARY.1, "filters": []}),
    )
    .await;

    assert_eq!(
        answer,
        json!({
            "current_period": {
                "total_amount": 242.0,
                "start_time": "2026-01-01T00:00:00Z",
                "end_time": "2026-01-31T23:59:59.999Z",
                "cloud_provider": {"AWS": 162.0, "Azure": 16.0, "GCP": 64.0},
                "cost_type": {"Credit": -10.0, "Refund": 0.0, "Tax": 8.0, "Usage": 244.0}
            },
            "previous_period": {
                "total_amount": 50.0,
                "start_time": "2025-12-01T00:00:00Z",
                "end_time": "2025-12-31T23:59:59.999Z",
                "cloud_provider": {"AWS": 50.0, "Azure": 0.0, "GCP": 0.0},
                "cost_type": {"Credit": 0.0, "Refund": 0.0, "Usage": 50.0}
            },
            "comparison": {"absolute_change": 192.0, "percent_change": 384.0},
            "warnings": [],
            "currency": "USD",
            "converted": false,
            "otherCurrencies": []
        })
    );
}

#[tokio::test]
async fn spend_applies_filters_inclusions_and_metric() {
    let (app, token) = app_with_standard_data().await;

    let answer = post_ok(
        &app,
        &token,
        "/v2/cost/spend",
        json!({"start_time": JANUARY.0, "end_time": JANUARY.1,
               "filters": [{"operator": "AND",
                            "accounts": [{"operator": "equals", "values": ["222222222222"]}]}],
               "cost_type": {"inclusions": ["Usage", "Tax", "Fee", "regular", "tax", "Credit",
                                           "Refund"]},
               "metric": "effective"}),
    )
    .await;

    assert_eq!(answer["current_period"]["total_amount"], 20.0);
    assert_eq!(
        answer["current_period"]["cloud_provider"],
        json!({"AWS": 20.0, "Azure": 0.0, "GCP": 0.0})
    );
    assert_eq!(
        answer["current_period"]["cost_type"],
        json!({"Credit": -10.0, "Refund": 0.0, "Usage": 30.0})
    );
    // Nothing in December for that account: no percent change.
    assert_eq!(
        answer["comparison"],
        json!({"absolute_change": 20.0, "percent_change": null})
    );
}

#[tokio::test]
async fn spend_validates_time_and_metric() {
    let (app, token) = app_with_standard_data().await;

    assert_error(
        app.post(
            "/v2/cost/spend",
            Some(&token),
            &json!({"start_time": JANUARY.0}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "end_time is required",
    )
    .await;
    assert_invalid(
        app.post(
            "/v2/cost/spend",
            Some(&token),
            &json!({"start_time": JANUARY.0, "end_time": JANUARY.1, "metric": "amortised-ish"}),
        )
        .await,
        "metric",
        "Metric must be billed, effective or list",
    )
    .await;
}
