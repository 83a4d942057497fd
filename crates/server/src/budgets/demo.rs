//! The demo tenant's budgets: a few realistic budgets over the demo data. Each amount is sized
//! from what its filters have spent so far in the current period, so that a fresh demo shows a
//! healthy, a warning, a critical and an exceeded budget whatever the day of the month.

use chrono::{DateTime, Utc};
use costscope_core::budget::{
    AlertBasis, AlertThreshold, Alerts, BudgetAmount, BudgetFilter, BudgetFilterType,
    BudgetFilters, BudgetName, BudgetPeriod, ThresholdType,
};
use costscope_engine::CostEngine;
use costscope_store::{MetadataStore, NewBudget};

use super::evaluation::evaluate;
use super::standing::spent_between;

struct DemoBudget {
    name: &'static str,
    period: BudgetPeriod,
    filters: &'static [(BudgetFilterType, &'static [&'static str])],
    /// The percentage used the amount is chosen for.
    target_percent_used: f64,
    alert_percentages: &'static [f64],
}

const DEMO_BUDGETS: [DemoBudget; 4] = [
    DemoBudget {
        name: "Production AWS",
        period: BudgetPeriod::Monthly,
        filters: &[(BudgetFilterType::Account, &["111111111111"])],
        target_percent_used: 60.0,
        alert_percentages: &[75.0, 90.0, 100.0],
    },
    DemoBudget {
        name: "Staging",
        period: BudgetPeriod::Monthly,
        filters: &[(BudgetFilterType::Account, &["222222222222"])],
        target_percent_used: 120.0,
        alert_percentages: &[50.0, 75.0, 100.0],
    },
    DemoBudget {
        name: "Google Cloud",
        period: BudgetPeriod::Quarterly,
        filters: &[(BudgetFilterType::CloudProvider, &["GCP"])],
        target_percent_used: 80.0,
        alert_percentages: &[75.0, 100.0],
    },
    DemoBudget {
        name: "All clouds",
        period: BudgetPeriod::Yearly,
        filters: &[(BudgetFilterType::CloudProvider, &["AWS", "GCP", "Azure"])],
        target_percent_used: 93.0,
        alert_percentages: &[50.0, 75.0, 90.0, 100.0],
    },
];

/// Creates the demo budgets for `owner_id` and evaluates their alerts. Each amount is the
/// current period's spend so far divided by its target percentage, rounded up to a whole hundred
/// dollars (so a little under the target); without spend yet (the period's first hours), the
/// previous period's spend; without either, $1,000.
pub async fn create_demo_budgets(
    store: &dyn MetadataStore,
    engine: &dyn CostEngine,
    customer_id: i64,
    owner_id: i64,
    now: DateTime<Utc>,
) -> anyhow::Result<()> {
    for demo in &DEMO_BUDGETS {
        let filters: Vec<BudgetFilter> = demo
            .filters
            .iter()
            .map(|(filter_type, values)| BudgetFilter {
                filter_type: *filter_type,
                values: values.iter().map(|value| (*value).to_owned()).collect(),
            })
            .collect();
        let spent_in = |days| spent_between(engine, customer_id, &filters, days);
        let current = spent_in(demo.period.current_range(now)).await?;
        let base = if current > 0.0 {
            current * 100.0 / demo.target_percent_used
        } else {
            spent_in(demo.period.previous_range(now)).await?
        };
        let amount = if base > 0.0 {
            (base / 100.0).ceil() * 100.0
        } else {
            1000.0
        };
        let amount = BudgetAmount::parse(amount)?;
        let alerts = demo
            .alert_percentages
            .iter()
            .map(|value| AlertThreshold {
                threshold_type: ThresholdType::Percentage,
                value: *value,
                basis: AlertBasis::Actual,
            })
            .collect();
        let budget = store
            .create_budget(
                customer_id,
                owner_id,
                NewBudget {
                    name: BudgetName::parse(demo.name)?,
                    amount,
                    period: demo.period,
                    filters: BudgetFilters::parse(filters)?,
                    alerts: Alerts::parse(alerts, amount)?,
                    now,
                },
            )
            .await?;
        evaluate(store, engine, &budget, now).await?;
    }
    Ok(())
}
