//! Robust statistics on small samples (a few weeks of days), shared with the forecast.

/// Scale that turns a median absolute deviation into a standard deviation for normal noise.
pub(crate) const MAD_TO_SIGMA: f64 = 1.4826;

/// The median; `None` for no values. Sorts a copy, which is cheap at a few dozen days.
pub(crate) fn median(values: impl IntoIterator<Item = f64>) -> Option<f64> {
    let mut sorted: Vec<f64> = values.into_iter().collect();
    sorted.sort_by(f64::total_cmp);
    let n = sorted.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(sorted[n / 2]),
        _ => Some((sorted[n / 2 - 1] + sorted[n / 2]) / 2.0),
    }
}

/// The `q` quantile (0 ≤ q ≤ 1) with linear interpolation between order statistics.
pub(crate) fn quantile(values: impl IntoIterator<Item = f64>, q: f64) -> Option<f64> {
    let mut sorted: Vec<f64> = values.into_iter().collect();
    if sorted.is_empty() {
        return None;
    }
    sorted.sort_by(f64::total_cmp);
    let position = q.clamp(0.0, 1.0) * (sorted.len() - 1) as f64;
    let below = position.floor() as usize;
    let above = position.ceil() as usize;
    let weight = position - below as f64;
    Some(sorted[below] * (1.0 - weight) + sorted[above] * weight)
}

/// Median and robust standard deviation (scaled median absolute deviation) together.
pub(crate) fn median_and_sigma(values: &[f64]) -> Option<(f64, f64)> {
    let center = median(values.iter().copied())?;
    let mad = median(values.iter().map(|v| (v - center).abs()))?;
    Some((center, MAD_TO_SIGMA * mad))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(median([3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median([4.0, 1.0, 3.0, 2.0]), Some(2.5));
        assert_eq!(median(std::iter::empty()), None);
    }

    #[test]
    fn quantile_interpolates() {
        let values = [0.0, 10.0, 20.0, 30.0, 40.0];
        assert_eq!(quantile(values, 0.0), Some(0.0));
        assert_eq!(quantile(values, 0.5), Some(20.0));
        assert_eq!(quantile(values, 0.9), Some(36.0));
        assert_eq!(quantile(values, 1.0), Some(40.0));
    }

    #[test]
    fn one_outlier_moves_neither_the_median_nor_the_sigma_much() {
        let calm = [100.0, 101.0, 99.0, 100.0, 102.0, 98.0, 100.0];
        let mut spiked = calm;
        spiked[3] = 10_000.0;
        let (m1, s1) = median_and_sigma(&calm).unwrap();
        let (m2, s2) = median_and_sigma(&spiked).unwrap();
        assert_eq!(m1, 100.0);
        assert!((m2 - m1).abs() <= 1.0);
        assert!((s2 - s1).abs() <= MAD_TO_SIGMA);
    }
}
