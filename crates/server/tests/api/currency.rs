//! Multi-currency (docs/CURRENCY.md): the display currency, exchange-rate uploads with every
//! message of the contract, and cost answers that never add currencies without saying so.

use chrono::Datelike;
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::budgets::{account_budget, create};
use crate::cost_fixture::{post_ok, FocusCsv, Line};
use crate::helpers::{assert_error, assert_invalid, spawn_app, status_and_json, TestApp};

/// The billing account whose lines are billed in EUR.
const EUR_ACCOUNT: &str = "800000000000";
const RATES: &str = "date,from,to,rate\n2026-01-01,EUR,USD,1.10\n2026-01-02,EUR,USD,1.20\n";

/// One FOCUS file: 100 EUR on Jan 1 and 50 EUR on Jan 2 (billing account 800000000000,
/// sub-account 333333333333), 30 USD on Jan 2 (111111111111).
fn two_currency_csv() -> Vec<u8> {
    let mut eur_1 = Line::aws("333333333333", "2026-01-01", 100.0);
    eur_1.billing_account = EUR_ACCOUNT;
    let mut eur_2 = Line::aws("333333333333", "2026-01-02", 50.0);
    eur_2.billing_account = EUR_ACCOUNT;
    let usd = Line::aws("111111111111", "2026-01-02", 30.0);
    let csv = FocusCsv::new().line(eur_1).line(eur_2).line(usd).to_csv();
    csv.lines()
        .map(|line| {
            if line.contains(EUR_ACCOUNT) {
                line.replace("\"USD\"", "\"EUR\"")
            } else {
                line.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
        .into_bytes()
}

async fn app_with_two_currencies() -> (TestApp, String) {
    let app = spawn_app().await;
    let owner = app.signup_owner("Alice Owner", "alice@a.test").await;
    let job = app
        .ingest_files(&owner.access_token, &[("mixed.csv", two_currency_csv())])
        .await;
    assert_eq!(job["status"], "succeeded", "job: {job}");
    (app, owner.access_token)
}

async fn put_rates(app: &TestApp, token: &str, csv: &str) -> reqwest::Response {
    app.client
        .put(app.url("/v1/exchange-rates"))
        .bearer_auth(token)
        .header("content-type", "text/csv")
        .body(csv.to_owned())
        .send()
        .await
        .expect("PUT /v1/exchange-rates")
}

async fn get_ok(app: &TestApp, token: &str, path: &str) -> Value {
    let (status, body) = status_and_json(app.get(path, Some(token)).await).await;
    assert_eq!(status, StatusCode::OK, "{path}: {body}");
    body
}

async fn set_display(app: &TestApp, token: &str, currency: Value) -> Value {
    let (status, body) = status_and_json(
        app.put("/v1/currency", token, &json!({"displayCurrency": currency}))
            .await,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body
}

fn cents(value: &Value) -> i64 {
    (value.as_f64().expect("a number") * 100.0).round() as i64
}

const JAN: (&str, &str) = ("2026-01-01", "2026-01-31");

#[tokio::test]
async fn settings_list_the_data_currencies_and_the_rates() {
    let (app, token) = app_with_two_currencies().await;
    let settings = get_ok(&app, &token, "/v1/currency").await;
    assert_eq!(
        settings,
        json!({
            "displayCurrency": null,
            "dataCurrencies": [{"currency": "EUR", "billedCost": 150.0},
                               {"currency": "USD", "billedCost": 30.0}],
            "rates": {"count": 0, "firstDate": null, "lastDate": null, "pairs": []}
        })
    );
    let (status, rates) = status_and_json(put_rates(&app, &token, RATES).await).await;
    assert_eq!(status, StatusCode::OK, "{rates}");
    assert_eq!(
        rates,
        json!({"count": 2, "firstDate": "2026-01-01", "lastDate": "2026-01-02",
               "pairs": ["EUR→USD"]})
    );
    let settings = set_display(&app, &token, json!("usd")).await;
    assert_eq!(settings["displayCurrency"], "USD");
    assert_eq!(settings["rates"]["count"], 2);
    let listed = get_ok(&app, &token, "/v1/exchange-rates?limit=1&offset=0").await;
    assert_eq!(
        listed,
        json!({"total": 2, "rates": [{"date": "2026-01-02", "from": "EUR", "to": "USD", "rate": 1.2}]})
    );
    assert_eq!(
        set_display(&app, &token, Value::Null).await["displayCurrency"],
        Value::Null
    );
    assert_invalid(
        app.put("/v1/currency", &token, &json!({"displayCurrency": "EURO"}))
            .await,
        "displayCurrency",
        "Display currency must be a three-letter ISO 4217 code",
    )
    .await;
    let response = app.delete("/v1/exchange-rates", &token).await;
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
    assert_eq!(
        get_ok(&app, &token, "/v1/currency").await["rates"]["count"],
        0
    );
}

#[tokio::test]
async fn every_refused_rates_file_names_its_row_and_keeps_the_old_rates() {
    let (app, token) = app_with_two_currencies().await;
    assert_eq!(
        put_rates(&app, &token, RATES).await.status(),
        StatusCode::OK
    );
    let header = "date,from,to,rate\n";
    let cases = [
        (
            format!("{header}2026-01-03,EUR,USD,1.3\n2026-01-04,EUR,USD,abc\n"),
            "row 3, column \"rate\": \"abc\" is not a positive number",
        ),
        (
            format!("{header}2026-13-01,EUR,USD,1\n"),
            "row 2, column \"date\": \"2026-13-01\" is not a date (YYYY-MM-DD)",
        ),
        (
            format!("{header}2026-01-01,EUR,USD,1\n2026-01-02,EUR,USD,1\n2026-01-03,EUR,USD,1\n2026-01-04,US,USD,1\n"),
            "row 5, column \"from\": \"US\" is not a three-letter currency code",
        ),
        (
            format!("{header}2026-01-01,USD,usd,1\n"),
            "row 2: USD to USD is not an exchange rate",
        ),
        (header.to_owned(), "the file has no rows"),
        (
            "day,from,to,rate\n2026-01-01,EUR,USD,1\n".to_owned(),
            "the header must name the columns date, from, to and rate",
        ),
    ];
    for (csv, message) in cases {
        assert_error(
            put_rates(&app, &token, &csv).await,
            StatusCode::BAD_REQUEST,
            message,
        )
        .await;
    }
    let mut too_many = header.to_owned();
    let start = chrono::NaiveDate::from_ymd_opt(1800, 1, 1).unwrap();
    for day in 0..=100_000 {
        too_many.push_str(&format!("{},EUR,USD,1\n", start + chrono::Days::new(day)));
    }
    assert_error(
        put_rates(&app, &token, &too_many).await,
        StatusCode::BAD_REQUEST,
        "the file has more than 100000 rows",
    )
    .await;
    let huge = format!("{header}{}", "x".repeat(10 * 1024 * 1024));
    assert_error(
        put_rates(&app, &token, &huge).await,
        StatusCode::BAD_REQUEST,
        "the file is larger than 10 MB",
    )
    .await;
    // Nothing refused replaced the rates.
    let listed = get_ok(&app, &token, "/v1/exchange-rates").await;
    assert_eq!(listed["total"], 2);
    assert_eq!(
        listed["rates"][1],
        json!({"date": "2026-01-01", "from": "EUR", "to": "USD", "rate": 1.1})
    );
}

#[tokio::test]
async fn plain_users_read_but_cannot_change_currency_settings() {
    let (app, owner) = app_with_two_currencies().await;
    let user = app
        .add_member(&owner, "Bob User", "bob@a.test", "User")
        .await
        .access_token;
    assert_eq!(
        get_ok(&app, &user, "/v1/currency").await["rates"]["count"],
        0
    );
    assert_error(
        app.put("/v1/currency", &user, &json!({"displayCurrency": "USD"}))
            .await,
        StatusCode::FORBIDDEN,
        "Only owners and admins can change the display currency",
    )
    .await;
    assert_error(
        put_rates(&app, &user, RATES).await,
        StatusCode::FORBIDDEN,
        "Only owners and admins can change exchange rates",
    )
    .await;
    assert_error(
        app.delete("/v1/exchange-rates", &user).await,
        StatusCode::FORBIDDEN,
        "Only owners and admins can change exchange rates",
    )
    .await;
    let admin = app
        .add_member(&owner, "Carol Admin", "carol@a.test", "Admin")
        .await
        .access_token;
    assert_eq!(
        put_rates(&app, &admin, RATES).await.status(),
        StatusCode::OK
    );
}

#[tokio::test]
async fn without_a_display_currency_other_currencies_are_listed_not_added() {
    let (app, token) = app_with_two_currencies().await;
    let body = json!({"start_time": JAN.0, "end_time": JAN.1});
    let aggr = post_ok(&app, &token, "/v2/cost/aggr", body.clone()).await;
    // The main currency is EUR (150 against 30 USD).
    assert_eq!(aggr["summary"]["accrued_cost"], 150.0);
    assert_eq!(aggr["currency"], "EUR");
    assert_eq!(aggr["converted"], false);
    assert_eq!(
        aggr["otherCurrencies"],
        json!([{"currency": "USD", "amount": 30.0}])
    );
    assert_eq!(
        aggr["warnings"],
        json!(["Costs in USD (30.00) are not included: choose a display currency and upload exchange rates to combine currencies"])
    );
    let spend = post_ok(&app, &token, "/v2/cost/spend", body).await;
    assert_eq!(spend["current_period"]["total_amount"], 150.0);
    assert_eq!(spend["currency"], "EUR");
    assert_eq!(
        spend["otherCurrencies"],
        json!([{"currency": "USD", "amount": 30.0}])
    );
    let query = post_ok(
        &app,
        &token,
        "/v1/query",
        json!({"start_time": JAN.0, "end_time": JAN.1, "filters": []}),
    )
    .await;
    assert_eq!(query["summary"]["accrued_cost"], 150.0);
    assert_eq!(query["otherCurrencies"][0]["currency"], "USD");
}

#[tokio::test]
async fn a_display_currency_converts_every_answer_exactly_with_the_tenants_rates() {
    let (app, token) = app_with_two_currencies().await;
    put_rates(&app, &token, RATES).await;
    set_display(&app, &token, json!("USD")).await;
    let body = json!({"start_time": JAN.0, "end_time": JAN.1, "interval": "daily"});
    let aggr = post_ok(&app, &token, "/v2/cost/aggr", body).await;
    // By hand: 100 EUR × 1.10 + 50 EUR × 1.20 = 170.00 USD, with 30 USD: 200.00.
    assert_eq!(cents(&aggr["summary"]["accrued_cost"]), 20_000);
    assert_eq!(cents(&aggr["data"][0]["amount"]), 11_000);
    assert_eq!(cents(&aggr["data"][1]["amount"]), 9_000);
    assert_eq!(aggr["currency"], "USD");
    assert_eq!(aggr["summary"]["currency"], "USD");
    assert_eq!(aggr["converted"], true);
    assert_eq!(aggr["otherCurrencies"], json!([]));
    assert_eq!(
        aggr["warnings"],
        json!(["Converted to USD with your exchange rates"])
    );
    let eur_only = json!({"start_time": JAN.0, "end_time": JAN.1, "filters": [
        {"operator": "AND", "accounts": [{"operator": "equals", "values": ["333333333333"]}]}]});
    let spend = post_ok(&app, &token, "/v2/cost/spend", eur_only.clone()).await;
    assert_eq!(cents(&spend["current_period"]["total_amount"]), 17_000);
    assert_eq!(
        cents(&spend["current_period"]["cloud_provider"]["AWS"]),
        17_000
    );
    assert_eq!(spend["converted"], true);
    let query = post_ok(
        &app,
        &token,
        "/v1/query",
        json!({"start_time": JAN.0, "end_time": JAN.1,
               "filters": [{"field": "account_id", "operator": "equals", "value": "333333333333"}]}),
    )
    .await;
    assert_eq!(cents(&query["summary"]["accrued_cost"]), 17_000);
    assert_eq!(query["converted"], true);
}

#[tokio::test]
async fn a_currency_without_a_rate_is_left_out_and_said_so() {
    let (app, token) = app_with_two_currencies().await;
    set_display(&app, &token, json!("GBP")).await;
    put_rates(&app, &token, "date,from,to,rate\n2026-01-01,USD,GBP,0.8\n").await;
    let aggr = post_ok(
        &app,
        &token,
        "/v2/cost/aggr",
        json!({"start_time": JAN.0, "end_time": JAN.1}),
    )
    .await;
    assert_eq!(cents(&aggr["summary"]["accrued_cost"]), 2_400); // 30 USD × 0.8
    assert_eq!(aggr["currency"], "GBP");
    assert_eq!(
        aggr["otherCurrencies"],
        json!([{"currency": "EUR", "amount": 150.0}])
    );
    assert_eq!(
        aggr["warnings"],
        json!([
            "Costs in EUR (150.00) are not included: upload exchange rates from EUR to GBP to include them",
            "Converted to GBP with your exchange rates"
        ])
    );
}

#[tokio::test]
async fn another_tenants_rates_never_convert_mine() {
    let (app, token) = app_with_two_currencies().await;
    set_display(&app, &token, json!("USD")).await;
    let other = app.signup_owner("Olga Other", "olga@b.test").await;
    assert_eq!(
        put_rates(&app, &other.access_token, RATES).await.status(),
        StatusCode::OK
    );
    let aggr = post_ok(
        &app,
        &token,
        "/v2/cost/aggr",
        json!({"start_time": JAN.0, "end_time": JAN.1}),
    )
    .await;
    assert_eq!(aggr["summary"]["accrued_cost"], 30.0);
    assert_eq!(aggr["converted"], false);
    assert_eq!(
        aggr["otherCurrencies"],
        json!([{"currency": "EUR", "amount": 150.0}])
    );
    assert_eq!(get_ok(&app, &token, "/v1/exchange-rates").await["total"], 0);
    assert_eq!(
        get_ok(&app, &other.access_token, "/v1/currency").await["displayCurrency"],
        Value::Null
    );
}

#[tokio::test]
async fn budgets_are_in_the_display_currency() {
    let app = spawn_app().await;
    let owner = app.signup_owner("Alice Owner", "alice@a.test").await;
    let token = owner.access_token;
    // This month: 100 EUR on the first day, 30 USD.
    let first = chrono::Utc::now().date_naive().with_day(1).unwrap();
    let day: &'static str = Box::leak(first.to_string().into_boxed_str());
    let mut eur = Line::aws("333333333333", day, 100.0);
    eur.billing_account = EUR_ACCOUNT;
    let usd = Line::aws("333333333333", day, 30.0);
    let csv = FocusCsv::new().line(eur).line(usd).to_csv();
    let csv: Vec<String> = csv
        .lines()
        .map(|line| {
            if line.contains(EUR_ACCOUNT) {
                line.replace("\"USD\"", "\"EUR\"")
            } else {
                line.to_owned()
            }
        })
        .collect();
    let job = app
        .ingest_files(&token, &[("mixed.csv", csv.join("\n").into_bytes())])
        .await;
    assert_eq!(job["status"], "succeeded", "{job}");
    let budget = create(
        &app,
        &token,
        &account_budget("Mixed", "333333333333", 500.0),
    )
    .await;
    assert_eq!(budget["currentSpent"], 100.0);
    assert_eq!(budget["currency"], "EUR");
    assert_eq!(
        budget["otherCurrencies"],
        json!([{"currency": "USD", "amount": 30.0}])
    );
    put_rates(
        &app,
        &token,
        &format!("date,from,to,rate\n{first},EUR,USD,1.25\n"),
    )
    .await;
    set_display(&app, &token, json!("USD")).await;
    let id = budget["id"].as_i64().unwrap();
    let budget = get_ok(&app, &token, &format!("/v1/budgets/{id}")).await;
    assert_eq!(cents(&budget["currentSpent"]), 15_500); // 100 × 1.25 + 30
    assert_eq!(budget["currency"], "USD");
    assert_eq!(budget["converted"], true);
    assert_eq!(budget["otherCurrencies"], json!([]));
    let listed = get_ok(&app, &token, "/v1/budgets").await;
    assert_eq!(cents(&listed[0]["currentSpent"]), 15_500);
    let history = get_ok(&app, &token, &format!("/v1/budgets/{id}/history")).await;
    let spent: f64 = history
        .as_array()
        .unwrap()
        .iter()
        .map(|item| item["amountSpent"].as_f64().unwrap())
        .sum();
    assert_eq!((spent * 100.0).round() as i64, 15_500);
    assert_eq!(history[0]["currency"], "USD");
    let today = chrono::Utc::now().date_naive();
    let resources = get_ok(
        &app,
        &token,
        &format!("/v1/budgets/{id}/resources?startDate={first}&endDate={today}"),
    )
    .await;
    assert_eq!(cents(&resources["totalCost"]), 15_500);
    assert_eq!(resources["currency"], "USD");
}

#[tokio::test]
async fn another_tenants_changes_leave_my_settings_and_rates_alone() {
    let (app, token) = app_with_two_currencies().await;
    set_display(&app, &token, json!("USD")).await;
    assert_eq!(
        put_rates(&app, &token, RATES).await.status(),
        StatusCode::OK
    );
    let mine = get_ok(&app, &token, "/v1/currency").await;
    let other = app.signup_owner("Olga Other", "olga@b.test").await;

    set_display(&app, &other.access_token, json!("GBP")).await;
    assert_eq!(
        app.delete("/v1/exchange-rates", &other.access_token)
            .await
            .status(),
        StatusCode::NO_CONTENT
    );

    assert_eq!(get_ok(&app, &token, "/v1/currency").await, mine);
    assert_eq!(mine["displayCurrency"], "USD");
    assert!(mine["rates"]["count"].as_u64().unwrap() > 0);
    let theirs = get_ok(&app, &other.access_token, "/v1/currency").await;
    assert_eq!(theirs["dataCurrencies"], json!([]));
    assert_eq!(theirs["rates"]["count"], 0);
}
