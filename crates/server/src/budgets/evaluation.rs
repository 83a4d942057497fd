//! Alert evaluation of one budget: every threshold its spend has reached is recorded once per
//! period in the alert history, with a notification in the outbox (the store does both in one
//! transaction and refuses a second record of the same threshold and period).
//!
//! The current period is evaluated, and the previous one too: rows for a closed period often
//! arrive after it ended (an export lags by a day or more), and the thresholds they make it
//! cross are that period's. The previous period is only evaluated for a budget that already
//! existed in it, so creating a budget does not record last period's thresholds.

use chrono::{DateTime, Utc};
use costscope_engine::CostEngine;
use costscope_store::{Budget, MetadataStore, NewBudgetAlert};

use super::standing::{current_spend, previous_spend, PeriodSpend};

/// Records the thresholds `spend` reaches; answers how many were new this period.
pub async fn record_reached(
    store: &dyn MetadataStore,
    budget: &Budget,
    spend: &PeriodSpend,
    now: DateTime<Utc>,
) -> anyhow::Result<usize> {
    let mut recorded = 0;
    for threshold in &budget.alerts {
        if !threshold.is_reached(&spend.usage) {
            continue;
        }
        let alert = NewBudgetAlert {
            customer_id: budget.customer_id,
            budget_id: budget.id,
            period_start: spend.period_start,
            threshold: *threshold,
            spent_amount: spend.spent,
            spend_percentage: spend.percent_used,
            triggered_at: now,
        };
        if store.record_budget_alert(alert).await?.is_some() {
            recorded += 1;
        }
    }
    Ok(recorded)
}

/// Reads the budget's spend in the current period, and in the previous one when the budget
/// existed then, and records the thresholds each reaches.
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
    recorded += record_reached(store, budget, &spend, now).await?;
    Ok(recorded)
}
