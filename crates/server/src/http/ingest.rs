//! `/v1/ingest`: uploading billing exports and following their loads (docs/API-COST.md,
//! "Ingestion"). Files are streamed to `<uploads_dir>/<job id>/` and loaded by the
//! ingest worker in the background (one upload of a tenant at a time, tenants taking turns),
//! within the tenant's daily quotas (`[uploads]`, 429 beyond them).

use std::collections::HashSet;
use std::path::Path;

use axum::extract::multipart::MultipartError;
use axum::extract::{DefaultBodyLimit, Multipart, Path as UrlPath, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use chrono::{DateTime, NaiveDate, Utc};
use costscope_ingest::Format;
use costscope_store::{IngestFile, IngestUpload, NewIngestJob};
use serde::{Deserialize, Serialize};
use tokio::io::AsyncWriteExt;
use utoipa::ToSchema;

use super::error::{ApiError, ErrorBody};
use super::extract::{require_admin_level, AuthUser};
use crate::jobs::ingest::quotas::{self, QuotaReached};
use crate::jobs::ingest::{job_dir, next_stored_name, remove_upload};
use crate::state::AppState;

pub const UPLOADERS_ONLY: &str = "Only owners and admins can load billing data";
pub const NO_FILE: &str = "Choose at least one file to upload";
pub const UPLOAD_TOO_LARGE: &str = "Upload too large";
pub const UPLOAD_NOT_FOUND: &str = "Upload not found";
/// `GET /v1/ingest` answers this many uploads at most.
pub const HISTORY_LENGTH: u32 = 100;
/// The default upload limit per request.
pub const DEFAULT_MAX_UPLOAD_BYTES: u64 = 2 * 1024 * 1024 * 1024;
const MAX_FORMAT_PART_BYTES: usize = 100;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route(
            "/v1/ingest",
            // The handler counts the bytes itself against `Config::max_upload_bytes`.
            post(upload)
                .layer(DefaultBodyLimit::disable())
                .get(list_uploads),
        )
        .route("/v1/ingest/{id}", get(get_upload))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum IngestStatus {
    Queued,
    Running,
    Succeeded,
    Failed,
}

impl From<costscope_store::IngestJobStatus> for IngestStatus {
    fn from(status: costscope_store::IngestJobStatus) -> Self {
        use costscope_store::IngestJobStatus as S;
        match status {
            S::Queued => IngestStatus::Queued,
            S::Running => IngestStatus::Running,
            S::Succeeded => IngestStatus::Succeeded,
            S::Failed => IngestStatus::Failed,
        }
    }
}

/// One file of an upload.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct IngestJobFile {
    /// The name it was uploaded with.
    pub name: String,
    pub bytes: u64,
    /// The format it was read as, once loaded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    /// Rows read from it, once loaded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rows: Option<u64>,
}

/// A billing period the upload replaced.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct IngestBillingPeriod {
    /// `aws`, `gcp` or `azure`.
    pub provider: String,
    pub billing_account_id: String,
    pub billing_period_start: NaiveDate,
}

/// What the upload loaded for one provider.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct IngestTotals {
    /// `aws`, `gcp` or `azure`.
    pub provider: String,
    pub rows: u64,
    pub billed_cost: f64,
    pub effective_cost: f64,
    pub list_cost: f64,
    pub currency: String,
}

/// What a load is doing: `queued` until a worker takes it, then `reading` a file, `checking` its
/// rows, `writing` them to the cost table, updating the daily `rollups`; `done` or `failed`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum IngestPhase {
    Queued,
    Reading,
    Checking,
    Writing,
    Rollups,
    Done,
    Failed,
}

/// How far an upload's load has got.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct IngestJobProgress {
    pub phase: IngestPhase,
    /// The file being read or checked (0-based) of `files`, and its uploaded name.
    pub file_index: u64,
    pub files: u64,
    pub file_name: String,
    /// Data rows read so far (a file's rows count once it has been read whole).
    pub rows_read: u64,
    /// Bytes of the uploaded files read so far (as uploaded: compressed for `.gz`), of `bytes_total`.
    pub bytes_read: u64,
    pub bytes_total: u64,
    /// When the load last reported; absent before it first did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updated_at: Option<DateTime<Utc>>,
}

impl IngestJobProgress {
    /// The job's progress: the load's last report while it runs, and what it came to once it
    /// has ended.
    fn of(job: &costscope_store::IngestJob) -> Self {
        use costscope_store::IngestJobStatus as S;
        let bytes_total = job.files.iter().map(|file| file.bytes).sum();
        let first = job
            .files
            .first()
            .map(|file| file.name.clone())
            .unwrap_or_default();
        let mut progress = match &job.progress {
            Some(recorded) => Self {
                phase: match recorded.phase.as_str() {
                    "checking" => IngestPhase::Checking,
                    "writing" => IngestPhase::Writing,
                    "rollups" => IngestPhase::Rollups,
                    _ => IngestPhase::Reading,
                },
                file_index: recorded.file_index,
                files: recorded.files,
                file_name: recorded.file_name.clone(),
                rows_read: recorded.rows_read,
                bytes_read: recorded.bytes_read,
                bytes_total: recorded.bytes_total,
                updated_at: Some(recorded.updated_at),
            },
            None => Self {
                phase: IngestPhase::Reading,
                file_index: 0,
                files: job.files.len() as u64,
                file_name: first,
                rows_read: 0,
                bytes_read: 0,
                bytes_total,
                updated_at: None,
            },
        };
        match job.status {
            S::Queued => progress.phase = IngestPhase::Queued,
            S::Running => {}
            S::Succeeded => {
                progress.phase = IngestPhase::Done;
                progress.bytes_read = progress.bytes_total;
                if job.progress.is_none() {
                    progress.rows_read = job.rows;
                }
            }
            S::Failed => progress.phase = IngestPhase::Failed,
        }
        progress
    }
}

/// An upload of billing data and its load.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct IngestJob {
    pub id: i64,
    pub status: IngestStatus,
    pub files: Vec<IngestJobFile>,
    /// The format chosen at upload; absent: detected per file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    pub rows: u64,
    /// Rows of earlier loads that this one replaced.
    pub replaced_rows: u64,
    pub billing_periods: Vec<IngestBillingPeriod>,
    pub totals: Vec<IngestTotals>,
    /// Why the load failed (names file, row and column for a refused file).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The uploader's name (`command line` for `costscope ingest`).
    pub created_by: String,
    pub created_at: DateTime<Utc>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub started_at: Option<DateTime<Utc>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finished_at: Option<DateTime<Utc>>,
    pub progress: IngestJobProgress,
    /// Where the load came from: a cloud sync's description
    /// (`AWS sync · 123456789012 · s3://bucket/prefix/export · 2026-10`); null for an upload.
    pub source: Option<String>,
    /// The cloud connection whose sync made the load; null for an upload (or once the
    /// connection was removed).
    pub cloud_account_id: Option<i64>,
}

impl From<costscope_store::IngestJob> for IngestJob {
    fn from(job: costscope_store::IngestJob) -> Self {
        let progress = IngestJobProgress::of(&job);
        Self {
            progress,
            id: job.id,
            status: job.status.into(),
            files: job
                .files
                .into_iter()
                .map(|file| IngestJobFile {
                    name: file.name,
                    bytes: file.bytes,
                    format: file.format,
                    rows: file.rows,
                })
                .collect(),
            format: job.format,
            rows: job.rows,
            replaced_rows: job.replaced_rows,
            billing_periods: job
                .billing_periods
                .into_iter()
                .map(|period| IngestBillingPeriod {
                    provider: period.provider,
                    billing_account_id: period.billing_account_id,
                    billing_period_start: period.billing_period_start,
                })
                .collect(),
            totals: job
                .totals
                .into_iter()
                .map(|totals| IngestTotals {
                    provider: totals.provider,
                    rows: totals.rows,
                    billed_cost: totals.billed_cost,
                    effective_cost: totals.effective_cost,
                    list_cost: totals.list_cost,
                    currency: totals.currency,
                })
                .collect(),
            error: job.error,
            created_by: job.created_by,
            created_at: job.created_at,
            started_at: job.started_at,
            finished_at: job.finished_at,
            source: job.source,
            cloud_account_id: job.cloud_account_id,
        }
    }
}

/// `POST /v1/ingest` answer: the queued upload.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct UploadAccepted {
    pub id: i64,
    pub status: IngestStatus,
}

/// The multipart body of `POST /v1/ingest` (for the OpenAPI document).
#[derive(Debug, ToSchema)]
#[allow(dead_code)]
pub struct UploadForm {
    /// One or more billing export files: CSV, `.csv.gz`, Parquet or NDJSON.
    #[schema(value_type = Vec<String>, format = Binary)]
    file: Vec<Vec<u8>>,
    /// `focus`, `aws-cur`, `aws-cur2`, `gcp-billing` or `azure-cost-details`; absent: detected.
    format: Option<String>,
}

/// An upload's refusal: the API's usual errors, and 413.
#[derive(Debug)]
pub enum UploadError {
    Api(ApiError),
    TooLarge,
}

impl From<ApiError> for UploadError {
    fn from(error: ApiError) -> Self {
        UploadError::Api(error)
    }
}

impl From<costscope_store::StoreError> for UploadError {
    fn from(error: costscope_store::StoreError) -> Self {
        UploadError::Api(error.into())
    }
}

impl IntoResponse for UploadError {
    fn into_response(self) -> Response {
        match self {
            UploadError::Api(error) => error.into_response(),
            UploadError::TooLarge => (
                StatusCode::PAYLOAD_TOO_LARGE,
                Json(ErrorBody {
                    message: UPLOAD_TOO_LARGE.to_owned(),
                    details: None,
                }),
            )
                .into_response(),
        }
    }
}

/// Upload billing export files; they are loaded in the background.
#[utoipa::path(post, path = "/v1/ingest", tag = "ingest", security(("bearer" = [])),
    request_body(content = UploadForm, content_type = "multipart/form-data"),
    responses(
        (status = 202, body = UploadAccepted),
        (status = 400, description = "Choose at least one file to upload", body = ErrorBody),
        (status = 403, description = "Only owners and admins can load billing data", body = ErrorBody),
        (status = 413, description = "Upload too large", body = ErrorBody),
        (status = 422, description = "Unknown format {x}; expected one of …", body = ErrorBody),
        (status = 429, description = "Daily upload limit reached / daily upload volume reached / storage limit reached (Retry-After: until 00:00 UTC for the daily quotas)", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id))]
pub async fn upload(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
    headers: HeaderMap,
    mut multipart: Multipart,
) -> Result<(StatusCode, Json<UploadAccepted>), UploadError> {
    require_admin_level(&caller, UPLOADERS_ONLY)?;
    let now = state.clock.now();
    let usage = state
        .store
        .ingest_usage(caller.customer_id, quotas::utc_day_start(now))
        .await?;
    let limits = &state.config.uploads;
    let bytes_left_today = quotas::check_new_upload(limits, &usage, now).map_err(quota_refusal)?;
    let quota = DailyBytes {
        left: bytes_left_today,
        reached: quotas::bytes_per_day_reached(limits, now),
    };
    let limit = state.config.max_upload_bytes;
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.parse::<u64>().ok());
    if declared.is_some_and(|length| length > limit) {
        return Err(UploadError::TooLarge);
    }
    let id = state
        .store
        .create_ingest_job(NewIngestJob {
            customer_id: caller.customer_id,
            created_by_user_id: Some(caller.id),
            created_by: &caller.name,
            upload: None,
            source: None,
            cloud_account_id: None,
            now: state.clock.now(),
        })
        .await?;
    let dir = job_dir(&state.config.uploads_dir, id);
    let received = receive(&mut multipart, &dir, limit, &quota).await;
    let queued = match received {
        Ok(upload) => queue(&state, id, upload).await,
        Err(error) => Err(error),
    };
    match queued {
        Ok(()) => {
            state.ingest_wake.notify_one();
            tracing::info!(job_id = id, "upload queued");
            Ok((
                StatusCode::ACCEPTED,
                Json(UploadAccepted {
                    id,
                    status: IngestStatus::Queued,
                }),
            ))
        }
        Err(error) => {
            remove_upload(&dir).await;
            if let Err(cleanup) = state.store.delete_ingest_job(id).await {
                tracing::warn!(job_id = id, error = %cleanup, "could not forget a broken upload");
            }
            Err(error)
        }
    }
}

/// The parts of an upload, its files already on disk.
struct Received {
    files: Vec<IngestFile>,
    format: Option<String>,
}

async fn queue(state: &AppState, id: i64, upload: Received) -> Result<(), UploadError> {
    if upload.files.is_empty() {
        return Err(ApiError::BadRequest(NO_FILE.to_owned()).into());
    }
    if let Some(format) = &upload.format {
        format
            .parse::<Format>()
            .map_err(|message| ApiError::Invalid {
                field: "format",
                message,
            })?;
    }
    let queued = state
        .store
        .queue_ingest_job(
            id,
            IngestUpload {
                format: upload.format.as_deref(),
                files: &upload.files,
            },
        )
        .await?;
    if queued {
        Ok(())
    } else {
        Err(ApiError::Internal(anyhow::anyhow!("upload {id} was no longer receiving")).into())
    }
}

fn quota_refusal(reached: QuotaReached) -> UploadError {
    ApiError::QuotaExceeded {
        message: reached.message,
        wait: reached.wait,
    }
    .into()
}

/// The bytes the tenant may still upload today, and the refusal once it passes them.
struct DailyBytes {
    left: u64,
    reached: QuotaReached,
}

fn multipart_error(error: MultipartError) -> UploadError {
    if error.status() == StatusCode::PAYLOAD_TOO_LARGE {
        UploadError::TooLarge
    } else {
        ApiError::BadRequest(format!("Invalid upload: {}", error.body_text())).into()
    }
}

/// Streams every `file` part into `dir` (never holding a whole file in memory) and reads the
/// `format` part; counts the bytes against `limit` (413) and the tenant's bytes left today
/// (429).
async fn receive(
    multipart: &mut Multipart,
    dir: &Path,
    limit: u64,
    quota: &DailyBytes,
) -> Result<Received, UploadError> {
    tokio::fs::create_dir_all(dir).await.map_err(|error| {
        ApiError::Internal(anyhow::Error::new(error).context("creating the upload folder"))
    })?;
    let mut received = Received {
        files: Vec::new(),
        format: None,
    };
    let mut used_names = HashSet::new();
    let mut total: u64 = 0;
    while let Some(mut field) = multipart.next_field().await.map_err(multipart_error)? {
        let part = field.name().map(str::to_owned);
        match part.as_deref() {
            Some("file") => {
                let name = field.file_name().unwrap_or_default().to_owned();
                let first = field.chunk().await.map_err(multipart_error)?;
                // A file input left empty sends a nameless, empty part.
                if name.is_empty() && first.as_ref().is_none_or(|chunk| chunk.is_empty()) {
                    continue;
                }
                // Stored and shown without control or bidi characters, and bounded.
                let display_name = costscope_core::upload_name::display_upload_name(&name);
                let stored = next_stored_name(&display_name, &mut used_names);
                let path = dir.join(&stored);
                let mut out = tokio::fs::File::create(&path).await.map_err(io_error)?;
                let mut bytes: u64 = 0;
                let mut chunk = first;
                while let Some(data) = chunk {
                    bytes += data.len() as u64;
                    total += data.len() as u64;
                    if total > limit {
                        return Err(UploadError::TooLarge);
                    }
                    if total > quota.left {
                        return Err(quota_refusal(quota.reached.clone()));
                    }
                    out.write_all(&data).await.map_err(io_error)?;
                    chunk = field.chunk().await.map_err(multipart_error)?;
                }
                out.flush().await.map_err(io_error)?;
                received.files.push(IngestFile {
                    name: display_name,
                    bytes,
                    format: None,
                    rows: None,
                });
            }
            Some("format") => {
                let mut value = Vec::new();
                while let Some(data) = field.chunk().await.map_err(multipart_error)? {
                    value.extend_from_slice(&data);
                    if value.len() > MAX_FORMAT_PART_BYTES {
                        break;
                    }
                }
                let value = String::from_utf8_lossy(&value).trim().to_owned();
                received.format = (!value.is_empty()).then_some(value);
            }
            // Other parts are ignored (read past by the next `next_field`).
            _ => {}
        }
    }
    Ok(received)
}

fn io_error(error: std::io::Error) -> UploadError {
    ApiError::Internal(anyhow::Error::new(error).context("saving an uploaded file")).into()
}

/// One upload and its load.
#[utoipa::path(get, path = "/v1/ingest/{id}", tag = "ingest", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Upload id")),
    responses(
        (status = 200, body = IngestJob),
        (status = 404, description = "Upload not found", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id, id))]
pub async fn get_upload(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
    UrlPath(id): UrlPath<i64>,
) -> Result<Json<IngestJob>, ApiError> {
    let job = state
        .store
        .get_ingest_job(caller.customer_id, id)
        .await?
        .ok_or(ApiError::NotFound(UPLOAD_NOT_FOUND))?;
    Ok(Json(job.into()))
}

/// The customer's last 100 uploads, newest first.
#[utoipa::path(get, path = "/v1/ingest", tag = "ingest", security(("bearer" = [])),
    responses((status = 200, body = [IngestJob])))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id))]
pub async fn list_uploads(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
) -> Result<Json<Vec<IngestJob>>, ApiError> {
    let jobs = state
        .store
        .list_ingest_jobs(caller.customer_id, HISTORY_LENGTH)
        .await?;
    Ok(Json(jobs.into_iter().map(Into::into).collect()))
}
