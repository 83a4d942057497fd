//! `is_empty` / `is_not_empty` tag conditions of the `/v2/cost/*` filter groups ("untagged for
//! a key"): the standard data set plus one line whose `team` tag is present but empty.
//!
//! `team` per January line (billed): 111111111111 has 4 (no team), 100 (web), 20 (no team),
//! 8 (no tags); 222222222222 has 40 (data), -10 (no tags), 6 (`team: ""`, added here);
//! my-gcp-project 64 (ml); sub-aaaa 16 (web). January total 248.

use serde_json::{json, Value};

use crate::cost_fixture::{
    aggr, amounts, pairs, post_ok, standard_data, total, upload, Line, JANUARY, JANUARY_BILLED,
};
use crate::helpers::{assert_invalid, spawn_app, TestApp};

/// The line whose `team` key is there with an empty value.
const EMPTY_TEAM: f64 = 6.0;
const TOTAL: f64 = JANUARY_BILLED + EMPTY_TEAM;

async fn app_with_an_empty_team_tag() -> (TestApp, String) {
    let app = spawn_app().await;
    let owner = app.signup_owner("Alice Owner", "alice@a.test").await;
    let data = standard_data().line(Line {
        account_name: "Staging",
        tags: r#"{"env":"dev","team":""}"#,
        ..Line::aws("222222222222", "2026-01-15", EMPTY_TEAM)
    });
    upload(&app, &owner.access_token, &data).await;
    (app, owner.access_token)
}

/// One group with one `team` condition written as `tag`.
fn team(tag: Value) -> Value {
    json!([{ "tags": [tag] }])
}

async fn by_account(app: &TestApp, token: &str, filters: Value) -> Vec<(String, f64)> {
    let answer = aggr(
        app,
        token,
        json!({"filters": filters, "group_by_dimensions": ["account"]}),
    )
    .await;
    amounts(&answer)
}

#[tokio::test]
async fn untagged_and_tagged_totals_add_up_to_the_unfiltered_total_by_account() {
    let (app, token) = app_with_an_empty_team_tag().await;
    let untagged = team(json!({"key": "team", "value": {"operator": "is_empty"}}));
    let tagged = team(json!({"key": "team", "value": {"operator": "is_not_empty"}}));

    assert_eq!(total(&app, &token, json!([])).await, TOTAL);
    assert_eq!(total(&app, &token, untagged.clone()).await, 28.0);
    assert_eq!(total(&app, &token, tagged.clone()).await, 220.0);
    // "The key exists" counts the empty value; `is_not_empty` does not.
    assert_eq!(
        total(&app, &token, team(json!({"key": "team"}))).await,
        226.0
    );

    assert_eq!(
        by_account(&app, &token, json!([])).await,
        pairs(&[
            ("111111111111", 132.0),
            ("my-gcp-project", 64.0),
            ("222222222222", 36.0),
            ("sub-aaaa", 16.0),
        ])
    );
    assert_eq!(
        by_account(&app, &token, untagged).await,
        pairs(&[("111111111111", 32.0), ("222222222222", -4.0)])
    );
    assert_eq!(
        by_account(&app, &token, tagged).await,
        pairs(&[
            ("111111111111", 100.0),
            ("my-gcp-project", 64.0),
            ("222222222222", 40.0),
            ("sub-aaaa", 16.0),
        ])
    );
}

#[tokio::test]
async fn both_spellings_and_any_case_and_the_other_cost_calls_agree() {
    let (app, token) = app_with_an_empty_team_tag().await;
    for (tag, expected) in [
        (json!({"key": "team", "value_operator": "is_empty"}), 28.0),
        (
            json!({"key": "team", "value_operator": "IS_NOT_EMPTY"}),
            220.0,
        ),
        // Values sent with these operators are ignored.
        (
            json!({"key": "team", "value_operator": "is_empty", "values": ["web"]}),
            28.0,
        ),
        // A key no line has: every line is untagged for it.
        (json!({"key": "owner", "value_operator": "is_empty"}), TOTAL),
        (
            json!({"key": "owner", "value_operator": "is_not_empty"}),
            0.0,
        ),
    ] {
        assert_eq!(
            total(&app, &token, team(tag.clone())).await,
            expected,
            "{tag}"
        );
    }

    // Combined with other conditions of the group (ANDed) and with other groups (ORed).
    let production_untagged = json!([{
        "accounts": [{"operator": "equals", "values": ["111111111111"]}],
        "tags": [{"key": "team", "value_operator": "is_empty"}]
    }]);
    assert_eq!(total(&app, &token, production_untagged).await, 32.0);
    let untagged_or_ml = json!([
        {"tags": [{"key": "team", "value_operator": "is_empty"}]},
        {"operator": "OR", "tags": [{"key": "team", "value": ["ml"]}]}
    ]);
    assert_eq!(total(&app, &token, untagged_or_ml).await, 92.0);

    let spend = post_ok(
        &app,
        &token,
        "/v2/cost/spend",
        json!({"start_time": JANUARY.0, "end_time": JANUARY.1,
               "filters": team(json!({"key": "team", "value_operator": "is_empty"}))}),
    )
    .await;
    assert_eq!(spend["current_period"]["total_amount"], 28.0, "{spend}");

    let options = post_ok(
        &app,
        &token,
        "/v2/cost/filters",
        json!({"start_date": JANUARY.0, "end_date": JANUARY.1,
               "filters": team(json!({"key": "team", "value_operator": "is_empty"}))}),
    )
    .await;
    assert_eq!(
        options["accounts"],
        json!(["111111111111", "222222222222"]),
        "{options}"
    );

    // `/v1/query` reads the same condition the same way.
    let query = post_ok(
        &app,
        &token,
        "/v1/query",
        json!({"start_time": JANUARY.0, "end_time": JANUARY.1,
               "filters": [{"field": "tags", "tagKey": "team", "operator": "is_empty"}]}),
    )
    .await;
    assert_eq!(query["summary"]["accrued_cost"], 28.0, "{query}");
}

#[tokio::test]
async fn other_operators_keep_their_rules() {
    let (app, token) = app_with_an_empty_team_tag().await;
    for (filters, message) in [
        (
            team(json!({"key": "team", "value": {"operator": "contains"}})),
            "Operator contains is not supported for field tags",
        ),
        (
            json!([{"regions": [{"operator": "is_empty", "values": ["x"]}]}]),
            "Operator is_empty is not supported for field regions",
        ),
    ] {
        let body = json!({"start_time": JANUARY.0, "end_time": JANUARY.1, "filters": filters});
        assert_invalid(
            app.post("/v2/cost/aggr", Some(&token), &body).await,
            "filters",
            message,
        )
        .await;
    }
    // `equals` without values still means "the key exists".
    let exists = team(json!({"key": "team", "value": {"operator": "equals", "values": []}}));
    assert_eq!(total(&app, &token, exists).await, 226.0);
}
