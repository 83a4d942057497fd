//! Throttling of the unauthenticated auth routes, in memory (each replica counts on its own).
//!
//! Sign-in: failures are counted per (client address, account) pair, so a stranger guessing
//! someone's password slows only themself: after `max_failures_per_pair` failures every further
//! failure doubles the pair's wait (30 s, 1 min, 2 min, … up to `max_delay_minutes`), while the
//! account's owner signs in from their own address as usual. Each address also has a budget of
//! attempts across all accounts (`max_attempts_per_address`), which stops one address from
//! spraying many accounts. Sign-up, refresh and invitation links are limited per address.

use chrono::{DateTime, Duration, Utc};

use super::limiter::{BoundedMap, KeyHasher, SlidingWindow};
use crate::config::{LoginRateLimit, RateLimits};
use std::sync::Mutex;

/// The first wait once a pair used its free failures; it doubles with each further failure.
const FIRST_DELAY_SECONDS: i64 = 30;

#[derive(Debug, Clone, Copy)]
struct PairFailures {
    count: u32,
    last: DateTime<Utc>,
}

/// Sign-in throttling: growing delays per address and account, attempts per address.
#[derive(Debug)]
pub struct LoginLimiter {
    settings: LoginRateLimit,
    hasher: KeyHasher,
    failures: Mutex<BoundedMap<PairFailures>>,
    attempts_per_address: SlidingWindow,
}

impl LoginLimiter {
    pub fn new(settings: LoginRateLimit, max_keys: usize) -> Self {
        let hasher = KeyHasher::default();
        Self {
            settings,
            failures: Mutex::new(BoundedMap::new(max_keys)),
            attempts_per_address: SlidingWindow::new(
                settings.max_attempts_per_address,
                window(&settings),
                max_keys,
                hasher.clone(),
            ),
            hasher,
        }
    }

    /// Records an attempt from `address` for `account`; `Some(wait)` when it must be refused.
    pub fn check_attempt(
        &self,
        address: &str,
        account: &str,
        now: DateTime<Utc>,
    ) -> Option<Duration> {
        if let Some(wait) = self.pair_wait(address, account, now) {
            return Some(wait);
        }
        self.attempts_per_address.try_acquire(&[address], now).err()
    }

    fn pair_wait(&self, address: &str, account: &str, now: DateTime<Utc>) -> Option<Duration> {
        let key = self.hasher.hash(&[address, account]);
        let mut failures = self.failures.lock().expect("login limiter lock");
        let pair = *failures.get_mut(&key)?;
        if pair.last + window(&self.settings) <= now {
            failures.remove(&key);
            return None;
        }
        let wait = pair.last + self.delay_after(pair.count) - now;
        (wait > Duration::zero()).then_some(wait)
    }

    /// The wait imposed after `failures` failures of one pair.
    fn delay_after(&self, failures: u32) -> Duration {
        let free = self.settings.max_failures_per_pair;
        if failures < free {
            return Duration::zero();
        }
        let doublings = (failures - free).min(20);
        let max = Duration::minutes(self.settings.max_delay_minutes.into());
        (Duration::seconds(FIRST_DELAY_SECONDS) * (1 << doublings)).min(max)
    }

    pub fn record_failure(&self, address: &str, account: &str, now: DateTime<Utc>) {
        let key = self.hasher.hash(&[address, account]);
        let window = window(&self.settings);
        let mut failures = self.failures.lock().expect("login limiter lock");
        let pair = failures.entry(
            key,
            now,
            |pair| pair.last + window <= now,
            || PairFailures {
                count: 0,
                last: now,
            },
        );
        if pair.last + window <= now {
            pair.count = 0;
        }
        pair.count = pair.count.saturating_add(1);
        pair.last = now;
    }

    pub fn record_success(&self, address: &str, account: &str) {
        let key = self.hasher.hash(&[address, account]);
        self.failures
            .lock()
            .expect("login limiter lock")
            .remove(&key);
    }

    pub fn tracked_keys(&self) -> usize {
        self.failures.lock().expect("login limiter lock").len()
            + self.attempts_per_address.tracked_keys()
    }
}

fn window(settings: &LoginRateLimit) -> Duration {
    Duration::minutes(settings.window_minutes.into())
}

/// Per-address limits of sign-up, refresh and invitation links.
#[derive(Debug)]
pub struct RequestLimits {
    signups: SlidingWindow,
    refreshes: SlidingWindow,
    invitations: SlidingWindow,
}

impl RequestLimits {
    pub fn new(limits: RateLimits) -> Self {
        let hasher = KeyHasher::default();
        let keys = limits.max_tracked_keys;
        Self {
            signups: SlidingWindow::new(
                limits.signups_per_hour,
                Duration::hours(1),
                keys,
                hasher.clone(),
            ),
            refreshes: SlidingWindow::new(
                limits.refreshes_per_minute,
                Duration::minutes(1),
                keys,
                hasher.clone(),
            ),
            invitations: SlidingWindow::new(
                limits.invitation_attempts_per_minute,
                Duration::minutes(1),
                keys,
                hasher,
            ),
        }
    }

    pub fn signup(&self, address: &str, now: DateTime<Utc>) -> Result<(), Duration> {
        self.signups.try_acquire(&[address], now)
    }

    pub fn refresh(&self, address: &str, now: DateTime<Utc>) -> Result<(), Duration> {
        self.refreshes.try_acquire(&[address], now)
    }

    /// Looking an invitation link up or accepting it.
    pub fn invitation(&self, address: &str, now: DateTime<Utc>) -> Result<(), Duration> {
        self.invitations.try_acquire(&[address], now)
    }
}

/// "{n} minutes" of the 429 message: whole minutes, rounded up, at least one.
pub fn minutes_to_wait(wait: Duration) -> i64 {
    ((wait.num_seconds() + 59) / 60).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limiter(free_failures: u32, attempts: u32) -> LoginLimiter {
        LoginLimiter::new(
            LoginRateLimit {
                window_minutes: 15,
                max_failures_per_pair: free_failures,
                max_attempts_per_address: attempts,
                max_delay_minutes: 15,
            },
            1000,
        )
    }

    #[test]
    fn failures_grow_the_pairs_wait_and_leave_other_addresses_alone() {
        let limiter = limiter(2, 100);
        let start = Utc::now();
        for _ in 0..2 {
            assert!(limiter.check_attempt("attacker", "ann", start).is_none());
            limiter.record_failure("attacker", "ann", start);
        }
        assert_eq!(
            limiter.check_attempt("attacker", "ann", start),
            Some(Duration::seconds(30))
        );
        assert!(
            limiter.check_attempt("ann-at-home", "ann", start).is_none(),
            "the owner's own address is not locked out"
        );
        let later = start + Duration::seconds(30);
        assert!(limiter.check_attempt("attacker", "ann", later).is_none());
        limiter.record_failure("attacker", "ann", later);
        assert_eq!(
            limiter.check_attempt("attacker", "ann", later),
            Some(Duration::seconds(60)),
            "each further failure doubles the wait"
        );
    }

    #[test]
    fn the_delay_is_capped_and_forgotten_after_the_window() {
        let limiter = limiter(1, 1000);
        let now = Utc::now();
        for _ in 0..30 {
            limiter.record_failure("ip", "ann", now);
        }
        assert_eq!(
            limiter.check_attempt("ip", "ann", now),
            Some(Duration::minutes(15))
        );
        assert!(limiter
            .check_attempt("ip", "ann", now + Duration::minutes(15))
            .is_none());
    }

    #[test]
    fn success_clears_the_pair() {
        let limiter = limiter(1, 100);
        let now = Utc::now();
        limiter.record_failure("ip", "ann", now);
        limiter.record_success("ip", "ann");
        assert!(limiter.check_attempt("ip", "ann", now).is_none());
    }

    #[test]
    fn address_is_refused_after_max_attempts() {
        let limiter = limiter(100, 3);
        let now = Utc::now();
        for account in ["a", "b", "c"] {
            assert!(limiter.check_attempt("ip", account, now).is_none());
        }
        assert!(limiter.check_attempt("ip", "d", now).is_some());
        assert!(limiter.check_attempt("other-ip", "d", now).is_none());
    }

    #[test]
    fn the_limiters_memory_is_bounded() {
        let limiter = LoginLimiter::new(LoginRateLimit::default(), 500);
        let now = Utc::now();
        for n in 0..5_000 {
            let address = format!("10.9.{}.{}", n / 256, n % 256);
            limiter.check_attempt(&address, "ann", now);
            limiter.record_failure(&address, &format!("user{n}"), now);
        }
        assert!(limiter.tracked_keys() <= 1000, "{}", limiter.tracked_keys());
    }

    #[test]
    fn request_limits_count_per_address() {
        let limits = RequestLimits::new(RateLimits {
            signups_per_hour: 2,
            ..RateLimits::default()
        });
        let now = Utc::now();
        assert!(limits.signup("ip", now).is_ok());
        assert!(limits.signup("ip", now).is_ok());
        assert_eq!(limits.signup("ip", now), Err(Duration::hours(1)));
        assert!(limits.signup("other", now).is_ok());
    }

    #[test]
    fn minutes_round_up() {
        assert_eq!(minutes_to_wait(Duration::seconds(61)), 2);
        assert_eq!(minutes_to_wait(Duration::seconds(1)), 1);
        assert_eq!(minutes_to_wait(Duration::minutes(15)), 15);
    }
}
