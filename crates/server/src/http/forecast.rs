//! `GET /v1/forecast` (docs/ANOMALIES.md "Forecast API and where it shows"): the forecast of the
//! current month, quarter or year of the caller's customer, in total and per provider, account
//! or service, from its daily cost up to the latest charge day. Every role may read it.

use axum::extract::{Query, State};
use axum::routing::get;
use axum::{Json, Router};
use chrono::NaiveDate;
use costscope_core::budget::BudgetPeriod;
use costscope_core::cost::{CostFilter, Dimension, Metric, Provider};
use costscope_core::forecast::PeriodForecast;
use costscope_engine::AggregateRow;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::budgets::standing::days;
use crate::forecast::{
    daily_cost, first_day, forecast, history_start, last_known_day, period_containing, series,
};
use crate::http::currency::{display_currency, CurrencyPart};
use crate::http::error::{ApiError, ErrorBody};
use crate::http::extract::AuthUser;
use crate::state::AppState;

/// Why `total` is null.
pub const NOT_ENOUGH_HISTORY: &str = "Not enough cost history for a forecast (7 days are needed)";
pub const PERIOD_MESSAGE: &str = "Period must be month, quarter or year";
pub const GROUP_BY_MESSAGE: &str = "Group by must be none, provider, account or service";
pub const METRIC_MESSAGE: &str = "Metric must be billed or effective";
/// Groups in an answer at most: the largest forecasts.
pub const MAX_GROUPS: usize = 20;
/// Groups read from the engine at most (the largest by cost over the days read); the
/// `MAX_GROUPS` largest forecasts are kept from them.
const GROUP_CANDIDATES: u32 = 100;

pub fn routes() -> Router<AppState> {
    Router::new().route("/v1/forecast", get(get_forecast))
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct ForecastQuery {
    /// `month` (default), `quarter` or `year`: the calendar one containing `asOf`.
    pub period: Option<String>,
    /// `none` (default), `provider`, `account` or `service`.
    pub group_by: Option<String>,
    /// `billed` (default) or `effective`.
    pub metric: Option<String>,
}

/// A period's cost so far and forecast total, with the interval that should hold the actual
/// total 8 times in 10.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Forecast {
    /// Cost of the period's days up to `asOf`.
    pub actual_to_date: f64,
    pub forecast: f64,
    pub low: f64,
    pub high: f64,
}

impl From<&PeriodForecast> for Forecast {
    fn from(forecast: &PeriodForecast) -> Self {
        Self {
            actual_to_date: forecast.actual_to_date,
            forecast: forecast.forecast,
            low: forecast.low,
            high: forecast.high,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ForecastGroup {
    /// The provider code (`aws`, `gcp`, `azure` or another provider's name), the account id or
    /// the service.
    pub key: String,
    /// The provider's display name (`AWS`), the account's name (its id when it has none) or
    /// the service.
    pub name: String,
    #[serde(flatten)]
    pub forecast: Forecast,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ForecastResponse {
    /// The last known day: the latest charge day, not after today; null without cost data.
    pub as_of: Option<NaiveDate>,
    /// First and last day of the period forecast (the one containing `asOf`, else today).
    pub start: NaiveDate,
    pub end: NaiveDate,
    /// Null when there is not enough history (`reason` says why).
    pub total: Option<Forecast>,
    pub reason: Option<String>,
    /// Per group (with `groupBy`), the 20 largest forecasts, largest first.
    pub groups: Vec<ForecastGroup>,
    /// One line per currency left out of the period's cost so far, and one when converted.
    pub warnings: Vec<String>,
    /// The currency of every amount; other currencies' cost of the period so far is listed,
    /// never added.
    #[serde(flatten)]
    pub currency: CurrencyPart,
}

/// The parsed query.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ForecastRequest {
    pub period: BudgetPeriod,
    pub group_by: Option<Dimension>,
    pub metric: Metric,
}

/// Blank means the default; names are read in any case.
fn named<T: Copy>(
    text: Option<&str>,
    default: T,
    names: &[(&str, T)],
    field: &'static str,
    message: &str,
) -> Result<T, ApiError> {
    let Some(text) = text.map(str::trim).filter(|text| !text.is_empty()) else {
        return Ok(default);
    };
    names
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case(text))
        .map(|&(_, value)| value)
        .ok_or_else(|| ApiError::Invalid {
            field,
            message: message.to_owned(),
        })
}

impl ForecastQuery {
    /// Every parameter checked; the first broken one answers 422 under `details.<param>`.
    pub fn parse(&self) -> Result<ForecastRequest, ApiError> {
        let period = named(
            self.period.as_deref(),
            BudgetPeriod::Monthly,
            &[
                ("month", BudgetPeriod::Monthly),
                ("quarter", BudgetPeriod::Quarterly),
                ("year", BudgetPeriod::Yearly),
            ],
            "period",
            PERIOD_MESSAGE,
        )?;
        let group_by = named(
            self.group_by.as_deref(),
            None,
            &[
                ("none", None),
                ("provider", Some(Dimension::CloudProvider)),
                ("account", Some(Dimension::Account)),
                ("service", Some(Dimension::Service)),
            ],
            "groupBy",
            GROUP_BY_MESSAGE,
        )?;
        let metric = named(
            self.metric.as_deref(),
            Metric::Billed,
            &[("billed", Metric::Billed), ("effective", Metric::Effective)],
            "metric",
            METRIC_MESSAGE,
        )?;
        Ok(ForecastRequest {
            period,
            group_by,
            metric,
        })
    }
}

#[utoipa::path(get, path = "/v1/forecast", tag = "forecast", security(("bearer" = [])),
    params(ForecastQuery),
    responses(
        (status = 200, body = ForecastResponse),
        (status = 401, description = "Authentication required", body = ErrorBody),
        (status = 422, description = "`period`: Period must be month, quarter or year; `groupBy`: Group by must be none, provider, account or service; `metric`: Metric must be billed or effective", body = ErrorBody),
        (status = 503, description = "The cost engine is busy or the query ran past the time limit and was cancelled (Retry-After)", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id))]
pub async fn get_forecast(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
    Query(query): Query<ForecastQuery>,
) -> Result<Json<ForecastResponse>, ApiError> {
    let request = query.parse()?;
    Ok(Json(answer(&state, caller.customer_id, request).await?))
}

async fn answer(
    state: &AppState,
    customer: i64,
    request: ForecastRequest,
) -> Result<ForecastResponse, ApiError> {
    let engine = state.engine.as_ref();
    let today = state.clock.now().date_naive();
    let display = display_currency(state, customer).await?;
    let as_of = last_known_day(engine, customer, today).await?;
    let period = period_containing(request.period, as_of.unwrap_or(today));
    // The period's cost so far: the currency note of the answer (what it leaves out).
    let so_far = state
        .engine
        .spend_in(
            customer,
            days(period.0, as_of.unwrap_or(today).max(period.0)),
            &CostFilter::default(),
            request.metric,
            display.as_ref(),
        )
        .await?;
    let currency = CurrencyPart::from_note(&so_far.currency);
    let mut answer = ForecastResponse {
        as_of,
        start: period.0,
        end: period.1,
        total: None,
        reason: Some(NOT_ENOUGH_HISTORY.to_owned()),
        groups: Vec::new(),
        warnings: currency.warnings(display.is_some()),
        currency,
    };
    let Some(as_of) = as_of else {
        return Ok(answer);
    };
    let window = (history_start(as_of, period), as_of);
    let totals = daily_cost(
        engine,
        customer,
        CostFilter::default(),
        request.metric,
        None,
        1,
        window,
        display.as_ref(),
    )
    .await?;
    let Some(first) = first_day(&totals.rows) else {
        return Ok(answer);
    };
    let Ok(total) = forecast(&series(&totals.rows, first, as_of), as_of, period) else {
        return Ok(answer);
    };
    answer.total = Some(Forecast::from(&total));
    answer.reason = None;
    if let Some(dimension) = request.group_by {
        let grouped = daily_cost(
            engine,
            customer,
            CostFilter::default(),
            request.metric,
            Some(dimension),
            GROUP_CANDIDATES,
            window,
            display.as_ref(),
        )
        .await?;
        answer.groups = group_forecasts(dimension, &grouped.rows, first, as_of, period);
    }
    Ok(answer)
}

/// The forecast of each group of `rows` (series from the tenant's `first` day), the
/// [`MAX_GROUPS`] largest, largest first (then by key).
fn group_forecasts(
    dimension: Dimension,
    rows: &[AggregateRow],
    first: NaiveDate,
    as_of: NaiveDate,
    period: (NaiveDate, NaiveDate),
) -> Vec<ForecastGroup> {
    let mut by_key: std::collections::BTreeMap<&str, Vec<&AggregateRow>> =
        std::collections::BTreeMap::new();
    for row in rows {
        let key = row.group.first().map_or("", String::as_str);
        by_key.entry(key).or_default().push(row);
    }
    let mut groups: Vec<ForecastGroup> = by_key
        .into_iter()
        .filter_map(|(key, rows)| {
            let forecast =
                forecast(&series(rows.iter().copied(), first, as_of), as_of, period).ok()?;
            let account_name = rows.iter().find_map(|row| row.account_name.as_deref());
            Some(ForecastGroup {
                key: key.to_owned(),
                name: group_name(dimension, key, account_name),
                forecast: Forecast::from(&forecast),
            })
        })
        .collect();
    groups.sort_by(|a, b| {
        b.forecast
            .forecast
            .total_cmp(&a.forecast.forecast)
            .then_with(|| a.key.cmp(&b.key))
    });
    groups.truncate(MAX_GROUPS);
    groups
}

fn group_name(dimension: Dimension, key: &str, account_name: Option<&str>) -> String {
    match dimension {
        Dimension::CloudProvider => key.parse::<Provider>().map_or_else(
            |_| key.to_owned(),
            |provider| provider.display_name().to_owned(),
        ),
        Dimension::Account => account_name
            .filter(|name| !name.is_empty())
            .unwrap_or(key)
            .to_owned(),
        _ => key.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query(period: Option<&str>, group_by: Option<&str>, metric: Option<&str>) -> ForecastQuery {
        ForecastQuery {
            period: period.map(str::to_owned),
            group_by: group_by.map(str::to_owned),
            metric: metric.map(str::to_owned),
        }
    }

    fn invalid(query: ForecastQuery) -> (&'static str, String) {
        match query.parse() {
            Err(ApiError::Invalid { field, message }) => (field, message),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn defaults_are_month_none_billed_and_names_are_read_in_any_case() {
        assert_eq!(
            query(None, Some(""), None).parse().unwrap(),
            ForecastRequest {
                period: BudgetPeriod::Monthly,
                group_by: None,
                metric: Metric::Billed
            }
        );
        assert_eq!(
            query(Some("Year"), Some("ACCOUNT"), Some("effective"))
                .parse()
                .unwrap(),
            ForecastRequest {
                period: BudgetPeriod::Yearly,
                group_by: Some(Dimension::Account),
                metric: Metric::Effective
            }
        );
    }

    #[test]
    fn each_parameter_has_its_message() {
        assert_eq!(
            invalid(query(Some("week"), None, None)),
            ("period", PERIOD_MESSAGE.to_owned())
        );
        assert_eq!(
            invalid(query(None, Some("region"), None)),
            ("groupBy", GROUP_BY_MESSAGE.to_owned())
        );
        assert_eq!(
            invalid(query(None, None, Some("list"))),
            ("metric", METRIC_MESSAGE.to_owned())
        );
    }

    #[test]
    fn a_provider_group_is_named_by_its_display_name_and_an_account_by_its_name() {
        assert_eq!(group_name(Dimension::CloudProvider, "aws", None), "AWS");
        assert_eq!(group_name(Dimension::Account, "111", Some("Prod")), "Prod");
        assert_eq!(group_name(Dimension::Account, "111", Some("")), "111");
        assert_eq!(group_name(Dimension::Service, "AmazonS3", None), "AmazonS3");
    }
}
