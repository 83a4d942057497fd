use std::sync::Arc;

use costscope_connectors::Mailer;
use costscope_core::Clock;
use costscope_engine::CostEngine;
use costscope_store::MetadataStore;
use tokio::sync::Notify;

use crate::auth::password::PasswordChecker;
use crate::auth::rate_limit::{LoginLimiter, RequestLimits};
use crate::auth::tokens::AccessTokens;
use crate::config::Config;
use crate::metrics::Metrics;

/// What every handler may use. Cheap to clone.
#[derive(Debug, Clone)]
pub struct AppState {
    pub store: Arc<dyn MetadataStore>,
    /// Cost line items (DuckDB in the data dir by default).
    pub engine: Arc<dyn CostEngine>,
    pub config: Arc<Config>,
    pub clock: Arc<dyn Clock>,
    /// Set when SMTP is configured.
    pub mailer: Option<Mailer>,
    pub access_tokens: Arc<AccessTokens>,
    pub passwords: Arc<PasswordChecker>,
    pub login_limiter: Arc<LoginLimiter>,
    /// Per-address limits of sign-up, refresh and invitation links.
    pub request_limits: Arc<RequestLimits>,
    pub metrics: Arc<Metrics>,
    /// Base of invitation links, without a trailing slash.
    pub public_url: String,
    /// Wakes the ingest worker when an upload has been queued.
    pub ingest_wake: Arc<Notify>,
    /// Wakes the budget evaluation job (after a load).
    pub budget_wake: Arc<Notify>,
    /// Wakes the anomaly detection job (after a load, a change of the anomaly settings).
    pub anomaly_wake: Arc<Notify>,
    /// Wakes the notification delivery job (after an alert was recorded).
    pub notification_wake: Arc<Notify>,
    /// Wakes the cloud sync job ("Sync now", a new connection).
    pub sync_wake: Arc<Notify>,
    /// Wakes the discovery job (`POST /v1/job`).
    pub discovery_wake: Arc<Notify>,
    /// Encrypts and decrypts stored connection secrets.
    pub secrets: Arc<crate::secrets::SecretBox>,
    /// Builds each connection's billing-export source (the sync job, the registration check).
    pub sources: Arc<crate::cloud::sources::Sources>,
    /// The ops token and the cost database, for `costscope backup` against this server.
    pub live_data: Arc<crate::backup::LiveData>,
    /// This process's name in the job leases (issue 18): which replica runs which job.
    pub holder: crate::jobs::lease::HolderId,
}

impl AppState {
    /// The jobs a successful load wakes: the budget evaluation and the anomaly detection.
    pub fn load_wakes(&self) -> [Arc<Notify>; 2] {
        [self.budget_wake.clone(), self.anomaly_wake.clone()]
    }
}
