//! The property keys discovery writes and the rules read: the AWS API's own field names and
//! shapes (as the SDK's `Debug`-free serde of each shape would name them), so a FinOps engineer
//! recognises every key in the property tree. Each type's properties hold at least these keys
//! (a value the API did not give is JSON `null`); discovery may add more of the API's fields.
//! Times are RFC 3339 strings in UTC; sizes are numbers.
//!
//! | type | keys the rules read |
//! |---|---|
//! | `AWS::EC2::Instance` | `InstanceId`, `InstanceType`, `State` (`"running"`, `"stopped"`, …), `StateTransitionReason`, `StoppedSince` (RFC 3339 or null: parsed from `StateTransitionReason` "User initiated (YYYY-MM-DD HH:MM:SS GMT)"), `LaunchTime`, `ImageId`, `VpcId`, `SubnetId`, `PrivateIpAddress`, `PublicIpAddress`, `Placement.AvailabilityZone`, `SecurityGroups[].GroupId`, `BlockDeviceMappings[].Ebs.VolumeId` |
//! | `AWS::EC2::Volume` | `VolumeId`, `VolumeType` (`gp2`, `gp3`, …), `Size` (GiB), `State` (`"available"` = unattached, `"in-use"`), `Encrypted` (bool), `Attachments[].InstanceId`, `CreateTime`, `SnapshotId`, `AvailabilityZone` |
//! | `AWS::EC2::Snapshot` | `SnapshotId`, `VolumeId`, `VolumeSize`, `StartTime`, `Encrypted`, `State`, `OwnerId` |
//! | `AWS::EC2::EIP` (id: the allocation id) | `AllocationId`, `PublicIp`, `AssociationId` (null when not associated), `InstanceId`, `NetworkInterfaceId`, `Domain` |
//! | `AWS::EC2::Image` | `ImageId`, `Name`, `CreationDate`, `State`, `Public` (bool) |
//! | `AWS::EC2::VPC` | `VpcId`, `CidrBlock`, `IsDefault`, `State` |
//! | `AWS::EC2::Subnet` | `SubnetId`, `VpcId`, `CidrBlock`, `AvailabilityZone`, `MapPublicIpOnLaunch` |
//! | `AWS::EC2::SecurityGroup` | `GroupId`, `GroupName`, `VpcId`, `Description`, `IpPermissions[]`: `IpProtocol` (`"-1"` = all), `FromPort`, `ToPort`, `IpRanges[].CidrIp`, `Ipv6Ranges[].CidrIpv6` |
//! | `AWS::S3::Bucket` (id: the name) | `Name`, `CreationDate`, `Region`, `PublicAccessBlock` (object with `BlockPublicAcls`, `IgnorePublicAcls`, `BlockPublicPolicy`, `RestrictPublicBuckets`, or null when none is set), `PolicyIsPublic` (bool, false without a policy), `AclGrants[]`: `Grantee.URI`, `Grantee.ID`, `Permission`, `ServerSideEncryption` (the default rule's `SSEAlgorithm` or null) |
//! | `AWS::RDS::DBInstance` (id: the identifier) | `DBInstanceIdentifier`, `DBInstanceArn`, `DBInstanceClass`, `Engine`, `DBInstanceStatus`, `StorageEncrypted`, `AllocatedStorage`, `StorageType`, `MultiAZ`, `PubliclyAccessible` |
//! | `AWS::Lambda::Function` (id: the name) | `FunctionName`, `FunctionArn`, `Runtime`, `MemorySize`, `Timeout`, `LastModified`, `CodeSize` |
//! | `AWS::ElasticLoadBalancingV2::LoadBalancer` (id: the name) | `LoadBalancerArn`, `LoadBalancerName`, `Type`, `Scheme`, `State`, `VpcId`, `DNSName`, `CreatedTime` |
//! | `AWS::DynamoDB::Table` (id: the name) | `TableName`, `TableArn`, `TableStatus`, `BillingMode`, `SSEStatus` |
//! | `AWS::IAM::User` (id: the name) | `UserName`, `UserId`, `Arn`, `CreateDate`, `HasConsolePassword` (bool), `MfaEnabled` (bool: at least one MFA device) |
//! | `AWS::IAM::Role` (id: the name) | `RoleName`, `RoleId`, `Arn`, `CreateDate` |
//! | `AWS::IAM::AccessKey` (id: the key id) | `AccessKeyId`, `UserName`, `Status` (`Active`, `Inactive`), `CreateDate` |
//!
//! Metrics (on [`super::DiscoveredResource::metrics`], never in properties): an instance's
//! `{"CpuAverage14d": f64, "CpuMax14d": f64, "Datapoints": u32, "MeasuredAt": RFC 3339}` from
//! CloudWatch `CPUUtilization` (daily averages over the last 14 days); absent when CloudWatch
//! had no datapoints. What changes by itself, so that it never makes a snapshot: a DynamoDB
//! table's `ItemCount` and `TableSizeBytes`; an IAM user's `PasswordLastUsed`; a role's
//! `RoleLastUsed` (RFC 3339 or null: never used) and `RoleLastUsedRegion`; an access key's
//! `LastUsedDate`, `LastUsedService` and `LastUsedRegion`. The IAM rules read them from the
//! metrics laid over the properties.

use serde_json::Value;

/// The value at a dotted path (`Placement.AvailabilityZone`); `None` when any step is missing.
pub fn at<'a>(properties: &'a Value, path: &str) -> Option<&'a Value> {
    path.split('.')
        .try_fold(properties, |value, step| value.get(step))
}

/// The text at a dotted path, when it is a string.
pub fn str_at<'a>(properties: &'a Value, path: &str) -> Option<&'a str> {
    at(properties, path).and_then(Value::as_str)
}

/// The boolean at a dotted path, when it is one.
pub fn bool_at(properties: &Value, path: &str) -> Option<bool> {
    at(properties, path).and_then(Value::as_bool)
}

/// The number at a dotted path, when it is one.
pub fn f64_at(properties: &Value, path: &str) -> Option<f64> {
    at(properties, path).and_then(Value::as_f64)
}

/// The RFC 3339 time at a dotted path, in UTC; `None` when missing, `null` or not a time.
pub fn time_at(properties: &Value, path: &str) -> Option<chrono::DateTime<chrono::Utc>> {
    str_at(properties, path)
        .and_then(|s| chrono::DateTime::parse_from_rfc3339(s).ok())
        .map(|t| t.with_timezone(&chrono::Utc))
}

/// Whether the key at a dotted path is present with JSON `null` (the API gave no value, as
/// opposed to a key discovery did not write).
pub fn is_null_at(properties: &Value, path: &str) -> bool {
    at(properties, path).is_some_and(Value::is_null)
}

#[cfg(test)]
mod tests {
    use chrono::{TimeZone, Utc};
    use serde_json::json;

    use super::*;

    #[test]
    fn typed_reads() {
        let p = json!({
            "Placement": {"AvailabilityZone": "us-east-1a"},
            "Encrypted": false,
            "Size": 8,
            "CreateTime": "2026-01-02T03:04:05Z",
            "Offset": "2026-01-02T05:04:05+02:00",
            "Bad": "yesterday",
            "AssociationId": null,
        });
        assert_eq!(str_at(&p, "Placement.AvailabilityZone"), Some("us-east-1a"));
        assert_eq!(bool_at(&p, "Encrypted"), Some(false));
        assert_eq!(bool_at(&p, "Size"), None);
        assert_eq!(f64_at(&p, "Size"), Some(8.0));
        let t = Utc.with_ymd_and_hms(2026, 1, 2, 3, 4, 5).unwrap();
        assert_eq!(time_at(&p, "CreateTime"), Some(t));
        assert_eq!(time_at(&p, "Offset"), Some(t));
        assert_eq!(time_at(&p, "Bad"), None);
        assert_eq!(time_at(&p, "AssociationId"), None);
        assert!(is_null_at(&p, "AssociationId"));
        assert!(!is_null_at(&p, "Missing"));
        assert!(!is_null_at(&p, "Size"));
    }
}
