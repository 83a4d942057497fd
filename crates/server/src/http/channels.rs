//! `/v1/channels…` and `/v1/notifications/deliveries` (docs/NOTIFICATIONS.md "API"): the
//! caller's customer's notification channels and the deliveries of its events to them. Every
//! role reads; owners and admins create, delete and test.

use argon2::password_hash::rand_core::{OsRng, RngCore};
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use axum::{Json, Router};
use chrono::{DateTime, Utc};
use costscope_core::notify::channel::{
    generated_secret, name_taken, too_many_channels, MAX_CHANNELS,
};
use costscope_core::notify::{
    target_hint, validate_channel, ChannelInput, ChannelKind, DeliveryStatus, Event,
};
use costscope_store::{Channel, ChannelCreation, Delivery, NewChannel};
use serde::{Deserialize, Serialize};
use serde_json::json;
use utoipa::{IntoParams, ToSchema};

use crate::http::error::{ApiError, ErrorBody};
use crate::http::extract::{require_admin_level, ApiJson, AuthUser};
use crate::jobs::notifications::send::{Outgoing, Sender, SEND_TIMEOUT};
use crate::state::AppState;

pub const MANAGERS_ONLY: &str = "Only owners and admins can manage channels";
pub const NO_CHANNEL_FOUND: &str = "No channel found.";
/// Deliveries listed when no `limit` is given, and the most one request may ask for.
pub const DEFAULT_DELIVERIES: i64 = 50;
pub const MAX_DELIVERIES: i64 = 200;
pub const LIMIT_MESSAGE: &str = "limit must be a whole number from 1 to 200";

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/v1/channels", get(list).post(create))
        .route("/v1/channels/{id}", delete(remove))
        .route("/v1/channels/{id}/test", post(send_test))
        .route("/v1/notifications/deliveries", get(deliveries))
}

/// A channel as answers show it: the target only as its hint.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = NotificationChannel)]
pub struct ChannelDto {
    pub id: i64,
    #[serde(rename = "type")]
    pub kind: ChannelKind,
    pub name: String,
    /// The e-mail address, or the URL's scheme and host followed by `/…`.
    pub target_hint: String,
    pub created_at: DateTime<Utc>,
    /// The latest attempted delivery to it; null before the first.
    pub last_delivery: Option<LastDeliveryDto>,
}

impl From<Channel> for ChannelDto {
    fn from(channel: Channel) -> Self {
        Self {
            id: channel.id,
            kind: channel.kind,
            name: channel.name,
            target_hint: channel.target_hint,
            created_at: channel.created_at,
            last_delivery: channel.last_delivery.map(|last| LastDeliveryDto {
                at: last.at,
                status: last.status,
                error: last.error,
            }),
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LastDeliveryDto {
    /// When it was tried (for a delivered one, when it was delivered).
    pub at: DateTime<Utc>,
    pub status: DeliveryStatus,
    /// Why its latest attempt failed.
    pub error: Option<String>,
}

/// The create answer: the channel, and for a webhook its secret (the only answer that carries
/// it).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = NotificationChannelCreated)]
pub struct CreatedChannelDto {
    #[serde(flatten)]
    pub channel: ChannelDto,
    /// Webhook channels only: the secret their requests are signed with (given, or generated:
    /// `whsec_` and 48 hex digits).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub secret: Option<String>,
}

/// The create body. Fields are optional here so that a missing one gets its message.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = NotificationChannelRequest)]
pub struct ChannelRequest {
    /// `email`, `slack`, `teams_webhook` or `webhook`.
    #[serde(rename = "type")]
    #[schema(required = true)]
    pub kind: Option<String>,
    #[schema(required = true)]
    pub name: Option<String>,
    /// An e-mail address, or the URL (`https://…`; `http://` only to this machine).
    #[schema(required = true)]
    pub target: Option<String>,
    /// Webhook only, 16 to 256 characters; generated when left out.
    pub secret: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChannelTestResult {
    pub delivered: bool,
}

/// One delivery of an event to a channel.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = NotificationDelivery)]
pub struct DeliveryDto {
    pub id: i64,
    pub notification_id: i64,
    /// `budget_alert`.
    pub event: String,
    /// The event in one line (a mail's subject).
    pub title: String,
    /// Null once the channel is deleted.
    pub channel_id: Option<i64>,
    pub channel_name: String,
    pub status: DeliveryStatus,
    /// Attempts so far.
    pub attempts: i64,
    pub last_error: Option<String>,
    /// Null once delivered or failed.
    pub next_attempt_at: Option<DateTime<Utc>>,
    pub delivered_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
}

impl DeliveryDto {
    fn new(delivery: Delivery, public_url: &str) -> Self {
        let title = Event::from_outbox(&delivery.event, &delivery.payload).map_or_else(
            || delivery.event.clone(),
            |event| event.message(public_url).title,
        );
        Self {
            id: delivery.id,
            notification_id: delivery.notification_id,
            event: delivery.event,
            title,
            channel_id: delivery.channel_id,
            channel_name: delivery.channel_name,
            status: delivery.status,
            attempts: delivery.attempts,
            last_error: delivery.last_error,
            next_attempt_at: delivery.next_attempt_at,
            delivered_at: delivery.delivered_at,
            created_at: delivery.created_at,
        }
    }
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct DeliveriesParams {
    /// 1 to 200 (default 50).
    #[param(value_type = Option<i64>)]
    pub limit: Option<String>,
}

/// The customer's channels by name, each with its latest attempted delivery.
#[utoipa::path(get, path = "/v1/channels", operation_id = "listChannels", tag = "notifications", security(("bearer" = [])),
    responses(
        (status = 200, body = [ChannelDto]),
        (status = 401, description = "Authentication required", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id))]
pub async fn list(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
) -> Result<Json<Vec<ChannelDto>>, ApiError> {
    let channels = state
        .store
        .channels()
        .list_channels(caller.customer_id)
        .await?;
    Ok(Json(channels.into_iter().map(Into::into).collect()))
}

/// Creates a channel. Its target (and secret) are stored encrypted; a webhook created without
/// a secret gets a generated one, answered this once.
#[utoipa::path(post, path = "/v1/channels", operation_id = "createChannel", tag = "notifications", security(("bearer" = [])),
    request_body = ChannelRequest,
    responses(
        (status = 201, body = CreatedChannelDto),
        (status = 403, description = "Only owners and admins can manage channels", body = ErrorBody),
        (status = 409, description = "A channel named \"{name}\" already exists", body = ErrorBody),
        (status = 422, description = "docs/NOTIFICATIONS.md Rules, per field (`details.channels`: at most 20 channels)", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id))]
pub async fn create(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
    ApiJson(body): ApiJson<ChannelRequest>,
) -> Result<(StatusCode, Json<CreatedChannelDto>), ApiError> {
    require_admin_level(&caller, MANAGERS_ONLY)?;
    let valid = validate_channel(
        ChannelInput {
            kind: body.kind.as_deref(),
            name: body.name.as_deref(),
            target: body.target.as_deref(),
            secret: body.secret.as_deref(),
        },
        state.mailer.is_some(),
    )
    .map_err(ApiError::Validation)?;
    let secret = (valid.kind == ChannelKind::Webhook).then(|| {
        valid.secret.clone().unwrap_or_else(|| {
            let mut random = [0u8; 24];
            OsRng.fill_bytes(&mut random);
            generated_secret(&random)
        })
    });
    let target = state.secrets.encrypt(&valid.target);
    let sealed_secret = secret
        .as_deref()
        .map(|secret| state.secrets.encrypt(secret));
    let hint = target_hint(valid.kind, &valid.target);
    let created = state
        .store
        .channels()
        .create_channel(NewChannel {
            customer_id: caller.customer_id,
            kind: valid.kind,
            name: &valid.name,
            target: &target,
            target_hint: &hint,
            secret: sealed_secret.as_deref(),
            now: state.clock.now(),
            max_channels: MAX_CHANNELS as i64,
        })
        .await?;
    match created {
        ChannelCreation::Created(channel) => Ok((
            StatusCode::CREATED,
            Json(CreatedChannelDto {
                channel: channel.into(),
                secret,
            }),
        )),
        ChannelCreation::NameTaken => Err(ApiError::Conflict(name_taken(&valid.name))),
        ChannelCreation::LimitReached => Err(too_many_channels().into()),
    }
}

/// Deletes a channel. Its pending deliveries are dropped; the history keeps its name.
#[utoipa::path(delete, path = "/v1/channels/{id}", operation_id = "deleteChannel", tag = "notifications", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Channel id")),
    responses(
        (status = 204, description = "Deleted"),
        (status = 403, description = "Only owners and admins can manage channels", body = ErrorBody),
        (status = 404, description = "No channel found.", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id, channel_id))]
pub async fn remove(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
    Path(channel_id): Path<i64>,
) -> Result<StatusCode, ApiError> {
    require_admin_level(&caller, MANAGERS_ONLY)?;
    if state
        .store
        .channels()
        .delete_channel(caller.customer_id, channel_id)
        .await?
    {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(ApiError::NotFound(NO_CHANNEL_FOUND))
    }
}

/// Sends a test message to the channel now (10 s at most). A webhook receives event `test`
/// with delivery id `test-<milliseconds>`.
#[utoipa::path(post, path = "/v1/channels/{id}/test", operation_id = "testChannel", tag = "notifications", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Channel id")),
    responses(
        (status = 200, body = ChannelTestResult),
        (status = 403, description = "Only owners and admins can manage channels", body = ErrorBody),
        (status = 404, description = "No channel found.", body = ErrorBody),
        (status = 502, description = "The test message was not delivered: {reason}", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id, channel_id))]
pub async fn send_test(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
    Path(channel_id): Path<i64>,
) -> Result<Response, ApiError> {
    require_admin_level(&caller, MANAGERS_ONLY)?;
    let channel = state
        .store
        .channels()
        .channel_target(caller.customer_id, channel_id)
        .await?
        .ok_or(ApiError::NotFound(NO_CHANNEL_FOUND))?;
    let sender = Sender::new(
        state.secrets.clone(),
        state.mailer.clone(),
        state.public_url.clone(),
    )
    .with_teams(crate::http::teams::access::TeamsAccess::from_state(&state));
    let event = Event::Test {
        channel_name: channel.name.clone(),
    };
    let now = state.clock.now();
    let data = json!({"channelId": channel.id, "channelName": channel.name});
    let sent = tokio::time::timeout(
        SEND_TIMEOUT,
        sender.send(
            &channel,
            Outgoing {
                event: &event,
                delivery_id: json!(format!("test-{}", now.timestamp_millis())),
                data: &data,
                raised_at: now,
                now,
            },
        ),
    )
    .await;
    let reason = match sent {
        Ok(Ok(())) => return Ok(Json(ChannelTestResult { delivered: true }).into_response()),
        Ok(Err(error)) => format!("{error:#}"),
        Err(_) => format!("no answer within {} s", SEND_TIMEOUT.as_secs()),
    };
    tracing::info!(channel_id = channel.id, reason = %reason, "a test message was not delivered");
    let body = ErrorBody {
        message: format!("The test message was not delivered: {reason}"),
        details: None,
    };
    Ok((StatusCode::BAD_GATEWAY, Json(body)).into_response())
}

/// The customer's latest deliveries, newest first.
#[utoipa::path(get, path = "/v1/notifications/deliveries", operation_id = "listDeliveries", tag = "notifications", security(("bearer" = [])),
    params(DeliveriesParams),
    responses(
        (status = 200, body = [DeliveryDto]),
        (status = 422, description = "limit must be a whole number from 1 to 200", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id))]
pub async fn deliveries(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
    Query(params): Query<DeliveriesParams>,
) -> Result<Json<Vec<DeliveryDto>>, ApiError> {
    let limit = match params.limit.as_deref().map(str::trim) {
        None | Some("") => DEFAULT_DELIVERIES,
        Some(text) => text
            .parse::<i64>()
            .ok()
            .filter(|limit| (1..=MAX_DELIVERIES).contains(limit))
            .ok_or(ApiError::Invalid {
                field: "limit",
                message: LIMIT_MESSAGE.to_owned(),
            })?,
    };
    let deliveries = state
        .store
        .channels()
        .list_deliveries(caller.customer_id, limit)
        .await?;
    Ok(Json(
        deliveries
            .into_iter()
            .map(|delivery| DeliveryDto::new(delivery, &state.public_url))
            .collect(),
    ))
}
