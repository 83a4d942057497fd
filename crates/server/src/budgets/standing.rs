//! Where a budget stands now: its spend in the current and previous period, from the cost
//! engine (docs/API-BUDGETS.md "Spend").

use chrono::{DateTime, NaiveDate, Utc};
use costscope_core::budget::{
    dashboard_health, detail_status, is_exceeded, mission_control_health, AlertBasis,
    AlertThreshold, BudgetFilter, BudgetHealth, DetailStatus, Usage,
};
use costscope_core::cost::{CurrencyCode, Metric, TimeRange};
use costscope_engine::{CostEngine, CurrencyNote, EngineError};
use costscope_store::Budget;

use super::filter::cost_filter;

/// A budget's spend over one period (the current one so far): what its alerts are evaluated
/// against. Every rule on it compares exactly ([`Usage`]).
#[derive(Debug, Clone, PartialEq)]
pub struct PeriodSpend {
    pub period_start: NaiveDate,
    pub period_end: NaiveDate,
    /// In `currency.currency` (the display currency when the tenant chose one).
    pub spent: f64,
    pub usage: Usage,
    pub percent_used: f64,
    pub currency: CurrencyNote,
}

/// A budget's figures at one moment, as the API shows them.
#[derive(Debug, Clone, PartialEq)]
pub struct Standing {
    pub current: PeriodSpend,
    pub previous_spent: f64,
    pub days_remaining: i64,
}

impl PeriodSpend {
    /// Dashboard, cards and summary strip.
    pub fn health(&self) -> BudgetHealth {
        dashboard_health(&self.usage)
    }

    /// Mission Control's budget widgets.
    pub fn mission_control_health(&self) -> BudgetHealth {
        mission_control_health(&self.usage)
    }

    /// The detail page.
    pub fn detail_status(&self) -> DetailStatus {
        detail_status(&self.usage)
    }

    pub fn exceeded(&self) -> bool {
        is_exceeded(&self.usage)
    }

    /// The budget's `Actual` alert thresholds this spend has reached, in the budget's order
    /// (a `Forecasted` one is reached by the forecast, not the spend).
    pub fn reached_alerts(&self, budget: &Budget) -> Vec<AlertThreshold> {
        budget
            .alerts
            .iter()
            .filter(|alert| alert.basis == AlertBasis::Actual && alert.is_reached(&self.usage))
            .copied()
            .collect()
    }
}

/// The whole days `first..=last` as an engine range.
pub fn days(first: NaiveDate, last: NaiveDate) -> TimeRange {
    TimeRange::whole_days(first, last).expect("the first day is not after the last")
}

/// Billed cost of the customer's rows matching every filter over the whole days given, in the
/// customer's main currency.
pub async fn spent_between(
    engine: &dyn CostEngine,
    customer_id: i64,
    filters: &[BudgetFilter],
    range: (NaiveDate, NaiveDate),
) -> Result<f64, EngineError> {
    Ok(spent_in(engine, customer_id, filters, range, None).await?.0)
}

/// [`spent_between`] in `display` (converted with the customer's rates) when given.
pub async fn spent_in(
    engine: &dyn CostEngine,
    customer_id: i64,
    filters: &[BudgetFilter],
    (first, last): (NaiveDate, NaiveDate),
    display: Option<&CurrencyCode>,
) -> Result<(f64, CurrencyNote), EngineError> {
    let spend = engine
        .spend_in(
            customer_id,
            days(first, last),
            &cost_filter(filters),
            Metric::Billed,
            display,
        )
        .await?;
    Ok((spend.total, spend.currency))
}

/// The budget's spend over its current period (calendar month, quarter or year in UTC) so far:
/// from its first day up to today included. Rows dated after today (a provider's estimate, a
/// file with future dates) do not count until their day comes.
/// `display`: the customer's display currency, the currency of the budget's amount.
pub async fn current_spend(
    engine: &dyn CostEngine,
    budget: &Budget,
    now: DateTime<Utc>,
    display: Option<&CurrencyCode>,
) -> Result<PeriodSpend, EngineError> {
    let (period_start, period_end) = budget.period.current_range(now);
    let today = now.date_naive();
    period_spend(
        engine,
        budget,
        (period_start, period_end),
        today.min(period_end),
        display,
    )
    .await
}

/// The budget's spend over its whole previous period, which has closed: late rows loaded after
/// it ended still count for it.
pub async fn previous_spend(
    engine: &dyn CostEngine,
    budget: &Budget,
    now: DateTime<Utc>,
    display: Option<&CurrencyCode>,
) -> Result<PeriodSpend, EngineError> {
    let (period_start, period_end) = budget.period.previous_range(now);
    period_spend(
        engine,
        budget,
        (period_start, period_end),
        period_end,
        display,
    )
    .await
}

/// Spend of the period `start..=end` counted from `start` to `last`.
async fn period_spend(
    engine: &dyn CostEngine,
    budget: &Budget,
    (period_start, period_end): (NaiveDate, NaiveDate),
    last: NaiveDate,
    display: Option<&CurrencyCode>,
) -> Result<PeriodSpend, EngineError> {
    let (spent, currency) = spent_in(
        engine,
        budget.customer_id,
        &budget.filters,
        (period_start, last),
        display,
    )
    .await?;
    let usage = Usage::new(spent, budget.amount);
    Ok(PeriodSpend {
        period_start,
        period_end,
        spent,
        percent_used: usage.percent_used(),
        usage,
        currency,
    })
}

/// The current period's spend and the whole previous period's.
pub async fn standing(
    engine: &dyn CostEngine,
    budget: &Budget,
    now: DateTime<Utc>,
    display: Option<&CurrencyCode>,
) -> Result<Standing, EngineError> {
    let current = current_spend(engine, budget, now, display).await?;
    let previous = previous_spend(engine, budget, now, display).await?;
    Ok(Standing {
        current,
        previous_spent: previous.spent,
        days_remaining: budget.period.days_remaining(now),
    })
}
