//! The on-demand discovery trigger (spec 2 §2 "Trial modal and discovery trigger", §4
//! Discovery trigger, §7 Discovery, §8 Discovery; issue 14): `POST /v1/job` queues a discovery
//! of every connected AWS account of the tenant, `GET /v1/job` lists the latest runs. Every
//! role may trigger (the button is disabled only for the demo user); the demo customer may not.
//! The client turns the answer's `data.details` into its messages: a detail containing
//! "already running" or "limit reached" picks the spec's text.

use axum::extract::State;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use chrono::{DateTime, Duration, Utc};
use costscope_store::{DiscoveryRequest, DiscoveryRun};
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;

use super::error::{ApiError, ErrorBody, Refusal};
use super::extract::AuthUser;
use crate::jobs::discovery::targets;
use crate::state::AppState;

pub const ALREADY_RUNNING: &str = "On-demand discovery is already running";
pub const LIMIT_REACHED: &str = "On-demand discovery limit reached for today";
pub const NO_AWS_ACCOUNT: &str = "Connect an AWS account before running discovery";
pub const NOT_IN_DEMO: &str = "Discovery cannot be run in the demo";
/// The runs `GET /v1/job` lists.
pub const LISTED_RUNS: u32 = 20;

pub fn routes() -> Router<AppState> {
    Router::new().route("/v1/job", get(list_runs).post(trigger))
}

/// `{ "data": true }`: the run was queued.
#[derive(Debug, Serialize, ToSchema)]
pub struct JobQueued {
    pub data: bool,
}

/// A refused trigger: `{ "message", "data": { "details" } }` (the client reads `data.details`).
#[derive(Debug, Serialize, ToSchema)]
pub struct JobRefused {
    pub message: String,
    pub data: JobRefusalDetails,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct JobRefusalDetails {
    pub details: String,
}

/// A discovery run. Times are UNIX seconds.
#[derive(Debug, Serialize, ToSchema)]
pub struct DiscoveryRunDto {
    pub id: i64,
    /// `on_demand` or `scheduled`.
    pub trigger: String,
    /// `queued`, `running`, `succeeded`, `partial` (an account, region or service failed;
    /// the rest was recorded) or `failed`.
    pub state: String,
    pub requested_at: i64,
    /// `null` while queued.
    pub started_at: Option<i64>,
    /// `null` until the run ends.
    pub finished_at: Option<i64>,
    /// `null` until the run ends; then `{accounts: [{account_id, connection_id, state,
    /// created, changed, deleted, unchanged, revived, resources, failures: [{region,
    /// service, message}], error?}], totals: {…}, error?}`.
    #[schema(value_type = Option<Object>)]
    pub summary: Option<Value>,
}

impl From<DiscoveryRun> for DiscoveryRunDto {
    fn from(run: DiscoveryRun) -> Self {
        Self {
            id: run.id,
            trigger: run.trigger.as_str().to_owned(),
            state: run.state.as_str().to_owned(),
            requested_at: run.requested_at.timestamp(),
            started_at: run.started_at.map(|at| at.timestamp()),
            finished_at: run.finished_at.map(|at| at.timestamp()),
            summary: run.summary,
        }
    }
}

fn refused(status: StatusCode, text: &str) -> Response {
    (
        status,
        Json(JobRefused {
            message: text.to_owned(),
            data: JobRefusalDetails {
                details: text.to_owned(),
            },
        }),
    )
        .into_response()
}

/// The time left until the next UTC midnight, when the daily limit starts again.
fn until_tomorrow(now: DateTime<Utc>) -> Duration {
    let tomorrow = now
        .date_naive()
        .succ_opt()
        .and_then(|day| day.and_hms_opt(0, 0, 0))
        .map(|midnight| midnight.and_utc());
    tomorrow.map_or(Duration::hours(24), |at| at - now)
}

/// Run discovery now: queues a discovery of every connected AWS account of the tenant (the
/// discovery job starts it at once). One run at a time per tenant; `[discovery] daily_limit`
/// on-demand runs per UTC day (or the customer tier's own limit).
#[utoipa::path(post, path = "/v1/job", tag = "discovery", security(("bearer" = [])),
    responses(
        (status = 202, description = "Queued", body = JobQueued),
        (status = 403, description = "Discovery cannot be run in the demo", body = ErrorBody),
        (status = 409, description = "On-demand discovery is already running (also in data.details)", body = JobRefused),
        (status = 422, description = "Connect an AWS account before running discovery (also in data.details)", body = JobRefused),
        (status = 429, description = "On-demand discovery limit reached for today (also in data.details; Retry-After until the next UTC day)", body = JobRefused),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id))]
pub async fn trigger(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
) -> Result<Response, ApiError> {
    let customer = state.store.get_customer(caller.customer_id).await?;
    if customer.as_ref().is_some_and(|customer| customer.is_demo) {
        return Err(ApiError::Forbidden(NOT_IN_DEMO));
    }
    let connections = state.store.list_connections(caller.customer_id).await?;
    if targets(&connections).is_empty() {
        return Ok(refused(StatusCode::UNPROCESSABLE_ENTITY, NO_AWS_ACCOUNT));
    }
    let tier = customer.map_or(0, |customer| customer.tier);
    let limit = state.config.discovery.daily_limit_for(tier);
    let now = state.clock.now();
    let requested = state
        .store
        .inventory()
        .request_discovery(caller.customer_id, now, limit)
        .await?;
    Ok(match requested {
        DiscoveryRequest::Queued(run_id) => {
            tracing::info!(run_id, "on-demand discovery queued");
            state.discovery_wake.notify_one();
            (StatusCode::ACCEPTED, Json(JobQueued { data: true })).into_response()
        }
        DiscoveryRequest::AlreadyRunning => refused(StatusCode::CONFLICT, ALREADY_RUNNING),
        DiscoveryRequest::LimitReached => {
            let mut response = refused(StatusCode::TOO_MANY_REQUESTS, LIMIT_REACHED);
            let wait = until_tomorrow(now).num_seconds().max(1).to_string();
            if let Ok(value) = HeaderValue::from_str(&wait) {
                response.headers_mut().insert(header::RETRY_AFTER, value);
            }
            response.extensions_mut().insert(Refusal::Quota);
            response
        }
    })
}

/// The tenant's latest discovery runs (newest first, at most 20).
#[utoipa::path(get, path = "/v1/job", tag = "discovery", security(("bearer" = [])),
    responses((status = 200, body = [DiscoveryRunDto])))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id))]
pub async fn list_runs(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
) -> Result<Json<Vec<DiscoveryRunDto>>, ApiError> {
    let runs = state
        .store
        .inventory()
        .list_discovery_runs(caller.customer_id, LISTED_RUNS)
        .await?;
    Ok(Json(runs.into_iter().map(DiscoveryRunDto::from).collect()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn the_limit_starts_again_at_the_next_utc_midnight() {
        let now = Utc.with_ymd_and_hms(2026, 11, 26, 22, 30, 0).unwrap();
        assert_eq!(until_tomorrow(now), Duration::minutes(90));
        let midnight = Utc.with_ymd_and_hms(2026, 12, 31, 0, 0, 0).unwrap();
        assert_eq!(until_tomorrow(midnight), Duration::hours(24));
    }
}
