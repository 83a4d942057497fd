use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::{spawn_app, spawn_app_with, status_and_json};

#[tokio::test]
async fn public_config_answers_without_a_token_with_the_spec_defaults() {
    let app = spawn_app().await;

    let (status, body) = status_and_json(app.get("/v1/auth/config", None).await).await;

    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        body,
        json!({
            "features": { "oldCostDashboard": true, "newCostDashboard": false, "IAMTab": false,
                          "ComplianceTab": false, "DiscoverJobTrigger": false,
                          "SnapshotSuccessTime": true, "missionControlDashboard": true },
            "compliance_customer_ids": [112, 3],
            "support_email": "support@costscope.local",
            "documentation_url": "https://github.com/costscope/costscope/tree/main/docs",
            "max_upload_bytes": 2_147_483_648_u64,
            "allow_signup": true
        })
    );
}

#[tokio::test]
async fn public_config_follows_the_server_configuration() {
    let app = spawn_app_with(|config| {
        config.features.iam_tab = true;
        config.features.old_cost_dashboard = false;
        config.compliance_customer_ids = vec![7];
        config.support_email = "help@acme.test".to_owned();
        config.documentation_url = "https://docs.acme.test".to_owned();
        config.max_upload_bytes = 6 << 30;
        config.allow_signup = false;
    })
    .await;

    let (_, body) = status_and_json(app.get("/v1/auth/config", None).await).await;

    assert_eq!(body["features"]["IAMTab"], true);
    assert_eq!(body["features"]["oldCostDashboard"], false);
    assert_eq!(body["compliance_customer_ids"], json!([7]));
    assert_eq!(body["support_email"], "help@acme.test");
    assert_eq!(body["documentation_url"], "https://docs.acme.test");
    assert_eq!(body["max_upload_bytes"], 6_u64 << 30);
    assert_eq!(body["allow_signup"], false);
}
