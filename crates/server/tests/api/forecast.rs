//! Forecasts against the real server (docs/ANOMALIES.md "Forecast API and where it shows"):
//! `GET /v1/forecast` answers what `costscope_core::forecast` computes for the same daily
//! numbers, every validation message, groups, other currencies left out, tenants apart; every
//! budget answer carries its forecast; a Forecasted alert fires once when the forecast crosses
//! the amount before the spend does and reaches a webhook with its basis.
//!
//! The fixture's numbers are known by construction: account 111111111111 ("Prod", AmazonEC2)
//! costs 100 a weekday and 40 a weekend day, account 222222222222 (AmazonS3) 10 a day, and
//! account 333333333333 5 EUR a day, billed in EUR (the tenant's main currency is USD).

use std::sync::Arc;

use chrono::{DateTime, Datelike, Days, NaiveDate, Utc, Weekday};
use costscope_connectors::testing::webhook::WebhookReceiver;
use costscope_core::anomaly::DailySeries;
use costscope_core::budget::BudgetPeriod;
use costscope_core::forecast::{forecast_period, ForecastParams, PeriodForecast};
use costscope_server::jobs::budgets::BudgetEvaluator;
use costscope_server::jobs::notifications::NotificationDelivery;
use reqwest::StatusCode;
use secrecy::ExposeSecret;
use serde_json::{json, Value};

use crate::budgets::create;
use crate::cost_fixture::{FocusCsv, Line};
use crate::helpers::{assert_invalid, spawn_app, spawn_app_in, status_and_json, TestApp};

const PROD: &str = "111111111111";
const STORAGE: &str = "222222222222";
const EUR_ACCOUNT: &str = "333333333333";
const EUR_BILLING: &str = "800000000000";

fn day(text: &str) -> NaiveDate {
    text.parse().unwrap()
}

fn leak(date: NaiveDate) -> &'static str {
    Box::leak(date.to_string().into_boxed_str())
}

fn days(first: NaiveDate, last: NaiveDate) -> impl Iterator<Item = NaiveDate> {
    first.iter_days().take_while(move |d| *d <= last)
}

fn weekend(date: NaiveDate) -> bool {
    matches!(date.weekday(), Weekday::Sat | Weekday::Sun)
}

fn prod_cost(date: NaiveDate) -> f64 {
    if weekend(date) {
        40.0
    } else {
        100.0
    }
}

/// The fixture over `first..=last` as one FOCUS file (the EUR lines rewritten to EUR).
fn daily_csv(first: NaiveDate, last: NaiveDate) -> Vec<u8> {
    let mut data = FocusCsv::new();
    for date in days(first, last) {
        let mut prod = Line::aws(PROD, leak(date), prod_cost(date));
        prod.account_name = "Prod";
        let mut storage = Line::aws(STORAGE, leak(date), 10.0);
        storage.service = "AmazonS3";
        let mut eur = Line::aws(EUR_ACCOUNT, leak(date), 5.0);
        eur.billing_account = EUR_BILLING;
        data = data.line(prod).line(storage).line(eur);
    }
    data.to_csv()
        .lines()
        .map(|line| {
            if line.contains(EUR_BILLING) {
                line.replace("\"USD\"", "\"EUR\"")
            } else {
                line.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
        .into_bytes()
}

async fn upload_days(app: &TestApp, token: &str, first: NaiveDate, last: NaiveDate) {
    let job = app
        .ingest_files(token, &[("daily.csv", daily_csv(first, last))])
        .await;
    assert_eq!(job["status"], "succeeded", "job: {job}");
}

/// The series of `cost` from `first` to `last`, as the server reads it.
fn series(first: NaiveDate, last: NaiveDate, cost: impl Fn(NaiveDate) -> f64) -> DailySeries {
    DailySeries::new(first, days(first, last).map(cost).collect())
}

fn expected(series: &DailySeries, as_of: NaiveDate, period: BudgetPeriod) -> PeriodForecast {
    forecast_period(series, as_of, period, &ForecastParams::default()).unwrap()
}

fn close(actual: &Value, expected: f64) {
    let actual = actual.as_f64().unwrap_or(f64::NAN);
    assert!(
        (actual - expected).abs() < 1e-6,
        "{actual} is not {expected}"
    );
}

fn assert_forecast(answer: &Value, expected: &PeriodForecast) {
    close(&answer["actualToDate"], expected.actual_to_date);
    close(&answer["forecast"], expected.forecast);
    close(&answer["low"], expected.low);
    close(&answer["high"], expected.high);
}

async fn forecast(app: &TestApp, token: &str, query: &str) -> Value {
    let path = format!("/v1/forecast{query}");
    let (status, answer) = status_and_json(app.get(&path, Some(token)).await).await;
    assert_eq!(status, StatusCode::OK, "{path}: {answer}");
    answer
}

const FIRST: &str = "2026-01-01";
const LAST: &str = "2026-02-14";

async fn app_with_history() -> (TestApp, String) {
    let app = spawn_app().await;
    let owner = app.signup_owner("Alice Owner", "alice@a.test").await;
    upload_days(&app, &owner.access_token, day(FIRST), day(LAST)).await;
    (app, owner.access_token)
}

#[tokio::test]
async fn the_month_forecast_is_what_the_forecast_computes_for_the_same_days() {
    let (app, token) = app_with_history().await;
    let answer = forecast(&app, &token, "").await;

    let (first, last) = (day(FIRST), day(LAST));
    let usd = series(first, last, |date| prod_cost(date) + 10.0);
    let month = expected(&usd, last, BudgetPeriod::Monthly);
    assert_eq!(answer["asOf"], LAST);
    assert_eq!(answer["start"], "2026-02-01");
    assert_eq!(answer["end"], "2026-02-28");
    assert_forecast(&answer["total"], &month);
    // A pattern without noise: the backtest finds no error, the interval is the point.
    assert!(month.low <= month.forecast && month.forecast <= month.high);
    assert_eq!(answer["reason"], Value::Null);
    assert_eq!(answer["groups"], json!([]));
    // The EUR account's 14 days of February are listed, never added.
    assert_eq!(answer["currency"], "USD");
    assert_eq!(answer["converted"], false);
    assert_eq!(
        answer["otherCurrencies"],
        json!([{"currency": "EUR", "amount": 70.0}])
    );

    let year = forecast(&app, &token, "?period=year&metric=effective").await;
    assert_eq!(
        (year["start"].as_str(), year["end"].as_str()),
        (Some("2026-01-01"), Some("2026-12-31"))
    );
    assert_forecast(&year["total"], &expected(&usd, last, BudgetPeriod::Yearly));
    let quarter = forecast(&app, &token, "?period=quarter").await;
    assert_forecast(
        &quarter["total"],
        &expected(&usd, last, BudgetPeriod::Quarterly),
    );
}

#[tokio::test]
async fn groups_are_forecast_one_by_one_largest_first_without_other_currencies() {
    let (app, token) = app_with_history().await;
    let (first, last) = (day(FIRST), day(LAST));
    let prod = expected(&series(first, last, prod_cost), last, BudgetPeriod::Monthly);
    let storage = expected(&series(first, last, |_| 10.0), last, BudgetPeriod::Monthly);

    let accounts = forecast(&app, &token, "?groupBy=account").await;
    let groups = accounts["groups"].as_array().unwrap();
    let keys: Vec<(&str, &str)> = groups
        .iter()
        .map(|group| {
            (
                group["key"].as_str().unwrap(),
                group["name"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(keys, [(PROD, "Prod"), (STORAGE, STORAGE)]);
    assert_forecast(&groups[0], &prod);
    assert_forecast(&groups[1], &storage);

    let services = forecast(&app, &token, "?groupBy=service").await;
    let names: Vec<&str> = services["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|group| group["key"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["AmazonEC2", "AmazonS3"]);

    let providers = forecast(&app, &token, "?groupBy=provider").await;
    assert_eq!(providers["groups"][0]["key"], "aws");
    assert_eq!(providers["groups"][0]["name"], "AWS");
    assert_eq!(providers["groups"].as_array().unwrap().len(), 1);
    close(
        &providers["groups"][0]["forecast"],
        providers["total"]["forecast"].as_f64().unwrap(),
    );
}

#[tokio::test]
async fn each_parameter_answers_its_message() {
    let app = spawn_app().await;
    let token = app
        .signup_owner("Alice Owner", "alice@a.test")
        .await
        .access_token;
    for (query, field, message) in [
        (
            "?period=week",
            "period",
            "Period must be month, quarter or year",
        ),
        (
            "?groupBy=region",
            "groupBy",
            "Group by must be none, provider, account or service",
        ),
        (
            "?metric=list",
            "metric",
            "Metric must be billed or effective",
        ),
    ] {
        let path = format!("/v1/forecast{query}");
        assert_invalid(app.get(&path, Some(&token)).await, field, message).await;
    }
    let (status, _) = status_and_json(app.get("/v1/forecast", None).await).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn fewer_than_seven_days_or_no_data_is_no_forecast_and_tenants_stay_apart() {
    let (app, alice) = app_with_history().await;
    let bob = app
        .signup_owner("Bob Owner", "bob@b.test")
        .await
        .access_token;
    let empty = forecast(&app, &bob, "?groupBy=account").await;
    assert_eq!(empty["asOf"], Value::Null);
    assert_eq!(empty["total"], Value::Null);
    assert_eq!(
        empty["reason"],
        "Not enough cost history for a forecast (7 days are needed)"
    );
    assert_eq!(empty["groups"], json!([]));

    // Six days of Bob's own: still not enough; Alice's answer is unchanged by them.
    upload_days(&app, &bob, day("2026-03-01"), day("2026-03-06")).await;
    let young = forecast(&app, &bob, "").await;
    assert_eq!(young["asOf"], "2026-03-06");
    assert_eq!(young["total"], Value::Null);
    assert_eq!(
        young["reason"],
        "Not enough cost history for a forecast (7 days are needed)"
    );
    let alice_answer = forecast(&app, &alice, "").await;
    assert_eq!(alice_answer["asOf"], LAST);

    // The seventh day makes a forecast (an upload replaces the billing period it holds).
    upload_days(&app, &bob, day("2026-03-01"), day("2026-03-07")).await;
    let seven = forecast(&app, &bob, "").await;
    let usd = series(day("2026-03-01"), day("2026-03-07"), |date| {
        prod_cost(date) + 10.0
    });
    assert_forecast(
        &seven["total"],
        &expected(&usd, day("2026-03-07"), BudgetPeriod::Monthly),
    );
}

/// A clock stopped at one moment: the evaluation's "now".
#[derive(Debug)]
struct StoppedClock(DateTime<Utc>);

impl costscope_core::Clock for StoppedClock {
    fn now(&self) -> DateTime<Utc> {
        self.0
    }
}

/// The days of the wall clock's current month the fixture covers: the 20 days up to today.
fn recent_days() -> (NaiveDate, NaiveDate) {
    let today = Utc::now().date_naive();
    (today - Days::new(20), today)
}

#[tokio::test]
async fn every_budget_answer_carries_its_forecast_with_its_own_filters() {
    let app = spawn_app().await;
    let token = app
        .signup_owner("Alice Owner", "alice@a.test")
        .await
        .access_token;
    let (first, today) = recent_days();
    upload_days(&app, &token, first, today).await;
    let budget = create(
        &app,
        &token,
        &json!({"name": "Storage", "amount": 50.0, "period": "Monthly",
                "filters": [{"filterType": "account", "filterValues": [STORAGE]}],
                "alerts": [{"thresholdType": "Percentage", "thresholdValue": 75}]}),
    )
    .await;
    let storage = expected(
        &series(first, today, |_| 10.0),
        today,
        BudgetPeriod::Monthly,
    );
    close(&budget["forecast"]["amount"], storage.forecast);
    close(&budget["forecast"]["low"], storage.low);
    close(&budget["forecast"]["high"], storage.high);
    let crossing = storage.exceeds_on(50.0).expect("10 a day passes 50");
    assert_eq!(budget["forecast"]["exceedsOn"], crossing.day.to_string());
    assert_eq!(budget["forecast"]["exceedsOnForecast"], crossing.forecast);
    // Answers always carry the alerts' basis.
    assert_eq!(budget["alerts"][0]["basis"], "Actual");

    let id = budget["id"].as_i64().unwrap();
    let (_, one) = status_and_json(app.get(&format!("/v1/budgets/{id}"), Some(&token)).await).await;
    assert_eq!(one["forecast"], budget["forecast"]);
    let (_, list) = status_and_json(app.get("/v1/budgets", Some(&token)).await).await;
    assert_eq!(list[0]["forecast"], budget["forecast"]);

    // Another tenant's budget has no history: no forecast.
    let bob = app
        .signup_owner("Bob Owner", "bob@b.test")
        .await
        .access_token;
    let empty = create(
        &app,
        &bob,
        &json!({"name": "Storage", "amount": 50.0, "period": "Monthly",
                "filters": [{"filterType": "account", "filterValues": [STORAGE]}]}),
    )
    .await;
    assert_eq!(empty["forecast"], Value::Null);
}

/// January 2026, known up to the 20th: Prod's spend so far and the budget amount between it and
/// the forecast total (so only the forecast reaches 100 %).
struct ForecastCase {
    as_of: NaiveDate,
    spent: f64,
    forecast: PeriodForecast,
    amount: f64,
}

fn forecast_case() -> ForecastCase {
    let (first, as_of) = (day("2026-01-01"), day("2026-01-20"));
    let forecast = expected(
        &series(first, as_of, prod_cost),
        as_of,
        BudgetPeriod::Monthly,
    );
    let spent: f64 = days(first, as_of).map(prod_cost).sum();
    let amount = ((spent + forecast.forecast) / 2.0).round();
    assert!(spent < amount && amount < forecast.forecast);
    ForecastCase {
        as_of,
        spent,
        forecast,
        amount,
    }
}

#[tokio::test]
async fn a_forecasted_alert_fires_once_before_the_spend_gets_there_and_reaches_a_webhook() {
    let receiver = WebhookReceiver::start().await;
    let app = spawn_app().await;
    let token = app
        .signup_owner("Alice Owner", "alice@a.test")
        .await
        .access_token;
    let case = forecast_case();
    upload_days(&app, &token, day("2026-01-01"), case.as_of).await;
    let (status, channel) = status_and_json(
        app.post(
            "/v1/channels",
            Some(&token),
            &json!({"type": "webhook", "name": "Hook", "target": receiver.url("/hook"),
                    "secret": "whsec_test_0123456789abcdef"}),
        )
        .await,
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{channel}");
    let budget = create(
        &app,
        &token,
        &json!({"name": "Prod forecast", "amount": case.amount, "period": "Monthly",
        "filters": [{"filterType": "account", "filterValues": [PROD]}],
        "alerts": [
            {"thresholdType": "Percentage", "thresholdValue": 100},
            {"thresholdType": "Percentage", "thresholdValue": 100, "basis": "Forecasted"},
        ]}),
    )
    .await;
    assert_eq!(budget["alerts"][1]["basis"], "Forecasted");
    let id = budget["id"].as_i64().unwrap();

    // Evaluated on 20 January 2026, twice: the forecast reaches 100 %, the spend does not.
    let evaluator = BudgetEvaluator::new(
        app.store.clone(),
        app.engine.clone(),
        Arc::new(StoppedClock(
            case.as_of.and_hms_opt(18, 0, 0).unwrap().and_utc(),
        )),
    );
    assert_eq!(evaluator.run_once().await.unwrap().alerts_recorded, 1);
    assert_eq!(evaluator.run_once().await.unwrap().alerts_recorded, 0);

    let (_, history) = status_and_json(
        app.get(&format!("/v1/budgets/{id}/alert-history"), Some(&token))
            .await,
    )
    .await;
    let history = history.as_array().unwrap();
    assert_eq!(history.len(), 1, "{history:?}");
    assert_eq!(history[0]["basis"], "Forecasted");
    assert_eq!(history[0]["thresholdValue"], 100.0);
    assert_eq!(history[0]["periodStart"], "2026-01-01");
    close(&history[0]["spentAmount"], case.spent);

    NotificationDelivery::from_state(&app.state)
        .run_once()
        .await
        .unwrap();
    let requests = receiver.wait_for(1).await;
    let envelope = requests[0].json();
    assert_eq!(envelope["event"], "budget_alert");
    let data = &envelope["data"];
    assert_eq!(data["basis"], "Forecasted");
    assert_eq!(data["budgetId"], id);
    close(&data["forecastAmount"], case.forecast.forecast);
    let crossing = case.forecast.exceeds_on(case.amount).unwrap();
    assert!(crossing.forecast, "crossed after the 20th");
    assert_eq!(data["exceedsOn"], crossing.day.to_string());
    assert_eq!(receiver.requests().len(), 1);
}

#[tokio::test]
async fn a_basis_is_validated_and_the_same_threshold_on_one_basis_is_a_duplicate() {
    let app = spawn_app().await;
    let token = app
        .signup_owner("Alice Owner", "alice@a.test")
        .await
        .access_token;
    let body = |alerts: Value| {
        json!({"name": "Prod", "amount": 100.0, "period": "Monthly",
               "filters": [{"filterType": "account", "filterValues": [PROD]}], "alerts": alerts})
    };
    assert_invalid(
        app.post(
            "/v1/budgets",
            Some(&token),
            &body(json!([{"thresholdType": "Percentage", "thresholdValue": 90, "basis": "Guess"}])),
        )
        .await,
        "alerts",
        "Choose a basis: Actual or Forecasted",
    )
    .await;
    assert_invalid(
        app.post(
            "/v1/budgets",
            Some(&token),
            &body(json!([
                {"thresholdType": "Percentage", "thresholdValue": 90, "basis": "Forecasted"},
                {"thresholdType": "Percentage", "thresholdValue": 90, "basis": "Forecasted"},
            ])),
        )
        .await,
        "alerts",
        "Duplicate alert threshold detected",
    )
    .await;
    let both = create(
        &app,
        &token,
        &body(json!([
            {"thresholdType": "Percentage", "thresholdValue": 90},
            {"thresholdType": "Percentage", "thresholdValue": 90, "basis": "Forecasted"},
        ])),
    )
    .await;
    let bases: Vec<&str> = both["alerts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|alert| alert["basis"].as_str().unwrap())
        .collect();
    assert_eq!(bases, ["Actual", "Forecasted"]);

    // A basis change is recorded in the configuration history like any alert change.
    let id = both["id"].as_i64().unwrap();
    let (status, _) = status_and_json(
        app.put(
            &format!("/v1/budgets/{id}"),
            &token,
            &body(json!([
                {"thresholdType": "Percentage", "thresholdValue": 90, "basis": "Forecasted"},
            ])),
        )
        .await,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let (_, changes) = status_and_json(
        app.get(&format!("/v1/budgets/{id}/config-history"), Some(&token))
            .await,
    )
    .await;
    let alerts_change = changes
        .as_array()
        .unwrap()
        .iter()
        .find(|change| change["fieldName"] == "alerts")
        .expect("the alerts change");
    assert_eq!(
        alerts_change["newValue"],
        json!([{"thresholdType": "Percentage", "thresholdValue": 90.0, "basis": "Forecasted"}])
    );
}

#[tokio::test]
async fn a_budget_stored_without_a_basis_answers_actual() {
    // On SQLite, whose file the test can write as a build before forecasts did.
    let app = spawn_app_in(tempfile::tempdir().unwrap(), |_| {}).await;
    let token = app
        .signup_owner("Alice Owner", "alice@a.test")
        .await
        .access_token;
    let budget = create(
        &app,
        &token,
        &json!({"name": "Old", "amount": 100.0, "period": "Monthly",
                "filters": [{"filterType": "account", "filterValues": [PROD]}],
                "alerts": [{"thresholdType": "Percentage", "thresholdValue": 80}]}),
    )
    .await;
    let id = budget["id"].as_i64().unwrap();
    let url = app.state.config.database_url.expose_secret().to_owned();
    let pool = sqlx::SqlitePool::connect(&url).await.unwrap();
    sqlx::query("UPDATE budgets SET alerts = $1 WHERE id = $2")
        .bind(r#"[{"thresholdType":"Percentage","thresholdValue":80.0}]"#)
        .bind(id)
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;
    let (_, one) = status_and_json(app.get(&format!("/v1/budgets/{id}"), Some(&token)).await).await;
    assert_eq!(
        one["alerts"],
        json!([{"thresholdType": "Percentage", "thresholdValue": 80.0, "basis": "Actual"}])
    );
}
