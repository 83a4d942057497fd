//! A data directory written by an earlier build (tests/fixtures/upgrade) opens with this build,
//! migrated forward, and answers the same totals.

use std::path::Path;

use costscope_server::cost_engine::CostEngineSetting;
use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::{spawn_app_in, status_and_json};

fn unpack_fixture(into: &Path) {
    let archive =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/upgrade/data-dir.tar.gz");
    let status = std::process::Command::new("tar")
        .arg("-xzf")
        .arg(&archive)
        .arg("-C")
        .arg(into)
        .status()
        .expect("run tar");
    assert!(status.success(), "unpacking {}", archive.display());
}

#[tokio::test]
async fn a_data_dir_from_before_issue_12_answers_the_same_totals() {
    let data_dir = tempfile::tempdir().unwrap();
    unpack_fixture(data_dir.path());

    // The fixture's cost data is its costs.duckdb: DuckDB by nature.
    let app = spawn_app_in(data_dir, |config| {
        config.cost_engine = CostEngineSetting::DuckDb;
    })
    .await;

    let (status, signed_in) = status_and_json(
        app.login("upgrade@costscope.test", "correct-horse-battery")
            .await,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{signed_in}");
    let token = signed_in["access_token"].as_str().unwrap();
    let october = |metric: Option<&str>| {
        let mut body = json!({"start_time": "2026-10-01T00:00:00Z",
                              "end_time": "2026-10-31T23:59:59.999Z", "filters": []});
        if let Some(metric) = metric {
            body["metric"] = json!(metric);
        }
        body
    };

    let (status, billed) = status_and_json(
        app.post("/v2/cost/spend", Some(token), &october(None))
            .await,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{billed}");
    assert_eq!(billed["current_period"]["total_amount"], json!(38.998456));
    assert_eq!(
        billed["current_period"]["cloud_provider"],
        json!({"AWS": 31.875, "Azure": 0.0, "GCP": 7.123456})
    );
    assert_eq!(billed["currency"], "USD");
    let (status, list) = status_and_json(
        app.post("/v2/cost/spend", Some(token), &october(Some("list")))
            .await,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{list}");
    assert_eq!(list["current_period"]["total_amount"], json!(48.0));
    assert_eq!(
        list["current_period"]["cloud_provider"],
        json!({"AWS": 40.0, "Azure": 0.0, "GCP": 8.0})
    );

    let (status, history) = status_and_json(app.get("/v1/ingest", Some(token)).await).await;
    assert_eq!(status, StatusCode::OK, "{history}");
    let upload = &history[0];
    assert_eq!(
        (&upload["id"], &upload["status"], &upload["rows"]),
        (&json!(1), &json!("succeeded"), &json!(4)),
        "{history}"
    );
}
