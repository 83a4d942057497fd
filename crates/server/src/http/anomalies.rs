//! `/v1/anomalies…` (docs/ANOMALIES.md "Anomalies API"): the caller's customer's cost anomalies,
//! one anomaly with its series scanned again now, its status, and the anomaly settings. Every
//! role reads; owners and admins change statuses and settings.

use std::collections::BTreeMap;

use axum::extract::{Path, Query, State};
use axum::routing::get;
use axum::{Json, Router};
use chrono::{DateTime, Days, NaiveDate, Utc};
use costscope_core::anomaly::record::{
    validate_settings, SettingsInput, ANOMALY_MANAGERS_ONLY, BASELINE_DAYS, NO_ANOMALY_FOUND,
    SETTINGS_MANAGERS_ONLY,
};
use costscope_core::anomaly::{AnomalySettings, AnomalyStatus, Contributor, Detector};
use costscope_core::notify::channel::UNKNOWN_CHANNEL;
use costscope_core::FieldError;
use costscope_store::{StoreError, StoredAnomaly};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::http::error::{ApiError, ErrorBody};
use crate::http::extract::{require_admin_level, ApiJson, AuthUser};
use crate::jobs::anomalies::read_series;
use crate::state::AppState;

pub const DATE_MESSAGE: &str = "Enter a date as YYYY-MM-DD";
pub const RANGE_TOO_LONG: &str = "The range must be at most 366 days";
pub const START_AFTER_END: &str = "The start date must not be after the end date";
/// Days of the list's range when none is given (up to today).
pub const DEFAULT_RANGE_DAYS: u64 = 90;
pub const MAX_RANGE_DAYS: i64 = 366;
/// Days after an anomaly's last day that its chart shows.
pub const DAYS_AFTER: u64 = 7;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/v1/anomalies", get(list))
        .route(
            "/v1/anomalies/settings",
            get(get_settings).put(put_settings),
        )
        .route("/v1/anomalies/{id}", get(get_one).patch(set_status))
}

/// One part of the rise of an anomaly's first day.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = AnomalyContributor)]
pub struct ContributorDto {
    /// The usage type (else the charge description) or the resource id.
    pub key: String,
    pub actual: f64,
    pub expected: f64,
    pub difference: f64,
}

impl From<Contributor> for ContributorDto {
    fn from(part: Contributor) -> Self {
        Self {
            key: part.key,
            actual: part.actual,
            expected: part.expected,
            difference: part.difference,
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = AnomalyContributors)]
pub struct ContributorsDto {
    pub usage_types: Vec<ContributorDto>,
    pub resources: Vec<ContributorDto>,
}

/// A run of anomalous days of one series.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = Anomaly)]
pub struct AnomalyDto {
    pub id: i64,
    /// The run's first day.
    pub start: NaiveDate,
    /// Its latest anomalous day.
    pub end: NaiveDate,
    pub days: i64,
    /// Null on a tag series.
    pub provider: Option<String>,
    pub account_id: Option<String>,
    pub account_name: Option<String>,
    pub service: Option<String>,
    /// Null on a service series.
    pub tag_key: Option<String>,
    pub tag_value: Option<String>,
    pub currency: String,
    /// Summed over the run's days.
    pub actual: f64,
    pub expected: f64,
    /// `actual - expected`.
    pub impact: f64,
    /// Null when nothing was expected.
    pub impact_percent: Option<f64>,
    pub status: AnomalyStatus,
    pub detected_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub contributors: ContributorsDto,
}

impl From<StoredAnomaly> for AnomalyDto {
    fn from(anomaly: StoredAnomaly) -> Self {
        let alert = anomaly.alert();
        Self {
            id: anomaly.id,
            start: anomaly.start,
            end: anomaly.end,
            days: anomaly.days,
            provider: alert.provider,
            account_id: alert.account_id,
            account_name: alert.account_name,
            service: alert.service,
            tag_key: alert.tag_key,
            tag_value: alert.tag_value,
            currency: alert.currency,
            actual: anomaly.actual,
            expected: anomaly.expected,
            impact: alert.impact,
            impact_percent: alert.impact_percent,
            status: anomaly.status,
            detected_at: anomaly.detected_at,
            updated_at: anomaly.updated_at,
            contributors: ContributorsDto {
                usage_types: parts(anomaly.contributors.usage_types),
                resources: parts(anomaly.contributors.resources),
            },
        }
    }
}

fn parts(parts: Vec<Contributor>) -> Vec<ContributorDto> {
    parts.into_iter().map(Into::into).collect()
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = AnomalyCurrencyAmount)]
pub struct CurrencyAmountDto {
    pub currency: String,
    pub amount: f64,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AnomalyList {
    /// Largest impact first.
    pub anomalies: Vec<AnomalyDto>,
    /// Open anomalies of the range (whatever the status filter).
    pub open_count: usize,
    /// Their summed impact per currency, by currency.
    pub open_impact: Vec<CurrencyAmountDto>,
}

/// One day of an anomaly's chart.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AnomalySeriesDay {
    pub day: NaiveDate,
    pub actual: f64,
    /// Null while the series is too young for a baseline (and `low`, `high` with it).
    pub expected: Option<f64>,
    pub low: Option<f64>,
    pub high: Option<f64>,
    pub anomalous: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AnomalyDetail {
    #[serde(flatten)]
    pub anomaly: AnomalyDto,
    /// From 28 days before `start` to 7 days after `end` (not after the latest charge day),
    /// read and scanned again now.
    pub series: Vec<AnomalySeriesDay>,
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListParams {
    /// YYYY-MM-DD (default: 89 days before `end`).
    pub start: Option<String>,
    /// YYYY-MM-DD (default: today, UTC).
    pub end: Option<String>,
    /// `open`, `dismissed` or `expected` (default: every status).
    pub status: Option<String>,
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AnomalyStatusRequest {
    /// `open`, `dismissed` or `expected`.
    #[schema(required = true)]
    pub status: Option<String>,
}

/// The tenant's anomaly settings.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AnomalySettingsDto {
    /// A fraction: 0.2 = a day must cost 20 % more than expected.
    pub relative_threshold: f64,
    /// And this much more, in the series' currency, per day.
    pub absolute_threshold: f64,
    pub tag_keys: Vec<String>,
    /// Where anomaly notifications go; empty: every channel.
    pub channel_ids: Vec<i64>,
}

impl From<AnomalySettings> for AnomalySettingsDto {
    fn from(settings: AnomalySettings) -> Self {
        Self {
            relative_threshold: settings.thresholds.relative(),
            absolute_threshold: settings.thresholds.absolute(),
            tag_keys: settings.tag_keys,
            channel_ids: settings.channel_ids,
        }
    }
}

/// The settings to save; a missing field takes its default.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AnomalySettingsRequest {
    pub relative_threshold: Option<f64>,
    pub absolute_threshold: Option<f64>,
    pub tag_keys: Option<Vec<String>>,
    pub channel_ids: Option<Vec<i64>>,
}

/// A date parameter, or the contract's message under its name.
fn date_param(text: Option<&str>, field: &'static str) -> Result<Option<NaiveDate>, FieldError> {
    match text.map(str::trim).filter(|text| !text.is_empty()) {
        None => Ok(None),
        Some(text) => NaiveDate::parse_from_str(text, "%Y-%m-%d")
            .map(Some)
            .map_err(|_| FieldError::new(field, DATE_MESSAGE)),
    }
}

/// The list's range and status, every broken parameter reported.
fn list_query(
    params: &ListParams,
    today: NaiveDate,
) -> Result<(NaiveDate, NaiveDate, Option<AnomalyStatus>), ApiError> {
    let start = date_param(params.start.as_deref(), "start");
    let end = date_param(params.end.as_deref(), "end");
    let status = match params.status.as_deref().map(str::trim) {
        None | Some("") => Ok(None),
        Some(text) => AnomalyStatus::parse_field(Some(text)).map(Some),
    };
    let (start, end, status) = match (start, end, status) {
        (Ok(start), Ok(end), Ok(status)) => (start, end, status),
        (start, end, status) => {
            return Err(ApiError::validation([start.err(), end.err(), status.err()]))
        }
    };
    let end = end.unwrap_or(today);
    let start = start.unwrap_or_else(|| end - Days::new(DEFAULT_RANGE_DAYS - 1));
    if start > end {
        return Err(FieldError::new("start", START_AFTER_END).into());
    }
    if (end - start).num_days() + 1 > MAX_RANGE_DAYS {
        return Err(FieldError::new("end", RANGE_TOO_LONG).into());
    }
    Ok((start, end, status))
}

/// The customer's anomalies whose run overlaps the range, largest impact first, with the open
/// ones' count and impact per currency.
#[utoipa::path(get, path = "/v1/anomalies", operation_id = "listAnomalies", tag = "anomalies", security(("bearer" = [])),
    params(ListParams),
    responses(
        (status = 200, body = AnomalyList),
        (status = 422, description = "Enter a date as YYYY-MM-DD / The start date must not be after the end date / The range must be at most 366 days / Choose a status: open, dismissed or expected", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id))]
pub async fn list(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
    Query(params): Query<ListParams>,
) -> Result<Json<AnomalyList>, ApiError> {
    let (start, end, status) = list_query(&params, state.clock.now().date_naive())?;
    let all = state
        .store
        .anomalies()
        .list_anomalies(caller.customer_id, start, end, None)
        .await?;
    let mut open_impact: BTreeMap<String, f64> = BTreeMap::new();
    let mut open_count = 0;
    for anomaly in all.iter().filter(|a| a.status == AnomalyStatus::Open) {
        open_count += 1;
        *open_impact
            .entry(anomaly.series.currency().to_owned())
            .or_default() += anomaly.impact();
    }
    let anomalies = all
        .into_iter()
        .filter(|anomaly| status.is_none_or(|status| anomaly.status == status))
        .map(Into::into)
        .collect();
    Ok(Json(AnomalyList {
        anomalies,
        open_count,
        open_impact: open_impact
            .into_iter()
            .map(|(currency, amount)| CurrencyAmountDto { currency, amount })
            .collect(),
    }))
}

async fn find(state: &AppState, customer_id: i64, id: i64) -> Result<StoredAnomaly, ApiError> {
    state
        .store
        .anomalies()
        .get_anomaly(customer_id, id)
        .await?
        .ok_or(ApiError::NotFound(NO_ANOMALY_FOUND))
}

/// One anomaly with its series around it, read and scanned again now with the current
/// thresholds.
#[utoipa::path(get, path = "/v1/anomalies/{id}", operation_id = "getAnomaly", tag = "anomalies", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Anomaly id")),
    responses(
        (status = 200, body = AnomalyDetail),
        (status = 404, description = "No anomaly found.", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id, anomaly_id))]
pub async fn get_one(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
    Path(anomaly_id): Path<i64>,
) -> Result<Json<AnomalyDetail>, ApiError> {
    let anomaly = find(&state, caller.customer_id, anomaly_id).await?;
    let series = scanned_series(&state, caller.customer_id, &anomaly).await?;
    Ok(Json(AnomalyDetail {
        anomaly: anomaly.into(),
        series,
    }))
}

/// The anomaly's series from [`BASELINE_DAYS`] before its start to [`DAYS_AFTER`] after its
/// end (not after the latest charge day), scanned from the detector's look-back before.
async fn scanned_series(
    state: &AppState,
    customer_id: i64,
    anomaly: &StoredAnomaly,
) -> Result<Vec<AnomalySeriesDay>, ApiError> {
    let latest = state.engine.latest_charge_date(customer_id).await?;
    let shown_from = anomaly.start - Days::new(BASELINE_DAYS);
    let mut shown_to = anomaly.end + Days::new(DAYS_AFTER);
    if let Some(latest) = latest {
        shown_to = shown_to.min(latest.max(anomaly.end));
    }
    let settings = state
        .store
        .anomalies()
        .anomaly_settings(customer_id)
        .await?;
    let detector = Detector::new(settings.thresholds);
    let read_from = shown_from - Days::new(detector.lookback_days() as u64);
    let series = read_series(
        state.engine.as_ref(),
        customer_id,
        &anomaly.series,
        read_from,
        shown_to,
    )
    .await?;
    Ok(detector
        .scan(&series)
        .days
        .into_iter()
        .filter(|judged| judged.day >= shown_from)
        .map(|judged| AnomalySeriesDay {
            day: judged.day,
            actual: judged.actual,
            expected: judged.band.map(|band| band.expected),
            low: judged.band.map(|band| band.low),
            high: judged.band.map(|band| band.high),
            anomalous: judged.is_anomalous(),
        })
        .collect())
}

/// Sets an anomaly's status: dismissed, expected, or open again.
#[utoipa::path(patch, path = "/v1/anomalies/{id}", operation_id = "setAnomalyStatus", tag = "anomalies", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Anomaly id")),
    request_body = AnomalyStatusRequest,
    responses(
        (status = 200, body = AnomalyDto),
        (status = 403, description = "Only owners and admins can change an anomaly", body = ErrorBody),
        (status = 404, description = "No anomaly found.", body = ErrorBody),
        (status = 422, description = "Choose a status: open, dismissed or expected", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id, anomaly_id))]
pub async fn set_status(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
    Path(anomaly_id): Path<i64>,
    ApiJson(body): ApiJson<AnomalyStatusRequest>,
) -> Result<Json<AnomalyDto>, ApiError> {
    require_admin_level(&caller, ANOMALY_MANAGERS_ONLY)?;
    let status = AnomalyStatus::parse_field(body.status.as_deref().map(str::trim))?;
    let updated = state
        .store
        .anomalies()
        .set_anomaly_status(caller.customer_id, anomaly_id, status, state.clock.now())
        .await?
        .ok_or(ApiError::NotFound(NO_ANOMALY_FOUND))?;
    Ok(Json(updated.into()))
}

/// The customer's anomaly settings.
#[utoipa::path(get, path = "/v1/anomalies/settings", operation_id = "getAnomalySettings", tag = "anomalies", security(("bearer" = [])),
    responses((status = 200, body = AnomalySettingsDto)))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id))]
pub async fn get_settings(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
) -> Result<Json<AnomalySettingsDto>, ApiError> {
    let settings = state
        .store
        .anomalies()
        .anomaly_settings(caller.customer_id)
        .await?;
    Ok(Json(settings.into()))
}

/// Saves the customer's anomaly settings; the next detection run (started now) uses them.
#[utoipa::path(put, path = "/v1/anomalies/settings", operation_id = "putAnomalySettings", tag = "anomalies", security(("bearer" = [])),
    request_body = AnomalySettingsRequest,
    responses(
        (status = 200, body = AnomalySettingsDto),
        (status = 403, description = "Only owners and admins can change anomaly settings", body = ErrorBody),
        (status = 422, description = "docs/ANOMALIES.md Settings, per field", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id))]
pub async fn put_settings(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
    ApiJson(body): ApiJson<AnomalySettingsRequest>,
) -> Result<Json<AnomalySettingsDto>, ApiError> {
    require_admin_level(&caller, SETTINGS_MANAGERS_ONLY)?;
    let known = state
        .store
        .channels()
        .channel_ids(caller.customer_id)
        .await?;
    let unknown = body
        .channel_ids
        .as_deref()
        .is_some_and(|ids| !ids.iter().all(|id| known.contains(id)))
        .then(|| FieldError::new("channelIds", UNKNOWN_CHANNEL));
    let valid = validate_settings(SettingsInput {
        relative_threshold: body.relative_threshold,
        absolute_threshold: body.absolute_threshold,
        tag_keys: body.tag_keys,
        channel_ids: body.channel_ids,
    });
    let settings = match (valid, unknown) {
        (Ok(settings), None) => settings,
        (Ok(_), Some(error)) => return Err(error.into()),
        (Err(mut errors), error) => {
            errors.extend(error);
            return Err(ApiError::Validation(errors));
        }
    };
    state
        .store
        .anomalies()
        .put_anomaly_settings(caller.customer_id, &settings, state.clock.now())
        .await
        .map_err(|error| match error {
            // A channel deleted between the check and the write.
            StoreError::UnknownChannel => FieldError::new("channelIds", UNKNOWN_CHANNEL).into(),
            other => ApiError::from(other),
        })?;
    state.anomaly_wake.notify_one();
    Ok(Json(settings.into()))
}
