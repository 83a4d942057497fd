//! `GET /v1/tags/compliance`: resources breaking a standard tag with the cost they carry, and
//! untagged spend as a share of total spend per calendar month (issue 14, "Tag compliance").
//!
//! Untagged spend of a month is the billed cost of the line items naming an inventory resource
//! that carries no tag at all (its current tags; IAM access keys, which AWS cannot tag, are
//! not counted as untagged) plus that of line items naming a resource the inventory does not
//! know (its tags are unknown: resources of types discovery does not list, other providers').
//! Line items naming no resource (taxes, support, …) count in the total only.

use axum::extract::{Query, State};
use axum::Json;
use chrono::{DateTime, Datelike, Duration, NaiveDate, Utc};
use costscope_core::cost::{CostFilter, Metric, TimeRange};
use costscope_core::inventory::resource_types;
use costscope_core::inventory::standard_tags::tag_violations;
use costscope_core::inventory::{Resource, ResourceKey, ResourceQuery, MAX_RESOURCE_COUNT};
use costscope_core::FieldError;
use costscope_engine::CurrencyNote;

use super::dto::{ComplianceParams, TagComplianceResponse, TagViolationDto, UntaggedMonthDto};
use super::handlers::{last_30_days, resource_costs};
use crate::http::currency::CurrencyAmountDto;
use crate::http::error::{ApiError, ErrorBody};
use crate::http::extract::AuthUser;
use crate::state::AppState;

pub const DEFAULT_MONTHS: u32 = 6;
pub const MAX_MONTHS: u32 = 24;
pub const DEFAULT_VIOLATIONS: u32 = 200;
pub const MAX_VIOLATIONS: u32 = 1000;
/// The most inventory resources read (pages of [`MAX_RESOURCE_COUNT`]).
pub const MAX_RESOURCES_READ: u32 = 500_000;
pub const MONTHS_MESSAGE: &str = "months must be between 1 and 24";
pub const LIMIT_MESSAGE: &str = "limit must be between 1 and 1000";

fn bounded(
    field: &'static str,
    text: Option<&str>,
    default: u32,
    max: u32,
    message: &'static str,
) -> Result<u32, ApiError> {
    match text.map(str::trim).filter(|t| !t.is_empty()) {
        None => Ok(default),
        Some(text) => text
            .parse::<u32>()
            .ok()
            .filter(|n| (1..=max).contains(n))
            .ok_or(ApiError::from(FieldError { field, message })),
    }
}

/// Every resource of the customer, deleted ones included (they were billed while they lived).
async fn all_resources(state: &AppState, customer_id: i64) -> Result<Vec<Resource>, ApiError> {
    let inventory = state.store.inventory();
    let mut query = ResourceQuery {
        count: MAX_RESOURCE_COUNT,
        ..ResourceQuery::default()
    };
    let mut all = Vec::new();
    while query.offset < MAX_RESOURCES_READ {
        let page = inventory.list_resources(customer_id, &query).await?;
        let full = page.len() >= MAX_RESOURCE_COUNT as usize;
        all.extend(page);
        if !full {
            break;
        }
        query.offset += MAX_RESOURCE_COUNT;
    }
    Ok(all)
}

/// The first day of the month `back` months before `now`'s.
fn month_start(now: DateTime<Utc>, back: u32) -> NaiveDate {
    let months = now.year() * 12 + now.month0() as i32 - back as i32;
    NaiveDate::from_ymd_opt(months.div_euclid(12), months.rem_euclid(12) as u32 + 1, 1)
        .expect("the first of a month exists")
}

/// The calendar months of the series, oldest first: each one's label and range (the current
/// month up to `now`).
fn months(now: DateTime<Utc>, count: u32) -> Vec<(String, TimeRange)> {
    (0..count)
        .rev()
        .filter_map(|back| {
            let first = month_start(now, back);
            let start = first.and_hms_opt(0, 0, 0)?.and_utc();
            let end = if back == 0 {
                now
            } else {
                month_start(now, back - 1).and_hms_opt(0, 0, 0)?.and_utc()
                    - Duration::milliseconds(1)
            };
            TimeRange::new(start, end).map(|range| (first.format("%Y-%m").to_string(), range))
        })
        .collect()
}

fn add_other(note: &CurrencyNote, others: &mut Vec<CurrencyAmountDto>) {
    for amount in &note.other_currencies {
        match others.iter_mut().find(|o| o.currency == amount.currency) {
            Some(other) => other.amount += amount.amount,
            None => others.push(CurrencyAmountDto::from(amount)),
        }
    }
}

/// Tag compliance: every live taggable resource missing a standard tag or carrying a value
/// outside its list, with its billed cost of the last 30 days (most costly first), and per
/// calendar month the spend that no tag accounts for as a share of all spend.
#[utoipa::path(get, path = "/v1/tags/compliance", tag = "findings", security(("bearer" = [])),
    params(ComplianceParams),
    responses(
        (status = 200, body = TagComplianceResponse),
        (status = 422, description = "months or limit out of bounds (the field is named)", body = ErrorBody),
        (status = 503, description = "The cost engine is busy or the query ran past the time limit and was cancelled (Retry-After)", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id))]
pub async fn tag_compliance(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
    Query(params): Query<ComplianceParams>,
) -> Result<Json<TagComplianceResponse>, ApiError> {
    let month_count = bounded(
        "months",
        params.months.as_deref(),
        DEFAULT_MONTHS,
        MAX_MONTHS,
        MONTHS_MESSAGE,
    )?;
    let limit = bounded(
        "limit",
        params.limit.as_deref(),
        DEFAULT_VIOLATIONS,
        MAX_VIOLATIONS,
        LIMIT_MESSAGE,
    )?;
    let customer_id = caller.customer_id;
    let now = state.clock.now();
    let inventory = state.store.inventory();
    let standard_tags = inventory.list_standard_tags(customer_id).await?;
    let resources = all_resources(&state, customer_id).await?;
    let mut other_currencies = Vec::new();

    // Violations of the live resources, with their cost of the last 30 days.
    let live: Vec<Resource> = resources
        .iter()
        .filter(|r| r.d_time.is_none())
        .cloned()
        .collect();
    let violations = tag_violations(&live, &standard_tags);
    let window = last_30_days(now)?;
    let violating: Vec<Resource> = {
        let keys: std::collections::HashSet<&ResourceKey> =
            violations.iter().map(|v| &v.resource).collect();
        live.iter()
            .filter(|r| keys.contains(&r.key))
            .cloned()
            .collect()
    };
    let (costs, note) = resource_costs(&state, customer_id, &window, &violating).await?;
    add_other(&note, &mut other_currencies);
    let currency = note.currency.clone();
    let violations_cost = costs.values().sum();
    let total_violations = violations.len() as u64;
    let mut listed: Vec<TagViolationDto> = violations
        .into_iter()
        .map(|v| TagViolationDto {
            cost: costs.get(&v.resource).copied(),
            standard_tag_id: v.standard_tag_id,
            key: v.key,
            kind: v.kind,
            value: v.value,
            resource: v.resource.into(),
        })
        .collect();
    listed.sort_by(|a, b| {
        b.cost
            .unwrap_or(f64::NEG_INFINITY)
            .total_cmp(&a.cost.unwrap_or(f64::NEG_INFINITY))
            .then_with(|| {
                (
                    &a.resource.account_id,
                    &a.resource.region,
                    &a.resource.resource_type,
                    &a.resource.resource_id,
                    a.standard_tag_id,
                )
                    .cmp(&(
                        &b.resource.account_id,
                        &b.resource.region,
                        &b.resource.resource_type,
                        &b.resource.resource_id,
                        b.standard_tag_id,
                    ))
            })
    });
    listed.truncate(limit as usize);

    // Untagged spend per month.
    let untagged_ids: Vec<String> = resources
        .iter()
        .filter(|r| r.tags.is_empty() && resource_types::is_taggable(&r.key.resource_type))
        .flat_map(Resource::identifiers)
        .map(str::to_owned)
        .collect();
    let known_ids: Vec<String> = resources
        .iter()
        .flat_map(Resource::identifiers)
        .map(str::to_owned)
        .collect();
    let mut untagged_by_month = Vec::new();
    for (month, range) in months(now, month_count) {
        let spend = state
            .engine
            .spend(customer_id, range, &CostFilter::default(), Metric::Billed)
            .await?;
        add_other(&spend.currency, &mut other_currencies);
        let untagged = state
            .engine
            .resource_costs(customer_id, range, &untagged_ids)
            .await?;
        let unknown = state
            .engine
            .unmatched_resource_spend(customer_id, range, &known_ids, 0)
            .await?;
        let untagged_cost: f64 = untagged.costs.values().sum();
        let not_in_inventory_cost = unknown.total;
        let total_cost = spend.total;
        untagged_by_month.push(UntaggedMonthDto {
            month,
            total_cost,
            untagged_cost,
            not_in_inventory_cost,
            untagged_share: (total_cost > 0.0)
                .then(|| (untagged_cost + not_in_inventory_cost) / total_cost),
        });
    }
    Ok(Json(TagComplianceResponse {
        violations: listed,
        total_violations,
        violations_cost,
        cost_period: window.period(),
        untagged_by_month,
        currency,
        other_currencies,
    }))
}
