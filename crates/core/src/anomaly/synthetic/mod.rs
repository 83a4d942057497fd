//! Labelled synthetic cost series, deterministic by seed: realistic daily costs (a level,
//! a weekday pattern with weekend dips or a batch day, growth or decline, log-normal noise, the
//! odd cost cut) with injected spikes, step changes and gradual drifts, and for every day the
//! truth of whether it is an anomaly. The tests, `examples/anomaly_report.rs` and the demo data
//! generator use it; docs/ANOMALIES.md states the ranges drawn from.
//!
//! **Truth** is the definition of an anomaly applied with perfect knowledge: a day is
//! [`Truth::Anomalous`] when its noise-free cost exceeds its *reference* by both margins of the
//! [`Thresholds`] and by the series' true noise band (`band_sigmas` standard deviations of the
//! log-normal noise). The reference is the larger of the noise-free cost without this injection
//! (with earlier lasting changes, which are the new normal by then) and the median of the
//! [`REFERENCE_DAYS`] before, weekday-adjusted: a drift slow enough to stay within the margins of
//! its own recent past is growth, not an anomaly.
//!
//! A step or a drift is anomalous on its first [`LABELLED_SHIFT_DAYS`] exceeding days (within
//! twice as many days); after that a lasting change is the new normal. The days from there
//! until [`SETTLING_DAYS`] after the labelled days or the end of the ramp are
//! [`Truth::Settling`]: a flag on them is neither a hit nor a false alarm. Every other day,
//! including injected days below the boundary, is [`Truth::Normal`].
//!
//! Days within one noise standard deviation of the boundary are also marked
//! [`LabelledSeries::borderline`]: seen once through the noise, they are a coin flip for any
//! detector; [`Score::tolerant`] leaves them out, [`Score::strict`] does not.

mod rng;
mod score;

pub use rng::Rng;
pub use score::Score;

use chrono::NaiveDate;

use super::series::DailySeries;
use super::stats::median;
use super::thresholds::Thresholds;

/// Exceeding days of a step or drift labelled anomalous: the detector's `adapt_after_days`.
pub const LABELLED_SHIFT_DAYS: usize = 7;
/// Days after a shift's labelled days (or its ramp, if longer) whose flags are not scored.
pub const SETTLING_DAYS: usize = 14;
/// Days before the first injection: two months of history for the weekday pattern.
pub const WARM_UP_DAYS: usize = 63;
/// Days between the starts of two injections' slots, so one settles before the next.
pub const SLOT_DAYS: usize = 56;

/// What a generated series looks like before injections.
#[derive(Debug, Clone, PartialEq)]
pub struct Profile {
    /// Mean cost of an average day at the start.
    pub level: f64,
    /// Multiplicative weekday factors (0 = Monday), averaging 1.
    pub weekday: [f64; 7],
    /// Relative change per day (compounded): growth or decline.
    pub growth_per_day: f64,
    /// Standard deviation of the log-normal daily noise.
    pub noise: f64,
    /// A lasting cost cut (benign, not an anomaly): `(day, factor)`, the level times `factor`
    /// from position `day` on.
    pub cut: Option<(usize, f64)>,
}

/// The kinds of injected anomaly.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// One to three days of extra cost (a runaway job, a data transfer).
    Spike,
    /// A lasting extra cost from one day on (a new fleet, a forgotten cluster).
    Step,
    /// Extra cost that ramps up linearly over days or weeks, then stays.
    Drift,
}

impl Kind {
    pub const ALL: [Kind; 3] = [Kind::Spike, Kind::Step, Kind::Drift];

    pub fn name(self) -> &'static str {
        match self {
            Kind::Spike => "spike",
            Kind::Step => "step",
            Kind::Drift => "drift",
        }
    }
}

/// One injected anomaly.
#[derive(Debug, Clone, PartialEq)]
pub struct Injection {
    pub kind: Kind,
    /// Position of its first day.
    pub start: usize,
    /// Days of a spike, or days of a drift's ramp (1 for a step).
    pub length: usize,
    /// Full extra cost relative to the series' average day at `start` (1.0 = +100 %).
    pub size: f64,
    /// The extra follows the weekday pattern (more usage) rather than being flat (a new
    /// always-on resource).
    pub with_weekday: bool,
}

/// The truth about one day.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Truth {
    Normal,
    Anomalous,
    /// Shortly after a lasting change: not scored.
    Settling,
}

/// An injection and the days it made anomalous.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    pub injection: Injection,
    /// Positions labelled [`Truth::Anomalous`] because of it.
    pub anomalous_days: Vec<usize>,
}

/// A generated series with its truth.
#[derive(Debug, Clone, PartialEq)]
pub struct LabelledSeries {
    pub series: DailySeries,
    /// The noise-free cost of each day without injections.
    pub expected: Vec<f64>,
    /// The injected extra cost of each day (noise-free).
    pub extra: Vec<f64>,
    pub truth: Vec<Truth>,
    /// Days whose noise-free cost is within one noise standard deviation of the boundary
    /// between normal and anomalous: a coin flip for any detector that sees the day once.
    pub borderline: Vec<bool>,
    pub profile: Profile,
    pub events: Vec<Event>,
}

impl Profile {
    /// A profile drawn from the ranges docs/ANOMALIES.md lists.
    pub fn random(rng: &mut Rng) -> Self {
        let level = rng.log_between(50.0, 20_000.0);
        let mut weekday = [1.0; 7];
        match rng.int(0, 2) {
            // Production: about flat, a slight weekend dip.
            0 => {
                let weekend = rng.between(0.85, 1.0);
                weekday[5] = weekend;
                weekday[6] = weekend;
            }
            // Development and office workloads: a deep weekend dip.
            1 => {
                let weekend = rng.between(0.3, 0.7);
                weekday[5] = weekend;
                weekday[6] = weekend * rng.between(0.9, 1.1);
            }
            // A weekly batch day.
            _ => weekday[rng.int(0, 6)] = rng.between(1.3, 1.8),
        }
        for factor in &mut weekday {
            *factor *= rng.between(0.97, 1.03);
        }
        let mean = weekday.iter().sum::<f64>() / 7.0;
        let monthly_growth = rng.between(-0.05, 0.10);
        Self {
            level,
            weekday: weekday.map(|f| f / mean),
            growth_per_day: (1.0 + monthly_growth).ln() / 30.0,
            noise: rng.between(0.02, 0.12),
            cut: None,
        }
    }

    /// Noise-free cost of an average day (no weekday factor) at position `day`.
    pub fn level_at(&self, day: usize) -> f64 {
        let cut = match self.cut {
            Some((from, factor)) if day >= from => factor,
            _ => 1.0,
        };
        self.level * (self.growth_per_day * day as f64).exp() * cut
    }
}

impl Injection {
    /// A random injection of `kind` starting at `start`.
    pub fn random(rng: &mut Rng, kind: Kind, start: usize) -> Self {
        let (length, size, with_weekday) = match kind {
            Kind::Spike => (rng.int(1, 3), rng.log_between(0.3, 4.0), false),
            Kind::Step => (1, rng.log_between(0.3, 2.0), rng.chance(0.5)),
            Kind::Drift => (rng.int(5, 21), rng.log_between(0.4, 2.0), rng.chance(0.5)),
        };
        Self {
            kind,
            start,
            length,
            size,
            with_weekday,
        }
    }

    /// Noise-free extra cost on `day` of a series with `profile`, whose first day is weekday
    /// `first_weekday`.
    fn extra(&self, profile: &Profile, day: usize, first_weekday: usize) -> f64 {
        if day < self.start {
            return 0.0;
        }
        let elapsed = day - self.start;
        let ramp = match self.kind {
            Kind::Spike if elapsed >= self.length => return 0.0,
            Kind::Spike | Kind::Step => 1.0,
            Kind::Drift => ((elapsed + 1) as f64 / self.length as f64).min(1.0),
        };
        let weekday = if self.with_weekday {
            profile.weekday[(first_weekday + day) % 7]
        } else {
            1.0
        };
        self.size * profile.level_at(self.start) * ramp * weekday
    }
}

/// How to draw a batch of series.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Scenario {
    pub start: NaiveDate,
    pub days: usize,
    /// Inject anomalies (one per slot of [`SLOT_DAYS`] after [`WARM_UP_DAYS`]); otherwise the
    /// series is clean.
    pub inject: bool,
    /// Chance of a benign lasting cost cut somewhere in the series.
    pub cut_chance: f64,
    pub thresholds: Thresholds,
    /// Width of the true noise band, in standard deviations of the log-normal noise, that an
    /// injected day must also leave to be anomalous. 3 by default; the detector's own band is
    /// wider because it has to estimate the noise it is measured against.
    pub band_sigmas: f64,
}

impl Scenario {
    /// Eight months from Monday 2024-01-01, three injections, default thresholds.
    pub fn injected() -> Self {
        Self {
            start: NaiveDate::from_ymd_opt(2024, 1, 1).expect("a valid date"),
            days: 240,
            inject: true,
            cut_chance: 0.2,
            thresholds: Thresholds::default(),
            band_sigmas: 3.0,
        }
    }

    /// The same eight months without injections.
    pub fn clean() -> Self {
        Self {
            inject: false,
            ..Self::injected()
        }
    }

    /// Series number `index` of the run seeded `seed`: independent of how many are drawn.
    pub fn generate(&self, seed: u64, index: u64) -> LabelledSeries {
        let mut rng = Rng::fork(seed, index);
        let mut profile = Profile::random(&mut rng);
        if self.days > WARM_UP_DAYS && rng.chance(self.cut_chance) {
            let day = rng.int(WARM_UP_DAYS / 2, self.days - 1);
            profile.cut = Some((day, rng.between(0.5, 0.8)));
        }
        let mut injections = Vec::new();
        if self.inject {
            let mut slot = WARM_UP_DAYS;
            while slot + SLOT_DAYS <= self.days {
                let kind = Kind::ALL[rng.int(0, 2)];
                let start = slot + rng.int(0, SLOT_DAYS - 35);
                injections.push(Injection::random(&mut rng, kind, start));
                slot += SLOT_DAYS;
            }
        }
        self.build(&mut rng, profile, injections)
    }

    /// The series of `profile` with `injections`, its noise drawn from `rng`, and its truth.
    pub fn build(
        &self,
        rng: &mut Rng,
        profile: Profile,
        mut injections: Vec<Injection>,
    ) -> LabelledSeries {
        injections.sort_by_key(|injection| injection.start);
        let first_weekday =
            crate::anomaly::series::weekday_index(chrono::Datelike::weekday(&self.start));
        let mut expected = Vec::with_capacity(self.days);
        let mut extra = Vec::with_capacity(self.days);
        let mut values = Vec::with_capacity(self.days);
        for day in 0..self.days {
            let mean = profile.level_at(day) * profile.weekday[(first_weekday + day) % 7];
            let added: f64 = injections
                .iter()
                .map(|injection| injection.extra(&profile, day, first_weekday))
                .sum();
            // Log-normal with mean 1: the noise scales the day's whole cost.
            let noise = (profile.noise * rng.normal() - profile.noise.powi(2) / 2.0).exp();
            expected.push(mean);
            extra.push(added);
            values.push((mean + added) * noise);
        }
        let labels = label(self, &expected, injections, &profile, first_weekday);
        LabelledSeries {
            series: DailySeries::new(self.start, values),
            expected,
            extra,
            truth: labels.truth,
            borderline: labels.borderline,
            profile,
            events: labels.events,
        }
    }
}

/// Days of noise-free history a day is compared with to tell a drift from growth.
pub const REFERENCE_DAYS: usize = 28;

/// The truth of every day, which days are borderline, and the anomalous days of each injection
/// (see the module's documentation).
fn label(
    scenario: &Scenario,
    expected: &[f64],
    injections: Vec<Injection>,
    profile: &Profile,
    first_weekday: usize,
) -> Labels {
    let days = expected.len();
    let weekday = |day: usize| profile.weekday[(first_weekday + day) % 7];
    let mut truth = vec![Truth::Normal; days];
    let mut borderline = vec![false; days];
    // Noise-free cost without the injection being judged: the lasting changes before it are
    // the new normal by then.
    let mut normal = expected.to_vec();
    let mut events = Vec::with_capacity(injections.len());
    for injection in injections {
        let cost: Vec<f64> = (0..days)
            .map(|day| normal[day] + injection.extra(profile, day, first_weekday))
            .collect();
        let levels: Vec<f64> = (0..days).map(|day| cost[day] / weekday(day)).collect();
        // How far above its decision boundary a day is, in log units: > 0 is anomalous.
        let clearance = |day: usize| {
            let trailing = median(
                levels[day.saturating_sub(REFERENCE_DAYS)..day]
                    .iter()
                    .copied(),
            )
            .map_or(0.0, |level| level * weekday(day));
            let reference = normal[day].max(trailing);
            let thresholds = &scenario.thresholds;
            let boundary = (scenario.band_sigmas * profile.noise)
                .max((1.0 + thresholds.relative()).ln())
                .max((1.0 + thresholds.absolute() / reference).ln());
            (cost[day] / reference).ln() - boundary
        };
        let mut anomalous_days = Vec::new();
        let mut judge = |day: usize, truth: &mut [Truth]| {
            let clear = clearance(day);
            if clear.abs() <= profile.noise {
                borderline[day] = true;
            }
            if clear > 0.0 {
                truth[day] = Truth::Anomalous;
                anomalous_days.push(day);
            }
        };
        match injection.kind {
            Kind::Spike => {
                for day in injection.start..(injection.start + injection.length).min(days) {
                    judge(day, &mut truth);
                }
            }
            Kind::Step | Kind::Drift => {
                // Once the reference has caught up with the new level, no day can exceed it.
                let caught_up = (injection.start + injection.length + REFERENCE_DAYS).min(days);
                let first = (injection.start..caught_up).find(|&d| clearance(d) > 0.0);
                // The first LABELLED_SHIFT_DAYS exceeding days, within twice as many days.
                let labelled_end = first.map_or(caught_up, |first| {
                    let limit = (first + 2 * LABELLED_SHIFT_DAYS).min(days);
                    (first..limit)
                        .filter(|&d| clearance(d) > 0.0)
                        .nth(LABELLED_SHIFT_DAYS - 1)
                        .map_or(limit, |last| last + 1)
                });
                for day in injection.start..labelled_end {
                    judge(day, &mut truth);
                }
                if first.is_some() {
                    let ramp_end = injection.start + injection.length;
                    let settled = (labelled_end.max(ramp_end) + SETTLING_DAYS).min(days);
                    for slot in &mut truth[labelled_end..settled] {
                        *slot = Truth::Settling;
                    }
                }
                normal = cost;
            }
        }
        events.push(Event {
            injection,
            anomalous_days,
        });
    }
    Labels {
        truth,
        borderline,
        events,
    }
}

struct Labels {
    truth: Vec<Truth>,
    borderline: Vec<bool>,
    events: Vec<Event>,
}

#[cfg(test)]
mod tests;
