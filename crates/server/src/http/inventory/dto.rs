//! What the inventory and standard-tag calls send and answer (spec 1 §3 Resource, Property
//! snapshot, Resource param, Standard tag; §7). Field names as the spec writes them (snake_case,
//! and `ResourceTypeCounts`, `DisplayName`, `FlatPath`, `resourceType` where it says so); times
//! are UNIX seconds, `d_time` 0 for a live resource.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use costscope_core::inventory::query::{DTimeFilterInput, ParamFilterInput, TagFilterInput};
use costscope_core::inventory::standard_tags::TagValuesInput;
use costscope_core::inventory::{PropertySnapshot, Resource, StandardTag};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};

use crate::http::currency::CurrencyAmountDto;

/// `c_time: {lt}`: first seen before this time (UNIX seconds).
#[derive(Debug, Clone, Copy, Default, Deserialize, ToSchema)]
pub struct CTimeFilter {
    pub lt: Option<i64>,
}

/// The body of `POST /v1/resource` and `POST /v1/resource/export`; every field is optional.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
pub struct ResourceRequest {
    /// 12-digit AWS account ids; empty = every account.
    #[serde(default)]
    pub account_ids: Vec<String>,
    /// Region codes (`us-east-1`, `global`); empty = every region.
    #[serde(default)]
    pub regions: Vec<String>,
    /// CloudFormation type names (`AWS::EC2::Instance`); empty = every type.
    #[serde(default)]
    pub resource_types: Vec<String>,
    /// `{eq: 0}` live, `{not_eq: 0}` deleted, `{lt: secs}` deleted before.
    #[schema(value_type = Option<Object>)]
    pub d_time: Option<DTimeFilterInput>,
    pub c_time: Option<CTimeFilter>,
    /// The time-duration picker's window and the cost period (UNIX seconds; default the last
    /// 30 days; at most 900 days back).
    pub start_time: Option<i64>,
    pub end_time: Option<i64>,
    /// Exact resource ids or ARNs.
    #[serde(default)]
    pub resource_ids: Vec<String>,
    /// The Resource ID / Resource Attributes search: a case-insensitive part of the id, the ARN
    /// or a tag value.
    pub search: Option<String>,
    /// `[{name: FlatPath, eq: value}]`.
    #[serde(default)]
    #[schema(value_type = Vec<Object>)]
    pub resource_params: Vec<ParamFilterInput>,
    /// `[{name, operator: Equal|NotEqual|Exists|NotExists|Empty|NotEmpty, value?}]`, or the
    /// spec's `{name, eq}` / `{name, not_eq}` shorthand.
    #[serde(default)]
    #[schema(value_type = Vec<Object>)]
    pub tag: Vec<TagFilterInput>,
    /// Only resources with no tags at all (Tags Search "Show Untagged").
    #[serde(default)]
    pub not_tagged: bool,
    /// 1 to 10000, default 200.
    pub count: Option<i64>,
    /// 0 to 1000000, default 0.
    pub offset: Option<i64>,
    /// `c_time` (default), `m_time`, `d_time`, `resource_id`, `resource_type`, `region`,
    /// `account_id`.
    pub order_by: Option<String>,
    /// Default true.
    pub order_desc: Option<bool>,
}

/// One resource of the inventory (spec 1 §3 Resource) with its billed cost in the period.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ResourceDto {
    pub resource_id: String,
    pub resource_type: String,
    pub region: String,
    pub account_id: String,
    pub arn: Option<String>,
    /// First seen by a discovery run (UNIX seconds).
    pub c_time: i64,
    /// When its latest snapshot was written.
    pub m_time: i64,
    /// When a run no longer found it; 0 while live.
    pub d_time: i64,
    /// Its latest properties (the AWS API's own field names).
    #[schema(value_type = Object)]
    pub property: Value,
    pub tags: BTreeMap<String, String>,
    /// Billed cost over the cost period of the line items naming its id or ARN; null when no
    /// line item names it.
    pub cost: Option<f64>,
}

pub fn secs(at: DateTime<Utc>) -> i64 {
    at.timestamp()
}

impl ResourceDto {
    pub fn new(resource: Resource, cost: Option<f64>) -> Self {
        Self {
            resource_id: resource.key.resource_id,
            resource_type: resource.key.resource_type,
            region: resource.key.region,
            account_id: resource.key.account_id,
            arn: resource.arn,
            c_time: secs(resource.c_time),
            m_time: secs(resource.m_time),
            d_time: resource.d_time.map_or(0, secs),
            property: resource.properties,
            tags: resource.tags,
            cost,
        }
    }
}

/// The window that is also the cost period (UNIX seconds).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct CostPeriod {
    pub start_time: i64,
    pub end_time: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ResourcesResponse {
    /// One page in the asked order.
    pub resources: Vec<ResourceDto>,
    /// Every resource matching the filters (all pages; the header shows "200+" above 199).
    pub total: u64,
    pub cost_period: CostPeriod,
    /// The currency of every `cost`: the tenant's main currency.
    pub currency: String,
    /// Cost of the listed resources in other currencies, left out of `cost`.
    pub other_currencies: Vec<CurrencyAmountDto>,
}

/// The body of `POST /v1/resource/count`.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
pub struct CountRequest {
    #[serde(default)]
    pub account_ids: Vec<String>,
    /// Count deleted resources too (default: live only).
    #[serde(default)]
    pub all_resources: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct RegionCounts {
    pub region: String,
    /// Resources per type.
    #[serde(rename = "ResourceTypeCounts")]
    pub resource_type_counts: BTreeMap<String, u64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct AccountCounts {
    pub account_id: String,
    pub regions: Vec<RegionCounts>,
}

/// The body of `POST /v1/resource/property`.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
pub struct PropertyRequest {
    /// The account(s) to look in; empty = any of the tenant's.
    #[serde(default)]
    pub account_ids: Vec<String>,
    #[schema(required = true)]
    pub resource_id: Option<String>,
    #[schema(required = true)]
    pub resource_type: Option<String>,
    #[schema(required = true)]
    pub region: Option<String>,
    /// Default true (newest first).
    pub order_desc: Option<bool>,
    /// `c_time` only (the default).
    pub order_by: Option<String>,
    /// 1 to 100, default 8 (the history slider's snapshots).
    pub count: Option<i64>,
}

/// One property snapshot (spec 1 §3).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct SnapshotDto {
    /// When it was written (UNIX seconds).
    pub c_time: i64,
    pub tags: BTreeMap<String, String>,
    #[schema(value_type = Object)]
    pub properties: Value,
}

impl From<PropertySnapshot> for SnapshotDto {
    fn from(snapshot: PropertySnapshot) -> Self {
        Self {
            c_time: secs(snapshot.c_time),
            tags: snapshot.tags,
            properties: snapshot.properties,
        }
    }
}

/// `GET /v1/resource/params?resourceType=T&resourceType=U` (repeated).
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ParamsQuery {
    /// A resource type; repeat for several (at least one).
    #[serde(rename = "resourceType")]
    #[param(required = true)]
    pub resource_type: Vec<String>,
}

/// A searchable property path of a type (spec 1 §3 Resource param).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ResourceParamDto {
    #[serde(rename = "resourceType")]
    pub resource_type: String,
    #[serde(rename = "DisplayName")]
    pub display_name: String,
    #[serde(rename = "FlatPath")]
    pub flat_path: String,
}

/// The body of `POST /v1/resource/stats`.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
pub struct StatsRequest {
    #[serde(default)]
    pub account_ids: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct TypeLive {
    pub resource_type: String,
    pub live: u64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct AccountLive {
    pub account_id: String,
    pub live: u64,
}

/// The inventory at a glance: live and deleted resources, live ones with and without tags, and
/// live ones per type and per account (largest first).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct StatsResponse {
    pub live: u64,
    pub deleted: u64,
    pub tagged: u64,
    pub untagged: u64,
    pub by_type: Vec<TypeLive>,
    pub by_account: Vec<AccountLive>,
}

/// The body of `POST /v1/resource/trend`.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
pub struct TrendRequest {
    /// UNIX seconds; default 30 days before `end_time`, at most 900 days back.
    pub start_time: Option<i64>,
    /// UNIX seconds; default now.
    pub end_time: Option<i64>,
    #[serde(default)]
    pub account_ids: Vec<String>,
}

/// Resources live at the end of one UTC day.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct TrendPoint {
    /// `YYYY-MM-DD`.
    pub date: String,
    pub live: u64,
    pub by_type: BTreeMap<String, u64>,
}

/// `GET /v1/resource/unmatched-spend?start_time&end_time` (UNIX seconds, default the last 30
/// days, at most 900 days back).
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct UnmatchedParams {
    #[param(value_type = Option<i64>)]
    pub start_time: Option<String>,
    #[param(value_type = Option<i64>)]
    pub end_time: Option<String>,
}

/// A resource id of the cost data that no inventory resource carries (as id or ARN).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct UnmatchedResourceDto {
    pub resource_id: String,
    /// `AWS`, `GCP` or `Azure`.
    pub cloud_provider: String,
    pub account_id: String,
    pub service: String,
    pub cost: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct UnmatchedSpendResponse {
    /// The most expensive ones (at most 100), largest first.
    pub resources: Vec<UnmatchedResourceDto>,
    /// How many resource ids of the period are not in the inventory.
    pub resource_count: u64,
    /// Their whole billed cost.
    pub total: f64,
    pub cost_period: CostPeriod,
    pub currency: String,
    pub other_currencies: Vec<CurrencyAmountDto>,
}

/// A standard tag (spec 1 §3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct StandardTagDto {
    pub id: i64,
    pub key: String,
    /// The allowed values; empty = any value.
    pub values: Vec<String>,
}

impl From<StandardTag> for StandardTagDto {
    fn from(tag: StandardTag) -> Self {
        Self {
            id: tag.id,
            key: tag.key,
            values: tag.values,
        }
    }
}

/// The add/edit dialog's body: the key and the values, a list or the comma-separated text.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
pub struct StandardTagRequest {
    #[schema(required = true)]
    pub key: Option<String>,
    /// `["prod", "dev"]` or `"prod, dev"`; empty = any value.
    #[schema(value_type = Option<Object>)]
    pub values: Option<TagValuesInput>,
}

/// How the live, taggable resources stand against one standard tag, with the billed cost of
/// the last 30 days of those that break it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct StandardTagStatsDto {
    pub id: i64,
    pub key: String,
    pub compliant: u64,
    pub missing: u64,
    pub invalid: u64,
    pub missing_cost: f64,
    pub invalid_cost: f64,
}
