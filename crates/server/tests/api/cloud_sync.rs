//! The cloud sync job against the real server, with an in-test billing export: a
//! `BillingExportSource` whose deliveries each test controls (put in place of the real
//! connectors through `AppState.sources`). The job's logic is what is tested here: which
//! periods are loaded, through the ingestion, with what history; the connectors have their own
//! tests against moto, the BigQuery stand-in and Azurite (see `cloud_sync_aws.rs` for the whole
//! path against moto).

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_trait::async_trait;
use chrono::{DateTime, NaiveDate, Utc};
use costscope_connectors::settings::AwsExportSettings;
use costscope_connectors::{
    BillingExportSource, ExportObject, ExportPeriod, FetchLimits, FetchedFile, SourceError,
};
use costscope_server::cloud::sources::SourceFactory;
use costscope_server::state::AppState;
use costscope_store::{CloudConnection, NewCloudConnection, SyncState};
use serde_json::{json, Value};

use crate::cost_fixture::{post_ok, FocusCsv, Line};
use crate::helpers::{spawn_app_with, status_and_json, TestApp};

/// One delivery of a billing period: its fingerprint and files (name, content).
#[derive(Debug, Clone)]
pub struct Delivery {
    pub fingerprint: String,
    pub files: Vec<(String, Vec<u8>)>,
}

/// A billing export whose deliveries the test sets.
#[derive(Debug, Default)]
pub struct FakeExport {
    periods: Mutex<BTreeMap<NaiveDate, Delivery>>,
    /// `periods()` fails with this message.
    failure: Mutex<Option<String>>,
    /// `periods()` waits this long first.
    delay: Mutex<Option<Duration>>,
    /// How many times a period was fetched.
    pub fetches: AtomicUsize,
}

impl FakeExport {
    pub fn deliver(&self, month: &str, fingerprint: &str, files: Vec<(String, Vec<u8>)>) {
        self.periods.lock().unwrap().insert(
            month_start(month),
            Delivery {
                fingerprint: fingerprint.to_owned(),
                files,
            },
        );
    }

    pub fn fail_with(&self, message: &str) {
        *self.failure.lock().unwrap() = Some(message.to_owned());
    }

    pub fn delay(&self, delay: Duration) {
        *self.delay.lock().unwrap() = Some(delay);
    }
}

/// `YYYY-MM` → its first day.
pub fn month_start(month: &str) -> NaiveDate {
    NaiveDate::parse_from_str(&format!("{month}-01"), "%Y-%m-%d").unwrap()
}

struct FakeSource(Arc<FakeExport>);

#[async_trait]
impl BillingExportSource for FakeSource {
    async fn check(&self) -> Result<String, SourceError> {
        let periods = self.periods().await?;
        Ok(format!("Found {} billing periods", periods.len()))
    }

    async fn periods(&self) -> Result<Vec<ExportPeriod>, SourceError> {
        let delay = *self.0.delay.lock().unwrap();
        if let Some(delay) = delay {
            tokio::time::sleep(delay).await;
        }
        if let Some(message) = self.0.failure.lock().unwrap().clone() {
            return Err(SourceError::new(message));
        }
        Ok(self
            .0
            .periods
            .lock()
            .unwrap()
            .iter()
            .map(|(start, delivery)| ExportPeriod {
                billing_period: *start,
                fingerprint: delivery.fingerprint.clone(),
                location: format!("fake://export/{start}"),
                objects: delivery
                    .files
                    .iter()
                    .map(|(name, content)| ExportObject {
                        key: name.clone(),
                        bytes: Some(content.len() as u64),
                    })
                    .collect(),
            })
            .collect())
    }

    async fn fetch(
        &self,
        period: &ExportPeriod,
        dir: &Path,
        _limits: FetchLimits,
    ) -> Result<Vec<FetchedFile>, SourceError> {
        self.0.fetches.fetch_add(1, Ordering::SeqCst);
        let delivery = self
            .0
            .periods
            .lock()
            .unwrap()
            .get(&period.billing_period)
            .cloned()
            .ok_or_else(|| SourceError::new("NoSuchKey: the manifest is gone"))?;
        let mut fetched = Vec::new();
        for (index, (name, content)) in delivery.files.iter().enumerate() {
            let base = name.rsplit('/').next().unwrap();
            let path = dir.join(format!("{index}-{base}"));
            tokio::fs::write(&path, content).await.unwrap();
            fetched.push(FetchedFile {
                name: name.clone(),
                path,
                bytes: content.len() as u64,
            });
        }
        Ok(fetched)
    }
}

/// The in-test exports, by the connection's account id.
#[derive(Debug, Default)]
pub struct FakeExports {
    exports: Mutex<HashMap<String, Arc<FakeExport>>>,
}

impl FakeExports {
    pub fn export(&self, account_id: &str) -> Arc<FakeExport> {
        self.exports
            .lock()
            .unwrap()
            .entry(account_id.to_owned())
            .or_default()
            .clone()
    }
}

#[async_trait]
impl SourceFactory for FakeExports {
    async fn source(
        &self,
        _state: &AppState,
        connection: &CloudConnection,
    ) -> Result<Box<dyn BillingExportSource>, SourceError> {
        Ok(Box::new(FakeSource(self.export(&connection.account_id))))
    }
}

/// A fresh app whose syncs read the in-test exports; answers the app, the exports, the
/// owner's token and customer id.
async fn app_with_exports(
    configure: impl FnOnce(&mut costscope_server::config::Config),
) -> (TestApp, Arc<FakeExports>, String, i64) {
    let app = spawn_app_with(configure).await;
    let exports = Arc::new(FakeExports::default());
    app.state.sources.replace(exports.clone());
    let owner = app.signup_owner("Alice Owner", "alice@a.test").await;
    (app, exports, owner.access_token, owner.user.customer_id)
}

/// Connects an AWS account (straight in the store: the HTTP routes have their own tests).
async fn connect(app: &TestApp, customer_id: i64, account_id: &str) -> CloudConnection {
    let settings = serde_json::to_value(AwsExportSettings {
        role_arn: format!("arn:aws:iam::{account_id}:role/CostscopeReadOnly"),
        external_id: "external-id".to_owned(),
        bucket: format!("costscope-exports-{account_id}"),
        prefix: "costscope".to_owned(),
        export_name: "costscope-focus".to_owned(),
        region: "us-east-1".to_owned(),
    })
    .unwrap();
    app.store
        .create_connection(NewCloudConnection {
            customer_id,
            provider: "aws",
            account_id,
            account_name: "Production",
            organization_id: None,
            parent_id: None,
            settings: &settings,
            encrypted_secret: None,
            created_by_user_id: None,
            now: Utc::now(),
        })
        .await
        .unwrap()
}

async fn connection(app: &TestApp, customer_id: i64, id: i64) -> CloudConnection {
    app.store
        .get_connection(customer_id, id)
        .await
        .unwrap()
        .expect("the connection")
}

/// Waits until the connection's sync has ended after `after` (60 s at most).
async fn sync_ended_after(
    app: &TestApp,
    customer_id: i64,
    id: i64,
    after: Option<DateTime<Utc>>,
) -> CloudConnection {
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    loop {
        let current = connection(app, customer_id, id).await;
        if current.sync.state != Some(SyncState::Running)
            && current.sync.finished_at.is_some()
            && current.sync.finished_at > after
        {
            return current;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the sync of connection {id} has not ended: {:?}",
            current.sync
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// "Sync now" (as the route does: request + wake) and wait for it to end.
async fn sync_now(app: &TestApp, customer_id: i64, id: i64) -> CloudConnection {
    let before = connection(app, customer_id, id).await.sync.finished_at;
    assert!(app
        .store
        .request_sync(customer_id, id, Utc::now())
        .await
        .unwrap());
    app.state.sync_wake.notify_one();
    sync_ended_after(app, customer_id, id, before).await
}

fn succeeded(connection: &CloudConnection) -> &str {
    assert_eq!(
        connection.sync.state,
        Some(SyncState::Succeeded),
        "{:?}",
        connection.sync
    );
    connection.sync.details.as_deref().unwrap_or_default()
}

fn failed(connection: &CloudConnection) -> &str {
    assert_eq!(
        connection.sync.state,
        Some(SyncState::Failed),
        "{:?}",
        connection.sync
    );
    connection.sync.error.as_deref().unwrap_or_default()
}

/// A FOCUS CSV of `billed` amounts (one line each) charged to `billing_account` in `month`.
pub fn focus_file(billing_account: &str, month: &str, billed: &[f64]) -> Vec<u8> {
    let billing_account: &'static str = Box::leak(billing_account.to_owned().into_boxed_str());
    let day: &'static str = Box::leak(format!("{month}-03").into_boxed_str());
    let mut csv = FocusCsv::new();
    for amount in billed {
        csv = csv.line(Line {
            billing_account,
            ..Line::aws("123456789012", day, *amount)
        });
    }
    csv.to_csv().into_bytes()
}

/// The billed total of `month` (`YYYY-MM`) in cost analysis.
pub async fn month_total(app: &TestApp, token: &str, month: &str) -> f64 {
    let start = month_start(month);
    let end = start
        .checked_add_months(chrono::Months::new(1))
        .unwrap()
        .pred_opt()
        .unwrap();
    let answer = post_ok(
        app,
        token,
        "/v2/cost/aggr",
        json!({"start_time": start.to_string(), "end_time": end.to_string()}),
    )
    .await;
    answer["summary"]["accrued_cost"].as_f64().unwrap()
}

/// The load history as `GET /v1/ingest` answers it.
pub async fn history(app: &TestApp, token: &str) -> Vec<Value> {
    let (status, body) = status_and_json(app.get("/v1/ingest", Some(token)).await).await;
    assert_eq!(status, 200, "{body}");
    body.as_array().expect("a list of loads").clone()
}

#[tokio::test]
async fn a_sync_loads_every_period_through_the_ingestion_with_its_source_in_the_history() {
    let (app, exports, token, customer_id) = app_with_exports(|_| {}).await;
    let account = connect(&app, customer_id, "123456789012").await;
    let export = exports.export("123456789012");
    export.deliver(
        "2026-09",
        "etag-sep",
        vec![(
            "costscope/costscope-focus/data/BILLING_PERIOD=2026-09/part-1.csv".into(),
            focus_file("900000000001", "2026-09", &[10.25, 0.5]),
        )],
    );
    export.deliver(
        "2026-10",
        "etag-oct",
        vec![
            (
                "costscope/costscope-focus/data/BILLING_PERIOD=2026-10/part-1.csv".into(),
                focus_file("900000000001", "2026-10", &[100.01]),
            ),
            (
                // Same file name under another folder: both are kept apart and loaded.
                "costscope/costscope-focus/data/BILLING_PERIOD=2026-10/more/part-1.csv".into(),
                focus_file("900000000001", "2026-10", &[0.99, 3.0]),
            ),
        ],
    );

    let synced = sync_now(&app, customer_id, account.id).await;

    assert_eq!(
        succeeded(&synced),
        "Loaded 2 billing periods (5 rows)",
        "{synced:?}"
    );
    assert_eq!(synced.sync.requested_at, None);
    assert_eq!(month_total(&app, &token, "2026-09").await, 10.75);
    assert_eq!(month_total(&app, &token, "2026-10").await, 104.0);
    let loads = history(&app, &token).await;
    assert_eq!(loads.len(), 2, "{loads:?}");
    // Newest first: October, then September.
    assert_eq!(
        loads[0]["source"],
        "AWS sync · 123456789012 · s3://costscope-exports-123456789012/costscope/costscope-focus · 2026-10"
    );
    assert_eq!(
        loads[1]["source"],
        "AWS sync · 123456789012 · s3://costscope-exports-123456789012/costscope/costscope-focus · 2026-09"
    );
    for load in &loads {
        assert_eq!(load["status"], "succeeded", "{load}");
        assert_eq!(load["cloud_account_id"], account.id, "{load}");
        assert_eq!(load["created_by"], "cloud sync", "{load}");
    }
    assert_eq!(loads[0]["rows"], 3);
    assert_eq!(loads[0]["files"].as_array().unwrap().len(), 2);
    assert_eq!(
        loads[0]["files"][1]["name"],
        "costscope/costscope-focus/data/BILLING_PERIOD=2026-10/more/part-1.csv"
    );
    let recorded = app.store.synced_periods(account.id).await.unwrap();
    assert_eq!(
        recorded
            .iter()
            .map(|p| (p.billing_period, p.fingerprint.as_str()))
            .collect::<Vec<_>>(),
        vec![
            (month_start("2026-09"), "etag-sep"),
            (month_start("2026-10"), "etag-oct")
        ]
    );
    // The fetched files are gone once loaded.
    let uploads = app.data_dir.path().join("uploads");
    let left: Vec<_> = std::fs::read_dir(&uploads)
        .map(|dir| dir.flatten().map(|entry| entry.path()).collect())
        .unwrap_or_default();
    assert!(left.is_empty(), "left behind: {left:?}");
}

#[tokio::test]
async fn an_unchanged_delivery_is_not_loaded_again_and_a_new_one_replaces_the_old() {
    let (app, exports, token, customer_id) = app_with_exports(|_| {}).await;
    let account = connect(&app, customer_id, "123456789012").await;
    let export = exports.export("123456789012");
    export.deliver(
        "2026-10",
        "etag-1",
        vec![(
            "data/2026-10/a.csv".into(),
            focus_file("900000000001", "2026-10", &[40.0, 2.5]),
        )],
    );
    export.deliver(
        "2026-09",
        "etag-sep",
        vec![(
            "data/2026-09/a.csv".into(),
            focus_file("900000000001", "2026-09", &[7.0]),
        )],
    );
    succeeded(&sync_now(&app, customer_id, account.id).await);
    assert_eq!(month_total(&app, &token, "2026-10").await, 42.5);
    let fetches = export.fetches.load(Ordering::SeqCst);

    // Nothing changed: nothing fetched, no new load.
    let again = sync_now(&app, customer_id, account.id).await;
    assert_eq!(
        succeeded(&again),
        "No new deliveries: 2 billing periods unchanged"
    );
    assert_eq!(export.fetches.load(Ordering::SeqCst), fetches);
    assert_eq!(history(&app, &token).await.len(), 2);

    // AWS delivered October again: only October is loaded, replacing the first delivery.
    export.deliver(
        "2026-10",
        "etag-2",
        vec![(
            "data/2026-10/a.csv".into(),
            focus_file("900000000001", "2026-10", &[50.0, 0.01]),
        )],
    );
    let redelivered = sync_now(&app, customer_id, account.id).await;
    assert_eq!(
        succeeded(&redelivered),
        "Loaded 1 billing period (2 rows), 1 unchanged"
    );
    assert_eq!(month_total(&app, &token, "2026-10").await, 50.01);
    assert_eq!(month_total(&app, &token, "2026-09").await, 7.0);
    let loads = history(&app, &token).await;
    assert_eq!(loads.len(), 3);
    assert_eq!(loads[0]["replaced_rows"], 2, "{}", loads[0]);
}

#[tokio::test]
async fn an_export_that_delivered_nothing_yet_is_a_successful_sync_with_nothing_loaded() {
    let (app, _exports, token, customer_id) = app_with_exports(|_| {}).await;
    let account = connect(&app, customer_id, "123456789012").await;

    let synced = sync_now(&app, customer_id, account.id).await;

    assert_eq!(succeeded(&synced), "No billing data delivered yet");
    assert!(history(&app, &token).await.is_empty());
}

#[tokio::test]
async fn a_source_that_cannot_be_read_fails_the_sync_with_its_reason() {
    let (app, exports, token, customer_id) = app_with_exports(|_| {}).await;
    let account = connect(&app, customer_id, "123456789012").await;
    exports
        .export("123456789012")
        .fail_with("NoSuchBucket: bucket costscope-exports-123456789012 does not exist");

    let synced = sync_now(&app, customer_id, account.id).await;

    assert_eq!(
        failed(&synced),
        "NoSuchBucket: bucket costscope-exports-123456789012 does not exist"
    );
    assert!(history(&app, &token).await.is_empty());
    let metrics = app.get("/metrics", None).await.text().await.unwrap();
    assert!(
        metrics.contains("costscope_cloud_syncs_total{outcome=\"failed\",provider=\"aws\"} 1"),
        "{metrics}"
    );
}

#[tokio::test]
async fn a_refused_file_fails_its_period_only_and_the_period_is_tried_again_next_time() {
    let (app, exports, token, customer_id) = app_with_exports(|_| {}).await;
    let account = connect(&app, customer_id, "123456789012").await;
    let export = exports.export("123456789012");
    export.deliver(
        "2026-09",
        "etag-sep",
        vec![(
            "data/2026-09/a.csv".into(),
            focus_file("900000000001", "2026-09", &[7.0]),
        )],
    );
    export.deliver(
        "2026-10",
        "etag-bad",
        vec![(
            "data/2026-10/a.csv".into(),
            String::from_utf8(focus_file("900000000001", "2026-10", &[7.77]))
                .unwrap()
                .replacen("\"7.77\"", "\"12,5x\"", 1)
                .into_bytes(),
        )],
    );

    let synced = sync_now(&app, customer_id, account.id).await;

    let error = failed(&synced);
    assert!(error.starts_with("Billing period 2026-10: "), "{error}");
    for part in ["data/2026-10/a.csv", "BilledCost", "12,5x"] {
        assert!(error.contains(part), "{part:?} missing from {error}");
    }
    assert!(
        error.ends_with("(Loaded 1 billing period (1 row))"),
        "{error}"
    );
    assert_eq!(month_total(&app, &token, "2026-09").await, 7.0);
    let recorded = app.store.synced_periods(account.id).await.unwrap();
    assert_eq!(recorded.len(), 1, "{recorded:?}");
    let loads = history(&app, &token).await;
    assert_eq!(
        (loads[0]["status"].as_str(), loads[1]["status"].as_str()),
        (Some("failed"), Some("succeeded"))
    );

    // Fixed delivery: October loads, September stays.
    export.deliver(
        "2026-10",
        "etag-good",
        vec![(
            "data/2026-10/a.csv".into(),
            focus_file("900000000001", "2026-10", &[1.5]),
        )],
    );
    let fixed = sync_now(&app, customer_id, account.id).await;
    assert_eq!(
        succeeded(&fixed),
        "Loaded 1 billing period (1 row), 1 unchanged"
    );
    assert_eq!(month_total(&app, &token, "2026-10").await, 1.5);
}

#[tokio::test]
async fn fifty_connections_sync_a_few_at_a_time_and_a_failing_or_stuck_one_blocks_no_other() {
    let (app, exports, token, customer_id) = app_with_exports(|config| {
        config.cloud.sync_concurrency = 4;
        // Long enough for a load that waits its turn behind the tenant's others (loads of one
        // tenant run one at a time), short enough for the stuck one.
        config.cloud.sync_timeout_seconds = 20;
    })
    .await;
    let mut connections = Vec::new();
    for n in 0..50 {
        let account_id = format!("1000000000{n:02}");
        let connection = connect(&app, customer_id, &account_id).await;
        let export = exports.export(&account_id);
        match n {
            7 => export.fail_with("AccessDenied: role arn:aws:iam::100000000007:role/CostscopeReadOnly cannot be assumed"),
            // Stuck past the time limit.
            8 => export.delay(Duration::from_secs(600)),
            _ => export.deliver(
                "2026-10",
                "etag",
                vec![(
                    format!("data/{account_id}.csv"),
                    // One billing account per connection: each load replaces only its own.
                    focus_file(&format!("9{account_id}"), "2026-10", &[f64::from(n) + 0.25]),
                )],
            ),
        }
        connections.push(connection);
    }

    // All due (never synced): the worker takes them 4 at a time.
    app.state.sync_wake.notify_one();
    let mut ended = Vec::new();
    for connection in &connections {
        ended.push(sync_ended_after(&app, customer_id, connection.id, None).await);
    }

    for (n, connection) in ended.iter().enumerate() {
        match n {
            7 => assert!(
                failed(connection).starts_with("AccessDenied: "),
                "{:?}",
                connection.sync
            ),
            8 => assert_eq!(
                failed(connection),
                "The sync did not finish within 20 s; it will be tried again"
            ),
            _ => assert_eq!(succeeded(connection), "Loaded 1 billing period (1 row)"),
        }
    }
    let expected: f64 = (0..50)
        .filter(|n| *n != 7 && *n != 8)
        .map(|n| f64::from(n) + 0.25)
        .sum();
    assert_eq!(month_total(&app, &token, "2026-10").await, expected);
    // Never more than 4 at once: the syncs' start and end times overlap at most 4 deep.
    let mut events: Vec<(DateTime<Utc>, i32)> = Vec::new();
    for connection in &ended {
        events.push((connection.sync.started_at.unwrap(), 1));
        events.push((connection.sync.finished_at.unwrap(), -1));
    }
    events.sort();
    let (mut depth, mut deepest) = (0, 0);
    for (_, step) in events {
        depth += step;
        deepest = deepest.max(depth);
    }
    assert!(deepest <= 4, "{deepest} syncs at once");
}

#[tokio::test]
async fn a_sync_left_running_by_a_stopped_server_is_claimed_again() {
    let (app, exports, token, customer_id) = app_with_exports(|config| {
        config.cloud.sync_timeout_seconds = 60;
    })
    .await;
    let account = connect(&app, customer_id, "123456789012").await;
    exports.export("123456789012").deliver(
        "2026-10",
        "etag",
        vec![(
            "data/a.csv".into(),
            focus_file("900000000001", "2026-10", &[12.0]),
        )],
    );
    // A server that stopped an hour ago had claimed it (and never finished).
    let an_hour_ago = Utc::now() - chrono::Duration::hours(1);
    let claimed = app
        .store
        .claim_due_syncs(an_hour_ago, an_hour_ago, an_hour_ago, 10)
        .await
        .unwrap();
    assert_eq!(
        claimed.iter().map(|c| c.id).collect::<Vec<_>>(),
        vec![account.id]
    );
    let running = connection(&app, customer_id, account.id).await;
    assert_eq!(running.sync.state, Some(SyncState::Running));

    app.state.sync_wake.notify_one();
    let synced = sync_ended_after(&app, customer_id, account.id, None).await;

    assert_eq!(succeeded(&synced), "Loaded 1 billing period (1 row)");
    assert!(synced.sync.started_at.unwrap() > an_hour_ago + chrono::Duration::minutes(59));
    assert_eq!(month_total(&app, &token, "2026-10").await, 12.0);
}

#[tokio::test]
async fn a_running_sync_is_not_claimed_twice_while_it_is_fresh() {
    let (app, exports, _token, customer_id) = app_with_exports(|_| {}).await;
    let account = connect(&app, customer_id, "123456789012").await;
    let export = exports.export("123456789012");
    export.delay(Duration::from_secs(2));
    app.state.sync_wake.notify_one();
    // While it runs, another server's claim takes nothing.
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while connection(&app, customer_id, account.id).await.sync.state != Some(SyncState::Running) {
        assert!(
            std::time::Instant::now() < deadline,
            "the sync never started"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let now = Utc::now();
    let claimed = app
        .store
        .claim_due_syncs(now, now, now - chrono::Duration::hours(1), 10)
        .await
        .unwrap();
    assert!(claimed.is_empty(), "{claimed:?}");
    let synced = sync_ended_after(&app, customer_id, account.id, None).await;
    assert_eq!(succeeded(&synced), "No billing data delivered yet");
}

#[tokio::test]
async fn sync_now_runs_at_once_even_without_a_schedule() {
    let (app, exports, token, customer_id) = app_with_exports(|config| {
        config.cloud.sync_interval_hours = 0;
    })
    .await;
    let account = connect(&app, customer_id, "123456789012").await;
    // The first sync of a new connection.
    app.state.sync_wake.notify_one();
    let first = sync_ended_after(&app, customer_id, account.id, None).await;
    assert_eq!(succeeded(&first), "No billing data delivered yet");

    exports.export("123456789012").deliver(
        "2026-10",
        "etag",
        vec![(
            "data/a.csv".into(),
            focus_file("900000000001", "2026-10", &[3.33]),
        )],
    );
    // Without a schedule, and woken, the worker leaves a synced connection alone…
    app.state.sync_wake.notify_one();
    tokio::time::sleep(Duration::from_millis(500)).await;
    let idle = connection(&app, customer_id, account.id).await;
    assert_eq!(idle.sync.finished_at, first.sync.finished_at);

    // …until "Sync now".
    let started = std::time::Instant::now();
    let synced = sync_now(&app, customer_id, account.id).await;
    assert_eq!(succeeded(&synced), "Loaded 1 billing period (1 row)");
    assert!(started.elapsed() < Duration::from_secs(20));
    assert_eq!(month_total(&app, &token, "2026-10").await, 3.33);
}

#[tokio::test]
async fn a_stored_secret_never_shows_in_a_sync_error_or_answer() {
    // An Azure connection whose SAS token cannot reach its storage: the sync fails naming the
    // place, never the token.
    let app = spawn_app_with(|_| {}).await;
    let owner = app.signup_owner("Sam Secret", "sam@a.test").await;
    let sas = "sv=2022-11-02&ss=b&srt=co&sp=rl&se=2030-01-01T00:00:00Z&sig=TOPSECRETSIGNATURE%3D";
    let settings = json!({
        "storage_account": "costscopetest",
        "container": "exports",
        "directory": "costs",
        "auth": {"kind": "sas"},
        "blob_endpoint": "http://127.0.0.1:9/costscopetest",
    });
    let connection = app
        .store
        .create_connection(NewCloudConnection {
            customer_id: owner.user.customer_id,
            provider: "azure",
            account_id: "00000000-0000-0000-0000-000000000001",
            account_name: "Azure",
            organization_id: None,
            parent_id: None,
            settings: &settings,
            encrypted_secret: Some(&app.state.secrets.encrypt(sas)),
            created_by_user_id: None,
            now: Utc::now(),
        })
        .await
        .unwrap();
    app.state.sync_wake.notify_one();

    let ended = sync_ended_after(&app, owner.user.customer_id, connection.id, None).await;

    assert_eq!(
        ended.sync.state,
        Some(SyncState::Failed),
        "{:?}",
        ended.sync
    );
    let error = ended.sync.error.clone().unwrap();
    assert!(!error.contains("TOPSECRET"), "{error}");
    assert!(!format!("{ended:?}").contains("TOPSECRET"));
    let (status, listed) =
        status_and_json(app.get("/v1/account", Some(&owner.access_token)).await).await;
    assert_eq!(status, 200, "{listed}");
    assert!(!listed.to_string().contains("TOPSECRET"), "{listed}");
    assert!(!listed.to_string().contains("sig="), "{listed}");
}
