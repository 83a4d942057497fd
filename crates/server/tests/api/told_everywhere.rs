//! Issue 15's "done when": a budget crossing and an injected anomaly each reach a Microsoft
//! Teams channel (through Graph, the local stand-in), a Slack receiver, a signed webhook and the
//! SMTP sink exactly once — and later delivery runs send nothing again.
//!
//! The data: the anomaly module's 120 days of account 111111111111 with one spike the day before
//! the latest day (a new anomaly, so it notifies), and one line today on another billing
//! account (so the second upload replaces nothing of the first) that takes a $800 budget on
//! account 222222222222 over its 75 % alert whatever day of the month the test runs.

use std::time::Duration;

use chrono::{TimeDelta, Utc};
use costscope_connectors::testing::webhook::{ReceivedRequest, WebhookReceiver};
use costscope_connectors::testing::FakeSmtpServer;
use reqwest::StatusCode;
use serde_json::json;

use crate::anomalies::{anomalies_once_detected, data, day_before_latest, RECENT_SPIKE};
use crate::budgets::create;
use crate::channels::{
    all_delivered, deliver_at, deliveries_until, subject, verify_signature, with_smtp, SECRET,
};
use crate::cost_fixture::{upload, FocusCsv, Line};
use crate::helpers::status_and_json;
use crate::teams::{card_of, connect, stand_in, teams_config};

const BUDGET_TITLE: &str = "Budget \"Team budget\" reached its 75% alert";

/// $900 today on account 222222222222 of its own billing account.
fn todays_line() -> FocusCsv {
    let today: &'static str = Box::leak(Utc::now().date_naive().to_string().into_boxed_str());
    let mut line = Line::aws("222222222222", today, 900.0);
    line.billing_account = "999999999999";
    line.account_name = "Team";
    FocusCsv::new().line(line)
}

/// The one webhook request of `event` (by its `X-Costscope-Event`).
fn hook_of<'a>(requests: &'a [ReceivedRequest], event: &str) -> &'a ReceivedRequest {
    let found: Vec<&ReceivedRequest> = requests
        .iter()
        .filter(|r| r.path == "/hook" && r.header("x-costscope-event") == Some(event))
        .collect();
    assert_eq!(found.len(), 1, "{event}: {requests:?}");
    found[0]
}

/// The Slack messages' headers (the event's title), sorted.
fn slack_titles(requests: &[ReceivedRequest]) -> Vec<String> {
    let mut titles: Vec<String> = requests
        .iter()
        .filter(|r| r.path == "/slack")
        .map(|r| {
            r.json()["blocks"][0]["text"]["text"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    titles.sort_unstable();
    titles
}

/// A budget title and an anomaly title, once each.
fn one_of_each(mut titles: Vec<String>) {
    titles.sort_unstable();
    assert_eq!(titles.len(), 2, "{titles:?}");
    assert_eq!(titles[0], BUDGET_TITLE);
    assert!(titles[1].starts_with("Cost anomaly: "), "{titles:?}");
}

#[tokio::test]
async fn a_budget_crossing_and_an_anomaly_each_reach_teams_slack_a_webhook_and_email_once() {
    let smtp = FakeSmtpServer::start().await;
    let receiver = WebhookReceiver::start().await;
    let graph = stand_in("Ops").await;
    let teams = teams_config(&graph);
    let smtp_config = with_smtp(&smtp);
    let app = crate::helpers::spawn_app_with(move |config| {
        smtp_config(config);
        config.teams = Some(teams);
    })
    .await;
    let token = app
        .signup_owner("Olive Owner", "olive@acme.test")
        .await
        .access_token;
    for body in [
        json!({"type": "slack", "name": "Slack", "target": receiver.url("/slack")}),
        json!({"type": "webhook", "name": "Webhook", "target": receiver.url("/hook"), "secret": SECRET}),
        json!({"type": "email", "name": "Mail", "target": "alerts@acme.test"}),
    ] {
        let (status, channel) =
            status_and_json(app.post("/v1/channels", Some(&token), &body).await).await;
        assert_eq!(status, StatusCode::CREATED, "{channel}");
    }
    connect(&app, &token, &graph).await;

    upload(&app, &token, &data(&[RECENT_SPIKE])).await;
    upload(&app, &token, &todays_line()).await;
    let anomaly = anomalies_once_detected(&app, &token, 1).await.remove(0);
    assert_eq!(anomaly["start"], day_before_latest(RECENT_SPIKE).as_str());
    let budget = create(
        &app,
        &token,
        &json!({
            "name": "Team budget", "amount": 800.0, "period": "Monthly",
            "filters": [{"filterType": "account", "filterValues": ["222222222222"]}],
            "alerts": [{"thresholdType": "Percentage", "thresholdValue": 75}],
        }),
    )
    .await;

    // Two events × four channels, each delivered at its first attempt.
    let delivered = deliveries_until(&app, &token, all_delivered(8)).await;
    for delivery in &delivered {
        assert_eq!(delivery["attempts"], 1, "{delivery}");
    }
    for event in ["budget_alert", "anomaly"] {
        let mut names: Vec<&str> = delivered
            .iter()
            .filter(|d| d["event"] == event)
            .map(|d| d["channelName"].as_str().unwrap())
            .collect();
        names.sort_unstable();
        assert_eq!(
            names,
            ["Mail", "Slack", "Teams: Ops / Alerts", "Webhook"],
            "{event}"
        );
    }

    // Slack and the signed webhook: one request per event each.
    let requests = receiver.wait_for(4).await;
    for event in ["budget_alert", "anomaly"] {
        let hook = hook_of(&requests, event);
        verify_signature(hook, SECRET, Utc::now());
        assert_eq!(hook.json()["event"], event);
    }
    assert_eq!(
        hook_of(&requests, "anomaly").json()["data"]["anomalyId"],
        anomaly["id"]
    );
    assert_eq!(
        hook_of(&requests, "budget_alert").json()["data"]["budgetId"],
        budget["id"]
    );
    one_of_each(slack_titles(&requests));

    // Teams through Graph: one card per event, in the picked channel.
    let cards: Vec<String> = graph
        .messages()
        .iter()
        .map(|m| card_of(m)["body"][0]["text"].as_str().unwrap().to_owned())
        .collect();
    one_of_each(cards);

    // E-mail: one message per event to the channel's address.
    let mut subjects = Vec::new();
    for _ in 0..2 {
        let mail = tokio::time::timeout(Duration::from_secs(20), smtp.next_message())
            .await
            .expect("a mail");
        assert_eq!(mail.recipients, ["alerts@acme.test"]);
        subjects.push(subject(&mail).to_owned());
    }
    one_of_each(subjects);

    // Later runs send nothing again to anyone.
    let outcome = deliver_at(&app, Utc::now() + TimeDelta::days(1)).await;
    assert_eq!(
        (outcome.delivered, outcome.failed, outcome.fanned_out),
        (0, 0, 0)
    );
    assert_eq!(receiver.requests().len(), 4);
    assert_eq!(graph.messages().len(), 2);
    assert!(
        tokio::time::timeout(Duration::from_millis(500), smtp.next_message())
            .await
            .is_err(),
        "no third mail"
    );
}
