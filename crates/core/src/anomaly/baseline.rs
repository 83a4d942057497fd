//! The expected cost of one day, from the days before it, and the band around it.

use serde::{Deserialize, Serialize};

use super::series::DailySeries;
use super::stats::{median, median_and_sigma, MAD_TO_SIGMA};
use super::weekday::WeekdayProfile;

/// The knobs of the baseline and of how fast it accepts a new level. The defaults are the
/// ones measured in docs/ANOMALIES.md; the fields are public so a report can vary them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DetectorParams {
    /// Days of history whose median level makes the baseline.
    pub window_days: usize,
    /// Days of history the weekday pattern is read from (whole weeks, ≥ 2 of them).
    pub weekday_window_days: usize,
    /// A day is judged only once the series has this many days before it.
    pub min_history_days: usize,
    /// Half-width of the band in robust standard deviations of the log prediction error.
    pub band_sigmas: f64,
    /// Recent calm days whose prediction errors measure the band.
    pub error_days: usize,
    /// With fewer calm days than this, the band comes from the window's own spread, widened
    /// by `young_band_factor` for the uncertainty of a baseline built on little history.
    pub min_error_days: usize,
    pub young_band_factor: f64,
    /// Consecutive days above the margins that are judged together: their mean log error, with
    /// a band narrower by √n, can flag a persistent rise no single day shows.
    pub run_days: usize,
    /// An episode of this many anomalous days becomes the new normal: from then on the
    /// baseline is computed from the episode's first day onwards.
    pub adapt_after_days: usize,
    /// Anomalous days at most this many calm days apart belong to one episode (a step whose
    /// weekend days fall under the margins is still one episode).
    pub episode_gap_days: usize,
}

impl Default for DetectorParams {
    fn default() -> Self {
        Self {
            window_days: 28,
            weekday_window_days: 56,
            min_history_days: 14,
            band_sigmas: 3.5,
            error_days: 84,
            min_error_days: 14,
            young_band_factor: 2.0,
            run_days: 3,
            adapt_after_days: 7,
            episode_gap_days: 2,
        }
    }
}

/// What a day was expected to cost, and the band normal days fall in.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Band {
    pub expected: f64,
    pub low: f64,
    pub high: f64,
}

/// How far a day's cost may stray from its expected cost by chance.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Noise {
    /// Standard deviation of `ln(actual / expected)`: cost noise is proportional to the cost.
    Log(f64),
    /// Standard deviation of `actual - expected`, when nothing positive is expected.
    Linear(f64),
}

impl Noise {
    /// The band of `sigmas` standard deviations around `expected`.
    pub(crate) fn band(self, expected: f64, sigmas: f64) -> Band {
        match self {
            Noise::Log(sigma) => Band {
                expected,
                low: expected * (-sigmas * sigma).exp(),
                high: expected * (sigmas * sigma).exp(),
            },
            Noise::Linear(sigma) => Band {
                expected,
                low: expected - sigmas * sigma,
                high: expected + sigmas * sigma,
            },
        }
    }

    /// How many standard deviations `actual` is above `expected`; `None` when the noise is
    /// zero or the logarithm is undefined.
    pub(crate) fn score(self, actual: f64, expected: f64) -> Option<f64> {
        match self {
            Noise::Log(sigma) if sigma > 0.0 && actual > 0.0 && expected > 0.0 => {
                Some((actual / expected).ln() / sigma)
            }
            Noise::Linear(sigma) if sigma > 0.0 => Some((actual - expected) / sigma),
            _ => None,
        }
    }
}

/// A day's expected cost and the spread of the window it came from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Expectation {
    pub expected: f64,
    /// Robust standard deviation of the window's days around the level, at this day's weekday.
    pub spread: f64,
}

/// The expected cost of position `day`: the level of the window before it, times the weekday
/// factor of `day`.
///
/// The window is the last `window_days`, but not before `regime_start` (where an accepted
/// lasting change began). Level: each day is divided by its weekday factor (so the four
/// Mondays and four Sundays of a month all say something about it) and the median is taken;
/// anomalies, fewer than half of the days, do not move it. The weekday factors come from the
/// `weekday_window_days` before `day`, or only from the regime once it has two weeks. `None`
/// before `min_history_days` or without usable days.
pub(crate) fn expectation(
    series: &DailySeries,
    day: usize,
    regime_start: usize,
    params: &DetectorParams,
) -> Option<Expectation> {
    if day < params.min_history_days.max(1) {
        return None;
    }
    let values = series.values();
    let regime_start = regime_start.min(day);
    let window_start = regime_start.max(day.saturating_sub(params.window_days));
    // A new regime has its own weekday pattern (an always-on resource flattens a weekend
    // dip) once it has two weeks of it; until then the pattern from before is the best guess.
    let mut profile_start = day.saturating_sub(params.weekday_window_days);
    if day - regime_start >= 14 {
        profile_start = profile_start.max(regime_start);
    }
    let profile = WeekdayProfile::estimate(
        &values[profile_start..day],
        series.weekday_index(profile_start),
    );
    let levels: Vec<f64> = (window_start..day)
        .filter_map(|i| profile.deseasonalise(values[i], series.weekday_index(i)))
        .collect();
    let (level, sigma) = median_and_sigma(&levels)?;
    let factor = profile.factor(series.weekday_index(day));
    Some(Expectation {
        expected: level * factor,
        spread: sigma * factor,
    })
}

/// The noise of a day with `expectation`, from the log errors of recent calm days when there
/// are enough of them (they measure everything that makes a baseline wrong: noise, a thin
/// weekday pattern, a trend the median lags), else from the window's spread.
pub(crate) fn noise(expectation: &Expectation, errors: &[f64], params: &DetectorParams) -> Noise {
    if expectation.expected <= 0.0 {
        return Noise::Linear(params.young_band_factor * expectation.spread);
    }
    if errors.len() >= params.min_error_days {
        let mad = median(errors.iter().map(|e| e.abs())).unwrap_or(0.0);
        return Noise::Log(MAD_TO_SIGMA * mad);
    }
    Noise::Log(params.young_band_factor * expectation.spread / expectation.expected)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::NaiveDate;

    fn monday() -> NaiveDate {
        "2024-01-01".parse().unwrap()
    }

    #[test]
    fn no_expectation_before_enough_history() {
        let series = DailySeries::new(monday(), vec![100.0; 20]);
        let params = DetectorParams::default();
        assert_eq!(expectation(&series, 13, 0, &params), None);
        assert!(expectation(&series, 14, 0, &params).is_some());
    }

    #[test]
    fn expected_follows_the_weekday_pattern() {
        let values: Vec<f64> = (0..63)
            .map(|i| if i % 7 >= 5 { 300.0 } else { 1_000.0 })
            .collect();
        let series = DailySeries::new(monday(), values);
        let params = DetectorParams::default();
        let saturday = expectation(&series, 61, 0, &params).unwrap();
        let monday = expectation(&series, 56, 0, &params).unwrap();
        assert!((saturday.expected - 300.0).abs() < 1e-6, "{saturday:?}");
        assert!((monday.expected - 1_000.0).abs() < 1e-6, "{monday:?}");
        // A noiseless series has no spread.
        assert!(monday.spread.abs() < 1e-6);
    }

    #[test]
    fn a_regime_start_limits_the_window() {
        let mut values = vec![100.0; 40];
        values.extend(vec![500.0; 7]);
        let series = DailySeries::new(monday(), values);
        let params = DetectorParams::default();
        let rolling = expectation(&series, 47, 0, &params).unwrap();
        let regime = expectation(&series, 47, 40, &params).unwrap();
        assert!((rolling.expected - 100.0).abs() < 1e-6);
        assert!((regime.expected - 500.0).abs() < 1e-6);
    }

    #[test]
    fn the_band_is_symmetric_in_log_space() {
        let band = Noise::Log(0.1).band(1_000.0, 3.0);
        assert!((band.high / 1_000.0 - 0.3f64.exp()).abs() < 1e-12);
        assert!((1_000.0 / band.low - 0.3f64.exp()).abs() < 1e-12);
        assert!(
            (Noise::Log(0.1)
                .score(1_000.0 * 0.2f64.exp(), 1_000.0)
                .unwrap()
                - 2.0)
                .abs()
                < 1e-9
        );
        assert_eq!(Noise::Log(0.1).score(0.0, 1_000.0), None);
        assert_eq!(Noise::Linear(10.0).score(30.0, 0.0), Some(3.0));
    }

    #[test]
    fn noise_comes_from_errors_once_there_are_enough() {
        let params = DetectorParams::default();
        let expectation = Expectation {
            expected: 1_000.0,
            spread: 100.0,
        };
        let Noise::Log(young) = noise(&expectation, &[0.05; 13], &params) else {
            panic!("log noise expected");
        };
        assert!((young - params.young_band_factor * 0.1).abs() < 1e-12);
        let Noise::Log(sigma) = noise(&expectation, &[-0.05; 14], &params) else {
            panic!("log noise expected");
        };
        assert!((sigma - MAD_TO_SIGMA * 0.05).abs() < 1e-12);
        let nothing = Expectation {
            expected: 0.0,
            spread: 4.0,
        };
        assert_eq!(
            noise(&nothing, &[], &params),
            Noise::Linear(params.young_band_factor * 4.0)
        );
    }
}
