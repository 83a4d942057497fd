//! Request pieces shared by the cost calls (docs/API-COST.md "Common request pieces"): time
//! range, filter groups with the skip and warning rules of spec 1 §5, charge type inclusions,
//! metric and group-by dimensions. Each DTO is what the client sends; each `parse_*` turns it
//! into the core query types or answers 400/422 with the documented message.

use std::collections::BTreeMap;

use chrono::{DateTime, NaiveDate, NaiveDateTime, NaiveTime, Utc};
use costscope_core::cost::bounds::{self, BoundExceeded, FilterValueCount};
use costscope_core::cost::{
    Dimension, FilterGroup, GroupJoin, MatchOperator, Metric, Provider, TagCondition, TimeRange,
    ValueCondition, MAX_GROUP_BY_DIMENSIONS,
};
use serde::Deserialize;
use serde_json::Value;
use utoipa::ToSchema;

use crate::http::error::ApiError;

/// A request past a limit of `costscope_core::cost::bounds`: 422 naming the field.
impl From<BoundExceeded> for ApiError {
    fn from(bound: BoundExceeded) -> Self {
        ApiError::TooMuch {
            field: bound.field,
            message: bound.message,
        }
    }
}

/// A value sent either as one string or as a list of strings.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(untagged)]
pub enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

impl OneOrMany {
    /// The non-blank values, in order.
    pub fn into_values(self) -> Vec<String> {
        let values = match self {
            OneOrMany::One(value) => vec![value],
            OneOrMany::Many(values) => values,
        };
        values
            .into_iter()
            .filter(|value| !value.trim().is_empty())
            .collect()
    }
}

/// The values of a condition: `values`, else `value` (either may be a string or a list).
fn condition_values(values: Option<OneOrMany>, value: Option<OneOrMany>) -> Vec<String> {
    let values = values.map(OneOrMany::into_values).unwrap_or_default();
    if values.is_empty() {
        value.map(OneOrMany::into_values).unwrap_or_default()
    } else {
        values
    }
}

/// `{ "operator": "in", "values": ["a", "b"] }`; `value` may replace `values`.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
pub struct ConditionDto {
    /// `equals`, `not_equals`, `in` or `not_in`; a tag's value also `is_empty` (the key is
    /// missing or its value empty) or `is_not_empty`, both without values.
    #[schema(value_type = Option<String>)]
    pub operator: Option<Value>,
    pub values: Option<OneOrMany>,
    /// Alternative spelling of `values`.
    pub value: Option<OneOrMany>,
}

/// The value part of a tag condition: `{operator, values}`, or plain values.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(untagged)]
pub enum TagValueDto {
    Values(OneOrMany),
    Condition(ConditionDto),
}

/// `{ "key": "team" }` (the key exists), `{ "key": "env", "value": { "operator": "equals",
/// "values": ["prod"] } }`, `{ "key": "app", "value_operator": "not_equals", "values": [..] }`
/// or `{ "key": "team", "value_operator": "is_empty" }` (untagged for team).
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
pub struct TagConditionDto {
    pub key: Option<String>,
    pub value: Option<TagValueDto>,
    /// `equals` (default), `not_equals`, `in`, `not_in`, `is_empty`, `is_not_empty`.
    #[schema(value_type = Option<String>)]
    pub value_operator: Option<Value>,
    pub values: Option<OneOrMany>,
}

/// One filter group (spec 1 §3 "Api filter group"): its conditions are ANDed; `operator` joins it
/// to the groups before it (`AND` for the first, `OR` for the rest).
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
pub struct FilterGroupDto {
    /// `AND` or `OR` (any letter case).
    #[schema(value_type = Option<String>)]
    pub operator: Option<Value>,
    pub accounts: Option<Vec<ConditionDto>>,
    pub regions: Option<Vec<ConditionDto>>,
    pub services: Option<Vec<ConditionDto>>,
    /// Provider names in any case (`AWS`, `aws`, `Google Cloud`, …).
    pub cloud_providers: Option<Vec<ConditionDto>>,
    pub cost_types: Option<Vec<ConditionDto>>,
    pub usage_types: Option<Vec<ConditionDto>>,
    pub tags: Option<Vec<TagConditionDto>>,
    /// Unknown fields: ignored with a warning.
    #[serde(flatten)]
    #[schema(ignore)]
    pub unknown: BTreeMap<String, Value>,
}

/// `{ "inclusions": ["Usage", "Tax"] }`: absent, null or empty → every charge type.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
pub struct CostTypeDto {
    pub inclusions: Option<OneOrMany>,
}

/// The charge type inclusions of a request (`None` = every charge type); at most
/// [`bounds::MAX_NAMES`] entries.
pub fn parse_cost_types(cost_type: Option<CostTypeDto>) -> Result<Option<Vec<String>>, ApiError> {
    let Some(inclusions) = cost_type.and_then(|cost_type| cost_type.inclusions) else {
        return Ok(None);
    };
    if let OneOrMany::Many(names) = &inclusions {
        bounds::check_names("cost_type", names.len())?;
    }
    let inclusions = inclusions.into_values();
    for name in &inclusions {
        bounds::check_value_length("cost_type", name)?;
    }
    Ok((!inclusions.is_empty()).then_some(inclusions))
}

/// `billed` (default), `effective` or `list`.
pub fn parse_metric(metric: Option<&str>) -> Result<Metric, ApiError> {
    let Some(name) = metric.map(str::trim).filter(|name| !name.is_empty()) else {
        return Ok(Metric::default());
    };
    Metric::parse(&name.to_ascii_lowercase()).ok_or_else(|| ApiError::Invalid {
        field: "metric",
        message: "Metric must be billed, effective or list".to_owned(),
    })
}

/// Which end of the range a plain date stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// 00:00:00.000 of the day.
    Start,
    /// 23:59:59.999 of the day.
    End,
}

/// RFC 3339, a date-time without offset (UTC), or a plain `YYYY-MM-DD`, on a day of the years
/// 1970–2100 (a signed or longer year is a 422 naming the field, not an unreadable date).
pub fn parse_time(
    name: &'static str,
    value: Option<&str>,
    bound: Bound,
) -> Result<DateTime<Utc>, ApiError> {
    let time = read_time(name, value, bound)?;
    bounds::check_instant(name, time)?;
    Ok(time)
}

fn read_time(
    name: &'static str,
    value: Option<&str>,
    bound: Bound,
) -> Result<DateTime<Utc>, ApiError> {
    let Some(text) = value.map(str::trim).filter(|text| !text.is_empty()) else {
        return Err(ApiError::BadRequest(format!("{name} is required")));
    };
    if let Ok(time) = DateTime::parse_from_rfc3339(text) {
        return Ok(time.with_timezone(&Utc));
    }
    if let Ok(time) = NaiveDateTime::parse_from_str(text, "%Y-%m-%dT%H:%M:%S%.f") {
        return Ok(time.and_utc());
    }
    if let Ok(date) = NaiveDate::parse_from_str(text, "%Y-%m-%d") {
        let time = match bound {
            Bound::Start => NaiveTime::MIN,
            Bound::End => NaiveTime::from_hms_milli_opt(23, 59, 59, 999).expect("a valid time"),
        };
        return Ok(date.and_time(time).and_utc());
    }
    if bounds::is_out_of_range_year(text) {
        return Err(bounds::date_out_of_bounds(name).into());
    }
    Err(ApiError::BadRequest(format!(
        "{name} must be an ISO 8601 date or date-time"
    )))
}

/// Both ends required; the end must not be before the start; at most
/// [`bounds::MAX_RANGE_YEARS`] years.
pub fn parse_range(
    (start_name, start): (&'static str, Option<&str>),
    (end_name, end): (&'static str, Option<&str>),
) -> Result<TimeRange, ApiError> {
    let start = parse_time(start_name, start, Bound::Start)?;
    let end = parse_time(end_name, end, Bound::End)?;
    let range = TimeRange::new(start, end).ok_or_else(|| {
        ApiError::BadRequest(format!("{end_name} must not be before {start_name}"))
    })?;
    bounds::check_range(&range, start_name, end_name)?;
    Ok(range)
}

/// Both ends absent → `None` (every date); otherwise as [`parse_range`].
pub fn parse_optional_range(
    start: (&'static str, Option<&str>),
    end: (&'static str, Option<&str>),
) -> Result<Option<TimeRange>, ApiError> {
    let blank = |value: Option<&str>| value.is_none_or(|value| value.trim().is_empty());
    if blank(start.1) && blank(end.1) {
        return Ok(None);
    }
    parse_range(start, end).map(Some)
}

/// Distinct known dimensions, in order; `none` and blanks are ignored. More than
/// [`MAX_GROUP_BY_DIMENSIONS`] → 422 on `field`, as is a list of more than
/// [`bounds::MAX_NAMES`] entries.
pub fn parse_dimensions<'a>(
    field: &'static str,
    names: impl IntoIterator<Item = &'a str>,
) -> Result<Vec<Dimension>, ApiError> {
    let mut dimensions = Vec::new();
    for (index, name) in names.into_iter().enumerate() {
        bounds::check_names(field, index + 1)?;
        let name = name.trim();
        if name.is_empty() || name.eq_ignore_ascii_case("none") {
            continue;
        }
        let dimension = name
            .to_ascii_lowercase()
            .parse::<Dimension>()
            .map_err(|message| ApiError::Invalid { field, message })?;
        if !dimensions.contains(&dimension) {
            dimensions.push(dimension);
        }
    }
    if dimensions.len() > MAX_GROUP_BY_DIMENSIONS {
        return Err(ApiError::Invalid {
            field,
            message: format!("Maximum {MAX_GROUP_BY_DIMENSIONS} group by dimensions allowed"),
        });
    }
    Ok(dimensions)
}

/// `Operator {op} is not supported for field {field}` (422 on `filters`).
pub fn unsupported_operator(operator: &str, field: &str) -> ApiError {
    ApiError::Invalid {
        field: "filters",
        message: format!("Operator {operator} is not supported for field {field}"),
    }
}

/// `equals` with several values is `in` (and `not_equals` is `not_in`).
pub fn value_condition(operator: MatchOperator, values: Vec<String>) -> ValueCondition {
    let operator = match operator {
        MatchOperator::Equals if values.len() > 1 => MatchOperator::In,
        MatchOperator::NotEquals if values.len() > 1 => MatchOperator::NotIn,
        other => other,
    };
    ValueCondition { operator, values }
}

/// A provider filter value as the stored code: any name of the three clouds in any case becomes
/// its code; another provider's name is matched as written.
pub fn provider_code(value: &str) -> String {
    Provider::code_for(value)
}

/// The filter groups of a `/v2/cost/*` request, with the skip rules of spec 1 §5 (each skip adds
/// a warning) and groups left without conditions dropped. The lists are bounded as sent
/// (`costscope_core::cost::bounds`: groups, conditions per group, values).
pub fn parse_filter_groups(
    groups: Option<Vec<FilterGroupDto>>,
    warnings: &mut Vec<String>,
) -> Result<Vec<FilterGroup>, ApiError> {
    let groups = groups.unwrap_or_default();
    bounds::check_filter_groups(groups.len())?;
    let mut values = FilterValueCount::default();
    let mut parsed = Vec::new();
    for (index, group) in groups.into_iter().enumerate() {
        bounds::check_group_conditions(index + 1, group.entries())?;
        let group = GroupParser {
            number: index + 1,
            warnings: &mut *warnings,
            values: &mut values,
        }
        .parse(group, index == 0)?;
        if !group.is_empty() {
            parsed.push(group);
        }
    }
    Ok(parsed)
}

impl FilterGroupDto {
    /// Conditions and unknown fields as sent (each may cost a warning).
    fn entries(&self) -> usize {
        let conditions = [
            &self.accounts,
            &self.regions,
            &self.services,
            &self.cloud_providers,
            &self.cost_types,
            &self.usage_types,
        ]
        .into_iter()
        .map(|list| list.as_ref().map_or(0, Vec::len))
        .sum::<usize>();
        conditions + self.tags.as_ref().map_or(0, Vec::len) + self.unknown.len()
    }
}

struct GroupParser<'w> {
    /// 1-based, as in the warnings.
    number: usize,
    warnings: &'w mut Vec<String>,
    /// The request's filter values so far.
    values: &'w mut FilterValueCount,
}

impl GroupParser<'_> {
    fn parse(mut self, dto: FilterGroupDto, first: bool) -> Result<FilterGroup, ApiError> {
        let join = self.join(dto.operator.as_ref(), first)?;
        for field in dto.unknown.keys() {
            self.warn(format!("ignored unknown field {field}"));
        }
        let mut group = FilterGroup {
            join,
            accounts: self.conditions("accounts", dto.accounts)?,
            regions: self.conditions("regions", dto.regions)?,
            services: self.conditions("services", dto.services)?,
            cloud_providers: self.conditions("cloud_providers", dto.cloud_providers)?,
            cost_types: self.conditions("cost_types", dto.cost_types)?,
            usage_types: self.conditions("usage_types", dto.usage_types)?,
            tags: Vec::new(),
        };
        for condition in &mut group.cloud_providers {
            for value in &mut condition.values {
                *value = provider_code(value);
            }
        }
        for tag in dto.tags.unwrap_or_default() {
            if let Some(tag) = self.tag(tag)? {
                group.tags.push(tag);
            }
        }
        Ok(group)
    }

    fn warn(&mut self, text: String) {
        self.warnings
            .push(format!("Filter group {}: {text}", self.number));
    }

    fn join(&mut self, operator: Option<&Value>, first: bool) -> Result<GroupJoin, ApiError> {
        let default = if first { GroupJoin::And } else { GroupJoin::Or };
        let Some(text) = operator.and_then(operator_text) else {
            return Ok(default);
        };
        match text.to_ascii_uppercase().as_str() {
            "AND" => Ok(GroupJoin::And),
            "OR" => Ok(GroupJoin::Or),
            _ => Err(unsupported_operator(&text, "operator")),
        }
    }

    fn conditions(
        &mut self,
        field: &'static str,
        conditions: Option<Vec<ConditionDto>>,
    ) -> Result<Vec<ValueCondition>, ApiError> {
        let mut parsed = Vec::new();
        for condition in conditions.unwrap_or_default() {
            let Some(operator) = condition.operator.as_ref().and_then(operator_text) else {
                self.warn(format!("skipped a {field} condition without an operator"));
                continue;
            };
            let operator = list_operator(&operator, field)?;
            let values = condition_values(condition.values, condition.value);
            if values.is_empty() {
                self.warn(format!("skipped a {field} condition without values"));
                continue;
            }
            self.values.add(field, &values)?;
            parsed.push(value_condition(operator, values));
        }
        Ok(parsed)
    }

    fn tag(&mut self, dto: TagConditionDto) -> Result<Option<TagCondition>, ApiError> {
        let Some(key) = dto.key.filter(|key| !key.trim().is_empty()) else {
            self.warn("skipped a tag condition without a key".to_owned());
            return Ok(None);
        };
        bounds::check_value_length("tags", &key)?;
        let (operator, values) = match dto.value {
            Some(TagValueDto::Condition(condition)) => (
                condition.operator,
                condition_values(condition.values, condition.value),
            ),
            Some(TagValueDto::Values(values)) => (dto.value_operator, values.into_values()),
            None => (
                dto.value_operator,
                dto.values.map(OneOrMany::into_values).unwrap_or_default(),
            ),
        };
        // A tag's value is optional: without values the key must exist. The operator defaults
        // to equals; `is_empty` / `is_not_empty` take no values (any sent are ignored).
        let operator = match operator.as_ref().and_then(operator_text) {
            Some(operator) => tag_operator(&operator)?,
            None => MatchOperator::Equals,
        };
        if operator.takes_no_value() {
            let value = ValueCondition {
                operator,
                values: Vec::new(),
            };
            return Ok(Some(TagCondition {
                key,
                value: Some(value),
            }));
        }
        self.values.add("tags", &values)?;
        let value = (!values.is_empty()).then(|| value_condition(operator, values));
        Ok(Some(TagCondition { key, value }))
    }
}

/// A non-blank string operator, trimmed and lower-cased (anything else counts as empty).
fn operator_text(operator: &Value) -> Option<String> {
    let text = operator.as_str()?.trim();
    (!text.is_empty()).then(|| text.to_owned())
}

/// One of `equals`, `not_equals`, `in`, `not_in`.
fn list_operator(operator: &str, field: &str) -> Result<MatchOperator, ApiError> {
    MatchOperator::parse(&operator.to_ascii_lowercase())
        .filter(|parsed| parsed.is_list_operator())
        .ok_or_else(|| unsupported_operator(operator, field))
}

/// A tag's value operator: one of the four, or `is_empty` (the key is missing or its value is
/// empty: "untagged for {key}") / `is_not_empty` (the key has a non-empty value).
fn tag_operator(operator: &str) -> Result<MatchOperator, ApiError> {
    MatchOperator::parse(&operator.to_ascii_lowercase())
        .filter(|parsed| parsed.is_list_operator() || parsed.takes_no_value())
        .ok_or_else(|| unsupported_operator(operator, "tags"))
}

/// The `details` field and message of a 422, for tests.
#[cfg(test)]
pub(crate) fn invalid(error: ApiError) -> (String, String) {
    match error {
        ApiError::Invalid { field, message } | ApiError::TooMuch { field, message } => {
            (field.to_owned(), message)
        }
        other => panic!("expected a 422, got {other:?}"),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn groups(value: Value) -> (Result<Vec<FilterGroup>, ApiError>, Vec<String>) {
        let dtos: Vec<FilterGroupDto> = serde_json::from_value(value).expect("filter groups");
        let mut warnings = Vec::new();
        (parse_filter_groups(Some(dtos), &mut warnings), warnings)
    }

    fn condition(operator: MatchOperator, values: &[&str]) -> ValueCondition {
        ValueCondition {
            operator,
            values: values.iter().map(|value| (*value).to_owned()).collect(),
        }
    }

    fn bad_request(error: ApiError) -> String {
        match error {
            ApiError::BadRequest(message) => message,
            other => panic!("expected a 400, got {other:?}"),
        }
    }

    #[test]
    fn parses_every_field_and_tag_form() {
        let (parsed, warnings) = groups(json!([{
            "operator": "AND",
            "accounts": [{"operator": "equals", "values": ["111"]}],
            "regions": [{"operator": "in", "values": ["us-east-1", "eu-west-1"]}],
            "services": [{"operator": "not_in", "value": "AmazonEC2"}],
            "cloud_providers": [{"operator": "equals", "values": ["AWS", "Google Cloud"]}],
            "cost_types": [{"operator": "not_equals", "value": ["Tax"]}],
            "usage_types": [{"operator": "equals", "values": ["BoxUsage"]}],
            "tags": [
                {"key": "team"},
                {"key": "env", "value": {"operator": "equals", "values": ["prod"]}},
                {"key": "app", "value_operator": "not_equals", "values": ["legacy"]},
                {"key": "owner", "value": "ann"}
            ]
        }]));
        assert!(warnings.is_empty(), "{warnings:?}");
        let group = &parsed.unwrap()[0];
        assert_eq!(group.join, GroupJoin::And);
        assert_eq!(group.accounts, [condition(MatchOperator::Equals, &["111"])]);
        assert_eq!(
            group.regions,
            [condition(MatchOperator::In, &["us-east-1", "eu-west-1"])]
        );
        assert_eq!(
            group.services,
            [condition(MatchOperator::NotIn, &["AmazonEC2"])]
        );
        assert_eq!(
            group.cloud_providers,
            [condition(MatchOperator::In, &["aws", "gcp"])]
        );
        assert_eq!(
            group.cost_types,
            [condition(MatchOperator::NotEquals, &["Tax"])]
        );
        assert_eq!(
            group.usage_types,
            [condition(MatchOperator::Equals, &["BoxUsage"])]
        );
        let tag = |key: &str, value: Option<ValueCondition>| TagCondition {
            key: key.to_owned(),
            value,
        };
        assert_eq!(
            group.tags,
            [
                tag("team", None),
                tag("env", Some(condition(MatchOperator::Equals, &["prod"]))),
                tag(
                    "app",
                    Some(condition(MatchOperator::NotEquals, &["legacy"]))
                ),
                tag("owner", Some(condition(MatchOperator::Equals, &["ann"]))),
            ]
        );
    }

    #[test]
    fn groups_after_the_first_default_to_or_and_operators_are_case_insensitive() {
        let (parsed, _) = groups(json!([
            {"regions": [{"operator": "EQUALS", "values": ["a"]}]},
            {"regions": [{"operator": "equals", "values": ["b"]}]},
            {"operator": "and", "regions": [{"operator": "equals", "values": ["c"]}]}
        ]));
        let joins: Vec<GroupJoin> = parsed.unwrap().iter().map(|g| g.join).collect();
        assert_eq!(joins, [GroupJoin::And, GroupJoin::Or, GroupJoin::And]);
    }

    #[test]
    fn skips_empty_conditions_and_unknown_fields_with_warnings_and_drops_empty_groups() {
        let (parsed, warnings) = groups(json!([
            {"operator": "AND",
             "regions": [{"operator": "equals", "values": []}],
             "services": [{"operator": "", "values": ["x"]}, {"operator": 5, "values": ["x"]}],
             "accounts": [{"operator": "equals", "values": ["", "  "]}, {"operator": "equals"}],
             "tags": [{"value": {"operator": "equals", "values": ["a"]}}, {"key": " "}],
             "colour": "red"},
            {"operator": "OR", "regions": [{"operator": "equals", "values": ["a"]}]},
            {}
        ]));
        let parsed = parsed.unwrap();
        assert_eq!(parsed.len(), 1);
        assert_eq!(
            parsed[0].regions,
            [condition(MatchOperator::Equals, &["a"])]
        );
        assert_eq!(
            warnings,
            [
                "Filter group 1: ignored unknown field colour",
                "Filter group 1: skipped a accounts condition without values",
                "Filter group 1: skipped a accounts condition without values",
                "Filter group 1: skipped a regions condition without values",
                "Filter group 1: skipped a services condition without an operator",
                "Filter group 1: skipped a services condition without an operator",
                "Filter group 1: skipped a tag condition without a key",
                "Filter group 1: skipped a tag condition without a key",
            ]
        );
    }

    #[test]
    fn a_tag_with_an_empty_value_list_means_the_key_exists() {
        let (parsed, warnings) = groups(json!([
            {"tags": [{"key": "env", "value": {"operator": "equals", "values": []}}]}
        ]));
        assert!(warnings.is_empty());
        assert_eq!(parsed.unwrap()[0].tags[0].value, None);
    }

    #[test]
    fn a_tag_may_be_empty_or_not_empty_without_values() {
        let (parsed, warnings) = groups(json!([{"tags": [
            {"key": "team", "value": {"operator": "is_empty"}},
            {"key": "env", "value_operator": "IS_NOT_EMPTY"},
            {"key": "app", "value": {"operator": "is_empty", "values": ["ignored"]}},
            {"key": "owner", "value_operator": "is_not_empty", "values": []}
        ]}]));
        assert!(warnings.is_empty(), "{warnings:?}");
        let tag = |key: &str, operator| TagCondition {
            key: key.to_owned(),
            value: Some(condition(operator, &[])),
        };
        assert_eq!(
            parsed.unwrap()[0].tags,
            [
                tag("team", MatchOperator::IsEmpty),
                tag("env", MatchOperator::IsNotEmpty),
                tag("app", MatchOperator::IsEmpty),
                tag("owner", MatchOperator::IsNotEmpty),
            ]
        );
    }

    #[test]
    fn rejects_operators_other_than_the_four() {
        for (body, message) in [
            (
                json!([{"regions": [{"operator": "contains", "values": ["a"]}]}]),
                "Operator contains is not supported for field regions",
            ),
            (
                json!([{"tags": [{"key": "a", "value_operator": "starts_with", "values": ["x"]}]}]),
                "Operator starts_with is not supported for field tags",
            ),
            (
                json!([{"tags": [{"key": "a", "value": {"operator": "contains"}}]}]),
                "Operator contains is not supported for field tags",
            ),
            (
                json!([{"regions": [{"operator": "is_empty", "values": ["a"]}]}]),
                "Operator is_empty is not supported for field regions",
            ),
            (
                json!([{"operator": "XOR", "regions": [{"operator": "in", "values": ["a"]}]}]),
                "Operator XOR is not supported for field operator",
            ),
        ] {
            let (parsed, _) = groups(body);
            assert_eq!(
                invalid(parsed.unwrap_err()),
                ("filters".to_owned(), message.to_owned())
            );
        }
    }

    #[test]
    fn parses_dates_and_date_times() {
        let range = parse_range(
            ("start_time", Some("2026-11-01")),
            ("end_time", Some("2026-11-30")),
        )
        .unwrap();
        assert_eq!(range.start().to_rfc3339(), "2026-11-01T00:00:00+00:00");
        assert_eq!(range.end().to_rfc3339(), "2026-11-30T23:59:59.999+00:00");
        let range = parse_range(
            ("start_time", Some("2026-11-01T00:00:00.000Z")),
            ("end_time", Some("2026-11-02T10:00:00")),
        )
        .unwrap();
        assert_eq!(range.end().to_rfc3339(), "2026-11-02T10:00:00+00:00");
    }

    #[test]
    fn time_messages() {
        let message = |start: Option<&str>, end: Option<&str>| {
            bad_request(parse_range(("start_time", start), ("end_time", end)).unwrap_err())
        };
        assert_eq!(message(None, Some("2026-01-01")), "start_time is required");
        assert_eq!(
            message(Some("2026-01-01"), Some(" ")),
            "end_time is required"
        );
        assert_eq!(
            message(Some("yesterday"), Some("2026-01-01")),
            "start_time must be an ISO 8601 date or date-time"
        );
        assert_eq!(
            message(Some("2026-01-02"), Some("2026-01-01")),
            "end_time must not be before start_time"
        );
        let filters = parse_optional_range(("start_date", None), ("end_date", Some("x")));
        assert_eq!(bad_request(filters.unwrap_err()), "start_date is required");
        assert_eq!(
            parse_optional_range(("start_date", None), ("end_date", None)).unwrap(),
            None
        );
    }

    #[test]
    fn dimensions_are_distinct_at_most_four_and_known() {
        assert_eq!(
            parse_dimensions(
                "group_by_dimensions",
                ["service", "account", "service", "none"]
            )
            .unwrap(),
            [Dimension::Service, Dimension::Account]
        );
        let five = ["service", "account", "region", "cost_type", "usage_type"];
        assert_eq!(
            invalid(parse_dimensions("group_by_dimensions", five).unwrap_err()),
            (
                "group_by_dimensions".to_owned(),
                "Maximum 4 group by dimensions allowed".to_owned()
            )
        );
        assert_eq!(
            invalid(parse_dimensions("group_by", ["colour"]).unwrap_err()).1,
            "Unknown group by dimension colour"
        );
    }

    #[test]
    fn metric_and_cost_types() {
        assert_eq!(parse_metric(None).unwrap(), Metric::Billed);
        assert_eq!(parse_metric(Some("Effective")).unwrap(), Metric::Effective);
        assert_eq!(
            invalid(parse_metric(Some("net")).unwrap_err()),
            (
                "metric".to_owned(),
                "Metric must be billed, effective or list".to_owned()
            )
        );
        let dto = |value: Value| serde_json::from_value::<CostTypeDto>(value).unwrap();
        let parse = |value| parse_cost_types(value).unwrap();
        assert_eq!(parse(None), None);
        assert_eq!(parse(Some(dto(json!({"inclusions": []})))), None);
        assert_eq!(parse(Some(dto(json!({"inclusions": null})))), None);
        assert_eq!(
            parse(Some(dto(json!({"inclusions": "Usage"})))),
            Some(vec!["Usage".to_owned()])
        );
    }

    #[test]
    fn dates_outside_1970_to_2100_and_ranges_over_five_years_are_422s_naming_the_field() {
        let refused = |start: &str, end: &str| {
            invalid(parse_range(("start_time", Some(start)), ("end_time", Some(end))).unwrap_err())
        };
        let out_of_bounds = |field: &str| {
            (
                field.to_owned(),
                format!("{field} must be a date between 1970-01-01 and 2100-12-31"),
            )
        };
        assert_eq!(
            refused("1950-01-01", "2100-12-31"),
            out_of_bounds("start_time")
        );
        assert_eq!(
            refused("2026-01-01", "2101-01-01"),
            out_of_bounds("end_time")
        );
        assert_eq!(
            refused("-0001-01-01", "2026-01-01"),
            out_of_bounds("start_time")
        );
        assert_eq!(
            refused("2026-01-01", "+275760-09-13"),
            out_of_bounds("end_time")
        );
        assert_eq!(
            refused("1000000000000-01-01", "2026-01-01"),
            out_of_bounds("start_time")
        );
        assert_eq!(
            refused("2020-01-01", "2025-01-01"),
            (
                "end_time".to_owned(),
                "The range from start_time to end_time must be at most 5 years".to_owned()
            )
        );
        assert!(parse_range(
            ("start_time", Some("2020-01-01")),
            ("end_time", Some("2024-12-31"))
        )
        .is_ok());
    }

    #[test]
    fn filter_lists_are_bounded_as_sent() {
        let group = json!({"regions": [{"operator": "in", "values": ["a"]}]});
        let (parsed, _) = groups(Value::Array(vec![group.clone(); 21]));
        assert_eq!(
            invalid(parsed.unwrap_err()),
            (
                "filters".to_owned(),
                "Maximum 20 filter groups allowed".to_owned()
            )
        );
        let empty_conditions = vec![json!({"operator": "equals", "values": []}); 21];
        let (parsed, _) = groups(json!([{"regions": empty_conditions}]));
        assert_eq!(
            invalid(parsed.unwrap_err()).1,
            "Filter group 1: maximum 20 conditions allowed (tags included)"
        );
        let many: Vec<String> = (0..100_000).map(|index| format!("v{index}")).collect();
        let (parsed, _) = groups(json!([{"accounts": [{"operator": "in", "values": many}]}]));
        assert_eq!(
            invalid(parsed.unwrap_err()).1,
            "A accounts condition has 100000 values; maximum 1000 values per condition"
        );
        let thousand: Vec<String> = (0..1_000).map(|index| format!("v{index}")).collect();
        let conditions = vec![json!({"operator": "in", "values": thousand}); 6];
        let (parsed, _) = groups(json!([{"services": conditions}]));
        assert_eq!(
            invalid(parsed.unwrap_err()).1,
            "Maximum 5000 filter values allowed in one request"
        );
        let (parsed, _) = groups(json!([{"tags": [{"key": "k".repeat(257)}]}]));
        assert_eq!(
            invalid(parsed.unwrap_err()).1,
            "A tags filter value is longer than 256 characters"
        );
        let names = vec!["service"; 51];
        assert_eq!(
            invalid(parse_dimensions("group_by_dimensions", names).unwrap_err()).1,
            "group_by_dimensions may list at most 50 names"
        );
    }
}
