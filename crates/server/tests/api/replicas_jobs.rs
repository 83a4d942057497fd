//! Issue 18, "Replicas": two real `costscope serve` processes on ONE metadata store (the
//! PostgreSQL of `COSTSCOPE_TEST_POSTGRES_URL`, a fresh database per test; without it, one
//! SQLite file both open) and ONE shared uploads directory (`--uploads-dir`), each with its own
//! data directory, with leases of 3 s (`[jobs] lease_seconds`). Every upload is loaded by
//! exactly one replica; a replica killed with SIGKILL mid-load has its load taken over by the
//! other once the lease has expired, loaded again from the shared files; the periodic jobs run
//! on one replica at a time and move to the survivor.
//!
//! Here each replica keeps its own DuckDB cost database in its own data directory (named
//! explicitly: `--cost-engine duckdb`): what is tested is the jobs (who runs which load, once),
//! and which replica's database holds a load tells who loaded it. replicas_clickhouse.rs runs
//! replicas on one ClickHouse database with the same [`Shared`] and [`Replica`].

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use costscope_server::config::Config;
use costscope_store::testing::TestDatabase;
use costscope_store::{IngestJobStatus, MetadataStore};
use reqwest::StatusCode;
use serde_json::{json, Value};
use tempfile::TempDir;

use crate::helpers::{
    shared_metadata_database, status_and_json, stderr_lines, PASSWORD, TEST_AUTH_SECRET,
};
use crate::ingest::{focus_row, HEADER};

/// The lease's time in these tests (the least the configuration accepts).
const LEASE: Duration = Duration::from_secs(3);
/// The budget evaluation job's lease (`BudgetEvaluator::NAME`).
const BUDGET_LEASE: &str = "budget-evaluation";

/// The metadata store and the uploads directory both replicas share (and the cost engine, when
/// it is ClickHouse).
pub(crate) struct Shared {
    database_url: String,
    postgres: Option<TestDatabase>,
    /// `--cost-engine`: `duckdb` (each replica's own file) or the shared ClickHouse database.
    cost_engine: String,
    clickhouse: Option<costscope_clickhouse::testing::TestDatabase>,
    /// The uploads directory, the SQLite file (without PostgreSQL) and the config file.
    dir: TempDir,
}

impl Shared {
    /// Replicas with a DuckDB cost database each.
    pub(crate) async fn new() -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        let (database_url, postgres) = shared_metadata_database(dir.path()).await;
        std::fs::create_dir_all(dir.path().join("uploads")).unwrap();
        std::fs::write(
            dir.path().join("costscope.toml"),
            format!("[jobs]\nlease_seconds = {}\n", LEASE.as_secs()),
        )
        .unwrap();
        Self {
            database_url,
            postgres,
            cost_engine: "duckdb".to_owned(),
            clickhouse: None,
            dir,
        }
    }

    /// Replicas sharing one fresh ClickHouse cost database (on every shard of the test servers).
    pub(crate) async fn with_clickhouse() -> Self {
        let database =
            costscope_clickhouse::testing::TestDatabase::create("costscope_replicas").await;
        Self {
            cost_engine: database.url(),
            clickhouse: Some(database),
            ..Self::new().await
        }
    }

    /// The shared ClickHouse engine, as the replicas open it (for reading what they loaded).
    pub(crate) async fn clickhouse_engine(&self) -> costscope_engine::ClickHouseEngine {
        let database = self.clickhouse.as_ref().expect("replicas on ClickHouse");
        costscope_engine::ClickHouseEngine::connect(&database.url())
            .await
            .expect("connect to the shared ClickHouse database")
    }

    pub(crate) fn uploads_dir(&self) -> PathBuf {
        self.dir.path().join("uploads")
    }

    /// The store as the replicas see it, for reading what they recorded.
    pub(crate) async fn store(&self) -> std::sync::Arc<dyn MetadataStore> {
        let mut config = Config::with_data_dir(self.dir.path());
        config.database_url = self.database_url.clone().into();
        costscope_server::startup::open_store(&config)
            .await
            .expect("open the shared store")
    }

    /// Starts a replica (its own new data directory) and waits until it listens;
    /// `COSTSCOPE_TEST_LOAD_PAUSE=<pause>` when given (its loads stop there for a minute).
    pub(crate) fn replica(&self, pause: Option<&str>) -> Replica {
        let data_dir = tempfile::tempdir().expect("temp dir");
        let mut command = Command::new(env!("CARGO_BIN_EXE_costscope"));
        command
            .arg("--config")
            .arg(self.dir.path().join("costscope.toml"))
            .arg("--data-dir")
            .arg(data_dir.path())
            .arg("--uploads-dir")
            .arg(self.uploads_dir())
            .args(["--database-url", &self.database_url])
            .args(["--cost-engine", &self.cost_engine])
            .args(["--addr", "127.0.0.1:0", "--log-format", "json", "serve"])
            .env("COSTSCOPE_AUTH_SECRET", TEST_AUTH_SECRET)
            .env("RUST_LOG", "info,sqlx=warn")
            .env_remove("COSTSCOPE_CONFIG")
            .env_remove("COSTSCOPE_DATABASE_URL")
            .env_remove("COSTSCOPE_UPLOADS_DIR")
            .env_remove("COSTSCOPE_COST_ENGINE")
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        if let Some(pause) = pause {
            command.env("COSTSCOPE_TEST_LOAD_PAUSE", pause);
        }
        let mut child = command.spawn().expect("run costscope serve");
        let lines = stderr_lines(&mut child);
        let address = loop {
            let line = lines
                .recv_timeout(Duration::from_secs(60))
                .expect("the replica says where it listens");
            let Ok(event) = serde_json::from_str::<Value>(&line) else {
                continue;
            };
            if event["fields"]["message"] == "listening" {
                break event["fields"]["addr"].as_str().unwrap().to_owned();
            }
        };
        let replica_id = std::fs::read_to_string(data_dir.path().join("replica.id"))
            .expect("the replica's id")
            .trim()
            .to_owned();
        Replica {
            child,
            lines,
            address: format!("http://{address}"),
            replica_id,
            data_dir,
            client: reqwest::Client::new(),
        }
    }

    pub(crate) async fn finish(self) {
        if let Some(database) = self.postgres {
            database.drop_database().await;
        }
        if let Some(database) = self.clickhouse {
            database.drop_database().await;
        }
    }
}

/// A running `costscope serve`; killed (SIGKILL) when dropped.
pub(crate) struct Replica {
    child: Child,
    lines: mpsc::Receiver<String>,
    address: String,
    /// Its data directory's `replica.id`: the first part of its lease holder names.
    replica_id: String,
    data_dir: TempDir,
    client: reqwest::Client,
}

impl Replica {
    pub(crate) fn url(&self, path: &str) -> String {
        format!("{}{path}", self.address)
    }

    /// Whether `holder` (a lease's) is a process of this replica.
    pub(crate) fn holds(&self, holder: &str) -> bool {
        holder.split('/').next() == Some(self.replica_id.as_str())
    }

    /// SIGKILL, as a crashed machine: nothing is released.
    pub(crate) fn kill(&mut self) {
        if self
            .child
            .try_wait()
            .expect("the replica's state")
            .is_none()
        {
            self.child.kill().expect("SIGKILL the replica");
        }
        self.child.wait().expect("reap the replica");
    }

    /// Waits (60 s at most) for the replica to log `wanted`.
    fn wait_for_log(&self, wanted: &str) {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if line.contains(wanted) => return,
                Ok(_) => {}
                Err(error) => panic!("the replica never logged {wanted:?}: {error}"),
            }
        }
    }

    /// Signs up a tenant: its owner's access token and the tenant's id.
    pub(crate) async fn signup(&self, name: &str, email: &str) -> (String, i64) {
        let response = self
            .client
            .post(self.url("/v1/auth/signup"))
            .json(&json!({"name": name, "email": email, "password": PASSWORD}))
            .send()
            .await
            .expect("POST /v1/auth/signup");
        let (status, body) = status_and_json(response).await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
        let token = body["access_token"].as_str().unwrap().to_owned();
        (token, body["user"]["customer_id"].as_i64().unwrap())
    }

    /// Uploads one CSV: the queued job's id.
    pub(crate) async fn upload(&self, token: &str, name: &str, content: Vec<u8>) -> i64 {
        let form = reqwest::multipart::Form::new().part(
            "file",
            reqwest::multipart::Part::bytes(content).file_name(name.to_owned()),
        );
        let response = self
            .client
            .post(self.url("/v1/ingest"))
            .bearer_auth(token)
            .multipart(form)
            .send()
            .await
            .expect("POST /v1/ingest");
        let (status, body) = status_and_json(response).await;
        assert_eq!(status, StatusCode::ACCEPTED, "{body}");
        body["id"].as_i64().unwrap()
    }

    /// Polls `GET /v1/ingest/{id}` until the job succeeded or failed (`within` at most).
    pub(crate) async fn wait_for_job(&self, token: &str, id: i64, within: Duration) -> Value {
        let deadline = Instant::now() + within;
        loop {
            let response = self
                .client
                .get(self.url(&format!("/v1/ingest/{id}")))
                .bearer_auth(token)
                .send()
                .await
                .expect("GET /v1/ingest/{id}");
            let (status, job) = status_and_json(response).await;
            assert_eq!(status, StatusCode::OK, "{job}");
            if job["status"] == "succeeded" || job["status"] == "failed" {
                return job;
            }
            assert!(
                Instant::now() < deadline,
                "job {id} still {} after {within:?}",
                job["status"]
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Stops the replica and answers whether its own cost database holds load `job_id` (its
    /// marker), for each of `job_ids`.
    fn stop_and_read_markers(mut self, job_ids: &[i64]) -> Vec<bool> {
        self.kill();
        let engine = costscope_server::cost_engine::open_duckdb(&Config::with_data_dir(
            self.data_dir.path(),
        ))
        .expect("open the stopped replica's cost database");
        job_ids
            .iter()
            .map(|id| {
                engine
                    .committed_load(&id.to_string())
                    .expect("read a load marker")
                    .is_some()
            })
            .collect()
    }
}

impl Drop for Replica {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A FOCUS file of one billing period (`2026-<month>`), two line items.
fn month_csv(month: u32, billed: &str) -> Vec<u8> {
    let rows = [
        focus_row("AWS", "111111111111", 2, (billed, billed, billed)),
        focus_row("AWS", "222222222222", 3, ("1", "1", "1")),
    ];
    let october = format!("{HEADER}\n{}\n", rows.join("\n"));
    october
        .replace("2026-11-01T", &format!("2026-{:02}-01T", month + 1))
        .replace("2026-10-", &format!("2026-{month:02}-"))
        .into_bytes()
}

/// Acme signed up on `a`, Globex on `b`: each owner's token and tenant id.
pub(crate) async fn two_tenants(a: &Replica, b: &Replica) -> [(String, i64); 2] {
    [
        a.signup("Acme", "ops@acme.test").await,
        b.signup("Globex", "ops@globex.test").await,
    ]
}

/// Six uploads, sent in turn to `a` (Acme's January, March, May) and `b` (Globex's February,
/// April, June), one billing period each so that none replaces another, billed `<month>0` and 1;
/// each waited for until it succeeded with its 2 rows. Each job's id, token and tenant.
pub(crate) async fn six_uploads_in_turn(
    a: &Replica,
    b: &Replica,
    tenants: &[(String, i64); 2],
) -> Vec<(i64, String, i64)> {
    let mut jobs = Vec::new();
    for month in 1..=6u32 {
        let (replica, (token, customer_id)) = if month % 2 == 1 {
            (a, &tenants[0])
        } else {
            (b, &tenants[1])
        };
        let name = format!("2026-{month:02}.csv");
        let id = replica
            .upload(token, &name, month_csv(month, &format!("{month}0")))
            .await;
        jobs.push((id, token.clone(), *customer_id));
    }
    for (id, token, _) in &jobs {
        let job = a.wait_for_job(token, *id, Duration::from_secs(60)).await;
        assert_eq!(job["status"], "succeeded", "{job}");
        assert_eq!(job["rows"], 2, "{job}");
    }
    jobs
}

/// A job whose loading replica was killed at `killed_at`.
pub(crate) struct TakenOver<'a> {
    pub(crate) token: &'a str,
    pub(crate) customer_id: i64,
    pub(crate) id: i64,
    pub(crate) killed_at: Instant,
}

impl TakenOver<'_> {
    /// Waits (`within` at most) until `survivor` has finished the job: succeeded with `rows`
    /// rows, not before the killed replica's lease could expire, held by the survivor. The job
    /// as the store records it.
    pub(crate) async fn finished_by(
        &self,
        survivor: &Replica,
        store: &dyn MetadataStore,
        rows: u64,
        within: Duration,
    ) -> costscope_store::IngestJob {
        let job = survivor.wait_for_job(self.token, self.id, within).await;
        assert_eq!(job["status"], "succeeded", "{job}");
        assert_eq!(job["rows"], rows, "{job}");
        assert!(
            self.killed_at.elapsed() >= LEASE / 2,
            "taken over before the killed replica's lease could expire: {:?}",
            self.killed_at.elapsed()
        );
        let finished = store
            .get_ingest_job(self.customer_id, self.id)
            .await
            .unwrap()
            .unwrap();
        assert!(
            survivor.holds(finished.lease_holder.as_deref().unwrap()),
            "{finished:?}"
        );
        finished
    }
}

/// The lease `name`'s holder, as the store records it.
/// Asserts that ingest job `id` succeeded, loaded by one of `replicas`: the holder its lease names.
pub async fn succeeded_on_one_of(
    store: &dyn MetadataStore,
    replicas: [&Replica; 2],
    customer_id: i64,
    id: i64,
) -> String {
    let job = store
        .get_ingest_job(customer_id, id)
        .await
        .unwrap()
        .expect("the job");
    assert_eq!(job.status, IngestJobStatus::Succeeded);
    let holder = job.lease_holder.expect("the loading replica");
    assert!(
        replicas.iter().any(|replica| replica.holds(&holder)),
        "{holder}"
    );
    holder
}

async fn lease_holder(store: &dyn MetadataStore, name: &str) -> Option<String> {
    store
        .leases()
        .lease(name)
        .await
        .expect("read a lease")
        .map(|lease| lease.holder)
}

/// Polls until `done` answers true for the lease's holder (`within` at most).
async fn wait_for_lease(
    store: &dyn MetadataStore,
    name: &str,
    within: Duration,
    done: impl Fn(&str) -> bool,
) -> String {
    let deadline = Instant::now() + within;
    loop {
        if let Some(holder) = lease_holder(store, name).await {
            if done(&holder) {
                return holder;
            }
        }
        assert!(
            Instant::now() < deadline,
            "lease {name} not moved in {within:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test]
async fn uploads_to_either_replica_are_loaded_once_and_periodic_jobs_run_on_one_at_a_time() {
    let shared = Shared::new().await;
    let store = shared.store().await;
    // One after the other: the first migrates the database.
    let a = shared.replica(None);
    let b = shared.replica(None);
    let tenants = two_tenants(&a, &b).await;
    let jobs = six_uploads_in_turn(&a, &b, &tenants).await;
    // The shared files are gone once loaded.
    assert_eq!(std::fs::read_dir(shared.uploads_dir()).unwrap().count(), 0);

    // While both run, the budget evaluation's lease stays with one of them (renewed, never
    // taken by the other): its rounds run there only.
    let first = wait_for_lease(
        store.as_ref(),
        BUDGET_LEASE,
        Duration::from_secs(10),
        |_| true,
    )
    .await;
    assert!(a.holds(&first) || b.holds(&first), "{first}");
    let watch_until = Instant::now() + LEASE * 2;
    while Instant::now() < watch_until {
        let holder = lease_holder(store.as_ref(), BUDGET_LEASE).await.unwrap();
        assert_eq!(holder, first, "the lease moved while its holder ran");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }

    // Each job was loaded by the replica its lease names, and only there.
    let mut holders = Vec::new();
    for (id, _, customer_id) in &jobs {
        holders.push(succeeded_on_one_of(store.as_ref(), [&a, &b], *customer_id, *id).await);
    }
    let ids: Vec<i64> = jobs.iter().map(|(id, _, _)| *id).collect();

    // The holder is killed: the survivor takes the budget evaluation over once the lease has
    // expired, and keeps it.
    let (mut holder, survivor) = if a.holds(&first) { (a, b) } else { (b, a) };
    holder.kill();
    let taken = wait_for_lease(store.as_ref(), BUDGET_LEASE, LEASE * 4, |holder| {
        survivor.holds(holder)
    })
    .await;
    tokio::time::sleep(LEASE).await;
    assert_eq!(
        lease_holder(store.as_ref(), BUDGET_LEASE).await.unwrap(),
        taken
    );

    let loaded_by_holder: Vec<bool> = holders.iter().map(|h| holder.holds(h)).collect();
    let in_holder = holder.stop_and_read_markers(&ids);
    let in_survivor = survivor.stop_and_read_markers(&ids);
    for (index, id) in ids.iter().enumerate() {
        assert_eq!(
            (in_holder[index], in_survivor[index]),
            (loaded_by_holder[index], !loaded_by_holder[index]),
            "job {id}: loaded where its lease says, once"
        );
    }
    shared.finish().await;
}

#[tokio::test]
async fn a_replica_killed_mid_load_has_its_load_taken_over_and_loaded_once_from_the_shared_files() {
    let shared = Shared::new().await;
    let store = shared.store().await;
    // A's loads stop just before their commit: A is killed there, mid-load.
    let mut a = shared.replica(Some("before the load's commit"));
    let (token, customer_id) = a.signup("Acme", "ops@acme.test").await;
    let id = a.upload(&token, "2026-03.csv", month_csv(3, "30")).await;
    a.wait_for_log("costscope test pause: before the load's commit");
    let running = store
        .get_ingest_job(customer_id, id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(running.status, IngestJobStatus::Running);
    assert!(a.holds(running.lease_holder.as_deref().unwrap()));

    // B starts while A loads (so that A, not B, claimed the upload), then A is killed.
    let b = shared.replica(None);
    a.kill();
    let killed_at = Instant::now();
    let taken = TakenOver {
        token: &token,
        customer_id,
        id,
        killed_at,
    };
    let loaded = taken
        .finished_by(&b, store.as_ref(), 2, Duration::from_secs(30))
        .await;
    assert!(
        !job_dir_exists(&shared, id),
        "the shared files are deleted once loaded"
    );

    // Not run again: a lease's time later the job is as B finished it.
    tokio::time::sleep(LEASE * 2).await;
    let later = store
        .get_ingest_job(customer_id, id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(later.status, IngestJobStatus::Succeeded);
    assert_eq!(later.finished_at, loaded.finished_at);
    assert_eq!(later.lease_holder, loaded.lease_holder);

    // Loaded once: into B's cost database, never committed into A's.
    assert_eq!(b.stop_and_read_markers(&[id]), [true]);
    assert_eq!(a.stop_and_read_markers(&[id]), [false]);
    shared.finish().await;
}

fn job_dir_exists(shared: &Shared, id: i64) -> bool {
    shared.uploads_dir().join(id.to_string()).exists()
}
