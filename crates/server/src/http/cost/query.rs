//! `POST /v1/query`: advanced filtering (spec 2 §7) — a flat list of conditions joined by one
//! logic, answered like `/v2/cost/aggr` without an interval.

use std::collections::HashSet;

use axum::extract::State;
use axum::Json;
use chrono::{DateTime, Datelike, Days, Months, NaiveDate, Utc};
use costscope_core::cost::bounds::{self, FilterValueCount};
use costscope_core::cost::{
    AggregateQuery, CostFilter, Dimension, FilterGroup, GroupJoin, MatchOperator, TagCondition,
    TimeRange, ValueCondition,
};
use serde::Deserialize;
use serde_json::Value;
use utoipa::ToSchema;

use super::aggr::{answer, AggregatePlan, AggregateResponse};
use super::amount_filter::{self, AmountCondition};
use super::request::{
    parse_dimensions, parse_metric, parse_range, provider_code, value_condition, OneOrMany,
};
use crate::http::error::{ApiError, ErrorBody};
use crate::http::extract::{ApiJson, AuthUser};
use crate::state::AppState;

/// The cost analysis module's limit (spec 1 §9).
const MAX_FILTERS: usize = 10;
const MODULE: &str = "cost_analysis";

/// One condition of an advanced query (documents the shape; the handler reads each entry
/// leniently so that it can answer the module's messages).
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct QueryFilter {
    /// `cloud_provider`, `service_name`, `region`, `account_id`, `cost_type`, `usage_type`,
    /// `cost_amount`, `tags` (with `tagKey`) or `tag:{key}`.
    pub field: Option<String>,
    /// `equals`, `not_equals`, `in`, `not_in`, `contains`, `not_contains`, `starts_with`,
    /// `ends_with`, `is_empty`, `is_not_empty`; for `cost_amount`: `greater_than`, `less_than`,
    /// `between` (on each group's total over the period).
    pub operator: Option<String>,
    /// Strings, numbers or a list of them (`cost_amount` `between`: `[from, to]`).
    pub value: Option<OneOrMany>,
    pub tag_key: Option<String>,
    /// For tag filters: how the tag's value is matched (default: `operator`).
    pub tag_value_operator: Option<String>,
}

#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct QueryRequest {
    /// At most 10 conditions.
    #[schema(value_type = Option<Vec<QueryFilter>>)]
    pub filters: Option<Value>,
    /// `and` (default): every condition holds; `or`: any condition holds.
    pub logic: Option<String>,
    /// Default: the first day of the current month (UTC).
    pub start_time: Option<String>,
    /// Default: the last day of the current month (UTC).
    pub end_time: Option<String>,
    /// Default `["service"]`.
    pub group_by: Option<OneOrMany>,
    pub metric: Option<String>,
}

fn invalid(field: &'static str, message: String) -> ApiError {
    ApiError::Invalid { field, message }
}

/// A column of an advanced query field.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Column {
    Account,
    Region,
    Service,
    CloudProvider,
    CostType,
    UsageType,
    /// `tags` without `tagKey` (skipped with a warning).
    Tags,
    Tag(String),
}

impl Column {
    fn parse(field: &str, tag_key: Option<&str>) -> Option<Self> {
        if let Some(key) = field.strip_prefix("tag:").map(str::trim) {
            return Some(if key.is_empty() {
                Column::Tags
            } else {
                Column::Tag(key.to_owned())
            });
        }
        Some(match field {
            "account_id" | "account" => Column::Account,
            "region" => Column::Region,
            "service_name" | "service" => Column::Service,
            "cloud_provider" => Column::CloudProvider,
            "cost_type" => Column::CostType,
            "usage_type" => Column::UsageType,
            "tags" | "tag" => match tag_key.map(str::trim).filter(|key| !key.is_empty()) {
                Some(key) => Column::Tag(key.to_owned()),
                None => Column::Tags,
            },
            _ => return None,
        })
    }
}

/// What one filter of the list is: a condition on the line items, or the `cost_amount` test
/// on the grouped rows.
#[derive(Debug, Clone, PartialEq)]
enum Parsed {
    Rows(Condition),
    Amount(AmountCondition),
}

/// The filters of a request: the groups the engine reads, and the `cost_amount` test applied
/// to each group's total after them.
#[derive(Debug, Clone, PartialEq, Default)]
struct Filters {
    groups: Vec<FilterGroup>,
    amount: Option<AmountCondition>,
}

/// One validated condition.
#[derive(Debug, Clone, PartialEq)]
struct Condition {
    column: Column,
    operator: MatchOperator,
    values: Vec<String>,
}

impl Condition {
    fn add_to(self, group: &mut FilterGroup) {
        let Condition {
            column,
            operator,
            mut values,
        } = self;
        let list = match column {
            Column::Account => &mut group.accounts,
            Column::Region => &mut group.regions,
            Column::Service => &mut group.services,
            Column::CloudProvider => {
                values = values.iter().map(|value| provider_code(value)).collect();
                &mut group.cloud_providers
            }
            Column::CostType => &mut group.cost_types,
            Column::UsageType => &mut group.usage_types,
            Column::Tag(key) => {
                let value = if values.is_empty() && !operator.takes_no_value() {
                    None
                } else {
                    Some(value_condition(operator, values))
                };
                group.tags.push(TagCondition { key, value });
                return;
            }
            Column::Tags => return,
        };
        list.push(if operator.takes_no_value() {
            ValueCondition {
                operator,
                values: Vec::new(),
            }
        } else {
            value_condition(operator, values)
        });
    }
}

/// Empty filters (null, blank string, empty list or object) are dropped.
fn is_blank(filter: &Value) -> bool {
    match filter {
        Value::Null => true,
        Value::String(text) => text.trim().is_empty(),
        Value::Array(items) => items.is_empty(),
        Value::Object(fields) => fields.is_empty(),
        _ => false,
    }
}

/// A string, number or list of them as values; anything else is no value.
fn values_of(value: Option<&Value>) -> Vec<String> {
    let one = |value: &Value| match value {
        Value::String(text) => Some(text.clone()),
        Value::Number(number) => Some(number.to_string()),
        Value::Bool(flag) => Some(flag.to_string()),
        _ => None,
    };
    let values: Vec<String> = match value {
        Some(Value::Array(items)) => items.iter().filter_map(one).collect(),
        Some(value) => one(value).into_iter().collect(),
        None => Vec::new(),
    };
    values
        .into_iter()
        .filter(|value| !value.trim().is_empty())
        .collect()
}

fn text_of<'a>(filter: &'a Value, name: &str) -> Option<&'a str> {
    filter
        .get(name)
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|text| !text.is_empty())
}

/// The filter as one group (`and`) or one group per condition (`or`), with the module's rules
/// and messages (spec 1 §5); at most one `cost_amount` condition, kept apart.
fn parse_filters(
    filters: Option<Value>,
    logic: Option<&str>,
    warnings: &mut Vec<String>,
) -> Result<Filters, ApiError> {
    let filters = match filters {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(filters)) => filters,
        Some(_) => return Err(invalid("filters", "Filters must be an array".to_owned())),
    };
    let filters: Vec<(usize, Value)> = filters
        .into_iter()
        .enumerate()
        .filter(|(_, filter)| !is_blank(filter))
        .map(|(index, filter)| (index + 1, filter))
        .collect();
    if filters.len() > MAX_FILTERS {
        return Err(invalid(
            "filters",
            format!("Maximum {MAX_FILTERS} filters allowed"),
        ));
    }
    let logic = logic.map(str::trim).unwrap_or("and");
    let or = match logic.to_ascii_lowercase().as_str() {
        "and" | "" => false,
        "or" => true,
        _ => {
            return Err(invalid(
                "logic",
                format!("Logic {logic} not supported in {MODULE} module"),
            ))
        }
    };
    let mut conditions = Vec::new();
    let mut seen = HashSet::new();
    let mut values = FilterValueCount::default();
    let mut amount = None;
    for (number, filter) in filters {
        let condition = match parse_condition(number, &filter, warnings)? {
            None => continue,
            Some(Parsed::Amount(condition)) => {
                if amount.replace(condition).is_some() {
                    return Err(invalid("filters", "Duplicate filters detected".to_owned()));
                }
                continue;
            }
            Some(Parsed::Rows(condition)) => condition,
        };
        condition.count_values(&mut values)?;
        if !seen.insert((condition.column.clone(), condition.operator_key())) {
            return Err(invalid("filters", "Duplicate filters detected".to_owned()));
        }
        conditions.push(condition);
    }
    let mut groups = Vec::new();
    for condition in conditions {
        if or || groups.is_empty() {
            groups.push(FilterGroup {
                join: if groups.is_empty() {
                    GroupJoin::And
                } else {
                    GroupJoin::Or
                },
                ..FilterGroup::default()
            });
        }
        condition.add_to(groups.last_mut().expect("a group"));
    }
    Ok(Filters { groups, amount })
}

impl Condition {
    fn operator_key(&self) -> String {
        format!("{:?}", self.operator)
    }

    /// Adds the values (and a tag's key) to the request's bounded count.
    fn count_values(&self, count: &mut FilterValueCount) -> Result<(), ApiError> {
        let field = match &self.column {
            Column::Account => "accounts",
            Column::Region => "regions",
            Column::Service => "services",
            Column::CloudProvider => "cloud_providers",
            Column::CostType => "cost_types",
            Column::UsageType => "usage_types",
            Column::Tags => "tags",
            Column::Tag(key) => {
                bounds::check_value_length("tags", key)?;
                "tags"
            }
        };
        count.add(field, &self.values)?;
        Ok(())
    }
}

fn parse_condition(
    number: usize,
    filter: &Value,
    warnings: &mut Vec<String>,
) -> Result<Option<Parsed>, ApiError> {
    let error = |message: String| invalid("filters", format!("Filter {number}: {message}"));
    let Some(field) = text_of(filter, "field") else {
        return Err(error("Filter field is required".to_owned()));
    };
    let tag_key = text_of(filter, "tagKey").or_else(|| text_of(filter, "tag_key"));
    let Some(operator_name) = text_of(filter, "operator") else {
        return Err(error("Filter operator is required".to_owned()));
    };
    let values = values_of(filter.get("value").or_else(|| filter.get("values")));
    if field == amount_filter::FIELD {
        return amount_condition(operator_name, &values)
            .map(|condition| Some(Parsed::Amount(condition)))
            .map_err(error);
    }
    let Some(column) = Column::parse(field, tag_key) else {
        warnings.push(format!("Filter {number}: ignored unknown field {field}"));
        return Ok(None);
    };
    let supported = |name: &str| {
        MatchOperator::parse(&name.to_ascii_lowercase()).ok_or_else(|| {
            error(format!(
                "Operator {name} is not supported for field {field}"
            ))
        })
    };
    let mut operator = supported(operator_name)?;
    let is_tag = matches!(column, Column::Tag(_) | Column::Tags);
    if is_tag {
        let value_operator =
            text_of(filter, "tagValueOperator").or_else(|| text_of(filter, "tag_value_operator"));
        if let Some(name) = value_operator {
            operator = supported(name)?;
        }
    }
    if values.is_empty() && !operator.takes_no_value() && !is_tag {
        return Err(error("Filter value is required".to_owned()));
    }
    if column == Column::Tags {
        warnings.push(format!(
            "Filter {number}: skipped a tag filter without a tag key"
        ));
        return Ok(None);
    }
    Ok(Some(Parsed::Rows(Condition {
        column,
        operator,
        values,
    })))
}

/// A `cost_amount` condition, or the message of the module (without the `Filter {n}: ` prefix).
fn amount_condition(operator: &str, values: &[String]) -> Result<AmountCondition, String> {
    if !AmountCondition::is_operator(operator) {
        return Err(format!(
            "Operator {operator} is not supported for field {}",
            amount_filter::FIELD
        ));
    }
    if values.is_empty() {
        return Err("Filter value is required".to_owned());
    }
    AmountCondition::parse(operator, values)
}

/// The current month in UTC: the 1st 00:00:00.000 to the last day 23:59:59.999.
fn current_month(now: DateTime<Utc>) -> TimeRange {
    let first = NaiveDate::from_ymd_opt(now.year(), now.month(), 1).expect("a valid date");
    let last = first + Months::new(1) - Days::new(1);
    TimeRange::whole_days(first, last).expect("a month ends after it starts")
}

/// A parsed advanced query: the aggregation, and the `cost_amount` test of its rows.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct QueryPlan {
    pub aggregate: AggregatePlan,
    pub amount: Option<AmountCondition>,
}

impl QueryRequest {
    pub(super) fn into_plan(self, now: DateTime<Utc>) -> Result<QueryPlan, ApiError> {
        let blank = |value: &Option<String>| value.as_deref().is_none_or(|v| v.trim().is_empty());
        let range = if blank(&self.start_time) && blank(&self.end_time) {
            current_month(now)
        } else {
            parse_range(
                ("start_time", self.start_time.as_deref()),
                ("end_time", self.end_time.as_deref()),
            )?
        };
        let mut warnings = Vec::new();
        let filters = parse_filters(self.filters, self.logic.as_deref(), &mut warnings)?;
        let dimensions = match self.group_by.map(OneOrMany::into_values) {
            Some(names) if !names.is_empty() => {
                parse_dimensions("group_by", names.iter().map(String::as_str))?
            }
            _ => vec![Dimension::Service],
        };
        let aggregate = AggregatePlan {
            query: AggregateQuery {
                range,
                filter: CostFilter {
                    groups: filters.groups,
                    cost_type_inclusions: None,
                },
                dimensions,
                interval: None,
                cumulative: false,
                metric: parse_metric(self.metric.as_deref())?,
                limit: None,
                offset: 0,
                ascending: false,
            },
            hierarchy: false,
            warnings,
        };
        Ok(QueryPlan {
            aggregate,
            amount: filters.amount,
        })
    }
}

#[utoipa::path(post, path = "/v1/query", tag = "cost", security(("bearer" = [])),
    request_body = QueryRequest,
    responses(
        (status = 200, body = AggregateResponse),
        (status = 400, description = "Unparsable or reversed time range", body = ErrorBody),
        (status = 401, description = "Authentication required", body = ErrorBody),
        (status = 422, description = "Invalid filters, logic, group_by or metric, or more than 200000 groups to compare with a cost_amount filter", body = ErrorBody),
        (status = 503, description = "The cost engine is busy or the query ran past the time limit and was cancelled (Retry-After)", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id))]
pub async fn query(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
    ApiJson(body): ApiJson<QueryRequest>,
) -> Result<Json<AggregateResponse>, ApiError> {
    let QueryPlan { aggregate, amount } = body.into_plan(state.clock.now())?;
    let customer = caller.customer_id;
    Ok(Json(match amount {
        None => answer(&state, customer, aggregate).await?,
        Some(amount) => {
            amount_filter::answer_kept(
                &state,
                customer,
                aggregate.query,
                amount,
                aggregate.warnings,
            )
            .await?
        }
    }))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::http::cost::request::invalid;

    fn parse(filters: Value, logic: &str) -> (Result<Vec<FilterGroup>, ApiError>, Vec<String>) {
        let (filters, warnings) = parse_all(filters, logic);
        (filters.map(|filters| filters.groups), warnings)
    }

    fn parse_all(filters: Value, logic: &str) -> (Result<Filters, ApiError>, Vec<String>) {
        let mut warnings = Vec::new();
        let filters = parse_filters(Some(filters), Some(logic), &mut warnings);
        (filters, warnings)
    }

    fn message(filters: Value, logic: &str) -> (String, String) {
        invalid(parse(filters, logic).0.unwrap_err())
    }

    #[test]
    fn and_is_one_group_and_or_is_one_group_per_condition() {
        let filters = json!([
            {"field": "service_name", "operator": "contains", "value": "EC2"},
            {"field": "cloud_provider", "operator": "equals", "value": ["AWS", "gcp"]},
            {"field": "tag:env", "operator": "not_equals", "value": "prod"},
            {"field": "tags", "tagKey": "team", "operator": "equals"},
            {"field": "region", "operator": "is_empty"}
        ]);
        let (groups, warnings) = parse(filters.clone(), "and");
        let groups = groups.unwrap();
        assert!(warnings.is_empty());
        assert_eq!(groups.len(), 1);
        let group = &groups[0];
        assert_eq!(group.services[0].operator, MatchOperator::Contains);
        assert_eq!(group.cloud_providers[0].operator, MatchOperator::In);
        assert_eq!(group.cloud_providers[0].values, ["aws", "gcp"]);
        assert_eq!(group.tags[0].key, "env");
        assert_eq!(
            group.tags[0].value.as_ref().unwrap().operator,
            MatchOperator::NotEquals
        );
        assert_eq!(
            group.tags[1],
            TagCondition {
                key: "team".to_owned(),
                value: None
            }
        );
        assert_eq!(group.regions[0].operator, MatchOperator::IsEmpty);

        let groups = parse(filters, "OR").0.unwrap();
        assert_eq!(groups.len(), 5);
        assert_eq!(groups[0].join, GroupJoin::And);
        assert!(groups[1..].iter().all(|group| group.join == GroupJoin::Or));
    }

    #[test]
    fn module_messages() {
        let field = |message: &str| ("filters".to_owned(), message.to_owned());
        assert_eq!(
            message(json!({"field": "region"}), "and"),
            field("Filters must be an array")
        );
        assert_eq!(
            message(json!([{"operator": "equals", "value": "a"}]), "and"),
            field("Filter 1: Filter field is required")
        );
        assert_eq!(
            message(json!([{}, {"field": "region", "value": "a"}]), "and"),
            field("Filter 2: Filter operator is required")
        );
        assert_eq!(
            message(
                json!([{"field": "region", "operator": "equals", "value": []}]),
                "and"
            ),
            field("Filter 1: Filter value is required")
        );
        assert_eq!(
            message(
                json!([{"field": "region", "operator": "greater_than", "value": "a"}]),
                "and"
            ),
            field("Filter 1: Operator greater_than is not supported for field region")
        );
        assert_eq!(
            message(
                json!([{"field": "region", "operator": "equals", "value": "a"},
                       {"field": "region", "operator": "equals", "value": "b"}]),
                "and"
            ),
            field("Duplicate filters detected")
        );
        let eleven: Vec<Value> = (0..11)
            .map(|n| json!({"field": "region", "operator": "equals", "value": n.to_string()}))
            .collect();
        assert_eq!(
            message(json!(eleven), "and"),
            field("Maximum 10 filters allowed")
        );
        assert_eq!(
            message(json!([]), "xor"),
            (
                "logic".to_owned(),
                "Logic xor not supported in cost_analysis module".to_owned()
            )
        );
    }

    #[test]
    fn empty_filters_are_dropped_and_unknown_fields_warned() {
        let (groups, warnings) = parse(
            json!(["", [], {}, null, {"field": "colour", "operator": "equals", "value": "red"},
                   {"field": "tags", "operator": "equals", "value": "x"}]),
            "and",
        );
        assert_eq!(groups.unwrap(), []);
        assert_eq!(
            warnings,
            [
                "Filter 5: ignored unknown field colour",
                "Filter 6: skipped a tag filter without a tag key"
            ]
        );
    }

    #[test]
    fn the_range_defaults_to_the_current_month() {
        let now = "2026-02-14T10:00:00Z".parse().unwrap();
        let range = current_month(now);
        assert_eq!(range.start().to_rfc3339(), "2026-02-01T00:00:00+00:00");
        assert_eq!(range.end().to_rfc3339(), "2026-02-28T23:59:59.999+00:00");
        let plan = QueryRequest::default().into_plan(now).unwrap();
        assert_eq!(plan.aggregate.query.dimensions, [Dimension::Service]);
        assert_eq!(plan.aggregate.query.range, range);
        assert_eq!(plan.amount, None);
    }

    #[test]
    fn cost_amount_is_kept_apart_from_the_groups_whatever_the_logic() {
        let filters = json!([
            {"field": "service_name", "operator": "equals", "value": "AmazonEC2"},
            {"field": "cost_amount", "operator": "between", "value": [10, "100.5"]},
            {"field": "region", "operator": "equals", "value": "us-east-1"}
        ]);
        for (logic, groups) in [("and", 1), ("or", 2)] {
            let parsed = parse_all(filters.clone(), logic).0.unwrap();
            assert_eq!(parsed.amount, Some(AmountCondition::Between(10.0, 100.5)));
            assert_eq!(parsed.groups.len(), groups, "{logic}");
            assert!(parsed.groups.iter().all(|group| group.tags.is_empty()));
        }
        let alone = parse_all(
            json!([{"field": "cost_amount", "operator": "GREATER_THAN", "value": 50}]),
            "or",
        )
        .0
        .unwrap();
        assert_eq!(
            alone,
            Filters {
                groups: Vec::new(),
                amount: Some(AmountCondition::GreaterThan(50.0)),
            }
        );
        let plan = QueryRequest {
            filters: Some(json!([{"field": "cost_amount", "operator": "less_than", "value": "0"}])),
            ..QueryRequest::default()
        }
        .into_plan("2026-02-14T10:00:00Z".parse().unwrap())
        .unwrap();
        assert_eq!(plan.amount, Some(AmountCondition::LessThan(0.0)));
        assert!(plan.aggregate.query.filter.groups.is_empty());
    }

    #[test]
    fn cost_amount_messages() {
        let field = |message: &str| ("filters".to_owned(), message.to_owned());
        let amount = |operator: &str, value: Value| {
            json!([{"field": "region", "operator": "equals", "value": "a"},
                   {"field": "cost_amount", "operator": operator, "value": value}])
        };
        for (filters, expected) in [
            (
                amount("greater_than", json!("ten")),
                "Filter 2: Cost amount must be a number",
            ),
            (
                amount("between", json!([10])),
                "Filter 2: Between needs two amounts: from and to",
            ),
            (
                amount("between", json!([20, 10])),
                "Filter 2: From amount cannot exceed to amount",
            ),
            (
                amount("equals", json!(10)),
                "Filter 2: Operator equals is not supported for field cost_amount",
            ),
            (
                amount("less_than", json!([])),
                "Filter 2: Filter value is required",
            ),
            (
                json!([{"field": "cost_amount", "operator": "greater_than", "value": 1},
                       {"field": "cost_amount", "operator": "less_than", "value": 9}]),
                "Duplicate filters detected",
            ),
        ] {
            assert_eq!(
                message(filters.clone(), "and"),
                field(expected),
                "{filters}"
            );
        }
    }
}
