//! `POST /v2/cost/service-categories`: Mission Control's cost by service category (spec 1 §9) —
//! the range's spend per category with its services, against a previous period.
//!
//! Each provider's service is placed by [`ServiceCategory::of_service`] (the FOCUS
//! `ServiceCategory` of its rows first, then its name), so every provider's spend lands in a
//! category. Amounts are in one currency: the one with the most spend in the range; spend in other
//! currencies is left out of every figure and listed in `other_currencies`.

use std::collections::BTreeMap;

use axum::extract::State;
use axum::Json;
use chrono::{DateTime, Utc};
use costscope_core::cost::{CostFilter, ServiceCategory, TimeRange};
use costscope_engine::ServiceSpend;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::aggr::percent_change;
use super::request::{
    parse_cost_types, parse_filter_groups, parse_metric, parse_range, CostTypeDto, FilterGroupDto,
};
use crate::http::error::{ApiError, ErrorBody};
use crate::http::extract::{ApiJson, AuthUser};
use crate::state::AppState;

/// §9: an insight warns when a category's spend grew by more than this percentage.
pub const INSIGHT_CHANGE_PERCENT: f64 = 25.0;

/// Amounts below half a cent show as $0: such a category or service is left out (§9).
const ZERO: f64 = 0.005;

/// The currency of an answer without spend.
const DEFAULT_CURRENCY: &str = "USD";

#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct ServiceCategoriesRequest {
    #[schema(required = true)]
    pub start_time: Option<String>,
    #[schema(required = true)]
    pub end_time: Option<String>,
    /// The period to compare with (the previous month, quarter or year of a preset); both absent
    /// → the period of the same length just before.
    pub previous_start_time: Option<String>,
    pub previous_end_time: Option<String>,
    pub filters: Option<Vec<FilterGroupDto>>,
    pub cost_type: Option<CostTypeDto>,
    /// `billed` (default), `effective` or `list`.
    pub metric: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct CategoryPeriod {
    pub start_time: DateTime<Utc>,
    pub end_time: DateTime<Utc>,
}

impl From<TimeRange> for CategoryPeriod {
    fn from(range: TimeRange) -> Self {
        Self {
            start_time: range.start(),
            end_time: range.end(),
        }
    }
}

/// A service's spend (every provider's services of that name together).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ServiceAmount {
    pub name: String,
    pub amount: f64,
    pub previous_amount: f64,
    /// Percent of the previous amount; null when that is 0.
    pub percent_change: Option<f64>,
}

impl ServiceAmount {
    fn new(name: &str, amount: f64, previous_amount: f64) -> Self {
        Self {
            name: name.to_owned(),
            amount,
            previous_amount,
            percent_change: change(amount, previous_amount),
        }
    }
}

/// Percent change against a previous amount; null when that shows as $0.
fn change(amount: f64, previous_amount: f64) -> Option<f64> {
    percent_change(amount, previous_amount).filter(|_| !is_zero(previous_amount))
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct CategorySpend {
    pub category: ServiceCategory,
    pub amount: f64,
    /// The category's spend in the previous period.
    pub previous_amount: f64,
    /// Percent of the previous amount; null when that is 0.
    pub percent_change: Option<f64>,
    /// The change exceeds 25 % (§9's insight).
    pub insight: bool,
    /// Its services with spend in the range, largest first.
    pub services: Vec<ServiceAmount>,
    /// Its services with spend only in the previous period, largest first (they explain a fall).
    pub previous_only: Vec<ServiceAmount>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct OtherCurrencyAmount {
    pub currency: String,
    pub amount: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ServiceCategoriesResponse {
    pub current_period: CategoryPeriod,
    pub previous_period: CategoryPeriod,
    /// Categories with spend in the range, in the spec's order; zero categories are left out.
    pub categories: Vec<CategorySpend>,
    /// The currency of every amount.
    pub currency: String,
    /// The range's spend in other currencies, in none of the figures. Sorted by currency.
    pub other_currencies: Vec<OtherCurrencyAmount>,
    /// One line per skipped filter condition or ignored field.
    pub warnings: Vec<String>,
}

fn is_zero(amount: f64) -> bool {
    amount.abs() < ZERO
}

/// Amount per currency, sorted by currency.
fn by_currency(spend: &[ServiceSpend]) -> BTreeMap<&str, f64> {
    let mut totals = BTreeMap::new();
    for service in spend {
        *totals.entry(service.currency.as_str()).or_insert(0.0) += service.amount;
    }
    totals
}

/// The currency with the most spend in the range, else in the previous period.
fn answer_currency(current: &[ServiceSpend], previous: &[ServiceSpend]) -> String {
    let largest = |spend: &[ServiceSpend]| {
        by_currency(spend)
            .into_iter()
            .filter(|(_, amount)| !is_zero(*amount))
            .max_by(|a, b| a.1.abs().total_cmp(&b.1.abs()).then(b.0.cmp(a.0)))
            .map(|(currency, _)| currency.to_owned())
    };
    largest(current)
        .or_else(|| largest(previous))
        .unwrap_or_else(|| DEFAULT_CURRENCY.to_owned())
}

/// Amount per category and service name of the rows in `currency`.
fn categorised(
    spend: &[ServiceSpend],
    currency: &str,
) -> BTreeMap<ServiceCategory, BTreeMap<String, f64>> {
    let mut categories: BTreeMap<ServiceCategory, BTreeMap<String, f64>> = BTreeMap::new();
    for service in spend.iter().filter(|service| service.currency == currency) {
        let category = ServiceCategory::of_service(
            &service.provider,
            &service.service,
            &service.focus_categories,
        );
        *categories
            .entry(category)
            .or_default()
            .entry(service.service.clone())
            .or_insert(0.0) += service.amount;
    }
    categories
}

fn largest_first(
    mut services: Vec<ServiceAmount>,
    key: fn(&ServiceAmount) -> f64,
) -> Vec<ServiceAmount> {
    services.sort_by(|a, b| key(b).total_cmp(&key(a)).then_with(|| a.name.cmp(&b.name)));
    services
}

/// One entry per category with spend in the range, in the spec's order (§9).
pub fn summarise(
    current: &[ServiceSpend],
    previous: &[ServiceSpend],
    currency: &str,
) -> Vec<CategorySpend> {
    let now = categorised(current, currency);
    let before = categorised(previous, currency);
    let empty = BTreeMap::new();
    let mut summaries = Vec::new();
    for category in ServiceCategory::ALL {
        let services = now.get(&category).unwrap_or(&empty);
        let previous_services = before.get(&category).unwrap_or(&empty);
        let amount: f64 = services.values().sum();
        if is_zero(amount) {
            continue;
        }
        let previous_amount: f64 = previous_services.values().sum();
        let change = change(amount, previous_amount);
        let listed = services
            .iter()
            .filter(|(_, amount)| !is_zero(**amount))
            .map(|(name, amount)| {
                let previous = previous_services.get(name).copied().unwrap_or_default();
                ServiceAmount::new(name, *amount, previous)
            })
            .collect();
        let previous_only = previous_services
            .iter()
            .filter(|(name, previous)| {
                !is_zero(**previous) && is_zero(services.get(*name).copied().unwrap_or_default())
            })
            .map(|(name, previous)| {
                ServiceAmount::new(
                    name,
                    services.get(name).copied().unwrap_or_default(),
                    *previous,
                )
            })
            .collect();
        summaries.push(CategorySpend {
            category,
            amount,
            previous_amount,
            percent_change: change,
            insight: change.is_some_and(|change| change > INSIGHT_CHANGE_PERCENT),
            services: largest_first(listed, |service| service.amount),
            previous_only: largest_first(previous_only, |service| service.previous_amount),
        });
    }
    summaries
}

/// The range's spend in currencies other than the answer's.
fn other_currencies(current: &[ServiceSpend], currency: &str) -> Vec<OtherCurrencyAmount> {
    by_currency(current)
        .into_iter()
        .filter(|(other, amount)| *other != currency && !is_zero(*amount))
        .map(|(other, amount)| OtherCurrencyAmount {
            currency: other.to_owned(),
            amount,
        })
        .collect()
}

#[utoipa::path(post, path = "/v2/cost/service-categories", tag = "cost", security(("bearer" = [])),
    request_body = ServiceCategoriesRequest,
    responses(
        (status = 200, body = ServiceCategoriesResponse),
        (status = 400, description = "Missing, unparsable or reversed time range", body = ErrorBody),
        (status = 401, description = "Authentication required", body = ErrorBody),
        (status = 422, description = "Unsupported filter operator or unknown metric", body = ErrorBody),
        (status = 503, description = "The cost engine is busy or the query ran past the time limit and was cancelled (Retry-After)", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id))]
pub async fn service_categories(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
    ApiJson(body): ApiJson<ServiceCategoriesRequest>,
) -> Result<Json<ServiceCategoriesResponse>, ApiError> {
    let range = parse_range(
        ("start_time", body.start_time.as_deref()),
        ("end_time", body.end_time.as_deref()),
    )?;
    let previous_range = match (&body.previous_start_time, &body.previous_end_time) {
        (None, None) => range.previous(),
        (start, end) => parse_range(
            ("previous_start_time", start.as_deref()),
            ("previous_end_time", end.as_deref()),
        )?,
    };
    let mut warnings = Vec::new();
    let filter = CostFilter {
        groups: parse_filter_groups(body.filters, &mut warnings)?,
        cost_type_inclusions: parse_cost_types(body.cost_type)?,
    };
    let metric = parse_metric(body.metric.as_deref())?;
    let (current, previous) = tokio::try_join!(
        state
            .engine
            .service_spend(caller.customer_id, range, &filter, metric),
        state
            .engine
            .service_spend(caller.customer_id, previous_range, &filter, metric),
    )?;
    let currency = answer_currency(&current, &previous);
    Ok(Json(ServiceCategoriesResponse {
        current_period: range.into(),
        previous_period: previous_range.into(),
        categories: summarise(&current, &previous, &currency),
        other_currencies: other_currencies(&current, &currency),
        currency,
        warnings,
    }))
}

#[cfg(test)]
mod tests {
    use costscope_core::cost::Provider;

    use super::*;

    fn spend(provider: Provider, service: &str, category: &str, amount: f64) -> ServiceSpend {
        ServiceSpend {
            provider,
            service: service.to_owned(),
            currency: "USD".to_owned(),
            focus_categories: if category.is_empty() {
                vec![]
            } else {
                vec![category.to_owned()]
            },
            amount,
        }
    }

    fn oracle() -> Provider {
        Provider::Other("Oracle".to_owned())
    }

    #[test]
    fn categories_come_in_the_spec_order_with_services_largest_first() {
        let current = [
            spend(Provider::Aws, "AmazonS3", "", 10.0),
            spend(oracle(), "Block Storage", "Storage", 30.0),
            spend(Provider::Aws, "AmazonEC2", "", 5.0),
            spend(
                Provider::Other("OpenAI".into()),
                "GPT-4o",
                "AI and Machine Learning",
                2.5,
            ),
        ];
        let summaries = summarise(&current, &[], "USD");
        let order: Vec<ServiceCategory> = summaries.iter().map(|s| s.category).collect();
        assert_eq!(
            order,
            [
                ServiceCategory::Compute,
                ServiceCategory::Storage,
                ServiceCategory::MlAi
            ]
        );
        let storage = &summaries[1];
        assert_eq!(storage.amount, 40.0);
        let names: Vec<&str> = storage.services.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["Block Storage", "AmazonS3"]);
        assert_eq!(storage.percent_change, None);
        assert!(!storage.insight);
    }

    #[test]
    fn previous_amounts_changes_insights_and_services_gone_since() {
        let previous = [
            spend(Provider::Aws, "AmazonRDS", "", 100.0),
            spend(Provider::Aws, "AmazonDynamoDB", "", 20.0),
            spend(Provider::Aws, "AmazonS3", "", 10.0),
        ];
        let current = [
            spend(Provider::Aws, "AmazonRDS", "", 150.0),
            spend(Provider::Aws, "AmazonS3", "", 12.0),
        ];
        let summaries = summarise(&current, &previous, "USD");
        let database = &summaries[0];
        assert_eq!(database.category, ServiceCategory::Database);
        assert_eq!(database.previous_amount, 120.0);
        assert!((database.percent_change.unwrap() - 25.0).abs() < 1e-9);
        assert!(!database.insight, "exactly 25 % is no insight");
        assert_eq!(database.previous_only.len(), 1);
        assert_eq!(database.previous_only[0].name, "AmazonDynamoDB");
        assert_eq!(database.previous_only[0].previous_amount, 20.0);
        assert_eq!(database.previous_only[0].percent_change, Some(-100.0));
        assert_eq!(database.services[0].percent_change, Some(50.0));
        let storage = &summaries[1];
        assert!((storage.percent_change.unwrap() - 20.0).abs() < 1e-9);
        let grown = summarise(
            &[spend(Provider::Aws, "AmazonS3", "", 12.6)],
            &previous,
            "USD",
        );
        assert!(grown[0].insight);
    }

    #[test]
    fn zero_categories_and_zero_services_are_left_out() {
        let current = [
            spend(Provider::Aws, "AmazonS3", "", 0.004),
            spend(Provider::Aws, "AmazonEC2", "", 10.0),
            spend(Provider::Aws, "AWSLambda", "", 0.001),
            spend(Provider::Aws, "AmazonEC2", "", -10.0),
        ];
        assert!(summarise(&current, &[], "USD").is_empty());
    }

    #[test]
    fn other_currencies_are_left_out_and_listed() {
        let mut euro = spend(oracle(), "Compute", "Compute", 7.0);
        euro.currency = "EUR".to_owned();
        let current = [spend(Provider::Aws, "AmazonEC2", "", 10.0), euro];
        let currency = answer_currency(&current, &[]);
        assert_eq!(currency, "USD");
        let summaries = summarise(&current, &[], &currency);
        assert_eq!(summaries.len(), 1);
        assert_eq!(summaries[0].amount, 10.0);
        assert_eq!(
            other_currencies(&current, &currency),
            [OtherCurrencyAmount {
                currency: "EUR".to_owned(),
                amount: 7.0
            }]
        );
        assert_eq!(answer_currency(&[], &[]), "USD");
    }
}
