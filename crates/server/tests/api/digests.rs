//! Scheduled digests (issue 15, docs/NOTIFICATIONS.md "Digests"): the settings and their
//! messages; a weekly digest of known data with the right totals, movers, open anomaly and
//! budget at risk, reaching the user's chosen channel (a signed webhook) and their own address
//! exactly once, and nobody else.
//!
//! The data, known by construction: account 111111111111 (Production), the 90 days ending
//! Sunday 2026-11-22, every day AmazonEC2 $100, AmazonS3 $50 and AmazonRDS $200, except in the
//! digest's week (2026-11-16 – 2026-11-22): EC2 $150 and S3 $20 a day, and RDS $3 200 on
//! 2026-11-21 (a spike the detection job finds). So, the week against the one before:
//! EC2 1 050 vs 700 (+350), S3 140 vs 350 (−210), RDS 4 400 vs 1 400 (+3 000); in total
//! 5 590 vs 2 450 (+3 140, +128.2 %). November up to the 22nd: 8 × 350 + 2 450 + 5 590 =
//! 10 840, 90.3 % of a $12 000 budget (at risk) and 10.8 % of a $100 000 one (not at risk).
//! The job runs on a clock stopped at Monday 2026-11-23 12:00 UTC.

use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Days, NaiveDate, TimeDelta, TimeZone, Utc};
use costscope_connectors::testing::webhook::{ReceivedRequest, WebhookReceiver};
use costscope_connectors::testing::FakeSmtpServer;
use costscope_core::Clock;
use costscope_server::jobs::digests::DigestJob;
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::budgets::create;
use crate::channels::{deliver_at, verify_signature, with_smtp, PUBLIC_URL, SECRET};
use crate::cost_fixture::{upload, FocusCsv, Line};
use crate::helpers::{assert_invalid, spawn_app, spawn_app_with, status_and_json, TestApp};

const FREQUENCY_MESSAGE: &str = "Choose a frequency: off, daily or weekly";
const EMAIL_MESSAGE: &str = "E-mail digests need SMTP configured on the server";
/// Days of data, ending Sunday 2026-11-22.
const DAYS: u64 = 90;

/// A clock stopped at one moment.
#[derive(Debug)]
struct At(DateTime<Utc>);

impl Clock for At {
    fn now(&self) -> DateTime<Utc> {
        self.0
    }
}

fn monday_noon() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 23, 12, 0, 0).unwrap()
}

fn leak(text: String) -> &'static str {
    Box::leak(text.into_boxed_str())
}

/// The module's data set (see the module docs).
fn data() -> FocusCsv {
    let latest = NaiveDate::from_ymd_opt(2026, 11, 22).unwrap();
    let week_start = NaiveDate::from_ymd_opt(2026, 11, 16).unwrap();
    let spike = NaiveDate::from_ymd_opt(2026, 11, 21).unwrap();
    let mut csv = FocusCsv::new();
    for back in 0..DAYS {
        let day = latest - Days::new(back);
        let in_week = day >= week_start;
        let day_text = leak(day.to_string());
        for (service, amount) in [
            ("AmazonEC2", if in_week { 150.0 } else { 100.0 }),
            ("AmazonS3", if in_week { 20.0 } else { 50.0 }),
            ("AmazonRDS", if day == spike { 3_200.0 } else { 200.0 }),
        ] {
            let mut line = Line::aws("111111111111", day_text, amount);
            line.account_name = "Production";
            line.service = service;
            csv = csv.line(line);
        }
    }
    csv
}

async fn put_digest(app: &TestApp, token: &str, body: &Value) -> reqwest::Response {
    app.put("/v1/me/digest", token, body).await
}

async fn get_digest(app: &TestApp, token: &str) -> Value {
    let (status, body) = status_and_json(app.get("/v1/me/digest", Some(token)).await).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body
}

async fn webhook(app: &TestApp, token: &str, name: &str, target: String) -> i64 {
    let (status, channel) = status_and_json(
        app.post(
            "/v1/channels",
            Some(token),
            &json!({"type": "webhook", "name": name, "target": target, "secret": SECRET}),
        )
        .await,
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{channel}");
    channel["id"].as_i64().unwrap()
}

#[tokio::test]
async fn settings_default_to_off_and_refuse_an_unknown_frequency_email_without_smtp_and_another_tenants_channel(
) {
    let app = spawn_app().await;
    let owner = app.signup_owner("Olive Owner", "olive@acme.test").await;
    let token = owner.access_token;
    let other = app
        .signup_owner("Oscar Other", "oscar@globex.test")
        .await
        .access_token;
    assert_eq!(
        get_digest(&app, &token).await,
        json!({"frequency": "off", "email": true, "channelId": null})
    );

    assert_invalid(
        put_digest(
            &app,
            &token,
            &json!({"frequency": "hourly", "email": false}),
        )
        .await,
        "frequency",
        FREQUENCY_MESSAGE,
    )
    .await;
    // No SMTP on this server.
    assert_invalid(
        put_digest(&app, &token, &json!({"frequency": "weekly", "email": true})).await,
        "email",
        EMAIL_MESSAGE,
    )
    .await;
    let theirs = webhook(
        &app,
        &other,
        "Theirs",
        "https://hooks.globex.test/x".to_owned(),
    )
    .await;
    assert_invalid(
        put_digest(
            &app,
            &token,
            &json!({"frequency": "weekly", "email": false, "channelId": theirs}),
        )
        .await,
        "channelId",
        "Unknown channel",
    )
    .await;
    // Every broken rule is answered at once.
    let (status, body) = status_and_json(
        put_digest(
            &app,
            &token,
            &json!({"frequency": "monthly", "email": true, "channelId": 999_999}),
        )
        .await,
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(body["details"]["frequency"], json!([FREQUENCY_MESSAGE]));
    assert_eq!(body["details"]["email"], json!([EMAIL_MESSAGE]));
    assert_eq!(body["details"]["channelId"], json!(["Unknown channel"]));

    let mine = webhook(&app, &token, "Mine", "https://hooks.acme.test/x".to_owned()).await;
    let saved = json!({"frequency": "daily", "email": false, "channelId": mine});
    let (status, body) = status_and_json(put_digest(&app, &token, &saved).await).await;
    assert_eq!((status, &body), (StatusCode::OK, &saved));
    assert_eq!(get_digest(&app, &token).await, saved);
    // Each user has their own: the other tenant's owner still has the defaults.
    assert_eq!(get_digest(&app, &other).await["frequency"], "off");

    // A plain user sets their own.
    let user = app
        .add_member(&token, "Pat User", "pat@acme.test", "User")
        .await
        .access_token;
    let weekly = json!({"frequency": "weekly", "email": false, "channelId": null});
    let (status, body) = status_and_json(put_digest(&app, &user, &weekly).await).await;
    assert_eq!((status, &body), (StatusCode::OK, &weekly));
    assert_eq!(get_digest(&app, &token).await, saved);

    // A deleted channel is no longer chosen.
    let deleted = app.delete(&format!("/v1/channels/{mine}"), &token).await;
    assert_eq!(deleted.status(), StatusCode::NO_CONTENT);
    assert_eq!(get_digest(&app, &token).await["channelId"], Value::Null);
}

/// Waits until the detection job has found the spike.
async fn open_anomaly(app: &TestApp, token: &str) -> Value {
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    loop {
        let (status, body) = status_and_json(
            app.get(
                "/v1/anomalies?start=2026-09-01&end=2026-11-30&status=open",
                Some(token),
            )
            .await,
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        if let Some(anomaly) = body["anomalies"].as_array().and_then(|list| list.first()) {
            return anomaly.clone();
        }
        assert!(std::time::Instant::now() < deadline, "no anomaly: {body}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

fn digests_at<'a>(requests: &'a [ReceivedRequest], path: &str) -> Vec<&'a ReceivedRequest> {
    requests
        .iter()
        .filter(|r| r.path == path && r.header("x-costscope-event") == Some("digest"))
        .collect()
}

/// The mail's `Subject`, unfolded.
fn subject(mail: &costscope_connectors::testing::ReceivedMail) -> String {
    let mut lines = mail
        .data
        .lines()
        .skip_while(|line| !line.starts_with("Subject: "));
    let mut subject = lines.next().unwrap_or_default()["Subject: ".len()..].to_owned();
    for line in lines.take_while(|line| line.starts_with(' ') || line.starts_with('\t')) {
        subject.push_str(line);
    }
    subject
}

/// The digest mails among the mails that arrive within `wait` (invitations are not).
async fn digest_mails(
    smtp: &FakeSmtpServer,
    wait: Duration,
) -> Vec<costscope_connectors::testing::ReceivedMail> {
    let mut mails = Vec::new();
    while let Ok(mail) = tokio::time::timeout(wait, smtp.next_message()).await {
        if subject(&mail).starts_with("Costscope weekly digest:") {
            mails.push(mail);
        }
    }
    mails
}

fn close(actual: &Value, expected: f64) -> bool {
    actual
        .as_f64()
        .is_some_and(|value| (value - expected).abs() < 0.01)
}

#[tokio::test]
async fn a_weekly_digest_reaches_the_chosen_channel_and_the_users_address_once_and_nobody_else() {
    let smtp = FakeSmtpServer::start().await;
    let receiver = WebhookReceiver::start().await;
    let app = spawn_app_with(with_smtp(&smtp)).await;
    let token = app
        .signup_owner("Olive Owner", "olive@acme.test")
        .await
        .access_token;
    let member = app
        .add_member(&token, "Pat User", "pat@acme.test", "User")
        .await
        .access_token;
    let mine = webhook(&app, &token, "Mine", receiver.url("/mine")).await;
    webhook(&app, &token, "Everyone", receiver.url("/everyone")).await;
    for (name, amount) in [("At risk", 12_000.0), ("Comfortable", 100_000.0)] {
        create(
            &app,
            &token,
            &json!({
                "name": name, "amount": amount, "period": "Monthly",
                "filters": [{"filterType": "account", "filterValues": ["111111111111"]}],
                "alerts": [{"thresholdType": "Percentage", "thresholdValue": 100}],
            }),
        )
        .await;
    }
    let weekly = json!({"frequency": "weekly", "email": true, "channelId": mine});
    assert_eq!(
        put_digest(&app, &token, &weekly).await.status(),
        StatusCode::OK
    );
    let off = json!({"frequency": "off", "email": true, "channelId": mine});
    assert_eq!(
        put_digest(&app, &member, &off).await.status(),
        StatusCode::OK
    );

    upload(&app, &token, &data()).await;
    let anomaly = open_anomaly(&app, &token).await;
    assert_eq!(anomaly["service"], "AmazonRDS");
    assert_eq!(anomaly["start"], "2026-11-21");

    let job = DigestJob::from_state(&app.state).with_clock(Arc::new(At(monday_noon())));
    let outcome = job.run_once().await.unwrap();
    assert_eq!(
        (outcome.recorded, outcome.already_sent, outcome.failed),
        (1, 0, 0)
    );

    // The chosen channel: one signed digest, with the content.
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    let requests = loop {
        let requests = receiver.requests();
        if !digests_at(&requests, "/mine").is_empty() {
            break requests;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "no digest: {requests:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let hooks = digests_at(&requests, "/mine");
    assert_eq!(hooks.len(), 1);
    verify_signature(hooks[0], SECRET, Utc::now());
    let digest = hooks[0].json()["data"].clone();
    assert_eq!(digest["frequency"], "weekly");
    assert_eq!(
        (&digest["start"], &digest["end"]),
        (&json!("2026-11-16"), &json!("2026-11-22"))
    );
    assert_eq!(
        (&digest["previousStart"], &digest["previousEnd"]),
        (&json!("2026-11-09"), &json!("2026-11-15"))
    );
    let totals = digest["totals"].as_array().unwrap();
    assert_eq!(totals.len(), 1, "{digest}");
    assert_eq!(totals[0]["currency"], "USD");
    assert!(close(&totals[0]["current"], 5_590.0), "{digest}");
    assert!(close(&totals[0]["previous"], 2_450.0), "{digest}");
    assert!(close(&totals[0]["change"], 3_140.0), "{digest}");
    assert!(
        close(&totals[0]["changePercent"], 3_140.0 / 2_450.0 * 100.0),
        "{digest}"
    );
    let services = |list: &Value| -> Vec<(String, f64)> {
        list.as_array()
            .unwrap()
            .iter()
            .map(|m| {
                (
                    m["service"].as_str().unwrap().to_owned(),
                    m["change"].as_f64().unwrap(),
                )
            })
            .collect()
    };
    assert_eq!(
        services(&digest["movers"]["up"]),
        [
            ("AmazonRDS".to_owned(), 3_000.0),
            ("AmazonEC2".to_owned(), 350.0)
        ]
    );
    assert_eq!(
        services(&digest["movers"]["down"]),
        [("AmazonS3".to_owned(), -210.0)]
    );
    assert_eq!(digest["anomalies"]["openCount"], 1, "{digest}");
    let largest = &digest["anomalies"]["largest"][0];
    assert_eq!(largest["id"], anomaly["id"]);
    assert_eq!(largest["subject"], "AmazonRDS");
    assert_eq!(
        largest["url"],
        format!("{PUBLIC_URL}/anomalies/{}", anomaly["id"])
    );
    assert!(close(
        &largest["impact"],
        anomaly["impact"].as_f64().unwrap()
    ));
    let at_risk = digest["budgetsAtRisk"].as_array().unwrap();
    assert_eq!(at_risk.len(), 1, "{digest}");
    assert_eq!(at_risk[0]["name"], "At risk");
    assert!(close(&at_risk[0]["spent"], 10_840.0), "{digest}");
    assert!(
        close(&at_risk[0]["percentUsed"], 10_840.0 / 120.0),
        "{digest}"
    );
    assert!(at_risk[0]["url"]
        .as_str()
        .unwrap()
        .starts_with(&format!("{PUBLIC_URL}/budgets/view/")));

    // The user's own address: one mail, titled with the total, its change and the dates.
    let mails = digest_mails(&smtp, Duration::from_secs(5)).await;
    assert_eq!(mails.len(), 1);
    assert_eq!(mails[0].recipients, ["olive@acme.test"]);
    let title = subject(&mails[0]);
    assert!(
        title.starts_with("Costscope weekly digest: $5,590.00 (+128.2 %) for 2026-11-16"),
        "{title}"
    );
    assert!(title.ends_with("2026-11-22"), "{title}");

    // Another run in the same period records nothing, and nothing more goes out.
    let again = job.run_once().await.unwrap();
    assert_eq!((again.recorded, again.already_sent), (0, 1));
    deliver_at(&app, Utc::now() + TimeDelta::days(1)).await;
    let later = receiver.requests();
    assert_eq!(digests_at(&later, "/mine").len(), 1);
    // The tenant's other channel never gets a digest; the user who chose off gets nothing.
    assert!(digests_at(&later, "/everyone").is_empty(), "{later:?}");
    assert!(digest_mails(&smtp, Duration::from_millis(500))
        .await
        .is_empty());
}

#[tokio::test]
async fn no_digest_is_due_before_monday_for_a_weekly_choice() {
    let smtp = FakeSmtpServer::start().await;
    let app = spawn_app_with(with_smtp(&smtp)).await;
    let token = app
        .signup_owner("Olive Owner", "olive@acme.test")
        .await
        .access_token;
    let weekly = json!({"frequency": "weekly", "email": true});
    assert_eq!(
        put_digest(&app, &token, &weekly).await.status(),
        StatusCode::OK
    );
    upload(&app, &token, &data()).await;
    let tuesday = monday_noon() + TimeDelta::days(1);
    let outcome = DigestJob::from_state(&app.state)
        .with_clock(Arc::new(At(tuesday)))
        .run_once()
        .await
        .unwrap();
    assert_eq!((outcome.recorded, outcome.already_sent), (0, 0));
}
