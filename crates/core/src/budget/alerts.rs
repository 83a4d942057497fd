use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::amount::BudgetAmount;
use super::usage::Usage;
use crate::FieldError;

/// At most this many alerts on one budget (spec 2 §5 Budget, §9).
pub const MAX_ALERTS: usize = 5;
/// Smallest percentage threshold.
pub const MIN_PERCENTAGE: f64 = 1.0;
/// Largest percentage threshold.
pub const MAX_PERCENTAGE: f64 = 100.0;
/// Smallest absolute threshold, in dollars.
pub const MIN_ABSOLUTE: f64 = 1.0;

/// Whether a threshold is a share of the budget amount or a dollar figure (spec 2 §3 Alert).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
pub enum ThresholdType {
    Percentage,
    Absolute,
}

/// What a threshold is compared with (docs/ANOMALIES.md "Forecast alerts"): the spend so far
/// (`Actual`, what every alert meant before forecasts), or the forecast total of the period
/// (`Forecasted`: it warns before the spend gets there).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
pub enum AlertBasis {
    #[default]
    Actual,
    Forecasted,
}

/// The message for a basis that is neither.
pub const BASIS_MESSAGE: &str = "Choose a basis: Actual or Forecasted";

impl AlertBasis {
    /// The stored and wire name.
    pub const fn as_str(self) -> &'static str {
        match self {
            AlertBasis::Actual => "Actual",
            AlertBasis::Forecasted => "Forecasted",
        }
    }

    /// `Actual` or `Forecasted` in any case; missing or blank is `Actual`.
    pub fn parse(text: Option<&str>) -> Result<Self, FieldError> {
        match text.map(str::trim) {
            None | Some("") => Ok(AlertBasis::Actual),
            Some(text) => [AlertBasis::Actual, AlertBasis::Forecasted]
                .into_iter()
                .find(|basis| basis.as_str().eq_ignore_ascii_case(text))
                .ok_or(FieldError::new("alerts", BASIS_MESSAGE)),
        }
    }
}

/// One alert threshold as stored and answered. A budget stored before forecasts has no basis:
/// it reads as `Actual`, the meaning it had.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct AlertThreshold {
    #[serde(rename = "thresholdType")]
    pub threshold_type: ThresholdType,
    #[serde(rename = "thresholdValue")]
    pub value: f64,
    #[serde(default)]
    #[schema(required = true)]
    pub basis: AlertBasis,
}

/// One alert threshold as a create or edit sends it: the basis as text (absent: `Actual`), so
/// that an unknown one gets its message rather than a parse error.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct AlertRequest {
    #[serde(rename = "thresholdType")]
    pub threshold_type: ThresholdType,
    #[serde(rename = "thresholdValue")]
    pub value: f64,
    /// `Actual` (default) or `Forecasted`.
    #[serde(default)]
    pub basis: Option<String>,
}

impl From<AlertThreshold> for AlertRequest {
    fn from(alert: AlertThreshold) -> Self {
        Self {
            threshold_type: alert.threshold_type,
            value: alert.value,
            basis: Some(alert.basis.as_str().to_owned()),
        }
    }
}

impl AlertThreshold {
    /// Whether `usage` has reached this threshold (the spend for an `Actual` alert, the forecast
    /// total for a `Forecasted` one: the caller passes the one its basis names): a percentage is compared with the percentage
    /// used, an absolute value with the spend (spec 2 §4, the ALERTS filter). Reaching means
    /// equal or above, compared exactly (`spent × 100 ≥ value × amount`, see [`Usage`]).
    pub fn is_reached(&self, usage: &Usage) -> bool {
        match self.threshold_type {
            ThresholdType::Percentage => usage.reaches_percent(self.value),
            ThresholdType::Absolute => usage.reaches_amount(self.value),
        }
    }

    /// The threshold in money: a percentage of `amount`, or the absolute value.
    pub fn limit(&self, amount: BudgetAmount) -> f64 {
        match self.threshold_type {
            ThresholdType::Percentage => amount.value() * self.value / 100.0,
            ThresholdType::Absolute => self.value,
        }
    }

    fn check(&self, amount: BudgetAmount) -> Result<(), &'static str> {
        let value = self.value;
        if !value.is_finite() || value <= 0.0 {
            return Err("Threshold value must be greater than 0");
        }
        match self.threshold_type {
            ThresholdType::Percentage if value < MIN_PERCENTAGE => {
                Err("Percentage must be at least 1%")
            }
            ThresholdType::Percentage if value > MAX_PERCENTAGE => {
                Err("Percentage must be at most 100%")
            }
            ThresholdType::Absolute if value < MIN_ABSOLUTE => {
                Err("Absolute threshold must be at least $1")
            }
            ThresholdType::Absolute if value > amount.value() => {
                Err("Absolute threshold cannot exceed budget amount")
            }
            _ => Ok(()),
        }
    }
}

/// A budget's alert thresholds (spec 2 §5 Budget). No alerts at all is allowed.
///
/// Rules, first broken wins, all on the `alerts` field:
/// * more than 5: 'Maximum of 5 alerts allowed' (the spec gives the limit but no message; this
///   one mirrors 'Maximum of 5 filters allowed');
/// * a value that is not a finite number over 0: 'Threshold value must be greater than 0';
/// * a percentage below 1: 'Percentage must be at least 1%'; above 100: 'Percentage must be at
///   most 100%';
/// * an absolute value below $1: 'Absolute threshold must be at least $1' (the spec gives the
///   rule but no message); above the budget amount: 'Absolute threshold cannot exceed budget
///   amount' (equal to the amount is allowed);
/// * a basis other than `Actual` or `Forecasted`: 'Choose a basis: Actual or Forecasted';
/// * the same type, value and basis twice: 'Duplicate alert threshold detected' (the wizard
///   drops the duplicate silently; the server refuses it). An `Actual` and a `Forecasted` alert
///   at the same value are two alerts.
#[derive(Debug, Clone, PartialEq)]
pub struct Alerts(Vec<AlertThreshold>);

impl Alerts {
    pub fn parse(alerts: Vec<AlertThreshold>, amount: BudgetAmount) -> Result<Self, FieldError> {
        if alerts.len() > MAX_ALERTS {
            return Err(FieldError::new("alerts", "Maximum of 5 alerts allowed"));
        }
        for alert in &alerts {
            alert
                .check(amount)
                .map_err(|message| FieldError::new("alerts", message))?;
        }
        if has_duplicates(&alerts) {
            return Err(FieldError::new(
                "alerts",
                "Duplicate alert threshold detected",
            ));
        }
        Ok(Self(alerts))
    }

    /// The alerts of a request: each basis read first ([`AlertBasis::parse`]), then
    /// [`Alerts::parse`]'s rules.
    pub fn parse_requested(
        alerts: Vec<AlertRequest>,
        amount: BudgetAmount,
    ) -> Result<Self, FieldError> {
        if alerts.len() > MAX_ALERTS {
            return Err(FieldError::new("alerts", "Maximum of 5 alerts allowed"));
        }
        let alerts = alerts
            .into_iter()
            .map(|alert| {
                Ok(AlertThreshold {
                    threshold_type: alert.threshold_type,
                    value: alert.value,
                    basis: AlertBasis::parse(alert.basis.as_deref())?,
                })
            })
            .collect::<Result<Vec<_>, FieldError>>()?;
        Self::parse(alerts, amount)
    }

    pub fn as_slice(&self) -> &[AlertThreshold] {
        &self.0
    }

    pub fn into_inner(self) -> Vec<AlertThreshold> {
        self.0
    }
}

fn has_duplicates(alerts: &[AlertThreshold]) -> bool {
    alerts
        .iter()
        .enumerate()
        .any(|(index, alert)| alerts[..index].contains(alert))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn amount(value: f64) -> BudgetAmount {
        BudgetAmount::parse(value).unwrap()
    }

    fn percent(value: f64) -> AlertThreshold {
        AlertThreshold {
            threshold_type: ThresholdType::Percentage,
            value,
            basis: AlertBasis::Actual,
        }
    }

    fn absolute(value: f64) -> AlertThreshold {
        AlertThreshold {
            threshold_type: ThresholdType::Absolute,
            value,
            basis: AlertBasis::Actual,
        }
    }

    fn forecasted(alert: AlertThreshold) -> AlertThreshold {
        AlertThreshold {
            basis: AlertBasis::Forecasted,
            ..alert
        }
    }

    fn requested(alert: AlertThreshold, basis: Option<&str>) -> AlertRequest {
        AlertRequest {
            basis: basis.map(str::to_owned),
            ..AlertRequest::from(alert)
        }
    }

    #[test]
    fn the_same_threshold_on_another_basis_is_not_a_duplicate_but_on_the_same_is() {
        assert!(Alerts::parse(
            vec![percent(100.0), forecasted(percent(100.0))],
            amount(100.0)
        )
        .is_ok());
        assert_eq!(
            message(
                vec![forecasted(percent(80.0)), forecasted(percent(80.0))],
                100.0
            ),
            "Duplicate alert threshold detected"
        );
    }

    #[test]
    fn a_requested_basis_is_read_in_any_case_defaults_to_actual_and_refuses_another() {
        let parsed = Alerts::parse_requested(
            vec![
                requested(percent(50.0), None),
                requested(percent(60.0), Some("")),
                requested(percent(70.0), Some("forecasted")),
                requested(percent(80.0), Some("Actual")),
            ],
            amount(100.0),
        )
        .unwrap();
        let bases: Vec<AlertBasis> = parsed.as_slice().iter().map(|a| a.basis).collect();
        assert_eq!(
            bases,
            vec![
                AlertBasis::Actual,
                AlertBasis::Actual,
                AlertBasis::Forecasted,
                AlertBasis::Actual
            ]
        );
        let error = Alerts::parse_requested(
            vec![requested(percent(50.0), Some("Predicted"))],
            amount(100.0),
        )
        .unwrap_err();
        assert_eq!((error.field, error.message), ("alerts", BASIS_MESSAGE));
    }

    #[test]
    fn a_stored_alert_without_a_basis_reads_as_actual_and_answers_carry_it() {
        let json = r#"{"thresholdType":"Percentage","thresholdValue":75.0}"#;
        let parsed: AlertThreshold = serde_json::from_str(json).unwrap();
        assert_eq!(parsed.basis, AlertBasis::Actual);
        assert_eq!(
            serde_json::to_string(&forecasted(parsed)).unwrap(),
            r#"{"thresholdType":"Percentage","thresholdValue":75.0,"basis":"Forecasted"}"#
        );
    }

    fn message(alerts: Vec<AlertThreshold>, budget: f64) -> &'static str {
        Alerts::parse(alerts, amount(budget)).unwrap_err().message
    }

    #[test]
    fn no_alerts_is_allowed() {
        assert!(Alerts::parse(vec![], amount(100.0))
            .unwrap()
            .as_slice()
            .is_empty());
    }

    #[test]
    fn five_alerts_are_accepted_and_six_refused() {
        let five: Vec<_> = [10.0, 25.0, 50.0, 75.0, 100.0].map(percent).into();
        assert_eq!(
            Alerts::parse(five.clone(), amount(100.0))
                .unwrap()
                .as_slice()
                .len(),
            5
        );
        let mut six = five;
        six.push(percent(90.0));
        assert_eq!(message(six, 100.0), "Maximum of 5 alerts allowed");
    }

    #[test]
    fn zero_negative_and_non_finite_values_are_refused() {
        for value in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            assert_eq!(
                message(vec![percent(value)], 100.0),
                "Threshold value must be greater than 0"
            );
            assert_eq!(
                message(vec![absolute(value)], 100.0),
                "Threshold value must be greater than 0"
            );
        }
    }

    #[test]
    fn percentage_must_be_between_1_and_100() {
        assert_eq!(
            message(vec![percent(0.5)], 100.0),
            "Percentage must be at least 1%"
        );
        assert!(Alerts::parse(vec![percent(1.0)], amount(100.0)).is_ok());
        assert!(Alerts::parse(vec![percent(100.0)], amount(100.0)).is_ok());
        assert_eq!(
            message(vec![percent(100.5)], 100.0),
            "Percentage must be at most 100%"
        );
        assert_eq!(
            message(vec![percent(101.0)], 100.0),
            "Percentage must be at most 100%"
        );
    }

    #[test]
    fn percentage_is_not_limited_by_the_amount() {
        assert!(Alerts::parse(vec![percent(90.0)], amount(10.0)).is_ok());
    }

    #[test]
    fn absolute_must_be_at_least_one_dollar() {
        assert_eq!(
            message(vec![absolute(0.99)], 100.0),
            "Absolute threshold must be at least $1"
        );
        assert!(Alerts::parse(vec![absolute(1.0)], amount(100.0)).is_ok());
    }

    #[test]
    fn absolute_may_equal_the_amount_but_not_exceed_it() {
        assert!(Alerts::parse(vec![absolute(250.5)], amount(250.5)).is_ok());
        assert_eq!(
            message(vec![absolute(250.51)], 250.5),
            "Absolute threshold cannot exceed budget amount"
        );
    }

    #[test]
    fn the_same_type_and_value_twice_is_refused() {
        assert_eq!(
            message(vec![percent(75.0), percent(75.0)], 100.0),
            "Duplicate alert threshold detected"
        );
        assert_eq!(
            message(vec![absolute(50.0), percent(10.0), absolute(50.0)], 100.0),
            "Duplicate alert threshold detected"
        );
    }

    #[test]
    fn the_same_value_with_another_type_is_not_a_duplicate() {
        assert!(Alerts::parse(vec![percent(50.0), absolute(50.0)], amount(100.0)).is_ok());
    }

    #[test]
    fn errors_are_on_the_alerts_field() {
        let error = Alerts::parse(vec![percent(0.0)], amount(100.0)).unwrap_err();
        assert_eq!(error.field, "alerts");
    }

    #[test]
    fn reached_compares_percentage_with_percent_used_and_absolute_with_spend() {
        let spent = |value| Usage::new(value, amount(200.0));
        assert!(!percent(75.0).is_reached(&spent(149.99)));
        assert!(percent(75.0).is_reached(&spent(150.0)));
        assert!(!absolute(150.0).is_reached(&spent(149.99)));
        assert!(absolute(150.0).is_reached(&spent(150.0)));
    }

    #[test]
    fn exactly_29_and_57_percent_reach_their_thresholds() {
        // The old comparison, `spent / amount * 100 >= value`, missed both.
        let old_percent_used = |spent: f64, amount: f64| spent / amount * 100.0;
        assert!(old_percent_used(29.0, 100.0) < 29.0);
        assert!(old_percent_used(57.0, 100.0) < 57.0);
        assert!(percent(29.0).is_reached(&Usage::new(29.0, amount(100.0))));
        assert!(percent(57.0).is_reached(&Usage::new(57.0, amount(100.0))));
        assert!(!percent(29.0).is_reached(&Usage::new(28.99, amount(100.0))));
        assert!(!percent(57.0).is_reached(&Usage::new(56.99, amount(100.0))));
    }

    #[test]
    fn a_limit_is_the_share_of_the_amount_or_the_absolute_value() {
        assert_eq!(percent(75.0).limit(amount(200.0)), 150.0);
        assert_eq!(absolute(120.0).limit(amount(200.0)), 120.0);
    }

    #[test]
    fn serde_uses_the_spec_field_names() {
        let json = r#"{"thresholdType":"Percentage","thresholdValue":75.0,"basis":"Actual"}"#;
        let parsed: AlertThreshold = serde_json::from_str(json).unwrap();
        assert_eq!(parsed, percent(75.0));
        assert_eq!(serde_json::to_string(&parsed).unwrap(), json);
        let json = r#"{"thresholdType":"Absolute","thresholdValue":500}"#;
        assert_eq!(
            serde_json::from_str::<AlertThreshold>(json).unwrap(),
            absolute(500.0)
        );
    }
}
