//! `POST /v1/resource/property` (a resource's property snapshots, the side panel's history
//! slider) and `GET /v1/resource/params` (the searchable property paths of resource types).

use axum::extract::{Query, State};
use axum::Json;
use costscope_core::inventory::query::{parse_regions, parse_resource_types};
use costscope_core::inventory::{ResourceKey, ResourceQuery};
use costscope_core::FieldError;

use super::dto::{ParamsQuery, PropertyRequest, ResourceParamDto, SnapshotDto};
use super::params::account_ids;
use crate::http::error::{ApiError, ErrorBody};
use crate::http::extract::{ApiJson, AuthUser};
use crate::state::AppState;

pub const RESOURCE_NOT_FOUND: &str = "Resource not found";
/// Spec 1 §2.7, §9: the history slider shows up to 8 snapshots.
pub const DEFAULT_SNAPSHOTS: u32 = 8;
pub const MAX_SNAPSHOTS: u32 = 100;

pub const RESOURCE_ID_REQUIRED: &str = "resource_id is required";
pub const RESOURCE_TYPE_REQUIRED: &str = "resource_type is required";
pub const REGION_REQUIRED: &str = "region is required";
pub const SNAPSHOT_COUNT: &str = "count must be between 1 and 100";
pub const SNAPSHOT_ORDER: &str = "order_by can only be c_time";
pub const RESOURCE_TYPE_PARAM_REQUIRED: &str = "resourceType is required";
pub const TOO_MANY_TYPES: &str = "At most 50 resourceType values are allowed";
const MAX_PARAM_TYPES: usize = 50;

fn required(
    errors: &mut Vec<FieldError>,
    field: &'static str,
    message: &'static str,
    value: Option<&str>,
) -> Option<String> {
    match value.map(str::trim).filter(|value| !value.is_empty()) {
        Some(value) => Some(value.to_owned()),
        None => {
            errors.push(FieldError::new(field, message));
            None
        }
    }
}

/// The resource's property snapshots: by default its 8 newest, newest first (`order_desc`
/// false: the oldest first). 404 "Resource not found" when the caller's customer has no such
/// resource (in `account_ids` when given).
#[utoipa::path(post, path = "/v1/resource/property", tag = "inventory", security(("bearer" = [])),
    request_body = PropertyRequest,
    responses(
        (status = 200, body = [SnapshotDto]),
        (status = 404, description = "Resource not found", body = ErrorBody),
        (status = 422, description = "A field is missing or broken (the field is named)", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id))]
pub async fn property(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
    ApiJson(body): ApiJson<PropertyRequest>,
) -> Result<Json<Vec<SnapshotDto>>, ApiError> {
    let mut errors = Vec::new();
    let accounts = match account_ids(&body.account_ids) {
        Ok(accounts) => accounts,
        Err(ApiError::Validation(mut found)) => {
            errors.append(&mut found);
            Vec::new()
        }
        Err(other) => return Err(other),
    };
    let resource_id = required(
        &mut errors,
        "resource_id",
        RESOURCE_ID_REQUIRED,
        body.resource_id.as_deref(),
    );
    let resource_type = required(
        &mut errors,
        "resource_type",
        RESOURCE_TYPE_REQUIRED,
        body.resource_type.as_deref(),
    );
    let region = required(
        &mut errors,
        "region",
        REGION_REQUIRED,
        body.region.as_deref(),
    );
    // A type or region that cannot exist is named like the list's filters.
    if let Some(resource_type) = &resource_type {
        if let Err(error) = parse_resource_types(std::slice::from_ref(resource_type)) {
            errors.push(FieldError::new("resource_type", error.message));
        }
    }
    if let Some(region) = &region {
        if let Err(error) = parse_regions(std::slice::from_ref(region)) {
            errors.push(FieldError::new("region", error.message));
        }
    }
    let count = match body.count {
        None => Some(DEFAULT_SNAPSHOTS),
        Some(count) if (1..=i64::from(MAX_SNAPSHOTS)).contains(&count) => u32::try_from(count).ok(),
        Some(_) => {
            errors.push(FieldError::new("count", SNAPSHOT_COUNT));
            None
        }
    };
    match body.order_by.as_deref().map(str::trim) {
        None | Some("") | Some("c_time") => {}
        Some(_) => errors.push(FieldError::new("order_by", SNAPSHOT_ORDER)),
    }
    let (Some(resource_id), Some(resource_type), Some(region), Some(count), true) =
        (resource_id, resource_type, region, count, errors.is_empty())
    else {
        return Err(ApiError::Validation(errors));
    };
    let inventory = state.store.inventory();
    // The account: the one asked for, or whichever of the customer's accounts has the
    // resource (ids are unique per account; the first by account id when several have it).
    let found = inventory
        .list_resources(
            caller.customer_id,
            &ResourceQuery {
                account_ids: accounts,
                regions: vec![region.clone()],
                resource_types: vec![resource_type.clone()],
                resource_ids: vec![resource_id.clone()],
                count: 10,
                order_by: costscope_core::inventory::ResourceOrder::AccountId,
                order_desc: false,
                ..ResourceQuery::default()
            },
        )
        .await?;
    let Some(resource) = found
        .into_iter()
        .find(|resource| resource.key.resource_id == resource_id)
    else {
        return Err(ApiError::NotFound(RESOURCE_NOT_FOUND));
    };
    let key = ResourceKey {
        account_id: resource.key.account_id,
        region,
        resource_type,
        resource_id,
    };
    let snapshots = inventory
        .resource_snapshots(
            caller.customer_id,
            &key,
            count,
            body.order_desc.unwrap_or(true),
        )
        .await?;
    Ok(Json(snapshots.into_iter().map(SnapshotDto::from).collect()))
}

/// The searchable property paths (`FlatPath`, shown as `DisplayName`) of each asked type,
/// read from the latest properties of its live resources, by type then path.
#[utoipa::path(get, path = "/v1/resource/params", tag = "inventory", security(("bearer" = [])),
    params(ParamsQuery),
    responses(
        (status = 200, body = [ResourceParamDto]),
        (status = 422, description = "resourceType missing or not a resource type name", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id))]
pub async fn params(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
    Query(pairs): Query<Vec<(String, String)>>,
) -> Result<Json<Vec<ResourceParamDto>>, ApiError> {
    // `resourceType` repeats (`?resourceType=T&resourceType=U`); other keys are ignored.
    let asked: Vec<String> = pairs
        .into_iter()
        .filter(|(name, _)| name == "resourceType")
        .map(|(_, value)| value)
        .filter(|value| !value.trim().is_empty())
        .collect();
    if asked.is_empty() {
        return Err(FieldError::new("resourceType", RESOURCE_TYPE_PARAM_REQUIRED).into());
    }
    if asked.len() > MAX_PARAM_TYPES {
        return Err(FieldError::new("resourceType", TOO_MANY_TYPES).into());
    }
    let types = parse_resource_types(&asked)
        .map_err(|error| FieldError::new("resourceType", error.message))?;
    let params = state
        .store
        .inventory()
        .resource_params(caller.customer_id, &types)
        .await?;
    Ok(Json(
        params
            .into_iter()
            .map(|(resource_type, param)| ResourceParamDto {
                resource_type,
                display_name: param.display_name,
                flat_path: param.flat_path,
            })
            .collect(),
    ))
}
