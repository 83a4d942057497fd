//! `POST /v1/resource` (a filtered page of the inventory with each resource's billed cost) and
//! `GET /v1/resource/unmatched-spend` (spend whose resource is not in the inventory).

use std::collections::{HashMap, HashSet};

use axum::extract::{Query, State};
use axum::Json;
use costscope_core::inventory::{Resource, ResourceQuery};
use costscope_engine::{CurrencyNote, ResourceCosts};

use super::dto::{
    ResourceDto, ResourceRequest, ResourcesResponse, UnmatchedParams, UnmatchedResourceDto,
    UnmatchedSpendResponse,
};
use super::params::{resource_query, Window};
use crate::http::currency::CurrencyAmountDto;
use crate::http::error::{ApiError, ErrorBody};
use crate::http::extract::{ApiJson, AuthUser};
use crate::state::AppState;

/// The most unmatched resources one answer lists.
pub const UNMATCHED_LIMIT: u32 = 100;

/// The billed cost of each resource in the window, joined from the line items by id or ARN.
pub async fn costs_of(
    state: &AppState,
    customer_id: i64,
    window: &Window,
    resources: &[Resource],
) -> Result<ResourceCosts, ApiError> {
    let ids: Vec<String> = resources
        .iter()
        .flat_map(Resource::identifiers)
        .map(str::to_owned)
        .collect();
    Ok(state
        .engine
        .resource_costs(customer_id, window.range(), &ids)
        .await?)
}

/// A resource's cost: the line items naming its id plus those naming its ARN; `None` when
/// none names either.
pub fn cost_of(costs: &HashMap<String, f64>, resource: &Resource) -> Option<f64> {
    let mut seen = HashSet::new();
    resource
        .identifiers()
        .filter(|id| seen.insert(*id))
        .filter_map(|id| costs.get(id).copied())
        // The line items' amounts have 9 decimals: a sum of two is kept to them (no binary
        // floating-point residue in the answer).
        .reduce(|a, b| ((a + b) * 1e9).round() / 1e9)
}

pub fn other_currencies(note: &CurrencyNote) -> Vec<CurrencyAmountDto> {
    note.other_currencies
        .iter()
        .map(CurrencyAmountDto::from)
        .collect()
}

/// One page of the query with the total and each resource's cost.
pub async fn page(
    state: &AppState,
    customer_id: i64,
    query: &ResourceQuery,
    window: &Window,
) -> Result<ResourcesResponse, ApiError> {
    let inventory = state.store.inventory();
    let resources = inventory.list_resources(customer_id, query).await?;
    let total = inventory
        .count_matching_resources(customer_id, query)
        .await?;
    let costs = costs_of(state, customer_id, window, &resources).await?;
    Ok(ResourcesResponse {
        resources: resources
            .into_iter()
            .map(|resource| {
                let cost = cost_of(&costs.costs, &resource);
                ResourceDto::new(resource, cost)
            })
            .collect(),
        total,
        cost_period: window.period(),
        currency: costs.currency.currency.clone(),
        other_currencies: other_currencies(&costs.currency),
    })
}

/// The inventory: resources matching every filter (spec 1 §2.7, §7), one page in the asked
/// order, with the total and each resource's billed cost over the window.
#[utoipa::path(post, path = "/v1/resource", operation_id = "listResources", tag = "inventory", security(("bearer" = [])),
    request_body = ResourceRequest,
    responses(
        (status = 200, body = ResourcesResponse),
        (status = 422, description = "A filter is broken (the field is named)", body = ErrorBody),
        (status = 503, description = "The cost engine is busy or the query ran past the time limit and was cancelled (Retry-After)", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id))]
pub async fn list(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
    ApiJson(body): ApiJson<ResourceRequest>,
) -> Result<Json<ResourcesResponse>, ApiError> {
    let valid = resource_query(
        &body,
        state.clock.now(),
        costscope_core::inventory::DEFAULT_RESOURCE_COUNT,
    )?;
    Ok(Json(
        page(&state, caller.customer_id, &valid.query, &valid.window).await?,
    ))
}

/// A UNIX time of the query, or the 422 naming it.
fn query_time(field: &'static str, text: Option<&str>) -> Result<Option<i64>, ApiError> {
    let message = match field {
        "start_time" => costscope_core::inventory::query::messages::START_TIME,
        _ => costscope_core::inventory::query::messages::END_TIME,
    };
    text.map(str::trim)
        .filter(|text| !text.is_empty())
        .map(|text| {
            text.parse::<i64>()
                .map_err(|_| ApiError::from(costscope_core::FieldError::new(field, message)))
        })
        .transpose()
}

/// Spend of the window whose resource id is no inventory resource's id or ARN: the 100
/// largest, with the count and total of all of them.
#[utoipa::path(get, path = "/v1/resource/unmatched-spend", tag = "inventory", security(("bearer" = [])),
    params(UnmatchedParams),
    responses(
        (status = 200, body = UnmatchedSpendResponse),
        (status = 422, description = "start_time/end_time broken (the field is named)", body = ErrorBody),
        (status = 503, description = "The cost engine is busy or the query ran past the time limit and was cancelled (Retry-After)", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id))]
pub async fn unmatched_spend(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
    Query(params): Query<UnmatchedParams>,
) -> Result<Json<UnmatchedSpendResponse>, ApiError> {
    let start = query_time("start_time", params.start_time.as_deref())?;
    let end = query_time("end_time", params.end_time.as_deref())?;
    let window = Window::parse(start, end, state.clock.now())?;
    let known = state
        .store
        .inventory()
        .resource_identifiers(caller.customer_id)
        .await?;
    let spend = state
        .engine
        .unmatched_resource_spend(caller.customer_id, window.range(), &known, UNMATCHED_LIMIT)
        .await?;
    Ok(Json(UnmatchedSpendResponse {
        resources: spend
            .resources
            .into_iter()
            .map(|row| UnmatchedResourceDto {
                resource_id: row.resource_id,
                cloud_provider: row.provider.display_name().to_owned(),
                account_id: row.account_id,
                service: row.service,
                cost: row.cost,
            })
            .collect(),
        resource_count: spend.resource_count,
        total: spend.total,
        cost_period: window.period(),
        other_currencies: other_currencies(&spend.currency),
        currency: spend.currency.currency,
    }))
}
