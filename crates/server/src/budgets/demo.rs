//! The demo tenant's budgets: a few realistic budgets over the demo data, sized from what each
//! spent in its previous period, so that a fresh demo shows healthy, warning and exceeded ones.

use chrono::{DateTime, Utc};
use costscope_core::budget::{
    AlertThreshold, Alerts, BudgetAmount, BudgetFilter, BudgetFilterType, BudgetFilters,
    BudgetName, BudgetPeriod, ThresholdType,
};
use costscope_core::cost::Metric;
use costscope_engine::CostEngine;
use costscope_store::{MetadataStore, NewBudget};

use super::evaluation::evaluate;
use super::filter::cost_filter;
use super::standing::days;

struct DemoBudget {
    name: &'static str,
    period: BudgetPeriod,
    filters: &'static [(BudgetFilterType, &'static [&'static str])],
    /// The amount as a share of the previous period's spend.
    share_of_previous: f64,
    alert_percentages: &'static [f64],
}

const DEMO_BUDGETS: [DemoBudget; 4] = [
    DemoBudget {
        name: "Production AWS",
        period: BudgetPeriod::Monthly,
        filters: &[(BudgetFilterType::Account, &["111111111111"])],
        share_of_previous: 1.15,
        alert_percentages: &[75.0, 90.0, 100.0],
    },
    DemoBudget {
        name: "Staging",
        period: BudgetPeriod::Monthly,
        filters: &[(BudgetFilterType::Account, &["222222222222"])],
        share_of_previous: 0.6,
        alert_percentages: &[50.0, 75.0, 100.0],
    },
    DemoBudget {
        name: "Google Cloud",
        period: BudgetPeriod::Quarterly,
        filters: &[(BudgetFilterType::CloudProvider, &["GCP"])],
        share_of_previous: 1.1,
        alert_percentages: &[75.0, 100.0],
    },
    DemoBudget {
        name: "All clouds",
        period: BudgetPeriod::Yearly,
        filters: &[(BudgetFilterType::CloudProvider, &["AWS", "GCP", "Azure"])],
        share_of_previous: 1.05,
        alert_percentages: &[50.0, 75.0, 90.0, 100.0],
    },
];

/// Creates the demo budgets for `owner_id` and evaluates their alerts. Rounds each amount up to
/// a whole hundred dollars; a budget whose filters had no spend gets $1,000.
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
        let (start, end) = demo.period.previous_range(now);
        let previous = engine
            .spend(
                customer_id,
                days(start, end),
                &cost_filter(&filters),
                Metric::Billed,
            )
            .await?
            .total;
        let amount = if previous > 0.0 {
            (previous * demo.share_of_previous / 100.0).ceil() * 100.0
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
