//! Throwaway ClickHouse databases for tests, one per test and made on every shard, so that tests
//! run in parallel against the same servers: the two local shards of cluster `costscope` that
//! `make ensure-clickhouse` starts, or the server(s) at [`URL_VAR`]. Nothing is skipped: with no
//! server answering, [`TestDatabase::create`] panics and says how to start one.

use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use crate::{literal, Client};

/// The variable naming the test server(s), else [`DEFAULT_URL`].
pub const URL_VAR: &str = "COSTSCOPE_TEST_CLICKHOUSE_URL";

/// The two local shards of `make ensure-clickhouse`.
pub const DEFAULT_URL: &str =
    "clickhouse://default@127.0.0.1:8123/test?cluster=costscope&shards=127.0.0.1:8123,127.0.0.1:8124";

/// The test servers' URL: [`URL_VAR`] when set, else [`DEFAULT_URL`].
pub fn server_url() -> String {
    std::env::var(URL_VAR)
        .ok()
        .filter(|url| !url.is_empty())
        .unwrap_or_else(|| DEFAULT_URL.to_owned())
}

/// The test servers' URL with `database` in place of its own (user, password, host, cluster and
/// shards kept).
pub fn url_with_database(database: &str) -> String {
    replace_database(&server_url(), database)
}

fn replace_database(url: &str, database: &str) -> String {
    let (scheme, rest) = url.split_once("://").unwrap_or(("clickhouse", url));
    let (authority, tail) = rest.split_at(rest.find(['/', '?']).unwrap_or(rest.len()));
    let query = tail.find('?').map_or("", |at| &tail[at..]);
    format!("{scheme}://{authority}/{database}{query}")
}

/// A freshly created, uniquely named database on every shard of the test servers. Call
/// [`TestDatabase::drop_database`] when done.
#[derive(Debug, Clone)]
pub struct TestDatabase {
    name: String,
    shards: Vec<Client>,
}

impl TestDatabase {
    /// Creates `<prefix>_<process>_<n>_<microseconds>` on every shard; panics, saying what to
    /// run, when no server answers.
    pub async fn create(prefix: &str) -> Self {
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let micros = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |elapsed| elapsed.as_micros());
        let name = format!(
            "{prefix}_{}_{}_{micros}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed),
        );
        let shards = shards().await;
        for shard in &shards {
            shard
                .execute(&format!("CREATE DATABASE {}", literal::identifier(&name)))
                .await
                .unwrap_or_else(|e| panic!("creating the test database {name}: {e}"));
        }
        Self { name, shards }
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// The URL of the new database (the test servers' cluster and shards kept).
    pub fn url(&self) -> String {
        url_with_database(&self.name)
    }

    /// Drops the database on every shard; a failure is printed, not raised (a test's end).
    pub async fn drop_database(&self) {
        let sql = format!(
            "DROP DATABASE IF EXISTS {}",
            literal::identifier(&self.name)
        );
        for shard in &self.shards {
            if let Err(e) = shard.execute(&sql).await {
                eprintln!("could not drop the test database {}: {e}", self.name);
            }
        }
    }
}

/// Drops the databases `<prefix>_<process>_…` that [`TestDatabase::create`] made for processes
/// no longer running (a test run killed before it could drop them). Linux only (it asks
/// `/proc`); elsewhere nothing is dropped.
pub async fn drop_abandoned(prefix: &str) {
    if !std::path::Path::new("/proc/self").exists() {
        return;
    }
    let pattern = format!("{prefix}\\_%");
    for shard in shards().await {
        let sql = format!(
            "SELECT name FROM system.databases WHERE name LIKE {}",
            literal::string(&pattern)
        );
        let Ok(rows) = shard.query_tsv(&sql).await else {
            continue;
        };
        for row in rows {
            let Ok(name) = row.text(0) else { continue };
            let Some(process) = name
                .strip_prefix(prefix)
                .and_then(|rest| rest.strip_prefix('_'))
                .and_then(|rest| rest.split('_').next())
            else {
                continue;
            };
            let running = std::path::Path::new("/proc").join(process).exists();
            if !running && process.bytes().all(|b| b.is_ascii_digit()) {
                let drop = format!("DROP DATABASE IF EXISTS {}", literal::identifier(name));
                if let Err(e) = shard.execute(&drop).await {
                    eprintln!("could not drop the abandoned test database {name}: {e}");
                }
            }
        }
    }
}

/// A client per shard of the test servers (the one server without a cluster).
async fn shards() -> Vec<Client> {
    let url = url_with_database("default");
    let entry = Client::from_url(&url).unwrap_or_else(|e| panic!("{URL_VAR}: {e}"));
    let answered = match entry.url().cluster() {
        Some(_) => entry.shards().await,
        None => entry.server_version().await.map(|_| vec![entry.clone()]),
    };
    answered.unwrap_or_else(|e| {
        panic!(
            "no ClickHouse answers at {}: {e}\nRun `make ensure-clickhouse` \
             (scripts/ensure-clickhouse.sh) to start the two local test shards, or set \
             {URL_VAR} to a server of yours.",
            entry.url()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::replace_database;

    #[test]
    fn the_database_is_replaced_and_the_rest_kept() {
        assert_eq!(
            replace_database(
                "clickhouse://u:p@h:8123/test?cluster=c&shards=h:1,h:2",
                "other"
            ),
            "clickhouse://u:p@h:8123/other?cluster=c&shards=h:1,h:2"
        );
        assert_eq!(
            replace_database("clickhouse://h:8123", "other"),
            "clickhouse://h:8123/other"
        );
        assert_eq!(
            replace_database("clickhouse://h?cluster=c", "other"),
            "clickhouse://h/other?cluster=c"
        );
    }
}
