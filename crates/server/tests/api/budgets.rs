//! `/v1/budgets…` against the real server: spend from the cost engine for the current month,
//! every spec 2 §5 message, roles, tenant isolation, alert history exactly once, daily history,
//! resources and configuration history. The data is dated in the current UTC month (budgets
//! track the current period by the wall clock).

use std::sync::Arc;

use chrono::{Datelike, Days, NaiveDate, Utc};
use costscope_core::budget::{
    AlertBasis, AlertThreshold, Alerts, BudgetAmount, BudgetFilter, BudgetFilterType,
    BudgetFilters, BudgetName, BudgetPeriod, ThresholdType,
};
use costscope_core::SystemClock;
use costscope_server::jobs::budgets::BudgetEvaluator;
use costscope_store::{NewBudget, NotificationKind};
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::cost_fixture::{post_ok, upload, FocusCsv, Line};
use crate::helpers::{assert_error, assert_invalid, spawn_app, status_and_json, TestApp};

/// A date as the `&'static str` the fixture's lines hold (a few per test).
fn leak(date: NaiveDate) -> &'static str {
    Box::leak(date.to_string().into_boxed_str())
}

struct Days3 {
    first: NaiveDate,
    today: NaiveDate,
    /// A day of the previous month.
    previous: NaiveDate,
}

fn this_month() -> Days3 {
    let today = Utc::now().date_naive();
    let first = today.with_day(1).unwrap();
    Days3 {
        first,
        today,
        previous: first - Days::new(10),
    }
}

#[allow(clippy::too_many_arguments)]
fn resource_line(
    account_id: &'static str,
    day: NaiveDate,
    service: &'static str,
    region: &'static str,
    billed: f64,
    (resource_id, resource_name, resource_type): (&'static str, &'static str, &'static str),
    tags: &'static str,
) -> Line {
    let mut line = Line::aws(account_id, leak(day), billed);
    line.service = service;
    line.region = region;
    line.resource_id = resource_id;
    line.resource_name = resource_name;
    line.resource_type = resource_type;
    line.tags = tags;
    line
}

/// Account 111111111111 spends 808 this month (600 on an instance, 200 on a bucket, 8 tax) and
/// 400 last month; 222222222222 spends 50; the GCP project 30.
pub fn budget_data() -> FocusCsv {
    let days = this_month();
    let mut tax = Line::aws("111111111111", leak(days.first), 8.0);
    tax.charge_category = "Tax";
    tax.region = "";
    let mut gcp = resource_line(
        "my-gcp-project",
        days.first,
        "Compute Engine",
        "europe-west1",
        30.0,
        ("vm-1", "", "Instance"),
        "{}",
    );
    gcp.provider = "Google Cloud";
    gcp.billing_account = "01AAAA-BBBBBB-CCCCCC";
    FocusCsv::new()
        .line(resource_line(
            "111111111111",
            days.first,
            "AmazonEC2",
            "us-east-1",
            600.0,
            ("i-aaa", "web-1", "Instance"),
            r#"{"env":"prod"}"#,
        ))
        .line(resource_line(
            "111111111111",
            days.today,
            "AmazonS3",
            "us-east-1",
            200.0,
            ("bucket-logs", "", ""),
            "{}",
        ))
        .line(tax)
        .line(resource_line(
            "222222222222",
            days.first,
            "AmazonEC2",
            "eu-west-1",
            50.0,
            ("i-bbb", "batch-1", "Instance"),
            r#"{"env":"dev"}"#,
        ))
        .line(gcp)
        .line(resource_line(
            "111111111111",
            days.previous,
            "AmazonEC2",
            "us-east-1",
            400.0,
            ("i-aaa", "web-1", "Instance"),
            r#"{"env":"prod"}"#,
        ))
}

async fn app_with_budget_data() -> (TestApp, String) {
    let app = spawn_app().await;
    let owner = app.signup_owner("Alice Owner", "alice@a.test").await;
    upload(&app, &owner.access_token, &budget_data()).await;
    (app, owner.access_token)
}

pub fn account_budget(name: &str, account: &str, amount: f64) -> Value {
    json!({
        "name": name,
        "amount": amount,
        "period": "Monthly",
        "filters": [{"filterType": "account", "filterValues": [account]}],
        "alerts": [
            {"thresholdType": "Percentage", "thresholdValue": 75},
            {"thresholdType": "Percentage", "thresholdValue": 100},
        ],
    })
}

/// The budget data with one monthly budget of 800 on account 111111111111 (808 spent: 101 %).
async fn app_with_prod_budget() -> (TestApp, String, i64) {
    let (app, token) = app_with_budget_data().await;
    let budget = create(
        &app,
        &token,
        &account_budget("Prod AWS", "111111111111", 800.0),
    )
    .await;
    let id = budget["id"].as_i64().unwrap();
    (app, token, id)
}

pub async fn create(app: &TestApp, token: &str, body: &Value) -> Value {
    let (status, answer) = status_and_json(app.post("/v1/budgets", Some(token), body).await).await;
    assert_eq!(status, StatusCode::CREATED, "{answer}");
    answer
}

async fn get_json(app: &TestApp, token: &str, path: &str) -> Value {
    let (status, answer) = status_and_json(app.get(path, Some(token)).await).await;
    assert_eq!(status, StatusCode::OK, "{path}: {answer}");
    answer
}

fn close(actual: &Value, expected: f64) -> bool {
    actual
        .as_f64()
        .is_some_and(|actual| (actual - expected).abs() < 1e-9)
}

#[tokio::test]
async fn a_budget_reports_its_spend_health_and_period() {
    let (app, token) = app_with_budget_data().await;
    let budget = create(
        &app,
        &token,
        &account_budget("Prod AWS", "111111111111", 800.0),
    )
    .await;
    assert_eq!(budget["name"], "Prod AWS");
    assert!(close(&budget["currentSpent"], 808.0), "{budget}");
    assert!(close(&budget["previousSpent"], 400.0), "{budget}");
    assert!(close(&budget["percentUsed"], 101.0), "{budget}");
    assert_eq!(budget["status"], "critical");
    assert_eq!(budget["exceeded"], true);
    assert_eq!(budget["triggeredAlerts"], 2);
    let days = this_month();
    assert_eq!(budget["periodStart"], days.first.to_string());
    assert!(budget["daysRemaining"].as_i64().unwrap() >= 1);

    let id = budget["id"].as_i64().unwrap();
    let one = get_json(&app, &token, &format!("/v1/budgets/{id}")).await;
    assert_eq!(one["currentSpent"], budget["currentSpent"]);
    let list = get_json(&app, &token, "/v1/budgets").await;
    assert_eq!(list.as_array().unwrap().len(), 1);
    assert_eq!(list[0]["id"], id);
}

#[tokio::test]
async fn spend_equals_the_cost_api_for_the_same_filters() {
    let (app, token) = app_with_budget_data().await;
    let days = this_month();
    let budget = create(
        &app,
        &token,
        &json!({
            "name": "AWS us-east-1 prod",
            "amount": 1000,
            "filters": [
                {"filterType": "cloudProvider", "filterValues": ["AWS"]},
                {"filterType": "region", "filterValues": ["us-east-1"]},
                {"filterType": "tag", "filterValues": ["env:prod", "team:none"]},
            ],
        }),
    )
    .await;
    let aggr = post_ok(
        &app,
        &token,
        "/v2/cost/aggr",
        json!({
            "start_time": days.first.to_string(),
            "end_time": days.today.to_string(),
            "filters": [{"operator": "AND",
                "cloud_providers": [{"operator": "equals", "values": ["AWS"]}],
                "regions": [{"operator": "equals", "values": ["us-east-1"]}],
                "tags": [{"key": "env", "value": {"operator": "equals", "values": ["prod"]}}]}],
        }),
    )
    .await;
    assert_eq!(aggr["summary"]["accrued_cost"], json!(600.0));
    assert!(close(&budget["currentSpent"], 600.0), "{budget}");
    assert_eq!(budget["period"], "Monthly");
}

#[tokio::test]
async fn the_summary_counts_budgets_by_the_dashboard_bands() {
    let (app, token) = app_with_budget_data().await;
    // GCP project spends 30: 40 → 75 % (warning, the boundary); 200 → 15 % (healthy);
    // 222222222222 spends 50: 62.5 → 80 % (warning); 50 → 100 % (critical, exceeded).
    create(
        &app,
        &token,
        &account_budget("At 75", "my-gcp-project", 40.0),
    )
    .await;
    create(
        &app,
        &token,
        &account_budget("At 15", "my-gcp-project", 200.0),
    )
    .await;
    let at_80 = create(&app, &token, &account_budget("At 80", "222222222222", 62.5)).await;
    let at_100 = create(
        &app,
        &token,
        &account_budget("At 100", "222222222222", 50.0),
    )
    .await;
    assert_eq!(at_80["status"], "warning");
    assert_eq!(at_80["exceeded"], false);
    assert_eq!(at_100["status"], "critical");
    assert_eq!(at_100["exceeded"], true);
    let summary = get_json(&app, &token, "/v1/budgets/summary").await;
    assert_eq!(
        summary,
        json!({"totalBudgets": 4, "healthyBudgets": 1, "warningBudgets": 2,
               "criticalBudgets": 1, "alertsBudgets": 3})
    );
}

#[tokio::test]
async fn every_budget_rule_answers_its_spec_message() {
    let app = spawn_app().await;
    let token = app
        .signup_owner("Alice Owner", "alice@a.test")
        .await
        .access_token;
    let valid = account_budget("Prod AWS", "111111111111", 800.0);
    let with = |field: &str, value: Value| {
        let mut body = valid.clone();
        body[field] = value;
        body
    };
    let filter = |filter_type: &str| json!({"filterType": filter_type, "filterValues": ["x"]});
    let percent = |value: f64| json!({"thresholdType": "Percentage", "thresholdValue": value});
    let absolute = |value: f64| json!({"thresholdType": "Absolute", "thresholdValue": value});
    let cases = [
        (with("name", json!("")), "name", "Budget name is required"),
        (
            with("name", json!("   ")),
            "name",
            "Budget name is required",
        ),
        (
            with("name", json!("ab")),
            "name",
            "Budget name must be at least 3 characters",
        ),
        (
            with("name", json!("a".repeat(51))),
            "name",
            "Budget name must be less than 50 characters",
        ),
        (
            with("amount", json!(0)),
            "amount",
            "Budget amount must be greater than $0",
        ),
        (
            with("amount", json!(-5)),
            "amount",
            "Budget amount must be greater than $0",
        ),
        (
            with("period", json!("Weekly")),
            "period",
            "Budget period must be Monthly, Quarterly or Yearly",
        ),
        (
            with("filters", json!([])),
            "filters",
            "At least one filter must be configured",
        ),
        (
            with(
                "filters",
                json!([{"filterType": "account", "filterValues": []}]),
            ),
            "filters",
            "At least one filter must be configured",
        ),
        (
            with(
                "filters",
                json!([
                    filter("account"),
                    filter("region"),
                    filter("service"),
                    filter("cloudProvider"),
                    filter("tag"),
                    filter("tag")
                ]),
            ),
            "filters",
            "Maximum of 5 filters allowed",
        ),
        (
            with("filters", json!([filter("region"), filter("region")])),
            "filters",
            "Duplicate filter types are not allowed",
        ),
        (
            with(
                "alerts",
                json!([
                    percent(10.0),
                    percent(20.0),
                    percent(30.0),
                    percent(40.0),
                    percent(50.0),
                    percent(60.0)
                ]),
            ),
            "alerts",
            "Maximum of 5 alerts allowed",
        ),
        (
            with("alerts", json!([percent(0.0)])),
            "alerts",
            "Threshold value must be greater than 0",
        ),
        (
            with("alerts", json!([percent(0.5)])),
            "alerts",
            "Percentage must be at least 1%",
        ),
        (
            with("alerts", json!([percent(101.0)])),
            "alerts",
            "Percentage must be at most 100%",
        ),
        (
            with("alerts", json!([absolute(0.5)])),
            "alerts",
            "Absolute threshold must be at least $1",
        ),
        (
            with("alerts", json!([absolute(800.5)])),
            "alerts",
            "Absolute threshold cannot exceed budget amount",
        ),
        (
            with("alerts", json!([percent(50.0), percent(50.0)])),
            "alerts",
            "Duplicate alert threshold detected",
        ),
    ];
    for (body, field, message) in cases {
        assert_invalid(
            app.post("/v1/budgets", Some(&token), &body).await,
            field,
            message,
        )
        .await;
    }
    // Boundaries that pass: 50 characters, 100 %, an absolute alert equal to the amount.
    let mut edge = with("name", json!("a".repeat(50)));
    edge["alerts"] = json!([percent(100.0), absolute(800.0), percent(1.0)]);
    create(&app, &token, &edge).await;
    // An edit is checked the same way, and a refused edit changes nothing.
    let budget = create(&app, &token, &valid).await;
    let id = budget["id"].as_i64().unwrap();
    assert_invalid(
        app.put(
            &format!("/v1/budgets/{id}"),
            &token,
            &with("amount", json!(0)),
        )
        .await,
        "amount",
        "Budget amount must be greater than $0",
    )
    .await;
    let unchanged = get_json(&app, &token, &format!("/v1/budgets/{id}")).await;
    assert_eq!(unchanged["amount"], json!(800.0));
}

#[tokio::test]
async fn several_broken_fields_are_all_reported() {
    let app = spawn_app().await;
    let token = app
        .signup_owner("Alice Owner", "alice@a.test")
        .await
        .access_token;
    let (status, body) =
        status_and_json(app.post("/v1/budgets", Some(&token), &json!({})).await).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(body["message"], "Budget name is required");
    assert_eq!(
        body["details"],
        json!({
            "name": ["Budget name is required"],
            "amount": ["Budget amount must be greater than $0"],
            "filters": ["At least one filter must be configured"],
        })
    );
}

#[tokio::test]
async fn plain_users_read_budgets_but_cannot_change_them() {
    let (app, token, id) = app_with_prod_budget().await;
    let member = app
        .add_member(&token, "Bob User", "bob@a.test", "User")
        .await
        .access_token;
    let path = format!("/v1/budgets/{id}");
    get_json(&app, &member, &path).await;
    get_json(&app, &member, "/v1/budgets").await;
    let body = account_budget("Mine", "111111111111", 10.0);
    let managers_only = "Only owners and admins can manage budgets";
    assert_error(
        app.post("/v1/budgets", Some(&member), &body).await,
        StatusCode::FORBIDDEN,
        managers_only,
    )
    .await;
    assert_error(
        app.put(&path, &member, &body).await,
        StatusCode::FORBIDDEN,
        managers_only,
    )
    .await;
    assert_error(
        app.delete(&path, &member).await,
        StatusCode::FORBIDDEN,
        managers_only,
    )
    .await;
    let admin = app
        .add_member(&token, "Carol Admin", "carol@a.test", "Admin")
        .await
        .access_token;
    let (status, _) = status_and_json(app.put(&path, &admin, &body).await).await;
    assert_eq!(status, StatusCode::OK);
    assert_error(
        app.get("/v1/budgets", None).await,
        StatusCode::UNAUTHORIZED,
        "Authentication required",
    )
    .await;
}

#[tokio::test]
async fn another_customers_budget_is_not_found_anywhere() {
    let (app, token, id) = app_with_prod_budget().await;
    let other = app
        .signup_owner("Eve Other", "eve@e.test")
        .await
        .access_token;
    // Eve's own budget on the same account id sees none of Alice's cost rows.
    let hers = create(
        &app,
        &other,
        &account_budget("Eve AWS", "111111111111", 800.0),
    )
    .await;
    assert_eq!(hers["currentSpent"], json!(0.0));
    let days = this_month();
    let range = format!("startDate={}&endDate={}", days.first, days.today);
    for path in [
        format!("/v1/budgets/{id}"),
        format!("/v1/budgets/{id}/history"),
        format!("/v1/budgets/{id}/alert-history"),
        format!("/v1/budgets/{id}/config-history"),
        format!("/v1/budgets/{id}/resources?{range}"),
    ] {
        assert_error(
            app.get(&path, Some(&other)).await,
            StatusCode::NOT_FOUND,
            "No budget found.",
        )
        .await;
    }
    let path = format!("/v1/budgets/{id}");
    let body = account_budget("Stolen", "111111111111", 1.0);
    assert_error(
        app.put(&path, &other, &body).await,
        StatusCode::NOT_FOUND,
        "No budget found.",
    )
    .await;
    assert_error(
        app.delete(&path, &other).await,
        StatusCode::NOT_FOUND,
        "No budget found.",
    )
    .await;
    let list = get_json(&app, &other, "/v1/budgets").await;
    assert_eq!(list.as_array().unwrap().len(), 1);
    let summary = get_json(&app, &other, "/v1/budgets/summary").await;
    assert_eq!(summary["totalBudgets"], 1);
    // Alice's budget is untouched.
    let mine = get_json(&app, &token, &path).await;
    assert_eq!(mine["name"], "Prod AWS");
}

#[tokio::test]
async fn each_threshold_is_recorded_once_per_period() {
    let (app, token) = app_with_budget_data().await;
    let mut body = account_budget("Prod AWS", "111111111111", 800.0);
    body["alerts"] = json!([
        {"thresholdType": "Percentage", "thresholdValue": 75},
        {"thresholdType": "Percentage", "thresholdValue": 100},
        {"thresholdType": "Absolute", "thresholdValue": 700},
        {"thresholdType": "Percentage", "thresholdValue": 50},
    ]);
    let budget = create(&app, &token, &body).await;
    let id = budget["id"].as_i64().unwrap();
    // A budget of 2000 reaches only 25 % and 40 % (808 is 40.4 %).
    let mut unreached = account_budget("Roomy", "111111111111", 2000.0);
    unreached["alerts"] = json!([
        {"thresholdType": "Percentage", "thresholdValue": 25},
        {"thresholdType": "Percentage", "thresholdValue": 90},
    ]);
    let roomy = create(&app, &token, &unreached).await;

    let path = format!("/v1/budgets/{id}/alert-history");
    let history = get_json(&app, &token, &path).await;
    let mut thresholds: Vec<(String, f64)> = history
        .as_array()
        .unwrap()
        .iter()
        .map(|alert| {
            (
                alert["thresholdType"].as_str().unwrap().to_owned(),
                alert["thresholdValue"].as_f64().unwrap(),
            )
        })
        .collect();
    thresholds.sort_by(|a, b| a.partial_cmp(b).unwrap());
    assert_eq!(
        thresholds,
        vec![
            ("Absolute".to_owned(), 700.0),
            ("Percentage".to_owned(), 50.0),
            ("Percentage".to_owned(), 75.0),
            ("Percentage".to_owned(), 100.0),
        ]
    );
    let first = &history[0];
    assert!(close(&first["spentAmount"], 808.0), "{first}");
    assert!(close(&first["spendPercentage"], 101.0), "{first}");
    assert_eq!(first["periodStart"], this_month().first.to_string());
    assert_eq!(first["date"], Utc::now().date_naive().to_string());

    // Repeated evaluations, an unchanged edit and re-loading the same data record nothing new.
    let evaluator =
        BudgetEvaluator::new(app.store.clone(), app.engine.clone(), Arc::new(SystemClock));
    for _ in 0..2 {
        let outcome = evaluator.run_once().await.unwrap();
        assert_eq!(outcome.alerts_recorded, 0);
        assert_eq!(outcome.budgets, 2);
    }
    let (status, _) =
        status_and_json(app.put(&format!("/v1/budgets/{id}"), &token, &body).await).await;
    assert_eq!(status, StatusCode::OK);
    upload(&app, &token, &budget_data()).await;
    assert_eq!(evaluator.run_once().await.unwrap().alerts_recorded, 0);
    assert_eq!(
        get_json(&app, &token, &path)
            .await
            .as_array()
            .unwrap()
            .len(),
        4
    );
    let roomy_history = get_json(
        &app,
        &token,
        &format!("/v1/budgets/{}/alert-history", roomy["id"]),
    )
    .await;
    assert_eq!(roomy_history.as_array().unwrap().len(), 1);
    assert_eq!(roomy_history[0]["thresholdValue"], json!(25.0));

    // Each recorded alert waits in the durable outbox for a delivery channel.
    let pending = app
        .store
        .pending_notifications(Utc::now(), 100)
        .await
        .unwrap();
    assert_eq!(pending.len(), 5);
    assert!(pending.iter().all(|notification| {
        notification.kind == NotificationKind::BudgetAlert
            && notification.payload["budgetName"].is_string()
    }));

    // A threshold added later is recorded when the edit is saved.
    body["alerts"]
        .as_array_mut()
        .unwrap()
        .push(json!({"thresholdType": "Percentage", "thresholdValue": 90}));
    let (status, _) =
        status_and_json(app.put(&format!("/v1/budgets/{id}"), &token, &body).await).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        get_json(&app, &token, &path)
            .await
            .as_array()
            .unwrap()
            .len(),
        5
    );

    // The date window keeps the alerts triggered on those days.
    let today = Utc::now().date_naive();
    let yesterday = today - Days::new(1);
    let before = get_json(
        &app,
        &token,
        &format!("{path}?startDate={yesterday}&endDate={yesterday}"),
    )
    .await;
    assert_eq!(before, json!([]));
    let on_today = get_json(
        &app,
        &token,
        &format!("{path}?startDate={today}&endDate={today}"),
    )
    .await;
    assert_eq!(on_today.as_array().unwrap().len(), 5);
}

#[tokio::test]
async fn history_has_every_day_and_sums_to_the_current_spend() {
    let (app, token, id) = app_with_prod_budget().await;
    let days = this_month();
    let month_end = days
        .first
        .checked_add_months(chrono::Months::new(1))
        .unwrap()
        - Days::new(1);
    let history = get_json(
        &app,
        &token,
        &format!(
            "/v1/budgets/{id}/history?startDate={}&endDate={month_end}",
            days.first
        ),
    )
    .await;
    let items = history.as_array().unwrap();
    assert_eq!(
        items.len() as i64,
        (days.today - days.first).num_days() + 1,
        "up to today"
    );
    assert_eq!(items[0]["date"], days.first.to_string());
    assert_eq!(items.last().unwrap()["date"], days.today.to_string());
    assert!(items
        .iter()
        .all(|item| item["budgetAmount"] == json!(800.0)));
    let total: f64 = items
        .iter()
        .map(|item| item["amountSpent"].as_f64().unwrap())
        .sum();
    assert!((total - 808.0).abs() < 1e-9, "{history}");

    // Without dates: the last 90 days up to today, including last month's 400.
    let default = get_json(&app, &token, &format!("/v1/budgets/{id}/history")).await;
    let items = default.as_array().unwrap();
    assert_eq!(items.len(), 90);
    assert_eq!(items.last().unwrap()["date"], days.today.to_string());
    let total: f64 = items
        .iter()
        .map(|item| item["amountSpent"].as_f64().unwrap())
        .sum();
    assert!((total - 1208.0).abs() < 1e-9);
}

#[tokio::test]
async fn every_date_range_rule_answers_its_spec_message() {
    let (app, token, id) = app_with_prod_budget().await;
    let today = Utc::now().date_naive();
    let tomorrow = today + Days::new(1);
    let too_early = today - Days::new(731);
    let fine_early = today - Days::new(730);
    let cases = [
        (
            format!("startDate={today}"),
            "dateRange",
            "Both start and end dates are required",
        ),
        (
            format!("endDate={today}"),
            "dateRange",
            "Both start and end dates are required",
        ),
        (
            format!("startDate=2026/01/01&endDate={today}"),
            "startDate",
            "Invalid date format",
        ),
        (
            format!("startDate=2025-02-30&endDate={today}"),
            "startDate",
            "Invalid date values",
        ),
        (
            format!("startDate={today}&endDate=tomorrow"),
            "endDate",
            "Invalid date format",
        ),
        (
            format!("startDate={today}&endDate={}", today - Days::new(1)),
            "startDate",
            "Start date cannot be after end date",
        ),
        (
            format!("startDate={tomorrow}&endDate={tomorrow}"),
            "startDate",
            "Start date cannot be in the future",
        ),
        (
            format!("startDate={too_early}&endDate={today}"),
            "dateRange",
            "Date range cannot exceed 2 years",
        ),
    ];
    for kind in ["history", "alert-history"] {
        for (query, field, message) in &cases {
            let path = format!("/v1/budgets/{id}/{kind}?{query}");
            assert_invalid(app.get(&path, Some(&token)).await, field, message).await;
        }
    }
    let longest = get_json(
        &app,
        &token,
        &format!("/v1/budgets/{id}/history?startDate={fine_early}&endDate={today}"),
    )
    .await;
    assert_eq!(longest.as_array().unwrap().len(), 731);
}

#[tokio::test]
async fn resources_are_paged_sorted_and_total_the_spend() {
    let (app, token, id) = app_with_prod_budget().await;
    let days = this_month();
    let range = format!("startDate={}&endDate={}", days.first, days.today);
    let page = get_json(&app, &token, &format!("/v1/budgets/{id}/resources?{range}")).await;
    assert_eq!(page["budgetId"], id);
    assert_eq!(page["budgetName"], "Prod AWS");
    assert_eq!(
        page["pagination"],
        json!({"page": 1, "size": 10, "totalPages": 1, "totalCount": 2})
    );
    assert_eq!(
        (
            page["count"].clone(),
            page["total"].clone(),
            page["totalItems"].clone()
        ),
        (json!(2), json!(2), json!(2))
    );
    assert!(
        close(&page["totalCost"], 808.0),
        "the tax counts in the total: {page}"
    );
    assert!(close(&page["resourcesCost"], 800.0), "{page}");
    let first = &page["resources"][0];
    assert_eq!(first["cloudProvider"], "AWS");
    assert_eq!(first["accountId"], "111111111111");
    assert_eq!(first["resourceName"], "web-1");
    assert_eq!(first["resourceType"], "Instance");
    assert_eq!(first["region"], "us-east-1");
    assert!(close(&first["cost"], 600.0));
    let second = &page["resources"][1];
    assert_eq!(
        second["resourceName"], "bucket-logs",
        "the id stands in for a missing name"
    );
    assert_eq!(
        second["resourceType"], "AmazonS3",
        "the service stands in for a missing type"
    );

    let ascending = get_json(
        &app,
        &token,
        &format!("/v1/budgets/{id}/resources?{range}&sortDirection=asc&size=1&page=2"),
    )
    .await;
    assert_eq!(ascending["resources"][0]["resourceName"], "web-1");
    assert_eq!(
        ascending["pagination"],
        json!({"page": 2, "size": 1, "totalPages": 2, "totalCount": 2})
    );
    let by_name = get_json(
        &app,
        &token,
        &format!("/v1/budgets/{id}/resources?{range}&sortBy=resourceName&sortDirection=asc"),
    )
    .await;
    assert_eq!(by_name["resources"][0]["resourceName"], "bucket-logs");

    // One day: only what was charged that day.
    let today = get_json(
        &app,
        &token,
        &format!(
            "/v1/budgets/{id}/resources?startDate={0}&endDate={0}",
            days.today
        ),
    )
    .await;
    if days.today != days.first {
        assert_eq!(today["pagination"]["totalCount"], 1);
        assert!(close(&today["totalCost"], 200.0));
    }

    let path = |query: &str| format!("/v1/budgets/{id}/resources?{query}");
    let cases = [
        (String::new(), "dateRange", "Start date and end date are required"),
        (format!("startDate={}", days.first), "dateRange", "Start date and end date are required"),
        (format!("{range}&page=0"), "page", "Page number must be greater than 0"),
        (format!("{range}&page=abc"), "page", "Page number must be greater than 0"),
        (format!("{range}&size=0"), "pageSize", "Page size must be between 1 and 1000"),
        (format!("{range}&size=1001"), "pageSize", "Page size must be between 1 and 1000"),
        (format!("{range}&sortDirection=up"), "sortDirection", "Sort direction must be asc or desc"),
        (format!("{range}&sortBy=colour"), "sortBy", "Sort field must be one of cost, resourceName, resourceType, region, accountId, cloudProvider"),
        (format!("startDate=2026-13-01&endDate={}", days.today), "startDate", "Invalid date values"),
    ];
    for (query, field, message) in cases {
        assert_invalid(app.get(&path(&query), Some(&token)).await, field, message).await;
    }
    let biggest = get_json(&app, &token, &path(&format!("{range}&size=1000"))).await;
    assert_eq!(biggest["pagination"]["size"], 1000);
}

#[tokio::test]
async fn configuration_history_records_creation_and_each_changed_field() {
    let (app, token, id) = app_with_prod_budget().await;
    let path = format!("/v1/budgets/{id}/config-history");
    let history = get_json(&app, &token, &path).await;
    assert_eq!(history.as_array().unwrap().len(), 1);
    assert_eq!(history[0]["changeType"], "created");
    assert_eq!(history[0]["fieldName"], Value::Null);
    assert_eq!(history[0]["changedBy"], "Alice Owner");
    assert_eq!(history[0]["newValue"]["name"], "Prod AWS");

    let mut edit = account_budget("Prod AWS", "111111111111", 1200.0);
    edit["period"] = json!("Quarterly");
    let (status, updated) =
        status_and_json(app.put(&format!("/v1/budgets/{id}"), &token, &edit).await).await;
    assert_eq!(status, StatusCode::OK, "{updated}");
    assert_eq!(updated["amount"], json!(1200.0));
    assert_eq!(updated["period"], "Quarterly");
    let history = get_json(&app, &token, &path).await;
    let changes: Vec<(Value, Value, Value, Value)> = history
        .as_array()
        .unwrap()
        .iter()
        .filter(|item| item["changeType"] == "updated")
        .map(|item| {
            (
                item["fieldName"].clone(),
                item["oldValue"].clone(),
                item["newValue"].clone(),
                item["changedBy"].clone(),
            )
        })
        .collect();
    let mut changes = changes;
    changes.sort_by_key(|change| change.0.to_string());
    assert_eq!(
        changes,
        vec![
            (
                json!("amount"),
                json!(800.0),
                json!(1200.0),
                json!("Alice Owner")
            ),
            (
                json!("period"),
                json!("Monthly"),
                json!("Quarterly"),
                json!("Alice Owner")
            ),
        ]
    );
    assert_eq!(
        history.as_array().unwrap().last().unwrap()["changeType"],
        "created"
    );
}

#[tokio::test]
async fn a_deleted_budget_is_gone_with_its_history() {
    let (app, token, id) = app_with_prod_budget().await;
    let path = format!("/v1/budgets/{id}");
    let response = app.delete(&path, &token).await;
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
    assert_error(
        app.get(&path, Some(&token)).await,
        StatusCode::NOT_FOUND,
        "No budget found.",
    )
    .await;
    assert_error(
        app.get(&format!("{path}/config-history"), Some(&token))
            .await,
        StatusCode::NOT_FOUND,
        "No budget found.",
    )
    .await;
    assert_error(
        app.delete(&path, &token).await,
        StatusCode::NOT_FOUND,
        "No budget found.",
    )
    .await;
    assert_eq!(get_json(&app, &token, "/v1/budgets").await, json!([]));
}

/// A clock stopped at one moment, for evaluations in another period than the wall clock's.
#[derive(Debug)]
struct StoppedClock(chrono::DateTime<Utc>);

impl costscope_core::Clock for StoppedClock {
    fn now(&self) -> chrono::DateTime<Utc> {
        self.0
    }
}

fn amount_budget(name: &str, account: &str, amount: f64, percentages: &[f64]) -> Value {
    let alerts: Vec<Value> = percentages
        .iter()
        .map(|value| json!({"thresholdType": "Percentage", "thresholdValue": value}))
        .collect();
    json!({
        "name": name,
        "amount": amount,
        "period": "Monthly",
        "filters": [{"filterType": "account", "filterValues": [account]}],
        "alerts": alerts,
    })
}

async fn alert_values(app: &TestApp, token: &str, id: &Value) -> Vec<(String, f64)> {
    let history = get_json(app, token, &format!("/v1/budgets/{id}/alert-history")).await;
    let mut values: Vec<(String, f64)> = history
        .as_array()
        .unwrap()
        .iter()
        .map(|alert| {
            (
                alert["periodStart"].as_str().unwrap().to_owned(),
                alert["thresholdValue"].as_f64().unwrap(),
            )
        })
        .collect();
    values.sort_by(|a, b| a.partial_cmp(b).unwrap());
    values
}

#[tokio::test]
async fn exactly_29_and_57_percent_reach_their_thresholds() {
    // In f64, 29.00 / 100.00 * 100 is 28.999999999999996 and 57.00 / 100.00 * 100 is
    // 56.99999999999999: the old percentage comparison missed both thresholds.
    let old_percent_used = |spent: f64, amount: f64| spent / amount * 100.0;
    assert!(old_percent_used(29.0, 100.0) < 29.0);
    assert!(old_percent_used(57.0, 100.0) < 57.0);
    let app = spawn_app().await;
    let token = app
        .signup_owner("Alice Owner", "alice@a.test")
        .await
        .access_token;
    let today = Utc::now().date_naive();
    upload(
        &app,
        &token,
        &FocusCsv::new()
            .line(Line::aws("333333333333", leak(today), 29.0))
            .line(Line::aws("444444444444", leak(today), 57.0))
            .line(Line::aws("555555555555", leak(today), 28.99)),
    )
    .await;
    let at_29 = create(
        &app,
        &token,
        &amount_budget("At 29", "333333333333", 100.0, &[29.0, 30.0]),
    )
    .await;
    let at_57 = create(
        &app,
        &token,
        &amount_budget("At 57", "444444444444", 100.0, &[57.0, 58.0]),
    )
    .await;
    let below = create(
        &app,
        &token,
        &amount_budget("Below 29", "555555555555", 100.0, &[29.0]),
    )
    .await;

    assert_eq!(at_29["percentUsed"], json!(29.0));
    assert_eq!(at_29["triggeredAlerts"], 1);
    assert_eq!(
        at_29["reachedAlerts"],
        json!([{"thresholdType": "Percentage", "thresholdValue": 29.0, "basis": "Actual"}])
    );
    assert_eq!(at_57["percentUsed"], json!(57.0));
    assert_eq!(at_57["triggeredAlerts"], 1);
    assert_eq!(below["triggeredAlerts"], 0);
    assert_eq!(below["reachedAlerts"], json!([]));

    let first = this_month().first.to_string();
    assert_eq!(
        alert_values(&app, &token, &at_29["id"]).await,
        vec![(first.clone(), 29.0)]
    );
    assert_eq!(
        alert_values(&app, &token, &at_57["id"]).await,
        vec![(first, 57.0)]
    );
    assert_eq!(alert_values(&app, &token, &below["id"]).await, vec![]);
}

#[tokio::test]
async fn health_bands_compare_the_cents_not_a_rounded_quotient() {
    // 0.57 / 0.76 * 100 is 74.99999999999999 in f64 and 0.9 / 1 * 100 (spend 0.7 + 0.2) is
    // 89.99999999999999: exactly at 75 % and 90 %, the warning and critical bands.
    let app = spawn_app().await;
    let token = app
        .signup_owner("Alice Owner", "alice@a.test")
        .await
        .access_token;
    let today = Utc::now().date_naive();
    upload(
        &app,
        &token,
        &FocusCsv::new()
            .line(Line::aws("333333333333", leak(today), 57.0))
            .line(Line::aws("444444444444", leak(today), 70.0))
            .line(Line::aws("444444444444", leak(today), 20.0)),
    )
    .await;
    let warning = create(
        &app,
        &token,
        &amount_budget("Seventy five", "333333333333", 76.0, &[]),
    )
    .await;
    assert_eq!(warning["status"], "warning", "{warning}");
    assert_eq!(warning["detailStatus"], "warning");
    assert_eq!(warning["missionControlStatus"], "warning");
    let critical = create(
        &app,
        &token,
        &amount_budget("Ninety", "444444444444", 100.0, &[90.0]),
    )
    .await;
    assert_eq!(critical["status"], "critical", "{critical}");
    assert_eq!(critical["missionControlStatus"], "critical");
    assert_eq!(critical["detailStatus"], "warning");
    assert_eq!(critical["triggeredAlerts"], 1);
    let summary = get_json(&app, &token, "/v1/budgets/summary").await;
    assert_eq!(summary["warningBudgets"], 1);
    assert_eq!(summary["criticalBudgets"], 1);
    assert_eq!(summary["alertsBudgets"], 1);
}

#[tokio::test]
async fn the_detail_status_is_exceeded_only_over_100_percent() {
    let (app, token) = app_with_budget_data().await;
    // 808 spent: exactly 100 % of 808, over 100 % of 807.99.
    let full = create(&app, &token, &account_budget("Full", "111111111111", 808.0)).await;
    assert_eq!(full["exceeded"], true);
    assert_eq!(full["detailStatus"], "warning");
    let over = create(
        &app,
        &token,
        &account_budget("Over", "111111111111", 807.99),
    )
    .await;
    assert_eq!(over["detailStatus"], "exceeded");
    assert_eq!(over["status"], "critical");
}

#[tokio::test]
async fn the_current_spend_leaves_out_rows_dated_after_today() {
    let app = spawn_app().await;
    let owner = app.signup_owner("Alice Owner", "alice@a.test").await;
    let token = owner.access_token;
    // Fixed days, read at a fixed moment: 10 March 2026 at noon.
    let day = |text: &str| text.parse::<NaiveDate>().unwrap();
    upload(
        &app,
        &token,
        &FocusCsv::new()
            .line(Line::aws("333333333333", leak(day("2026-03-01")), 40.0))
            .line(Line::aws("333333333333", leak(day("2026-03-10")), 60.0))
            .line(Line::aws("333333333333", leak(day("2026-03-11")), 500.0))
            .line(Line::aws("333333333333", leak(day("2026-03-31")), 700.0)),
    )
    .await;
    let created = create(
        &app,
        &token,
        &amount_budget("Prod", "333333333333", 1000.0, &[75.0]),
    )
    .await;
    let budget = app
        .store
        .get_budget(owner.user.customer_id, created["id"].as_i64().unwrap())
        .await
        .unwrap()
        .unwrap();
    let now: chrono::DateTime<Utc> = "2026-03-10T12:00:00Z".parse().unwrap();
    let spend =
        costscope_server::budgets::standing::current_spend(app.engine.as_ref(), &budget, now, None)
            .await
            .unwrap();
    assert_eq!(spend.spent, 100.0);
    assert_eq!(spend.period_start, day("2026-03-01"));
    assert_eq!(spend.period_end, day("2026-03-31"));
    // The 1,200 dated after 10 March reach no threshold on the 10th.
    let evaluator = BudgetEvaluator::new(
        app.store.clone(),
        app.engine.clone(),
        Arc::new(StoppedClock(now)),
    );
    assert_eq!(evaluator.run_once().await.unwrap().alerts_recorded, 0);

    // Through the API (wall clock): a row dated tomorrow is not part of the current spend.
    let today = Utc::now().date_naive();
    let tomorrow = today + Days::new(1);
    upload(
        &app,
        &token,
        &FocusCsv::new()
            .line(Line::aws("666666666666", leak(today), 10.0))
            .line(Line::aws("666666666666", leak(tomorrow), 90.0)),
    )
    .await;
    let mut yearly = amount_budget("Yearly", "666666666666", 100.0, &[50.0]);
    yearly["period"] = json!("Yearly");
    let yearly = create(&app, &token, &yearly).await;
    assert!(close(&yearly["currentSpent"], 10.0), "{yearly}");
    assert_eq!(yearly["triggeredAlerts"], 0);
    assert_eq!(alert_values(&app, &token, &yearly["id"]).await, vec![]);
}

#[tokio::test]
async fn late_rows_for_a_closed_period_record_its_thresholds_once() {
    let app = spawn_app().await;
    let owner = app.signup_owner("Alice Owner", "alice@a.test").await;
    let token = owner.access_token;
    let days = this_month();
    let last_month = days.previous.with_day(1).unwrap().to_string();
    // A budget that already existed last month (created on its first day).
    let amount = BudgetAmount::parse(100.0).unwrap();
    let percentages = |values: &[f64]| {
        let alerts = values
            .iter()
            .map(|value| AlertThreshold {
                threshold_type: ThresholdType::Percentage,
                value: *value,
                basis: AlertBasis::Actual,
            })
            .collect();
        Alerts::parse(alerts, amount).unwrap()
    };
    let budget = app
        .store
        .create_budget(
            owner.user.customer_id,
            owner.user.id,
            NewBudget {
                name: BudgetName::parse("Prod").unwrap(),
                amount,
                period: BudgetPeriod::Monthly,
                filters: BudgetFilters::parse(vec![BudgetFilter {
                    filter_type: BudgetFilterType::Account,
                    values: vec!["333333333333".to_owned()],
                }])
                .unwrap(),
                alerts: percentages(&[50.0, 75.0, 100.0]),
                now: days
                    .previous
                    .with_day(1)
                    .unwrap()
                    .and_hms_opt(9, 0, 0)
                    .unwrap()
                    .and_utc(),
            },
        )
        .await
        .unwrap();
    let id = json!(budget.id);
    let evaluator =
        BudgetEvaluator::new(app.store.clone(), app.engine.clone(), Arc::new(SystemClock));

    // Last month's export as it stood when the month ended: 40 of 100.
    upload(
        &app,
        &token,
        &FocusCsv::new().line(Line::aws("333333333333", leak(days.previous), 40.0)),
    )
    .await;
    evaluator.run_once().await.unwrap();
    assert_eq!(alert_values(&app, &token, &id).await, vec![]);

    // Its final version arrives after the month closed, with late rows: 80 of 100 (a load
    // replaces the billing period it holds, so it carries the first 40 again). The thresholds
    // crossed are last month's, recorded once (the server's own run after the load and this
    // one may both find them).
    upload(
        &app,
        &token,
        &FocusCsv::new()
            .line(Line::aws("333333333333", leak(days.previous), 40.0))
            .line(Line::aws("333333333333", leak(days.previous), 40.0)),
    )
    .await;
    evaluator.run_once().await.unwrap();
    let expected = vec![(last_month.clone(), 50.0), (last_month, 75.0)];
    assert_eq!(alert_values(&app, &token, &id).await, expected);
    assert_eq!(evaluator.run_once().await.unwrap().alerts_recorded, 0);
    assert_eq!(alert_values(&app, &token, &id).await, expected);

    // A budget created this month does not record last month's thresholds.
    let later = create(
        &app,
        &token,
        &amount_budget("Later", "333333333333", 100.0, &[25.0]),
    )
    .await;
    evaluator.run_once().await.unwrap();
    assert_eq!(alert_values(&app, &token, &later["id"]).await, vec![]);
}
