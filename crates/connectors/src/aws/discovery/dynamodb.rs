//! DynamoDB tables of one region: ListTables, then DescribeTable and ListTagsOfResource for
//! each.

use std::collections::BTreeMap;

use costscope_core::inventory::resource_types::DYNAMODB_TABLE;
use costscope_core::inventory::DiscoveredResource;
use futures_util::stream::{self, StreamExt};
use serde_json::json;

use super::{time, Call, CallFailure, Ctx, Found, DYNAMODB};

const LIST_TABLES: Call = Call {
    service: DYNAMODB,
    action: "ListTables",
    permission: "dynamodb:ListTables",
};
const DESCRIBE_TABLE: Call = Call {
    service: DYNAMODB,
    action: "DescribeTable",
    permission: "dynamodb:DescribeTable",
};
const LIST_TAGS: Call = Call {
    service: DYNAMODB,
    action: "ListTagsOfResource",
    permission: "dynamodb:ListTagsOfResource",
};

/// Tables described at once.
const TABLE_CONCURRENCY: usize = 8;

pub(crate) async fn discover(ctx: &Ctx<'_>, region: &str) -> Found {
    let client = ctx.dynamodb(region);
    let mut found = Found::default();
    let mut names: Vec<String> = Vec::new();
    let mut listing_failure = None;
    let mut pages = client.list_tables().into_paginator().send();
    while let Some(page) = pages.next().await {
        match page {
            Ok(page) => names.extend(page.table_names().iter().cloned()),
            Err(err) => {
                listing_failure = Some(CallFailure::new(region, LIST_TABLES, &err));
                break;
            }
        }
    }
    let described: Vec<Result<Option<DiscoveredResource>, CallFailure>> =
        stream::iter(names.iter().cloned())
            .map(|name| {
                let client = &client;
                async move { table(ctx, client, region, &name).await }
            })
            .buffer_unordered(TABLE_CONCURRENCY)
            .collect()
            .await;
    let mut tables = Vec::new();
    let mut detail_failure = None;
    for result in described {
        match result {
            Ok(Some(table)) => tables.push(table),
            Ok(None) => {}
            Err(failure) => {
                detail_failure.get_or_insert(failure);
            }
        }
    }
    match (listing_failure, detail_failure) {
        (None, None) => found.listed(region, DYNAMODB_TABLE, tables),
        (Some(failure), other) => {
            found.partial(tables, failure);
            found.failures.extend(other);
        }
        (None, Some(failure)) => found.partial(tables, failure),
    }
    found
}

/// One table, or `None` when it was deleted since the listing.
async fn table(
    ctx: &Ctx<'_>,
    client: &aws_sdk_dynamodb::Client,
    region: &str,
    name: &str,
) -> Result<Option<DiscoveredResource>, CallFailure> {
    let answer = match client.describe_table().table_name(name).send().await {
        Ok(answer) => answer,
        Err(err) => {
            let failure = CallFailure::new(region, DESCRIBE_TABLE, &err);
            if failure.failure.code.as_deref() == Some("ResourceNotFoundException") {
                return Ok(None);
            }
            return Err(failure);
        }
    };
    let Some(table) = answer.table() else {
        return Ok(None);
    };
    let arn = table
        .table_arn()
        .map(str::to_owned)
        .unwrap_or_else(|| ctx.arn("dynamodb", region, &format!("table/{name}")));
    let mut tags = BTreeMap::new();
    let mut next: Option<String> = None;
    loop {
        let answer = client
            .list_tags_of_resource()
            .resource_arn(&arn)
            .set_next_token(next.take())
            .send()
            .await
            .map_err(|err| CallFailure::new(region, LIST_TAGS, &err))?;
        for tag in answer.tags() {
            tags.insert(tag.key().to_owned(), tag.value().to_owned());
        }
        match answer.next_token() {
            Some(token) if !token.is_empty() => next = Some(token.to_owned()),
            _ => break,
        }
    }
    let properties = json!({
        "TableName": table.table_name().unwrap_or(name),
        "TableArn": table.table_arn(),
        "TableId": table.table_id(),
        "TableStatus": table.table_status().map(|s| s.as_str()),
        "CreationDateTime": time(table.creation_date_time()),
        "BillingMode": table
            .billing_mode_summary()
            .and_then(|b| b.billing_mode())
            .map(|m| m.as_str())
            // Tables created before on-demand existed report no summary: provisioned.
            .unwrap_or("PROVISIONED"),
        "ProvisionedThroughput": table.provisioned_throughput().map(|p| json!({
            "ReadCapacityUnits": p.read_capacity_units(),
            "WriteCapacityUnits": p.write_capacity_units(),
        })),
        "SSEStatus": table.sse_description().and_then(|s| s.status()).map(|s| s.as_str()),
        "KeySchema": table.key_schema().iter().map(|k| json!({
            "AttributeName": k.attribute_name(),
            "KeyType": k.key_type().as_str(),
        })).collect::<Vec<_>>(),
        "DeletionProtectionEnabled": table.deletion_protection_enabled(),
        "TableClass": table.table_class_summary().and_then(|c| c.table_class()).map(|c| c.as_str()),
    });
    let mut resource = ctx.resource(region, DYNAMODB_TABLE, name, Some(arn), properties, tags);
    // DynamoDB refreshes these about every six hours as items come and go: metrics.
    resource.metrics = Some(json!({
        "ItemCount": table.item_count(),
        "TableSizeBytes": table.table_size_bytes(),
    }));
    Ok(Some(resource))
}
