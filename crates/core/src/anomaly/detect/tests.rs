use super::*;
use crate::anomaly::synthetic::Rng;

fn monday() -> NaiveDate {
    "2024-01-01".parse().unwrap()
}

/// `days` of an office workload from a Monday: `level` on weekdays, 40 % of it at weekends,
/// with 5 % log-normal noise from `seed`.
fn office(level: f64, days: usize, seed: u64) -> Vec<f64> {
    let mut rng = Rng::new(seed);
    (0..days)
        .map(|i| {
            let weekday = if i % 7 >= 5 { 0.4 } else { 1.0 };
            level * weekday * (0.05 * rng.normal()).exp()
        })
        .collect()
}

fn flagged_days(detection: &Detection) -> Vec<usize> {
    detection
        .days
        .iter()
        .enumerate()
        .filter(|(_, d)| d.is_anomalous())
        .map(|(i, _)| i)
        .collect()
}

#[test]
fn a_clean_weekly_pattern_with_noise_raises_next_to_nothing() {
    let mut false_days = Vec::new();
    for seed in 0..20 {
        let series = DailySeries::new(monday(), office(1_000.0, 180, seed));
        let detection = Detector::default().scan(&series);
        false_days.extend(flagged_days(&detection).into_iter().map(|day| (seed, day)));
        // Weekends are expected low, weekdays high.
        let saturday = detection.days[96].band.unwrap();
        let monday = detection.days[98].band.unwrap();
        assert!(
            saturday.expected < 0.5 * monday.expected,
            "{saturday:?} {monday:?}"
        );
    }
    // 20 series × 166 judged days: one flag is a day 3.2 σ above its mean in the first
    // month (seed 8, day 25), when the baseline is young; nothing once it has matured.
    assert!(false_days.len() <= 1, "{false_days:?}");
    assert!(
        false_days.iter().all(|&(_, day)| day < 42),
        "{false_days:?}"
    );
}

#[test]
fn a_spike_is_flagged_with_its_expected_cost_and_band() {
    let mut values = office(1_000.0, 120, 1);
    values[100] = 3_000.0; // a Wednesday
    let series = DailySeries::new(monday(), values);
    let detection = Detector::default().scan(&series);
    assert_eq!(flagged_days(&detection), vec![100]);
    let anomaly = detection.anomalies().next().unwrap();
    assert_eq!(anomaly.day, series.day(100));
    assert_eq!(anomaly.since, series.day(100));
    assert_eq!(anomaly.actual, 3_000.0);
    assert!((anomaly.expected - 1_000.0).abs() < 60.0, "{anomaly:?}");
    assert!(anomaly.low < anomaly.expected && anomaly.expected < anomaly.high);
    assert!(anomaly.high < 1_500.0, "{anomaly:?}");
}

#[test]
fn a_weekend_spike_is_judged_against_the_weekend() {
    let mut values = office(1_000.0, 120, 2);
    values[103] = 1_000.0; // a Saturday at a weekday's cost: 2.5 times its usual
    let series = DailySeries::new(monday(), values);
    let detection = Detector::default().scan(&series);
    assert_eq!(flagged_days(&detection), vec![103]);
}

#[test]
fn both_margins_must_be_exceeded() {
    // A cheap series tripling: +60 a day is under the absolute margin of 100.
    let mut cheap = office(30.0, 120, 3);
    cheap[100] = 90.0;
    let detection = Detector::default().scan(&DailySeries::new(monday(), cheap));
    assert!(flagged_days(&detection).is_empty());
    // An expensive series 15 % up: thousands above, but under the relative margin.
    let mut dear = vec![50_000.0; 120];
    dear[100] = 57_500.0;
    let detection = Detector::default().scan(&DailySeries::new(monday(), dear));
    assert!(flagged_days(&detection).is_empty());
    // The tenant can lower them.
    let mut dear = vec![50_000.0; 120];
    dear[100] = 57_500.0;
    let detector = Detector::new(Thresholds::new(0.1, 100.0).unwrap());
    let detection = detector.scan(&DailySeries::new(monday(), dear));
    assert_eq!(flagged_days(&detection), vec![100]);
}

#[test]
fn consecutive_anomalous_days_share_their_since() {
    let mut values = office(1_000.0, 120, 4);
    for value in &mut values[99..102] {
        *value = 2_500.0;
    }
    let series = DailySeries::new(monday(), values);
    let detection = Detector::default().scan(&series);
    assert_eq!(flagged_days(&detection), vec![99, 100, 101]);
    let since: Vec<NaiveDate> = detection.anomalies().map(|a| a.since).collect();
    assert_eq!(since, vec![series.day(99); 3]);
}

#[test]
fn anomalies_do_not_pull_the_baseline() {
    let mut values = office(1_000.0, 130, 5);
    for value in &mut values[99..102] {
        *value = 10_000.0;
    }
    let series = DailySeries::new(monday(), values);
    let detection = Detector::default().scan(&series);
    // A week after the spike, the next Wednesday is still expected at about 1 000.
    let band = detection.days[107].band.unwrap();
    assert!((band.expected - 1_000.0).abs() < 60.0, "{band:?}");
    assert!(band.high < 1_400.0, "{band:?}");
}

#[test]
fn a_step_is_flagged_for_a_week_of_days_then_becomes_the_new_normal() {
    let mut values = office(1_000.0, 160, 6);
    for value in &mut values[100..] {
        *value *= 2.0;
    }
    let series = DailySeries::new(monday(), values);
    let detector = Detector::default();
    let detection = detector.scan(&series);
    let flagged = flagged_days(&detection);
    assert_eq!(
        flagged,
        (100..100 + detector.params.adapt_after_days).collect::<Vec<_>>()
    );
    // From then on the new level is expected.
    let band = detection.days[150].band.unwrap();
    assert!(
        (band.expected / values_at(&series, 150) - 1.0).abs() < 0.15,
        "{band:?}"
    );
}

fn values_at(series: &DailySeries, index: usize) -> f64 {
    series.values()[index]
}

#[test]
fn a_spike_after_a_step_is_judged_against_the_new_level() {
    let mut values = office(1_000.0, 160, 7);
    for value in &mut values[100..] {
        *value *= 2.0;
    }
    values[141] = 2_300.0; // a Wednesday: +15 % on the new level, +130 % on the old one
    values[148] = 5_000.0; // the next Wednesday: +150 % on the new level
    let detection = Detector::default().scan(&DailySeries::new(monday(), values));
    let flagged = flagged_days(&detection);
    assert!(!flagged.contains(&141), "{flagged:?}");
    assert!(flagged.contains(&148), "{flagged:?}");
}

/// A calm series around 1 000 whose log noise cycles through fixed values (σ ≈ 0.1), so the
/// band is wide and known without luck in a random draw.
fn calm(days: usize) -> Vec<f64> {
    const CYCLE: [f64; 5] = [0.0, 0.12, -0.12, 0.06, -0.06];
    (0..days).map(|i| 1_000.0 * CYCLE[i % 5].exp()).collect()
}

#[test]
fn a_persistent_rise_within_the_band_is_flagged_by_the_run_rule() {
    let detector = Detector::default();
    let quiet = detector.scan(&DailySeries::new(monday(), calm(130)));
    assert!(flagged_days(&quiet).is_empty());
    // Three days each at three quarters of the band's height: no single day is outside.
    let band = quiet.days[100].band.unwrap();
    let rise = band.expected * ((band.high / band.expected).ln() * 0.75).exp();
    assert!(
        Thresholds::default().exceeded(rise, band.expected),
        "{band:?} {rise}"
    );
    let mut values = calm(130);
    for value in &mut values[100..103] {
        *value = rise;
    }
    let detection = detector.scan(&DailySeries::new(monday(), values.clone()));
    let flagged = flagged_days(&detection);
    assert!(!flagged.contains(&100), "{flagged:?}");
    assert!(
        flagged.contains(&101) && flagged.contains(&102),
        "{flagged:?}"
    );
    // Without the run rule the rise goes unseen.
    let single = Detector {
        params: DetectorParams {
            run_days: 1,
            ..DetectorParams::default()
        },
        ..detector
    };
    assert!(flagged_days(&single.scan(&DailySeries::new(monday(), values))).is_empty());
}

#[test]
fn a_young_series_is_not_judged() {
    let series = DailySeries::new(monday(), vec![500.0; 14]);
    let detection = Detector::default().scan(&series);
    assert!(detection.days.iter().all(|d| d.band.is_none()));
}

#[test]
fn a_new_cost_on_a_quiet_series_is_flagged() {
    let mut values = vec![0.0; 60];
    values.extend([800.0, 800.0]);
    let detection = Detector::default().scan(&DailySeries::new(monday(), values));
    assert_eq!(flagged_days(&detection), vec![60, 61]);
}

#[test]
fn a_scan_from_the_lookback_gives_the_same_verdicts() {
    let mut values = office(2_000.0, 400, 9);
    values[380] = 6_000.0;
    values[390] = 3_000.0;
    let full = DailySeries::new(monday(), values.clone());
    let detector = Detector::default();
    let first_kept = 370;
    let start = first_kept - detector.lookback_days();
    let tail = DailySeries::new(full.day(start), values[start..].to_vec());
    let everything: Vec<Anomaly> = detector
        .scan(&full)
        .anomalies_between(full.day(first_kept), full.end())
        .collect();
    let recent: Vec<Anomaly> = detector
        .scan(&tail)
        .anomalies_between(full.day(first_kept), full.end())
        .collect();
    assert_eq!(everything, recent);
    assert_eq!(everything.len(), 2);
}
