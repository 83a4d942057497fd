//! IAM (global): users (with MFA and console password), their access keys (with when each
//! was last used) and roles (with when each was last used).

use std::collections::BTreeMap;

use aws_sdk_iam::types::{Role, User};
use costscope_core::inventory::resource_types::{IAM_ACCESS_KEY, IAM_ROLE, IAM_USER};
use costscope_core::inventory::DiscoveredResource;
use futures_util::stream::{self, StreamExt};
use serde_json::json;

use super::{time, Call, CallFailure, Ctx, Found, GLOBAL, IAM};

const fn call(action: &'static str, permission: &'static str) -> Call {
    Call {
        service: IAM,
        action,
        permission,
    }
}

const LIST_USERS: Call = call("ListUsers", "iam:ListUsers");
const LIST_MFA_DEVICES: Call = call("ListMFADevices", "iam:ListMFADevices");
const GET_LOGIN_PROFILE: Call = call("GetLoginProfile", "iam:GetLoginProfile");
const LIST_USER_TAGS: Call = call("ListUserTags", "iam:ListUserTags");
const LIST_ACCESS_KEYS: Call = call("ListAccessKeys", "iam:ListAccessKeys");
const GET_ACCESS_KEY_LAST_USED: Call = call("GetAccessKeyLastUsed", "iam:GetAccessKeyLastUsed");
const LIST_ROLES: Call = call("ListRoles", "iam:ListRoles");
const GET_ROLE: Call = call("GetRole", "iam:GetRole");

/// Users or roles described at once.
const CONCURRENCY: usize = 8;

pub(crate) async fn discover(ctx: &Ctx<'_>) -> Found {
    let client = ctx.iam(ctx.home);
    let (users, roles) = tokio::join!(users(ctx, &client), roles(ctx, &client));
    let mut found = users;
    found.merge(roles);
    found
}

async fn users(ctx: &Ctx<'_>, client: &aws_sdk_iam::Client) -> Found {
    let mut found = Found::default();
    let mut users: Vec<User> = Vec::new();
    let mut listing_failure = None;
    let mut pages = client.list_users().into_paginator().send();
    while let Some(page) = pages.next().await {
        match page {
            Ok(page) => users.extend(page.users().iter().cloned()),
            Err(err) => {
                listing_failure = Some(CallFailure::new(GLOBAL, LIST_USERS, &err));
                break;
            }
        }
    }
    let described: Vec<Result<(DiscoveredResource, Vec<DiscoveredResource>), CallFailure>> =
        stream::iter(users.iter().cloned())
            .map(|user| async move { user_and_keys(ctx, client, &user).await })
            .buffer_unordered(CONCURRENCY)
            .collect()
            .await;
    let mut user_resources = Vec::new();
    let mut key_resources = Vec::new();
    let mut detail_failure = None;
    for result in described {
        match result {
            Ok((user, keys)) => {
                user_resources.push(user);
                key_resources.extend(keys);
            }
            Err(failure) => {
                detail_failure.get_or_insert(failure);
            }
        }
    }
    match (listing_failure, detail_failure) {
        (None, None) => {
            found.listed(GLOBAL, IAM_USER, user_resources);
            found.listed(GLOBAL, IAM_ACCESS_KEY, key_resources);
        }
        (listing, detail) => {
            found.resources.extend(user_resources);
            found.resources.extend(key_resources);
            found.failures.extend(listing);
            found.failures.extend(detail);
        }
    }
    found
}

/// A user and its access keys; a failure of any detail leaves the user (and its keys) out.
async fn user_and_keys(
    ctx: &Ctx<'_>,
    client: &aws_sdk_iam::Client,
    user: &User,
) -> Result<(DiscoveredResource, Vec<DiscoveredResource>), CallFailure> {
    let name = user.user_name();
    let mfa = async {
        let mut devices = 0usize;
        let mut pages = client
            .list_mfa_devices()
            .user_name(name)
            .into_paginator()
            .send();
        while let Some(page) = pages.next().await {
            let page = page.map_err(|err| CallFailure::new(GLOBAL, LIST_MFA_DEVICES, &err))?;
            devices += page.mfa_devices().len();
        }
        Ok::<_, CallFailure>(devices)
    };
    let password = async {
        match client.get_login_profile().user_name(name).send().await {
            Ok(_) => Ok(true),
            Err(err) => {
                let failure = CallFailure::new(GLOBAL, GET_LOGIN_PROFILE, &err);
                if failure.failure.code.as_deref() == Some("NoSuchEntity") {
                    Ok(false)
                } else {
                    Err(failure)
                }
            }
        }
    };
    let tags = async {
        let mut tags = BTreeMap::new();
        let mut pages = client
            .list_user_tags()
            .user_name(name)
            .into_paginator()
            .send();
        while let Some(page) = pages.next().await {
            let page = page.map_err(|err| CallFailure::new(GLOBAL, LIST_USER_TAGS, &err))?;
            for tag in page.tags() {
                tags.insert(tag.key().to_owned(), tag.value().to_owned());
            }
        }
        Ok::<_, CallFailure>(tags)
    };
    let keys = async {
        let mut keys = Vec::new();
        let mut pages = client
            .list_access_keys()
            .user_name(name)
            .into_paginator()
            .send();
        while let Some(page) = pages.next().await {
            let page = page.map_err(|err| CallFailure::new(GLOBAL, LIST_ACCESS_KEYS, &err))?;
            keys.extend(page.access_key_metadata().iter().cloned());
        }
        let mut out = Vec::new();
        for key in keys {
            let Some(id) = key.access_key_id() else {
                continue;
            };
            let used = client
                .get_access_key_last_used()
                .access_key_id(id)
                .send()
                .await
                .map_err(|err| CallFailure::new(GLOBAL, GET_ACCESS_KEY_LAST_USED, &err))?;
            let last = used.access_key_last_used();
            let properties = json!({
                "AccessKeyId": id,
                "UserName": key.user_name().unwrap_or(name),
                "Status": key.status().map(|s| s.as_str()),
                "CreateDate": time(key.create_date()),
            });
            let mut resource = ctx.resource(
                GLOBAL,
                IAM_ACCESS_KEY,
                id,
                None,
                properties,
                BTreeMap::new(),
            );
            // Last use changes with every call the key signs: a metric, not a snapshot.
            resource.metrics = Some(json!({
                "LastUsedDate": time(last.and_then(|l| l.last_used_date())),
                "LastUsedService": last.map(|l| l.service_name()).filter(|s| *s != "N/A"),
                "LastUsedRegion": last.map(|l| l.region()).filter(|s| *s != "N/A"),
            }));
            out.push(resource);
        }
        Ok::<_, CallFailure>(out)
    };
    let (mfa, password, tags, keys) = tokio::join!(mfa, password, tags, keys);
    let (mfa, password, tags, keys) = (mfa?, password?, tags?, keys?);
    let properties = json!({
        "UserName": name,
        "UserId": user.user_id(),
        "Arn": user.arn(),
        "Path": user.path(),
        "CreateDate": time(Some(user.create_date())),
        "HasConsolePassword": password,
        "MfaEnabled": mfa > 0,
        "MfaDeviceCount": mfa,
        "AccessKeyCount": keys.len(),
    });
    let mut resource = ctx.resource(
        GLOBAL,
        IAM_USER,
        name,
        Some(user.arn().to_owned()),
        properties,
        tags,
    );
    // Changes with every console sign-in: a metric, not a reason for a snapshot.
    resource.metrics = Some(json!({ "PasswordLastUsed": time(user.password_last_used()) }));
    Ok((resource, keys))
}

async fn roles(ctx: &Ctx<'_>, client: &aws_sdk_iam::Client) -> Found {
    let mut found = Found::default();
    let mut roles: Vec<Role> = Vec::new();
    let mut listing_failure = None;
    let mut pages = client.list_roles().into_paginator().send();
    while let Some(page) = pages.next().await {
        match page {
            Ok(page) => roles.extend(page.roles().iter().cloned()),
            Err(err) => {
                listing_failure = Some(CallFailure::new(GLOBAL, LIST_ROLES, &err));
                break;
            }
        }
    }
    let described: Vec<Result<Option<DiscoveredResource>, CallFailure>> =
        stream::iter(roles.iter().cloned())
            .map(|role| async move { role_resource(ctx, client, &role).await })
            .buffer_unordered(CONCURRENCY)
            .collect()
            .await;
    let mut resources = Vec::new();
    let mut detail_failure = None;
    for result in described {
        match result {
            Ok(Some(role)) => resources.push(role),
            Ok(None) => {}
            Err(failure) => {
                detail_failure.get_or_insert(failure);
            }
        }
    }
    match (listing_failure, detail_failure) {
        (None, None) => found.listed(GLOBAL, IAM_ROLE, resources),
        (listing, detail) => {
            found.resources.extend(resources);
            found.failures.extend(listing);
            found.failures.extend(detail);
        }
    }
    found
}

/// A role with its tags and last use (GetRole: ListRoles answers neither); `None` when it
/// was deleted since the listing.
async fn role_resource(
    ctx: &Ctx<'_>,
    client: &aws_sdk_iam::Client,
    listed: &Role,
) -> Result<Option<DiscoveredResource>, CallFailure> {
    let name = listed.role_name();
    let answer = match client.get_role().role_name(name).send().await {
        Ok(answer) => answer,
        Err(err) => {
            let failure = CallFailure::new(GLOBAL, GET_ROLE, &err);
            if failure.failure.code.as_deref() == Some("NoSuchEntity") {
                return Ok(None);
            }
            return Err(failure);
        }
    };
    let role = answer.role().unwrap_or(listed);
    let properties = json!({
        "RoleName": role.role_name(),
        "RoleId": role.role_id(),
        "Arn": role.arn(),
        "Path": role.path(),
        "Description": role.description(),
        "CreateDate": time(Some(role.create_date())),
        "MaxSessionDuration": role.max_session_duration(),
    });
    let tags = role
        .tags()
        .iter()
        .map(|t| (t.key().to_owned(), t.value().to_owned()))
        .collect();
    let mut resource = ctx.resource(
        GLOBAL,
        IAM_ROLE,
        role.role_name(),
        Some(role.arn().to_owned()),
        properties,
        tags,
    );
    // Last use changes whenever the role is assumed (discovery itself assumes one): a metric.
    resource.metrics = Some(json!({
        "RoleLastUsed": time(role.role_last_used().and_then(|u| u.last_used_date())),
        "RoleLastUsedRegion": role.role_last_used().and_then(|u| u.region()),
    }));
    Ok(Some(resource))
}
