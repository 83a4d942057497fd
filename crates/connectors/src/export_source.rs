//! What every cloud billing-export source answers, so that the sync job treats AWS Data
//! Exports, the legacy AWS CUR, the GCP BigQuery billing export and Azure Cost Management
//! exports alike: list the billing periods the source holds (each with a fingerprint that
//! changes whenever its delivery changes), and fetch one period's files to disk.

use std::path::{Path, PathBuf};

use async_trait::async_trait;
use chrono::NaiveDate;

/// One billing period as the source delivers it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportPeriod {
    /// The first day of the billing month.
    pub billing_period: NaiveDate,
    /// Changes whenever the delivery of this period changes (a manifest's ETag or assembly
    /// id, a row count with the last export time, …). The sync loads a period again only when
    /// its fingerprint differs from the one recorded at its last successful load.
    pub fingerprint: String,
    /// Where the period lives, for people: `s3://bucket/prefix/export/metadata/BILLING_PERIOD=2026-10/export-Manifest.json`,
    /// `project.dataset.table (invoice.month 202610)`, `https://account.blob.core.windows.net/container/dir/…`.
    pub location: String,
    /// The objects the period's delivery is made of (opaque to the sync job; empty for a
    /// source that is queried rather than listed).
    pub objects: Vec<ExportObject>,
}

/// One stored object of a delivery.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportObject {
    /// The key or blob name.
    pub key: String,
    /// Its size when the listing or manifest tells it.
    pub bytes: Option<u64>,
}

/// A file [`BillingExportSource::fetch`] wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FetchedFile {
    /// The name shown in the load history: the object key, blob name or table + month.
    pub name: String,
    /// Where it was written (inside the directory given to `fetch`). Its file name keeps the
    /// extension that format detection reads (`.csv.gz`, `.parquet`, `.csv`, `.jsonl`).
    pub path: PathBuf,
    pub bytes: u64,
}

/// Bounds on one fetch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FetchLimits {
    /// The most bytes one period may bring; a larger delivery fails before (or as soon as)
    /// it goes past it, and what was written is removed.
    pub max_bytes: u64,
}

/// Why a source could not be read, in words a person can act on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct SourceError {
    /// E.g. `NoSuchBucket: bucket costscope-exports does not exist`,
    /// `AccessDenied: role arn:aws:iam::123456789012:role/Costscope cannot be assumed …`,
    /// `The service account key was refused by the token endpoint: invalid_grant …`.
    /// Never carries a secret (a key, a token, a SAS signature).
    pub message: String,
    /// True when trying again later may succeed (throttling, a timeout, a 5xx).
    pub retryable: bool,
}

impl SourceError {
    pub fn new(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            retryable: false,
        }
    }

    pub fn retryable(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            retryable: true,
        }
    }
}

/// A billing export Costscope can read on its own.
#[async_trait]
pub trait BillingExportSource: Send + Sync {
    /// Checks that the source is reachable with the connection's credentials (AWS: assume the
    /// role with the external id and list the export location). Answers what was found, for
    /// people (`Found 3 billing periods under s3://bucket/prefix/export`).
    async fn check(&self) -> Result<String, SourceError>;

    /// The billing periods the source holds, oldest first. An export that has delivered
    /// nothing yet answers an empty list, not an error.
    async fn periods(&self) -> Result<Vec<ExportPeriod>, SourceError>;

    /// Writes the period's files into `dir` (which exists and is empty), streaming: never a
    /// whole file in memory.
    async fn fetch(
        &self,
        period: &ExportPeriod,
        dir: &Path,
        limits: FetchLimits,
    ) -> Result<Vec<FetchedFile>, SourceError>;
}
