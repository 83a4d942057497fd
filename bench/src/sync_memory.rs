//! `costscope-bench --sync-memory` (`make bench-sync`, issue 13): the peak resident memory of
//! `costscope serve` while its sync job pulls a big AWS Data Export through the real AWS
//! connector and loads it.
//!
//! moto (the tests' AWS emulator) holds one billing period delivered as AWS Data Exports
//! delivers it: several gzip FOCUS CSV parts under `<prefix>/<export>/data/BILLING_PERIOD=…/`
//! (uploaded with multipart uploads, as big objects are) and the manifest listing them under
//! `<prefix>/<export>/metadata/BILLING_PERIOD=…/<export>-Manifest.json`. A real
//! `costscope serve` whose `[cloud] aws_endpoint_url` is moto gets a tenant (sign-up), the AWS
//! connection with those export settings (`POST /v1/register`) and "Sync now"
//! (`POST /v1/account/{id}/sync`); the server's `VmRSS` and `VmHWM` are read from
//! `/proc/<pid>/status` every 50 ms until the sync has loaded the period. The load must hold
//! exactly the generated rows and billed total (to the cent).

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{bail, ensure, Context};
use aws_sdk_s3::primitives::{ByteStream, Length};
use aws_sdk_s3::types::{CompletedMultipartUpload, CompletedPart};
use chrono::{DateTime, Utc};
use costscope_connectors::settings::AwsExportSettings;
use costscope_connectors::testing::moto::{Moto, MOTO_ACCOUNT_ID, MOTO_REGION};
use serde_json::{json, Value};

use crate::generate::{select_rows_sql, Span, CSV_NUMBERS, MACROS};
use crate::memory::vm_hwm_bytes;

/// How often the server's memory is read.
const SAMPLE_EVERY: Duration = Duration::from_millis(50);
/// How often the connection's sync state is asked for.
const POLL_EVERY: Duration = Duration::from_millis(500);
/// The longest the bench waits for the sync (a 1 GiB delivery takes minutes on 2 cores).
const SYNC_GIVE_UP: Duration = Duration::from_secs(4 * 3600);
/// Objects bigger than this are uploaded in parts of this size.
const MULTIPART_CHUNK: u64 = 16 << 20;
/// A delivery is split into a part per this much gzip (at least two parts).
const PART_TARGET_BYTES: u64 = 128 << 20;
/// Rows generated to learn how many gzip bytes a row takes.
const CALIBRATION_ROWS: u64 = 100_000;

/// The billing period delivered: October 2026, every row AWS's.
const MONTH: &str = "2026-10";
const FIRST_DAY: &str = "2026-10-01";
const DAYS: u32 = 31;

const BUCKET: &str = "costscope-bench-exports";
const PREFIX: &str = "costscope";
const EXPORT_NAME: &str = "costscope-focus";
const ROLE_NAME: &str = "CostscopeReadOnly";
const EXTERNAL_ID: &str = "costscope-bench-external-id";
const EMAIL: &str = "sync-bench@costscope.dev";
const PASSWORD: &str = "costscope-sync-bench";

/// One generated delivery (reused by later runs of the same size).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Delivery {
    pub parts: Vec<Part>,
    pub rows: u64,
    /// The exact sum of the rows' `BilledCost` (DuckDB's DECIMAL sum, as text).
    pub billed_total: String,
}

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Part {
    pub name: String,
    pub path: PathBuf,
    pub bytes: u64,
    pub rows: u64,
}

impl Delivery {
    pub fn gzip_bytes(&self) -> u64 {
        self.parts.iter().map(|part| part.bytes).sum()
    }
}

/// What one sync measured.
#[derive(Debug)]
pub struct SyncMemory {
    pub delivery: Delivery,
    /// `--load-memory-limit` given to the server (`None`: Costscope's default).
    pub memory_limit: Option<String>,
    /// The server's resident set before "Sync now" (signed up, connection registered).
    pub idle_rss_bytes: u64,
    /// `VmHWM` when the sync had finished: the peak of the whole run.
    pub peak_rss_bytes: u64,
    /// The largest `VmRSS` sampled while listing and downloading, and while loading.
    pub download_peak_rss_bytes: u64,
    pub load_peak_rss_bytes: u64,
    /// From the sync's start to the ingest job's start (listing, downloading, queueing).
    pub download: Duration,
    /// The ingest job's load.
    pub load: Duration,
    /// The whole sync (its start to its end, as the connection records them).
    pub sync_wall: Duration,
    /// Rows and billed total of the load (`GET /v1/ingest`).
    pub loaded_rows: u64,
    pub loaded_billed: f64,
    /// The largest size seen of DuckDB's spill directory (`costs.duckdb.tmp`), read every second.
    pub peak_spill_bytes: u64,
    pub samples: usize,
}

/// Generates (or reuses) a delivery of about `gzip_mib` MiB, puts it in moto, and measures a
/// server syncing it.
pub fn run(
    runtime: &tokio::runtime::Runtime,
    bin: &Path,
    work_dir: &Path,
    gzip_mib: u64,
    memory_limit: Option<&str>,
) -> anyhow::Result<SyncMemory> {
    ensure!(gzip_mib > 0, "--sync-gzip-mib must be at least 1");
    let dir = work_dir.join(format!("sync-{gzip_mib}"));
    eprintln!("[sync] generating about {gzip_mib} MiB of gzip FOCUS CSV (reused when present)");
    let delivery = ensure_delivery(&dir, gzip_mib)?;
    eprintln!(
        "[sync] {} parts, {} rows, {} MiB gzip; starting moto",
        delivery.parts.len(),
        delivery.rows,
        delivery.gzip_bytes() >> 20
    );
    let moto = Moto::start();
    let settings = moto.export_settings(
        &format!("arn:aws:iam::{MOTO_ACCOUNT_ID}:role/{ROLE_NAME}"),
        EXTERNAL_ID,
        BUCKET,
        PREFIX,
        EXPORT_NAME,
    );
    let started = Instant::now();
    runtime.block_on(deliver(&moto, &settings, &delivery))?;
    eprintln!(
        "[sync] delivered to moto in {:.1} s; starting costscope serve",
        started.elapsed().as_secs_f64()
    );
    let data_dir = dir.join("data");
    if data_dir.exists() {
        std::fs::remove_dir_all(&data_dir)?;
    }
    std::fs::create_dir_all(&data_dir)?;
    let config = dir.join("costscope.toml");
    std::fs::write(
        &config,
        format!(
            "[cloud]\nsync_interval_hours = 0\nsync_timeout_seconds = {}\naws_endpoint_url = \"{}\"\n",
            SYNC_GIVE_UP.as_secs(),
            moto.endpoint()
        ),
    )?;
    let server = Server::start(bin, &data_dir, &config, memory_limit)?;
    let sampler = Sampler::start(server.child.id(), data_dir.join("costs.duckdb.tmp"));
    let measured = runtime.block_on(sync(&server.base_url, &settings, &sampler));
    let samples = sampler.stop();
    server.stop()?;
    drop(moto);
    let measured = measured?;
    std::fs::remove_dir_all(&data_dir)?;
    Ok(summarise(delivery, memory_limit, measured, &samples))
}

/// What the HTTP side saw.
struct Measured {
    idle_rss_bytes: u64,
    sync_started: DateTime<Utc>,
    sync_finished: DateTime<Utc>,
    load_started: DateTime<Utc>,
    load_finished: DateTime<Utc>,
    loaded_rows: u64,
    loaded_billed: f64,
}

fn summarise(
    delivery: Delivery,
    memory_limit: Option<&str>,
    measured: Measured,
    samples: &Samples,
) -> SyncMemory {
    let peak_between = |from: DateTime<Utc>, to: DateTime<Utc>| {
        samples
            .points
            .iter()
            .filter(|point| point.at >= from && point.at <= to)
            .map(|point| point.rss)
            .max()
            .unwrap_or(0)
    };
    let duration =
        |from: DateTime<Utc>, to: DateTime<Utc>| (to - from).to_std().unwrap_or_default();
    SyncMemory {
        memory_limit: memory_limit.map(str::to_owned),
        idle_rss_bytes: measured.idle_rss_bytes,
        peak_rss_bytes: samples
            .points
            .iter()
            .map(|point| point.hwm)
            .max()
            .unwrap_or(0),
        download_peak_rss_bytes: peak_between(measured.sync_started, measured.load_started),
        load_peak_rss_bytes: peak_between(measured.load_started, measured.sync_finished),
        download: duration(measured.sync_started, measured.load_started),
        load: duration(measured.load_started, measured.load_finished),
        sync_wall: duration(measured.sync_started, measured.sync_finished),
        loaded_rows: measured.loaded_rows,
        loaded_billed: measured.loaded_billed,
        peak_spill_bytes: samples.peak_spill_bytes,
        samples: samples.points.len(),
        delivery,
    }
}

/// Writes the delivery's parts into `dir` (or reuses them: `delivery.json` is written last).
fn ensure_delivery(dir: &Path, gzip_mib: u64) -> anyhow::Result<Delivery> {
    let described = dir.join("delivery.json");
    if let Ok(text) = std::fs::read_to_string(&described) {
        let delivery: Delivery = serde_json::from_str(&text)?;
        if delivery.parts.iter().all(|part| part.path.exists()) {
            return Ok(delivery);
        }
    }
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let db = duckdb::Connection::open_in_memory()?;
    db.execute_batch(MACROS)?;
    // How many gzip bytes a row takes, from a small sample of the same shape.
    let sample = dir.join("calibration.csv.gz");
    write_gzip_csv(&db, &span(CALIBRATION_ROWS, 0, CALIBRATION_ROWS), &sample)?;
    let bytes_per_row = std::fs::metadata(&sample)?.len() as f64 / CALIBRATION_ROWS as f64;
    std::fs::remove_file(&sample)?;
    let target = gzip_mib << 20;
    let total = ((target as f64 / bytes_per_row) as u64).max(1000);
    let count = target.div_ceil(PART_TARGET_BYTES).max(2);
    let mut parts = Vec::new();
    for index in 0..count {
        let (from, to) = (total * index / count, total * (index + 1) / count);
        let name = format!("{EXPORT_NAME}-{:05}.csv.gz", index + 1);
        let path = dir.join(&name);
        eprintln!("[sync] writing {name} (rows {from}..{to} of {total})");
        let tmp = dir.join(format!("{name}.tmp"));
        write_gzip_csv(&db, &span(total, from, to), &tmp)?;
        std::fs::rename(&tmp, &path)?;
        parts.push(Part {
            bytes: std::fs::metadata(&path)?.len(),
            rows: to - from,
            name,
            path,
        });
    }
    // The same deterministic rows again, only the columns the total needs (DuckDB prunes the
    // rest), summed exactly.
    let (rows, billed_total): (u64, String) = db.query_row(
        &format!(
            "SELECT count(*), sum(BilledCost)::VARCHAR FROM ({})",
            select_rows_sql(&span(total, 0, total))
        ),
        [],
        |row| Ok((row.get(0)?, row.get(1)?)),
    )?;
    ensure!(rows == total, "generated {rows} rows, meant {total}");
    let delivery = Delivery {
        parts,
        rows,
        billed_total,
    };
    std::fs::write(&described, serde_json::to_string_pretty(&delivery)?)?;
    Ok(delivery)
}

fn span(total: u64, from: u64, to: u64) -> Span<'static> {
    Span {
        total,
        from,
        to,
        first_day: FIRST_DAY,
        days: DAYS,
        aws_only: true,
    }
}

/// The rows of `span` as a gzip CSV file, as an export writes them.
fn write_gzip_csv(db: &duckdb::Connection, span: &Span<'_>, path: &Path) -> anyhow::Result<()> {
    db.execute_batch(&format!(
        "COPY (SELECT * REPLACE ({CSV_NUMBERS}) FROM ({select})) TO '{path}'
             (FORMAT csv, HEADER, COMPRESSION gzip, TIMESTAMPFORMAT '%Y-%m-%dT%H:%M:%SZ');",
        select = select_rows_sql(span),
        path = path.display(),
    ))
    .with_context(|| format!("writing {}", path.display()))
}

/// The bucket and the role the onboarding template would create, the parts, then the manifest.
async fn deliver(
    moto: &Moto,
    settings: &AwsExportSettings,
    delivery: &Delivery,
) -> anyhow::Result<()> {
    moto.create_bucket(BUCKET).await;
    moto.create_role(ROLE_NAME, EXTERNAL_ID).await;
    let s3 = moto.sdk().s3();
    let mut keys = Vec::new();
    for part in &delivery.parts {
        let key = Moto::data_export_key(settings, MONTH, &part.name);
        upload(&s3, &key, &part.path, part.bytes).await?;
        keys.push(key);
    }
    moto.put_data_export_manifest(settings, MONTH, &keys).await;
    Ok(())
}

/// Puts a file, in parts of [`MULTIPART_CHUNK`] when it is bigger.
async fn upload(s3: &aws_sdk_s3::Client, key: &str, path: &Path, size: u64) -> anyhow::Result<()> {
    if size <= MULTIPART_CHUNK {
        s3.put_object()
            .bucket(BUCKET)
            .key(key)
            .body(ByteStream::from_path(path).await?)
            .send()
            .await
            .with_context(|| format!("moto: put {key}"))?;
        return Ok(());
    }
    let created = s3
        .create_multipart_upload()
        .bucket(BUCKET)
        .key(key)
        .send()
        .await
        .with_context(|| format!("moto: create multipart upload {key}"))?;
    let upload_id = created.upload_id().context("no upload id")?;
    let mut parts = Vec::new();
    let mut offset = 0;
    let mut number = 1;
    while offset < size {
        let length = MULTIPART_CHUNK.min(size - offset);
        let body = ByteStream::read_from()
            .path(path)
            .offset(offset)
            .length(Length::Exact(length))
            .build()
            .await?;
        let answer = s3
            .upload_part()
            .bucket(BUCKET)
            .key(key)
            .upload_id(upload_id)
            .part_number(number)
            .body(body)
            .send()
            .await
            .with_context(|| format!("moto: upload part {number} of {key}"))?;
        parts.push(
            CompletedPart::builder()
                .part_number(number)
                .e_tag(answer.e_tag().unwrap_or_default())
                .build(),
        );
        offset += length;
        number += 1;
    }
    s3.complete_multipart_upload()
        .bucket(BUCKET)
        .key(key)
        .upload_id(upload_id)
        .multipart_upload(
            CompletedMultipartUpload::builder()
                .set_parts(Some(parts))
                .build(),
        )
        .send()
        .await
        .with_context(|| format!("moto: complete multipart upload {key}"))?;
    Ok(())
}

/// Sign-up, the AWS connection, "Sync now", then waits for the sync to have loaded the period.
async fn sync(
    base_url: &str,
    settings: &AwsExportSettings,
    sampler: &Sampler,
) -> anyhow::Result<Measured> {
    let client = reqwest::Client::new();
    wait_ready(&client, base_url).await?;
    let signed_up = call(
        &client,
        reqwest::Method::POST,
        &format!("{base_url}/v1/auth/signup"),
        None,
        Some(json!({ "name": "Sync Bench", "email": EMAIL, "password": PASSWORD })),
    )
    .await?;
    let token = signed_up["access_token"]
        .as_str()
        .context("no access_token in the sign-up answer")?
        .to_owned();
    let registered = call(
        &client,
        reqwest::Method::POST,
        &format!("{base_url}/v1/register"),
        Some(&token),
        Some(json!({
            "aws_account_id": MOTO_ACCOUNT_ID,
            "account_name": "Sync bench",
            "iam_role_arn": settings.role_arn,
            "external_id": settings.external_id,
            "export_bucket": settings.bucket,
            "export_prefix": settings.prefix,
            "export_name": settings.export_name,
            "export_region": MOTO_REGION,
        })),
    )
    .await?;
    let id = registered["id"]
        .as_i64()
        .with_context(|| format!("no connection id in {registered}"))?;
    let idle_rss_bytes = sampler.current_rss();
    call(
        &client,
        reqwest::Method::POST,
        &format!("{base_url}/v1/account/{id}/sync"),
        Some(&token),
        Some(json!({})),
    )
    .await?;
    let asked = Instant::now();
    // A new connection that passed its check syncs unasked too: whichever sync loads the
    // period is the one measured.
    let sync = loop {
        let accounts = call(
            &client,
            reqwest::Method::GET,
            &format!("{base_url}/v1/account"),
            Some(&token),
            None,
        )
        .await?;
        let account = accounts
            .as_array()
            .and_then(|list| list.iter().find(|account| account["id"] == id))
            .with_context(|| format!("connection {id} is not listed: {accounts}"))?;
        let sync = &account["sync"];
        match sync["state"].as_str() {
            Some("failed") => bail!("the sync failed: {}", sync["last_error"]),
            Some("succeeded")
                if sync["last_details"]
                    .as_str()
                    .is_some_and(|details| details.starts_with("Loaded")) =>
            {
                break sync.clone();
            }
            _ => {}
        }
        ensure!(
            asked.elapsed() < SYNC_GIVE_UP,
            "the sync did not finish within {} s: {sync}",
            SYNC_GIVE_UP.as_secs()
        );
        tokio::time::sleep(POLL_EVERY).await;
    };
    eprintln!("[sync] {}", sync["last_details"]);
    let loads = call(
        &client,
        reqwest::Method::GET,
        &format!("{base_url}/v1/ingest"),
        Some(&token),
        None,
    )
    .await?;
    let load = loads
        .as_array()
        .and_then(|list| {
            list.iter()
                .find(|load| load["cloud_account_id"] == id && load["status"] == "succeeded")
        })
        .with_context(|| format!("no load of the sync in the history: {loads}"))?;
    let time = |value: &Value, what: &str| -> anyhow::Result<DateTime<Utc>> {
        let text = value.as_str().with_context(|| format!("no {what}"))?;
        Ok(DateTime::parse_from_rfc3339(text)
            .with_context(|| format!("{what} {text:?}"))?
            .with_timezone(&Utc))
    };
    let loaded_billed = load["totals"]
        .as_array()
        .context("no totals")?
        .iter()
        .map(|totals| totals["billed_cost"].as_f64().unwrap_or(f64::NAN))
        .sum();
    Ok(Measured {
        idle_rss_bytes,
        sync_started: time(&sync["last_started_at"], "sync start")?,
        sync_finished: time(&sync["last_finished_at"], "sync end")?,
        load_started: time(&load["started_at"], "load start")?,
        load_finished: time(&load["finished_at"], "load end")?,
        loaded_rows: load["rows"].as_u64().context("no rows")?,
        loaded_billed,
    })
}

/// One API call answering JSON; an error with the answer when it is not a success.
async fn call(
    client: &reqwest::Client,
    method: reqwest::Method,
    url: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> anyhow::Result<Value> {
    let mut request = client.request(method.clone(), url);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    if let Some(body) = body {
        request = request.json(&body);
    }
    let response = request.send().await?;
    let status = response.status();
    let text = response.text().await?;
    ensure!(
        status.is_success(),
        "{method} {url} answered {status}: {text}"
    );
    serde_json::from_str(&text).with_context(|| format!("{method} {url} answered {text}"))
}

async fn wait_ready(client: &reqwest::Client, base_url: &str) -> anyhow::Result<()> {
    for _ in 0..600 {
        if let Ok(response) = client.get(format!("{base_url}/readyz")).send().await {
            if response.status().is_success() {
                return Ok(());
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    bail!("{base_url}/readyz did not answer 200 within a minute")
}

/// `costscope serve` with the bench's config; its log goes to `serve.log` in the data dir.
struct Server {
    child: Child,
    base_url: String,
}

impl Server {
    fn start(
        bin: &Path,
        data_dir: &Path,
        config: &Path,
        memory_limit: Option<&str>,
    ) -> anyhow::Result<Self> {
        use std::io::{BufRead, BufReader};
        let log = std::fs::File::create(data_dir.join("serve.log"))?;
        let mut command = Command::new(bin);
        command
            .arg("--data-dir")
            .arg(data_dir)
            .arg("--config")
            .arg(config)
            .args(["--addr", "127.0.0.1:0"]);
        if let Some(limit) = memory_limit {
            command.args(["--load-memory-limit", limit]);
        }
        let mut child = command
            .arg("serve")
            .env_remove("COSTSCOPE_DATABASE_URL")
            .env_remove("COSTSCOPE_CONFIG")
            .env_remove("COSTSCOPE_LOAD_MEMORY_LIMIT")
            .env_remove("AWS_ENDPOINT_URL")
            .stdout(Stdio::piped())
            .stderr(log)
            .spawn()
            .context("starting costscope serve")?;
        let mut lines = BufReader::new(child.stdout.take().context("no stdout")?).lines();
        let mut base_url = None;
        for line in lines.by_ref() {
            if let Some(url) = line?.split("running at ").nth(1) {
                base_url = Some(url.trim().to_owned());
                break;
            }
        }
        // Keep reading so the server never blocks on a full pipe.
        std::thread::spawn(move || lines.for_each(drop));
        match base_url {
            Some(base_url) => Ok(Self { child, base_url }),
            None => {
                let _ = child.kill();
                let _ = child.wait();
                bail!(
                    "costscope serve exited early; see {}/serve.log",
                    data_dir.display()
                )
            }
        }
    }

    fn stop(mut self) -> anyhow::Result<()> {
        Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()?;
        self.child.wait()?;
        Ok(())
    }
}

/// One reading of the server's `/proc/<pid>/status`.
struct Point {
    at: DateTime<Utc>,
    rss: u64,
    hwm: u64,
}

#[derive(Default)]
struct Samples {
    points: Vec<Point>,
    peak_spill_bytes: u64,
}

/// Reads the server's memory every [`SAMPLE_EVERY`] on its own thread.
struct Sampler {
    stop: Arc<AtomicBool>,
    samples: Arc<Mutex<Samples>>,
    thread: std::thread::JoinHandle<()>,
}

impl Sampler {
    fn start(pid: u32, spill_dir: PathBuf) -> Self {
        let stop = Arc::new(AtomicBool::new(false));
        let samples = Arc::new(Mutex::new(Samples::default()));
        let status_path = PathBuf::from(format!("/proc/{pid}/status"));
        let thread = {
            let (stop, samples) = (Arc::clone(&stop), Arc::clone(&samples));
            std::thread::spawn(move || {
                let mut round = 0u64;
                while !stop.load(Ordering::Relaxed) {
                    if let Ok(status) = std::fs::read_to_string(&status_path) {
                        if let (Some(rss), Some(hwm)) =
                            (vm_rss_bytes(&status), vm_hwm_bytes(&status))
                        {
                            let mut samples = samples.lock().unwrap_or_else(|e| e.into_inner());
                            samples.points.push(Point {
                                at: Utc::now(),
                                rss,
                                hwm,
                            });
                            if round.is_multiple_of(20) {
                                let spill = dir_bytes(&spill_dir);
                                samples.peak_spill_bytes = samples.peak_spill_bytes.max(spill);
                            }
                        }
                    }
                    round += 1;
                    std::thread::sleep(SAMPLE_EVERY);
                }
            })
        };
        Self {
            stop,
            samples,
            thread,
        }
    }

    /// The last `VmRSS` read.
    fn current_rss(&self) -> u64 {
        let samples = self.samples.lock().unwrap_or_else(|e| e.into_inner());
        samples.points.last().map_or(0, |point| point.rss)
    }

    fn stop(self) -> Samples {
        self.stop.store(true, Ordering::Relaxed);
        let _ = self.thread.join();
        std::mem::take(&mut *self.samples.lock().unwrap_or_else(|e| e.into_inner()))
    }
}

/// `VmRSS:   123456 kB` → bytes.
fn vm_rss_bytes(status: &str) -> Option<u64> {
    let line = status.lines().find(|line| line.starts_with("VmRSS:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// The bytes of the files under `dir` (0 when it does not exist).
fn dir_bytes(dir: &Path) -> u64 {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    entries
        .flatten()
        .map(|entry| match entry.metadata() {
            Ok(meta) if meta.is_dir() => dir_bytes(&entry.path()),
            Ok(meta) => meta.len(),
            Err(_) => 0,
        })
        .sum()
}

/// The run's figures, for people; an error when the load does not hold what was generated.
pub fn report(run: &SyncMemory) -> anyhow::Result<String> {
    let mib = |bytes: u64| format!("{} MiB", bytes >> 20);
    let generated: f64 = run
        .delivery
        .billed_total
        .parse()
        .context("the generated billed total")?;
    let rows_ok = run.loaded_rows == run.delivery.rows;
    let cents_ok = (run.loaded_billed * 100.0).round() == (generated * 100.0).round();
    let text = format!(
        "Sync of one AWS Data Export billing period ({MONTH}) from moto by `costscope serve`\n\
         * delivery: {parts} gzip FOCUS CSV parts, {gzip} ({gzip_bytes} bytes), {rows} rows, \
           billed {generated_total}\n\
         * load memory limit: {limit}\n\
         * loaded: {loaded_rows} rows ({rows_check}), billed {loaded_billed:.2} ({cents_check})\n\
         * sync wall time {wall:.1} s: listing and downloading {download:.1} s, loading {load:.1} s\n\
         * server resident memory: idle {idle}, peak (VmHWM) {peak} ({peak_bytes} bytes); \
           largest VmRSS while downloading {download_peak}, while loading {load_peak}\n\
         * DuckDB spill directory at most {spill}; {samples} samples every {every} ms",
        parts = run.delivery.parts.len(),
        gzip = mib(run.delivery.gzip_bytes()),
        gzip_bytes = run.delivery.gzip_bytes(),
        rows = run.delivery.rows,
        generated_total = run.delivery.billed_total,
        limit = run
            .memory_limit
            .as_deref()
            .unwrap_or("Costscope's default"),
        loaded_rows = run.loaded_rows,
        rows_check = if rows_ok { "equal" } else { "DIFFERENT" },
        loaded_billed = run.loaded_billed,
        cents_check = if cents_ok {
            "equal to the cent"
        } else {
            "DIFFERENT"
        },
        wall = run.sync_wall.as_secs_f64(),
        download = run.download.as_secs_f64(),
        load = run.load.as_secs_f64(),
        idle = mib(run.idle_rss_bytes),
        peak = mib(run.peak_rss_bytes),
        peak_bytes = run.peak_rss_bytes,
        download_peak = mib(run.download_peak_rss_bytes),
        load_peak = mib(run.load_peak_rss_bytes),
        spill = mib(run.peak_spill_bytes),
        samples = run.samples,
        every = SAMPLE_EVERY.as_millis(),
    );
    ensure!(rows_ok && cents_ok, "{text}");
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::{dir_bytes, vm_rss_bytes};

    #[test]
    fn reads_the_resident_set_in_bytes() {
        let status = "Name:\tcostscope\nVmHWM:\t    1536 kB\nVmRSS:\t 1000 kB\n";
        assert_eq!(vm_rss_bytes(status), Some(1000 * 1024));
        assert_eq!(vm_rss_bytes("Name:\tx\n"), None);
    }

    #[test]
    fn a_directory_weighs_its_files_and_a_missing_one_nothing() {
        let dir = std::env::temp_dir().join(format!("costscope-bench-dir-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("inner")).unwrap();
        std::fs::write(dir.join("a"), [0u8; 10]).unwrap();
        std::fs::write(dir.join("inner/b"), [0u8; 5]).unwrap();
        assert_eq!(dir_bytes(&dir), 15);
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(dir_bytes(&dir), 0);
    }
}
