//! Alert evaluation of one budget: every threshold its spend has reached is recorded once per
//! period in the alert history, with a notification in the outbox (the store does both in one
//! transaction and refuses a second record of the same threshold, basis and period).
//!
//! The current period is evaluated, and the previous one too: rows for a closed period often
//! arrive after it ended (an export lags by a day or more), and the thresholds they make it
//! cross are that period's. The previous period is only evaluated for a budget that already
//! existed in it, so creating a budget does not record last period's thresholds.
//!
//! A `Forecasted` alert is reached when the forecast total of the current period reaches its
//! threshold (docs/ANOMALIES.md "Forecast alerts"); it is recorded once per period like the
//! others, with the forecast and the day it goes over the threshold. A closed period has no
//! forecast: only its `Actual` alerts are evaluated.

use chrono::{DateTime, Utc};
use costscope_core::budget::{AlertBasis, AlertThreshold, Usage};
use costscope_core::forecast::PeriodForecast;
use costscope_engine::CostEngine;
use costscope_store::{AlertForecast, Budget, MetadataStore, NewBudgetAlert};

use super::forecast::budget_forecast;
use super::standing::{current_spend, previous_spend, PeriodSpend};
use crate::forecast::last_known_day;

/// Records the `Actual` thresholds `spend` reaches; answers how many were new this period.
pub async fn record_reached(
    store: &dyn MetadataStore,
    budget: &Budget,
    spend: &PeriodSpend,
    now: DateTime<Utc>,
) -> anyhow::Result<usize> {
    let reached = spend.reached_alerts(budget);
    record(
        store,
        budget,
        spend,
        reached.into_iter().map(|t| (t, None)),
        now,
    )
    .await
}

/// Records the `Forecasted` thresholds the current period's `forecast` reaches (`spend` being
/// that period's spend so far); answers how many were new this period.
pub async fn record_forecast_reached(
    store: &dyn MetadataStore,
    budget: &Budget,
    spend: &PeriodSpend,
    forecast: &PeriodForecast,
    now: DateTime<Utc>,
) -> anyhow::Result<usize> {
    let usage = Usage::new(forecast.forecast, budget.amount);
    let reached = budget
        .alerts
        .iter()
        .filter(|alert| alert.basis == AlertBasis::Forecasted && alert.is_reached(&usage))
        .map(|alert| {
            // The running total goes over the threshold on this day; a forecast that only
            // equals it gets there on the period's last day.
            let exceeds_on = forecast
                .exceeds_on(alert.limit(budget.amount))
                .map_or(forecast.end, |exceedance| exceedance.day);
            let figures = AlertForecast {
                amount: forecast.forecast,
                exceeds_on,
            };
            (*alert, Some(figures))
        })
        .collect::<Vec<_>>();
    record(store, budget, spend, reached, now).await
}

/// Records the current period's thresholds: the `Actual` ones its spend reaches and the
/// `Forecasted` ones its forecast reaches (none without a forecast).
pub async fn record_current(
    store: &dyn MetadataStore,
    budget: &Budget,
    spend: &PeriodSpend,
    forecast: Option<&PeriodForecast>,
    now: DateTime<Utc>,
) -> anyhow::Result<usize> {
    let mut recorded = record_reached(store, budget, spend, now).await?;
    if let Some(forecast) = forecast {
        recorded += record_forecast_reached(store, budget, spend, forecast, now).await?;
    }
    Ok(recorded)
}

async fn record(
    store: &dyn MetadataStore,
    budget: &Budget,
    spend: &PeriodSpend,
    reached: impl IntoIterator<Item = (AlertThreshold, Option<AlertForecast>)>,
    now: DateTime<Utc>,
) -> anyhow::Result<usize> {
    let mut recorded = 0;
    for (threshold, forecast) in reached {
        let alert = NewBudgetAlert {
            customer_id: budget.customer_id,
            budget_id: budget.id,
            period_start: spend.period_start,
            threshold,
            spent_amount: spend.spent,
            spend_percentage: spend.percent_used,
            triggered_at: now,
            forecast,
        };
        if store.record_budget_alert(alert).await?.is_some() {
            recorded += 1;
        }
    }
    Ok(recorded)
}

/// Whether any of the budget's alerts is on the forecast (only then is a forecast read).
pub fn has_forecasted_alerts(budget: &Budget) -> bool {
    budget
        .alerts
        .iter()
        .any(|alert| alert.basis == AlertBasis::Forecasted)
}

/// Reads the budget's spend in the current period, and in the previous one when the budget
/// existed then, and records the thresholds each reaches; with `Forecasted` alerts, the current
/// period's forecast too.
pub async fn evaluate(
    store: &dyn MetadataStore,
    engine: &dyn CostEngine,
    budget: &Budget,
    now: DateTime<Utc>,
) -> anyhow::Result<usize> {
    let display = store
        .display_currency(budget.customer_id)
        .await?
        .and_then(|code| code.parse().ok());
    let mut recorded = 0;
    let (_, previous_end) = budget.period.previous_range(now);
    if budget.created_at.date_naive() <= previous_end {
        let spend = previous_spend(engine, budget, now, display.as_ref()).await?;
        recorded += record_reached(store, budget, &spend, now).await?;
    }
    let spend = current_spend(engine, budget, now, display.as_ref()).await?;
    let forecast = if has_forecasted_alerts(budget) {
        let as_of = last_known_day(engine, budget.customer_id, now.date_naive()).await?;
        let period = (spend.period_start, spend.period_end);
        budget_forecast(engine, budget, period, as_of, display.as_ref()).await?
    } else {
        None
    };
    recorded += record_current(store, budget, &spend, forecast.as_ref(), now).await?;
    Ok(recorded)
}
