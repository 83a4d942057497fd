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

    /// A transaction that writes. `BEGIN IMMEDIATE` takes SQLite's write lock at once, waiting for
    /// it under the busy timeout: a deferred transaction that reads first fails with "database is
    /// locked" at its first write when another connection committed in between (SQLite cannot
    /// upgrade a stale read snapshot, and its busy handler does not retry that case).
    pub(crate) async fn begin_write(
        &self,
    ) -> Result<sqlx::Transaction<'static, sqlx::Sqlite>, sqlx::Error> {
        self.pool.begin_with("BEGIN IMMEDIATE").await
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
crate::leases::impl_lease_store!(SqliteStore);
crate::rate_limits::impl_rate_limit_store!(SqliteStore);

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::SqliteStore;

    async fn store_with_table(dir: &tempfile::TempDir) -> SqliteStore {
        let url = format!("sqlite://{}", dir.path().join("locks.db").display());
        let store = SqliteStore::connect(&url).await.unwrap();
        sqlx::query("CREATE TABLE numbers (n INTEGER NOT NULL)")
            .execute(&store.pool)
            .await
            .unwrap();
        store
    }

    async fn count(store: &SqliteStore) -> i64 {
        sqlx::query_scalar("SELECT COUNT(*) FROM numbers")
            .fetch_one(&store.pool)
            .await
            .unwrap()
    }

    /// What the store's write transactions do: read, let another connection try to write, then
    /// write. The other writer waits for the lock, and both writes land.
    #[tokio::test]
    async fn a_write_transaction_that_reads_first_makes_a_concurrent_writer_wait() {
        let dir = tempfile::tempdir().unwrap();
        let store = store_with_table(&dir).await;
        let mut tx = store.begin_write().await.unwrap();
        let _: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM numbers")
            .fetch_one(&mut *tx)
            .await
            .unwrap();
        let pool = store.pool.clone();
        let other = tokio::spawn(async move {
            sqlx::query("INSERT INTO numbers (n) VALUES (2)")
                .execute(&pool)
                .await
        });
        tokio::time::sleep(Duration::from_millis(200)).await;
        assert!(
            !other.is_finished(),
            "the other writer did not wait for the lock"
        );
        sqlx::query("INSERT INTO numbers (n) VALUES (1)")
            .execute(&mut *tx)
            .await
            .unwrap();
        tx.commit().await.unwrap();
        other.await.unwrap().unwrap();
        assert_eq!(count(&store).await, 2);
    }

    /// Why: the same sequence in a deferred transaction (sqlx's plain `begin`) fails at its first
    /// write with "database is locked" once the other connection has committed — the error the
    /// anomaly scan met in the e2e run while an upload was being loaded.
    #[tokio::test]
    async fn a_deferred_transaction_that_read_first_cannot_write_after_another_commit() {
        let dir = tempfile::tempdir().unwrap();
        let store = store_with_table(&dir).await;
        let mut tx = store.pool.begin().await.unwrap();
        let _: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM numbers")
            .fetch_one(&mut *tx)
            .await
            .unwrap();
        sqlx::query("INSERT INTO numbers (n) VALUES (2)")
            .execute(&store.pool)
            .await
            .unwrap();
        let error = sqlx::query("INSERT INTO numbers (n) VALUES (1)")
            .execute(&mut *tx)
            .await
            .unwrap_err();
        assert!(
            error.to_string().contains("database is locked"),
            "unexpected error: {error}"
        );
        tx.rollback().await.unwrap();
        assert_eq!(count(&store).await, 1);
    }
}
