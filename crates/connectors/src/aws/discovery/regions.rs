//! The regions discovery scans: the list given (configuration, tests, emulators), or every
//! region the account has enabled (EC2 DescribeRegions with the assumed role).

use super::{CallFailure, Ctx, EC2};
use crate::SourceError;

/// The given regions, trimmed and without repeats; a blank or malformed one is refused.
pub(crate) fn validate(regions: &[String]) -> Result<Vec<String>, SourceError> {
    let mut out: Vec<String> = Vec::new();
    for region in regions {
        let region = region.trim();
        let well_formed = !region.is_empty()
            && region.len() <= 32
            && region
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
        if !well_formed {
            return Err(SourceError::new(format!(
                "regions: {region:?} is not an AWS region code (like us-east-1)"
            )));
        }
        if !out.iter().any(|r| r == region) {
            out.push(region.to_owned());
        }
    }
    if out.is_empty() {
        return Err(SourceError::new(
            "regions: give at least one region, or none to scan every enabled region",
        ));
    }
    Ok(out)
}

/// Every region enabled for the account (opted in or not requiring opt-in), sorted.
pub(crate) async fn enabled_regions(ctx: &Ctx<'_>) -> Result<Vec<String>, SourceError> {
    let answer = ctx
        .ec2(ctx.home)
        .describe_regions()
        .all_regions(false)
        .send()
        .await
        .map_err(|err| {
            let failure = CallFailure::new(ctx.home, DESCRIBE_REGIONS, &err);
            let message = super::scope_failures(vec![failure.clone()])
                .pop()
                .map(|f| f.message)
                .unwrap_or_default();
            failure.failure.into_source_error(format!(
                "the account's enabled regions could not be listed: {message}"
            ))
        })?;
    let mut regions: Vec<String> = answer
        .regions()
        .iter()
        .filter(|r| {
            // Without AllRegions only enabled ones are answered; be strict anyway.
            !matches!(r.opt_in_status(), Some("not-opted-in"))
        })
        .filter_map(|r| r.region_name().map(str::to_owned))
        .collect();
    regions.sort();
    regions.dedup();
    if regions.is_empty() {
        return Err(SourceError::new(
            "the account's enabled regions could not be listed: DescribeRegions answered none",
        ));
    }
    Ok(regions)
}

const DESCRIBE_REGIONS: super::Call = super::Call {
    service: EC2,
    action: "DescribeRegions",
    permission: "ec2:DescribeRegions",
};
