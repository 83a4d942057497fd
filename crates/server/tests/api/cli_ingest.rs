//! `costscope ingest` and `costscope demo`, run as a user would.

use std::path::Path;
use std::process::{Command, Output};

use costscope_server::cost_engine::CostEngineSetting;
use reqwest::StatusCode;
use serde_json::Value;

use crate::helpers::{spawn_app_in, status_and_json};
use crate::ingest::{focus_csv, focus_row, HEADER};

/// `costscope --data-dir DIR ARGS…` on the cost engine under test (`engine_under_test`).
pub(crate) fn costscope(data_dir: &Path, args: &[&str]) -> Output {
    run_costscope(
        data_dir,
        &crate::engine_under_test::command_args(data_dir),
        args,
    )
}

/// `costscope --data-dir DIR --cost-engine duckdb ARGS…`, for tests of DuckDB-only behaviour.
pub(crate) fn costscope_on_duckdb(data_dir: &Path, args: &[&str]) -> Output {
    run_costscope(
        data_dir,
        &["--cost-engine".to_owned(), "duckdb".to_owned()],
        args,
    )
}

fn run_costscope(data_dir: &Path, engine: &[String], args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_costscope"))
        .arg("--data-dir")
        .arg(data_dir)
        .args(engine)
        .args(args)
        .env_remove("COSTSCOPE_DATABASE_URL")
        .env_remove("COSTSCOPE_COST_ENGINE")
        .env_remove("COSTSCOPE_CONFIG")
        .output()
        .expect("run costscope")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

pub(crate) fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// `costscope user create` in `data_dir`: customer 1, owned by ops@acme.test.
pub(crate) fn create_customer(data_dir: &Path) {
    let output = costscope(
        data_dir,
        &[
            "user",
            "create",
            "--email",
            "ops@acme.test",
            "--name",
            "Ops Person",
            "--password",
            "ops-password",
        ],
    );
    assert!(output.status.success(), "{}", stderr(&output));
}

#[tokio::test]
async fn ingest_loads_a_file_prints_the_summary_and_records_the_load() {
    let data_dir = tempfile::tempdir().unwrap();
    create_customer(data_dir.path());
    let file = data_dir.path().join("focus-2026-10.csv");
    std::fs::write(&file, focus_csv()).unwrap();

    let output = costscope(
        data_dir.path(),
        &["ingest", file.to_str().unwrap(), "--customer", "1"],
    );

    assert!(output.status.success(), "{}", stderr(&output));
    let summary = stdout(&output);
    for expected in [
        "Loaded 4 rows (0 rows loaded before were replaced).",
        "focus-2026-10.csv: 4 rows, focus",
        "Billing periods: 2",
        "aws 900000000000: 2026-10 (1 periods)",
        "AWS: 3 rows, billed 31.88 USD, effective 30.50 USD, list 40.00 USD",
        "GCP: 1 rows, billed 7.12 USD, effective 7.12 USD, list 8.00 USD",
    ] {
        assert!(
            summary.contains(expected),
            "{expected:?} missing from:\n{summary}"
        );
    }
    assert!(
        stderr(&output).contains("focus-2026-10.csv"),
        "progress names the file"
    );

    let app = spawn_app_in(data_dir, |_| {}).await;
    let (_, session) = status_and_json(app.login("ops@acme.test", "ops-password").await).await;
    let token = session["access_token"].as_str().unwrap();
    let (status, history) = status_and_json(app.get("/v1/ingest", Some(token)).await).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(history.as_array().unwrap().len(), 1);
    assert_eq!(history[0]["status"], "succeeded");
    assert_eq!(history[0]["created_by"], "command line");
    assert_eq!(history[0]["rows"], 4);
}

#[test]
fn ingest_refuses_a_bad_file_with_its_message() {
    let data_dir = tempfile::tempdir().unwrap();
    create_customer(data_dir.path());
    let bad = focus_row("AWS", "111111111111", 3, ("\"12,5x\"", "10", "12"));
    let file = data_dir.path().join("bad.csv");
    std::fs::write(&file, format!("{HEADER}\n{bad}\n")).unwrap();

    let output = costscope(
        data_dir.path(),
        &["ingest", file.to_str().unwrap(), "--customer", "1"],
    );

    assert!(!output.status.success());
    let message = stderr(&output);
    for part in ["bad.csv", "BilledCost", "12,5x"] {
        assert!(message.contains(part), "{part:?} missing from:\n{message}");
    }
}

#[test]
fn ingest_names_an_unknown_customer_and_format() {
    let data_dir = tempfile::tempdir().unwrap();
    create_customer(data_dir.path());
    let file = data_dir.path().join("focus.csv");
    std::fs::write(&file, focus_csv()).unwrap();
    let path = file.to_str().unwrap();

    let output = costscope(data_dir.path(), &["ingest", path, "--customer", "42"]);
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("Customer 42 not found"),
        "{}",
        stderr(&output)
    );

    let output = costscope(
        data_dir.path(),
        &["ingest", path, "--customer", "1", "--format", "excel"],
    );
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("Unknown format excel; expected one of focus, aws-cur"),
        "{}",
        stderr(&output)
    );
}

#[tokio::test]
async fn ingest_while_a_server_holds_the_data_dir_says_how_to_upload_instead() {
    // The DuckDB file's lock, DuckDB-only by nature (ClickHouse is shared by design).
    let data_dir = tempfile::tempdir().unwrap();
    create_customer(data_dir.path());
    let file = data_dir.path().join("focus.csv");
    std::fs::write(&file, focus_csv()).unwrap();
    let path = data_dir.path().to_owned();
    let app = spawn_app_in(data_dir, |config| {
        config.cost_engine = CostEngineSetting::DuckDb;
    })
    .await;

    let output = costscope_on_duckdb(
        &path,
        &["ingest", file.to_str().unwrap(), "--customer", "1"],
    );

    assert!(!output.status.success());
    let message = stderr(&output);
    assert!(
        message.contains(&format!(
            "The data directory {} is in use by a running Costscope server. Stop it first, or upload through the server",
            path.display()
        )),
        "{message}"
    );
    assert!(message.contains("/v1/ingest"), "{message}");
    drop(app);
}

/// The provider totals lines of a printed summary.
fn totals(summary: &str) -> Vec<String> {
    summary
        .lines()
        .skip_while(|line| *line != "Totals:")
        .skip(1)
        .take_while(|line| line.starts_with("  "))
        .map(str::to_owned)
        .collect()
}

fn loaded_rows(summary: &str) -> (u64, u64) {
    let line = summary
        .lines()
        .find(|line| line.starts_with("Loaded "))
        .expect("a Loaded line");
    let numbers: Vec<u64> = line
        .split(|c: char| !c.is_ascii_digit() && c != ',')
        .filter(|part| !part.is_empty() && *part != ",")
        .map(|part| part.replace(',', "").parse().unwrap())
        .collect();
    (numbers[0], numbers[1])
}

#[tokio::test]
async fn demo_loads_the_demo_data_and_running_it_again_changes_nothing() {
    let data_dir = tempfile::tempdir().unwrap();

    let first = costscope(data_dir.path(), &["demo"]);
    assert!(first.status.success(), "{}", stderr(&first));
    let second = costscope(data_dir.path(), &["demo"]);
    assert!(second.status.success(), "{}", stderr(&second));

    let (first, second) = (stdout(&first), stdout(&second));
    let (rows, replaced) = loaded_rows(&first);
    assert!(rows > 50_000, "{first}");
    assert_eq!(replaced, 0);
    assert_eq!(loaded_rows(&second), (rows, rows), "{second}");
    let first_totals = totals(&first);
    assert_eq!(first_totals.len(), 3, "AWS, GCP and Azure: {first}");
    assert_eq!(totals(&second), first_totals);
    assert!(first.contains("Demo sign-in: demo@costscope.dev / costscope-demo"));

    // The demo tenant signs in and sees both loads in its history.
    let app = spawn_app_in(data_dir, |_| {}).await;
    let (_, session) =
        status_and_json(app.login("demo@costscope.dev", "costscope-demo").await).await;
    let token = session["access_token"].as_str().unwrap();
    let (_, history) = status_and_json(app.get("/v1/ingest", Some(token)).await).await;
    let history: &Vec<Value> = history.as_array().unwrap();
    assert_eq!(history.len(), 2);
    assert!(history
        .iter()
        .all(|job| job["status"] == "succeeded" && job["created_by"] == "demo"));
}
