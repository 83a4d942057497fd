//! Azure Cost Management exports in Blob Storage, read through the Blob service REST API
//! (no Azure SDK), with a SAS token or a service principal's OAuth2 client-credentials token.
//!
//! # What is read
//!
//! The connection names a storage account, a container and a directory: the folder the export
//! writes to (its "directory" in the portal, optionally with the export's name after it). Under
//! it Costscope lists every blob and recognises the layouts Cost Management writes:
//!
//! * **Exports with a manifest** (the current exports experience, FOCUS and cost details,
//!   partitioned files): `<directory>/<export name>/<YYYYMMDD-YYYYMMDD>/[<run time>/]<run id>/`
//!   holding `manifest.json` and the data files it lists (`part_0_0001.csv.gz`, `.csv`,
//!   `.parquet`, `.snappy.parquet`). The manifest is read for `blobs[].blobName` /
//!   `blobs[].byteCount` and `runInfo` (`runId`, `submittedTime`, `startDate`, `endDate`);
//!   a blob name is taken as container-relative, and as a file of the manifest's folder when
//!   the container has no blob of that exact name.
//! * **Older exports without a manifest**: `<directory>/<export name>/<YYYYMMDD-YYYYMMDD>/<file>.csv`
//!   (one file per run, `<export name>_<guid>.csv`), or run folders below the date range
//!   without a manifest.
//!
//! The date-range folder is found as the first path segment below the directory that reads
//! `YYYYMMDD-YYYYMMDD`; its first day's month is the billing month. Each run of an export
//! delivers the whole month so far, so for each billing month only the newest run is read:
//! the newest blob by `Last-Modified` decides (for manifests written in the same second, the
//! manifest's `runInfo.submittedTime`). A manifest run is preferred to a file without one of
//! the same second. A directory holding more than one export (two different folders above
//! date ranges) is refused: loading both would count every cost twice.
//!
//! * `periods()`: one [`ExportPeriod`] per billing month, oldest first; the fingerprint is the
//!   manifest's run id with the manifest's ETag, or (no manifest) the newest data blob's name
//!   with its ETag and the number of files in the run. A month whose newest run lists no data
//!   file is left out. Nothing delivered yet: an empty list.
//! * `fetch()`: streams each data blob of the run to a file in the given directory (never whole
//!   in memory), keeping its name and extension, within [`FetchLimits`].
//! * `check()`: lists the directory: `Found N billing months under https://…/container/directory`.
//!
//! Errors carry the storage error code in words a person can act on
//! (`ContainerNotFound: container exports does not exist in storage account …`) and never the
//! SAS token or a bearer token: URLs in messages and logs have no query string.

mod blob;
mod layout;
mod token;

use std::fmt;
use std::path::Path;

use async_trait::async_trait;

use crate::settings::{AzureExportSettings, AzureStorageAuth};
use crate::{BillingExportSource, ExportPeriod, FetchLimits, FetchedFile, SourceError};

use blob::{BlobClient, Credentials};
pub use layout::Manifest;

/// The public cloud's identity platform (`[cloud] azure_authority_url` default).
pub const DEFAULT_AUTHORITY_URL: &str = "https://login.microsoftonline.com";

/// Reads an Azure Cost Management export from Blob Storage. See the module documentation for
/// the layouts it understands.
pub struct AzureExportSource {
    settings: AzureExportSettings,
    client: BlobClient,
    page_size: Option<u32>,
}

impl fmt::Debug for AzureExportSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AzureExportSource")
            .field("settings", &self.settings)
            .field("endpoint", &self.client.endpoint())
            .field("secret", &"[redacted]")
            .finish()
    }
}

impl AzureExportSource {
    /// `secret` is the SAS token (`sv=…&sig=…`, with or without the leading `?`, or a whole SAS
    /// URL) for [`AzureStorageAuth::Sas`], or the client secret for
    /// [`AzureStorageAuth::ServicePrincipal`], whose token comes from
    /// `{authority_url}/{tenant_id}/oauth2/v2.0/token`. Checks the settings' shape; reaches
    /// nothing.
    pub fn new(
        settings: AzureExportSettings,
        secret: String,
        authority_url: &str,
    ) -> Result<AzureExportSource, SourceError> {
        let settings = layout::normalise(settings)?;
        let endpoint = match &settings.blob_endpoint {
            Some(endpoint) => blob::parse_endpoint(endpoint)?,
            None => blob::parse_endpoint(&format!(
                "https://{}.blob.core.windows.net",
                settings.storage_account
            ))?,
        };
        let credentials = match &settings.auth {
            AzureStorageAuth::Sas => Credentials::sas(&secret)?,
            AzureStorageAuth::ServicePrincipal {
                tenant_id,
                client_id,
            } => Credentials::service_principal(authority_url, tenant_id, client_id, secret)?,
        };
        let client = BlobClient::new(
            endpoint,
            settings.storage_account.clone(),
            settings.container.clone(),
            credentials,
        )?;
        Ok(AzureExportSource {
            settings,
            client,
            page_size: None,
        })
    }

    /// Lists blobs `page_size` at a time (`maxresults`; the service's default is 5000).
    pub fn with_page_size(mut self, page_size: u32) -> Self {
        self.page_size = Some(page_size.max(1));
        self
    }

    /// Uses `client` for every request (e.g. one that trusts a test certificate authority).
    pub fn with_http_client(mut self, client: reqwest::Client) -> Self {
        self.client.set_http(client);
        self
    }

    /// `https://account.blob.core.windows.net/container/directory`, for people.
    pub fn location(&self) -> String {
        self.client.folder_url(&self.settings.directory)
    }

    fn prefix(&self) -> String {
        if self.settings.directory.is_empty() {
            String::new()
        } else {
            format!("{}/", self.settings.directory)
        }
    }
}

#[async_trait]
impl BillingExportSource for AzureExportSource {
    async fn check(&self) -> Result<String, SourceError> {
        let periods = self.periods().await?;
        let n = periods.len();
        Ok(format!(
            "Found {n} billing month{} under {}",
            if n == 1 { "" } else { "s" },
            self.location()
        ))
    }

    async fn periods(&self) -> Result<Vec<ExportPeriod>, SourceError> {
        let blobs = self.client.list(&self.prefix(), self.page_size).await?;
        let plan = layout::plan(&self.settings.directory, &blobs, &self.location())?;
        let mut periods = Vec::with_capacity(plan.len());
        for month in plan {
            let run = match month.choice {
                layout::Choice::Files(run) => run,
                layout::Choice::Manifests(candidates) => {
                    let mut read = Vec::with_capacity(candidates.len());
                    for candidate in candidates {
                        let bytes = self.client.get_small(&candidate.name).await?;
                        let manifest = Manifest::parse(&bytes).map_err(|e| {
                            SourceError::new(format!(
                                "The export manifest {} is not a Cost Management manifest: {e}",
                                self.client.blob_url(&candidate.name)
                            ))
                        })?;
                        read.push((candidate, manifest));
                    }
                    layout::manifest_run(read, &blobs)
                }
            };
            if run.objects.is_empty() {
                tracing::info!(
                    month = %month.billing_period,
                    location = %self.client.blob_url(&run.location),
                    "the export's newest run of this month lists no data file; left out"
                );
                continue;
            }
            periods.push(ExportPeriod {
                billing_period: month.billing_period,
                fingerprint: run.fingerprint,
                location: self.client.blob_url(&run.location),
                objects: run.objects,
            });
        }
        Ok(periods)
    }

    async fn fetch(
        &self,
        period: &ExportPeriod,
        dir: &Path,
        limits: FetchLimits,
    ) -> Result<Vec<FetchedFile>, SourceError> {
        let month = period.billing_period.format("%Y-%m").to_string();
        let known: u64 = period.objects.iter().filter_map(|o| o.bytes).sum();
        if known > limits.max_bytes {
            return Err(too_large(&month, &period.location, limits.max_bytes));
        }
        let mut written: Vec<FetchedFile> = Vec::with_capacity(period.objects.len());
        let mut total = 0u64;
        for (index, object) in period.objects.iter().enumerate() {
            let path = dir.join(layout::local_name(index, &object.key));
            let budget = limits.max_bytes - total;
            match self.client.download(&object.key, &path, budget).await {
                Ok(blob::Download::Done(bytes)) => {
                    total += bytes;
                    written.push(FetchedFile {
                        name: object.key.clone(),
                        path,
                        bytes,
                    });
                }
                Ok(blob::Download::TooLarge) => {
                    let _ = tokio::fs::remove_file(&path).await;
                    remove_all(&written).await;
                    return Err(too_large(&month, &period.location, limits.max_bytes));
                }
                Err(error) => {
                    let _ = tokio::fs::remove_file(&path).await;
                    remove_all(&written).await;
                    return Err(error);
                }
            }
        }
        Ok(written)
    }
}

async fn remove_all(files: &[FetchedFile]) {
    for file in files {
        let _ = tokio::fs::remove_file(&file.path).await;
    }
}

fn too_large(month: &str, location: &str, max_bytes: u64) -> SourceError {
    SourceError::new(format!(
        "The export's delivery for {month} ({location}) is larger than the limit of {} per billing period",
        human_bytes(max_bytes)
    ))
}

fn human_bytes(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["bytes", "KiB", "MiB", "GiB", "TiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit < UNITS.len() - 1 {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} bytes")
    } else if value.fract() == 0.0 {
        format!("{value:.0} {}", UNITS[unit])
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(auth: AzureStorageAuth) -> AzureExportSettings {
        AzureExportSettings {
            storage_account: "costexports".into(),
            container: "exports".into(),
            directory: "/billing/focus/".into(),
            auth,
            blob_endpoint: None,
        }
    }

    #[test]
    fn the_default_endpoint_is_the_accounts_blob_service_and_the_secret_stays_out_of_debug() {
        let source = AzureExportSource::new(
            settings(AzureStorageAuth::Sas),
            "?sv=2022-11-02&ss=b&srt=co&sp=rl&se=2027-01-01T00:00:00Z&sig=c2VjcmV0c2VjcmV0".into(),
            DEFAULT_AUTHORITY_URL,
        )
        .unwrap();
        assert_eq!(
            source.location(),
            "https://costexports.blob.core.windows.net/exports/billing/focus"
        );
        let debug = format!("{source:?}");
        assert!(!debug.contains("c2VjcmV0c2VjcmV0"), "{debug}");
        assert!(!debug.contains("sig="), "{debug}");
    }

    #[test]
    fn a_sas_token_without_a_signature_is_refused_without_echoing_it() {
        let error = AzureExportSource::new(
            settings(AzureStorageAuth::Sas),
            "sv=2022-11-02&sp=rl&se=2027-01-01".into(),
            DEFAULT_AUTHORITY_URL,
        )
        .unwrap_err();
        assert!(error.message.contains("sig="), "{}", error.message);
        assert!(!error.message.contains("2027-01-01"), "{}", error.message);
    }

    #[test]
    fn service_principal_settings_need_a_tenant_client_and_secret() {
        let sp = |tenant: &str, client: &str| AzureStorageAuth::ServicePrincipal {
            tenant_id: tenant.into(),
            client_id: client.into(),
        };
        let ok = AzureExportSource::new(
            settings(sp(
                "contoso.onmicrosoft.com",
                "11111111-2222-3333-4444-555555555555",
            )),
            "a-client-secret".into(),
            DEFAULT_AUTHORITY_URL,
        );
        assert!(ok.is_ok());
        let no_secret = AzureExportSource::new(
            settings(sp(
                "contoso.onmicrosoft.com",
                "11111111-2222-3333-4444-555555555555",
            )),
            " ".into(),
            DEFAULT_AUTHORITY_URL,
        )
        .unwrap_err();
        assert!(
            no_secret.message.contains("client secret"),
            "{}",
            no_secret.message
        );
        let no_tenant = AzureExportSource::new(
            settings(sp("", "11111111-2222-3333-4444-555555555555")),
            "a-client-secret".into(),
            DEFAULT_AUTHORITY_URL,
        )
        .unwrap_err();
        assert!(
            no_tenant.message.contains("tenant"),
            "{}",
            no_tenant.message
        );
        let bad_authority = AzureExportSource::new(
            settings(sp("contoso.onmicrosoft.com", "client")),
            "a-client-secret".into(),
            "not a url",
        )
        .unwrap_err();
        assert!(
            bad_authority.message.contains("authority"),
            "{}",
            bad_authority.message
        );
    }

    #[test]
    fn storage_names_are_checked() {
        let mut bad = settings(AzureStorageAuth::Sas);
        bad.storage_account = "Cost_Exports".into();
        let error =
            AzureExportSource::new(bad, "sv=1&sig=x".into(), DEFAULT_AUTHORITY_URL).unwrap_err();
        assert!(
            error.message.contains("storage account"),
            "{}",
            error.message
        );
        let mut bad = settings(AzureStorageAuth::Sas);
        bad.container = "a/b".into();
        let error =
            AzureExportSource::new(bad, "sv=1&sig=x".into(), DEFAULT_AUTHORITY_URL).unwrap_err();
        assert!(error.message.contains("container"), "{}", error.message);
        let mut bad = settings(AzureStorageAuth::Sas);
        bad.blob_endpoint = Some("ftp://example.com".into());
        let error =
            AzureExportSource::new(bad, "sv=1&sig=x".into(), DEFAULT_AUTHORITY_URL).unwrap_err();
        assert!(error.message.contains("endpoint"), "{}", error.message);
    }

    #[test]
    fn sizes_read_well() {
        assert_eq!(human_bytes(10), "10 bytes");
        assert_eq!(human_bytes(1024 * 1024 * 1024), "1 GiB");
        assert_eq!(human_bytes(1536), "1.5 KiB");
    }
}
