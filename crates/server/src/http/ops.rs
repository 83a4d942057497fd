//! Health, readiness, metrics, the OpenAPI document, and the backup the `costscope backup`
//! command asks the running server for.

use std::net::SocketAddr;
use std::path::PathBuf;

use axum::extract::{ConnectInfo, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;

use super::error::ApiError;
use crate::backup::{Manifest, OPS_TOKEN_HEADER};
use crate::state::AppState;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/healthz", get(healthz))
        .route("/readyz", get(readyz))
        .route("/metrics", get(metrics))
        .route("/openapi.json", get(openapi))
        // Not in the OpenAPI document: for the `costscope backup` command on this machine.
        .route("/ops/backup", post(backup))
}

/// The process is up.
async fn healthz() -> &'static str {
    "ok"
}

/// The process can serve: the metadata store answers.
async fn readyz(State(state): State<AppState>) -> (StatusCode, &'static str) {
    match state.store.ping().await {
        Ok(()) => (StatusCode::OK, "ok"),
        Err(err) => {
            tracing::warn!(error = %err, "readiness check failed");
            (StatusCode::SERVICE_UNAVAILABLE, "store unavailable")
        }
    }
}

async fn metrics(State(state): State<AppState>) -> impl IntoResponse {
    (
        [(
            header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        state.metrics.render(),
    )
}

async fn openapi() -> Json<utoipa::openapi::OpenApi> {
    Json(super::openapi::document())
}

#[derive(Debug, Deserialize)]
struct BackupRequest {
    /// An absolute directory, new or empty, on the server's machine.
    to: PathBuf,
}

/// Takes a consistent backup into `to`. Only from this machine (a loopback peer) and with the
/// token the server wrote to `<data-dir>/ops.token`; anyone else gets 404 as if there were no
/// such route.
async fn backup(
    State(state): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    Json(request): Json<BackupRequest>,
) -> Result<Json<Manifest>, ApiError> {
    let token = headers
        .get(OPS_TOKEN_HEADER)
        .and_then(|value| value.to_str().ok())
        .unwrap_or_default();
    if !peer.ip().is_loopback() || !state.live_data.accepts(token) {
        return Err(ApiError::NotFound("Not found"));
    }
    if !request.to.is_absolute() {
        return Err(ApiError::BadRequest(
            "The backup directory must be an absolute path".to_owned(),
        ));
    }
    tracing::info!(to = %request.to.display(), "taking a backup");
    let manifest = state
        .live_data
        .backup_to(&request.to)
        .await
        .map_err(|error| ApiError::BadRequest(format!("{error:#}")))?;
    tracing::info!(to = %request.to.display(), "backup taken");
    Ok(Json(manifest))
}
