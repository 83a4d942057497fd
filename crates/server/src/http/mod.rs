//! The HTTP API: one module per resource, assembled here.

pub mod accounts;
pub mod auth;
pub mod budgets;
pub mod config;
pub mod cost;
pub mod currency;
pub mod customer;
pub mod error;
pub mod export;
pub mod extract;
pub mod ingest;
pub mod openapi;
pub mod ops;
pub mod spa;
pub mod users;

use axum::Router;

use crate::state::AppState;

pub fn router(state: AppState) -> Router {
    Router::new()
        .merge(config::routes())
        .merge(auth::routes())
        .merge(customer::routes())
        .merge(accounts::routes())
        .merge(users::routes())
        .merge(budgets::routes())
        .merge(cost::routes())
        .merge(currency::routes())
        .merge(ingest::routes())
        .merge(export::routes())
        .merge(ops::routes())
        .fallback(spa::fallback)
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            crate::metrics::track,
        ))
        .with_state(state)
}
