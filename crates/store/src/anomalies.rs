//! Cost anomalies (stop 25, docs/ANOMALIES.md "In the product"): `anomalies` (one row per run
//! of anomalous days of one series), `anomaly_settings` and `anomaly_channels`.
//!
//! [`AnomalyStore`] is a trait beside [`crate::MetadataStore`] (reached through
//! [`crate::MetadataStore::anomalies`]); the macro below stamps its SQL onto both backends.
//! What a run is, which new runs notify and what their notification says are
//! `costscope_core::anomaly` rules; the store keeps them exactly once.

use async_trait::async_trait;
use chrono::{DateTime, NaiveDate, Utc};
use costscope_core::anomaly::record::{impact_percent, NOTIFIED_CONTRIBUTORS};
use costscope_core::anomaly::{
    AnomalySettings, AnomalyStatus, Contributors, Run, SeriesKey, Thresholds,
};
use costscope_core::notify::event::AnomalyAlert;
use serde_json::Value;

use crate::StoreError;

/// A run a detection scan found, with what is behind its first day.
#[derive(Debug, Clone, PartialEq)]
pub struct ScannedAnomaly {
    pub series: SeriesKey,
    /// The account's name on a service series.
    pub account_name: Option<String>,
    pub run: Run,
    pub contributors: Contributors,
}

/// One tenant's detection run, to store in one transaction.
#[derive(Debug, Clone, Copy)]
pub struct AnomalyScan<'a> {
    pub customer_id: i64,
    /// The first day whose verdicts this scan gives (open runs reaching `judged_from..=latest`
    /// that it no longer finds are deleted).
    pub judged_from: NaiveDate,
    /// The tenant's latest charge day (which new runs notify).
    pub latest: NaiveDate,
    pub runs: &'a [ScannedAnomaly],
    pub now: DateTime<Utc>,
}

/// What [`AnomalyStore::record_anomaly_scan`] wrote.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ScanOutcome {
    /// Runs stored for the first time.
    pub inserted: usize,
    /// Known runs updated (grown, or their figures corrected).
    pub updated: usize,
    /// Open runs deleted because the scan no longer flags them.
    pub deleted: usize,
    /// New runs that wrote an `anomaly` notification.
    pub notified: usize,
}

/// A stored anomaly.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredAnomaly {
    pub id: i64,
    pub customer_id: i64,
    pub series: SeriesKey,
    pub account_name: Option<String>,
    pub start: NaiveDate,
    pub end: NaiveDate,
    pub days: i64,
    pub actual: f64,
    pub expected: f64,
    pub status: AnomalyStatus,
    pub contributors: Contributors,
    pub detected_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

impl StoredAnomaly {
    pub fn impact(&self) -> f64 {
        self.actual - self.expected
    }

    /// The `anomaly` notification of this anomaly (docs/ANOMALIES.md "Anomaly notifications").
    pub fn alert(&self) -> AnomalyAlert {
        let (provider, account_id, service, tag_key, tag_value) = series_columns(&self.series);
        AnomalyAlert {
            customer_id: self.customer_id,
            anomaly_id: self.id,
            start: Some(self.start),
            provider: provider.map(str::to_owned),
            account_id: account_id.map(str::to_owned),
            account_name: self.account_name.clone(),
            service: service.map(str::to_owned),
            tag_key: tag_key.map(str::to_owned),
            tag_value: tag_value.map(str::to_owned),
            currency: self.series.currency().to_owned(),
            actual: self.actual,
            expected: self.expected,
            impact: self.impact(),
            impact_percent: impact_percent(self.actual, self.expected),
            top_contributors: self
                .contributors
                .usage_types
                .iter()
                .take(NOTIFIED_CONTRIBUTORS)
                .cloned()
                .collect(),
        }
    }
}

/// `(provider, account_id, service, tag_key, tag_value)` of a series, `None` where it has no
/// such part.
#[allow(clippy::type_complexity)]
pub(crate) fn series_columns(
    series: &SeriesKey,
) -> (
    Option<&str>,
    Option<&str>,
    Option<&str>,
    Option<&str>,
    Option<&str>,
) {
    match series {
        SeriesKey::Service {
            provider,
            account_id,
            service,
            ..
        } => (Some(provider), Some(account_id), Some(service), None, None),
        SeriesKey::Tag { key, value, .. } => (None, None, None, Some(key), Some(value)),
    }
}

/// The tenant's anomalies, their scans and settings. Every call takes the customer id and only
/// ever sees that customer's rows.
#[async_trait]
pub trait AnomalyStore: Send + Sync {
    /// Every customer's id (the detection job looks at each).
    async fn anomaly_customers(&self) -> Result<Vec<i64>, StoreError>;
    /// Stores a tenant's scan in one transaction: each run is inserted (a new series and first
    /// day) or updated; open runs that reach the judged window and that the scan no longer
    /// finds are deleted (dismissed and expected ones are kept); and every new run that
    /// notifies (core's `notified`) writes its `anomaly` outbox event in the same transaction,
    /// so each is sent exactly once.
    async fn record_anomaly_scan(&self, scan: AnomalyScan<'_>) -> Result<ScanOutcome, StoreError>;
    /// The tenant's anomalies whose run overlaps `first..=last`, largest impact first.
    async fn list_anomalies(
        &self,
        customer_id: i64,
        first: NaiveDate,
        last: NaiveDate,
        status: Option<AnomalyStatus>,
    ) -> Result<Vec<StoredAnomaly>, StoreError>;
    async fn get_anomaly(
        &self,
        customer_id: i64,
        id: i64,
    ) -> Result<Option<StoredAnomaly>, StoreError>;
    /// `None` when the anomaly is not the tenant's.
    async fn set_anomaly_status(
        &self,
        customer_id: i64,
        id: i64,
        status: AnomalyStatus,
        now: DateTime<Utc>,
    ) -> Result<Option<StoredAnomaly>, StoreError>;
    /// The tenant's settings (the defaults until it saves some).
    async fn anomaly_settings(&self, customer_id: i64) -> Result<AnomalySettings, StoreError>;
    /// Replaces the tenant's settings and the channels its anomalies go to, in one transaction.
    /// [`StoreError::UnknownChannel`] (and nothing written) when a channel is not the tenant's.
    async fn put_anomaly_settings(
        &self,
        customer_id: i64,
        settings: &AnomalySettings,
        now: DateTime<Utc>,
    ) -> Result<(), StoreError>;
}

/// Columns of `anomalies` in the order [`AnomalyRow`] reads them.
pub(crate) const ANOMALY_COLUMNS: &str = "id, customer_id, series_key, account_name, start_day, \
     end_day, days, actual, expected, status, contributors, detected_at, updated_at";

#[derive(sqlx::FromRow)]
pub(crate) struct AnomalyRow {
    id: i64,
    customer_id: i64,
    series_key: String,
    account_name: Option<String>,
    start_day: NaiveDate,
    end_day: NaiveDate,
    days: i64,
    actual: f64,
    expected: f64,
    status: String,
    contributors: String,
    detected_at: DateTime<Utc>,
    updated_at: DateTime<Utc>,
}

impl TryFrom<AnomalyRow> for StoredAnomaly {
    type Error = StoreError;

    fn try_from(row: AnomalyRow) -> Result<Self, Self::Error> {
        let corrupt =
            |column: &str, text: &str| StoreError::Corrupt(format!("anomalies.{column}: {text:?}"));
        Ok(StoredAnomaly {
            id: row.id,
            customer_id: row.customer_id,
            series: SeriesKey::parse(&row.series_key)
                .ok_or_else(|| corrupt("series_key", &row.series_key))?,
            account_name: row.account_name,
            start: row.start_day,
            end: row.end_day,
            days: row.days,
            actual: row.actual,
            expected: row.expected,
            status: AnomalyStatus::parse(&row.status)
                .ok_or_else(|| corrupt("status", &row.status))?,
            contributors: serde_json::from_str(&row.contributors)
                .map_err(|_| corrupt("contributors", &row.contributors))?,
            detected_at: row.detected_at,
            updated_at: row.updated_at,
        })
    }
}

#[derive(sqlx::FromRow)]
pub(crate) struct SettingsRow {
    relative_threshold: f64,
    absolute_threshold: f64,
    tag_keys: String,
}

impl SettingsRow {
    pub(crate) fn into_settings(
        self,
        channel_ids: Vec<i64>,
    ) -> Result<AnomalySettings, StoreError> {
        let thresholds = Thresholds::new(self.relative_threshold, self.absolute_threshold)
            .map_err(|error| StoreError::Corrupt(format!("anomaly_settings: {}", error.message)))?;
        let tag_keys: Vec<String> = serde_json::from_str(&self.tag_keys)
            .map_err(|err| StoreError::Corrupt(format!("anomaly_settings.tag_keys: {err}")))?;
        Ok(AnomalySettings {
            thresholds,
            tag_keys,
            channel_ids,
        })
    }
}

pub(crate) fn contributors_text(contributors: &Contributors) -> String {
    serde_json::to_string(contributors).unwrap_or_else(|_| "{}".to_owned())
}

pub(crate) fn payload_text(payload: &Value) -> String {
    payload.to_string()
}

macro_rules! impl_anomaly_store {
    ($store:ty) => {
        #[async_trait::async_trait]
        impl crate::anomalies::AnomalyStore for $store {
            #[tracing::instrument(skip_all)]
            async fn anomaly_customers(&self) -> Result<Vec<i64>, crate::StoreError> {
                let rows: Vec<(i64,)> = sqlx::query_as("SELECT id FROM customers ORDER BY id")
                    .fetch_all(&self.pool)
                    .await?;
                Ok(rows.into_iter().map(|(id,)| id).collect())
            }

            #[tracing::instrument(skip_all, fields(customer_id = scan.customer_id, runs = scan.runs.len()))]
            async fn record_anomaly_scan(
                &self,
                scan: crate::anomalies::AnomalyScan<'_>,
            ) -> Result<crate::anomalies::ScanOutcome, crate::StoreError> {
                use crate::anomalies::{
                    contributors_text, payload_text, series_columns, AnomalyRow, ANOMALY_COLUMNS,
                };
                let customer_id = scan.customer_id;
                let mut outcome = crate::anomalies::ScanOutcome::default();
                let mut tx = self.begin_write().await?;
                // The open runs reaching the judged window: deleted below unless found again.
                let open: Vec<(i64, String, chrono::NaiveDate)> = sqlx::query_as(
                    "SELECT id, series_key, start_day FROM anomalies \
                     WHERE customer_id = $1 AND status = 'open' AND end_day >= $2",
                )
                .bind(customer_id)
                .bind(scan.judged_from)
                .fetch_all(&mut *tx)
                .await?;
                let mut found = std::collections::HashSet::new();
                let mut new_rows: Vec<crate::anomalies::StoredAnomaly> = Vec::new();
                for scanned in scan.runs {
                    let key = scanned.series.stored();
                    let run = &scanned.run;
                    let contributors = contributors_text(&scanned.contributors);
                    let days = i64::from(run.days);
                    let existing: Option<(i64,)> = sqlx::query_as(
                        "SELECT id FROM anomalies \
                         WHERE customer_id = $1 AND series_key = $2 AND start_day = $3",
                    )
                    .bind(customer_id)
                    .bind(&key)
                    .bind(run.start)
                    .fetch_optional(&mut *tx)
                    .await?;
                    if let Some((id,)) = existing {
                        found.insert(id);
                        sqlx::query(
                            "UPDATE anomalies SET end_day = $1, days = $2, actual = $3, \
                             expected = $4, account_name = $5, contributors = $6, updated_at = $7 \
                             WHERE id = $8 AND customer_id = $9",
                        )
                        .bind(run.end)
                        .bind(days)
                        .bind(run.actual)
                        .bind(run.expected)
                        .bind(scanned.account_name.as_deref())
                        .bind(&contributors)
                        .bind(scan.now)
                        .bind(id)
                        .bind(customer_id)
                        .execute(&mut *tx)
                        .await?;
                        outcome.updated += 1;
                        continue;
                    }
                    let (provider, account_id, service, tag_key, tag_value) =
                        series_columns(&scanned.series);
                    let row: AnomalyRow = sqlx::query_as(&format!(
                        "INSERT INTO anomalies (customer_id, series_key, provider, account_id, \
                         account_name, service, tag_key, tag_value, currency, start_day, end_day, \
                         days, actual, expected, status, contributors, detected_at, updated_at) \
                         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, \
                         'open', $15, $16, $16) RETURNING {ANOMALY_COLUMNS}"
                    ))
                    .bind(customer_id)
                    .bind(&key)
                    .bind(provider)
                    .bind(account_id)
                    .bind(scanned.account_name.as_deref())
                    .bind(service)
                    .bind(tag_key)
                    .bind(tag_value)
                    .bind(scanned.series.currency())
                    .bind(run.start)
                    .bind(run.end)
                    .bind(days)
                    .bind(run.actual)
                    .bind(run.expected)
                    .bind(&contributors)
                    .bind(scan.now)
                    .fetch_one(&mut *tx)
                    .await?;
                    found.insert(row.id_value());
                    new_rows.push(row.try_into()?);
                    outcome.inserted += 1;
                }
                for (id, _, _) in open.iter().filter(|(id, _, _)| !found.contains(id)) {
                    sqlx::query("DELETE FROM anomalies WHERE id = $1 AND customer_id = $2")
                        .bind(id)
                        .bind(customer_id)
                        .execute(&mut *tx)
                        .await?;
                    outcome.deleted += 1;
                }
                let ends: Vec<(chrono::NaiveDate, f64)> =
                    new_rows.iter().map(|row| (row.end, row.impact())).collect();
                let flags = costscope_core::anomaly::record::notified(&ends, scan.latest);
                for (anomaly, notify) in new_rows.iter().zip(flags) {
                    if !notify {
                        continue;
                    }
                    sqlx::query(
                        "INSERT INTO notification_outbox \
                         (customer_id, kind, payload, created_at, next_attempt_at) \
                         VALUES ($1, $2, $3, $4, $4)",
                    )
                    .bind(customer_id)
                    .bind(crate::NotificationKind::Anomaly.as_str())
                    .bind(payload_text(&anomaly.alert().to_payload()))
                    .bind(scan.now)
                    .execute(&mut *tx)
                    .await?;
                    outcome.notified += 1;
                }
                tx.commit().await?;
                Ok(outcome)
            }

            #[tracing::instrument(skip_all, fields(customer_id))]
            async fn list_anomalies(
                &self,
                customer_id: i64,
                first: chrono::NaiveDate,
                last: chrono::NaiveDate,
                status: Option<costscope_core::anomaly::AnomalyStatus>,
            ) -> Result<Vec<crate::anomalies::StoredAnomaly>, crate::StoreError> {
                use crate::anomalies::{AnomalyRow, ANOMALY_COLUMNS};
                let rows: Vec<AnomalyRow> = sqlx::query_as(&format!(
                    "SELECT {ANOMALY_COLUMNS} FROM anomalies \
                     WHERE customer_id = $1 AND end_day >= $2 AND start_day <= $3 \
                     AND ($4 IS NULL OR status = $4) \
                     ORDER BY actual - expected DESC, id"
                ))
                .bind(customer_id)
                .bind(first)
                .bind(last)
                .bind(status.map(|status| status.as_str()))
                .fetch_all(&self.pool)
                .await?;
                rows.into_iter().map(TryInto::try_into).collect()
            }

            #[tracing::instrument(skip_all, fields(customer_id, id))]
            async fn get_anomaly(
                &self,
                customer_id: i64,
                id: i64,
            ) -> Result<Option<crate::anomalies::StoredAnomaly>, crate::StoreError> {
                use crate::anomalies::{AnomalyRow, ANOMALY_COLUMNS};
                let row: Option<AnomalyRow> = sqlx::query_as(&format!(
                    "SELECT {ANOMALY_COLUMNS} FROM anomalies WHERE customer_id = $1 AND id = $2"
                ))
                .bind(customer_id)
                .bind(id)
                .fetch_optional(&self.pool)
                .await?;
                row.map(TryInto::try_into).transpose()
            }

            #[tracing::instrument(skip_all, fields(customer_id, id))]
            async fn set_anomaly_status(
                &self,
                customer_id: i64,
                id: i64,
                status: costscope_core::anomaly::AnomalyStatus,
                now: chrono::DateTime<chrono::Utc>,
            ) -> Result<Option<crate::anomalies::StoredAnomaly>, crate::StoreError> {
                use crate::anomalies::{AnomalyRow, ANOMALY_COLUMNS};
                let row: Option<AnomalyRow> = sqlx::query_as(&format!(
                    "UPDATE anomalies SET status = $1, updated_at = $2 \
                     WHERE customer_id = $3 AND id = $4 RETURNING {ANOMALY_COLUMNS}"
                ))
                .bind(status.as_str())
                .bind(now)
                .bind(customer_id)
                .bind(id)
                .fetch_optional(&self.pool)
                .await?;
                row.map(TryInto::try_into).transpose()
            }

            #[tracing::instrument(skip_all, fields(customer_id))]
            async fn anomaly_settings(
                &self,
                customer_id: i64,
            ) -> Result<costscope_core::anomaly::AnomalySettings, crate::StoreError> {
                use crate::anomalies::SettingsRow;
                let row: Option<SettingsRow> = sqlx::query_as(
                    "SELECT relative_threshold, absolute_threshold, tag_keys \
                     FROM anomaly_settings WHERE customer_id = $1",
                )
                .bind(customer_id)
                .fetch_optional(&self.pool)
                .await?;
                let channels: Vec<(i64,)> = sqlx::query_as(
                    "SELECT channel_id FROM anomaly_channels WHERE customer_id = $1 ORDER BY channel_id",
                )
                .bind(customer_id)
                .fetch_all(&self.pool)
                .await?;
                let channel_ids = channels.into_iter().map(|(id,)| id).collect();
                match row {
                    Some(row) => row.into_settings(channel_ids),
                    None => Ok(costscope_core::anomaly::AnomalySettings {
                        channel_ids,
                        ..Default::default()
                    }),
                }
            }

            #[tracing::instrument(skip_all, fields(customer_id))]
            async fn put_anomaly_settings(
                &self,
                customer_id: i64,
                settings: &costscope_core::anomaly::AnomalySettings,
                now: chrono::DateTime<chrono::Utc>,
            ) -> Result<(), crate::StoreError> {
                let mut tx = self.begin_write().await?;
                let known: Vec<(i64,)> =
                    sqlx::query_as("SELECT id FROM notification_channels WHERE customer_id = $1")
                        .bind(customer_id)
                        .fetch_all(&mut *tx)
                        .await?;
                let known: Vec<i64> = known.into_iter().map(|(id,)| id).collect();
                let ids = crate::channels::checked_channel_ids(&settings.channel_ids, &known)?;
                let tag_keys = serde_json::to_string(&settings.tag_keys)
                    .unwrap_or_else(|_| "[]".to_owned());
                sqlx::query(
                    "INSERT INTO anomaly_settings \
                     (customer_id, relative_threshold, absolute_threshold, tag_keys, updated_at) \
                     VALUES ($1, $2, $3, $4, $5) \
                     ON CONFLICT (customer_id) DO UPDATE SET \
                     relative_threshold = excluded.relative_threshold, \
                     absolute_threshold = excluded.absolute_threshold, \
                     tag_keys = excluded.tag_keys, updated_at = excluded.updated_at",
                )
                .bind(customer_id)
                .bind(settings.thresholds.relative())
                .bind(settings.thresholds.absolute())
                .bind(tag_keys)
                .bind(now)
                .execute(&mut *tx)
                .await?;
                sqlx::query("DELETE FROM anomaly_channels WHERE customer_id = $1")
                    .bind(customer_id)
                    .execute(&mut *tx)
                    .await?;
                for channel_id in ids {
                    sqlx::query(
                        "INSERT INTO anomaly_channels (customer_id, channel_id) VALUES ($1, $2)",
                    )
                    .bind(customer_id)
                    .bind(channel_id)
                    .execute(&mut *tx)
                    .await
                    .map_err(|err| match &err {
                        sqlx::Error::Database(db) if db.is_foreign_key_violation() => {
                            crate::StoreError::UnknownChannel
                        }
                        _ => crate::StoreError::from(err),
                    })?;
                }
                tx.commit().await?;
                Ok(())
            }
        }
    };
}

pub(crate) use impl_anomaly_store;

impl AnomalyRow {
    pub(crate) fn id_value(&self) -> i64 {
        self.id
    }
}
