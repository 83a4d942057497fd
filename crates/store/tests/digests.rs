//! Digest settings, digests recorded once per user and period with their outbox event, their
//! way to the chosen channel only, and their e-mails' retries, on every backend: SQLite always,
//! PostgreSQL when `COSTSCOPE_TEST_POSTGRES_URL` names a server.

mod support;
use support::{create_customer, for_each_backend, now};

use chrono::{Duration, NaiveDate};
use costscope_core::notify::digest::DigestFrequency;
use costscope_core::notify::{ChannelKind, DeliveryStatus};
use costscope_core::{Email, Role};
use costscope_store::{
    ChannelCreation, DigestSettings, MetadataStore, NewChannel, NewDigest, NewInvitation,
    StoreError,
};
use serde_json::json;

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
            now: now(),
            max_channels: 20,
        })
        .await
        .unwrap()
    {
        ChannelCreation::Created(channel) => channel.id,
        other => panic!("{name} not created: {other:?}"),
    }
}

fn weekly(channel_id: Option<i64>) -> DigestSettings {
    DigestSettings {
        frequency: DigestFrequency::Weekly,
        email: true,
        channel_id,
    }
}

fn period_end() -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 11, 22).unwrap()
}

#[tokio::test]
async fn settings_default_to_off_and_keep_to_their_user_and_the_tenants_channels() {
    for_each_backend(|store| async move {
        let (customer_id, owner) = create_customer(store.as_ref(), "olive@acme.test").await;
        let (other_customer, other_owner) =
            create_customer(store.as_ref(), "oscar@globex.test").await;
        let digests = store.digests();
        assert_eq!(
            digests
                .digest_settings(customer_id, owner.id)
                .await
                .unwrap(),
            DigestSettings::default()
        );
        assert!(DigestSettings::default().email);

        let mine = channel(store.as_ref(), customer_id, "Ops").await;
        let theirs = channel(store.as_ref(), other_customer, "Theirs").await;
        assert!(matches!(
            digests
                .put_digest_settings(customer_id, owner.id, weekly(Some(theirs)), now())
                .await,
            Err(StoreError::UnknownChannel)
        ));
        assert!(digests
            .put_digest_settings(customer_id, owner.id, weekly(Some(mine)), now())
            .await
            .unwrap());
        assert_eq!(
            digests
                .digest_settings(customer_id, owner.id)
                .await
                .unwrap(),
            weekly(Some(mine))
        );
        // Another tenant's user is not reachable through this tenant.
        assert!(!digests
            .put_digest_settings(customer_id, other_owner.id, weekly(None), now())
            .await
            .unwrap());
        assert_eq!(
            digests
                .digest_settings(other_customer, other_owner.id)
                .await
                .unwrap(),
            DigestSettings::default()
        );

        let subscribers = digests
            .digest_subscribers(DigestFrequency::Weekly)
            .await
            .unwrap();
        assert_eq!(subscribers.len(), 1);
        assert_eq!(subscribers[0].user_id, owner.id);
        assert_eq!(subscribers[0].address, "olive@acme.test");
        assert!(digests
            .digest_subscribers(DigestFrequency::Daily)
            .await
            .unwrap()
            .is_empty());

        // Deleting the channel leaves the choice without it.
        assert!(store
            .channels()
            .delete_channel(customer_id, mine)
            .await
            .unwrap());
        assert_eq!(
            digests
                .digest_settings(customer_id, owner.id)
                .await
                .unwrap(),
            weekly(None)
        );
    })
    .await;
}

#[tokio::test]
async fn pending_users_get_no_digest() {
    for_each_backend(|store| async move {
        let (customer_id, owner) = create_customer(store.as_ref(), "olive@acme.test").await;
        let address = Email::parse("pat@acme.test").unwrap();
        let pending = store
            .invite_user(NewInvitation {
                customer_id,
                email: &address,
                role: Role::User,
                invited_by: owner.id,
                token_hash: "token",
                expires_at: now() + Duration::days(7),
                now: now(),
            })
            .await
            .unwrap();
        store
            .digests()
            .put_digest_settings(customer_id, pending.id, weekly(None), now())
            .await
            .unwrap();
        assert!(store
            .digests()
            .digest_subscribers(DigestFrequency::Weekly)
            .await
            .unwrap()
            .is_empty());
    })
    .await;
}

#[tokio::test]
async fn a_digest_is_recorded_once_per_user_and_period_and_reaches_only_its_channel() {
    for_each_backend(|store| async move {
        let (customer_id, owner) = create_customer(store.as_ref(), "olive@acme.test").await;
        let chosen = channel(store.as_ref(), customer_id, "Mine").await;
        let other = channel(store.as_ref(), customer_id, "Everyone").await;
        let payload = json!({"frequency": "weekly", "userId": owner.id});
        let digest = |end: NaiveDate| NewDigest {
            customer_id,
            user_id: owner.id,
            frequency: DigestFrequency::Weekly,
            period_end: end,
            payload: &payload,
            channel_id: Some(chosen),
            email_to: Some("olive@acme.test"),
            now: now(),
        };
        let digests = store.digests();
        assert!(digests.record_digest(digest(period_end())).await.unwrap());
        assert!(!digests.record_digest(digest(period_end())).await.unwrap());

        // One outbox event: the second write left nothing behind.
        store
            .channels()
            .fan_out_notifications(now(), 50)
            .await
            .unwrap();
        let due = store.channels().due_deliveries(now(), 50).await.unwrap();
        assert_eq!(due.len(), 1, "{due:?}");
        assert_eq!(due[0].channel.id, chosen);
        assert_ne!(due[0].channel.id, other);
        assert_eq!(due[0].event, "digest");
        assert_eq!(due[0].payload, payload);
        // Never the owners-and-admins e-mail.
        assert!(store
            .pending_notifications(now() + Duration::hours(1), 50)
            .await
            .unwrap()
            .is_empty());

        let sends = digests.digest_sends(customer_id, owner.id).await.unwrap();
        assert_eq!(sends.len(), 1);
        assert_eq!(sends[0].period_end, period_end());
        assert_eq!(sends[0].channel_id, Some(chosen));
        assert_eq!(sends[0].email_status, Some(DeliveryStatus::Pending));
        assert_eq!(sends[0].notification_id, due[0].notification_id);

        // A later period is another digest.
        assert!(digests
            .record_digest(digest(period_end() + Duration::days(7)))
            .await
            .unwrap());
    })
    .await;
}

#[tokio::test]
async fn a_digest_without_a_channel_is_not_sent_to_the_tenants_channels() {
    for_each_backend(|store| async move {
        let (customer_id, owner) = create_customer(store.as_ref(), "olive@acme.test").await;
        channel(store.as_ref(), customer_id, "Everyone").await;
        let payload = json!({"frequency": "weekly"});
        assert!(store
            .digests()
            .record_digest(NewDigest {
                customer_id,
                user_id: owner.id,
                frequency: DigestFrequency::Weekly,
                period_end: period_end(),
                payload: &payload,
                channel_id: None,
                email_to: None,
                now: now(),
            })
            .await
            .unwrap());
        store
            .channels()
            .fan_out_notifications(now(), 50)
            .await
            .unwrap();
        assert!(store
            .channels()
            .due_deliveries(now(), 50)
            .await
            .unwrap()
            .is_empty());
        // Done with: not picked up by later fan-outs either.
        assert_eq!(
            store
                .channels()
                .fan_out_notifications(now(), 50)
                .await
                .unwrap(),
            0
        );
        assert!(store
            .digests()
            .due_digest_mails(now(), 50)
            .await
            .unwrap()
            .is_empty());
    })
    .await;
}

#[tokio::test]
async fn a_digest_email_is_retried_and_given_up_like_a_delivery() {
    for_each_backend(|store| async move {
        let (customer_id, owner) = create_customer(store.as_ref(), "olive@acme.test").await;
        let payload = json!({"frequency": "daily"});
        let recorded_at = now();
        store
            .digests()
            .record_digest(NewDigest {
                customer_id,
                user_id: owner.id,
                frequency: DigestFrequency::Daily,
                period_end: period_end(),
                payload: &payload,
                channel_id: None,
                email_to: Some("olive@acme.test"),
                now: recorded_at,
            })
            .await
            .unwrap();
        let digests = store.digests();
        let due = digests.due_digest_mails(recorded_at, 50).await.unwrap();
        assert_eq!(due.len(), 1);
        assert_eq!(due[0].to, "olive@acme.test");
        assert_eq!(due[0].payload, payload);
        assert_eq!(due[0].attempts, 0);

        let retry_at = recorded_at + Duration::minutes(1);
        assert!(digests
            .record_digest_mail_failure(due[0].id, "connection refused", Some(retry_at))
            .await
            .unwrap());
        assert!(digests
            .due_digest_mails(recorded_at, 50)
            .await
            .unwrap()
            .is_empty());
        let again = digests.due_digest_mails(retry_at, 50).await.unwrap();
        assert_eq!(again[0].attempts, 1);
        assert!(digests
            .mark_digest_mail_delivered(again[0].id, retry_at)
            .await
            .unwrap());
        assert!(!digests
            .mark_digest_mail_delivered(again[0].id, retry_at)
            .await
            .unwrap());
        let sends = digests.digest_sends(customer_id, owner.id).await.unwrap();
        assert_eq!(sends[0].email_status, Some(DeliveryStatus::Delivered));
        assert_eq!(sends[0].email_attempts, 2);
        assert!(digests
            .due_digest_mails(retry_at + Duration::days(1), 50)
            .await
            .unwrap()
            .is_empty());
    })
    .await;
}
