//! `/tags/standard…` (spec 1 §2.9, §3 Standard tag, §5): the Standard Tags Manager's list, its
//! add/edit/delete dialogs, and how the live resources stand against each standard tag. Every
//! signed-in user reads; owners and admins write, never in the demo.

use std::collections::HashMap;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use chrono::Duration;
use costscope_core::inventory::standard_tags::tag_stats;
use costscope_core::inventory::{ResourceKey, StandardTagInput};
use costscope_core::User;
use costscope_store::StoreError;

use super::dto::{StandardTagDto, StandardTagRequest, StandardTagStatsDto};
use super::params::Window;
use super::resources::{cost_of, costs_of};
use crate::http::error::{ApiError, ErrorBody};
use crate::http::extract::{require_admin_level, ApiJson, AuthUser};
use crate::state::AppState;

pub const STANDARD_TAG_NOT_FOUND: &str = "Standard tag not found";
pub const MANAGERS_ONLY: &str = "Only owners and admins can manage standard tags";
pub const NOT_IN_DEMO: &str = "Standard tags cannot be changed in the demo";

/// The 409 of a key another standard tag of the customer has.
pub fn duplicate_key(key: &str) -> String {
    format!("A standard tag with the key \"{key}\" already exists")
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

fn validate(body: &StandardTagRequest) -> Result<StandardTagInput, ApiError> {
    let values = body.values.clone().unwrap_or_default();
    StandardTagInput::parse(body.key.as_deref().unwrap_or_default(), &values).map_err(Into::into)
}

fn conflict(input: &StandardTagInput) -> impl Fn(StoreError) -> ApiError + '_ {
    move |error| match error {
        StoreError::Conflict => ApiError::Conflict(duplicate_key(&input.key)),
        other => other.into(),
    }
}

/// The customer's standard tags, oldest first.
#[utoipa::path(get, path = "/tags/standard", operation_id = "listStandardTags", tag = "standard-tags", security(("bearer" = [])),
    responses((status = 200, body = [StandardTagDto])))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id))]
pub async fn list(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
) -> Result<Json<Vec<StandardTagDto>>, ApiError> {
    let tags = state
        .store
        .inventory()
        .list_standard_tags(caller.customer_id)
        .await?;
    Ok(Json(tags.into_iter().map(StandardTagDto::from).collect()))
}

/// Adds a standard tag: the key trimmed; the values a list or comma-separated text, trimmed,
/// empties and duplicates dropped (none: any value is allowed).
#[utoipa::path(post, path = "/tags/standard", operation_id = "createStandardTag", tag = "standard-tags", security(("bearer" = [])),
    request_body = StandardTagRequest,
    responses(
        (status = 201, body = StandardTagDto),
        (status = 403, description = "Only owners and admins can manage standard tags; Standard tags cannot be changed in the demo", body = ErrorBody),
        (status = 409, description = "A standard tag with the key already exists", body = ErrorBody),
        (status = 422, description = "key or values broken (the field is named)", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id))]
pub async fn create(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
    ApiJson(body): ApiJson<StandardTagRequest>,
) -> Result<(StatusCode, Json<StandardTagDto>), ApiError> {
    require_manager(&state, &caller).await?;
    let input = validate(&body)?;
    let tag = state
        .store
        .inventory()
        .create_standard_tag(caller.customer_id, &input)
        .await
        .map_err(conflict(&input))?;
    Ok((StatusCode::CREATED, Json(tag.into())))
}

/// Replaces a standard tag's key and values.
#[utoipa::path(put, path = "/tags/standard/{id}", operation_id = "updateStandardTag", tag = "standard-tags", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Standard tag id")),
    request_body = StandardTagRequest,
    responses(
        (status = 200, body = StandardTagDto),
        (status = 403, description = "Only owners and admins can manage standard tags; Standard tags cannot be changed in the demo", body = ErrorBody),
        (status = 404, description = "Standard tag not found", body = ErrorBody),
        (status = 409, description = "A standard tag with the key already exists", body = ErrorBody),
        (status = 422, description = "key or values broken (the field is named)", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id, standard_tag_id))]
pub async fn update(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
    Path(standard_tag_id): Path<i64>,
    ApiJson(body): ApiJson<StandardTagRequest>,
) -> Result<Json<StandardTagDto>, ApiError> {
    require_manager(&state, &caller).await?;
    let input = validate(&body)?;
    let tag = state
        .store
        .inventory()
        .update_standard_tag(caller.customer_id, standard_tag_id, &input)
        .await
        .map_err(conflict(&input))?
        .ok_or(ApiError::NotFound(STANDARD_TAG_NOT_FOUND))?;
    Ok(Json(tag.into()))
}

/// Deletes a standard tag (the "Confirm Tag Deletion" dialog's Delete).
#[utoipa::path(delete, path = "/tags/standard/{id}", operation_id = "deleteStandardTag", tag = "standard-tags", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Standard tag id")),
    responses(
        (status = 204, description = "Deleted"),
        (status = 403, description = "Only owners and admins can manage standard tags; Standard tags cannot be changed in the demo", body = ErrorBody),
        (status = 404, description = "Standard tag not found", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id, standard_tag_id))]
pub async fn delete(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
    Path(standard_tag_id): Path<i64>,
) -> Result<StatusCode, ApiError> {
    require_manager(&state, &caller).await?;
    if state
        .store
        .inventory()
        .delete_standard_tag(caller.customer_id, standard_tag_id)
        .await?
    {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(ApiError::NotFound(STANDARD_TAG_NOT_FOUND))
    }
}

/// Per standard tag: how many live, taggable resources comply, miss the key or carry a value
/// outside its list, and the billed cost of the last 30 days of those that miss it / carry a
/// wrong value.
#[utoipa::path(get, path = "/tags/standard/stats", operation_id = "standardTagStats", tag = "standard-tags", security(("bearer" = [])),
    responses(
        (status = 200, body = [StandardTagStatsDto]),
        (status = 503, description = "The cost engine is busy or the query ran past the time limit and was cancelled (Retry-After)", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id))]
pub async fn stats(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
) -> Result<Json<Vec<StandardTagStatsDto>>, ApiError> {
    let inventory = state.store.inventory();
    let tags = inventory.list_standard_tags(caller.customer_id).await?;
    if tags.is_empty() {
        return Ok(Json(Vec::new()));
    }
    let resources = inventory.live_resources(caller.customer_id, &[]).await?;
    let now = state.clock.now();
    let window = Window::parse(
        Some((now - Duration::days(30)).timestamp()),
        Some(now.timestamp()),
        now,
    )?;
    let costs = costs_of(&state, caller.customer_id, &window, &resources).await?;
    let by_key: HashMap<ResourceKey, f64> = resources
        .iter()
        .filter_map(|resource| {
            cost_of(&costs.costs, resource).map(|cost| (resource.key.clone(), cost))
        })
        .collect();
    Ok(Json(
        tag_stats(&resources, &tags, &by_key)
            .into_iter()
            .map(|stats| StandardTagStatsDto {
                id: stats.id,
                key: stats.key,
                compliant: stats.compliant,
                missing: stats.missing,
                invalid: stats.invalid,
                missing_cost: stats.missing_cost,
                invalid_cost: stats.invalid_cost,
            })
            .collect(),
    ))
}
