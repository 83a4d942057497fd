//! `POST /v2/cost/compare`: two periods side by side by one grouping (docs/API-COST.md,
//! docs/ANALYST-FLOW.md "Compare" and "Top movers").
//!
//! The request is read with the pieces of `/v2/cost/aggr` (time range, filters, charge types,
//! metric, dimension, bounds); each period is one engine aggregation over every group of the
//! dimension, without interval, in the currency `/v2/cost/aggr` answers in; the merge, change,
//! status, order and totals are `costscope_core::cost::compare`.

use axum::extract::State;
use axum::Json;
use costscope_core::cost::bounds::MAX_ANSWER_ROWS;
use costscope_core::cost::compare::{
    check_groups, compare as merge_periods, previous_ends, CompareRow, CompareTotals, GroupAmount,
    Invalid, OrderBy, Page, GROUP_BY_REQUIRED_MESSAGE, TOTAL_KEY,
};
use costscope_core::cost::{AggregateQuery, CostFilter, Dimension, Metric, TimeRange};
use costscope_engine::{Aggregate, CustomerId};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::request::{
    parse_cost_types, parse_dimensions, parse_filter_groups, parse_metric, parse_range,
    CostTypeDto, FilterGroupDto,
};
use super::service_categories::CategoryPeriod;
use crate::http::currency::{display_currency, CurrencyPart};
use crate::http::error::{ApiError, ErrorBody};
use crate::http::extract::{ApiJson, AuthUser};
use crate::state::AppState;

#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct CompareRequest {
    /// RFC 3339 or `YYYY-MM-DD` (00:00:00.000 UTC).
    #[schema(required = true)]
    pub start_time: Option<String>,
    /// RFC 3339 or `YYYY-MM-DD` (23:59:59.999 UTC).
    #[schema(required = true)]
    pub end_time: Option<String>,
    /// The period to compare with: both or neither; absent → the range of the same length just
    /// before. It may overlap the current range.
    pub previous_start_time: Option<String>,
    pub previous_end_time: Option<String>,
    /// One of `account`, `region`, `service`, `cloud_provider`, `cost_type`, `usage_type`, or
    /// `none` (one row, key `total`).
    #[schema(required = true)]
    pub group_by: Option<String>,
    pub filters: Option<Vec<FilterGroupDto>>,
    pub cost_type: Option<CostTypeDto>,
    /// `billed` (default), `effective` or `list`.
    pub metric: Option<String>,
    /// `change` (default), `increase`, `decrease`, `current`, `previous` or `percent_change`;
    /// ties by key.
    pub order_by: Option<String>,
    /// 1–1000 rows per page; default 100.
    pub limit: Option<i64>,
    pub offset: Option<i64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct CompareResponse {
    pub current_period: CategoryPeriod,
    pub previous_period: CategoryPeriod,
    /// The dimension's key, or `none`.
    pub group_by: String,
    /// The page of rows, in the asked order.
    pub rows: Vec<CompareRow>,
    /// Both periods over every group, not only the page.
    pub totals: CompareTotals,
    /// Rows before limit/offset.
    pub total_groups: u64,
    /// One line per skipped filter condition or ignored field, per currency left out of the
    /// current period, and one when amounts were converted.
    pub warnings: Vec<String>,
    /// `currency` is the currency of every amount (as `/v2/cost/aggr`'s `summary.currency`).
    #[serde(flatten)]
    pub currency: CurrencyPart,
}

/// A parsed comparison request.
#[derive(Debug, Clone, PartialEq)]
pub struct ComparePlan {
    pub range: TimeRange,
    pub previous: TimeRange,
    pub filter: CostFilter,
    pub metric: Metric,
    /// `None`: no grouping (one row).
    pub dimension: Option<Dimension>,
    pub order: OrderBy,
    pub page: Page,
    pub warnings: Vec<String>,
}

impl From<Invalid> for ApiError {
    fn from(invalid: Invalid) -> Self {
        ApiError::Invalid {
            field: invalid.field,
            message: invalid.message,
        }
    }
}

impl CompareRequest {
    pub fn into_plan(self) -> Result<ComparePlan, ApiError> {
        let range = parse_range(
            ("start_time", self.start_time.as_deref()),
            ("end_time", self.end_time.as_deref()),
        )?;
        let previous = match previous_ends(
            self.previous_start_time.as_deref(),
            self.previous_end_time.as_deref(),
        )? {
            None => range.previous(),
            Some((start, end)) => parse_range(
                ("previous_start_time", Some(start)),
                ("previous_end_time", Some(end)),
            )?,
        };
        let mut warnings = Vec::new();
        let groups = parse_filter_groups(self.filters, &mut warnings)?;
        let group_by = self
            .group_by
            .as_deref()
            .map(str::trim)
            .filter(|name| !name.is_empty())
            .ok_or_else(|| ApiError::Invalid {
                field: "group_by",
                message: GROUP_BY_REQUIRED_MESSAGE.to_owned(),
            })?;
        let dimension = parse_dimensions("group_by", Some(group_by))?
            .first()
            .copied();
        Ok(ComparePlan {
            range,
            previous,
            filter: CostFilter {
                groups,
                cost_type_inclusions: parse_cost_types(self.cost_type)?,
            },
            metric: parse_metric(self.metric.as_deref())?,
            dimension,
            order: OrderBy::parse(self.order_by.as_deref())?,
            page: Page::parse(self.limit, self.offset)?,
            warnings,
        })
    }
}

#[utoipa::path(post, path = "/v2/cost/compare", tag = "cost", security(("bearer" = [])),
    request_body = CompareRequest,
    responses(
        (status = 200, body = CompareResponse),
        (status = 400, description = "Missing, unparsable or reversed time range (either period)", body = ErrorBody),
        (status = 401, description = "Authentication required", body = ErrorBody),
        (status = 422, description = "Bad operator, group_by, order_by, metric, limit or offset, one previous date without the other, or a bound passed (dates, range length, groups, list sizes)", body = ErrorBody),
        (status = 503, description = "The cost engine is busy or the query ran past the time limit and was cancelled (Retry-After)", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id))]
pub async fn compare(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
    ApiJson(body): ApiJson<CompareRequest>,
) -> Result<Json<CompareResponse>, ApiError> {
    let plan = body.into_plan()?;
    Ok(Json(answer(&state, caller.customer_id, plan).await?))
}

/// Runs a plan against the caller's customer's rows.
pub(super) async fn answer(
    state: &AppState,
    customer: CustomerId,
    plan: ComparePlan,
) -> Result<CompareResponse, ApiError> {
    let display = display_currency(state, customer).await?;
    let query = |range: TimeRange| AggregateQuery {
        range,
        filter: plan.filter.clone(),
        dimensions: plan.dimension.into_iter().collect(),
        interval: None,
        cumulative: false,
        metric: plan.metric,
        // Every group is merged: all of them are read, up to the row bound.
        limit: Some(u32::try_from(MAX_ANSWER_ROWS).unwrap_or(u32::MAX)),
        offset: 0,
        ascending: false,
    };
    let (current_query, previous_query) = (query(plan.range), query(plan.previous));
    let (current, previous) = tokio::try_join!(
        state
            .engine
            .aggregate_in(customer, &current_query, display.as_ref()),
        state
            .engine
            .aggregate_in(customer, &previous_query, display.as_ref()),
    )?;
    check_groups(current.total_groups)?;
    check_groups(previous.total_groups)?;
    let comparison = merge_periods(
        &groups(&current, plan.dimension),
        &groups(&previous, plan.dimension),
        plan.order,
    );
    // The currency of `/v2/cost/aggr` over the current range; an empty range answers in the
    // default, so the previous period's names it then.
    let named = if current.rows.is_empty() && !previous.rows.is_empty() {
        &previous
    } else {
        &current
    };
    let currency = CurrencyPart::new(
        &named.currency,
        current.converted || previous.converted,
        &current.other_currencies,
    );
    let mut warnings = plan.warnings;
    warnings.extend(currency.warnings(display.is_some()));
    Ok(CompareResponse {
        current_period: plan.range.into(),
        previous_period: plan.previous.into(),
        group_by: plan.dimension.map_or("none", Dimension::key).to_owned(),
        total_groups: comparison.rows.len() as u64,
        rows: plan.page.of(comparison.rows),
        totals: comparison.totals,
        warnings,
        currency,
    })
}

/// One period's amount per group; without grouping, one group ([`TOTAL_KEY`]) with the total,
/// so that the answer always has its one row.
fn groups(aggregate: &Aggregate, dimension: Option<Dimension>) -> Vec<GroupAmount> {
    if dimension.is_none() {
        return vec![GroupAmount {
            key: TOTAL_KEY.to_owned(),
            name: None,
            amount: aggregate.total,
        }];
    }
    aggregate
        .rows
        .iter()
        .map(|row| GroupAmount {
            key: row.group.first().cloned().unwrap_or_default(),
            name: row.account_name.clone(),
            amount: row.amount,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use costscope_engine::AggregateRow;
    use serde_json::json;

    use super::*;
    use crate::http::cost::request::invalid;

    fn plan(body: serde_json::Value) -> Result<ComparePlan, ApiError> {
        let mut body = body;
        body["start_time"] = json!("2026-02-01");
        body["end_time"] = json!("2026-02-28");
        serde_json::from_value::<CompareRequest>(body)
            .expect("a request")
            .into_plan()
    }

    fn at(text: &str) -> chrono::DateTime<chrono::Utc> {
        text.parse().unwrap()
    }

    #[test]
    fn defaults_are_the_previous_period_by_change_first_100_rows() {
        let plan = plan(json!({"group_by": "service"})).unwrap();
        assert_eq!(plan.previous.start(), at("2026-01-04T00:00:00Z"));
        assert_eq!(plan.previous.end(), at("2026-01-31T23:59:59.999Z"));
        assert_eq!(plan.dimension, Some(Dimension::Service));
        assert_eq!(plan.order, OrderBy::Change);
        assert_eq!(
            plan.page,
            Page {
                limit: 100,
                offset: 0
            }
        );
        assert_eq!(plan.metric, Metric::Billed);
        assert_eq!(plan.filter.cost_type_inclusions, None);
        let none = self::plan(json!({"group_by": "None"})).unwrap();
        assert_eq!(none.dimension, None);
    }

    #[test]
    fn a_custom_previous_period_may_overlap() {
        let plan = plan(
            json!({"group_by": "account", "previous_start_time": "2026-02-10",
            "previous_end_time": "2026-03-05", "order_by": "decrease", "limit": 5, "offset": 2}),
        )
        .unwrap();
        assert_eq!(plan.previous.start(), at("2026-02-10T00:00:00Z"));
        assert_eq!(plan.previous.end(), at("2026-03-05T23:59:59.999Z"));
        assert_eq!(plan.order, OrderBy::Decrease);
        assert_eq!(
            plan.page,
            Page {
                limit: 5,
                offset: 2
            }
        );
    }

    #[test]
    fn each_rule_answers_its_field_and_message() {
        let cases = [
            (
                json!({"group_by": "service", "previous_end_time": "2026-01-31"}),
                "previous_start_time",
                "previous_start_time and previous_end_time go together",
            ),
            (json!({}), "group_by", "group_by is required"),
            (json!({"group_by": " "}), "group_by", "group_by is required"),
            (
                json!({"group_by": "colour"}),
                "group_by",
                "Unknown group by dimension colour",
            ),
            (
                json!({"group_by": "service", "order_by": "amount"}),
                "order_by",
                "order_by must be change, increase, decrease, current, previous or percent_change",
            ),
            (
                json!({"group_by": "service", "limit": 1001}),
                "limit",
                "Limit must be between 1 and 1000",
            ),
            (
                json!({"group_by": "service", "offset": -1}),
                "offset",
                "Offset must be a whole number of groups, 0 or more",
            ),
            (
                json!({"group_by": "service", "metric": "gross"}),
                "metric",
                "Metric must be billed, effective or list",
            ),
        ];
        for (body, field, message) in cases {
            let error = plan(body.clone()).unwrap_err();
            assert_eq!(
                invalid(error),
                (field.to_owned(), message.to_owned()),
                "{body}"
            );
        }
        let reversed = plan(json!({"group_by": "service",
            "previous_start_time": "2026-01-31", "previous_end_time": "2026-01-01"}))
        .unwrap_err();
        assert!(matches!(reversed, ApiError::BadRequest(message)
            if message == "previous_end_time must not be before previous_start_time"));
    }

    fn aggregate(rows: Vec<AggregateRow>, total: f64) -> Aggregate {
        Aggregate {
            rows,
            total_groups: 0,
            total,
            previous_total: 0.0,
            currency: "USD".to_owned(),
            converted: false,
            other_currencies: vec![],
        }
    }

    #[test]
    fn groups_are_the_first_value_and_no_grouping_is_one_total() {
        let row = AggregateRow {
            timestamp: None,
            group: vec!["111".to_owned()],
            account_name: Some("Production".to_owned()),
            amount: 7.5,
        };
        let by_account = groups(&aggregate(vec![row], 7.5), Some(Dimension::Account));
        assert_eq!(
            by_account,
            [GroupAmount {
                key: "111".to_owned(),
                name: Some("Production".to_owned()),
                amount: 7.5
            }]
        );
        let total = groups(&aggregate(vec![], 0.0), None);
        assert_eq!(
            total,
            [GroupAmount {
                key: "total".to_owned(),
                name: None,
                amount: 0.0
            }]
        );
    }
}
