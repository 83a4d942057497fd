//! `GET /v1/customer`: the caller's customer, trial and role.

use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use chrono::{DateTime, Utc};
use costscope_core::Role;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::error::{ApiError, ErrorBody};
use super::extract::AuthUser;
use crate::state::AppState;

pub fn routes() -> Router<AppState> {
    Router::new().route("/v1/customer", get(customer))
}

/// The signed-in context, with the spec's field names.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct Customer {
    pub id: i64,
    pub name: String,
    #[serde(rename = "trialEndDate")]
    pub trial_end_date: DateTime<Utc>,
    /// 0 = free trial.
    #[serde(rename = "Tier")]
    pub tier: i32,
    /// Trial end in Unix seconds.
    #[serde(rename = "EndTime")]
    pub end_time: i64,
    /// The caller's role.
    #[serde(rename = "Role")]
    pub role: Role,
    /// The caller's e-mail.
    #[serde(rename = "EmailID")]
    pub email_id: String,
    #[serde(rename = "OwnerName")]
    pub owner_name: String,
    #[serde(rename = "OwnerEmailID")]
    pub owner_email_id: String,
    pub is_demo: bool,
}

#[utoipa::path(get, path = "/v1/customer", tag = "customer", security(("bearer" = [])), responses(
    (status = 200, body = Customer),
    (status = 401, description = "Authentication required", body = ErrorBody),
))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id))]
pub async fn customer(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
) -> Result<Json<Customer>, ApiError> {
    let customer = state
        .store
        .get_customer(caller.customer_id)
        .await?
        .ok_or_else(|| {
            anyhow::anyhow!(
                "customer {} of user {} is missing",
                caller.customer_id,
                caller.id
            )
        })?;
    let owner = state
        .store
        .get_owner(caller.customer_id)
        .await?
        .ok_or_else(|| anyhow::anyhow!("customer {} has no owner", caller.customer_id))?;
    Ok(Json(Customer {
        id: customer.id,
        name: customer.name,
        trial_end_date: customer.trial_end,
        tier: customer.tier,
        end_time: customer.trial_end.timestamp(),
        role: caller.role,
        email_id: caller.email,
        owner_name: owner.name,
        owner_email_id: owner.email,
        is_demo: customer.is_demo,
    }))
}
