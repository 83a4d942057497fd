//! Exact budget arithmetic. Amounts and spend arrive as `f64` dollars, and `29.0 / 100.0 * 100.0`
//! is `28.999999999999996`: a 29 % threshold compared on floating-point percentages is missed at
//! exactly 29 % spent. So every rule compares integer micro-units (millionths of a dollar and of
//! a percentage point) cross-multiplied, `spent × 100 ≥ percent × amount`, never a quotient.

use super::amount::BudgetAmount;

/// Millionths per unit: money is compared to the micro-dollar, percentages to the millionth of
/// a point. Finer differences (a sum's floating-point noise) do not count.
const MICROS: i128 = 1_000_000;

/// `value` in millionths, rounded to the nearest (halves away from zero). Non-finite values
/// saturate (NaN reads as 0), so the comparisons below never overflow into nonsense.
pub fn micros(value: f64) -> i128 {
    (value * MICROS as f64).round() as i128
}

/// A budget's spend against its amount, both in micro-dollars.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Usage {
    spent: i128,
    amount: i128,
}

impl Usage {
    pub fn new(spent: f64, amount: BudgetAmount) -> Self {
        Self {
            spent: micros(spent),
            // An amount is over 0 but may be under half a micro-dollar: keep it positive.
            amount: micros(amount.value()).max(1),
        }
    }

    /// Spend as a percentage of the amount, for display (`percentUsed`); over 100 when exceeded.
    /// Computed from the rounded micro-units, so 29.00 of 100.00 shows exactly 29.
    pub fn percent_used(&self) -> f64 {
        self.spent.saturating_mul(100) as f64 / self.amount as f64
    }

    /// `spent × 100 ≥ percent × amount`: at least `percent` % of the amount is spent.
    pub fn reaches_percent(&self, percent: f64) -> bool {
        self.spent_side() >= self.threshold_side(percent)
    }

    /// Strictly more than `percent` % of the amount is spent.
    pub fn exceeds_percent(&self, percent: f64) -> bool {
        self.spent_side() > self.threshold_side(percent)
    }

    /// At least `dollars` are spent.
    pub fn reaches_amount(&self, dollars: f64) -> bool {
        self.spent >= micros(dollars)
    }

    /// `spent × 100`, scaled by a million like a percentage in micro-units.
    fn spent_side(&self) -> i128 {
        self.spent.saturating_mul(100).saturating_mul(MICROS)
    }

    fn threshold_side(&self, percent: f64) -> i128 {
        micros(percent).saturating_mul(self.amount)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn usage(spent: f64, amount: f64) -> Usage {
        Usage::new(spent, BudgetAmount::parse(amount).unwrap())
    }

    #[test]
    fn floating_point_percentages_miss_exact_cent_thresholds() {
        // What the old `spent / amount * 100 >= value` compared.
        let old_percent_used = |spent: f64, amount: f64| spent / amount * 100.0;
        assert_eq!(old_percent_used(29.0, 100.0), 28.999999999999996);
        assert_eq!(old_percent_used(57.0, 100.0), 56.99999999999999);
        // A sum of cents drifts as well: 0.1 + 0.2 is 0.30000000000000004.
        let sum = |a: f64, b: f64| a + b;
        assert!(sum(0.1, 0.2) > 0.3);
    }

    #[test]
    fn exactly_29_and_57_percent_are_reached() {
        assert!(usage(29.0, 100.0).reaches_percent(29.0));
        assert!(usage(57.0, 100.0).reaches_percent(57.0));
        assert!(usage(0.29, 1.0).reaches_percent(29.0));
        assert!(usage(570.0, 1000.0).reaches_percent(57.0));
        assert!(!usage(28.99, 100.0).reaches_percent(29.0));
        assert!(!usage(56.99, 100.0).reaches_percent(57.0));
        assert_eq!(usage(29.0, 100.0).percent_used(), 29.0);
        assert_eq!(usage(57.0, 100.0).percent_used(), 57.0);
    }

    #[test]
    fn a_sum_with_floating_point_noise_counts_as_its_cents() {
        let spent = 0.1 + 0.2; // 0.30000000000000004
        assert!(!usage(spent, 1.0).exceeds_percent(30.0));
        assert!(usage(spent, 1.0).reaches_percent(30.0));
        let below = 28.999999999999996;
        assert!(usage(below, 100.0).reaches_percent(29.0));
    }

    #[test]
    fn fractional_percentages_and_amounts_compare_exactly() {
        assert!(usage(12.5, 100.0).reaches_percent(12.5));
        assert!(!usage(12.49, 100.0).reaches_percent(12.5));
        assert!(usage(333.33, 999.99).reaches_percent(33.333333));
    }

    #[test]
    fn exceeding_is_strict_and_reaching_is_not() {
        assert!(usage(100.0, 100.0).reaches_percent(100.0));
        assert!(!usage(100.0, 100.0).exceeds_percent(100.0));
        assert!(usage(100.01, 100.0).exceeds_percent(100.0));
    }

    #[test]
    fn absolute_thresholds_compare_micro_dollars() {
        assert!(usage(0.1 + 0.2, 10.0).reaches_amount(0.3));
        assert!(!usage(0.29, 10.0).reaches_amount(0.3));
    }

    #[test]
    fn huge_values_do_not_overflow() {
        let big = usage(f64::MAX, f64::MAX);
        assert!(big.reaches_percent(100.0));
        assert!(usage(1.0, f64::MAX).percent_used() >= 0.0);
        assert!(!usage(1.0, f64::MAX).reaches_percent(1.0));
    }
}
