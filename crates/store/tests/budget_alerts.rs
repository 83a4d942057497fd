//! Budget alert history and the notification outbox, on every backend: SQLite always,
//! PostgreSQL when `COSTSCOPE_TEST_POSTGRES_URL` names a server (each test gets its own
//! database).

mod support;
use support::{create_customer, for_each_backend};

use std::sync::Arc;

use chrono::{DateTime, Duration, NaiveDate, TimeZone, Utc};
use costscope_core::budget::{
    AlertBasis, AlertThreshold, Alerts, BudgetAmount, BudgetFilter, BudgetFilterType,
    BudgetFilters, BudgetName, BudgetPeriod, ThresholdType,
};
use costscope_store::{
    AlertForecast, Budget, BudgetAlert, MetadataStore, NewBudget, NewBudgetAlert, NotificationKind,
    OutboxNotification,
};
use serde_json::json;

/// A fixed instant, so that stored timestamps and payloads can be compared exactly.
fn at(day: u32, hour: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, day, hour, 0, 2).unwrap()
}

fn november() -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 11, 1).unwrap()
}

fn december() -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 12, 1).unwrap()
}

fn percent(value: f64) -> AlertThreshold {
    AlertThreshold {
        threshold_type: ThresholdType::Percentage,
        value,
        basis: AlertBasis::Actual,
    }
}

fn absolute(value: f64) -> AlertThreshold {
    AlertThreshold {
        threshold_type: ThresholdType::Absolute,
        value,
        basis: AlertBasis::Actual,
    }
}

/// A $5000 monthly budget alerting at 75 %, 90 % and $4500.
async fn create_budget(store: &dyn MetadataStore, customer_id: i64, user_id: i64) -> Budget {
    let amount = BudgetAmount::parse(5000.0).unwrap();
    store
        .create_budget(
            customer_id,
            user_id,
            NewBudget {
                name: BudgetName::parse("Production AWS").unwrap(),
                amount,
                period: BudgetPeriod::Monthly,
                filters: BudgetFilters::parse(vec![BudgetFilter {
                    filter_type: BudgetFilterType::Account,
                    values: vec!["123456789012".to_owned()],
                }])
                .unwrap(),
                alerts: Alerts::parse(vec![percent(75.0), percent(90.0), absolute(4500.0)], amount)
                    .unwrap(),
                now: at(1, 9),
            },
        )
        .await
        .unwrap()
}

fn alert_of(
    budget: &Budget,
    threshold: AlertThreshold,
    triggered_at: DateTime<Utc>,
) -> NewBudgetAlert {
    NewBudgetAlert {
        customer_id: budget.customer_id,
        budget_id: budget.id,
        period_start: november(),
        threshold,
        spent_amount: 5310.42,
        spend_percentage: 106.2084,
        triggered_at,
        forecast: None,
    }
}

async fn record(store: &dyn MetadataStore, alert: NewBudgetAlert) -> Option<BudgetAlert> {
    store.record_budget_alert(alert).await.unwrap()
}

/// Every undelivered notification, whenever it is due.
async fn outbox(store: &dyn MetadataStore) -> Vec<OutboxNotification> {
    store
        .pending_notifications(at(1, 0) + Duration::days(3650), 1000)
        .await
        .unwrap()
}

#[tokio::test]
async fn a_reached_threshold_is_recorded_with_one_budget_alert_notification() {
    for_each_backend(|store| async move {
        let (customer_id, owner) = create_customer(store.as_ref(), "olive@acme.test").await;
        let budget = create_budget(store.as_ref(), customer_id, owner.id).await;

        let alert = record(store.as_ref(), alert_of(&budget, percent(75.0), at(23, 10)))
            .await
            .expect("a first alert is recorded");
        assert_eq!(alert.budget_id, budget.id);
        assert_eq!(alert.period_start, november());
        assert_eq!(alert.threshold, percent(75.0));
        assert_eq!(alert.spent_amount, 5310.42);
        assert_eq!(alert.spend_percentage, 106.2084);
        assert_eq!(alert.triggered_at, at(23, 10));
        assert_eq!(
            store
                .list_budget_alerts(customer_id, budget.id, None)
                .await
                .unwrap(),
            vec![alert.clone()]
        );

        let notifications = outbox(store.as_ref()).await;
        assert_eq!(notifications.len(), 1);
        let notification = &notifications[0];
        assert_eq!(notification.customer_id, customer_id);
        assert_eq!(notification.kind, NotificationKind::BudgetAlert);
        assert_eq!(notification.created_at, at(23, 10));
        assert_eq!(notification.next_attempt_at, at(23, 10));
        assert_eq!(notification.attempts, 0);
        assert_eq!(notification.delivered_at, None);
        assert_eq!(notification.last_error, None);
        assert_eq!(
            notification.payload,
            json!({
                "customerId": customer_id,
                "alertId": alert.id,
                "budgetId": budget.id,
                "budgetName": "Production AWS",
                "budgetAmount": 5000.0,
                "budgetPeriod": "Monthly",
                "thresholdType": "Percentage",
                "thresholdValue": 75.0,
                "spentAmount": 5310.42,
                "spendPercentage": 106.2084,
                "periodStart": "2026-11-01",
                "triggeredAt": "2026-11-23T10:00:02Z",
                "basis": "Actual",
                "forecastAmount": null,
                "exceedsOn": null,
            })
        );
    })
    .await;
}

#[tokio::test]
async fn a_forecasted_threshold_is_recorded_apart_from_the_actual_one_with_its_forecast() {
    for_each_backend(|store| async move {
        let (customer_id, owner) = create_customer(store.as_ref(), "olive@acme.test").await;
        let budget = create_budget(store.as_ref(), customer_id, owner.id).await;
        let actual = record(store.as_ref(), alert_of(&budget, percent(75.0), at(23, 10))).await;
        assert!(actual.is_some());
        let forecasted_threshold = AlertThreshold {
            basis: AlertBasis::Forecasted,
            ..percent(75.0)
        };
        let forecasted = NewBudgetAlert {
            forecast: Some(AlertForecast {
                amount: 6100.0,
                exceeds_on: NaiveDate::from_ymd_opt(2026, 11, 24).unwrap(),
            }),
            ..alert_of(&budget, forecasted_threshold, at(23, 10))
        };
        let recorded = record(store.as_ref(), forecasted.clone())
            .await
            .expect("another basis is another alert");
        assert_eq!(recorded.threshold.basis, AlertBasis::Forecasted);
        assert_eq!(
            record(store.as_ref(), forecasted).await,
            None,
            "once per period and basis"
        );
        let notifications = outbox(store.as_ref()).await;
        assert_eq!(notifications.len(), 2);
        let payload = &notifications[1].payload;
        assert_eq!(payload["basis"], "Forecasted");
        assert_eq!(payload["forecastAmount"], 6100.0);
        assert_eq!(payload["exceedsOn"], "2026-11-24");
        let listed = store
            .list_budget_alerts(customer_id, budget.id, None)
            .await
            .unwrap();
        let mut bases: Vec<AlertBasis> = listed.iter().map(|a| a.threshold.basis).collect();
        bases.sort_by_key(|basis| basis.as_str());
        assert_eq!(bases, vec![AlertBasis::Actual, AlertBasis::Forecasted]);
    })
    .await;
}

#[tokio::test]
async fn the_same_threshold_in_the_same_period_is_recorded_only_once() {
    for_each_backend(|store| async move {
        let (customer_id, owner) = create_customer(store.as_ref(), "olive@acme.test").await;
        let budget = create_budget(store.as_ref(), customer_id, owner.id).await;
        let first = record(store.as_ref(), alert_of(&budget, percent(75.0), at(23, 10)))
            .await
            .unwrap();

        // A later run (or a re-ingestion) finds the same threshold reached with other figures.
        let mut again = alert_of(&budget, percent(75.0), at(23, 11));
        again.spent_amount = 5400.0;
        again.spend_percentage = 108.0;
        assert_eq!(record(store.as_ref(), again).await, None);

        assert_eq!(
            store
                .list_budget_alerts(customer_id, budget.id, None)
                .await
                .unwrap(),
            vec![first]
        );
        assert_eq!(outbox(store.as_ref()).await.len(), 1);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_recordings_of_one_alert_write_it_exactly_once() {
    for_each_backend(|store| async move {
        let (customer_id, owner) = create_customer(store.as_ref(), "olive@acme.test").await;
        let budget = create_budget(store.as_ref(), customer_id, owner.id).await;

        // Like several replicas evaluating at the same moment.
        let tasks: Vec<_> = (0..8)
            .map(|_| {
                let store: Arc<dyn MetadataStore> = store.clone();
                let alert = alert_of(&budget, absolute(4500.0), at(23, 10));
                tokio::spawn(async move { store.record_budget_alert(alert).await.unwrap() })
            })
            .collect();
        let mut recorded = 0;
        for task in tasks {
            if task.await.unwrap().is_some() {
                recorded += 1;
            }
        }

        assert_eq!(recorded, 1);
        assert_eq!(
            store
                .list_budget_alerts(customer_id, budget.id, None)
                .await
                .unwrap()
                .len(),
            1
        );
        assert_eq!(outbox(store.as_ref()).await.len(), 1);
    })
    .await;
}

#[tokio::test]
async fn another_period_threshold_value_or_type_is_a_new_alert() {
    for_each_backend(|store| async move {
        let (customer_id, owner) = create_customer(store.as_ref(), "olive@acme.test").await;
        let budget = create_budget(store.as_ref(), customer_id, owner.id).await;
        record(store.as_ref(), alert_of(&budget, percent(90.0), at(23, 10)))
            .await
            .unwrap();

        let mut next_period = alert_of(&budget, percent(90.0), at(23, 10));
        next_period.period_start = december();
        assert!(record(store.as_ref(), next_period).await.is_some());
        assert!(
            record(store.as_ref(), alert_of(&budget, percent(75.0), at(23, 10)))
                .await
                .is_some()
        );
        // The same number as an absolute threshold is another threshold.
        assert!(record(
            store.as_ref(),
            alert_of(&budget, absolute(90.0), at(23, 10))
        )
        .await
        .is_some());

        let alerts = store
            .list_budget_alerts(customer_id, budget.id, None)
            .await
            .unwrap();
        assert_eq!(alerts.len(), 4);
        assert_eq!(outbox(store.as_ref()).await.len(), 4);
    })
    .await;
}

#[tokio::test]
async fn a_customer_cannot_record_or_see_another_customers_budget_alerts() {
    for_each_backend(|store| async move {
        let (acme, olive) = create_customer(store.as_ref(), "olive@acme.test").await;
        let (other, _) = create_customer(store.as_ref(), "mallory@other.test").await;
        let budget = create_budget(store.as_ref(), acme, olive.id).await;

        let mut foreign = alert_of(&budget, percent(75.0), at(23, 10));
        foreign.customer_id = other;
        assert_eq!(record(store.as_ref(), foreign).await, None);
        let mut unknown = alert_of(&budget, percent(75.0), at(23, 10));
        unknown.budget_id = budget.id + 1000;
        assert_eq!(record(store.as_ref(), unknown).await, None);
        assert!(outbox(store.as_ref()).await.is_empty());
        assert!(store
            .list_budget_alerts(acme, budget.id, None)
            .await
            .unwrap()
            .is_empty());

        let alert = record(store.as_ref(), alert_of(&budget, percent(75.0), at(23, 10)))
            .await
            .unwrap();
        assert!(store
            .list_budget_alerts(other, budget.id, None)
            .await
            .unwrap()
            .is_empty());
        assert_eq!(
            store
                .list_budget_alerts(acme, budget.id, None)
                .await
                .unwrap(),
            vec![alert]
        );
        let notifications = outbox(store.as_ref()).await;
        assert_eq!(notifications.len(), 1);
        assert_eq!(notifications[0].customer_id, acme);
    })
    .await;
}

#[tokio::test]
async fn alerts_are_listed_newest_first_and_filtered_by_when_they_triggered() {
    for_each_backend(|store| async move {
        let (customer_id, owner) = create_customer(store.as_ref(), "olive@acme.test").await;
        let budget = create_budget(store.as_ref(), customer_id, owner.id).await;
        let other_budget = create_budget(store.as_ref(), customer_id, owner.id).await;
        let on_the_20th = record(store.as_ref(), alert_of(&budget, percent(75.0), at(20, 10)))
            .await
            .unwrap();
        let on_the_23rd = record(
            store.as_ref(),
            alert_of(&budget, absolute(4500.0), at(23, 8)),
        )
        .await
        .unwrap();
        // Triggered at the same instant: the later recorded comes first.
        let also_on_the_23rd = record(store.as_ref(), alert_of(&budget, percent(90.0), at(23, 8)))
            .await
            .unwrap();
        record(
            store.as_ref(),
            alert_of(&other_budget, percent(75.0), at(21, 10)),
        )
        .await
        .unwrap();

        let list = |between| {
            let store = store.clone();
            async move {
                store
                    .list_budget_alerts(customer_id, budget.id, between)
                    .await
                    .unwrap()
            }
        };
        assert_eq!(
            list(None).await,
            vec![
                also_on_the_23rd.clone(),
                on_the_23rd.clone(),
                on_the_20th.clone()
            ]
        );
        // Whole days: from the first day's midnight to the last instant of the last day.
        let days = |first: u32, last: u32| {
            let midnight = |day: u32| at(day, 0) - Duration::seconds(2);
            Some((
                midnight(first),
                midnight(last + 1) - Duration::microseconds(1),
            ))
        };
        assert_eq!(list(days(20, 22)).await, vec![on_the_20th.clone()]);
        assert_eq!(
            list(days(23, 23)).await,
            vec![also_on_the_23rd.clone(), on_the_23rd.clone()]
        );
        assert!(list(days(21, 22)).await.is_empty());
        // Both ends of the window are included.
        let microsecond = Duration::microseconds(1);
        assert_eq!(
            list(Some((at(20, 10), at(20, 10)))).await,
            vec![on_the_20th.clone()]
        );
        assert!(
            list(Some((at(20, 10) + microsecond, at(23, 8) - microsecond)))
                .await
                .is_empty()
        );
        assert_eq!(
            list(Some((at(20, 10) + microsecond, at(23, 8)))).await,
            vec![also_on_the_23rd, on_the_23rd]
        );
    })
    .await;
}

#[tokio::test]
async fn deleting_a_budget_removes_its_alert_history_but_keeps_its_notifications() {
    for_each_backend(|store| async move {
        let (customer_id, owner) = create_customer(store.as_ref(), "olive@acme.test").await;
        let budget = create_budget(store.as_ref(), customer_id, owner.id).await;
        let kept = create_budget(store.as_ref(), customer_id, owner.id).await;
        record(store.as_ref(), alert_of(&budget, percent(75.0), at(23, 10)))
            .await
            .unwrap();
        let kept_alert = record(store.as_ref(), alert_of(&kept, percent(75.0), at(23, 10)))
            .await
            .unwrap();

        assert!(store.delete_budget(customer_id, budget.id).await.unwrap());

        assert!(store
            .list_budget_alerts(customer_id, budget.id, None)
            .await
            .unwrap()
            .is_empty());
        assert_eq!(
            store
                .list_budget_alerts(customer_id, kept.id, None)
                .await
                .unwrap(),
            vec![kept_alert]
        );
        let notifications = outbox(store.as_ref()).await;
        assert_eq!(notifications.len(), 2);
        assert_eq!(notifications[0].payload["budgetId"], json!(budget.id));
        assert_eq!(
            notifications[0].payload["budgetName"],
            json!("Production AWS")
        );
    })
    .await;
}

#[tokio::test]
async fn notifications_wait_until_delivered_and_failures_put_them_off() {
    for_each_backend(|store| async move {
        let (customer_id, owner) = create_customer(store.as_ref(), "olive@acme.test").await;
        let budget = create_budget(store.as_ref(), customer_id, owner.id).await;
        for (threshold, triggered_at) in [
            (percent(75.0), at(20, 10)),
            (percent(90.0), at(21, 10)),
            (absolute(4500.0), at(22, 10)),
        ] {
            record(store.as_ref(), alert_of(&budget, threshold, triggered_at))
                .await
                .unwrap();
        }
        let now = at(23, 10);
        let pending = store.pending_notifications(now, 10).await.unwrap();
        let ids: Vec<i64> = pending.iter().map(|n| n.id).collect();
        assert_eq!(ids.len(), 3);
        // Oldest first, and no more than asked for.
        let created: Vec<DateTime<Utc>> = pending.iter().map(|n| n.created_at).collect();
        assert_eq!(created, vec![at(20, 10), at(21, 10), at(22, 10)]);
        let first_two: Vec<i64> = store
            .pending_notifications(now, 2)
            .await
            .unwrap()
            .iter()
            .map(|n| n.id)
            .collect();
        assert_eq!(first_two, ids[..2]);
        // Not yet due: created after `now`.
        assert_eq!(
            store
                .pending_notifications(at(21, 9), 10)
                .await
                .unwrap()
                .len(),
            1
        );

        // A failure counts the attempt, keeps the error and puts the next attempt off.
        let retry_at = now + Duration::minutes(5);
        assert!(store
            .record_notification_failure(ids[0], "SMTP server unavailable", retry_at)
            .await
            .unwrap());
        let due_now: Vec<i64> = store
            .pending_notifications(now, 10)
            .await
            .unwrap()
            .iter()
            .map(|n| n.id)
            .collect();
        assert_eq!(due_now, ids[1..]);
        let later = store.pending_notifications(retry_at, 10).await.unwrap();
        assert_eq!(later.len(), 3);
        let failed = later.iter().find(|n| n.id == ids[0]).unwrap();
        assert_eq!(failed.attempts, 1);
        assert_eq!(
            failed.last_error.as_deref(),
            Some("SMTP server unavailable")
        );
        assert_eq!(failed.next_attempt_at, retry_at);
        assert_eq!(failed.delivered_at, None);

        // Delivered: gone from the pending list, and marked only once.
        assert!(store
            .mark_notification_delivered(ids[0], retry_at)
            .await
            .unwrap());
        assert!(!store
            .mark_notification_delivered(ids[0], retry_at)
            .await
            .unwrap());
        assert!(!store
            .record_notification_failure(ids[0], "late failure", retry_at)
            .await
            .unwrap());
        let remaining: Vec<i64> = outbox(store.as_ref()).await.iter().map(|n| n.id).collect();
        assert_eq!(remaining, ids[1..]);

        let unknown = ids.iter().max().unwrap() + 1000;
        assert!(!store
            .mark_notification_delivered(unknown, now)
            .await
            .unwrap());
        assert!(!store
            .record_notification_failure(unknown, "nothing there", now)
            .await
            .unwrap());
    })
    .await;
}

#[tokio::test]
async fn budgets_of_all_customers_lists_every_budget_by_customer() {
    for_each_backend(|store| async move {
        let (acme, olive) = create_customer(store.as_ref(), "olive@acme.test").await;
        let (other, mallory) = create_customer(store.as_ref(), "mallory@other.test").await;
        let first = create_budget(store.as_ref(), acme, olive.id).await;
        let theirs = create_budget(store.as_ref(), other, mallory.id).await;
        let second = create_budget(store.as_ref(), acme, olive.id).await;

        let all = store.budgets_of_all_customers().await.unwrap();
        assert_eq!(all, vec![first, second, theirs]);
    })
    .await;
}
