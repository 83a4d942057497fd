//! `GET /v1/export/focus`: the caller's cost line items of a range as a FOCUS 1.2 or 1.3 file
//! (CSV or Parquet), see docs/FOCUS-EXPORT.md. The cost engine writes the file into
//! `<data_dir>/exports/`; it is then unlinked and streamed from its open handle, so nothing is
//! left behind whether the download completes or not, and memory stays bounded.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use axum::body::Body;
use axum::extract::{Query, State};
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use costscope_core::cost::bounds;
use costscope_core::focus::FocusExportRequest;
use futures_util::stream;
use serde::Deserialize;
use tokio::io::AsyncReadExt;
use utoipa::IntoParams;

use super::error::{ApiError, ErrorBody};
use super::extract::AuthUser;
use crate::state::AppState;

/// Bytes read from the export file per chunk sent.
const CHUNK_BYTES: usize = 256 * 1024;

pub fn routes() -> Router<AppState> {
    Router::new().route("/v1/export/focus", get(export_focus))
}

/// The export's query: `start` and `end` (`YYYY-MM-DD`, both included, at most 366 days),
/// `format` (`csv`, the default, or `parquet`), `version` (`1.2`, the default, or `1.3`).
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct FocusExportParams {
    #[param(required = true, example = "2026-01-01")]
    pub start: Option<String>,
    #[param(required = true, example = "2026-01-31")]
    pub end: Option<String>,
    /// `csv` (default) or `parquet`.
    pub format: Option<String>,
    /// FOCUS version: `1.2` (default) or `1.3`.
    pub version: Option<String>,
}

impl FocusExportParams {
    pub fn parse(&self) -> Result<FocusExportRequest, ApiError> {
        FocusExportRequest::parse(
            self.start.as_deref(),
            self.end.as_deref(),
            self.format.as_deref(),
            self.version.as_deref(),
        )
        .map_err(ApiError::Validation)
        .and_then(|request| {
            // Days outside 1970–2100 are refused like every cost call's (no date arithmetic
            // at the edges of the calendar).
            bounds::check_day("start", request.first)?;
            bounds::check_day("end", request.last)?;
            Ok(request)
        })
    }
}

/// The caller's cost line items whose charge period starts on the days `start..=end` (UTC), as a
/// FOCUS dataset file with every column of the version. Every role may export: it is the
/// customer's own data.
#[utoipa::path(get, path = "/v1/export/focus", tag = "export", security(("bearer" = [])),
    params(FocusExportParams),
    responses(
        (status = 200, description = "The FOCUS file (attachment)", content(
            (String = "text/csv"),
            (Vec<u8> = "application/vnd.apache.parquet"),
        )),
        (status = 422, description = "start/end/format/version broken or a day outside 1970-2100 (the field is named)", body = ErrorBody),
        (status = 503, description = "The export ran past the time limit and was cancelled (Retry-After)", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id))]
pub async fn export_focus(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
    Query(params): Query<FocusExportParams>,
) -> Result<Response, ApiError> {
    let request = params.parse()?;
    let dir = export_dir(&state.config.data_dir);
    tokio::fs::create_dir_all(&dir)
        .await
        .map_err(|error| internal(error, "creating the export folder"))?;
    let path = dir.join(format!(
        "{}-{}.{}",
        caller.customer_id,
        unique_suffix(),
        request.format
    ));
    let written = state
        .engine
        .export_focus(caller.customer_id, &request, &path)
        .await;
    let file = match written {
        Ok(summary) => {
            tracing::info!(rows = summary.rows, version = %request.version, format = %request.format, "FOCUS export written");
            tokio::fs::File::open(&path).await
        }
        Err(error) => {
            remove(&path).await;
            return Err(error.into());
        }
    };
    // Unlinked now: the open handle keeps the data until the stream is dropped.
    remove(&path).await;
    let file = file.map_err(|error| internal(error, "opening the export"))?;
    let length = file
        .metadata()
        .await
        .map_err(|error| internal(error, "reading the export's size"))?
        .len();
    let body = Body::from_stream(stream::try_unfold(file, |mut file| async move {
        let mut chunk = vec![0; CHUNK_BYTES];
        let read = file.read(&mut chunk).await?;
        if read == 0 {
            return Ok::<_, std::io::Error>(None);
        }
        chunk.truncate(read);
        Ok(Some((chunk, file)))
    }));
    let disposition = format!("attachment; filename=\"{}\"", request.file_name());
    let mut response = body.into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(request.format.content_type()),
    );
    headers.insert(header::CONTENT_LENGTH, HeaderValue::from(length));
    headers.insert(
        header::CONTENT_DISPOSITION,
        HeaderValue::from_str(&disposition).map_err(|error| internal(error, "the file name"))?,
    );
    Ok(response)
}

/// Where exports are written before they are streamed.
pub fn export_dir(data_dir: &Path) -> PathBuf {
    data_dir.join("exports")
}

/// Unique among this process's exports and across restarts.
fn unique_suffix() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_nanos());
    format!(
        "{now}-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}

async fn remove(path: &Path) {
    if let Err(error) = tokio::fs::remove_file(path).await {
        if error.kind() != std::io::ErrorKind::NotFound {
            tracing::warn!(path = %path.display(), %error, "could not remove an export file");
        }
    }
}

fn internal(error: impl std::error::Error + Send + Sync + 'static, what: &str) -> ApiError {
    ApiError::Internal(anyhow::Error::new(error).context(what.to_owned()))
}
