//! Loading uploaded billing files: the queue worker, and the direct load that the command line
//! and the demo use. Either way the load is recorded in `ingest_jobs`.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use costscope_core::Clock;
use costscope_engine::{
    CostEngine, LoadError, LoadProgress, LoadRequest, LoadSummary, ProgressFn, SourceFile,
};
use costscope_ingest::{BoundedFile, Format, IngestError, LoadBounds};
use costscope_store::{
    ClaimedIngestJob, IngestBillingPeriod, IngestFile, IngestJob, IngestLease, IngestOutcome,
    IngestProgress, IngestResult, IngestTotals, IngestUpload, MetadataStore, NewIngestJob,
    INTERRUPTED_MESSAGE,
};
use tokio::sync::{watch, Mutex, Notify};
use tokio::task::{JoinHandle, JoinSet};

use crate::config::UploadLimits;
use crate::jobs::lease::{renewing, HolderId, LeaseTimes};
use crate::state::AppState;

pub mod quotas;

/// Folder of the data directory holding uploads until their job has run, unless the
/// configuration's `uploads_dir` names another (shared by replicas).
pub const UPLOADS_DIR: &str = "uploads";
/// What the uploader sees when the load failed for a reason that is not the file's fault
/// (the cause is logged).
pub const INTERNAL_FAILURE: &str = "The load failed: internal error";
pub const FILES_MISSING: &str =
    "The uploaded files are no longer available on this server. Upload them again.";
/// How often an idle worker looks for jobs queued elsewhere (another replica) unprompted, or
/// left by a replica that stopped (at most its lease's time: a shorter lease is looked for
/// sooner).
const POLL_INTERVAL: Duration = Duration::from_secs(30);
/// A job still receiving its files this long after it was created lost its receiver (a
/// replica stopped mid-upload or mid-fetch): no upload or sync fetch runs that long. It is
/// forgotten, with its files.
const RECEIVING_ABANDONED_AFTER: Duration = Duration::from_secs(24 * 60 * 60);
/// The pause after the store failed, before trying again.
const RETRY_AFTER_ERROR: Duration = Duration::from_secs(5);

/// `<uploads_dir>/<job id>/`: the files of one upload.
pub fn job_dir(uploads_dir: &Path, job_id: i64) -> PathBuf {
    uploads_dir.join(job_id.to_string())
}

/// A file name safe to create in an upload's folder: the last path component, with letters,
/// digits, `.`, `-` and `_` kept and anything else replaced, so the extension (`.csv.gz`,
/// `.parquet`) that format detection reads survives.
pub fn sanitise_file_name(name: &str) -> String {
    let base = name.rsplit(['/', '\\']).next().unwrap_or_default();
    let mut clean: String = base
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect();
    clean = clean.trim_start_matches('.').to_owned();
    if clean.len() > 200 {
        // Keep the end, where the extension is.
        clean = clean[clean.len() - 200..].to_owned();
    }
    if clean.is_empty() {
        "upload".to_owned()
    } else {
        clean
    }
}

/// The stored name of the next file of an upload: sanitised, and prefixed with a number when
/// an earlier file of the same upload already has that name.
pub fn next_stored_name(name: &str, used: &mut HashSet<String>) -> String {
    let clean = sanitise_file_name(name);
    let mut candidate = clean.clone();
    let mut n = 2;
    while used.contains(&candidate) {
        candidate = format!("{n}-{clean}");
        n += 1;
    }
    used.insert(candidate.clone());
    candidate
}

/// The stored names of an upload's files, in order (as [`next_stored_name`] gave them).
pub fn stored_names(files: &[IngestFile]) -> Vec<String> {
    let mut used = HashSet::new();
    files
        .iter()
        .map(|file| next_stored_name(&file.name, &mut used))
        .collect()
}

/// What the engine's summary tells about an upload, for its job row.
pub fn ingest_result(summary: &LoadSummary, files: &[IngestFile]) -> IngestResult {
    let files = files
        .iter()
        .map(|file| {
            let loaded = summary.files.iter().find(|f| f.name == file.name);
            IngestFile {
                name: file.name.clone(),
                bytes: file.bytes,
                format: loaded.map(|f| f.format.name().to_owned()),
                rows: loaded.map(|f| f.rows),
            }
        })
        .collect();
    IngestResult {
        files,
        rows: summary.rows,
        replaced_rows: summary.replaced_rows,
        billing_periods: summary
            .billing_periods
            .iter()
            .map(|period| IngestBillingPeriod {
                provider: period.provider.code().to_owned(),
                billing_account_id: period.billing_account_id.clone(),
                billing_period_start: period.billing_period_start,
            })
            .collect(),
        totals: summary
            .totals
            .iter()
            .map(|totals| IngestTotals {
                provider: totals.provider.code().to_owned(),
                rows: totals.rows,
                billed_cost: totals.billed_cost,
                effective_cost: totals.effective_cost,
                list_cost: totals.list_cost,
                currency: totals.currency.clone(),
            })
            .collect(),
    }
}

/// Records a load's progress on its job while it runs, so that any replica answers it: the
/// engine's updates (throttled by the engine) go through a watch channel to a task writing the
/// latest one; a write still under way when the next update comes is followed by the newest
/// only. `also` gets every update too (the command line's progress bar). Drop the callback when
/// the load ends, then await the task.
pub fn record_progress(
    store: Arc<dyn MetadataStore>,
    clock: Arc<dyn Clock>,
    job_id: i64,
    also: Option<ProgressFn>,
) -> (ProgressFn, JoinHandle<()>) {
    let (sender, mut receiver) = watch::channel::<Option<LoadProgress>>(None);
    let writer = tokio::spawn(async move {
        while receiver.changed().await.is_ok() {
            let Some(progress) = receiver.borrow_and_update().clone() else {
                continue;
            };
            let recorded = job_progress(&progress, clock.now());
            if let Err(error) = store.record_ingest_progress(job_id, &recorded).await {
                tracing::warn!(job_id, %error, "could not record the load's progress");
            }
        }
    });
    let callback: ProgressFn = Arc::new(move |progress: LoadProgress| {
        if let Some(also) = &also {
            also(progress.clone());
        }
        sender.send_replace(Some(progress));
    });
    (callback, writer)
}

/// The engine's progress as the job records it.
pub fn job_progress(progress: &LoadProgress, now: chrono::DateTime<chrono::Utc>) -> IngestProgress {
    IngestProgress {
        phase: progress.phase.as_str().to_owned(),
        file_index: progress.file_index as u64,
        files: progress.files as u64,
        file_name: progress.file_name.clone(),
        rows_read: progress.rows_read,
        bytes_read: progress.bytes_read,
        bytes_total: progress.bytes_total,
        updated_at: now,
    }
}

/// Runs `work` with job `job_id`'s lease renewed for `holder` meanwhile.
async fn holding_job<T>(
    store: &dyn MetadataStore,
    clock: &dyn Clock,
    holder: &HolderId,
    times: LeaseTimes,
    job_id: i64,
    work: impl std::future::Future<Output = T>,
) -> T {
    renewing(work, times.renew_every, move || async move {
        match store
            .hold_ingest_job(job_id, holder.as_str(), times.until(clock.now()))
            .await
        {
            Ok(held) => {
                if !held {
                    tracing::warn!(
                        job_id,
                        "the load's lease was lost: another server took it over"
                    );
                }
                held
            }
            Err(error) => {
                tracing::warn!(job_id, %error, "could not renew the load's lease");
                true
            }
        }
    })
    .await
}

/// Runs `request` on `engine` with its progress recorded on job `job_id` (and passed on to the
/// request's own callback).
async fn load_recording_progress(
    store: &Arc<dyn MetadataStore>,
    engine: &dyn CostEngine,
    clock: &Arc<dyn Clock>,
    customer_id: i64,
    job_id: i64,
    mut request: LoadRequest,
) -> Result<LoadSummary, LoadError> {
    let (callback, writer) = record_progress(
        store.clone(),
        clock.clone(),
        job_id,
        request.progress.take(),
    );
    request.progress = Some(callback);
    let loaded = engine.load(customer_id, request).await;
    // The request (and with it the sender) is gone: the writer ends after its last write.
    if let Err(error) = writer.await {
        tracing::warn!(job_id, %error, "the progress recorder failed");
    }
    loaded
}

/// The message a failed load records: the engine's own for a refused file (its engine detail
/// logged), a generic one (the cause logged) otherwise.
fn failure_message(job_id: i64, error: LoadError) -> String {
    match error {
        LoadError::Invalid(refused) => refused_message(job_id, refused),
        other => {
            tracing::error!(job_id, error = %other, "the load failed");
            INTERNAL_FAILURE.to_owned()
        }
    }
}

/// A refused file's message for the uploader; the engine's own text goes to the log.
fn refused_message(job_id: i64, refused: IngestError) -> String {
    if let Some(detail) = &refused.detail {
        tracing::info!(job_id, message = %refused.message, %detail, "a file was refused");
    }
    refused.message
}

/// The size bounds of one load, from `[uploads]`.
pub fn load_bounds(limits: &UploadLimits) -> LoadBounds {
    LoadBounds {
        max_decompressed_bytes: limits.max_decompressed_bytes,
        max_compression_ratio: limits.max_compression_ratio,
        ratio_checked_after_bytes: limits.ratio_checked_after_bytes,
        max_rows: limits.max_rows_per_load,
    }
}

/// Streams the files once (on a blocking thread, memory flat) and refuses the load when it
/// passes a bound: a gzip bomb stops after a few megabytes, before the engine reads it.
async fn check_files(
    files: &[SourceFile],
    bounds: LoadBounds,
) -> Result<costscope_ingest::Measured, IngestError> {
    let files = files.to_vec();
    tokio::task::spawn_blocking(move || {
        let bounded: Vec<BoundedFile<'_>> = files
            .iter()
            .map(|file| BoundedFile {
                path: &file.path,
                display_name: &file.display_name,
            })
            .collect();
        costscope_ingest::check_bounds(&bounded, &bounds)
    })
    .await
    .unwrap_or_else(|error| {
        Err(IngestError::with_detail(
            "The load failed: internal error",
            error.to_string(),
        ))
    })
}

/// What one [`IngestWorker::run_once`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// No job was queued.
    Idle,
    Succeeded {
        job_id: i64,
    },
    Failed {
        job_id: i64,
    },
}

/// Runs queued uploads: `limits.concurrent_loads` at once, never two of one tenant, taking
/// turns between tenants (the store's claim), within the bounds and quotas of `limits`. Each
/// load holds its job's lease (renewed while it runs); a job whose lease expired — its server
/// stopped — is taken over: loaded again from its files, or failed when they are gone.
#[derive(Debug, Clone)]
pub struct IngestWorker {
    store: Arc<dyn MetadataStore>,
    engine: Arc<dyn CostEngine>,
    clock: Arc<dyn Clock>,
    /// The configuration's `uploads_dir`.
    uploads_dir: PathBuf,
    /// Notified after each successful load (the budget evaluation and anomaly detection jobs
    /// wait on them).
    loaded: Vec<Arc<Notify>>,
    limits: UploadLimits,
    /// Claims of this server's slots one at a time, so that two of them never take two
    /// uploads of one tenant.
    claiming: Arc<Mutex<()>>,
    /// This process, as its loads' leases name it.
    holder: HolderId,
    lease: LeaseTimes,
}

impl IngestWorker {
    pub fn new(
        store: Arc<dyn MetadataStore>,
        engine: Arc<dyn CostEngine>,
        clock: Arc<dyn Clock>,
        uploads_dir: PathBuf,
    ) -> Self {
        Self {
            store,
            engine,
            clock,
            uploads_dir,
            loaded: Vec::new(),
            limits: UploadLimits::default(),
            claiming: Arc::new(Mutex::new(())),
            holder: HolderId::random(),
            lease: LeaseTimes::default(),
        }
    }

    /// Holds its loads' leases as `holder`, for `times`.
    pub fn holding_as(mut self, holder: HolderId, times: LeaseTimes) -> Self {
        self.holder = holder;
        self.lease = times;
        self
    }

    /// Loads within `limits` (bounds per load, stored rows, concurrent loads).
    pub fn with_limits(mut self, limits: UploadLimits) -> Self {
        self.limits = limits;
        self
    }

    pub fn from_state(state: &AppState) -> Self {
        Self::new(
            state.store.clone(),
            state.engine.clone(),
            state.clock.clone(),
            state.config.uploads_dir.clone(),
        )
        .with_limits(state.config.uploads)
        .notifying_loads(state.load_wakes())
        .holding_as(state.holder.clone(), state.config.jobs.lease)
    }

    /// Wakes each of `notify` after every successful load.
    pub fn notifying_loads(mut self, notify: impl IntoIterator<Item = Arc<Notify>>) -> Self {
        self.loaded.extend(notify);
        self
    }

    /// Forgets the uploads whose receiver stopped, claims the next job (one a stopped server
    /// left, else the oldest queued), loads its files holding its lease, records the outcome
    /// and deletes the files whatever happened.
    #[tracing::instrument(skip_all)]
    pub async fn run_once(&self) -> anyhow::Result<Outcome> {
        self.forget_abandoned_receives().await;
        let claimed = {
            let _one_at_a_time = self.claiming.lock().await;
            let now = self.clock.now();
            self.store
                .claim_next_ingest_job(IngestLease {
                    holder: self.holder.as_str(),
                    now,
                    until: self.lease.until(now),
                })
                .await
                .context("claiming an upload")?
        };
        let Some(ClaimedIngestJob { job, taken_over }) = claimed else {
            return Ok(Outcome::Idle);
        };
        if taken_over {
            tracing::warn!(
                job_id = job.id,
                customer_id = job.customer_id,
                "taking over an upload whose server stopped during the load"
            );
        } else {
            tracing::info!(
                job_id = job.id,
                customer_id = job.customer_id,
                "loading an upload"
            );
        }
        // Taken over without its files, the job was interrupted; queued, they went missing.
        let missing = if taken_over {
            INTERRUPTED_MESSAGE
        } else {
            FILES_MISSING
        };
        let dir = job_dir(&self.uploads_dir, job.id);
        let outcome = holding_job(
            self.store.as_ref(),
            self.clock.as_ref(),
            &self.holder,
            self.lease,
            job.id,
            async {
                let outcome = match self.committed_before(&job, taken_over).await {
                    Some(outcome) => outcome,
                    None => self.load(&job, &dir, missing).await,
                };
                remove_upload(&dir).await;
                self.store
                    .finish_ingest_job(job.id, &outcome, self.clock.now())
                    .await
                    .map(|()| outcome)
            },
        )
        .await
        .context("recording the upload's outcome")?;
        Ok(match outcome {
            IngestOutcome::Succeeded(result) => {
                tracing::info!(job_id = job.id, rows = result.rows, "upload loaded");
                for loaded in &self.loaded {
                    loaded.notify_one();
                }
                Outcome::Succeeded { job_id: job.id }
            }
            IngestOutcome::Failed(message) => {
                tracing::info!(job_id = job.id, %message, "upload refused");
                Outcome::Failed { job_id: job.id }
            }
        })
    }

    /// A job taken over from a stopped replica whose load committed before it stopped (a cost
    /// engine the replicas share, ClickHouse, holds its marker): its outcome, without loading
    /// it again.
    async fn committed_before(&self, job: &IngestJob, taken_over: bool) -> Option<IngestOutcome> {
        if !taken_over {
            return None;
        }
        match self.engine.committed_load(&job.id.to_string()).await {
            Ok(Some((customer_id, summary))) if customer_id == job.customer_id => {
                tracing::warn!(
                    job_id = job.id,
                    rows = summary.rows,
                    "the upload taken over had loaded before its server stopped"
                );
                Some(IngestOutcome::Succeeded(ingest_result(
                    &summary, &job.files,
                )))
            }
            Ok(_) => None,
            Err(error) => {
                tracing::warn!(job_id = job.id, %error, "could not read the load's marker");
                None
            }
        }
    }

    /// Loads the job's files from `dir`; fails it with `missing` when they are not there.
    async fn load(&self, job: &IngestJob, dir: &Path, missing: &str) -> IngestOutcome {
        let format = match job.format.as_deref().map(str::parse::<Format>).transpose() {
            Ok(format) => format,
            Err(message) => {
                tracing::error!(job_id = job.id, %message, "a queued job has an unknown format");
                return IngestOutcome::Failed(INTERNAL_FAILURE.to_owned());
            }
        };
        let files: Vec<SourceFile> = job
            .files
            .iter()
            .zip(stored_names(&job.files))
            .map(|(file, stored)| SourceFile {
                path: dir.join(stored),
                display_name: file.name.clone(),
            })
            .collect();
        if !files_present(job, dir) {
            tracing::warn!(job_id = job.id, dir = %dir.display(), "uploaded files are missing");
            return IngestOutcome::Failed(missing.to_owned());
        }
        let measured = match check_files(&files, load_bounds(&self.limits)).await {
            Ok(measured) => measured,
            Err(refused) => return IngestOutcome::Failed(refused_message(job.id, refused)),
        };
        match self
            .store
            .ingest_usage(job.customer_id, quotas::utc_day_start(self.clock.now()))
            .await
        {
            Ok(usage) => {
                if let Err(message) =
                    quotas::check_stored_rows(&self.limits, usage.stored_rows, measured.rows)
                {
                    return IngestOutcome::Failed(message);
                }
            }
            Err(error) => {
                tracing::error!(job_id = job.id, %error, "could not read the tenant's usage");
                return IngestOutcome::Failed(INTERNAL_FAILURE.to_owned());
            }
        }
        let request = LoadRequest {
            load_id: job.id.to_string(),
            files,
            format,
            progress: None,
        };
        let loaded = load_recording_progress(
            &self.store,
            self.engine.as_ref(),
            &self.clock,
            job.customer_id,
            job.id,
            request,
        )
        .await;
        match loaded {
            Ok(summary) => IngestOutcome::Succeeded(ingest_result(&summary, &job.files)),
            Err(error) => IngestOutcome::Failed(failure_message(job.id, error)),
        }
    }

    /// Runs `limits.concurrent_loads` slots of [`IngestWorker::run_slot`]. Never returns
    /// unless the task is dropped.
    pub async fn run(self, wake: Arc<Notify>) -> anyhow::Result<()> {
        let mut slots = JoinSet::new();
        for _ in 0..self.limits.concurrent_loads.max(1) {
            slots.spawn(self.clone().run_slot(wake.clone()));
        }
        match slots.join_next().await {
            Some(Ok(result)) => result,
            Some(Err(error)) => Err(anyhow::Error::new(error).context("an ingest slot panicked")),
            None => Ok(()),
        }
    }

    /// Runs every job it can claim, then waits until woken (an upload was queued, another slot
    /// finished one) or until the poll interval has passed.
    async fn run_slot(self, wake: Arc<Notify>) -> anyhow::Result<()> {
        loop {
            loop {
                match self.run_once().await {
                    Ok(Outcome::Idle) => break,
                    // The tenant's next upload may now be claimed by an idle slot.
                    Ok(_) => wake.notify_one(),
                    Err(error) => {
                        tracing::error!(error = ?error, "the ingest worker failed; retrying");
                        tokio::time::sleep(RETRY_AFTER_ERROR).await;
                        break;
                    }
                }
            }
            tokio::select! {
                () = wake.notified() => {}
                () = tokio::time::sleep(POLL_INTERVAL.min(self.lease.ttl)) => {}
            }
        }
    }

    /// Forgets the receiving jobs whose receiver stopped ([`RECEIVING_ABANDONED_AFTER`]) and
    /// deletes their files, so that they neither stay hidden in the store nor fill the
    /// uploads directory.
    async fn forget_abandoned_receives(&self) {
        let bound = chrono::Duration::from_std(RECEIVING_ABANDONED_AFTER)
            .unwrap_or(chrono::Duration::days(1));
        let forgotten = match self
            .store
            .delete_abandoned_receiving_ingest_jobs(self.clock.now() - bound)
            .await
        {
            Ok(forgotten) => forgotten,
            Err(error) => {
                tracing::warn!(%error, "could not forget the abandoned uploads");
                return;
            }
        };
        for job_id in &forgotten {
            remove_upload(&job_dir(&self.uploads_dir, *job_id)).await;
        }
        if !forgotten.is_empty() {
            tracing::warn!(jobs = ?forgotten, "uploads whose receiving server stopped forgotten");
        }
    }
}

/// Deletes an upload's folder; a folder already gone is fine.
pub async fn remove_upload(dir: &Path) {
    match tokio::fs::remove_dir_all(dir).await {
        Ok(()) => {}
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
        Err(error) => {
            tracing::warn!(dir = %dir.display(), %error, "could not delete uploaded files");
        }
    }
}

/// At startup: settles the jobs left running that no process can still be loading.
///
/// * A job whose rows the engine committed (the load's marker: in DuckDB written in the same
///   transaction as its rows, in ClickHouse once every billing period is swapped in) is
///   recorded as succeeded, whoever held it. With DuckDB its loader is gone, since this process
///   holds the file it loaded into; with ClickHouse, which replicas share, a loader still
///   running records the same outcome (a job is finished once only).
/// * A job held by an earlier process of this replica (same data directory): loaded again by
///   the worker when its upload's files are here (its lease ends now, so the next claim takes
///   it over), else failed with [`INTERRUPTED_MESSAGE`].
///
/// Other replicas' jobs are left to their leases: the worker takes one over once its lease
/// has expired.
pub async fn reconcile_interrupted(
    store: &dyn MetadataStore,
    engine: &dyn CostEngine,
    clock: &dyn Clock,
    uploads_dir: &Path,
    holder: &HolderId,
) -> anyhow::Result<()> {
    let running = store
        .running_ingest_jobs()
        .await
        .context("reading the interrupted uploads")?;
    let mut failed = Vec::new();
    for job in running {
        let committed = engine
            .committed_load(&job.id.to_string())
            .await
            .context("reading the cost engine's load markers")?;
        match committed {
            Some((customer_id, summary)) if customer_id == job.customer_id => {
                let outcome = IngestOutcome::Succeeded(ingest_result(&summary, &job.files));
                store
                    .finish_ingest_job(job.id, &outcome, clock.now())
                    .await
                    .context("recording an interrupted upload that had loaded")?;
                remove_upload(&job_dir(uploads_dir, job.id)).await;
                tracing::warn!(
                    job_id = job.id,
                    rows = summary.rows,
                    "an upload interrupted after its rows were committed is recorded as loaded"
                );
                continue;
            }
            Some(_) => {
                tracing::error!(
                    job_id = job.id,
                    "a load marker names another tenant; not recorded"
                );
            }
            None => {}
        }
        let Some(earlier) = job
            .lease_holder
            .as_deref()
            .filter(|earlier| holder.same_replica(earlier))
        else {
            continue;
        };
        if files_present(&job, &job_dir(uploads_dir, job.id)) {
            store
                .release_ingest_job(job.id, earlier)
                .await
                .context("releasing an interrupted upload")?;
            tracing::warn!(
                job_id = job.id,
                "an upload interrupted by the last stop loads again"
            );
            continue;
        }
        let outcome = IngestOutcome::Failed(INTERRUPTED_MESSAGE.to_owned());
        store
            .finish_ingest_job(job.id, &outcome, clock.now())
            .await
            .context("failing an interrupted upload")?;
        remove_upload(&job_dir(uploads_dir, job.id)).await;
        failed.push(job.id);
    }
    if !failed.is_empty() {
        tracing::warn!(jobs = ?failed, "loads interrupted by the last stop marked failed");
    }
    Ok(())
}

/// Whether every file of the job's upload is in `dir` (a direct load's never are).
fn files_present(job: &IngestJob, dir: &Path) -> bool {
    !job.files.is_empty()
        && stored_names(&job.files)
            .iter()
            .all(|stored| dir.join(stored).is_file())
}

/// A file to load directly, with the name the user knows it by.
#[derive(Debug, Clone)]
pub struct LocalFile {
    pub path: PathBuf,
    pub display_name: String,
}

/// A load that does not go through the queue.
pub struct DirectLoad<'a> {
    pub customer_id: i64,
    pub files: &'a [LocalFile],
    pub format: Option<Format>,
    /// Recorded as the job's uploader ("command line", "demo").
    pub created_by: &'a str,
    pub progress: Option<ProgressFn>,
    /// The loading process, holding the job's lease while it loads.
    pub holder: &'a HolderId,
    /// The lease's times (the configuration's `[jobs]`).
    pub lease: LeaseTimes,
}

/// Loads files at once (no queue), recording the load as a job that `load.holder` holds (and
/// renews) while it loads. A refused file is an error whose message is the engine's (file,
/// row, column); other failures are recorded as internal and returned with their cause.
pub async fn load_directly(
    store: &dyn MetadataStore,
    engine: &dyn CostEngine,
    clock: &dyn Clock,
    load: DirectLoad<'_>,
) -> anyhow::Result<LoadSummary> {
    let DirectLoad {
        customer_id,
        files,
        format,
        created_by,
        progress,
        holder,
        lease: times,
    } = load;
    let mut recorded = Vec::with_capacity(files.len());
    for file in files {
        let bytes = std::fs::metadata(&file.path)
            .with_context(|| format!("reading {}", file.path.display()))?
            .len();
        recorded.push(IngestFile {
            name: file.display_name.clone(),
            bytes,
            format: None,
            rows: None,
        });
    }
    // Created receiving (never claimed), then started under this process's lease at once.
    let job_id = store
        .create_ingest_job(NewIngestJob {
            customer_id,
            created_by_user_id: None,
            created_by,
            upload: None,
            source: None,
            cloud_account_id: None,
            now: clock.now(),
        })
        .await
        .context("recording the load")?;
    let now = clock.now();
    let upload = IngestUpload {
        format: format.map(Format::name),
        files: &recorded,
    };
    let lease = IngestLease {
        holder: holder.as_str(),
        now,
        until: times.until(now),
    };
    if !store
        .start_ingest_job(job_id, upload, lease)
        .await
        .context("recording the load")?
    {
        anyhow::bail!("the load's job {job_id} was no longer receiving");
    }
    let request = LoadRequest {
        load_id: job_id.to_string(),
        files: files
            .iter()
            .map(|file| SourceFile {
                path: file.path.clone(),
                display_name: file.display_name.clone(),
            })
            .collect(),
        format,
        progress,
    };
    let loaded = holding_job(store, clock, holder, times, job_id, async {
        engine.load(customer_id, request).await
    })
    .await;
    let (outcome, result) = match loaded {
        Ok(summary) => (
            IngestOutcome::Succeeded(ingest_result(&summary, &recorded)),
            Ok(summary),
        ),
        Err(LoadError::Invalid(refused)) => {
            let message = refused_message(job_id, refused);
            (
                IngestOutcome::Failed(message.clone()),
                Err(anyhow::anyhow!(message)),
            )
        }
        Err(other) => (
            IngestOutcome::Failed(INTERNAL_FAILURE.to_owned()),
            Err(anyhow::Error::new(other).context("loading the files")),
        ),
    };
    store
        .finish_ingest_job(job_id, &outcome, clock.now())
        .await
        .context("recording the load's outcome")?;
    result
}

#[cfg(test)]
mod tests;
