//! GCP projects over HTTP (spec 2 §5 GCP, §7 GCP, issue 13): every validation message, the key
//! stored encrypted and never answered, the registration check against the local BigQuery
//! stand-in (`costscope_connectors::testing::bigquery`: the token endpoint and `jobs.query`),
//! a project connected twice, removal.

use std::time::Duration;

use costscope_connectors::gcp::ServiceAccountKey;
use costscope_connectors::testing::bigquery::BigQueryStandIn;
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::cloud_accounts::{accounts, delete_with_body};
use crate::helpers::{assert_error, assert_invalid, spawn_app_with, status_and_json, TestApp};

const INVALID_KEY: &str = "Invalid JSON file. Please upload a valid service account key file.";

async fn app_with(standin: &BigQueryStandIn) -> TestApp {
    let url = standin.url();
    spawn_app_with(move |config| {
        config.cloud.bigquery_url = url;
        config.cloud.aws_endpoint_url = Some("http://127.0.0.1:9".to_owned());
    })
    .await
}

fn connect_body(standin: &BigQueryStandIn, key: &str) -> Value {
    json!({"account_id": standin.project_id(), "account_name": "Data Platform",
           "subscription_id": "012345-ABCDEF-678901", "secret_key": key,
           "billing_table": standin.table()})
}

/// Polls `GET /v1/gcp/account` until the project's check is no longer in progress.
async fn finished_check(app: &TestApp, token: &str, project: &str) -> Value {
    let deadline = std::time::Instant::now() + Duration::from_secs(150);
    loop {
        let (status, list) = status_and_json(app.get("/v1/gcp/account", Some(token)).await).await;
        assert_eq!(status, StatusCode::OK, "{list}");
        let item = list
            .as_array()
            .unwrap()
            .iter()
            .find(|item| item["account_id"] == project)
            .cloned()
            .unwrap_or_else(|| panic!("{project} is not listed: {list}"));
        if item["registration"]["State"] != 1 {
            return item;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the check of {project} is still running: {item}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The private key's body lines (none may appear in any answer).
fn key_fragments(key_json: &str) -> Vec<String> {
    let key: Value = serde_json::from_str(key_json).unwrap();
    key["private_key"]
        .as_str()
        .unwrap()
        .lines()
        .filter(|line| !line.starts_with("-----") && line.len() > 20)
        .map(str::to_owned)
        .collect()
}

fn assert_no_secret(text: &str, key_json: &str) {
    assert!(
        !text.contains("PRIVATE KEY"),
        "an answer shows the key: {text}"
    );
    for fragment in key_fragments(key_json) {
        assert!(!text.contains(&fragment), "an answer shows the key: {text}");
    }
}

#[tokio::test]
async fn connecting_a_project_checks_bigquery_and_never_answers_the_key() {
    let standin = BigQueryStandIn::start(Vec::new()).await;
    let app = app_with(&standin).await;
    let owner = app.signup_owner("Olga Owner", "olga@a.test").await;
    let token = owner.access_token.as_str();
    let key = standin.key_json();
    let response = app
        .post(
            "/v1/gcp/account",
            Some(token),
            &connect_body(&standin, &key),
        )
        .await;
    assert_eq!(response.status(), StatusCode::CREATED);
    let text = response.text().await.unwrap();
    assert_no_secret(&text, &key);
    let created: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(created["account_id"], standin.project_id());
    assert_eq!(created["account_name"], "Data Platform");
    assert_eq!(created["subscription_id"], "012345-ABCDEF-678901");
    assert_eq!(created["billing_table"], standin.table());
    assert_eq!(created["billing_project_id"], Value::Null);
    assert!(created["id"].is_i64());
    assert!(created["created_at"].is_string());
    assert!(created.get("secret_key").is_none());

    let item = finished_check(&app, token, &standin.project_id()).await;
    assert_eq!(item["registration"]["State"], 6, "{item}");
    assert!(
        standin.token_requests() >= 1,
        "the key was exchanged for a token"
    );

    // No answer shows the key; at rest it is encrypted.
    for path in ["/v1/gcp/account", "/v1/account"] {
        let text = app.get(path, Some(token)).await.text().await.unwrap();
        assert_no_secret(&text, &key);
    }
    let list = accounts(&app, token).await;
    assert_eq!(list[0]["provider"], "gcp");
    assert_eq!(list[0]["connected"], true);
    assert_eq!(
        list[0]["export"],
        json!({"location": standin.table(), "format": "bigquery-billing-export"})
    );
    let id = created["id"].as_i64().unwrap();
    let stored = app
        .store
        .connection_secret(owner.user.customer_id, id)
        .await
        .unwrap()
        .expect("a stored secret");
    assert!(stored.starts_with("v1:"), "encrypted");
    assert!(!stored.contains("PRIVATE"));
    assert_eq!(app.state.secrets.decrypt(&stored).unwrap(), key);

    // Connected twice: 409.
    assert_error(
        app.post(
            "/v1/gcp/account",
            Some(token),
            &connect_body(&standin, &key),
        )
        .await,
        StatusCode::CONFLICT,
        &format!("GCP project {} is already connected", standin.project_id()),
    )
    .await;

    // Removal.
    let (status, deleted) = status_and_json(
        delete_with_body(
            &app,
            "/v1/gcp/account",
            token,
            &json!({"account_id": standin.project_id()}),
        )
        .await,
    )
    .await;
    assert_eq!((status, deleted), (StatusCode::OK, json!({"deleted": 1})));
    let (_, list) = status_and_json(app.get("/v1/gcp/account", Some(token)).await).await;
    assert_eq!(list, json!([]));
}

#[tokio::test]
async fn a_key_the_token_endpoint_refuses_fails_the_check_with_the_reason() {
    let standin = BigQueryStandIn::start(Vec::new()).await;
    let app = app_with(&standin).await;
    let token = app
        .signup_owner("Olga Owner", "olga@a.test")
        .await
        .access_token;
    let key = standin.foreign_key_json();
    let response = app
        .post(
            "/v1/gcp/account",
            Some(&token),
            &connect_body(&standin, &key),
        )
        .await;
    assert_eq!(response.status(), StatusCode::CREATED);
    let item = finished_check(&app, &token, &standin.project_id()).await;
    assert_eq!(item["registration"]["State"], 7, "{item}");
    let details = item["registration"]["details"].as_str().unwrap();
    assert!(details.contains("invalid_grant"), "{details}");
    assert_no_secret(&item.to_string(), &key);
}

#[tokio::test]
async fn every_gcp_validation_message() {
    let standin = BigQueryStandIn::start(Vec::new()).await;
    let app = app_with(&standin).await;
    let token = app
        .signup_owner("Olga Owner", "olga@a.test")
        .await
        .access_token;
    let key = standin.key_json();
    let with = |field: &str, value: Value| {
        let mut body = connect_body(&standin, &key);
        body[field] = value;
        body
    };
    let not_a_service_account = r#"{"type": "authorized_user", "client_id": "x"}"#;
    let expected_key_message = ServiceAccountKey::parse(not_a_service_account)
        .unwrap_err()
        .to_string();
    let mut no_private_key: Value = serde_json::from_str(&key).unwrap();
    no_private_key
        .as_object_mut()
        .unwrap()
        .remove("private_key");
    let cases: Vec<(Value, &str, String)> = vec![
        (
            with("account_id", json!("")),
            "account_id",
            "Project ID is required".to_owned(),
        ),
        (
            with("account_id", json!("   ")),
            "account_id",
            "Project ID is required".to_owned(),
        ),
        (
            with("account_id", json!("p".repeat(501))),
            "account_id",
            "Project ID must be at most 500 characters".to_owned(),
        ),
        (
            with("account_name", json!("n".repeat(501))),
            "account_name",
            "Name must be at most 500 characters".to_owned(),
        ),
        (
            with("secret_key", json!("not json")),
            "secret_key",
            INVALID_KEY.to_owned(),
        ),
        (
            with("secret_key", json!("")),
            "secret_key",
            INVALID_KEY.to_owned(),
        ),
        (
            with("secret_key", json!(not_a_service_account)),
            "secret_key",
            expected_key_message,
        ),
        (
            with("secret_key", json!(no_private_key.to_string())),
            "secret_key",
            "The key file has no \"private_key\"".to_owned(),
        ),
        (
            with("billing_table", json!("dataset.table")),
            "billing_table",
            "Billing export table must be project.dataset.table".to_owned(),
        ),
        (
            with("billing_table", json!("")),
            "billing_table",
            "Billing export table must be project.dataset.table".to_owned(),
        ),
    ];
    for (body, field, message) in cases {
        let response = app.post("/v1/gcp/account", Some(&token), &body).await;
        let text = response.text().await.unwrap();
        assert_no_secret(&text, &key);
        let body: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(body["details"][field], json!([message]), "{body}");
    }
    // An optional name: the project id stands in.
    let response = app
        .post(
            "/v1/gcp/account",
            Some(&token),
            &with("account_name", json!("")),
        )
        .await;
    assert_eq!(response.status(), StatusCode::CREATED);
    let created: Value = response.json().await.unwrap();
    assert_eq!(created["account_name"], standin.project_id());
    finished_check(&app, &token, &standin.project_id()).await;
    assert_invalid(
        app.post(
            "/v1/gcp/account",
            Some(&token),
            &with("billing_project_id", json!("Bad Project")),
        )
        .await,
        "billing_project_id",
        costscope_core::cloud_accounts::GcpBillingProjectId::MESSAGE,
    )
    .await;
}
