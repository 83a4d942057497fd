//! The resource types discovery knows, named as CloudFormation names them (what an AWS engineer
//! reads every day); IAM access keys and AMIs, which CloudFormation has no type for, follow the
//! same pattern.

pub const EC2_INSTANCE: &str = "AWS::EC2::Instance";
pub const EC2_VOLUME: &str = "AWS::EC2::Volume";
pub const EC2_SNAPSHOT: &str = "AWS::EC2::Snapshot";
pub const EC2_ELASTIC_IP: &str = "AWS::EC2::EIP";
pub const EC2_IMAGE: &str = "AWS::EC2::Image";
pub const EC2_VPC: &str = "AWS::EC2::VPC";
pub const EC2_SUBNET: &str = "AWS::EC2::Subnet";
pub const EC2_SECURITY_GROUP: &str = "AWS::EC2::SecurityGroup";
pub const S3_BUCKET: &str = "AWS::S3::Bucket";
pub const RDS_DB_INSTANCE: &str = "AWS::RDS::DBInstance";
pub const LAMBDA_FUNCTION: &str = "AWS::Lambda::Function";
pub const ELBV2_LOAD_BALANCER: &str = "AWS::ElasticLoadBalancingV2::LoadBalancer";
pub const DYNAMODB_TABLE: &str = "AWS::DynamoDB::Table";
pub const IAM_USER: &str = "AWS::IAM::User";
pub const IAM_ROLE: &str = "AWS::IAM::Role";
pub const IAM_ACCESS_KEY: &str = "AWS::IAM::AccessKey";

/// Every type, in the order the Resource Types filter lists them.
pub const ALL: [&str; 16] = [
    EC2_INSTANCE,
    EC2_VOLUME,
    EC2_SNAPSHOT,
    EC2_ELASTIC_IP,
    EC2_IMAGE,
    EC2_VPC,
    EC2_SUBNET,
    EC2_SECURITY_GROUP,
    S3_BUCKET,
    RDS_DB_INSTANCE,
    LAMBDA_FUNCTION,
    ELBV2_LOAD_BALANCER,
    DYNAMODB_TABLE,
    IAM_USER,
    IAM_ROLE,
    IAM_ACCESS_KEY,
];

/// Types that live in no region ([`super::GLOBAL_REGION`]).
pub fn is_global(resource_type: &str) -> bool {
    matches!(resource_type, IAM_USER | IAM_ROLE | IAM_ACCESS_KEY)
}

/// Types AWS lets one tag (IAM access keys carry no tags): the ones tag compliance checks.
pub fn is_taggable(resource_type: &str) -> bool {
    resource_type != IAM_ACCESS_KEY
}
