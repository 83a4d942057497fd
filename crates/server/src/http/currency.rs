//! `/v1/currency` and `/v1/exchange-rates` (docs/CURRENCY.md): the tenant's display currency,
//! the currencies of its data and the exchange rates it uploads; and the currency part every
//! cost answer carries.

use axum::body::Body;
use axum::extract::{DefaultBodyLimit, Query, State};
use axum::http::StatusCode;
use axum::routing::get;
use axum::{Json, Router};
use costscope_core::cost::{parse_rates_csv, CurrencyCode, MAX_RATES_FILE_BYTES};
use costscope_engine::{CurrencyAmount, CurrencyNote, CustomerId, RatesSummary};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::error::{ApiError, ErrorBody};
use super::extract::{require_admin_level, ApiJson, AuthUser};
use crate::state::AppState;

const ADMINS_ONLY_DISPLAY: &str = "Only owners and admins can change the display currency";
const ADMINS_ONLY_RATES: &str = "Only owners and admins can change exchange rates";
const NOT_A_CODE: &str = "Display currency must be a three-letter ISO 4217 code";
/// Rates per page of `GET /v1/exchange-rates` at most.
const MAX_RATES_PAGE: u64 = 1_000;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/v1/currency", get(get_currency).put(put_currency))
        .route(
            "/v1/exchange-rates",
            get(list_rates)
                .put(upload_rates)
                .delete(clear_rates)
                // The body is read with the rates file's own limit (a clear message past it).
                .layer(DefaultBodyLimit::disable()),
        )
}

/// The currency part of every cost answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CurrencyPart {
    /// The currency of every amount of the answer.
    pub currency: String,
    /// Some amounts were converted from other currencies with the tenant's exchange rates.
    pub converted: bool,
    /// Amounts of the range and filter that are in none of the answer's figures (another
    /// currency without a display currency, or no rate for it). Empty when all are included.
    pub other_currencies: Vec<CurrencyAmountDto>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct CurrencyAmountDto {
    pub currency: String,
    pub amount: f64,
}

impl From<&CurrencyAmount> for CurrencyAmountDto {
    fn from(amount: &CurrencyAmount) -> Self {
        Self {
            currency: amount.currency.clone(),
            amount: amount.amount,
        }
    }
}

impl CurrencyPart {
    pub fn new(currency: &str, converted: bool, others: &[CurrencyAmount]) -> Self {
        Self {
            currency: currency.to_owned(),
            converted,
            other_currencies: others.iter().map(CurrencyAmountDto::from).collect(),
        }
    }

    pub fn from_note(note: &CurrencyNote) -> Self {
        Self::new(&note.currency, note.converted, &note.other_currencies)
    }

    /// The answer's warning lines: one per currency left out, and one when converted.
    /// `display`: whether the tenant chose a display currency.
    pub fn warnings(&self, display: bool) -> Vec<String> {
        let mut lines: Vec<String> = self
            .other_currencies
            .iter()
            .map(|other| {
                let left_out = format!(
                    "Costs in {} ({:.2}) are not included: ",
                    other.currency, other.amount
                );
                if display {
                    format!(
                        "{left_out}upload exchange rates from {} to {} to include them",
                        other.currency, self.currency
                    )
                } else {
                    format!(
                        "{left_out}choose a display currency and upload exchange rates to \
                         combine currencies"
                    )
                }
            })
            .collect();
        if self.converted {
            lines.push(format!(
                "Converted to {} with your exchange rates",
                self.currency
            ));
        }
        lines
    }
}

/// The customer's display currency (`None`: the main currency, nothing converted).
pub async fn display_currency(
    state: &AppState,
    customer: CustomerId,
) -> Result<Option<CurrencyCode>, ApiError> {
    Ok(state
        .store
        .display_currency(customer)
        .await?
        .and_then(|code| code.parse().ok()))
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RatesInfo {
    pub count: u64,
    pub first_date: Option<chrono::NaiveDate>,
    pub last_date: Option<chrono::NaiveDate>,
    /// `FROM→TO`, sorted.
    pub pairs: Vec<String>,
}

impl From<RatesSummary> for RatesInfo {
    fn from(summary: RatesSummary) -> Self {
        Self {
            count: summary.count,
            first_date: summary.first_date,
            last_date: summary.last_date,
            pairs: summary
                .pairs
                .iter()
                .map(|(from, to)| format!("{from}→{to}"))
                .collect(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DataCurrency {
    pub currency: String,
    pub billed_cost: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CurrencySettings {
    /// Every cost answer is converted to it; null: the main currency, nothing converted.
    pub display_currency: Option<String>,
    /// Billed cost per currency over all of the tenant's data, largest first.
    pub data_currencies: Vec<DataCurrency>,
    pub rates: RatesInfo,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CurrencySettingsRequest {
    /// A three-letter ISO 4217 code, or null.
    pub display_currency: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ExchangeRateDto {
    pub date: chrono::NaiveDate,
    pub from: String,
    pub to: String,
    /// `1 from = rate to` (up to 12 decimal places).
    pub rate: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ExchangeRatesPage {
    pub total: u64,
    pub rates: Vec<ExchangeRateDto>,
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct RatesPageQuery {
    /// 1–1000, default 100.
    pub limit: Option<u64>,
    pub offset: Option<u64>,
}

async fn settings(state: &AppState, customer: CustomerId) -> Result<CurrencySettings, ApiError> {
    let display = state.store.display_currency(customer).await?;
    let data = state.engine.data_currencies(customer).await?;
    let rates = state.engine.rates_summary(customer).await?;
    Ok(CurrencySettings {
        display_currency: display,
        data_currencies: data
            .into_iter()
            .map(|item| DataCurrency {
                currency: item.currency,
                billed_cost: item.amount,
            })
            .collect(),
        rates: rates.into(),
    })
}

#[utoipa::path(get, path = "/v1/currency", tag = "currency", security(("bearer" = [])),
    responses(
        (status = 200, body = CurrencySettings),
        (status = 401, description = "Authentication required", body = ErrorBody),
        (status = 503, description = "The cost engine is busy or the query ran past the time limit and was cancelled (Retry-After)", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id))]
pub async fn get_currency(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
) -> Result<Json<CurrencySettings>, ApiError> {
    Ok(Json(settings(&state, caller.customer_id).await?))
}

#[utoipa::path(put, path = "/v1/currency", tag = "currency", security(("bearer" = [])),
    request_body = CurrencySettingsRequest,
    responses(
        (status = 200, body = CurrencySettings),
        (status = 401, description = "Authentication required", body = ErrorBody),
        (status = 403, description = "Only owners and admins can change the display currency", body = ErrorBody),
        (status = 422, description = "Not a three-letter currency code", body = ErrorBody),
        (status = 503, description = "The cost engine is busy or the query ran past the time limit and was cancelled (Retry-After)", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id))]
pub async fn put_currency(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
    ApiJson(body): ApiJson<CurrencySettingsRequest>,
) -> Result<Json<CurrencySettings>, ApiError> {
    require_admin_level(&caller, ADMINS_ONLY_DISPLAY)?;
    let code = match body.display_currency.as_deref() {
        None => None,
        Some(text) => Some(
            text.parse::<CurrencyCode>()
                .map_err(|_| ApiError::Invalid {
                    field: "displayCurrency",
                    message: NOT_A_CODE.to_owned(),
                })?,
        ),
    };
    state
        .store
        .set_display_currency(caller.customer_id, code.as_ref().map(CurrencyCode::as_str))
        .await?;
    Ok(Json(settings(&state, caller.customer_id).await?))
}

#[utoipa::path(put, path = "/v1/exchange-rates", tag = "currency", security(("bearer" = [])),
    request_body(content = String, content_type = "text/csv",
        description = "`date,from,to,rate` (any order and case), one rate per row"),
    responses(
        (status = 200, body = RatesInfo),
        (status = 400, description = "The file is refused; the message names the row and column", body = ErrorBody),
        (status = 401, description = "Authentication required", body = ErrorBody),
        (status = 403, description = "Only owners and admins can change exchange rates", body = ErrorBody),
        (status = 503, description = "The cost engine is busy or the query ran past the time limit and was cancelled (Retry-After)", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id))]
pub async fn upload_rates(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
    body: Body,
) -> Result<Json<RatesInfo>, ApiError> {
    require_admin_level(&caller, ADMINS_ONLY_RATES)?;
    let bytes = axum::body::to_bytes(body, MAX_RATES_FILE_BYTES)
        .await
        .map_err(|_| ApiError::BadRequest("the file is larger than 10 MB".to_owned()))?;
    let rates = parse_rates_csv(&bytes).map_err(|error| ApiError::BadRequest(error.0))?;
    let summary = state
        .engine
        .replace_rates(caller.customer_id, rates)
        .await?;
    Ok(Json(summary.into()))
}

#[utoipa::path(get, path = "/v1/exchange-rates", tag = "currency", security(("bearer" = [])),
    params(RatesPageQuery),
    responses(
        (status = 200, body = ExchangeRatesPage),
        (status = 401, description = "Authentication required", body = ErrorBody),
        (status = 422, description = "Limit out of range", body = ErrorBody),
        (status = 503, description = "The cost engine is busy or the query ran past the time limit and was cancelled (Retry-After)", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id))]
pub async fn list_rates(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
    Query(page): Query<RatesPageQuery>,
) -> Result<Json<ExchangeRatesPage>, ApiError> {
    let limit = page.limit.unwrap_or(100);
    if !(1..=MAX_RATES_PAGE).contains(&limit) {
        return Err(ApiError::Invalid {
            field: "limit",
            message: format!("Limit must be between 1 and {MAX_RATES_PAGE}"),
        });
    }
    // The engine's offset is a signed 64-bit integer; any larger offset is past the end.
    let page = state
        .engine
        .list_rates(
            caller.customer_id,
            limit,
            page.offset.unwrap_or(0).min(i64::MAX as u64),
        )
        .await?;
    Ok(Json(ExchangeRatesPage {
        total: page.total,
        rates: page
            .rates
            .into_iter()
            .map(|rate| ExchangeRateDto {
                date: rate.date,
                from: rate.from.to_string(),
                to: rate.to.to_string(),
                rate: rate.rate.to_f64(),
            })
            .collect(),
    }))
}

#[utoipa::path(delete, path = "/v1/exchange-rates", tag = "currency", security(("bearer" = [])),
    responses(
        (status = 204, description = "Every rate of the tenant deleted"),
        (status = 401, description = "Authentication required", body = ErrorBody),
        (status = 403, description = "Only owners and admins can change exchange rates", body = ErrorBody),
        (status = 503, description = "The cost engine is busy or the query ran past the time limit and was cancelled (Retry-After)", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id))]
pub async fn clear_rates(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
) -> Result<StatusCode, ApiError> {
    require_admin_level(&caller, ADMINS_ONLY_RATES)?;
    state.engine.clear_rates(caller.customer_id).await?;
    Ok(StatusCode::NO_CONTENT)
}
