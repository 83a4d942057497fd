//! Scheduled digests (issue 15, docs/NOTIFICATIONS.md "Digests"): each user's choice
//! (`digest_settings`) and the digests sent (`digest_sends`, one per user, frequency and period,
//! written in the same transaction as the digest's outbox event).
//!
//! A digest reaches the user's chosen channel through the ordinary fan-out (its clause for
//! kind `digest` in `channels.rs` picks the channel recorded here, and nothing else), and the
//! user's own address through the e-mail columns of its row, sent and retried by the delivery
//! job like a channel delivery. It never goes to the owners-and-admins e-mail.

use async_trait::async_trait;
use chrono::{DateTime, NaiveDate, Utc};
use costscope_core::notify::digest::DigestFrequency;
use costscope_core::notify::DeliveryStatus;
use serde_json::Value;

use crate::StoreError;

/// A user's digest choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DigestSettings {
    pub frequency: DigestFrequency,
    /// Also e-mailed to the user's own address.
    pub email: bool,
    /// One of the tenant's channels.
    pub channel_id: Option<i64>,
}

impl Default for DigestSettings {
    /// Off, e-mail on, no channel.
    fn default() -> Self {
        Self {
            frequency: DigestFrequency::Off,
            email: true,
            channel_id: None,
        }
    }
}

/// An active user who chose a frequency, with where the digest goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DigestSubscriber {
    pub customer_id: i64,
    pub user_id: i64,
    /// The user's own address.
    pub address: String,
    pub settings: DigestSettings,
}

/// A digest to record.
#[derive(Debug, Clone)]
pub struct NewDigest<'a> {
    pub customer_id: i64,
    pub user_id: i64,
    pub frequency: DigestFrequency,
    pub period_end: NaiveDate,
    pub payload: &'a Value,
    /// The chosen channel (dropped when it is no longer the tenant's).
    pub channel_id: Option<i64>,
    /// The address to e-mail it to, when the user wants it e-mailed.
    pub email_to: Option<&'a str>,
    pub now: DateTime<Utc>,
}

/// A digest e-mail due now.
#[derive(Debug, Clone, PartialEq)]
pub struct DigestMail {
    /// The `digest_sends` row.
    pub id: i64,
    pub customer_id: i64,
    pub notification_id: i64,
    pub to: String,
    pub payload: Value,
    /// Failed attempts so far.
    pub attempts: i64,
}

/// How a recorded digest's e-mail stands (tests and the history).
#[derive(Debug, Clone, PartialEq)]
pub struct DigestSend {
    pub id: i64,
    pub user_id: i64,
    pub frequency: DigestFrequency,
    pub period_end: NaiveDate,
    pub notification_id: i64,
    pub channel_id: Option<i64>,
    pub email_status: Option<DeliveryStatus>,
    pub email_attempts: i64,
}

/// Users' digest choices and the digests sent. Calls on a user take its customer id and only
/// see that customer's rows; the digest job's calls work across tenants.
#[async_trait]
pub trait DigestStore: Send + Sync {
    /// The user's choice (the defaults until they save one).
    async fn digest_settings(
        &self,
        customer_id: i64,
        user_id: i64,
    ) -> Result<DigestSettings, StoreError>;
    /// Saves the user's choice. [`StoreError::UnknownChannel`] (and nothing written) when the
    /// channel is not the tenant's; `false` when the user is not the customer's.
    async fn put_digest_settings(
        &self,
        customer_id: i64,
        user_id: i64,
        settings: DigestSettings,
        now: DateTime<Utc>,
    ) -> Result<bool, StoreError>;
    /// The active users of every tenant who chose `frequency`.
    async fn digest_subscribers(
        &self,
        frequency: DigestFrequency,
    ) -> Result<Vec<DigestSubscriber>, StoreError>;
    /// Writes the digest's `digest_sends` row and its outbox event (kind `digest`) in one
    /// transaction; `false` (and nothing written) when this user's digest of this frequency and
    /// period was recorded before.
    async fn record_digest(&self, digest: NewDigest<'_>) -> Result<bool, StoreError>;
    /// Up to `limit` digest e-mails pending or retrying whose next attempt is due by `now`.
    async fn due_digest_mails(
        &self,
        now: DateTime<Utc>,
        limit: i64,
    ) -> Result<Vec<DigestMail>, StoreError>;
    /// Marks a pending or retrying digest e-mail delivered; `false` when it was not.
    async fn mark_digest_mail_delivered(
        &self,
        id: i64,
        now: DateTime<Utc>,
    ) -> Result<bool, StoreError>;
    /// Records a failed attempt: retried at `next_attempt_at`, or with `None` failed for good.
    async fn record_digest_mail_failure(
        &self,
        id: i64,
        error: &str,
        next_attempt_at: Option<DateTime<Utc>>,
    ) -> Result<bool, StoreError>;
    /// The user's recorded digests, oldest first.
    async fn digest_sends(
        &self,
        customer_id: i64,
        user_id: i64,
    ) -> Result<Vec<DigestSend>, StoreError>;
}

fn frequency_of(text: &str) -> Result<DigestFrequency, StoreError> {
    DigestFrequency::parse(text)
        .ok_or_else(|| StoreError::Corrupt(format!("digest frequency: {text:?}")))
}

#[derive(sqlx::FromRow)]
pub(crate) struct SettingsRow {
    frequency: String,
    email: bool,
    channel_id: Option<i64>,
}

impl TryFrom<SettingsRow> for DigestSettings {
    type Error = StoreError;

    fn try_from(row: SettingsRow) -> Result<Self, Self::Error> {
        Ok(DigestSettings {
            frequency: frequency_of(&row.frequency)?,
            email: row.email,
            channel_id: row.channel_id,
        })
    }
}

#[derive(sqlx::FromRow)]
pub(crate) struct SubscriberRow {
    customer_id: i64,
    user_id: i64,
    address: String,
    #[sqlx(flatten)]
    settings: SettingsRow,
}

impl TryFrom<SubscriberRow> for DigestSubscriber {
    type Error = StoreError;

    fn try_from(row: SubscriberRow) -> Result<Self, Self::Error> {
        Ok(DigestSubscriber {
            customer_id: row.customer_id,
            user_id: row.user_id,
            address: row.address,
            settings: row.settings.try_into()?,
        })
    }
}

#[derive(sqlx::FromRow)]
pub(crate) struct MailRow {
    id: i64,
    customer_id: i64,
    notification_id: i64,
    email_to: String,
    payload: String,
    email_attempts: i64,
}

impl TryFrom<MailRow> for DigestMail {
    type Error = StoreError;

    fn try_from(row: MailRow) -> Result<Self, Self::Error> {
        Ok(DigestMail {
            id: row.id,
            customer_id: row.customer_id,
            notification_id: row.notification_id,
            to: row.email_to,
            payload: serde_json::from_str(&row.payload).map_err(|err| {
                StoreError::Corrupt(format!("notification_outbox.payload: {err}"))
            })?,
            attempts: row.email_attempts,
        })
    }
}

#[derive(sqlx::FromRow)]
pub(crate) struct SendRow {
    id: i64,
    user_id: i64,
    frequency: String,
    period_end: NaiveDate,
    notification_id: i64,
    channel_id: Option<i64>,
    email_status: Option<String>,
    email_attempts: i64,
}

impl TryFrom<SendRow> for DigestSend {
    type Error = StoreError;

    fn try_from(row: SendRow) -> Result<Self, Self::Error> {
        let email_status = row
            .email_status
            .map(|status| {
                DeliveryStatus::parse(&status).ok_or_else(|| {
                    StoreError::Corrupt(format!("digest_sends.email_status: {status:?}"))
                })
            })
            .transpose()?;
        Ok(DigestSend {
            id: row.id,
            user_id: row.user_id,
            frequency: frequency_of(&row.frequency)?,
            period_end: row.period_end,
            notification_id: row.notification_id,
            channel_id: row.channel_id,
            email_status,
            email_attempts: row.email_attempts,
        })
    }
}

macro_rules! impl_digest_store {
    ($store:ty) => {
        #[async_trait::async_trait]
        impl crate::digests::DigestStore for $store {
            #[tracing::instrument(skip_all, fields(customer_id, user_id))]
            async fn digest_settings(
                &self,
                customer_id: i64,
                user_id: i64,
            ) -> Result<crate::digests::DigestSettings, crate::StoreError> {
                let row: Option<crate::digests::SettingsRow> = sqlx::query_as(
                    "SELECT frequency, email, channel_id FROM digest_settings \
                     WHERE customer_id = $1 AND user_id = $2",
                )
                .bind(customer_id)
                .bind(user_id)
                .fetch_optional(&self.pool)
                .await?;
                row.map_or_else(|| Ok(Default::default()), TryInto::try_into)
            }

            #[tracing::instrument(skip_all, fields(customer_id, user_id))]
            async fn put_digest_settings(
                &self,
                customer_id: i64,
                user_id: i64,
                settings: crate::digests::DigestSettings,
                now: chrono::DateTime<chrono::Utc>,
            ) -> Result<bool, crate::StoreError> {
                let mut tx = self.begin_write().await?;
                if let Some(channel_id) = settings.channel_id {
                    let found: Option<(i64,)> = sqlx::query_as(
                        "SELECT id FROM notification_channels WHERE customer_id = $1 AND id = $2",
                    )
                    .bind(customer_id)
                    .bind(channel_id)
                    .fetch_optional(&mut *tx)
                    .await?;
                    if found.is_none() {
                        return Err(crate::StoreError::UnknownChannel);
                    }
                }
                let written = sqlx::query(
                    "INSERT INTO digest_settings \
                     (user_id, customer_id, frequency, email, channel_id, updated_at) \
                     SELECT id, customer_id, $3, $4, $5, $6 FROM users \
                     WHERE customer_id = $1 AND id = $2 \
                     ON CONFLICT (user_id) DO UPDATE SET frequency = excluded.frequency, \
                     email = excluded.email, channel_id = excluded.channel_id, \
                     updated_at = excluded.updated_at",
                )
                .bind(customer_id)
                .bind(user_id)
                .bind(settings.frequency.as_str())
                .bind(settings.email)
                .bind(settings.channel_id)
                .bind(now)
                .execute(&mut *tx)
                .await?;
                if written.rows_affected() == 0 {
                    return Ok(false);
                }
                tx.commit().await?;
                Ok(true)
            }

            #[tracing::instrument(skip_all)]
            async fn digest_subscribers(
                &self,
                frequency: costscope_core::notify::digest::DigestFrequency,
            ) -> Result<Vec<crate::digests::DigestSubscriber>, crate::StoreError> {
                let rows: Vec<crate::digests::SubscriberRow> = sqlx::query_as(
                    "SELECT s.customer_id, s.user_id, u.email AS address, s.frequency, s.email, \
                     s.channel_id FROM digest_settings s \
                     JOIN users u ON u.id = s.user_id AND u.customer_id = s.customer_id \
                     WHERE s.frequency = $1 AND u.status = 'active' \
                     ORDER BY s.customer_id, s.user_id",
                )
                .bind(frequency.as_str())
                .fetch_all(&self.pool)
                .await?;
                rows.into_iter().map(TryInto::try_into).collect()
            }

            #[tracing::instrument(skip_all, fields(customer_id = digest.customer_id, user_id = digest.user_id))]
            async fn record_digest(
                &self,
                digest: crate::digests::NewDigest<'_>,
            ) -> Result<bool, crate::StoreError> {
                let mut tx = self.begin_write().await?;
                let (notification_id,): (i64,) = sqlx::query_as(
                    "INSERT INTO notification_outbox \
                     (customer_id, kind, payload, created_at, next_attempt_at) \
                     VALUES ($1, $2, $3, $4, $4) RETURNING id",
                )
                .bind(digest.customer_id)
                .bind(crate::NotificationKind::Digest.as_str())
                .bind(digest.payload.to_string())
                .bind(digest.now)
                .fetch_one(&mut *tx)
                .await?;
                // The unique (user, frequency, period) row decides: a digest recorded before
                // leaves nothing here, and the outbox event goes with the rolled back
                // transaction. The channel is kept only while it is the tenant's.
                let email_status = digest.email_to.map(|_| "pending");
                let recorded: Option<(i64,)> = sqlx::query_as(
                    "INSERT INTO digest_sends \
                     (customer_id, user_id, frequency, period_end, notification_id, channel_id, \
                      email_to, email_status, email_attempts, email_next_attempt_at, created_at) \
                     SELECT u.customer_id, u.id, $3, $4, $5, \
                        (SELECT c.id FROM notification_channels c WHERE c.customer_id = $1 AND c.id = $6), \
                        $7, $8, 0, $9, $10 \
                     FROM users u WHERE u.customer_id = $1 AND u.id = $2 \
                     ON CONFLICT (user_id, frequency, period_end) DO NOTHING RETURNING id",
                )
                .bind(digest.customer_id)
                .bind(digest.user_id)
                .bind(digest.frequency.as_str())
                .bind(digest.period_end)
                .bind(notification_id)
                .bind(digest.channel_id)
                .bind(digest.email_to)
                .bind(email_status)
                .bind(digest.email_to.map(|_| digest.now))
                .bind(digest.now)
                .fetch_optional(&mut *tx)
                .await?;
                if recorded.is_none() {
                    return Ok(false);
                }
                tx.commit().await?;
                Ok(true)
            }

            #[tracing::instrument(skip_all)]
            async fn due_digest_mails(
                &self,
                now: chrono::DateTime<chrono::Utc>,
                limit: i64,
            ) -> Result<Vec<crate::digests::DigestMail>, crate::StoreError> {
                let rows: Vec<crate::digests::MailRow> = sqlx::query_as(
                    "SELECT g.id, g.customer_id, g.notification_id, g.email_to, o.payload, \
                     g.email_attempts FROM digest_sends g \
                     JOIN notification_outbox o ON o.id = g.notification_id AND o.customer_id = g.customer_id \
                     WHERE g.email_status IN ('pending', 'retrying') AND g.email_to IS NOT NULL \
                     AND g.email_next_attempt_at <= $1 \
                     ORDER BY g.email_next_attempt_at, g.id LIMIT $2",
                )
                .bind(now)
                .bind(limit)
                .fetch_all(&self.pool)
                .await?;
                rows.into_iter().map(TryInto::try_into).collect()
            }

            #[tracing::instrument(skip_all, fields(id))]
            async fn mark_digest_mail_delivered(
                &self,
                id: i64,
                now: chrono::DateTime<chrono::Utc>,
            ) -> Result<bool, crate::StoreError> {
                let marked = sqlx::query(
                    "UPDATE digest_sends SET email_status = 'delivered', \
                     email_attempts = email_attempts + 1, email_delivered_at = $1, \
                     email_next_attempt_at = NULL, email_last_error = NULL \
                     WHERE id = $2 AND email_status IN ('pending', 'retrying')",
                )
                .bind(now)
                .bind(id)
                .execute(&self.pool)
                .await?;
                Ok(marked.rows_affected() > 0)
            }

            #[tracing::instrument(skip_all, fields(id))]
            async fn record_digest_mail_failure(
                &self,
                id: i64,
                error: &str,
                next_attempt_at: Option<chrono::DateTime<chrono::Utc>>,
            ) -> Result<bool, crate::StoreError> {
                let status = match next_attempt_at {
                    Some(_) => costscope_core::notify::DeliveryStatus::Retrying,
                    None => costscope_core::notify::DeliveryStatus::Failed,
                };
                let recorded = sqlx::query(
                    "UPDATE digest_sends SET email_status = $1, \
                     email_attempts = email_attempts + 1, email_last_error = $2, \
                     email_next_attempt_at = $3 \
                     WHERE id = $4 AND email_status IN ('pending', 'retrying')",
                )
                .bind(status.as_str())
                .bind(error)
                .bind(next_attempt_at)
                .bind(id)
                .execute(&self.pool)
                .await?;
                Ok(recorded.rows_affected() > 0)
            }

            #[tracing::instrument(skip_all, fields(customer_id, user_id))]
            async fn digest_sends(
                &self,
                customer_id: i64,
                user_id: i64,
            ) -> Result<Vec<crate::digests::DigestSend>, crate::StoreError> {
                let rows: Vec<crate::digests::SendRow> = sqlx::query_as(
                    "SELECT id, user_id, frequency, period_end, notification_id, channel_id, \
                     email_status, email_attempts FROM digest_sends \
                     WHERE customer_id = $1 AND user_id = $2 ORDER BY id",
                )
                .bind(customer_id)
                .bind(user_id)
                .fetch_all(&self.pool)
                .await?;
                rows.into_iter().map(TryInto::try_into).collect()
            }
        }
    };
}

pub(crate) use impl_digest_store;
