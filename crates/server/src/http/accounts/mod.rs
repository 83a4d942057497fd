//! Cloud accounts (spec 2 §2 Cloud Accounts, §7 AWS accounts / GCP, issue 13): the customer's
//! connections (AWS accounts and organisations with their member accounts, GCP projects, Azure
//! exports) and the accounts seen only in its cost data; connecting, removing, the
//! registration check and "Sync now". Everyone signed in reads; owners and admins manage,
//! never for the demo customer. Secrets are stored encrypted and never answered.

pub mod aws;
pub mod azure;
pub mod dto;
pub mod gcp;
pub mod sync;

use axum::extract::State;
use axum::routing::{get, post};
use axum::{Json, Router};
use costscope_core::cost::Provider;
use costscope_core::{FieldError, User};
use costscope_engine::SeenAccount;
use costscope_store::{CloudConnection, NewCloudConnection, StoreError};

pub use dto::CloudAccount;

use super::error::{ApiError, ErrorBody};
use super::extract::{require_admin_level, AuthUser};
use crate::state::AppState;

pub const MANAGERS_ONLY: &str = "Only account owners and admins can manage cloud accounts";
pub const NOT_IN_DEMO: &str = "Cloud accounts cannot be changed in the demo";
pub const CONNECTION_NOT_FOUND: &str = "Cloud account not found";
/// The most account ids one removal takes.
pub const MAX_IDS_PER_DELETE: usize = 1000;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route(
            "/v1/account",
            get(list_accounts).delete(aws::delete_accounts),
        )
        .route("/v1/register", post(aws::register))
        .route("/v1/aws/onboarding-template", get(aws::onboarding_template))
        .route("/v1/account/registration/job", post(aws::registration_job))
        .route("/v1/account/{id}/sync", post(sync::sync_now))
        .route(
            "/v1/gcp/account",
            get(gcp::list).post(gcp::connect).delete(gcp::remove),
        )
        .route(
            "/v1/azure/account",
            get(azure::list).post(azure::connect).delete(azure::remove),
        )
}

/// Owners and admins of a customer that is not the demo.
pub async fn require_manager(state: &AppState, caller: &User) -> Result<(), ApiError> {
    require_admin_level(caller, MANAGERS_ONLY)?;
    let customer = state.store.get_customer(caller.customer_id).await?;
    if customer.is_some_and(|customer| customer.is_demo) {
        return Err(ApiError::Forbidden(NOT_IN_DEMO));
    }
    Ok(())
}

/// A 422 for the first failed check of each field (`None` = passed), or the values.
pub fn field_error(field: &'static str, message: &'static str) -> FieldError {
    FieldError { field, message }
}

/// Answers a 422 when any check failed.
pub fn fail_on(errors: Vec<FieldError>) -> Result<(), ApiError> {
    if errors.is_empty() {
        Ok(())
    } else {
        Err(ApiError::Validation(errors))
    }
}

/// Keeps the value, or records the error.
pub fn check<T>(errors: &mut Vec<FieldError>, result: Result<T, FieldError>) -> Option<T> {
    match result {
        Ok(value) => Some(value),
        Err(error) => {
            errors.push(error);
            None
        }
    }
}

/// Creates a connection; `None` when the customer already has one for the account.
pub async fn create_connection(
    state: &AppState,
    new: NewCloudConnection<'_>,
) -> Result<Option<CloudConnection>, ApiError> {
    match state.store.create_connection(new).await {
        Ok(connection) => Ok(Some(connection)),
        Err(StoreError::Conflict) => Ok(None),
        Err(error) => Err(error.into()),
    }
}

/// The connection as it is now (after a check was started on it).
pub async fn reread(
    state: &AppState,
    connection: CloudConnection,
) -> Result<CloudConnection, ApiError> {
    Ok(state
        .store
        .get_connection(connection.customer_id, connection.id)
        .await?
        .unwrap_or(connection))
}

/// The customer's connected cloud accounts (each organisation followed by its member
/// accounts), then the accounts and projects seen in its cost data that are not connected.
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
    let interval = state.config.cloud.sync_interval_hours;
    let mut accounts: Vec<CloudAccount> = state
        .store
        .list_connections(caller.customer_id)
        .await?
        .iter()
        .map(|connection| CloudAccount::from_connection(connection, interval))
        .collect();
    let mut seen = state.engine.accounts(caller.customer_id).await?;
    seen.sort_by(|a, b| (&a.provider, &a.account_id).cmp(&(&b.provider, &b.account_id)));
    for account in seen {
        let provider = account.provider.code();
        let connected = accounts
            .iter()
            .any(|known| known.provider == provider && known.account_id == account.account_id);
        if !connected {
            accounts.push(seen_only(account, caller.customer_id));
        }
    }
    Ok(Json(accounts))
}

/// An account known only from the cost data: its age is its earliest charge.
fn seen_only(account: SeenAccount, customer_id: i64) -> CloudAccount {
    let provider = account.provider;
    CloudAccount {
        id: None,
        aws_account_id: (provider == Provider::Aws).then(|| account.account_id.clone()),
        provider: provider.code().to_owned(),
        account_id: account.account_id,
        account_name: account.account_name,
        creation_time: account.first_seen,
        iam_role_arn: None,
        customer_id,
        organization_id: None,
        parent_id: None,
        connected: false,
        export: None,
        registration: None,
        sync: dto::SyncDto::default(),
    }
}
