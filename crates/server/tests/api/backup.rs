//! `costscope backup` and `costscope restore`, run as an operator would, against a running
//! server in the middle of a load.

use std::path::Path;

use reqwest::StatusCode;
use serde_json::{json, Value};

use costscope_server::cost_engine::CostEngineSetting;

use crate::cli_ingest::{costscope, costscope_on_duckdb};
use crate::helpers::{spawn_app, spawn_app_in, status_and_json};
use crate::ingest::{focus_csv, focus_row, HEADER};

/// A command run by `run` ([`costscope`] or [`costscope_on_duckdb`]), off the test's runtime
/// (which also serves the app the command may call).
async fn costscope_beside(
    run: fn(&Path, &[&str]) -> std::process::Output,
    data_dir: &Path,
    args: &[&str],
) -> std::process::Output {
    let data_dir = data_dir.to_path_buf();
    let args: Vec<String> = args.iter().map(|arg| (*arg).to_owned()).collect();
    tokio::task::spawn_blocking(move || {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        run(&data_dir, &args)
    })
    .await
    .unwrap()
}

/// Names DuckDB whatever engine the tests run on.
fn on_duckdb(config: &mut costscope_server::config::Config) {
    config.cost_engine = CostEngineSetting::DuckDb;
}

fn succeeded(output: &std::process::Output) -> bool {
    if !output.status.success() {
        eprintln!(
            "stdout: {}\nstderr: {}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
    }
    output.status.success()
}

/// `rows` AWS rows of another billing account than [`focus_csv`]'s (so neither replaces the
/// other), each billed 1.5.
fn big_csv(rows: usize) -> Vec<u8> {
    let row = focus_row("AWS", "333333333333", 7, ("1.5", "1.5", "2")).replacen(
        "900000000000",
        "800000000000",
        1,
    );
    let mut csv = String::with_capacity((row.len() + 1) * rows + HEADER.len() + 1);
    csv.push_str(HEADER);
    csv.push('\n');
    for _ in 0..rows {
        csv.push_str(&row);
        csv.push('\n');
    }
    csv.into_bytes()
}

/// Rows and billed cost per load id in a cost database file (no server holding it).
fn rows_by_load(cost_database: &Path) -> std::collections::BTreeMap<String, (i64, f64)> {
    let connection = duckdb::Connection::open(cost_database).unwrap();
    let mut statement = connection
        .prepare(
            "SELECT load_id, count(*), sum(billed_cost)::DOUBLE FROM cost_line_items \
             GROUP BY load_id",
        )
        .unwrap();
    let rows = statement
        .query_map([], |row| Ok((row.get(0)?, (row.get(1)?, row.get(2)?))))
        .unwrap();
    rows.map(Result::unwrap).collect()
}

#[tokio::test]
async fn a_backup_taken_during_a_load_restores_every_completed_load_and_nothing_half() {
    // The copy of costs.duckdb in the backup: DuckDB by nature.
    let live = spawn_app_in(tempfile::tempdir().unwrap(), on_duckdb).await;
    let owner = live.signup_owner("Olive Owner", "olive@acme.test").await;
    let token = owner.access_token.clone();
    let first = live
        .ingest_files(&token, &[("focus-2026-10.csv", focus_csv())])
        .await;
    assert_eq!(first["status"], "succeeded", "{first}");
    let (status, queued) = status_and_json(
        live.upload_files(&token, &[("big.csv", big_csv(150_000))], None)
            .await,
    )
    .await;
    assert_eq!(status, StatusCode::ACCEPTED, "{queued}");

    // While the big upload loads.
    let backup_dir = tempfile::tempdir().unwrap();
    let target = backup_dir.path().join("backup");
    let output = costscope_beside(
        costscope_on_duckdb,
        live.data_dir.path(),
        &["backup", "--to", target.to_str().unwrap()],
    )
    .await;
    assert!(succeeded(&output));
    let second = live
        .wait_for_upload(&token, queued["id"].as_i64().unwrap())
        .await;
    assert_eq!(second["status"], "succeeded", "{second}");

    let restored_dir = tempfile::tempdir().unwrap();
    let output = costscope_on_duckdb(
        restored_dir.path(),
        &["restore", "--from", target.to_str().unwrap()],
    );
    assert!(succeeded(&output));
    let in_copy = rows_by_load(&restored_dir.path().join("costs.duckdb"));

    let restored = spawn_app_in(restored_dir, on_duckdb).await;
    let (status, signed_in) = status_and_json(
        restored
            .login("olive@acme.test", crate::helpers::PASSWORD)
            .await,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{signed_in}");
    let token = signed_in["access_token"].as_str().unwrap();
    let (status, history) = status_and_json(restored.get("/v1/ingest", Some(token)).await).await;
    assert_eq!(status, StatusCode::OK, "{history}");
    let jobs: Vec<Value> = history.as_array().cloned().unwrap_or_else(|| {
        history["uploads"]
            .as_array()
            .cloned()
            .expect("a list of uploads")
    });
    let job = |id: &Value| {
        jobs.iter()
            .find(|job| job["id"] == *id)
            .cloned()
            .unwrap_or(Value::Null)
    };

    // The load completed before the backup is whole, with its totals.
    let first_restored = job(&first["id"]);
    assert_eq!(first_restored["status"], "succeeded", "{first_restored}");
    assert_eq!(first_restored["rows"], 4);
    let (rows, billed) = in_copy[&first["id"].to_string()];
    assert_eq!(rows, 4);
    assert!((billed - 38.998456).abs() < 1e-6, "{billed}");
    // The load in flight is either whole and completed, or absent and not completed.
    let second_restored = job(&queued["id"]);
    match in_copy.get(&queued["id"].to_string()) {
        Some((rows, billed)) => {
            assert_eq!(*rows, 150_000);
            assert!((billed - 225_000.0).abs() < 1e-6, "{billed}");
            assert_eq!(second_restored["status"], "succeeded", "{second_restored}");
            assert_eq!(second_restored["rows"], 150_000);
        }
        None => assert_ne!(second_restored["status"], "succeeded", "{second_restored}"),
    }
}

#[tokio::test]
async fn a_stopped_data_dir_is_backed_up_by_the_command_itself_and_restored() {
    let data_dir = tempfile::tempdir().unwrap();
    assert!(succeeded(&costscope(data_dir.path(), &["migrate"])));
    let output = costscope(
        data_dir.path(),
        &[
            "user",
            "create",
            "--email",
            "ops@acme.test",
            "--name",
            "Ops",
            "--password",
            crate::helpers::PASSWORD,
        ],
    );
    assert!(succeeded(&output));
    // The key that encrypts stored connection secrets travels with the backup.
    std::fs::write(data_dir.path().join("secrets.key"), "generated-secrets-key").unwrap();
    let target = tempfile::tempdir().unwrap();
    let target_dir = target.path().join("copy");

    assert!(succeeded(&costscope(
        data_dir.path(),
        &["backup", "--to", target_dir.to_str().unwrap()]
    )));
    let restored = tempfile::tempdir().unwrap();
    assert!(succeeded(&costscope(
        restored.path(),
        &["restore", "--from", target_dir.to_str().unwrap()]
    )));

    assert_eq!(
        std::fs::read_to_string(restored.path().join("secrets.key")).unwrap(),
        "generated-secrets-key"
    );
    let app = spawn_app_in(restored, |_| {}).await;
    let response = app.login("ops@acme.test", crate::helpers::PASSWORD).await;
    assert_eq!(response.status(), StatusCode::OK);
}

#[tokio::test]
async fn a_backup_refuses_a_non_empty_directory_and_a_restore_a_running_servers_data_dir() {
    let live = spawn_app_in(tempfile::tempdir().unwrap(), |_| {}).await;
    let occupied = tempfile::tempdir().unwrap();
    std::fs::write(occupied.path().join("notes.txt"), "keep me").unwrap();

    let output = costscope_beside(
        costscope,
        live.data_dir.path(),
        &["backup", "--to", occupied.path().to_str().unwrap()],
    )
    .await;
    assert!(!output.status.success());
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("is not empty"),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );

    let target = occupied.path().join("backup");
    assert!(succeeded(
        &costscope_beside(
            costscope,
            live.data_dir.path(),
            &["backup", "--to", target.to_str().unwrap()]
        )
        .await
    ));
    let output = costscope_beside(
        costscope,
        live.data_dir.path(),
        &["restore", "--from", target.to_str().unwrap()],
    )
    .await;
    assert!(!output.status.success());
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("in use by a running Costscope server"),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[tokio::test]
async fn the_ops_backup_route_needs_the_servers_token() {
    // On PostgreSQL when COSTSCOPE_TEST_POSTGRES_URL is set: then only the cost database is
    // copied (the metadata is pg_dump's).
    let live = spawn_app().await;
    let postgres = std::env::var_os("COSTSCOPE_TEST_POSTGRES_URL").is_some();
    let token_file = live.data_dir.path().join("ops.token");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&token_file).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    let target = tempfile::tempdir().unwrap();
    let body = json!({"to": target.path().join("b")});

    for presented in ["", "not-the-token"] {
        let response = live
            .client
            .post(live.url("/ops/backup"))
            .header("x-costscope-ops-token", presented)
            .json(&body)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::NOT_FOUND);
    }
    assert!(!target.path().join("b").exists());

    let token = std::fs::read_to_string(token_file).unwrap();
    let response = live
        .client
        .post(live.url("/ops/backup"))
        .header("x-costscope-ops-token", token.trim())
        .json(&body)
        .send()
        .await
        .unwrap();
    let (status, manifest) = status_and_json(response).await;
    assert_eq!(status, StatusCode::OK, "{manifest}");
    assert!(target.path().join("b/costscope-backup.json").is_file());
    // Cost data in ClickHouse is not copied (ClickHouse's tools back it up).
    let (cost_engine, cost_files) = if crate::engine_under_test::on_clickhouse() {
        ("clickhouse", vec![])
    } else {
        ("duckdb", vec!["costs.duckdb"])
    };
    assert_eq!(manifest["costEngine"], cost_engine, "{manifest}");
    let metadata_files = if postgres {
        assert_eq!(manifest["metadata"], "postgresql", "{manifest}");
        vec![]
    } else {
        assert_eq!(manifest["metadata"], "sqlite", "{manifest}");
        vec!["costscope.db"]
    };
    let files = [metadata_files, cost_files, vec!["secrets.key"]].concat();
    assert_eq!(manifest["files"], json!(files), "{manifest}");
}

#[tokio::test]
async fn a_signed_in_owner_or_user_cannot_reach_the_ops_backup_route() {
    // The route is the operator's, not a tenant's: a bearer token of any tenant and role is no
    // substitute for the server's ops token, and nothing is written.
    let live = spawn_app().await;
    let owner = live.signup_owner("Olga Owner", "olga@a.test").await;
    let user = live
        .add_member(&owner.access_token, "Uma User", "uma@a.test", "User")
        .await;
    let other_tenant = live.signup_owner("Bob Owner", "bob@b.test").await;
    let target = tempfile::tempdir().unwrap();
    let body = json!({"to": target.path().join("b")});
    for bearer in [
        &owner.access_token,
        &user.access_token,
        &other_tenant.access_token,
    ] {
        let response = live
            .client
            .post(live.url("/ops/backup"))
            .bearer_auth(bearer)
            .json(&body)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::NOT_FOUND);
    }
    assert!(!target.path().join("b").exists());
}
