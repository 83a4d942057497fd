use super::*;
use crate::anomaly::Detector;

/// A flat, quiet profile (1 000 a day, 2 % noise) for hand-placed injections.
fn quiet() -> Profile {
    Profile {
        level: 1_000.0,
        weekday: [1.0; 7],
        growth_per_day: 0.0,
        noise: 0.02,
        cut: None,
    }
}

fn build(injections: Vec<Injection>) -> LabelledSeries {
    Scenario::clean().build(&mut Rng::new(11), quiet(), injections)
}

fn injection(kind: Kind, start: usize, length: usize, size: f64) -> Injection {
    Injection {
        kind,
        start,
        length,
        size,
        with_weekday: false,
    }
}

fn days_with(labelled: &LabelledSeries, truth: Truth) -> Vec<usize> {
    (0..labelled.truth.len())
        .filter(|&d| labelled.truth[d] == truth)
        .collect()
}

#[test]
fn the_same_seed_and_index_give_the_same_series() {
    let scenario = Scenario::injected();
    assert_eq!(scenario.generate(5, 3), scenario.generate(5, 3));
    assert_ne!(
        scenario.generate(5, 3).series,
        scenario.generate(5, 4).series
    );
    assert_ne!(
        scenario.generate(5, 3).series,
        scenario.generate(6, 3).series
    );
}

#[test]
fn clean_series_are_all_normal_and_injected_ones_have_an_event_per_slot() {
    for index in 0..50 {
        let clean = Scenario::clean().generate(1, index);
        assert!(clean.events.is_empty());
        assert!(clean.truth.iter().all(|t| *t == Truth::Normal));
        assert!(clean.series.values().iter().all(|v| *v > 0.0));
        let injected = Scenario::injected().generate(1, index);
        assert_eq!(injected.events.len(), (240 - WARM_UP_DAYS) / SLOT_DAYS);
        assert!(injected
            .events
            .iter()
            .all(|e| e.injection.start >= WARM_UP_DAYS));
    }
}

#[test]
fn the_weekday_pattern_averages_one() {
    for index in 0..50 {
        let profile = Scenario::clean().generate(2, index).profile;
        let mean = profile.weekday.iter().sum::<f64>() / 7.0;
        assert!((mean - 1.0).abs() < 1e-9);
    }
}

#[test]
fn a_spike_is_anomalous_on_its_days_only() {
    let labelled = build(vec![injection(Kind::Spike, 100, 2, 1.5)]);
    assert_eq!(days_with(&labelled, Truth::Anomalous), vec![100, 101]);
    assert_eq!(labelled.events[0].anomalous_days, vec![100, 101]);
    assert_eq!(labelled.extra[100], 1_500.0);
    assert_eq!(labelled.extra[102], 0.0);
}

#[test]
fn a_spike_under_the_margins_is_normal() {
    // +15 %: under the relative margin of 20 %.
    let labelled = build(vec![injection(Kind::Spike, 100, 1, 0.15)]);
    assert!(days_with(&labelled, Truth::Anomalous).is_empty());
    assert!(labelled.events[0].anomalous_days.is_empty());
    // +30 % is over both margins, clearly over the 2 % noise.
    let labelled = build(vec![injection(Kind::Spike, 100, 1, 0.3)]);
    assert_eq!(days_with(&labelled, Truth::Anomalous), vec![100]);
    assert!(!labelled.borderline[100]);
}

#[test]
fn a_step_is_anomalous_for_its_first_days_then_settles_then_is_normal() {
    let labelled = build(vec![injection(Kind::Step, 100, 1, 1.0)]);
    let labelled_end = 100 + LABELLED_SHIFT_DAYS;
    assert_eq!(
        days_with(&labelled, Truth::Anomalous),
        (100..labelled_end).collect::<Vec<_>>()
    );
    assert_eq!(
        days_with(&labelled, Truth::Settling),
        (labelled_end..labelled_end + SETTLING_DAYS).collect::<Vec<_>>()
    );
    assert_eq!(labelled.truth[labelled_end + SETTLING_DAYS], Truth::Normal);
}

#[test]
fn a_second_step_is_measured_from_the_first() {
    // +100 %, then +15 % of the original level: 7.5 % on the new normal, under the margins.
    let labelled = build(vec![
        injection(Kind::Step, 80, 1, 1.0),
        injection(Kind::Step, 150, 1, 0.15),
    ]);
    assert_eq!(labelled.events[0].anomalous_days.len(), LABELLED_SHIFT_DAYS);
    assert!(labelled.events[1].anomalous_days.is_empty());
}

#[test]
fn a_fast_drift_is_anomalous_once_it_clears_the_margins() {
    // +200 % over 10 days: +20 % a day, over the margins of its own past from day 2 on.
    let labelled = build(vec![injection(Kind::Drift, 100, 10, 2.0)]);
    let days = &labelled.events[0].anomalous_days;
    assert_eq!(days.len(), LABELLED_SHIFT_DAYS);
    assert_eq!(days[0], 101);
    // Day 101 is +40 %, far from the boundary (+20 %) for 2 % noise.
    assert!(!labelled.borderline[101]);
}

#[test]
fn a_slow_drift_is_growth_not_an_anomaly() {
    // +30 % over 60 days: never 20 % above the median of its previous four weeks.
    let labelled = build(vec![injection(Kind::Drift, 70, 60, 0.3)]);
    assert!(labelled.events[0].anomalous_days.is_empty());
    assert!(days_with(&labelled, Truth::Settling).is_empty());
}

#[test]
fn days_near_the_boundary_are_borderline() {
    // +21 % against a boundary of +20 % with 2 % noise: within one noise deviation.
    let labelled = build(vec![injection(Kind::Spike, 100, 1, 0.21)]);
    assert_eq!(labelled.truth[100], Truth::Anomalous);
    assert!(labelled.borderline[100]);
}

/// The measurement docs/ANOMALIES.md reports, on seeds other than the one the parameters were
/// chosen on: 300 series with injections and 300 without, eight months each. The bounds are
/// the measured figures rounded down.
#[test]
fn detector_accuracy_on_the_labelled_set() {
    let detector = Detector::default();
    let mut strict = Score::strict();
    let mut tolerant = Score::tolerant();
    let mut clean = Score::strict();
    for index in 0..300 {
        let injected = Scenario::injected().generate(REPORT_SEED, index);
        let detection = detector.scan(&injected.series);
        strict.add(&injected, &detection);
        tolerant.add(&injected, &detection);
        let quiet = Scenario::clean().generate(REPORT_SEED, index);
        clean.add(&quiet, &detector.scan(&quiet.series));
    }
    let figures = format!(
        "strict {:.3}/{:.3}, tolerant {:.3}/{:.3}, events {:.3}, clean false alarms {:.3}/month",
        strict.precision(),
        strict.recall(),
        tolerant.precision(),
        tolerant.recall(),
        tolerant.event_recall(),
        clean.false_alarms_per_month()
    );
    assert!(tolerant.precision() >= 0.9, "{figures}");
    assert!(tolerant.recall() >= 0.9, "{figures}");
    assert!(tolerant.event_recall() >= 0.9, "{figures}");
    assert!(strict.precision() >= STRICT_BOUND, "{figures}");
    assert!(strict.recall() >= STRICT_BOUND, "{figures}");
    assert!(clean.false_alarms_per_month() <= 0.1, "{figures}");
    assert!(clean.events == 0 && clean.true_positives == 0);
}

/// The seed of the reported measurement (the parameters were chosen on seed 1).
const REPORT_SEED: u64 = 2;
const STRICT_BOUND: f64 = 0.85;
