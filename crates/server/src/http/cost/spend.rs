//! `POST /v2/cost/spend`: the range's spend by provider and charge type against the previous
//! period of the same length (spec 1 §3 "Spend response").

use std::collections::BTreeMap;

use axum::extract::State;
use axum::Json;
use chrono::{DateTime, Utc};
use costscope_core::cost::{CostFilter, Provider, TimeRange};
use costscope_engine::SpendBreakdown;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::aggr::percent_change;
use super::request::{
    parse_cost_types, parse_filter_groups, parse_metric, parse_range, CostTypeDto, FilterGroupDto,
};
use crate::http::currency::{display_currency, CurrencyPart};
use crate::http::error::{ApiError, ErrorBody};
use crate::http::extract::{ApiJson, AuthUser};
use crate::state::AppState;

/// Cost types every answer lists, 0 when absent.
const ALWAYS_LISTED_COST_TYPES: [&str; 2] = ["Credit", "Refund"];

#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct SpendRequest {
    #[schema(required = true)]
    pub start_time: Option<String>,
    #[schema(required = true)]
    pub end_time: Option<String>,
    pub filters: Option<Vec<FilterGroupDto>>,
    pub cost_type: Option<CostTypeDto>,
    /// `billed` (default), `effective` or `list`.
    pub metric: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct SpendPeriod {
    pub total_amount: f64,
    pub start_time: DateTime<Utc>,
    pub end_time: DateTime<Utc>,
    /// Provider name → amount: always `AWS`, `GCP` and `Azure`, and every other provider with
    /// spend by its name as given (`Oracle`, `Datadog` …).
    pub cloud_provider: BTreeMap<String, f64>,
    /// Charge type → amount; always has `Credit` and `Refund`.
    pub cost_type: BTreeMap<String, f64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct SpendComparison {
    /// Current total minus previous total.
    pub absolute_change: f64,
    /// Percent of the previous total; null when it is 0.
    pub percent_change: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct SpendResponse {
    pub current_period: SpendPeriod,
    /// The period of the same length just before.
    pub previous_period: SpendPeriod,
    pub comparison: SpendComparison,
    /// One line per skipped filter condition or ignored field, per currency left out of the
    /// current period, and one when amounts were converted.
    pub warnings: Vec<String>,
    /// The current period's currency part (the previous period is in the same currency).
    #[serde(flatten)]
    pub currency: CurrencyPart,
}

impl SpendPeriod {
    fn new(range: TimeRange, spend: SpendBreakdown) -> Self {
        let mut cloud_provider: BTreeMap<String, f64> = Provider::CLOUDS
            .iter()
            .map(|provider| (provider.display_name().to_owned(), 0.0))
            .collect();
        for (provider, amount) in spend.by_provider {
            *cloud_provider
                .entry(provider.display_name().to_owned())
                .or_default() += amount;
        }
        let mut cost_type = spend.by_cost_type;
        for name in ALWAYS_LISTED_COST_TYPES {
            cost_type.entry(name.to_owned()).or_insert(0.0);
        }
        Self {
            total_amount: spend.total,
            start_time: range.start(),
            end_time: range.end(),
            cloud_provider,
            cost_type,
        }
    }
}

#[utoipa::path(post, path = "/v2/cost/spend", tag = "cost", security(("bearer" = [])),
    request_body = SpendRequest,
    responses(
        (status = 200, body = SpendResponse),
        (status = 400, description = "Missing, unparsable or reversed time range", body = ErrorBody),
        (status = 401, description = "Authentication required", body = ErrorBody),
        (status = 422, description = "Unsupported filter operator or unknown metric", body = ErrorBody),
        (status = 503, description = "The cost engine is busy or the query ran past the time limit and was cancelled (Retry-After)", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id))]
pub async fn spend(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
    ApiJson(body): ApiJson<SpendRequest>,
) -> Result<Json<SpendResponse>, ApiError> {
    let range = parse_range(
        ("start_time", body.start_time.as_deref()),
        ("end_time", body.end_time.as_deref()),
    )?;
    let mut warnings = Vec::new();
    let filter = CostFilter {
        groups: parse_filter_groups(body.filters, &mut warnings)?,
        cost_type_inclusions: parse_cost_types(body.cost_type)?,
    };
    let metric = parse_metric(body.metric.as_deref())?;
    let previous_range = range.previous();
    let display = display_currency(&state, caller.customer_id).await?;
    let current = state
        .engine
        .spend_in(caller.customer_id, range, &filter, metric, display.as_ref())
        .await?;
    let previous = state
        .engine
        .spend_in(
            caller.customer_id,
            previous_range,
            &filter,
            metric,
            display.as_ref(),
        )
        .await?;
    let currency = CurrencyPart::from_note(&current.currency);
    warnings.extend(currency.warnings(display.is_some()));
    let comparison = SpendComparison {
        absolute_change: current.total - previous.total,
        percent_change: percent_change(current.total, previous.total),
    };
    Ok(Json(SpendResponse {
        current_period: SpendPeriod::new(range, current),
        previous_period: SpendPeriod::new(previous_range, previous),
        comparison,
        warnings,
        currency,
    }))
}
