//! What the cloud account routes answer: a connection's export, registration check and sync,
//! never its secret.

use chrono::{DateTime, Duration, Utc};
use costscope_connectors::settings::{
    AwsExportSettings, AzureExportSettings, AzureStorageAuth, GcpExportSettings,
};
use costscope_store::CloudConnection;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

/// The AWS export format a registration chose (kept beside the settings as `format`).
pub const FORMAT_KEY: &str = "format";
/// What a GCP connection's `subscription_id` is kept as beside its settings.
pub const SUBSCRIPTION_KEY: &str = "subscription_id";
/// The formats an AWS Data Export can deliver in.
pub const AWS_FORMATS: [&str; 2] = ["focus-1.2", "cur-2.0"];
pub const GCP_FORMAT: &str = "bigquery-billing-export";
pub const AZURE_FORMAT: &str = "cost-management-export";

/// Where a connection's billing export is read from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ExportDto {
    /// `s3://bucket/prefix/export`, `project.dataset.table`, or the Azure blob directory URL.
    pub location: String,
    /// `focus-1.2` or `cur-2.0` (AWS), `bigquery-billing-export` (GCP),
    /// `cost-management-export` (Azure).
    pub format: String,
}

/// The registration check (spec 2 §3 registration job).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct RegistrationDto {
    /// 1 in progress, 6 succeeded, 7 failed.
    #[serde(rename = "State")]
    pub state: i32,
    /// What was found, or why it failed, in words a person can act on.
    pub details: Option<String>,
    pub started_at: DateTime<Utc>,
    pub finished_at: Option<DateTime<Utc>>,
}

/// The sync of a connection; every field null for one that has nothing to sync.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, ToSchema)]
pub struct SyncDto {
    /// `running`, `succeeded`, `failed`; null: never synced.
    pub state: Option<String>,
    pub last_started_at: Option<DateTime<Utc>>,
    pub last_finished_at: Option<DateTime<Utc>>,
    /// Why the last sync failed.
    pub last_error: Option<String>,
    /// What the last sync did.
    pub last_details: Option<String>,
    /// When "Sync now" was pressed, until a sync starts.
    pub requested_at: Option<DateTime<Utc>>,
    /// When the next sync is due (null: none planned, e.g. while one runs).
    pub next_sync_at: Option<DateTime<Utc>>,
}

/// Whether the connection has export settings to sync from.
pub fn has_export(connection: &CloudConnection) -> bool {
    connection.parent_id.is_none()
        && connection
            .settings
            .as_object()
            .is_some_and(|settings| !settings.is_empty())
}

pub fn registration(connection: &CloudConnection) -> Option<RegistrationDto> {
    connection
        .registration
        .as_ref()
        .map(|check| RegistrationDto {
            state: check.state,
            details: check.details.clone(),
            started_at: check.started_at,
            finished_at: check.finished_at,
        })
}

/// The sync figures; `interval_hours` 0: no schedule.
pub fn sync(connection: &CloudConnection, interval_hours: u32) -> SyncDto {
    let status = &connection.sync;
    let running = status.state == Some(costscope_store::SyncState::Running);
    let next_sync_at = if !has_export(connection) || running {
        None
    } else if let Some(requested) = status.requested_at {
        Some(requested)
    } else if interval_hours == 0 {
        None
    } else {
        match status.started_at {
            Some(started) => Some(started + Duration::hours(i64::from(interval_hours))),
            // Never synced: due now (from when it was connected).
            None => Some(connection.created_at),
        }
    };
    SyncDto {
        state: status.state.map(|state| state.as_str().to_owned()),
        last_started_at: status.started_at,
        last_finished_at: status.finished_at,
        last_error: status.error.clone(),
        last_details: status.details.clone(),
        requested_at: status.requested_at,
        next_sync_at,
    }
}

fn setting<T: serde::de::DeserializeOwned>(connection: &CloudConnection) -> Option<T> {
    if !has_export(connection) {
        return None;
    }
    serde_json::from_value(connection.settings.clone()).ok()
}

fn extra(connection: &CloudConnection, key: &str) -> Option<String> {
    connection
        .settings
        .get(key)
        .and_then(Value::as_str)
        .map(str::to_owned)
}

pub fn aws_settings(connection: &CloudConnection) -> Option<AwsExportSettings> {
    (connection.provider == "aws")
        .then(|| setting(connection))
        .flatten()
}

pub fn gcp_settings(connection: &CloudConnection) -> Option<GcpExportSettings> {
    (connection.provider == "gcp")
        .then(|| setting(connection))
        .flatten()
}

pub fn azure_settings(connection: &CloudConnection) -> Option<AzureExportSettings> {
    (connection.provider == "azure")
        .then(|| setting(connection))
        .flatten()
}

/// `s3://bucket/prefix/export` (no empty segment).
pub fn s3_location(settings: &AwsExportSettings) -> String {
    let mut location = format!("s3://{}", settings.bucket);
    for part in [
        settings.prefix.trim_matches('/'),
        settings.export_name.as_str(),
    ] {
        if !part.is_empty() {
            location.push('/');
            location.push_str(part);
        }
    }
    location
}

/// The blob endpoint of an Azure export, without a trailing slash.
pub fn azure_endpoint(settings: &AzureExportSettings) -> String {
    settings.blob_endpoint.as_deref().map_or_else(
        || format!("https://{}.blob.core.windows.net", settings.storage_account),
        |endpoint| endpoint.trim_end_matches('/').to_owned(),
    )
}

pub fn azure_location(settings: &AzureExportSettings) -> String {
    let mut location = format!("{}/{}", azure_endpoint(settings), settings.container);
    if !settings.directory.is_empty() {
        location.push('/');
        location.push_str(&settings.directory);
    }
    location
}

pub fn export(connection: &CloudConnection) -> Option<ExportDto> {
    match connection.provider.as_str() {
        "aws" => aws_settings(connection).map(|settings| ExportDto {
            location: s3_location(&settings),
            format: extra(connection, FORMAT_KEY).unwrap_or_else(|| AWS_FORMATS[0].to_owned()),
        }),
        "gcp" => gcp_settings(connection).map(|settings| ExportDto {
            location: settings.table,
            format: GCP_FORMAT.to_owned(),
        }),
        "azure" => azure_settings(connection).map(|settings| ExportDto {
            location: azure_location(&settings),
            format: AZURE_FORMAT.to_owned(),
        }),
        _ => None,
    }
}

/// An AWS account, GCP project or Azure subscription: connected (with an `id`) or only seen in
/// the cost data (`id` null).
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct CloudAccount {
    /// Null for an account known only from the cost data.
    pub id: Option<i64>,
    /// `aws`, `gcp` or `azure`.
    pub provider: String,
    /// The AWS account id, GCP project id or Azure subscription id.
    pub account_id: String,
    /// The AWS account id for AWS accounts, else null.
    pub aws_account_id: Option<String>,
    pub account_name: String,
    /// When it was connected (the "Getting Your Data Ready" age counts from it); for an
    /// account seen only in the cost data, its earliest charge.
    pub creation_time: DateTime<Utc>,
    /// The role Costscope assumes (AWS connections).
    pub iam_role_arn: Option<String>,
    pub customer_id: i64,
    /// The AWS organisation (`r-…`) an organisation connection was registered for.
    pub organization_id: Option<String>,
    /// The organisation connection a member account is listed under.
    pub parent_id: Option<i64>,
    /// False for an account seen only in the cost data.
    pub connected: bool,
    /// Where the billing export is read from; null when there is none.
    pub export: Option<ExportDto>,
    pub registration: Option<RegistrationDto>,
    pub sync: SyncDto,
}

impl CloudAccount {
    pub fn from_connection(connection: &CloudConnection, interval_hours: u32) -> Self {
        let aws = connection.provider == "aws";
        Self {
            id: Some(connection.id),
            provider: connection.provider.clone(),
            account_id: connection.account_id.clone(),
            aws_account_id: aws.then(|| connection.account_id.clone()),
            account_name: connection.account_name.clone(),
            creation_time: crate::onboarding::data_ready_since(connection),
            iam_role_arn: aws_settings(connection).map(|settings| settings.role_arn),
            customer_id: connection.customer_id,
            organization_id: connection.organization_id.clone(),
            parent_id: connection.parent_id,
            connected: true,
            export: export(connection),
            registration: registration(connection),
            sync: sync(connection, interval_hours),
        }
    }
}

/// A connected GCP project (spec 2 §3 GCP project, with the export and its state).
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct GcpAccount {
    pub id: i64,
    /// The project id.
    pub account_id: String,
    pub account_name: String,
    pub created_at: DateTime<Utc>,
    /// As given at connection (e.g. the billing account id); may be empty.
    pub subscription_id: String,
    /// `project.dataset.table` of the Cloud Billing export.
    pub billing_table: String,
    /// The project BigQuery jobs run in, when not the project itself.
    pub billing_project_id: Option<String>,
    pub registration: Option<RegistrationDto>,
    pub sync: SyncDto,
}

impl GcpAccount {
    pub fn from_connection(connection: &CloudConnection, interval_hours: u32) -> Self {
        let settings = gcp_settings(connection);
        Self {
            id: connection.id,
            account_id: connection.account_id.clone(),
            account_name: connection.account_name.clone(),
            created_at: connection.created_at,
            subscription_id: extra(connection, SUBSCRIPTION_KEY).unwrap_or_default(),
            billing_table: settings
                .as_ref()
                .map(|settings| settings.table.clone())
                .unwrap_or_default(),
            billing_project_id: settings.and_then(|settings| settings.billing_project_id),
            registration: registration(connection),
            sync: sync(connection, interval_hours),
        }
    }
}

/// How an Azure connection signs in to the storage account.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum AzureAuthKind {
    Sas,
    ServicePrincipal,
}

/// A connected Azure Cost Management export.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct AzureAccount {
    pub id: i64,
    /// The subscription id.
    pub account_id: String,
    pub account_name: String,
    pub created_at: DateTime<Utc>,
    pub storage_account: String,
    pub container: String,
    /// Empty for the container's root.
    pub directory: String,
    pub auth: AzureAuthKind,
    /// The service principal's tenant (null with a SAS token).
    pub tenant_id: Option<String>,
    /// The service principal's client id (null with a SAS token).
    pub client_id: Option<String>,
    /// The blob endpoint when not `https://<storage_account>.blob.core.windows.net`.
    pub blob_endpoint: Option<String>,
    pub registration: Option<RegistrationDto>,
    pub sync: SyncDto,
}

impl AzureAccount {
    pub fn from_connection(connection: &CloudConnection, interval_hours: u32) -> Self {
        let settings = azure_settings(connection);
        let (auth, tenant_id, client_id) = match settings.as_ref().map(|s| &s.auth) {
            Some(AzureStorageAuth::Sas) | None => (AzureAuthKind::Sas, None, None),
            Some(AzureStorageAuth::ServicePrincipal {
                tenant_id,
                client_id,
            }) => (
                AzureAuthKind::ServicePrincipal,
                Some(tenant_id.clone()),
                Some(client_id.clone()),
            ),
        };
        Self {
            id: connection.id,
            account_id: connection.account_id.clone(),
            account_name: connection.account_name.clone(),
            created_at: connection.created_at,
            storage_account: settings
                .as_ref()
                .map(|s| s.storage_account.clone())
                .unwrap_or_default(),
            container: settings
                .as_ref()
                .map(|s| s.container.clone())
                .unwrap_or_default(),
            directory: settings
                .as_ref()
                .map(|s| s.directory.clone())
                .unwrap_or_default(),
            auth,
            tenant_id,
            client_id,
            blob_endpoint: settings.and_then(|s| s.blob_endpoint),
            registration: registration(connection),
            sync: sync(connection, interval_hours),
        }
    }
}

/// `{deleted: n}`.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct Deleted {
    pub deleted: u64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;
    use costscope_store::{SyncState, SyncStatus};
    use serde_json::json;

    fn connection(settings: Value) -> CloudConnection {
        CloudConnection {
            id: 3,
            customer_id: 1,
            provider: "aws".to_owned(),
            account_id: "123456789012".to_owned(),
            account_name: "Prod".to_owned(),
            organization_id: None,
            parent_id: None,
            settings,
            has_secret: false,
            created_by_user_id: None,
            created_at: Utc.with_ymd_and_hms(2026, 11, 23, 10, 0, 0).unwrap(),
            registration: None,
            sync: SyncStatus::default(),
        }
    }

    fn aws_settings_json(prefix: &str) -> Value {
        json!({"role_arn": "arn:aws:iam::123456789012:role/CostscopeReadOnly",
               "external_id": "ext", "bucket": "b", "prefix": prefix,
               "export_name": "costscope-focus", "region": "us-east-1", "format": "cur-2.0"})
    }

    #[test]
    fn the_export_location_has_no_empty_segment_and_keeps_the_format() {
        let with_prefix = connection(aws_settings_json("costscope"));
        let export = export(&with_prefix).unwrap();
        assert_eq!(export.location, "s3://b/costscope/costscope-focus");
        assert_eq!(export.format, "cur-2.0");
        let without = connection(aws_settings_json(""));
        assert_eq!(export_location(&without), "s3://b/costscope-focus");
        assert_eq!(super::export(&connection(json!({}))), None);
    }

    fn export_location(connection: &CloudConnection) -> String {
        export(connection).unwrap().location
    }

    #[test]
    fn the_next_sync_follows_the_request_the_schedule_or_nothing() {
        let mut synced = connection(aws_settings_json("p"));
        assert_eq!(sync(&synced, 6).next_sync_at, Some(synced.created_at));
        let started = Utc.with_ymd_and_hms(2026, 11, 23, 12, 0, 0).unwrap();
        synced.sync = SyncStatus {
            state: Some(SyncState::Succeeded),
            started_at: Some(started),
            ..SyncStatus::default()
        };
        assert_eq!(
            sync(&synced, 6).next_sync_at,
            Some(started + Duration::hours(6))
        );
        assert_eq!(sync(&synced, 0).next_sync_at, None);
        synced.sync.requested_at = Some(started + Duration::minutes(1));
        assert_eq!(sync(&synced, 0).next_sync_at, synced.sync.requested_at);
        synced.sync.state = Some(SyncState::Running);
        assert_eq!(sync(&synced, 6).next_sync_at, None);
        assert_eq!(sync(&connection(json!({})), 6), SyncDto::default());
    }
}
