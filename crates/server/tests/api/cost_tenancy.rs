//! The cost calls answer only from the caller's customer's rows, and need a token.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::cost_fixture::{app_with_standard_data, post_ok, upload, FocusCsv, Line, JANUARY};
use crate::helpers::{assert_error, status_and_json, TestApp};

const COST_CALLS: [&str; 4] = [
    "/v2/cost/aggr",
    "/v2/cost/filters",
    "/v2/cost/spend",
    "/v1/query",
];

fn range() -> Value {
    json!({"start_time": JANUARY.0, "end_time": JANUARY.1,
           "start_date": JANUARY.0, "end_date": JANUARY.1, "filters": [],
           "group_by": "account", "logic": "and"})
}

/// Every cost answer of `token`'s customer for January (and all data where a call has no range).
async fn everything(app: &TestApp, token: &str) -> Vec<Value> {
    let mut answers = Vec::new();
    for path in COST_CALLS {
        answers.push(post_ok(app, token, path, range()).await);
    }
    for path in ["/v1/cost/filter-parameters", "/v1/account"] {
        let (status, answer) = status_and_json(app.get(path, Some(token)).await).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        answers.push(answer);
    }
    answers
}

#[tokio::test]
async fn a_customer_without_uploads_gets_empty_answers() {
    let (app, _) = app_with_standard_data().await;
    let other = app.signup_owner("Bob Owner", "bob@b.test").await;

    let [aggr, filters, spend, query, parameters, accounts]: [Value; 6] =
        everything(&app, &other.access_token)
            .await
            .try_into()
            .unwrap();

    assert_eq!(aggr["data"], json!([]));
    assert_eq!(aggr["total_groups"], 0);
    assert_eq!(
        aggr["summary"],
        json!({"accrued_cost": 0.0, "accrued_change": null, "previous_cost": 0.0,
               "currency": "USD"})
    );
    assert_eq!(
        filters,
        json!({"accounts": [], "account_names": {}, "accounts_by_provider": {}, "regions": [],
               "services": [], "tags": {}, "cloud_providers": [], "cost_type": [],
               "usage_types": [], "warnings": []})
    );
    assert_eq!(spend["current_period"]["total_amount"], 0.0);
    assert_eq!(
        spend["current_period"]["cloud_provider"],
        json!({"AWS": 0.0, "Azure": 0.0, "GCP": 0.0})
    );
    assert_eq!(
        spend["current_period"]["cost_type"],
        json!({"Credit": 0.0, "Refund": 0.0})
    );
    assert_eq!(
        spend["comparison"],
        json!({"absolute_change": 0.0, "percent_change": null})
    );
    assert_eq!(query["data"], json!([]));
    assert_eq!(
        parameters,
        json!({"accounts": [], "accountNames": {}, "tags": {}, "cloudProviders": [],
               "regions": [], "services": [], "costTypes": []})
    );
    assert_eq!(accounts, json!([]));
}

#[tokio::test]
async fn customers_see_only_their_own_rows_in_every_call() {
    let (app, token_a) = app_with_standard_data().await;
    let before = everything(&app, &token_a).await;
    let owner_b = app.signup_owner("Bob Owner", "bob@b.test").await;
    let mut line = Line::aws("333333333333", "2026-01-10", 7.0);
    line.account_name = "Bob's account";
    line.tags = r#"{"env":"bob"}"#;
    // Same provider, billing account and period as customer A's data: replaces nothing of A's.
    upload(&app, &owner_b.access_token, &FocusCsv::new().line(line)).await;

    assert_eq!(everything(&app, &token_a).await, before);
    let [aggr, filters, spend, query, parameters, accounts]: [Value; 6] =
        everything(&app, &owner_b.access_token)
            .await
            .try_into()
            .unwrap();
    assert_eq!(aggr["data"][0]["account"], "333333333333");
    assert_eq!(aggr["total_groups"], 1);
    assert_eq!(aggr["summary"]["accrued_cost"], 7.0);
    assert_eq!(filters["accounts"], json!(["333333333333"]));
    assert_eq!(filters["tags"], json!({"env": ["bob"]}));
    assert_eq!(spend["current_period"]["total_amount"], 7.0);
    assert_eq!(spend["previous_period"]["total_amount"], 0.0);
    assert_eq!(query["total_groups"], 1);
    assert_eq!(parameters["accounts"], json!(["333333333333"]));
    let account_ids: Vec<&str> = accounts
        .as_array()
        .unwrap()
        .iter()
        .map(|account| account["account_id"].as_str().unwrap())
        .collect();
    assert_eq!(account_ids, ["333333333333"]);
}

#[tokio::test]
async fn every_cost_call_needs_a_token_and_every_role_may_read() {
    let (app, owner_token) = app_with_standard_data().await;

    for path in COST_CALLS {
        assert_error(
            app.post(path, None, &range()).await,
            StatusCode::UNAUTHORIZED,
            "Authentication required",
        )
        .await;
    }
    for path in ["/v1/cost/filter-parameters", "/v1/account"] {
        assert_error(
            app.get(path, None).await,
            StatusCode::UNAUTHORIZED,
            "Authentication required",
        )
        .await;
    }

    let member = app
        .add_member(&owner_token, "Uma User", "uma@a.test", "User")
        .await;
    assert_eq!(
        everything(&app, &member.access_token).await,
        everything(&app, &owner_token).await
    );
}
