//! The isolation sweep: every operation of the live `/openapi.json` is called (a) as another
//! customer (B) with customer A's ids, and (b) on every mutating operation as A's plain `User`.
//! B never gets a 2xx carrying A's data and never a 5xx; the user gets 403 (or, for the read-only
//! POST calls listed in `USERS_MAY_POST` and their own settings in `OWN_SETTINGS`, an answer);
//! A's data is unchanged afterwards.
//!
//! The operations come from the document, not from a list here: an operation added to the
//! document with a path parameter, a required query parameter or a request body the sweep cannot
//! fill fails the sweep with a message naming what to add, and so does a new operation without
//! `security` that is not in `PUBLIC_BY_DESIGN`. `tenancy.rs` and `cost_tenancy.rs` check the
//! exact answers of a few calls; this sweep checks the breadth.

use chrono::{Datelike, Utc};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::cost_fixture::{FocusCsv, Line};
use crate::helpers::{spawn_app_with, status_and_json, TestApp, PASSWORD};
use costscope_connectors::testing::bigquery::BigQueryStandIn;
use costscope_connectors::testing::teams::TeamsStandIn;

/// Strings that occur only in customer A's data: an answer to B holding one leaks A's data.
const A_MARKERS: [&str; 8] = [
    "alice@a.test",
    "ada@a.test",
    "amy@a.test",
    "Alpha Budget",
    "alpha-upload.csv",
    "424242424242",
    "Alpha Secret",
    "alpha-secret",
];

/// Where the cloud connections of the sweep point: nothing answers there.
const DEAD_ENDPOINT: &str = "http://127.0.0.1:9";
const ALPHA_SUBSCRIPTION: &str = "4a4a4a4a-0000-4000-8000-000000000000";

/// An Azure export connection (SAS token) at [`DEAD_ENDPOINT`].
fn azure(subscription: &str, name: &str, sas: &str) -> Value {
    json!({"account_id": subscription, "account_name": name, "storage_account": "costexports",
           "container": "exports", "directory": "daily", "auth": "sas", "sas_token": sas,
           "blob_endpoint": format!("{DEAD_ENDPOINT}/costexports")})
}

/// Operations without `security` on purpose: what they reveal needs a secret of its own
/// (a password, a refresh token, an invitation token) or is public configuration.
const PUBLIC_BY_DESIGN: [&str; 7] = [
    "GET /v1/auth/config",
    "POST /v1/auth/signup",
    "POST /v1/auth/login",
    "POST /v1/auth/refresh",
    "POST /v1/auth/logout",
    "GET /v1/auth/invitations/{token}",
    "POST /v1/auth/invitations/{token}/accept",
];

/// POST operations that only read (cost queries, inventory queries): a plain user may call them.
const USERS_MAY_POST: [&str; 12] = [
    "POST /v2/cost/aggr",
    "POST /v2/cost/compare",
    "POST /v2/cost/filters",
    "POST /v2/cost/spend",
    "POST /v2/cost/service-categories",
    "POST /v1/query",
    "POST /v1/resource",
    "POST /v1/resource/export",
    "POST /v1/resource/count",
    "POST /v1/resource/property",
    "POST /v1/resource/stats",
    "POST /v1/resource/trend",
];

/// Operations on the caller's own settings (their digest), which every role may change: B and
/// A's user each get their own answer.
const OWN_SETTINGS: [&str; 1] = ["PUT /v1/me/digest"];

/// Operations that start work for the caller's own tenant, which any role may do (spec 2 §4
/// Discovery trigger): B gets its own answer (422: B has no AWS account to discover), A's user a
/// 202 or the 409 of the run A's owner queued first.
const ANY_ROLE_MAY_TRIGGER: [&str; 1] = ["POST /v1/job"];

/// Operations whose id is a secret of the request, refused with 400 when it is not the
/// caller's: the Teams callback's sign-in `state` (another tenant's is unknown here).
const REFUSED_AS_BAD_REQUEST: [&str; 1] = ["POST /v1/api/teams/oauth/callback"];

/// Customer A's ids and sessions, and customer B's owner.
struct World {
    owner_a: String,
    user_a: String,
    owner_b: String,
    admin_a_id: i64,
    budget_a_id: i64,
    upload_a_id: i64,
    connection_a_id: i64,
    standard_tag_a_id: i64,
    channel_a_id: i64,
    /// A's Teams integration (`channel_id` of the Teams routes).
    teams_a_id: i64,
    anomaly_a_id: i64,
    /// A service-account key file (for B's GCP connection).
    gcp_key: String,
}

/// One operation of the document.
struct Operation {
    method: Method,
    path: String,
    operation: Value,
}

impl Operation {
    fn key(&self) -> String {
        format!("{} {}", self.method, self.path)
    }

    fn is_public(&self) -> bool {
        self.operation["security"]
            .as_array()
            .is_none_or(|schemes| schemes.is_empty())
    }

    fn mutates(&self) -> bool {
        !matches!(self.method, Method::GET | Method::HEAD | Method::OPTIONS)
    }

    fn documents(&self, status: u16) -> bool {
        self.operation["responses"]
            .get(status.to_string())
            .is_some()
    }
}

fn operations(document: &Value) -> Vec<Operation> {
    let mut operations = Vec::new();
    for (path, item) in document["paths"].as_object().expect("paths") {
        for (method, operation) in item.as_object().expect("a path item") {
            let Ok(method) = Method::from_bytes(method.to_uppercase().as_bytes()) else {
                continue;
            };
            operations.push(Operation {
                method,
                path: path.clone(),
                operation: operation.clone(),
            });
        }
    }
    operations
}

fn month() -> (String, String) {
    let today = Utc::now().date_naive();
    (today.with_day(1).unwrap().to_string(), today.to_string())
}

fn leak(text: String) -> &'static str {
    Box::leak(text.into_boxed_str())
}

/// A's billing data: one account, service, tag and resource, all marked, dated today.
fn alpha_data() -> FocusCsv {
    let mut line = Line::aws("424242424242", leak(month().1), 123.45);
    line.account_name = "Alpha Secret Account";
    line.service = "AlphaSecretService";
    line.tags = r#"{"alpha-secret":"alpha-secret-value"}"#;
    line.resource_id = "alpha-secret-resource";
    line.resource_name = "alpha-secret-resource";
    line.resource_type = "Instance";
    FocusCsv::new().line(line)
}

/// A's discovered instance: its id is the resource id of A's billing data.
const ALPHA_RESOURCE: &str = "alpha-secret-resource";

/// Records A's inventory: one instance in A's account, tagged with a marker.
async fn seed_alpha_inventory(app: &TestApp, customer_id: i64, connection_id: i64) {
    let instance = costscope_core::inventory::DiscoveredResource {
        account_id: "424242424242".to_owned(),
        region: "us-east-1".to_owned(),
        resource_type: "AWS::EC2::Instance".to_owned(),
        resource_id: ALPHA_RESOURCE.to_owned(),
        arn: None,
        properties: json!({"InstanceId": ALPHA_RESOURCE, "KeyName": "alpha-secret-key"}),
        tags: [("alpha-secret".to_owned(), "alpha-secret-value".to_owned())]
            .into_iter()
            .collect(),
        metrics: None,
    };
    app.store
        .inventory()
        .record_discovery(costscope_store::DiscoveryWrite {
            customer_id,
            connection_id,
            account_id: "424242424242",
            now: Utc::now() - chrono::Duration::days(1),
            complete_scopes: &[],
            resources: &[instance],
        })
        .await
        .expect("A's inventory");
}

/// B's own billing data (for the upload B makes during the sweep).
fn bravo_data() -> FocusCsv {
    FocusCsv::new().line(Line::aws("515151515151", leak(month().1), 7.0))
}

/// The JSON body the sweep sends to an operation, `None` when it has none on record.
fn json_body(world: &World, key: &str) -> Option<Value> {
    let (start, end) = month();
    let range = json!({"start_time": start, "end_time": end, "start_date": start,
                       "end_date": end, "filters": [], "group_by": "account", "logic": "and"});
    let budget = |name: &str| {
        json!({"name": name, "amount": 100.0, "period": "Monthly",
               "filters": [{"filterType": "account", "filterValues": ["515151515151"]}],
               "alerts": [{"thresholdType": "Percentage", "thresholdValue": 80}]})
    };
    Some(match key {
        "POST /v1/auth/signup" => {
            json!({"name": "Sweep Signup", "email": "sweep@c.test", "password": PASSWORD})
        }
        "POST /v1/auth/login" => json!({"email": "alice@a.test", "password": "not-her-password"}),
        "POST /v1/auth/refresh" | "POST /v1/auth/logout" => {
            json!({"refresh_token": "not-a-refresh-token"})
        }
        "POST /v1/auth/invitations/{token}/accept" => {
            json!({"name": "Sweep Acceptor", "password": PASSWORD})
        }
        "POST /v1/users/invite" => json!({"email": "sweep-invitee@b.test", "role": "User"}),
        "PUT /v1/users/{id}/role" => json!({"name": "Hijacked", "role": "Admin"}),
        "PUT /v1/currency" => json!({"displayCurrency": "JPY"}),
        "POST /v1/budgets" => budget("Bravo Budget"),
        "PUT /v1/budgets/{id}" => budget("Hijacked Budget"),
        "POST /v1/register" => {
            json!({"aws_account_id": "515151515151", "account_name": "Bravo Prod"})
        }
        "DELETE /v1/account" => json!({"account_ids": ["424242424242"]}),
        "POST /v1/account/registration/job" => json!({"account_id": "424242424242"}),
        "POST /v1/gcp/account" => json!({"account_id": "bravo-project", "account_name": "Bravo",
            "subscription_id": "", "billing_table": "bravo-project.billing.gcp_billing_export_v1_x",
            "secret_key": world.gcp_key}),
        "DELETE /v1/gcp/account" => json!({"account_id": "alpha-project"}),
        "POST /v1/azure/account" => azure(
            "5b5b5b5b-0000-4000-8000-000000000000",
            "Bravo Export",
            "sv=1&sig=bravo",
        ),
        "DELETE /v1/azure/account" => json!({"account_id": ALPHA_SUBSCRIPTION}),
        "POST /tags/standard" => json!({"key": "bravo-tag", "values": ["b"]}),
        "PUT /tags/standard/{id}" => json!({"key": "hijacked-tag"}),
        "PATCH /v1/anomalies/{id}" => json!({"status": "dismissed"}),
        "PUT /v1/anomalies/settings" => json!({"relativeThreshold": 0.5, "tagKeys": ["bravo"]}),
        "PUT /v1/me/digest" => json!({"frequency": "weekly", "email": false, "channelId": null}),
        "POST /v1/api/teams/oauth/callback" => {
            json!({"code": "sweep-code", "state": "not-a-sign-in-state"})
        }
        "POST /v1/channels" => json!({"type": "webhook", "name": "Bravo Hook",
            "target": format!("{DEAD_ENDPOINT}/bravo-hook")}),
        "POST /v1/resource/property" => json!({"account_ids": ["424242424242"],
            "resource_id": ALPHA_RESOURCE, "resource_type": "AWS::EC2::Instance", "region": "us-east-1"}),
        "POST /v1/resource"
        | "POST /v1/resource/export"
        | "POST /v1/resource/count"
        | "POST /v1/resource/stats"
        | "POST /v1/resource/trend" => json!({}),
        key if USERS_MAY_POST.contains(&key) => range,
        _ => return None,
    })
}

/// The value of a path parameter: one of A's ids (public operations get a made-up secret).
fn path_value(world: &World, path: &str, name: &str) -> String {
    match (path.split('/').nth(2), name) {
        (Some("users"), "id") => world.admin_a_id.to_string(),
        (Some("budgets"), "id") => world.budget_a_id.to_string(),
        (Some("ingest"), "id") => world.upload_a_id.to_string(),
        (Some("account"), "id") => world.connection_a_id.to_string(),
        (Some("standard"), "id") => world.standard_tag_a_id.to_string(),
        (Some("channels"), "id") => world.channel_a_id.to_string(),
        (Some("api"), "channel_id") => world.teams_a_id.to_string(),
        (Some("api"), "team_id") => crate::teams::TEAM_ID.to_owned(),
        (Some("api"), "team_channel_id") => crate::teams::ALERTS_ID.to_owned(),
        (Some("anomalies"), "id") => world.anomaly_a_id.to_string(),
        // A has no inventory here: the id of a recommendation about a volume of A's account.
        (Some("savings"), "id") => {
            "unattached_volume:424242424242:us-east-1:vol-0a1b2c3d".to_owned()
        }
        (Some("auth"), "token") => "not-an-invitation-token".to_owned(),
        _ => panic!(
            "the isolation sweep does not know which of customer A's ids fills {{{name}}} in \
             {path}: add it to path_value()"
        ),
    }
}

/// The value of a query parameter, `None` when the sweep leaves it out.
fn query_value(app: &TestApp, world: &World, name: &str) -> Option<String> {
    let (start, end) = month();
    match name {
        "start_date" | "startDate" | "start" => Some(start),
        "end_date" | "endDate" | "end" => Some(end),
        "limit" | "size" => Some("10".to_owned()),
        "offset" => Some("0".to_owned()),
        "page" => Some("1".to_owned()),
        "resourceType" => Some("AWS::EC2::Instance".to_owned()),
        // The Teams routes: A's integration, and the sign-in's return page.
        "channel_id" => Some(world.teams_a_id.to_string()),
        "redirect_uri" => Some(app.url("/teams-oauth-callback")),
        // `/v1/forecast`: per account, so that a group of A's accounts would show.
        "groupBy" => Some("account".to_owned()),
        _ => None,
    }
}

/// Sends the operation with `token` (none for public ones), A's ids in the path.
async fn call(app: &TestApp, world: &World, op: &Operation, token: Option<&str>) -> (u16, String) {
    let mut url = op.path.clone();
    let mut query = Vec::new();
    for parameter in op.operation["parameters"].as_array().into_iter().flatten() {
        let name = parameter["name"].as_str().expect("a parameter name");
        match parameter["in"].as_str() {
            Some("path") => {
                url = url.replace(&format!("{{{name}}}"), &path_value(world, &op.path, name))
            }
            Some("query") => match query_value(app, world, name) {
                Some(value) => query.push((name.to_owned(), value)),
                None => assert!(
                    parameter["required"] != true,
                    "the isolation sweep has no value for the required query parameter {name} \
                     of {}: add it to query_value()",
                    op.key()
                ),
            },
            _ => {}
        }
    }
    let mut request = app
        .client
        .request(op.method.clone(), app.url(&url))
        .query(&query);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let content = &op.operation["requestBody"]["content"];
    if content.get("application/json").is_some() {
        let body = json_body(world, &op.key()).unwrap_or_else(|| {
            panic!(
                "the isolation sweep has no request body for {}: add one to json_body()",
                op.key()
            )
        });
        request = request.json(&body);
    } else if content.get("text/csv").is_some() {
        request = request
            .header("content-type", "text/csv")
            .body("date,from,to,rate\n2026-01-01,EUR,USD,1.5\n");
    } else if content.get("multipart/form-data").is_some() {
        let part = reqwest::multipart::Part::bytes(bravo_data().to_csv().into_bytes())
            .file_name("bravo-upload.csv");
        request = request.multipart(reqwest::multipart::Form::new().part("file", part));
    } else if let Some(other) = content.as_object().and_then(|c| c.keys().next()) {
        panic!(
            "the isolation sweep cannot send a {other} body to {}",
            op.key()
        );
    }
    let response = request.send().await.expect("the request");
    let status = response.status().as_u16();
    (status, response.text().await.unwrap_or_default())
}

fn leaked_marker(body: &str) -> Option<&'static str> {
    A_MARKERS.into_iter().find(|marker| body.contains(marker))
}

/// Customer A with an admin, a plain user, billing data, rates, a display currency and a
/// budget; customer B with its owner.
async fn world(app: &TestApp, teams: &TeamsStandIn) -> World {
    let session_a = app.signup_owner("Alice Alpha", "alice@a.test").await;
    let customer_a = session_a.user.customer_id;
    let owner_a = session_a.access_token;
    let admin_a = app
        .add_member(&owner_a, "Ada Alpha", "ada@a.test", "Admin")
        .await;
    let user_a = app
        .add_member(&owner_a, "Amy Alpha", "amy@a.test", "User")
        .await;
    let job = app
        .ingest_files(
            &owner_a,
            &[("alpha-upload.csv", alpha_data().to_csv().into_bytes())],
        )
        .await;
    assert_eq!(job["status"], "succeeded", "job: {job}");
    let rates = app
        .client
        .put(app.url("/v1/exchange-rates"))
        .bearer_auth(&owner_a)
        .header("content-type", "text/csv")
        .body("date,from,to,rate\n2026-01-01,EUR,USD,1.10\n")
        .send()
        .await
        .unwrap();
    assert_eq!(rates.status(), StatusCode::OK);
    let currency = app
        .put("/v1/currency", &owner_a, &json!({"displayCurrency": "EUR"}))
        .await;
    assert_eq!(currency.status(), StatusCode::OK);
    let budget = json!({"name": "Alpha Budget", "amount": 1000.0, "period": "Monthly",
                        "filters": [{"filterType": "account", "filterValues": ["424242424242"]}],
                        "alerts": [{"thresholdType": "Percentage", "thresholdValue": 80}]});
    let (status, budget) =
        status_and_json(app.post("/v1/budgets", Some(&owner_a), &budget).await).await;
    assert_eq!(status, StatusCode::CREATED, "{budget}");
    // A pending invitation, so that A has one the sweep must not reach either.
    assert_eq!(
        app.invite(&owner_a, "pending@a.test", "User")
            .await
            .status(),
        StatusCode::CREATED
    );
    // A's AWS account and Azure export (their checks fail: nothing answers at DEAD_ENDPOINT).
    let (status, connection) = status_and_json(
        app.post(
            "/v1/register",
            Some(&owner_a),
            &json!({"aws_account_id": "424242424242", "account_name": "Alpha Secret Prod"}),
        )
        .await,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{connection}");
    let (status, azure_a) = status_and_json(
        app.post(
            "/v1/azure/account",
            Some(&owner_a),
            &azure(
                ALPHA_SUBSCRIPTION,
                "Alpha Secret Export",
                "sv=1&sig=alpha-secret-sas",
            ),
        )
        .await,
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{azure_a}");
    let connection_a_id = connection["id"].as_i64().expect("a connection id");
    // A's inventory: one tagged instance its billing data names, and a standard tag.
    seed_alpha_inventory(app, customer_a, connection_a_id).await;
    let (status, tag) = status_and_json(
        app.post(
            "/tags/standard",
            Some(&owner_a),
            &json!({"key": "alpha-secret-tag", "values": ["alpha-secret-value"]}),
        )
        .await,
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{tag}");
    // A's notification channel (a signed webhook nothing answers).
    let (status, channel) = status_and_json(
        app.post(
            "/v1/channels",
            Some(&owner_a),
            &json!({"type": "webhook", "name": "Alpha Secret Hook",
                    "target": format!("{DEAD_ENDPOINT}/alpha-secret-hook"),
                    "secret": "alpha-secret-webhook-key"}),
        )
        .await,
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{channel}");
    // A's Teams channel, picked through the Teams stand-in.
    let teams_a_id = crate::teams::connect(app, &owner_a, teams).await;
    let anomaly_a_id = seed_alpha_anomaly(app, customer_a).await;
    let owner_b = app
        .signup_owner("Bob Bravo", "bob@b.test")
        .await
        .access_token;
    World {
        owner_a,
        user_a: user_a.access_token,
        owner_b,
        admin_a_id: admin_a.user.id,
        budget_a_id: budget["id"].as_i64().expect("a budget id"),
        upload_a_id: job["id"].as_i64().expect("an upload id"),
        connection_a_id,
        standard_tag_a_id: tag["id"].as_i64().expect("a standard tag id"),
        channel_a_id: channel["id"].as_i64().expect("a channel id"),
        teams_a_id,
        anomaly_a_id,
        gcp_key: BigQueryStandIn::start(Vec::new()).await.key_json(),
    }
}

/// Records an anomaly of A's marked account, long before the detection job's window (so that
/// no scan touches it); answers its id.
async fn seed_alpha_anomaly(app: &TestApp, customer_id: i64) -> i64 {
    use costscope_core::anomaly::{Contributors, Run, SeriesKey};
    let day = chrono::NaiveDate::from_ymd_opt(2020, 1, 6).expect("a date");
    let run = costscope_store::ScannedAnomaly {
        series: SeriesKey::Service {
            provider: "aws".to_owned(),
            account_id: "424242424242".to_owned(),
            service: "AlphaSecretService".to_owned(),
            currency: "USD".to_owned(),
        },
        account_name: Some("Alpha Secret Account".to_owned()),
        run: Run {
            start: day,
            end: day,
            days: 1,
            actual: 900.0,
            expected: 100.0,
        },
        contributors: Contributors::default(),
    };
    let outcome = app
        .store
        .anomalies()
        .record_anomaly_scan(costscope_store::AnomalyScan {
            customer_id,
            judged_from: day,
            // Ended long before the latest day: stored without a notification.
            latest: day + chrono::Days::new(30),
            runs: &[run],
            now: Utc::now(),
        })
        .await
        .expect("record A's anomaly");
    assert_eq!(outcome.inserted, 1);
    app.store
        .anomalies()
        .list_anomalies(customer_id, day, day, None)
        .await
        .expect("A's anomalies")[0]
        .id
}

/// What A sees of its own data, to compare before and after the sweep.
async fn a_snapshot(app: &TestApp, world: &World) -> Vec<Value> {
    let mut snapshot = Vec::new();
    for path in [
        "/v1/users".to_owned(),
        format!("/v1/budgets/{}", world.budget_a_id),
        format!("/v1/ingest/{}", world.upload_a_id),
        "/v1/currency".to_owned(),
        "/v1/exchange-rates".to_owned(),
        "/v1/account".to_owned(),
        "/v1/azure/account".to_owned(),
        "/tags/standard".to_owned(),
        "/v1/channels".to_owned(),
        format!("/v1/anomalies/{}", world.anomaly_a_id),
        "/v1/anomalies/settings".to_owned(),
    ] {
        let (status, mut body) = status_and_json(app.get(&path, Some(&world.owner_a)).await).await;
        assert_eq!(status, StatusCode::OK, "{path}: {body}");
        // A connection's check and sync run on their own.
        for connection in body.as_array_mut().into_iter().flatten() {
            if let Some(connection) = connection.as_object_mut() {
                connection.remove("registration");
                connection.remove("sync");
            }
        }
        // Figures that move with the clock or the evaluator, not with another customer.
        if let Some(budget) = body.as_object_mut() {
            budget.remove("lastEvaluatedAt");
            budget.remove("updatedAt");
        }
        snapshot.push(body);
    }
    let (start, end) = month();
    let (status, aggr) = status_and_json(
        app.post(
            "/v2/cost/aggr",
            Some(&world.owner_a),
            &json!({"start_time": start, "end_time": end, "group_by": "account"}),
        )
        .await,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{aggr}");
    snapshot.push(aggr["summary"].clone());
    snapshot
}

#[tokio::test]
async fn no_operation_of_the_document_lets_another_customer_or_a_plain_user_through() {
    let teams = crate::teams::stand_in("Alpha Secret Team").await;
    let teams_config = crate::teams::teams_config(&teams);
    let app = spawn_app_with(|config| {
        config.teams = Some(teams_config);
        config.cloud.aws_endpoint_url = Some(DEAD_ENDPOINT.to_owned());
        config.cloud.bigquery_url = DEAD_ENDPOINT.to_owned();
        config.cloud.azure_authority_url = DEAD_ENDPOINT.to_owned();
    })
    .await;
    let world = world(&app, &teams).await;
    let (status, document) = status_and_json(app.get("/openapi.json", None).await).await;
    assert_eq!(status, StatusCode::OK);
    let operations = operations(&document);
    assert!(
        operations.len() >= 30,
        "only {} operations",
        operations.len()
    );

    let public: Vec<String> = operations
        .iter()
        .filter(|op| op.is_public())
        .map(Operation::key)
        .collect();
    let mut expected_public: Vec<String> =
        PUBLIC_BY_DESIGN.iter().map(|key| key.to_string()).collect();
    expected_public.sort();
    let mut public_sorted = public.clone();
    public_sorted.sort();
    assert_eq!(
        public_sorted, expected_public,
        "operations without `security` in the document: either the annotation lacks \
         security((\"bearer\" = [])) or the route is public by design (add it to PUBLIC_BY_DESIGN)"
    );
    let before = a_snapshot(&app, &world).await;

    let mut failures = Vec::new();
    let mut visible_to_a = 0;
    for op in &operations {
        if op.is_public() {
            // No caller to isolate: made-up secrets must be refused without a 5xx or A's data.
            let (status, body) = call(&app, &world, op, None).await;
            if status >= 500 || leaked_marker(&body).is_some() {
                failures.push(format!("{} without a token: {status} {body}", op.key()));
            }
            continue;
        }
        // (a) Customer B with A's ids.
        let (status, body) = call(&app, &world, op, Some(&world.owner_b)).await;
        let refused = status == 403
            || status == 404
            || (status == 400 && REFUSED_AS_BAD_REQUEST.contains(&op.key().as_str()));
        let trigger = ANY_ROLE_MAY_TRIGGER.contains(&op.key().as_str());
        let own_status = (200..300).contains(&status) || (trigger && status == 422);
        let own_answer = own_status && leaked_marker(&body).is_none();
        if !(refused || own_answer) {
            failures.push(format!(
                "{} as customer B with A's ids: {status} (leaks {:?}) {}",
                op.key(),
                leaked_marker(&body),
                truncate(&body)
            ));
        }
        if !op.mutates()
            || USERS_MAY_POST.contains(&op.key().as_str())
            || ANY_ROLE_MAY_TRIGGER.contains(&op.key().as_str())
        {
            let (status, body) = call(&app, &world, op, Some(&world.owner_a)).await;
            assert!(
                (200..300).contains(&status),
                "{} as A's owner: {status} {body}",
                op.key()
            );
            visible_to_a += usize::from(leaked_marker(&body).is_some());
        }
        // (b) A's plain user on every mutating operation.
        if op.mutates() {
            let (status, body) = call(&app, &world, op, Some(&world.user_a)).await;
            let may = USERS_MAY_POST.contains(&op.key().as_str())
                || OWN_SETTINGS.contains(&op.key().as_str());
            let trigger = ANY_ROLE_MAY_TRIGGER.contains(&op.key().as_str());
            let ok = if may {
                (200..300).contains(&status)
            } else if trigger {
                (200..300).contains(&status) || status == 409
            } else {
                status == 403 && op.documents(403)
            };
            if !ok {
                failures.push(format!(
                    "{} as A's plain user: {status} (expected {}) {}",
                    op.key(),
                    if may { "2xx" } else { "403, documented" },
                    truncate(&body)
                ));
            }
        }
    }
    eprintln!(
        "isolation sweep: {} operations ({} public), {visible_to_a} of A's own answers show A's data",
        operations.len(),
        public.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // The markers are in A's answers, so their absence from B's answers means something.
    assert!(
        visible_to_a >= 8,
        "only {visible_to_a} of A's answers show A's data"
    );
    assert_eq!(
        a_snapshot(&app, &world).await,
        before,
        "customer A's data changed"
    );
}

fn truncate(body: &str) -> &str {
    &body[..body.char_indices().nth(300).map_or(body.len(), |(i, _)| i)]
}
