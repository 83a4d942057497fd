//! A `kill -9` of a real `costscope` process at moments of a load, then a restart: the job's
//! recorded outcome is what the cost engine holds (the load's marker commits with its rows and
//! is read at start-up), and no billing period is ever half replaced. DuckDB's load (its pause
//! points and its one-transaction marker) by nature: every process here names `duckdb`.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use reqwest::StatusCode;
use serde_json::{json, Value};

use costscope_server::cost_engine::CostEngineSetting;

use crate::cli_ingest::{costscope_on_duckdb, create_customer, stderr};
use crate::helpers::{spawn_app_in, status_and_json, stderr_lines, TestApp};
use crate::ingest::{focus_csv, focus_row, HEADER};

/// October's billed total of `focus_csv` (the load before the killed one).
const OLD_TOTAL: f64 = 31.875 + 7.123456;
/// October's billed total of `new_csv`, which replaces the same billing periods.
const NEW_TOTAL: f64 = 100.0 + 200.0;

fn new_csv() -> Vec<u8> {
    let rows = [
        focus_row("AWS", "111111111111", 2, ("100", "100", "100")),
        focus_row("Google Cloud", "my-gcp-project", 5, ("200", "200", "200")),
    ];
    format!("{HEADER}\n{}\n", rows.join("\n")).into_bytes()
}

/// `costscope ingest new.csv` in `data_dir`, stderr piped, paused at `pause` when given.
fn start_ingest(data_dir: &Path, pause: Option<&str>) -> Child {
    let mut command = Command::new(env!("CARGO_BIN_EXE_costscope"));
    command
        .arg("--data-dir")
        .arg(data_dir)
        .args(["--cost-engine", "duckdb", "ingest", "--customer", "1"])
        .arg(data_dir.join("new.csv"))
        .env_remove("COSTSCOPE_DATABASE_URL")
        .env_remove("COSTSCOPE_COST_ENGINE")
        .env_remove("COSTSCOPE_CONFIG")
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    if let Some(pause) = pause {
        command.env("COSTSCOPE_TEST_LOAD_PAUSE", pause);
    }
    command.spawn().expect("run costscope ingest")
}

/// Waits (60 s at most) for the child to say it paused at `moment`.
fn wait_for_pause(child: &mut Child, moment: &str) {
    let receiver = stderr_lines(child);
    let wanted = format!("costscope test pause: {moment}");
    loop {
        match receiver.recv_timeout(Duration::from_secs(60)) {
            Ok(line) if line.contains(&wanted) => return,
            Ok(_) => {}
            Err(error) => panic!("no pause {moment:?}: {error}"),
        }
    }
}

/// A data dir with customer 1 holding `focus_csv` (loaded by the command line) and `new.csv`
/// waiting to be loaded over it.
fn prepared() -> tempfile::TempDir {
    let data_dir = tempfile::tempdir().unwrap();
    create_customer(data_dir.path());
    let old = data_dir.path().join("old.csv");
    std::fs::write(&old, focus_csv()).unwrap();
    let output = costscope_on_duckdb(
        data_dir.path(),
        &["ingest", old.to_str().unwrap(), "--customer", "1"],
    );
    assert!(output.status.success(), "{}", stderr(&output));
    std::fs::write(data_dir.path().join("new.csv"), new_csv()).unwrap();
    data_dir
}

/// Restarts the server on the data dir: October's total and the killed load's job (if it was
/// recorded at all).
async fn after_restart(data_dir: tempfile::TempDir) -> (TestApp, f64, Option<Value>) {
    let app = spawn_app_in(data_dir, |config| {
        config.cost_engine = CostEngineSetting::DuckDb;
    })
    .await;
    let (status, session) = status_and_json(app.login("ops@acme.test", "ops-password").await).await;
    assert_eq!(status, StatusCode::OK, "{session}");
    let token = session["access_token"].as_str().unwrap().to_owned();
    let body = json!({"start_time": "2026-10-01", "end_time": "2026-10-31"});
    let (status, answer) =
        status_and_json(app.post("/v2/cost/aggr", Some(&token), &body).await).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let total = answer["summary"]["accrued_cost"].as_f64().unwrap();
    let (status, history) = status_and_json(app.get("/v1/ingest", Some(&token)).await).await;
    assert_eq!(status, StatusCode::OK, "{history}");
    let job = history
        .as_array()
        .unwrap()
        .iter()
        .find(|job| job["files"][0]["name"] == "new.csv")
        .cloned();
    (app, total, job)
}

fn assert_close(actual: f64, expected: f64) {
    assert!((actual - expected).abs() < 1e-6, "{actual} != {expected}");
}

/// The invariant: a succeeded job and the new rows, or a failed (or never recorded) job and
/// the old rows; never a mix.
fn assert_outcome_matches_engine(total: f64, job: Option<&Value>) {
    match job {
        Some(job) if job["status"] == "succeeded" => {
            assert_close(total, NEW_TOTAL);
            assert_eq!(job["rows"], 2, "{job}");
            assert_eq!(job["replaced_rows"], 4, "{job}");
        }
        Some(job) => {
            assert_eq!(job["status"], "failed", "{job}");
            assert_eq!(job["rows"], 0, "{job}");
            assert_close(total, OLD_TOTAL);
        }
        None => assert_close(total, OLD_TOTAL),
    }
}

#[tokio::test]
async fn a_kill_right_after_the_commit_records_the_load_as_succeeded() {
    let data_dir = prepared();
    let mut child = start_ingest(data_dir.path(), Some("after the load's commit"));
    wait_for_pause(&mut child, "after the load's commit");
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();

    let (_app, total, job) = after_restart(data_dir).await;
    let job = job.expect("the killed load's job");
    assert_eq!(job["status"], "succeeded", "{job}");
    assert_eq!(job["files"][0]["rows"], 2, "{job}");
    assert_eq!(job["files"][0]["format"], "focus", "{job}");
    assert_eq!(job["billing_periods"].as_array().unwrap().len(), 2, "{job}");
    assert_eq!(job["totals"].as_array().unwrap().len(), 2, "{job}");
    assert_outcome_matches_engine(total, Some(&job));
}

#[tokio::test]
async fn a_kill_just_before_the_commit_records_the_load_as_failed_with_the_old_rows_kept() {
    let data_dir = prepared();
    let mut child = start_ingest(data_dir.path(), Some("before the load's commit"));
    wait_for_pause(&mut child, "before the load's commit");
    child.kill().unwrap();
    child.wait().unwrap();

    let (_app, total, job) = after_restart(data_dir).await;
    let job = job.expect("the killed load's job");
    assert_eq!(job["status"], "failed", "{job}");
    assert_eq!(
        job["error"],
        "Interrupted: the server stopped during the load. Upload the files again."
    );
    assert_outcome_matches_engine(total, Some(&job));
}

#[tokio::test]
async fn kills_at_other_moments_leave_the_outcome_equal_to_the_engine() {
    for delay in [150u64, 400, 900] {
        let data_dir = prepared();
        let mut child = start_ingest(data_dir.path(), None);
        std::thread::sleep(Duration::from_millis(delay));
        child.kill().unwrap();
        child.wait().unwrap();
        let (_app, total, job) = after_restart(data_dir).await;
        assert_outcome_matches_engine(total, job.as_ref());
    }
}
