//! List, summary, read, create, edit and delete; each budget with the channels its alerts go
//! to (`channelIds`).

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use chrono::NaiveDate;
use std::collections::BTreeMap;

use costscope_core::budget::BudgetHealth;
use costscope_core::cost::CurrencyCode;
use costscope_core::forecast::PeriodForecast;
use costscope_core::notify::channel::UNKNOWN_CHANNEL;
use costscope_core::FieldError;
use costscope_store::{Budget, BudgetChanges, NewBudget, StoreError};

use super::dto::{BudgetDto, BudgetRequest, BudgetSummary};
use super::request::{check_size, validate, ValidBudget};
use super::{find_budget, MANAGERS_ONLY};
use crate::budgets::evaluation::record_current;
use crate::budgets::forecast::budget_forecast;
use crate::budgets::standing::{current_spend, standing, Standing};
use crate::forecast::last_known_day;
use crate::http::currency::display_currency;
use crate::http::error::{ApiError, ErrorBody};
use crate::http::extract::require_admin_level;
use crate::http::extract::{ApiJson, AuthUser};
use crate::state::AppState;

/// The channels each of the customer's budgets names.
async fn channels_of(
    state: &AppState,
    customer_id: i64,
) -> Result<BTreeMap<i64, Vec<i64>>, ApiError> {
    Ok(state
        .store
        .channels()
        .budget_channel_ids(customer_id)
        .await?)
}

/// The channels one budget names.
async fn channels_of_budget(state: &AppState, budget: &Budget) -> Result<Vec<i64>, ApiError> {
    Ok(channels_of(state, budget.customer_id)
        .await?
        .remove(&budget.id)
        .unwrap_or_default())
}

/// `channelIds` naming a channel that is not the customer's, as a field error.
async fn check_channels(
    state: &AppState,
    customer_id: i64,
    channel_ids: Option<&[i64]>,
) -> Result<Option<FieldError>, ApiError> {
    let Some(ids) = channel_ids.filter(|ids| !ids.is_empty()) else {
        return Ok(None);
    };
    let known = state.store.channels().channel_ids(customer_id).await?;
    Ok((!ids.iter().all(|id| known.contains(id)))
        .then(|| FieldError::new("channelIds", UNKNOWN_CHANNEL)))
}

/// The body's rules and its channels checked at once, so that the 422 lists every broken field.
async fn validate_with_channels(
    state: &AppState,
    customer_id: i64,
    body: BudgetRequest,
) -> Result<(ValidBudget, Option<Vec<i64>>), ApiError> {
    let channel_ids = body.channel_ids.clone();
    let channel_error = check_channels(state, customer_id, channel_ids.as_deref()).await?;
    match (validate(body), channel_error) {
        (Ok(valid), None) => Ok((valid, channel_ids)),
        (Ok(_), Some(error)) => Err(ApiError::Validation(vec![error])),
        (Err(mut errors), error) => {
            errors.extend(error);
            Err(ApiError::Validation(errors))
        }
    }
}

/// A channel deleted between the check and the write.
fn unknown_channel(error: StoreError) -> ApiError {
    match error {
        StoreError::UnknownChannel => FieldError::new("channelIds", UNKNOWN_CHANNEL).into(),
        other => other.into(),
    }
}

/// A stored budget with its spend now.
async fn with_standing(state: &AppState, budget: Budget) -> Result<BudgetDto, ApiError> {
    let channel_ids = channels_of_budget(state, &budget).await?;
    let as_of = as_of(state, budget.customer_id).await?;
    with_standing_and_channels(state, budget, channel_ids, as_of).await
}

/// The customer's last known day of cost, which every forecast starts from.
async fn as_of(state: &AppState, customer_id: i64) -> Result<Option<NaiveDate>, ApiError> {
    let today = state.clock.now().date_naive();
    Ok(last_known_day(state.engine.as_ref(), customer_id, today).await?)
}

/// The forecast of the budget's current period (of `standing`).
async fn forecast_of(
    state: &AppState,
    budget: &Budget,
    standing: &Standing,
    as_of: Option<NaiveDate>,
    display: Option<&CurrencyCode>,
) -> Result<Option<PeriodForecast>, ApiError> {
    let period = (standing.current.period_start, standing.current.period_end);
    Ok(budget_forecast(state.engine.as_ref(), budget, period, as_of, display).await?)
}

async fn with_standing_and_channels(
    state: &AppState,
    budget: Budget,
    channel_ids: Vec<i64>,
    as_of: Option<NaiveDate>,
) -> Result<BudgetDto, ApiError> {
    let display = display_currency(state, budget.customer_id).await?;
    let standing = standing(
        state.engine.as_ref(),
        &budget,
        state.clock.now(),
        display.as_ref(),
    )
    .await?;
    let forecast = forecast_of(state, &budget, &standing, as_of, display.as_ref()).await?;
    Ok(BudgetDto::new(budget, &standing, display.is_some())
        .with_channels(channel_ids)
        .with_forecast(forecast.as_ref()))
}

/// Records the thresholds a saved budget has already reached, then answers it with its spend.
/// The save stands even if recording fails: the job evaluates it again on its next run.
async fn evaluated(state: &AppState, budget: Budget) -> Result<BudgetDto, ApiError> {
    let channel_ids = channels_of_budget(state, &budget).await?;
    let now = state.clock.now();
    let display = display_currency(state, budget.customer_id).await?;
    let standing = standing(state.engine.as_ref(), &budget, now, display.as_ref()).await?;
    let as_of = as_of(state, budget.customer_id).await?;
    let forecast = forecast_of(state, &budget, &standing, as_of, display.as_ref()).await?;
    let recorded = record_current(
        state.store.as_ref(),
        &budget,
        &standing.current,
        forecast.as_ref(),
        now,
    )
    .await;
    match recorded {
        Ok(recorded) if recorded > 0 => state.notification_wake.notify_one(),
        Ok(_) => {}
        Err(error) => {
            tracing::error!(budget_id = budget.id, error = ?error, "recording a saved budget's alerts failed");
        }
    }
    Ok(BudgetDto::new(budget, &standing, display.is_some())
        .with_channels(channel_ids)
        .with_forecast(forecast.as_ref()))
}

async fn all_with_standing(state: &AppState, customer_id: i64) -> Result<Vec<BudgetDto>, ApiError> {
    let mut channels = channels_of(state, customer_id).await?;
    let as_of = as_of(state, customer_id).await?;
    let mut answers = Vec::new();
    for budget in state.store.list_budgets(customer_id).await? {
        let channel_ids = channels.remove(&budget.id).unwrap_or_default();
        answers.push(with_standing_and_channels(state, budget, channel_ids, as_of).await?);
    }
    Ok(answers)
}

/// The customer's budgets, oldest first, with their spend.
#[utoipa::path(get, path = "/v1/budgets", tag = "budgets", security(("bearer" = [])), responses(
    (status = 200, body = [BudgetDto]),
    (status = 401, description = "Authentication required", body = ErrorBody),
    (status = 503, description = "The cost engine is busy or the query ran past the time limit and was cancelled (Retry-After)", body = ErrorBody),
))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id))]
pub async fn list(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
) -> Result<Json<Vec<BudgetDto>>, ApiError> {
    Ok(Json(all_with_standing(&state, caller.customer_id).await?))
}

/// The five counts of the dashboard's summary strip.
#[utoipa::path(get, path = "/v1/budgets/summary", tag = "budgets", security(("bearer" = [])), responses(
    (status = 200, body = BudgetSummary),
    (status = 401, description = "Authentication required", body = ErrorBody),
    (status = 503, description = "The cost engine is busy or the query ran past the time limit and was cancelled (Retry-After)", body = ErrorBody),
))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id))]
pub async fn summary(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
) -> Result<Json<BudgetSummary>, ApiError> {
    // Health and alerts need only the current period's spend, not the previous period's.
    let now = state.clock.now();
    let display = display_currency(&state, caller.customer_id).await?;
    let mut summary = BudgetSummary::default();
    for budget in state.store.list_budgets(caller.customer_id).await? {
        let spend = current_spend(state.engine.as_ref(), &budget, now, display.as_ref()).await?;
        summary.total_budgets += 1;
        match spend.health() {
            BudgetHealth::Healthy => summary.healthy_budgets += 1,
            BudgetHealth::Warning => summary.warning_budgets += 1,
            BudgetHealth::Critical => summary.critical_budgets += 1,
        }
        if !spend.reached_alerts(&budget).is_empty() {
            summary.alerts_budgets += 1;
        }
    }
    Ok(Json(summary))
}

#[utoipa::path(get, path = "/v1/budgets/{id}", tag = "budgets", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Budget id")),
    responses(
        (status = 200, body = BudgetDto),
        (status = 404, description = "No budget found.", body = ErrorBody),
        (status = 503, description = "The cost engine is busy or the query ran past the time limit and was cancelled (Retry-After)", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id, budget_id))]
pub async fn get_one(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
    Path(budget_id): Path<i64>,
) -> Result<Json<BudgetDto>, ApiError> {
    let budget = find_budget(&state, &caller, budget_id).await?;
    Ok(Json(with_standing(&state, budget).await?))
}

/// Creates a budget; thresholds it has already reached are recorded at once.
#[utoipa::path(post, path = "/v1/budgets", tag = "budgets", security(("bearer" = [])),
    request_body = BudgetRequest,
    responses(
        (status = 201, body = BudgetDto),
        (status = 403, description = "Only owners and admins can manage budgets", body = ErrorBody),
        (status = 422, description = "Spec 2 §5 Budget rules, per field; `channelIds`: Unknown channel", body = ErrorBody),
        (status = 503, description = "The cost engine is busy or the query ran past the time limit and was cancelled (Retry-After)", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id))]
pub async fn create(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
    ApiJson(body): ApiJson<BudgetRequest>,
) -> Result<(StatusCode, Json<BudgetDto>), ApiError> {
    require_admin_level(&caller, MANAGERS_ONLY)?;
    check_size(&body)?;
    let (valid, channel_ids) = validate_with_channels(&state, caller.customer_id, body).await?;
    // The channels are written with the budget: its first alerts already know where to go.
    let budget = state
        .store
        .create_budget_with_channels(
            caller.customer_id,
            caller.id,
            NewBudget {
                name: valid.name,
                amount: valid.amount,
                period: valid.period,
                filters: valid.filters,
                alerts: valid.alerts,
                now: state.clock.now(),
            },
            channel_ids.as_deref().unwrap_or_default(),
        )
        .await
        .map_err(unknown_channel)?;
    Ok((StatusCode::CREATED, Json(evaluated(&state, budget).await?)))
}

/// Replaces a budget's five fields; each changed field is recorded in its configuration history.
#[utoipa::path(put, path = "/v1/budgets/{id}", tag = "budgets", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Budget id")),
    request_body = BudgetRequest,
    responses(
        (status = 200, body = BudgetDto),
        (status = 403, description = "Only owners and admins can manage budgets", body = ErrorBody),
        (status = 404, description = "No budget found.", body = ErrorBody),
        (status = 422, description = "Spec 2 §5 Budget rules, per field; `channelIds`: Unknown channel", body = ErrorBody),
        (status = 503, description = "The cost engine is busy or the query ran past the time limit and was cancelled (Retry-After)", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id, budget_id))]
pub async fn update(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
    Path(budget_id): Path<i64>,
    ApiJson(body): ApiJson<BudgetRequest>,
) -> Result<Json<BudgetDto>, ApiError> {
    require_admin_level(&caller, MANAGERS_ONLY)?;
    check_size(&body)?;
    let (valid, channel_ids) = validate_with_channels(&state, caller.customer_id, body).await?;
    let changes = BudgetChanges {
        name: Some(valid.name),
        amount: Some(valid.amount),
        period: Some(valid.period),
        filters: Some(valid.filters),
        alerts: Some(valid.alerts),
        now: state.clock.now(),
    };
    let saved = match channel_ids {
        Some(ids) => state
            .store
            .update_budget_with_channels(caller.customer_id, caller.id, budget_id, changes, &ids)
            .await
            .map_err(unknown_channel)?,
        None => {
            state
                .store
                .update_budget(caller.customer_id, caller.id, budget_id, changes)
                .await?
        }
    };
    let budget = saved.ok_or(ApiError::NotFound(super::NO_BUDGET_FOUND))?;
    Ok(Json(evaluated(&state, budget).await?))
}

/// Deletes a budget with its alert and configuration history.
#[utoipa::path(delete, path = "/v1/budgets/{id}", tag = "budgets", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Budget id")),
    responses(
        (status = 204, description = "Deleted"),
        (status = 403, description = "Only owners and admins can manage budgets", body = ErrorBody),
        (status = 404, description = "No budget found.", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id, budget_id))]
pub async fn delete(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
    Path(budget_id): Path<i64>,
) -> Result<StatusCode, ApiError> {
    require_admin_level(&caller, MANAGERS_ONLY)?;
    if state
        .store
        .delete_budget(caller.customer_id, budget_id)
        .await?
    {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(ApiError::NotFound(super::NO_BUDGET_FOUND))
    }
}
