//! The anomaly detection job (docs/ANOMALIES.md "Anomaly detection after each load"): after
//! every successful load, at start-up and when a tenant's anomaly settings change, each tenant
//! with cost data has its daily series read (the last `Detector::lookback_days()` + 35 days up
//! to its latest charge day) and scanned; the runs reaching the last 35 days are stored with
//! their contributors, runs no longer found are deleted, and new recent runs notify (the store
//! does all of it in one transaction per tenant). One tenant's failure does not stop the
//! others.
//!
//! Bounds: at most [`MAX_SERIES`] series per tenant and run (the largest by cost over the read
//! days; service series first, then the monitored tag keys' values).

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use chrono::{Days, NaiveDate};
use costscope_core::anomaly::record::{
    judged_from, runs, BASELINE_DAYS, CONTRIBUTORS, JUDGED_DAYS, MAX_SERIES,
};
use costscope_core::anomaly::{
    explain, Contributor, Contributors, DailySeries, Detection, Detector, SeriesKey,
};
use costscope_core::Clock;
use costscope_engine::{CostEngine, CostPart, SeriesCostsBy, SeriesCostsQuery};
use costscope_store::{AnomalyScan, MetadataStore, ScannedAnomaly};
use tokio::sync::Notify;

use crate::jobs::lease::{run_while_holding, HolderId, JobLease, LeaseTimes, PeriodicJob};
use crate::state::AppState;

/// What one [`AnomalyDetection::run_once`] did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Outcome {
    /// Tenants with cost data that were scanned.
    pub tenants: usize,
    pub series: usize,
    pub inserted: usize,
    pub updated: usize,
    pub deleted: usize,
    pub notified: usize,
    /// Tenants whose scan failed (logged; the others still ran).
    pub failed: usize,
}

#[derive(Debug, Clone)]
pub struct AnomalyDetection {
    store: Arc<dyn MetadataStore>,
    engine: Arc<dyn CostEngine>,
    clock: Arc<dyn Clock>,
    /// Woken when a run wrote notifications (the delivery job waits on it).
    notified: Option<Arc<Notify>>,
    /// The job's lease: rounds run only while this process holds it.
    lease: JobLease,
}

impl AnomalyDetection {
    pub fn new(
        store: Arc<dyn MetadataStore>,
        engine: Arc<dyn CostEngine>,
        clock: Arc<dyn Clock>,
    ) -> Self {
        let lease = JobLease::new(store.clone(), clock.clone(), Self::NAME);
        Self {
            store,
            engine,
            clock,
            notified: None,
            lease,
        }
    }

    /// Wakes `notify` after every run that wrote notifications.
    pub fn notifying(mut self, notify: Arc<Notify>) -> Self {
        self.notified = Some(notify);
        self
    }

    pub fn from_state(state: &AppState) -> Self {
        Self::new(
            state.store.clone(),
            state.engine.clone(),
            state.clock.clone(),
        )
        .notifying(state.notification_wake.clone())
        .holding_as(state.holder.clone(), state.config.jobs.lease)
    }

    /// Runs its rounds while `holder` holds the job's lease, taken for `times`.
    pub fn holding_as(mut self, holder: HolderId, times: LeaseTimes) -> Self {
        self.lease = self.lease.held_by(holder).with_times(times);
        self
    }

    /// Scans every tenant once.
    #[tracing::instrument(skip_all)]
    pub async fn run_once(&self) -> anyhow::Result<Outcome> {
        let customers = self.store.anomalies().anomaly_customers().await?;
        let mut outcome = Outcome::default();
        for customer_id in customers {
            match self.scan_tenant(customer_id, &mut outcome).await {
                Ok(()) => {}
                Err(error) => {
                    outcome.failed += 1;
                    tracing::error!(customer_id, error = ?error, "scanning a tenant for anomalies failed");
                }
            }
        }
        if outcome.notified > 0 {
            if let Some(notify) = &self.notified {
                notify.notify_one();
            }
        }
        if outcome.inserted + outcome.deleted > 0 {
            tracing::info!(
                tenants = outcome.tenants,
                inserted = outcome.inserted,
                deleted = outcome.deleted,
                notified = outcome.notified,
                "anomalies detected"
            );
        }
        Ok(outcome)
    }

    async fn scan_tenant(&self, customer_id: i64, outcome: &mut Outcome) -> anyhow::Result<()> {
        let Some(latest) = self.engine.latest_charge_date(customer_id).await? else {
            return Ok(());
        };
        let settings = self.store.anomalies().anomaly_settings(customer_id).await?;
        let detector = Detector::new(settings.thresholds);
        let first = latest - Days::new(detector.lookback_days() as u64 + JUDGED_DAYS - 1);
        let judged = judged_from(latest);
        let series = read_all_series(
            self.engine.as_ref(),
            customer_id,
            first,
            latest,
            &settings.tag_keys,
        )
        .await?;
        outcome.tenants += 1;
        outcome.series += series.len();
        let mut found = Vec::new();
        for (key, (account_name, days)) in series {
            let daily = dense_from_first_cost(first, latest, days);
            let detection = detector.scan(&daily);
            for run in runs(&detection, judged, latest) {
                let contributors = contributors(
                    self.engine.as_ref(),
                    customer_id,
                    &key,
                    run.start,
                    expected_on(&detection, run.start),
                )
                .await?;
                found.push(ScannedAnomaly {
                    series: key.clone(),
                    account_name: account_name.clone(),
                    run,
                    contributors,
                });
            }
        }
        let stored = self
            .store
            .anomalies()
            .record_anomaly_scan(AnomalyScan {
                customer_id,
                judged_from: judged,
                latest,
                runs: &found,
                now: self.clock.now(),
            })
            .await
            .context("storing the anomalies")?;
        outcome.inserted += stored.inserted;
        outcome.updated += stored.updated;
        outcome.deleted += stored.deleted;
        outcome.notified += stored.notified;
        Ok(())
    }

    /// On the replica holding the job's lease: scans at once, then whenever woken (a load
    /// finished, settings changed; here or on another replica). Never returns unless the task
    /// is dropped.
    pub async fn run(self, wake: Arc<Notify>) -> anyhow::Result<()> {
        run_while_holding(self, Some(wake)).await
    }
}

impl PeriodicJob for AnomalyDetection {
    const NAME: &'static str = "anomaly-scan";

    fn interval(&self) -> Option<Duration> {
        None
    }

    fn lease(&self) -> &JobLease {
        &self.lease
    }

    async fn round(&self) -> anyhow::Result<()> {
        self.run_once().await.map(drop)
    }
}

/// A series' account name (service series) and its `(day, cost)` rows.
type SeriesRows = (Option<String>, Vec<(NaiveDate, f64)>);

/// Every series of the tenant over `first..=last`: provider × account × service × currency,
/// then each monitored tag key's values × currency, [`MAX_SERIES`] at most.
async fn read_all_series(
    engine: &dyn CostEngine,
    customer_id: i64,
    first: NaiveDate,
    last: NaiveDate,
    tag_keys: &[String],
) -> anyhow::Result<BTreeMap<SeriesKey, SeriesRows>> {
    let mut series: BTreeMap<SeriesKey, SeriesRows> = BTreeMap::new();
    let mut shapes = vec![SeriesCostsBy::Service];
    shapes.extend(tag_keys.iter().cloned().map(SeriesCostsBy::Tag));
    for by in shapes {
        let room = MAX_SERIES.saturating_sub(u32::try_from(series.len()).unwrap_or(u32::MAX));
        if room == 0 {
            break;
        }
        let rows = engine
            .series_costs(
                customer_id,
                &SeriesCostsQuery {
                    first,
                    last,
                    by: by.clone(),
                    limit: room,
                },
            )
            .await?;
        for row in rows {
            let Some(day) = row.day else { continue };
            let (key, account_name) = match (&by, row.group.as_slice()) {
                (SeriesCostsBy::Service, [provider, account_id, service]) => (
                    SeriesKey::Service {
                        provider: provider.clone(),
                        account_id: account_id.clone(),
                        service: service.clone(),
                        currency: row.currency.clone(),
                    },
                    Some(row.account_name.clone()).filter(|name| !name.is_empty()),
                ),
                (SeriesCostsBy::Tag(tag), [value]) => (
                    SeriesKey::Tag {
                        key: tag.clone(),
                        value: value.clone(),
                        currency: row.currency.clone(),
                    },
                    None,
                ),
                _ => continue,
            };
            let entry = series
                .entry(key)
                .or_insert_with(|| (account_name, Vec::new()));
            entry.1.push((day, row.amount));
        }
    }
    Ok(series)
}

/// The series from its first day with a cost (not before `first`) to `last`, missing days 0:
/// a series that began lately is young for the detector (no verdict on its first two weeks)
/// rather than judged against the nothing before it.
fn dense_from_first_cost(
    first: NaiveDate,
    last: NaiveDate,
    days: Vec<(NaiveDate, f64)>,
) -> DailySeries {
    let start = days
        .iter()
        .map(|(day, _)| *day)
        .min()
        .map_or(first, |day| day.max(first));
    DailySeries::from_days(start, last, days)
}

/// One series' daily cost over `first..=last` (from its first day with a cost, see
/// [`dense_from_first_cost`]).
pub async fn read_series(
    engine: &dyn CostEngine,
    customer_id: i64,
    series: &SeriesKey,
    first: NaiveDate,
    last: NaiveDate,
) -> anyhow::Result<DailySeries> {
    let rows = engine
        .series_costs(
            customer_id,
            &SeriesCostsQuery {
                first,
                last,
                by: SeriesCostsBy::Series(series.clone()),
                limit: 1,
            },
        )
        .await?;
    Ok(dense_from_first_cost(
        first,
        last,
        rows.into_iter()
            .filter_map(|row| row.day.map(|day| (day, row.amount)))
            .collect(),
    ))
}

/// The expected cost of `day` in a scan (`None` while the series was young).
fn expected_on(detection: &Detection, day: NaiveDate) -> Option<f64> {
    detection
        .days
        .iter()
        .find(|judged| judged.day == day)
        .and_then(|judged| judged.band)
        .map(|band| band.expected)
}

/// What rose on a run's first day: its usage types and resources against the mean day of the
/// [`BASELINE_DAYS`] before, scaled to the day's expected cost.
async fn contributors(
    engine: &dyn CostEngine,
    customer_id: i64,
    series: &SeriesKey,
    start: NaiveDate,
    expected: Option<f64>,
) -> anyhow::Result<Contributors> {
    let baseline_first = start - Days::new(BASELINE_DAYS);
    let baseline_last = start - Days::new(1);
    let mut by_part = Vec::new();
    for part in [CostPart::UsageType, CostPart::Resource] {
        let day = parts(engine, customer_id, series, part, start, start).await?;
        let baseline: Vec<(String, f64)> = parts(
            engine,
            customer_id,
            series,
            part,
            baseline_first,
            baseline_last,
        )
        .await?
        .into_iter()
        .map(|(key, cost)| (key, cost / BASELINE_DAYS as f64))
        .collect();
        by_part.push(explain(&day, &baseline, expected, CONTRIBUTORS));
    }
    let resources: Vec<Contributor> = by_part.pop().unwrap_or_default();
    let usage_types: Vec<Contributor> = by_part.pop().unwrap_or_default();
    Ok(Contributors {
        usage_types,
        resources,
    })
}

async fn parts(
    engine: &dyn CostEngine,
    customer_id: i64,
    series: &SeriesKey,
    part: CostPart,
    first: NaiveDate,
    last: NaiveDate,
) -> anyhow::Result<Vec<(String, f64)>> {
    let rows = engine
        .series_costs(
            customer_id,
            &SeriesCostsQuery {
                first,
                last,
                by: SeriesCostsBy::Parts {
                    series: series.clone(),
                    part,
                },
                limit: 0,
            },
        )
        .await?;
    Ok(rows
        .into_iter()
        .filter_map(|row| row.group.into_iter().next().map(|key| (key, row.amount)))
        .collect())
}
