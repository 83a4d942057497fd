//! The weekday pattern of a daily series as multiplicative factors (weekend dips, Monday
//! batch jobs), shared by the anomaly baseline and the forecast.

use super::stats::median;

/// Factors below this carry too little signal to divide by: such weekdays (a service that
/// stops at weekends) are left out of level estimates, and their expected cost is ~0.
pub(crate) const MIN_USABLE_FACTOR: f64 = 0.05;

/// Fewest whole weeks that make a pattern; with less history every weekday counts 1.
const MIN_WEEKS: usize = 2;

/// Cost of each weekday (0 = Monday) relative to an average day: the factors average 1.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct WeekdayProfile {
    factors: [f64; 7],
}

impl WeekdayProfile {
    pub(crate) const FLAT: Self = Self { factors: [1.0; 7] };

    /// The pattern of `values`, whose first value falls on weekday `first_weekday`.
    ///
    /// The days are cut into whole weeks counted back from the last day. Each day is divided by
    /// its week's median, and a weekday's factor is the median of its ratios over the weeks. Both
    /// medians keep a spike or a step inside one week from bending the pattern, and ratios to
    /// the week (not to the whole window) keep a trend or a level change from leaking into it.
    pub(crate) fn estimate(values: &[f64], first_weekday: usize) -> Self {
        let weeks = values.len() / 7;
        if weeks < MIN_WEEKS {
            return Self::FLAT;
        }
        let skip = values.len() - weeks * 7;
        let mut ratios: [Vec<f64>; 7] = Default::default();
        for week in values[skip..].chunks_exact(7) {
            let Some(reference) = median(week.iter().copied()) else {
                continue;
            };
            if reference <= f64::EPSILON {
                continue;
            }
            for (offset, value) in week.iter().enumerate() {
                let weekday = (first_weekday + skip + offset) % 7;
                ratios[weekday].push(value.max(0.0) / reference);
            }
        }
        let mut factors = [1.0; 7];
        for (factor, weekday_ratios) in factors.iter_mut().zip(&ratios) {
            match median(weekday_ratios.iter().copied()) {
                Some(ratio) if weekday_ratios.len() >= MIN_WEEKS => *factor = ratio,
                // Too few weeks with a positive median: no pattern to speak of.
                _ => return Self::FLAT,
            }
        }
        let mean = factors.iter().sum::<f64>() / 7.0;
        if mean <= f64::EPSILON {
            return Self::FLAT;
        }
        Self {
            factors: factors.map(|f| f / mean),
        }
    }

    /// Factor of weekday `weekday` (0 = Monday).
    pub(crate) fn factor(&self, weekday: usize) -> f64 {
        self.factors[weekday % 7]
    }

    /// `value` on weekday `weekday` brought to an average day, or `None` on a weekday too
    /// quiet to scale up.
    pub(crate) fn deseasonalise(&self, value: f64, weekday: usize) -> Option<f64> {
        let factor = self.factor(weekday);
        (factor >= MIN_USABLE_FACTOR).then(|| value / factor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Four weeks from a Monday: 100 on weekdays, 40 at weekends.
    fn office_weeks(weeks: usize) -> Vec<f64> {
        (0..weeks * 7)
            .map(|i| if i % 7 >= 5 { 40.0 } else { 100.0 })
            .collect()
    }

    #[test]
    fn weekend_dip_becomes_factors_that_average_one() {
        let profile = WeekdayProfile::estimate(&office_weeks(4), 0);
        let average = (5.0 * 100.0 + 2.0 * 40.0) / 7.0;
        assert!((profile.factor(0) - 100.0 / average).abs() < 1e-9);
        assert!((profile.factor(6) - 40.0 / average).abs() < 1e-9);
        let sum: f64 = (0..7).map(|w| profile.factor(w)).sum();
        assert!((sum - 7.0).abs() < 1e-9);
    }

    #[test]
    fn weekdays_follow_the_first_day_and_partial_weeks_are_skipped() {
        // Starts on a Saturday with two extra leading days that are not a whole week.
        let mut values = vec![1_000.0, 1_000.0];
        values.extend(office_weeks(3).into_iter().cycle().skip(5).take(21));
        let profile = WeekdayProfile::estimate(&values, 3);
        // values[2] is a Saturday: 3 (Thursday) + 2.
        assert!(profile.factor(5) < profile.factor(0));
        assert!((profile.factor(5) - profile.factor(6)).abs() < 1e-9);
    }

    #[test]
    fn a_spike_does_not_bend_the_pattern() {
        let mut values = office_weeks(4);
        values[9] = 10_000.0; // one Wednesday
        let clean = WeekdayProfile::estimate(&office_weeks(4), 0);
        let spiked = WeekdayProfile::estimate(&values, 0);
        assert!((clean.factor(2) - spiked.factor(2)).abs() < 1e-9);
    }

    #[test]
    fn short_or_empty_history_is_flat() {
        assert_eq!(
            WeekdayProfile::estimate(&office_weeks(1), 0),
            WeekdayProfile::FLAT
        );
        assert_eq!(
            WeekdayProfile::estimate(&[0.0; 28], 0),
            WeekdayProfile::FLAT
        );
    }

    #[test]
    fn a_weekday_without_cost_is_not_scaled_up() {
        let values: Vec<f64> = (0..28)
            .map(|i| if i % 7 == 6 { 0.0 } else { 50.0 })
            .collect();
        let profile = WeekdayProfile::estimate(&values, 0);
        assert_eq!(profile.deseasonalise(10.0, 6), None);
        assert!(profile.deseasonalise(50.0, 0).is_some());
    }
}
