//! Which days of a series cost more than their baseline allows, and since when.

use std::collections::VecDeque;

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

use super::baseline::{expectation, noise, Band, DetectorParams};
use super::series::DailySeries;
use super::thresholds::Thresholds;

/// One anomalous day, as the anomaly list and its notification show it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Anomaly {
    pub day: NaiveDate,
    pub actual: f64,
    pub expected: f64,
    pub low: f64,
    pub high: f64,
    /// First day of the run of consecutive anomalous days this one belongs to.
    pub since: NaiveDate,
}

/// One judged (or not yet judgeable) day: what the chart of the expected band draws.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DayJudgement {
    pub day: NaiveDate,
    pub actual: f64,
    /// `None` while the series is too young to have a baseline.
    pub band: Option<Band>,
    /// Set on an anomalous day: the first day of its run.
    pub since: Option<NaiveDate>,
}

impl DayJudgement {
    pub fn is_anomalous(&self) -> bool {
        self.since.is_some()
    }

    pub fn anomaly(&self) -> Option<Anomaly> {
        let band = self.band?;
        Some(Anomaly {
            day: self.day,
            actual: self.actual,
            expected: band.expected,
            low: band.low,
            high: band.high,
            since: self.since?,
        })
    }
}

/// Every day of a scanned series with its band and verdict.
#[derive(Debug, Clone, PartialEq)]
pub struct Detection {
    pub days: Vec<DayJudgement>,
}

impl Detection {
    pub fn anomalies(&self) -> impl Iterator<Item = Anomaly> + '_ {
        self.days.iter().filter_map(DayJudgement::anomaly)
    }

    /// The anomalies on `first..=last`: what a store keeps after a load, having scanned
    /// [`Detector::lookback_days`] before `first`.
    pub fn anomalies_between(
        &self,
        first: NaiveDate,
        last: NaiveDate,
    ) -> impl Iterator<Item = Anomaly> + '_ {
        self.anomalies()
            .filter(move |a| (first..=last).contains(&a.day))
    }
}

/// Flags the days that are above the expected cost by both of the tenant's margins **and**
/// outside the baseline's band (docs/ANOMALIES.md has the method and its measured accuracy).
///
/// A day is outside the band when its log error is above `band_sigmas` standard deviations,
/// or when it closes a run of up to `run_days` consecutive days, each above the margins, whose
/// mean log error is above `band_sigmas / √n`: a step or a drift that no single day shows
/// beyond the noise is still flagged.
///
/// The scan walks the series in order because the baseline has state. The band is measured
/// from the prediction errors of recent calm days. And the baseline has a *regime start*:
/// normally it is the last `window_days`; once an episode reaches `adapt_after_days`
/// anomalous days (a step change or a sustained incident), the regime restarts at the
/// episode's first day, so from then on the baseline is the new level and the change stops
/// being flagged. Shorter spikes never enter the baseline's median enough to move it.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Detector {
    pub thresholds: Thresholds,
    pub params: DetectorParams,
}

/// Anomalous days close together, counted towards adaptation.
#[derive(Debug, Clone, Copy)]
struct Episode {
    start: usize,
    last_flagged: usize,
    flagged_days: usize,
}

impl Detector {
    pub fn new(thresholds: Thresholds) -> Self {
        Self {
            thresholds,
            params: DetectorParams::default(),
        }
    }

    /// Days to scan before the first day whose verdict is kept: enough for the baseline, the
    /// weekday pattern and the full error history of that day. (A verdict can still depend
    /// on older days through an episode that began before them; after a calm stretch it
    /// does not.)
    pub fn lookback_days(&self) -> usize {
        self.params.weekday_window_days.max(self.params.window_days) + self.params.error_days
    }

    pub fn scan(&self, series: &DailySeries) -> Detection {
        let params = &self.params;
        let values = series.values();
        let mut days = Vec::with_capacity(values.len());
        let mut regime_start = 0;
        let mut episode: Option<Episode> = None;
        let mut run_since: Option<NaiveDate> = None;
        // Log errors of recent calm days, newest last.
        let mut errors: VecDeque<f64> = VecDeque::with_capacity(params.error_days + 1);
        // Scores of the latest days that were above the margins, newest last; a day below
        // them clears it.
        let mut rising: VecDeque<f64> = VecDeque::with_capacity(params.run_days + 1);
        for (index, &actual) in values.iter().enumerate() {
            if let Some(current) = episode {
                if index - current.last_flagged > params.episode_gap_days + 1 {
                    episode = None;
                } else if current.flagged_days >= params.adapt_after_days
                    && regime_start < current.start
                {
                    regime_start = current.start;
                }
            }
            let mut band = None;
            let mut anomalous = false;
            if let Some(expectation) = expectation(series, index, regime_start, params) {
                let noise = noise(&expectation, errors.make_contiguous(), params);
                let expected = expectation.expected;
                let judged = noise.band(expected, params.band_sigmas);
                band = Some(judged);
                let score = noise.score(actual, expected);
                match score {
                    Some(score) if self.thresholds.exceeded(actual, expected) => {
                        rising.push_back(score);
                        if rising.len() > params.run_days.max(1) {
                            rising.pop_front();
                        }
                        anomalous = actual > judged.high || self.run_outside(&rising);
                    }
                    _ => {
                        rising.clear();
                        anomalous =
                            self.thresholds.exceeded(actual, expected) && actual > judged.high;
                    }
                }
                if !anomalous && actual > 0.0 && expected > 0.0 {
                    errors.push_back((actual / expected).ln());
                    if errors.len() > params.error_days {
                        errors.pop_front();
                    }
                }
            } else {
                rising.clear();
            }
            let day = series.day(index);
            if anomalous {
                run_since.get_or_insert(day);
                let (start, flagged_days) =
                    episode.map_or((index, 0), |e| (e.start, e.flagged_days));
                episode = Some(Episode {
                    start,
                    last_flagged: index,
                    flagged_days: flagged_days + 1,
                });
            } else {
                run_since = None;
            }
            days.push(DayJudgement {
                day,
                actual,
                band,
                since: if anomalous { run_since } else { None },
            });
        }
        Detection { days }
    }

    /// Some run of the latest `n ≥ 2` rising days (today included) has a mean score above
    /// `band_sigmas / √n`, every day of it rising.
    fn run_outside(&self, rising: &VecDeque<f64>) -> bool {
        let mut sum = 0.0;
        for (n, score) in rising.iter().rev().enumerate() {
            if *score <= 0.0 {
                return false;
            }
            sum += score;
            let days = (n + 1) as f64;
            if n >= 1 && sum / days.sqrt() > self.params.band_sigmas {
                return true;
            }
        }
        false
    }
}

#[cfg(test)]
mod tests;
