//! Resource discovery against moto (a real local AWS emulator started per test on a free port;
//! `scripts/ensure-moto.sh` installs it). Every resource is created through moto's own API
//! with the AWS SDK, discovered with the connection's role, changed, and discovered again.
//!
//! moto checks neither trust policies nor external ids: that discovery's AssumeRole call
//! carries the tenant's external id is checked by the unit tests of `aws::discovery` (on the
//! wire, against a local listener).

use std::collections::BTreeSet;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use aws_sdk_ec2::types::{
    DomainType, InstanceType, IpPermission, IpRange, ResourceType, Tag, TagSpecification,
    VolumeType,
};
use costscope_connectors::aws::{discover_account, AwsRole, AwsSdk, DiscoveryReport};
use costscope_connectors::testing::moto::{Moto, MOTO_ACCOUNT_ID, MOTO_REGION};
use costscope_core::inventory::properties::{at, str_at};
use costscope_core::inventory::resource_types::{self as types, is_global, ALL};
use costscope_core::inventory::{DiscoveredResource, GLOBAL_REGION};
use serde_json::{json, Value};

const EXTERNAL_ID: &str = "cs-ext-5b8e1f0c2d";
const OTHER_REGION: &str = "eu-west-1";

fn ec2(sdk: &AwsSdk, region: &str) -> aws_sdk_ec2::Client {
    aws_sdk_ec2::Client::from_conf(
        aws_sdk_ec2::config::Builder::from(sdk.config())
            .region(aws_sdk_ec2::config::Region::new(region.to_owned()))
            .build(),
    )
}

fn s3(sdk: &AwsSdk, region: &str) -> aws_sdk_s3::Client {
    aws_sdk_s3::Client::from_conf(
        aws_sdk_s3::config::Builder::from(sdk.config())
            .region(aws_sdk_s3::config::Region::new(region.to_owned()))
            .force_path_style(true)
            .build(),
    )
}

fn ec2_tags(resource: ResourceType, tags: &[(&str, &str)]) -> TagSpecification {
    TagSpecification::builder()
        .resource_type(resource)
        .set_tags(Some(
            tags.iter()
                .map(|(k, v)| Tag::builder().key(*k).value(*v).build())
                .collect(),
        ))
        .build()
}

fn regions(list: &[&str]) -> Vec<String> {
    list.iter().map(|r| (*r).to_owned()).collect()
}

async fn discover(moto: &Moto, role: &AwsRole, list: &[&str]) -> DiscoveryReport {
    let list = regions(list);
    discover_account(&moto.sdk(), role, MOTO_ACCOUNT_ID, Some(list.as_slice()))
        .await
        .unwrap_or_else(|err| panic!("discovery failed: {}", err.message))
}

async fn role(moto: &Moto) -> AwsRole {
    AwsRole {
        role_arn: moto.create_role("CostscopeReadOnly", EXTERNAL_ID).await,
        external_id: EXTERNAL_ID.to_owned(),
    }
}

fn find<'a>(report: &'a DiscoveryReport, resource_type: &str, id: &str) -> &'a DiscoveredResource {
    report
        .resources
        .iter()
        .find(|r| r.resource_type == resource_type && r.resource_id == id)
        .unwrap_or_else(|| {
            panic!(
                "{resource_type} {id} not found; found: {:?}",
                report
                    .resources
                    .iter()
                    .map(|r| (&r.region, &r.resource_type, &r.resource_id))
                    .collect::<Vec<_>>()
            )
        })
}

fn tags(resource: &DiscoveredResource) -> Vec<(&str, &str)> {
    resource
        .tags
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect()
}

fn is_rfc3339_utc(value: Option<&Value>) -> bool {
    value
        .and_then(Value::as_str)
        .is_some_and(|t| t.ends_with('Z') && chrono::DateTime::parse_from_rfc3339(t).is_ok())
}

/// Every (region, type) pair of `regions` plus the global IAM types.
fn every_scope(list: &[&str]) -> BTreeSet<(String, String)> {
    let mut scopes = BTreeSet::new();
    for resource_type in ALL {
        if is_global(resource_type) {
            scopes.insert((GLOBAL_REGION.to_owned(), resource_type.to_owned()));
        } else {
            for region in list {
                scopes.insert(((*region).to_owned(), resource_type.to_owned()));
            }
        }
    }
    scopes
}

/// An AMI moto serves (any Amazon-owned one).
async fn some_ami(client: &aws_sdk_ec2::Client) -> String {
    client
        .describe_images()
        .owners("amazon")
        .send()
        .await
        .expect("moto: describe images")
        .images()
        .iter()
        .find_map(|i| i.image_id().map(str::to_owned))
        .expect("moto serves Amazon AMIs")
}

struct Fixture {
    instance_id: String,
    vpc_id: String,
    subnet_id: String,
    group_id: String,
    volume_id: String,
    snapshot_id: String,
    allocation_id: String,
    image_id: String,
    other_volume_id: String,
}

/// Everything discovery lists, in us-east-1 and eu-west-1, plus IAM and CloudWatch.
async fn create_everything(moto: &Moto) -> Fixture {
    let sdk = moto.sdk();
    let client = ec2(&sdk, MOTO_REGION);

    let vpc_id = client
        .create_vpc()
        .cidr_block("10.1.0.0/16")
        .tag_specifications(ec2_tags(
            ResourceType::Vpc,
            &[("Name", "main"), ("team", "data")],
        ))
        .send()
        .await
        .expect("moto: create vpc")
        .vpc()
        .and_then(|v| v.vpc_id().map(str::to_owned))
        .unwrap();
    let mut subnets = Vec::new();
    for (cidr, zone) in [("10.1.1.0/24", "us-east-1a"), ("10.1.2.0/24", "us-east-1b")] {
        subnets.push(
            client
                .create_subnet()
                .vpc_id(&vpc_id)
                .cidr_block(cidr)
                .availability_zone(zone)
                .tag_specifications(ec2_tags(ResourceType::Subnet, &[("tier", "app")]))
                .send()
                .await
                .expect("moto: create subnet")
                .subnet()
                .and_then(|s| s.subnet_id().map(str::to_owned))
                .unwrap(),
        );
    }
    let subnet_id = subnets[0].clone();
    let group_id = client
        .create_security_group()
        .group_name("ssh-open")
        .description("SSH from anywhere")
        .vpc_id(&vpc_id)
        .tag_specifications(ec2_tags(ResourceType::SecurityGroup, &[("team", "ops")]))
        .send()
        .await
        .expect("moto: create security group")
        .group_id()
        .unwrap()
        .to_owned();
    client
        .authorize_security_group_ingress()
        .group_id(&group_id)
        .ip_permissions(
            IpPermission::builder()
                .ip_protocol("tcp")
                .from_port(22)
                .to_port(22)
                .ip_ranges(IpRange::builder().cidr_ip("0.0.0.0/0").build())
                .build(),
        )
        .send()
        .await
        .expect("moto: authorize ingress");

    let ami = some_ami(&client).await;
    let instance_id = client
        .run_instances()
        .image_id(&ami)
        .instance_type(InstanceType::M4Large)
        .min_count(1)
        .max_count(1)
        .subnet_id(&subnet_id)
        .security_group_ids(&group_id)
        .tag_specifications(ec2_tags(
            ResourceType::Instance,
            &[("env", "prod"), ("team", "data")],
        ))
        .send()
        .await
        .expect("moto: run instance")
        .instances()[0]
        .instance_id()
        .unwrap()
        .to_owned();

    let volume_id = client
        .create_volume()
        .availability_zone("us-east-1a")
        .size(100)
        .volume_type(VolumeType::Gp2)
        .tag_specifications(ec2_tags(ResourceType::Volume, &[("owner", "alice")]))
        .send()
        .await
        .expect("moto: create volume")
        .volume_id()
        .unwrap()
        .to_owned();
    let snapshot_id = client
        .create_snapshot()
        .volume_id(&volume_id)
        .description("nightly")
        .tag_specifications(ec2_tags(ResourceType::Snapshot, &[("backup", "nightly")]))
        .send()
        .await
        .expect("moto: create snapshot")
        .snapshot_id()
        .unwrap()
        .to_owned();
    let allocation_id = client
        .allocate_address()
        .domain(DomainType::Vpc)
        .tag_specifications(ec2_tags(ResourceType::ElasticIp, &[("purpose", "nat")]))
        .send()
        .await
        .expect("moto: allocate address")
        .allocation_id()
        .unwrap()
        .to_owned();
    let image_id = client
        .create_image()
        .instance_id(&instance_id)
        .name("costscope-golden")
        .tag_specifications(ec2_tags(ResourceType::Image, &[("release", "2026.11")]))
        .send()
        .await
        .expect("moto: create image")
        .image_id()
        .unwrap()
        .to_owned();

    // eu-west-1: an encrypted gp3 volume, a bucket and a table.
    let other = ec2(&sdk, OTHER_REGION);
    let other_volume_id = other
        .create_volume()
        .availability_zone("eu-west-1a")
        .size(50)
        .volume_type(VolumeType::Gp3)
        .encrypted(true)
        .tag_specifications(ec2_tags(ResourceType::Volume, &[("team", "eu")]))
        .send()
        .await
        .expect("moto: create volume in eu-west-1")
        .volume_id()
        .unwrap()
        .to_owned();

    // S3: a public-read bucket in us-east-1, a private tagged one in eu-west-1.
    s3(&sdk, MOTO_REGION)
        .create_bucket()
        .bucket("costscope-public-site")
        .acl(aws_sdk_s3::types::BucketCannedAcl::PublicRead)
        .send()
        .await
        .expect("moto: create public bucket");
    let eu_s3 = s3(&sdk, OTHER_REGION);
    eu_s3
        .create_bucket()
        .bucket("costscope-eu-data")
        .create_bucket_configuration(
            aws_sdk_s3::types::CreateBucketConfiguration::builder()
                .location_constraint(aws_sdk_s3::types::BucketLocationConstraint::EuWest1)
                .build(),
        )
        .send()
        .await
        .expect("moto: create eu bucket");
    eu_s3
        .put_bucket_tagging()
        .bucket("costscope-eu-data")
        .tagging(
            aws_sdk_s3::types::Tagging::builder()
                .tag_set(
                    aws_sdk_s3::types::Tag::builder()
                        .key("team")
                        .value("eu")
                        .build()
                        .unwrap(),
                )
                .build()
                .unwrap(),
        )
        .send()
        .await
        .expect("moto: tag eu bucket");

    // RDS
    let rds = aws_sdk_rds::Client::new(sdk.config());
    rds.create_db_instance()
        .db_instance_identifier("orders-db")
        .db_instance_class("db.t3.micro")
        .engine("postgres")
        .allocated_storage(20)
        .master_username("costscope")
        .master_user_password("not-a-secret-1")
        .tags(
            aws_sdk_rds::types::Tag::builder()
                .key("team")
                .value("orders")
                .build(),
        )
        .send()
        .await
        .expect("moto: create db instance");

    // Lambda (its role must exist in IAM)
    let lambda_role = moto.create_role("resize-exec", "unused").await;
    let lambda = aws_sdk_lambda::Client::new(sdk.config());
    lambda
        .create_function()
        .function_name("resize")
        .runtime(aws_sdk_lambda::types::Runtime::Python312)
        .handler("main.handler")
        .role(&lambda_role)
        .memory_size(256)
        .timeout(30)
        .code(
            aws_sdk_lambda::types::FunctionCode::builder()
                .zip_file(aws_sdk_lambda::primitives::Blob::new(
                    b"PK\x05\x06\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0".to_vec(),
                ))
                .build(),
        )
        .tags("team", "media")
        .send()
        .await
        .expect("moto: create function");

    // ELBv2
    let elb = aws_sdk_elasticloadbalancingv2::Client::new(sdk.config());
    elb.create_load_balancer()
        .name("web-alb")
        .scheme(aws_sdk_elasticloadbalancingv2::types::LoadBalancerSchemeEnum::InternetFacing)
        .set_subnets(Some(subnets.clone()))
        .security_groups(&group_id)
        .tags(
            aws_sdk_elasticloadbalancingv2::types::Tag::builder()
                .key("team")
                .value("web")
                .build(),
        )
        .send()
        .await
        .expect("moto: create load balancer");

    // DynamoDB, one table a region
    for (region, table) in [(MOTO_REGION, "events"), (OTHER_REGION, "eu-events")] {
        let dynamodb = aws_sdk_dynamodb::Client::from_conf(
            aws_sdk_dynamodb::config::Builder::from(sdk.config())
                .region(aws_sdk_dynamodb::config::Region::new(region))
                .build(),
        );
        use aws_sdk_dynamodb::types::{
            AttributeDefinition, BillingMode, KeySchemaElement, KeyType, ScalarAttributeType,
        };
        dynamodb
            .create_table()
            .table_name(table)
            .attribute_definitions(
                AttributeDefinition::builder()
                    .attribute_name("id")
                    .attribute_type(ScalarAttributeType::S)
                    .build()
                    .unwrap(),
            )
            .key_schema(
                KeySchemaElement::builder()
                    .attribute_name("id")
                    .key_type(KeyType::Hash)
                    .build()
                    .unwrap(),
            )
            .billing_mode(BillingMode::PayPerRequest)
            .tags(
                aws_sdk_dynamodb::types::Tag::builder()
                    .key("team")
                    .value("events")
                    .build()
                    .unwrap(),
            )
            .send()
            .await
            .expect("moto: create table");
    }

    // IAM: alice has a console password and MFA, no access key; bob an access key and no MFA.
    let iam = aws_sdk_iam::Client::new(sdk.config());
    for user in ["alice", "bob"] {
        iam.create_user()
            .user_name(user)
            .send()
            .await
            .expect("moto: create user");
    }
    iam.tag_user()
        .user_name("alice")
        .tags(
            aws_sdk_iam::types::Tag::builder()
                .key("team")
                .value("finops")
                .build()
                .unwrap(),
        )
        .send()
        .await
        .expect("moto: tag user");
    iam.create_login_profile()
        .user_name("alice")
        .password("Correct-Horse-9")
        .send()
        .await
        .expect("moto: create login profile");
    let serial = iam
        .create_virtual_mfa_device()
        .virtual_mfa_device_name("alice-phone")
        .send()
        .await
        .expect("moto: create mfa device")
        .virtual_mfa_device()
        .unwrap()
        .serial_number()
        .to_owned();
    iam.enable_mfa_device()
        .user_name("alice")
        .serial_number(&serial)
        .authentication_code1("123456")
        .authentication_code2("654321")
        .send()
        .await
        .expect("moto: enable mfa");
    iam.create_access_key()
        .user_name("bob")
        .send()
        .await
        .expect("moto: create access key");

    // CloudWatch: two daily CPU datapoints of the instance.
    let cloudwatch = aws_sdk_cloudwatch::Client::new(sdk.config());
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64;
    for (days_ago, value) in [(3, 2.0), (2, 4.0)] {
        cloudwatch
            .put_metric_data()
            .namespace("AWS/EC2")
            .metric_data(
                aws_sdk_cloudwatch::types::MetricDatum::builder()
                    .metric_name("CPUUtilization")
                    .dimensions(
                        aws_sdk_cloudwatch::types::Dimension::builder()
                            .name("InstanceId")
                            .value(&instance_id)
                            .build(),
                    )
                    .timestamp(aws_sdk_cloudwatch::primitives::DateTime::from_secs(
                        now - days_ago * 86_400,
                    ))
                    .value(value)
                    .unit(aws_sdk_cloudwatch::types::StandardUnit::Percent)
                    .build(),
            )
            .send()
            .await
            .expect("moto: put metric data");
    }

    Fixture {
        instance_id,
        vpc_id,
        subnet_id,
        group_id,
        volume_id,
        snapshot_id,
        allocation_id,
        image_id,
        other_volume_id,
    }
}

#[tokio::test]
async fn discovery_finds_every_resource_type_in_two_regions_and_sees_what_changed() {
    let moto = Moto::start();
    let role = role(&moto).await;
    let f = create_everything(&moto).await;
    let both = [MOTO_REGION, OTHER_REGION];

    let first = discover(&moto, &role, &both).await;
    assert!(first.failures.is_empty(), "{:#?}", first.failures);
    assert_eq!(
        first
            .complete_scopes
            .iter()
            .cloned()
            .collect::<BTreeSet<_>>(),
        every_scope(&both)
    );
    for resource in &first.resources {
        assert_eq!(resource.account_id, MOTO_ACCOUNT_ID);
        assert!(
            ALL.contains(&resource.resource_type.as_str()),
            "{resource:?}"
        );
        assert_eq!(
            resource.region == GLOBAL_REGION,
            is_global(&resource.resource_type),
            "{resource:?}"
        );
        assert!(resource.properties.is_object(), "{resource:?}");
    }
    let found_types: BTreeSet<&str> = first
        .resources
        .iter()
        .map(|r| r.resource_type.as_str())
        .collect();
    assert_eq!(found_types, ALL.into_iter().collect::<BTreeSet<_>>());

    // EC2 instance
    let instance = find(&first, types::EC2_INSTANCE, &f.instance_id);
    let p = &instance.properties;
    assert_eq!(instance.region, MOTO_REGION);
    assert_eq!(
        instance.arn.as_deref(),
        Some(
            format!(
                "arn:aws:ec2:us-east-1:{MOTO_ACCOUNT_ID}:instance/{}",
                f.instance_id
            )
            .as_str()
        )
    );
    assert_eq!(str_at(p, "InstanceId"), Some(f.instance_id.as_str()));
    assert_eq!(str_at(p, "InstanceType"), Some("m4.large"));
    assert_eq!(str_at(p, "State"), Some("running"));
    assert_eq!(at(p, "StoppedSince"), Some(&Value::Null));
    assert!(is_rfc3339_utc(at(p, "LaunchTime")), "{p}");
    assert_eq!(str_at(p, "VpcId"), Some(f.vpc_id.as_str()));
    assert_eq!(str_at(p, "SubnetId"), Some(f.subnet_id.as_str()));
    assert_eq!(str_at(p, "Placement.AvailabilityZone"), Some("us-east-1a"));
    assert_eq!(p["SecurityGroups"][0]["GroupId"], json!(f.group_id));
    assert!(p.get("PrivateIpAddress").is_some() && p.get("PublicIpAddress").is_some());
    assert!(p["BlockDeviceMappings"].is_array());
    assert_eq!(tags(instance), [("env", "prod"), ("team", "data")]);
    // CloudWatch: daily averages 2 % and 4 %, kept as metrics, not properties
    let metrics = instance
        .metrics
        .as_ref()
        .expect("CPU metrics of the instance");
    assert_eq!(metrics["CpuAverage14d"], json!(3.0), "{metrics}");
    assert_eq!(metrics["CpuMax14d"], json!(4.0), "{metrics}");
    assert_eq!(metrics["Datapoints"], json!(2), "{metrics}");
    assert!(is_rfc3339_utc(metrics.get("MeasuredAt")), "{metrics}");
    assert!(p.get("CpuAverage14d").is_none());

    // An unattached gp2 volume
    let volume = find(&first, types::EC2_VOLUME, &f.volume_id);
    let p = &volume.properties;
    assert_eq!(str_at(p, "State"), Some("available"));
    assert_eq!(str_at(p, "VolumeType"), Some("gp2"));
    assert_eq!(p["Size"], json!(100));
    assert_eq!(p["Encrypted"], json!(false));
    assert_eq!(p["Attachments"], json!([]));
    assert_eq!(str_at(p, "AvailabilityZone"), Some("us-east-1a"));
    assert!(is_rfc3339_utc(at(p, "CreateTime")), "{p}");
    assert_eq!(tags(volume), [("owner", "alice")]);
    // The instance's root volume is in use and attached to it.
    let root = first
        .resources
        .iter()
        .find(|r| {
            r.resource_type == types::EC2_VOLUME
                && r.properties["Attachments"][0]["InstanceId"] == json!(f.instance_id)
        })
        .expect("the instance's root volume");
    assert_eq!(str_at(&root.properties, "State"), Some("in-use"));
    // The eu-west-1 volume is there, in its region.
    let other_volume = find(&first, types::EC2_VOLUME, &f.other_volume_id);
    assert_eq!(other_volume.region, OTHER_REGION);
    assert_eq!(str_at(&other_volume.properties, "VolumeType"), Some("gp3"));
    assert_eq!(other_volume.properties["Encrypted"], json!(true));
    assert_eq!(tags(other_volume), [("team", "eu")]);

    // Snapshot, owned by the account
    let snapshot = find(&first, types::EC2_SNAPSHOT, &f.snapshot_id);
    let p = &snapshot.properties;
    assert_eq!(str_at(p, "VolumeId"), Some(f.volume_id.as_str()));
    assert_eq!(p["VolumeSize"], json!(100));
    assert_eq!(str_at(p, "OwnerId"), Some(MOTO_ACCOUNT_ID));
    assert!(is_rfc3339_utc(at(p, "StartTime")), "{p}");
    assert!(p.get("Encrypted").is_some() && p.get("State").is_some());
    assert_eq!(tags(snapshot), [("backup", "nightly")]);
    assert!(first
        .resources
        .iter()
        .filter(|r| r.resource_type == types::EC2_SNAPSHOT)
        .all(|r| str_at(&r.properties, "OwnerId") == Some(MOTO_ACCOUNT_ID)));

    // An Elastic IP associated with nothing
    let eip = find(&first, types::EC2_ELASTIC_IP, &f.allocation_id);
    let p = &eip.properties;
    assert_eq!(p["AssociationId"], Value::Null);
    assert_eq!(p["InstanceId"], Value::Null);
    assert!(str_at(p, "PublicIp").is_some(), "{p}");
    assert_eq!(str_at(p, "Domain"), Some("vpc"));
    assert_eq!(tags(eip), [("purpose", "nat")]);

    // The account's own AMI (and no Amazon-owned one)
    let image = find(&first, types::EC2_IMAGE, &f.image_id);
    assert_eq!(str_at(&image.properties, "Name"), Some("costscope-golden"));
    assert!(image.properties.get("State").is_some());
    assert!(
        image.properties["Public"].is_boolean(),
        "{}",
        image.properties
    );
    assert!(image.properties.get("CreationDate").is_some());
    assert_eq!(tags(image), [("release", "2026.11")]);
    assert_eq!(
        first
            .resources
            .iter()
            .filter(|r| r.resource_type == types::EC2_IMAGE)
            .count(),
        1
    );

    // VPC, subnet, security group open to the world on 22
    let vpc = find(&first, types::EC2_VPC, &f.vpc_id);
    assert_eq!(str_at(&vpc.properties, "CidrBlock"), Some("10.1.0.0/16"));
    assert_eq!(vpc.properties["IsDefault"], json!(false));
    assert_eq!(str_at(&vpc.properties, "State"), Some("available"));
    assert_eq!(tags(vpc), [("Name", "main"), ("team", "data")]);
    // moto's default VPC of each region is found too.
    for region in both {
        assert!(first
            .resources
            .iter()
            .any(|r| r.resource_type == types::EC2_VPC
                && r.region == region
                && r.properties["IsDefault"] == json!(true)));
    }
    let subnet = find(&first, types::EC2_SUBNET, &f.subnet_id);
    assert_eq!(str_at(&subnet.properties, "VpcId"), Some(f.vpc_id.as_str()));
    assert_eq!(str_at(&subnet.properties, "CidrBlock"), Some("10.1.1.0/24"));
    assert_eq!(
        str_at(&subnet.properties, "AvailabilityZone"),
        Some("us-east-1a")
    );
    assert!(subnet.properties["MapPublicIpOnLaunch"].is_boolean());
    assert_eq!(tags(subnet), [("tier", "app")]);
    let group = find(&first, types::EC2_SECURITY_GROUP, &f.group_id);
    let p = &group.properties;
    assert_eq!(str_at(p, "GroupName"), Some("ssh-open"));
    assert_eq!(str_at(p, "VpcId"), Some(f.vpc_id.as_str()));
    assert_eq!(str_at(p, "Description"), Some("SSH from anywhere"));
    let rules = p["IpPermissions"].as_array().unwrap();
    assert!(
        rules.iter().any(|rule| rule["IpProtocol"] == json!("tcp")
            && rule["FromPort"] == json!(22)
            && rule["ToPort"] == json!(22)
            && rule["IpRanges"][0]["CidrIp"] == json!("0.0.0.0/0")),
        "{p}"
    );
    assert_eq!(tags(group), [("team", "ops")]);

    // S3: each bucket in its own region, listed once
    let public = find(&first, types::S3_BUCKET, "costscope-public-site");
    assert_eq!(public.region, MOTO_REGION);
    assert_eq!(
        public.arn.as_deref(),
        Some("arn:aws:s3:::costscope-public-site")
    );
    let p = &public.properties;
    assert_eq!(str_at(p, "Name"), Some("costscope-public-site"));
    assert_eq!(str_at(p, "Region"), Some(MOTO_REGION));
    assert!(is_rfc3339_utc(at(p, "CreationDate")), "{p}");
    assert_eq!(p["PolicyIsPublic"], json!(false));
    assert!(p.get("PublicAccessBlock").is_some() && p.get("ServerSideEncryption").is_some());
    assert!(
        p["AclGrants"].as_array().unwrap().iter().any(|grant| {
            grant["Grantee"]["URI"] == json!("http://acs.amazonaws.com/groups/global/AllUsers")
                && grant["Permission"] == json!("READ")
        }),
        "{p}"
    );
    let private = find(&first, types::S3_BUCKET, "costscope-eu-data");
    assert_eq!(private.region, OTHER_REGION);
    assert_eq!(str_at(&private.properties, "Region"), Some(OTHER_REGION));
    assert!(
        !private.properties["AclGrants"]
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g["Grantee"]["URI"]
                .as_str()
                .is_some_and(|u| u.ends_with("AllUsers"))),
        "{}",
        private.properties
    );
    assert_eq!(tags(private), [("team", "eu")]);
    assert_eq!(
        first
            .resources
            .iter()
            .filter(|r| r.resource_type == types::S3_BUCKET)
            .count(),
        2
    );

    // RDS
    let db = find(&first, types::RDS_DB_INSTANCE, "orders-db");
    let p = &db.properties;
    assert_eq!(str_at(p, "DBInstanceClass"), Some("db.t3.micro"));
    assert_eq!(str_at(p, "Engine"), Some("postgres"));
    assert_eq!(p["AllocatedStorage"], json!(20));
    assert!(
        p["StorageEncrypted"].is_boolean() && p["MultiAZ"].is_boolean(),
        "{p}"
    );
    assert!(p.get("DBInstanceStatus").is_some() && p.get("PubliclyAccessible").is_some());
    assert_eq!(db.arn.as_deref(), str_at(p, "DBInstanceArn"));
    assert_eq!(tags(db), [("team", "orders")]);

    // Lambda
    let function = find(&first, types::LAMBDA_FUNCTION, "resize");
    let p = &function.properties;
    assert_eq!(str_at(p, "Runtime"), Some("python3.12"));
    assert_eq!(p["MemorySize"], json!(256));
    assert_eq!(p["Timeout"], json!(30));
    assert!(is_rfc3339_utc(at(p, "LastModified")), "{p}");
    assert!(p["CodeSize"].is_number());
    assert_eq!(function.arn.as_deref(), str_at(p, "FunctionArn"));
    assert_eq!(tags(function), [("team", "media")]);

    // ELBv2
    let lb = find(&first, types::ELBV2_LOAD_BALANCER, "web-alb");
    let p = &lb.properties;
    assert_eq!(str_at(p, "Type"), Some("application"));
    assert_eq!(str_at(p, "Scheme"), Some("internet-facing"));
    assert_eq!(str_at(p, "VpcId"), Some(f.vpc_id.as_str()));
    assert!(str_at(p, "DNSName").is_some() && p.get("State").is_some());
    assert!(is_rfc3339_utc(at(p, "CreatedTime")), "{p}");
    assert_eq!(lb.arn.as_deref(), str_at(p, "LoadBalancerArn"));
    assert_eq!(tags(lb), [("team", "web")]);

    // DynamoDB, one table a region
    let table = find(&first, types::DYNAMODB_TABLE, "events");
    let p = &table.properties;
    assert_eq!(table.region, MOTO_REGION);
    assert_eq!(str_at(p, "TableStatus"), Some("ACTIVE"));
    assert_eq!(str_at(p, "BillingMode"), Some("PAY_PER_REQUEST"));
    let usage = table
        .metrics
        .as_ref()
        .expect("a table's item count is a metric");
    assert_eq!(usage["ItemCount"], json!(0));
    assert!(usage.get("TableSizeBytes").is_some() && p.get("SSEStatus").is_some());
    assert!(p.get("ItemCount").is_none(), "{p}");
    assert_eq!(table.arn.as_deref(), str_at(p, "TableArn"));
    assert_eq!(tags(table), [("team", "events")]);
    assert_eq!(
        find(&first, types::DYNAMODB_TABLE, "eu-events").region,
        OTHER_REGION
    );

    // IAM: users with and without MFA, a console password, access keys; roles
    let alice = find(&first, types::IAM_USER, "alice");
    assert_eq!(alice.region, GLOBAL_REGION);
    assert_eq!(alice.properties["MfaEnabled"], json!(true));
    assert_eq!(alice.properties["HasConsolePassword"], json!(true));
    assert_eq!(alice.properties["AccessKeyCount"], json!(0));
    assert!(is_rfc3339_utc(at(&alice.properties, "CreateDate")));
    assert!(alice
        .metrics
        .as_ref()
        .is_some_and(|m| m.get("PasswordLastUsed").is_some()));
    assert!(alice.properties.get("PasswordLastUsed").is_none());
    assert_eq!(
        alice.arn.as_deref(),
        Some(format!("arn:aws:iam::{MOTO_ACCOUNT_ID}:user/alice").as_str())
    );
    assert_eq!(tags(alice), [("team", "finops")]);
    let bob = find(&first, types::IAM_USER, "bob");
    assert_eq!(bob.properties["MfaEnabled"], json!(false));
    assert_eq!(bob.properties["HasConsolePassword"], json!(false));
    assert_eq!(bob.properties["AccessKeyCount"], json!(1));
    let keys: Vec<&DiscoveredResource> = first
        .resources
        .iter()
        .filter(|r| r.resource_type == types::IAM_ACCESS_KEY)
        .collect();
    assert_eq!(keys.len(), 1, "{keys:?}");
    let key = &keys[0].properties;
    assert_eq!(str_at(key, "UserName"), Some("bob"));
    assert_eq!(str_at(key, "Status"), Some("Active"));
    assert!(is_rfc3339_utc(at(key, "CreateDate")), "{key}");
    assert!(keys[0]
        .metrics
        .as_ref()
        .is_some_and(|m| m.get("LastUsedDate").is_some()));
    assert!(key.get("LastUsedDate").is_none());
    assert_eq!(keys[0].region, GLOBAL_REGION);
    let costscope_role = find(&first, types::IAM_ROLE, "CostscopeReadOnly");
    assert_eq!(costscope_role.arn.as_deref(), Some(role.role_arn.as_str()));
    assert!(costscope_role
        .metrics
        .as_ref()
        .is_some_and(|m| m.get("RoleLastUsed").is_some()));
    assert!(costscope_role.properties.get("RoleLastUsed").is_none());
    assert!(is_rfc3339_utc(at(&costscope_role.properties, "CreateDate")));
    find(&first, types::IAM_ROLE, "resize-exec");

    // Changes: a tag edited and the instance stopped; a table deleted.
    let client = ec2(&moto.sdk(), MOTO_REGION);
    client
        .create_tags()
        .resources(&f.instance_id)
        .tags(Tag::builder().key("env").value("staging").build())
        .send()
        .await
        .expect("moto: retag");
    client
        .stop_instances()
        .instance_ids(&f.instance_id)
        .send()
        .await
        .expect("moto: stop");
    aws_sdk_dynamodb::Client::new(moto.sdk().config())
        .delete_table()
        .table_name("events")
        .send()
        .await
        .expect("moto: delete table");

    let second = discover(&moto, &role, &both).await;
    assert!(second.failures.is_empty(), "{:#?}", second.failures);
    assert_eq!(
        second
            .complete_scopes
            .iter()
            .cloned()
            .collect::<BTreeSet<_>>(),
        every_scope(&both)
    );
    let instance = find(&second, types::EC2_INSTANCE, &f.instance_id);
    assert_eq!(str_at(&instance.properties, "State"), Some("stopped"));
    let since = at(&instance.properties, "StoppedSince");
    assert!(is_rfc3339_utc(since), "{}", instance.properties);
    let since = chrono::DateTime::parse_from_rfc3339(since.unwrap().as_str().unwrap()).unwrap();
    assert!(
        (chrono::Utc::now() - since.with_timezone(&chrono::Utc))
            .num_seconds()
            .abs()
            < 600,
        "{since}"
    );
    assert!(str_at(&instance.properties, "StateTransitionReason")
        .is_some_and(|r| r.starts_with("User initiated")));
    assert_eq!(tags(instance), [("env", "staging"), ("team", "data")]);
    assert!(!second
        .resources
        .iter()
        .any(|r| r.resource_type == types::DYNAMODB_TABLE && r.resource_id == "events"));
    find(&second, types::DYNAMODB_TABLE, "eu-events");
    // What did not change is described the same way.
    assert_eq!(
        find(&second, types::EC2_VOLUME, &f.volume_id),
        find(&first, types::EC2_VOLUME, &f.volume_id)
    );
    assert_eq!(
        find(&second, types::S3_BUCKET, "costscope-public-site"),
        find(&first, types::S3_BUCKET, "costscope-public-site")
    );
    assert_eq!(
        find(&second, types::IAM_USER, "alice"),
        find(&first, types::IAM_USER, "alice")
    );
}

/// A region the endpoint rejects (moto serves no backend for it and answers 500 to every
/// call, even after the SDK's retries): each of its services is a ScopeFailure naming the
/// region, nothing of it is complete, and what the good region, S3 and IAM found is all
/// returned.
#[tokio::test]
async fn a_failing_region_is_reported_and_loses_nothing_elsewhere() {
    let moto = Moto::start();
    let role = role(&moto).await;
    let sdk = moto.sdk();
    let volume_id = ec2(&sdk, MOTO_REGION)
        .create_volume()
        .availability_zone("us-east-1a")
        .size(8)
        .send()
        .await
        .expect("moto: create volume")
        .volume_id()
        .unwrap()
        .to_owned();
    moto.create_bucket("costscope-still-here").await;

    let started = std::time::Instant::now();
    let report = discover(&moto, &role, &[MOTO_REGION, "xx-nowhere-1"]).await;
    assert!(started.elapsed() < Duration::from_secs(120));

    find(&report, types::EC2_VOLUME, &volume_id);
    find(&report, types::S3_BUCKET, "costscope-still-here");
    find(&report, types::IAM_ROLE, "CostscopeReadOnly");
    let failed: BTreeSet<(&str, &str)> = report
        .failures
        .iter()
        .map(|f| (f.region.as_str(), f.service.as_str()))
        .collect();
    assert_eq!(
        failed,
        ["DynamoDB", "EC2", "ELBv2", "Lambda", "RDS"]
            .into_iter()
            .map(|service| ("xx-nowhere-1", service))
            .collect::<BTreeSet<_>>(),
        "{:#?}",
        report.failures
    );
    for failure in &report.failures {
        assert!(
            failure.message.contains("xx-nowhere-1"),
            "{}",
            failure.message
        );
        assert!(!failure.message.contains("testing"), "{}", failure.message);
    }
    let ec2_messages: Vec<&str> = report
        .failures
        .iter()
        .filter(|f| f.service == "EC2")
        .map(|f| f.message.as_str())
        .collect();
    let ec2_messages = ec2_messages.join("\n");
    for action in [
        "DescribeInstances",
        "DescribeVolumes",
        "DescribeSnapshots",
        "DescribeAddresses",
        "DescribeImages",
        "DescribeVpcs",
        "DescribeSubnets",
        "DescribeSecurityGroups",
    ] {
        assert!(ec2_messages.contains(action), "{ec2_messages}");
    }
    // The good region is complete; the failing one only for S3 (ListBuckets answered, and
    // no bucket is there).
    let complete: BTreeSet<(String, String)> = report.complete_scopes.iter().cloned().collect();
    let mut expected = every_scope(&[MOTO_REGION]);
    expected.insert(("xx-nowhere-1".into(), types::S3_BUCKET.into()));
    assert_eq!(complete, expected);
}
