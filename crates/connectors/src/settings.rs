//! The settings of a cloud connection, as the server stores them (JSON in the metadata store,
//! never a secret) and as the connectors read them. Secrets (a GCP service-account key, an
//! Azure SAS token or client secret) travel separately and are stored encrypted.

use serde::{Deserialize, Serialize};

/// How Costscope reaches an AWS account's billing export: assume `role_arn` with
/// `external_id`, then read `s3://bucket/prefix/export_name/…` in `region`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AwsExportSettings {
    pub role_arn: String,
    /// The tenant's external id: every AssumeRole call carries it.
    pub external_id: String,
    pub bucket: String,
    /// Without leading or trailing `/`; may be empty.
    pub prefix: String,
    /// The Data Export's name (or the legacy CUR report's name).
    pub export_name: String,
    pub region: String,
}

/// Which table of the Cloud Billing export a GCP connection reads, and as which project.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GcpExportSettings {
    /// The project the connection is for (what the user typed; also the project BigQuery
    /// jobs run in unless `billing_project_id` says otherwise).
    pub project_id: String,
    /// `project.dataset.table` of the standard or detailed usage cost export
    /// (`gcp_billing_export_v1_…` or `gcp_billing_export_resource_v1_…`).
    pub table: String,
    /// The project BigQuery query jobs run in (and bill to); `None`: `project_id`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub billing_project_id: Option<String>,
}

/// How an Azure connection authenticates to the storage account.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum AzureStorageAuth {
    /// A SAS token (the secret) with read and list permissions on the container.
    Sas,
    /// A service principal (client id + secret, the secret stored encrypted) of `tenant_id`
    /// with the Storage Blob Data Reader role.
    ServicePrincipal {
        tenant_id: String,
        client_id: String,
    },
}

/// Where an Azure Cost Management export lands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AzureExportSettings {
    pub storage_account: String,
    pub container: String,
    /// The export's root directory in the container, without leading or trailing `/`.
    pub directory: String,
    pub auth: AzureStorageAuth,
    /// The blob endpoint; `None`: `https://<storage_account>.blob.core.windows.net`.
    /// (Azurite in tests: `http://127.0.0.1:<port>/<storage_account>`.)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blob_endpoint: Option<String>,
}
