//! `GET /v1/account`: the customer's connected cloud accounts.

use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::error::{ApiError, ErrorBody};
use super::extract::AuthUser;
use crate::state::AppState;

pub fn routes() -> Router<AppState> {
    Router::new().route("/v1/account", get(list_accounts))
}

/// A connected AWS account, GCP project or Azure subscription.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct CloudAccount {
    pub id: i64,
    /// `aws`, `gcp` or `azure`.
    pub provider: String,
    pub account_id: String,
    /// The AWS account id for AWS accounts, else null.
    pub aws_account_id: Option<String>,
    pub account_name: String,
    pub creation_time: DateTime<Utc>,
}

impl From<costscope_core::CloudAccount> for CloudAccount {
    fn from(account: costscope_core::CloudAccount) -> Self {
        Self {
            id: account.id,
            aws_account_id: (account.provider == "aws").then(|| account.account_id.clone()),
            provider: account.provider,
            account_id: account.account_id,
            account_name: account.account_name,
            creation_time: account.created_at,
        }
    }
}

#[utoipa::path(get, path = "/v1/account", tag = "accounts", security(("bearer" = [])), responses(
    (status = 200, body = [CloudAccount]),
    (status = 401, description = "Authentication required", body = ErrorBody),
))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id))]
pub async fn list_accounts(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
) -> Result<Json<Vec<CloudAccount>>, ApiError> {
    let accounts = state.store.list_cloud_accounts(caller.customer_id).await?;
    Ok(Json(accounts.into_iter().map(Into::into).collect()))
}
