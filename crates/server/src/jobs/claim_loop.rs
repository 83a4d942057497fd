//! The loop of the jobs that claim work and carry each claim out in its own task (the cloud
//! sync, discovery): up to `concurrency` claims at once, more claimed whenever one ends, when
//! woken (a person pressed "Sync now" / "Discover now") or every [`POLL_INTERVAL`].

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Notify;
use tokio::task::JoinSet;

/// How often an idle worker looks for work due (scheduled, or asked for on another server).
pub const POLL_INTERVAL: Duration = Duration::from_secs(60);
/// The pause after the store failed, before trying again.
const RETRY_AFTER_ERROR: Duration = Duration::from_secs(5);

/// A worker whose claims [`keep_claiming`] carries out.
pub trait ClaimingWorker: Clone + Send + Sync + 'static {
    type Claim: Send + 'static;
    type Outcome: Send + 'static;
    /// Names the job in the log ("the {NAME} job failed; retrying").
    const NAME: &'static str;

    /// Claims at once, across every claim of this worker.
    fn concurrency(&self) -> usize;
    /// Claims up to `limit` pieces of work due.
    fn claim(&self, limit: usize) -> impl Future<Output = anyhow::Result<Vec<Self::Claim>>> + Send;
    /// Carries out one claim and records how it ended.
    fn carry_out(self, claim: Self::Claim) -> impl Future<Output = Self::Outcome> + Send + 'static;
}

/// Keeps up to `concurrency` claims going. Never returns unless the task is dropped.
pub async fn keep_claiming<W: ClaimingWorker>(worker: W, wake: Arc<Notify>) -> anyhow::Result<()> {
    let mut running: JoinSet<W::Outcome> = JoinSet::new();
    loop {
        let free = worker.concurrency().saturating_sub(running.len());
        if free > 0 {
            match worker.claim(free).await {
                Ok(claimed) => {
                    for claim in claimed {
                        running.spawn(worker.clone().carry_out(claim));
                    }
                }
                Err(error) => {
                    tracing::error!(error = ?error, "the {} job failed; retrying", W::NAME);
                    tokio::time::sleep(RETRY_AFTER_ERROR).await;
                }
            }
        }
        tokio::select! {
            Some(_) = running.join_next(), if !running.is_empty() => {}
            () = wake.notified() => {}
            () = tokio::time::sleep(POLL_INTERVAL) => {}
        }
    }
}
