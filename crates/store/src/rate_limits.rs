//! The auth routes' rate-limit counts (issue 18, "Replicas"): kept in the metadata store so that
//! every `serve` replica on one PostgreSQL database counts the same client alike.
//!
//! The rules (window maths, doubling delays) are `costscope_core::rate_limit`'s; this module
//! only keeps their state. Each hit reads and writes its key's row in one transaction that
//! holds the row's lock (PostgreSQL's upsert locks it; SQLite's `BEGIN IMMEDIATE` serialises
//! writers), so concurrent hits on two replicas count exactly. Keys arrive already hashed.
//! Times are stored as microseconds since the epoch, which both backends compare as integers.

use async_trait::async_trait;
use chrono::{DateTime, Duration, Utc};
use costscope_core::rate_limit::{FailureDelays, Failures, HashedKey, SlidingWindow};

use crate::StoreError;

/// Rate-limit state shared by the replicas.
#[async_trait]
pub trait RateLimitStore: Send + Sync {
    /// Counts a hit of `key` in the `scope` limit at `now` unless it reached `window`'s limit;
    /// then `Some(wait)` and nothing counted.
    async fn acquire(
        &self,
        scope: &str,
        key: &HashedKey,
        window: SlidingWindow,
        now: DateTime<Utc>,
    ) -> Result<Option<Duration>, StoreError>;
    /// The failed sign-ins of one (address, account) pair, as last recorded (the rules decide
    /// whether they still count).
    async fn sign_in_failures(&self, key: &HashedKey) -> Result<Option<Failures>, StoreError>;
    /// Counts one more failed sign-in of the pair at `now`; the pair's failures after it.
    async fn record_sign_in_failure(
        &self,
        key: &HashedKey,
        delays: FailureDelays,
        now: DateTime<Utc>,
    ) -> Result<Failures, StoreError>;
    /// Forgets the pair's failures (a successful sign-in).
    async fn clear_sign_in_failures(&self, key: &HashedKey) -> Result<(), StoreError>;
    /// Deletes the state that no longer counts at `now`; then, where a limit (a window scope,
    /// or the sign-in failures) still holds more than `max_keys` keys, the least recently seen.
    /// The number of keys deleted.
    async fn purge_rate_limits(&self, now: DateTime<Utc>, max_keys: u64)
        -> Result<u64, StoreError>;
}

pub(crate) fn micros(time: DateTime<Utc>) -> i64 {
    time.timestamp_micros()
}

pub(crate) fn from_micros(micros: i64) -> Result<DateTime<Utc>, StoreError> {
    DateTime::from_timestamp_micros(micros)
        .ok_or_else(|| StoreError::Corrupt(format!("rate-limit time {micros} is out of range")))
}

/// Event times as 8-byte big-endian microseconds, oldest first.
pub(crate) fn encode_hits(hits: &[DateTime<Utc>]) -> Vec<u8> {
    hits.iter()
        .flat_map(|hit| micros(*hit).to_be_bytes())
        .collect()
}

pub(crate) fn decode_hits(bytes: &[u8]) -> Result<Vec<DateTime<Utc>>, StoreError> {
    if !bytes.len().is_multiple_of(8) {
        return Err(StoreError::Corrupt(format!(
            "rate-limit hits of {} bytes",
            bytes.len()
        )));
    }
    bytes
        .chunks_exact(8)
        .map(|chunk| from_micros(i64::from_be_bytes(chunk.try_into().expect("8 bytes"))))
        .collect()
}

/// A stored pair's failures; a row just created to hold the lock has none.
pub(crate) fn failures_from_row((count, last): (i64, i64)) -> Result<Option<Failures>, StoreError> {
    if count <= 0 {
        return Ok(None);
    }
    Ok(Some(Failures {
        count: u32::try_from(count).unwrap_or(u32::MAX),
        last: from_micros(last)?,
    }))
}

macro_rules! impl_rate_limit_store {
    ($store:ty) => {
        #[async_trait::async_trait]
        impl crate::rate_limits::RateLimitStore for $store {
            #[tracing::instrument(skip_all, fields(scope))]
            async fn acquire(
                &self,
                scope: &str,
                key: &costscope_core::rate_limit::HashedKey,
                window: costscope_core::rate_limit::SlidingWindow,
                now: chrono::DateTime<chrono::Utc>,
            ) -> Result<Option<chrono::Duration>, crate::StoreError> {
                use crate::rate_limits::{decode_hits, encode_hits, micros};
                let mut tx = self.begin_write().await?;
                // Creates the key's row or locks the existing one until the commit.
                let (stored,): (Vec<u8>,) = sqlx::query_as(
                    "INSERT INTO rate_limit_windows \
                     (scope, key_hash, hits, last_seen_at, expires_at) \
                     VALUES ($1, $2, $3, $4, $4) \
                     ON CONFLICT (scope, key_hash) DO UPDATE SET last_seen_at = excluded.last_seen_at \
                     RETURNING hits",
                )
                .bind(scope)
                .bind(&key[..])
                .bind(Vec::<u8>::new())
                .bind(micros(now))
                .fetch_one(&mut *tx)
                .await?;
                let mut hits = decode_hits(&stored)?;
                let refused = window.try_acquire(&mut hits, now).err();
                let expires_at = hits.last().map_or(now, |last| window.expires_at(*last));
                sqlx::query(
                    "UPDATE rate_limit_windows SET hits = $3, expires_at = $4 \
                     WHERE scope = $1 AND key_hash = $2",
                )
                .bind(scope)
                .bind(&key[..])
                .bind(encode_hits(&hits))
                .bind(micros(expires_at))
                .execute(&mut *tx)
                .await?;
                tx.commit().await?;
                Ok(refused)
            }

            #[tracing::instrument(skip_all)]
            async fn sign_in_failures(
                &self,
                key: &costscope_core::rate_limit::HashedKey,
            ) -> Result<Option<costscope_core::rate_limit::Failures>, crate::StoreError> {
                let row: Option<(i64, i64)> = sqlx::query_as(
                    "SELECT failures, last_failure_at FROM sign_in_failures WHERE key_hash = $1",
                )
                .bind(&key[..])
                .fetch_optional(&self.pool)
                .await?;
                Ok(row
                    .map(crate::rate_limits::failures_from_row)
                    .transpose()?
                    .flatten())
            }

            #[tracing::instrument(skip_all)]
            async fn record_sign_in_failure(
                &self,
                key: &costscope_core::rate_limit::HashedKey,
                delays: costscope_core::rate_limit::FailureDelays,
                now: chrono::DateTime<chrono::Utc>,
            ) -> Result<costscope_core::rate_limit::Failures, crate::StoreError> {
                use crate::rate_limits::{failures_from_row, micros};
                let mut tx = self.begin_write().await?;
                // Creates the pair's row (with no failures) or locks the existing one.
                let row: (i64, i64) = sqlx::query_as(
                    "INSERT INTO sign_in_failures (key_hash, failures, last_failure_at, expires_at) \
                     VALUES ($1, 0, $2, $2) \
                     ON CONFLICT (key_hash) DO UPDATE SET failures = sign_in_failures.failures \
                     RETURNING failures, last_failure_at",
                )
                .bind(&key[..])
                .bind(micros(now))
                .fetch_one(&mut *tx)
                .await?;
                let failures = delays.after_failure(failures_from_row(row)?, now);
                sqlx::query(
                    "UPDATE sign_in_failures \
                     SET failures = $2, last_failure_at = $3, expires_at = $4 WHERE key_hash = $1",
                )
                .bind(&key[..])
                .bind(i64::from(failures.count))
                .bind(micros(failures.last))
                .bind(micros(delays.expires_at(&failures)))
                .execute(&mut *tx)
                .await?;
                tx.commit().await?;
                Ok(failures)
            }

            #[tracing::instrument(skip_all)]
            async fn clear_sign_in_failures(
                &self,
                key: &costscope_core::rate_limit::HashedKey,
            ) -> Result<(), crate::StoreError> {
                sqlx::query("DELETE FROM sign_in_failures WHERE key_hash = $1")
                    .bind(&key[..])
                    .execute(&self.pool)
                    .await?;
                Ok(())
            }

            #[tracing::instrument(skip_all)]
            async fn purge_rate_limits(
                &self,
                now: chrono::DateTime<chrono::Utc>,
                max_keys: u64,
            ) -> Result<u64, crate::StoreError> {
                let now = crate::rate_limits::micros(now);
                let max_keys = i64::try_from(max_keys).unwrap_or(i64::MAX);
                let mut deleted = 0;
                for table in ["rate_limit_windows", "sign_in_failures"] {
                    deleted += sqlx::query(&format!("DELETE FROM {table} WHERE expires_at <= $1"))
                        .bind(now)
                        .execute(&self.pool)
                        .await?
                        .rows_affected();
                }
                let crowded: Vec<(String, i64)> = sqlx::query_as(
                    "SELECT scope, COUNT(*) FROM rate_limit_windows \
                     GROUP BY scope HAVING COUNT(*) > $1",
                )
                .bind(max_keys)
                .fetch_all(&self.pool)
                .await?;
                for (scope, keys) in crowded {
                    deleted += sqlx::query(
                        "DELETE FROM rate_limit_windows WHERE scope = $1 AND key_hash IN \
                         (SELECT key_hash FROM rate_limit_windows WHERE scope = $1 \
                          ORDER BY last_seen_at LIMIT $2)",
                    )
                    .bind(&scope)
                    .bind(keys - max_keys)
                    .execute(&self.pool)
                    .await?
                    .rows_affected();
                }
                let (pairs,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM sign_in_failures")
                    .fetch_one(&self.pool)
                    .await?;
                if pairs > max_keys {
                    deleted += sqlx::query(
                        "DELETE FROM sign_in_failures WHERE key_hash IN \
                         (SELECT key_hash FROM sign_in_failures ORDER BY last_failure_at LIMIT $1)",
                    )
                    .bind(pairs - max_keys)
                    .execute(&self.pool)
                    .await?
                    .rows_affected();
                }
                Ok(deleted)
            }
        }
    };
}

pub(crate) use impl_rate_limit_store;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hits_round_trip_through_their_bytes() {
        let start = DateTime::from_timestamp_micros(1_790_000_000_123_456).unwrap();
        let hits = vec![
            start,
            start + Duration::microseconds(1),
            start + Duration::hours(1),
        ];
        let bytes = encode_hits(&hits);
        assert_eq!(bytes.len(), 24);
        assert_eq!(decode_hits(&bytes).unwrap(), hits);
        assert!(decode_hits(&bytes[..7]).is_err());
    }

    #[test]
    fn a_row_without_failures_reads_as_none() {
        assert_eq!(failures_from_row((0, 5)).unwrap(), None);
        assert_eq!(failures_from_row((2, 0)).unwrap().unwrap().count, 2);
    }
}
