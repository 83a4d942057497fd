//! The budget evaluation job (DESIGN §6): every budget of every customer is evaluated after each
//! successful ingestion and on a schedule; thresholds reached are recorded exactly once per
//! period (see [`crate::budgets::evaluation`]).

use std::sync::Arc;
use std::time::Duration;

use costscope_core::Clock;
use costscope_engine::CostEngine;
use costscope_store::MetadataStore;
use tokio::sync::Notify;

use crate::budgets::evaluation::evaluate;
use crate::jobs::lease::{run_while_holding, HolderId, JobLease, LeaseTimes, PeriodicJob};
use crate::state::AppState;

/// How often budgets are evaluated when nothing was loaded in between.
pub const EVALUATION_INTERVAL: Duration = Duration::from_secs(15 * 60);

/// What one [`BudgetEvaluator::run_once`] did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Outcome {
    pub budgets: usize,
    /// Thresholds newly recorded in the alert history.
    pub alerts_recorded: usize,
    /// Budgets whose evaluation failed (logged; the others still ran).
    pub failed: usize,
}

#[derive(Debug, Clone)]
pub struct BudgetEvaluator {
    store: Arc<dyn MetadataStore>,
    engine: Arc<dyn CostEngine>,
    clock: Arc<dyn Clock>,
    /// Notified when a run recorded alerts (the notification delivery job waits on it).
    alerted: Option<Arc<Notify>>,
    /// The job's lease: rounds run only while this process holds it.
    lease: JobLease,
}

impl BudgetEvaluator {
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
            alerted: None,
            lease,
        }
    }

    /// Wakes `notify` after every run that recorded alerts.
    pub fn notifying_alerts(mut self, notify: Arc<Notify>) -> Self {
        self.alerted = Some(notify);
        self
    }

    pub fn from_state(state: &AppState) -> Self {
        Self::new(
            state.store.clone(),
            state.engine.clone(),
            state.clock.clone(),
        )
        .notifying_alerts(state.notification_wake.clone())
        .holding_as(state.holder.clone(), state.config.jobs.lease)
    }

    /// Runs its rounds while `holder` holds the job's lease, taken for `times`.
    pub fn holding_as(mut self, holder: HolderId, times: LeaseTimes) -> Self {
        self.lease = self.lease.held_by(holder).with_times(times);
        self
    }

    /// Evaluates every budget once. One budget's failure does not stop the others.
    #[tracing::instrument(skip_all)]
    pub async fn run_once(&self) -> anyhow::Result<Outcome> {
        let budgets = self.store.budgets_of_all_customers().await?;
        let mut outcome = Outcome {
            budgets: budgets.len(),
            ..Outcome::default()
        };
        for budget in &budgets {
            let now = self.clock.now();
            match evaluate(self.store.as_ref(), self.engine.as_ref(), budget, now).await {
                Ok(recorded) => outcome.alerts_recorded += recorded,
                Err(error) => {
                    outcome.failed += 1;
                    tracing::error!(budget_id = budget.id, error = ?error, "evaluating a budget failed");
                }
            }
        }
        if outcome.alerts_recorded > 0 {
            if let Some(alerted) = &self.alerted {
                alerted.notify_one();
            }
            tracing::info!(
                budgets = outcome.budgets,
                alerts = outcome.alerts_recorded,
                "budget alerts recorded"
            );
        }
        Ok(outcome)
    }

    /// On the replica holding the job's lease: evaluates at once, then whenever woken (an
    /// ingestion finished, here or on another replica) or the interval passed. Never returns
    /// unless the task is dropped.
    pub async fn run(self, wake: Arc<Notify>) -> anyhow::Result<()> {
        run_while_holding(self, Some(wake)).await
    }
}

impl PeriodicJob for BudgetEvaluator {
    const NAME: &'static str = "budget-evaluation";

    fn interval(&self) -> Option<Duration> {
        Some(EVALUATION_INTERVAL)
    }

    fn lease(&self) -> &JobLease {
        &self.lease
    }

    async fn round(&self) -> anyhow::Result<()> {
        self.run_once().await.map(drop)
    }
}
