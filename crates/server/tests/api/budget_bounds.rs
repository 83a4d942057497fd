//! Size bounds of a budget body (docs/API-BUDGETS.md "Bounds"): a budget with 100,000 filter
//! values used to be stored, and every later list of the tenant's budgets read them all. Each
//! bound answers 422 with its message on the `filters` or `alerts` field, before anything is
//! stored, on a create and on an edit.

use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::budgets::{account_budget, budget_data, create};
use crate::cost_fixture::upload;
use crate::engine_under_test;
use crate::helpers::{assert_invalid, spawn_app, status_and_json, TestApp};

fn values(prefix: &str, count: usize) -> Vec<String> {
    (0..count).map(|index| format!("{prefix}{index}")).collect()
}

fn with_filters(filters: Value) -> Value {
    let mut body = account_budget("Bounded", "111111111111", 1000.0);
    body["filters"] = filters;
    body
}

/// Every over-the-bound body and the message it gets.
fn over_the_bounds() -> Vec<(&'static str, Value, &'static str)> {
    let tag_keys: Vec<String> = (0..11).map(|key| format!("team{key}:a")).collect();
    let mut six_alerts = account_budget("Bounded", "111111111111", 1000.0);
    six_alerts["alerts"] = json!([10, 20, 30, 40, 50, 60]
        .iter()
        .map(|value| json!({"thresholdType": "Percentage", "thresholdValue": value}))
        .collect::<Vec<_>>());
    vec![
        (
            "filters",
            with_filters(json!([{"filterType": "account", "filterValues": values("a", 100_000)}])),
            "Maximum of 100 values allowed per filter",
        ),
        (
            "filters",
            with_filters(json!([{"filterType": "region", "filterValues": values("r", 101)}])),
            "Maximum of 100 values allowed per filter",
        ),
        (
            "filters",
            with_filters(json!([{"filterType": "service", "filterValues": ["s".repeat(101)]}])),
            "Filter values must be at most 100 characters",
        ),
        (
            "filters",
            with_filters(json!([{"filterType": "tag", "filterValues": tag_keys}])),
            "Maximum of 10 tag keys allowed",
        ),
        (
            "filters",
            with_filters(json!(vec![
                json!({"filterType": "region", "filterValues": []});
                21
            ])),
            "Maximum of 5 filters allowed",
        ),
        ("alerts", six_alerts, "Maximum of 5 alerts allowed"),
    ]
}

async fn list(app: &TestApp, token: &str) -> Vec<Value> {
    let (status, answer) = status_and_json(app.get("/v1/budgets", Some(token)).await).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    answer.as_array().unwrap().clone()
}

#[tokio::test]
async fn each_bound_answers_422_on_create_and_edit_and_stores_nothing() {
    let app = spawn_app().await;
    let token = app
        .signup_owner("Alice Owner", "alice@a.test")
        .await
        .access_token;
    let kept = create(
        &app,
        &token,
        &account_budget("Kept", "111111111111", 1000.0),
    )
    .await;
    let path = format!("/v1/budgets/{}", kept["id"]);
    for (field, body, message) in over_the_bounds() {
        assert_invalid(
            app.post("/v1/budgets", Some(&token), &body).await,
            field,
            message,
        )
        .await;
        assert_invalid(app.put(&path, &token, &body).await, field, message).await;
    }
    let budgets = list(&app, &token).await;
    assert_eq!(budgets.len(), 1);
    assert_eq!(budgets[0]["name"], "Kept");
    assert_eq!(
        budgets[0]["filters"],
        json!([{"filterType": "account", "filterValues": ["111111111111"]}])
    );
}

#[tokio::test]
async fn a_budget_at_every_bound_is_stored_and_the_list_stays_quick() {
    let app = spawn_app().await;
    let token = app
        .signup_owner("Alice Owner", "alice@a.test")
        .await
        .access_token;
    upload(&app, &token, &budget_data()).await;
    let mut accounts = values("1000000000", 99);
    accounts.push("111111111111".to_owned());
    let tags: Vec<String> = (0..10)
        .flat_map(|key| (0..10).map(move |value| format!("key{key}:value{value}")))
        .collect();
    let regions = [values("region-", 99), vec!["us-east-1".to_owned()]].concat();
    let services = [values(&"s".repeat(97), 99), vec!["AmazonEC2".to_owned()]].concat();
    let tags = [tags, vec!["env:prod".to_owned()]].concat();
    let body = with_filters(json!([
        {"filterType": "account", "filterValues": accounts},
        {"filterType": "region", "filterValues": regions},
        {"filterType": "service", "filterValues": services},
        {"filterType": "cloudProvider", "filterValues": ["AWS"]},
        {"filterType": "tag", "filterValues": tags},
    ]));
    // 11 tag keys with env: one too many; without the last key it is at the bound.
    let (status, _) = status_and_json(app.post("/v1/budgets", Some(&token), &body).await).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    let mut at_bound = body.clone();
    let tag_values: Vec<String> = (0..9)
        .flat_map(|key| (0..10).map(move |value| format!("key{key}:value{value}")))
        .chain(std::iter::once("env:prod".to_owned()))
        .collect();
    at_bound["filters"][4]["filterValues"] = json!(tag_values);
    for _ in 0..5 {
        create(&app, &token, &at_bound).await;
    }
    let started = Instant::now();
    let budgets = list(&app, &token).await;
    let took = started.elapsed();
    assert_eq!(budgets.len(), 5);
    // The instance tagged env:prod in us-east-1 on account 111111111111.
    assert_eq!(budgets[0]["currentSpent"], json!(600.0), "{}", budgets[0]);
    assert_eq!(
        budgets[0]["filters"][0]["filterValues"]
            .as_array()
            .unwrap()
            .len(),
        100
    );
    // About 0.2 s here on DuckDB; generous for a loaded test machine (a list of 100,000-value
    // budgets took 3 s). ClickHouse 18.16 spends tens of milliseconds analysing each of the
    // list's statements over its two shards however few rows they read (each budget's filter is
    // ~15 KB of SQL, written four times in the nested aggregation): 2.4 s measured here with
    // the whole API suite running beside it (14-23 s before OR'd groups shared their common
    // conditions), so its bound is wider.
    let bound = if engine_under_test::on_clickhouse() { 6 } else { 2 };
    assert!(took < Duration::from_secs(bound), "the list took {took:?}");
}
