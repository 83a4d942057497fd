//! `GET /v1/findings`, `GET /v1/savings`, `POST|DELETE /v1/savings/{id}/dismiss`.

use std::collections::{HashMap, HashSet};

use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::Json;
use chrono::{DateTime, Duration, Utc};
use costscope_core::inventory::findings::{findings, FindingCategory};
use costscope_core::inventory::resource_types as types;
use costscope_core::inventory::savings::{recommendations, COST_WINDOW_DAYS};
use costscope_core::inventory::{Resource, ResourceKey};
use costscope_core::{FieldError, User};

use super::dto::{FindingDto, FindingsParams, RecommendationDto, SavingsResponse};
use crate::http::error::{ApiError, ErrorBody};
use crate::http::extract::{require_admin_level, AuthUser};
use crate::http::inventory::params::Window;
use crate::http::inventory::resources::{cost_of, costs_of, other_currencies};
use crate::state::AppState;

pub const CATEGORY_MESSAGE: &str = "category must be iam or compliance";
pub const RECOMMENDATION_NOT_FOUND: &str = "Recommendation not found";
pub const NOT_DISMISSED: &str = "Recommendation is not dismissed";
pub const MANAGERS_ONLY: &str = "Only owners and admins can dismiss recommendations";
pub const NOT_IN_DEMO: &str = "Recommendations cannot be dismissed in the demo";
/// The longest recommendation id accepted in a path.
pub const MAX_RECOMMENDATION_ID_CHARS: usize = 1024;

/// The types the IAM tab's rules read.
const IAM_TYPES: [&str; 3] = [types::IAM_USER, types::IAM_ACCESS_KEY, types::IAM_ROLE];
/// The types the Compliance tab's rules read.
const COMPLIANCE_TYPES: [&str; 4] = [
    types::S3_BUCKET,
    types::EC2_SECURITY_GROUP,
    types::EC2_VOLUME,
    types::RDS_DB_INSTANCE,
];
/// The types the savings rules read.
const SAVINGS_TYPES: [&str; 4] = [
    types::EC2_INSTANCE,
    types::EC2_VOLUME,
    types::EC2_SNAPSHOT,
    types::EC2_ELASTIC_IP,
];

fn owned(types: &[&str]) -> Vec<String> {
    types.iter().map(|t| (*t).to_owned()).collect()
}

/// The window of the last 30 days up to `now` (the cost the savings come from).
pub fn last_30_days(now: DateTime<Utc>) -> Result<Window, ApiError> {
    let start = now - Duration::days(COST_WINDOW_DAYS);
    Ok(Window::parse(
        Some(start.timestamp()),
        Some(now.timestamp()),
        now,
    )?)
}

/// Each resource's billed cost over `window` (by id or ARN), keyed by resource; resources no
/// line item names are absent. Answers the currency note too.
pub async fn resource_costs(
    state: &AppState,
    customer_id: i64,
    window: &Window,
    resources: &[Resource],
) -> Result<(HashMap<ResourceKey, f64>, costscope_engine::CurrencyNote), ApiError> {
    let costs = costs_of(state, customer_id, window, resources).await?;
    let by_key = resources
        .iter()
        .filter_map(|resource| {
            cost_of(&costs.costs, resource).map(|cost| (resource.key.clone(), cost))
        })
        .collect();
    Ok((by_key, costs.currency))
}

/// IAM findings (users without MFA, access keys older than 90 days, roles unused for 90 days)
/// and compliance findings (publicly readable S3 buckets, security groups open to the internet
/// on administrative, database or all ports, unencrypted EBS volumes and RDS instances) on the
/// live resources, most severe first.
#[utoipa::path(get, path = "/v1/findings", tag = "findings", security(("bearer" = [])),
    params(FindingsParams),
    responses(
        (status = 200, body = [FindingDto]),
        (status = 422, description = "category must be iam or compliance", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id))]
pub async fn list_findings(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
    Query(params): Query<FindingsParams>,
) -> Result<Json<Vec<FindingDto>>, ApiError> {
    let category = match params.category.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(text) => Some(
            FindingCategory::parse(text).ok_or(ApiError::from(FieldError {
                field: "category",
                message: CATEGORY_MESSAGE,
            }))?,
        ),
    };
    let resource_types = match category {
        Some(FindingCategory::Iam) => owned(&IAM_TYPES),
        Some(FindingCategory::Compliance) => owned(&COMPLIANCE_TYPES),
        None => owned(&[&IAM_TYPES[..], &COMPLIANCE_TYPES[..]].concat()),
    };
    let resources = state
        .store
        .inventory()
        .live_resources(caller.customer_id, &resource_types)
        .await?;
    Ok(Json(
        findings(&resources, state.clock.now())
            .into_iter()
            .filter(|finding| category.is_none_or(|c| finding.category == c))
            .map(FindingDto::from)
            .collect(),
    ))
}

/// The Cost Saving page: every recommendation on the live resources with its monthly saving
/// from the resource's own billed cost of the last 30 days (null without a cost line), whether
/// it was dismissed, and the total of those not dismissed.
#[utoipa::path(get, path = "/v1/savings", tag = "findings", security(("bearer" = [])),
    responses(
        (status = 200, body = SavingsResponse),
        (status = 503, description = "The cost engine is busy or the query ran past the time limit and was cancelled (Retry-After)", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id))]
pub async fn savings(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
) -> Result<Json<SavingsResponse>, ApiError> {
    let inventory = state.store.inventory();
    let now = state.clock.now();
    let resources = inventory
        .live_resources(caller.customer_id, &owned(&SAVINGS_TYPES))
        .await?;
    let window = last_30_days(now)?;
    let (costs, note) = resource_costs(&state, caller.customer_id, &window, &resources).await?;
    let dismissed: HashSet<String> = inventory
        .dismissed_recommendations(caller.customer_id)
        .await?
        .into_iter()
        .collect();
    let recommendations: Vec<RecommendationDto> = recommendations(&resources, &costs, now)
        .into_iter()
        .map(|recommendation| {
            let is_dismissed = dismissed.contains(&recommendation.id);
            RecommendationDto::new(recommendation, &note.currency, is_dismissed)
        })
        .collect();
    let total_monthly_saving = recommendations
        .iter()
        .filter(|r| !r.dismissed)
        .filter_map(|r| r.monthly_saving)
        .sum();
    Ok(Json(SavingsResponse {
        recommendations,
        total_monthly_saving,
        cost_period: window.period(),
        other_currencies: other_currencies(&note),
        currency: note.currency,
    }))
}

/// Owners and admins of a customer that is not the demo.
async fn require_manager(state: &AppState, caller: &User) -> Result<(), ApiError> {
    require_admin_level(caller, MANAGERS_ONLY)?;
    let customer = state.store.get_customer(caller.customer_id).await?;
    if customer.is_some_and(|customer| customer.is_demo) {
        return Err(ApiError::Forbidden(NOT_IN_DEMO));
    }
    Ok(())
}

fn check_id(id: &str) -> Result<(), ApiError> {
    if id.is_empty()
        || id.chars().count() > MAX_RECOMMENDATION_ID_CHARS
        || id.chars().any(char::is_control)
    {
        return Err(ApiError::NotFound(RECOMMENDATION_NOT_FOUND));
    }
    Ok(())
}

/// Dismisses a current recommendation (remembered for the tenant until restored).
#[utoipa::path(post, path = "/v1/savings/{id}/dismiss", tag = "findings", security(("bearer" = [])),
    params(("id" = String, Path, description = "Recommendation id")),
    responses(
        (status = 204, description = "Dismissed (again: no change)"),
        (status = 403, description = "Only owners and admins can dismiss recommendations; Recommendations cannot be dismissed in the demo", body = ErrorBody),
        (status = 404, description = "Recommendation not found", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id))]
pub async fn dismiss(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    require_manager(&state, &caller).await?;
    check_id(&id)?;
    let inventory = state.store.inventory();
    let now = state.clock.now();
    // Which recommendations exist does not depend on cost: no engine call needed.
    let resources = inventory
        .live_resources(caller.customer_id, &owned(&SAVINGS_TYPES))
        .await?;
    let exists = recommendations(&resources, &HashMap::new(), now)
        .iter()
        .any(|recommendation| recommendation.id == id);
    if !exists {
        return Err(ApiError::NotFound(RECOMMENDATION_NOT_FOUND));
    }
    inventory
        .dismiss_recommendation(caller.customer_id, &id, caller.id, now)
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Restores a dismissed recommendation.
#[utoipa::path(delete, path = "/v1/savings/{id}/dismiss", tag = "findings", security(("bearer" = [])),
    params(("id" = String, Path, description = "Recommendation id")),
    responses(
        (status = 204, description = "Restored"),
        (status = 403, description = "Only owners and admins can dismiss recommendations; Recommendations cannot be dismissed in the demo", body = ErrorBody),
        (status = 404, description = "Recommendation is not dismissed", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id))]
pub async fn restore(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    require_manager(&state, &caller).await?;
    check_id(&id)?;
    if state
        .store
        .inventory()
        .restore_recommendation(caller.customer_id, &id)
        .await?
    {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(ApiError::NotFound(NOT_DISMISSED))
    }
}
