//! Cloud connections (spec 2 §3 AWS account / GCP project; Azure beyond the spec): the
//! `cloud_accounts` rows with their settings, encrypted secret, registration check and sync
//! state, and `sync_periods`, the fingerprint of each billing period's last loaded delivery.

use chrono::{DateTime, NaiveDate, Utc};
use serde_json::Value;

/// Registration check states (spec 2 §3: the registration job's `State`).
pub const REGISTRATION_RUNNING: i32 = 1;
pub const REGISTRATION_SUCCEEDED: i32 = 6;
pub const REGISTRATION_FAILED: i32 = 7;

/// A sync's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SyncState {
    Running,
    Succeeded,
    Failed,
}

impl SyncState {
    pub const fn as_str(self) -> &'static str {
        match self {
            SyncState::Running => "running",
            SyncState::Succeeded => "succeeded",
            SyncState::Failed => "failed",
        }
    }
}

/// The last registration check of a connection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegistrationCheck {
    /// [`REGISTRATION_RUNNING`], [`REGISTRATION_SUCCEEDED`] or [`REGISTRATION_FAILED`].
    pub state: i32,
    /// What was found, or why it failed (in words a person can act on).
    pub details: Option<String>,
    pub started_at: DateTime<Utc>,
    pub finished_at: Option<DateTime<Utc>>,
}

/// The sync of a connection: the last one (or the running one) and whether one was asked for.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SyncStatus {
    /// `None`: never synced.
    pub state: Option<SyncState>,
    pub started_at: Option<DateTime<Utc>>,
    pub finished_at: Option<DateTime<Utc>>,
    /// Why the last sync failed.
    pub error: Option<String>,
    /// What the last sync did, for people (`Loaded 2 billing periods, 1 unchanged`).
    pub details: Option<String>,
    /// Set by "Sync now" until a sync starts.
    pub requested_at: Option<DateTime<Utc>>,
}

/// A connected AWS account or organisation, member account, GCP project or Azure export.
#[derive(Debug, Clone, PartialEq)]
pub struct CloudConnection {
    pub id: i64,
    pub customer_id: i64,
    /// `aws`, `gcp` or `azure`.
    pub provider: String,
    /// The AWS account id (an organisation's management account), the GCP project id, or the
    /// Azure subscription (or storage account) the export belongs to.
    pub account_id: String,
    pub account_name: String,
    /// The AWS organisation id (`r-…`) when registered as an organisation.
    pub organization_id: Option<String>,
    /// The organisation connection a member account was listed under.
    pub parent_id: Option<i64>,
    /// Provider settings (`costscope_connectors::settings::*ExportSettings` as JSON); `{}`
    /// when the connection has none (a member account, a registration without an export yet).
    pub settings: Value,
    /// Whether an encrypted secret is stored (the secret itself is read only through
    /// [`crate::MetadataStore::connection_secret`]).
    pub has_secret: bool,
    pub created_by_user_id: Option<i64>,
    pub created_at: DateTime<Utc>,
    /// `None` before the first check.
    pub registration: Option<RegistrationCheck>,
    pub sync: SyncStatus,
}

/// A connection to create.
#[derive(Debug, Clone, Copy)]
pub struct NewCloudConnection<'a> {
    pub customer_id: i64,
    pub provider: &'a str,
    pub account_id: &'a str,
    pub account_name: &'a str,
    pub organization_id: Option<&'a str>,
    pub parent_id: Option<i64>,
    pub settings: &'a Value,
    /// Already encrypted by the server.
    pub encrypted_secret: Option<&'a str>,
    pub created_by_user_id: Option<i64>,
    pub now: DateTime<Utc>,
}

/// A member account of an organisation, as AWS Organizations lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemberAccount {
    pub account_id: String,
    pub account_name: String,
}

/// How a sync ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SyncOutcome {
    Succeeded { details: String },
    Failed { error: String },
}

/// The fingerprint of a billing period's delivery at its last successful load.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyncedPeriod {
    pub billing_period: NaiveDate,
    pub fingerprint: String,
    pub ingest_job_id: Option<i64>,
    pub synced_at: DateTime<Utc>,
}

/// The columns [`ConnectionRow`] reads, each prefixed with `table` (`"c."` or `""`).
pub(crate) fn connection_columns(table: &str) -> String {
    [
        "id",
        "customer_id",
        "provider",
        "account_id",
        "account_name",
        "organization_id",
        "parent_id",
        "settings",
        "created_by_user_id",
        "created_at",
        "registration_state",
        "registration_details",
        "registration_started_at",
        "registration_finished_at",
        "sync_state",
        "sync_started_at",
        "sync_finished_at",
        "sync_error",
        "sync_details",
        "sync_requested_at",
    ]
    .iter()
    .map(|column| format!("{table}{column}"))
    .chain(std::iter::once(format!(
        "CASE WHEN {table}secret IS NULL THEN FALSE ELSE TRUE END AS has_secret"
    )))
    .collect::<Vec<_>>()
    .join(", ")
}

/// The settings as stored: `{}` for none (JSON `null` or an empty object).
pub(crate) fn settings_text(settings: &Value) -> String {
    match settings {
        Value::Null => "{}".to_owned(),
        other => other.to_string(),
    }
}

#[derive(sqlx::FromRow)]
pub(crate) struct ConnectionRow {
    id: i64,
    customer_id: i64,
    provider: String,
    account_id: String,
    account_name: String,
    organization_id: Option<String>,
    parent_id: Option<i64>,
    settings: String,
    created_by_user_id: Option<i64>,
    created_at: DateTime<Utc>,
    registration_state: Option<i32>,
    registration_details: Option<String>,
    registration_started_at: Option<DateTime<Utc>>,
    registration_finished_at: Option<DateTime<Utc>>,
    sync_state: Option<String>,
    sync_started_at: Option<DateTime<Utc>>,
    sync_finished_at: Option<DateTime<Utc>>,
    sync_error: Option<String>,
    sync_details: Option<String>,
    sync_requested_at: Option<DateTime<Utc>>,
    has_secret: bool,
}

impl TryFrom<ConnectionRow> for CloudConnection {
    type Error = crate::StoreError;

    fn try_from(row: ConnectionRow) -> Result<Self, Self::Error> {
        use crate::StoreError;
        let settings: Value = serde_json::from_str(&row.settings).map_err(|err| {
            StoreError::Corrupt(format!("cloud_accounts.settings of {}: {err}", row.id))
        })?;
        let registration = match (row.registration_state, row.registration_started_at) {
            (Some(state), Some(started_at)) => Some(RegistrationCheck {
                state,
                details: row.registration_details,
                started_at,
                finished_at: row.registration_finished_at,
            }),
            (None, _) => None,
            (Some(_), None) => {
                return Err(StoreError::Corrupt(format!(
                    "cloud account {}: a registration state without a start time",
                    row.id
                )))
            }
        };
        let state = match row.sync_state.as_deref() {
            None => None,
            Some("running") => Some(SyncState::Running),
            Some("succeeded") => Some(SyncState::Succeeded),
            Some("failed") => Some(SyncState::Failed),
            Some(other) => {
                return Err(StoreError::Corrupt(format!(
                    "cloud account {}: unknown sync state {other:?}",
                    row.id
                )))
            }
        };
        Ok(CloudConnection {
            id: row.id,
            customer_id: row.customer_id,
            provider: row.provider,
            account_id: row.account_id,
            account_name: row.account_name,
            organization_id: row.organization_id,
            parent_id: row.parent_id,
            settings,
            has_secret: row.has_secret,
            created_by_user_id: row.created_by_user_id,
            created_at: row.created_at,
            registration,
            sync: SyncStatus {
                state,
                started_at: row.sync_started_at,
                finished_at: row.sync_finished_at,
                error: row.sync_error,
                details: row.sync_details,
                requested_at: row.sync_requested_at,
            },
        })
    }
}

pub(crate) const SYNCED_PERIOD_COLUMNS: &str =
    "billing_period, fingerprint, ingest_job_id, synced_at";

#[derive(sqlx::FromRow)]
pub(crate) struct SyncedPeriodRow {
    billing_period: NaiveDate,
    fingerprint: String,
    ingest_job_id: Option<i64>,
    synced_at: DateTime<Utc>,
}

impl From<SyncedPeriodRow> for SyncedPeriod {
    fn from(row: SyncedPeriodRow) -> Self {
        SyncedPeriod {
            billing_period: row.billing_period,
            fingerprint: row.fingerprint,
            ingest_job_id: row.ingest_job_id,
            synced_at: row.synced_at,
        }
    }
}

/// `$first, $first+1, …` for `count` values bound from `first` on.
pub(crate) fn placeholders(first: usize, count: usize) -> String {
    (first..first + count)
        .map(|n| format!("${n}"))
        .collect::<Vec<_>>()
        .join(", ")
}
