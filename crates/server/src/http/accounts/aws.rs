//! AWS (spec 2 §5 AWS, §7 AWS accounts): registering an account or organisation, the
//! onboarding template, the registration job and removal.

use axum::extract::{Query, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::Json;
use costscope_connectors::settings::AwsExportSettings;
use costscope_core::aws_onboarding::{
    render, stack_set_commands as commands, DeploymentTarget, ExportFormat, TemplateParams,
};
use costscope_core::cloud_accounts::{
    AccountName, AwsAccountId, AwsExportName, AwsExternalId, AwsOrganizationId, AwsRegion,
    AwsRoleArn, OrganizationName, S3BucketName, S3ExportPrefix,
};
use costscope_core::FieldError;
use costscope_store::{CloudConnection, NewCloudConnection, REGISTRATION_RUNNING};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};

use super::dto::{self, Deleted, FORMAT_KEY};
use super::{
    check, create_connection, fail_on, require_manager, reread, CONNECTION_NOT_FOUND,
    MANAGERS_ONLY, MAX_IDS_PER_DELETE,
};
use crate::cloud::registration;
use crate::http::error::{ApiError, ErrorBody};
use crate::http::extract::{require_admin_level, ApiJson, AuthUser};
use crate::state::AppState;

/// Spec 2 §7: register a single account (`aws_account_id`, `account_name`) or an organisation
/// (`organization_id`, `organization_name`, with `aws_account_id` its management account).
/// The optional fields are for exports set up by hand; left out, they are what the onboarding
/// template creates.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct RegisterRequest {
    #[serde(default)]
    #[schema(required = true)]
    pub aws_account_id: String,
    /// Required for a single account; for an organisation, defaults to its name.
    #[serde(default)]
    pub account_name: String,
    pub organization_id: Option<String>,
    pub organization_name: Option<String>,
    /// Default `arn:aws:iam::<account>:role/CostscopeReadOnly`.
    pub iam_role_arn: Option<String>,
    /// Default: the tenant's external id.
    pub external_id: Option<String>,
    /// Default `costscope-exports-<account>`.
    pub export_bucket: Option<String>,
    /// Default `costscope`.
    pub export_prefix: Option<String>,
    /// Default `costscope-focus` (`costscope-cur2` for CUR 2.0).
    pub export_name: Option<String>,
    /// Default `us-east-1`.
    pub export_region: Option<String>,
    /// `focus-1.2` (default) or `cur-2.0`.
    pub export_format: Option<String>,
}

/// Spec 2 §3 registration response, with the connection's id and the external id its role
/// must demand.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct RegisterResponse {
    #[serde(rename = "Status")]
    pub status: String,
    pub details: String,
    #[serde(rename = "accountNumber")]
    pub account_number: String,
    #[serde(rename = "OrgId")]
    pub org_id: Option<String>,
    /// The onboarding template to deploy.
    #[serde(rename = "URL")]
    pub url: String,
    /// `aws cloudformation create-stack-set …` and `aws cloudformation create-stack-instances …`.
    #[serde(rename = "StackSetCmds")]
    pub stack_set_cmds: Vec<String>,
    pub id: i64,
    pub external_id: String,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct RegistrationJobRequest {
    /// The AWS account id of the connection.
    #[serde(default)]
    #[schema(required = true)]
    pub account_id: String,
    /// Start a new check unless one is running.
    #[serde(default)]
    pub restart: bool,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct RegistrationJobResponse {
    /// 1 in progress, 6 succeeded, 7 failed.
    #[serde(rename = "State")]
    pub state: i32,
    pub details: String,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct DeleteAccountsRequest {
    #[serde(default)]
    #[schema(required = true)]
    pub account_ids: Vec<String>,
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct TemplateQuery {
    /// `focus-1.2` (default) or `cur-2.0`.
    pub format: Option<String>,
}

/// The export format named by `input` (`None`: the default).
fn export_format(input: Option<&str>) -> Result<ExportFormat, FieldError> {
    match input.map(str::trim).filter(|format| !format.is_empty()) {
        None => Ok(ExportFormat::default()),
        Some(format) => ExportFormat::parse(format),
    }
}

/// A value given and not blank.
fn given(value: &Option<String>) -> Option<&str> {
    value.as_deref().filter(|value| !value.trim().is_empty())
}

/// The checked registration.
struct Registration {
    account: AwsAccountId,
    name: String,
    organization_id: Option<String>,
    role_arn: String,
    external_id: Option<String>,
    bucket: String,
    prefix: String,
    export_name: String,
    region: String,
    format: ExportFormat,
}

fn validate(body: &RegisterRequest) -> Result<Registration, ApiError> {
    let mut errors = Vec::new();
    let account = check(&mut errors, AwsAccountId::parse(&body.aws_account_id));
    let organisation =
        given(&body.organization_id).is_some() || given(&body.organization_name).is_some();
    let (name, organization_id) = if organisation {
        let id = check(
            &mut errors,
            AwsOrganizationId::parse(body.organization_id.as_deref().unwrap_or_default()),
        );
        let org_name = check(
            &mut errors,
            OrganizationName::parse(body.organization_name.as_deref().unwrap_or_default()),
        );
        let name = if body.account_name.trim().is_empty() {
            org_name.map(OrganizationName::into_string)
        } else {
            check(&mut errors, AccountName::parse(&body.account_name)).map(AccountName::into_string)
        };
        (name, id.map(AwsOrganizationId::into_string))
    } else {
        let name = check(&mut errors, AccountName::parse(&body.account_name));
        (name.map(AccountName::into_string), None)
    };
    let format = check(&mut errors, export_format(body.export_format.as_deref()));
    let role_arn = given(&body.iam_role_arn)
        .map(|arn| check(&mut errors, AwsRoleArn::parse(arn)).map(AwsRoleArn::into_string));
    let external_id = given(&body.external_id)
        .map(|id| check(&mut errors, AwsExternalId::parse(id)).map(AwsExternalId::into_string));
    let bucket = given(&body.export_bucket).map(|bucket| {
        check(&mut errors, S3BucketName::parse(bucket)).map(S3BucketName::into_string)
    });
    let prefix = body.export_prefix.as_deref().map(|prefix| {
        check(&mut errors, S3ExportPrefix::parse(prefix)).map(S3ExportPrefix::into_string)
    });
    let export_name = given(&body.export_name)
        .map(|name| check(&mut errors, AwsExportName::parse(name)).map(AwsExportName::into_string));
    let region = given(&body.export_region)
        .map(|region| check(&mut errors, AwsRegion::parse(region)).map(AwsRegion::into_string));
    fail_on(errors)?;
    let (Some(account), Some(name), Some(format)) = (account, name, format) else {
        unreachable!("every failed check is in the answer");
    };
    Ok(Registration {
        role_arn: role_arn
            .flatten()
            .unwrap_or_else(|| AwsRoleArn::default_for(&account).into_string()),
        external_id: external_id.flatten(),
        bucket: bucket
            .flatten()
            .unwrap_or_else(|| S3BucketName::default_for(&account).into_string()),
        prefix: prefix
            .flatten()
            .unwrap_or_else(|| S3ExportPrefix::default_prefix().into_string()),
        export_name: export_name
            .flatten()
            .unwrap_or_else(|| AwsExportName::default_for(format).into_string()),
        region: region
            .flatten()
            .unwrap_or_else(|| AwsRegion::us_east_1().into_string()),
        account,
        name,
        organization_id,
        format,
    })
}

/// The tenant's external id (made on first use).
pub async fn tenant_external_id(state: &AppState, customer_id: i64) -> Result<String, ApiError> {
    let token = crate::auth::tokens::random_token();
    let candidate = format!("costscope-{customer_id}-{}", &token[..24]);
    Ok(state.store.aws_external_id(customer_id, &candidate).await?)
}

/// Register an AWS account or organisation (idempotent: registering a connected account again
/// updates its name and export settings) and start its registration check.
#[utoipa::path(post, path = "/v1/register", tag = "accounts", security(("bearer" = [])),
    request_body = RegisterRequest,
    responses(
        (status = 200, body = RegisterResponse),
        (status = 403, description = "Only account owners and admins can manage cloud accounts; Cloud accounts cannot be changed in the demo", body = ErrorBody),
        (status = 409, description = "The AWS account is listed under another organisation of this customer", body = ErrorBody),
        (status = 422, description = "AWS Account ID must be exactly 12 digits; Organization ID must follow the format: r-[0-9a-z]{4,32}; Account name must be longer than 2 characters; …", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id))]
pub async fn register(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
    ApiJson(body): ApiJson<RegisterRequest>,
) -> Result<Json<RegisterResponse>, ApiError> {
    require_manager(&state, &caller).await?;
    let registration = validate(&body)?;
    let external_id = match &registration.external_id {
        Some(id) => id.clone(),
        None => tenant_external_id(&state, caller.customer_id).await?,
    };
    let mut settings = serde_json::to_value(AwsExportSettings {
        role_arn: registration.role_arn.clone(),
        external_id: external_id.clone(),
        bucket: registration.bucket.clone(),
        prefix: registration.prefix.clone(),
        export_name: registration.export_name.clone(),
        region: registration.region.clone(),
    })
    .map_err(anyhow::Error::from)?;
    settings[FORMAT_KEY] = Value::from(registration.format.as_str());
    let account_id = registration.account.as_str();
    let connection = upsert(&state, &caller, &registration, &settings).await?;
    registration::start(&state, &connection).await?;
    let location = dto::s3_location(&aws_settings_of(&settings));
    let details = match &registration.organization_id {
        Some(org) => format!(
            "Organization {org} registered with management account {account_id}; checking \
             access to {location} and listing the member accounts"
        ),
        None => format!("Account {account_id} registered; checking access to {location}"),
    };
    Ok(Json(RegisterResponse {
        status: "success".to_owned(),
        details,
        account_number: account_id.to_owned(),
        org_id: registration.organization_id.clone(),
        url: template_url(&state, registration.format),
        stack_set_cmds: stack_set_commands(&state, &registration, &external_id),
        id: connection.id,
        external_id,
    }))
}

fn aws_settings_of(settings: &Value) -> AwsExportSettings {
    serde_json::from_value(settings.clone()).expect("settings made from AwsExportSettings")
}

/// Creates the connection, or updates the one already there (name, organisation, export).
async fn upsert(
    state: &AppState,
    caller: &costscope_core::User,
    registration: &Registration,
    settings: &Value,
) -> Result<CloudConnection, ApiError> {
    let account_id = registration.account.as_str();
    for _ in 0..2 {
        if let Some(existing) = state
            .store
            .find_connection(caller.customer_id, "aws", account_id)
            .await?
        {
            let store = &state.store;
            store
                .rename_connection(
                    caller.customer_id,
                    existing.id,
                    &registration.name,
                    registration.organization_id.as_deref(),
                )
                .await?;
            store
                .update_connection_settings(caller.customer_id, existing.id, settings, None)
                .await?;
            return store
                .get_connection(caller.customer_id, existing.id)
                .await?
                .ok_or(ApiError::NotFound(CONNECTION_NOT_FOUND));
        }
        let created = create_connection(
            state,
            NewCloudConnection {
                customer_id: caller.customer_id,
                provider: "aws",
                account_id,
                account_name: &registration.name,
                organization_id: registration.organization_id.as_deref(),
                parent_id: None,
                settings,
                encrypted_secret: None,
                created_by_user_id: Some(caller.id),
                now: state.clock.now(),
            },
        )
        .await?;
        if let Some(created) = created {
            return Ok(created);
        }
        // Registered at the same moment by someone else: update theirs.
    }
    Err(ApiError::Conflict(format!(
        "AWS account {account_id} is being registered by someone else; try again"
    )))
}

fn template_url(state: &AppState, format: ExportFormat) -> String {
    format!(
        "{}/v1/aws/onboarding-template?format={}",
        state.public_url,
        format.as_str()
    )
}

/// `create-stack-set` with the registration's export, then `create-stack-instances` in the
/// account or every account of the organisation.
fn stack_set_commands(
    state: &AppState,
    registration: &Registration,
    external_id: &str,
) -> Vec<String> {
    let params = TemplateParams {
        external_id,
        trusted_principal_arn: state.config.cloud.aws_trusted_principal.as_deref(),
        format: registration.format,
        bucket_name: Some(&registration.bucket),
        prefix: &registration.prefix,
        export_name: &registration.export_name,
    };
    let organization = registration
        .organization_id
        .as_deref()
        .and_then(|id| AwsOrganizationId::parse(id).ok());
    let target = match &organization {
        Some(root) => DeploymentTarget::Organization(root),
        None => DeploymentTarget::Account(&registration.account),
    };
    commands(&params, target).into()
}

/// The onboarding template (CloudFormation, YAML): the read-only role trusted only with the
/// tenant's external id, the daily FOCUS 1.2 (or CUR 2.0) Data Export and its bucket.
#[utoipa::path(get, path = "/v1/aws/onboarding-template", tag = "accounts", security(("bearer" = [])),
    params(TemplateQuery),
    responses(
        (status = 200, description = "costscope-onboarding.yaml", content_type = "text/yaml", body = String),
        (status = 403, description = "Only account owners and admins can manage cloud accounts", body = ErrorBody),
        (status = 422, description = "Export format must be focus-1.2 or cur-2.0", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id))]
pub async fn onboarding_template(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
    Query(query): Query<TemplateQuery>,
) -> Result<Response, ApiError> {
    require_admin_level(&caller, MANAGERS_ONLY)?;
    let format = export_format(query.format.as_deref())?;
    let external_id = tenant_external_id(&state, caller.customer_id).await?;
    let template = template_yaml(&state, format, &external_id);
    Ok((
        [
            (header::CONTENT_TYPE, "text/yaml; charset=utf-8"),
            (
                header::CONTENT_DISPOSITION,
                "attachment; filename=\"costscope-onboarding.yaml\"",
            ),
        ],
        template,
    )
        .into_response())
}

fn template_yaml(state: &AppState, format: ExportFormat, external_id: &str) -> String {
    let mut params = TemplateParams::defaults(external_id, format);
    params.trusted_principal_arn = state.config.cloud.aws_trusted_principal.as_deref();
    render(&params)
}

/// The registration check of a connected account (spec 2 §3): the running or last one, one
/// started when there is none; with `restart` a new one unless one is running.
#[utoipa::path(post, path = "/v1/account/registration/job", tag = "accounts", security(("bearer" = [])),
    request_body = RegistrationJobRequest,
    responses(
        (status = 200, body = RegistrationJobResponse),
        (status = 403, description = "Only account owners and admins can manage cloud accounts; Cloud accounts cannot be changed in the demo", body = ErrorBody),
        (status = 404, description = "Cloud account not found", body = ErrorBody),
        (status = 422, description = "AWS Account ID must be exactly 12 digits", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id))]
pub async fn registration_job(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
    ApiJson(body): ApiJson<RegistrationJobRequest>,
) -> Result<Json<RegistrationJobResponse>, ApiError> {
    require_manager(&state, &caller).await?;
    let account = AwsAccountId::parse_field("account_id", &body.account_id)?;
    let connection = state
        .store
        .find_connection(caller.customer_id, "aws", account.as_str())
        .await?
        .filter(|connection| connection.parent_id.is_none())
        .ok_or(ApiError::NotFound(CONNECTION_NOT_FOUND))?;
    let now = state.clock.now();
    let start = match &connection.registration {
        None => true,
        Some(check) if check.state == REGISTRATION_RUNNING => {
            check.started_at < now - registration::STALE_AFTER
        }
        Some(_) => body.restart,
    };
    let connection = if start {
        registration::start(&state, &connection).await?;
        reread(&state, connection).await?
    } else {
        connection
    };
    let (state_code, details) = match &connection.registration {
        Some(check) => (check.state, check.details.clone()),
        None => (REGISTRATION_RUNNING, None),
    };
    let details = details.unwrap_or_else(|| match dto::export(&connection) {
        Some(export) => format!("Checking access to {}", export.location),
        None => "Checking access".to_owned(),
    });
    Ok(Json(RegistrationJobResponse {
        state: state_code,
        details,
    }))
}

/// Remove AWS accounts (and their member accounts); the loaded cost data stays.
#[utoipa::path(delete, path = "/v1/account", tag = "accounts", security(("bearer" = [])),
    request_body = DeleteAccountsRequest,
    responses(
        (status = 200, body = Deleted),
        (status = 403, description = "Only account owners and admins can manage cloud accounts; Cloud accounts cannot be changed in the demo", body = ErrorBody),
        (status = 422, description = "At most 1000 account ids at once", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id))]
pub async fn delete_accounts(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
    ApiJson(body): ApiJson<DeleteAccountsRequest>,
) -> Result<Json<Deleted>, ApiError> {
    require_manager(&state, &caller).await?;
    if body.account_ids.len() > MAX_IDS_PER_DELETE {
        return Err(ApiError::TooMuch {
            field: "account_ids",
            message: format!("At most {MAX_IDS_PER_DELETE} account ids at once"),
        });
    }
    let ids: Vec<String> = body
        .account_ids
        .iter()
        .map(|id| id.trim().to_owned())
        .filter(|id| !id.is_empty())
        .collect();
    let deleted = if ids.is_empty() {
        0
    } else {
        state
            .store
            .delete_connections(caller.customer_id, "aws", &ids)
            .await?
    };
    Ok(Json(Deleted { deleted }))
}
