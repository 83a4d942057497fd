//! Rate-limit state in the metadata store (issue 18, "Replicas"), on SQLite and PostgreSQL.

// The suite uses the backends and the clock of the shared helpers, not their tenants.
#[allow(dead_code)]
mod support;

use std::sync::Arc;

use chrono::Duration;
use costscope_core::rate_limit::{FailureDelays, KeyHasher, SlidingWindow};
use costscope_store::MetadataStore;
use support::{for_each_backend, now};

fn hasher() -> KeyHasher {
    KeyHasher::from_secret(b"the replicas' shared auth secret, 32+ bytes")
}

fn delays(free: u32) -> FailureDelays {
    FailureDelays {
        free,
        max_delay: Duration::minutes(15),
        window: Duration::minutes(15),
    }
}

#[tokio::test]
async fn a_window_refuses_past_its_limit_and_slides() {
    for_each_backend(|store| async move {
        let limits = store.rate_limits();
        let window = SlidingWindow::new(2, Duration::minutes(10));
        let ip = hasher().hash(&["203.0.113.1"]);
        let start = now();
        let at = |minutes| start + Duration::minutes(minutes);

        assert_eq!(
            limits.acquire("signup", &ip, window, at(0)).await.unwrap(),
            None
        );
        assert_eq!(
            limits.acquire("signup", &ip, window, at(1)).await.unwrap(),
            None
        );
        assert_eq!(
            limits.acquire("signup", &ip, window, at(2)).await.unwrap(),
            Some(Duration::minutes(8))
        );
        // Another key, and the same key in another limit, count on their own.
        let other = hasher().hash(&["203.0.113.2"]);
        assert_eq!(
            limits
                .acquire("signup", &other, window, at(2))
                .await
                .unwrap(),
            None
        );
        assert_eq!(
            limits.acquire("refresh", &ip, window, at(2)).await.unwrap(),
            None
        );
        // The event of minute 0 leaves the window at minute 10; minute 1's is still in it.
        assert_eq!(
            limits.acquire("signup", &ip, window, at(10)).await.unwrap(),
            None
        );
        assert_eq!(
            limits.acquire("signup", &ip, window, at(10)).await.unwrap(),
            Some(Duration::minutes(1))
        );
    })
    .await;
}

#[tokio::test]
async fn sign_in_failures_double_the_wait_and_a_success_clears_them() {
    for_each_backend(|store| async move {
        let limits = store.rate_limits();
        let rules = delays(2);
        let pair = hasher().hash(&["203.0.113.66", "ada@example.com"]);
        let start = now();
        assert_eq!(limits.sign_in_failures(&pair).await.unwrap(), None);

        for _ in 0..2 {
            limits
                .record_sign_in_failure(&pair, rules, start)
                .await
                .unwrap();
        }
        let failures = limits.sign_in_failures(&pair).await.unwrap();
        assert_eq!(failures.map(|f| (f.count, f.last)), Some((2, start)));
        assert_eq!(rules.wait(failures, start), Some(Duration::seconds(30)));

        let later = start + Duration::seconds(30);
        let failures = limits
            .record_sign_in_failure(&pair, rules, later)
            .await
            .unwrap();
        assert_eq!(failures.count, 3);
        assert_eq!(
            rules.wait(limits.sign_in_failures(&pair).await.unwrap(), later),
            Some(Duration::minutes(1))
        );
        // Failures older than the window start the count again.
        let next_window = later + Duration::minutes(15);
        let failures = limits
            .record_sign_in_failure(&pair, rules, next_window)
            .await
            .unwrap();
        assert_eq!(failures.count, 1);

        limits.clear_sign_in_failures(&pair).await.unwrap();
        assert_eq!(limits.sign_in_failures(&pair).await.unwrap(), None);
    })
    .await;
}

/// Many requests at once (on PostgreSQL, on separate pooled connections, as two replicas
/// would be) count exactly: the limit admits `limit` hits, no more, no fewer.
#[tokio::test]
async fn concurrent_hits_on_one_key_count_exactly() {
    for_each_backend(|store| async move {
        let window = SlidingWindow::new(25, Duration::minutes(1));
        let key = hasher().hash(&["198.51.100.9"]);
        let pair = hasher().hash(&["198.51.100.9", "bob@example.com"]);
        let start = now();
        let tasks: Vec<_> = (0..40)
            .map(|n| {
                let store: Arc<dyn MetadataStore> = store.clone();
                tokio::spawn(async move {
                    let at = start + Duration::milliseconds(n);
                    let admitted = store
                        .rate_limits()
                        .acquire("refresh", &key, window, at)
                        .await
                        .unwrap()
                        .is_none();
                    store
                        .rate_limits()
                        .record_sign_in_failure(&pair, delays(5), at)
                        .await
                        .unwrap();
                    admitted
                })
            })
            .collect();
        let mut admitted = 0;
        for task in tasks {
            admitted += u32::from(task.await.unwrap());
        }
        assert_eq!(admitted, 25);
        let failures = store.rate_limits().sign_in_failures(&pair).await.unwrap();
        assert_eq!(failures.map(|f| f.count), Some(40));
    })
    .await;
}

#[tokio::test]
async fn the_purge_drops_expired_keys_then_the_least_recently_seen() {
    for_each_backend(|store| async move {
        let limits = store.rate_limits();
        let window = SlidingWindow::new(1, Duration::minutes(1));
        let rules = delays(0);
        let start = now();
        let key = |n: i64| hasher().hash(&[&format!("10.0.0.{n}")]);
        // Keys 0..5 seen a second apart; key 9 and a failed pair long before.
        for n in 0..5 {
            let at = start + Duration::seconds(n);
            assert_eq!(
                limits
                    .acquire("invitation", &key(n), window, at)
                    .await
                    .unwrap(),
                None
            );
        }
        let old = start - Duration::minutes(30);
        limits
            .acquire("invitation", &key(9), window, old)
            .await
            .unwrap();
        let old_pair = hasher().hash(&["10.0.0.9", "eve@example.com"]);
        limits
            .record_sign_in_failure(&old_pair, rules, old)
            .await
            .unwrap();

        let deleted = limits
            .purge_rate_limits(start + Duration::seconds(5), 3)
            .await
            .unwrap();

        // Key 9 and the old pair expired; of the five live keys the two seen first went.
        assert_eq!(deleted, 4);
        assert_eq!(limits.sign_in_failures(&old_pair).await.unwrap(), None);
        let later = start + Duration::seconds(6);
        for n in [0, 1] {
            assert_eq!(
                limits
                    .acquire("invitation", &key(n), window, later)
                    .await
                    .unwrap(),
                None,
                "key {n} was forgotten"
            );
        }
        for n in [2, 3, 4] {
            assert!(
                limits
                    .acquire("invitation", &key(n), window, later)
                    .await
                    .unwrap()
                    .is_some(),
                "key {n} is still counted"
            );
        }
        assert_eq!(
            limits.purge_rate_limits(later, 100).await.unwrap(),
            0,
            "nothing else expired"
        );
    })
    .await;
}
