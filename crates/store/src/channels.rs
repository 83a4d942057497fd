//! Notification channels and deliveries (issue 15, docs/NOTIFICATIONS.md):
//! `notification_channels`, `notification_deliveries` (one per outbox event and channel) and
//! `budget_channels` (the channels a budget names for its own alerts).
//!
//! [`ChannelStore`] is a trait beside [`crate::MetadataStore`] (reached through
//! [`crate::MetadataStore::channels`]); the macro below stamps its SQL onto both backends.
//! Targets and secrets arrive encrypted: the store never sees them in clear.

use std::collections::BTreeMap;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use costscope_core::notify::{ChannelKind, DeliveryStatus};
use serde_json::Value;

use crate::StoreError;

/// A channel to create. `target` and `secret` are encrypted by the caller.
#[derive(Debug, Clone, Copy)]
pub struct NewChannel<'a> {
    pub customer_id: i64,
    pub kind: ChannelKind,
    pub name: &'a str,
    pub target: &'a str,
    pub target_hint: &'a str,
    pub secret: Option<&'a str>,
    pub now: DateTime<Utc>,
    /// The tenant's channels at most; the create is refused at this many.
    pub max_channels: i64,
}

/// How a create ended.
#[derive(Debug, Clone, PartialEq)]
pub enum ChannelCreation {
    Created(Channel),
    /// Another channel of the tenant has this name.
    NameTaken,
    /// The tenant has [`NewChannel::max_channels`] channels already.
    LimitReached,
}

/// A channel as answers show it (no target, no secret).
#[derive(Debug, Clone, PartialEq)]
pub struct Channel {
    pub id: i64,
    pub customer_id: i64,
    pub kind: ChannelKind,
    pub name: String,
    pub target_hint: String,
    pub created_at: DateTime<Utc>,
    /// Its latest attempted delivery.
    pub last_delivery: Option<LastDelivery>,
}

/// A channel's latest attempted delivery: when it was tried, and how that went.
#[derive(Debug, Clone, PartialEq)]
pub struct LastDelivery {
    pub at: DateTime<Utc>,
    pub status: DeliveryStatus,
    pub error: Option<String>,
}

/// What sending to a channel needs (target and secret still encrypted).
#[derive(Debug, Clone, PartialEq)]
pub struct ChannelTarget {
    pub id: i64,
    pub customer_id: i64,
    pub kind: ChannelKind,
    pub name: String,
    pub target: String,
    pub secret: Option<String>,
}

/// A delivery due now, with its event and channel.
#[derive(Debug, Clone, PartialEq)]
pub struct DueDelivery {
    pub id: i64,
    pub customer_id: i64,
    pub notification_id: i64,
    /// The outbox kind (`budget_alert`).
    pub event: String,
    pub payload: Value,
    /// When the event was raised.
    pub raised_at: DateTime<Utc>,
    /// Failed attempts so far.
    pub attempts: i64,
    pub channel: ChannelTarget,
}

/// A delivery as `GET /v1/notifications/deliveries` lists it.
#[derive(Debug, Clone, PartialEq)]
pub struct Delivery {
    pub id: i64,
    pub notification_id: i64,
    pub event: String,
    pub payload: Value,
    /// `None` once the channel is deleted.
    pub channel_id: Option<i64>,
    pub channel_name: String,
    pub status: DeliveryStatus,
    pub attempts: i64,
    pub last_error: Option<String>,
    /// `None` once delivered or failed.
    pub next_attempt_at: Option<DateTime<Utc>>,
    pub delivered_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
}

/// How one recorded budget alert went out on one way.
#[derive(Debug, Clone, PartialEq)]
pub struct AlertDelivery {
    pub alert_id: i64,
    /// The channel's name; `None` for the e-mail to the owners and admins of a tenant without
    /// channels (listed once it was tried).
    pub channel_name: Option<String>,
    pub status: DeliveryStatus,
    pub error: Option<String>,
}

/// The tenant's channels, the deliveries of its events to them and the channels its budgets
/// name. Every call on tenant data takes the customer id and only ever sees that customer's
/// rows; the delivery job's calls (`fan_out_notifications`, `due_deliveries`, `mark_…`,
/// `record_…`) work across tenants by the ids they were given.
#[async_trait]
pub trait ChannelStore: Send + Sync {
    /// Creates a channel unless the name is taken in the tenant or the tenant has
    /// `max_channels` channels (checked in the insert itself).
    async fn create_channel(&self, new: NewChannel<'_>) -> Result<ChannelCreation, StoreError>;
    /// The tenant's channels by name, each with its latest attempted delivery.
    async fn list_channels(&self, customer_id: i64) -> Result<Vec<Channel>, StoreError>;
    /// The ids of the tenant's channels.
    async fn channel_ids(&self, customer_id: i64) -> Result<Vec<i64>, StoreError>;
    /// One of the tenant's channels with its encrypted target and secret.
    async fn channel_target(
        &self,
        customer_id: i64,
        id: i64,
    ) -> Result<Option<ChannelTarget>, StoreError>;
    /// Deletes one of the tenant's channels and its pending deliveries (delivered and failed
    /// ones stay, with the channel's name); `false` when not the tenant's.
    async fn delete_channel(&self, customer_id: i64, id: i64) -> Result<bool, StoreError>;
    /// The channels each of the tenant's budgets names (budgets naming none are absent).
    async fn budget_channel_ids(
        &self,
        customer_id: i64,
    ) -> Result<BTreeMap<i64, Vec<i64>>, StoreError>;

    /// Turns up to `limit` new outbox events of tenants with channels into one pending
    /// delivery per channel, each event in one transaction: a budget alert goes to the
    /// channels its budget names, else to every channel of the tenant. An event is fanned out
    /// once (`fanned_out_at`); events of tenants without channels stay for the e-mail to their
    /// owners and admins ([`crate::MetadataStore::pending_notifications`]). Answers how many
    /// events were fanned out.
    async fn fan_out_notifications(
        &self,
        now: DateTime<Utc>,
        limit: i64,
    ) -> Result<u64, StoreError>;
    /// Up to `limit` deliveries pending or retrying whose next attempt is due by `now`,
    /// the most overdue first. Not claimed: one delivery job runs at a time.
    async fn due_deliveries(
        &self,
        now: DateTime<Utc>,
        limit: i64,
    ) -> Result<Vec<DueDelivery>, StoreError>;
    /// Marks a pending or retrying delivery delivered (counting the attempt); `false` when it
    /// is not (any more) pending or retrying.
    async fn mark_delivery_delivered(
        &self,
        id: i64,
        now: DateTime<Utc>,
    ) -> Result<bool, StoreError>;
    /// Records a failed attempt of a pending or retrying delivery: counted, with `error`; it is
    /// retried at `next_attempt_at`, or with `None` it is `failed` for good. `false` when it is
    /// not (any more) pending or retrying.
    async fn record_delivery_failure(
        &self,
        id: i64,
        error: &str,
        now: DateTime<Utc>,
        next_attempt_at: Option<DateTime<Utc>>,
    ) -> Result<bool, StoreError>;
    /// The tenant's latest `limit` deliveries, newest first.
    async fn list_deliveries(
        &self,
        customer_id: i64,
        limit: i64,
    ) -> Result<Vec<Delivery>, StoreError>;
    /// How the recorded alerts of one of the tenant's budgets went out: every channel
    /// delivery, and the owners-and-admins e-mail once tried; by alert, then in the order
    /// they were written.
    async fn budget_alert_deliveries(
        &self,
        customer_id: i64,
        budget_id: i64,
    ) -> Result<Vec<AlertDelivery>, StoreError>;
}

fn kind_of(text: &str, column: &str) -> Result<ChannelKind, StoreError> {
    ChannelKind::parse(text).ok_or_else(|| StoreError::Corrupt(format!("{column}: {text:?}")))
}

fn status_of(text: &str, column: &str) -> Result<DeliveryStatus, StoreError> {
    DeliveryStatus::parse(text).ok_or_else(|| StoreError::Corrupt(format!("{column}: {text:?}")))
}

fn payload_of(text: &str) -> Result<Value, StoreError> {
    serde_json::from_str(text)
        .map_err(|err| StoreError::Corrupt(format!("notification_outbox.payload: {err}")))
}

/// Columns of a channel (`c`) with its latest attempted delivery (`d`, left-joined).
pub(crate) const CHANNEL_COLUMNS: &str = "c.id, c.customer_id, c.kind, c.name, c.target_hint, \
     c.created_at, d.last_attempt_at, d.status AS last_status, d.last_error";

#[derive(sqlx::FromRow)]
pub(crate) struct ChannelRow {
    id: i64,
    customer_id: i64,
    kind: String,
    name: String,
    target_hint: String,
    created_at: DateTime<Utc>,
    last_attempt_at: Option<DateTime<Utc>>,
    last_status: Option<String>,
    last_error: Option<String>,
}

impl TryFrom<ChannelRow> for Channel {
    type Error = StoreError;

    fn try_from(row: ChannelRow) -> Result<Self, Self::Error> {
        let last_delivery = match (row.last_attempt_at, row.last_status) {
            (Some(at), Some(status)) => Some(LastDelivery {
                at,
                status: status_of(&status, "notification_deliveries.status")?,
                error: row.last_error,
            }),
            _ => None,
        };
        Ok(Channel {
            id: row.id,
            customer_id: row.customer_id,
            kind: kind_of(&row.kind, "notification_channels.kind")?,
            name: row.name,
            target_hint: row.target_hint,
            created_at: row.created_at,
            last_delivery,
        })
    }
}

pub(crate) const CHANNEL_TARGET_COLUMNS: &str = "id, customer_id, kind, name, target, secret";

#[derive(sqlx::FromRow)]
pub(crate) struct ChannelTargetRow {
    id: i64,
    customer_id: i64,
    kind: String,
    name: String,
    target: String,
    secret: Option<String>,
}

impl TryFrom<ChannelTargetRow> for ChannelTarget {
    type Error = StoreError;

    fn try_from(row: ChannelTargetRow) -> Result<Self, Self::Error> {
        Ok(ChannelTarget {
            id: row.id,
            customer_id: row.customer_id,
            kind: kind_of(&row.kind, "notification_channels.kind")?,
            name: row.name,
            target: row.target,
            secret: row.secret,
        })
    }
}

/// A due delivery (`d`) with its event (`o`) and channel (`c`).
pub(crate) const DUE_DELIVERY_COLUMNS: &str = "d.id, d.customer_id, d.notification_id, \
     o.kind AS event, o.payload, o.created_at AS raised_at, d.attempts, c.id AS channel_id, \
     c.kind AS channel_kind, c.name AS channel_name, c.target, c.secret";

#[derive(sqlx::FromRow)]
pub(crate) struct DueDeliveryRow {
    id: i64,
    customer_id: i64,
    notification_id: i64,
    event: String,
    payload: String,
    raised_at: DateTime<Utc>,
    attempts: i64,
    channel_id: i64,
    channel_kind: String,
    channel_name: String,
    target: String,
    secret: Option<String>,
}

impl TryFrom<DueDeliveryRow> for DueDelivery {
    type Error = StoreError;

    fn try_from(row: DueDeliveryRow) -> Result<Self, Self::Error> {
        Ok(DueDelivery {
            id: row.id,
            customer_id: row.customer_id,
            notification_id: row.notification_id,
            event: row.event,
            payload: payload_of(&row.payload)?,
            raised_at: row.raised_at,
            attempts: row.attempts,
            channel: ChannelTarget {
                id: row.channel_id,
                customer_id: row.customer_id,
                kind: kind_of(&row.channel_kind, "notification_channels.kind")?,
                name: row.channel_name,
                target: row.target,
                secret: row.secret,
            },
        })
    }
}

/// A delivery (`d`) with its event (`o`).
pub(crate) const DELIVERY_COLUMNS: &str = "d.id, d.notification_id, o.kind AS event, o.payload, \
     d.channel_id, d.channel_name, d.status, d.attempts, d.last_error, d.next_attempt_at, \
     d.delivered_at, d.created_at";

#[derive(sqlx::FromRow)]
pub(crate) struct DeliveryRow {
    id: i64,
    notification_id: i64,
    event: String,
    payload: String,
    channel_id: Option<i64>,
    channel_name: String,
    status: String,
    attempts: i64,
    last_error: Option<String>,
    next_attempt_at: Option<DateTime<Utc>>,
    delivered_at: Option<DateTime<Utc>>,
    created_at: DateTime<Utc>,
}

impl TryFrom<DeliveryRow> for Delivery {
    type Error = StoreError;

    fn try_from(row: DeliveryRow) -> Result<Self, Self::Error> {
        Ok(Delivery {
            id: row.id,
            notification_id: row.notification_id,
            event: row.event,
            payload: payload_of(&row.payload)?,
            channel_id: row.channel_id,
            channel_name: row.channel_name,
            status: status_of(&row.status, "notification_deliveries.status")?,
            attempts: row.attempts,
            last_error: row.last_error,
            next_attempt_at: row.next_attempt_at,
            delivered_at: row.delivered_at,
            created_at: row.created_at,
        })
    }
}

#[derive(sqlx::FromRow)]
pub(crate) struct AlertDeliveryRow {
    alert_id: i64,
    channel_name: String,
    status: String,
    error: Option<String>,
}

impl TryFrom<AlertDeliveryRow> for AlertDelivery {
    type Error = StoreError;

    fn try_from(row: AlertDeliveryRow) -> Result<Self, Self::Error> {
        Ok(AlertDelivery {
            alert_id: row.alert_id,
            channel_name: Some(row.channel_name),
            status: status_of(&row.status, "notification_deliveries.status")?,
            error: row.error,
        })
    }
}

/// The owners-and-admins e-mail of one alert (an outbox row never fanned out).
#[derive(sqlx::FromRow)]
pub(crate) struct FallbackRow {
    alert_id: i64,
    delivered: bool,
    error: Option<String>,
}

impl From<FallbackRow> for AlertDelivery {
    fn from(row: FallbackRow) -> Self {
        AlertDelivery {
            alert_id: row.alert_id,
            channel_name: None,
            status: if row.delivered {
                DeliveryStatus::Delivered
            } else {
                DeliveryStatus::Retrying
            },
            error: row.error,
        }
    }
}

/// The channels a budget names, de-duplicated; [`StoreError::UnknownChannel`] unless every one
/// is among `known` (the tenant's).
pub(crate) fn checked_channel_ids(ids: &[i64], known: &[i64]) -> Result<Vec<i64>, StoreError> {
    let mut ids = ids.to_vec();
    ids.sort_unstable();
    ids.dedup();
    if ids.iter().all(|id| known.contains(id)) {
        Ok(ids)
    } else {
        Err(StoreError::UnknownChannel)
    }
}

/// Inside `impl_…` on either backend: creates channel `$new` ([`NewChannel`]) through
/// `$executor` (the pool, or a transaction) unless the tenant has `max_channels` channels or
/// one with its name; answers `Result<ChannelCreation, StoreError>`.
macro_rules! insert_channel {
    ($executor:expr, $new:expr) => {{
        let new: crate::channels::NewChannel<'_> = $new;
        use crate::channels::ChannelCreation;
        // One statement: the count and the insert see the same rows (SQLite's single
        // writer; on PostgreSQL two creates at once may both pass the count).
        let inserted: Result<Option<(i64,)>, sqlx::Error> = sqlx::query_as(
            "INSERT INTO notification_channels \
             (customer_id, kind, name, target, target_hint, secret, created_at) \
             SELECT $1, $2, $3, $4, $5, $6, $7 \
             WHERE (SELECT COUNT(*) FROM notification_channels WHERE customer_id = $1) < $8 \
             RETURNING id",
        )
        .bind(new.customer_id)
        .bind(new.kind.as_str())
        .bind(new.name)
        .bind(new.target)
        .bind(new.target_hint)
        .bind(new.secret)
        .bind(new.now)
        .bind(new.max_channels)
        .fetch_optional($executor)
        .await;
        match inserted {
            Ok(Some((id,))) => Ok(ChannelCreation::Created(crate::channels::Channel {
                id,
                customer_id: new.customer_id,
                kind: new.kind,
                name: new.name.to_owned(),
                target_hint: new.target_hint.to_owned(),
                created_at: new.now,
                last_delivery: None,
            })),
            Ok(None) => Ok(ChannelCreation::LimitReached),
            Err(sqlx::Error::Database(db)) if db.is_unique_violation() => {
                Ok(ChannelCreation::NameTaken)
            }
            Err(err) => Err(crate::StoreError::from(err)),
        }
    }};
}

pub(crate) use insert_channel;

/// Inside a transaction `$tx` on either backend: deletes channel `$id` of `$customer_id` and
/// its pending deliveries (delivered and failed ones keep their history, `channel_id` set
/// NULL); evaluates to the number of channels deleted (0 or 1).
macro_rules! delete_channel_rows {
    ($tx:ident, $customer_id:expr, $id:expr) => {{
        sqlx::query(
            "DELETE FROM notification_deliveries \
             WHERE customer_id = $1 AND channel_id = $2 AND status IN ('pending', 'retrying')",
        )
        .bind($customer_id)
        .bind($id)
        .execute(&mut *$tx)
        .await?;
        sqlx::query("DELETE FROM notification_channels WHERE customer_id = $1 AND id = $2")
            .bind($customer_id)
            .bind($id)
            .execute(&mut *$tx)
            .await?
            .rows_affected()
    }};
}

pub(crate) use delete_channel_rows;

macro_rules! impl_channel_store {
    ($store:ty) => {
        #[async_trait::async_trait]
        impl crate::channels::ChannelStore for $store {
            #[tracing::instrument(skip_all, fields(customer_id = new.customer_id))]
            async fn create_channel(
                &self,
                new: crate::channels::NewChannel<'_>,
            ) -> Result<crate::channels::ChannelCreation, crate::StoreError> {
                crate::channels::insert_channel!(&self.pool, new)
            }

            #[tracing::instrument(skip_all, fields(customer_id))]
            async fn list_channels(
                &self,
                customer_id: i64,
            ) -> Result<Vec<crate::channels::Channel>, crate::StoreError> {
                use crate::channels::{ChannelRow, CHANNEL_COLUMNS};
                let rows: Vec<ChannelRow> = sqlx::query_as(&format!(
                    "SELECT {CHANNEL_COLUMNS} FROM notification_channels c \
                     LEFT JOIN notification_deliveries d ON d.id = ( \
                         SELECT l.id FROM notification_deliveries l \
                         WHERE l.customer_id = c.customer_id AND l.channel_id = c.id \
                         AND l.last_attempt_at IS NOT NULL \
                         ORDER BY l.last_attempt_at DESC, l.id DESC LIMIT 1) \
                     WHERE c.customer_id = $1 ORDER BY c.name, c.id"
                ))
                .bind(customer_id)
                .fetch_all(&self.pool)
                .await?;
                rows.into_iter().map(TryInto::try_into).collect()
            }

            #[tracing::instrument(skip_all, fields(customer_id))]
            async fn channel_ids(&self, customer_id: i64) -> Result<Vec<i64>, crate::StoreError> {
                let rows: Vec<(i64,)> = sqlx::query_as(
                    "SELECT id FROM notification_channels WHERE customer_id = $1 ORDER BY id",
                )
                .bind(customer_id)
                .fetch_all(&self.pool)
                .await?;
                Ok(rows.into_iter().map(|(id,)| id).collect())
            }

            #[tracing::instrument(skip_all, fields(customer_id, id))]
            async fn channel_target(
                &self,
                customer_id: i64,
                id: i64,
            ) -> Result<Option<crate::channels::ChannelTarget>, crate::StoreError> {
                use crate::channels::{ChannelTargetRow, CHANNEL_TARGET_COLUMNS};
                let row: Option<ChannelTargetRow> = sqlx::query_as(&format!(
                    "SELECT {CHANNEL_TARGET_COLUMNS} FROM notification_channels \
                     WHERE customer_id = $1 AND id = $2"
                ))
                .bind(customer_id)
                .bind(id)
                .fetch_optional(&self.pool)
                .await?;
                row.map(TryInto::try_into).transpose()
            }

            #[tracing::instrument(skip_all, fields(customer_id, id))]
            async fn delete_channel(&self, customer_id: i64, id: i64) -> Result<bool, crate::StoreError> {
                let mut tx = self.begin_write().await?;
                let deleted = crate::channels::delete_channel_rows!(tx, customer_id, id);
                if deleted == 0 {
                    return Ok(false);
                }
                tx.commit().await?;
                Ok(true)
            }

            #[tracing::instrument(skip_all, fields(customer_id))]
            async fn budget_channel_ids(
                &self,
                customer_id: i64,
            ) -> Result<std::collections::BTreeMap<i64, Vec<i64>>, crate::StoreError> {
                let rows: Vec<(i64, i64)> = sqlx::query_as(
                    "SELECT budget_id, channel_id FROM budget_channels \
                     WHERE customer_id = $1 ORDER BY budget_id, channel_id",
                )
                .bind(customer_id)
                .fetch_all(&self.pool)
                .await?;
                let mut map = std::collections::BTreeMap::<i64, Vec<i64>>::new();
                for (budget_id, channel_id) in rows {
                    map.entry(budget_id).or_default().push(channel_id);
                }
                Ok(map)
            }

            #[tracing::instrument(skip_all)]
            async fn fan_out_notifications(
                &self,
                now: chrono::DateTime<chrono::Utc>,
                limit: i64,
            ) -> Result<u64, crate::StoreError> {
                let candidates: Vec<(i64, i64, String)> = sqlx::query_as(
                    "SELECT o.id, o.customer_id, o.kind FROM notification_outbox o \
                     WHERE o.fanned_out_at IS NULL AND o.delivered_at IS NULL \
                     AND EXISTS (SELECT 1 FROM notification_channels c WHERE c.customer_id = o.customer_id) \
                     ORDER BY o.id LIMIT $1",
                )
                .bind(limit)
                .fetch_all(&self.pool)
                .await?;
                let mut fanned_out = 0;
                for (id, customer_id, kind) in candidates {
                    let mut tx = self.begin_write().await?;
                    // A budget alert whose budget names channels goes to those, an anomaly to
                    // the channels of the anomaly settings, a digest only to the channel its
                    // user chose; any other event (or a budget or settings naming none, or a
                    // budget deleted since) to every channel.
                    let inserted = sqlx::query(
                        "INSERT INTO notification_deliveries \
                         (customer_id, notification_id, channel_id, channel_name, status, attempts, \
                          next_attempt_at, created_at) \
                         SELECT c.customer_id, o.id, c.id, c.name, 'pending', 0, $1, $1 \
                         FROM notification_outbox o \
                         JOIN notification_channels c ON c.customer_id = o.customer_id \
                         WHERE o.id = $2 AND o.customer_id = $3 \
                         AND o.fanned_out_at IS NULL AND o.delivered_at IS NULL \
                         AND (NOT EXISTS ( \
                                SELECT 1 FROM budget_alert_history a \
                                JOIN budget_channels b ON b.budget_id = a.budget_id \
                                WHERE a.id = o.budget_alert_id AND a.customer_id = o.customer_id) \
                              OR EXISTS ( \
                                SELECT 1 FROM budget_alert_history a \
                                JOIN budget_channels b ON b.budget_id = a.budget_id \
                                WHERE a.id = o.budget_alert_id AND a.customer_id = o.customer_id \
                                AND b.channel_id = c.id)) \
                         AND (o.kind <> 'anomaly' \
                              OR NOT EXISTS (SELECT 1 FROM anomaly_channels s WHERE s.customer_id = o.customer_id) \
                              OR EXISTS (SELECT 1 FROM anomaly_channels s \
                                WHERE s.customer_id = o.customer_id AND s.channel_id = c.id)) \
                         AND (o.kind <> 'digest' \
                              OR EXISTS (SELECT 1 FROM digest_sends g \
                                WHERE g.notification_id = o.id AND g.customer_id = o.customer_id \
                                AND g.channel_id = c.id)) \
                         ON CONFLICT (notification_id, channel_id) DO NOTHING",
                    )
                    .bind(now)
                    .bind(id)
                    .bind(customer_id)
                    .execute(&mut *tx)
                    .await?;
                    // Nothing written: fanned out meanwhile, or the channels are gone (then
                    // the owners-and-admins e-mail takes it, as for a tenant without any). A
                    // digest goes only to its user's channel: without one (none chosen, or
                    // deleted since) it is done here, its e-mail goes on its own.
                    if inserted.rows_affected() == 0 && kind != crate::NotificationKind::Digest.as_str() {
                        continue;
                    }
                    sqlx::query(
                        "UPDATE notification_outbox SET fanned_out_at = $1 \
                         WHERE id = $2 AND customer_id = $3",
                    )
                    .bind(now)
                    .bind(id)
                    .bind(customer_id)
                    .execute(&mut *tx)
                    .await?;
                    tx.commit().await?;
                    fanned_out += 1;
                }
                Ok(fanned_out)
            }

            #[tracing::instrument(skip_all)]
            async fn due_deliveries(
                &self,
                now: chrono::DateTime<chrono::Utc>,
                limit: i64,
            ) -> Result<Vec<crate::channels::DueDelivery>, crate::StoreError> {
                use crate::channels::{DueDeliveryRow, DUE_DELIVERY_COLUMNS};
                let rows: Vec<DueDeliveryRow> = sqlx::query_as(&format!(
                    "SELECT {DUE_DELIVERY_COLUMNS} FROM notification_deliveries d \
                     JOIN notification_outbox o ON o.id = d.notification_id AND o.customer_id = d.customer_id \
                     JOIN notification_channels c ON c.id = d.channel_id AND c.customer_id = d.customer_id \
                     WHERE d.status IN ('pending', 'retrying') AND d.next_attempt_at <= $1 \
                     ORDER BY d.next_attempt_at, d.id LIMIT $2"
                ))
                .bind(now)
                .bind(limit)
                .fetch_all(&self.pool)
                .await?;
                rows.into_iter().map(TryInto::try_into).collect()
            }

            #[tracing::instrument(skip_all, fields(id))]
            async fn mark_delivery_delivered(
                &self,
                id: i64,
                now: chrono::DateTime<chrono::Utc>,
            ) -> Result<bool, crate::StoreError> {
                let marked = sqlx::query(
                    "UPDATE notification_deliveries SET status = 'delivered', attempts = attempts + 1, \
                     delivered_at = $1, last_attempt_at = $1, next_attempt_at = NULL, last_error = NULL \
                     WHERE id = $2 AND status IN ('pending', 'retrying')",
                )
                .bind(now)
                .bind(id)
                .execute(&self.pool)
                .await?;
                Ok(marked.rows_affected() > 0)
            }

            #[tracing::instrument(skip_all, fields(id))]
            async fn record_delivery_failure(
                &self,
                id: i64,
                error: &str,
                now: chrono::DateTime<chrono::Utc>,
                next_attempt_at: Option<chrono::DateTime<chrono::Utc>>,
            ) -> Result<bool, crate::StoreError> {
                let status = match next_attempt_at {
                    Some(_) => costscope_core::notify::DeliveryStatus::Retrying,
                    None => costscope_core::notify::DeliveryStatus::Failed,
                };
                let recorded = sqlx::query(
                    "UPDATE notification_deliveries SET status = $1, attempts = attempts + 1, \
                     last_error = $2, last_attempt_at = $3, next_attempt_at = $4 \
                     WHERE id = $5 AND status IN ('pending', 'retrying')",
                )
                .bind(status.as_str())
                .bind(error)
                .bind(now)
                .bind(next_attempt_at)
                .bind(id)
                .execute(&self.pool)
                .await?;
                Ok(recorded.rows_affected() > 0)
            }

            #[tracing::instrument(skip_all, fields(customer_id))]
            async fn list_deliveries(
                &self,
                customer_id: i64,
                limit: i64,
            ) -> Result<Vec<crate::channels::Delivery>, crate::StoreError> {
                use crate::channels::{DeliveryRow, DELIVERY_COLUMNS};
                let rows: Vec<DeliveryRow> = sqlx::query_as(&format!(
                    "SELECT {DELIVERY_COLUMNS} FROM notification_deliveries d \
                     JOIN notification_outbox o ON o.id = d.notification_id AND o.customer_id = d.customer_id \
                     WHERE d.customer_id = $1 ORDER BY d.created_at DESC, d.id DESC LIMIT $2"
                ))
                .bind(customer_id)
                .bind(limit)
                .fetch_all(&self.pool)
                .await?;
                rows.into_iter().map(TryInto::try_into).collect()
            }

            #[tracing::instrument(skip_all, fields(customer_id, budget_id))]
            async fn budget_alert_deliveries(
                &self,
                customer_id: i64,
                budget_id: i64,
            ) -> Result<Vec<crate::channels::AlertDelivery>, crate::StoreError> {
                use crate::channels::{AlertDelivery, AlertDeliveryRow, FallbackRow};
                let rows: Vec<AlertDeliveryRow> = sqlx::query_as(
                    "SELECT o.budget_alert_id AS alert_id, d.channel_name, d.status, d.last_error AS error \
                     FROM notification_deliveries d \
                     JOIN notification_outbox o ON o.id = d.notification_id AND o.customer_id = d.customer_id \
                     JOIN budget_alert_history a ON a.id = o.budget_alert_id AND a.customer_id = o.customer_id \
                     WHERE d.customer_id = $1 AND a.budget_id = $2 ORDER BY a.id, d.id",
                )
                .bind(customer_id)
                .bind(budget_id)
                .fetch_all(&self.pool)
                .await?;
                let fallback: Vec<FallbackRow> = sqlx::query_as(
                    "SELECT o.budget_alert_id AS alert_id, \
                     (o.delivered_at IS NOT NULL) AS delivered, o.last_error AS error \
                     FROM notification_outbox o \
                     JOIN budget_alert_history a ON a.id = o.budget_alert_id AND a.customer_id = o.customer_id \
                     WHERE o.customer_id = $1 AND a.budget_id = $2 AND o.fanned_out_at IS NULL \
                     AND (o.delivered_at IS NOT NULL OR o.attempts > 0) ORDER BY a.id",
                )
                .bind(customer_id)
                .bind(budget_id)
                .fetch_all(&self.pool)
                .await?;
                let mut deliveries = rows
                    .into_iter()
                    .map(AlertDelivery::try_from)
                    .collect::<Result<Vec<_>, _>>()?;
                deliveries.extend(fallback.into_iter().map(AlertDelivery::from));
                // Stable: each alert's channel deliveries keep their order.
                deliveries.sort_by_key(|delivery| delivery.alert_id);
                Ok(deliveries)
            }
        }
    };
}

pub(crate) use impl_channel_store;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_budgets_channels_are_deduplicated_and_must_all_be_the_tenants() {
        assert_eq!(
            checked_channel_ids(&[3, 1, 3], &[1, 2, 3]).unwrap(),
            vec![1, 3]
        );
        assert_eq!(checked_channel_ids(&[], &[]).unwrap(), Vec::<i64>::new());
        assert!(matches!(
            checked_channel_ids(&[1, 4], &[1, 2, 3]),
            Err(StoreError::UnknownChannel)
        ));
    }
}
