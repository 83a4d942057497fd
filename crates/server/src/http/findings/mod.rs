//! Findings on the discovered resources (issue 14): the IAM and Compliance tabs (spec 1 §2.6,
//! built natively), the Cost Saving page's recommendations with their dismissals, and tag
//! compliance (standard-tag violations with their cost, untagged spend per month). The rules
//! live in `costscope_core::inventory::{findings, savings, standard_tags}`; these calls read the
//! tenant's live resources and the engine's billed cost and answer what the rules say. Every
//! signed-in user reads; dismissing needs an owner or admin and is refused in the demo.

pub mod compliance;
pub mod dto;
pub mod handlers;

use axum::routing::{get, post};
use axum::Router;

use crate::state::AppState;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/v1/findings", get(handlers::list_findings))
        .route("/v1/savings", get(handlers::savings))
        .route(
            "/v1/savings/{id}/dismiss",
            post(handlers::dismiss).delete(handlers::restore),
        )
        .route("/v1/tags/compliance", get(compliance::tag_compliance))
}
