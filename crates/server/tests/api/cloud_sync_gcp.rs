//! A GCP project's sync against the BigQuery stand-in (`costscope_connectors::testing::bigquery`:
//! the token endpoint and `jobs.query` / `getQueryResults` with the documented JSON shapes):
//! connected over HTTP with its service-account key, "Sync now", and the month's costs in cost
//! analysis equal to the export's rows.

use costscope_connectors::testing::bigquery::BigQueryStandIn;
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::cloud_sync::{history, month_total};
use crate::cloud_sync_aws::{details, sync_now};
use crate::helpers::{spawn_app_with, status_and_json};

/// One export line of October 2026 costing `cost`, without credits.
fn line(day: u32, service: &str, cost: f64) -> Value {
    json!({
        "billing_account_id": "012345-ABCDEF-678901",
        "service": {"id": "6F81-5844-456A", "description": service},
        "sku": {"id": "CP-COMPUTEENGINE-VMIMAGE-N1", "description": "N1 Predefined Instance Core"},
        "usage_start_time": format!("2026-10-{day:02}T00:00:00Z"),
        "usage_end_time": format!("2026-10-{day:02}T01:00:00Z"),
        "project": {"id": "shop-prod", "name": "Shop", "labels": []},
        "labels": [],
        "location": {"location": "us-central1", "region": "us-central1", "zone": "us-central1-a"},
        "resource": {"name": "vm-1", "global_name": "//compute.googleapis.com/projects/shop-prod/zones/us-central1-a/instances/1"},
        "export_time": format!("2026-10-{:02}T06:00:00Z", day + 1),
        "cost": cost,
        "currency": "USD",
        "usage": {"amount": 3600.0, "unit": "seconds", "amount_in_pricing_units": 1.0, "pricing_unit": "hour"},
        "credits": [],
        "invoice": {"month": "202610"},
        "cost_type": "regular",
        "cost_at_list": cost,
    })
}

#[tokio::test]
async fn a_gcp_billing_export_syncs_into_cost_analysis_to_the_cent() {
    let standin = BigQueryStandIn::start(vec![
        line(1, "Compute Engine", 10.25),
        line(2, "Cloud Storage", 5.0),
    ])
    .await;
    let url = standin.url();
    let app = spawn_app_with(move |config| config.cloud.bigquery_url = url).await;
    let owner = app.signup_owner("Gina Owner", "gina@a.test").await;
    let token = owner.access_token;
    let (status, created) = status_and_json(
        app.post(
            "/v1/gcp/account",
            Some(&token),
            &json!({"account_id": standin.project_id(), "account_name": "Data Platform",
                    "subscription_id": "012345-ABCDEF-678901",
                    "secret_key": standin.key_json(), "billing_table": standin.table()}),
        )
        .await,
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let id = created["id"].as_i64().unwrap();
    let customer_id = owner.user.customer_id;

    let synced = sync_now(&app, &token, customer_id, id).await;

    assert_eq!(details(&synced), "Loaded 1 billing period (2 rows)");
    assert_eq!(month_total(&app, &token, "2026-10").await, 15.25);
    let loads = history(&app, &token).await;
    assert_eq!(loads.len(), 1, "{loads:?}");
    assert_eq!(
        loads[0]["source"],
        format!(
            "GCP sync · {} · {} · 2026-10",
            standin.project_id(),
            standin.table()
        )
    );
    // Nothing new: nothing loaded again.
    let again = sync_now(&app, &token, customer_id, id).await;
    assert_eq!(
        details(&again),
        "No new deliveries: 1 billing period unchanged"
    );
    assert_eq!(history(&app, &token).await.len(), 1);
}
