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
    assert_eq!(
        accounts,
        json!([
            {"id": connected.id, "provider": "aws", "account_id": "111111111111",
             "aws_account_id": "111111111111", "account_name": "Prod (connected)",
             "creation_time": serde_json::to_value(connected.created_at).unwrap()},
            {"id": null, "provider": "aws", "account_id": "222222222222",
             "aws_account_id": "222222222222", "account_name": "Staging",
             "creation_time": "2026-01-12T00:00:00Z"},
            {"id": null, "provider": "gcp", "account_id": "my-gcp-project",
             "aws_account_id": null, "account_name": "My Project",
             "creation_time": "2026-01-07T00:00:00Z"},
            {"id": null, "provider": "azure", "account_id": "sub-aaaa",
             "aws_account_id": null, "account_name": "Azure Sub",
             "creation_time": "2026-01-31T00:00:00Z"},
        ])
    );
}
