//! `POST /v1/query` (advanced filtering) over the standard data set.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::cost_fixture::{amounts, app_with_standard_data, merge, pairs, post_ok, JANUARY};
use crate::helpers::{assert_error, assert_invalid, status_and_json, TestApp};

async fn query(app: &TestApp, token: &str, filters: Value, logic: &str) -> Value {
    post_ok(
        app,
        token,
        "/v1/query",
        json!({"filters": filters, "logic": logic, "start_time": JANUARY.0,
               "end_time": JANUARY.1}),
    )
    .await
}

fn filter(field: &str, operator: &str, value: Value) -> Value {
    json!({ "field": field, "operator": operator, "value": value })
}

#[tokio::test]
async fn every_operator() {
    let (app, token) = app_with_standard_data().await;
    let cases = [
        (filter("service_name", "equals", json!("AmazonEC2")), 138.0),
        (
            filter("service_name", "not_equals", json!(["AmazonEC2"])),
            104.0,
        ),
        (
            filter("region", "in", json!(["us-east-1", "eu-west-1"])),
            154.0,
        ),
        (filter("region", "not_in", json!(["us-east-1"])), 118.0),
        (filter("service_name", "contains", json!("amazon")), 162.0),
        (
            filter("service_name", "not_contains", json!("Amazon")),
            80.0,
        ),
        (filter("account_id", "starts_with", json!("111")), 132.0),
        (filter("account_id", "ends_with", json!("project")), 64.0),
        (filter("region", "is_empty", Value::Null), 8.0),
        (filter("region", "is_not_empty", Value::Null), 234.0),
        (filter("cloud_provider", "equals", json!("GCP")), 64.0),
        (filter("cost_type", "equals", json!("Credit")), -10.0),
        (
            filter("usage_type", "starts_with", json!("BoxUsage")),
            140.0,
        ),
        (filter("tag:env", "equals", json!("prod")), 188.0),
        (
            json!({"field": "tags", "tagKey": "team", "operator": "equals"}),
            220.0,
        ),
        (
            json!({"field": "tags", "tagKey": "env", "operator": "equals",
                   "tagValueOperator": "not_equals", "value": ["prod"]}),
            54.0,
        ),
    ];
    for (condition, expected) in cases {
        let answer = query(&app, &token, json!([condition.clone()]), "and").await;
        assert_eq!(
            answer["summary"]["accrued_cost"], expected,
            "{condition}: {answer}"
        );
    }
}

#[tokio::test]
async fn and_needs_every_condition_or_any_and_the_answer_is_grouped_by_service() {
    let (app, token) = app_with_standard_data().await;
    let filters = json!([
        filter("service_name", "equals", json!("AmazonEC2")),
        filter("region", "equals", json!("us-east-1")),
    ]);

    let and = query(&app, &token, filters.clone(), "and").await;
    assert_eq!(amounts(&and), pairs(&[("AmazonEC2", 100.0)]));
    assert_eq!(and["summary"]["accrued_cost"], 100.0);

    let or = query(&app, &token, filters, "OR").await;
    assert_eq!(
        amounts(&or),
        pairs(&[
            ("AmazonEC2", 138.0),
            ("AmazonS3", 20.0),
            ("AmazonCloudWatch", 4.0)
        ])
    );
    assert_eq!(or["total_groups"], 3);
    assert!(or["data"][0].get("timestamp").is_none());

    let by_account = post_ok(
        &app,
        &token,
        "/v1/query",
        json!({"filters": [], "logic": "and", "start_time": JANUARY.0, "end_time": JANUARY.1,
               "group_by": ["cloud_provider"], "metric": "list"}),
    )
    .await;
    assert_eq!(
        amounts(&by_account),
        pairs(&[("aws", 207.0), ("gcp", 64.0), ("azure", 16.0)])
    );
}

#[tokio::test]
async fn every_validation_message() {
    let (app, token) = app_with_standard_data().await;
    let valid = filter("region", "equals", json!("us-east-1"));
    let eleven: Vec<Value> = (0..11)
        .map(|n| filter("region", "equals", json!(n.to_string())))
        .collect();
    let cases = [
        (
            json!({"filters": {"field": "region"}}),
            "filters",
            "Filters must be an array",
        ),
        (
            json!({"filters": [{"operator": "equals", "value": "a"}]}),
            "filters",
            "Filter 1: Filter field is required",
        ),
        (
            json!({"filters": [valid.clone(), {"field": "region", "value": "a"}]}),
            "filters",
            "Filter 2: Filter operator is required",
        ),
        (
            json!({"filters": [{"field": "region", "operator": "in", "value": []}]}),
            "filters",
            "Filter 1: Filter value is required",
        ),
        (
            json!({"filters": [filter("region", "greater_than", json!("a"))]}),
            "filters",
            "Filter 1: Operator greater_than is not supported for field region",
        ),
        (
            json!({"filters": [valid.clone(), filter("region", "equals", json!("x"))]}),
            "filters",
            "Duplicate filters detected",
        ),
        (
            json!({"filters": [valid.clone()], "logic": "xor"}),
            "logic",
            "Logic xor not supported in cost_analysis module",
        ),
        (
            json!({ "filters": eleven }),
            "filters",
            "Maximum 10 filters allowed",
        ),
        (
            json!({"filters": [], "group_by": ["service", "colour"]}),
            "group_by",
            "Unknown group by dimension colour",
        ),
        (
            json!({"filters": [valid.clone(), filter("cost_amount", "greater_than", json!("a lot"))]}),
            "filters",
            "Filter 2: Cost amount must be a number",
        ),
        (
            json!({"filters": [filter("cost_amount", "between", json!([10]))]}),
            "filters",
            "Filter 1: Between needs two amounts: from and to",
        ),
        (
            json!({"filters": [filter("cost_amount", "between", json!([100, 10]))]}),
            "filters",
            "Filter 1: From amount cannot exceed to amount",
        ),
        (
            json!({"filters": [filter("cost_amount", "equals", json!(10))]}),
            "filters",
            "Filter 1: Operator equals is not supported for field cost_amount",
        ),
        (
            json!({"filters": [filter("cost_amount", "greater_than", json!(1)),
                               filter("cost_amount", "less_than", json!(100))]}),
            "filters",
            "Duplicate filters detected",
        ),
    ];
    for (body, field, message) in cases {
        assert_invalid(
            app.post("/v1/query", Some(&token), &body).await,
            field,
            message,
        )
        .await;
    }
    assert_error(
        app.post(
            "/v1/query",
            Some(&token),
            &json!({"filters": [], "start_time": "2026-01-31", "end_time": "2026-01-01"}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "end_time must not be before start_time",
    )
    .await;
}

#[tokio::test]
async fn empty_filters_are_dropped_unknown_fields_warned_and_the_range_defaults_to_this_month() {
    let (app, token) = app_with_standard_data().await;

    let answer = query(
        &app,
        &token,
        json!(["", {}, [], filter("colour", "equals", json!("red"))]),
        "and",
    )
    .await;
    assert_eq!(answer["summary"]["accrued_cost"], 242.0);
    assert_eq!(
        answer["warnings"],
        json!(["Filter 4: ignored unknown field colour"])
    );

    let (status, this_month) = status_and_json(
        app.post(
            "/v1/query",
            Some(&token),
            &json!({"filters": [], "logic": "and"}),
        )
        .await,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{this_month}");
    assert!(this_month["summary"]["accrued_cost"].is_number());
    assert!(this_month["data"].is_array());
}

/// `/v1/query` over January with `body` merged in.
async fn query_with(app: &TestApp, token: &str, body: Value) -> Value {
    let mut request = json!({"start_time": JANUARY.0, "end_time": JANUARY.1});
    merge(&mut request, body);
    post_ok(app, token, "/v1/query", request).await
}

/// January by service: AmazonEC2 138, Compute Engine 64, AmazonS3 20, Virtual Machines 16,
/// AmazonCloudWatch 4 (242); December (the previous period): AmazonEC2 50.
#[tokio::test]
async fn cost_amount_keeps_the_groups_whose_total_passes() {
    let (app, token) = app_with_standard_data().await;
    let amount = |operator: &str, value: Value| json!([filter("cost_amount", operator, value)]);

    let unfiltered = query_with(&app, &token, json!({"filters": []})).await;
    assert_eq!(unfiltered["summary"]["accrued_cost"], 242.0);
    assert_eq!(unfiltered["summary"]["previous_cost"], 50.0);
    assert_eq!(unfiltered["total_groups"], 5);

    let above = query_with(
        &app,
        &token,
        json!({"filters": amount("greater_than", json!(50))}),
    )
    .await;
    assert_eq!(
        amounts(&above),
        pairs(&[("AmazonEC2", 138.0), ("Compute Engine", 64.0)])
    );
    assert_eq!(above["summary"]["accrued_cost"], 202.0, "{above}");
    assert_eq!(above["summary"]["previous_cost"], 50.0, "{above}");
    assert_eq!(above["summary"]["accrued_change"], 304.0, "{above}");
    assert_eq!(above["total_groups"], 2);

    // Strictly below; no previous cost for these groups.
    let below = query_with(
        &app,
        &token,
        json!({"filters": amount("less_than", json!("20"))}),
    )
    .await;
    assert_eq!(
        amounts(&below),
        pairs(&[("Virtual Machines", 16.0), ("AmazonCloudWatch", 4.0)])
    );
    assert_eq!(below["summary"]["accrued_cost"], 20.0);
    assert_eq!(below["summary"]["previous_cost"], 0.0);
    assert_eq!(below["summary"]["accrued_change"], Value::Null);
    assert_eq!(below["total_groups"], 2);

    // Both ends included.
    let between = query_with(
        &app,
        &token,
        json!({"filters": amount("between", json!([16, "64"]))}),
    )
    .await;
    assert_eq!(
        amounts(&between),
        pairs(&[
            ("Compute Engine", 64.0),
            ("AmazonS3", 20.0),
            ("Virtual Machines", 16.0)
        ])
    );
    assert_eq!(between["summary"]["accrued_cost"], 100.0);
    assert_eq!(between["total_groups"], 3);

    let none = query_with(
        &app,
        &token,
        json!({"filters": amount("between", json!([-100, 0]))}),
    )
    .await;
    assert_eq!(none["data"], json!([]));
    assert_eq!(none["summary"]["accrued_cost"], 0.0);
    assert_eq!(none["total_groups"], 0);
}

#[tokio::test]
async fn cost_amount_applies_after_the_other_conditions_whatever_the_logic() {
    let (app, token) = app_with_standard_data().await;
    let over = |amount: f64| filter("cost_amount", "greater_than", json!(amount));

    // and: Amazon services (EC2 138, S3 20, CloudWatch 4), then above 10.
    let and = query_with(
        &app,
        &token,
        json!({"logic": "and", "filters": [
            filter("service_name", "contains", json!("amazon")), over(10.0)]}),
    )
    .await;
    assert_eq!(
        amounts(&and),
        pairs(&[("AmazonEC2", 138.0), ("AmazonS3", 20.0)])
    );
    assert_eq!(and["summary"]["accrued_cost"], 158.0);

    // or: S3 (20) or europe-west1 (Compute Engine 64), then above 30; the amount test is not
    // one more alternative.
    let or = query_with(
        &app,
        &token,
        json!({"logic": "or", "filters": [
            filter("service_name", "equals", json!("AmazonS3")),
            over(30.0),
            filter("region", "equals", json!("europe-west1"))]}),
    )
    .await;
    assert_eq!(amounts(&or), pairs(&[("Compute Engine", 64.0)]));
    assert_eq!(or["summary"]["accrued_cost"], 64.0);
    assert_eq!(or["total_groups"], 1);

    // By account (111111111111 132, my-gcp-project 64, 222222222222 30, sub-aaaa 16), on the
    // effective metric (111111111111 122, 222222222222 20).
    let by_account = query_with(
        &app,
        &token,
        json!({"group_by": ["account"], "filters": [
            filter("cost_amount", "less_than", json!(50))]}),
    )
    .await;
    assert_eq!(
        amounts(&by_account),
        pairs(&[("222222222222", 30.0), ("sub-aaaa", 16.0)])
    );
    assert_eq!(by_account["data"][0]["account_name"], "Staging");
    assert_eq!(by_account["summary"]["accrued_cost"], 46.0);
    let effective = query_with(
        &app,
        &token,
        json!({"group_by": ["account"], "metric": "effective", "filters": [
            filter("cost_amount", "between", json!([20, 64]))]}),
    )
    .await;
    assert_eq!(
        amounts(&effective),
        pairs(&[("my-gcp-project", 64.0), ("222222222222", 20.0)])
    );
    assert_eq!(effective["summary"]["accrued_cost"], 84.0);
}
