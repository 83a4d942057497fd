//! `POST /v1/resource/count`, `/v1/resource/stats` and `/v1/resource/trend`: the inventory's
//! counts per account, region and type, at a glance, and over time.

use std::collections::BTreeMap;

use axum::extract::State;
use axum::Json;
use chrono::{DateTime, Duration, NaiveDate, Utc};
use costscope_core::inventory::{ResourceQuery, ResourceState, MAX_RESOURCE_COUNT};

use super::dto::{
    AccountCounts, AccountLive, CountRequest, RegionCounts, StatsRequest, StatsResponse,
    TrendPoint, TrendRequest, TypeLive,
};
use super::params::{account_ids, all_of, Window};
use crate::http::error::{ApiError, ErrorBody};
use crate::http::extract::{ApiJson, AuthUser};
use crate::state::AppState;

/// The most resources read to draw the trend of some accounts (pages of 10000).
const MAX_TREND_RESOURCES: u32 = 500_000;

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
#[utoipa::path(post, path = "/v1/resource/stats", tag = "inventory", security(("bearer" = [])),
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

/// Live resources at the end of each day of `from..=to`, per type, from each resource's type
/// and life times (the store's rule: live at the end of day D when first seen before D+1 and
/// not deleted before D+1).
fn trend_of(
    rows: &[(String, DateTime<Utc>, Option<DateTime<Utc>>)],
    from: NaiveDate,
    to: NaiveDate,
) -> BTreeMap<NaiveDate, BTreeMap<String, u64>> {
    let mut days: BTreeMap<NaiveDate, BTreeMap<String, u64>> = BTreeMap::new();
    if to < from {
        return days;
    }
    let length = usize::try_from((to - from).num_days()).unwrap_or(0) + 1;
    // Per type, a difference array over the days: live at the end of day D when
    // D >= date(c_time) and D <= date(d_time) - 1.
    let mut deltas: BTreeMap<&str, Vec<i64>> = BTreeMap::new();
    for (resource_type, c_time, d_time) in rows {
        let first = c_time.date_naive().max(from);
        let last = match d_time {
            Some(d_time) => match d_time.date_naive().pred_opt() {
                Some(day) => day.min(to),
                None => continue,
            },
            None => to,
        };
        if last < first {
            continue;
        }
        let index = |day: NaiveDate| usize::try_from((day - from).num_days()).unwrap_or(0);
        let delta = deltas
            .entry(resource_type.as_str())
            .or_insert_with(|| vec![0; length + 1]);
        delta[index(first)] += 1;
        delta[index(last) + 1] -= 1;
    }
    for (resource_type, delta) in deltas {
        let mut live = 0i64;
        for (offset, change) in delta.iter().take(length).enumerate() {
            live += change;
            if live > 0 {
                days.entry(from + Duration::days(offset as i64))
                    .or_default()
                    .insert(resource_type.to_owned(), live.unsigned_abs());
            }
        }
    }
    days
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
    let inventory = state.store.inventory();
    let days: BTreeMap<NaiveDate, BTreeMap<String, u64>> = if accounts.is_empty() {
        let mut days: BTreeMap<NaiveDate, BTreeMap<String, u64>> = BTreeMap::new();
        for point in inventory
            .resource_trend(caller.customer_id, from, to)
            .await?
        {
            *days
                .entry(point.date)
                .or_default()
                .entry(point.resource_type)
                .or_default() += point.live;
        }
        days
    } else {
        // The store's trend is per customer: for some accounts, from their resources that
        // existed in the range.
        let mut query = ResourceQuery {
            account_ids: accounts,
            window_start: Some(window.start),
            window_end: Some(window.end),
            count: MAX_RESOURCE_COUNT,
            order_by: costscope_core::inventory::ResourceOrder::ResourceId,
            order_desc: false,
            ..ResourceQuery::default()
        };
        let mut rows = Vec::new();
        while query.offset < MAX_TREND_RESOURCES {
            let page = inventory.list_resources(caller.customer_id, &query).await?;
            let full = page.len() == MAX_RESOURCE_COUNT as usize;
            rows.extend(
                page.into_iter()
                    .map(|resource| (resource.key.resource_type, resource.c_time, resource.d_time)),
            );
            if !full {
                break;
            }
            query.offset += MAX_RESOURCE_COUNT;
        }
        trend_of(&rows, from, to)
    };
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

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;

    fn at(day: u32, hour: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, day, hour, 0, 0).unwrap()
    }

    fn date(day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 11, day).unwrap()
    }

    #[test]
    fn a_resource_is_live_at_the_end_of_each_day_from_its_first_scan_until_its_deletion() {
        let rows = vec![
            ("A".to_owned(), at(2, 10), Some(at(4, 5))),
            ("A".to_owned(), at(1, 0), None),
            ("B".to_owned(), at(3, 23), Some(at(3, 23))),
        ];
        let days = trend_of(&rows, date(1), date(5));
        let live = |day: u32, kind: &str| {
            days.get(&date(day))
                .and_then(|types| types.get(kind))
                .copied()
                .unwrap_or(0)
        };
        assert_eq!(
            (1..=5).map(|day| live(day, "A")).collect::<Vec<_>>(),
            vec![1, 2, 2, 1, 1]
        );
        // Deleted before the end of its first day: never live at a day's end.
        assert_eq!((1..=5).map(|day| live(day, "B")).sum::<u64>(), 0);
    }
}
