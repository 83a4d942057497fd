//! `progress` of `/v1/ingest` jobs: recorded on the job by the worker's progress recorder while a
//! load runs (so any replica answers it), and what it comes to once the load has ended.

use std::sync::Arc;

use chrono::Utc;
use costscope_core::SystemClock;
use costscope_engine::{LoadPhase, LoadProgress};
use costscope_server::jobs::ingest::record_progress;
use costscope_store::{IngestFile, IngestOutcome, IngestUpload, NewIngestJob};
use reqwest::StatusCode;
use serde_json::Value;

use crate::helpers::{spawn_app, status_and_json, TestApp};
use crate::ingest::focus_csv;

async fn job(app: &TestApp, token: &str, id: i64) -> Value {
    let (status, job) =
        status_and_json(app.get(&format!("/v1/ingest/{id}"), Some(token)).await).await;
    assert_eq!(status, StatusCode::OK, "{job}");
    job
}

fn progress(phase: LoadPhase, file_index: usize, rows_read: u64, bytes_read: u64) -> LoadProgress {
    LoadProgress {
        phase,
        file_index,
        files: 2,
        file_name: ["big.csv.gz", "small.csv"][file_index].to_owned(),
        rows_read,
        bytes_read,
        bytes_total: 5_000_000,
    }
}

/// Sends `updates` through the worker's recorder for job `id` and waits until they are stored.
async fn report(app: &TestApp, id: i64, updates: Vec<LoadProgress>) {
    let (callback, writer) = record_progress(app.store.clone(), Arc::new(SystemClock), id, None);
    for update in updates {
        callback(update);
    }
    drop(callback);
    writer.await.unwrap();
}

#[tokio::test]
async fn a_running_loads_progress_is_answered_by_the_job_and_the_history() {
    let app = spawn_app().await;
    let owner = app.signup_owner("Olive Owner", "olive@acme.test").await;
    let token = owner.access_token.as_str();
    let files = [
        IngestFile {
            name: "big.csv.gz".into(),
            bytes: 4_000_000,
            format: None,
            rows: None,
        },
        IngestFile {
            name: "small.csv".into(),
            bytes: 1_000_000,
            format: None,
            rows: None,
        },
    ];
    // A load another server is running (a running job is not taken over by this one's worker
    // before a lease's time has passed).
    let id = app
        .store
        .create_ingest_job(NewIngestJob {
            customer_id: owner.user.customer_id,
            created_by_user_id: Some(owner.user.id),
            created_by: "Olive Owner",
            upload: Some(IngestUpload {
                format: None,
                files: &files,
            }),
            source: None,
            cloud_account_id: None,
            now: Utc::now(),
        })
        .await
        .unwrap();

    let before = job(&app, token, id).await;
    assert_eq!(before["status"], "running");
    let p = &before["progress"];
    assert_eq!(
        (
            &p["phase"],
            &p["rows_read"],
            &p["bytes_read"],
            &p["bytes_total"]
        ),
        (&"reading".into(), &0.into(), &0.into(), &5_000_000.into()),
        "{before}"
    );
    assert_eq!(
        (&p["file_name"], &p["files"]),
        (&"big.csv.gz".into(), &2.into())
    );
    assert!(p.get("updated_at").is_none(), "nothing reported yet: {p}");

    // Mid-way through the first file: only the newest update counts.
    report(
        &app,
        id,
        vec![
            progress(LoadPhase::Reading, 0, 0, 1_000_000),
            progress(LoadPhase::Reading, 0, 0, 1_500_000),
        ],
    )
    .await;
    let reading = job(&app, token, id).await;
    let p = &reading["progress"];
    assert_eq!(
        (
            &p["phase"],
            &p["file_index"],
            &p["rows_read"],
            &p["bytes_read"]
        ),
        (&"reading".into(), &0.into(), &0.into(), &1_500_000.into()),
        "{reading}"
    );
    assert!(p["updated_at"].is_string(), "{p}");

    report(
        &app,
        id,
        vec![progress(LoadPhase::Checking, 1, 120_000, 5_000_000)],
    )
    .await;
    let (status, history) = status_and_json(app.get("/v1/ingest", Some(token)).await).await;
    assert_eq!(status, StatusCode::OK);
    let listed = history
        .as_array()
        .and_then(|jobs| jobs.iter().find(|job| job["id"] == id))
        .unwrap_or_else(|| panic!("job {id} not in {history}"));
    let p = &listed["progress"];
    assert_eq!(
        (
            &p["phase"],
            &p["file_name"],
            &p["rows_read"],
            &p["bytes_read"]
        ),
        (
            &"checking".into(),
            &"small.csv".into(),
            &120_000.into(),
            &5_000_000.into()
        ),
        "{listed}"
    );

    // The load fails: the progress says where it stopped, and a late update changes nothing.
    app.store
        .finish_ingest_job(
            id,
            &IngestOutcome::Failed("small.csv: row 7".into()),
            Utc::now(),
        )
        .await
        .unwrap();
    report(
        &app,
        id,
        vec![progress(LoadPhase::Writing, 1, 120_000, 5_000_000)],
    )
    .await;
    let failed = job(&app, token, id).await;
    let p = &failed["progress"];
    assert_eq!(
        (&p["phase"], &p["rows_read"], &p["file_name"]),
        (&"failed".into(), &120_000.into(), &"small.csv".into()),
        "{failed}"
    );
}

#[tokio::test]
async fn a_finished_upload_says_done_with_every_row_and_byte_read() {
    let app = spawn_app().await;
    let owner = app.signup_owner("Olive Owner", "olive@acme.test").await;
    let content = focus_csv();
    let job = app
        .ingest_files(&owner.access_token, &[("focus.csv", content.clone())])
        .await;
    assert_eq!(job["status"], "succeeded", "{job}");
    let p = &job["progress"];
    assert_eq!(p["phase"], "done", "{job}");
    assert_eq!(p["rows_read"], 4);
    assert_eq!(p["bytes_read"].as_u64(), Some(content.len() as u64));
    assert_eq!(p["bytes_total"].as_u64(), Some(content.len() as u64));
    assert_eq!(
        (&p["files"], &p["file_name"]),
        (&1.into(), &"focus.csv".into())
    );
    assert!(
        p["updated_at"].is_string(),
        "the worker recorded the load's progress: {p}"
    );
}
