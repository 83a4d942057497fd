//! `POST /v2/cost/aggr` over the standard data set (see `cost_fixture`).

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::cost_fixture::{
    aggr, amounts, app_with_standard_data, bucket_amounts, pairs, post_ok, total, JANUARY,
    JANUARY_BILLED,
};
use crate::helpers::{assert_error, assert_invalid, status_and_json};

fn group(field: &str, operator: &str, values: Value) -> Value {
    json!([{ "operator": "AND", field: [{ "operator": operator, "values": values }] }])
}

fn tag(condition: Value) -> Value {
    json!([{ "operator": "AND", "tags": [condition] }])
}

#[tokio::test]
async fn groups_by_account_with_names_ranked_by_amount() {
    let (app, token) = app_with_standard_data().await;

    let answer = aggr(&app, &token, json!({"group_by": "account"})).await;

    assert_eq!(
        amounts(&answer),
        pairs(&[
            ("111111111111", 132.0),
            ("my-gcp-project", 64.0),
            ("222222222222", 30.0),
            ("sub-aaaa", 16.0),
        ])
    );
    assert_eq!(answer["total_groups"], 4);
    assert_eq!(answer["warnings"], json!([]));
    assert_eq!(
        answer["data"][0],
        json!({"account": "111111111111", "account_name": "Production", "amount": 132.0,
               "grouping_values": ["111111111111"], "grouping_path": "111111111111"})
    );
}

#[tokio::test]
async fn without_grouping_the_answer_is_one_row_with_the_total() {
    let (app, token) = app_with_standard_data().await;

    let answer = aggr(&app, &token, json!({"group_by": "none"})).await;

    assert_eq!(amounts(&answer), pairs(&[("", JANUARY_BILLED)]));
    assert_eq!(answer["data"][0]["grouping_values"], json!([]));
}

#[tokio::test]
async fn the_summary_compares_the_range_with_the_previous_period() {
    let (app, token) = app_with_standard_data().await;

    let answer = aggr(&app, &token, json!({"group_by": "service", "limit": 1})).await;

    assert_eq!(
        answer["summary"],
        json!({"accrued_cost": 242.0, "accrued_change": 384.0, "previous_cost": 50.0,
               "currency": "USD"})
    );
    let december = post_ok(
        &app,
        &token,
        "/v2/cost/aggr",
        json!({"start_time": "2025-12-01", "end_time": "2025-12-31"}),
    )
    .await;
    assert_eq!(
        december["summary"],
        json!({"accrued_cost": 50.0, "accrued_change": null, "previous_cost": 0.0,
               "currency": "USD"})
    );
}

#[tokio::test]
async fn the_metric_selects_billed_effective_or_list_cost() {
    let (app, token) = app_with_standard_data().await;

    for (metric, expected) in [
        (json!(null), 242.0),
        (json!("billed"), 242.0),
        (json!("effective"), 222.0),
        (json!("list"), 287.0),
    ] {
        let answer = aggr(&app, &token, json!({ "metric": metric })).await;
        assert_eq!(answer["summary"]["accrued_cost"], expected, "{metric}");
    }
    let body = json!({"start_time": JANUARY.0, "end_time": JANUARY.1, "metric": "net"});
    assert_invalid(
        app.post("/v2/cost/aggr", Some(&token), &body).await,
        "metric",
        "Metric must be billed, effective or list",
    )
    .await;
}

#[tokio::test]
async fn cost_type_inclusions_keep_only_those_charge_types_and_absent_means_all() {
    let (app, token) = app_with_standard_data().await;

    for (cost_type, expected) in [
        (json!({"inclusions": ["Usage"]}), 244.0),
        (json!({"inclusions": ["Tax", "Credit"]}), -2.0),
        (json!({"inclusions": "Tax"}), 8.0),
        (json!({"inclusions": []}), JANUARY_BILLED),
        (json!({"inclusions": null}), JANUARY_BILLED),
        (json!(null), JANUARY_BILLED),
    ] {
        let answer = aggr(&app, &token, json!({ "cost_type": cost_type })).await;
        assert_eq!(answer["summary"]["accrued_cost"], expected, "{cost_type}");
    }
}

#[tokio::test]
async fn every_operator_on_every_field() {
    let (app, token) = app_with_standard_data().await;
    let cases = [
        (group("accounts", "equals", json!(["111111111111"])), 132.0),
        (
            group("accounts", "not_equals", json!(["111111111111"])),
            110.0,
        ),
        (
            group("accounts", "in", json!(["111111111111", "222222222222"])),
            162.0,
        ),
        (
            group(
                "accounts",
                "not_in",
                json!(["111111111111", "222222222222"]),
            ),
            80.0,
        ),
        (group("regions", "equals", json!(["us-east-1"])), 124.0),
        // not_*: rows without a region (the tax line) are kept.
        (group("regions", "not_equals", json!(["us-east-1"])), 118.0),
        (
            group("regions", "in", json!(["us-east-1", "eu-west-1"])),
            154.0,
        ),
        (
            group("regions", "not_in", json!(["us-east-1", "eu-west-1"])),
            88.0,
        ),
        (group("services", "equals", json!(["AmazonEC2"])), 138.0),
        (group("services", "not_equals", json!(["AmazonEC2"])), 104.0),
        (
            group("services", "in", json!(["AmazonS3", "Compute Engine"])),
            84.0,
        ),
        (
            group("services", "not_in", json!(["AmazonEC2", "AmazonS3"])),
            84.0,
        ),
        (group("cloud_providers", "equals", json!(["AWS"])), 162.0),
        (group("cloud_providers", "equals", json!("gcp")), 64.0),
        (group("cloud_providers", "not_equals", json!(["aws"])), 80.0),
        (
            group("cloud_providers", "in", json!(["GCP", "Azure"])),
            80.0,
        ),
        (
            group("cloud_providers", "not_in", json!(["GCP", "Azure"])),
            162.0,
        ),
        (group("cost_types", "equals", json!(["Tax"])), 8.0),
        (group("cost_types", "not_equals", json!(["Usage"])), -2.0),
        (group("cost_types", "in", json!(["Tax", "Credit"])), -2.0),
        (
            group("cost_types", "not_in", json!(["Tax", "Credit"])),
            244.0,
        ),
        (
            group("usage_types", "equals", json!(["BoxUsage:m5.large"])),
            100.0,
        ),
        (
            group("usage_types", "not_equals", json!(["BoxUsage:m5.large"])),
            142.0,
        ),
        (
            group("usage_types", "in", json!(["BoxUsage:m5.large", "D2 v3"])),
            116.0,
        ),
        (
            group(
                "usage_types",
                "not_in",
                json!(["BoxUsage:m5.large", "D2 v3"]),
            ),
            126.0,
        ),
        (tag(json!({"key": "team"})), 220.0),
        (
            tag(json!({"key": "env", "value": {"operator": "equals", "values": ["prod"]}})),
            188.0,
        ),
        (
            tag(json!({"key": "env", "value_operator": "not_equals", "values": ["prod"]})),
            54.0,
        ),
        (
            tag(json!({"key": "team", "value": {"operator": "in", "values": ["web", "ml"]}})),
            180.0,
        ),
        (
            tag(json!({"key": "team", "value_operator": "not_in", "values": ["web"]})),
            126.0,
        ),
    ];
    for (filters, expected) in cases {
        assert_eq!(
            total(&app, &token, filters.clone()).await,
            expected,
            "{filters}"
        );
    }
}

#[tokio::test]
async fn conditions_in_a_group_are_anded_and_groups_are_ored() {
    let (app, token) = app_with_standard_data().await;

    let and = json!([{"operator": "AND",
        "cloud_providers": [{"operator": "equals", "values": ["AWS"]}],
        "regions": [{"operator": "equals", "values": ["us-east-1"]}],
        "tags": [{"key": "team", "value": {"operator": "equals", "values": ["web"]}}]}]);
    assert_eq!(total(&app, &token, and).await, 100.0);

    let or = json!([
        {"operator": "AND", "accounts": [{"operator": "equals", "values": ["222222222222"]}]},
        {"operator": "OR", "cloud_providers": [{"operator": "equals", "values": ["GCP"]}]}
    ]);
    assert_eq!(total(&app, &token, or).await, 94.0);
}

#[tokio::test]
async fn skipped_conditions_and_unknown_fields_answer_warnings() {
    let (app, token) = app_with_standard_data().await;

    let filters = json!([
        {"operator": "AND",
         "regions": [{"operator": "equals", "values": []}],
         "services": [{"operator": "", "values": ["AmazonEC2"]}],
         "tags": [{"value": {"operator": "equals", "values": ["prod"]}}],
         "colour": [{"operator": "equals", "values": ["red"]}]},
        {"operator": "OR", "accounts": [{"operator": "equals", "value": "sub-aaaa"}]}
    ]);
    let answer = aggr(&app, &token, json!({ "filters": filters })).await;

    // The first group is left empty and dropped; the second still applies.
    assert_eq!(answer["summary"]["accrued_cost"], 16.0);
    assert_eq!(
        answer["warnings"],
        json!([
            "Filter group 1: ignored unknown field colour",
            "Filter group 1: skipped a regions condition without values",
            "Filter group 1: skipped a services condition without an operator",
            "Filter group 1: skipped a tag condition without a key",
        ])
    );
}

#[tokio::test]
async fn an_unsupported_operator_is_422() {
    let (app, token) = app_with_standard_data().await;

    let body = json!({"start_time": JANUARY.0, "end_time": JANUARY.1,
        "filters": group("regions", "contains", json!(["us"]))});
    assert_invalid(
        app.post("/v2/cost/aggr", Some(&token), &body).await,
        "filters",
        "Operator contains is not supported for field regions",
    )
    .await;
}

#[tokio::test]
async fn groups_by_up_to_four_dimensions_and_rejects_a_fifth_or_an_unknown_one() {
    let (app, token) = app_with_standard_data().await;

    let answer = aggr(
        &app,
        &token,
        json!({"group_by_dimensions": ["service", "account", "region", "cost_type", "service"]}),
    )
    .await;
    let first = &answer["data"][0];
    assert_eq!(
        (
            &first["service"],
            &first["account"],
            &first["region"],
            &first["cost_type"]
        ),
        (
            &json!("AmazonEC2"),
            &json!("111111111111"),
            &json!("us-east-1"),
            &json!("Usage")
        )
    );
    assert_eq!(first["account_name"], "Production");
    assert_eq!(
        first["grouping_path"],
        "AmazonEC2 / 111111111111 / us-east-1 / Usage"
    );
    assert_eq!(first["amount"], 100.0);
    assert_eq!(answer["total_groups"], 8);

    let five = json!({"start_time": JANUARY.0, "end_time": JANUARY.1,
        "group_by_dimensions": ["service", "account", "region", "cost_type", "usage_type"]});
    assert_invalid(
        app.post("/v2/cost/aggr", Some(&token), &five).await,
        "group_by_dimensions",
        "Maximum 4 group by dimensions allowed",
    )
    .await;
    let unknown = json!({"start_time": JANUARY.0, "end_time": JANUARY.1,
        "group_by_dimensions": ["service", "colour"]});
    assert_invalid(
        app.post("/v2/cost/aggr", Some(&token), &unknown).await,
        "group_by_dimensions",
        "Unknown group by dimension colour",
    )
    .await;
    let unknown = json!({"start_time": JANUARY.0, "end_time": JANUARY.1, "group_by": "colour"});
    assert_invalid(
        app.post("/v2/cost/aggr", Some(&token), &unknown).await,
        "group_by",
        "Unknown group by dimension colour",
    )
    .await;
}

#[tokio::test]
async fn every_dimension_is_a_row_field() {
    let (app, token) = app_with_standard_data().await;

    let answer = aggr(
        &app,
        &token,
        json!({"group_by_dimensions": ["cloud_provider", "usage_type"], "limit": 1}),
    )
    .await;

    assert_eq!(
        answer["data"],
        json!([{"cloud_provider": "aws", "usage_type": "BoxUsage:m5.large", "amount": 100.0,
                "grouping_values": ["aws", "BoxUsage:m5.large"],
                "grouping_path": "aws / BoxUsage:m5.large"}])
    );
}

#[tokio::test]
async fn the_hierarchy_form_nests_the_next_dimension_in_children() {
    let (app, token) = app_with_standard_data().await;

    let answer = aggr(
        &app,
        &token,
        json!({"group_by_dimensions": ["cloud_provider", "account"], "group_by_hierarchy": true}),
    )
    .await;

    assert_eq!(
        amounts(&answer),
        pairs(&[("aws", 162.0), ("gcp", 64.0), ("azure", 16.0)])
    );
    assert_eq!(answer["total_groups"], 3);
    let aws = &answer["data"][0];
    assert_eq!(aws["cloud_provider"], "aws");
    assert!(aws.get("account").is_none());
    assert_eq!(
        aws["children"],
        json!([
            {"cloud_provider": "aws", "account": "111111111111", "account_name": "Production",
             "amount": 132.0, "grouping_values": ["aws", "111111111111"],
             "grouping_path": "aws / 111111111111"},
            {"cloud_provider": "aws", "account": "222222222222", "account_name": "Staging",
             "amount": 30.0, "grouping_values": ["aws", "222222222222"],
             "grouping_path": "aws / 222222222222"},
        ])
    );

    let paged = aggr(
        &app,
        &token,
        json!({"group_by_dimensions": ["cloud_provider", "account"], "group_by_hierarchy": true,
               "limit": 1, "offset": 1}),
    )
    .await;
    assert_eq!(amounts(&paged), pairs(&[("gcp", 64.0)]));
    assert_eq!(paged["total_groups"], 3);

    let with_interval = aggr(
        &app,
        &token,
        json!({"group_by_dimensions": ["cloud_provider", "account"], "group_by_hierarchy": true,
               "interval": "monthly"}),
    )
    .await;
    assert!(with_interval["data"][0].get("children").is_none());
    assert_eq!(with_interval["data"][0]["timestamp"], "2026-01-01");
}

#[tokio::test]
async fn weekly_buckets_start_on_monday_but_never_before_the_range() {
    let (app, token) = app_with_standard_data().await;

    let answer = aggr(&app, &token, json!({"interval": "weekly"})).await;

    let expected = [
        ("2026-01-01", 4.0),
        ("2026-01-05", 184.0),
        ("2026-01-12", 40.0),
        ("2026-01-19", -2.0),
        ("2026-01-26", 16.0),
    ];
    let expected: Vec<(String, String, f64)> = expected
        .iter()
        .map(|(day, amount)| ((*day).to_owned(), String::new(), *amount))
        .collect();
    assert_eq!(bucket_amounts(&answer), expected);
}

#[tokio::test]
async fn monthly_and_daily_buckets() {
    let (app, token) = app_with_standard_data().await;

    let monthly = post_ok(
        &app,
        &token,
        "/v2/cost/aggr",
        json!({"start_time": "2025-12-10", "end_time": "2026-02-28", "view_type": "monthly"}),
    )
    .await;
    let buckets: Vec<(String, f64)> = bucket_amounts(&monthly)
        .into_iter()
        .map(|(day, _, amount)| (day, amount))
        .collect();
    assert_eq!(
        buckets,
        pairs(&[
            ("2025-12-10", 50.0),
            ("2026-01-01", 242.0),
            ("2026-02-01", 1000.0)
        ])
    );

    let daily = post_ok(
        &app,
        &token,
        "/v2/cost/aggr",
        json!({"start_time": "2026-01-05", "end_time": "2026-01-07", "interval": "daily",
               "group_by": "cloud_provider"}),
    )
    .await;
    let expected = [
        ("2026-01-05", "aws", 100.0),
        ("2026-01-06", "aws", 20.0),
        ("2026-01-07", "gcp", 64.0),
    ];
    let expected: Vec<(String, String, f64)> = expected
        .iter()
        .map(|(day, key, amount)| ((*day).to_owned(), (*key).to_owned(), *amount))
        .collect();
    assert_eq!(bucket_amounts(&daily), expected);
}

#[tokio::test]
async fn the_cumulative_view_is_a_daily_running_total_per_group() {
    let (app, token) = app_with_standard_data().await;

    let answer = post_ok(
        &app,
        &token,
        "/v2/cost/aggr",
        json!({"start_time": "2026-01-01", "end_time": "2026-01-07", "view_type": "cumulative",
               "group_by": "cloud_provider"}),
    )
    .await;

    let rows = bucket_amounts(&answer);
    let at = |day: &str, key: &str| {
        rows.iter()
            .find(|(d, k, _)| d == day && k == key)
            .map(|(_, _, amount)| *amount)
    };
    assert_eq!(at("2026-01-02", "aws"), Some(4.0));
    assert_eq!(at("2026-01-04", "aws"), Some(4.0));
    assert_eq!(at("2026-01-05", "aws"), Some(104.0));
    assert_eq!(at("2026-01-07", "aws"), Some(124.0));
    assert_eq!(at("2026-01-07", "gcp"), Some(64.0));
}

#[tokio::test]
async fn limit_and_offset_page_over_ranked_groups() {
    let (app, token) = app_with_standard_data().await;

    let page = aggr(
        &app,
        &token,
        json!({"group_by": "service", "limit": 2, "offset": 1}),
    )
    .await;
    assert_eq!(
        amounts(&page),
        pairs(&[("Compute Engine", 64.0), ("AmazonS3", 20.0)])
    );
    assert_eq!(page["total_groups"], 5);
    assert_eq!(page["summary"]["accrued_cost"], JANUARY_BILLED);

    let smallest = aggr(
        &app,
        &token,
        json!({"group_by": "service", "limit": 2, "order_by": "amount", "order_desc": false}),
    )
    .await;
    assert_eq!(
        amounts(&smallest),
        pairs(&[("AmazonCloudWatch", 4.0), ("Virtual Machines", 16.0)])
    );

    // With an interval every bucket of a kept group is returned.
    let top = aggr(
        &app,
        &token,
        json!({"group_by": "service", "limit": 1, "interval": "weekly"}),
    )
    .await;
    let expected = [
        ("2026-01-05", 100.0),
        ("2026-01-12", 40.0),
        ("2026-01-19", -2.0),
    ];
    let expected: Vec<(String, String, f64)> = expected
        .iter()
        .map(|(day, amount)| ((*day).to_owned(), "AmazonEC2".to_owned(), *amount))
        .collect();
    assert_eq!(bucket_amounts(&top), expected);

    for limit in [0, 10_001] {
        let body = json!({"start_time": JANUARY.0, "end_time": JANUARY.1, "limit": limit});
        assert_invalid(
            app.post("/v2/cost/aggr", Some(&token), &body).await,
            "limit",
            "Limit must be between 1 and 10000",
        )
        .await;
    }
}

#[tokio::test]
async fn time_range_messages() {
    let (app, token) = app_with_standard_data().await;

    for (body, message) in [
        (json!({"end_time": "2026-01-31"}), "start_time is required"),
        (json!({"start_time": "2026-01-01"}), "end_time is required"),
        (
            json!({"start_time": "01/01/2026", "end_time": "2026-01-31"}),
            "start_time must be an ISO 8601 date or date-time",
        ),
        (
            json!({"start_time": "2026-01-01", "end_time": "soon"}),
            "end_time must be an ISO 8601 date or date-time",
        ),
        (
            json!({"start_time": "2026-01-31", "end_time": "2026-01-01"}),
            "end_time must not be before start_time",
        ),
    ] {
        assert_error(
            app.post("/v2/cost/aggr", Some(&token), &body).await,
            StatusCode::BAD_REQUEST,
            message,
        )
        .await;
    }
    // RFC 3339 works as well as plain dates; the range is closed.
    let (status, answer) = status_and_json(
        app.post(
            "/v2/cost/aggr",
            Some(&token),
            &json!({"start_time": "2026-01-05T00:00:00.000Z", "end_time": "2026-01-05T00:00:00Z"}),
        )
        .await,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(answer["summary"]["accrued_cost"], 100.0);
}
