//! How far the rest of a period may land from its expected cost: measured on the series' own
//! past by forecasting from earlier origins (a rolling-origin backtest).

use crate::anomaly::stats::{median, quantile, MAD_TO_SIGMA};
use crate::anomaly::weekday::WeekdayProfile;

use super::model::Model;
use super::ForecastParams;

/// z of the standard normal distribution with a two-sided probability `coverage` between
/// -z and z, by bisection on the distribution function.
fn normal_quantile(coverage: f64) -> f64 {
    let target = 0.5 + coverage.clamp(0.0, 0.999_999) / 2.0;
    let (mut low, mut high) = (0.0_f64, 10.0_f64);
    for _ in 0..60 {
        let mid = (low + high) / 2.0;
        if normal_cdf(mid) < target {
            low = mid;
        } else {
            high = mid;
        }
    }
    (low + high) / 2.0
}

/// Standard normal distribution function from erfc (Abramowitz and Stegun 7.1.26, absolute
/// error under 1.5e-7).
fn normal_cdf(x: f64) -> f64 {
    let z = x.abs() / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.327_591_1 * z);
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let erfc = poly * (-z * z).exp();
    if x >= 0.0 {
        1.0 - erfc / 2.0
    } else {
        erfc / 2.0
    }
}

/// Ratios (low, high) to multiply the expected cost of the `horizon` days after `origin` by,
/// for an interval holding the actual cost with the probability `params.coverage`.
///
/// From each of the last `backtest_origins` past origins whose next `h` days are known, the
/// model forecasts those days and the log ratio actual / forecast is kept; the interval is
/// between the ratios' quantiles, widened by `interval_widening`. `h` is the horizon, or the
/// longest horizon with `min_backtest_origins` origins when the history is shorter; the
/// quantiles of a shorter horizon are scaled by √(horizon / h), as for a level that wanders.
/// With too little history, the spread of the days around the level stands in.
pub(crate) fn ratios(
    values: &[f64],
    first_weekday: usize,
    origin: usize,
    horizon: usize,
    params: &ForecastParams,
) -> (f64, f64) {
    if horizon == 0 {
        return (1.0, 1.0);
    }
    let tail = (1.0 - params.coverage) / 2.0;
    // Origins need a history of their own: at least two weeks.
    let earliest = params.min_history_days.max(14) - 1;
    let available = origin.saturating_sub(earliest);
    let longest = available.saturating_sub(params.min_backtest_origins) + 1;
    let measured = horizon.min(longest);
    if available >= params.min_backtest_origins && measured >= 1 {
        let mut errors = Vec::new();
        for back in 0..params.backtest_origins {
            let Some(past) = origin.checked_sub(measured + back) else {
                break;
            };
            if past < earliest {
                break;
            }
            let Some(model) = Model::fit(values, first_weekday, past, params) else {
                continue;
            };
            let forecast = model.sum(measured);
            let actual: f64 = values[past + 1..=past + measured].iter().sum();
            if forecast > 0.0 && actual > 0.0 {
                errors.push((actual / forecast).ln());
            }
        }
        if errors.len() >= params.min_backtest_origins {
            let scale = (horizon as f64 / measured as f64).sqrt() * params.interval_widening;
            let low = quantile(errors.iter().copied(), tail)
                .unwrap_or(0.0)
                .min(0.0);
            let high = quantile(errors.iter().copied(), 1.0 - tail)
                .unwrap_or(0.0)
                .max(0.0);
            return ((low * scale).exp(), (high * scale).exp());
        }
    }
    // Few days known: the days' own spread around the level, for a sum of `horizon` days
    // whose level is itself estimated from as few days, doubled like the young anomaly band.
    let known = &values[..=origin];
    let profile = WeekdayProfile::estimate(known, first_weekday);
    let logs: Vec<f64> = known
        .iter()
        .enumerate()
        .filter_map(|(i, &v)| profile.deseasonalise(v, first_weekday + i))
        .filter(|v| *v > 0.0)
        .map(f64::ln)
        .collect();
    let center = median(logs.iter().copied()).unwrap_or(0.0);
    let sigma = MAD_TO_SIGMA * median(logs.iter().map(|l| (l - center).abs())).unwrap_or(0.0);
    let n = logs.len().max(1) as f64;
    let spread = 2.0 * sigma * (1.0 / horizon as f64 + 1.0 / n).sqrt();
    let z = normal_quantile(params.coverage);
    ((-z * spread).exp(), (z * spread).exp())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normal_quantiles_match_the_tables() {
        assert!((normal_quantile(0.8) - 1.281_55).abs() < 1e-4);
        assert!((normal_quantile(0.95) - 1.959_96).abs() < 1e-4);
        assert!((normal_cdf(0.0) - 0.5).abs() < 1e-7);
    }

    #[test]
    fn no_days_left_means_no_uncertainty() {
        let values = vec![100.0; 60];
        assert_eq!(
            ratios(&values, 0, 59, 0, &ForecastParams::default()),
            (1.0, 1.0)
        );
    }

    #[test]
    fn a_noiseless_history_gives_a_point_interval_and_noise_widens_it() {
        let params = ForecastParams::default();
        let flat = vec![100.0; 120];
        let (low, high) = ratios(&flat, 0, 119, 20, &params);
        assert!((low - 1.0).abs() < 1e-9 && (high - 1.0).abs() < 1e-9);
        let mut rng = crate::anomaly::synthetic::Rng::new(1);
        let noisy: Vec<f64> = (0..120)
            .map(|_| 100.0 * (0.1 * rng.normal()).exp())
            .collect();
        let (low, high) = ratios(&noisy, 0, 119, 20, &params);
        assert!(low < 0.99 && high > 1.01, "{low} {high}");
        // A horizon longer than any the history can check (93 days here, with 14 origins)
        // takes the longest one's errors, scaled by the square root of the ratio.
        let (longest_low, longest_high) = ratios(&noisy, 0, 119, 93, &params);
        let (far_low, far_high) = ratios(&noisy, 0, 119, 372, &params);
        assert!((far_low.ln() - 2.0 * longest_low.ln()).abs() < 1e-9);
        assert!((far_high.ln() - 2.0 * longest_high.ln()).abs() < 1e-9);
    }

    #[test]
    fn a_young_series_falls_back_on_the_spread_of_its_days() {
        let params = ForecastParams::default();
        let noisy: Vec<f64> = (0..10)
            .map(|i| 100.0 * [1.0, 1.2, 0.85, 1.1, 0.9][i % 5])
            .collect();
        let (low, high) = ratios(&noisy, 0, 9, 20, &params);
        assert!(low < 0.95 && high > 1.05, "{low} {high}");
    }
}
