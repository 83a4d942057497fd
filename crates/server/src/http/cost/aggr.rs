//! `POST /v2/cost/aggr`: costs grouped by up to four dimensions, per time bucket or over the
//! range, flat or as a hierarchy, with the summary of the range against the previous period.

use axum::extract::State;
use axum::Json;
use chrono::NaiveDate;
use std::collections::HashMap;

use costscope_core::cost::bounds::{self, GroupPage, MAX_GROUPS};
use costscope_core::cost::{AggregateQuery, CostFilter, Dimension, Interval};
use costscope_engine::{Aggregate, AggregateRow, CustomerId};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::request::{
    parse_cost_types, parse_dimensions, parse_filter_groups, parse_metric, parse_range,
    CostTypeDto, FilterGroupDto, OneOrMany,
};
use crate::http::currency::{display_currency, CurrencyPart};
use crate::http::error::{ApiError, ErrorBody};
use crate::http::extract::{ApiJson, AuthUser};
use crate::state::AppState;

/// Largest page of groups.
const MAX_LIMIT: i64 = MAX_GROUPS as i64;

#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct AggregateRequest {
    /// RFC 3339 or `YYYY-MM-DD` (00:00:00.000 UTC).
    #[schema(required = true)]
    pub start_time: Option<String>,
    /// RFC 3339 or `YYYY-MM-DD` (23:59:59.999 UTC).
    #[schema(required = true)]
    pub end_time: Option<String>,
    pub filters: Option<Vec<FilterGroupDto>>,
    /// One dimension or `none`; used when `group_by_dimensions` is absent or empty.
    pub group_by: Option<String>,
    /// Up to 4 of `account`, `region`, `service`, `cloud_provider`, `cost_type`, `usage_type`.
    pub group_by_dimensions: Option<OneOrMany>,
    /// With two or more dimensions and no interval: nested `children`.
    pub group_by_hierarchy: Option<bool>,
    /// `daily`, `weekly` (ISO weeks) or `monthly`; absent → one row per group.
    pub interval: Option<String>,
    /// `cumulative` → daily running totals; `daily`/`weekly`/`monthly` set the interval when
    /// `interval` is absent.
    pub view_type: Option<String>,
    /// 1–10000 groups per page; default 1000. Buckets × groups is capped at 200000 rows.
    pub limit: Option<i64>,
    pub offset: Option<i64>,
    /// Accepted and ignored.
    pub include_forecast: Option<bool>,
    pub cost_type: Option<CostTypeDto>,
    /// Groups are always ranked by `amount`.
    pub order_by: Option<String>,
    /// Default true (largest first).
    pub order_desc: Option<bool>,
    /// `billed` (default), `effective` or `list`.
    pub metric: Option<String>,
}

/// One answer row: one field per grouping dimension (named after it).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, ToSchema)]
pub struct CostRow {
    /// The bucket's first day, when there is an interval.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timestamp: Option<NaiveDate>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub account: Option<String>,
    /// Present when grouped by account.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub account_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub region: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub service: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cloud_provider: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cost_type: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub usage_type: Option<String>,
    pub amount: f64,
    /// The row's value of each dimension, in dimension order.
    pub grouping_values: Vec<String>,
    /// `grouping_values` joined by ` / `.
    pub grouping_path: String,
    /// The next dimension's groups (hierarchy form only).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(no_recursion)]
    pub children: Option<Vec<CostRow>>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct CostSummary {
    /// Total over the range and filters (not paged).
    pub accrued_cost: f64,
    /// Percent change against `previous_cost`; null when that is 0.
    pub accrued_change: Option<f64>,
    /// The same total over the previous period of the same length.
    pub previous_cost: f64,
    pub currency: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct AggregateResponse {
    pub data: Vec<CostRow>,
    pub summary: CostSummary,
    /// Groups before limit/offset (top-level groups in the hierarchy form).
    pub total_groups: u64,
    /// One line per skipped filter condition or ignored field, per currency left out, and one
    /// when amounts were converted.
    pub warnings: Vec<String>,
    #[serde(flatten)]
    pub currency: CurrencyPart,
}

/// A parsed aggregation request.
#[derive(Debug, Clone, PartialEq)]
pub struct AggregatePlan {
    pub query: AggregateQuery,
    /// Answer with nested `children` (two or more dimensions, no interval).
    pub hierarchy: bool,
    pub warnings: Vec<String>,
}

impl AggregateRequest {
    pub fn into_plan(self) -> Result<AggregatePlan, ApiError> {
        let range = parse_range(
            ("start_time", self.start_time.as_deref()),
            ("end_time", self.end_time.as_deref()),
        )?;
        let mut warnings = Vec::new();
        let groups = parse_filter_groups(self.filters, &mut warnings)?;
        let dimensions = match self.group_by_dimensions.map(OneOrMany::into_values) {
            Some(names) if !names.is_empty() => {
                parse_dimensions("group_by_dimensions", names.iter().map(String::as_str))?
            }
            _ => parse_dimensions("group_by", self.group_by.as_deref())?,
        };
        let (interval, cumulative) = interval_and_view(
            self.interval.as_deref(),
            self.view_type.as_deref(),
            &mut warnings,
        )?;
        let limit = match self.limit {
            None => None,
            Some(limit @ 1..=MAX_LIMIT) => Some(u32::try_from(limit).expect("at most 10000")),
            Some(_) => {
                return Err(ApiError::Invalid {
                    field: "limit",
                    message: format!("Limit must be between 1 and {MAX_LIMIT}"),
                })
            }
        };
        let offset = u32::try_from(self.offset.unwrap_or(0)).map_err(|_| ApiError::Invalid {
            field: "offset",
            message: "Offset must be a whole number of groups, 0 or more".to_owned(),
        })?;
        let query = AggregateQuery {
            range,
            filter: CostFilter {
                groups,
                cost_type_inclusions: parse_cost_types(self.cost_type)?,
            },
            metric: parse_metric(self.metric.as_deref())?,
            dimensions,
            interval,
            cumulative,
            limit,
            offset,
            ascending: !self.order_desc.unwrap_or(true),
        };
        let hierarchy = self.group_by_hierarchy.unwrap_or(false)
            && query.dimensions.len() >= 2
            && query.interval.is_none();
        Ok(AggregatePlan {
            query,
            hierarchy,
            warnings,
        })
    }
}

/// `interval` wins; `view_type` sets it when absent; `cumulative` means daily running totals.
fn interval_and_view(
    interval: Option<&str>,
    view_type: Option<&str>,
    warnings: &mut Vec<String>,
) -> Result<(Option<Interval>, bool), ApiError> {
    let named = |name: &str| match name {
        "daily" | "day" => Some(Interval::Daily),
        "weekly" | "week" => Some(Interval::Weekly),
        "monthly" | "month" => Some(Interval::Monthly),
        _ => None,
    };
    let interval = match interval.map(|name| name.trim().to_ascii_lowercase()) {
        None => None,
        Some(name) if name.is_empty() || name == "none" => None,
        Some(name) => Some(named(&name).ok_or_else(|| ApiError::Invalid {
            field: "interval",
            message: "Interval must be daily, weekly or monthly".to_owned(),
        })?),
    };
    let view = view_type
        .map(|name| name.trim().to_ascii_lowercase())
        .filter(|name| !name.is_empty());
    Ok(match view.as_deref() {
        None => (interval, false),
        Some("cumulative") => (Some(interval.unwrap_or(Interval::Daily)), true),
        Some(name) => match named(name) {
            Some(view_interval) => (Some(interval.unwrap_or(view_interval)), false),
            None => {
                warnings.push(format!("Ignored unknown view_type {name}"));
                (interval, false)
            }
        },
    })
}

#[utoipa::path(post, path = "/v2/cost/aggr", tag = "cost", security(("bearer" = [])),
    request_body = AggregateRequest,
    responses(
        (status = 200, body = AggregateResponse),
        (status = 400, description = "Missing, unparsable or reversed time range", body = ErrorBody),
        (status = 401, description = "Authentication required", body = ErrorBody),
        (status = 422, description = "Bad operator, dimension, interval, metric or limit, or a bound passed (dates, range length, rows, list sizes)", body = ErrorBody),
        (status = 503, description = "The cost engine is busy or the query ran past the time limit and was cancelled (Retry-After)", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id))]
pub async fn aggregate(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
    ApiJson(body): ApiJson<AggregateRequest>,
) -> Result<Json<AggregateResponse>, ApiError> {
    let plan = body.into_plan()?;
    Ok(Json(answer(&state, caller.customer_id, plan).await?))
}

/// Runs a plan against the caller's customer's rows.
pub(super) async fn answer(
    state: &AppState,
    customer: CustomerId,
    plan: AggregatePlan,
) -> Result<AggregateResponse, ApiError> {
    let AggregatePlan {
        mut query,
        hierarchy,
        warnings,
    } = plan;
    let display = display_currency(state, customer).await?;
    let mut warnings = warnings;
    if hierarchy {
        // Paging applies to the top-level groups: fetch every combination (at most the row
        // cap; the total tells a larger tree), page the tree.
        let limit = query.limit.unwrap_or(bounds::DEFAULT_GROUPS);
        let offset = std::mem::take(&mut query.offset);
        query.limit = Some(u32::try_from(bounds::MAX_ANSWER_ROWS).unwrap_or(u32::MAX));
        let aggregate = state
            .engine
            .aggregate_in(customer, &query, display.as_ref())
            .await?;
        bounds::check_hierarchy(aggregate.total_groups)?;
        let mut tree = hierarchy_rows(&query.dimensions, &aggregate.rows, query.ascending);
        let total_groups = tree.len() as u64;
        tree = page(tree, offset, Some(limit));
        let currency = currency_part(&aggregate, display.is_some(), &mut warnings);
        return Ok(response(tree, total_groups, &aggregate, warnings, currency));
    }
    // Buckets × groups is capped before the query runs; an answer the cap cut short is refused.
    let interval = query
        .interval
        .or(query.cumulative.then_some(Interval::Daily));
    let group_page = GroupPage::new(query.limit, bounds::bucket_count(&query.range, interval));
    query.limit = Some(group_page.limit);
    let aggregate = state
        .engine
        .aggregate_in(customer, &query, display.as_ref())
        .await?;
    group_page.check(aggregate.total_groups, query.offset)?;
    let rows = aggregate
        .rows
        .iter()
        .map(|row| flat_row(&query.dimensions, row))
        .collect();
    let currency = currency_part(&aggregate, display.is_some(), &mut warnings);
    Ok(response(
        rows,
        aggregate.total_groups,
        &aggregate,
        warnings,
        currency,
    ))
}

/// The answer's currency part, its warning lines added to `warnings`.
pub(super) fn currency_part(
    aggregate: &Aggregate,
    display: bool,
    warnings: &mut Vec<String>,
) -> CurrencyPart {
    let part = CurrencyPart::new(
        &aggregate.currency,
        aggregate.converted,
        &aggregate.other_currencies,
    );
    warnings.extend(part.warnings(display));
    part
}

fn response(
    data: Vec<CostRow>,
    total_groups: u64,
    aggregate: &Aggregate,
    warnings: Vec<String>,
    currency: CurrencyPart,
) -> AggregateResponse {
    AggregateResponse {
        data,
        summary: CostSummary {
            accrued_cost: aggregate.total,
            accrued_change: percent_change(aggregate.total, aggregate.previous_total),
            previous_cost: aggregate.previous_total,
            currency: aggregate.currency.clone(),
        },
        total_groups,
        warnings,
        currency,
    }
}

/// `(current - previous) / |previous|` in percent; `None` when previous is 0.
pub(super) fn percent_change(current: f64, previous: f64) -> Option<f64> {
    (previous != 0.0).then(|| (current - previous) / previous.abs() * 100.0)
}

fn page<T>(items: Vec<T>, offset: u32, limit: Option<u32>) -> Vec<T> {
    let items = items.into_iter().skip(offset as usize);
    match limit {
        Some(limit) => items.take(limit as usize).collect(),
        None => items.collect(),
    }
}

/// A row with the fields of `dimensions` set from `values` (same order).
fn grouped_row(
    dimensions: &[Dimension],
    values: &[String],
    account_name: Option<&str>,
    amount: f64,
) -> CostRow {
    let mut row = CostRow {
        amount,
        grouping_values: values.to_vec(),
        grouping_path: values.join(" / "),
        ..CostRow::default()
    };
    for (dimension, value) in dimensions.iter().zip(values) {
        let field = match dimension {
            Dimension::Account => &mut row.account,
            Dimension::Region => &mut row.region,
            Dimension::Service => &mut row.service,
            Dimension::CloudProvider => &mut row.cloud_provider,
            Dimension::CostType => &mut row.cost_type,
            Dimension::UsageType => &mut row.usage_type,
        };
        *field = Some(value.clone());
    }
    if dimensions.contains(&Dimension::Account) {
        row.account_name = Some(account_name.unwrap_or_default().to_owned());
    }
    row
}

pub(super) fn flat_row(dimensions: &[Dimension], row: &AggregateRow) -> CostRow {
    CostRow {
        timestamp: row.timestamp,
        ..grouped_row(
            dimensions,
            &row.group,
            row.account_name.as_deref(),
            row.amount,
        )
    }
}

/// The first dimension's groups, each with `children` for the next dimension, amounts summed at
/// each level; every level ranked by amount (then by value).
fn hierarchy_rows(
    dimensions: &[Dimension],
    rows: &[AggregateRow],
    ascending: bool,
) -> Vec<CostRow> {
    let rows: Vec<&AggregateRow> = rows.iter().collect();
    level(dimensions, &rows, 0, ascending)
}

fn level(
    dimensions: &[Dimension],
    rows: &[&AggregateRow],
    depth: usize,
    ascending: bool,
) -> Vec<CostRow> {
    // Groups by the value at `depth`, in first-seen order (indexed: linear in the rows).
    let mut groups: Vec<Vec<&AggregateRow>> = Vec::new();
    let mut index: HashMap<&str, usize> = HashMap::new();
    for &row in rows {
        let value = row.group.get(depth).map_or("", String::as_str);
        let slot = *index.entry(value).or_insert_with(|| {
            groups.push(Vec::new());
            groups.len() - 1
        });
        groups[slot].push(row);
    }
    let mut nodes: Vec<CostRow> = groups
        .into_iter()
        .map(|members| {
            let first = members[0];
            let amount = members.iter().map(|row| row.amount).sum();
            let account_name = members.iter().find_map(|row| row.account_name.as_deref());
            let mut node = grouped_row(
                &dimensions[..=depth],
                &first.group[..=depth],
                account_name,
                amount,
            );
            if depth + 1 < dimensions.len() {
                node.children = Some(level(dimensions, &members, depth + 1, ascending));
            }
            node
        })
        .collect();
    nodes.sort_by(|a, b| {
        let by_amount = a.amount.total_cmp(&b.amount);
        let by_amount = if ascending {
            by_amount
        } else {
            by_amount.reverse()
        };
        by_amount.then_with(|| a.grouping_path.cmp(&b.grouping_path))
    });
    nodes
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::http::cost::request::invalid;

    fn plan(body: serde_json::Value) -> Result<AggregatePlan, ApiError> {
        let mut body = body;
        body["start_time"] = json!("2026-01-01");
        body["end_time"] = json!("2026-01-31");
        serde_json::from_value::<AggregateRequest>(body)
            .expect("a request")
            .into_plan()
    }

    fn row(group: &[&str], amount: f64) -> AggregateRow {
        AggregateRow {
            timestamp: None,
            group: group.iter().map(|value| (*value).to_owned()).collect(),
            account_name: None,
            amount,
        }
    }

    #[test]
    fn defaults_are_one_row_per_group_by_billed_largest_first() {
        let plan = plan(json!({})).unwrap();
        assert_eq!(plan.query.dimensions, []);
        assert_eq!(plan.query.interval, None);
        assert!(!plan.query.cumulative && !plan.query.ascending && !plan.hierarchy);
        assert_eq!((plan.query.limit, plan.query.offset), (None, 0));
        assert_eq!(plan.query.filter.cost_type_inclusions, None);
        // The default page (1000 groups) is set when the query runs, from the buckets.
    }

    #[test]
    fn group_by_dimensions_win_over_group_by() {
        let plan =
            plan(json!({"group_by": "region", "group_by_dimensions": ["service", "account"]}))
                .unwrap();
        assert_eq!(
            plan.query.dimensions,
            [Dimension::Service, Dimension::Account]
        );
        let plan = self::plan(json!({"group_by": "region", "group_by_dimensions": []})).unwrap();
        assert_eq!(plan.query.dimensions, [Dimension::Region]);
        let plan = self::plan(json!({"group_by": "none"})).unwrap();
        assert_eq!(plan.query.dimensions, []);
        let error = self::plan(json!({"group_by": "colour"})).unwrap_err();
        assert_eq!(
            invalid(error),
            (
                "group_by".to_owned(),
                "Unknown group by dimension colour".to_owned()
            )
        );
    }

    #[test]
    fn view_type_sets_the_interval_and_cumulative_is_daily() {
        let interval = |body| {
            let plan = plan(body).unwrap();
            (plan.query.interval, plan.query.cumulative)
        };
        assert_eq!(
            interval(json!({"view_type": "monthly"})),
            (Some(Interval::Monthly), false)
        );
        assert_eq!(
            interval(json!({"view_type": "daily", "interval": "weekly"})),
            (Some(Interval::Weekly), false)
        );
        assert_eq!(
            interval(json!({"view_type": "cumulative"})),
            (Some(Interval::Daily), true)
        );
        let error = plan(json!({"interval": "hourly"})).unwrap_err();
        assert_eq!(
            invalid(error).1,
            "Interval must be daily, weekly or monthly"
        );
        assert_eq!(
            plan(json!({"view_type": "pie"})).unwrap().warnings,
            ["Ignored unknown view_type pie"]
        );
    }

    #[test]
    fn limit_offset_order_and_hierarchy() {
        let plan = plan(json!({"limit": 5, "offset": 10, "order_desc": false,
            "group_by_dimensions": ["service", "region"], "group_by_hierarchy": true}))
        .unwrap();
        assert_eq!((plan.query.limit, plan.query.offset), (Some(5), 10));
        assert!(plan.query.ascending && plan.hierarchy);
        let with_interval = self::plan(json!({"interval": "daily",
            "group_by_dimensions": ["service", "region"], "group_by_hierarchy": true}))
        .unwrap();
        assert!(!with_interval.hierarchy);
        for limit in [0, 10_001] {
            let error = self::plan(json!({ "limit": limit })).unwrap_err();
            assert_eq!(
                invalid(error),
                (
                    "limit".to_owned(),
                    "Limit must be between 1 and 10000".to_owned()
                )
            );
        }
        assert_eq!(
            invalid(self::plan(json!({"offset": -1})).unwrap_err()).0,
            "offset"
        );
    }

    #[test]
    fn hierarchy_sums_each_level_and_ranks_by_amount() {
        let dimensions = [Dimension::Service, Dimension::Account];
        let mut rows = vec![
            row(&["S3", "111"], 1.0),
            row(&["EC2", "111"], 2.0),
            row(&["EC2", "222"], 5.0),
        ];
        rows[0].account_name = Some("Prod".to_owned());
        let tree = hierarchy_rows(&dimensions, &rows, false);
        assert_eq!(tree.len(), 2);
        assert_eq!(
            (
                tree[0].service.as_deref(),
                tree[0].amount,
                tree[0].account.as_deref()
            ),
            (Some("EC2"), 7.0, None)
        );
        let children = tree[0].children.as_ref().unwrap();
        assert_eq!(children[0].grouping_path, "EC2 / 222");
        assert_eq!(children[0].grouping_values, ["EC2", "222"]);
        assert_eq!(children[1].amount, 2.0);
        let s3 = &tree[1].children.as_ref().unwrap()[0];
        assert_eq!(s3.account_name.as_deref(), Some("Prod"));
        assert!(s3.children.is_none());
    }

    #[test]
    fn percent_change_is_null_without_a_previous_cost() {
        assert!((percent_change(110.0, 100.0).unwrap() - 10.0).abs() < 1e-9);
        assert_eq!(percent_change(5.0, 0.0), None);
        assert_eq!(percent_change(-5.0, -10.0), Some(50.0));
    }
}
