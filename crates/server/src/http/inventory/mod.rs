//! The resource inventory and standard tags (issue 14; spec 1 §2.7–§2.9, §7 `/v1/resource*`,
//! `/tags/standard*`): a filtered page of the discovered resources with each one's billed cost,
//! its CSV export, counts, property snapshots, searchable property paths, stats, the trend over
//! time, spend whose resource is not in the inventory, and the standard tags with how the
//! resources stand against them. Every signed-in user reads; standard-tag writes need an owner
//! or admin and are refused in the demo. Every store and engine call is scoped to the caller's
//! customer.

pub mod dto;
pub mod export;
pub mod params;
pub mod property;
pub mod resources;
pub mod standard_tags;
pub mod stats;

use axum::routing::{get, post, put};
use axum::Router;

use crate::state::AppState;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/v1/resource", post(resources::list))
        .route("/v1/resource/export", post(export::export))
        .route("/v1/resource/count", post(stats::count))
        .route("/v1/resource/property", post(property::property))
        .route("/v1/resource/params", get(property::params))
        .route("/v1/resource/stats", post(stats::stats))
        .route("/v1/resource/trend", post(stats::trend))
        .route(
            "/v1/resource/unmatched-spend",
            get(resources::unmatched_spend),
        )
        .route(
            "/tags/standard",
            get(standard_tags::list).post(standard_tags::create),
        )
        .route("/tags/standard/stats", get(standard_tags::stats))
        .route(
            "/tags/standard/{id}",
            put(standard_tags::update).delete(standard_tags::delete),
        )
}
