//! The `cost_amount` condition of `POST /v1/query` (spec 1 §3 filter field catalogue): a test on
//! each group's total over the period, applied after every other condition (a HAVING on the
//! grouped rows). `/v1/query` has no interval, so each group is one row and filtering the
//! grouped rows here gives the exact answer.

use std::collections::HashSet;

use costscope_core::cost::bounds::{self, MAX_ANSWER_ROWS};
use costscope_core::cost::AggregateQuery;
use costscope_engine::{AggregateRow, CustomerId};

use super::aggr::{currency_part, flat_row, percent_change, AggregateResponse, CostSummary};
use crate::http::currency::display_currency;
use crate::http::error::ApiError;
use crate::state::AppState;

/// The field name of the condition.
pub const FIELD: &str = "cost_amount";

/// Which group totals a `cost_amount` condition keeps.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum AmountCondition {
    /// `greater_than`: strictly more than the amount.
    GreaterThan(f64),
    /// `less_than`: strictly less than the amount.
    LessThan(f64),
    /// `between`: from `.0` to `.1`, both included.
    Between(f64, f64),
}

impl AmountCondition {
    /// Whether `operator` (any case) is one this field knows.
    pub fn is_operator(operator: &str) -> bool {
        matches!(
            operator.to_ascii_lowercase().as_str(),
            "greater_than" | "less_than" | "between"
        )
    }

    /// The condition of `operator` (one of [`Self::is_operator`]) on `values` (at least one),
    /// or the message of the module (without the `Filter {n}: ` prefix).
    pub fn parse(operator: &str, values: &[String]) -> Result<Self, String> {
        let amounts = values
            .iter()
            .map(|value| number(value))
            .collect::<Option<Vec<f64>>>()
            .ok_or_else(|| "Cost amount must be a number".to_owned())?;
        match operator.to_ascii_lowercase().as_str() {
            "between" => match amounts[..] {
                [from, to] if from > to => Err("From amount cannot exceed to amount".to_owned()),
                [from, to] => Ok(Self::Between(from, to)),
                _ => Err("Between needs two amounts: from and to".to_owned()),
            },
            operator => match amounts[..] {
                [amount] if operator == "greater_than" => Ok(Self::GreaterThan(amount)),
                [amount] => Ok(Self::LessThan(amount)),
                _ => Err("Cost amount must be a number".to_owned()),
            },
        }
    }

    /// Whether a group whose total is `amount` is kept.
    pub fn keeps(self, amount: f64) -> bool {
        match self {
            Self::GreaterThan(bound) => amount > bound,
            Self::LessThan(bound) => amount < bound,
            Self::Between(from, to) => (from..=to).contains(&amount),
        }
    }
}

/// A finite decimal number (`12`, `-3.5`, `1e3`); anything else is not an amount.
fn number(value: &str) -> Option<f64> {
    value
        .trim()
        .parse::<f64>()
        .ok()
        .filter(|amount| amount.is_finite())
}

/// Every group of `query` (no interval), the period's total and `total_groups` being those of
/// the groups `condition` keeps (the first page of [`bounds::DEFAULT_GROUPS`] of them in `data`);
/// `previous_cost` is the previous period's total of the same groups.
pub async fn answer_kept(
    state: &AppState,
    customer: CustomerId,
    mut query: AggregateQuery,
    condition: AmountCondition,
    mut warnings: Vec<String>,
) -> Result<AggregateResponse, ApiError> {
    let display = display_currency(state, customer).await?;
    query.interval = None;
    query.cumulative = false;
    query.offset = 0;
    query.limit = Some(u32::try_from(MAX_ANSWER_ROWS).unwrap_or(u32::MAX));
    let current = state
        .engine
        .aggregate_in(customer, &query, display.as_ref())
        .await?;
    check_groups(current.total_groups)?;
    let kept: Vec<&AggregateRow> = current
        .rows
        .iter()
        .filter(|row| condition.keeps(row.amount))
        .collect();
    let previous_cost: f64 = if kept.is_empty() {
        0.0
    } else {
        query.range = query.range.previous();
        let previous = state
            .engine
            .aggregate_in(customer, &query, display.as_ref())
            .await?;
        check_groups(previous.total_groups)?;
        let groups: HashSet<&[String]> = kept.iter().map(|row| row.group.as_slice()).collect();
        previous
            .rows
            .iter()
            .filter(|row| groups.contains(row.group.as_slice()))
            .map(|row| row.amount)
            .sum()
    };
    let accrued_cost: f64 = kept.iter().map(|row| row.amount).sum();
    let currency = currency_part(&current, display.is_some(), &mut warnings);
    Ok(AggregateResponse {
        data: kept
            .iter()
            .take(bounds::DEFAULT_GROUPS as usize)
            .map(|row| flat_row(&query.dimensions, row))
            .collect(),
        summary: CostSummary {
            accrued_cost,
            accrued_change: percent_change(accrued_cost, previous_cost),
            previous_cost,
            currency: current.currency.clone(),
        },
        total_groups: kept.len() as u64,
        warnings,
        currency,
    })
}

/// Every group is compared, so there may be at most [`MAX_ANSWER_ROWS`] of them.
fn check_groups(groups: u64) -> Result<(), ApiError> {
    if groups > MAX_ANSWER_ROWS {
        return Err(ApiError::TooMuch {
            field: "group_by",
            message: format!(
                "A {FIELD} filter compares every group: {groups} groups, more than \
                 {MAX_ANSWER_ROWS}: group by fewer dimensions or filter the costs"
            ),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(operator: &str, values: &[&str]) -> Result<AmountCondition, String> {
        let values: Vec<String> = values.iter().map(|value| (*value).to_owned()).collect();
        AmountCondition::parse(operator, &values)
    }

    #[test]
    fn parses_the_three_operators() {
        assert_eq!(
            parse("greater_than", &["100"]),
            Ok(AmountCondition::GreaterThan(100.0))
        );
        assert_eq!(
            parse("LESS_THAN", &[" -2.5 "]),
            Ok(AmountCondition::LessThan(-2.5))
        );
        assert_eq!(
            parse("between", &["10", "1e2"]),
            Ok(AmountCondition::Between(10.0, 100.0))
        );
        assert_eq!(
            parse("between", &["5", "5"]),
            Ok(AmountCondition::Between(5.0, 5.0))
        );
        assert!(AmountCondition::is_operator("Between"));
        assert!(!AmountCondition::is_operator("equals"));
    }

    #[test]
    fn messages() {
        let message = |text: &str| Err(text.to_owned());
        for values in [&["ten"][..], &["NaN"], &["inf"], &["1", "2"], &["true"]] {
            assert_eq!(
                parse("greater_than", values),
                message("Cost amount must be a number"),
                "{values:?}"
            );
        }
        assert_eq!(
            parse("between", &["1", "x"]),
            message("Cost amount must be a number")
        );
        for values in [&["1"][..], &["1", "2", "3"]] {
            assert_eq!(
                parse("between", values),
                message("Between needs two amounts: from and to")
            );
        }
        assert_eq!(
            parse("between", &["20", "10"]),
            message("From amount cannot exceed to amount")
        );
    }

    #[test]
    fn keeps_strictly_above_strictly_below_and_between_inclusive() {
        let amounts = [-10.0, 0.0, 10.0, 20.0, 30.0];
        let kept = |condition: AmountCondition| -> Vec<f64> {
            amounts
                .into_iter()
                .filter(|amount| condition.keeps(*amount))
                .collect()
        };
        assert_eq!(kept(AmountCondition::GreaterThan(10.0)), [20.0, 30.0]);
        assert_eq!(kept(AmountCondition::LessThan(10.0)), [-10.0, 0.0]);
        assert_eq!(kept(AmountCondition::Between(0.0, 20.0)), [0.0, 10.0, 20.0]);
    }
}
