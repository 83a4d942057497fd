use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::usage::Usage;

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

/// How the detail page reads a budget (spec 2 §4 Budget health): over 100 % is "Exceeded
/// Budget", 75 % up to 100 % "Approaching Limit", under 75 % "On Track".
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, ToSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum DetailStatus {
    Healthy,
    Warning,
    Exceeded,
}

/// Health on the budgets dashboard and cards: critical at 90 % or more, warning at 75 % or more,
/// healthy below (spec 2 §4 Budget health). The summary strip uses the same bands.
pub fn dashboard_health(usage: &Usage) -> BudgetHealth {
    band(usage, DASHBOARD_WARNING_PERCENT, DASHBOARD_CRITICAL_PERCENT)
}

/// Health in Mission Control's budget widgets: critical at 80 % or more, warning from 70 % to
/// under 80 %, healthy below 70 % (spec 1 §9).
pub fn mission_control_health(usage: &Usage) -> BudgetHealth {
    band(
        usage,
        MISSION_CONTROL_WARNING_PERCENT,
        MISSION_CONTROL_CRITICAL_PERCENT,
    )
}

/// The dashboard's "Exceeded" badge: 100 % used or more.
pub fn is_exceeded(usage: &Usage) -> bool {
    usage.reaches_percent(EXCEEDED_PERCENT)
}

/// The detail page's reading: only strictly over 100 % is exceeded.
pub fn detail_status(usage: &Usage) -> DetailStatus {
    if usage.exceeds_percent(EXCEEDED_PERCENT) {
        DetailStatus::Exceeded
    } else if usage.reaches_percent(DASHBOARD_WARNING_PERCENT) {
        DetailStatus::Warning
    } else {
        DetailStatus::Healthy
    }
}

fn band(usage: &Usage, warning: f64, critical: f64) -> BudgetHealth {
    if usage.reaches_percent(critical) {
        BudgetHealth::Critical
    } else if usage.reaches_percent(warning) {
        BudgetHealth::Warning
    } else {
        BudgetHealth::Healthy
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::budget::BudgetAmount;

    /// Spend against an amount of 100, so that spend is the percentage used.
    fn of_100(spent: f64) -> Usage {
        Usage::new(spent, BudgetAmount::parse(100.0).unwrap())
    }

    #[test]
    fn dashboard_bands_switch_exactly_at_75_and_90() {
        assert_eq!(dashboard_health(&of_100(0.0)), BudgetHealth::Healthy);
        assert_eq!(dashboard_health(&of_100(74.99)), BudgetHealth::Healthy);
        assert_eq!(dashboard_health(&of_100(75.0)), BudgetHealth::Warning);
        assert_eq!(dashboard_health(&of_100(89.99)), BudgetHealth::Warning);
        assert_eq!(dashboard_health(&of_100(90.0)), BudgetHealth::Critical);
        assert_eq!(dashboard_health(&of_100(150.0)), BudgetHealth::Critical);
    }

    #[test]
    fn bands_hold_where_floating_point_percentages_fall_short() {
        // 0.9 * 100 / 1 and friends: the quotient drifts below the band, the cents do not.
        let old_percent_used = |spent: f64, amount: f64| spent / amount * 100.0;
        let usage = Usage::new(0.7 + 0.2, BudgetAmount::parse(1.0).unwrap());
        assert!(old_percent_used(0.7 + 0.2, 1.0) < 90.0);
        assert_eq!(dashboard_health(&usage), BudgetHealth::Critical);
        let usage = Usage::new(0.57, BudgetAmount::parse(0.76).unwrap());
        assert!(old_percent_used(0.57, 0.76) < 75.0);
        assert_eq!(dashboard_health(&usage), BudgetHealth::Warning);
    }

    #[test]
    fn exceeded_starts_exactly_at_100() {
        assert!(!is_exceeded(&of_100(99.99)));
        assert!(is_exceeded(&of_100(100.0)));
        assert!(is_exceeded(&of_100(250.0)));
    }

    #[test]
    fn the_detail_page_is_exceeded_only_over_100() {
        assert_eq!(detail_status(&of_100(74.99)), DetailStatus::Healthy);
        assert_eq!(detail_status(&of_100(75.0)), DetailStatus::Warning);
        assert_eq!(detail_status(&of_100(100.0)), DetailStatus::Warning);
        assert_eq!(detail_status(&of_100(100.01)), DetailStatus::Exceeded);
    }

    #[test]
    fn mission_control_bands_switch_exactly_at_70_and_80() {
        assert_eq!(mission_control_health(&of_100(0.0)), BudgetHealth::Healthy);
        assert_eq!(
            mission_control_health(&of_100(69.99)),
            BudgetHealth::Healthy
        );
        assert_eq!(mission_control_health(&of_100(70.0)), BudgetHealth::Warning);
        assert_eq!(
            mission_control_health(&of_100(79.99)),
            BudgetHealth::Warning
        );
        assert_eq!(
            mission_control_health(&of_100(80.0)),
            BudgetHealth::Critical
        );
        assert_eq!(
            mission_control_health(&of_100(100.0)),
            BudgetHealth::Critical
        );
    }

    #[test]
    fn percent_used_is_spend_over_amount() {
        let amount = BudgetAmount::parse(200.0).unwrap();
        assert_eq!(Usage::new(0.0, amount).percent_used(), 0.0);
        assert_eq!(Usage::new(150.0, amount).percent_used(), 75.0);
        assert_eq!(Usage::new(300.0, amount).percent_used(), 150.0);
    }

    #[test]
    fn health_serialises_lower_case() {
        assert_eq!(
            serde_json::to_string(&BudgetHealth::Critical).unwrap(),
            "\"critical\""
        );
        assert_eq!(
            serde_json::to_string(&DetailStatus::Exceeded).unwrap(),
            "\"exceeded\""
        );
    }
}
