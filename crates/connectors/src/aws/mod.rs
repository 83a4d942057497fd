//! The AWS connector: Costscope's own identity (the default credential chain and region, or
//! static test credentials against an emulator), STS AssumeRole into a customer's read-only
//! role with the tenant's external id, the billing exports that role can read in S3 (AWS Data
//! Exports and the legacy Cost and Usage Report), the member accounts of an organisation, and
//! the resources each account runs (discovery).
//!
//! Every client honours `AWS_ENDPOINT_URL` and `AWS_ENDPOINT_URL_<SERVICE>` (through the shared
//! config aws-config loads); with a custom endpoint S3 is addressed path-style, as S3-compatible
//! stores and emulators need.

mod assume;
mod discovery;
mod errors;
mod export;
mod manifest;
mod organizations;

use std::fmt;

use aws_config::{BehaviorVersion, Region, SdkConfig};
use aws_sdk_s3::config::{Credentials, SharedCredentialsProvider, SharedHttpClient};

pub use assume::AwsRole;
pub use discovery::{discover_account, DiscoveryReport, ScopeFailure};
pub use export::AwsExportSource;
pub use organizations::{list_organization_accounts, OrgAccount};

/// The session name every AssumeRole call carries (shown in the customer's CloudTrail).
pub const ASSUME_ROLE_SESSION_NAME: &str = "costscope-sync";

/// Costscope's own AWS identity: the base configuration every AWS client starts from.
#[derive(Clone)]
pub struct AwsSdk {
    base: SdkConfig,
    /// Address S3 path-style (`https://endpoint/bucket/key`): set when a custom endpoint is
    /// configured.
    force_path_style: bool,
}

impl fmt::Debug for AwsSdk {
    // Never prints the credentials provider (static test keys live there).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AwsSdk")
            .field("region", &self.base.region().map(|r| r.as_ref().to_owned()))
            .field("endpoint_url", &self.base.endpoint_url())
            .field("force_path_style", &self.force_path_style)
            .finish_non_exhaustive()
    }
}

/// The HTTPS client every AWS client uses: hyper over rustls with ring (no aws-lc C build).
/// It also speaks plain HTTP, for emulators.
fn http_client() -> SharedHttpClient {
    use aws_smithy_http_client::tls;
    aws_smithy_http_client::Builder::new()
        .tls_provider(tls::Provider::Rustls(
            tls::rustls_provider::CryptoMode::Ring,
        ))
        .build_https()
}

impl AwsSdk {
    /// The server's identity: the default credential chain (environment, shared profile, web
    /// identity, ECS and EC2 instance metadata) and region, with `AWS_ENDPOINT_URL` /
    /// `AWS_ENDPOINT_URL_<SERVICE>` honoured.
    pub async fn from_env() -> Self {
        let base = aws_config::defaults(BehaviorVersion::latest())
            .http_client(http_client())
            .load()
            .await;
        let env_endpoint = |name: &str| std::env::var(name).is_ok_and(|v| !v.trim().is_empty());
        let force_path_style = base.endpoint_url().is_some()
            || env_endpoint("AWS_ENDPOINT_URL")
            || env_endpoint("AWS_ENDPOINT_URL_S3");
        Self {
            base,
            force_path_style,
        }
    }

    /// An identity for an emulator (moto) or an S3-compatible store at `endpoint`: static
    /// test credentials, `region`, path-style S3. Reads nothing from the process environment,
    /// so tests running in parallel do not disturb each other.
    pub fn for_endpoint(endpoint: &str, region: &str) -> Self {
        let credentials = Credentials::new("testing", "testing", None, None, "costscope-static");
        let base = SdkConfig::builder()
            .behavior_version(BehaviorVersion::latest())
            .region(Region::new(region.to_owned()))
            .endpoint_url(endpoint)
            .credentials_provider(SharedCredentialsProvider::new(credentials))
            .http_client(http_client())
            .build();
        Self {
            base,
            force_path_style: true,
        }
    }

    /// The base configuration (Costscope's own identity).
    pub fn config(&self) -> &SdkConfig {
        &self.base
    }

    /// The region of Costscope's own identity, when one is configured.
    pub fn region(&self) -> Option<&str> {
        self.base.region().map(|r| r.as_ref())
    }

    /// Whether S3 is addressed path-style.
    pub fn force_path_style(&self) -> bool {
        self.force_path_style
    }

    /// An STS client with Costscope's own identity (used to assume customers' roles).
    pub(crate) fn sts(&self, fallback_region: &str) -> aws_sdk_sts::Client {
        let mut builder = aws_sdk_sts::config::Builder::from(&self.base);
        if self.base.region().is_none() {
            builder = builder.region(Region::new(fallback_region.to_owned()));
        }
        aws_sdk_sts::Client::from_conf(builder.build())
    }

    /// An S3 client in `region` with `credentials` (an assumed role's), path-style when a
    /// custom endpoint is configured.
    pub(crate) fn s3_with(&self, region: &str, credentials: Credentials) -> aws_sdk_s3::Client {
        let config = aws_sdk_s3::config::Builder::from(&self.base)
            .region(Region::new(region.to_owned()))
            .credentials_provider(credentials)
            .force_path_style(self.force_path_style)
            .build();
        aws_sdk_s3::Client::from_conf(config)
    }

    /// An S3 client with Costscope's own identity (tests create buckets and objects with it).
    pub fn s3(&self) -> aws_sdk_s3::Client {
        let config = aws_sdk_s3::config::Builder::from(&self.base)
            .force_path_style(self.force_path_style)
            .build();
        aws_sdk_s3::Client::from_conf(config)
    }

    /// An Organizations client in `region` with `credentials` (an assumed role's).
    pub(crate) fn organizations_with(
        &self,
        region: &str,
        credentials: Credentials,
    ) -> aws_sdk_organizations::Client {
        let mut builder = aws_sdk_organizations::config::Builder::from(&self.base)
            .credentials_provider(credentials);
        if !region.is_empty() {
            builder = builder.region(Region::new(region.to_owned()));
        }
        aws_sdk_organizations::Client::from_conf(builder.build())
    }

    /// An Organizations client with Costscope's own identity (tests create organisations).
    pub fn organizations(&self) -> aws_sdk_organizations::Client {
        aws_sdk_organizations::Client::new(&self.base)
    }
}
