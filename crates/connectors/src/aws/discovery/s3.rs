//! S3 buckets: listed once for the account (ListBuckets is global), each placed in its own
//! region (GetBucketLocation) and described there: ACL grants, public access block, whether
//! its policy is public, default encryption, tags.

use std::collections::{BTreeMap, BTreeSet};

use aws_sdk_s3::types::Bucket;
use costscope_core::inventory::resource_types::S3_BUCKET;
use costscope_core::inventory::DiscoveredResource;
use futures_util::stream::{self, StreamExt};
use serde_json::{json, Value};

use super::{time, Call, CallFailure, Ctx, Found, GLOBAL, S3};

const fn call(action: &'static str, permission: &'static str) -> Call {
    Call {
        service: S3,
        action,
        permission,
    }
}

const LIST_BUCKETS: Call = call("ListBuckets", "s3:ListAllMyBuckets");
const GET_BUCKET_LOCATION: Call = call("GetBucketLocation", "s3:GetBucketLocation");
const GET_BUCKET_ACL: Call = call("GetBucketAcl", "s3:GetBucketAcl");
const GET_PUBLIC_ACCESS_BLOCK: Call = call("GetPublicAccessBlock", "s3:GetBucketPublicAccessBlock");
const GET_BUCKET_POLICY_STATUS: Call = call("GetBucketPolicyStatus", "s3:GetBucketPolicyStatus");
const GET_BUCKET_ENCRYPTION: Call = call("GetBucketEncryption", "s3:GetEncryptionConfiguration");
const GET_BUCKET_TAGGING: Call = call("GetBucketTagging", "s3:GetBucketTagging");

/// Buckets described at once.
const BUCKET_CONCURRENCY: usize = 8;

/// Every bucket of the account. `regions` are the regions scanned: S3 is complete in each
/// (and in every region a bucket was found in) unless a bucket there could not be described.
pub(crate) async fn discover(ctx: &Ctx<'_>, regions: &[String]) -> Found {
    let mut found = Found::default();
    let client = ctx.s3(ctx.home);
    let mut buckets: Vec<Bucket> = Vec::new();
    let mut pages = client.list_buckets().into_paginator().send();
    while let Some(page) = pages.next().await {
        match page {
            Ok(page) => buckets.extend(page.buckets().iter().cloned()),
            Err(err) => {
                found
                    .failures
                    .push(CallFailure::new(GLOBAL, LIST_BUCKETS, &err));
                return found;
            }
        }
    }

    let client = &client;
    let described: Vec<Described> = stream::iter(buckets.iter().cloned())
        .map(|bucket| async move { describe(ctx, client, &bucket).await })
        .buffer_unordered(BUCKET_CONCURRENCY)
        .collect()
        .await;

    let mut scanned: BTreeSet<String> = regions.iter().cloned().collect();
    let mut incomplete: BTreeSet<String> = BTreeSet::new();
    let mut unplaced = false;
    for outcome in described {
        match outcome {
            Described::Found(resource) => {
                scanned.insert(resource.region.clone());
                found.resources.push(*resource);
            }
            Described::Gone => {}
            Described::Unplaced(failure) => {
                unplaced = true;
                found.failures.push(failure);
            }
            Described::Failed(region, failure) => {
                incomplete.insert(region);
                found.failures.push(failure);
            }
        }
    }
    // A bucket whose region is unknown could be in any region: none is complete.
    if !unplaced {
        for region in scanned.difference(&incomplete) {
            found.complete.push((region.clone(), S3_BUCKET.to_owned()));
        }
    }
    found
}

enum Described {
    Found(Box<DiscoveredResource>),
    /// Deleted between the listing and the description.
    Gone,
    /// Its region could not be read.
    Unplaced(CallFailure),
    /// A detail could not be read in this region.
    Failed(String, CallFailure),
}

/// Whether an error code means "this bucket does not exist (any more)".
fn gone(failure: &CallFailure) -> bool {
    failure.failure.code.as_deref() == Some("NoSuchBucket")
}

/// Whether an error code means "nothing of this kind is set on the bucket".
fn not_set(failure: &CallFailure) -> bool {
    matches!(
        failure.failure.code.as_deref(),
        Some("NoSuchPublicAccessBlockConfiguration")
            | Some("NoSuchBucketPolicy")
            | Some("ServerSideEncryptionConfigurationNotFoundError")
            | Some("NoSuchTagSet")
            | Some("NoSuchTagSetError")
    )
}

/// `value` or, when the call answered "not set", `none`; a failure otherwise.
fn optional<T>(result: Result<T, CallFailure>, none: impl FnOnce() -> T) -> Result<T, CallFailure> {
    match result {
        Err(failure) if not_set(&failure) => Ok(none()),
        other => other,
    }
}

/// The bucket's region from GetBucketLocation's constraint (none is us-east-1, `EU` the old
/// name of eu-west-1).
pub(crate) fn location_region(constraint: Option<&str>) -> String {
    match constraint.map(str::trim) {
        None | Some("") => "us-east-1".to_owned(),
        Some("EU") => "eu-west-1".to_owned(),
        Some(region) => region.to_owned(),
    }
}

async fn describe(ctx: &Ctx<'_>, home: &aws_sdk_s3::Client, bucket: &Bucket) -> Described {
    let Some(name) = bucket.name() else {
        return Described::Gone;
    };
    let region = match home.get_bucket_location().bucket(name).send().await {
        Ok(answer) => location_region(answer.location_constraint().map(|c| c.as_str())),
        Err(err) => {
            let failure = CallFailure::new(GLOBAL, GET_BUCKET_LOCATION, &err);
            if gone(&failure) {
                return Described::Gone;
            }
            // ListBuckets names the region too (since 2024); use it when it did.
            match bucket.bucket_region() {
                Some(region) if !region.is_empty() => region.to_owned(),
                _ => return Described::Unplaced(failure),
            }
        }
    };
    let client = ctx.s3(&region);
    match details(&client, name, &region).await {
        Ok(details) => {
            let properties = json!({
                "Name": name,
                "CreationDate": time(bucket.creation_date()),
                "Region": region,
                "PublicAccessBlock": details.public_access_block,
                "PolicyIsPublic": details.policy_is_public,
                "AclGrants": details.grants,
                "Owner": details.owner,
                "ServerSideEncryption": details.encryption,
            });
            Described::Found(Box::new(ctx.resource(
                &region,
                S3_BUCKET,
                name,
                Some(format!("arn:{}:s3:::{name}", super::partition(&region))),
                properties,
                details.tags,
            )))
        }
        Err(failure) if gone(&failure) => Described::Gone,
        Err(failure) => Described::Failed(region, failure),
    }
}

struct Details {
    grants: Vec<Value>,
    owner: Value,
    public_access_block: Value,
    policy_is_public: bool,
    encryption: Value,
    tags: BTreeMap<String, String>,
}

async fn details(
    client: &aws_sdk_s3::Client,
    name: &str,
    region: &str,
) -> Result<Details, CallFailure> {
    let (acl, block, policy, encryption, tagging) = tokio::join!(
        client.get_bucket_acl().bucket(name).send(),
        client.get_public_access_block().bucket(name).send(),
        client.get_bucket_policy_status().bucket(name).send(),
        client.get_bucket_encryption().bucket(name).send(),
        client.get_bucket_tagging().bucket(name).send(),
    );
    let acl = acl.map_err(|err| CallFailure::new(region, GET_BUCKET_ACL, &err))?;
    let grants = acl
        .grants()
        .iter()
        .map(|grant| {
            json!({
                "Grantee": grant.grantee().map(|g| json!({
                    "Type": g.r#type().as_str(),
                    "URI": g.uri(),
                    "ID": g.id(),
                    "DisplayName": g.display_name(),
                    "EmailAddress": g.email_address(),
                })),
                "Permission": grant.permission().map(|p| p.as_str()),
            })
        })
        .collect();
    let owner = acl
        .owner()
        .map(|o| json!({"ID": o.id(), "DisplayName": o.display_name()}))
        .unwrap_or(Value::Null);
    let public_access_block = optional(
        block
            .map(|answer| {
                answer
                    .public_access_block_configuration()
                    .map(|c| {
                        json!({
                            "BlockPublicAcls": c.block_public_acls().unwrap_or(false),
                            "IgnorePublicAcls": c.ignore_public_acls().unwrap_or(false),
                            "BlockPublicPolicy": c.block_public_policy().unwrap_or(false),
                            "RestrictPublicBuckets": c.restrict_public_buckets().unwrap_or(false),
                        })
                    })
                    .unwrap_or(Value::Null)
            })
            .map_err(|err| CallFailure::new(region, GET_PUBLIC_ACCESS_BLOCK, &err)),
        || Value::Null,
    )?;
    let policy_is_public = optional(
        policy
            .map(|answer| {
                answer
                    .policy_status()
                    .and_then(|s| s.is_public())
                    .unwrap_or(false)
            })
            .map_err(|err| CallFailure::new(region, GET_BUCKET_POLICY_STATUS, &err)),
        || false,
    )?;
    let encryption = optional(
        encryption
            .map(|answer| {
                answer
                    .server_side_encryption_configuration()
                    .and_then(|c| c.rules().first())
                    .and_then(|rule| rule.apply_server_side_encryption_by_default())
                    .map(|d| Value::String(d.sse_algorithm().as_str().to_owned()))
                    .unwrap_or(Value::Null)
            })
            .map_err(|err| CallFailure::new(region, GET_BUCKET_ENCRYPTION, &err)),
        || Value::Null,
    )?;
    let tags = optional(
        tagging
            .map(|answer| {
                answer
                    .tag_set()
                    .iter()
                    .map(|t| (t.key().to_owned(), t.value().to_owned()))
                    .collect::<BTreeMap<_, _>>()
            })
            .map_err(|err| CallFailure::new(region, GET_BUCKET_TAGGING, &err)),
        BTreeMap::new,
    )?;
    Ok(Details {
        grants,
        owner,
        public_access_block,
        policy_is_public,
        encryption,
        tags,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_location_constraint_names_the_bucket_region() {
        assert_eq!(location_region(None), "us-east-1");
        assert_eq!(location_region(Some("")), "us-east-1");
        assert_eq!(location_region(Some("EU")), "eu-west-1");
        assert_eq!(location_region(Some("eu-central-1")), "eu-central-1");
    }
}
