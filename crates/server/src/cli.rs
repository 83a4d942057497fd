//! The command line: `costscope serve | migrate | user create | ingest | demo | openapi |
//! export focus | backup | restore`.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use anyhow::Context;
use clap::{Args, Parser, Subcommand};
use costscope_core::{Email, FullName, Password, SystemClock};
use costscope_engine::{EngineError, LoadPhase, LoadProgress, LoadSummary, ProgressFn};
use costscope_ingest::Format;

use crate::config::{Config, LogFormat, Overrides};
use crate::cost_engine::OpenedEngine;
use crate::jobs::ingest::{load_directly, DirectLoad, LocalFile};
use crate::onboarding::{register_customer, Registration};
use crate::startup::Application;
use costscope_core::display::{money, thousands};

#[derive(Debug, Parser)]
#[command(
    name = "costscope",
    version,
    about = "Self-hosted cloud cost console: one binary serving the API and the web app"
)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,
    #[command(subcommand)]
    pub command: Command,
}

/// Settings shared by every subcommand. Precedence: flag, then environment, then the
/// TOML file given by --config, then the built-in default.
#[derive(Debug, Args, Default)]
pub struct GlobalArgs {
    /// TOML configuration file (features, support e-mail, SMTP, auth secret, rate limits, …)
    #[arg(long, global = true, env = "COSTSCOPE_CONFIG", value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Address the HTTP server listens on [default: 127.0.0.1:8080; port 0 picks a free port]
    #[arg(long, global = true, env = "COSTSCOPE_ADDR", value_name = "HOST:PORT")]
    pub addr: Option<String>,
    /// Directory for local data: the SQLite database and the generated auth secret [default: ./data]
    #[arg(long, global = true, env = "COSTSCOPE_DATA_DIR", value_name = "DIR")]
    pub data_dir: Option<PathBuf>,
    /// Directory of the uploads waiting for their load; replicas share one [default: <data-dir>/uploads]
    #[arg(long, global = true, env = "COSTSCOPE_UPLOADS_DIR", value_name = "DIR")]
    pub uploads_dir: Option<PathBuf>,
    /// Metadata database: sqlite://PATH or postgres://USER@HOST/DB [default: sqlite://<data-dir>/costscope.db]
    #[arg(
        long,
        global = true,
        env = "COSTSCOPE_DATABASE_URL",
        value_name = "URL",
        // The URL may carry a password.
        hide_env_values = true
    )]
    pub database_url: Option<String>,
    /// Where the cost line items live: `duckdb` (costs.duckdb in the data dir) or
    /// clickhouse://USER:PASSWORD@HOST:8123/DATABASE[?cluster=NAME&shards=HOST:PORT,HOST:PORT] [default: duckdb]
    #[arg(
        long,
        global = true,
        env = "COSTSCOPE_COST_ENGINE",
        value_name = "ENGINE",
        // The URL may carry a password.
        hide_env_values = true
    )]
    pub cost_engine: Option<String>,
    /// Public base URL of this server, used in invitation links [default: http://<addr>]
    #[arg(long, global = true, env = "COSTSCOPE_PUBLIC_URL", value_name = "URL")]
    pub public_url: Option<String>,
    /// Log output: human-readable or one JSON object per line [default: pretty]
    #[arg(long, global = true, env = "COSTSCOPE_LOG_FORMAT", value_enum)]
    pub log_format: Option<LogFormat>,
    /// Memory the cost database may use (loads spill to disk beyond it), e.g. 1GB, 768MiB [default: 384MiB]
    #[arg(
        long,
        global = true,
        env = "COSTSCOPE_LOAD_MEMORY_LIMIT",
        value_name = "SIZE"
    )]
    pub load_memory_limit: Option<String>,
    /// Largest upload `POST /v1/ingest` accepts, e.g. 10GB [default: 2GiB]
    #[arg(
        long,
        global = true,
        env = "COSTSCOPE_MAX_UPLOAD_SIZE",
        value_name = "SIZE"
    )]
    pub max_upload_size: Option<String>,
    /// File holding the access-token signing key, at least 32 bytes (or the key itself in
    /// COSTSCOPE_AUTH_SECRET; secrets are never flags, which the process list would show)
    #[arg(
        long,
        global = true,
        env = "COSTSCOPE_AUTH_SECRET_FILE",
        value_name = "FILE"
    )]
    pub auth_secret_file: Option<PathBuf>,
    /// File holding the SMTP URL, which may carry a password (or the URL itself in
    /// COSTSCOPE_SMTP_URL)
    #[arg(
        long,
        global = true,
        env = "COSTSCOPE_SMTP_URL_FILE",
        value_name = "FILE"
    )]
    pub smtp_url_file: Option<PathBuf>,
    /// File holding the SMTP password, for an SMTP URL without one (or the password itself in
    /// COSTSCOPE_SMTP_PASSWORD)
    #[arg(
        long,
        global = true,
        env = "COSTSCOPE_SMTP_PASSWORD_FILE",
        value_name = "FILE"
    )]
    pub smtp_password_file: Option<PathBuf>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Serve the JSON API and the web app (migrates the database first)
    Serve {
        /// Make sure the demo tenant exists (demo@costscope.dev / costscope-demo) and renew its trial
        #[arg(long)]
        demo: bool,
    },
    /// Apply pending database migrations and exit
    Migrate,
    /// Manage users
    #[command(subcommand)]
    User(UserCommand),
    /// Load billing export files into a customer's cost data (while no server runs on the
    /// data directory; with a server running, upload through it instead)
    Ingest(IngestArgs),
    /// Create the demo tenant (demo@costscope.dev / costscope-demo), load its demo data
    /// (13 months of AWS, GCP and Azure costs up to today) and exit
    Demo,
    /// Print the OpenAPI document of the HTTP API as JSON
    Openapi,
    /// Export a customer's cost data (while no server runs on the data directory)
    #[command(subcommand)]
    Export(ExportCommand),
    /// Copy the data directory's metadata and cost database, consistently, into a new or empty
    /// directory; works while the server runs (docs/OPERATIONS.md)
    Backup {
        /// The directory to write (created; must be empty when it exists)
        #[arg(long, value_name = "DIR")]
        to: PathBuf,
    },
    /// Put a backup in place in the data directory (no server may run on it)
    Restore {
        /// A directory written by `costscope backup`
        #[arg(long, value_name = "DIR")]
        from: PathBuf,
    },
}

#[derive(Debug, Subcommand)]
pub enum ExportCommand {
    /// Write the line items of a range as a FOCUS 1.2 or 1.3 file (docs/FOCUS-EXPORT.md)
    Focus(ExportFocusArgs),
}

#[derive(Debug, Args)]
pub struct ExportFocusArgs {
    /// The id of the customer (tenant) whose costs are exported
    #[arg(long, value_name = "ID")]
    pub customer: i64,
    /// First day, YYYY-MM-DD (UTC; charges starting that day or later)
    #[arg(long, value_name = "DATE")]
    pub start: String,
    /// Last day, YYYY-MM-DD, included (at most 366 days after the start)
    #[arg(long, value_name = "DATE")]
    pub end: String,
    /// csv or parquet [default: csv]
    #[arg(long, value_name = "FORMAT")]
    pub format: Option<String>,
    /// FOCUS version: 1.2 or 1.3 [default: 1.2]
    #[arg(long, value_name = "VERSION")]
    pub version: Option<String>,
    /// The file to write (replaced when it exists)
    #[arg(long, value_name = "FILE")]
    pub output: PathBuf,
}

#[derive(Debug, Subcommand)]
pub enum UserCommand {
    /// Create a customer with this user as its owner (like signing up)
    Create(CreateUserArgs),
}

#[derive(Debug, Args)]
pub struct CreateUserArgs {
    /// The owner's e-mail address (their sign-in)
    #[arg(long)]
    pub email: String,
    /// The owner's name
    #[arg(long)]
    pub name: String,
    /// The owner's password (at least 8 characters)
    #[arg(long, env = "COSTSCOPE_USER_PASSWORD", hide_env_values = true)]
    pub password: String,
    /// The customer's name [default: the owner's name]
    #[arg(long)]
    pub customer_name: Option<String>,
}

#[derive(Debug, Args)]
pub struct IngestArgs {
    /// Billing export files: FOCUS, AWS CUR or CUR 2.0, GCP billing export, Azure cost
    /// details; CSV, .csv.gz, Parquet or newline-delimited JSON. Several files are loaded
    /// together, as one upload
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// The id of the customer (tenant) the costs belong to
    #[arg(long, value_name = "ID")]
    pub customer: i64,
    /// The files' format: focus, aws-cur, aws-cur2, gcp-billing or azure-cost-details
    /// [default: detected from each file's columns]
    #[arg(long, value_name = "FORMAT")]
    pub format: Option<String>,
}

pub async fn run(cli: Cli) -> anyhow::Result<()> {
    if let Command::Openapi = cli.command {
        println!("{}", crate::http::openapi::document_json());
        return Ok(());
    }
    let config = Config::load(Overrides::from(cli.global))?;
    crate::telemetry::init(config.log_format);
    match cli.command {
        Command::Serve { demo } => serve(Config { demo, ..config }).await,
        Command::Migrate => {
            let store = crate::startup::open_store(&config).await?;
            store.migrate().await.context("migrating the database")?;
            println!("Migrations applied");
            Ok(())
        }
        Command::User(UserCommand::Create(args)) => create_user(&config, args).await,
        Command::Ingest(args) => ingest(&config, args).await,
        Command::Demo => demo(&config).await,
        Command::Export(ExportCommand::Focus(args)) => export_focus(&config, args).await,
        Command::Backup { to } => {
            let manifest = crate::backup::run_backup(&config, &to).await?;
            println!(
                "Backup written to {}: {}",
                to.display(),
                manifest.files.join(", ")
            );
            if manifest.metadata == "postgresql" {
                println!(
                    "The metadata is in PostgreSQL: back it up with pg_dump (docs/OPERATIONS.md)."
                );
            }
            if manifest.cost_engine == "clickhouse" {
                println!("{}", crate::backup::CLICKHOUSE_BACKUP_NOTE);
            }
            Ok(())
        }
        Command::Restore { from } => {
            for note in crate::backup::run_restore(&config, &from).await? {
                println!("{note}");
            }
            println!(
                "Restored {} into {}. Start the server with `costscope serve`.",
                from.display(),
                config.data_dir.display()
            );
            Ok(())
        }
        Command::Openapi => unreachable!("handled above"),
    }
}

async fn serve(config: Config) -> anyhow::Result<()> {
    let demo = config.demo;
    let app = Application::build(config).await?;
    println!("Costscope is running at http://{}", app.local_addr());
    if demo {
        println!(
            "Demo sign-in: {} / {}",
            crate::demo::DEMO_EMAIL,
            crate::demo::DEMO_PASSWORD
        );
    }
    app.run_until_stopped().await?;
    tracing::info!("Costscope stopped");
    Ok(())
}

async fn create_user(config: &Config, args: CreateUserArgs) -> anyhow::Result<()> {
    let store = crate::startup::open_store(config).await?;
    store.migrate().await.context("migrating the database")?;
    let invalid =
        |err: costscope_core::FieldError| anyhow::anyhow!("{}: {}", err.field, err.message);
    let registration = Registration {
        owner_name: FullName::parse(&args.name).map_err(invalid)?,
        email: Email::parse(&args.email).map_err(invalid)?,
        password: Password::parse(&args.password).map_err(invalid)?,
        customer_name: args.customer_name,
        is_demo: false,
    };
    let (customer, owner) = register_customer(store.as_ref(), &SystemClock, registration).await?;
    println!(
        "Created user {} (id {}) as owner of customer {:?} (id {})",
        owner.email, owner.id, customer.name, customer.id
    );
    Ok(())
}

/// A day: in effect no limit for a command's engine calls.
const COMMAND_TIME_LIMIT_SECONDS: u64 = 24 * 60 * 60;

/// Opens the cost engine for a command, explaining what to do when a server holds the DuckDB
/// file (ClickHouse is shared: a command works beside running servers). A command is run by a
/// person at the terminal, so its calls (a year-long export, say) are not cut at the
/// per-request time limit of `[queries]` that protects the server.
async fn open_engine_for_command(config: &Config) -> anyhow::Result<OpenedEngine> {
    let mut config = config.clone();
    config.queries.timeout_seconds = COMMAND_TIME_LIMIT_SECONDS;
    let config = &config;
    crate::cost_engine::open(config)
        .await
        .map_err(|error| match error {
            EngineError::Locked(_) => anyhow::anyhow!(
                "The data directory {dir} is in use by a running Costscope server. Stop it first, \
             or upload through the server: Settings › Billing data in the web app, or \
             `curl -H 'Authorization: Bearer <token>' -F file=@FILE http://{addr}/v1/ingest`.",
                dir = config.data_dir.display(),
                addr = config.addr,
            ),
            other => anyhow::Error::new(other).context(format!(
                "opening the cost engine ({})",
                crate::cost_engine::where_costs_live(config)
            )),
        })
}

async fn ingest(config: &Config, args: IngestArgs) -> anyhow::Result<()> {
    let format = args
        .format
        .as_deref()
        .map(str::parse::<Format>)
        .transpose()
        .map_err(anyhow::Error::msg)?;
    let mut files = Vec::with_capacity(args.files.len());
    for path in &args.files {
        if !path.is_file() {
            anyhow::bail!("{}: no such file", path.display());
        }
        files.push(LocalFile {
            display_name: display_name(path),
            path: path.clone(),
        });
    }
    let store = crate::startup::open_store(config).await?;
    store.migrate().await.context("migrating the database")?;
    if store.get_customer(args.customer).await?.is_none() {
        anyhow::bail!(
            "Customer {} not found. `costscope user create` creates a customer with its owner.",
            args.customer
        );
    }
    let engine = open_engine_for_command(config).await?;
    let progress = ProgressLine::new();
    let holder = crate::jobs::lease::HolderId::for_data_dir(&config.data_dir)?;
    let load = DirectLoad {
        customer_id: args.customer,
        files: &files,
        format,
        created_by: "command line",
        progress: Some(progress.callback()),
        holder: &holder,
        lease: config.jobs.lease,
    };
    let loaded = load_directly(store.as_ref(), engine.as_dyn(), &SystemClock, load).await;
    progress.finish();
    store.close().await;
    print_summary(&loaded?);
    Ok(())
}

async fn export_focus(config: &Config, args: ExportFocusArgs) -> anyhow::Result<()> {
    let request = costscope_core::focus::FocusExportRequest::parse(
        Some(&args.start),
        Some(&args.end),
        args.format.as_deref(),
        args.version.as_deref(),
    )
    .map_err(|errors| {
        let lines: Vec<String> = errors
            .iter()
            .map(|error| format!("--{}: {}", error.field, error.message))
            .collect();
        anyhow::anyhow!(lines.join("\n"))
    })?;
    let store = crate::startup::open_store(config).await?;
    store.migrate().await.context("migrating the database")?;
    let customer = store.get_customer(args.customer).await?;
    store.close().await;
    if customer.is_none() {
        anyhow::bail!("Customer {} not found.", args.customer);
    }
    let engine = open_engine_for_command(config).await?;
    // Written beside the output and renamed into place: never a half-written output file.
    let mut partial = args.output.clone().into_os_string();
    partial.push(".partial");
    let partial = PathBuf::from(partial);
    let written = engine
        .as_dyn()
        .export_focus(args.customer, &request, &partial)
        .await
        .context("writing the FOCUS export");
    let summary = match written {
        Ok(summary) => summary,
        Err(error) => {
            let _ = std::fs::remove_file(&partial);
            return Err(error);
        }
    };
    std::fs::rename(&partial, &args.output)
        .with_context(|| format!("moving the export to {}", args.output.display()))?;
    println!(
        "Wrote {} line items as FOCUS {} ({}) to {}",
        thousands(summary.rows),
        request.version,
        request.format,
        args.output.display()
    );
    Ok(())
}

async fn demo(config: &Config) -> anyhow::Result<()> {
    let store = crate::startup::open_store(config).await?;
    store.migrate().await.context("migrating the database")?;
    let engine = open_engine_for_command(config).await?;
    let engine = engine.as_dyn();
    let tenant = crate::demo::ensure_demo_tenant(store.as_ref(), &SystemClock).await?;
    let customer_id = tenant.customer_id;
    eprintln!("Generating and loading the demo data…");
    let summary =
        crate::demo::load_demo_data(store.as_ref(), engine, &SystemClock, customer_id, config)
            .await;
    if summary.is_ok() {
        crate::demo::ensure_demo_budgets(store.as_ref(), engine, &SystemClock, tenant).await?;
    }
    store.close().await;
    print_summary(&summary?);
    println!(
        "Demo sign-in: {} / {} (customer {customer_id})",
        crate::demo::DEMO_EMAIL,
        crate::demo::DEMO_PASSWORD
    );
    Ok(())
}

fn display_name(path: &Path) -> String {
    let name = path
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string());
    costscope_core::upload_name::display_upload_name(&name)
}

/// Load progress on stderr: one line redrawn in a terminal, one line per step otherwise.
#[derive(Clone)]
struct ProgressLine {
    terminal: bool,
    drawn: Arc<Mutex<bool>>,
    last_step: Arc<Mutex<Option<(LoadPhase, usize)>>>,
}

impl ProgressLine {
    fn new() -> Self {
        Self {
            terminal: std::io::stderr().is_terminal(),
            drawn: Arc::new(Mutex::new(false)),
            last_step: Arc::new(Mutex::new(None)),
        }
    }

    fn callback(&self) -> ProgressFn {
        let line = self.clone();
        Arc::new(move |progress| line.show(&progress))
    }

    fn show(&self, progress: &LoadProgress) {
        // One line per phase and file when not redrawn in place.
        let step = (progress.phase, progress.file_index);
        if !self.terminal {
            let mut last = self
                .last_step
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if *last == Some(step) {
                return;
            }
            *last = Some(step);
        }
        let mib = |bytes: u64| format!("{:.0} MB", bytes as f64 / 1_000_000.0);
        let read = if progress.bytes_total == 0 {
            0.0
        } else {
            (progress.bytes_read as f64 / progress.bytes_total as f64).min(1.0)
        };
        let file = format!(
            "{} ({}/{})",
            progress.file_name,
            progress.file_index + 1,
            progress.files
        );
        let (done, text) = match progress.phase {
            LoadPhase::Reading => (
                read,
                format!(
                    "reading {file}: {} of {}",
                    mib(progress.bytes_read),
                    mib(progress.bytes_total)
                ),
            ),
            LoadPhase::Checking => (
                read,
                format!("checking {} rows of {file}", thousands(progress.rows_read)),
            ),
            LoadPhase::Writing => (
                1.0,
                format!("writing {} rows", thousands(progress.rows_read)),
            ),
            LoadPhase::Rollups => (1.0, "updating the daily rollups".to_owned()),
        };
        let width = 24;
        let filled = ((done * width as f64).round() as usize).min(width);
        let bar = format!(
            "[{}{}] {:>3}%",
            "#".repeat(filled),
            "-".repeat(width - filled),
            (done * 100.0).round()
        );
        let mut stderr = std::io::stderr().lock();
        if self.terminal {
            let _ = write!(stderr, "\r\x1b[2K{bar} {text}");
            *self
                .drawn
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner) = true;
        } else {
            let _ = writeln!(stderr, "{bar} {text}");
        }
        let _ = stderr.flush();
    }

    fn finish(&self) {
        if *self
            .drawn
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
        {
            eprintln!();
        }
    }
}

/// What a load did, for people: rows, replaced rows, billing periods, totals per provider.
fn print_summary(summary: &LoadSummary) {
    println!(
        "Loaded {} rows ({} rows loaded before were replaced).",
        thousands(summary.rows),
        thousands(summary.replaced_rows)
    );
    for file in &summary.files {
        println!(
            "  {}: {} rows, {}",
            file.name,
            thousands(file.rows),
            file.format
        );
    }
    println!("Billing periods: {}", summary.billing_periods.len());
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for period in &summary.billing_periods {
        let key = format!("{} {}", period.provider, period.billing_account_id);
        let month = period.billing_period_start.format("%Y-%m").to_string();
        match groups.iter_mut().find(|(existing, _)| *existing == key) {
            Some((_, months)) => months.push(month),
            None => groups.push((key, vec![month])),
        }
    }
    for (key, months) in groups {
        let range = match (months.first(), months.last()) {
            (Some(first), Some(last)) if first != last => format!("{first} to {last}"),
            (Some(first), _) => first.clone(),
            _ => String::new(),
        };
        println!("  {key}: {range} ({} periods)", months.len());
    }
    println!("Totals:");
    for totals in &summary.totals {
        println!(
            "  {}: {} rows, billed {} {cur}, effective {} {cur}, list {} {cur}",
            totals.provider.display_name(),
            thousands(totals.rows),
            money(totals.billed_cost),
            money(totals.effective_cost),
            money(totals.list_cost),
            cur = totals.currency,
        );
    }
}
