//! `GET /v1/account`: the customer's connected cloud accounts, then the accounts and projects
//! seen in its cost data that are not connected.

use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use chrono::{DateTime, Utc};
use costscope_core::cost::Provider;
use costscope_engine::SeenAccount;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::error::{ApiError, ErrorBody};
use super::extract::AuthUser;
use crate::state::AppState;

pub fn routes() -> Router<AppState> {
    Router::new().route("/v1/account", get(list_accounts))
}

/// An AWS account, GCP project or Azure subscription: connected (with an `id`) or only seen in
/// the cost data (`id` null).
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct CloudAccount {
    /// Null for an account known only from the cost data.
    pub id: Option<i64>,
    /// `aws`, `gcp` or `azure`.
    pub provider: String,
    pub account_id: String,
    /// The AWS account id for AWS accounts, else null.
    pub aws_account_id: Option<String>,
    pub account_name: String,
    /// When it was connected; for an account seen in the cost data, its earliest charge.
    pub creation_time: DateTime<Utc>,
}

impl From<costscope_core::CloudAccount> for CloudAccount {
    fn from(account: costscope_core::CloudAccount) -> Self {
        Self {
            id: Some(account.id),
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
    (status = 503, description = "The cost engine is busy or the query ran past the time limit and was cancelled (Retry-After)", body = ErrorBody),
))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id))]
pub async fn list_accounts(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
) -> Result<Json<Vec<CloudAccount>>, ApiError> {
    let mut accounts: Vec<CloudAccount> = state
        .store
        .list_cloud_accounts(caller.customer_id)
        .await?
        .into_iter()
        .map(Into::into)
        .collect();
    let mut seen = state.engine.accounts(caller.customer_id).await?;
    seen.sort_by(|a, b| (&a.provider, &a.account_id).cmp(&(&b.provider, &b.account_id)));
    for account in seen {
        let provider = account.provider.code();
        let connected = accounts
            .iter()
            .any(|known| known.provider == provider && known.account_id == account.account_id);
        if !connected {
            accounts.push(account.into());
        }
    }
    Ok(Json(accounts))
}

impl From<SeenAccount> for CloudAccount {
    fn from(account: SeenAccount) -> Self {
        let provider = account.provider;
        Self {
            id: None,
            aws_account_id: (provider == Provider::Aws).then(|| account.account_id.clone()),
            provider: provider.code().to_owned(),
            account_id: account.account_id,
            account_name: account.account_name,
            creation_time: account.first_seen,
        }
    }
}
