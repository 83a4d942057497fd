use crate::FieldError;

const MESSAGE: &str = "Budget amount must be greater than $0";

/// A budget's amount in US dollars: finite and over 0 (spec 2 §5 Budget).
///
/// Text that is not a decimal number, `NaN` and infinities get the same message as a zero amount:
/// the spec has no other message for the amount.
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd)]
pub struct BudgetAmount(f64);

impl BudgetAmount {
    pub fn parse(value: f64) -> Result<Self, FieldError> {
        if value.is_finite() && value > 0.0 {
            Ok(Self(value))
        } else {
            Err(FieldError::new("amount", MESSAGE))
        }
    }

    /// A decimal number as typed, e.g. `"1500"` or `" 99.50 "`.
    pub fn parse_str(input: &str) -> Result<Self, FieldError> {
        input
            .trim()
            .parse::<f64>()
            .map_err(|_| FieldError::new("amount", MESSAGE))
            .and_then(Self::parse)
    }

    pub fn value(self) -> f64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_and_negative_amounts_are_refused() {
        for value in [0.0, -0.0, -1.0] {
            assert_eq!(BudgetAmount::parse(value).unwrap_err().message, MESSAGE);
        }
    }

    #[test]
    fn the_smallest_positive_amounts_are_accepted() {
        assert_eq!(BudgetAmount::parse(0.01).unwrap().value(), 0.01);
        assert_eq!(BudgetAmount::parse(1.0).unwrap().value(), 1.0);
    }

    #[test]
    fn non_finite_amounts_are_refused() {
        for value in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            assert_eq!(BudgetAmount::parse(value).unwrap_err().message, MESSAGE);
        }
    }

    #[test]
    fn decimal_strings_are_parsed() {
        assert_eq!(BudgetAmount::parse_str(" 99.50 ").unwrap().value(), 99.5);
        assert_eq!(BudgetAmount::parse_str("1500").unwrap().value(), 1500.0);
    }

    #[test]
    fn bad_strings_are_refused_with_the_amount_message() {
        for input in ["", "abc", "0", "-5", "NaN", "inf"] {
            let error = BudgetAmount::parse_str(input).unwrap_err();
            assert_eq!(error.message, MESSAGE, "input {input:?}");
            assert_eq!(error.field, "amount");
        }
    }
}
