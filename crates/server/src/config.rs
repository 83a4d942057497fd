//! The server's one typed configuration: defaults, then the TOML file, then flags/env.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Context;
use costscope_core::FeatureFlags;
use secrecy::{ExposeSecret, SecretString};
use serde::Deserialize;

use crate::auth::client_address::TrustedProxies;
use crate::cli::GlobalArgs;
use crate::cost_engine::CostEngineSetting;
use crate::jobs::lease::LeaseTimes;

pub const DEFAULT_ADDR: &str = "127.0.0.1:8080";
pub const DEFAULT_DATA_DIR: &str = "./data";

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    #[default]
    Pretty,
    Json,
}

/// Everything the server needs to run. `Debug` shows secrets as `[REDACTED]`.
#[derive(Debug, Clone)]
pub struct Config {
    pub addr: String,
    pub data_dir: PathBuf,
    /// Where uploads wait for their load (`<uploads_dir>/<job id>/`); `<data_dir>/uploads`
    /// unless set. Replicas share one directory (NFS or similar) so that any of them can load
    /// an upload another received, or take over its load.
    pub uploads_dir: PathBuf,
    /// May hold database credentials.
    pub database_url: SecretString,
    /// Where the cost line items live: DuckDB in the data dir, or a ClickHouse URL (which may
    /// hold credentials; `Debug` masks the password).
    pub cost_engine: CostEngineSetting,
    /// Base of invitation links; `None` means `http://<bound address>`.
    pub public_url: Option<String>,
    pub log_format: LogFormat,
    pub features: FeatureFlags,
    pub support_email: String,
    pub documentation_url: String,
    pub compliance_customer_ids: Vec<i64>,
    pub smtp: Option<SmtpConfig>,
    /// HS256 key for access tokens; `None` means generated once into `<data-dir>/auth-secret.key`.
    pub auth_secret: Option<SecretString>,
    pub login_rate_limit: LoginRateLimit,
    pub rate_limits: RateLimits,
    /// Reverse proxies whose `X-Forwarded-For` names the client (for rate limits).
    pub trusted_proxies: TrustedProxies,
    /// Make sure the demo tenant exists on start, with current demo data.
    pub demo: bool,
    /// Largest body accepted by `POST /v1/ingest` (413 "Upload too large" beyond).
    pub max_upload_bytes: u64,
    /// DuckDB's memory limit in bytes (loads spill to `<data-dir>/costs.duckdb.tmp` beyond it).
    pub load_memory_limit: u64,
    /// Whether `POST /v1/auth/signup` creates tenants. On by default (the demo); a company
    /// turns it off once its own tenant exists.
    pub allow_signup: bool,
    pub queries: QueryLimits,
    pub uploads: UploadLimits,
    /// The key that encrypts stored connection secrets (a GCP key, an Azure SAS token or
    /// client secret); `None`: generated once into the data dir (`secrets.key`).
    pub secrets_key: Option<SecretString>,
    pub cloud: CloudConfig,
    pub discovery: DiscoveryConfig,
    /// `[jobs]`: the leases that let one replica at a time run a job.
    pub jobs: JobsConfig,
    /// Microsoft Teams through Microsoft Graph; `None` (no `client_id`): every Teams call
    /// answers 503.
    pub teams: Option<TeamsConfig>,
}

/// Microsoft Teams through Microsoft Graph (`[teams]`, docs/NOTIFICATIONS.md): an Entra ID
/// app registration whose redirect URI is `{public_url}/teams-oauth-callback`.
#[derive(Debug, Clone)]
pub struct TeamsConfig {
    pub client_id: String,
    pub client_secret: SecretString,
    /// The identity platform's authority (a local stand-in in tests).
    pub authority: String,
    /// Microsoft Graph's base URL (a local stand-in in tests).
    pub graph_url: String,
}

pub const DEFAULT_TEAMS_AUTHORITY: &str = "https://login.microsoftonline.com/common";
pub const DEFAULT_TEAMS_GRAPH_URL: &str = "https://graph.microsoft.com/v1.0";

/// `[teams]` as written in the TOML file.
#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct TeamsFile {
    client_id: Option<String>,
    client_secret: Option<SecretString>,
    client_secret_file: Option<PathBuf>,
    authority: Option<String>,
    graph_url: Option<String>,
}

/// The discovery of resources in connected AWS accounts (`[discovery]`, issue 14).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DiscoveryConfig {
    /// Hours between two scheduled discoveries of a tenant; 0 turns the schedule off (the
    /// on-demand trigger still works).
    pub interval_hours: u32,
    /// On-demand runs per tenant per UTC day.
    pub daily_limit: u32,
    /// The daily limit of a customer tier (`"0"` is the free tier) when it differs from
    /// `daily_limit`.
    pub daily_limit_by_tier: BTreeMap<String, u32>,
    /// Accounts discovered at once (across tenants).
    pub concurrency: usize,
    /// The longest one account's discovery may take; past it, that account is reported failed
    /// and the run goes on with the others.
    pub timeout_seconds: u64,
    /// The regions scanned; empty: every region the account has enabled (EC2
    /// DescribeRegions). A fixed list for emulators and tests.
    pub regions: Vec<String>,
}

impl Default for DiscoveryConfig {
    fn default() -> Self {
        Self {
            interval_hours: 6,
            daily_limit: 24,
            daily_limit_by_tier: BTreeMap::new(),
            concurrency: 4,
            timeout_seconds: 30 * 60,
            regions: Vec::new(),
        }
    }
}

impl DiscoveryConfig {
    /// The on-demand runs a customer of `tier` may start per UTC day.
    pub fn daily_limit_for(&self, tier: i32) -> u32 {
        self.daily_limit_by_tier
            .get(&tier.to_string())
            .copied()
            .unwrap_or(self.daily_limit)
    }

    /// The regions to scan: `None` for every enabled region.
    pub fn fixed_regions(&self) -> Option<&[String]> {
        (!self.regions.is_empty()).then_some(self.regions.as_slice())
    }

    /// Refuses a tier that is not a whole number and a region that is not a region code.
    fn validate(&self) -> anyhow::Result<()> {
        for tier in self.daily_limit_by_tier.keys() {
            if tier.trim().parse::<i32>().is_err() || tier.trim() != tier {
                anyhow::bail!(
                    "discovery.daily_limit_by_tier: {tier:?} is not a customer tier (a whole number such as \"0\")"
                );
            }
        }
        for region in &self.regions {
            if costscope_core::cloud_accounts::AwsRegion::parse(region).is_err() {
                anyhow::bail!("discovery.regions: {region:?} is not an AWS region code (such as \"us-east-1\")");
            }
        }
        Ok(())
    }
}

/// Cloud connections and their syncs (`[cloud]`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CloudConfig {
    /// Hours between two scheduled syncs of a connection; 0 turns the schedule off ("Sync
    /// now" still works).
    pub sync_interval_hours: u32,
    /// Connections syncing at once (across tenants).
    pub sync_concurrency: usize,
    /// The longest one connection's sync may take (listing, downloading and loading every
    /// changed billing period); a sync past it ends failed and is tried again later.
    pub sync_timeout_seconds: u64,
    /// The BigQuery REST API's base URL (a local stand-in in tests).
    pub bigquery_url: String,
    /// The Microsoft identity platform's authority, for Azure service principals.
    pub azure_authority_url: String,
    /// An AWS emulator (moto, LocalStack) that every AWS call goes to, with static test
    /// credentials: for tests and demos. Real AWS, or an S3-compatible store with real
    /// credentials, is reached through the default credential chain and the standard
    /// `AWS_ENDPOINT_URL` / `AWS_ENDPOINT_URL_<SERVICE>` variables instead.
    pub aws_endpoint_url: Option<String>,
    /// The AWS principal (Costscope's own role or account ARN) that the onboarding template's
    /// role trusts, with the tenant's external id; `None`: the template asks for it.
    pub aws_trusted_principal: Option<String>,
    /// Whether a connection may name its own endpoint: an Azure blob endpoint, or a GCP key
    /// whose `token_uri` is not Google's. Off by default: otherwise any tenant's admin could
    /// make the server send requests to addresses of its own network. On for emulators and
    /// stand-ins (tests) or a sovereign cloud.
    pub allow_custom_endpoints: bool,
}

impl Default for CloudConfig {
    fn default() -> Self {
        Self {
            sync_interval_hours: 6,
            sync_concurrency: 4,
            sync_timeout_seconds: 2 * 60 * 60,
            bigquery_url: "https://bigquery.googleapis.com".to_owned(),
            azure_authority_url: "https://login.microsoftonline.com".to_owned(),
            aws_endpoint_url: None,
            aws_trusted_principal: None,
            allow_custom_endpoints: false,
        }
    }
}

/// Bounded work per cost query (`[queries]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct QueryLimits {
    /// DuckDB worker threads; 0 means one per core.
    pub threads: usize,
    /// Cost queries running at once; the others wait their turn. 0 means one per core.
    pub max_concurrent: usize,
    /// A cost query running longer is cancelled and answered 503 with `Retry-After`.
    pub timeout_seconds: u64,
}

impl Default for QueryLimits {
    fn default() -> Self {
        Self {
            threads: 0,
            max_concurrent: 0,
            timeout_seconds: 30,
        }
    }
}

impl QueryLimits {
    /// `threads`, with 0 resolved to the number of cores.
    pub fn engine_threads(&self) -> usize {
        resolve_per_core(self.threads)
    }

    /// `max_concurrent`, with 0 resolved to the number of cores.
    pub fn concurrent_queries(&self) -> usize {
        resolve_per_core(self.max_concurrent)
    }
}

fn resolve_per_core(configured: usize) -> usize {
    if configured > 0 {
        configured
    } else {
        std::thread::available_parallelism().map_or(2, |cores| cores.get())
    }
}

/// Bounded work per upload and per tenant (`[uploads]`). Sizes are bytes (the TOML file takes
/// sizes such as "20GiB").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UploadLimits {
    /// Largest decompressed size of one load's files together.
    pub max_decompressed_bytes: u64,
    /// A compressed file that expands more than this many times is refused as a bomb (once
    /// it passed `ratio_checked_after_bytes` decompressed).
    pub max_compression_ratio: u64,
    pub ratio_checked_after_bytes: u64,
    /// Line items in one load.
    pub max_rows_per_load: u64,
    /// Per tenant, per UTC day: uploads accepted and bytes uploaded.
    pub max_loads_per_day: u32,
    pub max_bytes_per_day: u64,
    /// Per tenant: line items kept in the cost database.
    pub max_stored_rows: u64,
    /// Loads running at once across tenants; one tenant never runs two at once.
    pub concurrent_loads: usize,
}

impl Default for UploadLimits {
    fn default() -> Self {
        Self {
            max_decompressed_bytes: 20 << 30,
            max_compression_ratio: 100,
            ratio_checked_after_bytes: 64 << 20,
            max_rows_per_load: 200_000_000,
            max_loads_per_day: 500,
            max_bytes_per_day: 100 << 30,
            max_stored_rows: 2_000_000_000,
            concurrent_loads: 2,
        }
    }
}

/// `[jobs]` (docs/OPERATIONS.md, "Several replicas"): how long a job's lease runs unless
/// renewed (renewed every third of it), so how long a stopped replica's jobs wait before
/// another replica takes them over.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JobsConfig {
    pub lease: LeaseTimes,
}

/// `[jobs]` as written in the TOML file.
#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct JobsFile {
    lease_seconds: Option<u64>,
}

/// Below it a lease renewed every third of its time would be renewed more than once a second.
const MIN_LEASE_SECONDS: u64 = 3;

impl JobsFile {
    fn resolve(self) -> anyhow::Result<JobsConfig> {
        let lease = match self.lease_seconds {
            Some(seconds) => {
                anyhow::ensure!(
                    seconds >= MIN_LEASE_SECONDS,
                    "jobs.lease_seconds must be at least {MIN_LEASE_SECONDS} (it is {seconds})"
                );
                LeaseTimes::with_ttl(Duration::from_secs(seconds))
            }
            None => LeaseTimes::default(),
        };
        Ok(JobsConfig { lease })
    }
}

/// `[uploads]` as written in the TOML file.
#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct UploadLimitsFile {
    max_decompressed_size: Option<String>,
    max_compression_ratio: Option<u64>,
    ratio_checked_after: Option<String>,
    max_rows_per_load: Option<u64>,
    max_loads_per_day: Option<u32>,
    max_bytes_per_day: Option<String>,
    max_stored_rows: Option<u64>,
    concurrent_loads: Option<usize>,
}

impl UploadLimitsFile {
    fn resolve(self) -> anyhow::Result<UploadLimits> {
        let defaults = UploadLimits::default();
        let size = |text: Option<String>, key: &str, default: u64| -> anyhow::Result<u64> {
            match text {
                Some(text) => parse_size(&text, 1 << 20)
                    .with_context(|| format!("uploads.{key} {text:?}: {SIZE_EXAMPLES}")),
                None => Ok(default),
            }
        };
        let limits = UploadLimits {
            max_decompressed_bytes: size(
                self.max_decompressed_size,
                "max_decompressed_size",
                defaults.max_decompressed_bytes,
            )?,
            max_compression_ratio: self
                .max_compression_ratio
                .unwrap_or(defaults.max_compression_ratio),
            ratio_checked_after_bytes: size(
                self.ratio_checked_after,
                "ratio_checked_after",
                defaults.ratio_checked_after_bytes,
            )?,
            max_rows_per_load: self.max_rows_per_load.unwrap_or(defaults.max_rows_per_load),
            max_loads_per_day: self.max_loads_per_day.unwrap_or(defaults.max_loads_per_day),
            max_bytes_per_day: size(
                self.max_bytes_per_day,
                "max_bytes_per_day",
                defaults.max_bytes_per_day,
            )?,
            max_stored_rows: self.max_stored_rows.unwrap_or(defaults.max_stored_rows),
            concurrent_loads: self.concurrent_loads.unwrap_or(defaults.concurrent_loads),
        };
        anyhow::ensure!(
            limits.max_compression_ratio >= 2,
            "uploads.max_compression_ratio must be at least 2"
        );
        anyhow::ensure!(
            limits.concurrent_loads >= 1,
            "uploads.concurrent_loads must be at least 1"
        );
        Ok(limits)
    }
}

#[derive(Debug, Clone)]
pub struct SmtpConfig {
    /// `smtp://host:port`, `smtp://user:pass@host:587?tls=required`, `smtps://host:465`.
    pub url: SecretString,
    pub from: String,
}

/// Sign-in throttling (`[login_rate_limit]`). Counted in the metadata store, so replicas on one
/// PostgreSQL database count together. Failures are counted per client address and e-mail
/// pair, so a stranger cannot lock a user out: past `max_failures_per_pair`, each failure
/// doubles the pair's wait (30 s, 1 min, … up to `max_delay_minutes`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LoginRateLimit {
    /// Failures older than this are forgotten.
    pub window_minutes: u32,
    /// Failed sign-ins from one address for one e-mail before delays start. (Older files
    /// call it `max_failures_per_account`.)
    #[serde(alias = "max_failures_per_account")]
    pub max_failures_per_pair: u32,
    /// Sign-in attempts (failed or not) from one client address within the window.
    pub max_attempts_per_address: u32,
    /// The longest wait a pair's failures impose.
    pub max_delay_minutes: u32,
}

impl Default for LoginRateLimit {
    fn default() -> Self {
        Self {
            window_minutes: 15,
            max_failures_per_pair: 5,
            max_attempts_per_address: 30,
            max_delay_minutes: 15,
        }
    }
}

/// Per-client-address limits of the other unauthenticated auth routes (`[rate_limits]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RateLimits {
    /// `POST /v1/auth/signup` per address per hour.
    pub signups_per_hour: u32,
    /// `POST /v1/auth/refresh` per address per minute.
    pub refreshes_per_minute: u32,
    /// Invitation link look-ups and acceptances per address per minute.
    pub invitation_attempts_per_minute: u32,
    /// Keys (hashed addresses, address and e-mail pairs) each limit keeps in the store at most:
    /// past it, a sweep (once a minute per replica) drops the least recently seen.
    pub max_tracked_keys: usize,
}

impl Default for RateLimits {
    fn default() -> Self {
        Self {
            signups_per_hour: 20,
            refreshes_per_minute: 60,
            invitation_attempts_per_minute: 20,
            max_tracked_keys: 100_000,
        }
    }
}

/// The TOML file. Every key is optional.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileConfig {
    addr: Option<String>,
    data_dir: Option<PathBuf>,
    uploads_dir: Option<PathBuf>,
    database_url: Option<SecretString>,
    cost_engine: Option<SecretString>,
    public_url: Option<String>,
    log_format: Option<LogFormat>,
    #[serde(default)]
    features: FeatureFlags,
    support_email: Option<String>,
    documentation_url: Option<String>,
    compliance_customer_ids: Option<Vec<i64>>,
    smtp_url: Option<SecretString>,
    smtp_from: Option<String>,
    auth_secret: Option<SecretString>,
    auth_secret_file: Option<PathBuf>,
    smtp_url_file: Option<PathBuf>,
    smtp_password: Option<SecretString>,
    smtp_password_file: Option<PathBuf>,
    #[serde(default)]
    login_rate_limit: LoginRateLimit,
    #[serde(default)]
    rate_limits: RateLimits,
    #[serde(default)]
    trusted_proxies: Vec<String>,
    load_memory_limit: Option<String>,
    max_upload_size: Option<String>,
    allow_signup: Option<bool>,
    #[serde(default)]
    queries: QueryLimits,
    #[serde(default)]
    uploads: UploadLimitsFile,
    secrets_key: Option<SecretString>,
    secrets_key_file: Option<PathBuf>,
    #[serde(default)]
    cloud: CloudConfig,
    #[serde(default)]
    discovery: DiscoveryConfig,
    #[serde(default)]
    jobs: JobsFile,
    #[serde(default)]
    teams: TeamsFile,
}

/// Values given on the command line or in the environment; they win over the file.
#[derive(Debug, Default)]
pub struct Overrides {
    pub config_file: Option<PathBuf>,
    pub addr: Option<String>,
    pub data_dir: Option<PathBuf>,
    pub uploads_dir: Option<PathBuf>,
    pub database_url: Option<String>,
    /// `--cost-engine` / `COSTSCOPE_COST_ENGINE`.
    pub cost_engine: Option<String>,
    pub public_url: Option<String>,
    pub log_format: Option<LogFormat>,
    pub load_memory_limit: Option<String>,
    pub max_upload_size: Option<String>,
    /// Secrets from the environment (`COSTSCOPE_AUTH_SECRET`, `COSTSCOPE_SMTP_URL`) or from
    /// files (`--auth-secret-file`, `--smtp-url-file` or their `…_FILE` variables).
    pub auth_secret: Option<String>,
    pub auth_secret_file: Option<PathBuf>,
    pub smtp_url: Option<String>,
    pub smtp_url_file: Option<PathBuf>,
    /// The SMTP password apart from the URL (`COSTSCOPE_SMTP_PASSWORD`, `…_FILE`).
    pub smtp_password: Option<String>,
    pub smtp_password_file: Option<PathBuf>,
    /// The connection-secrets key (`COSTSCOPE_SECRETS_KEY`, `COSTSCOPE_SECRETS_KEY_FILE`).
    pub secrets_key: Option<String>,
    pub secrets_key_file: Option<PathBuf>,
    /// Microsoft Teams (`COSTSCOPE_TEAMS_CLIENT_ID`, `COSTSCOPE_TEAMS_CLIENT_SECRET` or
    /// `…_FILE`, `COSTSCOPE_TEAMS_AUTHORITY`, `COSTSCOPE_TEAMS_GRAPH_URL`).
    pub teams_client_id: Option<String>,
    pub teams_client_secret: Option<String>,
    pub teams_client_secret_file: Option<PathBuf>,
    pub teams_authority: Option<String>,
    pub teams_graph_url: Option<String>,
}

impl From<GlobalArgs> for Overrides {
    fn from(args: GlobalArgs) -> Self {
        Self {
            config_file: args.config,
            addr: args.addr,
            data_dir: args.data_dir,
            uploads_dir: args.uploads_dir,
            database_url: args.database_url,
            cost_engine: args.cost_engine,
            public_url: args.public_url,
            log_format: args.log_format,
            load_memory_limit: args.load_memory_limit,
            max_upload_size: args.max_upload_size,
            // Secret values come from the environment only, never from flags.
            auth_secret: non_empty_env("COSTSCOPE_AUTH_SECRET"),
            auth_secret_file: args.auth_secret_file,
            smtp_url: non_empty_env("COSTSCOPE_SMTP_URL"),
            smtp_url_file: args.smtp_url_file,
            smtp_password: non_empty_env("COSTSCOPE_SMTP_PASSWORD"),
            smtp_password_file: args.smtp_password_file,
            secrets_key: non_empty_env("COSTSCOPE_SECRETS_KEY"),
            secrets_key_file: non_empty_env("COSTSCOPE_SECRETS_KEY_FILE").map(PathBuf::from),
            teams_client_id: non_empty_env("COSTSCOPE_TEAMS_CLIENT_ID"),
            teams_client_secret: non_empty_env("COSTSCOPE_TEAMS_CLIENT_SECRET"),
            teams_client_secret_file: non_empty_env("COSTSCOPE_TEAMS_CLIENT_SECRET_FILE")
                .map(PathBuf::from),
            teams_authority: non_empty_env("COSTSCOPE_TEAMS_AUTHORITY"),
            teams_graph_url: non_empty_env("COSTSCOPE_TEAMS_GRAPH_URL"),
        }
    }
}

fn non_empty_env(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|value| !value.is_empty())
}

impl Config {
    pub fn load(overrides: Overrides) -> anyhow::Result<Self> {
        let file = match &overrides.config_file {
            Some(path) => read_file(path)?,
            None => FileConfig::default(),
        };
        Self::merge(file, overrides)
    }

    fn merge(file: FileConfig, overrides: Overrides) -> anyhow::Result<Self> {
        let data_dir = overrides
            .data_dir
            .or(file.data_dir)
            .unwrap_or_else(|| PathBuf::from(DEFAULT_DATA_DIR));
        let uploads_dir = overrides
            .uploads_dir
            .or(file.uploads_dir)
            .unwrap_or_else(|| data_dir.join(crate::jobs::ingest::UPLOADS_DIR));
        let database_url = match overrides.database_url {
            Some(url) => SecretString::from(url),
            None => file
                .database_url
                .unwrap_or_else(|| default_database_url(&data_dir)),
        };
        let cost_engine = match overrides.cost_engine {
            Some(text) => CostEngineSetting::parse(&text)?,
            None => match file.cost_engine {
                Some(text) => CostEngineSetting::parse(text.expose_secret())
                    .context("the configuration file's cost_engine")?,
                None => CostEngineSetting::default(),
            },
        };
        let auth_secret = match secret_from(
            "auth secret",
            overrides.auth_secret.map(SecretString::from),
            overrides.auth_secret_file,
        )? {
            Some(secret) => Some(secret),
            None => secret_from("auth_secret", file.auth_secret, file.auth_secret_file)?,
        };
        let secrets_key = match secret_from(
            "secrets key",
            overrides.secrets_key.map(SecretString::from),
            overrides.secrets_key_file,
        )? {
            Some(key) => Some(key),
            None => secret_from("secrets_key", file.secrets_key, file.secrets_key_file)?,
        };
        let smtp_url = match secret_from(
            "SMTP URL",
            overrides.smtp_url.map(SecretString::from),
            overrides.smtp_url_file,
        )? {
            Some(url) => Some(url),
            None => secret_from("smtp_url", file.smtp_url, file.smtp_url_file)?,
        };
        let smtp_password = match secret_from(
            "SMTP password",
            overrides.smtp_password.map(SecretString::from),
            overrides.smtp_password_file,
        )? {
            Some(password) => Some(password),
            None => secret_from("smtp_password", file.smtp_password, file.smtp_password_file)?,
        };
        let smtp_url = match (smtp_url, smtp_password) {
            (Some(url), Some(password)) => Some(smtp_url_with_password(&url, &password)?),
            (None, Some(_)) => anyhow::bail!("an SMTP password is set but smtp_url is not"),
            (url, None) => url,
        };
        let teams = teams_config(
            file.teams,
            TeamsFile {
                client_id: overrides.teams_client_id,
                client_secret: overrides.teams_client_secret.map(SecretString::from),
                client_secret_file: overrides.teams_client_secret_file,
                authority: overrides.teams_authority,
                graph_url: overrides.teams_graph_url,
            },
        )?;
        let trusted_proxies = TrustedProxies::parse(&file.trusted_proxies)
            .map_err(|err| anyhow::anyhow!("trusted_proxies: {err}"))?;
        let smtp = match (smtp_url, file.smtp_from) {
            (Some(url), from) => Some(SmtpConfig {
                url,
                from: from.unwrap_or_else(|| "Costscope <noreply@costscope.local>".to_owned()),
            }),
            (None, Some(_)) => anyhow::bail!("smtp_from is set but smtp_url is not"),
            (None, None) => None,
        };
        let load_memory_limit = match overrides.load_memory_limit.or(file.load_memory_limit) {
            Some(text) => parse_size(&text, 64 << 20)
                .with_context(|| format!("load memory limit {text:?}: {SIZE_EXAMPLES}"))?,
            None => costscope_engine::DEFAULT_LOAD_MEMORY_LIMIT,
        };
        let max_upload_bytes = match overrides.max_upload_size.or(file.max_upload_size) {
            Some(text) => parse_size(&text, 1 << 20)
                .with_context(|| format!("max upload size {text:?}: {SIZE_EXAMPLES}"))?,
            None => crate::http::ingest::DEFAULT_MAX_UPLOAD_BYTES,
        };
        Ok(Self {
            addr: overrides
                .addr
                .or(file.addr)
                .unwrap_or_else(|| DEFAULT_ADDR.to_owned()),
            data_dir,
            uploads_dir,
            database_url,
            cost_engine,
            public_url: overrides.public_url.or(file.public_url),
            log_format: overrides.log_format.or(file.log_format).unwrap_or_default(),
            features: file.features,
            support_email: file
                .support_email
                .unwrap_or_else(|| "support@costscope.local".to_owned()),
            documentation_url: file.documentation_url.unwrap_or_else(|| {
                "https://github.com/costscope/costscope/tree/main/docs".to_owned()
            }),
            compliance_customer_ids: file.compliance_customer_ids.unwrap_or_else(|| vec![112, 3]),
            smtp,
            auth_secret,
            login_rate_limit: file.login_rate_limit,
            rate_limits: file.rate_limits,
            trusted_proxies,
            demo: false,
            max_upload_bytes,
            load_memory_limit,
            allow_signup: file.allow_signup.unwrap_or(true),
            queries: file.queries,
            uploads: file.uploads.resolve()?,
            secrets_key,
            cloud: file.cloud,
            discovery: {
                file.discovery.validate()?;
                file.discovery
            },
            jobs: file.jobs.resolve()?,
            teams,
        })
    }

    /// The defaults, with data under `data_dir`.
    pub fn with_data_dir(data_dir: &Path) -> Self {
        Self::merge(
            FileConfig::default(),
            Overrides {
                data_dir: Some(data_dir.to_owned()),
                ..Overrides::default()
            },
        )
        .expect("the defaults are valid")
    }
}

/// `[teams]` with the environment's values (`overrides`) winning; `None` without a client id.
fn teams_config(file: TeamsFile, overrides: TeamsFile) -> anyhow::Result<Option<TeamsConfig>> {
    let client_secret = match secret_from(
        "Teams client secret",
        overrides.client_secret,
        overrides.client_secret_file,
    )? {
        Some(secret) => Some(secret),
        None => secret_from(
            "teams.client_secret",
            file.client_secret,
            file.client_secret_file,
        )?,
    };
    let authority = overrides
        .authority
        .or(file.authority)
        .unwrap_or_else(|| DEFAULT_TEAMS_AUTHORITY.to_owned());
    let graph_url = overrides
        .graph_url
        .or(file.graph_url)
        .unwrap_or_else(|| DEFAULT_TEAMS_GRAPH_URL.to_owned());
    for (key, url) in [
        ("teams.authority", &authority),
        ("teams.graph_url", &graph_url),
    ] {
        anyhow::ensure!(
            url.starts_with("https://") || url.starts_with("http://"),
            "{key}: {url:?} is not an http(s) URL"
        );
    }
    let client_id = overrides
        .client_id
        .or(file.client_id)
        .map(|id| id.trim().to_owned())
        .filter(|id| !id.is_empty());
    let Some(client_id) = client_id else {
        anyhow::ensure!(
            client_secret.is_none(),
            "a Teams client secret is set but teams.client_id is not"
        );
        return Ok(None);
    };
    let client_secret = client_secret.context(
        "teams.client_id is set but its client secret is not (teams.client_secret, \
         teams.client_secret_file, COSTSCOPE_TEAMS_CLIENT_SECRET or …_FILE)",
    )?;
    Ok(Some(TeamsConfig {
        client_id,
        client_secret,
        authority: authority.trim_end_matches('/').to_owned(),
        graph_url: graph_url.trim_end_matches('/').to_owned(),
    }))
}

/// A secret given either as a value or as a file holding it (one trailing newline dropped);
/// giving both is an error.
fn secret_from(
    name: &str,
    value: Option<SecretString>,
    file: Option<PathBuf>,
) -> anyhow::Result<Option<SecretString>> {
    match (value, file) {
        (Some(_), Some(_)) => {
            anyhow::bail!("the {name} is given both as a value and as a file: keep one")
        }
        (Some(value), None) => Ok(Some(value)),
        (None, Some(path)) => {
            let text = std::fs::read_to_string(&path)
                .with_context(|| format!("reading the {name} from {}", path.display()))?;
            let text = text
                .strip_suffix('\n')
                .map(|text| text.strip_suffix('\r').unwrap_or(text))
                .unwrap_or(&text);
            anyhow::ensure!(!text.is_empty(), "{} (the {name}) is empty", path.display());
            Ok(Some(SecretString::from(text.to_owned())))
        }
        (None, None) => Ok(None),
    }
}

/// `smtp://user@host:587` with `password` (percent-encoded) as the user's password.
fn smtp_url_with_password(
    url: &SecretString,
    password: &SecretString,
) -> anyhow::Result<SecretString> {
    let url = url.expose_secret();
    let authority_start = url
        .find("://")
        .map(|at| at + 3)
        .ok_or_else(|| anyhow::anyhow!("smtp_url is not a URL such as smtp://user@host:587"))?;
    let authority_end = url[authority_start..]
        .find(['/', '?'])
        .map_or(url.len(), |at| authority_start + at);
    let Some(at) = url[authority_start..authority_end].rfind('@') else {
        anyhow::bail!("an SMTP password needs a user name in smtp_url (smtp://user@host:587)");
    };
    let user = &url[authority_start..authority_start + at];
    anyhow::ensure!(
        !user.contains(':'),
        "the SMTP password is given twice: in smtp_url and apart"
    );
    let encoded: String = password
        .expose_secret()
        .bytes()
        .map(|byte| match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                char::from(byte).to_string()
            }
            _ => format!("%{byte:02X}"),
        })
        .collect();
    Ok(SecretString::from(format!(
        "{}{user}:{encoded}{}",
        &url[..authority_start],
        &url[authority_start + at..]
    )))
}

const SIZE_EXAMPLES: &str = "expected a size such as 1GB, 512MiB or 2G";

/// `1073741824`, `1GB` (10⁹), `1GiB` or `1G` (2³⁰), `512MB`, `512MiB`, `512M`…, at least `minimum`
/// bytes.
fn parse_size(text: &str, minimum: u64) -> anyhow::Result<u64> {
    let text = text.trim();
    let split = text
        .find(|c: char| !c.is_ascii_digit() && c != '.')
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let number: f64 = number.parse().context("not a number")?;
    let scale: f64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1.0,
        "kb" => 1e3,
        "mb" => 1e6,
        "gb" => 1e9,
        "tb" => 1e12,
        "k" | "kib" => 1024.0,
        "m" | "mib" => 1024.0 * 1024.0,
        "g" | "gib" => 1024.0 * 1024.0 * 1024.0,
        "t" | "tib" => 1024.0 * 1024.0 * 1024.0 * 1024.0,
        other => anyhow::bail!("unknown unit {other:?}"),
    };
    let bytes = (number * scale).round();
    anyhow::ensure!(
        bytes >= minimum as f64,
        "at least {} MiB is needed",
        minimum >> 20
    );
    Ok(bytes as u64)
}

fn read_file(path: &Path) -> anyhow::Result<FileConfig> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    toml::from_str(&text).with_context(|| format!("parsing {}", path.display()))
}

fn default_database_url(data_dir: &Path) -> SecretString {
    SecretString::from(format!(
        "sqlite://{}",
        data_dir.join("costscope.db").display()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(toml_text: &str, overrides: Overrides) -> Config {
        Config::merge(toml::from_str(toml_text).unwrap(), overrides).unwrap()
    }

    #[test]
    fn defaults_apply_without_file_or_flags() {
        let config = parse("", Overrides::default());
        assert_eq!(config.addr, "127.0.0.1:8080");
        assert_eq!(
            config.database_url.expose_secret(),
            "sqlite://./data/costscope.db"
        );
        assert_eq!(config.compliance_customer_ids, vec![112, 3]);
        assert_eq!(config.features, FeatureFlags::default());
        assert_eq!(config.login_rate_limit, LoginRateLimit::default());
        assert!(config.smtp.is_none());
    }

    #[test]
    fn file_values_are_read_and_flags_override_them() {
        let config = parse(
            r#"
            addr = "0.0.0.0:9000"
            data_dir = "/var/lib/costscope"
            support_email = "help@example.com"
            smtp_url = "smtp://localhost:2525"
            [features]
            IAMTab = true
            [login_rate_limit]
            max_failures_per_account = 3
            "#,
            Overrides {
                addr: Some("127.0.0.1:1".into()),
                ..Overrides::default()
            },
        );
        assert_eq!(config.addr, "127.0.0.1:1");
        assert_eq!(
            config.database_url.expose_secret(),
            "sqlite:///var/lib/costscope/costscope.db"
        );
        assert_eq!(config.support_email, "help@example.com");
        assert!(config.features.iam_tab);
        assert_eq!(config.login_rate_limit.max_failures_per_pair, 3);
        assert_eq!(config.login_rate_limit.window_minutes, 15);
        assert_eq!(
            config.smtp.unwrap().from,
            "Costscope <noreply@costscope.local>"
        );
    }

    #[test]
    fn debug_never_prints_secrets() {
        let config = parse(
            r#"
            auth_secret = "super-secret-key"
            database_url = "postgres://app:db-password@db/costscope"
            smtp_url = "smtp://mailer:smtp-password@mail:587"
            cost_engine = "clickhouse://app:ch-password@ch:8123/costs"
            "#,
            Overrides::default(),
        );
        let shown = format!("{config:?}");
        assert!(
            shown.contains("clickhouse://app:***@ch:8123/costs"),
            "{shown}"
        );
        for secret in [
            "super-secret-key",
            "db-password",
            "smtp-password",
            "ch-password",
        ] {
            assert!(!shown.contains(secret), "{secret} leaked in {shown}");
        }
    }

    #[test]
    fn the_cost_engine_is_duckdb_unless_a_flag_or_the_file_names_clickhouse() {
        let config = parse("", Overrides::default());
        assert!(matches!(config.cost_engine, CostEngineSetting::DuckDb));
        let file = r#"cost_engine = "clickhouse://ch-file:8123/costs""#;
        let from_file = parse(file, Overrides::default());
        assert_eq!(
            from_file.cost_engine.describe(),
            "clickhouse://default@ch-file:8123/costs"
        );
        let flag = Overrides {
            cost_engine: Some("duckdb".to_owned()),
            ..Overrides::default()
        };
        assert!(matches!(
            parse(file, flag).cost_engine,
            CostEngineSetting::DuckDb
        ));
        let flag = Overrides {
            cost_engine: Some("clickhouse://ch-flag/costs?cluster=main".to_owned()),
            ..Overrides::default()
        };
        let url = parse(file, flag).cost_engine.clickhouse_url().unwrap();
        assert_eq!((url.host(), url.cluster()), ("ch-flag", Some("main")));
    }

    #[test]
    fn a_cost_engine_that_is_neither_duckdb_nor_clickhouse_is_refused_where_it_was_given() {
        let flag = Overrides {
            cost_engine: Some("postgres://app:pw@db/costs".to_owned()),
            ..Overrides::default()
        };
        let error = Config::merge(FileConfig::default(), flag).unwrap_err();
        let message = format!("{error:#}");
        assert!(
            message.starts_with("cost engine: a `postgres://` URL"),
            "{message}"
        );
        assert!(message.contains("`duckdb`"), "{message}");
        assert!(!message.contains("pw@"), "{message}");
        let file = toml::from_str(r#"cost_engine = "duck""#).unwrap();
        let error = Config::merge(file, Overrides::default()).unwrap_err();
        let message = format!("{error:#}");
        assert!(
            message.starts_with("the configuration file's cost_engine: cost engine: `duck`"),
            "{message}"
        );
    }

    #[test]
    fn the_example_file_is_valid_and_matches_the_defaults() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("config.example.toml");
        let config = Config::merge(read_file(&path).unwrap(), Overrides::default()).unwrap();
        assert_eq!(config.features, FeatureFlags::default());
        assert_eq!(config.login_rate_limit, LoginRateLimit::default());
        assert_eq!(config.rate_limits, RateLimits::default());
        assert_eq!(config.trusted_proxies, TrustedProxies::default());
        assert_eq!(config.queries, QueryLimits::default());
        assert_eq!(config.uploads, UploadLimits::default());
        assert_eq!(config.discovery, DiscoveryConfig::default());
        assert_eq!(config.jobs.lease, LeaseTimes::default());
        assert!(matches!(config.cost_engine, CostEngineSetting::DuckDb));
        assert!(
            config.teams.is_none(),
            "Teams is off until an app registration is given"
        );
        assert!(config.allow_signup);
        assert_eq!(
            config.public_url.as_deref(),
            Some("https://costs.example.com")
        );
        assert_eq!(
            config.load_memory_limit,
            costscope_engine::DEFAULT_LOAD_MEMORY_LIMIT
        );
    }

    #[test]
    fn uploads_dir_defaults_under_the_data_dir_and_may_be_shared() {
        let default = parse(r#"data_dir = "/var/lib/costscope""#, Overrides::default());
        assert_eq!(default.uploads_dir, Path::new("/var/lib/costscope/uploads"));
        let shared = parse(
            r#"
            data_dir = "/var/lib/costscope"
            uploads_dir = "/mnt/shared/uploads"
            "#,
            Overrides::default(),
        );
        assert_eq!(shared.uploads_dir, Path::new("/mnt/shared/uploads"));
        let flag = parse(
            r#"uploads_dir = "/mnt/shared/uploads""#,
            Overrides {
                uploads_dir: Some("/srv/uploads".into()),
                ..Overrides::default()
            },
        );
        assert_eq!(flag.uploads_dir, Path::new("/srv/uploads"));
    }

    #[test]
    fn the_job_lease_time_is_read_and_checked() {
        assert_eq!(
            parse("", Overrides::default()).jobs.lease,
            LeaseTimes::default()
        );
        let short = parse("[jobs]\nlease_seconds = 6", Overrides::default());
        assert_eq!(short.jobs.lease.ttl, Duration::from_secs(6));
        assert_eq!(short.jobs.lease.renew_every, Duration::from_secs(2));
        let error = Config::merge(
            toml::from_str("[jobs]\nlease_seconds = 2").unwrap(),
            Overrides::default(),
        )
        .unwrap_err();
        assert_eq!(
            error.to_string(),
            "jobs.lease_seconds must be at least 3 (it is 2)"
        );
    }

    #[test]
    fn query_and_upload_limits_have_defaults_and_read_the_file() {
        let default = parse("", Overrides::default());
        assert!(default.allow_signup);
        assert_eq!(default.queries, QueryLimits::default());
        assert_eq!(default.uploads, UploadLimits::default());
        assert!(default.queries.engine_threads() >= 1);
        let config = parse(
            r#"
            allow_signup = false
            [queries]
            threads = 3
            timeout_seconds = 5
            [uploads]
            max_decompressed_size = "1GiB"
            max_loads_per_day = 7
            "#,
            Overrides::default(),
        );
        assert!(!config.allow_signup);
        assert_eq!(config.queries.engine_threads(), 3);
        assert_eq!(config.queries.timeout_seconds, 5);
        assert_eq!(config.uploads.max_decompressed_bytes, 1 << 30);
        assert_eq!(config.uploads.max_loads_per_day, 7);
        assert_eq!(
            config.uploads.max_rows_per_load,
            UploadLimits::default().max_rows_per_load
        );
        let bad =
            toml::from_str::<FileConfig>("[uploads]\nmax_decompressed_size = \"lots\"").unwrap();
        assert!(Config::merge(bad, Overrides::default()).is_err());
    }

    #[test]
    fn secrets_come_from_files_and_the_environment_before_the_config_file() {
        let dir = tempfile::tempdir().unwrap();
        let secret_file = dir.path().join("auth-secret");
        std::fs::write(&secret_file, "from-a-file-of-at-least-32-bytes!!\n").unwrap();
        let smtp_file = dir.path().join("smtp-url");
        std::fs::write(&smtp_file, "smtp://mailer:pw@mail:587\r\n").unwrap();
        let from_files = parse(
            &format!(
                "auth_secret_file = {:?}\nsmtp_url_file = {:?}",
                secret_file.display().to_string(),
                smtp_file.display().to_string()
            ),
            Overrides::default(),
        );
        assert_eq!(
            from_files.auth_secret.unwrap().expose_secret(),
            "from-a-file-of-at-least-32-bytes!!"
        );
        assert_eq!(
            from_files.smtp.unwrap().url.expose_secret(),
            "smtp://mailer:pw@mail:587"
        );

        let environment = Overrides {
            auth_secret: Some("from-the-environment".into()),
            smtp_url_file: Some(smtp_file.clone()),
            ..Overrides::default()
        };
        let config = parse(
            "auth_secret = \"from-the-file\"\nsmtp_url = \"smtp://other\"",
            environment,
        );
        assert_eq!(
            config.auth_secret.unwrap().expose_secret(),
            "from-the-environment"
        );
        assert_eq!(
            config.smtp.unwrap().url.expose_secret(),
            "smtp://mailer:pw@mail:587"
        );

        let both = toml::from_str::<FileConfig>(&format!(
            "auth_secret = \"x\"\nauth_secret_file = {:?}",
            secret_file.display().to_string()
        ))
        .unwrap();
        let error = Config::merge(both, Overrides::default()).unwrap_err();
        assert!(
            error.to_string().contains("both as a value and as a file"),
            "{error}"
        );
        let missing = Overrides {
            auth_secret_file: Some(dir.path().join("nope")),
            ..Overrides::default()
        };
        let error = Config::merge(FileConfig::default(), missing).unwrap_err();
        assert!(
            error.to_string().contains("reading the auth secret from"),
            "{error}"
        );
    }

    #[test]
    fn the_smtp_password_may_come_apart_from_the_url() {
        let dir = tempfile::tempdir().unwrap();
        let password_file = dir.path().join("smtp-password");
        std::fs::write(&password_file, "p@ss:w/rd\n").unwrap();
        let config = parse(
            &format!(
                "smtp_url = \"smtp://mailer@mail:587?tls=required\"\nsmtp_password_file = {:?}",
                password_file.display().to_string()
            ),
            Overrides::default(),
        );
        assert_eq!(
            config.smtp.unwrap().url.expose_secret(),
            "smtp://mailer:p%40ss%3Aw%2Frd@mail:587?tls=required"
        );
        let from_environment = Overrides {
            smtp_password: Some("secret".into()),
            ..Overrides::default()
        };
        let config = parse("smtp_url = \"smtps://mailer@mail\"", from_environment);
        assert_eq!(
            config.smtp.unwrap().url.expose_secret(),
            "smtps://mailer:secret@mail"
        );
        for (url, error) in [
            ("smtp://mail:587", "needs a user name"),
            ("smtp://mailer:pw@mail:587", "given twice"),
        ] {
            let file =
                toml::from_str::<FileConfig>(&format!("smtp_url = {url:?}\nsmtp_password = \"x\""))
                    .unwrap();
            let message = Config::merge(file, Overrides::default())
                .unwrap_err()
                .to_string();
            assert!(message.contains(error), "{url}: {message}");
        }
    }

    #[test]
    fn trusted_proxies_and_rate_limits_are_read_and_checked() {
        let config = parse(
            r#"
            trusted_proxies = ["10.0.0.0/8", "::1"]
            [rate_limits]
            signups_per_hour = 2
            [login_rate_limit]
            max_failures_per_account = 4
            "#,
            Overrides::default(),
        );
        assert_eq!(config.rate_limits.signups_per_hour, 2);
        assert_eq!(config.rate_limits.refreshes_per_minute, 60);
        assert_eq!(config.login_rate_limit.max_failures_per_pair, 4);
        assert_eq!(
            config.trusted_proxies,
            TrustedProxies::parse(&["10.0.0.0/8", "::1"]).unwrap()
        );
        let bad = toml::from_str::<FileConfig>("trusted_proxies = [\"10.0.0.0/40\"]").unwrap();
        let error = Config::merge(bad, Overrides::default()).unwrap_err();
        assert!(
            error.to_string().starts_with("trusted_proxies: "),
            "{error}"
        );
    }

    #[test]
    fn teams_needs_a_client_id_and_secret_and_has_microsofts_endpoints_by_default() {
        assert!(parse("", Overrides::default()).teams.is_none());
        let dir = tempfile::tempdir().unwrap();
        let secret_file = dir.path().join("teams-secret");
        std::fs::write(&secret_file, "from-a-file\n").unwrap();
        let config = parse(
            &format!(
                "[teams]\nclient_id = \"app-id\"\nclient_secret_file = {:?}",
                secret_file.display().to_string()
            ),
            Overrides::default(),
        );
        let teams = config.teams.unwrap();
        assert_eq!(teams.client_id, "app-id");
        assert_eq!(teams.client_secret.expose_secret(), "from-a-file");
        assert_eq!(teams.authority, "https://login.microsoftonline.com/common");
        assert_eq!(teams.graph_url, "https://graph.microsoft.com/v1.0");

        let environment = Overrides {
            teams_client_id: Some("env-app".into()),
            teams_client_secret: Some("env-secret".into()),
            teams_authority: Some("http://127.0.0.1:9/common/".into()),
            teams_graph_url: Some("http://127.0.0.1:9/v1.0".into()),
            ..Overrides::default()
        };
        let teams = parse(
            "[teams]\nclient_id = \"file-app\"\nclient_secret = \"file-secret\"",
            environment,
        )
        .teams
        .unwrap();
        assert_eq!(teams.client_id, "env-app");
        assert_eq!(teams.client_secret.expose_secret(), "env-secret");
        assert_eq!(teams.authority, "http://127.0.0.1:9/common");
        let shown = format!(
            "{:?}",
            parse(
                "[teams]\nclient_id = \"a\"\nclient_secret = \"hidden-teams-secret\"",
                Overrides::default()
            )
        );
        assert!(!shown.contains("hidden-teams-secret"), "{shown}");

        for (bad, error) in [
            ("[teams]\nclient_id = \"a\"", "client secret is not"),
            ("[teams]\nclient_secret = \"s\"", "teams.client_id is not"),
            (
                "[teams]\nclient_id = \"a\"\nclient_secret = \"s\"\ngraph_url = \"graph\"",
                "teams.graph_url",
            ),
        ] {
            let message = Config::merge(toml::from_str(bad).unwrap(), Overrides::default())
                .unwrap_err()
                .to_string();
            assert!(message.contains(error), "{bad}: {message}");
        }
        assert!(toml::from_str::<FileConfig>("[teams]\nclient = \"x\"").is_err());
    }

    #[test]
    fn unknown_keys_are_refused() {
        assert!(toml::from_str::<FileConfig>("adress = \"x\"").is_err());
    }

    #[test]
    fn the_load_memory_limit_is_a_size_from_flags_or_the_file() {
        assert_eq!(parse("", Overrides::default()).load_memory_limit, 384 << 20);
        let from_file = parse("load_memory_limit = \"1GiB\"", Overrides::default());
        assert_eq!(from_file.load_memory_limit, 1 << 30);
        let flag = Overrides {
            load_memory_limit: Some("2GB".into()),
            ..Overrides::default()
        };
        assert_eq!(
            parse("load_memory_limit = \"1GiB\"", flag).load_memory_limit,
            2_000_000_000
        );
        let minimum = 64 << 20;
        assert_eq!(super::parse_size("1.5G", minimum).unwrap(), 3 << 29);
        assert_eq!(
            super::parse_size("100000000", minimum).unwrap(),
            100_000_000
        );
        for bad in ["lots", "1XB", "10MB", ""] {
            assert!(super::parse_size(bad, minimum).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_upload_limit_is_2_gib_unless_a_size_is_given() {
        let default = parse("", Overrides::default());
        assert_eq!(
            default.max_upload_bytes,
            crate::http::ingest::DEFAULT_MAX_UPLOAD_BYTES
        );
        let from_file = parse("max_upload_size = \"10GB\"", Overrides::default());
        assert_eq!(from_file.max_upload_bytes, 10_000_000_000);
        let flag = Overrides {
            max_upload_size: Some("6GiB".into()),
            ..Overrides::default()
        };
        assert_eq!(
            parse("max_upload_size = \"10GB\"", flag).max_upload_bytes,
            6 << 30
        );
        let too_small = Config::merge(
            toml::from_str("max_upload_size = \"1KB\"").unwrap(),
            Overrides::default(),
        );
        assert!(too_small.is_err());
    }

    #[test]
    fn discovery_has_defaults_a_limit_per_tier_and_checks_its_values() {
        let default = parse("", Overrides::default()).discovery;
        assert_eq!(default.interval_hours, 6);
        assert_eq!(default.daily_limit_for(0), 24);
        assert_eq!(default.concurrency, 4);
        assert_eq!(default.fixed_regions(), None);
        let config = parse(
            r#"
            [discovery]
            interval_hours = 0
            daily_limit = 5
            daily_limit_by_tier = { "0" = 2, "3" = 100 }
            regions = ["us-east-1", "eu-west-1"]
            "#,
            Overrides::default(),
        )
        .discovery;
        assert_eq!(config.interval_hours, 0);
        assert_eq!(
            (
                config.daily_limit_for(0),
                config.daily_limit_for(1),
                config.daily_limit_for(3)
            ),
            (2, 5, 100)
        );
        assert_eq!(
            config.fixed_regions(),
            Some(&["us-east-1".to_owned(), "eu-west-1".to_owned()][..])
        );
        for (bad, field) in [
            (
                "[discovery]\ndaily_limit_by_tier = { free = 2 }",
                "discovery.daily_limit_by_tier",
            ),
            ("[discovery]\nregions = [\"Mars\"]", "discovery.regions"),
        ] {
            let error =
                Config::merge(toml::from_str(bad).unwrap(), Overrides::default()).unwrap_err();
            assert!(error.to_string().starts_with(field), "{error}");
        }
        assert!(toml::from_str::<FileConfig>("[discovery]\nintervall = 1").is_err());
    }
}
