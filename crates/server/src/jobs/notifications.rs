//! Delivery of the notification outbox (DESIGN §6 "notification delivery with retry",
//! docs/NOTIFICATIONS.md "Delivery"). Each run:
//!
//! 1. fans every new event of a tenant with channels out into one delivery per channel (the
//!    store does each event in one transaction, once);
//! 2. e-mails the events of tenants without any channel to their active owners and admins, as
//!    before channels existed (when SMTP is configured; retried until it goes out);
//!    then the digest e-mails due to their users' own addresses (`super::digests`);
//! 3. sends the channel deliveries that are due. A delivery is marked delivered only after the
//!    receiver answered 2xx, so a server stopped between attempts resumes where it was; a
//!    failed attempt is retried after 1, 2, 4 … minutes, and after 8 the delivery is failed.

pub mod send;

use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use costscope_connectors::{Mailer, OutgoingMail};
use costscope_core::notify::{render, retry, Event};
use costscope_core::{Clock, UserStatus};
use costscope_store::{DueDelivery, MetadataStore, OutboxNotification};
use futures_util::StreamExt;
use serde_json::json;
use tokio::sync::Notify;

use self::send::{Outgoing, Sender};
use crate::jobs::lease::{run_while_holding, HolderId, JobLease, LeaseTimes, PeriodicJob};
use crate::secrets::SecretBox;
use crate::state::AppState;

/// Events fanned out, e-mails sent and deliveries attempted per round of a run.
const BATCH: i64 = 50;
/// Rounds of a run at most (a backlog larger than this waits for the next run).
const MAX_ROUNDS: usize = 20;
/// Channel deliveries sent at once.
const CONCURRENT_SENDS: usize = 4;
/// How often the outbox is looked at when nothing woke the job.
pub const POLL_INTERVAL: Duration = Duration::from_secs(60);

/// What one [`NotificationDelivery::run_once`] did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Outcome {
    /// Events turned into channel deliveries.
    pub fanned_out: usize,
    /// Successful sends: channel deliveries, and owners-and-admins e-mails.
    pub delivered: usize,
    /// Attempts that failed, retried later or (see `given_up`) not.
    pub failed: usize,
    /// Channel deliveries that failed for the last time.
    pub given_up: usize,
}

#[derive(Debug, Clone)]
pub struct NotificationDelivery {
    store: Arc<dyn MetadataStore>,
    clock: Arc<dyn Clock>,
    /// `None`: no SMTP, the owners-and-admins e-mails wait in the outbox.
    mailer: Option<Mailer>,
    /// Base of the links in messages, without a trailing slash.
    public_url: String,
    /// Sends to channels (targets decrypted with the server's secrets key).
    channels: Sender,
    /// The job's lease: rounds run only while this process holds it.
    lease: JobLease,
}

impl NotificationDelivery {
    pub fn new(
        store: Arc<dyn MetadataStore>,
        clock: Arc<dyn Clock>,
        mailer: Option<Mailer>,
        public_url: String,
        secrets: Arc<SecretBox>,
    ) -> Self {
        let channels = Sender::new(secrets, mailer.clone(), public_url.clone());
        let lease = JobLease::new(store.clone(), clock.clone(), Self::NAME);
        Self {
            store,
            clock,
            mailer,
            public_url,
            channels,
            lease,
        }
    }

    /// Runs on `clock` instead (tests drive the retries' time).
    pub fn with_clock(mut self, clock: Arc<dyn Clock>) -> Self {
        self.clock = clock;
        self
    }

    pub fn from_state(state: &AppState) -> Self {
        let mut delivery = Self::new(
            state.store.clone(),
            state.clock.clone(),
            state.mailer.clone(),
            state.public_url.clone(),
            state.secrets.clone(),
        );
        delivery.channels = delivery
            .channels
            .with_teams(crate::http::teams::access::TeamsAccess::from_state(state));
        delivery.holding_as(state.holder.clone(), state.config.jobs.lease)
    }

    /// Runs its rounds while `holder` holds the job's lease, taken for `times`.
    pub fn holding_as(mut self, holder: HolderId, times: LeaseTimes) -> Self {
        self.lease = self.lease.held_by(holder).with_times(times);
        self
    }

    /// Fans out, e-mails and sends what is due (see the module docs). A failed send is retried
    /// later; the others still go out.
    #[tracing::instrument(skip_all)]
    pub async fn run_once(&self) -> anyhow::Result<Outcome> {
        let mut outcome = Outcome::default();
        for _ in 0..MAX_ROUNDS {
            let fanned = self
                .store
                .channels()
                .fan_out_notifications(self.clock.now(), BATCH)
                .await
                .context("fanning notifications out to channels")?;
            outcome.fanned_out += usize::try_from(fanned).unwrap_or(usize::MAX);
            if fanned < BATCH as u64 {
                break;
            }
        }
        if let Some(mailer) = &self.mailer {
            self.mail_owners_and_admins(mailer, &mut outcome).await?;
            // Digests to their users' own addresses (never to owners and admins).
            let mails = super::digests::send_digest_mails(
                self.store.as_ref(),
                mailer,
                self.clock.as_ref(),
                &self.public_url,
            )
            .await?;
            outcome.delivered += mails.delivered;
            outcome.failed += mails.failed;
            outcome.given_up += mails.given_up;
        }
        self.send_due(&mut outcome).await?;
        Ok(outcome)
    }

    /// The events of tenants without channels, to their owners and admins.
    async fn mail_owners_and_admins(
        &self,
        mailer: &Mailer,
        outcome: &mut Outcome,
    ) -> anyhow::Result<()> {
        let due = self
            .store
            .pending_notifications(self.clock.now(), BATCH)
            .await
            .context("reading the notification outbox")?;
        for notification in due {
            match self.mail(mailer, &notification).await {
                Ok(()) => {
                    self.store
                        .mark_notification_delivered(notification.id, self.clock.now())
                        .await?;
                    outcome.delivered += 1;
                }
                Err(error) => {
                    let message = format!("{error:#}");
                    tracing::warn!(notification_id = notification.id, error = %message, "a notification was not delivered");
                    let next = self.clock.now() + retry::retry_delay(notification.attempts + 1);
                    self.store
                        .record_notification_failure(notification.id, &message, next)
                        .await?;
                    outcome.failed += 1;
                }
            }
        }
        Ok(())
    }

    /// E-mails one notification to each active owner and admin of its customer.
    async fn mail(&self, mailer: &Mailer, notification: &OutboxNotification) -> anyhow::Result<()> {
        let event = Event::from_outbox(notification.kind.as_str(), &notification.payload)
            .with_context(|| format!("unknown notification kind {}", notification.kind.as_str()))?;
        let mail = render::mail(&event.message(&self.public_url));
        let users = self.store.list_users(notification.customer_id).await?;
        let recipients = users
            .iter()
            .filter(|user| user.status == UserStatus::Active && user.role.is_admin_level());
        for user in recipients {
            mailer
                .send(OutgoingMail {
                    to: user.email.to_string(),
                    subject: mail.subject.clone(),
                    body: mail.body.clone(),
                })
                .await
                .with_context(|| format!("e-mailing {}", user.email))?;
        }
        Ok(())
    }

    /// The channel deliveries due now, a few at once.
    async fn send_due(&self, outcome: &mut Outcome) -> anyhow::Result<()> {
        for _ in 0..MAX_ROUNDS {
            let due = self
                .store
                .channels()
                .due_deliveries(self.clock.now(), BATCH)
                .await
                .context("reading the due deliveries")?;
            let count = due.len();
            let mut attempts = futures_util::stream::iter(due)
                .map(|delivery| async move {
                    let result = self.attempt(&delivery).await;
                    (delivery, result)
                })
                .buffer_unordered(CONCURRENT_SENDS);
            while let Some((delivery, result)) = attempts.next().await {
                self.record(&delivery, result, outcome).await?;
            }
            if count < BATCH as usize {
                break;
            }
        }
        Ok(())
    }

    async fn attempt(&self, delivery: &DueDelivery) -> anyhow::Result<()> {
        let event = Event::from_outbox(&delivery.event, &delivery.payload)
            .with_context(|| format!("unknown notification kind {}", delivery.event))?;
        self.channels
            .send(
                &delivery.channel,
                Outgoing {
                    event: &event,
                    delivery_id: json!(delivery.id),
                    data: &delivery.payload,
                    raised_at: delivery.raised_at,
                    now: self.clock.now(),
                },
            )
            .await
    }

    /// Marks the attempt's result: delivered, retried later, or (the 8th failure) failed.
    async fn record(
        &self,
        delivery: &DueDelivery,
        result: anyhow::Result<()>,
        outcome: &mut Outcome,
    ) -> anyhow::Result<()> {
        let channels = self.store.channels();
        let now = self.clock.now();
        match result {
            Ok(()) => {
                channels.mark_delivery_delivered(delivery.id, now).await?;
                outcome.delivered += 1;
            }
            Err(error) => {
                let message = format!("{error:#}");
                // An expired Teams sign-in fails for good at once (docs/NOTIFICATIONS.md).
                let next = retry::next_attempt(delivery.attempts + 1)
                    .filter(|_| !send::is_permanent(&error))
                    .map(|wait| now + wait);
                tracing::warn!(
                    delivery_id = delivery.id,
                    channel_id = delivery.channel.id,
                    error = %message,
                    given_up = next.is_none(),
                    "a channel delivery failed"
                );
                channels
                    .record_delivery_failure(delivery.id, &message, now, next)
                    .await?;
                outcome.failed += 1;
                outcome.given_up += usize::from(next.is_none());
            }
        }
        Ok(())
    }

    /// On the replica holding the job's lease (nothing here claims the outbox's rows): delivers
    /// what is due, then again when woken (an alert was recorded, here or on another replica)
    /// or every minute. Never returns unless the task is dropped.
    pub async fn run(self, wake: Arc<Notify>) -> anyhow::Result<()> {
        run_while_holding(self, Some(wake)).await
    }
}

impl PeriodicJob for NotificationDelivery {
    const NAME: &'static str = "notification-delivery";

    fn interval(&self) -> Option<Duration> {
        Some(POLL_INTERVAL)
    }

    fn lease(&self) -> &JobLease {
        &self.lease
    }

    async fn round(&self) -> anyhow::Result<()> {
        self.run_once().await.map(drop)
    }
}
