//! `/v1/budgets…` (spec 2 §7 Budgets, docs/API-BUDGETS.md): budgets of the caller's customer,
//! with their spend from the cost engine. Every role reads; owners and admins manage.

pub mod crud;
pub mod dto;
pub mod history;
pub mod request;
pub mod resources;

use axum::routing::get;
use axum::Router;
use costscope_core::User;
use costscope_store::Budget;

use crate::http::error::ApiError;
use crate::state::AppState;

pub const NO_BUDGET_FOUND: &str = "No budget found.";
pub const MANAGERS_ONLY: &str = "Only owners and admins can manage budgets";

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/v1/budgets", get(crud::list).post(crud::create))
        .route("/v1/budgets/summary", get(crud::summary))
        .route(
            "/v1/budgets/{id}",
            get(crud::get_one).put(crud::update).delete(crud::delete),
        )
        .route("/v1/budgets/{id}/history", get(history::spending))
        .route("/v1/budgets/{id}/alert-history", get(history::alerts))
        .route(
            "/v1/budgets/{id}/config-history",
            get(history::configuration),
        )
        .route("/v1/budgets/{id}/resources", get(resources::resources))
}

/// One of the caller's customer's budgets; 404 otherwise.
async fn find_budget(state: &AppState, caller: &User, id: i64) -> Result<Budget, ApiError> {
    state
        .store
        .get_budget(caller.customer_id, id)
        .await?
        .ok_or(ApiError::NotFound(NO_BUDGET_FOUND))
}
