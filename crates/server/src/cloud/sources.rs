//! Building a connection's billing-export source: its settings read as the provider's settings
//! type, its secret decrypted, and the provider's connector made from them. The server uses
//! [`Connectors`]; a test may put another [`SourceFactory`] in place with
//! [`Sources::replace`] (e.g. a source whose deliveries it controls).

use std::sync::{Arc, RwLock};

use async_trait::async_trait;
use costscope_connectors::aws::{AwsExportSource, AwsSdk};
use costscope_connectors::azure::AzureExportSource;
use costscope_connectors::gcp::{GcpBillingSource, ServiceAccountKey};
use costscope_connectors::settings::{AwsExportSettings, AzureExportSettings, GcpExportSettings};
use costscope_connectors::{BillingExportSource, SourceError};
use costscope_core::cloud_accounts::custom_endpoint_refusal;
use costscope_store::CloudConnection;
use serde::de::DeserializeOwned;

use crate::config::CloudConfig;
use crate::state::AppState;

/// Makes the source a connection syncs from.
#[async_trait]
pub trait SourceFactory: Send + Sync {
    async fn source(
        &self,
        state: &AppState,
        connection: &CloudConnection,
    ) -> Result<Box<dyn BillingExportSource>, SourceError>;
}

/// The factory in use (in [`AppState::sources`]).
pub struct Sources {
    factory: RwLock<Arc<dyn SourceFactory>>,
}

impl std::fmt::Debug for Sources {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Sources(..)")
    }
}

impl Default for Sources {
    fn default() -> Self {
        Self::new(Arc::new(Connectors::default()))
    }
}

impl Sources {
    pub fn new(factory: Arc<dyn SourceFactory>) -> Self {
        Self {
            factory: RwLock::new(factory),
        }
    }

    /// Puts `factory` in place of the current one (for every later sync and check).
    pub fn replace(&self, factory: Arc<dyn SourceFactory>) {
        *self.factory.write().unwrap_or_else(|e| e.into_inner()) = factory;
    }

    fn current(&self) -> Arc<dyn SourceFactory> {
        self.factory
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }
}

/// The source of one connection, through the factory in `state.sources`.
pub async fn source_for(
    state: &AppState,
    connection: &CloudConnection,
) -> Result<Box<dyn BillingExportSource>, SourceError> {
    let factory = state.sources.current();
    factory.source(state, connection).await
}

/// The real connectors: AWS (STS + S3), GCP (BigQuery), Azure (Blob Storage).
#[derive(Default)]
pub struct Connectors {
    /// Costscope's own AWS identity, loaded on first use ([`own_aws_identity`]).
    aws: tokio::sync::OnceCell<AwsSdk>,
}

impl Connectors {
    async fn aws_sdk(&self, state: &AppState) -> &AwsSdk {
        self.aws
            .get_or_init(|| own_aws_identity(&state.config.cloud))
            .await
    }
}

/// Costscope's own AWS identity: `[cloud] aws_endpoint_url`'s emulator (static test
/// credentials), else the default credential chain and region.
pub async fn own_aws_identity(config: &CloudConfig) -> AwsSdk {
    match &config.aws_endpoint_url {
        Some(endpoint) => AwsSdk::for_endpoint(endpoint, DEFAULT_AWS_REGION),
        None => AwsSdk::from_env().await,
    }
}

/// The region of Costscope's own AWS identity with a configured endpoint (each connection's
/// S3 calls use the export's own region).
const DEFAULT_AWS_REGION: &str = "us-east-1";

#[async_trait]
impl SourceFactory for Connectors {
    async fn source(
        &self,
        state: &AppState,
        connection: &CloudConnection,
    ) -> Result<Box<dyn BillingExportSource>, SourceError> {
        match connection.provider.as_str() {
            "aws" => {
                let settings: AwsExportSettings = settings(connection)?;
                let sdk = self.aws_sdk(state).await;
                Ok(Box::new(AwsExportSource::new(sdk, settings)))
            }
            "gcp" => {
                let settings: GcpExportSettings = settings(connection)?;
                let key = secret(state, connection).await?;
                // The key's own words (never the key): which field is wrong.
                let key = ServiceAccountKey::parse(&key).map_err(|error| {
                    SourceError::new(format!(
                        "The stored service account key of GCP project {} cannot be used: \
                         {error}; connect it again with a valid key",
                        connection.account_id
                    ))
                })?;
                refuse_custom_endpoint(state, connection, Some(key.token_uri()), None)?;
                Ok(Box::new(GcpBillingSource::new(
                    settings,
                    key,
                    &state.config.cloud.bigquery_url,
                )))
            }
            "azure" => {
                let settings: AzureExportSettings = settings(connection)?;
                refuse_custom_endpoint(state, connection, None, settings.blob_endpoint.as_deref())?;
                let secret = secret(state, connection).await?;
                let source = AzureExportSource::new(
                    settings,
                    secret,
                    &state.config.cloud.azure_authority_url,
                )?;
                Ok(Box::new(source))
            }
            other => Err(SourceError::new(format!(
                "Unknown cloud provider {other:?}"
            ))),
        }
    }
}

/// A connection stored while custom endpoints were allowed is not read once they are not.
fn refuse_custom_endpoint(
    state: &AppState,
    connection: &CloudConnection,
    token_uri: Option<&str>,
    blob_endpoint: Option<&str>,
) -> Result<(), SourceError> {
    match custom_endpoint_refusal(
        token_uri,
        blob_endpoint,
        state.config.cloud.allow_custom_endpoints,
    ) {
        Some(refusal) => Err(SourceError::new(format!(
            "The {} connection {} cannot be read: {refusal}",
            provider_name(&connection.provider),
            connection.account_id
        ))),
        None => Ok(()),
    }
}

/// The connection's settings as the provider's settings type.
fn settings<T: DeserializeOwned>(connection: &CloudConnection) -> Result<T, SourceError> {
    serde_json::from_value(connection.settings.clone()).map_err(|error| {
        tracing::warn!(connection_id = connection.id, %error, "unreadable connection settings");
        SourceError::new(format!(
            "The {} connection {} has no billing export settings; connect it again",
            provider_name(&connection.provider),
            connection.account_id
        ))
    })
}

/// The connection's decrypted secret; an error when none is stored or it cannot be decrypted.
/// Never put in an error or a log line.
async fn secret(state: &AppState, connection: &CloudConnection) -> Result<String, SourceError> {
    let stored = state
        .store
        .connection_secret(connection.customer_id, connection.id)
        .await
        .map_err(|error| {
            tracing::error!(connection_id = connection.id, %error, "reading a connection secret");
            SourceError::retryable("The connection's credentials could not be read; try again")
        })?;
    let Some(stored) = stored else {
        return Err(SourceError::new(format!(
            "The {} connection {} has no stored credentials; connect it again",
            provider_name(&connection.provider),
            connection.account_id
        )));
    };
    state.secrets.decrypt(&stored).map_err(|_| {
        SourceError::new(format!(
            "The stored credentials of the {} connection {} cannot be decrypted with this \
             server's secrets key; restore the former key or connect it again",
            provider_name(&connection.provider),
            connection.account_id
        ))
    })
}

fn provider_name(provider: &str) -> &'static str {
    match provider {
        "aws" => "AWS",
        "gcp" => "GCP",
        "azure" => "Azure",
        _ => "cloud",
    }
}

/// The provider's name for people: `AWS`, `GCP`, `Azure`.
pub fn provider_label(provider: &str) -> &'static str {
    provider_name(provider)
}

/// Where a connection's billing export lives, for people (`s3://bucket/prefix/export`,
/// `project.dataset.table`, `https://account.blob.core.windows.net/container/directory`);
/// `None` when the connection has no export settings.
pub fn export_location(connection: &CloudConnection) -> Option<String> {
    let value = connection.settings.clone();
    match connection.provider.as_str() {
        "aws" => {
            let aws: AwsExportSettings = serde_json::from_value(value).ok()?;
            let path = [aws.prefix.as_str(), aws.export_name.as_str()]
                .into_iter()
                .filter(|part| !part.is_empty())
                .collect::<Vec<_>>()
                .join("/");
            Some(format!("s3://{}/{path}", aws.bucket))
        }
        "gcp" => {
            let gcp: GcpExportSettings = serde_json::from_value(value).ok()?;
            Some(gcp.table)
        }
        "azure" => {
            let azure: AzureExportSettings = serde_json::from_value(value).ok()?;
            let endpoint = azure.blob_endpoint.clone().unwrap_or_else(|| {
                format!("https://{}.blob.core.windows.net", azure.storage_account)
            });
            let path = [azure.container.as_str(), azure.directory.as_str()]
                .into_iter()
                .filter(|part| !part.is_empty())
                .collect::<Vec<_>>()
                .join("/");
            Some(format!("{}/{path}", endpoint.trim_end_matches('/')))
        }
        _ => None,
    }
}
