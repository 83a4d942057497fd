//! List, summary, read, create, edit and delete.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use costscope_core::budget::BudgetHealth;
use costscope_store::{Budget, BudgetChanges, NewBudget};

use super::dto::{BudgetDto, BudgetRequest, BudgetSummary};
use super::request::{check_size, validate};
use super::{find_budget, MANAGERS_ONLY};
use crate::budgets::evaluation::record_reached;
use crate::budgets::standing::{current_spend, standing};
use crate::http::currency::display_currency;
use crate::http::error::{ApiError, ErrorBody};
use crate::http::extract::require_admin_level;
use crate::http::extract::{ApiJson, AuthUser};
use crate::state::AppState;

/// A stored budget with its spend now.
async fn with_standing(state: &AppState, budget: Budget) -> Result<BudgetDto, ApiError> {
    let display = display_currency(state, budget.customer_id).await?;
    let standing = standing(
        state.engine.as_ref(),
        &budget,
        state.clock.now(),
        display.as_ref(),
    )
    .await?;
    Ok(BudgetDto::new(budget, &standing, display.is_some()))
}

/// Records the thresholds a saved budget has already reached, then answers it with its spend.
/// The save stands even if recording fails: the job evaluates it again on its next run.
async fn evaluated(state: &AppState, budget: Budget) -> Result<BudgetDto, ApiError> {
    let now = state.clock.now();
    let display = display_currency(state, budget.customer_id).await?;
    let standing = standing(state.engine.as_ref(), &budget, now, display.as_ref()).await?;
    match record_reached(state.store.as_ref(), &budget, &standing.current, now).await {
        Ok(recorded) if recorded > 0 => state.notification_wake.notify_one(),
        Ok(_) => {}
        Err(error) => {
            tracing::error!(budget_id = budget.id, error = ?error, "recording a saved budget's alerts failed");
        }
    }
    Ok(BudgetDto::new(budget, &standing, display.is_some()))
}

async fn all_with_standing(state: &AppState, customer_id: i64) -> Result<Vec<BudgetDto>, ApiError> {
    let mut answers = Vec::new();
    for budget in state.store.list_budgets(customer_id).await? {
        answers.push(with_standing(state, budget).await?);
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
        (status = 422, description = "Spec 2 §5 Budget rules, per field", body = ErrorBody),
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
    let valid = validate(body).map_err(ApiError::Validation)?;
    let budget = state
        .store
        .create_budget(
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
        )
        .await?;
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
        (status = 422, description = "Spec 2 §5 Budget rules, per field", body = ErrorBody),
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
    let valid = validate(body).map_err(ApiError::Validation)?;
    let changes = BudgetChanges {
        name: Some(valid.name),
        amount: Some(valid.amount),
        period: Some(valid.period),
        filters: Some(valid.filters),
        alerts: Some(valid.alerts),
        now: state.clock.now(),
    };
    let budget = state
        .store
        .update_budget(caller.customer_id, caller.id, budget_id, changes)
        .await?
        .ok_or(ApiError::NotFound(super::NO_BUDGET_FOUND))?;
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
