//! A budget's daily spend, its alert history and its configuration change history.

use std::collections::BTreeMap;

use axum::extract::{Path, Query, State};
use axum::Json;
use chrono::{Days, NaiveDate};
use costscope_core::budget::SpendingRange;
use costscope_core::cost::{AggregateQuery, Interval, Metric};

use super::dto::{
    AlertDeliveryDto, BudgetAlertHistoryItem, BudgetConfigHistoryItem, BudgetHistoryItem,
    DateRangeParams,
};
use super::find_budget;
use crate::budgets::filter::cost_filter;
use crate::budgets::standing::days;
use crate::http::error::{ApiError, ErrorBody};
use crate::http::extract::AuthUser;
use crate::state::AppState;

/// Days of the spending history when no range is asked for (spec 2 §9, last 90 days).
pub const DEFAULT_HISTORY_DAYS: u64 = 90;

/// The asked range (spec 2 §5 "Spending date range"), or `None` when neither date is given.
fn asked_range(
    params: &DateRangeParams,
    today: NaiveDate,
) -> Result<Option<SpendingRange>, ApiError> {
    let given = |value: &Option<String>| value.as_deref().is_some_and(|v| !v.trim().is_empty());
    if !given(&params.start_date) && !given(&params.end_date) {
        return Ok(None);
    }
    Ok(Some(SpendingRange::parse(
        params.start_date.as_deref(),
        params.end_date.as_deref(),
        today,
    )?))
}

/// Daily spend for the budget's filters and its budget line, every day from the start to the
/// earlier of the end and today (0 on days without spend), sorted by date.
#[utoipa::path(get, path = "/v1/budgets/{id}/history", tag = "budgets", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Budget id"), DateRangeParams),
    responses(
        (status = 200, body = [BudgetHistoryItem]),
        (status = 404, description = "No budget found.", body = ErrorBody),
        (status = 422, description = "Spec 2 §5 Spending date range rules", body = ErrorBody),
        (status = 503, description = "The cost engine is busy or the query ran past the time limit and was cancelled (Retry-After)", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id, budget_id))]
pub async fn spending(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
    Path(budget_id): Path<i64>,
    Query(params): Query<DateRangeParams>,
) -> Result<Json<Vec<BudgetHistoryItem>>, ApiError> {
    let budget = find_budget(&state, &caller, budget_id).await?;
    let today = state.clock.now().date_naive();
    let (start, end) = match asked_range(&params, today)? {
        Some(range) => (range.start(), range.end()),
        None => (today - Days::new(DEFAULT_HISTORY_DAYS - 1), today),
    };
    let last = end.min(today);
    let query = AggregateQuery {
        range: days(start, last),
        filter: cost_filter(&budget.filters),
        dimensions: Vec::new(),
        interval: Some(Interval::Daily),
        cumulative: false,
        metric: Metric::Billed,
        limit: None,
        offset: 0,
        ascending: false,
    };
    let display = crate::http::currency::display_currency(&state, caller.customer_id).await?;
    let aggregate = state
        .engine
        .aggregate_in(caller.customer_id, &query, display.as_ref())
        .await?;
    let mut spent_by_day: BTreeMap<NaiveDate, f64> = BTreeMap::new();
    for row in aggregate.rows {
        if let Some(day) = row.timestamp {
            *spent_by_day.entry(day).or_default() += row.amount;
        }
    }
    let budget_amount = budget.amount.value();
    let items = start
        .iter_days()
        .take_while(|day| *day <= last)
        .map(|date| BudgetHistoryItem {
            date,
            amount_spent: spent_by_day.get(&date).copied().unwrap_or_default(),
            budget_amount,
            currency: aggregate.currency.clone(),
        })
        .collect();
    Ok(Json(items))
}

/// Thresholds reached, newest first; with dates, those reached on those days. Each with how
/// it went out (its channel deliveries).
#[utoipa::path(get, path = "/v1/budgets/{id}/alert-history", tag = "budgets", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Budget id"), DateRangeParams),
    responses(
        (status = 200, body = [BudgetAlertHistoryItem]),
        (status = 404, description = "No budget found.", body = ErrorBody),
        (status = 422, description = "Spec 2 §5 Spending date range rules", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id, budget_id))]
pub async fn alerts(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
    Path(budget_id): Path<i64>,
    Query(params): Query<DateRangeParams>,
) -> Result<Json<Vec<BudgetAlertHistoryItem>>, ApiError> {
    let budget = find_budget(&state, &caller, budget_id).await?;
    let window = asked_range(&params, state.clock.now().date_naive())?.map(|range| {
        let range = days(range.start(), range.end());
        (range.start(), range.end())
    });
    let alerts = state
        .store
        .list_budget_alerts(caller.customer_id, budget.id, window)
        .await?;
    let mut by_alert: BTreeMap<i64, Vec<AlertDeliveryDto>> = BTreeMap::new();
    for delivery in state
        .store
        .channels()
        .budget_alert_deliveries(caller.customer_id, budget.id)
        .await?
    {
        by_alert
            .entry(delivery.alert_id)
            .or_default()
            .push(delivery.into());
    }
    let items = alerts
        .into_iter()
        .map(|alert| BudgetAlertHistoryItem {
            deliveries: by_alert.remove(&alert.id).unwrap_or_default(),
            ..alert.into()
        })
        .collect();
    Ok(Json(items))
}

/// The creation and every changed field, newest first.
#[utoipa::path(get, path = "/v1/budgets/{id}/config-history", tag = "budgets", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Budget id")),
    responses(
        (status = 200, body = [BudgetConfigHistoryItem]),
        (status = 404, description = "No budget found.", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id, budget_id))]
pub async fn configuration(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
    Path(budget_id): Path<i64>,
) -> Result<Json<Vec<BudgetConfigHistoryItem>>, ApiError> {
    let budget = find_budget(&state, &caller, budget_id).await?;
    let changes = state
        .store
        .budget_config_history(caller.customer_id, budget.id)
        .await?;
    Ok(Json(changes.into_iter().map(Into::into).collect()))
}
