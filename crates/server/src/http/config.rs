//! `GET /v1/auth/config`: what the web app needs before sign-in.

use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use costscope_core::FeatureFlags;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::state::AppState;

pub fn routes() -> Router<AppState> {
    Router::new().route("/v1/auth/config", get(public_config))
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct PublicConfig {
    pub features: FeatureFlags,
    /// Customers that see the Compliance menu entry.
    pub compliance_customer_ids: Vec<i64>,
    pub support_email: String,
    pub documentation_url: String,
    /// Largest upload `POST /v1/ingest` accepts, in bytes (`--max-upload-size`).
    pub max_upload_bytes: u64,
    /// Whether `POST /v1/auth/signup` creates tenants here; when false the web app says sign-up
    /// is closed and people join by invitation.
    pub allow_signup: bool,
}

#[utoipa::path(get, path = "/v1/auth/config", tag = "config", responses((status = 200, body = PublicConfig)))]
pub async fn public_config(State(state): State<AppState>) -> Json<PublicConfig> {
    let config = &state.config;
    Json(PublicConfig {
        features: config.features,
        compliance_customer_ids: config.compliance_customer_ids.clone(),
        support_email: config.support_email.clone(),
        documentation_url: config.documentation_url.clone(),
        max_upload_bytes: config.max_upload_bytes,
        allow_signup: config.allow_signup,
    })
}
