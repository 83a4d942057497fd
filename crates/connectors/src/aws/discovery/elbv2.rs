//! Application, network and gateway load balancers (ELBv2) of one region, with their tags
//! (DescribeTags, 20 load balancers a call).

use std::collections::BTreeMap;

use costscope_core::inventory::resource_types::ELBV2_LOAD_BALANCER;
use serde_json::json;

use super::{tag_map, time, Call, CallFailure, Ctx, Found, ELBV2};

const DESCRIBE_LOAD_BALANCERS: Call = Call {
    service: ELBV2,
    action: "DescribeLoadBalancers",
    permission: "elasticloadbalancing:DescribeLoadBalancers",
};
const DESCRIBE_TAGS: Call = Call {
    service: ELBV2,
    action: "DescribeTags",
    permission: "elasticloadbalancing:DescribeTags",
};

/// The most ARNs DescribeTags takes.
const TAGS_BATCH: usize = 20;

pub(crate) async fn discover(ctx: &Ctx<'_>, region: &str) -> Found {
    let client = ctx.elbv2(region);
    let listing = paginate!(
        region,
        DESCRIBE_LOAD_BALANCERS,
        client.describe_load_balancers().into_paginator().send(),
        |page, out| {
            for lb in page.load_balancers() {
                let Some(name) = lb.load_balancer_name() else {
                    continue;
                };
                let properties = json!({
                    "LoadBalancerArn": lb.load_balancer_arn(),
                    "LoadBalancerName": name,
                    "Type": lb.r#type().map(|t| t.as_str()),
                    "Scheme": lb.scheme().map(|s| s.as_str()),
                    "State": lb.state().and_then(|s| s.code()).map(|c| c.as_str()),
                    "VpcId": lb.vpc_id(),
                    "DNSName": lb.dns_name(),
                    "CreatedTime": time(lb.created_time()),
                    "IpAddressType": lb.ip_address_type().map(|t| t.as_str()),
                    "AvailabilityZones": lb.availability_zones().iter().map(|z| json!({
                        "ZoneName": z.zone_name(),
                        "SubnetId": z.subnet_id(),
                    })).collect::<Vec<_>>(),
                    "SecurityGroups": lb.security_groups(),
                });
                out.push(ctx.resource(
                    region,
                    ELBV2_LOAD_BALANCER,
                    name,
                    lb.load_balancer_arn().map(str::to_owned),
                    properties,
                    Default::default(),
                ));
            }
        }
    );
    let mut found = Found::default();
    let (mut balancers, listing_failure) = match listing {
        Ok(balancers) => (balancers, None),
        Err((balancers, failure)) => (balancers, Some(failure)),
    };
    let mut tags: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    let arns: Vec<String> = balancers.iter().filter_map(|b| b.arn.clone()).collect();
    let mut tag_failure: Option<CallFailure> = None;
    for chunk in arns.chunks(TAGS_BATCH) {
        match client
            .describe_tags()
            .set_resource_arns(Some(chunk.to_vec()))
            .send()
            .await
        {
            Ok(answer) => {
                for description in answer.tag_descriptions() {
                    let Some(arn) = description.resource_arn() else {
                        continue;
                    };
                    tags.insert(
                        arn.to_owned(),
                        tag_map(description.tags().iter().map(|t| (t.key(), t.value()))),
                    );
                }
            }
            Err(err) => {
                tag_failure = Some(CallFailure::new(region, DESCRIBE_TAGS, &err));
                break;
            }
        }
    }
    if tag_failure.is_some() {
        // Without their tags the load balancers would look untagged: keep the stored state.
        balancers.retain(|b| b.arn.as_ref().is_some_and(|arn| tags.contains_key(arn)));
    }
    for balancer in &mut balancers {
        if let Some(found_tags) = balancer.arn.as_ref().and_then(|arn| tags.remove(arn)) {
            balancer.tags = found_tags;
        }
    }
    match (listing_failure, tag_failure) {
        (None, None) => found.listed(region, ELBV2_LOAD_BALANCER, balancers),
        (Some(failure), other) => {
            found.partial(balancers, failure);
            found.failures.extend(other);
        }
        (None, Some(failure)) => found.partial(balancers, failure),
    }
    found
}
