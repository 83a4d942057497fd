//! GCP (spec 2 §5 GCP, §7 GCP): connecting a project with a service-account key and the
//! Cloud Billing export table it reads, listing and removal. The key is stored encrypted.

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use costscope_connectors::gcp::{KeyError, ServiceAccountKey, INVALID_KEY_FILE};
use costscope_connectors::settings::GcpExportSettings;
use costscope_core::cloud_accounts::{
    custom_endpoint_refusal, BigQueryTable, GcpAccountName, GcpBillingProjectId, GcpProjectId,
    MAX_CLOUD_TEXT_CHARS,
};
use costscope_store::NewCloudConnection;
use serde::Deserialize;
use serde_json::Value;
use utoipa::ToSchema;

use super::dto::{Deleted, GcpAccount, SUBSCRIPTION_KEY};
use super::{check, create_connection, fail_on, field_error, require_manager, reread};
use crate::cloud::registration;
use crate::http::error::{ApiError, ErrorBody};
use crate::http::extract::{ApiJson, AuthUser};
use crate::state::AppState;

pub const SUBSCRIPTION_TOO_LONG: &str = "Subscription ID must be at most 500 characters";

/// Spec 2 §7 GCP, with the export table.
#[derive(Default, Deserialize, ToSchema)]
pub struct GcpConnectRequest {
    /// Optional; defaults to the project id.
    #[serde(default)]
    pub account_name: String,
    /// The project id.
    #[serde(default)]
    #[schema(required = true)]
    pub account_id: String,
    /// Kept as given (e.g. the billing account id).
    #[serde(default)]
    pub subscription_id: String,
    /// The service-account JSON key file's text. Stored encrypted, never answered.
    #[serde(default)]
    #[schema(required = true)]
    pub secret_key: String,
    /// `project.dataset.table` of the Cloud Billing export (standard or detailed).
    #[serde(default)]
    #[schema(required = true)]
    pub billing_table: String,
    /// The project BigQuery jobs run in, when not `account_id`.
    pub billing_project_id: Option<String>,
}

/// Never prints the key.
impl std::fmt::Debug for GcpConnectRequest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GcpConnectRequest")
            .field("account_name", &self.account_name)
            .field("account_id", &self.account_id)
            .field("subscription_id", &self.subscription_id)
            .field("secret_key", &"[redacted]")
            .field("billing_table", &self.billing_table)
            .field("billing_project_id", &self.billing_project_id)
            .finish()
    }
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct GcpRemoveRequest {
    /// The project id.
    #[serde(default)]
    #[schema(required = true)]
    pub account_id: String,
}

/// The key's message when other fields failed too (the answer's messages are fixed texts
/// then; alone, the key's own message is answered).
fn key_message(error: &KeyError) -> &'static str {
    match error {
        KeyError::NotJson => INVALID_KEY_FILE,
        _ => "The key file is not a valid service account key",
    }
}

/// The customer's GCP projects.
#[utoipa::path(get, path = "/v1/gcp/account", operation_id = "list_gcp_accounts", tag = "accounts", security(("bearer" = [])), responses(
    (status = 200, body = [GcpAccount]),
    (status = 401, description = "Authentication required", body = ErrorBody),
))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id))]
pub async fn list(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
) -> Result<Json<Vec<GcpAccount>>, ApiError> {
    let interval = state.config.cloud.sync_interval_hours;
    Ok(Json(
        state
            .store
            .list_connections(caller.customer_id)
            .await?
            .iter()
            .filter(|connection| connection.provider == "gcp")
            .map(|connection| GcpAccount::from_connection(connection, interval))
            .collect(),
    ))
}

/// Connect a GCP project: the key is validated as a service-account key and stored encrypted;
/// a check (BigQuery reachable with it) starts.
#[utoipa::path(post, path = "/v1/gcp/account", operation_id = "connect_gcp_accounts", tag = "accounts", security(("bearer" = [])),
    request_body = GcpConnectRequest,
    responses(
        (status = 201, body = GcpAccount),
        (status = 403, description = "Only account owners and admins can manage cloud accounts; Cloud accounts cannot be changed in the demo", body = ErrorBody),
        (status = 409, description = "GCP project {id} is already connected", body = ErrorBody),
        (status = 422, description = "Project ID is required; Invalid JSON file. Please upload a valid service account key file.; Billing export table must be project.dataset.table; …", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id))]
pub async fn connect(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
    ApiJson(body): ApiJson<GcpConnectRequest>,
) -> Result<(StatusCode, Json<GcpAccount>), ApiError> {
    require_manager(&state, &caller).await?;
    let mut errors = Vec::new();
    let project = check(&mut errors, GcpProjectId::parse(&body.account_id));
    let name = check(&mut errors, GcpAccountName::parse(&body.account_name));
    let subscription = body.subscription_id.trim();
    if subscription.chars().count() > MAX_CLOUD_TEXT_CHARS {
        errors.push(field_error("subscription_id", SUBSCRIPTION_TOO_LONG));
    }
    let table = check(&mut errors, BigQueryTable::parse(&body.billing_table));
    let billing_project = body
        .billing_project_id
        .as_deref()
        .filter(|id| !id.trim().is_empty())
        .map(|id| check(&mut errors, GcpBillingProjectId::parse(id)));
    // The key's message is built from what is wrong with it (never from the key's text).
    let key = ServiceAccountKey::parse(&body.secret_key);
    if let Ok(parsed) = &key {
        if let Some(refusal) = custom_endpoint_refusal(
            Some(parsed.token_uri()),
            None,
            state.config.cloud.allow_custom_endpoints,
        ) {
            errors.push(field_error("secret_key", refusal));
        }
    }
    if let Err(error) = &key {
        if errors.is_empty() {
            return Err(ApiError::Invalid {
                field: "secret_key",
                message: error.to_string(),
            });
        }
        errors.push(field_error("secret_key", key_message(error)));
    }
    fail_on(errors)?;
    let (Some(project), Some(name), Some(table), Ok(_key)) = (project, name, table, key) else {
        unreachable!("every failed check is in the answer");
    };
    let name = name.or_project(&project);
    let billing_project_id = billing_project.flatten().map(|id| id.into_string());
    let mut settings = serde_json::to_value(GcpExportSettings {
        project_id: project.as_str().to_owned(),
        table: table.to_string(),
        billing_project_id,
    })
    .map_err(anyhow::Error::from)?;
    settings[SUBSCRIPTION_KEY] = Value::from(subscription);
    let encrypted = state.secrets.encrypt(&body.secret_key);
    let created = create_connection(
        &state,
        NewCloudConnection {
            customer_id: caller.customer_id,
            provider: "gcp",
            account_id: project.as_str(),
            account_name: name.as_str(),
            organization_id: None,
            parent_id: None,
            settings: &settings,
            encrypted_secret: Some(&encrypted),
            created_by_user_id: Some(caller.id),
            now: state.clock.now(),
        },
    )
    .await?
    .ok_or_else(|| ApiError::Conflict(format!("GCP project {project} is already connected")))?;
    registration::start(&state, &created).await?;
    let connection = reread(&state, created).await?;
    Ok((
        StatusCode::CREATED,
        Json(GcpAccount::from_connection(
            &connection,
            state.config.cloud.sync_interval_hours,
        )),
    ))
}

/// Remove a GCP project connection; the loaded cost data stays.
#[utoipa::path(delete, path = "/v1/gcp/account", operation_id = "remove_gcp_accounts", tag = "accounts", security(("bearer" = [])),
    request_body = GcpRemoveRequest,
    responses(
        (status = 200, body = Deleted),
        (status = 403, description = "Only account owners and admins can manage cloud accounts; Cloud accounts cannot be changed in the demo", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id))]
pub async fn remove(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
    ApiJson(body): ApiJson<GcpRemoveRequest>,
) -> Result<Json<Deleted>, ApiError> {
    require_manager(&state, &caller).await?;
    let id = body.account_id.trim();
    let deleted = if id.is_empty() {
        0
    } else {
        state
            .store
            .delete_connections(caller.customer_id, "gcp", &[id.to_owned()])
            .await?
    };
    Ok(Json(Deleted { deleted }))
}
