//! The cloud sync job (issue 13): pulls each connection's billing export into the ingestion,
//! on a schedule (`[cloud] sync_interval_hours`) and on demand ("Sync now").
//!
//! Per connection: list the billing periods the source holds; for each period whose
//! fingerprint differs from the one recorded at its last successful load (oldest first), fetch
//! its files to `<uploads_dir>/<job id>/` and queue them as an ingest job carrying the
//! sync's `source` and the connection's id. The ingest worker loads them exactly as it loads an
//! upload (bounds, the stored-rows quota, reconciliation, the atomic replace of the billing
//! period, the load history, the wake-up of the budget evaluation and the anomaly detection);
//! the period's fingerprint is recorded only once that load succeeded, so a failed period is
//! tried again next time.
//!
//! `sync_concurrency` connections sync at once; each within `sync_timeout_seconds`, so one
//! slow or failing connection never holds up the others. A sync left running by a stopped
//! server is claimed again once it is older than the time limit.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::Context;
use chrono::{DateTime, Utc};
use costscope_connectors::{BillingExportSource, ExportPeriod, FetchLimits};
use costscope_ingest::thousands;
use costscope_store::{
    CloudConnection, IngestFile, IngestJobStatus, IngestUpload, NewIngestJob, SyncOutcome,
    SyncedPeriod,
};
use futures_util::FutureExt;
use tokio::sync::Notify;
use tokio::task::JoinSet;

use crate::cloud::sources::{export_location, provider_label, source_for};
use crate::jobs::claim_loop::{keep_claiming, ClaimingWorker};
use crate::jobs::ingest::{job_dir, next_stored_name, remove_upload};
use crate::state::AppState;

/// How often a sync looks whether the ingest worker has loaded a period it queued.
const LOAD_POLL: Duration = Duration::from_millis(200);
/// A running sync older than its time limit plus this was left by a stopped server.
const STALE_MARGIN: Duration = Duration::from_secs(5 * 60);
/// The uploader name of a sync's loads.
pub const CREATED_BY: &str = "cloud sync";
/// What a sync records when something that is not the source's fault failed (logged).
pub const INTERNAL_FAILURE: &str = "The sync failed: internal error";

/// What one [`SyncWorker::run_once`] did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Outcome {
    /// Connections claimed (and synced).
    pub claimed: usize,
    pub succeeded: usize,
    pub failed: usize,
}

/// Syncs the connections due, `sync_concurrency` at once.
#[derive(Debug, Clone)]
pub struct SyncWorker {
    state: AppState,
}

/// The ingest job being filled by a sync (created *receiving*, not yet queued): forgotten if
/// the sync is cut short by its time limit.
type Receiving = Arc<Mutex<Option<(i64, PathBuf)>>>;

/// A period loaded: the ingest job and its rows.
struct Loaded {
    job_id: Option<i64>,
    rows: u64,
}

impl SyncWorker {
    pub fn new(state: AppState) -> Self {
        Self { state }
    }

    pub fn from_state(state: &AppState) -> Self {
        Self::new(state.clone())
    }

    fn concurrency(&self) -> usize {
        self.state.config.cloud.sync_concurrency.max(1)
    }

    fn time_limit(&self) -> Duration {
        Duration::from_secs(self.state.config.cloud.sync_timeout_seconds.max(1))
    }

    /// Claims up to `limit` connections due for a sync (marking them running).
    async fn claim(&self, limit: usize) -> anyhow::Result<Vec<CloudConnection>> {
        let now = self.state.clock.now();
        let hours = self.state.config.cloud.sync_interval_hours;
        // Without a schedule only the asked-for and never-synced connections are due.
        let due_before = if hours == 0 {
            DateTime::<Utc>::MIN_UTC
        } else {
            now - chrono::Duration::hours(i64::from(hours))
        };
        let stale = chrono::Duration::from_std(self.time_limit() + STALE_MARGIN)
            .unwrap_or(chrono::Duration::hours(3));
        let limit = u32::try_from(limit).unwrap_or(u32::MAX);
        self.state
            .store
            .claim_due_syncs(now, due_before, now - stale, limit)
            .await
            .context("claiming the connections due for a sync")
    }

    /// Claims the connections due (up to `sync_concurrency`), syncs them at once and answers
    /// when all have ended.
    #[tracing::instrument(skip_all)]
    pub async fn run_once(&self) -> anyhow::Result<Outcome> {
        let claimed = self.claim(self.concurrency()).await?;
        let mut outcome = Outcome {
            claimed: claimed.len(),
            ..Outcome::default()
        };
        let mut running = JoinSet::new();
        for connection in claimed {
            running.spawn(self.clone().sync_and_record(connection));
        }
        while let Some(joined) = running.join_next().await {
            match joined {
                Ok(true) => outcome.succeeded += 1,
                Ok(false) | Err(_) => outcome.failed += 1,
            }
        }
        Ok(outcome)
    }

    /// Keeps up to `concurrency` claims going (see [`keep_claiming`]). Never returns unless
    /// the task is dropped.
    pub async fn run(self, wake: Arc<Notify>) -> anyhow::Result<()> {
        keep_claiming(self, wake).await
    }

    /// Syncs one claimed connection within the time limit and records how it ended. Answers
    /// whether it succeeded.
    async fn sync_and_record(self, connection: CloudConnection) -> bool {
        let receiving: Receiving = Arc::new(Mutex::new(None));
        let limit = self.time_limit();
        let started = std::time::Instant::now();
        tracing::info!(
            connection_id = connection.id,
            customer_id = connection.customer_id,
            provider = %connection.provider,
            "syncing a cloud connection"
        );
        let synced = std::panic::AssertUnwindSafe(tokio::time::timeout(
            limit,
            self.sync(&connection, &receiving),
        ))
        .catch_unwind()
        .await;
        let outcome = match synced {
            Ok(Ok(outcome)) => outcome,
            Ok(Err(_elapsed)) => SyncOutcome::Failed {
                error: format!(
                    "The sync did not finish within {}; it will be tried again",
                    human_duration(limit)
                ),
            },
            Err(_panic) => {
                tracing::error!(connection_id = connection.id, "the sync panicked");
                SyncOutcome::Failed {
                    error: INTERNAL_FAILURE.to_owned(),
                }
            }
        };
        // A job cut short while being filled is forgotten with its files.
        let abandoned = receiving.lock().map(|mut slot| slot.take()).unwrap_or(None);
        if let Some((job_id, dir)) = abandoned {
            self.forget_job(job_id, &dir).await;
        }
        let succeeded = matches!(outcome, SyncOutcome::Succeeded { .. });
        match &outcome {
            SyncOutcome::Succeeded { details } => tracing::info!(
                connection_id = connection.id,
                elapsed_ms = started.elapsed().as_millis() as u64,
                %details,
                "sync succeeded"
            ),
            SyncOutcome::Failed { error } => tracing::warn!(
                connection_id = connection.id,
                elapsed_ms = started.elapsed().as_millis() as u64,
                %error,
                "sync failed"
            ),
        }
        self.state
            .metrics
            .sync_finished(&connection.provider, succeeded);
        if let Err(error) = self
            .state
            .store
            .finish_sync(connection.id, &outcome, self.state.clock.now())
            .await
        {
            tracing::error!(connection_id = connection.id, %error, "could not record how a sync ended");
        }
        succeeded
    }

    /// Loads every billing period whose delivery changed since its last load.
    async fn sync(&self, connection: &CloudConnection, receiving: &Receiving) -> SyncOutcome {
        let source = match source_for(&self.state, connection).await {
            Ok(source) => source,
            Err(error) => {
                return SyncOutcome::Failed {
                    error: error.message,
                }
            }
        };
        let mut periods = match source.periods().await {
            Ok(periods) => periods,
            Err(error) => {
                return SyncOutcome::Failed {
                    error: error.message,
                }
            }
        };
        if periods.is_empty() {
            return SyncOutcome::Succeeded {
                details: "No billing data delivered yet".to_owned(),
            };
        }
        periods.sort_by_key(|period| period.billing_period);
        let known: HashMap<_, _> = match self.state.store.synced_periods(connection.id).await {
            Ok(known) => known
                .into_iter()
                .map(|period| (period.billing_period, period.fingerprint))
                .collect(),
            Err(error) => {
                tracing::error!(connection_id = connection.id, %error, "reading the synced periods");
                return SyncOutcome::Failed {
                    error: INTERNAL_FAILURE.to_owned(),
                };
            }
        };
        let mut tally = Tally::default();
        let mut failures = Vec::new();
        for period in &periods {
            if known.get(&period.billing_period) == Some(&period.fingerprint) {
                tally.unchanged += 1;
                continue;
            }
            let month = period.billing_period.format("%Y-%m").to_string();
            let loaded = self
                .load_period(connection, source.as_ref(), period, &month, receiving)
                .await;
            match loaded {
                Ok(loaded) => {
                    let recorded = SyncedPeriod {
                        billing_period: period.billing_period,
                        fingerprint: period.fingerprint.clone(),
                        ingest_job_id: loaded.job_id,
                        synced_at: self.state.clock.now(),
                    };
                    if let Err(error) = self
                        .state
                        .store
                        .record_synced_period(connection.id, &recorded)
                        .await
                    {
                        tracing::error!(connection_id = connection.id, %error, "recording a synced period");
                        failures.push(format!("Billing period {month}: {INTERNAL_FAILURE}"));
                        continue;
                    }
                    match loaded.job_id {
                        Some(_) => {
                            tally.loaded += 1;
                            tally.rows += loaded.rows;
                        }
                        None => tally.without_files += 1,
                    }
                }
                Err(message) => failures.push(format!("Billing period {month}: {message}")),
            }
        }
        self.state
            .metrics
            .periods_loaded(&connection.provider, tally.loaded);
        if failures.is_empty() {
            SyncOutcome::Succeeded {
                details: tally.details(),
            }
        } else {
            let mut error = failures.join("; ");
            if tally.loaded > 0 || tally.unchanged > 0 {
                error.push_str(&format!(" ({})", tally.details()));
            }
            SyncOutcome::Failed { error }
        }
    }

    /// Fetches one period into a new ingest job's folder, queues it, and waits for the ingest
    /// worker to load it. Answers the job's rows, or why it failed.
    async fn load_period(
        &self,
        connection: &CloudConnection,
        source: &dyn BillingExportSource,
        period: &ExportPeriod,
        month: &str,
        receiving: &Receiving,
    ) -> Result<Loaded, String> {
        let store = &self.state.store;
        let label = format!(
            "{} sync · {} · {} · {month}",
            provider_label(&connection.provider),
            connection.account_id,
            export_location(connection).unwrap_or_else(|| period.location.clone()),
        );
        let job_id = store
            .create_ingest_job(NewIngestJob {
                customer_id: connection.customer_id,
                created_by_user_id: None,
                created_by: CREATED_BY,
                upload: None,
                source: Some(&label),
                cloud_account_id: Some(connection.id),
                now: self.state.clock.now(),
            })
            .await
            .map_err(|error| internal(connection, "creating the ingest job", &error))?;
        let dir = job_dir(&self.state.config.uploads_dir, job_id);
        set_receiving(receiving, Some((job_id, dir.clone())));
        let files = match self.fetch(source, period, &dir).await {
            Ok(files) => files,
            Err(message) => {
                set_receiving(receiving, None);
                self.forget_job(job_id, &dir).await;
                return Err(message);
            }
        };
        if files.is_empty() {
            // A delivery whose manifest lists no data: nothing to load, and nothing to retry.
            set_receiving(receiving, None);
            self.forget_job(job_id, &dir).await;
            return Ok(Loaded {
                job_id: None,
                rows: 0,
            });
        }
        let queued = store
            .queue_ingest_job(
                job_id,
                IngestUpload {
                    format: None,
                    files: &files,
                },
            )
            .await;
        set_receiving(receiving, None);
        match queued {
            Ok(true) => {}
            Ok(false) => {
                tracing::error!(job_id, "a sync's ingest job was no longer receiving");
                remove_upload(&dir).await;
                return Err(INTERNAL_FAILURE.to_owned());
            }
            Err(error) => {
                self.forget_job(job_id, &dir).await;
                return Err(internal(connection, "queueing the ingest job", &error));
            }
        }
        self.state.ingest_wake.notify_one();
        tracing::info!(
            connection_id = connection.id,
            job_id,
            files = files.len(),
            "queued a billing period for loading"
        );
        loop {
            tokio::time::sleep(LOAD_POLL).await;
            let job = store
                .get_ingest_job(connection.customer_id, job_id)
                .await
                .map_err(|error| internal(connection, "reading the ingest job", &error))?;
            let Some(job) = job else {
                return Err(INTERNAL_FAILURE.to_owned());
            };
            match job.status {
                IngestJobStatus::Succeeded => {
                    return Ok(Loaded {
                        job_id: Some(job_id),
                        rows: job.rows,
                    })
                }
                IngestJobStatus::Failed => {
                    return Err(job.error.unwrap_or_else(|| "The load failed".to_owned()))
                }
                IngestJobStatus::Queued | IngestJobStatus::Running => {}
            }
        }
    }

    /// Fetches a period's files into `<dir>/fetch/`, then moves each to the name the ingest
    /// worker reads it under. Answers the files as the job records them.
    async fn fetch(
        &self,
        source: &dyn BillingExportSource,
        period: &ExportPeriod,
        dir: &Path,
    ) -> Result<Vec<IngestFile>, String> {
        let fetch_dir = dir.join("fetch");
        tokio::fs::create_dir_all(&fetch_dir)
            .await
            .map_err(|error| {
                tracing::error!(dir = %fetch_dir.display(), %error, "creating a sync's folder");
                INTERNAL_FAILURE.to_owned()
            })?;
        let limits = FetchLimits {
            max_bytes: self.state.config.uploads.max_decompressed_bytes,
        };
        let fetched = source
            .fetch(period, &fetch_dir, limits)
            .await
            .map_err(|error| error.message)?;
        let mut used = HashSet::new();
        let mut files = Vec::with_capacity(fetched.len());
        for file in fetched {
            let stored = next_stored_name(&file.name, &mut used);
            tokio::fs::rename(&file.path, dir.join(&stored))
                .await
                .map_err(|error| {
                    tracing::error!(path = %file.path.display(), %error, "moving a fetched file");
                    INTERNAL_FAILURE.to_owned()
                })?;
            files.push(IngestFile {
                name: file.name,
                bytes: file.bytes,
                format: None,
                rows: None,
            });
        }
        remove_upload(&fetch_dir).await;
        Ok(files)
    }

    /// Forgets a receiving job and deletes its folder.
    async fn forget_job(&self, job_id: i64, dir: &Path) {
        remove_upload(dir).await;
        if let Err(error) = self.state.store.delete_ingest_job(job_id).await {
            tracing::warn!(job_id, %error, "could not forget a sync's unfinished ingest job");
        }
    }
}

fn set_receiving(receiving: &Receiving, value: Option<(i64, PathBuf)>) {
    if let Ok(mut slot) = receiving.lock() {
        *slot = value;
    }
}

fn internal(connection: &CloudConnection, doing: &str, error: &dyn std::fmt::Display) -> String {
    tracing::error!(connection_id = connection.id, %error, "{doing}");
    INTERNAL_FAILURE.to_owned()
}

/// What a sync did with the periods it found.
#[derive(Debug, Default)]
struct Tally {
    loaded: u64,
    rows: u64,
    unchanged: u64,
    without_files: u64,
}

impl Tally {
    /// `Loaded 2 billing periods (1,234 rows), 3 unchanged`.
    fn details(&self) -> String {
        let mut parts = Vec::new();
        if self.loaded > 0 {
            parts.push(format!(
                "Loaded {} ({} {})",
                periods(self.loaded),
                thousands(self.rows),
                if self.rows == 1 { "row" } else { "rows" }
            ));
        }
        if self.unchanged > 0 {
            parts.push(if parts.is_empty() {
                format!("No new deliveries: {} unchanged", periods(self.unchanged))
            } else {
                format!("{} unchanged", self.unchanged)
            });
        }
        if self.without_files > 0 {
            parts.push(format!(
                "{} without data files",
                if parts.is_empty() {
                    periods(self.without_files)
                } else {
                    self.without_files.to_string()
                }
            ));
        }
        parts.join(", ")
    }
}

fn periods(n: u64) -> String {
    if n == 1 {
        "1 billing period".to_owned()
    } else {
        format!("{} billing periods", thousands(n))
    }
}

fn human_duration(duration: Duration) -> String {
    let seconds = duration.as_secs();
    if seconds >= 3600 && seconds % 3600 == 0 {
        let hours = seconds / 3600;
        format!("{hours} hour{}", if hours == 1 { "" } else { "s" })
    } else if seconds >= 60 && seconds % 60 == 0 {
        format!("{} min", seconds / 60)
    } else {
        format!("{seconds} s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn details_say_what_was_loaded_and_what_was_unchanged() {
        let tally = Tally {
            loaded: 2,
            rows: 1234,
            unchanged: 3,
            without_files: 0,
        };
        assert_eq!(
            tally.details(),
            "Loaded 2 billing periods (1,234 rows), 3 unchanged"
        );
        let unchanged = Tally {
            unchanged: 1,
            ..Tally::default()
        };
        assert_eq!(
            unchanged.details(),
            "No new deliveries: 1 billing period unchanged"
        );
        let one = Tally {
            loaded: 1,
            rows: 1,
            ..Tally::default()
        };
        assert_eq!(one.details(), "Loaded 1 billing period (1 row)");
    }

    #[test]
    fn time_limits_read_as_people_say_them() {
        assert_eq!(human_duration(Duration::from_secs(7200)), "2 hours");
        assert_eq!(human_duration(Duration::from_secs(600)), "10 min");
        assert_eq!(human_duration(Duration::from_secs(2)), "2 s");
    }
}

impl ClaimingWorker for SyncWorker {
    type Claim = CloudConnection;
    type Outcome = bool;
    const NAME: &'static str = "sync";

    fn concurrency(&self) -> usize {
        SyncWorker::concurrency(self)
    }

    fn claim(
        &self,
        limit: usize,
    ) -> impl std::future::Future<Output = anyhow::Result<Vec<Self::Claim>>> + Send {
        SyncWorker::claim(self, limit)
    }

    fn carry_out(
        self,
        claim: Self::Claim,
    ) -> impl std::future::Future<Output = Self::Outcome> + Send + 'static {
        self.sync_and_record(claim)
    }
}
