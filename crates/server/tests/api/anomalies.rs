//! Anomalies end to end (docs/ANOMALIES.md "In the product"): a FOCUS CSV with a weekly
//! pattern and two injected spikes is uploaded; the detection job (woken by the load) finds
//! exactly those two runs with their contributors; the list's range and status messages; the
//! statuses and roles; every settings message; a re-upload without the recent spike deletes
//! its open anomaly; the recent spike reaches a signed webhook exactly once and the old one
//! (ending more than 3 days before the latest day) not at all; another tenant sees nothing.
//!
//! The data, known by construction: account 111111111111 (Production), AmazonEC2, 120 days
//! ending yesterday (UTC). Every day one `BoxUsage:m5.large` line on resource `i-base`:
//! 1 000 on weekdays, 600 on Saturdays and Sundays, times a deterministic wobble of at most
//! ±2 %. Two spikes add a `DataTransfer-Out-Bytes` line on resource `i-spike` of 3 000: the
//! *old* one 20 days before the latest day, the *recent* one the day before the latest day.
//! With the default margins (20 % and 100) the wobble never comes near a flag; each spike is
//! a one-day run of about +3 000.

use std::time::Duration;

use chrono::{Datelike, Days, NaiveDate, Utc, Weekday};
use costscope_connectors::testing::webhook::WebhookReceiver;
use costscope_server::jobs::anomalies::AnomalyDetection;
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::cost_fixture::{upload, FocusCsv, Line};
use crate::helpers::{
    assert_error, assert_invalid, spawn_app, spawn_app_with, status_and_json, TestApp,
};

const SECRET: &str = "whsec_test_0123456789abcdef";
const SPIKE: f64 = 3_000.0;
const DAYS: u64 = 120;
/// Days before the latest day of the two spikes.
const OLD_SPIKE: u64 = 20;
pub const RECENT_SPIKE: u64 = 1;

fn leak(text: String) -> &'static str {
    Box::leak(text.into_boxed_str())
}

fn latest_day() -> NaiveDate {
    Utc::now().date_naive() - Days::new(1)
}

/// The module's data set; `spikes`: days before the latest day that carry a spike.
pub fn data(spikes: &[u64]) -> FocusCsv {
    let latest = latest_day();
    let mut csv = FocusCsv::new();
    for back in 0..DAYS {
        let day = latest - Days::new(back);
        let weekend = matches!(day.weekday(), Weekday::Sat | Weekday::Sun);
        let base = if weekend { 600.0 } else { 1_000.0 };
        // ±2 %, the same every run.
        let wobble = 1.0 + 0.02 * (((back * 37) % 11) as f64 - 5.0) / 5.0;
        let day_text = leak(day.to_string());
        let mut line = Line::aws(
            "111111111111",
            day_text,
            (base * wobble * 100.0).round() / 100.0,
        );
        line.account_name = "Production";
        line.usage_type = "BoxUsage:m5.large";
        line.resource_id = "i-base";
        csv = csv.line(line);
        if spikes.contains(&back) {
            let mut spike = Line::aws("111111111111", day_text, SPIKE);
            spike.account_name = "Production";
            spike.usage_type = "DataTransfer-Out-Bytes";
            spike.resource_id = "i-spike";
            csv = csv.line(spike);
        }
    }
    csv
}

async fn list(app: &TestApp, token: &str, query: &str) -> Value {
    let (status, body) =
        status_and_json(app.get(&format!("/v1/anomalies{query}"), Some(token)).await).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body
}

/// Polls the list (20 s at most) until it holds `count` anomalies: the job runs after the load.
pub async fn anomalies_once_detected(app: &TestApp, token: &str, count: usize) -> Vec<Value> {
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    loop {
        let body = list(app, token, "").await;
        let anomalies = body["anomalies"].as_array().unwrap().clone();
        if anomalies.len() == count {
            return anomalies;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "never {count} anomalies: {body}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn patch(app: &TestApp, path: &str, token: &str, body: &Value) -> reqwest::Response {
    app.client
        .patch(app.url(path))
        .bearer_auth(token)
        .json(body)
        .send()
        .await
        .expect("PATCH")
}

async fn put_settings(app: &TestApp, token: &str, body: &Value) -> reqwest::Response {
    app.put("/v1/anomalies/settings", token, body).await
}

pub fn day_before_latest(back: u64) -> String {
    (latest_day() - Days::new(back)).to_string()
}

#[tokio::test]
async fn the_job_finds_exactly_the_injected_spikes_with_their_contributors() {
    let app = spawn_app().await;
    let owner = app.signup_owner("Olive Owner", "olive@a.test").await;
    let token = owner.access_token;
    upload(&app, &token, &data(&[OLD_SPIKE, RECENT_SPIKE])).await;

    let anomalies = anomalies_once_detected(&app, &token, 2).await;
    let starts: Vec<&str> = anomalies
        .iter()
        .map(|a| a["start"].as_str().unwrap())
        .collect();
    let mut expected_starts = vec![
        day_before_latest(OLD_SPIKE),
        day_before_latest(RECENT_SPIKE),
    ];
    let mut sorted = starts.clone();
    sorted.sort_unstable();
    expected_starts.sort_unstable();
    assert_eq!(sorted, expected_starts);
    for anomaly in &anomalies {
        assert_eq!(anomaly["end"], anomaly["start"], "{anomaly}");
        assert_eq!(anomaly["days"], 1);
        assert_eq!(anomaly["provider"], "aws");
        assert_eq!(anomaly["accountId"], "111111111111");
        assert_eq!(anomaly["accountName"], "Production");
        assert_eq!(anomaly["service"], "AmazonEC2");
        assert_eq!(anomaly["tagKey"], Value::Null);
        assert_eq!(anomaly["currency"], "USD");
        assert_eq!(anomaly["status"], "open");
        let impact = anomaly["impact"].as_f64().unwrap();
        let actual = anomaly["actual"].as_f64().unwrap();
        let expected = anomaly["expected"].as_f64().unwrap();
        assert!((impact - (actual - expected)).abs() < 1e-6);
        // The spike's 3 000, give or take the baseline's error on a ±2 % series.
        assert!((impact - SPIKE).abs() < 150.0, "{anomaly}");
        let percent = anomaly["impactPercent"].as_f64().unwrap();
        assert!((percent - impact / expected * 100.0).abs() < 1e-6);
        // The spike's usage type and resource rose the most (the recent spike's baseline holds
        // the old one: 3 000 over 28 days, scaled to the expected day).
        let usage = &anomaly["contributors"]["usageTypes"];
        assert_eq!(usage[0]["key"], "DataTransfer-Out-Bytes", "{anomaly}");
        assert_eq!(usage[0]["actual"], SPIKE);
        assert!(usage[0]["expected"].as_f64().unwrap() < 150.0, "{anomaly}");
        let resources = &anomaly["contributors"]["resources"];
        assert_eq!(resources[0]["key"], "i-spike", "{anomaly}");
        assert!(resources[0]["difference"].as_f64().unwrap() > SPIKE - 150.0);
    }
    // Largest impact first.
    assert!(anomalies[0]["impact"].as_f64() >= anomalies[1]["impact"].as_f64());

    // The detail: 28 days before to 7 after (not after the latest day), scanned again.
    let old = anomalies
        .iter()
        .find(|a| a["start"] == day_before_latest(OLD_SPIKE).as_str())
        .unwrap();
    let (status, detail) = status_and_json(
        app.get(&format!("/v1/anomalies/{}", old["id"]), Some(&token))
            .await,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{detail}");
    assert_eq!(detail["id"], old["id"]);
    let series = detail["series"].as_array().unwrap();
    assert_eq!(series.len(), 28 + 1 + 7);
    assert_eq!(
        series[0]["day"],
        (latest_day() - Days::new(OLD_SPIKE + 28)).to_string()
    );
    let flagged: Vec<&Value> = series.iter().filter(|d| d["anomalous"] == true).collect();
    assert_eq!(flagged.len(), 1);
    assert_eq!(flagged[0]["day"], old["start"]);
    assert!(flagged[0]["actual"].as_f64().unwrap() > flagged[0]["high"].as_f64().unwrap());
    assert!(series.iter().all(|d| d["expected"].is_f64()));

    // A second run finds the same two, stores nothing new and deletes nothing.
    let outcome = AnomalyDetection::from_state(&app.state)
        .run_once()
        .await
        .unwrap();
    assert_eq!(
        (
            outcome.inserted,
            outcome.updated,
            outcome.deleted,
            outcome.notified
        ),
        (0, 2, 0, 0)
    );
}

#[tokio::test]
async fn the_list_checks_its_range_and_status_with_the_contracts_messages() {
    let app = spawn_app().await;
    let token = app
        .signup_owner("Olive Owner", "olive@a.test")
        .await
        .access_token;
    assert_invalid(
        app.get("/v1/anomalies?start=2026-13-01", Some(&token))
            .await,
        "start",
        "Enter a date as YYYY-MM-DD",
    )
    .await;
    assert_invalid(
        app.get("/v1/anomalies?end=yesterday", Some(&token)).await,
        "end",
        "Enter a date as YYYY-MM-DD",
    )
    .await;
    assert_invalid(
        app.get(
            "/v1/anomalies?start=2026-03-02&end=2026-03-01",
            Some(&token),
        )
        .await,
        "start",
        "The start date must not be after the end date",
    )
    .await;
    assert_invalid(
        app.get(
            "/v1/anomalies?start=2025-01-01&end=2026-01-02",
            Some(&token),
        )
        .await,
        "end",
        "The range must be at most 366 days",
    )
    .await;
    // 366 days, both included: accepted.
    list(&app, &token, "?start=2025-01-01&end=2026-01-01").await;
    assert_invalid(
        app.get("/v1/anomalies?status=closed", Some(&token)).await,
        "status",
        "Choose a status: open, dismissed or expected",
    )
    .await;
    let empty = list(&app, &token, "?status=open").await;
    assert_eq!(
        empty,
        json!({"anomalies": [], "openCount": 0, "openImpact": []})
    );
}

#[tokio::test]
async fn statuses_change_for_owners_and_admins_and_filter_the_list() {
    let app = spawn_app().await;
    let owner = app.signup_owner("Olive Owner", "olive@a.test").await;
    let token = owner.access_token;
    let user = app
        .add_member(&token, "Uma User", "uma@a.test", "User")
        .await;
    let admin = app
        .add_member(&token, "Adam Admin", "adam@a.test", "Admin")
        .await;
    upload(&app, &token, &data(&[OLD_SPIKE, RECENT_SPIKE])).await;
    let anomalies = anomalies_once_detected(&app, &token, 2).await;
    let id = anomalies[0]["id"].as_i64().unwrap();
    let path = format!("/v1/anomalies/{id}");

    assert_error(
        patch(
            &app,
            &path,
            &user.access_token,
            &json!({"status": "dismissed"}),
        )
        .await,
        StatusCode::FORBIDDEN,
        "Only owners and admins can change an anomaly",
    )
    .await;
    assert_invalid(
        patch(&app, &path, &token, &json!({"status": "closed"})).await,
        "status",
        "Choose a status: open, dismissed or expected",
    )
    .await;
    assert_invalid(
        patch(&app, &path, &token, &json!({})).await,
        "status",
        "Choose a status: open, dismissed or expected",
    )
    .await;
    let (status, dismissed) = status_and_json(
        patch(
            &app,
            &path,
            &admin.access_token,
            &json!({"status": "dismissed"}),
        )
        .await,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{dismissed}");
    assert_eq!(dismissed["status"], "dismissed");
    assert_eq!(dismissed["id"], id);

    // Every role reads; the list filters by status; open counts only the open one.
    let open = list(&app, &user.access_token, "?status=open").await;
    assert_eq!(open["anomalies"].as_array().unwrap().len(), 1);
    assert_eq!(open["openCount"], 1);
    assert_eq!(open["openImpact"][0]["currency"], "USD");
    assert_eq!(
        open["openImpact"][0]["amount"], anomalies[1]["impact"],
        "the open one's impact"
    );
    let dismissed_list = list(&app, &token, "?status=dismissed").await;
    assert_eq!(dismissed_list["anomalies"][0]["id"], id);
    assert_eq!(dismissed_list["openCount"], 1);

    let (status, expected) =
        status_and_json(patch(&app, &path, &token, &json!({"status": "expected"})).await).await;
    assert_eq!(
        (status, &expected["status"]),
        (StatusCode::OK, &json!("expected"))
    );
    let (status, reopened) =
        status_and_json(patch(&app, &path, &token, &json!({"status": "open"})).await).await;
    assert_eq!(
        (status, &reopened["status"]),
        (StatusCode::OK, &json!("open"))
    );

    // A range without the anomalies lists none.
    let before = list(&app, &token, "?start=2020-01-01&end=2020-12-31").await;
    assert_eq!(before["anomalies"], json!([]));
}

#[tokio::test]
async fn settings_are_validated_with_every_message_and_saved_by_owners_and_admins() {
    let app = spawn_app().await;
    let owner = app.signup_owner("Olive Owner", "olive@a.test").await;
    let token = owner.access_token;
    let user = app
        .add_member(&token, "Uma User", "uma@a.test", "User")
        .await;
    let other = app
        .signup_owner("Bob Owner", "bob@b.test")
        .await
        .access_token;

    let (status, defaults) = status_and_json(
        app.get("/v1/anomalies/settings", Some(&user.access_token))
            .await,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        defaults,
        json!({"relativeThreshold": 0.2, "absoluteThreshold": 100.0, "tagKeys": [], "channelIds": []})
    );

    assert_error(
        put_settings(&app, &user.access_token, &json!({"relativeThreshold": 0.5})).await,
        StatusCode::FORBIDDEN,
        "Only owners and admins can change anomaly settings",
    )
    .await;
    assert_invalid(
        put_settings(&app, &token, &json!({"relativeThreshold": 10.5})).await,
        "relativeThreshold",
        "The relative threshold must be between 0 and 10 (0 % to 1000 %)",
    )
    .await;
    assert_invalid(
        put_settings(&app, &token, &json!({"absoluteThreshold": -1})).await,
        "absoluteThreshold",
        "The absolute threshold must be between 0 and 1000000000",
    )
    .await;
    assert_invalid(
        put_settings(
            &app,
            &token,
            &json!({"tagKeys": ["a", "b", "c", "d", "e", "f"]}),
        )
        .await,
        "tagKeys",
        "Monitor at most 5 tag keys",
    )
    .await;
    assert_invalid(
        put_settings(&app, &token, &json!({"tagKeys": ["  "]})).await,
        "tagKeys",
        "A tag key must be 1 to 128 characters",
    )
    .await;
    assert_invalid(
        put_settings(&app, &token, &json!({"tagKeys": ["k".repeat(129)]})).await,
        "tagKeys",
        "A tag key must be 1 to 128 characters",
    )
    .await;
    // Another tenant's channel is unknown here.
    let receiver = WebhookReceiver::start().await;
    let (status, theirs) = status_and_json(
        app.post(
            "/v1/channels",
            Some(&other),
            &json!({"type": "webhook", "name": "Theirs", "target": receiver.url("/b"), "secret": SECRET}),
        )
        .await,
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{theirs}");
    assert_invalid(
        put_settings(&app, &token, &json!({"channelIds": [theirs["id"]]})).await,
        "channelIds",
        "Unknown channel",
    )
    .await;
    // Every broken field at once.
    let (status, body) = status_and_json(
        put_settings(
            &app,
            &token,
            &json!({"relativeThreshold": -1, "absoluteThreshold": 2e9, "channelIds": [theirs["id"]]}),
        )
        .await,
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    let fields: Vec<&String> = body["details"].as_object().unwrap().keys().collect();
    assert_eq!(
        fields,
        ["absoluteThreshold", "channelIds", "relativeThreshold"]
    );

    let (status, ours) = status_and_json(
        app.post(
            "/v1/channels",
            Some(&token),
            &json!({"type": "webhook", "name": "Ours", "target": receiver.url("/a"), "secret": SECRET}),
        )
        .await,
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{ours}");
    let saved = json!({"relativeThreshold": 0.5, "absoluteThreshold": 250.0,
                       "tagKeys": [" team ", "team", "env"], "channelIds": [ours["id"], ours["id"]]});
    let (status, answer) = status_and_json(put_settings(&app, &token, &saved).await).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let stored = json!({"relativeThreshold": 0.5, "absoluteThreshold": 250.0,
                        "tagKeys": ["team", "env"], "channelIds": [ours["id"]]});
    assert_eq!(answer, stored);
    let (_, read) = status_and_json(
        app.get("/v1/anomalies/settings", Some(&user.access_token))
            .await,
    )
    .await;
    assert_eq!(read, stored);
    // The other tenant still has the defaults.
    let (_, theirs_read) =
        status_and_json(app.get("/v1/anomalies/settings", Some(&other)).await).await;
    assert_eq!(theirs_read["relativeThreshold"], 0.2);
}

#[tokio::test]
async fn a_reupload_without_the_spike_deletes_its_open_anomaly() {
    let app = spawn_app().await;
    let token = app
        .signup_owner("Olive Owner", "olive@a.test")
        .await
        .access_token;
    upload(&app, &token, &data(&[OLD_SPIKE, RECENT_SPIKE])).await;
    anomalies_once_detected(&app, &token, 2).await;

    upload(&app, &token, &data(&[OLD_SPIKE])).await;
    let left = anomalies_once_detected(&app, &token, 1).await;
    assert_eq!(left[0]["start"], day_before_latest(OLD_SPIKE).as_str());
}

#[tokio::test]
async fn a_dismissed_anomaly_is_kept_when_a_reupload_no_longer_flags_it() {
    let app = spawn_app().await;
    let token = app
        .signup_owner("Olive Owner", "olive@a.test")
        .await
        .access_token;
    upload(&app, &token, &data(&[OLD_SPIKE, RECENT_SPIKE])).await;
    let anomalies = anomalies_once_detected(&app, &token, 2).await;
    let recent = anomalies
        .iter()
        .find(|a| a["start"] == day_before_latest(RECENT_SPIKE).as_str())
        .unwrap();
    let path = format!("/v1/anomalies/{}", recent["id"]);
    let response = patch(&app, &path, &token, &json!({"status": "dismissed"})).await;
    assert_eq!(response.status(), StatusCode::OK);

    upload(&app, &token, &data(&[])).await;
    let outcome = AnomalyDetection::from_state(&app.state)
        .run_once()
        .await
        .unwrap();
    assert_eq!(outcome.inserted, 0);
    // The old open one is gone; the dismissed one stays as it was.
    let left = list(&app, &token, "").await;
    let ids: Vec<&Value> = left["anomalies"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| &a["id"])
        .collect();
    assert_eq!(ids, [&recent["id"]]);
    assert_eq!(left["anomalies"][0]["status"], "dismissed");
}

#[tokio::test]
async fn a_new_anomaly_reaches_a_signed_webhook_exactly_once_and_an_old_one_never() {
    let receiver = WebhookReceiver::start().await;
    let app = spawn_app_with(|config| {
        config.public_url = Some("https://costs.acme.test".to_owned());
    })
    .await;
    let token = app
        .signup_owner("Olive Owner", "olive@a.test")
        .await
        .access_token;
    for body in [
        json!({"type": "webhook", "name": "Hook", "target": receiver.url("/hook"), "secret": SECRET}),
        json!({"type": "slack", "name": "Slack", "target": receiver.url("/slack")}),
    ] {
        let (status, channel) =
            status_and_json(app.post("/v1/channels", Some(&token), &body).await).await;
        assert_eq!(status, StatusCode::CREATED, "{channel}");
    }
    upload(&app, &token, &data(&[OLD_SPIKE, RECENT_SPIKE])).await;
    let anomalies = anomalies_once_detected(&app, &token, 2).await;
    let recent = anomalies
        .iter()
        .find(|a| a["start"] == day_before_latest(RECENT_SPIKE).as_str())
        .unwrap();

    let requests = receiver.wait_for(2).await;
    let hook = requests
        .iter()
        .find(|r| r.path == "/hook")
        .expect("the webhook");
    assert_eq!(hook.header("x-costscope-event"), Some("anomaly"));
    let timestamp: i64 = hook
        .header("x-costscope-timestamp")
        .unwrap()
        .parse()
        .unwrap();
    costscope_core::notify::signature::verify(
        SECRET,
        timestamp,
        &hook.body,
        hook.header("x-costscope-signature").unwrap(),
        Utc::now().timestamp(),
    )
    .expect("signed with the channel's secret");
    let envelope = hook.json();
    assert_eq!(envelope["event"], "anomaly");
    let data = &envelope["data"];
    assert_eq!(data["anomalyId"], recent["id"]);
    assert_eq!(data["start"], recent["start"]);
    assert_eq!(data["service"], "AmazonEC2");
    assert_eq!(data["accountName"], "Production");
    assert_eq!(data["impact"], recent["impact"]);
    assert_eq!(data["topContributors"][0]["key"], "DataTransfer-Out-Bytes");

    let slack = requests
        .iter()
        .find(|r| r.path == "/slack")
        .expect("Slack")
        .json();
    let impact = costscope_core::display::dollars(recent["impact"].as_f64().unwrap());
    assert_eq!(
        slack["blocks"][0]["text"]["text"],
        format!(
            "Cost anomaly: AmazonEC2 in Production — {impact} above expected on {}",
            recent["start"].as_str().unwrap()
        ),
        "{slack}"
    );

    // Scanning and delivering again sends nothing more.
    AnomalyDetection::from_state(&app.state)
        .run_once()
        .await
        .unwrap();
    costscope_server::jobs::notifications::NotificationDelivery::from_state(&app.state)
        .run_once()
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(receiver.requests().len(), 2, "{:?}", receiver.requests());
}

#[tokio::test]
async fn another_tenant_sees_none_of_the_anomalies() {
    let app = spawn_app().await;
    let token = app
        .signup_owner("Olive Owner", "olive@a.test")
        .await
        .access_token;
    let other = app
        .signup_owner("Bob Owner", "bob@b.test")
        .await
        .access_token;
    upload(&app, &token, &data(&[OLD_SPIKE, RECENT_SPIKE])).await;
    let anomalies = anomalies_once_detected(&app, &token, 2).await;
    let path = format!("/v1/anomalies/{}", anomalies[0]["id"]);

    assert_error(
        app.get(&path, Some(&other)).await,
        StatusCode::NOT_FOUND,
        "No anomaly found.",
    )
    .await;
    assert_error(
        patch(&app, &path, &other, &json!({"status": "dismissed"})).await,
        StatusCode::NOT_FOUND,
        "No anomaly found.",
    )
    .await;
    let theirs = list(&app, &other, "").await;
    assert_eq!(
        theirs,
        json!({"anomalies": [], "openCount": 0, "openImpact": []})
    );
    // Unchanged for its owner.
    let (status, mine) = status_and_json(app.get(&path, Some(&token)).await).await;
    assert_eq!((status, &mine["status"]), (StatusCode::OK, &json!("open")));
}

#[tokio::test]
async fn the_demo_tenant_shows_the_injected_spike_step_and_drift() {
    let app = spawn_app_with(|config| config.demo = true).await;
    let session: Value = app
        .login("demo@costscope.dev", "costscope-demo")
        .await
        .json()
        .await
        .unwrap();
    let token = session["access_token"].as_str().unwrap().to_owned();
    // crates/ingest/src/demo/anomalies.rs: the spike (Production EC2), the step (Data Platform
    // RDS) and the drift (Staging Lambda), each within the last 35 days of any demo.
    let injected = [
        ("111111111111", "AmazonEC2", "BoxUsage:p3.8xlarge"),
        (
            "333333333333",
            "AmazonRDS",
            "USW2-InstanceUsage:db.r5.4xlarge",
        ),
        ("222222222222", "AWSLambda", "Lambda-GB-Second"),
    ];
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    let anomalies = loop {
        let body = list(&app, &token, "").await;
        let anomalies = body["anomalies"].as_array().unwrap().clone();
        let found = injected.iter().all(|(account, service, _)| {
            anomalies
                .iter()
                .any(|a| a["accountId"] == *account && a["service"] == *service)
        });
        if found {
            break anomalies;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the injected anomalies were not all found: {body}"
        );
        tokio::time::sleep(Duration::from_millis(250)).await;
    };
    for (account, service, usage) in injected {
        let anomaly = anomalies
            .iter()
            .find(|a| a["accountId"] == account && a["service"] == service)
            .unwrap();
        assert_eq!(anomaly["provider"], "aws");
        assert_eq!(
            anomaly["contributors"]["usageTypes"][0]["key"], usage,
            "{anomaly}"
        );
    }
}
