//! Alert evaluation of one budget: every threshold its current spend has reached is recorded
//! once per period in the alert history, with a notification in the outbox (the store does
//! both in one transaction and refuses a second record of the same threshold and period).

use chrono::{DateTime, Utc};
use costscope_engine::CostEngine;
use costscope_store::{Budget, MetadataStore, NewBudgetAlert};

use super::standing::{standing, Standing};

/// What evaluating one budget did.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Evaluation {
    pub standing: Standing,
    /// Thresholds recorded by this evaluation (reached now, not recorded before this period).
    pub recorded: usize,
}

pub async fn evaluate(
    store: &dyn MetadataStore,
    engine: &dyn CostEngine,
    budget: &Budget,
    now: DateTime<Utc>,
) -> anyhow::Result<Evaluation> {
    let standing = standing(engine, budget, now).await?;
    let mut recorded = 0;
    for threshold in &budget.alerts {
        if !threshold.is_reached(standing.current_spent, budget.amount) {
            continue;
        }
        let alert = NewBudgetAlert {
            customer_id: budget.customer_id,
            budget_id: budget.id,
            period_start: standing.period_start,
            threshold: *threshold,
            spent_amount: standing.current_spent,
            spend_percentage: standing.percent_used,
            triggered_at: now,
        };
        if store.record_budget_alert(alert).await?.is_some() {
            recorded += 1;
        }
    }
    Ok(Evaluation { standing, recorded })
}
