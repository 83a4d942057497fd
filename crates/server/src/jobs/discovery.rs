//! The discovery job (issue 14, spec 2 §4 Discovery trigger): lists what runs in each
//! connected AWS account of a tenant and records it in the inventory, on a schedule
//! (`[discovery] interval_hours`) and on demand (`POST /v1/job`).
//!
//! A run covers one tenant. Its accounts are every AWS connection with a role (the role and the
//! tenant's external id of its registration) and every member account an organisation's
//! registration check listed: a member is reached through the role of the same name in the
//! member account (what the onboarding StackSet deploys there), assumed with the organisation's
//! external id. Per account: assume the role (the same rule as the sync,
//! `costscope_connectors::aws::AwsRole`), discover (every enabled region, or `[discovery]
//! regions`), record in one transaction (`record_discovery`: only the region × type pairs
//! listed completely may mark a resource deleted, so a failed region or service loses
//! nothing).
//!
//! `concurrency` accounts are discovered at once across every run; each within
//! `timeout_seconds`. One failing account never stops the others; its failure, and every
//! region or service that failed, are in the run's summary. A run left running by a stopped
//! server is failed once it is older than its time limit ([`DiscoveryWorker::run_time_limit`]).

use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use costscope_connectors::aws::{discover_account, AwsRole, AwsSdk, DiscoveryReport};
use costscope_connectors::settings::AwsExportSettings;
use costscope_store::{
    CloudConnection, DiscoveryClaim, DiscoveryDiff, DiscoveryFinish, DiscoveryRunState,
    DiscoveryWrite,
};
use futures_util::FutureExt;
use serde::Serialize;
use serde_json::Value;
use tokio::sync::{Notify, OnceCell, Semaphore};
use tokio::task::JoinSet;

use crate::cloud::sources::own_aws_identity;
use crate::jobs::claim_loop::{keep_claiming, ClaimingWorker};
use crate::state::AppState;

/// A running run older than its time limit plus this was left by a stopped server.
const STALE_MARGIN: Duration = Duration::from_secs(5 * 60);
/// What a run records when something that is not the cloud's fault failed (logged).
pub const INTERNAL_FAILURE: &str = "Discovery failed: internal error";
/// A run's summary error when the tenant has no AWS account to discover.
pub const NO_ACCOUNTS: &str = "Connect an AWS account before running discovery";

/// What one [`DiscoveryWorker::run_once`] did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Outcome {
    /// Runs claimed (and carried out).
    pub claimed: usize,
    pub succeeded: usize,
    pub partial: usize,
    pub failed: usize,
}

/// Carries out the discovery runs due.
#[derive(Debug, Clone)]
pub struct DiscoveryWorker {
    state: AppState,
    /// Accounts discovered at once, across every run of this worker.
    accounts: Arc<Semaphore>,
    /// Costscope's own AWS identity, loaded on first use.
    sdk: Arc<OnceCell<AwsSdk>>,
}

/// One account of a run: where its resources are recorded and the role that lists them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    pub connection_id: i64,
    pub account_id: String,
    pub role: AwsRole,
}

/// How one account's discovery ended (an entry of the run's summary).
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct AccountSummary {
    pub account_id: String,
    pub connection_id: i64,
    /// `succeeded`, `partial` (some region or service failed) or `failed`.
    pub state: &'static str,
    pub created: u64,
    pub changed: u64,
    pub deleted: u64,
    pub unchanged: u64,
    pub revived: u64,
    /// Resources found.
    pub resources: u64,
    pub failures: Vec<RegionFailure>,
    /// Why the account could not be discovered at all.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// A region × service that could not be listed.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct RegionFailure {
    pub region: String,
    pub service: String,
    pub message: String,
}

impl AccountSummary {
    fn failed(target: &Target, error: String) -> Self {
        Self {
            account_id: target.account_id.clone(),
            connection_id: target.connection_id,
            state: "failed",
            created: 0,
            changed: 0,
            deleted: 0,
            unchanged: 0,
            revived: 0,
            resources: 0,
            failures: Vec::new(),
            error: Some(error),
        }
    }

    fn recorded(target: &Target, report: &DiscoveryReport, diff: DiscoveryDiff) -> Self {
        let failures: Vec<RegionFailure> = report
            .failures
            .iter()
            .map(|failure| RegionFailure {
                region: failure.region.clone(),
                service: failure.service.clone(),
                message: failure.message.clone(),
            })
            .collect();
        Self {
            account_id: target.account_id.clone(),
            connection_id: target.connection_id,
            state: if failures.is_empty() {
                "succeeded"
            } else {
                "partial"
            },
            created: diff.created,
            changed: diff.changed,
            deleted: diff.deleted,
            unchanged: diff.unchanged,
            revived: diff.revived,
            resources: report.resources.len() as u64,
            failures,
            error: None,
        }
    }
}

/// The run's state from its accounts: failed when none was recorded, partial when any account,
/// region or service failed.
pub fn run_state(accounts: &[AccountSummary]) -> DiscoveryRunState {
    if accounts.is_empty() || accounts.iter().all(|account| account.state == "failed") {
        DiscoveryRunState::Failed
    } else if accounts.iter().all(|account| account.state == "succeeded") {
        DiscoveryRunState::Succeeded
    } else {
        DiscoveryRunState::Partial
    }
}

/// The run's summary: its accounts and their totals.
pub fn summary(accounts: &[AccountSummary], error: Option<&str>) -> Value {
    let sum = |field: fn(&AccountSummary) -> u64| accounts.iter().map(field).sum::<u64>();
    let mut value = serde_json::json!({
        "accounts": accounts,
        "totals": {
            "accounts": accounts.len(),
            "failed_accounts": accounts.iter().filter(|a| a.state == "failed").count(),
            "resources": sum(|a| a.resources),
            "created": sum(|a| a.created),
            "changed": sum(|a| a.changed),
            "deleted": sum(|a| a.deleted),
            "unchanged": sum(|a| a.unchanged),
            "revived": sum(|a| a.revived),
            "region_failures": accounts.iter().map(|a| a.failures.len()).sum::<usize>(),
        },
    });
    if let Some(error) = error {
        value["error"] = Value::from(error);
    }
    value
}

/// The accounts a tenant's run discovers, from its connections: each AWS connection with a
/// role, and each member account listed under an organisation through the role of the same
/// name in the member account (with the organisation's external id).
pub fn targets(connections: &[CloudConnection]) -> Vec<Target> {
    let role_of = |connection: &CloudConnection| -> Option<AwsRole> {
        let settings: AwsExportSettings =
            serde_json::from_value(connection.settings.clone()).ok()?;
        (!settings.role_arn.trim().is_empty()).then(|| AwsRole::from(&settings))
    };
    let mut targets = Vec::new();
    for connection in connections.iter().filter(|c| c.provider == "aws") {
        let role = match connection.parent_id {
            None => role_of(connection),
            Some(parent_id) => connections
                .iter()
                .find(|parent| parent.id == parent_id)
                .and_then(role_of)
                .and_then(|parent| {
                    Some(AwsRole {
                        role_arn: role_in_account(&parent.role_arn, &connection.account_id)?,
                        external_id: parent.external_id,
                    })
                }),
        };
        if let Some(role) = role {
            if !targets
                .iter()
                .any(|known: &Target| known.account_id == connection.account_id)
            {
                targets.push(Target {
                    connection_id: connection.id,
                    account_id: connection.account_id.clone(),
                    role,
                });
            }
        }
    }
    targets
}

/// The ARN of the role named like `role_arn`'s in `account_id`
/// (`arn:aws:iam::111111111111:role/Name` → `arn:aws:iam::222222222222:role/Name`).
pub fn role_in_account(role_arn: &str, account_id: &str) -> Option<String> {
    let parts: Vec<&str> = role_arn.splitn(6, ':').collect();
    match parts.as_slice() {
        ["arn", partition, "iam", "", _account, resource] if resource.starts_with("role/") => {
            Some(format!("arn:{partition}:iam::{account_id}:{resource}"))
        }
        _ => None,
    }
}

impl DiscoveryWorker {
    pub fn new(state: AppState) -> Self {
        let permits = state.config.discovery.concurrency.max(1);
        Self {
            state,
            accounts: Arc::new(Semaphore::new(permits)),
            sdk: Arc::new(OnceCell::new()),
        }
    }

    pub fn from_state(state: &AppState) -> Self {
        Self::new(state.clone())
    }

    fn concurrency(&self) -> usize {
        self.state.config.discovery.concurrency.max(1)
    }

    /// The longest one account's discovery may take.
    fn account_time_limit(&self) -> Duration {
        Duration::from_secs(self.state.config.discovery.timeout_seconds.max(1))
    }

    /// The longest a whole run may take: twice an account's limit. An account whose turn
    /// comes after it is reported as not discovered (tried again next run).
    pub fn run_time_limit(&self) -> Duration {
        self.account_time_limit() * 2
    }

    async fn sdk(&self) -> &AwsSdk {
        self.sdk
            .get_or_init(|| own_aws_identity(&self.state.config.cloud))
            .await
    }

    /// Fails the runs a stopped server left running, then claims up to `limit` runs due.
    async fn claim(&self, limit: usize) -> anyhow::Result<Vec<DiscoveryClaim>> {
        let inventory = self.state.store.inventory();
        let now = self.state.clock.now();
        let stale = chrono::Duration::from_std(self.run_time_limit() + STALE_MARGIN)
            .unwrap_or(chrono::Duration::hours(3));
        let interrupted = inventory
            .fail_interrupted_discoveries(now, now - stale)
            .await
            .context("failing the discovery runs a stopped server left")?;
        if interrupted > 0 {
            tracing::warn!(
                interrupted,
                "failed discovery runs left by a stopped server"
            );
        }
        let interval =
            chrono::Duration::hours(i64::from(self.state.config.discovery.interval_hours));
        inventory
            .claim_due_discoveries(now, interval, limit)
            .await
            .context("claiming the discovery runs due")
    }

    /// Claims the runs due (up to `concurrency`), carries them out and answers when all have
    /// ended.
    #[tracing::instrument(skip_all)]
    pub async fn run_once(&self) -> anyhow::Result<Outcome> {
        let claimed = self.claim(self.concurrency()).await?;
        let mut outcome = Outcome {
            claimed: claimed.len(),
            ..Outcome::default()
        };
        let mut running = JoinSet::new();
        for claim in claimed {
            running.spawn(self.clone().run_and_record(claim));
        }
        while let Some(joined) = running.join_next().await {
            match joined {
                Ok(DiscoveryRunState::Succeeded) => outcome.succeeded += 1,
                Ok(DiscoveryRunState::Partial) => outcome.partial += 1,
                Ok(_) | Err(_) => outcome.failed += 1,
            }
        }
        Ok(outcome)
    }

    /// Keeps up to `concurrency` claims going (see [`keep_claiming`]). Never returns unless
    /// the task is dropped.
    pub async fn run(self, wake: Arc<Notify>) -> anyhow::Result<()> {
        keep_claiming(self, wake).await
    }

    /// Carries out one claimed run and records how it ended. Answers its state.
    async fn run_and_record(self, claim: DiscoveryClaim) -> DiscoveryRunState {
        let started = std::time::Instant::now();
        tracing::info!(
            run_id = claim.run_id,
            customer_id = claim.customer_id,
            trigger = claim.trigger.as_str(),
            "discovery run started"
        );
        let ran = std::panic::AssertUnwindSafe(self.discover_tenant(&claim))
            .catch_unwind()
            .await;
        let (state, summary) = match ran {
            Ok(Ok(accounts)) if accounts.is_empty() => (
                DiscoveryRunState::Failed,
                summary(&accounts, Some(NO_ACCOUNTS)),
            ),
            Ok(Ok(accounts)) => (run_state(&accounts), summary(&accounts, None)),
            Ok(Err(error)) => {
                tracing::error!(run_id = claim.run_id, error = ?error, "discovery run failed");
                (
                    DiscoveryRunState::Failed,
                    summary(&[], Some(INTERNAL_FAILURE)),
                )
            }
            Err(_panic) => {
                tracing::error!(run_id = claim.run_id, "the discovery run panicked");
                (
                    DiscoveryRunState::Failed,
                    summary(&[], Some(INTERNAL_FAILURE)),
                )
            }
        };
        tracing::info!(
            run_id = claim.run_id,
            customer_id = claim.customer_id,
            state = state.as_str(),
            elapsed_ms = started.elapsed().as_millis() as u64,
            "discovery run finished"
        );
        self.state.metrics.discovery_finished(state.as_str());
        let finish = DiscoveryFinish {
            now: self.state.clock.now(),
            state,
            summary,
        };
        if let Err(error) = self
            .state
            .store
            .inventory()
            .finish_discovery(claim.run_id, finish)
            .await
        {
            tracing::error!(run_id = claim.run_id, %error, "could not record how a discovery run ended");
        }
        state
    }

    /// Discovers every account of the claim's tenant, `concurrency` at once across runs.
    async fn discover_tenant(&self, claim: &DiscoveryClaim) -> anyhow::Result<Vec<AccountSummary>> {
        let connections = self
            .state
            .store
            .list_connections(claim.customer_id)
            .await
            .context("listing the tenant's connections")?;
        let deadline = tokio::time::Instant::now() + self.run_time_limit();
        let mut running = JoinSet::new();
        for (index, target) in targets(&connections).into_iter().enumerate() {
            let worker = self.clone();
            let customer_id = claim.customer_id;
            running.spawn(async move {
                let summary = worker
                    .discover_in_turn(customer_id, &target, deadline)
                    .await;
                (index, summary)
            });
        }
        let mut accounts = Vec::new();
        while let Some(joined) = running.join_next().await {
            match joined {
                Ok(done) => accounts.push(done),
                Err(error) => tracing::error!(%error, "an account's discovery task failed"),
            }
        }
        accounts.sort_by_key(|(index, _)| *index);
        Ok(accounts.into_iter().map(|(_, summary)| summary).collect())
    }

    /// Waits for a free slot, then discovers and records one account within its time limit
    /// (and the run's).
    async fn discover_in_turn(
        &self,
        customer_id: i64,
        target: &Target,
        deadline: tokio::time::Instant,
    ) -> AccountSummary {
        let permit = tokio::time::timeout_at(deadline, self.accounts.clone().acquire_owned()).await;
        let Ok(Ok(_permit)) = permit else {
            return self.account_ended(AccountSummary::failed(
                target,
                format!(
                    "Not discovered: the run did not reach this account within {}; it will be \
                     tried again",
                    human_duration(self.run_time_limit())
                ),
            ));
        };
        let limit = self
            .account_time_limit()
            .min(deadline.saturating_duration_since(tokio::time::Instant::now()));
        let started = std::time::Instant::now();
        let discovered = std::panic::AssertUnwindSafe(tokio::time::timeout(
            limit,
            self.discover_account(customer_id, target),
        ))
        .catch_unwind()
        .await;
        let summary = match discovered {
            Ok(Ok(summary)) => summary,
            Ok(Err(_elapsed)) => AccountSummary::failed(
                target,
                format!(
                    "Discovery of account {} did not finish within {}; it will be tried again",
                    target.account_id,
                    human_duration(limit)
                ),
            ),
            Err(_panic) => {
                tracing::error!(account_id = %target.account_id, "an account's discovery panicked");
                AccountSummary::failed(target, INTERNAL_FAILURE.to_owned())
            }
        };
        tracing::info!(
            customer_id,
            account_id = %target.account_id,
            state = summary.state,
            resources = summary.resources,
            region_failures = summary.failures.len(),
            elapsed_ms = started.elapsed().as_millis() as u64,
            "account discovered"
        );
        self.account_ended(summary)
    }

    fn account_ended(&self, summary: AccountSummary) -> AccountSummary {
        self.state.metrics.discovered_account(
            summary.state,
            &[
                ("created", summary.created),
                ("changed", summary.changed),
                ("deleted", summary.deleted),
                ("revived", summary.revived),
            ],
        );
        summary
    }

    /// Discovers one account and records what was found.
    async fn discover_account(&self, customer_id: i64, target: &Target) -> AccountSummary {
        let regions = self.state.config.discovery.fixed_regions();
        let report =
            match discover_account(self.sdk().await, &target.role, &target.account_id, regions)
                .await
            {
                Ok(report) => report,
                Err(error) => return AccountSummary::failed(target, error.message),
            };
        let write = DiscoveryWrite {
            customer_id,
            connection_id: target.connection_id,
            account_id: &target.account_id,
            now: self.state.clock.now(),
            complete_scopes: &report.complete_scopes,
            resources: &report.resources,
        };
        match self.state.store.inventory().record_discovery(write).await {
            Ok(diff) => AccountSummary::recorded(target, &report, diff),
            Err(error) => {
                tracing::error!(account_id = %target.account_id, %error, "recording a discovery");
                AccountSummary::failed(target, INTERNAL_FAILURE.to_owned())
            }
        }
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
    use chrono::Utc;
    use costscope_store::SyncStatus;
    use serde_json::json;

    fn connection(
        id: i64,
        account: &str,
        parent_id: Option<i64>,
        settings: Value,
    ) -> CloudConnection {
        CloudConnection {
            id,
            customer_id: 1,
            provider: "aws".to_owned(),
            account_id: account.to_owned(),
            account_name: format!("Account {account}"),
            organization_id: None,
            parent_id,
            settings,
            has_secret: false,
            created_by_user_id: None,
            created_at: Utc::now(),
            registration: None,
            sync: SyncStatus::default(),
        }
    }

    fn aws_settings(role_arn: &str) -> Value {
        json!({
            "role_arn": role_arn,
            "external_id": "costscope-1-abc",
            "bucket": "b",
            "prefix": "p",
            "export_name": "e",
            "region": "us-east-1",
        })
    }

    #[test]
    fn a_member_account_is_reached_through_the_role_of_the_same_name() {
        assert_eq!(
            role_in_account(
                "arn:aws:iam::111111111111:role/CostscopeReadOnly",
                "222222222222"
            )
            .as_deref(),
            Some("arn:aws:iam::222222222222:role/CostscopeReadOnly")
        );
        assert_eq!(
            role_in_account("arn:aws-cn:iam::111111111111:role/path/R", "222222222222").as_deref(),
            Some("arn:aws-cn:iam::222222222222:role/path/R")
        );
        assert_eq!(
            role_in_account("arn:aws:iam::111111111111:user/u", "2"),
            None
        );
        assert_eq!(role_in_account("not an arn", "2"), None);
    }

    #[test]
    fn the_targets_are_the_aws_connections_with_a_role_and_the_members() {
        let mut gcp = connection(9, "my-project", None, json!({}));
        gcp.provider = "gcp".to_owned();
        let connections = vec![
            connection(
                1,
                "111111111111",
                None,
                aws_settings("arn:aws:iam::111111111111:role/R"),
            ),
            connection(2, "222222222222", Some(1), json!({})),
            connection(3, "333333333333", None, json!({})),
            gcp,
        ];
        let found = targets(&connections);
        assert_eq!(
            found,
            vec![
                Target {
                    connection_id: 1,
                    account_id: "111111111111".to_owned(),
                    role: AwsRole {
                        role_arn: "arn:aws:iam::111111111111:role/R".to_owned(),
                        external_id: "costscope-1-abc".to_owned(),
                    },
                },
                Target {
                    connection_id: 2,
                    account_id: "222222222222".to_owned(),
                    role: AwsRole {
                        role_arn: "arn:aws:iam::222222222222:role/R".to_owned(),
                        external_id: "costscope-1-abc".to_owned(),
                    },
                },
            ]
        );
    }

    fn account(state: &'static str) -> AccountSummary {
        AccountSummary {
            account_id: "111111111111".to_owned(),
            connection_id: 1,
            state,
            created: 2,
            changed: 1,
            deleted: 0,
            unchanged: 3,
            revived: 0,
            resources: 6,
            failures: Vec::new(),
            error: None,
        }
    }

    #[test]
    fn a_run_fails_when_no_account_was_recorded_and_is_partial_when_one_failed() {
        assert_eq!(run_state(&[]), DiscoveryRunState::Failed);
        assert_eq!(run_state(&[account("failed")]), DiscoveryRunState::Failed);
        assert_eq!(
            run_state(&[account("succeeded"), account("succeeded")]),
            DiscoveryRunState::Succeeded
        );
        assert_eq!(
            run_state(&[account("succeeded"), account("failed")]),
            DiscoveryRunState::Partial
        );
        assert_eq!(run_state(&[account("partial")]), DiscoveryRunState::Partial);
        let summary = summary(&[account("succeeded"), account("partial")], None);
        assert_eq!(summary["totals"]["created"], 4);
        assert_eq!(summary["totals"]["resources"], 12);
        assert_eq!(summary["accounts"][1]["state"], "partial");
        assert!(summary.get("error").is_none());
    }
}

impl ClaimingWorker for DiscoveryWorker {
    type Claim = DiscoveryClaim;
    type Outcome = DiscoveryRunState;
    const NAME: &'static str = "discovery";

    fn concurrency(&self) -> usize {
        DiscoveryWorker::concurrency(self)
    }

    fn claim(
        &self,
        limit: usize,
    ) -> impl std::future::Future<Output = anyhow::Result<Vec<Self::Claim>>> + Send {
        DiscoveryWorker::claim(self, limit)
    }

    fn carry_out(
        self,
        claim: Self::Claim,
    ) -> impl std::future::Future<Output = Self::Outcome> + Send + 'static {
        self.run_and_record(claim)
    }
}
