use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::amount::BudgetAmount;

/// Budgets dashboard and cards: warning from this percentage used (spec 2 §4 Budget health).
pub const DASHBOARD_WARNING_PERCENT: f64 = 75.0;
/// Budgets dashboard and cards: critical from this percentage used.
pub const DASHBOARD_CRITICAL_PERCENT: f64 = 90.0;
/// Budgets dashboard and cards: "Exceeded" from this percentage used.
pub const EXCEEDED_PERCENT: f64 = 100.0;
/// Mission Control budget widgets: warning from this percentage used (spec 1 §9).
pub const MISSION_CONTROL_WARNING_PERCENT: f64 = 70.0;
/// Mission Control budget widgets: critical from this percentage used.
pub const MISSION_CONTROL_CRITICAL_PERCENT: f64 = 80.0;

/// How close a budget is to its amount. Counted by the summary (`healthyBudgets`,
/// `warningBudgets`, `criticalBudgets`).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, ToSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum BudgetHealth {
    Healthy,
    Warning,
    Critical,
}

/// Spend as a percentage of the amount (the client's `percentUsed`); over 100 when exceeded.
pub fn percent_used(spent: f64, amount: BudgetAmount) -> f64 {
    spent / amount.value() * 100.0
}

/// Health on the budgets dashboard and cards: critical at 90 % or more, warning at 75 % or more,
/// healthy below (spec 2 §4 Budget health). The summary strip uses the same bands.
pub fn dashboard_health(percent_used: f64) -> BudgetHealth {
    band(
        percent_used,
        DASHBOARD_WARNING_PERCENT,
        DASHBOARD_CRITICAL_PERCENT,
    )
}

/// Health in Mission Control's budget widgets: critical at 80 % or more, warning from 70 % to
/// under 80 %, healthy below 70 % (spec 1 §9).
pub fn mission_control_health(percent_used: f64) -> BudgetHealth {
    band(
        percent_used,
        MISSION_CONTROL_WARNING_PERCENT,
        MISSION_CONTROL_CRITICAL_PERCENT,
    )
}

/// The dashboard's "Exceeded" badge: 100 % used or more.
pub fn is_exceeded(percent_used: f64) -> bool {
    percent_used >= EXCEEDED_PERCENT
}

fn band(percent_used: f64, warning: f64, critical: f64) -> BudgetHealth {
    if percent_used >= critical {
        BudgetHealth::Critical
    } else if percent_used >= warning {
        BudgetHealth::Warning
    } else {
        BudgetHealth::Healthy
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dashboard_bands_switch_exactly_at_75_and_90() {
        assert_eq!(dashboard_health(0.0), BudgetHealth::Healthy);
        assert_eq!(dashboard_health(74.99), BudgetHealth::Healthy);
        assert_eq!(dashboard_health(75.0), BudgetHealth::Warning);
        assert_eq!(dashboard_health(89.99), BudgetHealth::Warning);
        assert_eq!(dashboard_health(90.0), BudgetHealth::Critical);
        assert_eq!(dashboard_health(150.0), BudgetHealth::Critical);
    }

    #[test]
    fn exceeded_starts_exactly_at_100() {
        assert!(!is_exceeded(99.99));
        assert!(is_exceeded(100.0));
        assert!(is_exceeded(250.0));
    }

    #[test]
    fn mission_control_bands_switch_exactly_at_70_and_80() {
        assert_eq!(mission_control_health(0.0), BudgetHealth::Healthy);
        assert_eq!(mission_control_health(69.99), BudgetHealth::Healthy);
        assert_eq!(mission_control_health(70.0), BudgetHealth::Warning);
        assert_eq!(mission_control_health(79.99), BudgetHealth::Warning);
        assert_eq!(mission_control_health(80.0), BudgetHealth::Critical);
        assert_eq!(mission_control_health(100.0), BudgetHealth::Critical);
    }

    #[test]
    fn percent_used_is_spend_over_amount() {
        let amount = BudgetAmount::parse(200.0).unwrap();
        assert_eq!(percent_used(0.0, amount), 0.0);
        assert_eq!(percent_used(150.0, amount), 75.0);
        assert_eq!(percent_used(300.0, amount), 150.0);
    }

    #[test]
    fn health_serialises_lower_case() {
        assert_eq!(
            serde_json::to_string(&BudgetHealth::Critical).unwrap(),
            "\"critical\""
        );
    }
}
