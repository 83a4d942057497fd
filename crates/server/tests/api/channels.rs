//! Notification channels end to end (docs/NOTIFICATIONS.md): every rule of a new channel, a
//! budget alert reaching Slack, Teams Workflows, a signed webhook and e-mail exactly once,
//! retries with the test clock driving time, giving up after 8 failures, exactly-once across
//! a restart, budgets naming their channels, roles and tenancy.

use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, TimeDelta, Utc};
use costscope_connectors::testing::webhook::{ReceivedRequest, WebhookReceiver};
use costscope_connectors::testing::{FakeSmtpServer, ReceivedMail};
use costscope_core::Clock;
use costscope_server::config::SmtpConfig;
use costscope_server::jobs::notifications::{NotificationDelivery, Outcome};
use reqwest::StatusCode;
use secrecy::SecretString;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use tempfile::TempDir;

use crate::budgets::{budget_data, create};
use crate::cost_fixture::upload;
use crate::helpers::{
    assert_error, assert_invalid, spawn_app, spawn_app_in, spawn_app_with, status_and_json,
    Session, TestApp, PASSWORD,
};

pub const PUBLIC_URL: &str = "https://costs.acme.test";
pub const SECRET: &str = "whsec_test_0123456789abcdef";

/// A clock stopped at one moment: the tests drive the retries' time with it.
#[derive(Debug)]
struct At(DateTime<Utc>);

impl Clock for At {
    fn now(&self) -> DateTime<Utc> {
        self.0
    }
}

/// One run of the app's delivery job at `now`.
pub async fn deliver_at(app: &TestApp, now: DateTime<Utc>) -> Outcome {
    NotificationDelivery::from_state(&app.state)
        .with_clock(Arc::new(At(now)))
        .run_once()
        .await
        .unwrap()
}

pub fn with_smtp(smtp: &FakeSmtpServer) -> impl FnOnce(&mut costscope_server::config::Config) {
    let url = smtp.url();
    move |config| {
        config.public_url = Some(PUBLIC_URL.to_owned());
        config.smtp = Some(SmtpConfig {
            url: SecretString::from(url),
            from: "Costscope <noreply@acme.test>".to_owned(),
        });
    }
}

/// An $800 monthly budget on account 111111111111 alerting at 75 % only: the budget data's
/// $808 reaches it at once, one alert.
fn one_alert_budget(name: &str) -> Value {
    json!({
        "name": name, "amount": 800.0, "period": "Monthly",
        "filters": [{"filterType": "account", "filterValues": ["111111111111"]}],
        "alerts": [{"thresholdType": "Percentage", "thresholdValue": 75}],
    })
}

async fn create_channel(app: &TestApp, token: &str, body: Value) -> Value {
    let (status, channel) =
        status_and_json(app.post("/v1/channels", Some(token), &body).await).await;
    assert_eq!(status, StatusCode::CREATED, "{channel}");
    channel
}

fn webhook(name: &str, url: String) -> Value {
    json!({"type": "webhook", "name": name, "target": url, "secret": SECRET})
}

async fn deliveries(app: &TestApp, token: &str) -> Vec<Value> {
    let (status, list) =
        status_and_json(app.get("/v1/notifications/deliveries", Some(token)).await).await;
    assert_eq!(status, StatusCode::OK, "{list}");
    list.as_array().unwrap().clone()
}

/// Polls the deliveries (20 s at most) until `done` holds of them.
pub async fn deliveries_until(
    app: &TestApp,
    token: &str,
    done: impl Fn(&[Value]) -> bool,
) -> Vec<Value> {
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    loop {
        let list = deliveries(app, token).await;
        if done(&list) {
            return list;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "deliveries never got there: {list:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

pub fn all_delivered(count: usize) -> impl Fn(&[Value]) -> bool {
    move |list| list.len() == count && list.iter().all(|d| d["status"] == "delivered")
}

/// HMAC-SHA256 written out from RFC 2104, independent of the server's implementation.
fn hmac_sha256_hex(key: &[u8], message: &[u8]) -> String {
    let mut block = [0u8; 64];
    if key.len() > 64 {
        block[..32].copy_from_slice(&Sha256::digest(key));
    } else {
        block[..key.len()].copy_from_slice(key);
    }
    let inner: Vec<u8> = block
        .iter()
        .map(|b| b ^ 0x36)
        .chain(message.iter().copied())
        .collect();
    let inner = Sha256::digest(&inner);
    let outer: Vec<u8> = block
        .iter()
        .map(|b| b ^ 0x5c)
        .chain(inner.iter().copied())
        .collect();
    Sha256::digest(&outer)
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

/// What a receiver does: the signature over `timestamp.body` with the secret, and the
/// timestamp within 5 minutes of `now`. Answers the timestamp.
pub fn verify_signature(request: &ReceivedRequest, secret: &str, now: DateTime<Utc>) -> i64 {
    let timestamp = request
        .header("x-costscope-timestamp")
        .expect("a timestamp");
    let mut message = format!("{timestamp}.").into_bytes();
    message.extend_from_slice(&request.body);
    assert_eq!(
        request.header("x-costscope-signature"),
        Some(format!("sha256={}", hmac_sha256_hex(secret.as_bytes(), &message)).as_str()),
        "the signature of {}",
        String::from_utf8_lossy(&request.body)
    );
    let timestamp: i64 = timestamp.parse().unwrap();
    assert!(
        (timestamp - now.timestamp()).abs() <= 300,
        "timestamp {timestamp} is not within 5 minutes of {now}"
    );
    timestamp
}

pub fn subject(mail: &ReceivedMail) -> &str {
    mail.data
        .lines()
        .find_map(|line| line.strip_prefix("Subject: "))
        .unwrap()
}

/// The owner's token of a new tenant with the budget data loaded.
async fn tenant_with_data(app: &TestApp, name: &str, email: &str) -> String {
    let token = app.signup_owner(name, email).await.access_token;
    upload(app, &token, &budget_data()).await;
    token
}

#[tokio::test]
async fn every_rule_of_a_new_channel_answers_its_message() {
    let smtp = FakeSmtpServer::start().await;
    let app = spawn_app_with(with_smtp(&smtp)).await;
    let session = app.signup_owner("Olive Owner", "olive@acme.test").await;
    let token = session.access_token.clone();
    let post = |body: Value| {
        let app = &app;
        let token = token.clone();
        async move { app.post("/v1/channels", Some(&token), &body).await }
    };
    let slack = |target: &str| json!({"type": "slack", "name": "Slack", "target": target});
    let numbered = |n: u32| {
        json!({"type": "slack", "name": format!("Slack {n:02}"),
                                   "target": "https://hooks.slack.com/x"})
    };

    assert_invalid(
        post(json!({"name": "x", "target": "https://a.test/"})).await,
        "type",
        "Choose a channel type: email, slack, teams_webhook or webhook",
    )
    .await;
    assert_invalid(
        post(json!({"type": "pager", "name": "x", "target": "https://a.test/"})).await,
        "type",
        "Choose a channel type: email, slack, teams_webhook or webhook",
    )
    .await;
    assert_invalid(
        post(json!({"type": "slack", "name": "  ", "target": "https://a.test/"})).await,
        "name",
        "Name is required",
    )
    .await;
    assert_invalid(
        post(json!({"type": "slack", "name": "n".repeat(101), "target": "https://a.test/"})).await,
        "name",
        "Name must be at most 100 characters",
    )
    .await;
    assert_invalid(
        post(json!({"type": "email", "name": "Mail", "target": "not-an-address"})).await,
        "target",
        "Enter a valid email address",
    )
    .await;
    for target in [
        "hooks.slack.com/x",
        "http://hooks.slack.com/x",
        "ftp://a.test/",
    ] {
        assert_invalid(
            post(slack(target)).await,
            "target",
            "Enter a URL that starts with https://",
        )
        .await;
    }
    assert_invalid(
        post(slack(&format!("https://a.test/{}", "a".repeat(2048)))).await,
        "target",
        "The URL must be at most 2048 characters",
    )
    .await;
    assert_invalid(
        post(
            json!({"type": "slack", "name": "S", "target": "https://a.test/",
                    "secret": "0123456789abcdef"}),
        )
        .await,
        "secret",
        "Only webhook channels take a secret",
    )
    .await;
    assert_invalid(
        post(
            json!({"type": "webhook", "name": "W", "target": "https://a.test/",
                    "secret": "too-short"}),
        )
        .await,
        "secret",
        "The secret must be 16 to 256 characters",
    )
    .await;

    // A valid one: the answer shows the hint, never the target.
    let created = create_channel(
        &app,
        &token,
        slack("https://hooks.slack.com/services/T0/B0/slack-token"),
    )
    .await;
    assert_eq!(created["type"], "slack");
    assert_eq!(created["targetHint"], "https://hooks.slack.com/…");
    assert_eq!(created["lastDelivery"], Value::Null);
    assert!(created.get("secret").is_none());
    assert!(!created.to_string().contains("slack-token"));
    assert_error(
        post(json!({"type": "webhook", "name": " Slack ", "target": "https://b.test/"})).await,
        StatusCode::CONFLICT,
        "A channel named \"Slack\" already exists",
    )
    .await;
    // Stored encrypted.
    let id = created["id"].as_i64().unwrap();
    let customer_id = session.user.customer_id;
    let stored = app
        .store
        .channels()
        .channel_target(customer_id, id)
        .await
        .unwrap()
        .unwrap();
    assert!(stored.target.starts_with("v1:") && !stored.target.contains("slack-token"));

    // A webhook without a secret gets one, answered once.
    let hook = create_channel(
        &app,
        &token,
        json!({"type": "webhook", "name": "Hook", "target": "https://hooks.acme.test/in"}),
    )
    .await;
    let secret = hook["secret"].as_str().unwrap();
    assert!(
        secret.starts_with("whsec_") && secret.len() == 54,
        "{secret}"
    );
    assert!(secret[6..].chars().all(|c| c.is_ascii_hexdigit()));
    let (_, listed) = status_and_json(app.get("/v1/channels", Some(&token)).await).await;
    assert!(!listed.to_string().contains(secret));
    assert!(!listed.to_string().contains("hooks.acme.test/in"));
    assert_eq!(
        listed
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["name"].as_str().unwrap())
            .collect::<Vec<_>>(),
        ["Hook", "Slack"]
    );

    // At most 20.
    for n in 3..=20 {
        create_channel(&app, &token, numbered(n)).await;
    }
    assert_invalid(
        post(numbered(21)).await,
        "channels",
        "A tenant may have at most 20 channels",
    )
    .await;

    // Without SMTP, no e-mail channel.
    let bare = spawn_app().await;
    let bare_token = bare
        .signup_owner("Olive Owner", "olive@acme.test")
        .await
        .access_token;
    assert_invalid(
        bare.post(
            "/v1/channels",
            Some(&bare_token),
            &json!({"type": "email", "name": "Mail", "target": "ops@acme.test"}),
        )
        .await,
        "target",
        "E-mail channels need SMTP configured on the server",
    )
    .await;
}

#[tokio::test]
async fn a_budget_alert_reaches_slack_teams_a_signed_webhook_and_email_exactly_once() {
    let smtp = FakeSmtpServer::start().await;
    let receiver = WebhookReceiver::start().await;
    let app = spawn_app_with(with_smtp(&smtp)).await;
    let token = tenant_with_data(&app, "Olive Owner", "olive@acme.test").await;
    for body in [
        json!({"type": "slack", "name": "Slack", "target": receiver.url("/slack")}),
        json!({"type": "teams_webhook", "name": "Teams", "target": receiver.url("/teams")}),
        webhook("Webhook", receiver.url("/hook")),
        json!({"type": "email", "name": "Mail", "target": "alerts@acme.test"}),
    ] {
        create_channel(&app, &token, body).await;
    }

    let budget = create(&app, &token, &one_alert_budget("Prod AWS")).await;
    let link = format!("{PUBLIC_URL}/budgets/view/{}", budget["id"]);
    let title = "Budget \"Prod AWS\" reached its 75% alert";

    let mail = tokio::time::timeout(Duration::from_secs(20), smtp.next_message())
        .await
        .expect("a mail");
    assert_eq!(
        mail.recipients,
        ["alerts@acme.test"],
        "the channel, not the owner"
    );
    assert_eq!(subject(&mail), title);
    assert!(
        mail.data.contains(&link) && mail.data.contains("$808.00"),
        "{}",
        mail.data
    );

    let requests = receiver.wait_for(3).await;
    let by_path = |path: &str| {
        let found: Vec<&ReceivedRequest> = requests.iter().filter(|r| r.path == path).collect();
        assert_eq!(found.len(), 1, "{path}: {found:?}");
        found[0].clone()
    };
    let slack = by_path("/slack").json();
    assert_eq!(slack["blocks"][0]["type"], "header");
    assert_eq!(slack["blocks"][0]["text"]["text"], title);
    assert_eq!(slack["blocks"][3]["elements"][0]["url"], link.as_str());
    assert!(slack["text"].as_str().unwrap().contains("$800.00"));

    let teams = by_path("/teams").json();
    assert_eq!(teams["type"], "message");
    let card = &teams["attachments"][0];
    assert_eq!(
        card["contentType"],
        "application/vnd.microsoft.card.adaptive"
    );
    assert_eq!(card["content"]["type"], "AdaptiveCard");
    assert_eq!(card["content"]["version"], "1.4");
    assert_eq!(card["content"]["body"][0]["text"], title);
    assert_eq!(card["content"]["actions"][0]["url"], link.as_str());

    let hook = by_path("/hook");
    verify_signature(&hook, SECRET, Utc::now());
    assert_eq!(hook.header("x-costscope-event"), Some("budget_alert"));
    assert_eq!(hook.header("content-type"), Some("application/json"));
    let envelope = hook.json();
    assert_eq!(
        hook.header("x-costscope-delivery"),
        Some(envelope["id"].to_string().as_str())
    );
    assert_eq!(envelope["event"], "budget_alert");
    assert_eq!(envelope["data"]["budgetName"], "Prod AWS");
    assert_eq!(envelope["data"]["budgetId"], budget["id"]);
    assert_eq!(envelope["data"]["thresholdValue"], 75.0);
    assert!(envelope["createdAt"].as_str().unwrap().ends_with('Z'));

    let delivered = deliveries_until(&app, &token, all_delivered(4)).await;
    for delivery in &delivered {
        assert_eq!(delivery["attempts"], 1, "{delivery}");
        assert_eq!(delivery["title"], title);
        assert_eq!(delivery["event"], "budget_alert");
        assert_eq!(delivery["nextAttemptAt"], Value::Null);
    }
    let webhook_delivery = delivered
        .iter()
        .find(|d| d["channelName"] == "Webhook")
        .unwrap();
    assert_eq!(webhook_delivery["id"], envelope["id"]);

    // Later runs send nothing again, and the owner gets no e-mail of their own.
    let outcome = deliver_at(&app, Utc::now() + TimeDelta::days(1)).await;
    assert_eq!(
        (outcome.delivered, outcome.failed, outcome.fanned_out),
        (0, 0, 0)
    );
    assert_eq!(receiver.requests().len(), 3);
    assert!(app
        .store
        .pending_notifications(Utc::now() + TimeDelta::days(1), 10)
        .await
        .unwrap()
        .is_empty());

    let (status, history) = status_and_json(
        app.get(
            &format!("/v1/budgets/{}/alert-history", budget["id"]),
            Some(&token),
        )
        .await,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{history}");
    let mut names: Vec<&str> = history[0]["deliveries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            assert_eq!(d["status"], "delivered");
            assert_eq!(d["error"], Value::Null);
            d["channelName"].as_str().unwrap()
        })
        .collect();
    names.sort();
    assert_eq!(names, ["Mail", "Slack", "Teams", "Webhook"]);
    let (_, channels) = status_and_json(app.get("/v1/channels", Some(&token)).await).await;
    assert!(channels
        .as_array()
        .unwrap()
        .iter()
        .all(|c| c["lastDelivery"]["status"] == "delivered"));
}

#[tokio::test]
async fn a_receiver_failing_twice_gets_the_alert_on_the_third_try_signed_anew() {
    let receiver = WebhookReceiver::start().await;
    receiver.fail_next(2);
    let app = spawn_app().await;
    let token = tenant_with_data(&app, "Olive Owner", "olive@acme.test").await;
    create_channel(&app, &token, webhook("Webhook", receiver.url("/hook"))).await;
    create(&app, &token, &one_alert_budget("Prod AWS")).await;

    // The server's own job tries at once: 500.
    let first = receiver.wait_for(1).await;
    assert_eq!(first[0].answered, 500);
    let retrying = deliveries_until(&app, &token, |list| {
        list.len() == 1 && list[0]["status"] == "retrying"
    })
    .await;
    assert_eq!(retrying[0]["attempts"], 1);
    assert_eq!(
        retrying[0]["lastError"],
        "the receiver answered 500 Internal Server Error: the receiver is told to fail"
    );
    let next: DateTime<Utc> = retrying[0]["nextAttemptAt"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(
        next > Utc::now() + TimeDelta::seconds(30),
        "a minute later: {next}"
    );

    // Not due before; 2 minutes on: 500 again; 3 minutes after that: delivered.
    assert_eq!(deliver_at(&app, Utc::now()).await, Outcome::default());
    let second_at = Utc::now() + TimeDelta::minutes(2);
    let outcome = deliver_at(&app, second_at).await;
    assert_eq!((outcome.delivered, outcome.failed), (0, 1));
    let third_at = second_at + TimeDelta::minutes(3);
    let outcome = deliver_at(&app, third_at).await;
    assert_eq!((outcome.delivered, outcome.failed), (1, 0));

    let requests = receiver.requests();
    assert_eq!(
        requests.iter().map(|r| r.answered).collect::<Vec<_>>(),
        [500, 500, 200]
    );
    let delivery_id = requests[0].header("x-costscope-delivery").unwrap();
    assert!(requests
        .iter()
        .all(|r| r.header("x-costscope-delivery") == Some(delivery_id)));
    assert_eq!(
        verify_signature(&requests[1], SECRET, second_at),
        second_at.timestamp()
    );
    assert_eq!(
        verify_signature(&requests[2], SECRET, third_at),
        third_at.timestamp()
    );
    assert_eq!(
        requests[1].body, requests[2].body,
        "the same envelope, signed anew"
    );

    let delivered = deliveries(&app, &token).await;
    assert_eq!(delivered[0]["status"], "delivered");
    assert_eq!(delivered[0]["attempts"], 3);
    assert_eq!(delivered[0]["lastError"], Value::Null);
}

#[tokio::test]
async fn eight_failures_end_failed_in_the_deliveries_and_the_alert_history() {
    let receiver = WebhookReceiver::start().await;
    receiver.fail_next(100);
    let app = spawn_app().await;
    let token = tenant_with_data(&app, "Olive Owner", "olive@acme.test").await;
    create_channel(&app, &token, webhook("Webhook", receiver.url("/hook"))).await;
    let budget = create(&app, &token, &one_alert_budget("Prod AWS")).await;
    receiver.wait_for(1).await;
    deliveries_until(&app, &token, |list| {
        list.len() == 1 && list[0]["status"] == "retrying"
    })
    .await;

    // Attempts 2 to 8, two hours apart (the waits grow to 64 minutes).
    let start = Utc::now();
    for attempt in 2..=8 {
        let outcome = deliver_at(&app, start + TimeDelta::hours(2 * attempt)).await;
        assert_eq!(outcome.failed, 1, "attempt {attempt}");
        assert_eq!(
            outcome.given_up,
            usize::from(attempt == 8),
            "attempt {attempt}"
        );
    }
    assert_eq!(
        deliver_at(&app, start + TimeDelta::days(30)).await,
        Outcome::default(),
        "never tried again"
    );
    assert_eq!(receiver.requests().len(), 8);

    let failed = deliveries(&app, &token).await;
    assert_eq!(failed.len(), 1);
    assert_eq!(failed[0]["status"], "failed");
    assert_eq!(failed[0]["attempts"], 8);
    assert_eq!(failed[0]["nextAttemptAt"], Value::Null);
    let error = "the receiver answered 500 Internal Server Error: the receiver is told to fail";
    assert_eq!(failed[0]["lastError"], error);

    let (_, history) = status_and_json(
        app.get(
            &format!("/v1/budgets/{}/alert-history", budget["id"]),
            Some(&token),
        )
        .await,
    )
    .await;
    assert_eq!(
        history[0]["deliveries"],
        json!([{"channelName": "Webhook", "status": "failed", "error": error}])
    );
    let (_, channels) = status_and_json(app.get("/v1/channels", Some(&token)).await).await;
    assert_eq!(channels[0]["lastDelivery"]["status"], "failed");
    assert_eq!(channels[0]["lastDelivery"]["error"], error);
}

/// A server in a runtime of its own: stopping it drops the runtime, and with it the HTTP
/// server, the delivery job and everything they were doing.
struct OwnRuntime {
    app: TestApp,
    stop: tokio::sync::oneshot::Sender<()>,
    thread: std::thread::JoinHandle<()>,
}

impl OwnRuntime {
    async fn start(data_dir: TempDir) -> Self {
        let (ready, app) = tokio::sync::oneshot::channel();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(async move {
                let _ = ready.send(spawn_app_in(data_dir, |_| {}).await);
                let _ = stopped.await;
            });
        });
        Self {
            app: app.await.expect("the first server started"),
            stop,
            thread,
        }
    }

    /// Stops the server; answers its data directory.
    async fn stop(self) -> TempDir {
        self.stop.send(()).unwrap();
        let thread = self.thread;
        tokio::task::spawn_blocking(move || thread.join().unwrap())
            .await
            .unwrap();
        self.app.data_dir
    }
}

#[tokio::test]
async fn a_delivery_is_sent_exactly_once_across_a_restart_between_retries() {
    let receiver = WebhookReceiver::start().await;
    receiver.fail_next(1);
    let first = OwnRuntime::start(tempfile::tempdir().unwrap()).await;
    let token = tenant_with_data(&first.app, "Olive Owner", "olive@acme.test").await;
    create_channel(
        &first.app,
        &token,
        webhook("Webhook", receiver.url("/hook")),
    )
    .await;
    create(&first.app, &token, &one_alert_budget("Prod AWS")).await;
    assert_eq!(receiver.wait_for(1).await[0].answered, 500);
    deliveries_until(&first.app, &token, |list| {
        list.len() == 1 && list[0]["status"] == "retrying"
    })
    .await;

    // Stopped between the attempts, started again on the same data.
    let data_dir = first.stop().await;
    let app = spawn_app_in(data_dir, |_| {}).await;
    let token = Session::from_response(app.login("olive@acme.test", PASSWORD).await)
        .await
        .access_token;
    assert_eq!(deliveries(&app, &token).await[0]["status"], "retrying");
    let retry_at = Utc::now() + TimeDelta::minutes(2);
    assert_eq!(deliver_at(&app, retry_at).await.delivered, 1);
    for later in [TimeDelta::minutes(3), TimeDelta::days(1)] {
        assert_eq!(deliver_at(&app, retry_at + later).await, Outcome::default());
    }

    let requests = receiver.requests();
    assert_eq!(
        requests.iter().map(|r| r.answered).collect::<Vec<_>>(),
        [500, 200],
        "one success, no second one"
    );
    assert_eq!(
        requests[0].header("x-costscope-delivery"),
        requests[1].header("x-costscope-delivery")
    );
    verify_signature(&requests[1], SECRET, retry_at);
    let delivered = deliveries(&app, &token).await;
    assert_eq!(
        (
            delivered.len(),
            &delivered[0]["status"],
            &delivered[0]["attempts"]
        ),
        (1, &json!("delivered"), &json!(2))
    );
}

#[tokio::test]
async fn a_budget_naming_channels_alerts_those_only() {
    let receiver = WebhookReceiver::start().await;
    let app = spawn_app().await;
    let token = tenant_with_data(&app, "Olive Owner", "olive@acme.test").await;
    let a = create_channel(&app, &token, webhook("Hook A", receiver.url("/a"))).await;
    let b = create_channel(&app, &token, webhook("Hook B", receiver.url("/b"))).await;

    let mut body = one_alert_budget("Prod AWS");
    body["channelIds"] = json!([b["id"], b["id"]]);
    let budget = create(&app, &token, &body).await;
    assert_eq!(budget["channelIds"], json!([b["id"]]));
    let delivered = deliveries_until(&app, &token, all_delivered(1)).await;
    assert_eq!(delivered[0]["channelName"], "Hook B");
    assert_eq!(
        receiver
            .requests()
            .iter()
            .map(|r| r.path.as_str())
            .collect::<Vec<_>>(),
        ["/b"]
    );

    // Read back, replaced by an edit, kept by an edit without them.
    let path = format!("/v1/budgets/{}", budget["id"]);
    let (_, read) = status_and_json(app.get(&path, Some(&token)).await).await;
    assert_eq!(read["channelIds"], json!([b["id"]]));
    body["channelIds"] = json!([a["id"]]);
    let (status, edited) = status_and_json(app.put(&path, &token, &body).await).await;
    assert_eq!(status, StatusCode::OK, "{edited}");
    assert_eq!(edited["channelIds"], json!([a["id"]]));
    body.as_object_mut().unwrap().remove("channelIds");
    let (_, kept) = status_and_json(app.put(&path, &token, &body).await).await;
    assert_eq!(kept["channelIds"], json!([a["id"]]));
    let (_, listed) = status_and_json(app.get("/v1/budgets", Some(&token)).await).await;
    assert_eq!(listed[0]["channelIds"], json!([a["id"]]));

    // Ids that are not the customer's channels.
    body["channelIds"] = json!([a["id"], 999_999]);
    assert_invalid(
        app.put(&path, &token, &body).await,
        "channelIds",
        "Unknown channel",
    )
    .await;
    let mut bad = one_alert_budget("");
    bad["channelIds"] = json!([999_999]);
    let (status, answer) = status_and_json(app.post("/v1/budgets", Some(&token), &bad).await).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(answer["details"]["channelIds"], json!(["Unknown channel"]));
    assert_eq!(
        answer["details"]["name"],
        json!(["Budget name is required"])
    );
}

#[tokio::test]
async fn only_owners_and_admins_manage_channels_and_every_role_reads_them() {
    let receiver = WebhookReceiver::start().await;
    let app = spawn_app().await;
    let owner = app
        .signup_owner("Olive Owner", "olive@acme.test")
        .await
        .access_token;
    let admin = app
        .add_member(&owner, "Ada Admin", "ada@acme.test", "Admin")
        .await
        .access_token;
    let user = app
        .add_member(&owner, "Uma User", "uma@acme.test", "User")
        .await
        .access_token;
    let channel = create_channel(&app, &admin, webhook("Hook", receiver.url("/hook"))).await;
    let id = channel["id"].as_i64().unwrap();
    let message = "Only owners and admins can manage channels";

    assert_error(
        app.post(
            "/v1/channels",
            Some(&user),
            &webhook("Mine", receiver.url("/u")),
        )
        .await,
        StatusCode::FORBIDDEN,
        message,
    )
    .await;
    assert_error(
        app.delete(&format!("/v1/channels/{id}"), &user).await,
        StatusCode::FORBIDDEN,
        message,
    )
    .await;
    assert_error(
        app.post(&format!("/v1/channels/{id}/test"), Some(&user), &json!({}))
            .await,
        StatusCode::FORBIDDEN,
        message,
    )
    .await;
    assert!(receiver.requests().is_empty());
    let (status, listed) = status_and_json(app.get("/v1/channels", Some(&user)).await).await;
    assert_eq!(
        (status, listed[0]["name"].clone()),
        (StatusCode::OK, json!("Hook"))
    );
    let (status, _) =
        status_and_json(app.get("/v1/notifications/deliveries", Some(&user)).await).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        app.delete(&format!("/v1/channels/{id}"), &owner)
            .await
            .status(),
        StatusCode::NO_CONTENT
    );
}

#[tokio::test]
async fn another_tenant_never_sees_or_touches_a_tenants_channels() {
    let receiver = WebhookReceiver::start().await;
    let app = spawn_app().await;
    let alpha = tenant_with_data(&app, "Alice Alpha", "alice@a.test").await;
    let bravo = tenant_with_data(&app, "Bob Bravo", "bob@b.test").await;
    let channel = create_channel(&app, &alpha, webhook("Alpha Hook", receiver.url("/a"))).await;
    let id = channel["id"].as_i64().unwrap();
    create(&app, &alpha, &one_alert_budget("Alpha Budget")).await;
    deliveries_until(&app, &alpha, all_delivered(1)).await;

    let (_, listed) = status_and_json(app.get("/v1/channels", Some(&bravo)).await).await;
    assert_eq!(listed, json!([]));
    assert!(deliveries(&app, &bravo).await.is_empty());
    assert_error(
        app.delete(&format!("/v1/channels/{id}"), &bravo).await,
        StatusCode::NOT_FOUND,
        "No channel found.",
    )
    .await;
    assert_error(
        app.post(&format!("/v1/channels/{id}/test"), Some(&bravo), &json!({}))
            .await,
        StatusCode::NOT_FOUND,
        "No channel found.",
    )
    .await;
    let mut body = one_alert_budget("Bravo Budget");
    body["channelIds"] = json!([id]);
    assert_invalid(
        app.post("/v1/budgets", Some(&bravo), &body).await,
        "channelIds",
        "Unknown channel",
    )
    .await;
    // Bravo has no channel: its alert goes to its owner by e-mail (no SMTP here: it waits),
    // never to Alpha's channel.
    body.as_object_mut().unwrap().remove("channelIds");
    create(&app, &bravo, &body).await;
    deliver_at(&app, Utc::now()).await;
    assert_eq!(receiver.requests().len(), 1);
    let (_, listed) = status_and_json(app.get("/v1/channels", Some(&alpha)).await).await;
    assert_eq!(listed[0]["id"], id);
}

#[tokio::test]
async fn send_test_delivers_now_or_says_why_not() {
    let smtp = FakeSmtpServer::start().await;
    let receiver = WebhookReceiver::start().await;
    let app = spawn_app_with(with_smtp(&smtp)).await;
    let token = app
        .signup_owner("Olive Owner", "olive@acme.test")
        .await
        .access_token;
    let hook = create_channel(&app, &token, webhook("Hook", receiver.url("/hook"))).await;
    let test = |id: &Value| format!("/v1/channels/{id}/test");

    let (status, answer) =
        status_and_json(app.post(&test(&hook["id"]), Some(&token), &json!({})).await).await;
    assert_eq!(
        (status, answer),
        (StatusCode::OK, json!({"delivered": true}))
    );
    let request = &receiver.wait_for(1).await[0];
    verify_signature(request, SECRET, Utc::now());
    assert_eq!(request.header("x-costscope-event"), Some("test"));
    let envelope = request.json();
    assert_eq!(envelope["event"], "test");
    assert_eq!(envelope["data"]["channelName"], "Hook");
    assert!(envelope["id"].as_str().unwrap().starts_with("test-"));
    assert_eq!(
        request.header("x-costscope-delivery"),
        envelope["id"].as_str()
    );

    receiver.fail_next(1);
    assert_error(
        app.post(&test(&hook["id"]), Some(&token), &json!({})).await,
        StatusCode::BAD_GATEWAY,
        "The test message was not delivered: the receiver answered 500 Internal Server Error: \
         the receiver is told to fail",
    )
    .await;
    let dead = create_channel(
        &app,
        &token,
        json!({"type": "slack", "name": "Dead", "target": "http://127.0.0.1:9/hook"}),
    )
    .await;
    let (status, answer) =
        status_and_json(app.post(&test(&dead["id"]), Some(&token), &json!({})).await).await;
    assert_eq!(status, StatusCode::BAD_GATEWAY);
    let message = answer["message"].as_str().unwrap();
    assert!(
        message.starts_with(
            "The test message was not delivered: could not connect to 127.0.0.1:9: Connection refused"
        ),
        "{message}"
    );

    let mail = create_channel(
        &app,
        &token,
        json!({"type": "email", "name": "Mail", "target": "ops@acme.test"}),
    )
    .await;
    assert_eq!(mail["targetHint"], "ops@acme.test");
    let (status, _) =
        status_and_json(app.post(&test(&mail["id"]), Some(&token), &json!({})).await).await;
    assert_eq!(status, StatusCode::OK);
    let sent = smtp.next_message().await;
    assert_eq!(sent.recipients, ["ops@acme.test"]);
    assert_eq!(subject(&sent), "Costscope test message");
    assert!(sent.data.contains("\"Mail\""));

    // Deleted: gone, and a second delete finds nothing.
    let path = format!("/v1/channels/{}", hook["id"]);
    assert_eq!(
        app.delete(&path, &token).await.status(),
        StatusCode::NO_CONTENT
    );
    assert_error(
        app.delete(&path, &token).await,
        StatusCode::NOT_FOUND,
        "No channel found.",
    )
    .await;
    assert_error(
        app.post(&test(&hook["id"]), Some(&token), &json!({})).await,
        StatusCode::NOT_FOUND,
        "No channel found.",
    )
    .await;
    // No test message is a delivery.
    assert!(deliveries(&app, &token).await.is_empty());
    for limit in ["0", "201", "many"] {
        assert_invalid(
            app.get(
                &format!("/v1/notifications/deliveries?limit={limit}"),
                Some(&token),
            )
            .await,
            "limit",
            "limit must be a whole number from 1 to 200",
        )
        .await;
    }
}
