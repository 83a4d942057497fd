//! Sign-in throttling with in-memory sliding windows. Each replica counts on its own.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

use chrono::{DateTime, Duration, Utc};

use crate::config::LoginRateLimit;

/// Counts events per key within a sliding window and says how long to wait once a key
/// reached its limit.
#[derive(Debug)]
struct SlidingWindow {
    limit: usize,
    window: Duration,
    events: Mutex<HashMap<String, VecDeque<DateTime<Utc>>>>,
}

impl SlidingWindow {
    fn new(limit: u32, window: Duration) -> Self {
        Self {
            limit: limit as usize,
            window,
            events: Mutex::default(),
        }
    }

    /// How long until `key` may act again, or `None` when it is under the limit.
    fn wait(&self, key: &str, now: DateTime<Utc>) -> Option<Duration> {
        let mut events = self.events.lock().expect("rate limiter lock");
        let times = events.get_mut(key)?;
        self.forget_old(times, now);
        (times.len() >= self.limit).then(|| times[times.len() - self.limit] + self.window - now)
    }

    fn record(&self, key: &str, now: DateTime<Utc>) {
        let mut events = self.events.lock().expect("rate limiter lock");
        if events.len() > 10_000 {
            events.retain(|_, times| times.back().is_some_and(|last| *last + self.window > now));
        }
        let times = events.entry(key.to_owned()).or_default();
        self.forget_old(times, now);
        times.push_back(now);
    }

    fn clear(&self, key: &str) {
        self.events.lock().expect("rate limiter lock").remove(key);
    }

    fn forget_old(&self, times: &mut VecDeque<DateTime<Utc>>, now: DateTime<Utc>) {
        while times
            .front()
            .is_some_and(|first| *first + self.window <= now)
        {
            times.pop_front();
        }
    }
}

/// Refuses a sign-in after too many failures for one account or too many attempts from
/// one client address.
#[derive(Debug)]
pub struct LoginLimiter {
    failures_per_account: SlidingWindow,
    attempts_per_address: SlidingWindow,
}

impl LoginLimiter {
    pub fn new(settings: LoginRateLimit) -> Self {
        let window = Duration::minutes(settings.window_minutes.into());
        Self {
            failures_per_account: SlidingWindow::new(settings.max_failures_per_account, window),
            attempts_per_address: SlidingWindow::new(settings.max_attempts_per_address, window),
        }
    }

    /// Records an attempt from `address`; `Some(wait)` when it must be refused.
    pub fn check_attempt(
        &self,
        address: &str,
        account: &str,
        now: DateTime<Utc>,
    ) -> Option<Duration> {
        if let Some(wait) = self.attempts_per_address.wait(address, now) {
            return Some(wait);
        }
        self.attempts_per_address.record(address, now);
        self.failures_per_account.wait(account, now)
    }

    pub fn record_failure(&self, account: &str, now: DateTime<Utc>) {
        self.failures_per_account.record(account, now);
    }

    pub fn record_success(&self, account: &str) {
        self.failures_per_account.clear(account);
    }
}

/// "{n} minutes" of the 429 message: whole minutes, rounded up, at least one.
pub fn minutes_to_wait(wait: Duration) -> i64 {
    ((wait.num_seconds() + 59) / 60).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limiter(failures: u32, attempts: u32) -> LoginLimiter {
        LoginLimiter::new(LoginRateLimit {
            window_minutes: 15,
            max_failures_per_account: failures,
            max_attempts_per_address: attempts,
        })
    }

    #[test]
    fn account_is_refused_after_max_failures_until_the_window_slides() {
        let limiter = limiter(2, 100);
        let start = Utc::now();
        for _ in 0..2 {
            assert!(limiter.check_attempt("ip", "ann", start).is_none());
            limiter.record_failure("ann", start);
        }
        assert_eq!(
            limiter.check_attempt("ip", "ann", start + Duration::minutes(5)),
            Some(Duration::minutes(10))
        );
        assert!(
            limiter.check_attempt("ip", "bob", start).is_none(),
            "other accounts are unaffected"
        );
        assert!(limiter
            .check_attempt("ip", "ann", start + Duration::minutes(15))
            .is_none());
    }

    #[test]
    fn success_clears_the_failures() {
        let limiter = limiter(2, 100);
        let now = Utc::now();
        limiter.record_failure("ann", now);
        limiter.record_success("ann");
        limiter.record_failure("ann", now);
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
    fn minutes_round_up() {
        assert_eq!(minutes_to_wait(Duration::seconds(61)), 2);
        assert_eq!(minutes_to_wait(Duration::seconds(1)), 1);
        assert_eq!(minutes_to_wait(Duration::minutes(15)), 15);
    }
}
