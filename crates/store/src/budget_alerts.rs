//! Budget alert history (spec 2 §3 Alert history entry): `budget_alert_history`, one row per
//! threshold reached in a budget period, and the notification each new row hands to the outbox.

use chrono::{DateTime, NaiveDate, Utc};
use costscope_core::budget::{AlertBasis, AlertThreshold, ThresholdType};
use serde_json::{json, Value};

use crate::{Budget, StoreError};

/// Columns of `budget_alert_history` in the order [`BudgetAlertRow`] reads them.
pub(crate) const BUDGET_ALERT_COLUMNS: &str = "id, budget_id, period_start, threshold_type, \
     threshold_value, spent_amount, spend_percentage, triggered_at, basis";

/// A threshold the evaluation job found reached in a budget's current period, with the spend
/// and percentage used at that moment.
#[derive(Debug, Clone, PartialEq)]
pub struct NewBudgetAlert {
    pub customer_id: i64,
    pub budget_id: i64,
    /// The first day of the period the threshold was reached in (UTC).
    pub period_start: NaiveDate,
    pub threshold: AlertThreshold,
    pub spent_amount: f64,
    pub spend_percentage: f64,
    pub triggered_at: DateTime<Utc>,
    /// The forecast that reached a `Forecasted` threshold (its notification names it); `None`
    /// for an `Actual` one.
    pub forecast: Option<AlertForecast>,
}

/// The forecast a `Forecasted` alert was raised on.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AlertForecast {
    /// The forecast total of the period.
    pub amount: f64,
    /// The day the forecast running total goes over the threshold.
    pub exceeds_on: NaiveDate,
}

/// A recorded alert: a threshold reached once in one period of a budget.
#[derive(Debug, Clone, PartialEq)]
pub struct BudgetAlert {
    pub id: i64,
    pub budget_id: i64,
    pub period_start: NaiveDate,
    pub threshold: AlertThreshold,
    pub spent_amount: f64,
    pub spend_percentage: f64,
    pub triggered_at: DateTime<Utc>,
}

/// The stored name of a threshold type, also its wire name.
pub(crate) const fn threshold_type_text(threshold_type: ThresholdType) -> &'static str {
    match threshold_type {
        ThresholdType::Percentage => "Percentage",
        ThresholdType::Absolute => "Absolute",
    }
}

/// The stored name of a basis, also its wire name.
pub(crate) const fn basis_text(basis: AlertBasis) -> &'static str {
    basis.as_str()
}

/// The `budget_alert` notification for a newly recorded alert. Self-contained (the budget's
/// name, amount and period are copied in) so that it can be delivered after the budget is
/// edited or deleted. Keys are camelCase, as in the HTTP API. `basis` says what reached the
/// threshold; a `Forecasted` one carries the forecast total (`forecastAmount`) and the day it
/// goes over the threshold (`exceedsOn`), null for an `Actual` one.
pub(crate) fn alert_notification_payload(
    customer_id: i64,
    alert: &BudgetAlert,
    budget: &Budget,
    forecast: Option<&AlertForecast>,
) -> Value {
    json!({
        "customerId": customer_id,
        "alertId": alert.id,
        "budgetId": alert.budget_id,
        "budgetName": budget.name.as_str(),
        "budgetAmount": budget.amount.value(),
        "budgetPeriod": budget.period.as_str(),
        "thresholdType": threshold_type_text(alert.threshold.threshold_type),
        "thresholdValue": alert.threshold.value,
        "spentAmount": alert.spent_amount,
        "spendPercentage": alert.spend_percentage,
        "periodStart": alert.period_start,
        "triggeredAt": alert.triggered_at,
        "basis": basis_text(alert.threshold.basis),
        "forecastAmount": forecast.map(|forecast| forecast.amount),
        "exceedsOn": forecast.map(|forecast| forecast.exceeds_on),
    })
}

#[derive(sqlx::FromRow)]
pub(crate) struct BudgetAlertRow {
    id: i64,
    budget_id: i64,
    period_start: NaiveDate,
    threshold_type: String,
    threshold_value: f64,
    spent_amount: f64,
    spend_percentage: f64,
    triggered_at: DateTime<Utc>,
    basis: String,
}

impl TryFrom<BudgetAlertRow> for BudgetAlert {
    type Error = StoreError;

    fn try_from(row: BudgetAlertRow) -> Result<Self, Self::Error> {
        let threshold_type = match row.threshold_type.as_str() {
            "Percentage" => ThresholdType::Percentage,
            "Absolute" => ThresholdType::Absolute,
            other => {
                return Err(StoreError::Corrupt(format!(
                    "budget_alert_history.threshold_type: {other:?}"
                )))
            }
        };
        let basis = match row.basis.as_str() {
            "Actual" => AlertBasis::Actual,
            "Forecasted" => AlertBasis::Forecasted,
            other => {
                return Err(StoreError::Corrupt(format!(
                    "budget_alert_history.basis: {other:?}"
                )))
            }
        };
        Ok(BudgetAlert {
            id: row.id,
            budget_id: row.budget_id,
            period_start: row.period_start,
            threshold: AlertThreshold {
                threshold_type,
                value: row.threshold_value,
                basis,
            },
            spent_amount: row.spent_amount,
            spend_percentage: row.spend_percentage,
            triggered_at: row.triggered_at,
        })
    }
}
