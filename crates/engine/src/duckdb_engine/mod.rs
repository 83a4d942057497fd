//! The embedded DuckDB implementation of [`crate::CostEngine`]: one database file (or memory),
//! a small pool of cloned connections for reads, one writer connection for loads. Every call
//! runs on a blocking thread; reads are bounded in number and time ([`ReadLimits`]).

pub(crate) mod currency;
mod daily_rollup;
pub(crate) mod export;
mod load;
mod progress;
pub(crate) mod read;
pub(crate) mod reads;
pub(crate) mod resource_costs;
mod resources;
mod rollups;
pub(crate) mod series_costs;
pub(crate) mod staging;

pub use daily_rollup::DailyRollup;
pub use load::{LoadSettings, Stager, DEFAULT_LOAD_MEMORY_LIMIT};
pub use reads::ReadLimits;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use chrono::NaiveDate;
use costscope_core::cost::{
    AggregateQuery, CostFilter, CurrencyCode, ExchangeRate, Metric, TimeRange,
};
use duckdb::Connection;

use crate::query_builder::{COST_TABLE, DAILY_TABLE, ROLLUP_STATS_TABLE, TAGS_TABLE};
use crate::{
    Aggregate, CostEngine, CurrencyAmount, CustomerId, EngineError, FilterOptions, LoadError,
    LoadRequest, LoadSummary, RatesPage, RatesSummary, ResourcesPage, ResourcesQuery, SeenAccount,
    SpendBreakdown,
};

/// Idle read connections kept for reuse; more are cloned on demand under load.
const MAX_IDLE_CONNECTIONS: usize = 8;

/// The cost engine on an embedded DuckDB database. Cheap to clone (shared state).
#[derive(Clone)]
pub struct DuckDbEngine {
    inner: Arc<Inner>,
}

struct Inner {
    /// `None` for an in-memory database.
    path: Option<PathBuf>,
    /// The connection every other one is cloned from.
    base: Mutex<Connection>,
    idle: Mutex<Vec<Connection>>,
    /// Loads are serialised on this connection (its temp tables hold the staged files).
    writer: Mutex<Connection>,
    /// Read slots and time limit.
    gate: reads::ReadGate,
    /// Which tenants' loads keep the daily rollup with usage types.
    daily_rollup: Mutex<DailyRollup>,
}

impl std::fmt::Debug for DuckDbEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DuckDbEngine")
            .field("path", &self.inner.path)
            .finish_non_exhaustive()
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

pub(crate) fn database_error(error: duckdb::Error) -> EngineError {
    EngineError::Database(error.to_string())
}

impl DuckDbEngine {
    /// Opens (creating it when missing) the cost database file and its schema.
    pub fn open(path: &Path) -> Result<Self, EngineError> {
        if let Some(parent) = path
            .parent()
            .filter(|parent| !parent.as_os_str().is_empty())
        {
            std::fs::create_dir_all(parent).map_err(|error| {
                EngineError::Database(format!("cannot create {}: {error}", parent.display()))
            })?;
        }
        let connection = Connection::open(path).map_err(|error| open_error(path, error))?;
        Self::from_connection(connection, Some(path.to_path_buf()))
    }

    /// A private in-memory database (tests, demos).
    pub fn open_in_memory() -> Result<Self, EngineError> {
        let connection = Connection::open_in_memory().map_err(database_error)?;
        Self::from_connection(connection, None)
    }

    fn from_connection(connection: Connection, path: Option<PathBuf>) -> Result<Self, EngineError> {
        prepare_schema(&connection)?;
        let writer = connection.try_clone().map_err(database_error)?;
        Ok(Self {
            inner: Arc::new(Inner {
                path,
                base: Mutex::new(connection),
                idle: Mutex::new(Vec::new()),
                writer: Mutex::new(writer),
                gate: reads::ReadGate::default(),
                daily_rollup: Mutex::new(DailyRollup::default()),
            }),
        })
    }

    /// Applies DuckDB's memory limit and spill directory (global to the database).
    pub fn configure(&self, settings: &LoadSettings) -> Result<(), EngineError> {
        load::apply_settings(&lock(&self.inner.base), settings)
    }

    /// Sets DuckDB's worker threads (for the whole database) and bounds the engine's calls:
    /// at most `concurrent` at once, each cancelled past `timeout`.
    pub fn configure_reads(&self, limits: &ReadLimits) -> Result<(), EngineError> {
        lock(&self.inner.base)
            .execute_batch(&format!("SET threads = {};", limits.threads.max(1)))
            .map_err(|error| EngineError::Database(format!("DuckDB settings: {error}")))?;
        self.inner.gate.set(limits);
        Ok(())
    }

    /// Which tenants the next loads keep the daily rollup with usage types for.
    pub fn keep_daily_rollup(&self, policy: DailyRollup) {
        *lock(&self.inner.daily_rollup) = policy;
    }

    /// The database file, `None` in memory.
    pub fn path(&self) -> Option<&Path> {
        self.inner.path.as_deref()
    }

    /// A new connection to the same database, for benchmarks and maintenance. It bypasses the
    /// tenancy the engine's calls enforce: never answer a request with it.
    pub fn connection(&self) -> Result<Connection, EngineError> {
        lock(&self.inner.base).try_clone().map_err(database_error)
    }

    /// Loads an upload like [`CostEngine::load`], with `stage` creating each file's staged table
    /// instead of `costscope_ingest::stage` (synthetic data staged with SQL, tests).
    pub async fn load_with(
        &self,
        customer: CustomerId,
        request: LoadRequest,
        mut stage: Box<Stager<'static>>,
    ) -> Result<LoadSummary, LoadError> {
        let inner = Arc::clone(&self.inner);
        tokio::task::spawn_blocking(move || {
            let writer = lock(&inner.writer);
            let daily = *lock(&inner.daily_rollup);
            load::load(&writer, customer, &request, &mut *stage, daily)
        })
        .await
        .map_err(|error| LoadError::Engine(format!("load task failed: {error}")))?
    }

    /// Runs `work` with a pooled read connection on a blocking thread, once a read slot is
    /// free; past the time limit its query is interrupted and the call answers
    /// [`EngineError::TimedOut`] (or [`EngineError::Busy`] when no slot freed up in time).
    async fn read<T, F>(&self, work: F) -> Result<T, EngineError>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> Result<T, EngineError> + Send + 'static,
    {
        let entry = self.inner.gate.enter().await?;
        let timeout = entry.timeout();
        let connection = self.inner.take_connection()?;
        let interrupt = connection.interrupt_handle();
        let ((connection, result), interrupted) = entry
            .run(interrupt, move || {
                let result = work(&connection);
                (connection, result)
            })
            .await?;
        if interrupted {
            // An interrupted connection is dropped, never pooled (a late interrupt would fail
            // the next call on it). A call that finished anyway keeps its answer.
            drop(connection);
            return result.map_err(|_| reads::timed_out(timeout));
        }
        self.inner.give_back(connection);
        result
    }
}

impl Inner {
    fn take_connection(&self) -> Result<Connection, EngineError> {
        let pooled = lock(&self.idle).pop();
        match pooled {
            Some(connection) => Ok(connection),
            None => lock(&self.base).try_clone().map_err(database_error),
        }
    }

    fn give_back(&self, connection: Connection) {
        let mut idle = lock(&self.idle);
        if idle.len() < MAX_IDLE_CONNECTIONS {
            idle.push(connection);
        }
    }
}

/// The version of the engine's schema this build writes (the `costscope_engine_schema` table).
/// Bump it with a migration in [`schema_sql`] when the tables change.
/// Version 2: a tenant may not keep `cost_daily` (its stats' `daily_rows` is then NULL, see
/// [`daily_rollup`]), which a version-1 build would read as an empty rollup.
pub(crate) const SCHEMA_VERSION: i32 = 2;

/// The engine's schema, version [`SCHEMA_VERSION`]:
/// `cost_line_items (customer_id, load_id, charge_date, NORMALISED_COLUMNS…)` where `charge_date`
/// is the UTC date of `charge_period_start` (computed at load; buckets and range pruning read
/// it), its rollups (`cost_daily`, `cost_daily_core`, `cost_monthly`, `cost_values_daily`,
/// `cost_tags_daily`, see [`crate::query_builder::Source`])
/// and the one-row schema version table.
fn schema_sql() -> String {
    let mut sql = cost_table_sql();
    // Columns added since the table was first written (the nullable FOCUS details): a database
    // from an earlier build gets them, NULL in its existing rows. Additive, so the schema
    // version stays: an earlier build still reads and writes the table by column name.
    for (name, kind) in costscope_core::normalised::NORMALISED_COLUMNS {
        if !kind.ends_with(" NOT NULL") {
            sql.push_str(&format!(
                "ALTER TABLE {COST_TABLE} ADD COLUMN IF NOT EXISTS {name} {kind};"
            ));
        }
    }
    sql.push_str(&format!(
        "CREATE TABLE IF NOT EXISTS {DAILY_TABLE} (customer_id BIGINT NOT NULL, \
         charge_date DATE NOT NULL, provider VARCHAR NOT NULL, billing_account_id VARCHAR NOT NULL, \
         billing_period_start DATE NOT NULL, account_id VARCHAR NOT NULL, \
         account_name VARCHAR NOT NULL, service VARCHAR NOT NULL, region VARCHAR NOT NULL, \
         usage_type VARCHAR NOT NULL, cost_type VARCHAR NOT NULL, currency VARCHAR NOT NULL, \
         earliest_start TIMESTAMP NOT NULL, latest_start TIMESTAMP NOT NULL, \
         billed_cost DECIMAL(38,9) NOT NULL, effective_cost DECIMAL(38,9) NOT NULL, \
         list_cost DECIMAL(38,9) NOT NULL, line_items BIGINT NOT NULL); \
         CREATE TABLE IF NOT EXISTS {TAGS_TABLE} (customer_id BIGINT NOT NULL, \
         charge_date DATE NOT NULL, provider VARCHAR NOT NULL, billing_account_id VARCHAR NOT NULL, \
         billing_period_start DATE NOT NULL, key VARCHAR NOT NULL, value VARCHAR NOT NULL, \
         earliest_start TIMESTAMP NOT NULL, latest_start TIMESTAMP NOT NULL); \
         CREATE TABLE IF NOT EXISTS {ROLLUP_STATS_TABLE} (customer_id BIGINT NOT NULL, \
         line_items BIGINT NOT NULL, daily_rows BIGINT, currencies BIGINT); \
         ALTER TABLE {ROLLUP_STATS_TABLE} ADD COLUMN IF NOT EXISTS currencies BIGINT;"
    ));
    sql.push_str(&rollups::schema_sql());
    sql.push_str(&daily_rollup::schema_sql());
    sql.push_str(&crate::query_builder::rates_schema());
    sql.push_str(&format!(
        "CREATE TABLE IF NOT EXISTS {SCHEMA_TABLE} (version INTEGER NOT NULL); \
         INSERT INTO {SCHEMA_TABLE} SELECT {SCHEMA_VERSION} WHERE NOT EXISTS (SELECT 1 FROM {SCHEMA_TABLE}); \
         UPDATE {SCHEMA_TABLE} SET version = {SCHEMA_VERSION} WHERE version < {SCHEMA_VERSION};"
    ));
    sql
}

/// `CREATE TABLE IF NOT EXISTS` of the cost table (`cost_line_items (customer_id, load_id,
/// charge_date, NORMALISED_COLUMNS…)`), also the table the ClickHouse engine's FOCUS export
/// writes its rows into to have DuckDB write the file.
pub(crate) fn cost_table_sql() -> String {
    let mut sql = format!(
        "CREATE TABLE IF NOT EXISTS {COST_TABLE} (customer_id BIGINT NOT NULL, load_id VARCHAR NOT NULL, \
         charge_date DATE NOT NULL"
    );
    for (name, kind) in costscope_core::normalised::NORMALISED_COLUMNS {
        sql.push_str(", ");
        sql.push_str(name);
        sql.push(' ');
        sql.push_str(kind);
    }
    sql.push_str(");");
    sql
}

/// The table holding the schema version (one row).
pub(crate) const SCHEMA_TABLE: &str = "costscope_engine_schema";

/// Creates the schema when missing and refuses a database written by a newer Costscope.
fn prepare_schema(connection: &Connection) -> Result<(), EngineError> {
    connection
        .execute_batch(&schema_sql())
        .map_err(database_error)?;
    let version: i32 = connection
        .query_row(
            &format!("SELECT max(version) FROM {SCHEMA_TABLE}"),
            [],
            |row| row.get(0),
        )
        .map_err(database_error)?;
    if version > SCHEMA_VERSION {
        return Err(EngineError::Database(format!(
            "the cost database has schema version {version}; this Costscope reads up to version \
             {SCHEMA_VERSION}"
        )));
    }
    rollups::backfill(connection)
}

/// DuckDB refuses a file another process holds with "Could not set lock on file "…":
/// Conflicting lock is held in /path/to/costscope (PID 1234) by user …".
fn open_error(path: &Path, error: duckdb::Error) -> EngineError {
    let message = error.to_string();
    if message.contains("Could not set lock on file") || message.contains("Conflicting lock") {
        let pid = message
            .split("(PID ")
            .nth(1)
            .and_then(|rest| rest.split(')').next())
            .map(str::trim)
            .filter(|pid| !pid.is_empty())
            .unwrap_or("unknown");
        return EngineError::Locked(format!(
            "The cost database {} is in use by another Costscope process (pid {pid}).",
            path.display()
        ));
    }
    EngineError::Database(format!("cannot open {}: {message}", path.display()))
}

#[async_trait::async_trait]
impl CostEngine for DuckDbEngine {
    async fn aggregate_in(
        &self,
        customer: CustomerId,
        query: &AggregateQuery,
        display: Option<&CurrencyCode>,
    ) -> Result<Aggregate, EngineError> {
        let query = query.clone();
        let display = display.cloned();
        self.read(move |connection| read::aggregate(connection, customer, &query, display.as_ref()))
            .await
    }

    async fn filter_options(
        &self,
        customer: CustomerId,
        range: Option<TimeRange>,
        filter: &CostFilter,
    ) -> Result<FilterOptions, EngineError> {
        let filter = filter.clone();
        self.read(move |connection| {
            read::filter_options(connection, customer, range.as_ref(), &filter)
        })
        .await
    }

    async fn service_spend(
        &self,
        customer: CustomerId,
        range: TimeRange,
        filter: &CostFilter,
        metric: Metric,
    ) -> Result<Vec<crate::ServiceSpend>, EngineError> {
        let filter = filter.clone();
        self.read(move |connection| {
            read::service_spend(connection, customer, &range, &filter, metric)
        })
        .await
    }

    async fn spend_in(
        &self,
        customer: CustomerId,
        range: TimeRange,
        filter: &CostFilter,
        metric: Metric,
        display: Option<&CurrencyCode>,
    ) -> Result<SpendBreakdown, EngineError> {
        let filter = filter.clone();
        let display = display.cloned();
        self.read(move |connection| {
            read::spend(
                connection,
                customer,
                &range,
                &filter,
                metric,
                display.as_ref(),
            )
        })
        .await
    }

    async fn accounts(&self, customer: CustomerId) -> Result<Vec<SeenAccount>, EngineError> {
        self.read(move |connection| read::accounts(connection, customer))
            .await
    }

    async fn resources_in(
        &self,
        customer: CustomerId,
        query: &ResourcesQuery,
        display: Option<&CurrencyCode>,
    ) -> Result<ResourcesPage, EngineError> {
        let query = query.clone();
        let display = display.cloned();
        self.read(move |connection| {
            resources::resources(connection, customer, &query, display.as_ref())
        })
        .await
    }

    async fn resource_costs(
        &self,
        customer: CustomerId,
        range: TimeRange,
        ids: &[String],
    ) -> Result<crate::ResourceCosts, EngineError> {
        let ids = ids.to_vec();
        self.read(move |connection| {
            resource_costs::resource_costs(connection, customer, &range, &ids)
        })
        .await
    }

    async fn unmatched_resource_spend(
        &self,
        customer: CustomerId,
        range: TimeRange,
        known_ids: &[String],
        limit: u32,
    ) -> Result<crate::UnmatchedSpend, EngineError> {
        let known_ids = known_ids.to_vec();
        self.read(move |connection| {
            resource_costs::unmatched_resource_spend(
                connection, customer, &range, &known_ids, limit,
            )
        })
        .await
    }

    async fn series_costs(
        &self,
        customer: CustomerId,
        query: &crate::SeriesCostsQuery,
    ) -> Result<Vec<crate::SeriesCost>, EngineError> {
        let query = query.clone();
        self.read(move |connection| series_costs::series_costs(connection, customer, &query))
            .await
    }

    async fn data_currencies(
        &self,
        customer: CustomerId,
    ) -> Result<Vec<CurrencyAmount>, EngineError> {
        self.read(move |connection| currency::data_currencies(connection, customer))
            .await
    }

    async fn replace_rates(
        &self,
        customer: CustomerId,
        rates: Vec<ExchangeRate>,
    ) -> Result<RatesSummary, EngineError> {
        self.read(move |connection| currency::replace_rates(connection, customer, &rates))
            .await
    }

    async fn rates_summary(&self, customer: CustomerId) -> Result<RatesSummary, EngineError> {
        self.read(move |connection| currency::rates_summary(connection, customer))
            .await
    }

    async fn list_rates(
        &self,
        customer: CustomerId,
        limit: u64,
        offset: u64,
    ) -> Result<RatesPage, EngineError> {
        self.read(move |connection| currency::list_rates(connection, customer, limit, offset))
            .await
    }

    async fn clear_rates(&self, customer: CustomerId) -> Result<(), EngineError> {
        self.read(move |connection| currency::clear_rates(connection, customer))
            .await
    }

    async fn load(
        &self,
        customer: CustomerId,
        request: LoadRequest,
    ) -> Result<LoadSummary, LoadError> {
        let inner = Arc::clone(&self.inner);
        tokio::task::spawn_blocking(move || {
            let daily = *lock(&inner.daily_rollup);
            let writer = lock(&inner.writer);
            load::load_uploaded(&writer, customer, &request, daily)
        })
        .await
        .map_err(|error| LoadError::Engine(format!("load task failed: {error}")))?
    }

    async fn committed_load(
        &self,
        load_id: &str,
    ) -> Result<Option<(CustomerId, LoadSummary)>, EngineError> {
        let (engine, load_id) = (self.clone(), load_id.to_owned());
        tokio::task::spawn_blocking(move || engine.committed_load(&load_id))
            .await
            .map_err(|error| EngineError::Database(format!("marker read failed: {error}")))?
    }

    async fn latest_charge_date(
        &self,
        customer: CustomerId,
    ) -> Result<Option<NaiveDate>, EngineError> {
        self.read(move |connection| read::latest_charge_date(connection, customer))
            .await
    }

    async fn export_focus(
        &self,
        customer: CustomerId,
        request: &costscope_core::focus::FocusExportRequest,
        target: &std::path::Path,
    ) -> Result<crate::ExportSummary, EngineError> {
        let (request, target) = (*request, target.to_path_buf());
        self.read(move |connection| export::export_focus(connection, customer, &request, &target))
            .await
    }
}
