//! Precision, recall and false alarms of a detector's verdicts against the truth.

use super::{LabelledSeries, Truth};
use crate::anomaly::Detection;

/// Average days in a month, for false alarms per series-month.
const DAYS_PER_MONTH: f64 = 365.25 / 12.0;

/// Counts over many labelled series.
///
/// Days without a verdict (too little history) and [`Truth::Settling`] days are not scored;
/// with `skip_borderline`, borderline days are not scored either. Flags on unscored days are
/// counted apart.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Score {
    pub skip_borderline: bool,
    pub series: usize,
    /// Normal days with a verdict: the exposure for false alarms.
    pub normal_days: usize,
    pub true_positives: usize,
    pub false_positives: usize,
    pub false_negatives: usize,
    /// Flags on settling or (when skipped) borderline days.
    pub unscored_flags: usize,
    /// Borderline days left out (when skipped).
    pub unscored_borderline_days: usize,
    /// Runs of consecutive flagged days (what reaches people as one alert) with an anomalous
    /// day, and runs whose scored days are all normal.
    pub true_alerts: usize,
    pub false_alerts: usize,
    /// Injections with at least one anomalous day.
    pub events: usize,
    /// Of those, the ones with at least one anomalous day flagged.
    pub events_found: usize,
    /// Sum over found events of days from the first anomalous day to the first flagged one.
    pub delay_days: usize,
}

/// What one scored day was.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Scored {
    Normal,
    Anomalous,
    Unscored,
}

impl Score {
    /// Every day with a verdict counts, on its side of the boundary.
    pub fn strict() -> Self {
        Self::default()
    }

    /// Borderline days are left out.
    pub fn tolerant() -> Self {
        Self {
            skip_borderline: true,
            ..Self::default()
        }
    }

    /// Adds one series' verdicts.
    pub fn add(&mut self, labelled: &LabelledSeries, detection: &Detection) {
        self.series += 1;
        // The current run of flagged days: (has an anomalous day, has a normal day).
        let mut run: Option<(bool, bool)> = None;
        for (index, judgement) in detection.days.iter().enumerate() {
            let flagged = judgement.is_anomalous();
            let scored = if judgement.band.is_none() {
                Scored::Unscored
            } else if self.skip_borderline && labelled.borderline[index] {
                self.unscored_borderline_days += 1;
                Scored::Unscored
            } else {
                match labelled.truth[index] {
                    Truth::Normal => Scored::Normal,
                    Truth::Anomalous => Scored::Anomalous,
                    Truth::Settling => Scored::Unscored,
                }
            };
            match (scored, flagged) {
                (Scored::Normal, true) => self.false_positives += 1,
                (Scored::Anomalous, true) => self.true_positives += 1,
                (Scored::Anomalous, false) => self.false_negatives += 1,
                (Scored::Unscored, true) => self.unscored_flags += 1,
                (Scored::Normal | Scored::Unscored, false) => {}
            }
            if scored == Scored::Normal {
                self.normal_days += 1;
            }
            if flagged {
                let (hit, miss) = run.get_or_insert((false, false));
                *hit |= scored == Scored::Anomalous;
                *miss |= scored == Scored::Normal;
            } else if let Some(done) = run.take() {
                self.close_run(done);
            }
        }
        if let Some(done) = run {
            self.close_run(done);
        }
        for event in &labelled.events {
            let Some(&first) = event.anomalous_days.first() else {
                continue;
            };
            self.events += 1;
            let found = event
                .anomalous_days
                .iter()
                .find(|&&d| detection.days[d].is_anomalous());
            if let Some(&found) = found {
                self.events_found += 1;
                self.delay_days += found - first;
            }
        }
    }

    fn close_run(&mut self, (hit, miss): (bool, bool)) {
        if hit {
            self.true_alerts += 1;
        } else if miss {
            self.false_alerts += 1;
        }
    }

    /// Flagged days that are anomalous; 1 when nothing was flagged.
    pub fn precision(&self) -> f64 {
        ratio(
            self.true_positives,
            self.true_positives + self.false_positives,
        )
    }

    /// Anomalous days that were flagged; 1 when there were none.
    pub fn recall(&self) -> f64 {
        ratio(
            self.true_positives,
            self.true_positives + self.false_negatives,
        )
    }

    /// Alerts (runs of flagged days) that point at an anomaly.
    pub fn alert_precision(&self) -> f64 {
        ratio(self.true_alerts, self.true_alerts + self.false_alerts)
    }

    /// Injections found (any of their anomalous days flagged).
    pub fn event_recall(&self) -> f64 {
        ratio(self.events_found, self.events)
    }

    /// Mean days from an event's first anomalous day to its first flag, over found events.
    pub fn mean_delay_days(&self) -> f64 {
        if self.events_found == 0 {
            0.0
        } else {
            self.delay_days as f64 / self.events_found as f64
        }
    }

    /// False-positive days per series-month of normal days.
    pub fn false_alarm_days_per_month(&self) -> f64 {
        per_month(self.false_positives, self.normal_days)
    }

    /// False alerts per series-month of normal days.
    pub fn false_alarms_per_month(&self) -> f64 {
        per_month(self.false_alerts, self.normal_days)
    }
}

fn ratio(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        1.0
    } else {
        part as f64 / whole as f64
    }
}

fn per_month(count: usize, days: usize) -> f64 {
    if days == 0 {
        0.0
    } else {
        count as f64 * DAYS_PER_MONTH / days as f64
    }
}
