//! Throttling of the unauthenticated auth routes, counted in the metadata store so that every
//! `serve` replica on one database counts a client alike (issue 18, "Replicas").
//!
//! Sign-in: failures are counted per (client address, account) pair, so a stranger guessing
//! someone's password slows only themself: after `max_failures_per_pair` failures every further
//! failure doubles the pair's wait (30 s, 1 min, 2 min, … up to `max_delay_minutes`), while the
//! account's owner signs in from their own address as usual. Each address also has a budget of
//! attempts across all accounts (`max_attempts_per_address`), which stops one address from
//! spraying many accounts. Sign-up, refresh and invitation links are limited per address.
//!
//! The rules are `costscope_core::rate_limit`'s; keys reach the store only as keyed digests.

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;

use chrono::{DateTime, Duration, Utc};
use costscope_core::rate_limit::{FailureDelays, KeyHasher, SlidingWindow};
use costscope_store::{MetadataStore, StoreError};

use crate::config::{LoginRateLimit, RateLimits};

/// How often one process sweeps the state that no longer counts out of the store.
const PURGE_INTERVAL_SECONDS: i64 = 60;

/// The limits' names in the store.
const SIGN_IN_SCOPE: &str = "sign-in";
const SIGNUP_SCOPE: &str = "signup";
const REFRESH_SCOPE: &str = "refresh";
const INVITATION_SCOPE: &str = "invitation";

/// Where the limits count: the metadata store, with keys hashed alike by every replica (the
/// hashing key is derived from the shared auth secret). Sweeps expired state now and then.
#[derive(Debug)]
pub struct LimitCounts {
    store: Arc<dyn MetadataStore>,
    hasher: KeyHasher,
    /// Keys each limit keeps at most (`max_tracked_keys`).
    max_keys: u64,
    /// When this process last swept (microseconds since the epoch).
    last_purge: AtomicI64,
}

impl LimitCounts {
    pub fn new(store: Arc<dyn MetadataStore>, hasher: KeyHasher, max_keys: usize) -> Self {
        Self {
            store,
            hasher,
            max_keys: max_keys as u64,
            last_purge: AtomicI64::new(i64::MIN),
        }
    }

    /// Counts a hit of `key` in the `scope` limit; `Some(wait)` when refused.
    async fn acquire(
        &self,
        scope: &str,
        key: &[&str],
        window: SlidingWindow,
        now: DateTime<Utc>,
    ) -> Result<Option<Duration>, StoreError> {
        let refused = self
            .store
            .rate_limits()
            .acquire(scope, &self.hasher.hash(key), window, now)
            .await?;
        self.purge_if_due(now).await;
        Ok(refused)
    }

    /// Sweeps at most once per interval per process; a failed sweep is logged and retried at
    /// the next interval (the counts themselves stay correct without it).
    async fn purge_if_due(&self, now: DateTime<Utc>) {
        let now_micros = now.timestamp_micros();
        let last = self.last_purge.load(Ordering::Relaxed);
        if now_micros.saturating_sub(last) < PURGE_INTERVAL_SECONDS * 1_000_000
            || self
                .last_purge
                .compare_exchange(last, now_micros, Ordering::Relaxed, Ordering::Relaxed)
                .is_err()
        {
            return;
        }
        match self
            .store
            .rate_limits()
            .purge_rate_limits(now, self.max_keys)
            .await
        {
            Ok(deleted) => tracing::debug!(deleted, "purged rate-limit keys"),
            Err(err) => tracing::warn!(error = %err, "purging rate-limit keys failed"),
        }
    }
}

/// Sign-in throttling: growing delays per address and account, attempts per address.
#[derive(Debug)]
pub struct LoginLimiter {
    counts: Arc<LimitCounts>,
    delays: FailureDelays,
    attempts_per_address: SlidingWindow,
}

impl LoginLimiter {
    pub fn new(settings: LoginRateLimit, counts: Arc<LimitCounts>) -> Self {
        let window = Duration::minutes(settings.window_minutes.into());
        Self {
            counts,
            delays: FailureDelays {
                free: settings.max_failures_per_pair,
                max_delay: Duration::minutes(settings.max_delay_minutes.into()),
                window,
            },
            attempts_per_address: SlidingWindow::new(settings.max_attempts_per_address, window),
        }
    }

    /// Records an attempt from `address` for `account`; `Some(wait)` when it must be refused.
    pub async fn check_attempt(
        &self,
        address: &str,
        account: &str,
        now: DateTime<Utc>,
    ) -> Result<Option<Duration>, StoreError> {
        let pair = self.counts.hasher.hash(&[address, account]);
        let failures = self
            .counts
            .store
            .rate_limits()
            .sign_in_failures(&pair)
            .await?;
        if let Some(wait) = self.delays.wait(failures, now) {
            return Ok(Some(wait));
        }
        self.counts
            .acquire(SIGN_IN_SCOPE, &[address], self.attempts_per_address, now)
            .await
    }

    pub async fn record_failure(
        &self,
        address: &str,
        account: &str,
        now: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        let pair = self.counts.hasher.hash(&[address, account]);
        self.counts
            .store
            .rate_limits()
            .record_sign_in_failure(&pair, self.delays, now)
            .await?;
        Ok(())
    }

    pub async fn record_success(&self, address: &str, account: &str) -> Result<(), StoreError> {
        let pair = self.counts.hasher.hash(&[address, account]);
        self.counts
            .store
            .rate_limits()
            .clear_sign_in_failures(&pair)
            .await
    }
}

/// Per-address limits of sign-up, refresh and invitation links.
#[derive(Debug)]
pub struct RequestLimits {
    counts: Arc<LimitCounts>,
    signups: SlidingWindow,
    refreshes: SlidingWindow,
    invitations: SlidingWindow,
}

impl RequestLimits {
    pub fn new(limits: RateLimits, counts: Arc<LimitCounts>) -> Self {
        Self {
            counts,
            signups: SlidingWindow::new(limits.signups_per_hour, Duration::hours(1)),
            refreshes: SlidingWindow::new(limits.refreshes_per_minute, Duration::minutes(1)),
            invitations: SlidingWindow::new(
                limits.invitation_attempts_per_minute,
                Duration::minutes(1),
            ),
        }
    }

    /// Counts a request from `address` against `limit`; `Some(wait)` when refused.
    pub async fn acquire(
        &self,
        limit: RequestLimit,
        address: &str,
        now: DateTime<Utc>,
    ) -> Result<Option<Duration>, StoreError> {
        let (scope, window) = match limit {
            RequestLimit::Signup => (SIGNUP_SCOPE, self.signups),
            RequestLimit::Refresh => (REFRESH_SCOPE, self.refreshes),
            RequestLimit::Invitation => (INVITATION_SCOPE, self.invitations),
        };
        self.counts.acquire(scope, &[address], window, now).await
    }
}

/// The routes [`RequestLimits`] limits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RequestLimit {
    Signup,
    Refresh,
    /// Looking an invitation link up or accepting it.
    Invitation,
}

/// "{n} minutes" of the 429 message: whole minutes, rounded up, at least one.
pub fn minutes_to_wait(wait: Duration) -> i64 {
    ((wait.num_seconds() + 59) / 60).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The limiters and the directory of their store (deleted when dropped).
    struct Limits {
        login: LoginLimiter,
        requests: RequestLimits,
        _dir: tempfile::TempDir,
    }

    /// The limiters over a fresh SQLite store (the store's own suite covers PostgreSQL).
    async fn limits(login: LoginRateLimit, requests: RateLimits) -> Limits {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("limits.db").display());
        let store = costscope_store::connect(&url).await.unwrap();
        store.migrate().await.unwrap();
        let counts = Arc::new(LimitCounts::new(
            store,
            KeyHasher::from_secret(b"test secret of at least thirty-two bytes"),
            1000,
        ));
        Limits {
            login: LoginLimiter::new(login, counts.clone()),
            requests: RequestLimits::new(requests, counts),
            _dir: dir,
        }
    }

    fn login_settings(free_failures: u32, attempts: u32) -> LoginRateLimit {
        LoginRateLimit {
            window_minutes: 15,
            max_failures_per_pair: free_failures,
            max_attempts_per_address: attempts,
            max_delay_minutes: 15,
        }
    }

    #[tokio::test]
    async fn failures_grow_the_pairs_wait_and_leave_other_addresses_alone() {
        let limits = limits(login_settings(2, 100), RateLimits::default()).await;
        let limiter = &limits.login;
        let start = costscope_core::Clock::now(&costscope_core::SystemClock);
        for _ in 0..2 {
            assert_eq!(
                limiter
                    .check_attempt("attacker", "ann", start)
                    .await
                    .unwrap(),
                None
            );
            limiter
                .record_failure("attacker", "ann", start)
                .await
                .unwrap();
        }
        assert_eq!(
            limiter
                .check_attempt("attacker", "ann", start)
                .await
                .unwrap(),
            Some(Duration::seconds(30))
        );
        assert_eq!(
            limiter
                .check_attempt("ann-at-home", "ann", start)
                .await
                .unwrap(),
            None,
            "the owner's own address is not locked out"
        );
        let later = start + Duration::seconds(30);
        assert_eq!(
            limiter
                .check_attempt("attacker", "ann", later)
                .await
                .unwrap(),
            None
        );
        limiter
            .record_failure("attacker", "ann", later)
            .await
            .unwrap();
        assert_eq!(
            limiter
                .check_attempt("attacker", "ann", later)
                .await
                .unwrap(),
            Some(Duration::seconds(60)),
            "each further failure doubles the wait"
        );
        limiter.record_success("attacker", "ann").await.unwrap();
        assert_eq!(
            limiter
                .check_attempt("attacker", "ann", later)
                .await
                .unwrap(),
            None
        );
    }

    #[tokio::test]
    async fn an_address_is_refused_after_max_attempts() {
        let limits = limits(login_settings(100, 3), RateLimits::default()).await;
        let limiter = &limits.login;
        let now = costscope_core::Clock::now(&costscope_core::SystemClock);
        for account in ["a", "b", "c"] {
            assert_eq!(
                limiter.check_attempt("ip", account, now).await.unwrap(),
                None
            );
        }
        assert!(limiter
            .check_attempt("ip", "d", now)
            .await
            .unwrap()
            .is_some());
        assert_eq!(
            limiter.check_attempt("other-ip", "d", now).await.unwrap(),
            None
        );
    }

    #[tokio::test]
    async fn request_limits_count_per_address_and_per_route() {
        let limits = limits(
            LoginRateLimit::default(),
            RateLimits {
                signups_per_hour: 2,
                ..RateLimits::default()
            },
        )
        .await;
        let now = costscope_core::Clock::now(&costscope_core::SystemClock);
        let mut answers = Vec::new();
        for (limit, address) in [
            (RequestLimit::Signup, "ip"),
            (RequestLimit::Signup, "ip"),
            (RequestLimit::Signup, "ip"),
            (RequestLimit::Signup, "other"),
            (RequestLimit::Refresh, "ip"),
        ] {
            answers.push(limits.requests.acquire(limit, address, now).await.unwrap());
        }
        assert_eq!(answers, [None, None, Some(Duration::hours(1)), None, None]);
    }

    #[test]
    fn minutes_round_up() {
        assert_eq!(minutes_to_wait(Duration::seconds(61)), 2);
        assert_eq!(minutes_to_wait(Duration::seconds(1)), 1);
        assert_eq!(minutes_to_wait(Duration::minutes(15)), 15);
    }
}
