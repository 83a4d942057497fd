//! [`AwsExportSource`]: an AWS Data Export (or legacy CUR) in S3, read with the customer's
//! role assumed through STS with the tenant's external id.

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use async_trait::async_trait;
use tokio::io::AsyncWriteExt;
use tokio::sync::Mutex;

use super::assume::{assume_role, AssumedRole};
use super::errors::{s3_error, S3Target};
use super::manifest::{export_root, manifest_key, parse_manifest, Layout, ManifestKey};
use super::AwsSdk;
use crate::settings::AwsExportSettings;
use crate::{
    BillingExportSource, ExportObject, ExportPeriod, FetchLimits, FetchedFile, SourceError,
};

/// Attempts per data file when the download fails in a way that may pass (a broken
/// connection, throttling, a 5xx). The SDK also retries each request on its own.
const DOWNLOAD_ATTEMPTS: u32 = 3;

/// The largest manifest Costscope reads (real ones are a few hundred KB at most).
const MAX_MANIFEST_BYTES: usize = 32 * 1024 * 1024;

/// A billing export in S3, as one connection's settings name it.
pub struct AwsExportSource {
    sdk: AwsSdk,
    settings: AwsExportSettings,
    /// The assumed role and the S3 client made with it, replaced when it nears expiry.
    session: Mutex<Option<(AssumedRole, aws_sdk_s3::Client)>>,
}

impl fmt::Debug for AwsExportSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AwsExportSource")
            .field("settings", &self.settings)
            .finish_non_exhaustive()
    }
}

impl AwsExportSource {
    pub fn new(sdk: &AwsSdk, settings: AwsExportSettings) -> Self {
        Self {
            sdk: sdk.clone(),
            settings,
            session: Mutex::new(None),
        }
    }

    pub fn settings(&self) -> &AwsExportSettings {
        &self.settings
    }

    /// `s3://bucket/prefix/export`, for people.
    pub fn location(&self) -> String {
        let root = export_root(&self.settings.prefix, &self.settings.export_name);
        format!(
            "s3://{}/{}",
            self.settings.bucket,
            root.trim_end_matches('/')
        )
    }

    fn target(&self, location: String) -> S3Target<'_> {
        S3Target {
            bucket: &self.settings.bucket,
            location,
            region: &self.settings.region,
        }
    }

    /// An S3 client with the assumed role's credentials (assuming it again when they near
    /// expiry).
    async fn s3(&self) -> Result<aws_sdk_s3::Client, SourceError> {
        let mut session = self.session.lock().await;
        if let Some((role, client)) = session.as_ref() {
            if !role.expiring() {
                return Ok(client.clone());
            }
        }
        let role = assume_role(&self.sdk, &self.settings).await?;
        let client = self
            .sdk
            .s3_with(&self.settings.region, role.credentials.clone());
        *session = Some((role, client.clone()));
        Ok(client)
    }

    /// Every key under the export's root with its size.
    async fn list(&self, client: &aws_sdk_s3::Client) -> Result<Vec<(String, u64)>, SourceError> {
        let root = export_root(&self.settings.prefix, &self.settings.export_name);
        let mut pages = client
            .list_objects_v2()
            .bucket(&self.settings.bucket)
            .prefix(&root)
            .into_paginator()
            .send();
        let mut keys = Vec::new();
        while let Some(page) = pages.next().await {
            let page = page.map_err(|err| s3_error(&err, &self.target(self.location())))?;
            for object in page.contents() {
                if let Some(key) = object.key() {
                    keys.push((
                        key.to_owned(),
                        object
                            .size()
                            .and_then(|s| u64::try_from(s).ok())
                            .unwrap_or(0),
                    ));
                }
            }
        }
        Ok(keys)
    }

    async fn read_manifest(
        &self,
        client: &aws_sdk_s3::Client,
        found: &ManifestKey,
        sizes: &HashMap<String, u64>,
    ) -> Result<ExportPeriod, SourceError> {
        let location = format!("s3://{}/{}", self.settings.bucket, found.key);
        let answer = client
            .get_object()
            .bucket(&self.settings.bucket)
            .key(&found.key)
            .send()
            .await
            .map_err(|err| s3_error(&err, &self.target(location.clone())))?;
        let etag = answer
            .e_tag()
            .unwrap_or_default()
            .trim_matches('"')
            .to_owned();
        let mut body = answer.body;
        let mut bytes = Vec::new();
        while let Some(chunk) = body.try_next().await.map_err(|err| {
            SourceError::retryable(format!("The manifest {location} could not be read: {err}"))
        })? {
            bytes.extend_from_slice(&chunk);
            if bytes.len() > MAX_MANIFEST_BYTES {
                return Err(SourceError::new(format!(
                    "The manifest {location} is larger than {} MB: not an AWS billing manifest",
                    MAX_MANIFEST_BYTES / (1024 * 1024)
                )));
            }
        }
        let manifest =
            parse_manifest(found.layout, &self.settings.bucket, &bytes).map_err(|err| {
                SourceError::new(format!(
                    "The manifest {location} is not a readable AWS billing manifest: {err}"
                ))
            })?;
        let fingerprint = format!(
            "{etag}:{}",
            manifest.delivery_id.as_deref().unwrap_or_default()
        );
        Ok(ExportPeriod {
            billing_period: found.billing_period,
            fingerprint,
            location,
            objects: manifest
                .data_keys
                .into_iter()
                .map(|key| ExportObject {
                    bytes: sizes.get(&key).copied(),
                    key,
                })
                .collect(),
        })
    }

    async fn periods_with(
        &self,
        client: &aws_sdk_s3::Client,
    ) -> Result<Vec<ExportPeriod>, SourceError> {
        let root = export_root(&self.settings.prefix, &self.settings.export_name);
        let listing = self.list(client).await?;
        let mut manifests: Vec<ManifestKey> = listing
            .iter()
            .filter_map(|(key, _)| manifest_key(&root, &self.settings.export_name, key))
            .collect();
        // One manifest per billing period; a Data Export wins over a CUR report of the same name.
        manifests.sort_by_key(|m| (m.billing_period, m.layout != Layout::DataExports));
        manifests.dedup_by_key(|m| m.billing_period);
        let sizes: HashMap<String, u64> = listing.into_iter().collect();
        let mut periods = Vec::with_capacity(manifests.len());
        for found in &manifests {
            periods.push(self.read_manifest(client, found, &sizes).await?);
        }
        Ok(periods)
    }

    /// Streams one object into `path`; at most `remaining` bytes.
    async fn download_once(
        &self,
        client: &aws_sdk_s3::Client,
        key: &str,
        path: &Path,
        remaining: u64,
    ) -> Result<u64, Download> {
        let location = format!("s3://{}/{}", self.settings.bucket, key);
        let answer = client
            .get_object()
            .bucket(&self.settings.bucket)
            .key(key)
            .send()
            .await
            .map_err(|err| Download::Failed(s3_error(&err, &self.target(location.clone()))))?;
        if answer
            .content_length()
            .and_then(|n| u64::try_from(n).ok())
            .is_some_and(|n| n > remaining)
        {
            return Err(Download::TooLarge);
        }
        let io_error = |err: std::io::Error| {
            Download::Failed(SourceError::new(format!(
                "{} could not be written: {err}",
                path.display()
            )))
        };
        let mut file = tokio::fs::File::create(path).await.map_err(io_error)?;
        let mut body = answer.body;
        let mut written: u64 = 0;
        loop {
            let chunk = body.try_next().await.map_err(|err| {
                Download::Failed(SourceError::retryable(format!(
                    "The download of {location} broke off: {err}"
                )))
            })?;
            let Some(chunk) = chunk else { break };
            written += chunk.len() as u64;
            if written > remaining {
                return Err(Download::TooLarge);
            }
            file.write_all(&chunk).await.map_err(io_error)?;
        }
        file.flush().await.map_err(io_error)?;
        Ok(written)
    }
}

enum Download {
    TooLarge,
    Failed(SourceError),
}

/// The file name a data file gets in the fetch directory: its position (so two keys with the
/// same last part do not collide) and its last part, which keeps the extension.
fn local_name(index: usize, key: &str) -> String {
    let last = key.rsplit('/').next().unwrap_or_default();
    let clean: String = last
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_' | '=') {
                c
            } else {
                '_'
            }
        })
        .collect();
    let clean = clean.trim_start_matches('.');
    format!(
        "{:04}-{}",
        index + 1,
        if clean.is_empty() { "data" } else { clean }
    )
}

fn megabytes(bytes: u64) -> String {
    format!("{:.1} MB", bytes as f64 / (1024.0 * 1024.0))
}

fn remove_all(paths: &[PathBuf]) {
    for path in paths {
        let _ = std::fs::remove_file(path);
    }
}

#[async_trait]
impl BillingExportSource for AwsExportSource {
    async fn check(&self) -> Result<String, SourceError> {
        let client = self.s3().await?;
        let periods = self.periods_with(&client).await?;
        Ok(match periods.len() {
            0 => format!("No billing data delivered yet under {}", self.location()),
            1 => format!("Found 1 billing period under {}", self.location()),
            n => format!("Found {n} billing periods under {}", self.location()),
        })
    }

    async fn periods(&self) -> Result<Vec<ExportPeriod>, SourceError> {
        let client = self.s3().await?;
        self.periods_with(&client).await
    }

    async fn fetch(
        &self,
        period: &ExportPeriod,
        dir: &Path,
        limits: FetchLimits,
    ) -> Result<Vec<FetchedFile>, SourceError> {
        let month = period.billing_period.format("%Y-%m");
        let too_large = || {
            SourceError::new(format!(
                "The delivery of billing period {month} ({}) is larger than the limit of {}",
                period.location,
                megabytes(limits.max_bytes)
            ))
        };
        let declared: u64 = period.objects.iter().filter_map(|o| o.bytes).sum();
        if declared > limits.max_bytes {
            return Err(too_large());
        }
        let mut fetched: Vec<FetchedFile> = Vec::with_capacity(period.objects.len());
        let mut total: u64 = 0;
        for (index, object) in period.objects.iter().enumerate() {
            let path = dir.join(local_name(index, &object.key));
            let mut attempt = 1;
            let outcome = loop {
                let client = match self.s3().await {
                    Ok(client) => client,
                    Err(err) => break Err(Download::Failed(err)),
                };
                let remaining = limits.max_bytes - total;
                match self
                    .download_once(&client, &object.key, &path, remaining)
                    .await
                {
                    Err(Download::Failed(err)) if err.retryable && attempt < DOWNLOAD_ATTEMPTS => {
                        tracing::warn!(key = %object.key, attempt, error = %err, "retrying an S3 download");
                        tokio::time::sleep(Duration::from_millis(500 * 2u64.pow(attempt))).await;
                        attempt += 1;
                    }
                    outcome => break outcome,
                }
            };
            match outcome {
                Ok(bytes) => {
                    total += bytes;
                    fetched.push(FetchedFile {
                        name: object.key.clone(),
                        path,
                        bytes,
                    });
                }
                Err(failure) => {
                    let mut written: Vec<PathBuf> = fetched.into_iter().map(|f| f.path).collect();
                    written.push(path);
                    remove_all(&written);
                    return Err(match failure {
                        Download::TooLarge => too_large(),
                        Download::Failed(err) => err,
                    });
                }
            }
        }
        Ok(fetched)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_names_keep_the_extension_and_stay_in_the_directory() {
        assert_eq!(
            local_name(0, "p/focus/data/BILLING_PERIOD=2026-10/focus-00001.csv.gz"),
            "0001-focus-00001.csv.gz"
        );
        assert_eq!(
            local_name(9, "a/b/part-0.snappy.parquet"),
            "0010-part-0.snappy.parquet"
        );
        assert_eq!(local_name(1, "a/../.."), "0002-data");
        assert_eq!(local_name(2, "a/x y\\z.csv"), "0003-x_y_z.csv");
    }

    #[test]
    fn debug_never_prints_credentials() {
        let sdk = AwsSdk::for_endpoint("http://127.0.0.1:9", "us-east-1");
        let source = AwsExportSource::new(
            &sdk,
            AwsExportSettings {
                role_arn: "arn:aws:iam::123456789012:role/R".into(),
                external_id: "ext".into(),
                bucket: "b".into(),
                prefix: "p".into(),
                export_name: "e".into(),
                region: "us-east-1".into(),
            },
        );
        let printed = format!("{source:?} {sdk:?}");
        assert!(!printed.contains("testing"), "{printed}");
        assert_eq!(source.location(), "s3://b/p/e");
    }
}
