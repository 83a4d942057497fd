//! Which replica runs a job (issue 18, DESIGN §6), on the leases of the metadata store.
//!
//! * Each process has a [`HolderId`]: its data directory's replica id (made once, kept in
//!   `replica.id`) and a random id of the process, logged at start.
//! * A running load holds its job's lease and renews it while it loads ([`renewing`]); a job
//!   whose lease expired is taken over by the next claim of any replica.
//! * The periodic jobs (budget evaluation, anomaly scan, digests, notification delivery) run
//!   their rounds only on the replica holding the job's named lease ([`run_while_holding`]).
//!   A replica woken for a round it does not hold (a load finished on it) asks the holder for
//!   one through the lease.

use std::future::Future;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use argon2::password_hash::rand_core::{OsRng, RngCore};
use costscope_core::Clock;
use costscope_store::{Lease, MetadataStore};
use tokio::sync::Notify;
use tokio::time::Instant;

/// How long a lease runs unless renewed: how long a stopped replica's jobs wait before another
/// replica takes them.
pub const LEASE_TTL: Duration = Duration::from_secs(60);
/// The file of the data directory holding its replica id.
pub const REPLICA_ID_FILE: &str = "replica.id";

/// A lease's time and how often its holder renews it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LeaseTimes {
    pub ttl: Duration,
    pub renew_every: Duration,
}

impl LeaseTimes {
    /// Renewed every third of `ttl`: two renewals may fail before the lease is lost.
    pub fn with_ttl(ttl: Duration) -> Self {
        Self {
            ttl,
            renew_every: ttl / 3,
        }
    }

    /// The expiry of a lease taken or renewed at `now`.
    pub fn until(&self, now: chrono::DateTime<chrono::Utc>) -> chrono::DateTime<chrono::Utc> {
        now + chrono::Duration::from_std(self.ttl).unwrap_or(chrono::Duration::minutes(1))
    }
}

impl Default for LeaseTimes {
    fn default() -> Self {
        Self::with_ttl(LEASE_TTL)
    }
}

/// This process's name in the leases: `<replica id>/<process id>`, both random.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HolderId(Arc<str>);

impl HolderId {
    /// A new process of the replica whose data directory is `data_dir` (its replica id made
    /// there on first use).
    pub fn for_data_dir(data_dir: &Path) -> anyhow::Result<Self> {
        let path = data_dir.join(REPLICA_ID_FILE);
        let replica = match std::fs::read_to_string(&path) {
            Ok(text) if !text.trim().is_empty() => text.trim().to_owned(),
            Ok(_) => write_replica_id(&path)?,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => write_replica_id(&path)?,
            Err(error) => return Err(error).with_context(|| format!("reading {}", path.display())),
        };
        Ok(Self::of_replica(&replica))
    }

    /// A new process of a replica of its own (a worker in a test).
    pub fn random() -> Self {
        Self::of_replica(&random_hex())
    }

    fn of_replica(replica: &str) -> Self {
        Self(format!("{replica}/{}", random_hex()).into())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether `holder` is a process of this one's replica (this one included).
    pub fn same_replica(&self, holder: &str) -> bool {
        let replica = |id: &str| id.split('/').next().map(str::to_owned);
        replica(holder) == replica(&self.0)
    }
}

impl std::fmt::Display for HolderId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

fn random_hex() -> String {
    let mut bytes = [0u8; 8];
    OsRng.fill_bytes(&mut bytes);
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

fn write_replica_id(path: &Path) -> anyhow::Result<String> {
    let id = random_hex();
    std::fs::write(path, format!("{id}\n"))
        .with_context(|| format!("writing {}", path.display()))?;
    Ok(id)
}

/// Runs `work`, renewing a lease every `every` meanwhile. `renew` answers whether the lease is
/// still held; once it is not, renewals stop (the work goes on: what it records is guarded by
/// the store). Dropping the future stops the renewals too, as a killed process would.
pub async fn renewing<T, Fut>(
    work: impl Future<Output = T>,
    every: Duration,
    mut renew: impl FnMut() -> Fut,
) -> T
where
    Fut: Future<Output = bool>,
{
    let renewals = async {
        loop {
            tokio::time::sleep(every).await;
            if !renew().await {
                break;
            }
        }
        std::future::pending::<()>().await;
    };
    tokio::select! {
        output = work => output,
        () = renewals => unreachable!("the renewals never end"),
    }
}

/// One named job's lease as one process sees it.
#[derive(Debug, Clone)]
pub struct JobLease {
    store: Arc<dyn MetadataStore>,
    clock: Arc<dyn Clock>,
    name: &'static str,
    holder: HolderId,
    times: LeaseTimes,
}

impl JobLease {
    /// The lease `name`, held by a process of its own until [`JobLease::held_by`] names it.
    pub fn new(store: Arc<dyn MetadataStore>, clock: Arc<dyn Clock>, name: &'static str) -> Self {
        Self {
            store,
            clock,
            name,
            holder: HolderId::random(),
            times: LeaseTimes::default(),
        }
    }

    pub fn with_times(mut self, times: LeaseTimes) -> Self {
        self.times = times;
        self
    }

    /// The same lease, held by `holder`.
    pub fn held_by(mut self, holder: HolderId) -> Self {
        self.holder = holder;
        self
    }

    /// Takes or renews the lease; `None` while another process holds it.
    pub async fn acquire(&self) -> anyhow::Result<Option<Lease>> {
        let now = self.clock.now();
        self.store
            .leases()
            .acquire_lease(self.name, self.holder.as_str(), now, self.times.until(now))
            .await
            .with_context(|| format!("taking the {} lease", self.name))
    }

    /// Asks the process holding the lease for a round.
    pub async fn wake_holder(&self) -> anyhow::Result<()> {
        self.store
            .leases()
            .wake_lease_holder(self.name)
            .await
            .with_context(|| format!("waking the {} lease's holder", self.name))
    }

    /// Runs `work` with the lease renewed meanwhile (a round longer than the lease's time).
    async fn renewing<T>(&self, work: impl Future<Output = T>) -> T {
        let lease = self;
        renewing(work, self.times.renew_every, move || async move {
            match lease.acquire().await {
                Ok(Some(_)) => true,
                Ok(None) => {
                    tracing::warn!(job = lease.name, "the job's lease was lost during a round");
                    false
                }
                Err(error) => {
                    tracing::warn!(job = lease.name, error = ?error, "could not renew the job's lease");
                    true
                }
            }
        })
        .await
    }
}

/// A job that runs in rounds on one replica at a time.
pub trait PeriodicJob: Send + Sync + 'static {
    /// The lease's name, and the job's in the log.
    const NAME: &'static str;

    /// Rounds when nothing woke the job; `None`: only when woken (and when the lease is taken).
    fn interval(&self) -> Option<Duration>;
    /// The job's lease as this process holds it.
    fn lease(&self) -> &JobLease;
    /// One round (its `run_once`).
    fn round(&self) -> impl Future<Output = anyhow::Result<()>> + Send;
}

/// Runs `job`'s rounds while this process holds its lease: one when it takes the lease, then
/// every interval, when woken, and when another replica asked for one. Looks at the lease
/// every `renew_every`, renewing it. Never returns unless the task is dropped (then the lease
/// expires after its time).
pub async fn run_while_holding<J: PeriodicJob>(
    job: J,
    wake: Option<Arc<Notify>>,
) -> anyhow::Result<()> {
    let lease = job.lease();
    // Since when this process holds the lease: the wake count it has seen, its last round.
    let mut held: Option<(i64, Instant)> = None;
    let mut woken = false;
    loop {
        match lease.acquire().await {
            Ok(Some(now_held)) => {
                let due = match (held, job.interval()) {
                    (None, _) => true,
                    (Some((seen, last)), interval) => {
                        woken
                            || seen != now_held.wakes
                            || interval.is_some_and(|interval| last.elapsed() >= interval)
                    }
                };
                if due {
                    woken = false;
                    held = Some((now_held.wakes, Instant::now()));
                    if let Err(error) = lease.renewing(job.round()).await {
                        tracing::error!(job = J::NAME, error = ?error, "the job's round failed");
                    }
                }
            }
            Ok(None) => {
                held = None;
                if std::mem::take(&mut woken) {
                    if let Err(error) = lease.wake_holder().await {
                        tracing::warn!(job = J::NAME, error = ?error, "could not pass a wake on");
                    }
                }
            }
            Err(error) => {
                tracing::error!(job = J::NAME, error = ?error, "the job's lease could not be read");
            }
        }
        let woken_now = async {
            match &wake {
                Some(wake) => wake.notified().await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            () = woken_now => woken = true,
            () = tokio::time::sleep(lease.times.renew_every) => {}
        }
    }
}

#[cfg(test)]
mod tests;
