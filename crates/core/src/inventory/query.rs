//! A validated inventory query (spec 1 §7 `POST /v1/resource`, §2.7 filter bar, §4 Inventory).
//! The server turns the request body into a [`ResourceQuery`] (rejecting what breaks a rule with
//! a [`crate::FieldError`]); the store runs it with bound parameters only.

use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use super::params::{is_flat_path, leaf_text};
use super::resource_types;
use super::standard_tags::TagValuesInput;
use crate::FieldError;

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

// ---------------------------------------------------------------------------------------------
// Parsing the request (spec 1 §7 `POST /v1/resource`). The spec names no message for a bad
// inventory request; these are ours, each naming the body field it is about.
// ---------------------------------------------------------------------------------------------

/// The inventory's default window: the last 30 days (spec 1 §2.7, §9).
pub const DEFAULT_WINDOW_DAYS: i64 = 30;
/// How far back the window may start (spec 1 §2.7, §9: "up to 900 days back").
pub const MAX_WINDOW_DAYS_BACK: i64 = 900;
/// The longest Resource ID / Resource Attributes search, in characters.
pub const MAX_SEARCH_CHARS: usize = 256;
/// The most tag conditions of one query (spec 1 §9: at most 20 filters per group).
pub const MAX_TAG_CONDITIONS: usize = 20;
/// The most property conditions of one query.
pub const MAX_PARAM_CONDITIONS: usize = 20;
/// The most values of one tag condition.
pub const MAX_TAG_CONDITION_VALUES: usize = 100;
/// The most items of a list filter (`account_ids`, `regions`, `resource_types`, `resource_ids`).
pub const MAX_LIST_ITEMS: usize = 1000;
/// The longest item of a list filter or a compared value, in characters (an ARN fits).
pub const MAX_ITEM_CHARS: usize = 2048;
/// The furthest `offset`.
pub const MAX_OFFSET: u32 = 1_000_000;

pub mod messages {
    pub const COUNT: &str = "count must be between 1 and 10000";
    pub const OFFSET: &str = "offset must be between 0 and 1000000";
    pub const START_TIME: &str = "start_time must be a UNIX time in seconds";
    pub const END_TIME: &str = "end_time must be a UNIX time in seconds";
    pub const WINDOW_ORDER: &str = "start_time must be before end_time";
    pub const WINDOW_TOO_OLD: &str = "start_time can be at most 900 days back";
    pub const SEARCH_TOO_LONG: &str = "search must be at most 256 characters";
    pub const SEARCH_CONTROL: &str = "search must not contain control characters";
    pub const ORDER_BY: &str =
        "order_by must be one of c_time, m_time, d_time, resource_id, resource_type, region, account_id";
    pub const TAG_KEY_REQUIRED: &str = "Tag filter key is required";
    pub const TAG_KEY_TOO_LONG: &str = "Tag filter key must be at most 128 characters";
    pub const TAG_OPERATOR: &str =
        "Tag operator must be one of Equal, NotEqual, Exists, NotExists, Empty, NotEmpty";
    pub const TAG_ONE_FORM: &str = "A tag filter takes one of operator, eq or not_eq";
    pub const TAG_VALUE_REQUIRED: &str = "Tag filter value is required for Equal and NotEqual";
    pub const TAG_VALUE_TOO_LONG: &str = "Tag filter values must be at most 256 characters";
    pub const TAG_TOO_MANY_VALUES: &str = "A tag filter can have at most 100 values";
    pub const TAG_TOO_MANY: &str = "At most 20 tag filters are allowed";
    pub const PARAM_NAME: &str =
        "resource_params name must be a property path such as Placement.AvailabilityZone";
    pub const PARAM_VALUE: &str = "resource_params eq must be a text, number or boolean";
    pub const PARAM_TOO_MANY: &str = "At most 20 resource_params are allowed";
    pub const D_TIME_EQ: &str = "d_time eq can only be 0 (live resources)";
    pub const D_TIME_NOT_EQ: &str = "d_time not_eq can only be 0 (deleted resources)";
    pub const D_TIME_CONFLICT: &str = "d_time takes one of eq, not_eq or lt";
    pub const ACCOUNT_IDS: &str = "account_ids must be 12-digit AWS account ids";
    pub const RESOURCE_TYPES: &str =
        "resource_types must be resource type names such as AWS::EC2::Instance";
    pub const REGIONS: &str = "regions must be region codes such as us-east-1";
    pub const RESOURCE_IDS: &str =
        "resource_ids must be at most 1000 ids of at most 2048 characters";
}

impl TagOperator {
    /// The operator as a request names it: the variant name (`"NotEqual"`) or the label the
    /// filter row shows (`"Not Equal"`), any case.
    pub fn parse(input: &str) -> Result<Self, FieldError> {
        let folded: String = input
            .chars()
            .filter(|c| !c.is_whitespace() && *c != '_')
            .flat_map(char::to_lowercase)
            .collect();
        Ok(match folded.as_str() {
            "equal" => TagOperator::Equal,
            "notequal" => TagOperator::NotEqual,
            "exists" => TagOperator::Exists,
            "notexists" => TagOperator::NotExists,
            "empty" => TagOperator::Empty,
            "notempty" => TagOperator::NotEmpty,
            _ => return Err(FieldError::new("tag", messages::TAG_OPERATOR)),
        })
    }
}

/// One `tag` item of the request: `{name, operator, value?}`, or the spec's shorthand
/// `{name, eq}` (Equal) / `{name, not_eq}` (NotEqual). Values are a list or a comma-separated
/// text.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct TagFilterInput {
    /// The tag key.
    pub name: String,
    /// Equal, NotEqual, Exists, NotExists, Empty or NotEmpty.
    #[serde(default)]
    pub operator: Option<String>,
    #[serde(default)]
    pub value: Option<TagValuesInput>,
    #[serde(default)]
    pub eq: Option<TagValuesInput>,
    #[serde(default)]
    pub not_eq: Option<TagValuesInput>,
}

impl TagFilterInput {
    /// The condition it asks for. The key is taken as sent (tag keys may hold spaces) but must
    /// not be blank. Values are trimmed, empties dropped; Equal and NotEqual need at least one;
    /// the other operators ignore any sent.
    pub fn parse(&self) -> Result<TagCondition, FieldError> {
        let err = |message| FieldError::new("tag", message);
        if self.name.trim().is_empty() {
            return Err(err(messages::TAG_KEY_REQUIRED));
        }
        if self.name.chars().count() > super::standard_tags::MAX_STANDARD_TAG_KEY_CHARS {
            return Err(err(messages::TAG_KEY_TOO_LONG));
        }
        let (operator, values) = match (&self.operator, &self.eq, &self.not_eq) {
            (Some(op), None, None) => (TagOperator::parse(op)?, self.value.as_ref()),
            (None, Some(values), None) if self.value.is_none() => {
                (TagOperator::Equal, Some(values))
            }
            (None, None, Some(values)) if self.value.is_none() => {
                (TagOperator::NotEqual, Some(values))
            }
            // A bare `{name, value}` reads as Equal; `{name}` alone as Exists.
            (None, None, None) => match &self.value {
                Some(values) => (TagOperator::Equal, Some(values)),
                None => (TagOperator::Exists, None),
            },
            _ => return Err(err(messages::TAG_ONE_FORM)),
        };
        let values = if operator.takes_values() {
            let values = values.map(TagValuesInput::normalised).unwrap_or_default();
            if values.is_empty() {
                return Err(err(messages::TAG_VALUE_REQUIRED));
            }
            if values.len() > MAX_TAG_CONDITION_VALUES {
                return Err(err(messages::TAG_TOO_MANY_VALUES));
            }
            if values
                .iter()
                .any(|v| v.chars().count() > super::standard_tags::MAX_STANDARD_TAG_VALUE_CHARS)
            {
                return Err(err(messages::TAG_VALUE_TOO_LONG));
            }
            values
        } else {
            Vec::new()
        };
        Ok(TagCondition {
            key: self.name.clone(),
            operator,
            values,
        })
    }
}

/// Every `tag` item, at most [`MAX_TAG_CONDITIONS`].
pub fn parse_tag_conditions(inputs: &[TagFilterInput]) -> Result<Vec<TagCondition>, FieldError> {
    if inputs.len() > MAX_TAG_CONDITIONS {
        return Err(FieldError::new("tag", messages::TAG_TOO_MANY));
    }
    inputs.iter().map(TagFilterInput::parse).collect()
}

/// One `resource_params` item: `{name: FlatPath, eq: value}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ParamFilterInput {
    /// A flat path of `GET /v1/resource/params` (`Placement.AvailabilityZone`).
    pub name: String,
    /// Compared as text with the value at the path (a number as JSON writes it).
    #[schema(value_type = Object)]
    pub eq: Value,
}

impl ParamFilterInput {
    pub fn parse(&self) -> Result<ParamCondition, FieldError> {
        let name = self.name.trim();
        if !is_flat_path(name) {
            return Err(FieldError::new("resource_params", messages::PARAM_NAME));
        }
        let value = leaf_text(&self.eq)
            .filter(|v| v.chars().count() <= MAX_ITEM_CHARS)
            .ok_or(FieldError::new("resource_params", messages::PARAM_VALUE))?;
        Ok(ParamCondition {
            flat_path: name.to_owned(),
            value,
        })
    }
}

/// Every `resource_params` item, at most [`MAX_PARAM_CONDITIONS`].
pub fn parse_param_conditions(
    inputs: &[ParamFilterInput],
) -> Result<Vec<ParamCondition>, FieldError> {
    if inputs.len() > MAX_PARAM_CONDITIONS {
        return Err(FieldError::new("resource_params", messages::PARAM_TOO_MANY));
    }
    inputs.iter().map(ParamFilterInput::parse).collect()
}

/// The request's `d_time`: `{eq: 0}` live, `{not_eq: 0}` deleted, `{lt: secs}` deleted before.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct DTimeFilterInput {
    #[serde(default)]
    pub eq: Option<i64>,
    #[serde(default)]
    pub not_eq: Option<i64>,
    #[serde(default)]
    pub lt: Option<i64>,
}

impl DTimeFilterInput {
    /// The state it selects and the `deleted_before` bound.
    pub fn parse(&self) -> Result<(ResourceState, Option<DateTime<Utc>>), FieldError> {
        let err = |message| FieldError::new("d_time", message);
        match (self.eq, self.not_eq, self.lt) {
            (None, None, None) => Ok((ResourceState::All, None)),
            (Some(0), None, None) => Ok((ResourceState::Live, None)),
            (Some(_), None, None) => Err(err(messages::D_TIME_EQ)),
            (None, Some(0), None) => Ok((ResourceState::Deleted, None)),
            (None, Some(_), None) => Err(err(messages::D_TIME_NOT_EQ)),
            // `not_eq: 0` with `lt` says the same twice.
            (None, None | Some(0), Some(lt)) => Ok((
                ResourceState::Deleted,
                Some(
                    parse_time(
                        "d_time",
                        Some(lt),
                        "d_time lt must be a UNIX time in seconds",
                    )?
                    .expect("lt is present"),
                ),
            )),
            _ => Err(err(messages::D_TIME_CONFLICT)),
        }
    }
}

/// `count`: 1 to [`MAX_RESOURCE_COUNT`], default [`DEFAULT_RESOURCE_COUNT`].
pub fn parse_count(count: Option<i64>) -> Result<u32, FieldError> {
    match count {
        None => Ok(DEFAULT_RESOURCE_COUNT),
        Some(n) if (1..=i64::from(MAX_RESOURCE_COUNT)).contains(&n) => {
            Ok(u32::try_from(n).expect("bounded"))
        }
        Some(_) => Err(FieldError::new("count", messages::COUNT)),
    }
}

/// `offset`: 0 to [`MAX_OFFSET`], default 0.
pub fn parse_offset(offset: Option<i64>) -> Result<u32, FieldError> {
    match offset {
        None => Ok(0),
        Some(n) if (0..=i64::from(MAX_OFFSET)).contains(&n) => {
            Ok(u32::try_from(n).expect("bounded"))
        }
        Some(_) => Err(FieldError::new("offset", messages::OFFSET)),
    }
}

fn parse_time(
    field: &'static str,
    secs: Option<i64>,
    message: &'static str,
) -> Result<Option<DateTime<Utc>>, FieldError> {
    secs.map(|s| DateTime::from_timestamp(s, 0).ok_or(FieldError::new(field, message)))
        .transpose()
}

/// A `c_time: {lt}` bound (UNIX seconds).
pub fn parse_created_before(lt: Option<i64>) -> Result<Option<DateTime<Utc>>, FieldError> {
    parse_time("c_time", lt, "c_time lt must be a UNIX time in seconds")
}

/// The time-duration picker's window (`start_time`, `end_time`, UNIX seconds), also the cost
/// period: by default the last [`DEFAULT_WINDOW_DAYS`] days up to `now`; a missing start is 30
/// days before the end, a missing end is `now`. The start must be before the end and not
/// more than [`MAX_WINDOW_DAYS_BACK`] days before `now`; the end may lie in the future.
pub fn parse_window(
    start_time: Option<i64>,
    end_time: Option<i64>,
    now: DateTime<Utc>,
) -> Result<(DateTime<Utc>, DateTime<Utc>), FieldError> {
    let end = parse_time("end_time", end_time, messages::END_TIME)?.unwrap_or(now);
    let start = parse_time("start_time", start_time, messages::START_TIME)?
        .unwrap_or(end - Duration::days(DEFAULT_WINDOW_DAYS));
    if start >= end {
        return Err(FieldError::new("start_time", messages::WINDOW_ORDER));
    }
    if start < now - Duration::days(MAX_WINDOW_DAYS_BACK) {
        return Err(FieldError::new("start_time", messages::WINDOW_TOO_OLD));
    }
    Ok((start, end))
}

/// The Resource ID / Resource Attributes search: trimmed; blank means none.
pub fn parse_search(search: Option<&str>) -> Result<Option<String>, FieldError> {
    let Some(search) = search.map(str::trim).filter(|s| !s.is_empty()) else {
        return Ok(None);
    };
    if search.chars().count() > MAX_SEARCH_CHARS {
        return Err(FieldError::new("search", messages::SEARCH_TOO_LONG));
    }
    if search.chars().any(char::is_control) {
        return Err(FieldError::new("search", messages::SEARCH_CONTROL));
    }
    Ok(Some(search.to_owned()))
}

impl ResourceOrder {
    /// `order_by` as the request names it (`"c_time"` …); `None` is the default, `c_time`.
    pub fn parse(order_by: Option<&str>) -> Result<Self, FieldError> {
        Ok(match order_by.map(str::trim) {
            None | Some("") | Some("c_time") => ResourceOrder::CTime,
            Some("m_time") => ResourceOrder::MTime,
            Some("d_time") => ResourceOrder::DTime,
            Some("resource_id") => ResourceOrder::ResourceId,
            Some("resource_type") => ResourceOrder::ResourceType,
            Some("region") => ResourceOrder::Region,
            Some("account_id") => ResourceOrder::AccountId,
            Some(_) => return Err(FieldError::new("order_by", messages::ORDER_BY)),
        })
    }
}

fn parse_list(
    field: &'static str,
    items: &[String],
    message: &'static str,
    valid: impl Fn(&str) -> bool,
) -> Result<Vec<String>, FieldError> {
    if items.len() > MAX_LIST_ITEMS {
        return Err(FieldError::new(field, message));
    }
    let mut out: Vec<String> = Vec::with_capacity(items.len());
    for item in items {
        let item = item.trim();
        if !valid(item) {
            return Err(FieldError::new(field, message));
        }
        if !out.iter().any(|o| o == item) {
            out.push(item.to_owned());
        }
    }
    Ok(out)
}

/// `account_ids`: 12-digit AWS account ids, trimmed, duplicates dropped.
pub fn parse_account_ids(items: &[String]) -> Result<Vec<String>, FieldError> {
    parse_list("account_ids", items, messages::ACCOUNT_IDS, |id| {
        id.len() == 12 && id.bytes().all(|b| b.is_ascii_digit())
    })
}

/// `regions`: region codes (lowercase letters, digits and `-`, as `us-east-1`) or
/// [`super::GLOBAL_REGION`].
pub fn parse_regions(items: &[String]) -> Result<Vec<String>, FieldError> {
    parse_list("regions", items, messages::REGIONS, |region| {
        !region.is_empty()
            && region.len() <= 64
            && region
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
    })
}

/// `resource_types`: names of [`resource_types::ALL`].
pub fn parse_resource_types(items: &[String]) -> Result<Vec<String>, FieldError> {
    parse_list("resource_types", items, messages::RESOURCE_TYPES, |t| {
        resource_types::ALL.contains(&t)
    })
}

/// `resource_ids`: ids or ARNs, not blank, at most [`MAX_ITEM_CHARS`] characters each.
pub fn parse_resource_ids(items: &[String]) -> Result<Vec<String>, FieldError> {
    parse_list("resource_ids", items, messages::RESOURCE_IDS, |id| {
        !id.is_empty() && id.chars().count() <= MAX_ITEM_CHARS && !id.chars().any(char::is_control)
    })
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;
    use serde_json::json;

    use super::*;

    fn tag(value: Value) -> Result<TagCondition, FieldError> {
        serde_json::from_value::<TagFilterInput>(value)
            .unwrap()
            .parse()
    }

    fn cond(key: &str, operator: TagOperator, values: &[&str]) -> TagCondition {
        TagCondition {
            key: key.into(),
            operator,
            values: values.iter().map(|s| (*s).to_owned()).collect(),
        }
    }

    #[test]
    fn tag_operators_parse_by_name_or_label() {
        for (text, op) in [
            ("Equal", TagOperator::Equal),
            ("NotEqual", TagOperator::NotEqual),
            ("Not Equal", TagOperator::NotEqual),
            ("not_equal", TagOperator::NotEqual),
            ("Exists", TagOperator::Exists),
            ("Not Exists", TagOperator::NotExists),
            ("Empty", TagOperator::Empty),
            ("NotEmpty", TagOperator::NotEmpty),
        ] {
            assert_eq!(TagOperator::parse(text), Ok(op), "{text}");
        }
        assert_eq!(
            TagOperator::parse("Contains"),
            Err(FieldError::new("tag", messages::TAG_OPERATOR))
        );
    }

    #[test]
    fn tag_filters_with_an_operator() {
        assert_eq!(
            tag(json!({"name": "env", "operator": "Equal", "value": ["prod", " dev "]})),
            Ok(cond("env", TagOperator::Equal, &["prod", "dev"]))
        );
        assert_eq!(
            tag(json!({"name": "env", "operator": "NotEqual", "value": "prod, qa"})),
            Ok(cond("env", TagOperator::NotEqual, &["prod", "qa"]))
        );
        // Operators without values ignore any sent.
        assert_eq!(
            tag(json!({"name": "env", "operator": "Empty", "value": ["x"]})),
            Ok(cond("env", TagOperator::Empty, &[]))
        );
        assert_eq!(
            tag(json!({"name": "cost center", "operator": "NotExists"})),
            Ok(cond("cost center", TagOperator::NotExists, &[]))
        );
    }

    #[test]
    fn tag_filters_in_the_spec_shorthand() {
        assert_eq!(
            tag(json!({"name": "env", "eq": "prod"})),
            Ok(cond("env", TagOperator::Equal, &["prod"]))
        );
        assert_eq!(
            tag(json!({"name": "env", "not_eq": ["prod", "dev"]})),
            Ok(cond("env", TagOperator::NotEqual, &["prod", "dev"]))
        );
        assert_eq!(
            tag(json!({"name": "env"})),
            Ok(cond("env", TagOperator::Exists, &[]))
        );
    }

    #[test]
    fn tag_filter_refusals_name_the_field() {
        let refused = |value: Value, message: &'static str| {
            assert_eq!(tag(value), Err(FieldError::new("tag", message)));
        };
        refused(json!({"name": " ", "eq": "x"}), messages::TAG_KEY_REQUIRED);
        refused(
            json!({"name": "k".repeat(129), "eq": "x"}),
            messages::TAG_KEY_TOO_LONG,
        );
        refused(
            json!({"name": "env", "operator": "Like"}),
            messages::TAG_OPERATOR,
        );
        refused(
            json!({"name": "env", "operator": "Equal", "eq": "x"}),
            messages::TAG_ONE_FORM,
        );
        refused(
            json!({"name": "env", "eq": "x", "not_eq": "y"}),
            messages::TAG_ONE_FORM,
        );
        refused(
            json!({"name": "env", "eq": "x", "value": "y"}),
            messages::TAG_ONE_FORM,
        );
        refused(
            json!({"name": "env", "operator": "Equal"}),
            messages::TAG_VALUE_REQUIRED,
        );
        refused(
            json!({"name": "env", "eq": " , "}),
            messages::TAG_VALUE_REQUIRED,
        );
        refused(
            json!({"name": "env", "eq": ["v".repeat(257)]}),
            messages::TAG_VALUE_TOO_LONG,
        );
        let many: Vec<String> = (0..101).map(|i| i.to_string()).collect();
        refused(
            json!({"name": "env", "eq": many}),
            messages::TAG_TOO_MANY_VALUES,
        );
        let twenty_one = vec![
            TagFilterInput {
                name: "a".into(),
                ..Default::default()
            };
            21
        ];
        assert_eq!(
            parse_tag_conditions(&twenty_one),
            Err(FieldError::new("tag", messages::TAG_TOO_MANY))
        );
        assert_eq!(
            parse_tag_conditions(&twenty_one[..20]).map(|c| c.len()),
            Ok(20)
        );
    }

    #[test]
    fn param_filters() {
        let p = |name: &str, eq: Value| {
            ParamFilterInput {
                name: name.into(),
                eq,
            }
            .parse()
        };
        assert_eq!(
            p("Placement.AvailabilityZone", json!("us-east-1a")),
            Ok(ParamCondition {
                flat_path: "Placement.AvailabilityZone".into(),
                value: "us-east-1a".into()
            })
        );
        assert_eq!(p("Size", json!(8)).map(|c| c.value), Ok("8".into()));
        assert_eq!(
            p("Encrypted", json!(false)).map(|c| c.value),
            Ok("false".into())
        );
        assert_eq!(
            p("A..B", json!("x")),
            Err(FieldError::new("resource_params", messages::PARAM_NAME))
        );
        assert_eq!(
            p("A", json!({"x": 1})),
            Err(FieldError::new("resource_params", messages::PARAM_VALUE))
        );
        assert_eq!(
            p("A", json!(null)),
            Err(FieldError::new("resource_params", messages::PARAM_VALUE))
        );
        let many = vec![
            ParamFilterInput {
                name: "A".into(),
                eq: json!("x")
            };
            21
        ];
        assert_eq!(
            parse_param_conditions(&many),
            Err(FieldError::new("resource_params", messages::PARAM_TOO_MANY))
        );
    }

    #[test]
    fn d_time_filters() {
        let d = |eq, not_eq, lt| DTimeFilterInput { eq, not_eq, lt }.parse();
        assert_eq!(d(None, None, None), Ok((ResourceState::All, None)));
        assert_eq!(d(Some(0), None, None), Ok((ResourceState::Live, None)));
        assert_eq!(d(None, Some(0), None), Ok((ResourceState::Deleted, None)));
        let t = Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap();
        assert_eq!(
            d(None, None, Some(t.timestamp())),
            Ok((ResourceState::Deleted, Some(t)))
        );
        assert_eq!(
            d(None, Some(0), Some(t.timestamp())),
            Ok((ResourceState::Deleted, Some(t)))
        );
        assert_eq!(
            d(Some(5), None, None),
            Err(FieldError::new("d_time", messages::D_TIME_EQ))
        );
        assert_eq!(
            d(None, Some(5), None),
            Err(FieldError::new("d_time", messages::D_TIME_NOT_EQ))
        );
        assert_eq!(
            d(Some(0), Some(0), None),
            Err(FieldError::new("d_time", messages::D_TIME_CONFLICT))
        );
        assert_eq!(
            d(Some(0), None, Some(1)),
            Err(FieldError::new("d_time", messages::D_TIME_CONFLICT))
        );
        assert!(d(None, None, Some(i64::MAX)).is_err());
    }

    #[test]
    fn count_and_offset_limits() {
        assert_eq!(parse_count(None), Ok(200));
        assert_eq!(parse_count(Some(1)), Ok(1));
        assert_eq!(parse_count(Some(10_000)), Ok(10_000));
        for bad in [0, -1, 10_001] {
            assert_eq!(
                parse_count(Some(bad)),
                Err(FieldError::new("count", messages::COUNT))
            );
        }
        assert_eq!(parse_offset(None), Ok(0));
        assert_eq!(parse_offset(Some(1_000_000)), Ok(1_000_000));
        assert_eq!(
            parse_offset(Some(-1)),
            Err(FieldError::new("offset", messages::OFFSET))
        );
    }

    #[test]
    fn window_defaults_to_the_last_30_days_and_reaches_900_days_back() {
        let now = Utc.with_ymd_and_hms(2026, 11, 26, 12, 0, 0).unwrap();
        assert_eq!(
            parse_window(None, None, now),
            Ok((now - Duration::days(30), now))
        );
        let end = now - Duration::days(10);
        assert_eq!(
            parse_window(None, Some(end.timestamp()), now),
            Ok((end - Duration::days(30), end))
        );
        let oldest = now - Duration::days(900);
        assert_eq!(
            parse_window(Some(oldest.timestamp()), None, now),
            Ok((oldest, now))
        );
        assert_eq!(
            parse_window(Some(oldest.timestamp() - 1), None, now),
            Err(FieldError::new("start_time", messages::WINDOW_TOO_OLD))
        );
        assert_eq!(
            parse_window(Some(now.timestamp()), Some(now.timestamp()), now),
            Err(FieldError::new("start_time", messages::WINDOW_ORDER))
        );
        assert_eq!(
            parse_window(Some(i64::MIN), None, now),
            Err(FieldError::new("start_time", messages::START_TIME))
        );
        assert_eq!(
            parse_window(None, Some(i64::MAX), now),
            Err(FieldError::new("end_time", messages::END_TIME))
        );
    }

    #[test]
    fn search_is_trimmed_and_bounded() {
        assert_eq!(parse_search(None), Ok(None));
        assert_eq!(parse_search(Some("   ")), Ok(None));
        assert_eq!(parse_search(Some(" i-0ab ")), Ok(Some("i-0ab".into())));
        assert!(parse_search(Some(&"x".repeat(256))).is_ok());
        assert_eq!(
            parse_search(Some(&"x".repeat(257))),
            Err(FieldError::new("search", messages::SEARCH_TOO_LONG))
        );
        assert_eq!(
            parse_search(Some("a\u{1b}b")),
            Err(FieldError::new("search", messages::SEARCH_CONTROL))
        );
    }

    #[test]
    fn order_by_names() {
        assert_eq!(ResourceOrder::parse(None), Ok(ResourceOrder::CTime));
        assert_eq!(
            ResourceOrder::parse(Some("m_time")),
            Ok(ResourceOrder::MTime)
        );
        assert_eq!(
            ResourceOrder::parse(Some("account_id")),
            Ok(ResourceOrder::AccountId)
        );
        assert_eq!(
            ResourceOrder::parse(Some("cost; DROP TABLE")),
            Err(FieldError::new("order_by", messages::ORDER_BY))
        );
    }

    #[test]
    fn list_filters() {
        let s = |items: &[&str]| items.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        assert_eq!(
            parse_account_ids(&s(&[" 111122223333", "111122223333", "000011112222"])),
            Ok(s(&["111122223333", "000011112222"]))
        );
        assert_eq!(
            parse_account_ids(&s(&["1234"])),
            Err(FieldError::new("account_ids", messages::ACCOUNT_IDS))
        );
        assert_eq!(
            parse_regions(&s(&["us-east-1", "global"])),
            Ok(s(&["us-east-1", "global"]))
        );
        assert_eq!(
            parse_regions(&s(&["US East"])),
            Err(FieldError::new("regions", messages::REGIONS))
        );
        assert_eq!(
            parse_resource_types(&s(&["AWS::EC2::Instance"])),
            Ok(s(&["AWS::EC2::Instance"]))
        );
        assert_eq!(
            parse_resource_types(&s(&["AWS::EC2::Nope"])),
            Err(FieldError::new("resource_types", messages::RESOURCE_TYPES))
        );
        assert_eq!(
            parse_resource_ids(&s(&["arn:aws:ec2:us-east-1:111122223333:instance/i-1"]))
                .map(|v| v.len()),
            Ok(1)
        );
        assert_eq!(
            parse_resource_ids(&s(&[""])),
            Err(FieldError::new("resource_ids", messages::RESOURCE_IDS))
        );
        let too_many = vec!["x".to_owned(); MAX_LIST_ITEMS + 1];
        assert!(parse_resource_ids(&too_many).is_err());
    }
}
