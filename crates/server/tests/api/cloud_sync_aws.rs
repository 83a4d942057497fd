//! The whole AWS path against moto (`costscope_connectors::testing::moto`, installed by
//! `scripts/ensure-moto.sh`; the tests fail, not skip, without it): an account registered over
//! HTTP, the export deployed in moto as the onboarding template would (role, bucket, Data
//! Export deliveries of gzip CSV and Parquet, or a legacy CUR report), "Sync now" over HTTP, and
//! the costs in cost analysis equal to the files, loaded through the real connector (STS
//! AssumeRole, S3 listing, manifests, streamed downloads) and the ingestion.
//!
//! moto checks neither trust policies nor external ids: that every AssumeRole call carries the
//! tenant's external id is unit-tested in the AWS connector.

use std::io::Write;

use chrono::{DateTime, Utc};
use costscope_connectors::settings::AwsExportSettings;
use costscope_connectors::testing::moto::{Moto, MOTO_ACCOUNT_ID};
use costscope_store::{CloudConnection, SyncState};
use reqwest::StatusCode;
use serde_json::json;

use crate::cloud_accounts::{accounts, register};
use crate::cloud_sync::{focus_file, history, month_total};
use crate::cost_fixture::post_ok;
use crate::helpers::{spawn_app_with, status_and_json, TestApp};

const BUCKET: &str = "costscope-exports-123456789012";
const LOCATION: &str = "s3://costscope-exports-123456789012/costscope/costscope-focus";

async fn app_for(moto: &Moto) -> TestApp {
    let endpoint = moto.endpoint().to_owned();
    spawn_app_with(move |config| config.cloud.aws_endpoint_url = Some(endpoint)).await
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

/// The same rows as Parquet, written by DuckDB from the CSV.
fn parquet(csv: &[u8]) -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let (input, output) = (dir.path().join("in.csv"), dir.path().join("out.parquet"));
    std::fs::write(&input, csv).unwrap();
    let db = duckdb::Connection::open_in_memory().unwrap();
    db.execute_batch(&format!(
        "COPY (SELECT * FROM read_csv('{}')) TO '{}' (FORMAT parquet)",
        input.display(),
        output.display()
    ))
    .unwrap();
    std::fs::read(output).unwrap()
}

/// Registers moto's account with the template's defaults; answers the owner's token, the
/// customer id, the connection and the tenant's external id.
async fn registered(app: &TestApp) -> (String, i64, CloudConnection, String) {
    let owner = app.signup_owner("Olga Owner", "olga@a.test").await;
    let (status, answer) = status_and_json(
        register(
            app,
            &owner.access_token,
            &json!({"aws_account_id": MOTO_ACCOUNT_ID, "account_name": "Production"}),
        )
        .await,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let customer_id = owner.user.customer_id;
    let connection = app
        .store
        .find_connection(customer_id, "aws", MOTO_ACCOUNT_ID)
        .await
        .unwrap()
        .expect("the registered connection");
    let external_id = answer["external_id"].as_str().unwrap().to_owned();
    (owner.access_token, customer_id, connection, external_id)
}

/// What the onboarding template would create: the role and the bucket. Answers the export's
/// settings.
async fn deploy(moto: &Moto, external_id: &str) -> AwsExportSettings {
    let role = moto.create_role("CostscopeReadOnly", external_id).await;
    moto.create_bucket(BUCKET).await;
    moto.export_settings(&role, external_id, BUCKET, "costscope", "costscope-focus")
}

pub async fn current(app: &TestApp, customer_id: i64, id: i64) -> CloudConnection {
    app.store
        .get_connection(customer_id, id)
        .await
        .unwrap()
        .expect("the connection")
}

/// Waits until no sync of the connection is running or asked for, and at least one ended
/// after `after` (90 s at most).
pub async fn settled_after(
    app: &TestApp,
    customer_id: i64,
    id: i64,
    after: Option<DateTime<Utc>>,
) -> CloudConnection {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(90);
    loop {
        let connection = current(app, customer_id, id).await;
        let sync = &connection.sync;
        if sync.state.is_some()
            && sync.state != Some(SyncState::Running)
            && sync.requested_at.is_none()
            && sync.finished_at > after
        {
            return connection;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the sync has not ended: {sync:?}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

/// Presses "Sync now" over HTTP (202 with the DTO, `requested_at` set) and waits for it.
pub async fn sync_now(app: &TestApp, token: &str, customer_id: i64, id: i64) -> CloudConnection {
    let before = current(app, customer_id, id).await.sync.finished_at;
    let (status, answer) = status_and_json(
        app.post(&format!("/v1/account/{id}/sync"), Some(token), &json!({}))
            .await,
    )
    .await;
    assert_eq!(status, StatusCode::ACCEPTED, "{answer}");
    // Asked for, or already claimed by the woken sync job (which clears the request).
    assert!(
        answer["sync"]["requested_at"].is_string() || answer["sync"]["state"] == "running",
        "{answer}"
    );
    settled_after(app, customer_id, id, before).await
}

pub fn details(connection: &CloudConnection) -> &str {
    assert_eq!(
        connection.sync.state,
        Some(SyncState::Succeeded),
        "{:?}",
        connection.sync
    );
    connection.sync.details.as_deref().unwrap()
}

#[tokio::test]
async fn an_aws_data_export_syncs_into_cost_analysis_to_the_cent_and_only_when_it_changes() {
    let moto = Moto::start();
    let app = app_for(&moto).await;
    let (token, customer_id, connection, external_id) = registered(&app).await;

    // Nothing deployed yet: the sync fails with AWS's reason.
    let first = sync_now(&app, &token, customer_id, connection.id).await;
    assert_eq!(
        first.sync.state,
        Some(SyncState::Failed),
        "{:?}",
        first.sync
    );
    let error = first.sync.error.as_deref().unwrap();
    assert!(error.starts_with("NoSuchBucket"), "{error}");
    assert!(error.contains(BUCKET), "{error}");

    // Deployed, but AWS has delivered nothing yet.
    let settings = deploy(&moto, &external_id).await;
    let empty = sync_now(&app, &token, customer_id, connection.id).await;
    assert_eq!(details(&empty), "No billing data delivered yet");

    // September as gzip CSV (two files), October as Parquet.
    let september = [
        gzip(&focus_file("900000000001", "2026-09", &[10.25, 0.5])),
        gzip(&focus_file("900000000001", "2026-09", &[3.0])),
    ];
    moto.put_data_export(
        &settings,
        "2026-09",
        &[
            ("costscope-focus-00001.csv.gz", &september[0]),
            ("costscope-focus-00002.csv.gz", &september[1]),
        ],
    )
    .await;
    let october = parquet(&focus_file("900000000001", "2026-10", &[100.75, 0.25]));
    moto.put_data_export(
        &settings,
        "2026-10",
        &[("costscope-focus-00001.snappy.parquet", &october)],
    )
    .await;
    let synced = sync_now(&app, &token, customer_id, connection.id).await;
    assert_eq!(details(&synced), "Loaded 2 billing periods (5 rows)");
    assert_eq!(month_total(&app, &token, "2026-09").await, 13.75);
    assert_eq!(month_total(&app, &token, "2026-10").await, 101.0);
    let loads = history(&app, &token).await;
    assert_eq!(loads.len(), 2, "{loads:?}");
    assert_eq!(
        loads[0]["source"],
        format!("AWS sync · {MOTO_ACCOUNT_ID} · {LOCATION} · 2026-10")
    );
    assert_eq!(
        loads[1]["source"],
        format!("AWS sync · {MOTO_ACCOUNT_ID} · {LOCATION} · 2026-09")
    );
    assert_eq!(loads[1]["files"].as_array().unwrap().len(), 2);
    assert_eq!(loads[1]["totals"][0]["billed_cost"], 13.75);
    // The Cloud Accounts page shows what the sync did.
    let listed = accounts(&app, &token).await;
    let shown = listed
        .iter()
        .find(|account| account["id"] == connection.id)
        .unwrap();
    assert_eq!(shown["sync"]["state"], "succeeded", "{shown}");
    assert_eq!(
        shown["sync"]["last_details"],
        "Loaded 2 billing periods (5 rows)"
    );

    // Unchanged manifests: nothing loaded, no new job.
    let unchanged = sync_now(&app, &token, customer_id, connection.id).await;
    assert_eq!(
        details(&unchanged),
        "No new deliveries: 2 billing periods unchanged"
    );
    assert_eq!(history(&app, &token).await.len(), 2);

    // AWS delivers October again (a new execution): it replaces the first delivery.
    let again = gzip(&focus_file("900000000001", "2026-10", &[7.5]));
    moto.put_data_export(
        &settings,
        "2026-10",
        &[("costscope-focus-00001.csv.gz", &again)],
    )
    .await;
    let redelivered = sync_now(&app, &token, customer_id, connection.id).await;
    assert_eq!(
        details(&redelivered),
        "Loaded 1 billing period (1 row), 1 unchanged"
    );
    assert_eq!(month_total(&app, &token, "2026-10").await, 7.5);
    assert_eq!(month_total(&app, &token, "2026-09").await, 13.75);
    let loads = history(&app, &token).await;
    assert_eq!(loads.len(), 3);
    assert_eq!(loads[0]["replaced_rows"], 2, "{}", loads[0]);
}

#[tokio::test]
async fn a_legacy_cur_report_syncs_to_the_same_costs_as_its_upload() {
    let moto = Moto::start();
    let app = app_for(&moto).await;
    let (token, customer_id, connection, external_id) = registered(&app).await;
    let settings = deploy(&moto, &external_id).await;
    let cur = std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../ingest/tests/fixtures/koku/aws_cur_legacy_2023-06-01.csv"),
    )
    .unwrap();
    moto.put_cur_report(
        &settings,
        "2023-06",
        &[("costscope-focus-00001.csv.gz", &gzip(&cur))],
    )
    .await;

    let synced = sync_now(&app, &token, customer_id, connection.id).await;

    // The registration check wakes a first sync of its own once it finds the role deployed;
    // on a loaded machine that sync can see the report before "Sync now" does, which then
    // finds it unchanged. Either way the report is loaded exactly once.
    let said = details(&synced);
    assert!(
        said == "Loaded 1 billing period (3 rows)"
            || said == "No new deliveries: 1 billing period unchanged",
        "{said}"
    );
    let loads = history(&app, &token).await;
    assert_eq!(loads.len(), 1, "{loads:?}");
    assert_eq!(
        loads[0]["source"],
        format!("AWS sync · {MOTO_ACCOUNT_ID} · {LOCATION} · 2023-06")
    );
    assert_eq!(loads[0]["files"][0]["format"], "aws-cur", "{}", loads[0]);
    // The same file uploaded by another tenant: the same costs, to the cent.
    let other = app.signup_owner("Uma Uploader", "uma@b.test").await;
    let uploaded = app
        .ingest_files(&other.access_token, &[("cur.csv", cur.clone())])
        .await;
    assert_eq!(uploaded["status"], "succeeded", "{uploaded}");
    assert_eq!(loads[0]["totals"], uploaded["totals"]);
    let range = json!({"start_time": "2023-06-01", "end_time": "2023-06-30"});
    let synced_costs = post_ok(&app, &token, "/v2/cost/aggr", range.clone()).await;
    let uploaded_costs = post_ok(&app, &other.access_token, "/v2/cost/aggr", range).await;
    assert_eq!(synced_costs["summary"], uploaded_costs["summary"]);
    assert!(
        synced_costs["summary"]["accrued_cost"].as_f64().unwrap() != 0.0,
        "{synced_costs}"
    );
}
