//! `GET /v1/account`: connected accounts, then the accounts seen in the cost data.

use chrono::Utc;
use costscope_store::NewCloudAccount;
use reqwest::StatusCode;
use serde_json::json;

use crate::cost_fixture::app_with_standard_data;
use crate::helpers::status_and_json;

#[tokio::test]
async fn lists_connected_accounts_then_accounts_seen_in_cost_data() {
    let (app, token) = app_with_standard_data().await;
    let (_, me) = status_and_json(app.get("/v1/auth/me", Some(&token)).await).await;
    let connected = app
        .store
        .add_cloud_account(
            me["customer_id"].as_i64().unwrap(),
            NewCloudAccount {
                provider: "aws",
                account_id: "111111111111",
                account_name: "Prod (connected)",
                now: Utc::now(),
            },
        )
        .await
        .unwrap();

    let (status, accounts) = status_and_json(app.get("/v1/account", Some(&token)).await).await;

    assert_eq!(status, StatusCode::OK);
    let customer_id = me["customer_id"].clone();
    let no_sync = json!({"state": null, "last_started_at": null, "last_finished_at": null,
        "last_error": null, "last_details": null, "requested_at": null, "next_sync_at": null});
    let seen = |provider: &str, account_id: &str, aws: Option<&str>, name: &str, time: &str| {
        json!({"id": null, "provider": provider, "account_id": account_id,
               "aws_account_id": aws, "account_name": name, "creation_time": time,
               "iam_role_arn": null, "customer_id": customer_id, "organization_id": null,
               "parent_id": null, "connected": false, "export": null, "registration": null,
               "sync": no_sync})
    };
    assert_eq!(
        accounts,
        json!([
            // Connected without an export (nothing to sync): no schedule either.
            {"id": connected.id, "provider": "aws", "account_id": "111111111111",
             "aws_account_id": "111111111111", "account_name": "Prod (connected)",
             "creation_time": serde_json::to_value(connected.created_at).unwrap(),
             "iam_role_arn": null, "customer_id": customer_id, "organization_id": null,
             "parent_id": null, "connected": true, "export": null, "registration": null,
             "sync": no_sync},
            seen("aws", "222222222222", Some("222222222222"), "Staging", "2026-01-12T00:00:00Z"),
            seen("gcp", "my-gcp-project", None, "My Project", "2026-01-07T00:00:00Z"),
            seen("azure", "sub-aaaa", None, "Azure Sub", "2026-01-31T00:00:00Z"),
        ])
    );
}
