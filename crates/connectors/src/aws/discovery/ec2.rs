//! EC2 in one region: instances, EBS volumes, snapshots (owned by the account), Elastic IPs,
//! AMIs (owned by the account), VPCs, subnets and security groups.

use aws_sdk_ec2::types::{IpPermission, Tag};
use chrono::{NaiveDateTime, Utc};
use costscope_core::inventory::resource_types::{
    EC2_ELASTIC_IP, EC2_IMAGE, EC2_INSTANCE, EC2_SECURITY_GROUP, EC2_SNAPSHOT, EC2_SUBNET,
    EC2_VOLUME, EC2_VPC,
};
use serde_json::{json, Value};

use super::{rfc3339, tag_map, text_time, time, Call, CallFailure, Ctx, Found, Listing, EC2};

const fn call(action: &'static str, permission: &'static str) -> Call {
    Call {
        service: EC2,
        action,
        permission,
    }
}

const DESCRIBE_INSTANCES: Call = call("DescribeInstances", "ec2:DescribeInstances");
const DESCRIBE_VOLUMES: Call = call("DescribeVolumes", "ec2:DescribeVolumes");
const DESCRIBE_SNAPSHOTS: Call = call("DescribeSnapshots", "ec2:DescribeSnapshots");
const DESCRIBE_ADDRESSES: Call = call("DescribeAddresses", "ec2:DescribeAddresses");
const DESCRIBE_IMAGES: Call = call("DescribeImages", "ec2:DescribeImages");
const DESCRIBE_VPCS: Call = call("DescribeVpcs", "ec2:DescribeVpcs");
const DESCRIBE_SUBNETS: Call = call("DescribeSubnets", "ec2:DescribeSubnets");
const DESCRIBE_SECURITY_GROUPS: Call = call("DescribeSecurityGroups", "ec2:DescribeSecurityGroups");

/// Every EC2 resource type of the region.
pub(crate) async fn discover(ctx: &Ctx<'_>, region: &str) -> Found {
    let client = ctx.ec2(region);
    let (instances, volumes, snapshots, addresses, images, vpcs, subnets, groups) = tokio::join!(
        instances(ctx, &client, region),
        volumes(ctx, &client, region),
        snapshots(ctx, &client, region),
        addresses(ctx, &client, region),
        images(ctx, &client, region),
        vpcs(ctx, &client, region),
        subnets(ctx, &client, region),
        security_groups(ctx, &client, region),
    );
    let mut found = Found::default();
    found.record(region, EC2_INSTANCE, instances);
    found.record(region, EC2_VOLUME, volumes);
    found.record(region, EC2_SNAPSHOT, snapshots);
    found.record(region, EC2_ELASTIC_IP, addresses);
    found.record(region, EC2_IMAGE, images);
    found.record(region, EC2_VPC, vpcs);
    found.record(region, EC2_SUBNET, subnets);
    found.record(region, EC2_SECURITY_GROUP, groups);
    found
}

fn tags(tags: &[Tag]) -> std::collections::BTreeMap<String, String> {
    tag_map(tags.iter().map(|t| (t.key(), t.value())))
}

async fn instances(ctx: &Ctx<'_>, client: &aws_sdk_ec2::Client, region: &str) -> Listing {
    paginate!(
        region,
        DESCRIBE_INSTANCES,
        client.describe_instances().into_paginator().send(),
        |page, out| {
            for instance in page.reservations().iter().flat_map(|r| r.instances()) {
                let Some(id) = instance.instance_id() else {
                    continue;
                };
                let state = instance
                    .state()
                    .and_then(|s| s.name())
                    .map(|n| n.as_str().to_owned());
                // A terminated instance is gone (AWS lists it for about an hour).
                if state.as_deref() == Some("terminated") {
                    continue;
                }
                let reason = instance.state_transition_reason();
                let stopped_since = match state.as_deref() {
                    Some("stopped") | Some("stopping") => reason.and_then(stopped_since),
                    _ => None,
                };
                let properties = json!({
                    "InstanceId": id,
                    "InstanceType": instance.instance_type().map(|t| t.as_str()),
                    "State": state,
                    "StateTransitionReason": reason,
                    "StoppedSince": stopped_since,
                    "LaunchTime": time(instance.launch_time()),
                    "ImageId": instance.image_id(),
                    "KeyName": instance.key_name(),
                    "Architecture": instance.architecture().map(|a| a.as_str()),
                    "PlatformDetails": instance.platform_details(),
                    "VpcId": instance.vpc_id(),
                    "SubnetId": instance.subnet_id(),
                    "PrivateIpAddress": instance.private_ip_address(),
                    "PublicIpAddress": instance.public_ip_address(),
                    "Placement": {
                        "AvailabilityZone": instance.placement().and_then(|p| p.availability_zone()),
                        "Tenancy": instance.placement().and_then(|p| p.tenancy()).map(|t| t.as_str()),
                    },
                    "SecurityGroups": instance.security_groups().iter().map(|g| json!({
                        "GroupId": g.group_id(),
                        "GroupName": g.group_name(),
                    })).collect::<Vec<_>>(),
                    "BlockDeviceMappings": instance.block_device_mappings().iter().map(|m| json!({
                        "DeviceName": m.device_name(),
                        "Ebs": m.ebs().map(|e| json!({
                            "VolumeId": e.volume_id(),
                            "Status": e.status().map(|s| s.as_str()),
                            "DeleteOnTermination": e.delete_on_termination(),
                        })),
                    })).collect::<Vec<_>>(),
                    "IamInstanceProfile": instance.iam_instance_profile().and_then(|p| p.arn()),
                    "Monitoring": instance.monitoring().and_then(|m| m.state()).map(|s| s.as_str()),
                });
                out.push(ctx.resource(
                    region,
                    EC2_INSTANCE,
                    id,
                    Some(ctx.arn("ec2", region, &format!("instance/{id}"))),
                    properties,
                    tags(instance.tags()),
                ));
            }
        }
    )
}

/// The time in a stop's reason: `User initiated (2026-10-01 12:00:00 GMT)` (moto writes
/// `UTC`), as RFC 3339.
pub(crate) fn stopped_since(reason: &str) -> Option<String> {
    let open = reason.rfind('(')?;
    let inner = reason[open + 1..].trim_end().strip_suffix(')')?;
    let stamp = inner
        .strip_suffix(" GMT")
        .or_else(|| inner.strip_suffix(" UTC"))?;
    let at = NaiveDateTime::parse_from_str(stamp.trim(), "%Y-%m-%d %H:%M:%S").ok()?;
    Some(rfc3339(at.and_utc().with_timezone(&Utc)))
}

async fn volumes(ctx: &Ctx<'_>, client: &aws_sdk_ec2::Client, region: &str) -> Listing {
    paginate!(
        region,
        DESCRIBE_VOLUMES,
        client.describe_volumes().into_paginator().send(),
        |page, out| {
            for volume in page.volumes() {
                let Some(id) = volume.volume_id() else {
                    continue;
                };
                let properties = json!({
                    "VolumeId": id,
                    "VolumeType": volume.volume_type().map(|t| t.as_str()),
                    "Size": volume.size(),
                    "Iops": volume.iops(),
                    "Throughput": volume.throughput(),
                    "State": volume.state().map(|s| s.as_str()),
                    "Encrypted": volume.encrypted(),
                    "KmsKeyId": volume.kms_key_id(),
                    "Attachments": volume.attachments().iter().map(|a| json!({
                        "InstanceId": a.instance_id(),
                        "Device": a.device(),
                        "State": a.state().map(|s| s.as_str()),
                        "DeleteOnTermination": a.delete_on_termination(),
                    })).collect::<Vec<_>>(),
                    "CreateTime": time(volume.create_time()),
                    "SnapshotId": volume.snapshot_id().filter(|s| !s.is_empty()),
                    "AvailabilityZone": volume.availability_zone(),
                    "MultiAttachEnabled": volume.multi_attach_enabled(),
                });
                out.push(ctx.resource(
                    region,
                    EC2_VOLUME,
                    id,
                    Some(ctx.arn("ec2", region, &format!("volume/{id}"))),
                    properties,
                    tags(volume.tags()),
                ));
            }
        }
    )
}

async fn snapshots(ctx: &Ctx<'_>, client: &aws_sdk_ec2::Client, region: &str) -> Listing {
    paginate!(
        region,
        DESCRIBE_SNAPSHOTS,
        client
            .describe_snapshots()
            .owner_ids("self")
            .into_paginator()
            .send(),
        |page, out| {
            for snapshot in page.snapshots() {
                let Some(id) = snapshot.snapshot_id() else {
                    continue;
                };
                // Only the account's own (what `self` asks for; checked again).
                if snapshot
                    .owner_id()
                    .is_some_and(|owner| owner != ctx.account_id)
                {
                    continue;
                }
                let properties = json!({
                    "SnapshotId": id,
                    "VolumeId": snapshot.volume_id().filter(|v| !v.is_empty()),
                    "VolumeSize": snapshot.volume_size(),
                    "StartTime": time(snapshot.start_time()),
                    "Encrypted": snapshot.encrypted(),
                    "State": snapshot.state().map(|s| s.as_str()),
                    "OwnerId": snapshot.owner_id(),
                    "Description": snapshot.description(),
                    "StorageTier": snapshot.storage_tier().map(|t| t.as_str()),
                });
                out.push(ctx.resource(
                    region,
                    EC2_SNAPSHOT,
                    id,
                    Some(format!(
                        "arn:{}:ec2:{region}::snapshot/{id}",
                        super::partition(region)
                    )),
                    properties,
                    tags(snapshot.tags()),
                ));
            }
        }
    )
}

/// Elastic IPs (one answer: DescribeAddresses is not paginated).
async fn addresses(ctx: &Ctx<'_>, client: &aws_sdk_ec2::Client, region: &str) -> Listing {
    let answer = client.describe_addresses().send().await.map_err(|err| {
        (
            Vec::new(),
            CallFailure::new(region, DESCRIBE_ADDRESSES, &err),
        )
    })?;
    let mut out = Vec::new();
    for address in answer.addresses() {
        // EC2-Classic addresses have no allocation id; none exist any more.
        let Some(id) = address.allocation_id() else {
            continue;
        };
        let properties = json!({
            "AllocationId": id,
            "PublicIp": address.public_ip(),
            "AssociationId": address.association_id(),
            "InstanceId": address.instance_id().filter(|i| !i.is_empty()),
            "NetworkInterfaceId": address.network_interface_id(),
            "PrivateIpAddress": address.private_ip_address(),
            "Domain": address.domain().map(|d| d.as_str()),
            "NetworkBorderGroup": address.network_border_group(),
        });
        out.push(ctx.resource(
            region,
            EC2_ELASTIC_IP,
            id,
            Some(ctx.arn("ec2", region, &format!("elastic-ip/{id}"))),
            properties,
            tags(address.tags()),
        ));
    }
    Ok(out)
}

async fn images(ctx: &Ctx<'_>, client: &aws_sdk_ec2::Client, region: &str) -> Listing {
    paginate!(
        region,
        DESCRIBE_IMAGES,
        client
            .describe_images()
            .owners("self")
            .into_paginator()
            .send(),
        |page, out| {
            for image in page.images() {
                let Some(id) = image.image_id() else {
                    continue;
                };
                if image
                    .owner_id()
                    .is_some_and(|owner| owner != ctx.account_id)
                {
                    continue;
                }
                let properties = json!({
                    "ImageId": id,
                    "Name": image.name(),
                    "Description": image.description(),
                    "CreationDate": text_time(image.creation_date()),
                    "State": image.state().map(|s| s.as_str()),
                    "Public": image.public(),
                    "OwnerId": image.owner_id(),
                    "Architecture": image.architecture().map(|a| a.as_str()),
                    "RootDeviceType": image.root_device_type().map(|t| t.as_str()),
                    "BlockDeviceMappings": image.block_device_mappings().iter().map(|m| json!({
                        "DeviceName": m.device_name(),
                        "Ebs": m.ebs().map(|e| json!({
                            "SnapshotId": e.snapshot_id(),
                            "VolumeSize": e.volume_size(),
                            "VolumeType": e.volume_type().map(|t| t.as_str()),
                            "Encrypted": e.encrypted(),
                        })),
                    })).collect::<Vec<_>>(),
                });
                out.push(ctx.resource(
                    region,
                    EC2_IMAGE,
                    id,
                    Some(format!(
                        "arn:{}:ec2:{region}::image/{id}",
                        super::partition(region)
                    )),
                    properties,
                    tags(image.tags()),
                ));
            }
        }
    )
}

async fn vpcs(ctx: &Ctx<'_>, client: &aws_sdk_ec2::Client, region: &str) -> Listing {
    paginate!(
        region,
        DESCRIBE_VPCS,
        client.describe_vpcs().into_paginator().send(),
        |page, out| {
            for vpc in page.vpcs() {
                let Some(id) = vpc.vpc_id() else {
                    continue;
                };
                let properties = json!({
                    "VpcId": id,
                    "CidrBlock": vpc.cidr_block(),
                    "IsDefault": vpc.is_default(),
                    "State": vpc.state().map(|s| s.as_str()),
                    "InstanceTenancy": vpc.instance_tenancy().map(|t| t.as_str()),
                    "DhcpOptionsId": vpc.dhcp_options_id(),
                });
                out.push(ctx.resource(
                    region,
                    EC2_VPC,
                    id,
                    Some(ctx.arn("ec2", region, &format!("vpc/{id}"))),
                    properties,
                    tags(vpc.tags()),
                ));
            }
        }
    )
}

async fn subnets(ctx: &Ctx<'_>, client: &aws_sdk_ec2::Client, region: &str) -> Listing {
    paginate!(
        region,
        DESCRIBE_SUBNETS,
        client.describe_subnets().into_paginator().send(),
        |page, out| {
            for subnet in page.subnets() {
                let Some(id) = subnet.subnet_id() else {
                    continue;
                };
                let properties = json!({
                    "SubnetId": id,
                    "VpcId": subnet.vpc_id(),
                    "CidrBlock": subnet.cidr_block(),
                    "AvailabilityZone": subnet.availability_zone(),
                    "MapPublicIpOnLaunch": subnet.map_public_ip_on_launch(),
                    "DefaultForAz": subnet.default_for_az(),
                    "State": subnet.state().map(|s| s.as_str()),
                });
                let arn = subnet
                    .subnet_arn()
                    .map(str::to_owned)
                    .unwrap_or_else(|| ctx.arn("ec2", region, &format!("subnet/{id}")));
                out.push(ctx.resource(
                    region,
                    EC2_SUBNET,
                    id,
                    Some(arn),
                    properties,
                    tags(subnet.tags()),
                ));
            }
        }
    )
}

fn permissions(rules: &[IpPermission]) -> Vec<Value> {
    rules
        .iter()
        .map(|rule| {
            json!({
                "IpProtocol": rule.ip_protocol(),
                "FromPort": rule.from_port(),
                "ToPort": rule.to_port(),
                "IpRanges": rule.ip_ranges().iter().map(|r| json!({
                    "CidrIp": r.cidr_ip(),
                    "Description": r.description(),
                })).collect::<Vec<_>>(),
                "Ipv6Ranges": rule.ipv6_ranges().iter().map(|r| json!({
                    "CidrIpv6": r.cidr_ipv6(),
                    "Description": r.description(),
                })).collect::<Vec<_>>(),
                "UserIdGroupPairs": rule.user_id_group_pairs().iter().map(|p| json!({
                    "GroupId": p.group_id(),
                    "UserId": p.user_id(),
                })).collect::<Vec<_>>(),
                "PrefixListIds": rule.prefix_list_ids().iter().map(|p| json!({
                    "PrefixListId": p.prefix_list_id(),
                })).collect::<Vec<_>>(),
            })
        })
        .collect()
}

async fn security_groups(ctx: &Ctx<'_>, client: &aws_sdk_ec2::Client, region: &str) -> Listing {
    paginate!(
        region,
        DESCRIBE_SECURITY_GROUPS,
        client.describe_security_groups().into_paginator().send(),
        |page, out| {
            for group in page.security_groups() {
                let Some(id) = group.group_id() else {
                    continue;
                };
                let properties = json!({
                    "GroupId": id,
                    "GroupName": group.group_name(),
                    "VpcId": group.vpc_id(),
                    "Description": group.description(),
                    "OwnerId": group.owner_id(),
                    "IpPermissions": permissions(group.ip_permissions()),
                    "IpPermissionsEgress": permissions(group.ip_permissions_egress()),
                });
                let arn = group
                    .security_group_arn()
                    .map(str::to_owned)
                    .unwrap_or_else(|| ctx.arn("ec2", region, &format!("security-group/{id}")));
                out.push(ctx.resource(
                    region,
                    EC2_SECURITY_GROUP,
                    id,
                    Some(arn),
                    properties,
                    tags(group.tags()),
                ));
            }
        }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stop_reason_gives_the_time_the_instance_stopped() {
        assert_eq!(
            stopped_since("User initiated (2026-10-01 12:34:56 GMT)").as_deref(),
            Some("2026-10-01T12:34:56Z")
        );
        assert_eq!(
            stopped_since("User initiated (2026-10-01 12:34:56 UTC)").as_deref(),
            Some("2026-10-01T12:34:56Z")
        );
        assert_eq!(stopped_since(""), None);
        assert_eq!(
            stopped_since("Server.ScheduledStop: Stopped due to scheduled retirement"),
            None
        );
    }
}
