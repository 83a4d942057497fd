use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use chrono::NaiveDate;
use costscope_core::cost::{
    AggregateQuery, CostFilter, CurrencyCode, ExchangeRate, Metric, Provider, TimeRange,
};
use costscope_core::{Email, SystemClock};
use costscope_engine::{
    Aggregate, BillingPeriodKey, CurrencyAmount, CustomerId, EngineError, FileSummary,
    FilterOptions, ProviderTotals, RatesPage, RatesSummary, ResourcesPage, ResourcesQuery,
    SeenAccount, SpendBreakdown,
};
use costscope_ingest::IngestError;
use costscope_store::testing::TestDatabase;
use costscope_store::{IngestJobStatus, NewCustomer, INTERRUPTED_MESSAGE};

use super::*;

/// (customer, display names, whether every file existed at load time, format)
type SeenLoad = (CustomerId, Vec<String>, bool, Option<Format>);
type Answer = Box<dyn Fn(&LoadRequest) -> Result<LoadSummary, LoadError> + Send + Sync>;

/// An engine whose `load` answers what the test says and remembers what it was asked; while
/// `stalled`, a load never ends (a load under way when its server is killed).
struct FakeEngine {
    answer: Answer,
    loads: Mutex<Vec<SeenLoad>>,
    stalled: AtomicBool,
}

impl std::fmt::Debug for FakeEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("FakeEngine")
    }
}

fn unused() -> EngineError {
    EngineError::Database("not used by these tests".into())
}

#[async_trait::async_trait]
impl CostEngine for FakeEngine {
    async fn aggregate_in(
        &self,
        _: CustomerId,
        _: &AggregateQuery,
        _: Option<&CurrencyCode>,
    ) -> Result<Aggregate, EngineError> {
        Err(unused())
    }
    async fn filter_options(
        &self,
        _: CustomerId,
        _: Option<TimeRange>,
        _: &CostFilter,
    ) -> Result<FilterOptions, EngineError> {
        Err(unused())
    }
    async fn spend_in(
        &self,
        _: CustomerId,
        _: TimeRange,
        _: &CostFilter,
        _: Metric,
        _: Option<&CurrencyCode>,
    ) -> Result<SpendBreakdown, EngineError> {
        Err(unused())
    }
    async fn accounts(&self, _: CustomerId) -> Result<Vec<SeenAccount>, EngineError> {
        Err(unused())
    }
    async fn service_spend(
        &self,
        _: CustomerId,
        _: TimeRange,
        _: &CostFilter,
        _: Metric,
    ) -> Result<Vec<costscope_engine::ServiceSpend>, EngineError> {
        Err(unused())
    }
    async fn resources_in(
        &self,
        _: CustomerId,
        _: &ResourcesQuery,
        _: Option<&CurrencyCode>,
    ) -> Result<ResourcesPage, EngineError> {
        Ok(ResourcesPage::default())
    }
    async fn data_currencies(&self, _: CustomerId) -> Result<Vec<CurrencyAmount>, EngineError> {
        Err(unused())
    }
    async fn resource_costs(
        &self,
        _: CustomerId,
        _: TimeRange,
        _: &[String],
    ) -> Result<costscope_engine::ResourceCosts, EngineError> {
        Err(unused())
    }
    async fn unmatched_resource_spend(
        &self,
        _: CustomerId,
        _: TimeRange,
        _: &[String],
        _: u32,
    ) -> Result<costscope_engine::UnmatchedSpend, EngineError> {
        Err(unused())
    }
    async fn replace_rates(
        &self,
        _: CustomerId,
        _: Vec<ExchangeRate>,
    ) -> Result<RatesSummary, EngineError> {
        Err(unused())
    }
    async fn rates_summary(&self, _: CustomerId) -> Result<RatesSummary, EngineError> {
        Err(unused())
    }
    async fn list_rates(&self, _: CustomerId, _: u64, _: u64) -> Result<RatesPage, EngineError> {
        Err(unused())
    }
    async fn clear_rates(&self, _: CustomerId) -> Result<(), EngineError> {
        Err(unused())
    }
    async fn load(
        &self,
        customer: CustomerId,
        request: LoadRequest,
    ) -> Result<LoadSummary, LoadError> {
        let names = request
            .files
            .iter()
            .map(|file| file.display_name.clone())
            .collect();
        let present = request.files.iter().all(|file| file.path.is_file());
        self.loads
            .lock()
            .unwrap()
            .push((customer, names, present, request.format));
        if self.stalled.load(Ordering::SeqCst) {
            std::future::pending::<()>().await;
        }
        (self.answer)(&request)
    }
    async fn series_costs(
        &self,
        _: CustomerId,
        _: &costscope_engine::SeriesCostsQuery,
    ) -> Result<Vec<costscope_engine::SeriesCost>, EngineError> {
        Err(unused())
    }
    async fn committed_load(
        &self,
        _: &str,
    ) -> Result<Option<(CustomerId, LoadSummary)>, EngineError> {
        // The fake keeps no markers: no load of it ever committed.
        Ok(None)
    }
    async fn latest_charge_date(&self, _: CustomerId) -> Result<Option<NaiveDate>, EngineError> {
        Ok(None)
    }
    async fn export_focus(
        &self,
        _: CustomerId,
        _: &costscope_core::focus::FocusExportRequest,
        _: &std::path::Path,
    ) -> Result<costscope_engine::ExportSummary, EngineError> {
        Err(unused())
    }
}

fn summary_for(request: &LoadRequest) -> LoadSummary {
    LoadSummary {
        rows: 3,
        replaced_rows: 1,
        files: request
            .files
            .iter()
            .map(|file| FileSummary {
                name: file.display_name.clone(),
                format: Format::Focus,
                rows: 3,
            })
            .collect(),
        billing_periods: vec![BillingPeriodKey {
            provider: Provider::Aws,
            billing_account_id: "999999999999".into(),
            billing_period_start: NaiveDate::from_ymd_opt(2026, 11, 1).unwrap(),
        }],
        totals: vec![ProviderTotals {
            provider: Provider::Aws,
            rows: 3,
            billed_cost: 10.5,
            effective_cost: 9.5,
            list_cost: 12.0,
            currency: "USD".into(),
        }],
    }
}

struct Setup {
    _dir: tempfile::TempDir,
    data_dir: PathBuf,
    store: Arc<dyn MetadataStore>,
    engine: Arc<FakeEngine>,
    worker: IngestWorker,
    customer_id: i64,
}

async fn setup(answer: Answer) -> Setup {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("costscope.db").display());
    setup_on(dir, &url, answer).await
}

/// A setup on the store at `url`, its data in `dir`.
async fn setup_on(dir: tempfile::TempDir, url: &str, answer: Answer) -> Setup {
    let data_dir = dir.path().to_owned();
    let store = costscope_store::connect(url).await.unwrap();
    store.migrate().await.unwrap();
    let email = Email::parse("olive@acme.test").unwrap();
    let (customer, _) = store
        .create_customer_with_owner(NewCustomer {
            name: "Acme",
            trial_end: SystemClock.now(),
            is_demo: false,
            owner_name: "Olive",
            owner_email: &email,
            owner_password_hash: "x",
            now: SystemClock.now(),
        })
        .await
        .unwrap();
    let engine = Arc::new(FakeEngine {
        answer,
        loads: Mutex::new(Vec::new()),
        stalled: AtomicBool::new(false),
    });
    let worker = IngestWorker::new(
        store.clone(),
        engine.clone(),
        Arc::new(SystemClock),
        data_dir.clone(),
    );
    Setup {
        _dir: dir,
        data_dir,
        store,
        engine,
        worker,
        customer_id: customer.id,
    }
}

impl Setup {
    /// Queues an upload of `names` with their files on disk, as the HTTP handler does.
    async fn queue(&self, names: &[&str], format: Option<&str>) -> i64 {
        self.queue_as(self.customer_id, names, format).await
    }

    /// Queues an upload of another customer.
    async fn queue_for(&self, customer_id: i64, names: &[&str]) -> i64 {
        self.queue_as(customer_id, names, None).await
    }

    /// A new customer's id.
    async fn customer(&self, owner_email: &str) -> i64 {
        let email = Email::parse(owner_email).unwrap();
        let (customer, _) = self
            .store
            .create_customer_with_owner(NewCustomer {
                name: "Other",
                trial_end: SystemClock.now(),
                is_demo: false,
                owner_name: "Otto",
                owner_email: &email,
                owner_password_hash: "x",
                now: SystemClock.now(),
            })
            .await
            .unwrap();
        customer.id
    }

    async fn queue_as(&self, customer_id: i64, names: &[&str], format: Option<&str>) -> i64 {
        let id = self
            .store
            .create_ingest_job(NewIngestJob {
                customer_id,
                created_by_user_id: None,
                created_by: "Olive",
                upload: None,
                source: None,
                cloud_account_id: None,
                now: SystemClock.now(),
            })
            .await
            .unwrap();
        let dir = job_dir(&self.data_dir, id);
        std::fs::create_dir_all(&dir).unwrap();
        let mut used = HashSet::new();
        let mut files = Vec::new();
        for name in names {
            std::fs::write(dir.join(next_stored_name(name, &mut used)), b"data").unwrap();
            files.push(IngestFile {
                name: (*name).to_owned(),
                bytes: 4,
                format: None,
                rows: None,
            });
        }
        let upload = IngestUpload {
            format,
            files: &files,
        };
        assert!(self.store.queue_ingest_job(id, upload).await.unwrap());
        id
    }

    async fn job(&self, id: i64) -> IngestJob {
        self.store
            .get_ingest_job(self.customer_id, id)
            .await
            .unwrap()
            .unwrap()
    }
}

#[tokio::test]
async fn run_once_is_idle_without_queued_jobs() {
    let setup = setup(Box::new(|request| Ok(summary_for(request)))).await;
    assert_eq!(setup.worker.run_once().await.unwrap(), Outcome::Idle);
}

#[tokio::test]
async fn a_queued_upload_is_loaded_recorded_and_its_files_deleted() {
    let setup = setup(Box::new(|request| Ok(summary_for(request)))).await;
    let id = setup
        .queue(&["../cur export.csv", "cur export.csv"], Some("focus"))
        .await;

    assert_eq!(
        setup.worker.run_once().await.unwrap(),
        Outcome::Succeeded { job_id: id }
    );

    let loads = setup.engine.loads.lock().unwrap().clone();
    assert_eq!(
        loads,
        vec![(
            setup.customer_id,
            vec!["../cur export.csv".to_owned(), "cur export.csv".to_owned()],
            true,
            Some(Format::Focus)
        )]
    );
    let job = setup.job(id).await;
    assert_eq!(job.status, IngestJobStatus::Succeeded);
    assert_eq!((job.rows, job.replaced_rows), (3, 1));
    assert_eq!(job.files[0].format.as_deref(), Some("focus"));
    assert_eq!(job.files[0].rows, Some(3));
    assert_eq!(job.totals[0].billed_cost, 10.5);
    assert_eq!(job.billing_periods[0].provider, "aws");
    assert!(job.finished_at.is_some());
    assert!(!job_dir(&setup.data_dir, id).exists());
    assert_eq!(setup.worker.run_once().await.unwrap(), Outcome::Idle);
}

#[tokio::test]
async fn an_upload_left_receiving_past_the_bound_is_forgotten_with_its_files() {
    let setup = setup(Box::new(|request| Ok(summary_for(request)))).await;
    let receiving_since = |now| NewIngestJob {
        customer_id: setup.customer_id,
        created_by_user_id: None,
        created_by: "Olive",
        upload: None,
        source: None,
        cloud_account_id: None,
        now,
    };
    let bound = chrono::Duration::from_std(RECEIVING_ABANDONED_AFTER).unwrap();
    let abandoned_at = SystemClock.now() - bound - chrono::Duration::minutes(1);
    let abandoned = setup
        .store
        .create_ingest_job(receiving_since(abandoned_at))
        .await
        .unwrap();
    let receiving = setup
        .store
        .create_ingest_job(receiving_since(SystemClock.now()))
        .await
        .unwrap();
    for id in [abandoned, receiving] {
        let dir = job_dir(&setup.data_dir, id);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("part.csv"), b"half an upload").unwrap();
    }

    assert_eq!(setup.worker.run_once().await.unwrap(), Outcome::Idle);
    assert!(!job_dir(&setup.data_dir, abandoned).exists());
    assert!(job_dir(&setup.data_dir, receiving).exists());
    let files = [IngestFile {
        name: "part.csv".into(),
        bytes: 14,
        format: None,
        rows: None,
    }];
    let upload = IngestUpload {
        format: None,
        files: &files,
    };
    assert!(!setup
        .store
        .queue_ingest_job(abandoned, upload)
        .await
        .unwrap());
    assert!(setup
        .store
        .queue_ingest_job(receiving, upload)
        .await
        .unwrap());
}

#[tokio::test]
async fn a_refused_file_fails_the_job_with_the_engines_message() {
    let setup = setup(Box::new(|_| {
        Err(LoadError::Invalid(IngestError::new(
            "cur.csv: row 3, column \"lineItem/UnblendedCost\": \"12,5x\" is not a number",
        )))
    }))
    .await;
    let id = setup.queue(&["cur.csv"], None).await;

    assert_eq!(
        setup.worker.run_once().await.unwrap(),
        Outcome::Failed { job_id: id }
    );
    let job = setup.job(id).await;
    assert_eq!(job.status, IngestJobStatus::Failed);
    assert_eq!(
        job.error.as_deref(),
        Some("cur.csv: row 3, column \"lineItem/UnblendedCost\": \"12,5x\" is not a number")
    );
    assert!(!job_dir(&setup.data_dir, id).exists());
}

#[tokio::test]
async fn an_engine_failure_is_reported_without_its_internals() {
    let setup = setup(Box::new(|_| {
        Err(LoadError::Engine("disk full at /var/lib/x".into()))
    }))
    .await;
    let id = setup.queue(&["cur.csv"], None).await;
    setup.worker.run_once().await.unwrap();
    assert_eq!(setup.job(id).await.error.as_deref(), Some(INTERNAL_FAILURE));
}

#[tokio::test]
async fn an_upload_whose_files_are_gone_fails_without_calling_the_engine() {
    let setup = setup(Box::new(|request| Ok(summary_for(request)))).await;
    let id = setup.queue(&["cur.csv"], None).await;
    std::fs::remove_dir_all(job_dir(&setup.data_dir, id)).unwrap();

    setup.worker.run_once().await.unwrap();
    assert_eq!(setup.job(id).await.error.as_deref(), Some(FILES_MISSING));
    assert!(setup.engine.loads.lock().unwrap().is_empty());
}

/// A short lease, so that a stopped worker's job is taken over within the test.
const TTL: Duration = Duration::from_millis(400);

impl Setup {
    /// Another replica's worker: its own holder, on the same store, engine and upload folder.
    fn replica(&self) -> IngestWorker {
        IngestWorker::new(
            self.store.clone(),
            self.engine.clone(),
            Arc::new(SystemClock),
            self.data_dir.clone(),
        )
        .holding_as(HolderId::random(), LeaseTimes::with_ttl(TTL))
    }

    /// What a server killed right after claiming `id` leaves: the job running under a lease
    /// (of `TTL`) that nobody renews.
    async fn claimed_by_a_stopped_server(&self, id: i64) {
        let now = SystemClock.now();
        let claimed = self
            .store
            .claim_next_ingest_job(IngestLease {
                holder: "stopped/server",
                now,
                until: LeaseTimes::with_ttl(TTL).until(now),
            })
            .await
            .unwrap()
            .unwrap();
        assert_eq!(claimed.job.id, id);
    }

    fn loads(&self) -> usize {
        self.engine.loads.lock().unwrap().len()
    }
}

/// Runs `test` on a SQLite file, then on PostgreSQL when `COSTSCOPE_TEST_POSTGRES_URL` names a
/// server.
async fn on_each_backend<F, Fut>(answer: fn() -> Answer, test: F)
where
    F: Fn(Setup) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    test(setup(answer()).await).await;
    if let Some(database) = TestDatabase::create_if_configured().await {
        let dir = tempfile::tempdir().unwrap();
        let setup = setup_on(dir, database.url(), answer()).await;
        let store = setup.store.clone();
        test(setup).await;
        store.close().await;
        database.drop_database().await;
    }
}

fn succeeding() -> Answer {
    Box::new(|request| Ok(summary_for(request)))
}

#[tokio::test]
async fn a_job_whose_server_stopped_is_taken_over_once_its_lease_expired_and_loaded_again() {
    on_each_backend(succeeding, |setup| async move {
        let id = setup.queue(&["cur.csv"], None).await;
        setup.claimed_by_a_stopped_server(id).await;
        let other = setup.replica();

        assert_eq!(
            other.run_once().await.unwrap(),
            Outcome::Idle,
            "its lease runs"
        );
        tokio::time::sleep(TTL + TTL / 2).await;
        assert_eq!(
            other.run_once().await.unwrap(),
            Outcome::Succeeded { job_id: id }
        );
        assert_eq!(setup.loads(), 1, "loaded again from its files");
        let job = setup.job(id).await;
        assert_eq!(job.status, IngestJobStatus::Succeeded);
        assert_eq!(job.lease_holder.as_deref(), Some(other.holder.as_str()));
        assert!(!job_dir(&setup.data_dir, id).exists());
    })
    .await;
}

#[tokio::test]
async fn a_job_taken_over_without_its_files_fails_as_interrupted() {
    on_each_backend(succeeding, |setup| async move {
        let id = setup.queue(&["cur.csv"], None).await;
        setup.claimed_by_a_stopped_server(id).await;
        std::fs::remove_dir_all(job_dir(&setup.data_dir, id)).unwrap();
        tokio::time::sleep(TTL + TTL / 2).await;

        assert_eq!(
            setup.replica().run_once().await.unwrap(),
            Outcome::Failed { job_id: id }
        );
        let job = setup.job(id).await;
        assert_eq!(job.error.as_deref(), Some(INTERRUPTED_MESSAGE));
        assert_eq!(setup.loads(), 0);
    })
    .await;
}

/// A worker killed in the middle of a load (its task dropped: no release, no more renewals):
/// while it ran, its renewals kept the job its own past the lease's time; after it stopped,
/// the other replica takes the job over once the lease expired and loads it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_load_is_renewed_while_it_runs_and_taken_over_after_its_worker_is_killed() {
    on_each_backend(succeeding, |setup| async move {
        let id = setup.queue(&["cur.csv"], None).await;
        let first = setup.replica();
        let second = setup.replica();
        setup.engine.stalled.store(true, Ordering::SeqCst);
        let killed = tokio::spawn(async move { first.run_once().await });
        while setup.loads() == 0 {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }

        tokio::time::sleep(TTL * 3).await;
        assert_eq!(
            second.run_once().await.unwrap(),
            Outcome::Idle,
            "renewed past its first expiry"
        );
        killed.abort();
        setup.engine.stalled.store(false, Ordering::SeqCst);
        tokio::time::sleep(TTL + TTL / 2).await;

        assert_eq!(
            second.run_once().await.unwrap(),
            Outcome::Succeeded { job_id: id }
        );
        assert_eq!(setup.loads(), 2);
        let job = setup.job(id).await;
        assert_eq!(job.status, IngestJobStatus::Succeeded);
        assert_eq!(job.lease_holder.as_deref(), Some(second.holder.as_str()));
    })
    .await;
}

/// Two replicas' workers draining one queue at once: every upload is loaded exactly once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_replicas_never_load_the_same_upload() {
    on_each_backend(succeeding, |setup| async move {
        let mut queued = Vec::new();
        for n in 0..4 {
            let customer_id = setup.customer(&format!("owner{n}@acme.test")).await;
            for _ in 0..3 {
                queued.push(setup.queue_for(customer_id, &["cur.csv"]).await);
            }
        }
        let drain = |worker: IngestWorker| {
            tokio::spawn(async move {
                let mut loaded = Vec::new();
                loop {
                    match worker.run_once().await.unwrap() {
                        Outcome::Idle => return loaded,
                        Outcome::Succeeded { job_id } | Outcome::Failed { job_id } => {
                            loaded.push(job_id)
                        }
                    }
                }
            })
        };
        let a = drain(setup.replica());
        let b = drain(setup.replica());
        let (mut a, b) = (a.await.unwrap(), b.await.unwrap());
        // One replica may go idle while the other still runs a tenant's load: what is left
        // waits for the next round of either.
        let mut rest = drain(setup.replica()).await.unwrap();
        a.extend(b);
        a.append(&mut rest);
        a.sort_unstable();
        assert_eq!(a, queued);
        assert_eq!(setup.loads(), queued.len());
    })
    .await;
}

#[tokio::test]
async fn a_direct_load_is_recorded_as_a_job() {
    let setup = setup(Box::new(|request| Ok(summary_for(request)))).await;
    let path = setup.data_dir.join("focus.csv");
    std::fs::write(&path, b"12345").unwrap();
    let files = [LocalFile {
        path,
        display_name: "focus.csv".into(),
    }];
    let load = DirectLoad {
        customer_id: setup.customer_id,
        files: &files,
        format: None,
        created_by: "command line",
        progress: None,
        holder: &HolderId::random(),
        lease: LeaseTimes::default(),
    };
    let summary = load_directly(
        setup.store.as_ref(),
        setup.engine.as_ref(),
        &SystemClock,
        load,
    )
    .await
    .unwrap();
    assert_eq!(summary.rows, 3);
    let jobs = setup
        .store
        .list_ingest_jobs(setup.customer_id, 10)
        .await
        .unwrap();
    assert_eq!(jobs.len(), 1);
    assert_eq!(jobs[0].status, IngestJobStatus::Succeeded);
    assert_eq!(jobs[0].created_by, "command line");
    assert_eq!(jobs[0].files[0].bytes, 5);
    assert!(jobs[0].lease_holder.is_some(), "held while it loaded");
}

#[test]
fn file_names_are_sanitised_keeping_the_extension() {
    assert_eq!(
        sanitise_file_name("cur-2026-11.csv.gz"),
        "cur-2026-11.csv.gz"
    );
    assert_eq!(sanitise_file_name("../../etc/passwd"), "passwd");
    assert_eq!(
        sanitise_file_name("C:\\exports\\my file.parquet"),
        "my_file.parquet"
    );
    assert_eq!(sanitise_file_name(".."), "upload");
    assert_eq!(sanitise_file_name(".hidden.csv"), "hidden.csv");
    assert_eq!(sanitise_file_name("coût été.csv"), "co_t__t_.csv");
    let long = format!("{}.csv", "a".repeat(300));
    assert!(sanitise_file_name(&long).ends_with(".csv"));
    assert_eq!(sanitise_file_name(&long).len(), 200);
}

#[test]
fn duplicate_names_in_one_upload_get_distinct_stored_names() {
    let file = |name: &str| IngestFile {
        name: name.into(),
        bytes: 0,
        format: None,
        rows: None,
    };
    assert_eq!(
        stored_names(&[file("a.csv"), file("x/a.csv"), file("a.csv")]),
        ["a.csv", "2-a.csv", "3-a.csv"]
    );
}
