//! Uploads of billing data and their background loads (`ingest_jobs`).

use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};

use crate::StoreError;

/// Columns of `ingest_jobs` in the order [`IngestJobRow`] reads them.
pub(crate) const INGEST_JOB_COLUMNS: &str = "id, customer_id, status, format, files, rows, \
     replaced_rows, billing_periods, totals, error, created_by_user_id, created_by, created_at, \
     started_at, finished_at, progress, source, cloud_account_id, lease_holder, \
     lease_expires_at";

/// The message of a job that was running when its server stopped, taken over by another
/// server (or the same one restarted) without the files to load it again.
pub const INTERRUPTED_MESSAGE: &str =
    "Interrupted: the server stopped during the load. Upload the files again.";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum IngestJobStatus {
    Queued,
    Running,
    Succeeded,
    Failed,
}

impl IngestJobStatus {
    pub const fn as_str(self) -> &'static str {
        match self {
            IngestJobStatus::Queued => "queued",
            IngestJobStatus::Running => "running",
            IngestJobStatus::Succeeded => "succeeded",
            IngestJobStatus::Failed => "failed",
        }
    }

    /// Succeeded or failed: nothing more will happen to the job.
    pub const fn is_final(self) -> bool {
        matches!(self, IngestJobStatus::Succeeded | IngestJobStatus::Failed)
    }
}

/// One uploaded file: its name as the user knows it, its size, and once loaded its format
/// and row count.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct IngestFile {
    pub name: String,
    pub bytes: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rows: Option<u64>,
}

/// A billing period an upload replaced.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct IngestBillingPeriod {
    pub provider: String,
    pub billing_account_id: String,
    pub billing_period_start: NaiveDate,
}

/// What an upload loaded for one provider.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IngestTotals {
    pub provider: String,
    pub rows: u64,
    pub billed_cost: f64,
    pub effective_cost: f64,
    pub list_cost: f64,
    pub currency: String,
}

/// How far a running load has got (recorded by the worker while it runs, kept afterwards).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct IngestProgress {
    /// `reading`, `checking`, `writing` or `rollups`.
    pub phase: String,
    /// The file being read or checked (0-based) of `files`, by its uploaded name.
    pub file_index: u64,
    pub files: u64,
    pub file_name: String,
    pub rows_read: u64,
    pub bytes_read: u64,
    pub bytes_total: u64,
    pub updated_at: DateTime<Utc>,
}

/// An upload and what became of it.
#[derive(Debug, Clone, PartialEq)]
pub struct IngestJob {
    pub id: i64,
    pub customer_id: i64,
    pub status: IngestJobStatus,
    /// The format the uploader chose; `None`: detected per file.
    pub format: Option<String>,
    pub files: Vec<IngestFile>,
    pub rows: u64,
    pub replaced_rows: u64,
    pub billing_periods: Vec<IngestBillingPeriod>,
    pub totals: Vec<IngestTotals>,
    /// Why the job failed, for the uploader.
    pub error: Option<String>,
    /// The uploading user; `None` for the command line, the demo, or a deleted user.
    pub created_by_user_id: Option<i64>,
    /// The uploader's name at the time ("command line" for `costscope ingest`).
    pub created_by: String,
    pub created_at: DateTime<Utc>,
    pub started_at: Option<DateTime<Utc>>,
    pub finished_at: Option<DateTime<Utc>>,
    /// The last progress the load recorded; `None` before it first reported.
    pub progress: Option<IngestProgress>,
    /// Where the load came from: `None` for an upload or the command line; for a sync, its
    /// description (e.g. `AWS export s3://bucket/prefix/export, 2026-10`).
    pub source: Option<String>,
    /// The cloud connection whose sync made the load (`None` once the connection is deleted).
    pub cloud_account_id: Option<i64>,
    /// The server process loading it (a running job's), as named in its lease.
    pub lease_holder: Option<String>,
    /// Until when that server holds it: renewed while it loads; once passed, another server
    /// takes the job over.
    pub lease_expires_at: Option<DateTime<Utc>>,
}

/// Who claims a job and until when it holds it ([`crate::MetadataStore::claim_next_ingest_job`]).
#[derive(Debug, Clone, Copy)]
pub struct IngestLease<'a> {
    /// The claiming server process.
    pub holder: &'a str,
    pub now: DateTime<Utc>,
    /// The lease's expiry (`now` plus the lease's time).
    pub until: DateTime<Utc>,
}

/// A job claimed for loading.
#[derive(Debug, Clone, PartialEq)]
pub struct ClaimedIngestJob {
    pub job: IngestJob,
    /// It was running under a lease its holder stopped renewing (a server stopped during the
    /// load): the load may have committed before the stop, or have to run again.
    pub taken_over: bool,
}

/// The files of an upload and the format chosen for them.
#[derive(Debug, Clone, Copy)]
pub struct IngestUpload<'a> {
    pub format: Option<&'a str>,
    pub files: &'a [IngestFile],
}

/// A new job. Without `upload` it is *receiving*: invisible and never claimed until
/// [`crate::MetadataStore::queue_ingest_job`] gives it its files (or
/// [`crate::MetadataStore::start_ingest_job`] starts it under its loader's lease, a direct
/// load). With `upload` it starts *running* at once, without a lease: a claim takes it over
/// once a lease's time has passed.
#[derive(Debug, Clone, Copy)]
pub struct NewIngestJob<'a> {
    pub customer_id: i64,
    pub created_by_user_id: Option<i64>,
    pub created_by: &'a str,
    pub upload: Option<IngestUpload<'a>>,
    /// Where the load comes from (see [`IngestJob::source`]); `None` for an upload.
    pub source: Option<&'a str>,
    /// The cloud connection whose sync makes the load.
    pub cloud_account_id: Option<i64>,
    pub now: DateTime<Utc>,
}

/// What a finished load recorded.
#[derive(Debug, Clone, PartialEq)]
pub struct IngestResult {
    pub files: Vec<IngestFile>,
    pub rows: u64,
    pub replaced_rows: u64,
    pub billing_periods: Vec<IngestBillingPeriod>,
    pub totals: Vec<IngestTotals>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum IngestOutcome {
    Succeeded(IngestResult),
    /// The message shown to the uploader.
    Failed(String),
}

#[derive(sqlx::FromRow)]
pub(crate) struct IngestJobRow {
    id: i64,
    customer_id: i64,
    status: String,
    format: Option<String>,
    files: String,
    rows: i64,
    replaced_rows: i64,
    billing_periods: String,
    totals: String,
    error: Option<String>,
    created_by_user_id: Option<i64>,
    created_by: String,
    created_at: DateTime<Utc>,
    started_at: Option<DateTime<Utc>>,
    finished_at: Option<DateTime<Utc>>,
    progress: Option<String>,
    source: Option<String>,
    cloud_account_id: Option<i64>,
    lease_holder: Option<String>,
    lease_expires_at: Option<DateTime<Utc>>,
}

fn from_json<T: serde::de::DeserializeOwned>(column: &str, text: &str) -> Result<T, StoreError> {
    serde_json::from_str(text)
        .map_err(|err| StoreError::Corrupt(format!("ingest_jobs.{column}: {err}")))
}

pub(crate) fn to_json<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("ingest job parts serialize")
}

/// Counts fit in a signed 64-bit column.
pub(crate) fn count(value: u64) -> i64 {
    i64::try_from(value).unwrap_or(i64::MAX)
}

impl TryFrom<IngestJobRow> for IngestJob {
    type Error = StoreError;

    fn try_from(row: IngestJobRow) -> Result<Self, Self::Error> {
        let status = match row.status.as_str() {
            "queued" => IngestJobStatus::Queued,
            "running" => IngestJobStatus::Running,
            "succeeded" => IngestJobStatus::Succeeded,
            "failed" => IngestJobStatus::Failed,
            other => {
                return Err(StoreError::Corrupt(format!(
                    "unexpected ingest job status {other:?}"
                )))
            }
        };
        Ok(IngestJob {
            id: row.id,
            customer_id: row.customer_id,
            status,
            format: row.format,
            files: from_json("files", &row.files)?,
            rows: u64::try_from(row.rows).unwrap_or(0),
            replaced_rows: u64::try_from(row.replaced_rows).unwrap_or(0),
            billing_periods: from_json("billing_periods", &row.billing_periods)?,
            totals: from_json("totals", &row.totals)?,
            error: row.error,
            created_by_user_id: row.created_by_user_id,
            created_by: row.created_by,
            created_at: row.created_at,
            started_at: row.started_at,
            finished_at: row.finished_at,
            progress: row
                .progress
                .as_deref()
                .map(|text| from_json("progress", text))
                .transpose()?,
            source: row.source,
            cloud_account_id: row.cloud_account_id,
            lease_holder: row.lease_holder,
            lease_expires_at: row.lease_expires_at,
        })
    }
}

/// What a customer has uploaded in a period and keeps loaded: what the upload quotas count.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct IngestUsage {
    /// Uploads created since the period's start (whatever became of them); cloud syncs'
    /// loads are not counted.
    pub loads: u64,
    /// Their bytes, as uploaded.
    pub bytes: u64,
    /// Line items the customer's successful loads keep (rows loaded less rows replaced),
    /// uploads and syncs alike.
    pub stored_rows: u64,
}

/// The bytes of an upload's recorded files (`ingest_jobs.files`).
pub(crate) fn uploaded_bytes(files: &str) -> Result<u64, StoreError> {
    let files: Vec<IngestFile> = from_json("files", files)?;
    Ok(files.iter().map(|file| file.bytes).sum())
}
