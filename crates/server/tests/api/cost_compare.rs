//! `POST /v2/cost/compare` over the standard data set (see `cost_fixture`: December 2025 has
//! AmazonEC2 50 on account 111111111111; January 2026 242 over five services and four accounts;
//! February 2026 AmazonEC2 1000).

use std::collections::BTreeMap;

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::cost_fixture::{app_with_standard_data, merge, post_ok, JANUARY};
use crate::helpers::{assert_error, assert_invalid, TestApp};

const FEBRUARY: (&str, &str) = ("2026-02-01", "2026-02-28");

/// `/v2/cost/compare` over `range` with `extra` merged into the body.
async fn compare_over(app: &TestApp, token: &str, range: (&str, &str), extra: Value) -> Value {
    let mut body = json!({"start_time": range.0, "end_time": range.1});
    merge(&mut body, extra);
    post_ok(app, token, "/v2/cost/compare", body).await
}

/// `/v2/cost/compare` over January.
async fn compare(app: &TestApp, token: &str, extra: Value) -> Value {
    compare_over(app, token, JANUARY, extra).await
}

/// The rows' keys, in order.
fn keys(answer: &Value) -> Vec<String> {
    answer["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row["key"].as_str().unwrap().to_owned())
        .collect()
}

/// `key → (current, previous)` of the rows.
fn amounts(answer: &Value) -> BTreeMap<String, (f64, f64)> {
    answer["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| {
            (
                row["key"].as_str().unwrap().to_owned(),
                (
                    row["current"].as_f64().unwrap(),
                    row["previous"].as_f64().unwrap(),
                ),
            )
        })
        .collect()
}

fn cents(amount: f64) -> i64 {
    (amount * 100.0).round() as i64
}

/// `/v2/cost/aggr` amounts per group over `start..=end` with `body`'s grouping and filters.
async fn aggr_amounts(
    app: &TestApp,
    token: &str,
    (start, end): (&str, &str),
    body: &Value,
) -> (BTreeMap<String, i64>, f64, String) {
    let mut request = body.clone();
    let object = request.as_object_mut().unwrap();
    for field in [
        "previous_start_time",
        "previous_end_time",
        "order_by",
        "limit",
        "offset",
    ] {
        object.remove(field);
    }
    merge(
        &mut request,
        json!({"start_time": start, "end_time": end, "limit": 10000}),
    );
    let answer = post_ok(app, token, "/v2/cost/aggr", request).await;
    let groups = answer["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| {
            let key = row["grouping_values"]
                .get(0)
                .and_then(Value::as_str)
                .unwrap_or("total")
                .to_owned();
            (key, cents(row["amount"].as_f64().unwrap()))
        })
        .collect();
    (
        groups,
        answer["summary"]["accrued_cost"].as_f64().unwrap(),
        answer["summary"]["currency"].as_str().unwrap().to_owned(),
    )
}

#[tokio::test]
async fn rows_are_two_aggr_calls_to_the_cent() {
    let (app, token) = app_with_standard_data().await;
    let usage = json!({"inclusions": ["Usage"]});
    let aws = json!([{"operator": "AND",
                      "cloud_providers": [{"operator": "equals", "values": ["AWS"]}]}]);
    for extra in [
        json!({"group_by": "service"}),
        json!({"group_by": "account"}),
        json!({"group_by": "region", "metric": "effective"}),
        json!({"group_by": "cloud_provider", "metric": "list"}),
        json!({"group_by": "cost_type"}),
        json!({"group_by": "usage_type", "cost_type": usage}),
        json!({"group_by": "service", "filters": aws}),
        json!({"group_by": "account", "previous_start_time": "2026-02-01",
               "previous_end_time": "2026-02-28"}),
    ] {
        let mut body = json!({"start_time": JANUARY.0, "end_time": JANUARY.1});
        merge(&mut body, extra.clone());
        let answer = post_ok(&app, &token, "/v2/cost/compare", body.clone()).await;
        let previous = (
            extra["previous_start_time"]
                .as_str()
                .unwrap_or("2025-12-01"),
            extra["previous_end_time"].as_str().unwrap_or("2025-12-31"),
        );
        let (current_groups, current_total, currency) =
            aggr_amounts(&app, &token, JANUARY, &body).await;
        let (previous_groups, previous_total, _) =
            aggr_amounts(&app, &token, previous, &body).await;

        let rows = amounts(&answer);
        let keys: Vec<&String> = current_groups
            .keys()
            .chain(previous_groups.keys())
            .collect();
        assert_eq!(answer["total_groups"], rows.len(), "{extra}");
        for key in keys {
            let (current, previous) = rows[key];
            assert_eq!(
                (cents(current), cents(previous)),
                (
                    current_groups.get(key).copied().unwrap_or_default(),
                    previous_groups.get(key).copied().unwrap_or_default()
                ),
                "{extra}: {key}"
            );
        }
        assert!(rows
            .keys()
            .all(|key| current_groups.contains_key(key) || previous_groups.contains_key(key)));
        assert_eq!(
            cents(answer["totals"]["current"].as_f64().unwrap()),
            cents(current_total),
            "{extra}"
        );
        assert_eq!(
            cents(answer["totals"]["previous"].as_f64().unwrap()),
            cents(previous_total),
            "{extra}"
        );
        assert_eq!(answer["currency"], currency);
    }
}

#[tokio::test]
async fn by_default_january_is_compared_with_december() {
    let (app, token) = app_with_standard_data().await;

    let answer = compare(&app, &token, json!({"group_by": "service"})).await;

    assert_eq!(
        answer["current_period"],
        json!({"start_time": "2026-01-01T00:00:00Z", "end_time": "2026-01-31T23:59:59.999Z"})
    );
    assert_eq!(
        answer["previous_period"],
        json!({"start_time": "2025-12-01T00:00:00Z", "end_time": "2025-12-31T23:59:59.999Z"})
    );
    assert_eq!(answer["group_by"], "service");
    assert_eq!(answer["currency"], "USD");
    assert_eq!(answer["warnings"], json!([]));
    assert_eq!(answer["total_groups"], 5);
    assert_eq!(
        answer["rows"][0],
        json!({"key": "AmazonEC2", "name": null, "current": 138.0, "previous": 50.0,
               "change": 88.0, "percent_change": 176.0, "status": "grew"})
    );
    assert_eq!(
        answer["rows"][1],
        json!({"key": "Compute Engine", "name": null, "current": 64.0, "previous": 0.0,
               "change": 64.0, "percent_change": null, "status": "new"})
    );
    assert_eq!(
        answer["totals"],
        json!({"current": 242.0, "previous": 50.0, "change": 192.0, "percent_change": 384.0})
    );
}

#[tokio::test]
async fn the_default_previous_period_has_the_same_number_of_days() {
    let (app, token) = app_with_standard_data().await;

    // February (28 days) against January 4–31: CloudWatch (January 2) is outside it.
    let answer = compare_over(&app, &token, FEBRUARY, json!({"group_by": "service"})).await;

    assert_eq!(
        answer["previous_period"],
        json!({"start_time": "2026-01-04T00:00:00Z", "end_time": "2026-01-31T23:59:59.999Z"})
    );
    assert_eq!(
        amounts(&answer),
        BTreeMap::from([
            ("AmazonEC2".to_owned(), (1000.0, 138.0)),
            ("AmazonS3".to_owned(), (0.0, 20.0)),
            ("Compute Engine".to_owned(), (0.0, 64.0)),
            ("Virtual Machines".to_owned(), (0.0, 16.0)),
        ])
    );
    let statuses: Vec<&str> = answer["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row["status"].as_str().unwrap())
        .collect();
    assert_eq!(statuses, ["grew", "gone", "gone", "gone"]);
    assert_eq!(answer["rows"][1]["percent_change"], -100.0);
}

#[tokio::test]
async fn a_custom_previous_period_may_overlap_the_current_one() {
    let (app, token) = app_with_standard_data().await;

    let against_february = compare(
        &app,
        &token,
        json!({"group_by": "service", "previous_start_time": FEBRUARY.0,
               "previous_end_time": FEBRUARY.1}),
    )
    .await;
    assert_eq!(
        against_february["previous_period"],
        json!({"start_time": "2026-02-01T00:00:00Z", "end_time": "2026-02-28T23:59:59.999Z"})
    );
    assert_eq!(
        against_february["rows"][0],
        json!({"key": "AmazonEC2", "name": null, "current": 138.0, "previous": 1000.0,
               "change": -862.0, "percent_change": -86.2, "status": "fell"})
    );

    let against_itself = compare(
        &app,
        &token,
        json!({"group_by": "service", "previous_start_time": JANUARY.0,
               "previous_end_time": JANUARY.1}),
    )
    .await;
    assert_eq!(against_itself["total_groups"], 5);
    for row in against_itself["rows"].as_array().unwrap() {
        assert_eq!(
            (&row["status"], &row["change"], &row["percent_change"]),
            (&json!("unchanged"), &json!(0.0), &json!(0.0)),
            "{row}"
        );
    }
    // Its first half: AmazonEC2 is 100 there, CloudWatch 4, S3 20, Compute Engine 64.
    let against_first_half = compare(
        &app,
        &token,
        json!({"group_by": "service", "previous_start_time": "2026-01-01",
               "previous_end_time": "2026-01-15"}),
    )
    .await;
    assert_eq!(amounts(&against_first_half)["AmazonEC2"], (138.0, 140.0));
    assert_eq!(keys(&against_first_half)[0], "Virtual Machines");
    assert_eq!(against_first_half["totals"]["previous"], 228.0);
}

#[tokio::test]
async fn every_order_by_with_ties_by_key() {
    let (app, token) = app_with_standard_data().await;
    // February against January 4–31: AmazonEC2 +862 (+624.6 %), Compute Engine -64,
    // AmazonS3 -20, Virtual Machines -16 (each -100 %).
    let order = |order_by: &'static str| {
        let (app, token) = (&app, &token);
        async move {
            keys(
                &compare_over(
                    app,
                    token,
                    FEBRUARY,
                    json!({"group_by": "service", "order_by": order_by}),
                )
                .await,
            )
        }
    };
    assert_eq!(
        order("change").await,
        [
            "AmazonEC2",
            "Compute Engine",
            "AmazonS3",
            "Virtual Machines"
        ]
    );
    assert_eq!(
        order("increase").await,
        [
            "AmazonEC2",
            "Virtual Machines",
            "AmazonS3",
            "Compute Engine"
        ]
    );
    assert_eq!(
        order("decrease").await,
        [
            "Compute Engine",
            "AmazonS3",
            "Virtual Machines",
            "AmazonEC2"
        ]
    );
    assert_eq!(
        order("current").await,
        [
            "AmazonEC2",
            "AmazonS3",
            "Compute Engine",
            "Virtual Machines"
        ]
    );
    assert_eq!(
        order("previous").await,
        [
            "AmazonEC2",
            "Compute Engine",
            "AmazonS3",
            "Virtual Machines"
        ]
    );
    assert_eq!(
        order("PERCENT_CHANGE").await,
        [
            "AmazonEC2",
            "AmazonS3",
            "Compute Engine",
            "Virtual Machines"
        ]
    );
    // January against December: four new services have no percent change and come last.
    let january = compare(
        &app,
        &token,
        json!({"group_by": "service", "order_by": "percent_change"}),
    )
    .await;
    assert_eq!(
        keys(&january),
        [
            "AmazonEC2",
            "AmazonCloudWatch",
            "AmazonS3",
            "Compute Engine",
            "Virtual Machines"
        ]
    );
}

#[tokio::test]
async fn pages_of_rows_with_totals_over_every_group() {
    let (app, token) = app_with_standard_data().await;

    let page = compare(
        &app,
        &token,
        json!({"group_by": "service", "limit": 2, "offset": 1}),
    )
    .await;

    assert_eq!(keys(&page), ["Compute Engine", "AmazonS3"]);
    assert_eq!(page["total_groups"], 5);
    assert_eq!(
        page["totals"],
        json!({"current": 242.0, "previous": 50.0, "change": 192.0, "percent_change": 384.0})
    );
    let past_the_end = compare(&app, &token, json!({"group_by": "service", "offset": 5})).await;
    assert_eq!(past_the_end["rows"], json!([]));
    assert_eq!(past_the_end["total_groups"], 5);
    let top = compare(&app, &token, json!({"group_by": "service", "limit": 1})).await;
    assert_eq!(keys(&top), ["AmazonEC2"]);
}

#[tokio::test]
async fn grouped_by_account_rows_carry_the_account_names() {
    let (app, token) = app_with_standard_data().await;

    let answer = compare(&app, &token, json!({"group_by": "account"})).await;

    let names: Vec<(&str, &Value)> = answer["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| (row["key"].as_str().unwrap(), &row["name"]))
        .collect();
    assert_eq!(
        names,
        [
            ("111111111111", &json!("Production")),
            ("my-gcp-project", &json!("My Project")),
            ("222222222222", &json!("Staging")),
            ("sub-aaaa", &json!("Azure Sub")),
        ]
    );
    assert_eq!(
        (
            &answer["rows"][0]["current"],
            &answer["rows"][0]["previous"]
        ),
        (&json!(132.0), &json!(50.0))
    );
    let by_service = compare(&app, &token, json!({"group_by": "service"})).await;
    assert!(by_service["rows"]
        .as_array()
        .unwrap()
        .iter()
        .all(|row| row["name"].is_null()));
}

#[tokio::test]
async fn without_grouping_the_answer_is_one_total_row() {
    let (app, token) = app_with_standard_data().await;

    let answer = compare(&app, &token, json!({"group_by": "none"})).await;

    assert_eq!(answer["group_by"], "none");
    assert_eq!(
        answer["rows"],
        json!([{"key": "total", "name": null, "current": 242.0, "previous": 50.0,
                "change": 192.0, "percent_change": 384.0, "status": "grew"}])
    );
    assert_eq!(answer["total_groups"], 1);
}

#[tokio::test]
async fn every_refusal_names_its_field() {
    let (app, token) = app_with_standard_data().await;
    let post = |body: Value| {
        let mut request = json!({"start_time": JANUARY.0, "end_time": JANUARY.1,
                                 "group_by": "service"});
        merge(&mut request, body);
        let (app, token) = (&app, &token);
        async move { app.post("/v2/cost/compare", Some(token), &request).await }
    };
    for (body, field, message) in [
        (
            json!({"previous_start_time": "2025-12-01"}),
            "previous_start_time",
            "previous_start_time and previous_end_time go together",
        ),
        (
            json!({"previous_end_time": "2025-12-31"}),
            "previous_start_time",
            "previous_start_time and previous_end_time go together",
        ),
        (
            json!({"group_by": "colour"}),
            "group_by",
            "Unknown group by dimension colour",
        ),
        (
            json!({"group_by": null}),
            "group_by",
            "group_by is required",
        ),
        (
            json!({"order_by": "amount"}),
            "order_by",
            "order_by must be change, increase, decrease, current, previous or percent_change",
        ),
        (
            json!({"limit": 0}),
            "limit",
            "Limit must be between 1 and 1000",
        ),
        (
            json!({"limit": 1001}),
            "limit",
            "Limit must be between 1 and 1000",
        ),
        (
            json!({"offset": -1}),
            "offset",
            "Offset must be a whole number of groups, 0 or more",
        ),
        (
            json!({"metric": "gross"}),
            "metric",
            "Metric must be billed, effective or list",
        ),
        (
            json!({"filters": [{"services": [{"operator": "contains", "values": ["x"]}]}]}),
            "filters",
            "Operator contains is not supported for field services",
        ),
        (
            json!({"previous_start_time": "1969-12-01", "previous_end_time": "1969-12-31"}),
            "previous_start_time",
            "previous_start_time must be a date between 1970-01-01 and 2100-12-31",
        ),
        (
            json!({"previous_start_time": "2015-01-01", "previous_end_time": "2025-12-31"}),
            "previous_end_time",
            "The range from previous_start_time to previous_end_time must be at most 5 years",
        ),
    ] {
        assert_invalid(post(body).await, field, message).await;
    }
    for (body, message) in [
        (json!({"start_time": null}), "start_time is required"),
        (
            json!({"previous_start_time": "2026-01-31", "previous_end_time": "2026-01-01"}),
            "previous_end_time must not be before previous_start_time",
        ),
        (
            json!({"previous_start_time": "yesterday", "previous_end_time": "2026-01-01"}),
            "previous_start_time must be an ISO 8601 date or date-time",
        ),
    ] {
        assert_error(post(body).await, StatusCode::BAD_REQUEST, message).await;
    }
    assert_error(
        app.post("/v2/cost/compare", None, &json!({"group_by": "service"}))
            .await,
        StatusCode::UNAUTHORIZED,
        "Authentication required",
    )
    .await;
}

#[tokio::test]
async fn another_customer_sees_none_of_the_rows() {
    let (app, token_a) = app_with_standard_data().await;
    let before = compare(&app, &token_a, json!({"group_by": "account"})).await;
    let owner_b = app.signup_owner("Bob Owner", "bob@b.test").await;

    let by_account = compare(&app, &owner_b.access_token, json!({"group_by": "account"})).await;
    assert_eq!(by_account["rows"], json!([]));
    assert_eq!(by_account["total_groups"], 0);
    assert_eq!(
        by_account["totals"],
        json!({"current": 0.0, "previous": 0.0, "change": 0.0, "percent_change": null})
    );
    let total = compare(&app, &owner_b.access_token, json!({"group_by": "none"})).await;
    assert_eq!(
        total["rows"],
        json!([{"key": "total", "name": null, "current": 0.0, "previous": 0.0,
                "change": 0.0, "percent_change": null, "status": "unchanged"}])
    );
    // A plain user of A's customer reads A's rows.
    let member = app
        .add_member(&token_a, "Uma User", "uma@a.test", "User")
        .await;
    assert_eq!(
        compare(&app, &member.access_token, json!({"group_by": "account"})).await,
        before
    );
}
