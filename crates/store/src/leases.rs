//! Job leases (issue 18, DESIGN §6): with several `serve` replicas on one database, a named job
//! runs on the one replica holding its lease (`job_leases`). A holder is one server process
//! (a random id made at its start). The holder renews its lease well before it expires; a
//! holder that stops renewing (killed, cut off) loses it once its expiry has passed, and the
//! next replica to ask takes it.
//!
//! Times are the callers' clocks: replicas' clocks must agree to well within a lease's time.

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use crate::StoreError;

/// A lease as it stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lease {
    pub name: String,
    pub holder: String,
    pub expires_at: DateTime<Utc>,
    /// How many rounds other replicas have asked the holder for so far
    /// ([`LeaseStore::wake_lease_holder`]); the holder runs one when it sees the count change.
    pub wakes: i64,
}

/// Named leases, reached through [`crate::MetadataStore::leases`].
#[async_trait]
pub trait LeaseStore: Send + Sync {
    /// Takes the lease `name` for `holder` until `until`, or renews it when `holder` already
    /// has it, atomically: of several holders asking at once exactly one gets it. `None` (and
    /// nothing changed) while another holder's lease runs, i.e. until `now` is past its expiry.
    async fn acquire_lease(
        &self,
        name: &str,
        holder: &str,
        now: DateTime<Utc>,
        until: DateTime<Utc>,
    ) -> Result<Option<Lease>, StoreError>;
    /// Gives the lease up when `holder` has it (it is free at once); `false` otherwise.
    async fn release_lease(&self, name: &str, holder: &str) -> Result<bool, StoreError>;
    /// Asks whoever holds `name` (or takes it next) for a round: counts one more wake.
    async fn wake_lease_holder(&self, name: &str) -> Result<(), StoreError>;
    /// The lease as it stands; `None` when nobody ever took or woke it.
    async fn lease(&self, name: &str) -> Result<Option<Lease>, StoreError>;
}

/// Columns of `job_leases` in the order [`LeaseRow`] reads them.
pub(crate) const LEASE_COLUMNS: &str = "name, holder, expires_at, wakes";

#[derive(sqlx::FromRow)]
pub(crate) struct LeaseRow {
    name: String,
    holder: String,
    expires_at: DateTime<Utc>,
    wakes: i64,
}

impl From<LeaseRow> for Lease {
    fn from(row: LeaseRow) -> Self {
        Self {
            name: row.name,
            holder: row.holder,
            expires_at: row.expires_at,
            wakes: row.wakes,
        }
    }
}

macro_rules! impl_lease_store {
    ($store:ty) => {
        #[async_trait::async_trait]
        impl crate::leases::LeaseStore for $store {
            #[tracing::instrument(skip_all, fields(name, holder))]
            async fn acquire_lease(
                &self,
                name: &str,
                holder: &str,
                now: chrono::DateTime<chrono::Utc>,
                until: chrono::DateTime<chrono::Utc>,
            ) -> Result<Option<crate::leases::Lease>, crate::StoreError> {
                use crate::leases::{LeaseRow, LEASE_COLUMNS};
                // One statement: the insert of a new lease and the update of an existing one
                // are atomic on both backends (PostgreSQL locks the conflicting row and checks
                // the WHERE against its latest version; SQLite has one writer). When the WHERE
                // refuses, nothing is written and nothing returned.
                let row: Option<LeaseRow> = sqlx::query_as(&format!(
                    "INSERT INTO job_leases (name, holder, expires_at) VALUES ($1, $2, $3) \
                     ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, \
                         expires_at = excluded.expires_at \
                     WHERE job_leases.holder = excluded.holder OR job_leases.expires_at < $4 \
                     RETURNING {LEASE_COLUMNS}"
                ))
                .bind(name)
                .bind(holder)
                .bind(until)
                .bind(now)
                .fetch_optional(&self.pool)
                .await?;
                Ok(row.map(Into::into))
            }

            #[tracing::instrument(skip_all, fields(name, holder))]
            async fn release_lease(
                &self,
                name: &str,
                holder: &str,
            ) -> Result<bool, crate::StoreError> {
                // Expired at once (the row and its wake count stay).
                let released = sqlx::query(
                    "UPDATE job_leases SET expires_at = $1 WHERE name = $2 AND holder = $3",
                )
                .bind(chrono::DateTime::<chrono::Utc>::UNIX_EPOCH)
                .bind(name)
                .bind(holder)
                .execute(&self.pool)
                .await?;
                Ok(released.rows_affected() > 0)
            }

            #[tracing::instrument(skip_all, fields(name))]
            async fn wake_lease_holder(&self, name: &str) -> Result<(), crate::StoreError> {
                // A lease nobody took yet is created expired, holding the wake for its first
                // holder.
                sqlx::query(
                    "INSERT INTO job_leases (name, holder, expires_at, wakes) VALUES ($1, '', $2, 1) \
                     ON CONFLICT (name) DO UPDATE SET wakes = job_leases.wakes + 1",
                )
                .bind(name)
                .bind(chrono::DateTime::<chrono::Utc>::UNIX_EPOCH)
                .execute(&self.pool)
                .await?;
                Ok(())
            }

            #[tracing::instrument(skip_all, fields(name))]
            async fn lease(
                &self,
                name: &str,
            ) -> Result<Option<crate::leases::Lease>, crate::StoreError> {
                use crate::leases::{LeaseRow, LEASE_COLUMNS};
                let row: Option<LeaseRow> = sqlx::query_as(&format!(
                    "SELECT {LEASE_COLUMNS} FROM job_leases WHERE name = $1"
                ))
                .bind(name)
                .fetch_optional(&self.pool)
                .await?;
                Ok(row.map(Into::into))
            }
        }
    };
}

pub(crate) use impl_lease_store;
