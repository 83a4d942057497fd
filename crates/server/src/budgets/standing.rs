//! Where a budget stands now: its spend in the current and previous period, from the cost
//! engine (docs/API-BUDGETS.md "Spend").

use chrono::{DateTime, NaiveDate, NaiveTime, TimeDelta, Utc};
use costscope_core::budget::{dashboard_health, is_exceeded, percent_used, BudgetHealth};
use costscope_core::cost::{Metric, TimeRange};
use costscope_engine::{CostEngine, EngineError};
use costscope_store::Budget;

use super::filter::cost_filter;

/// A budget's figures at one moment.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Standing {
    pub period_start: NaiveDate,
    pub period_end: NaiveDate,
    pub current_spent: f64,
    pub previous_spent: f64,
    pub percent_used: f64,
    pub days_remaining: i64,
}

impl Standing {
    pub fn health(&self) -> BudgetHealth {
        dashboard_health(self.percent_used)
    }

    pub fn exceeded(&self) -> bool {
        is_exceeded(self.percent_used)
    }

    /// How many of the budget's alert thresholds the current spend has reached.
    pub fn reached_alerts(&self, budget: &Budget) -> usize {
        budget
            .alerts
            .iter()
            .filter(|alert| alert.is_reached(self.current_spent, budget.amount))
            .count()
    }
}

/// The whole days `first..=last` as an engine range (00:00:00.000 to 23:59:59.999 UTC).
pub fn days(first: NaiveDate, last: NaiveDate) -> TimeRange {
    let start = first.and_time(NaiveTime::MIN).and_utc();
    let end =
        last.and_time(NaiveTime::MIN).and_utc() + TimeDelta::days(1) - TimeDelta::milliseconds(1);
    TimeRange::new(start, end).expect("the first day is not after the last")
}

/// The budget's spend over its whole current period (calendar month, quarter or year in UTC)
/// and its whole previous one.
pub async fn standing(
    engine: &dyn CostEngine,
    budget: &Budget,
    now: DateTime<Utc>,
) -> Result<Standing, EngineError> {
    let filter = cost_filter(&budget.filters);
    let (period_start, period_end) = budget.period.current_range(now);
    let (previous_start, previous_end) = budget.period.previous_range(now);
    let current = engine
        .spend(
            budget.customer_id,
            days(period_start, period_end),
            &filter,
            Metric::Billed,
        )
        .await?;
    let previous = engine
        .spend(
            budget.customer_id,
            days(previous_start, previous_end),
            &filter,
            Metric::Billed,
        )
        .await?;
    Ok(Standing {
        period_start,
        period_end,
        current_spent: current.total,
        previous_spent: previous.total,
        percent_used: percent_used(current.total, budget.amount),
        days_remaining: budget.period.days_remaining(now),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_cover_the_first_midnight_to_the_last_millisecond() {
        let range = days("2026-11-01".parse().unwrap(), "2026-11-30".parse().unwrap());
        assert_eq!(range.start().to_rfc3339(), "2026-11-01T00:00:00+00:00");
        assert_eq!(
            range
                .end()
                .to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
            "2026-11-30T23:59:59.999Z"
        );
    }
}
