//! Cost anomalies injected into the demo's AWS data, so that the anomaly page of `make run` is
//! not empty (docs/ANOMALIES.md "Web"). Each is an extra usage line of one account × service,
//! labelled here, large enough for the default margins (20 % and 100 a day above expected).
//!
//! Like every demo value they depend only on the day (never on `today`, so a demo generated a
//! day later agrees on the shared days): they repeat in cycles of [`CYCLE_DAYS`] days, the 35
//! days a first detection run judges, so the last 35 days of any demo hold each of them.
//!
//! The step and the drift last six days and then end: a rise the detector accepts as the new
//! normal (seven anomalous days) and that then falls back within the cycle leaves weeks of
//! large prediction errors in the detector's error history, which widens the band until the
//! next cycle's rise is no longer flagged (seen on the demo data with a 14-day step).

use chrono::NaiveDate;

use super::day_key;

/// Days between two repeats of an injection.
pub const CYCLE_DAYS: u64 = 35;

/// Which kind of anomaly an injected line makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// One day far above normal.
    Spike,
    /// A rise from one day to the next that holds for [`STEP_DAYS`] days.
    Step,
    /// A rise that grows day by day for [`DRIFT_DAYS`] days.
    Drift,
}

/// An extra AWS usage line of one day.
#[derive(Debug, Clone, PartialEq)]
pub struct Injected {
    pub kind: Kind,
    /// Index into the demo's AWS accounts: 0 Production, 1 Staging, 2 Data Platform.
    pub account: usize,
    pub product: &'static str,
    pub usage: &'static str,
    pub operation: &'static str,
    pub resource_id: &'static str,
    pub unit: &'static str,
    /// Per unit.
    pub rate: f64,
    pub quantity: f64,
}

impl Injected {
    pub fn cost(&self) -> f64 {
        self.quantity * self.rate
    }
}

/// The day's position in its cycle, 0 to `CYCLE_DAYS - 1`.
pub fn cycle_day(day: NaiveDate) -> u64 {
    day_key(day) % CYCLE_DAYS
}

/// Cycle day of the spike: three GPU instances for one day in Production's EC2 (about 880).
pub const SPIKE_DAY: u64 = 30;
/// Cycle day the step starts: three large database instances in Data Platform's RDS (144 a
/// day) for [`STEP_DAYS`] days.
pub const STEP_FROM: u64 = 21;
pub const STEP_DAYS: u64 = 6;
/// Cycle day the drift starts: Staging's Lambda costs 50 a day more each day, for
/// [`DRIFT_DAYS`] days (300 on the last).
pub const DRIFT_FROM: u64 = 10;
pub const DRIFT_DAYS: u64 = 6;

/// The lines injected on `day`.
pub fn injected(day: NaiveDate) -> Vec<Injected> {
    let at = cycle_day(day);
    let mut lines = Vec::new();
    if at == SPIKE_DAY {
        lines.push(Injected {
            kind: Kind::Spike,
            account: 0,
            product: "AmazonEC2",
            usage: "BoxUsage:p3.8xlarge",
            operation: "RunInstances",
            resource_id: "i-0demo5p1ke0gpu000",
            unit: "Hrs",
            rate: 12.24,
            quantity: 3.0 * 24.0,
        });
    }
    if (STEP_FROM..STEP_FROM + STEP_DAYS).contains(&at) {
        lines.push(Injected {
            kind: Kind::Step,
            account: 2,
            product: "AmazonRDS",
            usage: "InstanceUsage:db.r5.4xlarge",
            operation: "CreateDBInstance:0002",
            resource_id: "arn:aws:rds:us-west-2:333333333333:db:demo-step-replica",
            unit: "Hrs",
            rate: 2.0,
            quantity: 3.0 * 24.0,
        });
    }
    if (DRIFT_FROM..DRIFT_FROM + DRIFT_DAYS).contains(&at) {
        let days = at - DRIFT_FROM + 1;
        lines.push(Injected {
            kind: Kind::Drift,
            account: 1,
            product: "AWSLambda",
            usage: "Lambda-GB-Second",
            operation: "Invoke",
            resource_id: "arn:aws:lambda:us-east-1:222222222222:function:demo-drift-batch",
            unit: "Lambda-GB-Second",
            rate: 0.000_016_666_7,
            // 50 a day more each day.
            quantity: 50.0 * days as f64 / 0.000_016_666_7,
        });
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_35_days_hold_each_injection_and_the_drift_grows() {
        let first = NaiveDate::from_ymd_opt(2026, 1, 1).unwrap();
        let days: Vec<NaiveDate> = first.iter_days().take(CYCLE_DAYS as usize).collect();
        let kinds = |kind: Kind| {
            days.iter()
                .filter(|day| injected(**day).iter().any(|line| line.kind == kind))
                .count()
        };
        assert_eq!(kinds(Kind::Spike), 1);
        assert_eq!(kinds(Kind::Step), STEP_DAYS as usize);
        assert_eq!(kinds(Kind::Drift), DRIFT_DAYS as usize);
        let drift: Vec<f64> = days
            .iter()
            .filter_map(|day| {
                injected(*day)
                    .into_iter()
                    .find(|line| line.kind == Kind::Drift)
                    .map(|line| line.cost())
            })
            .collect();
        assert!((drift[0] - 50.0).abs() < 1e-6);
        assert!((drift[DRIFT_DAYS as usize - 1] - 300.0).abs() < 1e-6);
        assert!(drift.windows(2).all(|pair| pair[1] > pair[0]));
        let step = days
            .iter()
            .flat_map(|day| injected(*day))
            .find(|line| line.kind == Kind::Step)
            .unwrap();
        assert!((step.cost() - 144.0).abs() < 1e-6);
        let spike = days
            .iter()
            .flat_map(|day| injected(*day))
            .find(|line| line.kind == Kind::Spike)
            .unwrap();
        assert!(spike.cost() > 800.0);
    }
}
