//! In-memory rate-limit state with hashed keys and a cap on the number of keys.
//!
//! Keys (e-mail addresses, client addresses) are never kept: each is replaced by a salted
//! SHA-256 digest (the salt is random per process). A flood of distinct keys cannot grow memory
//! without bound: past `max_keys`, stale entries go first, then the least recently used.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

use argon2::password_hash::rand_core::{OsRng, RngCore};
use chrono::{DateTime, Duration, Utc};
use sha2::{Digest, Sha256};

/// A key as the limiter stores it: 16 bytes of a salted digest.
pub type HashedKey = [u8; 16];

/// Hashes limiter keys with a per-process random salt.
#[derive(Clone)]
pub struct KeyHasher {
    salt: [u8; 32],
}

impl std::fmt::Debug for KeyHasher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("KeyHasher([REDACTED])")
    }
}

impl Default for KeyHasher {
    fn default() -> Self {
        let mut salt = [0u8; 32];
        OsRng.fill_bytes(&mut salt);
        Self { salt }
    }
}

impl KeyHasher {
    /// The digest of `parts`, length-prefixed so that ("ab", "c") and ("a", "bc") differ.
    pub fn hash(&self, parts: &[&str]) -> HashedKey {
        let mut digest = Sha256::new();
        digest.update(self.salt);
        for part in parts {
            digest.update((part.len() as u64).to_le_bytes());
            digest.update(part.as_bytes());
        }
        let full = digest.finalize();
        let mut key = [0u8; 16];
        key.copy_from_slice(&full[..16]);
        key
    }
}

/// A map from hashed keys to `V` holding at most `max_keys` entries.
#[derive(Debug)]
pub struct BoundedMap<V> {
    max_keys: usize,
    entries: HashMap<HashedKey, (DateTime<Utc>, V)>,
}

impl<V> BoundedMap<V> {
    pub fn new(max_keys: usize) -> Self {
        Self {
            max_keys: max_keys.max(1),
            entries: HashMap::new(),
        }
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn get_mut(&mut self, key: &HashedKey) -> Option<&mut V> {
        self.entries.get_mut(key).map(|(_, value)| value)
    }

    pub fn remove(&mut self, key: &HashedKey) {
        self.entries.remove(key);
    }

    /// The entry of `key`, created with `new` when absent; `stale` tells which entries may go
    /// when room is needed. Marks the entry as used at `now`.
    pub fn entry(
        &mut self,
        key: HashedKey,
        now: DateTime<Utc>,
        stale: impl Fn(&V) -> bool,
        new: impl FnOnce() -> V,
    ) -> &mut V {
        if !self.entries.contains_key(&key) && self.entries.len() >= self.max_keys {
            self.make_room(stale);
        }
        let entry = self.entries.entry(key).or_insert_with(|| (now, new()));
        entry.0 = now;
        &mut entry.1
    }

    /// Drops stale entries; if that is not enough, the least recently used eighth (so that a
    /// flood of new keys pays for one sort per `max_keys / 8` insertions, not one per key).
    fn make_room(&mut self, stale: impl Fn(&V) -> bool) {
        self.entries.retain(|_, (_, value)| !stale(value));
        if self.entries.len() < self.max_keys {
            return;
        }
        let mut by_use: Vec<(DateTime<Utc>, HashedKey)> = self
            .entries
            .iter()
            .map(|(key, (used, _))| (*used, *key))
            .collect();
        by_use.sort_unstable();
        let excess = self.entries.len() + 1 - self.max_keys;
        let evict = excess.max(self.max_keys / 8).min(by_use.len());
        for (_, key) in by_use.into_iter().take(evict) {
            self.entries.remove(&key);
        }
    }
}

/// Counts events per key in a sliding window: at most `limit` per `window`.
#[derive(Debug)]
pub struct SlidingWindow {
    limit: usize,
    window: Duration,
    hasher: KeyHasher,
    events: Mutex<BoundedMap<VecDeque<DateTime<Utc>>>>,
}

impl SlidingWindow {
    pub fn new(limit: u32, window: Duration, max_keys: usize, hasher: KeyHasher) -> Self {
        Self {
            limit: (limit as usize).max(1),
            window,
            hasher,
            events: Mutex::new(BoundedMap::new(max_keys)),
        }
    }

    /// Records an event for `key` unless it reached its limit; then `Err(wait)`, the time
    /// until the oldest counted event leaves the window.
    pub fn try_acquire(&self, key: &[&str], now: DateTime<Utc>) -> Result<(), Duration> {
        let hashed = self.hasher.hash(key);
        let window = self.window;
        let mut events = self.events.lock().expect("rate limiter lock");
        let times = events.entry(
            hashed,
            now,
            |times| times.back().is_none_or(|last| *last + window <= now),
            VecDeque::new,
        );
        while times.front().is_some_and(|first| *first + window <= now) {
            times.pop_front();
        }
        if times.len() >= self.limit {
            return Err(times[times.len() - self.limit] + window - now);
        }
        times.push_back(now);
        Ok(())
    }

    pub fn tracked_keys(&self) -> usize {
        self.events.lock().expect("rate limiter lock").len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_salted_digests() {
        let hasher = KeyHasher::default();
        assert_eq!(hasher.hash(&["a", "b"]), hasher.hash(&["a", "b"]));
        assert_ne!(hasher.hash(&["ab", ""]), hasher.hash(&["a", "b"]));
        assert_ne!(
            hasher.hash(&["ann@example.com"]),
            KeyHasher::default().hash(&["ann@example.com"]),
            "another process salts differently"
        );
    }

    #[test]
    fn the_window_refuses_past_the_limit_and_slides() {
        let window = SlidingWindow::new(2, Duration::minutes(10), 100, KeyHasher::default());
        let start = Utc::now();
        assert!(window.try_acquire(&["ip"], start).is_ok());
        assert!(window
            .try_acquire(&["ip"], start + Duration::minutes(1))
            .is_ok());
        assert_eq!(
            window.try_acquire(&["ip"], start + Duration::minutes(2)),
            Err(Duration::minutes(8))
        );
        assert!(window.try_acquire(&["other"], start).is_ok());
        assert!(window
            .try_acquire(&["ip"], start + Duration::minutes(10))
            .is_ok());
    }

    #[test]
    fn a_flood_of_keys_never_holds_more_than_the_cap() {
        let window = SlidingWindow::new(5, Duration::minutes(15), 1000, KeyHasher::default());
        let now = Utc::now();
        for n in 0..10_000 {
            window
                .try_acquire(&[&format!("10.0.{}.{}", n / 256, n % 256)], now)
                .unwrap();
            assert!(window.tracked_keys() <= 1000);
        }
        // The most recent keys are still counted.
        for _ in 0..4 {
            window.try_acquire(&["10.0.39.15"], now).unwrap();
        }
        assert!(window.try_acquire(&["10.0.39.15"], now).is_err());
    }

    #[test]
    fn stale_entries_go_before_live_ones() {
        let mut map: BoundedMap<i64> = BoundedMap::new(2);
        let hasher = KeyHasher::default();
        let now = Utc::now();
        *map.entry(hasher.hash(&["old"]), now, |_| false, || 0) = -1;
        *map.entry(hasher.hash(&["live"]), now, |_| false, || 0) = 1;
        map.entry(hasher.hash(&["new"]), now, |value| *value < 0, || 0);
        assert_eq!(map.len(), 2);
        assert!(map.get_mut(&hasher.hash(&["live"])).is_some());
        assert!(map.get_mut(&hasher.hash(&["old"])).is_none());
    }
}
