//! The server's one typed configuration: defaults, then the TOML file, then flags/env.

use std::path::{Path, PathBuf};

use anyhow::Context;
use costscope_core::FeatureFlags;
use secrecy::SecretString;
use serde::Deserialize;

use crate::cli::GlobalArgs;

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
    /// May hold database credentials.
    pub database_url: SecretString,
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

/// Sign-in throttling. Counted in memory, so each replica counts on its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LoginRateLimit {
    pub window_minutes: u32,
    /// Failed sign-ins for one e-mail address within the window.
    pub max_failures_per_account: u32,
    /// Sign-in attempts (failed or not) from one client address within the window.
    pub max_attempts_per_address: u32,
}

impl Default for LoginRateLimit {
    fn default() -> Self {
        Self {
            window_minutes: 15,
            max_failures_per_account: 10,
            max_attempts_per_address: 30,
        }
    }
}

/// The TOML file. Every key is optional.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileConfig {
    addr: Option<String>,
    data_dir: Option<PathBuf>,
    database_url: Option<SecretString>,
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
    #[serde(default)]
    login_rate_limit: LoginRateLimit,
    load_memory_limit: Option<String>,
    max_upload_size: Option<String>,
    allow_signup: Option<bool>,
    #[serde(default)]
    queries: QueryLimits,
    #[serde(default)]
    uploads: UploadLimitsFile,
}

/// Values given on the command line or in the environment; they win over the file.
#[derive(Debug, Default)]
pub struct Overrides {
    pub config_file: Option<PathBuf>,
    pub addr: Option<String>,
    pub data_dir: Option<PathBuf>,
    pub database_url: Option<String>,
    pub public_url: Option<String>,
    pub log_format: Option<LogFormat>,
    pub load_memory_limit: Option<String>,
    pub max_upload_size: Option<String>,
}

impl From<GlobalArgs> for Overrides {
    fn from(args: GlobalArgs) -> Self {
        Self {
            config_file: args.config,
            addr: args.addr,
            data_dir: args.data_dir,
            database_url: args.database_url,
            public_url: args.public_url,
            log_format: args.log_format,
            load_memory_limit: args.load_memory_limit,
            max_upload_size: args.max_upload_size,
        }
    }
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
        let database_url = match overrides.database_url {
            Some(url) => SecretString::from(url),
            None => file
                .database_url
                .unwrap_or_else(|| default_database_url(&data_dir)),
        };
        let smtp = match (file.smtp_url, file.smtp_from) {
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
            database_url,
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
            auth_secret: file.auth_secret,
            login_rate_limit: file.login_rate_limit,
            demo: false,
            max_upload_bytes,
            load_memory_limit,
            allow_signup: file.allow_signup.unwrap_or(true),
            queries: file.queries,
            uploads: file.uploads.resolve()?,
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
    use secrecy::ExposeSecret;

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
        assert_eq!(config.login_rate_limit.max_failures_per_account, 3);
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
            "#,
            Overrides::default(),
        );
        let shown = format!("{config:?}");
        for secret in ["super-secret-key", "db-password", "smtp-password"] {
            assert!(!shown.contains(secret), "{secret} leaked in {shown}");
        }
    }

    #[test]
    fn the_example_file_is_valid_and_matches_the_defaults() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("config.example.toml");
        let config = Config::merge(read_file(&path).unwrap(), Overrides::default()).unwrap();
        assert_eq!(config.features, FeatureFlags::default());
        assert_eq!(config.login_rate_limit, LoginRateLimit::default());
        assert_eq!(config.queries, QueryLimits::default());
        assert_eq!(config.uploads, UploadLimits::default());
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
    fn unknown_keys_are_refused() {
        assert!(toml::from_str::<FileConfig>("adress = \"x\"").is_err());
    }

    #[test]
    fn the_load_memory_limit_is_a_size_from_flags_or_the_file() {
        assert_eq!(parse("", Overrides::default()).load_memory_limit, 1 << 30);
        let from_file = parse("load_memory_limit = \"512MiB\"", Overrides::default());
        assert_eq!(from_file.load_memory_limit, 512 << 20);
        let flag = Overrides {
            load_memory_limit: Some("2GB".into()),
            ..Overrides::default()
        };
        assert_eq!(
            parse("load_memory_limit = \"512MiB\"", flag).load_memory_limit,
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
}
