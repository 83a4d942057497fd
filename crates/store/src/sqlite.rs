use std::str::FromStr;

use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions};

use crate::StoreError;

/// Metadata in one SQLite file (the embedded default).
#[derive(Debug, Clone)]
pub struct SqliteStore {
    pool: SqlitePool,
}

impl SqliteStore {
    pub async fn connect(url: &str) -> Result<Self, StoreError> {
        let options = SqliteConnectOptions::from_str(url)?
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .foreign_keys(true)
            .busy_timeout(std::time::Duration::from_secs(5));
        let pool = SqlitePoolOptions::new()
            .max_connections(8)
            .connect_with(options)
            .await?;
        Ok(Self { pool })
    }
}

crate::sql_store::impl_metadata_store!(SqliteStore, sqlx::migrate!("migrations/sqlite"), "");
crate::inventory::sql::impl_inventory_store!(
    SqliteStore,
    sqlx::Sqlite,
    crate::inventory::query::Dialect::Sqlite,
    ""
);
crate::channels::impl_channel_store!(SqliteStore);
crate::teams::impl_teams_store!(SqliteStore);
crate::anomalies::impl_anomaly_store!(SqliteStore);
crate::digests::impl_digest_store!(SqliteStore);
