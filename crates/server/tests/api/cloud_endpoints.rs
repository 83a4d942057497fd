//! Custom endpoints are refused by default (`[cloud] allow_custom_endpoints = false`): a GCP
//! key whose token_uri is not Google's, or an Azure export naming its own blob endpoint, would
//! let any tenant's admin make the server send requests into its own network.

use costscope_connectors::testing::bigquery::BigQueryStandIn;
use costscope_core::cloud_accounts::{CUSTOM_BLOB_ENDPOINT_REFUSED, CUSTOM_TOKEN_URI_REFUSED};
use serde_json::json;

use crate::helpers::{assert_invalid, spawn_app_with};

#[tokio::test]
async fn a_key_with_another_token_endpoint_and_a_custom_blob_endpoint_are_refused_by_default() {
    let app = spawn_app_with(|config| config.cloud.allow_custom_endpoints = false).await;
    let owner = app
        .signup_owner("Olivia Owner", "olivia@endpoints.test")
        .await;
    let token = owner.access_token.as_str();
    let standin = BigQueryStandIn::start(Vec::new()).await;

    let response = app
        .post(
            "/v1/gcp/account",
            Some(token),
            &json!({"account_id": standin.project_id(), "account_name": "Data Platform",
                    "subscription_id": "012345-ABCDEF-678901", "secret_key": standin.key_json(),
                    "billing_table": standin.table()}),
        )
        .await;
    assert_invalid(response, "secret_key", CUSTOM_TOKEN_URI_REFUSED).await;

    let response = app
        .post(
            "/v1/azure/account",
            Some(token),
            &json!({"account_id": "8d1f2c3e-0a4b-4c5d-9e6f-7a8b9c0d1e2f",
                    "account_name": "Azure Production", "storage_account": "costexports",
                    "container": "exports", "directory": "daily", "auth": "sas",
                    "sas_token": "sv=2022-11-02&ss=b&sig=abc",
                    "blob_endpoint": "http://169.254.169.254/latest"}),
        )
        .await;
    assert_invalid(response, "blob_endpoint", CUSTOM_BLOB_ENDPOINT_REFUSED).await;

    let (_, list) =
        crate::helpers::status_and_json(app.get("/v1/account", Some(token)).await).await;
    assert_eq!(list, json!([]), "nothing was connected");
}
