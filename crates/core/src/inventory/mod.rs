//! The resource inventory's vocabulary (spec 1 §2.7–§2.9, §3 Resource / Property snapshot /
//! Resource param / Standard tag): what discovery finds, how the inventory is queried, standard
//! tags, and the rules that turn discovered resources into findings (IAM, compliance, savings).
//! No IO: the connectors fill [`DiscoveredResource`], the store keeps it, the server asks.

pub mod findings;
pub mod params;
pub mod properties;
pub mod query;
pub mod resource_types;
pub mod savings;
pub mod standard_tags;

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use query::{
    DTimeFilterInput, ParamCondition, ParamFilterInput, ResourceOrder, ResourceQuery,
    ResourceState, TagCondition, TagFilterInput, TagOperator, DEFAULT_RESOURCE_COUNT,
    MAX_RESOURCE_COUNT,
};
pub use standard_tags::{
    StandardTag, StandardTagInput, StandardTagStats, TagValuesInput, TagViolation, TagViolationKind,
};

/// The region of global resources (IAM users, roles and access keys).
pub const GLOBAL_REGION: &str = "global";

/// One resource as a discovery run saw it.
///
/// `properties` is a JSON object with the AWS API's own field names (PascalCase, as the SDK
/// shapes name them; see [`properties`] for the keys the rules read). It must hold only what
/// describes the resource, nothing that changes by itself between runs (no metrics, no
/// "last seen"): a new snapshot is written whenever `properties` or `tags` differ.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DiscoveredResource {
    /// The 12-digit AWS account the resource lives in.
    pub account_id: String,
    /// An AWS region code, or [`GLOBAL_REGION`].
    pub region: String,
    /// One of [`resource_types::ALL`].
    pub resource_type: String,
    /// The provider's own id (`i-0abc…`, `vol-…`, a bucket name, a role name, …).
    pub resource_id: String,
    /// The ARN, when the API gives one or it can be built.
    pub arn: Option<String>,
    pub properties: Value,
    pub tags: BTreeMap<String, String>,
    /// Measurements that change by themselves (CloudWatch CPU of an instance): stored on the
    /// resource, never a reason for a snapshot. `None` when not measured.
    pub metrics: Option<Value>,
}

/// Identifies one resource of a tenant.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ResourceKey {
    pub account_id: String,
    pub region: String,
    pub resource_type: String,
    pub resource_id: String,
}

/// A resource as the inventory keeps it: its latest properties and tags plus its life times.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Resource {
    pub key: ResourceKey,
    pub arn: Option<String>,
    /// The connection (cloud account row) whose discovery found it.
    pub connection_id: i64,
    /// First seen by a discovery run.
    pub c_time: DateTime<Utc>,
    /// When its latest snapshot was written (a change was seen).
    pub m_time: DateTime<Utc>,
    /// When a run no longer found it; `None` while live.
    pub d_time: Option<DateTime<Utc>>,
    /// The last run that saw it.
    pub last_seen: DateTime<Utc>,
    pub properties: Value,
    pub tags: BTreeMap<String, String>,
    pub metrics: Option<Value>,
}

impl Resource {
    /// The ids a line item may name the resource by (its `ResourceId`): its id and its ARN.
    pub fn identifiers(&self) -> impl Iterator<Item = &str> {
        std::iter::once(self.key.resource_id.as_str()).chain(self.arn.as_deref())
    }
}

/// One snapshot of a resource's properties and tags (spec 1 §3 Property snapshot).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PropertySnapshot {
    pub c_time: DateTime<Utc>,
    pub properties: Value,
    pub tags: BTreeMap<String, String>,
}

/// A searchable property path of a resource type (spec 1 §3 Resource param): `FlatPath` is
/// the dotted path into `properties` (`Placement.AvailabilityZone`, list items as `[]`:
/// `SecurityGroups[].GroupId`), `DisplayName` what the search menu shows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResourceParam {
    pub display_name: String,
    pub flat_path: String,
}
