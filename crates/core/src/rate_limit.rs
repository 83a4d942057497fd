//! The rules of the auth routes' rate limits, kept apart from where the counts live (the
//! metadata store, shared by every `serve` replica).
//!
//! Keys (e-mail addresses, client addresses) are never stored: each is replaced by a keyed
//! digest ([`KeyHasher`]), keyed by a value derived from the replicas' shared auth secret so
//! that every replica hashes one client to the same key.

use chrono::{DateTime, Duration, Utc};
use hmac::{Hmac, Mac};
use sha2::Sha256;

type HmacSha256 = Hmac<Sha256>;

/// A key as the limits store it: 16 bytes of a keyed digest.
pub type HashedKey = [u8; 16];

/// What the hashing key is derived for, so that it never equals another use of the secret.
const KEY_LABEL: &[u8] = b"costscope rate-limit keys v1";

/// Hashes limit keys with HMAC-SHA256 under a key derived from a shared secret.
#[derive(Clone)]
pub struct KeyHasher {
    key: [u8; 32],
}

impl std::fmt::Debug for KeyHasher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("KeyHasher([REDACTED])")
    }
}

impl KeyHasher {
    /// The hasher of every replica configured with `secret` (the auth secret).
    pub fn from_secret(secret: &[u8]) -> Self {
        let mut derive =
            HmacSha256::new_from_slice(secret).expect("HMAC takes a key of any length");
        derive.update(KEY_LABEL);
        Self {
            key: derive.finalize().into_bytes().into(),
        }
    }

    /// The digest of `parts`, length-prefixed so that ("ab", "c") and ("a", "bc") differ.
    pub fn hash(&self, parts: &[&str]) -> HashedKey {
        let mut mac =
            HmacSha256::new_from_slice(&self.key).expect("HMAC takes a key of any length");
        for part in parts {
            mac.update(&(part.len() as u64).to_le_bytes());
            mac.update(part.as_bytes());
        }
        let full = mac.finalize().into_bytes();
        let mut key = [0u8; 16];
        key.copy_from_slice(&full[..16]);
        key
    }
}

/// At most `limit` events per key in any `window`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SlidingWindow {
    limit: u32,
    window: Duration,
}

impl SlidingWindow {
    /// A limit of 0 counts as 1.
    pub fn new(limit: u32, window: Duration) -> Self {
        Self {
            limit: limit.max(1),
            window,
        }
    }

    pub fn window(&self) -> Duration {
        self.window
    }

    /// Records an event at `now` into `hits` (a key's event times, oldest first) unless the key
    /// reached its limit; then `Err(wait)`, the time until the oldest counted event leaves the
    /// window. `hits` keeps only the events still in the window, never more than `limit`.
    pub fn try_acquire(
        &self,
        hits: &mut Vec<DateTime<Utc>>,
        now: DateTime<Utc>,
    ) -> Result<(), Duration> {
        hits.retain(|hit| *hit + self.window > now);
        let limit = self.limit as usize;
        if hits.len() >= limit {
            return Err(hits[hits.len() - limit] + self.window - now);
        }
        hits.push(now);
        Ok(())
    }

    /// When a key whose last event was at `last` may be forgotten.
    pub fn expires_at(&self, last: DateTime<Utc>) -> DateTime<Utc> {
        last + self.window
    }
}

/// The sign-in failures of one (client address, account) pair.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Failures {
    pub count: u32,
    pub last: DateTime<Utc>,
}

/// The first wait once a pair used its free failures; it doubles with each further failure.
const FIRST_DELAY_SECONDS: i64 = 30;

/// Growing waits after failed sign-ins: past `free` failures, each further failure doubles the
/// pair's wait (30 s, 1 min, 2 min, … up to `max_delay`); failures older than `window` are
/// forgotten.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FailureDelays {
    pub free: u32,
    pub max_delay: Duration,
    pub window: Duration,
}

impl FailureDelays {
    /// How long the pair must still wait, if at all.
    pub fn wait(&self, failures: Option<Failures>, now: DateTime<Utc>) -> Option<Duration> {
        let failures = failures.filter(|failures| !self.expired(failures, now))?;
        let wait = failures.last + self.delay_after(failures.count) - now;
        (wait > Duration::zero()).then_some(wait)
    }

    /// The pair's failures once one more happened at `now`.
    pub fn after_failure(&self, failures: Option<Failures>, now: DateTime<Utc>) -> Failures {
        let count = failures
            .filter(|failures| !self.expired(failures, now))
            .map_or(0, |failures| failures.count);
        Failures {
            count: count.saturating_add(1),
            last: now,
        }
    }

    /// When the pair's failures are forgotten.
    pub fn expires_at(&self, failures: &Failures) -> DateTime<Utc> {
        failures.last + self.window
    }

    fn expired(&self, failures: &Failures, now: DateTime<Utc>) -> bool {
        self.expires_at(failures) <= now
    }

    /// The wait imposed after `failures` failures of one pair.
    fn delay_after(&self, failures: u32) -> Duration {
        if failures < self.free {
            return Duration::zero();
        }
        let doublings = (failures - self.free).min(20);
        (Duration::seconds(FIRST_DELAY_SECONDS) * (1 << doublings)).min(self.max_delay)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_keyed_digests_shared_by_every_holder_of_the_secret() {
        let hasher = KeyHasher::from_secret(b"the shared auth secret of the replicas");
        let replica = KeyHasher::from_secret(b"the shared auth secret of the replicas");
        assert_eq!(hasher.hash(&["a", "b"]), replica.hash(&["a", "b"]));
        assert_ne!(hasher.hash(&["ab", ""]), hasher.hash(&["a", "b"]));
        assert_ne!(
            hasher.hash(&["ann@example.com"]),
            KeyHasher::from_secret(b"another installation's secret").hash(&["ann@example.com"]),
        );
        assert_eq!(format!("{hasher:?}"), "KeyHasher([REDACTED])");
    }

    #[test]
    fn the_window_refuses_past_the_limit_and_slides() {
        let window = SlidingWindow::new(2, Duration::minutes(10));
        let start = Utc::now();
        let mut hits = Vec::new();
        assert!(window.try_acquire(&mut hits, start).is_ok());
        assert!(window
            .try_acquire(&mut hits, start + Duration::minutes(1))
            .is_ok());
        assert_eq!(
            window.try_acquire(&mut hits, start + Duration::minutes(2)),
            Err(Duration::minutes(8))
        );
        assert_eq!(hits.len(), 2, "a refused event is not counted");
        assert!(window
            .try_acquire(&mut hits, start + Duration::minutes(10))
            .is_ok());
        assert_eq!(
            window.try_acquire(&mut hits, start + Duration::minutes(10)),
            Err(Duration::minutes(1)),
            "the event of minute 1 is still in the window"
        );
        assert_eq!(window.expires_at(start), start + Duration::minutes(10));
    }

    #[test]
    fn a_lowered_limit_counts_the_most_recent_events() {
        let start = Utc::now();
        let mut hits: Vec<_> = (0..5).map(|n| start + Duration::minutes(n)).collect();
        let window = SlidingWindow::new(2, Duration::minutes(10));
        assert_eq!(
            window.try_acquire(&mut hits, start + Duration::minutes(5)),
            Err(Duration::minutes(8))
        );
    }

    fn delays(free: u32) -> FailureDelays {
        FailureDelays {
            free,
            max_delay: Duration::minutes(15),
            window: Duration::minutes(15),
        }
    }

    #[test]
    fn failures_past_the_free_ones_double_the_wait_up_to_the_cap() {
        let rules = delays(2);
        let start = Utc::now();
        let mut failures = None;
        for _ in 0..2 {
            assert_eq!(rules.wait(failures, start), None);
            failures = Some(rules.after_failure(failures, start));
        }
        assert_eq!(rules.wait(failures, start), Some(Duration::seconds(30)));
        let later = start + Duration::seconds(30);
        assert_eq!(rules.wait(failures, later), None);
        failures = Some(rules.after_failure(failures, later));
        assert_eq!(rules.wait(failures, later), Some(Duration::seconds(60)));
        for _ in 0..30 {
            failures = Some(rules.after_failure(failures, later));
        }
        assert_eq!(rules.wait(failures, later), Some(Duration::minutes(15)));
    }

    #[test]
    fn failures_are_forgotten_after_the_window() {
        let rules = delays(1);
        let start = Utc::now();
        let first = rules.after_failure(None, start);
        let failures = rules.after_failure(Some(first), start);
        assert_eq!(failures.count, 2);
        let after = start + Duration::minutes(15);
        assert_eq!(rules.wait(Some(failures), after), None);
        assert_eq!(rules.after_failure(Some(failures), after).count, 1);
        assert_eq!(rules.expires_at(&failures), after);
    }
}
