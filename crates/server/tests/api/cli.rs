//! The `costscope` binary's commands, run as a user would.

use chrono::{DateTime, Duration, Utc};
use reqwest::StatusCode;
use serde_json::Value;

use crate::cli_ingest::costscope;
use crate::helpers::{spawn_app_in, spawn_app_with, status_and_json};

#[tokio::test]
async fn user_create_makes_an_owner_who_can_sign_in() {
    let data_dir = tempfile::tempdir().unwrap();
    let output = costscope(
        data_dir.path(),
        &[
            "user",
            "create",
            "--email",
            "ops@acme.test",
            "--name",
            "Ops Person",
            "--password",
            "ops-password",
            "--customer-name",
            "Acme Inc",
        ],
    );
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );

    let app = spawn_app_in(data_dir, |_| {}).await;
    let login = app.login("ops@acme.test", "ops-password").await;
    let (status, session) = status_and_json(login).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(session["user"]["role"], "owner");
    let token = session["access_token"].as_str().unwrap();
    let customer: Value = app
        .get("/v1/customer", Some(token))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(customer["name"], "Acme Inc");
}

#[test]
fn user_create_refuses_invalid_input_with_the_rule_message() {
    let data_dir = tempfile::tempdir().unwrap();
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
            "short",
        ],
    );
    assert!(!output.status.success());
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("Password must be at least 8 characters")
    );
}

#[test]
fn openapi_prints_the_document_without_touching_the_data_dir() {
    let data_dir = tempfile::tempdir().unwrap();
    let output = costscope(&data_dir.path().join("unused"), &["openapi"]);
    assert!(output.status.success());
    let doc: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert!(doc["components"]["schemas"]["AuthResponse"].is_object());
    assert!(!data_dir.path().join("unused").exists());
}

#[test]
fn migrate_creates_the_sqlite_database() {
    let data_dir = tempfile::tempdir().unwrap();
    let output = costscope(data_dir.path(), &["migrate"]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(data_dir.path().join("costscope.db").exists());
}

#[tokio::test]
async fn demo_mode_provides_the_demo_tenant_once_and_renews_its_trial() {
    let data_dir = tempfile::tempdir().unwrap();
    let first = spawn_app_in(data_dir, |config| config.demo = true).await;
    let session: Value = first
        .login("demo@costscope.dev", "costscope-demo")
        .await
        .json()
        .await
        .unwrap();
    let token = session["access_token"].as_str().unwrap().to_owned();
    assert_eq!(session["user"]["name"], "Demo User");
    let customer: Value = first
        .get("/v1/customer", Some(&token))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(customer["name"], "Demo Company");
    assert_eq!(customer["is_demo"], true);

    // Let the trial lapse, then start again on the same data.
    let db_url = format!(
        "sqlite://{}",
        first.data_dir.path().join("costscope.db").display()
    );
    let store = costscope_store::connect(&db_url).await.unwrap();
    let customer_id = customer["id"].as_i64().unwrap();
    store
        .set_trial_end(customer_id, Utc::now() - Duration::days(1))
        .await
        .unwrap();
    store.close().await;

    let second = spawn_app_in(first.data_dir, |config| config.demo = true).await;
    let again: Value = second
        .login("demo@costscope.dev", "costscope-demo")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        again["user"]["id"], session["user"]["id"],
        "still the one demo tenant"
    );
    let renewed: Value = second
        .get(
            "/v1/customer",
            Some(again["access_token"].as_str().unwrap()),
        )
        .await
        .json()
        .await
        .unwrap();
    let trial_end: DateTime<Utc> = renewed["trialEndDate"].as_str().unwrap().parse().unwrap();
    assert!(
        trial_end > Utc::now() + Duration::days(29),
        "trial renewed to 30 days: {trial_end}"
    );
}

#[tokio::test]
async fn without_demo_mode_there_is_no_demo_user() {
    let app = spawn_app_with(|_| {}).await;
    assert_eq!(
        app.login("demo@costscope.dev", "costscope-demo")
            .await
            .status(),
        StatusCode::UNAUTHORIZED
    );
}
