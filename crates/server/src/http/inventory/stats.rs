//! `POST /v1/resource/count`, `/v1/resource/stats` and `/v1/resource/trend`: the inventory's
//! counts per account, region and type, at a glance, and over time.

use std::collections::BTreeMap;

use axum::extract::State;
use axum::Json;
use chrono::NaiveDate;
use costscope_core::inventory::{ResourceQuery, ResourceState};

use super::dto::{
    AccountCounts, AccountLive, CountRequest, RegionCounts, StatsRequest, StatsResponse,
    TrendPoint, TrendRequest, TypeLive,
};
use super::params::{account_ids, all_of, Window};
use crate::http::error::{ApiError, ErrorBody};
use crate::http::extract::{ApiJson, AuthUser};
use crate::state::AppState;

/// Resources per account, then region, then type: live ones, or all with `all_resources`.
#[utoipa::path(post, path = "/v1/resource/count", tag = "inventory", security(("bearer" = [])),
    request_body = CountRequest,
    responses(
        (status = 200, body = [AccountCounts]),
        (status = 422, description = "account_ids broken", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id))]
pub async fn count(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
    ApiJson(body): ApiJson<CountRequest>,
) -> Result<Json<Vec<AccountCounts>>, ApiError> {
    let accounts = account_ids(&body.account_ids)?;
    let counts = state
        .store
        .inventory()
        .resource_type_counts(caller.customer_id, &accounts, body.all_resources)
        .await?;
    let mut tree: BTreeMap<String, BTreeMap<String, BTreeMap<String, u64>>> = BTreeMap::new();
    for count in counts {
        *tree
            .entry(count.account_id)
            .or_default()
            .entry(count.region)
            .or_default()
            .entry(count.resource_type)
            .or_default() += count.count;
    }
    Ok(Json(
        tree.into_iter()
            .map(|(account_id, regions)| AccountCounts {
                account_id,
                regions: regions
                    .into_iter()
                    .map(|(region, resource_type_counts)| RegionCounts {
                        region,
                        resource_type_counts,
                    })
                    .collect(),
            })
            .collect(),
    ))
}

/// Largest first, ties by name.
fn ranked(totals: BTreeMap<String, u64>) -> Vec<(String, u64)> {
    let mut rows: Vec<(String, u64)> = totals.into_iter().collect();
    rows.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    rows
}

/// Live and deleted resources, live ones with and without tags, live ones per type and per
/// account (largest first).
#[utoipa::path(post, path = "/v1/resource/stats", operation_id = "resourceStats", tag = "inventory", security(("bearer" = [])),
    request_body = StatsRequest,
    responses(
        (status = 200, body = StatsResponse),
        (status = 422, description = "account_ids broken", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id))]
pub async fn stats(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
    ApiJson(body): ApiJson<StatsRequest>,
) -> Result<Json<StatsResponse>, ApiError> {
    let accounts = account_ids(&body.account_ids)?;
    let inventory = state.store.inventory();
    let customer = caller.customer_id;
    let live = inventory
        .count_matching_resources(customer, &all_of(accounts.clone(), ResourceState::Live))
        .await?;
    let deleted = inventory
        .count_matching_resources(customer, &all_of(accounts.clone(), ResourceState::Deleted))
        .await?;
    let untagged = inventory
        .count_matching_resources(
            customer,
            &ResourceQuery {
                not_tagged: true,
                ..all_of(accounts.clone(), ResourceState::Live)
            },
        )
        .await?;
    let mut by_type: BTreeMap<String, u64> = BTreeMap::new();
    let mut by_account: BTreeMap<String, u64> = BTreeMap::new();
    for count in inventory
        .resource_type_counts(customer, &accounts, false)
        .await?
    {
        *by_type.entry(count.resource_type).or_default() += count.count;
        *by_account.entry(count.account_id).or_default() += count.count;
    }
    Ok(Json(StatsResponse {
        live,
        deleted,
        tagged: live.saturating_sub(untagged),
        untagged,
        by_type: ranked(by_type)
            .into_iter()
            .map(|(resource_type, live)| TypeLive {
                resource_type,
                live,
            })
            .collect(),
        by_account: ranked(by_account)
            .into_iter()
            .map(|(account_id, live)| AccountLive { account_id, live })
            .collect(),
    }))
}

/// Resources live at the end of each UTC day of the range (default the last 30 days, at most
/// 900 days back), in total and per type; days with none are left out.
#[utoipa::path(post, path = "/v1/resource/trend", tag = "inventory", security(("bearer" = [])),
    request_body = TrendRequest,
    responses(
        (status = 200, body = [TrendPoint]),
        (status = 422, description = "start_time/end_time/account_ids broken (the field is named)", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id))]
pub async fn trend(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
    ApiJson(body): ApiJson<TrendRequest>,
) -> Result<Json<Vec<TrendPoint>>, ApiError> {
    let window = Window::parse(body.start_time, body.end_time, state.clock.now());
    let accounts = account_ids(&body.account_ids);
    let (window, accounts) = match (window, accounts) {
        (Ok(window), Ok(accounts)) => (window, accounts),
        (window, accounts) => {
            let mut errors = Vec::new();
            if let Err(error) = window {
                errors.push(error);
            }
            if let Err(ApiError::Validation(mut found)) = accounts {
                errors.append(&mut found);
            }
            return Err(ApiError::Validation(errors));
        }
    };
    let (from, to) = (window.start.date_naive(), window.end.date_naive());
    let mut days: BTreeMap<NaiveDate, BTreeMap<String, u64>> = BTreeMap::new();
    for point in state
        .store
        .inventory()
        .resource_trend(caller.customer_id, &accounts, from, to)
        .await?
    {
        days.entry(point.date)
            .or_default()
            .insert(point.resource_type, point.live);
    }
    Ok(Json(
        days.into_iter()
            .filter(|(_, by_type)| by_type.values().any(|live| *live > 0))
            .map(|(date, by_type)| TrendPoint {
                date: date.format("%Y-%m-%d").to_string(),
                live: by_type.values().sum(),
                by_type,
            })
            .collect(),
    ))
}
