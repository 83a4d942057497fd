//! Bounded work per cost request (docs/API-COST.md "Limits"): each review finding replayed as
//! the hostile user made it, answered by a fast 422 naming the field and the limit, and the
//! largest allowed answer measured (time and rows); a cost query past the time limit is
//! cancelled and answered 503 with `Retry-After`, and the server answers normally after.

use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::cost_fixture::{post_ok, upload, FocusCsv, Line};
use crate::helpers::{spawn_app, spawn_app_with, status_and_json, TestApp};

/// `rows` line items over 2025, each its own combination of the four dimensions
/// (accounts × services × regions × usage types), as a FOCUS 1.2 CSV.
fn many_groups_csv(rows: usize) -> Vec<u8> {
    let mut csv = String::from(
        "BilledCost,BillingAccountId,BillingAccountName,BillingCurrency,BillingPeriodEnd,\
         BillingPeriodStart,ChargeCategory,ChargeClass,ChargeFrequency,ChargePeriodEnd,\
         ChargePeriodStart,ContractedCost,EffectiveCost,InvoiceIssuerName,ListCost,ProviderName,\
         PublisherName,RegionId,RegionName,ServiceCategory,ServiceName,SkuMeter,SubAccountId,\
         SubAccountName\n",
    );
    let first = chrono::NaiveDate::from_ymd_opt(2025, 1, 1).unwrap();
    for index in 0..rows {
        let day = first + chrono::Days::new((index % 365) as u64);
        let next = day + chrono::Days::new(1);
        let month = format!("{}-01", &day.to_string()[..7]);
        let next_month =
            chrono::NaiveDate::parse_from_str(&month, "%Y-%m-%d").unwrap() + chrono::Months::new(1);
        csv.push_str(&format!(
            "{cost},900000000000,AWS billing,USD,{next_month}T00:00:00Z,{month}T00:00:00Z,Usage,,\
             Usage-Based,{next}T00:00:00Z,{day}T00:00:00Z,{cost},{cost},AWS,{cost},AWS,AWS,\
             region-{region},region-{region},Compute,service-{service},usage-{usage},\
             {account:012},account {account}\n",
            cost = 1 + index % 97,
            account = index % 50,
            service = index % 7,
            region = index % 3,
            usage = index,
        ));
    }
    csv.into_bytes()
}

/// An app whose owner holds `rows` line items of distinct combinations; answers the token.
async fn app_with_many_groups(rows: usize) -> (TestApp, String) {
    let app = spawn_app().await;
    let owner = app.signup_owner("Olga Owner", "olga@q.test").await;
    let job = app
        .ingest_files(&owner.access_token, &[("many.csv", many_groups_csv(rows))])
        .await;
    assert_eq!(job["status"], "succeeded", "job: {job}");
    (app, owner.access_token)
}

/// POSTs and answers status, body and how long the answer took.
async fn timed_post(
    app: &TestApp,
    token: &str,
    path: &str,
    body: &Value,
) -> (StatusCode, Value, Duration) {
    let started = Instant::now();
    let (status, answer) = status_and_json(app.post(path, Some(token), body).await).await;
    (status, answer, started.elapsed())
}

fn assert_bound(status: StatusCode, answer: &Value, field: &str, message: &str) {
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "answer: {answer}");
    assert_eq!(
        answer["details"][field],
        json!([message]),
        "answer: {answer}"
    );
    assert_eq!(answer["message"], message);
}

const DIMENSIONS: [&str; 4] = ["account", "service", "region", "usage_type"];

/// Finding: one cumulative aggr over 1950–2100 with 4 dimensions built a 2.6 GB answer in
/// 44 s (server 1.2 → 11.2 GB). Now a 422 on the start date, in milliseconds.
#[tokio::test]
async fn a_cumulative_aggr_over_1950_to_2100_with_four_dimensions_is_refused_at_once() {
    let (app, token) = app_with_many_groups(2_000).await;
    let body = json!({"start_time": "1950-01-01", "end_time": "2100-12-31",
        "group_by_dimensions": DIMENSIONS, "view_type": "cumulative"});
    let (status, answer, took) = timed_post(&app, &token, "/v2/cost/aggr", &body).await;
    assert_bound(
        status,
        &answer,
        "start_time",
        "start_time must be a date between 1970-01-01 and 2100-12-31",
    );
    assert!(took < Duration::from_secs(2), "took {took:?}");

    // Inside the years, still longer than 5 years.
    let body = json!({"start_time": "2020-01-01", "end_time": "2025-12-31",
        "group_by_dimensions": DIMENSIONS, "view_type": "cumulative"});
    let (status, answer, _) = timed_post(&app, &token, "/v2/cost/aggr", &body).await;
    assert_bound(
        status,
        &answer,
        "end_time",
        "The range from start_time to end_time must be at most 5 years",
    );
}

/// The same view over the longest range allowed: 2,000 groups × 1,826 days would be 3.6M rows;
/// the page is capped before the query runs at 109 groups (199,034 rows), so the request is
/// refused naming `limit`, and the largest page that fits is answered whole.
#[tokio::test]
async fn the_widest_cumulative_view_is_capped_at_200000_rows_before_it_runs() {
    let (app, token) = app_with_many_groups(2_000).await;
    let five_years = json!({"start_time": "2021-01-01", "end_time": "2025-12-31",
        "group_by_dimensions": DIMENSIONS, "view_type": "cumulative"});
    let (status, answer, took) = timed_post(&app, &token, "/v2/cost/aggr", &five_years).await;
    assert_bound(
        status,
        &answer,
        "limit",
        "The answer would have more than 200000 rows (1826 time buckets × up to 1000 groups): \
         set limit to at most 109, or choose a coarser interval or a shorter range",
    );
    assert!(took < Duration::from_secs(5), "took {took:?}");

    let mut fitting = five_years.clone();
    fitting["limit"] = json!(20);
    let started = Instant::now();
    let response = app.post("/v2/cost/aggr", Some(&token), &fitting).await;
    assert_eq!(response.status(), StatusCode::OK);
    let bytes = response.bytes().await.expect("the answer");
    let took = started.elapsed();
    let answer: Value = serde_json::from_slice(&bytes).expect("JSON");
    assert_eq!(answer["data"].as_array().unwrap().len(), 20 * 1826);
    assert_eq!(answer["total_groups"], 2_000);
    println!(
        "5-year cumulative, 4 dimensions, 20 groups: {} rows, {} bytes, {took:?}",
        20 * 1826,
        bytes.len()
    );
    assert!(took < Duration::from_secs(10), "took {took:?}");

    // Monthly buckets leave room for every group of the default page (each group is charged
    // in one month).
    let mut monthly = five_years.clone();
    monthly["view_type"] = json!("monthly");
    let answer = post_ok(&app, &token, "/v2/cost/aggr", monthly).await;
    assert_eq!(answer["data"].as_array().unwrap().len(), 1_000);
    assert_eq!(answer["total_groups"], 2_000);
}

/// Without `limit` a flat answer holds the first 1,000 groups; `total_groups` tells the rest.
#[tokio::test]
async fn the_default_page_is_1000_groups_and_the_largest_10000() {
    let (app, token) = app_with_many_groups(2_000).await;
    let body = json!({"start_time": "2025-01-01", "end_time": "2025-12-31",
        "group_by_dimensions": ["usage_type"]});
    let answer = post_ok(&app, &token, "/v2/cost/aggr", body.clone()).await;
    assert_eq!(answer["data"].as_array().unwrap().len(), 1_000);
    assert_eq!(answer["total_groups"], 2_000);
    let mut all = body.clone();
    all["limit"] = json!(10_000);
    let answer = post_ok(&app, &token, "/v2/cost/aggr", all).await;
    assert_eq!(answer["data"].as_array().unwrap().len(), 2_000);
    let mut too_many = body;
    too_many["limit"] = json!(10_001);
    let (status, answer, _) = timed_post(&app, &token, "/v2/cost/aggr", &too_many).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(answer["message"], "Limit must be between 1 and 10000");
}

/// A hierarchy of 2,000 leaf combinations under 50 accounts is built in one pass, paged by
/// top-level group.
#[tokio::test]
async fn a_four_level_hierarchy_is_built_linearly_and_paged_by_top_level_group() {
    let (app, token) = app_with_many_groups(2_000).await;
    let body = json!({"start_time": "2025-01-01", "end_time": "2025-12-31",
        "group_by_dimensions": DIMENSIONS, "group_by_hierarchy": true, "limit": 10});
    let started = Instant::now();
    let answer = post_ok(&app, &token, "/v2/cost/aggr", body).await;
    let took = started.elapsed();
    assert_eq!(answer["total_groups"], 50);
    assert_eq!(answer["data"].as_array().unwrap().len(), 10);
    let leaves: usize = answer["data"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|account| account["children"].as_array().unwrap())
        .flat_map(|service| service["children"].as_array().unwrap())
        .map(|region| region["children"].as_array().unwrap().len())
        .sum();
    assert_eq!(leaves, 10 * 2_000 / 50);
    assert!(took < Duration::from_secs(5), "took {took:?}");
}

/// `count` account ids as the data set writes them (`000000000007`).
fn values(count: usize) -> Vec<String> {
    (0..count).map(|index| format!("{index:012}")).collect()
}

/// `count` short values (the body stays under the 1 MiB limit).
fn short_values(count: usize) -> Vec<String> {
    (0..count).map(|index| index.to_string()).collect()
}

/// Finding: `/v2/cost/filters` with 100k filter values took 36 s. Now a 422 at once; the
/// largest request allowed (5,000 values) answers quickly.
#[tokio::test]
async fn filters_with_100k_values_are_refused_and_the_largest_allowed_list_is_fast() {
    let (app, token) = app_with_many_groups(2_000).await;
    let body =
        json!({"filters": [{"accounts": [{"operator": "in", "values": short_values(100_000)}]}]});
    let (status, answer, took) = timed_post(&app, &token, "/v2/cost/filters", &body).await;
    assert_bound(
        status,
        &answer,
        "filters",
        "A accounts condition has 100000 values; maximum 1000 values per condition",
    );
    assert!(took < Duration::from_secs(2), "took {took:?}");

    // 100k values spread over conditions: the request's total is bounded too.
    let spread: Vec<Value> = (0..20)
        .map(|_| json!({"operator": "in", "values": short_values(1_000)}))
        .collect();
    let body = json!({"filters": [{"accounts": spread}]});
    let (status, answer, _) = timed_post(&app, &token, "/v2/cost/filters", &body).await;
    assert_bound(
        status,
        &answer,
        "filters",
        "Maximum 5000 filter values allowed in one request",
    );

    let largest: Vec<Value> = (0..5)
        .map(|_| json!({"operator": "in", "values": values(1_000)}))
        .collect();
    let body = json!({"start_date": "2025-01-01", "end_date": "2025-12-31",
        "filters": [{"accounts": largest}]});
    let (status, answer, took) = timed_post(&app, &token, "/v2/cost/filters", &body).await;
    assert_eq!(status, StatusCode::OK, "answer: {answer}");
    assert_eq!(answer["accounts"].as_array().unwrap().len(), 50);
    println!("/v2/cost/filters with 5,000 values: {took:?}");
    assert!(took < Duration::from_secs(5), "took {took:?}");
}

#[tokio::test]
async fn filter_groups_conditions_and_name_lists_are_bounded_on_every_cost_call() {
    let app = spawn_app().await;
    let owner = app.signup_owner("Olga Owner", "olga@q.test").await;
    let token = owner.access_token.as_str();
    let group = json!({"regions": [{"operator": "in", "values": ["a"]}]});
    let range = json!({"start_time": "2026-01-01", "end_time": "2026-01-31"});
    for path in [
        "/v2/cost/aggr",
        "/v2/cost/spend",
        "/v2/cost/service-categories",
        "/v2/cost/filters",
    ] {
        let mut body = range.clone();
        body["filters"] = Value::Array(vec![group.clone(); 21]);
        let (status, answer, _) = timed_post(&app, token, path, &body).await;
        assert_bound(
            status,
            &answer,
            "filters",
            "Maximum 20 filter groups allowed",
        );
        let mut body = range.clone();
        let tags: Vec<Value> = (0..21)
            .map(|index| json!({"key": format!("k{index}")}))
            .collect();
        body["filters"] = json!([{"tags": tags}]);
        let (status, answer, _) = timed_post(&app, token, path, &body).await;
        assert_bound(
            status,
            &answer,
            "filters",
            "Filter group 1: maximum 20 conditions allowed (tags included)",
        );
    }
    let mut body = range.clone();
    body["group_by_dimensions"] = json!(vec!["service"; 51]);
    let (status, answer, _) = timed_post(&app, token, "/v2/cost/aggr", &body).await;
    assert_bound(
        status,
        &answer,
        "group_by_dimensions",
        "group_by_dimensions may list at most 50 names",
    );
    let mut body = range.clone();
    body["cost_type"] = json!({"inclusions": vec!["Usage"; 51]});
    let (status, answer, _) = timed_post(&app, token, "/v2/cost/spend", &body).await;
    assert_bound(
        status,
        &answer,
        "cost_type",
        "cost_type may list at most 50 names",
    );
    let body =
        json!({"filters": [{"field": "account_id", "operator": "in", "value": values(1_001)}]});
    let (status, answer, _) = timed_post(&app, token, "/v1/query", &body).await;
    assert_bound(
        status,
        &answer,
        "filters",
        "A accounts condition has 1001 values; maximum 1000 values per condition",
    );
}

/// A signed, huge or far-future year is a 422 naming the field on every cost call (never a
/// 400 "unreadable", a 500 or a panic).
#[tokio::test]
async fn signed_huge_and_far_future_years_are_422s_naming_the_field() {
    let app = spawn_app().await;
    let owner = app.signup_owner("Olga Owner", "olga@q.test").await;
    let token = owner.access_token.as_str();
    upload(
        &app,
        token,
        &FocusCsv::new().line(Line::aws("111111111111", "2026-01-05", 10.0)),
    )
    .await;
    let out = |field: &str| format!("{field} must be a date between 1970-01-01 and 2100-12-31");
    let cases = [
        (
            "/v2/cost/aggr",
            json!({"start_time": "-0001-01-01", "end_time": "2026-01-31"}),
            "start_time",
        ),
        (
            "/v2/cost/aggr",
            json!({"start_time": "2026-01-01", "end_time": "+275760-09-13T00:00:00Z"}),
            "end_time",
        ),
        (
            "/v2/cost/spend",
            json!({"start_time": "1000000000000-01-01", "end_time": "2026-01-31"}),
            "start_time",
        ),
        (
            "/v2/cost/spend",
            json!({"start_time": "2026-01-01", "end_time": "9999-12-31"}),
            "end_time",
        ),
        (
            "/v2/cost/filters",
            json!({"start_date": "1969-12-31", "end_date": "2026-01-31"}),
            "start_date",
        ),
        (
            "/v2/cost/service-categories",
            json!({"start_time": "2026-01-01", "end_time": "2026-01-31",
            "previous_start_time": "-262143-01-01", "previous_end_time": "2025-12-31"}),
            "previous_start_time",
        ),
        (
            "/v1/query",
            json!({"start_time": "2026-01-01", "end_time": "+262143-12-31"}),
            "end_time",
        ),
    ];
    for (path, body, field) in cases {
        let (status, answer, _) = timed_post(&app, token, path, &body).await;
        assert_bound(status, &answer, field, &out(field));
    }
    for (query, field) in [
        ("start=1969-12-31&end=1970-01-01", "start"),
        ("start=2100-12-31&end=2101-01-01", "end"),
    ] {
        let (status, answer) = status_and_json(
            app.get(&format!("/v1/export/focus?{query}"), Some(token))
                .await,
        )
        .await;
        assert_eq!(
            status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{query}: {answer}"
        );
        assert_eq!(
            answer["details"][field],
            json!([out(field)]),
            "{query}: {answer}"
        );
    }
    // The last days of the calendar are refused too (no date arithmetic overflows).
    for query in [
        "start=262143-12-30&end=262143-12-31",
        "start=%2B262143-12-30&end=%2B262143-12-31",
    ] {
        let response = app
            .get(&format!("/v1/export/focus?{query}"), Some(token))
            .await;
        assert_eq!(
            response.status(),
            StatusCode::UNPROCESSABLE_ENTITY,
            "{query}"
        );
    }
    // The server still answers.
    let answer = post_ok(
        &app,
        token,
        "/v2/cost/aggr",
        json!({"start_time": "2026-01-01", "end_time": "2026-01-31"}),
    )
    .await;
    assert_eq!(answer["summary"]["accrued_cost"], 10.0);
}

/// A cost query past the time limit (1 s here) is cancelled: 503 with `Retry-After` and a
/// message naming the limit, well before the query would have finished; the next request is
/// answered normally. DuckDB's read gate: the ClickHouse engine has no read limits yet.
#[tokio::test]
async fn a_query_past_the_time_limit_is_cancelled_with_503_and_retry_after() {
    let app = spawn_app_with(|config| {
        config.cost_engine = costscope_server::cost_engine::CostEngineSetting::DuckDb;
        config.queries.timeout_seconds = 1;
        config.queries.max_concurrent = 1;
    })
    .await;
    let owner = app.signup_owner("Olga Owner", "olga@q.test").await;
    let token = owner.access_token.as_str();
    let job = ingest_patiently(&app, token, many_groups_csv(HEAVY_ROWS)).await;
    assert_eq!(job["status"], "succeeded", "job: {job}");

    let started = Instant::now();
    let response = app
        .get(
            "/v1/export/focus?start=2025-01-01&end=2025-12-31",
            Some(token),
        )
        .await;
    let took = started.elapsed();
    assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
    let retry_after = response
        .headers()
        .get("retry-after")
        .and_then(|value| value.to_str().ok())
        .map(str::to_owned);
    assert_eq!(retry_after.as_deref(), Some("1"));
    let answer: Value = response.json().await.expect("a JSON body");
    assert_eq!(
        answer["message"],
        "The cost query took longer than 1 s and was cancelled; narrow the range or the \
         filters, or try again later"
    );
    assert!(took < Duration::from_secs(4), "took {took:?}");

    // The slot is free again and the connection pool healthy.
    let answer = post_ok(
        &app,
        token,
        "/v2/cost/aggr",
        json!({"start_time": "2025-01-01", "end_time": "2025-01-31"}),
    )
    .await;
    assert!(answer["summary"]["accrued_cost"].as_f64().unwrap() > 0.0);
}

/// Uploads `csv` and waits for its load for up to 3 minutes (a large file on a busy machine
/// takes longer than `ingest_files` waits).
async fn ingest_patiently(app: &TestApp, token: &str, csv: Vec<u8>) -> Value {
    let (status, body) =
        status_and_json(app.upload_files(token, &[("many.csv", csv)], None).await).await;
    assert_eq!(status, StatusCode::ACCEPTED, "body: {body}");
    let id = body["id"].as_i64().expect("an upload id");
    let deadline = Instant::now() + Duration::from_secs(180);
    loop {
        let (_, job) =
            status_and_json(app.get(&format!("/v1/ingest/{id}"), Some(token)).await).await;
        if job["status"] == "succeeded" || job["status"] == "failed" || Instant::now() > deadline {
            return job;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Rows of the timeout test's data: its year-long export takes several seconds.
const HEAVY_ROWS: usize = 400_000;
