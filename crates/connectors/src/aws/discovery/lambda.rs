//! Lambda functions of one region, with their tags (ListTags per function).

use std::collections::BTreeMap;

use costscope_core::inventory::resource_types::LAMBDA_FUNCTION;
use futures_util::stream::{self, StreamExt};
use serde_json::json;

use super::{text_time, Call, CallFailure, Ctx, Found, LAMBDA};

const LIST_FUNCTIONS: Call = Call {
    service: LAMBDA,
    action: "ListFunctions",
    permission: "lambda:ListFunctions",
};
const LIST_TAGS: Call = Call {
    service: LAMBDA,
    action: "ListTags",
    permission: "lambda:ListTags",
};

/// Functions whose tags are read at once.
const TAG_CONCURRENCY: usize = 8;

pub(crate) async fn discover(ctx: &Ctx<'_>, region: &str) -> Found {
    let client = ctx.lambda(region);
    let listing = paginate!(
        region,
        LIST_FUNCTIONS,
        client.list_functions().into_paginator().send(),
        |page, out| {
            for function in page.functions() {
                let Some(name) = function.function_name() else {
                    continue;
                };
                let properties = json!({
                    "FunctionName": name,
                    "FunctionArn": function.function_arn(),
                    "Runtime": function.runtime().map(|r| r.as_str()),
                    "Handler": function.handler(),
                    "Role": function.role(),
                    "MemorySize": function.memory_size(),
                    "Timeout": function.timeout(),
                    "LastModified": text_time(function.last_modified()),
                    "CodeSize": function.code_size(),
                    "PackageType": function.package_type().map(|p| p.as_str()),
                    "Architectures": function.architectures().iter().map(|a| a.as_str()).collect::<Vec<_>>(),
                    "EphemeralStorage": function.ephemeral_storage().map(|e| e.size()),
                    "Description": function.description(),
                });
                let arn = function
                    .function_arn()
                    .map(str::to_owned)
                    .unwrap_or_else(|| ctx.arn("lambda", region, &format!("function:{name}")));
                out.push(ctx.resource(
                    region,
                    LAMBDA_FUNCTION,
                    name,
                    Some(arn),
                    properties,
                    Default::default(),
                ));
            }
        }
    );
    let mut found = Found::default();
    let (mut functions, listing_failure) = match listing {
        Ok(functions) => (functions, None),
        Err((functions, failure)) => (functions, Some(failure)),
    };
    // Tags: a function whose tags cannot be read is left out (its stored state is kept).
    let answers: Vec<(usize, Result<BTreeMap<String, String>, CallFailure>)> = stream::iter(
        functions
            .iter()
            .map(|function| function.arn.clone().unwrap_or_default())
            .enumerate()
            .collect::<Vec<_>>(),
    )
    .map(|(index, arn)| {
        let client = &client;
        async move {
            let tags = client
                .list_tags()
                .resource(arn)
                .send()
                .await
                .map(|answer| {
                    answer
                        .tags()
                        .map(|tags| {
                            tags.iter()
                                .map(|(k, v)| (k.clone(), v.clone()))
                                .collect::<BTreeMap<String, String>>()
                        })
                        .unwrap_or_default()
                })
                .map_err(|err| CallFailure::new(region, LIST_TAGS, &err));
            (index, tags)
        }
    })
    .buffer_unordered(TAG_CONCURRENCY)
    .collect()
    .await;
    let mut keep = vec![false; functions.len()];
    let mut tag_failure = None;
    for (index, answer) in answers {
        match answer {
            Ok(tags) => {
                functions[index].tags = tags;
                keep[index] = true;
            }
            Err(failure) => {
                tag_failure.get_or_insert(failure);
            }
        }
    }
    let mut index = 0;
    functions.retain(|_| {
        let kept = keep[index];
        index += 1;
        kept
    });
    match (listing_failure, tag_failure) {
        (None, None) => found.listed(region, LAMBDA_FUNCTION, functions),
        (Some(failure), other) => {
            found.partial(functions, failure);
            found.failures.extend(other);
        }
        (None, Some(failure)) => found.partial(functions, failure),
    }
    found
}
