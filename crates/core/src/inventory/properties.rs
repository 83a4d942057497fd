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
//! | `AWS::DynamoDB::Table` (id: the name) | `TableName`, `TableArn`, `TableStatus`, `ItemCount`, `TableSizeBytes`, `BillingMode`, `SSEStatus` |
//! | `AWS::IAM::User` (id: the name) | `UserName`, `UserId`, `Arn`, `CreateDate`, `PasswordLastUsed`, `HasConsolePassword` (bool), `MfaEnabled` (bool: at least one MFA device) |
//! | `AWS::IAM::Role` (id: the name) | `RoleName`, `RoleId`, `Arn`, `CreateDate`, `RoleLastUsed` (RFC 3339 or null: never used) |
//! | `AWS::IAM::AccessKey` (id: the key id) | `AccessKeyId`, `UserName`, `Status` (`Active`, `Inactive`), `CreateDate`, `LastUsedDate` |
//!
//! Metrics (on [`super::DiscoveredResource::metrics`], never in properties): an instance's
//! `{"CpuAverage14d": f64, "CpuMax14d": f64, "Datapoints": u32, "MeasuredAt": RFC 3339}` from
//! CloudWatch `CPUUtilization` (daily averages over the last 14 days); absent when CloudWatch
//! had no datapoints.

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
