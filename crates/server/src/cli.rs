//! The command line: `costscope serve | migrate | user create | openapi`.

use std::path::PathBuf;

use anyhow::Context;
use clap::{Args, Parser, Subcommand};
use costscope_core::{Email, FullName, Password, SystemClock};

use crate::config::{Config, LogFormat, Overrides};
use crate::onboarding::{register_customer, Registration};
use crate::startup::Application;

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
    /// Public base URL of this server, used in invitation links [default: http://<addr>]
    #[arg(long, global = true, env = "COSTSCOPE_PUBLIC_URL", value_name = "URL")]
    pub public_url: Option<String>,
    /// Log output: human-readable or one JSON object per line [default: pretty]
    #[arg(long, global = true, env = "COSTSCOPE_LOG_FORMAT", value_enum)]
    pub log_format: Option<LogFormat>,
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
    /// Print the OpenAPI document of the HTTP API as JSON
    Openapi,
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
