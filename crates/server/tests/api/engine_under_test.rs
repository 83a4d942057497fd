//! The cost engine the API tests run on: DuckDB (`costs.duckdb` in each app's data directory,
//! the default) or, with `COSTSCOPE_TEST_COST_ENGINE=clickhouse`, a fresh ClickHouse database on
//! every shard of the test servers (`COSTSCOPE_TEST_CLICKHOUSE_URL`, else the two local shards)
//! per data directory. The database lives as long as its data directory, as `costs.duckdb`
//! would: an app restarted on the same directory, or a `costscope` command run on it, finds
//! the same cost data; once the directory is gone the database is dropped.
//!
//! A test of DuckDB-only behaviour (the file lock, the copy of `costs.duckdb` in a backup, the
//! DuckDB load's crash marker) names its engine: it sets `config.cost_engine` to
//! `CostEngineSetting::DuckDb` whatever the variable says.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, Once, OnceLock, PoisonError};
use std::time::Duration;

use costscope_clickhouse::testing::{drop_abandoned, TestDatabase};
use costscope_server::cost_engine::CostEngineSetting;
use secrecy::{ExposeSecret, SecretString};

/// The variable choosing the engine: unset, `duckdb` or `clickhouse`.
pub const ENGINE_VAR: &str = "COSTSCOPE_TEST_COST_ENGINE";
/// The prefix of the tests' ClickHouse databases.
const DATABASE_PREFIX: &str = "costscope_api";
/// How often the databases of removed data directories are looked for.
const SWEEP_EVERY: Duration = Duration::from_secs(2);

/// Whether the tests run on ClickHouse (`COSTSCOPE_TEST_COST_ENGINE=clickhouse`); any value
/// but `duckdb` and `clickhouse` stops the test.
pub fn on_clickhouse() -> bool {
    match std::env::var(ENGINE_VAR).unwrap_or_default().as_str() {
        "" | "duckdb" => false,
        "clickhouse" => true,
        other => panic!("{ENGINE_VAR}={other}: expected `duckdb` or `clickhouse`"),
    }
}

/// The cost engine of apps and commands on `data_dir`: DuckDB, or the ClickHouse database of
/// that directory (made on first use).
pub fn setting_for(data_dir: &Path) -> CostEngineSetting {
    if on_clickhouse() {
        CostEngineSetting::ClickHouse(SecretString::from(database_of(data_dir).url()))
    } else {
        CostEngineSetting::DuckDb
    }
}

/// `--cost-engine URL` for a `costscope` command on `data_dir` on ClickHouse; nothing on DuckDB
/// (the default).
pub fn command_args(data_dir: &Path) -> Vec<String> {
    match setting_for(data_dir) {
        CostEngineSetting::DuckDb => Vec::new(),
        CostEngineSetting::ClickHouse(url) => {
            vec!["--cost-engine".to_owned(), url.expose_secret().to_owned()]
        }
    }
}

fn databases() -> &'static Mutex<HashMap<PathBuf, TestDatabase>> {
    static DATABASES: OnceLock<Mutex<HashMap<PathBuf, TestDatabase>>> = OnceLock::new();
    DATABASES.get_or_init(Mutex::default)
}

/// The ClickHouse database of `data_dir`, made (on every shard) on first use.
fn database_of(data_dir: &Path) -> TestDatabase {
    static SWEEPER: Once = Once::new();
    SWEEPER.call_once(|| {
        // What killed runs left behind, then the databases of removed directories.
        on_own_runtime(|| drop_abandoned(DATABASE_PREFIX));
        std::thread::spawn(sweep_removed_directories);
    });
    let mut databases = databases().lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(database) = databases.get(data_dir) {
        return database.clone();
    }
    let database = on_own_runtime(|| TestDatabase::create(DATABASE_PREFIX));
    databases.insert(data_dir.to_owned(), database.clone());
    database
}

/// Drops the database of each data directory that no longer exists (its test ended), every
/// [`SWEEP_EVERY`], for as long as the test process runs.
fn sweep_removed_directories() {
    loop {
        std::thread::sleep(SWEEP_EVERY);
        let removed: Vec<TestDatabase> = {
            let mut databases = databases().lock().unwrap_or_else(PoisonError::into_inner);
            let gone: Vec<PathBuf> = databases
                .keys()
                .filter(|dir| !dir.exists())
                .cloned()
                .collect();
            gone.iter()
                .filter_map(|dir| databases.remove(dir))
                .collect()
        };
        for database in removed {
            on_own_runtime(|| async move { database.drop_database().await });
        }
    }
}

/// Runs `work` to its end on a runtime of its own, on a thread of its own: callable from a
/// test's runtime (which must not be blocked from inside) and from plain threads.
fn on_own_runtime<F, Fut, T>(work: F) -> T
where
    F: FnOnce() -> Fut + Send + 'static,
    Fut: std::future::Future<Output = T>,
    T: Send + 'static,
{
    std::thread::spawn(move || {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime")
            .block_on(work())
    })
    .join()
    .expect("the ClickHouse test database call")
}
