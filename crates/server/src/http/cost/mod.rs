//! The cost API (docs/API-COST.md): every call answers from the cost engine, scoped to the
//! caller's customer; every role may read costs.

pub mod aggr;
pub mod amount_filter;
pub mod compare;
pub mod filters;
#[cfg(test)]
mod parser_fuzz;
pub mod query;
pub mod request;
pub mod service_categories;
pub mod spend;

use axum::routing::{get, post};
use axum::Router;

use crate::state::AppState;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/v2/cost/aggr", post(aggr::aggregate))
        .route("/v2/cost/compare", post(compare::compare))
        .route("/v2/cost/filters", post(filters::filter_options))
        .route(
            "/v1/cost/filter-parameters",
            get(filters::filter_parameters),
        )
        .route("/v2/cost/spend", post(spend::spend))
        .route(
            "/v2/cost/service-categories",
            post(service_categories::service_categories),
        )
        .route("/v1/query", post(query::query))
}
