//! The HTTP API: one module per resource, assembled here.

pub mod accounts;
pub mod anomalies;
pub mod auth;
pub mod budgets;
pub mod channels;
pub mod config;
pub mod cost;
pub mod currency;
pub mod customer;
pub mod digest;
pub mod discovery;
pub mod error;
pub mod export;
pub mod extract;
pub mod findings;
pub mod forecast;
pub mod headers;
pub mod ingest;
pub mod inventory;
pub mod openapi;
pub mod ops;
pub mod rejections;
pub mod spa;
pub mod teams;
pub mod users;

use axum::extract::DefaultBodyLimit;
use axum::middleware::{from_fn, from_fn_with_state};
use axum::Router;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::compression::predicate::{NotForContentType, Predicate, SizeAbove};
use tower_http::compression::CompressionLayer;

use crate::state::AppState;

/// The whole API and web app, with the layers every answer passes.
pub fn router(state: AppState) -> Router {
    with_layers(routes(), state)
}

/// Every route, without layers.
pub fn routes() -> Router<AppState> {
    Router::new()
        .merge(config::routes())
        .merge(auth::routes())
        .merge(customer::routes())
        .merge(discovery::routes())
        .merge(accounts::routes())
        .merge(users::routes())
        .merge(budgets::routes())
        .merge(channels::routes())
        .merge(teams::routes())
        .merge(anomalies::routes())
        .merge(digest::routes())
        .merge(cost::routes())
        .merge(currency::routes())
        .merge(ingest::routes())
        .merge(inventory::routes())
        .merge(findings::routes())
        .merge(forecast::routes())
        .merge(export::routes())
        .merge(ops::routes())
        .fallback(spa::fallback)
}

/// Adds the layers to `routes` (public so that tests can serve extra routes, such as one that
/// panics, exactly as production serves its own). From the outside in: the request span
/// (tenant id), metrics, security headers, compression, JSON errors (413 included), panics
/// caught, the JSON body limit.
pub fn with_layers(routes: Router<AppState>, state: AppState) -> Router {
    routes
        .layer(DefaultBodyLimit::max(rejections::JSON_BODY_LIMIT))
        .layer(CatchPanicLayer::custom(rejections::panic_response))
        .layer(from_fn(rejections::json_errors))
        .layer(compression())
        .layer(from_fn(headers::security_headers))
        .layer(from_fn_with_state(state.clone(), crate::metrics::track))
        .layer(from_fn(crate::telemetry::request_span))
        .with_state(state)
}

/// JSON, CSV and other text answers compressed on the fly (brotli or gzip, as the client's
/// Accept-Encoding prefers). Left alone: bodies under 1 KiB, answers already encoded (the web
/// app's precompressed files), event streams, and binary formats (Parquet, images, fonts).
fn compression() -> CompressionLayer<impl Predicate> {
    CompressionLayer::new()
        .br(true)
        .gzip(true)
        .no_deflate()
        .no_zstd()
        .compress_when(
            SizeAbove::new(1024)
                .and(NotForContentType::SSE)
                .and(is_text),
        )
}

/// Text media types only: everything else the server sends is binary and compressed already.
fn is_text(
    _status: axum::http::StatusCode,
    _version: axum::http::Version,
    headers: &axum::http::HeaderMap,
    _extensions: &axum::http::Extensions,
) -> bool {
    let Some(content_type) = headers
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
    else {
        return false;
    };
    let essence = content_type
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    essence.starts_with("text/")
        || essence == "application/json"
        || essence.ends_with("+json")
        || essence == "application/javascript"
        || essence == "application/xml"
        || essence == "image/svg+xml"
}
