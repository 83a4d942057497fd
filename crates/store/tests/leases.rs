//! Job leases (issue 18) on every backend: SQLite always, PostgreSQL when
//! `COSTSCOPE_TEST_POSTGRES_URL` names a server (each test gets its own database).

#[allow(dead_code)] // helpers shared by the suites; leases need only two
mod support;
use support::{for_each_backend, now};

use chrono::{DateTime, Duration, Utc};
use costscope_store::LeaseStore;

const JOB: &str = "budget-evaluation";

/// Who holds `JOB` after `holder` asked for it at `at` for a minute (`None`: refused).
async fn acquire(leases: &dyn LeaseStore, holder: &str, at: DateTime<Utc>) -> Option<String> {
    leases
        .acquire_lease(JOB, holder, at, at + Duration::minutes(1))
        .await
        .unwrap()
        .map(|lease| lease.holder)
}

#[tokio::test]
async fn of_two_holders_the_first_gets_the_lease_and_the_second_is_refused() {
    for_each_backend(|store| async move {
        let leases = store.leases();
        let at = now();
        assert_eq!(leases.lease(JOB).await.unwrap(), None);
        let lease = leases
            .acquire_lease(JOB, "a", at, at + Duration::minutes(1))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(
            (lease.name.as_str(), lease.holder.as_str(), lease.expires_at),
            (JOB, "a", at + Duration::minutes(1))
        );
        assert_eq!(acquire(leases, "b", at + Duration::seconds(30)).await, None);
        let stored = leases.lease(JOB).await.unwrap().unwrap();
        assert_eq!(stored, lease, "a refused acquire changes nothing");
        assert_eq!(
            acquire(leases, "b", at).await,
            None,
            "another job's lease is another row"
        );
        assert!(leases
            .acquire_lease("anomaly-scan", "b", at, at + Duration::minutes(1))
            .await
            .unwrap()
            .is_some());
    })
    .await;
}

#[tokio::test]
async fn renewal_keeps_the_lease_past_its_first_expiry() {
    for_each_backend(|store| async move {
        let leases = store.leases();
        let at = now();
        let seconds = |n: i64| at + Duration::seconds(n);
        assert_eq!(acquire(leases, "a", at).await.as_deref(), Some("a"));
        // Renewed every 20 s for two minutes: "b" never gets it.
        for n in 1..=6 {
            assert_eq!(
                acquire(leases, "a", seconds(20 * n)).await.as_deref(),
                Some("a")
            );
            assert_eq!(acquire(leases, "b", seconds(20 * n + 1)).await, None);
        }
        let lease = leases.lease(JOB).await.unwrap().unwrap();
        assert_eq!(lease.expires_at, seconds(120) + Duration::minutes(1));
    })
    .await;
}

#[tokio::test]
async fn an_expired_lease_goes_to_the_next_holder_who_asks() {
    for_each_backend(|store| async move {
        let leases = store.leases();
        let at = now();
        assert_eq!(acquire(leases, "a", at).await.as_deref(), Some("a"));
        // At the expiry itself the lease still runs; just after it, it is free.
        assert_eq!(acquire(leases, "b", at + Duration::minutes(1)).await, None);
        let after = at + Duration::minutes(1) + Duration::milliseconds(1);
        assert_eq!(acquire(leases, "b", after).await.as_deref(), Some("b"));
        assert_eq!(
            acquire(leases, "a", after).await,
            None,
            "the old holder has lost it"
        );
        assert!(
            !leases.release_lease(JOB, "a").await.unwrap(),
            "nor can it release it"
        );
        assert_eq!(leases.lease(JOB).await.unwrap().unwrap().holder, "b");
    })
    .await;
}

#[tokio::test]
async fn release_frees_the_lease_at_once() {
    for_each_backend(|store| async move {
        let leases = store.leases();
        let at = now();
        assert_eq!(acquire(leases, "a", at).await.as_deref(), Some("a"));
        assert!(leases.release_lease(JOB, "a").await.unwrap());
        assert_eq!(acquire(leases, "b", at).await.as_deref(), Some("b"));
        assert!(!leases.release_lease("never-taken", "a").await.unwrap());
    })
    .await;
}

#[tokio::test]
async fn wakes_are_counted_for_the_holder_whoever_holds_it() {
    for_each_backend(|store| async move {
        let leases = store.leases();
        let at = now();
        // A wake before anybody took the lease waits for its first holder.
        leases.wake_lease_holder(JOB).await.unwrap();
        let first = leases
            .acquire_lease(JOB, "a", at, at + Duration::minutes(1))
            .await
            .unwrap()
            .unwrap();
        assert_eq!((first.holder.as_str(), first.wakes), ("a", 1));
        leases.wake_lease_holder(JOB).await.unwrap();
        leases.wake_lease_holder(JOB).await.unwrap();
        let renewed = leases
            .acquire_lease(JOB, "a", at, at + Duration::minutes(2))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(renewed.wakes, 3);
        assert_eq!(acquire(leases, "b", at).await, None, "a wake takes nothing");
    })
    .await;
}

/// Many holders asking at once, round after round, each round at a time past the last
/// round's expiry: every round exactly one holder gets the lease.
#[tokio::test]
async fn concurrent_acquires_never_give_the_lease_to_two_holders() {
    for_each_backend(|store| async move {
        let start = now();
        for round in 0..5i64 {
            let at = start + Duration::minutes(2 * round);
            let asks = (0..12).map(|n| {
                let store = store.clone();
                tokio::spawn(async move {
                    let holder = format!("replica-{n}");
                    store
                        .leases()
                        .acquire_lease(JOB, &holder, at, at + Duration::minutes(1))
                        .await
                        .unwrap()
                        .map(|lease| lease.holder)
                })
            });
            let mut winners = Vec::new();
            for ask in asks {
                winners.extend(ask.await.unwrap());
            }
            assert_eq!(winners.len(), 1, "round {round}: {winners:?}");
            let lease = store.leases().lease(JOB).await.unwrap().unwrap();
            assert_eq!(lease.holder, winners[0]);
        }
    })
    .await;
}
