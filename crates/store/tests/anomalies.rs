//! Cost anomalies on every backend: SQLite always, PostgreSQL when
//! `COSTSCOPE_TEST_POSTGRES_URL` names a server (each test gets its own database). A scan's
//! runs inserted and grown, open runs no longer found deleted (dismissed ones kept), the
//! `anomaly` outbox event of each new recent run written once, in the same transaction, at most
//! ten per scan; lists by range and status; statuses; settings and their channels, which the
//! fan-out of anomaly events follows; tenancy.

mod support;
use support::{create_customer, for_each_backend};

use chrono::{DateTime, NaiveDate, TimeZone, Utc};
use costscope_core::anomaly::{
    AnomalySettings, AnomalyStatus, Contributor, Contributors, Run, SeriesKey, Thresholds,
};
use costscope_core::notify::ChannelKind;
use costscope_store::{
    AnomalyScan, ChannelCreation, MetadataStore, NewChannel, NotificationKind, ScannedAnomaly,
    StoreError,
};

fn at(hour: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 20, hour, 0, 0).unwrap()
}

fn day(text: &str) -> NaiveDate {
    text.parse().unwrap()
}

fn service(name: &str) -> SeriesKey {
    SeriesKey::Service {
        provider: "aws".to_owned(),
        account_id: "123456789012".to_owned(),
        service: name.to_owned(),
        currency: "USD".to_owned(),
    }
}

fn scanned(
    series: SeriesKey,
    start: &str,
    end: &str,
    actual: f64,
    expected: f64,
) -> ScannedAnomaly {
    let (start, end) = (day(start), day(end));
    ScannedAnomaly {
        series,
        account_name: Some("Prod".to_owned()),
        run: Run {
            start,
            end,
            days: u32::try_from((end - start).num_days() + 1).unwrap(),
            actual,
            expected,
        },
        contributors: Contributors {
            usage_types: vec![Contributor {
                key: "BoxUsage".to_owned(),
                actual,
                expected: 0.0,
                difference: actual,
            }],
            resources: Vec::new(),
        },
    }
}

/// The latest charge day of the scans and their first judged day.
const LATEST: &str = "2026-11-19";
const JUDGED_FROM: &str = "2026-10-16";

async fn scan(
    store: &dyn MetadataStore,
    customer_id: i64,
    runs: &[ScannedAnomaly],
    hour: u32,
) -> costscope_store::ScanOutcome {
    store
        .anomalies()
        .record_anomaly_scan(AnomalyScan {
            customer_id,
            judged_from: day(JUDGED_FROM),
            latest: day(LATEST),
            runs,
            now: at(hour),
        })
        .await
        .unwrap()
}

async fn anomaly_events(store: &dyn MetadataStore) -> Vec<serde_json::Value> {
    store
        .pending_notifications(at(23), 100)
        .await
        .unwrap()
        .into_iter()
        .filter(|n| n.kind == NotificationKind::Anomaly)
        .map(|n| n.payload)
        .collect()
}

#[tokio::test]
async fn a_scan_inserts_grows_and_deletes_runs_and_notifies_each_new_recent_one_once() {
    for_each_backend(|store| async move {
        let (acme, _) = create_customer(store.as_ref(), "olive@acme.test").await;
        let anomalies = store.anomalies();
        let first = [
            scanned(service("EC2"), "2026-11-18", "2026-11-18", 900.0, 300.0),
            // Ended 12 days before the latest day: stored, never notified.
            scanned(service("S3"), "2026-11-07", "2026-11-07", 500.0, 100.0),
        ];
        let outcome = scan(store.as_ref(), acme, &first, 1).await;
        assert_eq!(
            (
                outcome.inserted,
                outcome.updated,
                outcome.deleted,
                outcome.notified
            ),
            (2, 0, 0, 1)
        );
        let listed = anomalies
            .list_anomalies(acme, day("2026-11-01"), day("2026-11-30"), None)
            .await
            .unwrap();
        assert_eq!(listed.len(), 2);
        let ec2 = &listed[0];
        assert_eq!(ec2.series, service("EC2"), "largest impact first");
        assert_eq!(ec2.status, AnomalyStatus::Open);
        assert_eq!(ec2.account_name.as_deref(), Some("Prod"));
        assert_eq!(ec2.impact(), 600.0);
        assert_eq!(ec2.contributors.usage_types[0].key, "BoxUsage");
        assert_eq!(ec2.detected_at, at(1));

        let events = anomaly_events(store.as_ref()).await;
        assert_eq!(events.len(), 1);
        assert_eq!(events[0]["anomalyId"], ec2.id);
        assert_eq!(events[0]["customerId"], acme);
        assert_eq!(events[0]["service"], "EC2");
        assert_eq!(events[0]["accountId"], "123456789012");
        assert_eq!(events[0]["tagKey"], serde_json::Value::Null);
        assert_eq!(events[0]["impact"], 600.0);
        assert_eq!(events[0]["impactPercent"], 200.0);
        assert_eq!(events[0]["topContributors"][0]["key"], "BoxUsage");

        // The next load: the EC2 run grew a day, S3 is no longer flagged (deleted), a new
        // tag run appears. Nothing is notified twice.
        let tag = SeriesKey::Tag {
            key: "team".to_owned(),
            value: "data".to_owned(),
            currency: "EUR".to_owned(),
        };
        let second = [
            scanned(service("EC2"), "2026-11-18", "2026-11-19", 1_900.0, 600.0),
            scanned(tag.clone(), "2026-11-19", "2026-11-19", 400.0, 100.0),
        ];
        let outcome = scan(store.as_ref(), acme, &second, 2).await;
        assert_eq!(
            (
                outcome.inserted,
                outcome.updated,
                outcome.deleted,
                outcome.notified
            ),
            (1, 1, 1, 1)
        );
        let grown = anomalies.get_anomaly(acme, ec2.id).await.unwrap().unwrap();
        assert_eq!(
            (grown.end, grown.days, grown.actual),
            (day("2026-11-19"), 2, 1_900.0)
        );
        assert_eq!((grown.detected_at, grown.updated_at), (at(1), at(2)));
        let events = anomaly_events(store.as_ref()).await;
        assert_eq!(events.len(), 2);
        assert_eq!(events[1]["tagKey"], "team");
        assert_eq!(events[1]["tagValue"], "data");
        assert_eq!(events[1]["service"], serde_json::Value::Null);
        assert_eq!(events[1]["currency"], "EUR");

        // The same scan again writes nothing new.
        let outcome = scan(store.as_ref(), acme, &second, 3).await;
        assert_eq!(
            (outcome.inserted, outcome.notified, outcome.deleted),
            (0, 0, 0)
        );
        assert_eq!(anomaly_events(store.as_ref()).await.len(), 2);
    })
    .await;
}

#[tokio::test]
async fn dismissed_runs_are_kept_and_old_runs_are_not_judged_again() {
    for_each_backend(|store| async move {
        let (acme, _) = create_customer(store.as_ref(), "olive@acme.test").await;
        let anomalies = store.anomalies();
        let runs = [
            scanned(service("EC2"), "2026-11-18", "2026-11-18", 900.0, 300.0),
            scanned(service("RDS"), "2026-11-10", "2026-11-10", 900.0, 300.0),
            // Before the judged window: no later scan deletes it.
            scanned(service("S3"), "2026-09-01", "2026-09-02", 900.0, 300.0),
        ];
        scan(store.as_ref(), acme, &runs, 1).await;
        let listed = anomalies
            .list_anomalies(acme, day("2026-08-01"), day("2026-11-30"), None)
            .await
            .unwrap();
        let id_of = |name: &str| {
            listed
                .iter()
                .find(|a| a.series == service(name))
                .unwrap()
                .id
        };
        let dismissed = anomalies
            .set_anomaly_status(acme, id_of("EC2"), AnomalyStatus::Dismissed, at(2))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(dismissed.status, AnomalyStatus::Dismissed);
        assert_eq!(dismissed.updated_at, at(2));

        let outcome = scan(store.as_ref(), acme, &[], 3).await;
        assert_eq!(outcome.deleted, 1, "only the open RDS run");
        let left = anomalies
            .list_anomalies(acme, day("2026-08-01"), day("2026-11-30"), None)
            .await
            .unwrap();
        let names: Vec<&SeriesKey> = left.iter().map(|a| &a.series).collect();
        assert_eq!(names.len(), 2);
        assert!(names.contains(&&service("EC2")) && names.contains(&&service("S3")));

        // Range and status filters: both ends included.
        let only = anomalies
            .list_anomalies(acme, day("2026-09-02"), day("2026-09-02"), None)
            .await
            .unwrap();
        assert_eq!(only.len(), 1);
        let open = anomalies
            .list_anomalies(
                acme,
                day("2026-08-01"),
                day("2026-11-30"),
                Some(AnomalyStatus::Open),
            )
            .await
            .unwrap();
        assert_eq!(open.len(), 1);
        assert_eq!(open[0].series, service("S3"));
    })
    .await;
}

#[tokio::test]
async fn at_most_ten_new_runs_notify_per_scan_the_largest() {
    for_each_backend(|store| async move {
        let (acme, _) = create_customer(store.as_ref(), "olive@acme.test").await;
        let runs: Vec<ScannedAnomaly> = (0..12)
            .map(|i| {
                scanned(
                    service(&format!("S{i:02}")),
                    "2026-11-19",
                    "2026-11-19",
                    1_000.0 + f64::from(i),
                    100.0,
                )
            })
            .collect();
        let outcome = scan(store.as_ref(), acme, &runs, 1).await;
        assert_eq!((outcome.inserted, outcome.notified), (12, 10));
        let events = anomaly_events(store.as_ref()).await;
        let services: Vec<&str> = events
            .iter()
            .map(|e| e["service"].as_str().unwrap())
            .collect();
        assert!(!services.contains(&"S00") && !services.contains(&"S01"));
    })
    .await;
}

#[tokio::test]
async fn another_tenant_sees_and_changes_nothing() {
    for_each_backend(|store| async move {
        let (acme, _) = create_customer(store.as_ref(), "olive@acme.test").await;
        let (other, _) = create_customer(store.as_ref(), "bob@other.test").await;
        let anomalies = store.anomalies();
        scan(
            store.as_ref(),
            acme,
            &[scanned(
                service("EC2"),
                "2026-11-18",
                "2026-11-18",
                900.0,
                300.0,
            )],
            1,
        )
        .await;
        let id = anomalies
            .list_anomalies(acme, day("2026-11-01"), day("2026-11-30"), None)
            .await
            .unwrap()[0]
            .id;
        assert_eq!(anomalies.get_anomaly(other, id).await.unwrap(), None);
        assert_eq!(
            anomalies
                .set_anomaly_status(other, id, AnomalyStatus::Expected, at(2))
                .await
                .unwrap(),
            None
        );
        assert!(anomalies
            .list_anomalies(other, day("2026-11-01"), day("2026-11-30"), None)
            .await
            .unwrap()
            .is_empty());
        // The other tenant's empty scan deletes nothing of Acme's.
        let outcome = scan(store.as_ref(), other, &[], 3).await;
        assert_eq!(outcome.deleted, 0);
        let kept = anomalies.get_anomaly(acme, id).await.unwrap().unwrap();
        assert_eq!(kept.status, AnomalyStatus::Open);
    })
    .await;
}

async fn channel(store: &dyn MetadataStore, customer_id: i64, name: &str) -> i64 {
    match store
        .channels()
        .create_channel(NewChannel {
            customer_id,
            kind: ChannelKind::Webhook,
            name,
            target: "v1:encrypted-target",
            target_hint: "https://hooks.acme.test/…",
            secret: Some("v1:encrypted-secret"),
            now: at(0),
            max_channels: 20,
        })
        .await
        .unwrap()
    {
        ChannelCreation::Created(channel) => channel.id,
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn settings_keep_their_channels_and_anomaly_events_go_to_them_only() {
    for_each_backend(|store| async move {
        let (acme, _) = create_customer(store.as_ref(), "olive@acme.test").await;
        let (other, _) = create_customer(store.as_ref(), "bob@other.test").await;
        let anomalies = store.anomalies();
        assert_eq!(
            anomalies.anomaly_settings(acme).await.unwrap(),
            AnomalySettings::default()
        );
        let ops = channel(store.as_ref(), acme, "Ops").await;
        let finance = channel(store.as_ref(), acme, "Finance").await;
        let theirs = channel(store.as_ref(), other, "Theirs").await;

        let mut settings = AnomalySettings {
            thresholds: Thresholds::new(0.5, 250.0).unwrap(),
            tag_keys: vec!["team".to_owned(), "env".to_owned()],
            channel_ids: vec![theirs],
        };
        assert!(matches!(
            anomalies.put_anomaly_settings(acme, &settings, at(1)).await,
            Err(StoreError::UnknownChannel)
        ));
        assert_eq!(
            anomalies.anomaly_settings(acme).await.unwrap(),
            AnomalySettings::default(),
            "nothing written"
        );
        settings.channel_ids = vec![finance];
        anomalies
            .put_anomaly_settings(acme, &settings, at(1))
            .await
            .unwrap();
        assert_eq!(anomalies.anomaly_settings(acme).await.unwrap(), settings);
        assert_eq!(
            anomalies.anomaly_settings(other).await.unwrap(),
            AnomalySettings::default()
        );

        scan(
            store.as_ref(),
            acme,
            &[scanned(
                service("EC2"),
                "2026-11-19",
                "2026-11-19",
                900.0,
                300.0,
            )],
            2,
        )
        .await;
        let fanned = store
            .channels()
            .fan_out_notifications(at(3), 10)
            .await
            .unwrap();
        assert_eq!(fanned, 1);
        let deliveries = store.channels().list_deliveries(acme, 10).await.unwrap();
        assert_eq!(deliveries.len(), 1, "{deliveries:?}");
        assert_eq!(deliveries[0].event, "anomaly");
        assert_eq!(deliveries[0].channel_id, Some(finance));
        assert_ne!(deliveries[0].channel_id, Some(ops));

        // Deleting the named channel: the settings name none, anomaly events go everywhere.
        assert!(store
            .channels()
            .delete_channel(acme, finance)
            .await
            .unwrap());
        assert_eq!(
            anomalies.anomaly_settings(acme).await.unwrap().channel_ids,
            Vec::<i64>::new()
        );
        scan(
            store.as_ref(),
            acme,
            &[scanned(
                service("RDS"),
                "2026-11-19",
                "2026-11-19",
                900.0,
                300.0,
            )],
            4,
        )
        .await;
        store
            .channels()
            .fan_out_notifications(at(5), 10)
            .await
            .unwrap();
        let deliveries = store.channels().list_deliveries(acme, 10).await.unwrap();
        let newest = deliveries
            .iter()
            .filter(|d| d.payload["service"] == "RDS")
            .count();
        assert_eq!(newest, 1, "Ops, the only channel left");
    })
    .await;
}
