//! Resource discovery (issue 14): what runs in one AWS account, listed with the customer's
//! role (assumed with the tenant's external id, exactly as the export sync does) in every
//! enabled region, or in the regions given.
//!
//! One module per service family: [`ec2`] (instances, volumes, snapshots, Elastic IPs, AMIs,
//! VPCs, subnets, security groups), [`s3`] (buckets, listed once in their own regions),
//! [`rds`], [`lambda`], [`elbv2`], [`dynamodb`], [`iam`] (users, roles, access keys; global),
//! [`cloudwatch`] (the CPU of the instances found) and [`regions`]. Each writes the property
//! keys of `costscope_core::inventory::properties`.
//!
//! A call that fails (AccessDenied, throttling after the SDK's retries, a call the region does
//! not serve) costs only its own scope: it becomes a [`ScopeFailure`] and its
//! `(region, resource_type)` pair is left out of [`DiscoveryReport::complete_scopes`], so the
//! store marks nothing deleted there; everything else found is still returned.

/// Pages of a paginated listing, each turned into resources; stops at the first failure,
/// keeping what the earlier pages gave.
macro_rules! paginate {
    ($region:expr, $call:expr, $pages:expr, |$page:ident, $out:ident| $body:block) => {{
        let mut pages = $pages;
        let mut $out: Vec<costscope_core::inventory::DiscoveredResource> = Vec::new();
        let mut failed = None;
        while let Some(page) = pages.next().await {
            match page {
                Ok($page) => $body,
                Err(err) => {
                    failed = Some($crate::aws::discovery::CallFailure::new(
                        $region, $call, &err,
                    ));
                    break;
                }
            }
        }
        match failed {
            None => Ok($out),
            Some(failure) => Err(($out, failure)),
        }
    }};
}

mod cloudwatch;
mod dynamodb;
mod ec2;
mod elbv2;
mod iam;
mod lambda;
mod rds;
mod regions;
mod s3;

use std::collections::{BTreeMap, BTreeSet};

use aws_config::Region;
use aws_sdk_s3::config::http::HttpResponse;
use aws_sdk_s3::config::Credentials;
use aws_sdk_s3::error::{ProvideErrorMetadata, SdkError};
use aws_sdk_s3::primitives::DateTime as AwsDateTime;
use chrono::{DateTime, SecondsFormat, Utc};
use costscope_core::inventory::{DiscoveredResource, GLOBAL_REGION};
use futures_util::stream::{self, StreamExt};
use serde_json::Value;

use super::assume::{assume, AwsRole};
use super::errors::AwsFailure;
use super::AwsSdk;
use crate::SourceError;

/// Regions scanned at once (each runs its services' listings concurrently).
const REGION_CONCURRENCY: usize = 4;

/// The region STS, IAM and S3's ListBuckets are called in when Costscope's identity names none.
const DEFAULT_HOME_REGION: &str = "us-east-1";

/// What one account's discovery found.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DiscoveryReport {
    pub resources: Vec<DiscoveredResource>,
    /// `(region, resource_type)` pairs listed completely (IAM types under
    /// [`GLOBAL_REGION`]): only within these may a resource that was not found be taken as
    /// deleted.
    pub complete_scopes: Vec<(String, String)>,
    pub failures: Vec<ScopeFailure>,
}

/// A region × service that could not be listed (completely), in words a person can act on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScopeFailure {
    /// An AWS region code, or [`GLOBAL_REGION`] (IAM, S3's ListBuckets).
    pub region: String,
    /// `EC2`, `S3`, `RDS`, `Lambda`, `ELBv2`, `DynamoDB`, `IAM` or `CloudWatch`.
    pub service: String,
    /// E.g. `AccessDenied: the role may not call DescribeVolumes in eu-west-1: … (grant it
    /// ec2:DescribeVolumes, e.g. with the AWS managed policy ReadOnlyAccess)`.
    pub message: String,
}

/// Discovers every resource of `account_id` that `role` (assumed with its external id) may
/// list, in `regions` or, when `None`, in every region the account has enabled (EC2
/// DescribeRegions). Fails as a whole only when the role cannot be assumed or the enabled
/// regions cannot be listed; every other failure is a [`ScopeFailure`] of the report.
///
/// The future is boxed as `Send`: checked here, where its borrows have one lifetime, a caller
/// can hand it to `tokio::spawn` (the compiler cannot prove `Send` for the unboxed future's
/// nested closures over every lifetime).
pub fn discover_account<'a>(
    sdk: &'a AwsSdk,
    role: &'a AwsRole,
    account_id: &'a str,
    regions: Option<&'a [String]>,
) -> futures_util::future::BoxFuture<'a, Result<DiscoveryReport, SourceError>> {
    Box::pin(discover(sdk, role, account_id, regions))
}

async fn discover(
    sdk: &AwsSdk,
    role: &AwsRole,
    account_id: &str,
    regions: Option<&[String]>,
) -> Result<DiscoveryReport, SourceError> {
    let account_id = account_id.trim();
    if account_id.len() != 12 || !account_id.bytes().all(|b| b.is_ascii_digit()) {
        return Err(SourceError::new(format!(
            "account_id must be a 12-digit AWS account id, not {account_id:?}"
        )));
    }
    let given: Option<Vec<String>> = match regions {
        Some(list) => Some(regions::validate(list)?),
        None => None,
    };
    let home = sdk
        .region()
        .map(str::to_owned)
        .or_else(|| given.as_ref().and_then(|list| list.first().cloned()))
        .unwrap_or_else(|| DEFAULT_HOME_REGION.to_owned());
    let assumed = assume(sdk, role, &home).await?;
    let ctx = Ctx {
        sdk,
        credentials: assumed.credentials,
        account_id,
        home: &home,
    };
    let regions = match given {
        Some(list) => list,
        None => regions::enabled_regions(&ctx).await?,
    };

    let ctx_ref = &ctx;
    let regional = stream::iter(regions.iter().cloned())
        .map(|region| async move { scan_region(ctx_ref, &region).await })
        .buffer_unordered(REGION_CONCURRENCY)
        .collect::<Vec<Found>>();
    let (regional, iam, buckets) =
        tokio::join!(regional, iam::discover(&ctx), s3::discover(&ctx, &regions));

    let mut found = Found::default();
    for part in regional {
        found.merge(part);
    }
    found.merge(iam);
    found.merge(buckets);
    Ok(found.into_report())
}

/// Every service of one region.
async fn scan_region(ctx: &Ctx<'_>, region: &str) -> Found {
    let (ec2, rds, lambda, elbv2, dynamodb) = tokio::join!(
        ec2::discover(ctx, region),
        rds::discover(ctx, region),
        lambda::discover(ctx, region),
        elbv2::discover(ctx, region),
        dynamodb::discover(ctx, region),
    );
    let mut found = ec2;
    cloudwatch::measure_instances(ctx, region, &mut found).await;
    found.merge(rds);
    found.merge(lambda);
    found.merge(elbv2);
    found.merge(dynamodb);
    found
}

/// What every listing needs: Costscope's SDK, the assumed role's credentials, the account.
pub(crate) struct Ctx<'a> {
    sdk: &'a AwsSdk,
    credentials: Credentials,
    account_id: &'a str,
    /// The region of global calls (STS, IAM, S3 ListBuckets, DescribeRegions).
    home: &'a str,
}

macro_rules! client_with {
    ($(#[$doc:meta])* $name:ident, $krate:ident) => {
        $(#[$doc])*
        pub(crate) fn $name(&self, region: &str) -> $krate::Client {
            let config = $krate::config::Builder::from(self.sdk.config())
                .region(Region::new(region.to_owned()))
                .credentials_provider(self.credentials.clone())
                .build();
            $krate::Client::from_conf(config)
        }
    };
}

impl Ctx<'_> {
    client_with!(
        /// An EC2 client in `region` with the assumed role.
        ec2, aws_sdk_ec2
    );
    client_with!(
        /// An RDS client in `region` with the assumed role.
        rds, aws_sdk_rds
    );
    client_with!(
        /// A Lambda client in `region` with the assumed role.
        lambda, aws_sdk_lambda
    );
    client_with!(
        /// An ELBv2 client in `region` with the assumed role.
        elbv2, aws_sdk_elasticloadbalancingv2
    );
    client_with!(
        /// A DynamoDB client in `region` with the assumed role.
        dynamodb, aws_sdk_dynamodb
    );
    client_with!(
        /// An IAM client (IAM is global; the region only picks the partition).
        iam, aws_sdk_iam
    );
    client_with!(
        /// A CloudWatch client in `region` with the assumed role.
        cloudwatch, aws_sdk_cloudwatch
    );

    /// An S3 client in `region` with the assumed role (path-style with a custom endpoint).
    pub(crate) fn s3(&self, region: &str) -> aws_sdk_s3::Client {
        self.sdk.s3_with(region, self.credentials.clone())
    }

    /// A resource of this account.
    pub(crate) fn resource(
        &self,
        region: &str,
        resource_type: &str,
        resource_id: &str,
        arn: Option<String>,
        properties: Value,
        tags: BTreeMap<String, String>,
    ) -> DiscoveredResource {
        DiscoveredResource {
            account_id: self.account_id.to_owned(),
            region: region.to_owned(),
            resource_type: resource_type.to_owned(),
            resource_id: resource_id.to_owned(),
            arn,
            properties,
            tags,
            metrics: None,
        }
    }

    /// `arn:<partition>:<service>:<region>:<account>:<resource>`.
    pub(crate) fn arn(&self, service: &str, region: &str, resource: &str) -> String {
        format!(
            "arn:{}:{service}:{region}:{}:{resource}",
            partition(region),
            self.account_id
        )
    }
}

/// The ARN partition of a region.
pub(crate) fn partition(region: &str) -> &'static str {
    if region.starts_with("cn-") {
        "aws-cn"
    } else if region.starts_with("us-gov-") {
        "aws-us-gov"
    } else {
        "aws"
    }
}

/// One API call, for the failure messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Call {
    /// `EC2`, `S3`, …: [`ScopeFailure::service`].
    pub service: &'static str,
    /// The API action (`DescribeVolumes`).
    pub action: &'static str,
    /// The IAM permission it needs (`ec2:DescribeVolumes`).
    pub permission: &'static str,
}

/// A call that failed in a region.
#[derive(Debug, Clone)]
pub(crate) struct CallFailure {
    pub region: String,
    pub call: Call,
    pub failure: AwsFailure,
}

impl CallFailure {
    pub fn new<E>(region: &str, call: Call, err: &SdkError<E, HttpResponse>) -> Self
    where
        E: ProvideErrorMetadata + std::error::Error + 'static,
    {
        Self {
            region: region.to_owned(),
            call,
            failure: AwsFailure::from_sdk(err),
        }
    }
}

/// What a part of the discovery found: resources, completely listed scopes, failed calls.
#[derive(Debug, Default)]
pub(crate) struct Found {
    pub resources: Vec<DiscoveredResource>,
    pub complete: Vec<(String, String)>,
    pub failures: Vec<CallFailure>,
}

impl Found {
    pub fn merge(&mut self, other: Found) {
        self.resources.extend(other.resources);
        self.complete.extend(other.complete);
        self.failures.extend(other.failures);
    }

    /// `resources` are every resource of `resource_type` in `region`.
    pub fn listed(
        &mut self,
        region: &str,
        resource_type: &str,
        resources: Vec<DiscoveredResource>,
    ) {
        self.resources.extend(resources);
        self.complete
            .push((region.to_owned(), resource_type.to_owned()));
    }

    /// A listing (or a detail call) failed: `resources` are what was found nonetheless; the
    /// scope is not complete.
    pub fn partial(&mut self, resources: Vec<DiscoveredResource>, failure: CallFailure) {
        self.resources.extend(resources);
        self.failures.push(failure);
    }

    /// A listing either answered every resource or failed.
    pub fn record(
        &mut self,
        region: &str,
        resource_type: &str,
        result: Result<Vec<DiscoveredResource>, (Vec<DiscoveredResource>, CallFailure)>,
    ) {
        match result {
            Ok(resources) => self.listed(region, resource_type, resources),
            Err((resources, failure)) => self.partial(resources, failure),
        }
    }

    fn into_report(self) -> DiscoveryReport {
        let mut complete = self.complete;
        complete.sort();
        complete.dedup();
        let mut resources = self.resources;
        resources.sort_by(|a, b| {
            (&a.region, &a.resource_type, &a.resource_id).cmp(&(
                &b.region,
                &b.resource_type,
                &b.resource_id,
            ))
        });
        DiscoveryReport {
            resources,
            complete_scopes: complete,
            failures: scope_failures(self.failures),
        }
    }
}

/// Codes meaning the role lacks a permission.
const DENIED_CODES: &[&str] = &[
    "AccessDenied",
    "AccessDeniedException",
    "UnauthorizedOperation",
    "UnauthorizedAccess",
    "AuthorizationError",
    "Forbidden",
];

/// Codes meaning the assumed role's credentials were refused (in a region that is not enabled
/// for the account, typically).
const REFUSED_CODES: &[&str] = &[
    "AuthFailure",
    "UnrecognizedClientException",
    "InvalidClientTokenId",
    "InvalidAccessKeyId",
    "ExpiredToken",
    "ExpiredTokenException",
    "SignatureDoesNotMatch",
];

/// Codes meaning the region or the service does not serve the call.
const UNSUPPORTED_CODES: &[&str] = &[
    "OptInRequired",
    "UnsupportedOperation",
    "InvalidAction",
    "UnknownOperationException",
    "NotImplemented",
    "InvalidEndpointException",
];

/// Failed calls grouped by region, service and error (a region that refuses everything is
/// one message naming the calls, not one per call), in the order they were met.
fn scope_failures(failures: Vec<CallFailure>) -> Vec<ScopeFailure> {
    let mut groups: Vec<(CallFailure, Vec<Call>)> = Vec::new();
    for failure in failures {
        let same = groups.iter_mut().find(|(first, _)| {
            first.region == failure.region
                && first.call.service == failure.call.service
                && first.failure.code == failure.failure.code
                && first.failure.message == failure.failure.message
        });
        match same {
            Some((_, calls)) => {
                if !calls.contains(&failure.call) {
                    calls.push(failure.call);
                }
            }
            None => {
                let call = failure.call;
                groups.push((failure, vec![call]));
            }
        }
    }
    groups.sort_by(|(a, _), (b, _)| (&a.region, a.call.service).cmp(&(&b.region, b.call.service)));
    groups
        .into_iter()
        .map(|(first, calls)| ScopeFailure {
            message: failure_message(&first, &calls),
            region: first.region,
            service: first.call.service.to_owned(),
        })
        .collect()
}

fn failure_message(first: &CallFailure, calls: &[Call]) -> String {
    let actions = unique(calls.iter().map(|c| c.action)).join(", ");
    let permissions = unique(calls.iter().map(|c| c.permission)).join(", ");
    let service = first.call.service;
    let region = &first.region;
    let failure = &first.failure;
    let prefix = failure.code_prefix();
    let msg = &failure.message;
    let code = failure.code.as_deref().unwrap_or_default();
    if DENIED_CODES.contains(&code) {
        format!(
            "{prefix}the role may not call {actions} in {region}: {msg} (grant it {permissions}, e.g. with the AWS managed policy ReadOnlyAccess)"
        )
    } else if REFUSED_CODES.contains(&code) {
        format!(
            "{prefix}{service} in {region} refused the assumed role's credentials ({actions}): {msg} (if the region is not enabled for the account, enable it or leave it out of discovery)"
        )
    } else if UNSUPPORTED_CODES.contains(&code) {
        format!(
            "{prefix}{service} does not serve {actions} in {region} for this account: {msg} (enable the region or service, or leave it out of discovery)"
        )
    } else if failure.code.is_none() && failure.status.is_none() {
        format!("{service} in {region} could not be reached ({actions}): {msg}")
    } else if failure.retryable {
        format!(
            "{prefix}{service} in {region} kept failing after retries ({actions}): {msg}; the next discovery run tries again"
        )
    } else {
        format!("{prefix}{actions} failed in {region}: {msg}")
    }
}

fn unique<'a>(items: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    let mut seen = BTreeSet::new();
    items.filter(|item| seen.insert(*item)).collect()
}

// ---- JSON helpers shared by the service modules ----

/// An SDK time as RFC 3339 in UTC (`2026-10-01T12:00:00Z`), or null.
pub(crate) fn time(value: Option<&AwsDateTime>) -> Value {
    value
        .and_then(|t| DateTime::<Utc>::from_timestamp(t.secs(), t.subsec_nanos()))
        .map(|t| Value::String(rfc3339(t)))
        .unwrap_or(Value::Null)
}

/// RFC 3339 in UTC, whole seconds unless the time has a fraction.
pub(crate) fn rfc3339(time: DateTime<Utc>) -> String {
    time.to_rfc3339_opts(SecondsFormat::AutoSi, true)
}

/// A time the API gives as text (`2026-10-01T12:00:00.000+0000`, `…Z`) as RFC 3339 in UTC;
/// text that is no time is kept as it is; null when absent.
pub(crate) fn text_time(value: Option<&str>) -> Value {
    let Some(text) = value.filter(|t| !t.is_empty()) else {
        return Value::Null;
    };
    let parsed = DateTime::parse_from_rfc3339(text)
        .or_else(|_| DateTime::parse_from_str(text, "%Y-%m-%dT%H:%M:%S%.f%z"))
        .map(|t| t.with_timezone(&Utc));
    match parsed {
        Ok(t) => Value::String(rfc3339(t)),
        Err(_) => Value::String(text.to_owned()),
    }
}

/// Tags from `(key, value)` pairs (a tag without a key is skipped; without a value, empty).
pub(crate) fn tag_map<'a>(
    pairs: impl IntoIterator<Item = (Option<&'a str>, Option<&'a str>)>,
) -> BTreeMap<String, String> {
    pairs
        .into_iter()
        .filter_map(|(key, value)| Some((key?.to_owned(), value.unwrap_or_default().to_owned())))
        .collect()
}

/// The resources of a region of one type, or where the listing stopped.
pub(crate) type Listing = Result<Vec<DiscoveredResource>, (Vec<DiscoveredResource>, CallFailure)>;

/// The global region, for the modules.
pub(crate) const GLOBAL: &str = GLOBAL_REGION;

/// [`ScopeFailure::service`] of each service family.
pub(crate) const EC2: &str = "EC2";
pub(crate) const S3: &str = "S3";
pub(crate) const RDS: &str = "RDS";
pub(crate) const LAMBDA: &str = "Lambda";
pub(crate) const ELBV2: &str = "ELBv2";
pub(crate) const DYNAMODB: &str = "DynamoDB";
pub(crate) const IAM: &str = "IAM";
pub(crate) const CLOUDWATCH: &str = "CloudWatch";

#[cfg(test)]
mod tests;
