//! Measures anomaly detection and forecasting on labelled synthetic series and prints the
//! tables of docs/ANOMALIES.md:
//!
//!     cargo run -p costscope-core --example anomaly_report [-- SEED [SERIES]]
//!
//! SEED defaults to 2 (the parameters were chosen on seed 1), SERIES to 300 with injected
//! anomalies plus as many without.

use costscope_core::anomaly::synthetic::{Kind, LabelledSeries, Scenario, Score};
use costscope_core::anomaly::{DailySeries, Detection, Detector};
use costscope_core::budget::BudgetPeriod;
use costscope_core::forecast::{backtest, ForecastParams};

fn main() {
    let mut args = std::env::args().skip(1);
    let seed: u64 = args
        .next()
        .map_or(2, |s| s.parse().expect("SEED is a number"));
    let count: u64 = args
        .next()
        .map_or(300, |s| s.parse().expect("SERIES is a number"));
    let detector = Detector::default();
    let injected: Vec<LabelledSeries> = (0..count)
        .map(|i| Scenario::injected().generate(seed, i))
        .collect();
    let clean: Vec<LabelledSeries> = (0..count)
        .map(|i| Scenario::clean().generate(seed, i))
        .collect();
    let scan = |set: &[LabelledSeries]| -> Vec<Detection> {
        set.iter().map(|l| detector.scan(&l.series)).collect()
    };
    let (injected_scans, clean_scans) = (scan(&injected), scan(&clean));

    println!(
        "Seed {seed}: {count} series with injected anomalies, {count} without; 240 days each."
    );
    println!("Detector: {:?}", detector.params);
    println!(
        "Thresholds: {:.0} % and {:.0} a day\n",
        detector.thresholds.relative() * 100.0,
        detector.thresholds.absolute()
    );

    anomaly_tables(&injected, &injected_scans, &clean, &clean_scans);
    forecast_tables(&injected, &clean);
}

fn score(set: &[LabelledSeries], scans: &[Detection], mut score: Score) -> Score {
    for (labelled, detection) in set.iter().zip(scans) {
        score.add(labelled, detection);
    }
    score
}

fn anomaly_tables(
    injected: &[LabelledSeries],
    injected_scans: &[Detection],
    clean: &[LabelledSeries],
    clean_scans: &[Detection],
) {
    let strict = score(injected, injected_scans, Score::strict());
    let tolerant = score(injected, injected_scans, Score::tolerant());
    let quiet = score(clean, clean_scans, Score::strict());
    println!("Anomaly days (injected set)");
    println!("| scoring | precision | recall | TP | FP | FN | unscored flags |");
    println!("|---|---|---|---|---|---|---|");
    for (name, s) in [
        ("strict", &strict),
        ("tolerant (borderline days left out)", &tolerant),
    ] {
        println!(
            "| {name} | {:.3} | {:.3} | {} | {} | {} | {} |",
            s.precision(),
            s.recall(),
            s.true_positives,
            s.false_positives,
            s.false_negatives,
            s.unscored_flags
        );
    }
    println!(
        "\nBorderline days left out by the tolerant scoring: {}.",
        tolerant.unscored_borderline_days
    );
    println!(
        "Events: {} of {} injected anomalies found ({:.3}), first flag {:.2} days after the first anomalous day on average.",
        strict.events_found,
        strict.events,
        strict.event_recall(),
        strict.mean_delay_days()
    );
    for (name, s) in [("strict", &strict), ("tolerant", &tolerant)] {
        println!(
            "Alerts (runs of flagged days), {name}: {} with an anomalous day, {} with only normal days, alert precision {:.3}.",
            s.true_alerts,
            s.false_alerts,
            s.alert_precision()
        );
    }
    println!();

    println!(
        "False alarms on the {} series without injections",
        clean.len()
    );
    println!("| series-months | false days | false alerts | false days / series-month | false alerts / series-month |");
    println!("|---|---|---|---|---|");
    let months = quiet.normal_days as f64 / (365.25 / 12.0);
    println!(
        "| {:.0} | {} | {} | {:.3} | {:.3} |\n",
        months,
        quiet.false_positives,
        quiet.false_alerts,
        quiet.false_alarm_days_per_month(),
        quiet.false_alarms_per_month()
    );

    println!("Recall of anomalous days by kind and size (strict; size = extra cost / average day)");
    println!("| kind | size < 0.6 | 0.6 – 1.2 | ≥ 1.2 | all |");
    println!("|---|---|---|---|---|");
    for kind in Kind::ALL {
        let mut row = format!("| {} |", kind.name());
        let buckets: [(f64, f64); 4] = [(0.0, 0.6), (0.6, 1.2), (1.2, f64::MAX), (0.0, f64::MAX)];
        for (low, high) in buckets {
            let (mut days, mut hits) = (0, 0);
            for (labelled, detection) in injected.iter().zip(injected_scans) {
                for event in &labelled.events {
                    let size = event.injection.size;
                    if event.injection.kind != kind || size < low || size >= high {
                        continue;
                    }
                    days += event.anomalous_days.len();
                    hits += event
                        .anomalous_days
                        .iter()
                        .filter(|&&d| detection.days[d].is_anomalous())
                        .count();
                }
            }
            row += &format!(" {:.3} ({days}) |", hits as f64 / days.max(1) as f64);
        }
        println!("{row}");
    }
    println!();
}

fn forecast_tables(injected: &[LabelledSeries], clean: &[LabelledSeries]) {
    let params = ForecastParams::default();
    println!("Forecast: {params:?}\n");
    let series = |set: &[LabelledSeries]| -> Vec<DailySeries> {
        set.iter().map(|l| l.series.clone()).collect()
    };
    let (injected, clean) = (series(injected), series(clean));
    println!("Month-end forecast, every month from the third (interval: 80 %)");
    println!(
        "| series | days into the month | cases | MAPE | interval coverage | mean interval width |"
    );
    println!("|---|---|---|---|---|---|");
    for (name, set) in [
        ("without anomalies", &clean),
        ("with injected anomalies", &injected),
    ] {
        for accuracy in backtest(set, BudgetPeriod::Monthly, &[7, 14, 21], 56, &params) {
            println!(
                "| {name} | {} | {} | {:.1} % | {:.1} % | {:.1} % |",
                accuracy.days_into,
                accuracy.cases,
                accuracy.mape * 100.0,
                accuracy.coverage * 100.0,
                accuracy.mean_width * 100.0
            );
        }
    }
    println!("\nQuarter-end forecast (Q2 2024 of each series)");
    println!("| series | days into the quarter | cases | MAPE | interval coverage | mean interval width |");
    println!("|---|---|---|---|---|---|");
    for (name, set) in [
        ("without anomalies", &clean),
        ("with injected anomalies", &injected),
    ] {
        for accuracy in backtest(set, BudgetPeriod::Quarterly, &[30, 60], 56, &params) {
            println!(
                "| {name} | {} | {} | {:.1} % | {:.1} % | {:.1} % |",
                accuracy.days_into,
                accuracy.cases,
                accuracy.mape * 100.0,
                accuracy.coverage * 100.0,
                accuracy.mean_width * 100.0
            );
        }
    }
}
