//! A create or edit body checked against every rule of spec 2 §5 Budget at once, so that the
//! 422 lists every broken field.

use costscope_core::budget::{
    Alerts, BudgetAmount, BudgetFilters, BudgetName, BudgetPeriod, MAX_ALERTS,
};
use costscope_core::FieldError;

use super::dto::BudgetRequest;
use crate::http::error::ApiError;

/// The message for a period that is not one of the three (the spec has none).
pub const PERIOD_MESSAGE: &str = "Budget period must be Monthly, Quarterly or Yearly";

/// A valid create or edit.
#[derive(Debug, Clone)]
pub struct ValidBudget {
    pub name: BudgetName,
    pub amount: BudgetAmount,
    pub period: BudgetPeriod,
    pub filters: BudgetFilters,
    pub alerts: Alerts,
}

/// The size bounds of a body (filter entries, values per filter, value length, tag keys,
/// alerts), checked before the other rules and answered as a refused bound (422, counted by
/// the refusal metrics): a huge list is never parsed further, nor stored.
pub fn check_size(body: &BudgetRequest) -> Result<(), ApiError> {
    let too_much = |error: FieldError| ApiError::TooMuch {
        field: error.field,
        message: error.message.to_owned(),
    };
    BudgetFilters::check_size(&body.filters).map_err(too_much)?;
    if body.alerts.len() > MAX_ALERTS {
        return Err(too_much(FieldError {
            field: "alerts",
            message: "Maximum of 5 alerts allowed",
        }));
    }
    Ok(())
}

pub fn validate(body: BudgetRequest) -> Result<ValidBudget, Vec<FieldError>> {
    let name = BudgetName::parse(body.name.as_deref().unwrap_or_default());
    let amount = body
        .amount
        .map_or_else(|| BudgetAmount::parse(0.0), BudgetAmount::parse);
    let period = parse_period(body.period.as_deref());
    let filters = BudgetFilters::parse(body.filters);
    // Without a valid amount the alerts' other rules are still checked; the cap against the
    // amount waits until there is one.
    let cap = amount
        .as_ref()
        .ok()
        .copied()
        .unwrap_or_else(|| BudgetAmount::parse(f64::MAX).expect("f64::MAX is a valid amount"));
    let alerts = Alerts::parse_requested(body.alerts, cap);
    match (name, amount, period, filters, alerts) {
        (Ok(name), Ok(amount), Ok(period), Ok(filters), Ok(alerts)) => Ok(ValidBudget {
            name,
            amount,
            period,
            filters,
            alerts,
        }),
        (name, amount, period, filters, alerts) => Err([
            name.err(),
            amount.err(),
            period.err(),
            filters.err(),
            alerts.err(),
        ]
        .into_iter()
        .flatten()
        .collect()),
    }
}

fn parse_period(text: Option<&str>) -> Result<BudgetPeriod, FieldError> {
    match text.map(str::trim) {
        None | Some("") => Ok(BudgetPeriod::default()),
        Some(text) => [
            BudgetPeriod::Monthly,
            BudgetPeriod::Quarterly,
            BudgetPeriod::Yearly,
        ]
        .into_iter()
        .find(|period| period.as_str().eq_ignore_ascii_case(text))
        .ok_or(FieldError {
            field: "period",
            message: PERIOD_MESSAGE,
        }),
    }
}

#[cfg(test)]
mod tests {
    use costscope_core::budget::{AlertRequest, BudgetFilter, BudgetFilterType, ThresholdType};

    use super::*;

    fn account_filter() -> BudgetFilter {
        BudgetFilter {
            filter_type: BudgetFilterType::Account,
            values: vec!["111111111111".to_owned()],
        }
    }

    fn messages(body: BudgetRequest) -> Vec<(&'static str, &'static str)> {
        validate(body)
            .unwrap_err()
            .into_iter()
            .map(|error| (error.field, error.message))
            .collect()
    }

    #[test]
    fn an_empty_body_lists_every_required_field() {
        assert_eq!(
            messages(BudgetRequest::default()),
            vec![
                ("name", "Budget name is required"),
                ("amount", "Budget amount must be greater than $0"),
                ("filters", "At least one filter must be configured"),
            ]
        );
    }

    #[test]
    fn period_defaults_to_monthly_and_is_read_in_any_case() {
        let body = |period: Option<&str>| BudgetRequest {
            name: Some("Prod".to_owned()),
            amount: Some(100.0),
            period: period.map(str::to_owned),
            filters: vec![account_filter()],
            alerts: vec![],
            channel_ids: None,
        };
        assert_eq!(validate(body(None)).unwrap().period, BudgetPeriod::Monthly);
        assert_eq!(
            validate(body(Some("quarterly"))).unwrap().period,
            BudgetPeriod::Quarterly
        );
        assert_eq!(
            messages(body(Some("Weekly"))),
            vec![("period", PERIOD_MESSAGE)]
        );
    }

    #[test]
    fn alerts_are_checked_even_when_the_amount_is_missing() {
        let body = BudgetRequest {
            name: Some("Prod".to_owned()),
            amount: None,
            period: None,
            filters: vec![account_filter()],
            alerts: vec![AlertRequest {
                threshold_type: ThresholdType::Percentage,
                value: 120.0,
                basis: None,
            }],
            channel_ids: None,
        };
        assert_eq!(
            messages(body),
            vec![
                ("amount", "Budget amount must be greater than $0"),
                ("alerts", "Percentage must be at most 100%"),
            ]
        );
    }

    #[test]
    fn an_unknown_basis_is_refused_on_the_alerts_field() {
        let body = BudgetRequest {
            name: Some("Prod".to_owned()),
            amount: Some(100.0),
            period: None,
            filters: vec![account_filter()],
            alerts: vec![AlertRequest {
                threshold_type: ThresholdType::Percentage,
                value: 100.0,
                basis: Some("Projected".to_owned()),
            }],
            channel_ids: None,
        };
        assert_eq!(
            messages(body),
            vec![("alerts", costscope_core::budget::BASIS_MESSAGE)]
        );
    }

    #[test]
    fn an_absolute_alert_above_the_amount_is_refused() {
        let body = BudgetRequest {
            name: Some("Prod".to_owned()),
            amount: Some(100.0),
            period: None,
            filters: vec![account_filter()],
            alerts: vec![AlertRequest {
                threshold_type: ThresholdType::Absolute,
                value: 150.0,
                basis: None,
            }],
            channel_ids: None,
        };
        assert_eq!(
            messages(body),
            vec![("alerts", "Absolute threshold cannot exceed budget amount")]
        );
    }
}
