//! The daily-cost model a forecast extends: a recent level times the weekday pattern.

use crate::anomaly::stats::median;
use crate::anomaly::weekday::WeekdayProfile;
use crate::anomaly::DailySeries;

use super::ForecastParams;

/// What the next days are expected to cost, fitted on the days up to an origin.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Model {
    /// Cost of an average day (weekday factor 1) at the origin.
    level: f64,
    profile: WeekdayProfile,
    /// Weekday (0 = Monday) of the day after the origin.
    next_weekday: usize,
}

impl Model {
    /// The model of `values[..=origin]` (the origin is the last known day), whose position 0
    /// falls on weekday `first_weekday`: the median of the last `level_days` days, each divided
    /// by its weekday factor, and the weekday pattern of the last `weekday_window_days`.
    ///
    /// No trend term: measured on the synthetic series, a damped Theil–Sen slope made the
    /// month-end forecasts worse (docs/ANOMALIES.md). `None` without a single usable day.
    pub(crate) fn fit(
        values: &[f64],
        first_weekday: usize,
        origin: usize,
        params: &ForecastParams,
    ) -> Option<Self> {
        let known = &values[..=origin];
        let profile_start = known.len().saturating_sub(params.weekday_window_days);
        let profile =
            WeekdayProfile::estimate(&known[profile_start..], first_weekday + profile_start);
        let level_start = known.len().saturating_sub(params.level_days);
        let level = median(
            (level_start..known.len())
                .filter_map(|i| profile.deseasonalise(known[i], first_weekday + i)),
        )?;
        Some(Self {
            level: level.max(0.0),
            profile,
            next_weekday: (first_weekday + origin + 1) % 7,
        })
    }

    /// Expected cost `ahead` days after the origin (1 = the next day).
    pub(crate) fn day(&self, ahead: usize) -> f64 {
        let weekday = (self.next_weekday + ahead - 1) % 7;
        self.level * self.profile.factor(weekday)
    }

    /// Expected cost of the `days` days after the origin.
    pub(crate) fn sum(&self, days: usize) -> f64 {
        (1..=days).map(|ahead| self.day(ahead)).sum()
    }
}

/// A series' values and the weekday of its first day.
pub(crate) fn parts(series: &DailySeries) -> (&[f64], usize) {
    let first_weekday = if series.is_empty() {
        0
    } else {
        series.weekday_index(0)
    };
    (series.values(), first_weekday)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_next_days_follow_the_level_and_the_weekday_pattern() {
        // Four weeks from a Monday: 100 on weekdays, 30 at weekends.
        let values: Vec<f64> = (0..28)
            .map(|i| if i % 7 >= 5 { 30.0 } else { 100.0 })
            .collect();
        let model = Model::fit(&values, 0, 27, &ForecastParams::default()).unwrap();
        // Day 27 is a Sunday: the next day is a Monday.
        assert!((model.day(1) - 100.0).abs() < 1e-9);
        assert!((model.day(6) - 30.0).abs() < 1e-9);
        assert!((model.sum(7) - 560.0).abs() < 1e-9);
    }

    #[test]
    fn the_level_is_the_last_week_and_a_spike_does_not_move_it() {
        let mut values = vec![100.0; 28];
        for value in &mut values[21..] {
            *value = 200.0;
        }
        values[25] = 5_000.0;
        let model = Model::fit(&values, 0, 27, &ForecastParams::default()).unwrap();
        assert!((model.day(1) - 200.0).abs() < 1e-9, "{model:?}");
    }
}
