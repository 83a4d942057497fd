//! Metadata storage: customers, users, sessions, invitations, cloud accounts.
//!
//! [`MetadataStore`] is the only way the server touches metadata. [`connect`] picks the
//! backend from the URL scheme: `sqlite:` or `postgres://`.

pub mod anomalies;
mod budget_alerts;
mod budgets;
pub mod channels;
mod connections;
pub mod digests;
mod error;
mod ingest_jobs;
mod inputs;
pub mod inventory;
pub mod leases;
mod notifications;
mod postgres;
pub mod rate_limits;
mod rows;
mod sql_store;
mod sqlite;
pub mod teams;
#[cfg(feature = "test-support")]
pub mod testing;

use std::sync::Arc;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use costscope_core::{CloudAccount, Customer, Email, User};

pub use anomalies::{AnomalyScan, AnomalyStore, ScanOutcome, ScannedAnomaly, StoredAnomaly};
pub use budget_alerts::{AlertForecast, BudgetAlert, NewBudgetAlert};
pub use budgets::{Budget, BudgetChanges, BudgetConfigChange, BudgetConfigField, NewBudget};
pub use channels::{
    AlertDelivery, Channel, ChannelCreation, ChannelStore, ChannelTarget, Delivery, DueDelivery,
    LastDelivery, NewChannel,
};
pub use connections::{
    CloudConnection, MemberAccount, NewCloudConnection, RegistrationCheck, SyncOutcome, SyncState,
    SyncStatus, SyncedPeriod, REGISTRATION_FAILED, REGISTRATION_RUNNING, REGISTRATION_SUCCEEDED,
};
pub use digests::{
    DigestMail, DigestSend, DigestSettings, DigestStore, DigestSubscriber, NewDigest,
};
pub use error::StoreError;
pub use ingest_jobs::{
    ClaimedIngestJob, IngestBillingPeriod, IngestFile, IngestJob, IngestJobStatus, IngestLease,
    IngestOutcome, IngestProgress, IngestResult, IngestTotals, IngestUpload, IngestUsage,
    NewIngestJob, INTERRUPTED_MESSAGE,
};
pub use inputs::{
    InvitationDetails, LoginRecord, NewCloudAccount, NewCustomer, NewInvitation, UserChanges,
};
pub use inventory::{
    DiscoveryClaim, DiscoveryDiff, DiscoveryFinish, DiscoveryRequest, DiscoveryRun,
    DiscoveryRunState, DiscoveryTrigger, DiscoveryWrite, InventoryStore, ResourceTrendPoint,
    ResourceTypeCount, INTERRUPTED_DISCOVERY,
};
pub use leases::{Lease, LeaseStore};
pub use notifications::{NotificationKind, OutboxNotification};
pub use postgres::PgStore;
pub use rate_limits::RateLimitStore;
pub use sqlite::SqliteStore;
pub use teams::{
    NewSignIn, SignIn, TeamsConfiguration, TeamsIntegration, TeamsSelection, TeamsStore,
    TeamsTokens,
};

/// Everything the server stores about tenants. Every call on tenant data takes the
/// customer id and only ever sees that customer's rows.
#[async_trait]
pub trait MetadataStore: Send + Sync + std::fmt::Debug {
    /// Applies the backend's pending migrations.
    async fn migrate(&self) -> Result<(), StoreError>;
    /// Answers when the database does.
    async fn ping(&self) -> Result<(), StoreError>;
    /// Closes every pooled connection.
    async fn close(&self);
    /// The resource inventory, standard tags, discovery runs and dismissed recommendations
    /// (issue 14), in the same database.
    fn inventory(&self) -> &dyn InventoryStore;
    /// Notification channels, their deliveries and the channels budgets name (issue 15), in the
    /// same database.
    fn channels(&self) -> &dyn ChannelStore;
    /// Microsoft Teams integrations (sign-ins, tokens, the team and channel picked), in the
    /// same database.
    fn teams(&self) -> &dyn TeamsStore;
    /// Cost anomalies, their notifications and the tenant's anomaly settings (stop 25), in the
    /// same database.
    fn anomalies(&self) -> &dyn AnomalyStore;
    /// Users' digest choices and the digests sent (issue 15), in the same database.
    fn digests(&self) -> &dyn DigestStore;
    /// Named job leases: which replica runs a job (issue 18), in the same database.
    fn leases(&self) -> &dyn LeaseStore;
    /// The auth routes' rate-limit counts, shared by the replicas (issue 18), in the same
    /// database.
    fn rate_limits(&self) -> &dyn RateLimitStore;

    /// Creates a customer and its owner in one transaction.
    /// [`StoreError::Conflict`] when the owner's e-mail is taken.
    async fn create_customer_with_owner(
        &self,
        new: NewCustomer<'_>,
    ) -> Result<(Customer, User), StoreError>;
    async fn get_customer(&self, customer_id: i64) -> Result<Option<Customer>, StoreError>;
    async fn set_trial_end(
        &self,
        customer_id: i64,
        trial_end: DateTime<Utc>,
    ) -> Result<(), StoreError>;
    /// The customer's display currency (a three-letter code), `None` when not chosen.
    async fn display_currency(&self, customer_id: i64) -> Result<Option<String>, StoreError>;
    /// Sets (or with `None` clears) the customer's display currency.
    async fn set_display_currency(
        &self,
        customer_id: i64,
        currency: Option<&str>,
    ) -> Result<(), StoreError>;

    /// Looks up a user by e-mail across the installation (sign-in only).
    async fn find_login(&self, email: &Email) -> Result<Option<LoginRecord>, StoreError>;
    async fn get_user(&self, customer_id: i64, user_id: i64) -> Result<Option<User>, StoreError>;
    async fn get_owner(&self, customer_id: i64) -> Result<Option<User>, StoreError>;
    /// The owner first, then by name.
    async fn list_users(&self, customer_id: i64) -> Result<Vec<User>, StoreError>;
    /// Creates a pending user and its invitation in one transaction.
    /// [`StoreError::Conflict`] when the e-mail is taken.
    async fn invite_user(&self, invite: NewInvitation<'_>) -> Result<User, StoreError>;
    /// `None` when the user is not one of the customer's.
    async fn update_user(
        &self,
        customer_id: i64,
        user_id: i64,
        changes: UserChanges<'_>,
    ) -> Result<Option<User>, StoreError>;
    /// Deletes the user with their sessions and invitations; `false` when not the customer's.
    async fn delete_user(&self, customer_id: i64, user_id: i64) -> Result<bool, StoreError>;

    /// Stores the first refresh token of a sign-in; it starts a token family.
    async fn insert_refresh_token(
        &self,
        user_id: i64,
        token_hash: &str,
        expires_at: DateTime<Utc>,
    ) -> Result<(), StoreError>;
    /// Revokes a live refresh token and stores its successor in the same family, atomically.
    /// `None` (and nothing stored) when the old token is unknown, expired or already revoked;
    /// an already revoked (rotated or signed-out) token is a replay, and every token of its
    /// family is revoked, the live successor included.
    async fn rotate_refresh_token(
        &self,
        old_hash: &str,
        new_hash: &str,
        new_expires_at: DateTime<Utc>,
        now: DateTime<Utc>,
    ) -> Result<Option<User>, StoreError>;
    async fn revoke_refresh_token(
        &self,
        token_hash: &str,
        now: DateTime<Utc>,
    ) -> Result<(), StoreError>;

    /// A live (unused, unexpired) invitation.
    async fn find_invitation(
        &self,
        token_hash: &str,
        now: DateTime<Utc>,
    ) -> Result<Option<InvitationDetails>, StoreError>;
    /// Spends a live invitation: sets the user's name and password and activates them.
    async fn accept_invitation(
        &self,
        token_hash: &str,
        name: &str,
        password_hash: &str,
        now: DateTime<Utc>,
    ) -> Result<Option<User>, StoreError>;

    async fn list_cloud_accounts(&self, customer_id: i64) -> Result<Vec<CloudAccount>, StoreError>;
    async fn add_cloud_account(
        &self,
        customer_id: i64,
        account: NewCloudAccount<'_>,
    ) -> Result<CloudAccount, StoreError>;

    // ---- cloud connections (issue 13) ----

    /// Creates a connection. [`StoreError::Conflict`] when the customer already has one for
    /// the same provider and account id.
    async fn create_connection(
        &self,
        new: NewCloudConnection<'_>,
    ) -> Result<CloudConnection, StoreError>;
    /// The customer's connections: top-level ones by provider then name, each organisation
    /// followed by its member accounts by name.
    async fn list_connections(&self, customer_id: i64) -> Result<Vec<CloudConnection>, StoreError>;
    async fn get_connection(
        &self,
        customer_id: i64,
        id: i64,
    ) -> Result<Option<CloudConnection>, StoreError>;
    async fn find_connection(
        &self,
        customer_id: i64,
        provider: &str,
        account_id: &str,
    ) -> Result<Option<CloudConnection>, StoreError>;
    /// The encrypted secret of one of the customer's connections.
    async fn connection_secret(
        &self,
        customer_id: i64,
        id: i64,
    ) -> Result<Option<String>, StoreError>;
    /// Replaces a connection's settings and, with `Some`, its encrypted secret (`Some(None)`
    /// clears it). `false` when not the customer's.
    async fn update_connection_settings(
        &self,
        customer_id: i64,
        id: i64,
        settings: &serde_json::Value,
        encrypted_secret: Option<Option<&str>>,
    ) -> Result<bool, StoreError>;
    /// Renames a connection, sets (or clears) its organisation id and makes it a connection
    /// of its own (no longer listed under an organisation): registering an account again.
    /// `false` when not the customer's.
    async fn rename_connection(
        &self,
        customer_id: i64,
        id: i64,
        account_name: &str,
        organization_id: Option<&str>,
    ) -> Result<bool, StoreError>;
    /// Deletes the customer's connections of `provider` with these account ids (their member
    /// accounts and sync records with them); the loaded cost data stays. Answers how many
    /// were deleted.
    async fn delete_connections(
        &self,
        customer_id: i64,
        provider: &str,
        account_ids: &[String],
    ) -> Result<u64, StoreError>;
    /// Replaces the member accounts listed under an organisation connection: new ones are
    /// added (provider `aws`, `parent_id` set), known ones renamed, vanished ones deleted.
    /// An account the customer connected on its own is left as it is.
    async fn replace_member_accounts(
        &self,
        customer_id: i64,
        parent_id: i64,
        members: &[MemberAccount],
        now: DateTime<Utc>,
    ) -> Result<(), StoreError>;

    /// Starts a registration check: sets it running, atomically, unless one is running and
    /// started after `stale_before` (then `false` and nothing changes). A running check
    /// older than that is taken to have died with its server and is started again.
    async fn start_registration_check(
        &self,
        customer_id: i64,
        id: i64,
        now: DateTime<Utc>,
        stale_before: DateTime<Utc>,
    ) -> Result<bool, StoreError>;
    /// Records how the running check ended (`state` 6 or 7).
    async fn finish_registration_check(
        &self,
        id: i64,
        state: i32,
        details: &str,
        now: DateTime<Utc>,
    ) -> Result<(), StoreError>;

    /// "Sync now": asks for a sync of one of the customer's connections. `false` when not
    /// the customer's.
    async fn request_sync(
        &self,
        customer_id: i64,
        id: i64,
        now: DateTime<Utc>,
    ) -> Result<bool, StoreError>;
    /// Claims up to `limit` connections due for a sync and marks them running, atomically (on
    /// several servers each is claimed once): those with settings whose sync was requested, or
    /// that never synced, or whose last sync started before `due_before`; and those left
    /// running by a stopped server (started before `stale_before`). Requested ones first.
    async fn claim_due_syncs(
        &self,
        now: DateTime<Utc>,
        due_before: DateTime<Utc>,
        stale_before: DateTime<Utc>,
        limit: u32,
    ) -> Result<Vec<CloudConnection>, StoreError>;
    /// Records how a connection's running sync ended and clears its request, unless "Sync
    /// now" was pressed after the sync started (then the request stays, for the next round).
    async fn finish_sync(
        &self,
        id: i64,
        outcome: &SyncOutcome,
        now: DateTime<Utc>,
    ) -> Result<(), StoreError>;
    /// The fingerprints recorded for a connection's billing periods.
    async fn synced_periods(&self, connection_id: i64) -> Result<Vec<SyncedPeriod>, StoreError>;
    /// Records (or replaces) a billing period's fingerprint after its successful load.
    async fn record_synced_period(
        &self,
        connection_id: i64,
        period: &SyncedPeriod,
    ) -> Result<(), StoreError>;

    /// The customer's AWS external id, creating it from `candidate` on first use (atomically:
    /// two first calls answer the same id).
    async fn aws_external_id(
        &self,
        customer_id: i64,
        candidate: &str,
    ) -> Result<String, StoreError>;

    /// Records a new upload and answers its id (see [`NewIngestJob`] for its first status).
    async fn create_ingest_job(&self, new: NewIngestJob<'_>) -> Result<i64, StoreError>;
    /// Gives a receiving job its files and queues it; `false` when it is not receiving.
    async fn queue_ingest_job(&self, id: i64, upload: IngestUpload<'_>)
        -> Result<bool, StoreError>;
    /// Forgets a job whose upload broke off while receiving (no effect on any other job).
    async fn delete_ingest_job(&self, id: i64) -> Result<(), StoreError>;
    /// Forgets the jobs still receiving that were created before `created_before`: their
    /// receiver stopped (a replica killed mid-upload), since no upload or fetch runs that long.
    /// Answers their ids, whose files the caller deletes.
    async fn delete_abandoned_receiving_ingest_jobs(
        &self,
        created_before: DateTime<Utc>,
    ) -> Result<Vec<i64>, StoreError>;
    /// One of the customer's uploads (never a receiving one).
    async fn get_ingest_job(
        &self,
        customer_id: i64,
        id: i64,
    ) -> Result<Option<IngestJob>, StoreError>;
    /// The customer's latest uploads, newest first.
    async fn list_ingest_jobs(
        &self,
        customer_id: i64,
        limit: u32,
    ) -> Result<Vec<IngestJob>, StoreError>;
    /// Takes the next job to load for `lease.holder`, marking it running under its lease until
    /// `lease.until`, atomically: with several servers on one database, each job is claimed by
    /// exactly one of them. First a running job whose holder stopped renewing its lease (its
    /// expiry passed, or it never had one — left running before leases existed — and started
    /// longer than a lease ago): the claim says it was taken over. Then the oldest queued job,
    /// fairly between tenants.
    async fn claim_next_ingest_job(
        &self,
        lease: IngestLease<'_>,
    ) -> Result<Option<ClaimedIngestJob>, StoreError>;
    /// Gives a receiving job its files and starts it running under `lease` at once (a direct
    /// load: the caller loads the files itself); `false` when it is not receiving.
    async fn start_ingest_job(
        &self,
        id: i64,
        upload: IngestUpload<'_>,
        lease: IngestLease<'_>,
    ) -> Result<bool, StoreError>;
    /// Renews the lease of a running job that `holder` holds, until `until`. `false` when the
    /// job is not running or another holder has it (it was taken over).
    async fn hold_ingest_job(
        &self,
        id: i64,
        holder: &str,
        until: DateTime<Utc>,
    ) -> Result<bool, StoreError>;
    /// Ends `holder`'s lease of a running job at once, so that the next claim takes it over;
    /// `false` when the job is not running or not `holder`'s.
    async fn release_ingest_job(&self, id: i64, holder: &str) -> Result<bool, StoreError>;
    /// Records how far a running job has got (no effect once it has ended).
    async fn record_ingest_progress(
        &self,
        id: i64,
        progress: &IngestProgress,
    ) -> Result<(), StoreError>;
    /// Records how a running job ended; no effect once it has ended (a server that lost the
    /// job's lease and finished after the server that took it over changes nothing).
    async fn finish_ingest_job(
        &self,
        id: i64,
        outcome: &IngestOutcome,
        now: DateTime<Utc>,
    ) -> Result<(), StoreError>;
    /// Every running job, whoever holds it (read at startup, to record those whose rows the
    /// cost engine committed and to end those a stopped process on the same data left).
    async fn running_ingest_jobs(&self) -> Result<Vec<IngestJob>, StoreError>;
    /// The customer's uploads since `since` and the line items its loads keep (the quotas).
    async fn ingest_usage(
        &self,
        customer_id: i64,
        since: DateTime<Utc>,
    ) -> Result<IngestUsage, StoreError>;

    /// Creates one of the customer's budgets and records its 'created' history row, in one
    /// transaction. `user_id`: who creates it.
    async fn create_budget(
        &self,
        customer_id: i64,
        user_id: i64,
        new: NewBudget,
    ) -> Result<Budget, StoreError>;
    /// [`MetadataStore::create_budget`] that also records the channels the budget sends its
    /// alerts to (de-duplicated), in the same transaction. [`StoreError::UnknownChannel`] (and
    /// nothing written) when one is not the customer's.
    async fn create_budget_with_channels(
        &self,
        customer_id: i64,
        user_id: i64,
        new: NewBudget,
        channel_ids: &[i64],
    ) -> Result<Budget, StoreError>;
    /// The customer's budgets, oldest first.
    async fn list_budgets(&self, customer_id: i64) -> Result<Vec<Budget>, StoreError>;
    async fn get_budget(&self, customer_id: i64, id: i64) -> Result<Option<Budget>, StoreError>;
    /// Applies an edit by `user_id` and records one history row per field that really
    /// changed, in one transaction; nothing is written when nothing changed. `None` when the
    /// budget is not one of the customer's.
    async fn update_budget(
        &self,
        customer_id: i64,
        user_id: i64,
        id: i64,
        changes: BudgetChanges,
    ) -> Result<Option<Budget>, StoreError>;
    /// [`MetadataStore::update_budget`] that also replaces the channels the budget sends its
    /// alerts to (an empty list: every channel), in the same transaction (not recorded in the
    /// configuration history). [`StoreError::UnknownChannel`] (and nothing written) when one
    /// is not the customer's.
    async fn update_budget_with_channels(
        &self,
        customer_id: i64,
        user_id: i64,
        id: i64,
        changes: BudgetChanges,
        channel_ids: &[i64],
    ) -> Result<Option<Budget>, StoreError>;
    /// Deletes the budget with its history; `false` when not the customer's.
    async fn delete_budget(&self, customer_id: i64, id: i64) -> Result<bool, StoreError>;
    /// The budget's configuration history, newest first, with the changers' names. Empty when
    /// the budget is not one of the customer's.
    async fn budget_config_history(
        &self,
        customer_id: i64,
        id: i64,
    ) -> Result<Vec<BudgetConfigChange>, StoreError>;
    /// Every customer's budgets, by customer then oldest first (for the evaluation job only).
    async fn budgets_of_all_customers(&self) -> Result<Vec<Budget>, StoreError>;

    /// Records a reached threshold in the budget's alert history and, in the same transaction,
    /// its `budget_alert` notification in the outbox. Exactly once per budget, period start,
    /// threshold type and value, however often or on however many servers it is called:
    /// `None` (and nothing written) when that alert is already recorded, or when the budget is
    /// not one of `alert.customer_id`'s.
    async fn record_budget_alert(
        &self,
        alert: NewBudgetAlert,
    ) -> Result<Option<BudgetAlert>, StoreError>;
    /// The budget's recorded alerts, newest first; with `triggered_between` = `(first, last)`
    /// only those triggered from `first` to `last`, both included. Empty when the budget is not
    /// one of the customer's.
    async fn list_budget_alerts(
        &self,
        customer_id: i64,
        budget_id: i64,
        triggered_between: Option<(DateTime<Utc>, DateTime<Utc>)>,
    ) -> Result<Vec<BudgetAlert>, StoreError>;

    /// Up to `limit` undelivered notifications due by `now` (next attempt at or before it),
    /// oldest first, for the e-mail to owners and admins: only those of tenants without any
    /// channel, never fanned out to channels ([`ChannelStore::fan_out_notifications`]).
    /// Several servers should not run the worker at once (the job lease sees to that): nothing
    /// here claims the rows.
    async fn pending_notifications(
        &self,
        now: DateTime<Utc>,
        limit: i64,
    ) -> Result<Vec<OutboxNotification>, StoreError>;
    /// Marks a notification delivered (counting the attempt); `false` when it is unknown or
    /// already delivered.
    async fn mark_notification_delivered(
        &self,
        id: i64,
        now: DateTime<Utc>,
    ) -> Result<bool, StoreError>;
    /// Records a failed delivery attempt: counts it, keeps `error` and puts the next attempt
    /// off until `next_attempt_at`. `false` when the notification is unknown or delivered.
    async fn record_notification_failure(
        &self,
        id: i64,
        error: &str,
        next_attempt_at: DateTime<Utc>,
    ) -> Result<bool, StoreError>;
}

/// Opens (and creates, for SQLite) the store named by `url`. Does not migrate.
pub async fn connect(url: &str) -> Result<Arc<dyn MetadataStore>, StoreError> {
    if url.starts_with("sqlite:") {
        Ok(Arc::new(SqliteStore::connect(url).await?))
    } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        Ok(Arc::new(PgStore::connect(url).await?))
    } else {
        Err(StoreError::UnsupportedUrl)
    }
}
