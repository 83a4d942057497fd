//! A budget's forecast: its current period's cost forecast with its own filters, in the currency
//! of its amount (docs/ANOMALIES.md "Forecast API and where it shows"). The budget answers show
//! it and Forecasted alerts are evaluated against it.

use chrono::NaiveDate;
use costscope_core::cost::CurrencyCode;
use costscope_core::forecast::PeriodForecast;
use costscope_engine::{CostEngine, EngineError};
use costscope_store::Budget;

use super::filter::cost_filter;
use crate::forecast::forecast_filtered;

/// The forecast of `period` (the budget's current one) known up to `as_of` (the tenant's last
/// known day); `None` without enough history or when `as_of` is not in the period. One engine
/// read.
pub async fn budget_forecast(
    engine: &dyn CostEngine,
    budget: &Budget,
    period: (NaiveDate, NaiveDate),
    as_of: Option<NaiveDate>,
    display: Option<&CurrencyCode>,
) -> Result<Option<PeriodForecast>, EngineError> {
    forecast_filtered(
        engine,
        budget.customer_id,
        cost_filter(&budget.filters),
        as_of,
        period,
        display,
    )
    .await
}
