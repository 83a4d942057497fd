//! The durable notification outbox (`notification_outbox`): notifications written in the same
//! transaction as what raised them, kept until a delivery channel marks them delivered.

use chrono::{DateTime, Utc};
use serde_json::Value;

use crate::StoreError;

/// Columns of `notification_outbox` in the order [`OutboxNotificationRow`] reads them.
pub(crate) const OUTBOX_COLUMNS: &str = "id, customer_id, kind, payload, created_at, attempts, \
     next_attempt_at, delivered_at, last_error";

/// What a notification is about; its payload's shape follows from it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NotificationKind {
    /// A budget threshold reached in a period: the payload has `customerId`, `alertId`,
    /// `budgetId`, `budgetName`, `budgetAmount`, `budgetPeriod`, `thresholdType`,
    /// `thresholdValue`, `spentAmount`, `spendPercentage`, `periodStart` and `triggeredAt`.
    BudgetAlert,
    /// A new cost anomaly: the payload is `costscope_core::notify::event::AnomalyAlert`
    /// (`customerId`, `anomalyId`, `start`, the series, `actual`, `expected`, `impact`, …).
    Anomaly,
    /// A user's scheduled digest: the payload is `costscope_core::notify::digest::Digest`. It
    /// goes only to the user's chosen channel and address (`crate::digests`).
    Digest,
}

impl NotificationKind {
    /// The stored name.
    pub const fn as_str(self) -> &'static str {
        match self {
            NotificationKind::BudgetAlert => "budget_alert",
            NotificationKind::Anomaly => "anomaly",
            NotificationKind::Digest => "digest",
        }
    }
}

/// One notification in the outbox.
#[derive(Debug, Clone, PartialEq)]
pub struct OutboxNotification {
    pub id: i64,
    pub customer_id: i64,
    pub kind: NotificationKind,
    pub payload: Value,
    pub created_at: DateTime<Utc>,
    /// Delivery attempts so far, failed or not.
    pub attempts: i64,
    /// Not to be tried again before this.
    pub next_attempt_at: DateTime<Utc>,
    /// `None` while it waits for delivery.
    pub delivered_at: Option<DateTime<Utc>>,
    /// Why the latest failed attempt failed.
    pub last_error: Option<String>,
}

#[derive(sqlx::FromRow)]
pub(crate) struct OutboxNotificationRow {
    id: i64,
    customer_id: i64,
    kind: String,
    payload: String,
    created_at: DateTime<Utc>,
    attempts: i64,
    next_attempt_at: DateTime<Utc>,
    delivered_at: Option<DateTime<Utc>>,
    last_error: Option<String>,
}

impl TryFrom<OutboxNotificationRow> for OutboxNotification {
    type Error = StoreError;

    fn try_from(row: OutboxNotificationRow) -> Result<Self, Self::Error> {
        let kind = match row.kind.as_str() {
            "budget_alert" => NotificationKind::BudgetAlert,
            "anomaly" => NotificationKind::Anomaly,
            "digest" => NotificationKind::Digest,
            other => {
                return Err(StoreError::Corrupt(format!(
                    "notification_outbox.kind: {other:?}"
                )))
            }
        };
        let payload = serde_json::from_str(&row.payload)
            .map_err(|err| StoreError::Corrupt(format!("notification_outbox.payload: {err}")))?;
        Ok(OutboxNotification {
            id: row.id,
            customer_id: row.customer_id,
            kind,
            payload,
            created_at: row.created_at,
            attempts: row.attempts,
            next_attempt_at: row.next_attempt_at,
            delivered_at: row.delivered_at,
            last_error: row.last_error,
        })
    }
}
