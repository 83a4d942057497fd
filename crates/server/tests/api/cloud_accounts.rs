//! Cloud accounts over HTTP (spec 2 §5 AWS, §6, §7 AWS accounts, issue 13): registration with
//! every validation message, roles and the demo rule, another tenant's ids, idempotent
//! re-registration, removal, "Sync now", the onboarding template and the registration job. The
//! check's source is an in-test one here (its answer set per test, through
//! `AppState.sources`); `cloud_accounts_aws.rs` runs the whole path against moto.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_trait::async_trait;
use costscope_connectors::{
    BillingExportSource, ExportPeriod, FetchLimits, FetchedFile, SourceError,
};
use costscope_core::SystemClock;
use costscope_server::cloud::sources::SourceFactory;
use costscope_server::onboarding::{register_customer, Registration};
use costscope_server::state::AppState;
use costscope_store::{CloudConnection, NewCloudConnection};
use reqwest::{Response, StatusCode};
use serde_json::{json, Value};

use crate::cost_fixture::{FocusCsv, Line};
use crate::helpers::{
    assert_error, assert_invalid, spawn_app_with, status_and_json, TestApp, PASSWORD,
};

pub const MANAGERS_ONLY: &str = "Only account owners and admins can manage cloud accounts";
pub const NOT_IN_DEMO: &str = "Cloud accounts cannot be changed in the demo";

/// What the in-test source's `check()` answers, for every connection.
#[derive(Debug)]
pub struct FakeCheck {
    outcome: Mutex<Result<String, SourceError>>,
    /// Checks made, by connection account id.
    pub checked: Arc<Mutex<Vec<String>>>,
}

impl FakeCheck {
    pub fn new() -> Arc<Self> {
        Arc::new(Self {
            outcome: Mutex::new(Ok("Found 2 billing periods".to_owned())),
            checked: Arc::new(Mutex::new(Vec::new())),
        })
    }

    pub fn answer(&self, outcome: Result<&str, &str>) {
        *self.outcome.lock().unwrap() = outcome.map(str::to_owned).map_err(SourceError::new);
    }
}

struct FakeSource {
    outcome: Result<String, SourceError>,
    account_id: String,
    checked: Arc<Mutex<Vec<String>>>,
}

#[async_trait]
impl BillingExportSource for FakeSource {
    async fn check(&self) -> Result<String, SourceError> {
        self.checked.lock().unwrap().push(self.account_id.clone());
        self.outcome.clone()
    }

    async fn periods(&self) -> Result<Vec<ExportPeriod>, SourceError> {
        Ok(Vec::new())
    }

    async fn fetch(
        &self,
        _period: &ExportPeriod,
        _dir: &std::path::Path,
        _limits: FetchLimits,
    ) -> Result<Vec<FetchedFile>, SourceError> {
        Ok(Vec::new())
    }
}

#[async_trait]
impl SourceFactory for FakeCheck {
    async fn source(
        &self,
        _state: &AppState,
        connection: &CloudConnection,
    ) -> Result<Box<dyn BillingExportSource>, SourceError> {
        Ok(Box::new(FakeSource {
            outcome: self.outcome.lock().unwrap().clone(),
            account_id: connection.account_id.clone(),
            checked: self.checked.clone(),
        }))
    }
}

/// The app with the in-test source in place of the real connectors.
pub async fn app_with_fake_check() -> (TestApp, Arc<FakeCheck>) {
    let app = spawn_app_with(|config| {
        // Nothing here may reach a real cloud.
        config.cloud.aws_endpoint_url = Some("http://127.0.0.1:9".to_owned());
        config.cloud.bigquery_url = "http://127.0.0.1:9".to_owned();
        config.cloud.azure_authority_url = "http://127.0.0.1:9".to_owned();
    })
    .await;
    let fake = FakeCheck::new();
    app.state.sources.replace(fake.clone());
    (app, fake)
}

pub async fn register(app: &TestApp, token: &str, body: &Value) -> Response {
    app.post("/v1/register", Some(token), body).await
}

pub async fn delete_with_body(app: &TestApp, path: &str, token: &str, body: &Value) -> Response {
    app.client
        .delete(app.url(path))
        .bearer_auth(token)
        .json(body)
        .send()
        .await
        .expect("DELETE")
}

pub async fn accounts(app: &TestApp, token: &str) -> Vec<Value> {
    let (status, body) = status_and_json(app.get("/v1/account", Some(token)).await).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body.as_array().expect("a list").clone()
}

/// Polls the registration job until it is no longer in progress (State 1).
pub async fn finished_job(app: &TestApp, token: &str, account_id: &str) -> Value {
    let deadline = std::time::Instant::now() + Duration::from_secs(150);
    loop {
        let (status, job) = status_and_json(
            app.post(
                "/v1/account/registration/job",
                Some(token),
                &json!({"account_id": account_id}),
            )
            .await,
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{job}");
        if job["State"] != 1 {
            return job;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the registration check of {account_id} is still running: {job}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// A demo customer's owner (`is_demo`), signed in.
pub async fn demo_owner(app: &TestApp) -> String {
    register_customer(
        app.store.as_ref(),
        &SystemClock,
        Registration {
            owner_name: costscope_core::FullName::parse("Demo Owner").unwrap(),
            email: costscope_core::Email::parse("demo-owner@demo.test").unwrap(),
            password: costscope_core::Password::parse(PASSWORD).unwrap(),
            customer_name: Some("Demo".to_owned()),
            is_demo: true,
        },
    )
    .await
    .expect("the demo customer");
    let response = app.login("demo-owner@demo.test", PASSWORD).await;
    assert_eq!(response.status(), StatusCode::OK);
    let body: Value = response.json().await.unwrap();
    body["access_token"].as_str().unwrap().to_owned()
}

const SINGLE: &str = "123456789012";

#[tokio::test]
async fn registering_a_single_account_answers_the_spec_fields_and_the_check_succeeds() {
    let (app, fake) = app_with_fake_check().await;
    let owner = app
        .signup_owner("Olga Owner", "olga@a.test")
        .await
        .access_token;
    let (status, body) = status_and_json(
        register(
            &app,
            &owner,
            &json!({"aws_account_id": SINGLE, "account_name": "Production"}),
        )
        .await,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["Status"], "success");
    assert_eq!(body["accountNumber"], SINGLE);
    assert_eq!(body["OrgId"], Value::Null);
    assert_eq!(
        body["URL"],
        format!(
            "{}/v1/aws/onboarding-template?format=focus-1.2",
            app.state.public_url
        )
    );
    let external_id = body["external_id"].as_str().unwrap();
    assert!(external_id.len() >= 16, "{external_id}");
    let commands = body["StackSetCmds"].as_array().unwrap();
    assert_eq!(commands.len(), 2, "{body}");
    assert!(commands[0]
        .as_str()
        .unwrap()
        .starts_with("aws cloudformation create-stack-set"));
    assert!(commands[0].as_str().unwrap().contains(external_id));
    assert!(commands[1]
        .as_str()
        .unwrap()
        .starts_with("aws cloudformation create-stack-instances"));
    assert!(commands[1].as_str().unwrap().contains(SINGLE));
    assert!(body["details"].as_str().unwrap().contains(SINGLE));

    let job = finished_job(&app, &owner, SINGLE).await;
    assert_eq!(
        job,
        json!({"State": 6, "details": "Found 2 billing periods"})
    );
    assert_eq!(
        fake.checked.lock().unwrap().first().map(String::as_str),
        Some(SINGLE)
    );

    let list = accounts(&app, &owner).await;
    assert_eq!(list.len(), 1, "{list:?}");
    let account = &list[0];
    assert_eq!(account["id"], body["id"]);
    assert_eq!(account["provider"], "aws");
    assert_eq!(account["account_id"], SINGLE);
    assert_eq!(account["aws_account_id"], SINGLE);
    assert_eq!(account["account_name"], "Production");
    assert_eq!(account["connected"], true);
    assert_eq!(
        account["iam_role_arn"],
        "arn:aws:iam::123456789012:role/CostscopeReadOnly"
    );
    assert_eq!(
        account["export"],
        json!({"location": "s3://costscope-exports-123456789012/costscope/costscope-focus",
               "format": "focus-1.2"})
    );
    assert_eq!(account["registration"]["State"], 6);
    assert!(account["registration"]["finished_at"].is_string());
    assert!(account["sync"].is_object());
    assert_eq!(account["organization_id"], Value::Null);
    assert_eq!(account["parent_id"], Value::Null);

    // The same tenant always gets the same external id.
    let (_, again) = status_and_json(
        register(
            &app,
            &owner,
            &json!({"aws_account_id": "210987654321", "account_name": "Staging"}),
        )
        .await,
    )
    .await;
    assert_eq!(again["external_id"], external_id);
}

#[tokio::test]
async fn a_failed_check_is_state_7_with_the_reason_and_restart_runs_it_again() {
    let (app, fake) = app_with_fake_check().await;
    let owner = app
        .signup_owner("Olga Owner", "olga@a.test")
        .await
        .access_token;
    fake.answer(Err(
        "NoSuchBucket: bucket costscope-exports-123456789012 does not exist",
    ));
    let response = register(
        &app,
        &owner,
        &json!({"aws_account_id": SINGLE, "account_name": "Production"}),
    )
    .await;
    assert_eq!(response.status(), StatusCode::OK);
    let job = finished_job(&app, &owner, SINGLE).await;
    assert_eq!(
        job,
        json!({"State": 7,
               "details": "NoSuchBucket: bucket costscope-exports-123456789012 does not exist"})
    );
    // Without restart the last check is answered; with it, a new one runs.
    fake.answer(Ok("Found 1 billing period"));
    assert_eq!(finished_job(&app, &owner, SINGLE).await["State"], 7);
    let (status, restarted) = status_and_json(
        app.post(
            "/v1/account/registration/job",
            Some(&owner),
            &json!({"account_id": SINGLE, "restart": true}),
        )
        .await,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{restarted}");
    assert!(
        restarted["State"] == 1 || restarted["State"] == 6,
        "{restarted}"
    );
    assert_eq!(
        finished_job(&app, &owner, SINGLE).await,
        json!({"State": 6, "details": "Found 1 billing period"})
    );
    assert_eq!(fake.checked.lock().unwrap().len(), 2);
}

#[tokio::test]
async fn every_aws_validation_message() {
    let (app, _fake) = app_with_fake_check().await;
    let owner = app
        .signup_owner("Olga Owner", "olga@a.test")
        .await
        .access_token;
    let cases: [(Value, &str, &str); 14] = [
        (
            json!({"aws_account_id": "12345678901", "account_name": "Prod"}),
            "aws_account_id",
            "AWS Account ID must be exactly 12 digits",
        ),
        (
            json!({"aws_account_id": "12345678901a", "account_name": "Prod"}),
            "aws_account_id",
            "AWS Account ID must be exactly 12 digits",
        ),
        (
            json!({"account_name": "Prod"}),
            "aws_account_id",
            "AWS Account ID must be exactly 12 digits",
        ),
        (
            json!({"aws_account_id": SINGLE, "account_name": "ab"}),
            "account_name",
            "Account name must be longer than 2 characters",
        ),
        (
            json!({"aws_account_id": SINGLE}),
            "account_name",
            "Account name must be longer than 2 characters",
        ),
        (
            json!({"aws_account_id": SINGLE, "organization_id": "r-ab", "organization_name": "Org One"}),
            "organization_id",
            "Organization ID must follow the format: r-[0-9a-z]{4,32}",
        ),
        (
            json!({"aws_account_id": SINGLE, "organization_id": "o-abcd1234", "organization_name": "Org One"}),
            "organization_id",
            "Organization ID must follow the format: r-[0-9a-z]{4,32}",
        ),
        (
            json!({"aws_account_id": SINGLE, "organization_id": "r-ab12", "organization_name": "Or"}),
            "organization_name",
            "Organization name must be longer than 2 characters",
        ),
        (
            json!({"aws_account_id": SINGLE, "account_name": "Prod", "iam_role_arn": "CostscopeReadOnly"}),
            "iam_role_arn",
            "IAM role ARN must look like arn:aws:iam::123456789012:role/CostscopeReadOnly",
        ),
        (
            json!({"aws_account_id": SINGLE, "account_name": "Prod", "export_bucket": "Bad_Bucket"}),
            "export_bucket",
            "Bucket name may contain only lowercase letters, digits, dots and hyphens",
        ),
        (
            json!({"aws_account_id": SINGLE, "account_name": "Prod", "export_prefix": "/costscope"}),
            "export_prefix",
            "Export prefix must not start or end with a slash",
        ),
        (
            json!({"aws_account_id": SINGLE, "account_name": "Prod", "export_name": "a b"}),
            "export_name",
            "Export name must be 1 to 128 letters, digits, underscores or hyphens",
        ),
        (
            json!({"aws_account_id": SINGLE, "account_name": "Prod", "export_region": "mars"}),
            "export_region",
            "Region must be an AWS region code such as us-east-1",
        ),
        (
            json!({"aws_account_id": SINGLE, "account_name": "Prod", "export_format": "csv"}),
            "export_format",
            "Export format must be focus-1.2 or cur-2.0",
        ),
    ];
    for (body, field, message) in cases {
        assert_invalid(register(&app, &owner, &body).await, field, message).await;
    }
    // Every failed field at once.
    let (status, body) = status_and_json(
        register(
            &app,
            &owner,
            &json!({"aws_account_id": "1", "account_name": "x"}),
        )
        .await,
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        body["details"],
        json!({"aws_account_id": ["AWS Account ID must be exactly 12 digits"],
               "account_name": ["Account name must be longer than 2 characters"]})
    );
    // The registration job checks its id too.
    assert_invalid(
        app.post(
            "/v1/account/registration/job",
            Some(&owner),
            &json!({"account_id": "12"}),
        )
        .await,
        "account_id",
        "AWS Account ID must be exactly 12 digits",
    )
    .await;
    // Nothing was registered.
    assert!(accounts(&app, &owner).await.is_empty());
}

#[tokio::test]
async fn manual_settings_and_cur_are_kept_and_registering_again_updates_the_connection() {
    let (app, _fake) = app_with_fake_check().await;
    let owner = app
        .signup_owner("Olga Owner", "olga@a.test")
        .await
        .access_token;
    let (status, first) = status_and_json(
        register(
            &app,
            &owner,
            &json!({"aws_account_id": SINGLE, "account_name": "Production"}),
        )
        .await,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    finished_job(&app, &owner, SINGLE).await;
    let manual = json!({
        "aws_account_id": SINGLE, "account_name": "Production EU",
        "iam_role_arn": "arn:aws:iam::123456789012:role/finops/BillingReader",
        "external_id": "my-own-external-id", "export_bucket": "billing-eu",
        "export_prefix": "exports/daily", "export_name": "cur-daily",
        "export_region": "eu-west-1", "export_format": "cur-2.0"});
    let (status, second) = status_and_json(register(&app, &owner, &manual).await).await;
    assert_eq!(status, StatusCode::OK, "{second}");
    assert_eq!(second["id"], first["id"], "the same connection");
    assert_eq!(second["external_id"], "my-own-external-id");
    assert!(second["URL"].as_str().unwrap().ends_with("format=cur-2.0"));
    assert!(second["StackSetCmds"][0]
        .as_str()
        .unwrap()
        .contains("billing-eu"));
    finished_job(&app, &owner, SINGLE).await;
    let list = accounts(&app, &owner).await;
    assert_eq!(list.len(), 1, "{list:?}");
    assert_eq!(list[0]["account_name"], "Production EU");
    assert_eq!(
        list[0]["iam_role_arn"],
        "arn:aws:iam::123456789012:role/finops/BillingReader"
    );
    assert_eq!(
        list[0]["export"],
        json!({"location": "s3://billing-eu/exports/daily/cur-daily", "format": "cur-2.0"})
    );
    let stored = app
        .store
        .get_connection(
            list[0]["customer_id"].as_i64().unwrap(),
            list[0]["id"].as_i64().unwrap(),
        )
        .await
        .unwrap()
        .unwrap();
    assert_eq!(stored.settings["region"], "eu-west-1");
    assert_eq!(stored.settings["external_id"], "my-own-external-id");
}

#[tokio::test]
async fn plain_users_read_but_only_owners_and_admins_manage() {
    let (app, _fake) = app_with_fake_check().await;
    let owner = app
        .signup_owner("Olga Owner", "olga@a.test")
        .await
        .access_token;
    let admin = app
        .add_member(&owner, "Adam Admin", "adam@a.test", "Admin")
        .await
        .access_token;
    let user = app
        .add_member(&owner, "Ursula User", "ursula@a.test", "User")
        .await
        .access_token;
    let (status, registered) = status_and_json(
        register(
            &app,
            &admin,
            &json!({"aws_account_id": SINGLE, "account_name": "Production"}),
        )
        .await,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "an admin registers: {registered}");
    finished_job(&app, &admin, SINGLE).await;
    let id = registered["id"].as_i64().unwrap();

    // Reading is for everyone.
    assert_eq!(accounts(&app, &user).await.len(), 1);
    for path in ["/v1/gcp/account", "/v1/azure/account"] {
        assert_eq!(app.get(path, Some(&user)).await.status(), StatusCode::OK);
    }
    // Managing is not.
    let refused = [
        register(
            &app,
            &user,
            &json!({"aws_account_id": "210987654321", "account_name": "Other"}),
        )
        .await,
        app.post(
            "/v1/account/registration/job",
            Some(&user),
            &json!({"account_id": SINGLE}),
        )
        .await,
        app.post(&format!("/v1/account/{id}/sync"), Some(&user), &json!({}))
            .await,
        delete_with_body(
            &app,
            "/v1/account",
            &user,
            &json!({"account_ids": [SINGLE]}),
        )
        .await,
        app.post("/v1/gcp/account", Some(&user), &json!({})).await,
        delete_with_body(&app, "/v1/gcp/account", &user, &json!({"account_id": "p"})).await,
        app.post("/v1/azure/account", Some(&user), &json!({})).await,
        delete_with_body(
            &app,
            "/v1/azure/account",
            &user,
            &json!({"account_id": "s"}),
        )
        .await,
        app.get("/v1/aws/onboarding-template", Some(&user)).await,
    ];
    for response in refused {
        assert_error(response, StatusCode::FORBIDDEN, MANAGERS_ONLY).await;
    }
    assert_eq!(accounts(&app, &owner).await.len(), 1, "nothing changed");
    // Without a token: 401.
    assert_eq!(
        app.get("/v1/account", None).await.status(),
        StatusCode::UNAUTHORIZED
    );
}

#[tokio::test]
async fn the_demo_customer_cannot_change_cloud_accounts() {
    let (app, _fake) = app_with_fake_check().await;
    let demo = demo_owner(&app).await;
    let refused = [
        register(
            &app,
            &demo,
            &json!({"aws_account_id": SINGLE, "account_name": "Production"}),
        )
        .await,
        app.post(
            "/v1/account/registration/job",
            Some(&demo),
            &json!({"account_id": SINGLE}),
        )
        .await,
        app.post("/v1/account/1/sync", Some(&demo), &json!({}))
            .await,
        delete_with_body(
            &app,
            "/v1/account",
            &demo,
            &json!({"account_ids": [SINGLE]}),
        )
        .await,
        app.post("/v1/gcp/account", Some(&demo), &json!({})).await,
        delete_with_body(&app, "/v1/gcp/account", &demo, &json!({"account_id": "p"})).await,
        app.post("/v1/azure/account", Some(&demo), &json!({})).await,
        delete_with_body(
            &app,
            "/v1/azure/account",
            &demo,
            &json!({"account_id": "s"}),
        )
        .await,
    ];
    for response in refused {
        assert_error(response, StatusCode::FORBIDDEN, NOT_IN_DEMO).await;
    }
    // Reading still works.
    assert!(accounts(&app, &demo)
        .await
        .iter()
        .all(|a| a["connected"] == false));
}

#[tokio::test]
async fn another_tenants_connections_are_out_of_reach() {
    let (app, _fake) = app_with_fake_check().await;
    let alice = app
        .signup_owner("Alice Alpha", "alice@a.test")
        .await
        .access_token;
    let bob = app
        .signup_owner("Bob Bravo", "bob@b.test")
        .await
        .access_token;
    let (_, registered) = status_and_json(
        register(
            &app,
            &alice,
            &json!({"aws_account_id": SINGLE, "account_name": "Alpha Prod"}),
        )
        .await,
    )
    .await;
    finished_job(&app, &alice, SINGLE).await;
    let id = registered["id"].as_i64().unwrap();

    assert!(accounts(&app, &bob).await.is_empty());
    assert_error(
        app.post(&format!("/v1/account/{id}/sync"), Some(&bob), &json!({}))
            .await,
        StatusCode::NOT_FOUND,
        "Cloud account not found",
    )
    .await;
    assert_error(
        app.post(
            "/v1/account/registration/job",
            Some(&bob),
            &json!({"account_id": SINGLE}),
        )
        .await,
        StatusCode::NOT_FOUND,
        "Cloud account not found",
    )
    .await;
    let (status, deleted) = status_and_json(
        delete_with_body(&app, "/v1/account", &bob, &json!({"account_ids": [SINGLE]})).await,
    )
    .await;
    assert_eq!((status, deleted), (StatusCode::OK, json!({"deleted": 0})));
    assert_eq!(
        accounts(&app, &alice).await.len(),
        1,
        "Alice's account stays"
    );
    // Bob may connect the same AWS account id for himself: a connection of his own.
    let (status, bobs) = status_and_json(
        register(
            &app,
            &bob,
            &json!({"aws_account_id": SINGLE, "account_name": "Bravo Prod"}),
        )
        .await,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_ne!(bobs["id"], registered["id"]);
    assert_ne!(bobs["external_id"], registered["external_id"]);
    finished_job(&app, &bob, SINGLE).await;
    assert_eq!(
        accounts(&app, &alice).await[0]["account_name"],
        "Alpha Prod"
    );
}

#[tokio::test]
async fn removing_accounts_keeps_their_cost_data() {
    let (app, _fake) = app_with_fake_check().await;
    let owner = app
        .signup_owner("Olga Owner", "olga@a.test")
        .await
        .access_token;
    let today = chrono::Utc::now().date_naive().to_string();
    let day: &'static str = Box::leak(today.into_boxed_str());
    let job = app
        .ingest_files(
            &owner,
            &[(
                "focus.csv",
                FocusCsv::new()
                    .line(Line::aws(SINGLE, day, 10.0))
                    .to_csv()
                    .into_bytes(),
            )],
        )
        .await;
    assert_eq!(job["status"], "succeeded", "{job}");
    for (id, name) in [(SINGLE, "Production"), ("210987654321", "Staging")] {
        let response = register(
            &app,
            &owner,
            &json!({"aws_account_id": id, "account_name": name}),
        )
        .await;
        assert_eq!(response.status(), StatusCode::OK);
        finished_job(&app, &owner, id).await;
    }
    assert_eq!(accounts(&app, &owner).await.len(), 2);
    let (status, deleted) = status_and_json(
        delete_with_body(
            &app,
            "/v1/account",
            &owner,
            &json!({"account_ids": [SINGLE, "210987654321", "999999999999"]}),
        )
        .await,
    )
    .await;
    assert_eq!((status, deleted), (StatusCode::OK, json!({"deleted": 2})));
    // The account stays visible from its cost data, no longer connected.
    let list = accounts(&app, &owner).await;
    assert_eq!(list.len(), 1, "{list:?}");
    assert_eq!(list[0]["account_id"], SINGLE);
    assert_eq!(list[0]["connected"], false);
    assert_eq!(list[0]["id"], Value::Null);
    // Too many ids at once.
    let ids: Vec<String> = (0..1001).map(|n| format!("{n:012}")).collect();
    assert_invalid(
        delete_with_body(&app, "/v1/account", &owner, &json!({"account_ids": ids})).await,
        "account_ids",
        "At most 1000 account ids at once",
    )
    .await;
}

#[tokio::test]
async fn sync_now_asks_for_a_sync_of_a_connection_with_an_export() {
    let (app, _fake) = app_with_fake_check().await;
    let owner = app.signup_owner("Olga Owner", "olga@a.test").await;
    let token = owner.access_token.as_str();
    let (_, registered) = status_and_json(
        register(
            &app,
            token,
            &json!({"aws_account_id": SINGLE, "account_name": "Production"}),
        )
        .await,
    )
    .await;
    finished_job(&app, token, SINGLE).await;
    let id = registered["id"].as_i64().unwrap();
    let (status, account) = status_and_json(
        app.post(&format!("/v1/account/{id}/sync"), Some(token), &json!({}))
            .await,
    )
    .await;
    assert_eq!(status, StatusCode::ACCEPTED, "{account}");
    assert_eq!(account["id"], id);
    // Requested, or already picked up by the sync job.
    assert!(
        account["sync"]["requested_at"].is_string() || account["sync"]["state"].is_string(),
        "{account}"
    );

    // A connection without export settings, and one that does not exist.
    let bare = app
        .store
        .create_connection(NewCloudConnection {
            customer_id: owner.user.customer_id,
            provider: "aws",
            account_id: "210987654321",
            account_name: "Bare",
            organization_id: None,
            parent_id: None,
            settings: &json!({}),
            encrypted_secret: None,
            created_by_user_id: None,
            now: chrono::Utc::now(),
        })
        .await
        .unwrap();
    assert_error(
        app.post(
            &format!("/v1/account/{}/sync", bare.id),
            Some(token),
            &json!({}),
        )
        .await,
        StatusCode::CONFLICT,
        "This connection has no billing export to sync",
    )
    .await;
    assert_error(
        app.post("/v1/account/999999/sync", Some(token), &json!({}))
            .await,
        StatusCode::NOT_FOUND,
        "Cloud account not found",
    )
    .await;
    // A member account listed under an organisation has no sync of its own.
    app.store
        .replace_member_accounts(
            owner.user.customer_id,
            id,
            &[costscope_store::MemberAccount {
                account_id: "333333333333".to_owned(),
                account_name: "Member".to_owned(),
            }],
            chrono::Utc::now(),
        )
        .await
        .unwrap();
    let list = accounts(&app, token).await;
    let member = list
        .iter()
        .find(|account| account["account_id"] == "333333333333")
        .expect("the member account");
    assert_eq!(member["parent_id"], id);
    assert_eq!(member["export"], Value::Null);
    assert_error(
        app.post(
            &format!("/v1/account/{}/sync", member["id"]),
            Some(token),
            &json!({}),
        )
        .await,
        StatusCode::NOT_FOUND,
        "Cloud account not found",
    )
    .await;
}

#[tokio::test]
async fn a_connected_accounts_age_counts_from_its_connection_not_its_earliest_charge() {
    let (app, _fake) = app_with_fake_check().await;
    let owner = app
        .signup_owner("Olga Owner", "olga@a.test")
        .await
        .access_token;
    // Charges from three months back, for a connected and a seen-only account.
    let old = (chrono::Utc::now().date_naive() - chrono::Duration::days(90)).to_string();
    let old: &'static str = Box::leak(old.into_boxed_str());
    let data = FocusCsv::new()
        .line(Line::aws(SINGLE, old, 10.0))
        .line(Line::aws("444444444444", old, 5.0));
    let job = app
        .ingest_files(&owner, &[("old.csv", data.to_csv().into_bytes())])
        .await;
    assert_eq!(job["status"], "succeeded", "{job}");
    let before = chrono::Utc::now() - chrono::Duration::seconds(5);
    let response = register(
        &app,
        &owner,
        &json!({"aws_account_id": SINGLE, "account_name": "Production"}),
    )
    .await;
    assert_eq!(response.status(), StatusCode::OK);
    finished_job(&app, &owner, SINGLE).await;
    let list = accounts(&app, &owner).await;
    assert_eq!(list.len(), 2, "{list:?}");
    // Connected first, then seen-only.
    assert_eq!(
        (list[0]["account_id"].as_str(), &list[0]["connected"]),
        (Some(SINGLE), &json!(true))
    );
    assert_eq!(
        (list[1]["account_id"].as_str(), &list[1]["connected"]),
        (Some("444444444444"), &json!(false))
    );
    let connected: chrono::DateTime<chrono::Utc> =
        list[0]["creation_time"].as_str().unwrap().parse().unwrap();
    assert!(connected >= before, "{connected} is the connection time");
    let seen: chrono::DateTime<chrono::Utc> =
        list[1]["creation_time"].as_str().unwrap().parse().unwrap();
    assert_eq!(
        seen.date_naive().to_string(),
        old,
        "the seen-only one: its earliest charge"
    );
}

#[tokio::test]
async fn the_onboarding_template_carries_the_tenants_external_id() {
    let (app, _fake) = app_with_fake_check().await;
    let owner = app
        .signup_owner("Olga Owner", "olga@a.test")
        .await
        .access_token;
    let (_, registered) = status_and_json(
        register(
            &app,
            &owner,
            &json!({"aws_account_id": SINGLE, "account_name": "Production"}),
        )
        .await,
    )
    .await;
    let external_id = registered["external_id"].as_str().unwrap().to_owned();
    for (query, format) in [
        ("", "FOCUS-1.2"),
        ("?format=focus-1.2", "FOCUS-1.2"),
        ("?format=cur-2.0", "CUR-2.0"),
    ] {
        let response = app
            .get(&format!("/v1/aws/onboarding-template{query}"), Some(&owner))
            .await;
        assert_eq!(response.status(), StatusCode::OK);
        assert!(response.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/yaml"));
        assert_eq!(
            response.headers()["content-disposition"],
            "attachment; filename=\"costscope-onboarding.yaml\""
        );
        let template = response.text().await.unwrap();
        assert!(template.contains(&external_id), "the tenant's external id");
        assert!(template.contains("AWSTemplateFormatVersion"));
        assert!(template.contains(format), "{query}: {format}");
    }
    assert_invalid(
        app.get("/v1/aws/onboarding-template?format=csv", Some(&owner))
            .await,
        "export_format",
        "Export format must be focus-1.2 or cur-2.0",
    )
    .await;
    finished_job(&app, &owner, SINGLE).await;
}
