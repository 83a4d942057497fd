//! RDS database instances of one region.

use costscope_core::inventory::resource_types::RDS_DB_INSTANCE;
use serde_json::json;

use super::{tag_map, time, Call, Ctx, Found, RDS};

const DESCRIBE_DB_INSTANCES: Call = Call {
    service: RDS,
    action: "DescribeDBInstances",
    permission: "rds:DescribeDBInstances",
};

pub(crate) async fn discover(ctx: &Ctx<'_>, region: &str) -> Found {
    let client = ctx.rds(region);
    let listing = paginate!(
        region,
        DESCRIBE_DB_INSTANCES,
        client.describe_db_instances().into_paginator().send(),
        |page, out| {
            for db in page.db_instances() {
                let Some(id) = db.db_instance_identifier() else {
                    continue;
                };
                let properties = json!({
                    "DBInstanceIdentifier": id,
                    "DBInstanceArn": db.db_instance_arn(),
                    "DBInstanceClass": db.db_instance_class(),
                    "Engine": db.engine(),
                    "EngineVersion": db.engine_version(),
                    "DBInstanceStatus": db.db_instance_status(),
                    "StorageEncrypted": db.storage_encrypted(),
                    "KmsKeyId": db.kms_key_id(),
                    "AllocatedStorage": db.allocated_storage(),
                    "StorageType": db.storage_type(),
                    "Iops": db.iops(),
                    "MultiAZ": db.multi_az(),
                    "PubliclyAccessible": db.publicly_accessible(),
                    "AvailabilityZone": db.availability_zone(),
                    "InstanceCreateTime": time(db.instance_create_time()),
                    "DBName": db.db_name(),
                    "LicenseModel": db.license_model(),
                    "BackupRetentionPeriod": db.backup_retention_period(),
                    "DeletionProtection": db.deletion_protection(),
                    "DBSubnetGroup": db.db_subnet_group().and_then(|g| g.db_subnet_group_name()),
                    "VpcId": db.db_subnet_group().and_then(|g| g.vpc_id()),
                    "VpcSecurityGroups": db.vpc_security_groups().iter().map(|g| json!({
                        "VpcSecurityGroupId": g.vpc_security_group_id(),
                        "Status": g.status(),
                    })).collect::<Vec<_>>(),
                });
                let arn = db
                    .db_instance_arn()
                    .map(str::to_owned)
                    .unwrap_or_else(|| ctx.arn("rds", region, &format!("db:{id}")));
                out.push(ctx.resource(
                    region,
                    RDS_DB_INSTANCE,
                    id,
                    Some(arn),
                    properties,
                    tag_map(db.tag_list().iter().map(|t| (t.key(), t.value()))),
                ));
            }
        }
    );
    let mut found = Found::default();
    found.record(region, RDS_DB_INSTANCE, listing);
    found
}
