use sqlx::postgres::{PgPool, PgPoolOptions};

use crate::StoreError;

/// Metadata in PostgreSQL, shared by several `serve` replicas.
#[derive(Debug, Clone)]
pub struct PgStore {
    pool: PgPool,
}

impl PgStore {
    pub async fn connect(url: &str) -> Result<Self, StoreError> {
        let pool = PgPoolOptions::new()
            .max_connections(16)
            .connect(url)
            .await?;
        Ok(Self { pool })
    }

    /// A transaction that writes (PostgreSQL's row locks need no more than a plain `BEGIN`).
    pub(crate) async fn begin_write(
        &self,
    ) -> Result<sqlx::Transaction<'static, sqlx::Postgres>, sqlx::Error> {
        self.pool.begin().await
    }
}

crate::sql_store::impl_metadata_store!(
    PgStore,
    sqlx::migrate!("migrations/postgres"),
    " FOR UPDATE SKIP LOCKED"
);
crate::inventory::sql::impl_inventory_store!(
    PgStore,
    sqlx::Postgres,
    crate::inventory::query::Dialect::Postgres,
    " FOR UPDATE SKIP LOCKED"
);
crate::channels::impl_channel_store!(PgStore);
crate::teams::impl_teams_store!(PgStore);
crate::anomalies::impl_anomaly_store!(PgStore);
crate::digests::impl_digest_store!(PgStore);
crate::leases::impl_lease_store!(PgStore);
crate::rate_limits::impl_rate_limit_store!(PgStore);
