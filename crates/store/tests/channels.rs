//! Notification channels, the fan-out of outbox events into deliveries, their retries and
//! history, and the channels a budget names, on every backend: SQLite always, PostgreSQL when
//! `COSTSCOPE_TEST_POSTGRES_URL` names a server (each test gets its own database).

mod support;
use support::{create_customer, for_each_backend};

use chrono::{DateTime, NaiveDate, TimeZone, Utc};
use costscope_core::budget::{
    AlertBasis, AlertThreshold, Alerts, BudgetAmount, BudgetFilter, BudgetFilterType,
    BudgetFilters, BudgetName, BudgetPeriod, ThresholdType,
};
use costscope_core::notify::{ChannelKind, DeliveryStatus};
use costscope_store::{
    AlertDelivery, Budget, BudgetChanges, Channel, ChannelCreation, MetadataStore, NewBudget,
    NewBudgetAlert, NewChannel, StoreError,
};

fn at(day: u32, hour: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, day, hour, 0, 2).unwrap()
}

fn percent(value: f64) -> AlertThreshold {
    AlertThreshold {
        threshold_type: ThresholdType::Percentage,
        value,
        basis: AlertBasis::Actual,
    }
}

fn new_budget(name: &str) -> NewBudget {
    let amount = BudgetAmount::parse(5000.0).unwrap();
    NewBudget {
        name: BudgetName::parse(name).unwrap(),
        amount,
        period: BudgetPeriod::Monthly,
        filters: BudgetFilters::parse(vec![BudgetFilter {
            filter_type: BudgetFilterType::Account,
            values: vec!["123456789012".to_owned()],
        }])
        .unwrap(),
        alerts: Alerts::parse(vec![percent(75.0), percent(90.0)], amount).unwrap(),
        now: at(1, 9),
    }
}

fn new_channel<'a>(customer_id: i64, kind: ChannelKind, name: &'a str) -> NewChannel<'a> {
    NewChannel {
        customer_id,
        kind,
        name,
        target: "v1:encrypted-target",
        target_hint: "https://hooks.acme.test/…",
        secret: (kind == ChannelKind::Webhook).then_some("v1:encrypted-secret"),
        now: at(2, 9),
        max_channels: 20,
    }
}

async fn create_channel(store: &dyn MetadataStore, customer_id: i64, name: &str) -> Channel {
    match store
        .channels()
        .create_channel(new_channel(customer_id, ChannelKind::Webhook, name))
        .await
        .unwrap()
    {
        ChannelCreation::Created(channel) => channel,
        other => panic!("{name} not created: {other:?}"),
    }
}

/// Records the budget's 75 % (or `threshold`) alert and its outbox event.
async fn alert(store: &dyn MetadataStore, budget: &Budget, threshold: f64) -> i64 {
    store
        .record_budget_alert(NewBudgetAlert {
            customer_id: budget.customer_id,
            budget_id: budget.id,
            period_start: NaiveDate::from_ymd_opt(2026, 11, 1).unwrap(),
            threshold: percent(threshold),
            spent_amount: 4000.0,
            spend_percentage: 80.0,
            triggered_at: at(23, 10),
            forecast: None,
        })
        .await
        .unwrap()
        .expect("a new alert")
        .id
}

/// Channel names of the deliveries due at `now`, sorted.
async fn due_names(store: &dyn MetadataStore, now: DateTime<Utc>) -> Vec<String> {
    let mut names: Vec<String> = store
        .channels()
        .due_deliveries(now, 100)
        .await
        .unwrap()
        .into_iter()
        .map(|delivery| delivery.channel.name)
        .collect();
    names.sort();
    names
}

#[tokio::test]
async fn a_channel_is_created_once_per_name_and_at_most_twenty_per_tenant() {
    for_each_backend(|store| async move {
        let (acme, _) = create_customer(store.as_ref(), "olive@acme.test").await;
        let (other, _) = create_customer(store.as_ref(), "bob@other.test").await;
        let channels = store.channels();

        let created = create_channel(store.as_ref(), acme, "Ops hook").await;
        assert_eq!(created.customer_id, acme);
        assert_eq!(created.kind, ChannelKind::Webhook);
        assert_eq!(created.name, "Ops hook");
        assert_eq!(created.target_hint, "https://hooks.acme.test/…");
        assert_eq!(created.created_at, at(2, 9));
        assert_eq!(created.last_delivery, None);
        assert_eq!(
            channels.list_channels(acme).await.unwrap(),
            vec![created.clone()]
        );

        assert_eq!(
            channels
                .create_channel(new_channel(acme, ChannelKind::Slack, "Ops hook"))
                .await
                .unwrap(),
            ChannelCreation::NameTaken
        );
        // Names are the tenant's own.
        create_channel(store.as_ref(), other, "Ops hook").await;

        for n in 2..=20 {
            create_channel(store.as_ref(), acme, &format!("Hook {n:02}")).await;
        }
        assert_eq!(
            channels
                .create_channel(new_channel(acme, ChannelKind::Slack, "One too many"))
                .await
                .unwrap(),
            ChannelCreation::LimitReached
        );
        let listed = channels.list_channels(acme).await.unwrap();
        assert_eq!(listed.len(), 20);
        assert_eq!(listed[0].name, "Hook 02", "by name");
        assert!(listed.iter().all(|channel| channel.customer_id == acme));
        assert_eq!(channels.channel_ids(acme).await.unwrap().len(), 20);
        assert_eq!(channels.list_channels(other).await.unwrap().len(), 1);

        // The target and secret, still encrypted, for the tenant only.
        let target = channels
            .channel_target(acme, created.id)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(target.target, "v1:encrypted-target");
        assert_eq!(target.secret.as_deref(), Some("v1:encrypted-secret"));
        assert_eq!(
            channels.channel_target(other, created.id).await.unwrap(),
            None
        );
        assert!(!channels.delete_channel(other, created.id).await.unwrap());
        assert!(channels.delete_channel(acme, created.id).await.unwrap());
        assert!(!channels.delete_channel(acme, created.id).await.unwrap());
        assert_eq!(channels.list_channels(acme).await.unwrap().len(), 19);
    })
    .await;
}

#[tokio::test]
async fn an_event_fans_out_once_into_one_delivery_per_channel_of_its_tenant() {
    for_each_backend(|store| async move {
        let (acme, owner) = create_customer(store.as_ref(), "olive@acme.test").await;
        let (quiet, quiet_owner) = create_customer(store.as_ref(), "quinn@quiet.test").await;
        let channels = store.channels();
        create_channel(store.as_ref(), acme, "Hook A").await;
        create_channel(store.as_ref(), acme, "Hook B").await;
        let budget = store
            .create_budget(acme, owner.id, new_budget("Prod"))
            .await
            .unwrap();
        let quiet_budget = store
            .create_budget(quiet, quiet_owner.id, new_budget("Quiet"))
            .await
            .unwrap();
        alert(store.as_ref(), &budget, 75.0).await;
        alert(store.as_ref(), &quiet_budget, 75.0).await;

        // Before the fan-out, Acme's event waits for its channels, not for the e-mail.
        let fallback = store.pending_notifications(at(24, 0), 10).await.unwrap();
        assert_eq!(fallback.len(), 1);
        assert_eq!(
            fallback[0].customer_id, quiet,
            "a tenant without channels only"
        );

        assert_eq!(
            channels
                .fan_out_notifications(at(23, 11), 10)
                .await
                .unwrap(),
            1
        );
        assert_eq!(
            channels
                .fan_out_notifications(at(23, 12), 10)
                .await
                .unwrap(),
            0,
            "once"
        );
        assert_eq!(
            due_names(store.as_ref(), at(23, 11)).await,
            ["Hook A", "Hook B"]
        );
        assert!(
            due_names(store.as_ref(), at(23, 10)).await.is_empty(),
            "not due before"
        );

        let due = channels.due_deliveries(at(23, 11), 10).await.unwrap();
        assert!(due.iter().all(|delivery| delivery.customer_id == acme
            && delivery.event == "budget_alert"
            && delivery.payload["budgetName"] == "Prod"
            && delivery.raised_at == at(23, 10)
            && delivery.attempts == 0
            && delivery.channel.target == "v1:encrypted-target"));

        let listed = channels.list_deliveries(acme, 50).await.unwrap();
        assert_eq!(listed.len(), 2);
        assert!(listed
            .iter()
            .all(|delivery| delivery.status == DeliveryStatus::Pending
                && delivery.next_attempt_at == Some(at(23, 11))
                && delivery.created_at == at(23, 11)));
        assert!(channels
            .list_deliveries(quiet, 50)
            .await
            .unwrap()
            .is_empty());

        // A channel created later gets later events only.
        create_channel(store.as_ref(), acme, "Hook C").await;
        assert_eq!(
            channels
                .fan_out_notifications(at(23, 13), 10)
                .await
                .unwrap(),
            0
        );
        assert_eq!(
            due_names(store.as_ref(), at(23, 13)).await,
            ["Hook A", "Hook B"]
        );
    })
    .await;
}

#[tokio::test]
async fn a_budget_naming_channels_sends_its_alerts_to_those_only() {
    for_each_backend(|store| async move {
        let (acme, owner) = create_customer(store.as_ref(), "olive@acme.test").await;
        let (other, _) = create_customer(store.as_ref(), "bob@other.test").await;
        let channels = store.channels();
        let a = create_channel(store.as_ref(), acme, "Hook A").await;
        let b = create_channel(store.as_ref(), acme, "Hook B").await;
        let foreign = create_channel(store.as_ref(), other, "Foreign").await;

        // Another tenant's channel: refused, nothing written.
        let refused = store
            .create_budget_with_channels(acme, owner.id, new_budget("Prod"), &[b.id, foreign.id])
            .await;
        assert!(
            matches!(refused, Err(StoreError::UnknownChannel)),
            "{refused:?}"
        );
        assert!(store.list_budgets(acme).await.unwrap().is_empty());

        let budget = store
            .create_budget_with_channels(acme, owner.id, new_budget("Prod"), &[b.id, b.id])
            .await
            .unwrap();
        assert_eq!(
            channels.budget_channel_ids(acme).await.unwrap(),
            [(budget.id, vec![b.id])].into_iter().collect()
        );
        assert!(channels.budget_channel_ids(other).await.unwrap().is_empty());
        alert(store.as_ref(), &budget, 75.0).await;
        channels
            .fan_out_notifications(at(23, 11), 10)
            .await
            .unwrap();
        assert_eq!(due_names(store.as_ref(), at(23, 11)).await, ["Hook B"]);

        // An edit replaces them; one naming a foreign channel changes nothing.
        let edit = |name: &str| BudgetChanges {
            name: Some(BudgetName::parse(name).unwrap()),
            ..BudgetChanges::at(at(2, 10))
        };
        let refused = store
            .update_budget_with_channels(acme, owner.id, budget.id, edit("Renamed"), &[foreign.id])
            .await;
        assert!(
            matches!(refused, Err(StoreError::UnknownChannel)),
            "{refused:?}"
        );
        assert_eq!(
            store
                .get_budget(acme, budget.id)
                .await
                .unwrap()
                .unwrap()
                .name
                .as_str(),
            "Prod"
        );
        let edited = store
            .update_budget_with_channels(acme, owner.id, budget.id, edit("Renamed"), &[a.id])
            .await
            .unwrap()
            .unwrap();
        assert_eq!(edited.name.as_str(), "Renamed");
        assert_eq!(
            channels.budget_channel_ids(acme).await.unwrap()[&budget.id],
            vec![a.id]
        );
        // Another tenant's budget id: nothing.
        assert_eq!(
            store
                .update_budget_with_channels(other, owner.id, budget.id, edit("Xyz"), &[])
                .await
                .unwrap(),
            None
        );
        // A plain edit keeps them.
        store
            .update_budget(acme, owner.id, budget.id, edit("Again"))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(
            channels.budget_channel_ids(acme).await.unwrap()[&budget.id],
            vec![a.id]
        );
        alert(store.as_ref(), &budget, 90.0).await;
        channels
            .fan_out_notifications(at(23, 12), 10)
            .await
            .unwrap();
        assert_eq!(
            due_names(store.as_ref(), at(23, 12)).await,
            ["Hook A", "Hook B"],
            "the 90 % alert to A, the 75 % one still to B"
        );

        // An empty list: every channel again.
        store
            .update_budget_with_channels(acme, owner.id, budget.id, edit("Again"), &[])
            .await
            .unwrap()
            .unwrap();
        assert!(channels.budget_channel_ids(acme).await.unwrap().is_empty());
    })
    .await;
}

#[tokio::test]
async fn a_failed_delivery_is_retried_then_failed_and_its_history_kept() {
    for_each_backend(|store| async move {
        let (acme, owner) = create_customer(store.as_ref(), "olive@acme.test").await;
        let (other, _) = create_customer(store.as_ref(), "bob@other.test").await;
        let channels = store.channels();
        let a = create_channel(store.as_ref(), acme, "Hook A").await;
        create_channel(store.as_ref(), acme, "Hook B").await;
        let budget = store
            .create_budget(acme, owner.id, new_budget("Prod"))
            .await
            .unwrap();
        let alert_id = alert(store.as_ref(), &budget, 75.0).await;
        channels
            .fan_out_notifications(at(23, 10), 10)
            .await
            .unwrap();
        let due = channels.due_deliveries(at(23, 10), 10).await.unwrap();
        let to_a = due.iter().find(|d| d.channel.name == "Hook A").unwrap().id;
        let to_b = due.iter().find(|d| d.channel.name == "Hook B").unwrap().id;

        assert!(channels
            .record_delivery_failure(
                to_a,
                "the receiver answered 500",
                at(23, 10),
                Some(at(23, 11))
            )
            .await
            .unwrap());
        assert!(channels
            .mark_delivery_delivered(to_b, at(23, 10))
            .await
            .unwrap());
        assert!(
            !channels
                .mark_delivery_delivered(to_b, at(23, 10))
                .await
                .unwrap(),
            "once"
        );
        assert!(due_names(store.as_ref(), at(23, 10)).await.is_empty());
        let retry = channels.due_deliveries(at(23, 11), 10).await.unwrap();
        assert_eq!(retry.len(), 1);
        assert_eq!((retry[0].id, retry[0].attempts), (to_a, 1));

        let listed = channels.list_deliveries(acme, 50).await.unwrap();
        let a_row = listed.iter().find(|d| d.id == to_a).unwrap();
        assert_eq!(a_row.status, DeliveryStatus::Retrying);
        assert_eq!(
            a_row.last_error.as_deref(),
            Some("the receiver answered 500")
        );
        assert_eq!(a_row.next_attempt_at, Some(at(23, 11)));
        let b_row = listed.iter().find(|d| d.id == to_b).unwrap();
        assert_eq!(b_row.status, DeliveryStatus::Delivered);
        assert_eq!((b_row.attempts, b_row.delivered_at), (1, Some(at(23, 10))));
        assert_eq!(b_row.next_attempt_at, None);

        // Given up: failed, never due again, and shown as the channel's last delivery.
        assert!(channels
            .record_delivery_failure(to_a, "the receiver answered 503", at(23, 12), None)
            .await
            .unwrap());
        assert!(due_names(store.as_ref(), at(30, 0)).await.is_empty());
        assert!(!channels
            .mark_delivery_delivered(to_a, at(23, 13))
            .await
            .unwrap());
        assert!(!channels
            .record_delivery_failure(to_a, "again", at(23, 13), None)
            .await
            .unwrap());
        let listed = channels.list_channels(acme).await.unwrap();
        let last_a = listed[0].last_delivery.clone().unwrap();
        assert_eq!(listed[0].name, "Hook A");
        assert_eq!(last_a.at, at(23, 12));
        assert_eq!(last_a.status, DeliveryStatus::Failed);
        assert_eq!(last_a.error.as_deref(), Some("the receiver answered 503"));
        assert_eq!(
            listed[1].last_delivery.as_ref().map(|last| last.status),
            Some(DeliveryStatus::Delivered)
        );

        assert_eq!(
            channels
                .budget_alert_deliveries(acme, budget.id)
                .await
                .unwrap(),
            vec![
                AlertDelivery {
                    alert_id,
                    channel_name: Some("Hook A".to_owned()),
                    status: DeliveryStatus::Failed,
                    error: Some("the receiver answered 503".to_owned()),
                },
                AlertDelivery {
                    alert_id,
                    channel_name: Some("Hook B".to_owned()),
                    status: DeliveryStatus::Delivered,
                    error: None,
                },
            ]
        );
        assert!(channels
            .budget_alert_deliveries(other, budget.id)
            .await
            .unwrap()
            .is_empty());
        assert!(channels
            .list_deliveries(other, 50)
            .await
            .unwrap()
            .is_empty());

        // A deleted channel's history keeps its name.
        assert!(channels.delete_channel(acme, a.id).await.unwrap());
        let kept = channels.list_deliveries(acme, 50).await.unwrap();
        assert_eq!(kept.len(), 2);
        let a_row = kept.iter().find(|d| d.id == to_a).unwrap();
        assert_eq!(
            (a_row.channel_id, a_row.channel_name.as_str()),
            (None, "Hook A")
        );
    })
    .await;
}

#[tokio::test]
async fn deleting_a_channel_drops_its_pending_deliveries() {
    for_each_backend(|store| async move {
        let (acme, owner) = create_customer(store.as_ref(), "olive@acme.test").await;
        let channels = store.channels();
        let a = create_channel(store.as_ref(), acme, "Hook A").await;
        create_channel(store.as_ref(), acme, "Hook B").await;
        let budget = store
            .create_budget_with_channels(acme, owner.id, new_budget("Prod"), &[a.id])
            .await
            .unwrap();
        alert(store.as_ref(), &budget, 75.0).await;
        channels
            .fan_out_notifications(at(23, 10), 10)
            .await
            .unwrap();
        assert_eq!(due_names(store.as_ref(), at(23, 10)).await, ["Hook A"]);

        assert!(channels.delete_channel(acme, a.id).await.unwrap());
        assert!(due_names(store.as_ref(), at(23, 10)).await.is_empty());
        assert!(channels.list_deliveries(acme, 50).await.unwrap().is_empty());
        assert!(
            channels.budget_channel_ids(acme).await.unwrap().is_empty(),
            "the budget names none any more: every channel gets its next alerts"
        );
        alert(store.as_ref(), &budget, 90.0).await;
        channels
            .fan_out_notifications(at(23, 11), 10)
            .await
            .unwrap();
        assert_eq!(due_names(store.as_ref(), at(23, 11)).await, ["Hook B"]);
    })
    .await;
}

#[tokio::test]
async fn the_owners_and_admins_email_of_a_tenant_without_channels_shows_in_the_alert_history() {
    for_each_backend(|store| async move {
        let (acme, owner) = create_customer(store.as_ref(), "olive@acme.test").await;
        let budget = store
            .create_budget(acme, owner.id, new_budget("Prod"))
            .await
            .unwrap();
        let alert_id = alert(store.as_ref(), &budget, 75.0).await;
        assert_eq!(
            store
                .channels()
                .fan_out_notifications(at(23, 10), 10)
                .await
                .unwrap(),
            0,
            "no channel: nothing to fan out"
        );
        let channels = store.channels();
        assert!(
            channels
                .budget_alert_deliveries(acme, budget.id)
                .await
                .unwrap()
                .is_empty(),
            "not tried yet"
        );
        let pending = store.pending_notifications(at(23, 10), 10).await.unwrap();
        assert_eq!(pending.len(), 1);
        store
            .record_notification_failure(pending[0].id, "SMTP refused", at(23, 11))
            .await
            .unwrap();
        assert_eq!(
            channels
                .budget_alert_deliveries(acme, budget.id)
                .await
                .unwrap(),
            vec![AlertDelivery {
                alert_id,
                channel_name: None,
                status: DeliveryStatus::Retrying,
                error: Some("SMTP refused".to_owned()),
            }]
        );
        store
            .mark_notification_delivered(pending[0].id, at(23, 11))
            .await
            .unwrap();
        assert_eq!(
            channels
                .budget_alert_deliveries(acme, budget.id)
                .await
                .unwrap()[0]
                .status,
            DeliveryStatus::Delivered
        );

        // A channel created after the e-mail went out does not get the event again.
        create_channel(store.as_ref(), acme, "Hook A").await;
        assert_eq!(
            channels.fan_out_notifications(at(24, 0), 10).await.unwrap(),
            0
        );
        // One still waiting for the e-mail when a channel appears goes to the channel instead.
        let waiting = alert(store.as_ref(), &budget, 90.0).await;
        assert!(store
            .pending_notifications(at(24, 0), 10)
            .await
            .unwrap()
            .is_empty());
        assert_eq!(
            channels.fan_out_notifications(at(24, 0), 10).await.unwrap(),
            1
        );
        let history = channels
            .budget_alert_deliveries(acme, budget.id)
            .await
            .unwrap();
        assert_eq!(history.len(), 2);
        assert_eq!(history[1].alert_id, waiting);
        assert_eq!(history[1].channel_name.as_deref(), Some("Hook A"));
        assert_eq!(history[1].status, DeliveryStatus::Pending);
    })
    .await;
}
