//! Two replicas (two holders, one store) running a periodic job: its rounds run on one of
//! them at a time, move to the other when the holder stops renewing, and a wake on the
//! replica that does not hold the lease reaches the one that does. On SQLite, and on
//! PostgreSQL when `COSTSCOPE_TEST_POSTGRES_URL` names a server.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use costscope_core::SystemClock;
use costscope_store::testing::TestDatabase;

use super::*;

const TTL: Duration = Duration::from_millis(400);

/// A job that records which replica ran each round and how many rounds ever ran at once.
struct Recorder {
    replica: &'static str,
    interval: Option<Duration>,
    lease: JobLease,
    running: Arc<AtomicUsize>,
    most_at_once: Arc<AtomicUsize>,
    rounds: Arc<Mutex<Vec<&'static str>>>,
}

impl PeriodicJob for Recorder {
    const NAME: &'static str = "test-job";

    fn interval(&self) -> Option<Duration> {
        self.interval
    }

    fn lease(&self) -> &JobLease {
        &self.lease
    }

    async fn round(&self) -> anyhow::Result<()> {
        let running = Running::start(&self.running);
        self.most_at_once.fetch_max(running.now, Ordering::SeqCst);
        // Longer than the lease: the round keeps renewing it.
        tokio::time::sleep(TTL + TTL / 2).await;
        self.rounds.lock().unwrap().push(self.replica);
        Ok(())
    }
}

/// A round under way; it ends when dropped, finished or killed with its replica.
struct Running<'a> {
    count: &'a AtomicUsize,
    now: usize,
}

impl<'a> Running<'a> {
    fn start(count: &'a AtomicUsize) -> Self {
        let now = count.fetch_add(1, Ordering::SeqCst) + 1;
        Self { count, now }
    }
}

impl Drop for Running<'_> {
    fn drop(&mut self) {
        self.count.fetch_sub(1, Ordering::SeqCst);
    }
}

struct Replicas {
    store: Arc<dyn MetadataStore>,
    running: Arc<AtomicUsize>,
    most_at_once: Arc<AtomicUsize>,
    rounds: Arc<Mutex<Vec<&'static str>>>,
}

impl Replicas {
    fn new(store: Arc<dyn MetadataStore>) -> Self {
        Self {
            store,
            running: Arc::default(),
            most_at_once: Arc::default(),
            rounds: Arc::default(),
        }
    }

    /// Starts `replica`'s loop of the job.
    fn start(
        &self,
        replica: &'static str,
        interval: Option<Duration>,
        wake: Option<Arc<Notify>>,
    ) -> tokio::task::JoinHandle<anyhow::Result<()>> {
        let lease = JobLease::new(self.store.clone(), Arc::new(SystemClock), Recorder::NAME)
            .with_times(LeaseTimes::with_ttl(TTL));
        let job = Recorder {
            replica,
            interval,
            lease,
            running: self.running.clone(),
            most_at_once: self.most_at_once.clone(),
            rounds: self.rounds.clone(),
        };
        tokio::spawn(run_while_holding(job, wake))
    }

    fn rounds(&self) -> Vec<&'static str> {
        self.rounds.lock().unwrap().clone()
    }
}

/// Runs `test` on a SQLite store, then on PostgreSQL when configured.
async fn for_each_store<F, Fut>(test: F)
where
    F: Fn(Arc<dyn MetadataStore>) -> Fut,
    Fut: Future<Output = ()>,
{
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("leases.db").display());
    let store = costscope_store::connect(&url).await.unwrap();
    store.migrate().await.unwrap();
    test(store.clone()).await;
    store.close().await;
    if let Some(database) = TestDatabase::create_if_configured().await {
        let store = costscope_store::connect(database.url()).await.unwrap();
        store.migrate().await.unwrap();
        test(store.clone()).await;
        store.close().await;
        database.drop_database().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rounds_run_on_one_replica_at_a_time_and_move_when_it_stops() {
    for_each_store(|store| async move {
        let replicas = Replicas::new(store);
        let interval = Some(Duration::from_millis(50));
        let a = replicas.start("a", interval, None);
        tokio::time::sleep(TTL / 4).await;
        let b = replicas.start("b", interval, None);
        tokio::time::sleep(TTL * 6).await;

        let rounds = replicas.rounds();
        assert!(rounds.len() >= 2, "{rounds:?}");
        assert!(rounds.iter().all(|replica| *replica == "a"), "{rounds:?}");
        assert_eq!(replicas.most_at_once.load(Ordering::SeqCst), 1);

        // "a" is killed: no release, its lease runs out, then "b" runs the rounds.
        a.abort();
        let before = replicas.rounds().len();
        tokio::time::sleep(TTL * 6).await;
        let rounds = replicas.rounds();
        assert!(!rounds[before..].is_empty(), "{rounds:?}");
        assert!(
            rounds[before..].iter().all(|replica| *replica == "b"),
            "{rounds:?}"
        );
        assert_eq!(replicas.most_at_once.load(Ordering::SeqCst), 1);
        b.abort();
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wake_on_the_replica_without_the_lease_reaches_its_holder() {
    for_each_store(|store| async move {
        let replicas = Replicas::new(store);
        let wake_a = Arc::new(Notify::new());
        let wake_b = Arc::new(Notify::new());
        // Only woken: no rounds on a schedule.
        let a = replicas.start("a", None, Some(wake_a));
        tokio::time::sleep(TTL / 4).await;
        let b = replicas.start("b", None, Some(wake_b.clone()));
        tokio::time::sleep(TTL * 3).await;
        assert_eq!(replicas.rounds(), ["a"], "the round on taking the lease");

        wake_b.notify_one();
        tokio::time::sleep(TTL * 4).await;
        assert_eq!(replicas.rounds(), ["a", "a"]);
        assert_eq!(replicas.most_at_once.load(Ordering::SeqCst), 1);
        a.abort();
        b.abort();
    })
    .await;
}
