//! `/v1/me/digest` (docs/NOTIFICATIONS.md "Digests"): the signed-in user's own digest choice.
//! Every role reads and saves its own; nobody else's is reachable.

use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use costscope_core::notify::channel::UNKNOWN_CHANNEL;
use costscope_core::notify::digest::{validate_digest, DigestFrequency, DigestInput};
use costscope_core::FieldError;
use costscope_store::{DigestSettings, StoreError};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::http::error::{ApiError, ErrorBody};
use crate::http::extract::{ApiJson, AuthUser};
use crate::state::AppState;

pub fn routes() -> Router<AppState> {
    Router::new().route("/v1/me/digest", get(get_digest).put(put_digest))
}

/// A user's digest: how often, whether e-mailed to their own address, and to which channel.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = DigestSettings)]
pub struct DigestSettingsDto {
    pub frequency: DigestFrequency,
    pub email: bool,
    /// One of the tenant's channels; null: none.
    pub channel_id: Option<i64>,
}

impl From<DigestSettings> for DigestSettingsDto {
    fn from(settings: DigestSettings) -> Self {
        Self {
            frequency: settings.frequency,
            email: settings.email,
            channel_id: settings.channel_id,
        }
    }
}

/// The digest choice to save; a missing field takes its default (off, e-mail on, no channel).
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = DigestSettingsRequest)]
pub struct DigestSettingsRequest {
    /// `off`, `daily` or `weekly`.
    pub frequency: Option<String>,
    pub email: Option<bool>,
    pub channel_id: Option<i64>,
}

/// The signed-in user's digest choice.
#[utoipa::path(get, path = "/v1/me/digest", operation_id = "getMyDigest", tag = "notifications", security(("bearer" = [])),
    responses(
        (status = 200, body = DigestSettingsDto),
        (status = 401, description = "Authentication required", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id, user_id = caller.id))]
pub async fn get_digest(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
) -> Result<Json<DigestSettingsDto>, ApiError> {
    let settings = state
        .store
        .digests()
        .digest_settings(caller.customer_id, caller.id)
        .await?;
    Ok(Json(settings.into()))
}

/// Saves the signed-in user's digest choice (any role: it is their own).
#[utoipa::path(put, path = "/v1/me/digest", operation_id = "putMyDigest", tag = "notifications", security(("bearer" = [])),
    request_body = DigestSettingsRequest,
    responses(
        (status = 200, body = DigestSettingsDto),
        (status = 401, description = "Authentication required", body = ErrorBody),
        (status = 422, description = "docs/NOTIFICATIONS.md Digests, per field", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id, user_id = caller.id))]
pub async fn put_digest(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
    ApiJson(body): ApiJson<DigestSettingsRequest>,
) -> Result<Json<DigestSettingsDto>, ApiError> {
    let unknown = match body.channel_id {
        Some(id) => {
            let known = state
                .store
                .channels()
                .channel_ids(caller.customer_id)
                .await?;
            (!known.contains(&id)).then(|| FieldError::new("channelId", UNKNOWN_CHANNEL))
        }
        None => None,
    };
    let valid = validate_digest(
        DigestInput {
            frequency: body.frequency.as_deref(),
            email: body.email,
            channel_id: body.channel_id,
        },
        state.mailer.is_some(),
    );
    let valid = match (valid, unknown) {
        (Ok(valid), None) => valid,
        (Ok(_), Some(error)) => return Err(error.into()),
        (Err(mut errors), error) => {
            errors.extend(error);
            return Err(ApiError::Validation(errors));
        }
    };
    let settings = DigestSettings {
        frequency: valid.frequency,
        email: valid.email,
        channel_id: valid.channel_id,
    };
    let saved = state
        .store
        .digests()
        .put_digest_settings(caller.customer_id, caller.id, settings, state.clock.now())
        .await
        .map_err(|error| match error {
            // A channel deleted between the check and the write.
            StoreError::UnknownChannel => FieldError::new("channelId", UNKNOWN_CHANNEL).into(),
            other => ApiError::from(other),
        })?;
    if !saved {
        return Err(ApiError::Internal(anyhow::anyhow!(
            "the signed-in user {} is not one of customer {}'s",
            caller.id,
            caller.customer_id
        )));
    }
    Ok(Json(settings.into()))
}
