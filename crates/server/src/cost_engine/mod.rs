//! The cost engine the configuration names (`cost_engine`), opened for the server or a command:
//! DuckDB in the data directory (the default) or ClickHouse (issue 18).

mod setting;

pub use setting::{CostEngineSetting, ACCEPTED};

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context;
use costscope_engine::{
    ClickHouseEngine, CostEngine, DuckDbEngine, EngineError, LoadSettings, ReadLimits,
};
use secrecy::ExposeSecret;

use crate::config::Config;

/// The DuckDB file holding cost line items, inside the data directory.
pub const COST_DATABASE_FILE: &str = "costs.duckdb";
/// Where a ClickHouse load's staging DuckDB database spills, inside the data directory.
pub const CLICKHOUSE_STAGING_DIR: &str = "clickhouse-staging.tmp";

/// An opened cost engine, keeping its kind for what only one kind has (the DuckDB file a
/// backup copies). Cheap to clone.
#[derive(Debug, Clone)]
pub enum OpenedEngine {
    DuckDb(DuckDbEngine),
    ClickHouse(ClickHouseEngine),
}

impl OpenedEngine {
    /// The engine behind the trait, for the handlers and the jobs.
    pub fn shared(&self) -> Arc<dyn CostEngine> {
        match self {
            Self::DuckDb(engine) => Arc::new(engine.clone()),
            Self::ClickHouse(engine) => Arc::new(engine.clone()),
        }
    }

    /// The engine behind the trait, borrowed.
    pub fn as_dyn(&self) -> &dyn CostEngine {
        match self {
            Self::DuckDb(engine) => engine,
            Self::ClickHouse(engine) => engine,
        }
    }

    /// Whether several processes (replicas) may share this engine: ClickHouse yes, the DuckDB
    /// file no (one process holds it).
    pub fn is_shared(&self) -> bool {
        matches!(self, Self::ClickHouse(_))
    }
}

/// Opens the configured engine with the configured load and read limits. DuckDB:
/// [`EngineError::Locked`] while another process (a running server) holds the file.
pub async fn open(config: &Config) -> Result<OpenedEngine, EngineError> {
    match &config.cost_engine {
        CostEngineSetting::DuckDb => open_duckdb(config).map(OpenedEngine::DuckDb),
        CostEngineSetting::ClickHouse(url) => {
            let engine = ClickHouseEngine::connect(url.expose_secret()).await?;
            // Each load stages its upload in a DuckDB database of its own, bounded like the
            // embedded engine's and spilling into the data directory.
            engine.configure(&LoadSettings {
                memory_limit: config.load_memory_limit,
                temp_directory: Some(config.data_dir.join(CLICKHOUSE_STAGING_DIR)),
            });
            Ok(OpenedEngine::ClickHouse(engine))
        }
    }
}

/// [`open`] with the failure explained: which engine could not be opened (a ClickHouse URL
/// with its password masked).
pub async fn open_explained(config: &Config) -> anyhow::Result<OpenedEngine> {
    let engine = open(config)
        .await
        .with_context(|| format!("opening the cost engine ({})", where_costs_live(config)))?;
    tracing::info!(cost_engine = %where_costs_live(config), "cost engine");
    Ok(engine)
}

/// The DuckDB file, or the ClickHouse URL with its password masked.
pub fn where_costs_live(config: &Config) -> String {
    match &config.cost_engine {
        CostEngineSetting::DuckDb => duckdb_path(config).display().to_string(),
        clickhouse => clickhouse.describe(),
    }
}

/// `costs.duckdb` in the data directory.
pub fn duckdb_path(config: &Config) -> PathBuf {
    config.data_dir.join(COST_DATABASE_FILE)
}

/// Opens `costs.duckdb` in the data directory with the configured memory limit (spilling to
/// `costs.duckdb.tmp` beside it) and read bounds (`[queries]`).
pub fn open_duckdb(config: &Config) -> Result<DuckDbEngine, EngineError> {
    let engine = DuckDbEngine::open(&duckdb_path(config))?;
    engine.configure(&LoadSettings {
        memory_limit: config.load_memory_limit,
        temp_directory: Some(config.data_dir.join(format!("{COST_DATABASE_FILE}.tmp"))),
    })?;
    // Bounded reads: DuckDB threads, cost queries at once, and the time limit of each.
    engine.configure_reads(&ReadLimits {
        threads: config.queries.engine_threads(),
        concurrent: config.queries.concurrent_queries(),
        timeout: std::time::Duration::from_secs(config.queries.timeout_seconds.max(1)),
    })?;
    Ok(engine)
}
