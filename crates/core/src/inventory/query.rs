//! A validated inventory query (spec 1 §7 `POST /v1/resource`, §2.7 filter bar, §4 Inventory).
//! The server turns the request body into a [`ResourceQuery`] (rejecting what breaks a rule with
//! a [`crate::FieldError`]); the store runs it with bound parameters only.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

/// The inventory's fetch count (spec 1 §9: fetch count 200; the header shows "200+" above 199).
pub const DEFAULT_RESOURCE_COUNT: u32 = 200;
/// The most resources one call answers (the CSV export asks for this many).
pub const MAX_RESOURCE_COUNT: u32 = 10_000;

/// Spec 1 §2.7 tag operators: Equal, Not Equal, Exists, Not Exists, Empty, Not Empty.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TagOperator {
    /// The key is present with one of the values.
    Equal,
    /// The key is absent, or present with none of the values.
    NotEqual,
    /// The key is present (any value, empty included).
    Exists,
    /// The key is absent.
    NotExists,
    /// The key is present with an empty value.
    Empty,
    /// The key is present with a non-empty value.
    NotEmpty,
}

impl TagOperator {
    /// Whether the operator takes values (the value input is disabled for the others).
    pub const fn takes_values(self) -> bool {
        matches!(self, TagOperator::Equal | TagOperator::NotEqual)
    }
}

/// One tag condition; several are AND-ed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TagCondition {
    pub key: String,
    pub operator: TagOperator,
    /// Empty unless [`TagOperator::takes_values`].
    pub values: Vec<String>,
}

/// A property condition (spec 1 §7 `resource_params`: `{name, eq}`): the value at `flat_path`
/// (see [`super::ResourceParam`]) equals `value` as text; for a list path, any item does.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ParamCondition {
    pub flat_path: String,
    pub value: String,
}

/// Spec 1 §2.7 Resource State.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum ResourceState {
    #[default]
    All,
    Live,
    Deleted,
}

/// The order of the answer (spec: `order_by c_time`, `order_desc true` by default). Ties are
/// broken by the resource's key so pages are stable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum ResourceOrder {
    #[default]
    CTime,
    MTime,
    DTime,
    ResourceId,
    ResourceType,
    Region,
    AccountId,
}

/// Every filter of the inventory. Empty lists mean "all".
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ResourceQuery {
    pub account_ids: Vec<String>,
    pub regions: Vec<String>,
    pub resource_types: Vec<String>,
    pub state: ResourceState,
    /// Deleted before this time (`d_time: {lt}`); implies deleted.
    pub deleted_before: Option<DateTime<Utc>>,
    /// First seen before this time (`c_time: {lt}`).
    pub created_before: Option<DateTime<Utc>>,
    /// The time-duration picker's window: resources that existed at some moment of it
    /// (`c_time < window_end` and not deleted before `window_start`).
    pub window_start: Option<DateTime<Utc>>,
    pub window_end: Option<DateTime<Utc>>,
    /// Exact resource ids (or ARNs).
    pub resource_ids: Vec<String>,
    /// Free text of the "Resource ID / Resource Attributes" search: a case-insensitive
    /// substring of the id, the ARN or a tag value.
    pub search: Option<String>,
    pub params: Vec<ParamCondition>,
    pub tags: Vec<TagCondition>,
    /// Only resources with no tags at all (Tags Search "Show Untagged").
    pub not_tagged: bool,
    pub count: u32,
    pub offset: u32,
    pub order_by: ResourceOrder,
    pub order_desc: bool,
}
