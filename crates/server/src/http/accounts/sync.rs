//! "Sync now" (every provider): asks the sync job for a sync of one connection.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;

use super::dto::{has_export, CloudAccount};
use super::{require_manager, CONNECTION_NOT_FOUND};
use crate::http::error::{ApiError, ErrorBody};
use crate::http::extract::AuthUser;
use crate::state::AppState;

pub const NO_EXPORT: &str = "This connection has no billing export to sync";

/// Ask for a sync of a connection now (the sync job starts it as soon as it can); answers the
/// connection with `sync.requested_at` set.
#[utoipa::path(post, path = "/v1/account/{id}/sync", tag = "accounts", security(("bearer" = [])),
    params(("id" = i64, Path, description = "The connection's id")),
    responses(
        (status = 202, body = CloudAccount),
        (status = 403, description = "Only account owners and admins can manage cloud accounts; Cloud accounts cannot be changed in the demo", body = ErrorBody),
        (status = 404, description = "Cloud account not found (also a member account or an account only seen in the cost data)", body = ErrorBody),
        (status = 409, description = "This connection has no billing export to sync", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id, connection_id))]
pub async fn sync_now(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
    Path(id): Path<i64>,
) -> Result<(StatusCode, Json<CloudAccount>), ApiError> {
    tracing::Span::current().record("connection_id", id);
    require_manager(&state, &caller).await?;
    let not_found = || ApiError::NotFound(CONNECTION_NOT_FOUND);
    let connection = state
        .store
        .get_connection(caller.customer_id, id)
        .await?
        .filter(|connection| connection.parent_id.is_none())
        .ok_or_else(not_found)?;
    if !has_export(&connection) {
        return Err(ApiError::Conflict(NO_EXPORT.to_owned()));
    }
    if !state
        .store
        .request_sync(caller.customer_id, id, state.clock.now())
        .await?
    {
        return Err(not_found());
    }
    state.sync_wake.notify_one();
    let connection = state
        .store
        .get_connection(caller.customer_id, id)
        .await?
        .ok_or_else(not_found)?;
    Ok((
        StatusCode::ACCEPTED,
        Json(CloudAccount::from_connection(
            &connection,
            state.config.cloud.sync_interval_hours,
        )),
    ))
}
