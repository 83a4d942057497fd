//! Azure (beyond spec 2's "coming soon"): connecting a Cost Management export in a storage
//! account, read with a SAS token or a service principal (its secret stored encrypted).

use axum::extract::State;
use axum::http::{StatusCode, Uri};
use axum::Json;
use costscope_connectors::settings::{AzureExportSettings, AzureStorageAuth};
use costscope_core::cloud_accounts::{
    custom_endpoint_refusal, AccountName, AzureClientId, AzureContainer, AzureDirectory,
    AzureStorageAccount, AzureSubscriptionId, AzureTenantId,
};
use costscope_core::FieldError;
use costscope_store::NewCloudConnection;
use serde::Deserialize;
use utoipa::ToSchema;

use super::dto::{AzureAccount, AzureAuthKind, Deleted};
use super::{check, create_connection, fail_on, field_error, require_manager, reread};
use crate::cloud::registration;
use crate::http::error::{ApiError, ErrorBody};
use crate::http::extract::{ApiJson, AuthUser};
use crate::state::AppState;

pub const AUTH_MESSAGE: &str = "Authentication must be sas or service_principal";
pub const SAS_REQUIRED: &str = "SAS token is required";
pub const SAS_INVALID: &str =
    "SAS token must be a shared access signature query string (sv=…&sig=…)";
pub const CLIENT_SECRET_REQUIRED: &str = "Client secret is required";
pub const SECRET_INVALID: &str = "Client secret must not contain spaces or control characters";
pub const ENDPOINT_INVALID: &str =
    "Blob endpoint must be an http or https URL such as https://account.blob.core.windows.net";
/// The longest SAS token or client secret taken.
const MAX_SECRET_CHARS: usize = 4096;

#[derive(Default, Deserialize, ToSchema)]
pub struct AzureConnectRequest {
    /// The subscription id (a GUID).
    #[serde(default)]
    #[schema(required = true)]
    pub account_id: String,
    #[serde(default)]
    #[schema(required = true)]
    pub account_name: String,
    #[serde(default)]
    #[schema(required = true)]
    pub storage_account: String,
    #[serde(default)]
    #[schema(required = true)]
    pub container: String,
    /// The export's root directory in the container; empty for its root.
    #[serde(default)]
    pub directory: String,
    /// `sas` or `service_principal`.
    #[serde(default)]
    #[schema(required = true)]
    pub auth: String,
    /// With `auth` `sas`: the SAS token (read and list). Stored encrypted, never answered.
    pub sas_token: Option<String>,
    /// With `auth` `service_principal`.
    pub tenant_id: Option<String>,
    pub client_id: Option<String>,
    /// Stored encrypted, never answered.
    pub client_secret: Option<String>,
    /// When not `https://<storage_account>.blob.core.windows.net`.
    pub blob_endpoint: Option<String>,
}

/// Never prints the SAS token or the client secret.
impl std::fmt::Debug for AzureConnectRequest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let redacted = |value: &Option<String>| value.as_ref().map(|_| "[redacted]");
        f.debug_struct("AzureConnectRequest")
            .field("account_id", &self.account_id)
            .field("account_name", &self.account_name)
            .field("storage_account", &self.storage_account)
            .field("container", &self.container)
            .field("directory", &self.directory)
            .field("auth", &self.auth)
            .field("sas_token", &redacted(&self.sas_token))
            .field("tenant_id", &self.tenant_id)
            .field("client_id", &self.client_id)
            .field("client_secret", &redacted(&self.client_secret))
            .field("blob_endpoint", &self.blob_endpoint)
            .finish()
    }
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct AzureRemoveRequest {
    /// The subscription id.
    #[serde(default)]
    #[schema(required = true)]
    pub account_id: String,
}

/// A SAS token as pasted (a leading `?` dropped), or why not.
fn sas_token(input: Option<&str>) -> Result<String, FieldError> {
    let token = input.unwrap_or_default().trim();
    let token = token.strip_prefix('?').unwrap_or(token);
    if token.is_empty() {
        return Err(field_error("sas_token", SAS_REQUIRED));
    }
    let has_signature = token
        .split('&')
        .any(|pair| pair.strip_prefix("sig=").is_some_and(|sig| !sig.is_empty()));
    let clean =
        token.chars().count() <= MAX_SECRET_CHARS && token.chars().all(|c| c.is_ascii_graphic());
    if has_signature && clean {
        Ok(token.to_owned())
    } else {
        Err(field_error("sas_token", SAS_INVALID))
    }
}

fn client_secret(input: Option<&str>) -> Result<String, FieldError> {
    let secret = input.unwrap_or_default().trim();
    if secret.is_empty() {
        return Err(field_error("client_secret", CLIENT_SECRET_REQUIRED));
    }
    if secret.chars().count() > MAX_SECRET_CHARS || !secret.chars().all(|c| c.is_ascii_graphic()) {
        return Err(field_error("client_secret", SECRET_INVALID));
    }
    Ok(secret.to_owned())
}

fn blob_endpoint(input: &str) -> Result<String, FieldError> {
    let endpoint = input.trim().trim_end_matches('/');
    let ok = endpoint.len() <= 2048
        && endpoint.parse::<Uri>().is_ok_and(|uri| {
            matches!(uri.scheme_str(), Some("http" | "https"))
                && uri.authority().is_some()
                && uri.query().is_none()
        });
    if ok {
        Ok(endpoint.to_owned())
    } else {
        Err(field_error("blob_endpoint", ENDPOINT_INVALID))
    }
}

/// The customer's Azure exports.
#[utoipa::path(get, path = "/v1/azure/account", operation_id = "list_azure_accounts", tag = "accounts", security(("bearer" = [])), responses(
    (status = 200, body = [AzureAccount]),
    (status = 401, description = "Authentication required", body = ErrorBody),
))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id))]
pub async fn list(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
) -> Result<Json<Vec<AzureAccount>>, ApiError> {
    let interval = state.config.cloud.sync_interval_hours;
    Ok(Json(
        state
            .store
            .list_connections(caller.customer_id)
            .await?
            .iter()
            .filter(|connection| connection.provider == "azure")
            .map(|connection| AzureAccount::from_connection(connection, interval))
            .collect(),
    ))
}

/// Connect an Azure Cost Management export; its SAS token or client secret is stored
/// encrypted and a check (the export's directory listed) starts.
#[utoipa::path(post, path = "/v1/azure/account", operation_id = "connect_azure_accounts", tag = "accounts", security(("bearer" = [])),
    request_body = AzureConnectRequest,
    responses(
        (status = 201, body = AzureAccount),
        (status = 403, description = "Only account owners and admins can manage cloud accounts; Cloud accounts cannot be changed in the demo", body = ErrorBody),
        (status = 409, description = "Azure subscription {id} is already connected", body = ErrorBody),
        (status = 422, description = "A field is not valid (the message names it)", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id))]
pub async fn connect(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
    ApiJson(body): ApiJson<AzureConnectRequest>,
) -> Result<(StatusCode, Json<AzureAccount>), ApiError> {
    require_manager(&state, &caller).await?;
    let mut errors = Vec::new();
    let subscription = check(&mut errors, AzureSubscriptionId::parse(&body.account_id));
    let name = check(&mut errors, AccountName::parse(&body.account_name));
    let storage_account = check(
        &mut errors,
        AzureStorageAccount::parse(&body.storage_account),
    );
    let container = check(&mut errors, AzureContainer::parse(&body.container));
    let directory = check(&mut errors, AzureDirectory::parse(&body.directory));
    let endpoint = body
        .blob_endpoint
        .as_deref()
        .filter(|endpoint| !endpoint.trim().is_empty())
        .map(|endpoint| check(&mut errors, blob_endpoint(endpoint)));
    if let Some(refusal) = custom_endpoint_refusal(
        None,
        body.blob_endpoint
            .as_deref()
            .filter(|e| !e.trim().is_empty()),
        state.config.cloud.allow_custom_endpoints,
    ) {
        errors.push(field_error("blob_endpoint", refusal));
    }
    let auth = match body.auth.trim() {
        "sas" => Some(AzureAuthKind::Sas),
        "service_principal" => Some(AzureAuthKind::ServicePrincipal),
        _ => None,
    };
    let credentials = match auth {
        Some(AzureAuthKind::Sas) => check(&mut errors, sas_token(body.sas_token.as_deref()))
            .map(|sas| (AzureStorageAuth::Sas, sas)),
        Some(AzureAuthKind::ServicePrincipal) => {
            let tenant = check(
                &mut errors,
                AzureTenantId::parse(body.tenant_id.as_deref().unwrap_or_default()),
            );
            let client = check(
                &mut errors,
                AzureClientId::parse(body.client_id.as_deref().unwrap_or_default()),
            );
            let secret = check(&mut errors, client_secret(body.client_secret.as_deref()));
            match (tenant, client, secret) {
                (Some(tenant), Some(client), Some(secret)) => Some((
                    AzureStorageAuth::ServicePrincipal {
                        tenant_id: tenant.into_string(),
                        client_id: client.into_string(),
                    },
                    secret,
                )),
                _ => None,
            }
        }
        None => {
            errors.push(field_error("auth", AUTH_MESSAGE));
            None
        }
    };
    fail_on(errors)?;
    let (
        Some(subscription),
        Some(name),
        Some(storage_account),
        Some(container),
        Some(directory),
        Some((auth, secret)),
    ) = (
        subscription,
        name,
        storage_account,
        container,
        directory,
        credentials,
    )
    else {
        unreachable!("every failed check is in the answer");
    };
    let settings = serde_json::to_value(AzureExportSettings {
        storage_account: storage_account.into_string(),
        container: container.into_string(),
        directory: directory.into_string(),
        auth,
        blob_endpoint: endpoint.flatten(),
    })
    .map_err(anyhow::Error::from)?;
    let encrypted = state.secrets.encrypt(&secret);
    let created = create_connection(
        &state,
        NewCloudConnection {
            customer_id: caller.customer_id,
            provider: "azure",
            account_id: subscription.as_str(),
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
    .ok_or_else(|| {
        ApiError::Conflict(format!(
            "Azure subscription {subscription} is already connected"
        ))
    })?;
    registration::start(&state, &created).await?;
    let connection = reread(&state, created).await?;
    Ok((
        StatusCode::CREATED,
        Json(AzureAccount::from_connection(
            &connection,
            state.config.cloud.sync_interval_hours,
        )),
    ))
}

/// Remove an Azure connection; the loaded cost data stays.
#[utoipa::path(delete, path = "/v1/azure/account", operation_id = "remove_azure_accounts", tag = "accounts", security(("bearer" = [])),
    request_body = AzureRemoveRequest,
    responses(
        (status = 200, body = Deleted),
        (status = 403, description = "Only account owners and admins can manage cloud accounts; Cloud accounts cannot be changed in the demo", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id))]
pub async fn remove(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
    ApiJson(body): ApiJson<AzureRemoveRequest>,
) -> Result<Json<Deleted>, ApiError> {
    require_manager(&state, &caller).await?;
    let id = body.account_id.trim().to_ascii_lowercase();
    let deleted = if id.is_empty() {
        0
    } else {
        state
            .store
            .delete_connections(caller.customer_id, "azure", &[id])
            .await?
    };
    Ok(Json(Deleted { deleted }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sas_tokens_need_a_signature_and_lose_the_question_mark() {
        assert_eq!(
            sas_token(Some(" ?sv=2022-11-02&ss=b&sig=abc%3D ")).unwrap(),
            "sv=2022-11-02&ss=b&sig=abc%3D"
        );
        assert_eq!(sas_token(None).unwrap_err().message, SAS_REQUIRED);
        assert_eq!(sas_token(Some("  ")).unwrap_err().message, SAS_REQUIRED);
        for bad in ["sv=2022-11-02", "sv=1&sig=", "sv=1&sig=a b"] {
            assert_eq!(
                sas_token(Some(bad)).unwrap_err().message,
                SAS_INVALID,
                "{bad}"
            );
        }
    }

    #[test]
    fn blob_endpoints_are_http_urls() {
        assert_eq!(
            blob_endpoint("http://127.0.0.1:10000/devstoreaccount1/").unwrap(),
            "http://127.0.0.1:10000/devstoreaccount1"
        );
        for bad in ["ftp://x", "not a url", "https://", "https://a/b?sig=1"] {
            assert_eq!(
                blob_endpoint(bad).unwrap_err().message,
                ENDPOINT_INVALID,
                "{bad}"
            );
        }
        assert_eq!(
            client_secret(Some("a b")).unwrap_err().message,
            SECRET_INVALID
        );
    }
}
