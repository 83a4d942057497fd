//! The inventory benchmark (issue 14, "Scale"): 100k resources and 1M property snapshots for one
//! tenant, written straight into a fresh data dir's SQLite store by the store's bulk generator
//! (`costscope_store::testing::generate_inventory`), then one filtered inventory page (an
//! account, a type, live, a tag condition, 200 rows) timed over HTTP against `costscope serve`
//! on that data dir, beside the same `list_resources` query run directly on the store.
//! The figures go to their own section of docs/PERFORMANCE.md (below the bench's keep marker,
//! replaced on every run, so `--inventory` alone does not wipe the cost figures).

use std::path::Path;
use std::time::Instant;

use anyhow::{bail, Context};
use chrono::{DateTime, Utc};
use costscope_core::inventory::{
    resource_types, ResourceOrder, ResourceQuery, ResourceState, TagCondition, TagOperator,
};
use costscope_store::testing::{generate_inventory, InventoryFixture};
use costscope_store::NewCloudAccount;
use serde_json::{json, Value};

use crate::http::Server;
use crate::ingest::{EMAIL, PASSWORD};
use crate::report::Timings;
use crate::Args;

pub const RESOURCES: usize = 100_000;
pub const SNAPSHOTS_PER_RESOURCE: usize = 10;
/// Three accounts, so the account filter does not line up with the generator's other cycles
/// (types repeat every 16 resources, `team` every 4).
const ACCOUNTS: [&str; 3] = ["111111111111", "222222222222", "333333333333"];
const TYPE: &str = resource_types::EC2_INSTANCE;
const TAG_KEY: &str = "team";
const TAG_VALUE: &str = "web";
const PAGE: u32 = 200;
pub const P50_TARGET_MS: f64 = 100.0;

const SECTION_START: &str = "<!-- inventory bench: written by `costscope-bench --inventory` -->";
const SECTION_END: &str = "<!-- inventory bench: end -->";

pub struct InventoryResult {
    pub resources: usize,
    pub snapshots: u64,
    pub generate_secs: f64,
    /// Resources matching the filter (the answer's `total`).
    pub matching: u64,
    pub http: Timings,
    pub store_list: Timings,
    pub store_list_and_count: Timings,
}

pub fn run(
    runtime: &tokio::runtime::Runtime,
    bin: &Path,
    work_dir: &Path,
    args: &Args,
) -> anyhow::Result<InventoryResult> {
    let data_dir = work_dir.join("inventory");
    eprintln!(
        "[inventory] a fresh data dir with one owner: {}",
        data_dir.display()
    );
    let customer_id = crate::ingest::create_customer(bin, &data_dir)?;
    let url = format!("sqlite://{}", data_dir.join("costscope.db").display());
    let now = Utc::now();
    let generate_secs = runtime.block_on(generate(&url, customer_id, now))?;
    eprintln!("[inventory] generated {RESOURCES} resources in {generate_secs:.1} s");
    let server = Server::start(bin, &data_dir)?;
    let measured = runtime.block_on(measure(&server.base_url, &url, customer_id, now, args));
    server.stop()?;
    let (snapshots, matching, http, store_list, store_list_and_count) = measured?;
    Ok(InventoryResult {
        resources: RESOURCES,
        snapshots,
        generate_secs,
        matching,
        http,
        store_list,
        store_list_and_count,
    })
}

async fn generate(url: &str, customer_id: i64, now: DateTime<Utc>) -> anyhow::Result<f64> {
    let store = costscope_store::connect(url).await?;
    store.migrate().await?;
    let account = store
        .add_cloud_account(
            customer_id,
            NewCloudAccount {
                provider: "aws",
                account_id: ACCOUNTS[0],
                account_name: "Bench inventory",
                now,
            },
        )
        .await?;
    store.close().await;
    let started = Instant::now();
    generate_inventory(
        url,
        &InventoryFixture {
            customer_id,
            connection_id: account.id,
            account_ids: ACCOUNTS.iter().map(|a| (*a).to_owned()).collect(),
            resources: RESOURCES,
            snapshots_per_resource: SNAPSHOTS_PER_RESOURCE,
            now,
        },
    )
    .await?;
    Ok(started.elapsed().as_secs_f64())
}

/// The store-side twin of the HTTP body: what the server builds from it (live, the default
/// 30-day window ending now, newest first).
fn store_query(now: DateTime<Utc>) -> ResourceQuery {
    ResourceQuery {
        account_ids: vec![ACCOUNTS[0].to_owned()],
        resource_types: vec![TYPE.to_owned()],
        state: ResourceState::Live,
        window_start: Some(now - chrono::Duration::days(30)),
        window_end: Some(now),
        tags: vec![TagCondition {
            key: TAG_KEY.to_owned(),
            operator: TagOperator::Equal,
            values: vec![TAG_VALUE.to_owned()],
        }],
        count: PAGE,
        offset: 0,
        order_by: ResourceOrder::CTime,
        order_desc: true,
        ..ResourceQuery::default()
    }
}

type Measured = (u64, u64, Timings, Timings, Timings);

async fn measure(
    base_url: &str,
    url: &str,
    customer_id: i64,
    now: DateTime<Utc>,
    args: &Args,
) -> anyhow::Result<Measured> {
    let client = reqwest::Client::new();
    crate::http::wait_ready(&client, base_url).await?;
    let login: Value = client
        .post(format!("{base_url}/v1/auth/login"))
        .json(&json!({ "email": EMAIL, "password": PASSWORD }))
        .send()
        .await?
        .error_for_status()?
        .json()
        .await?;
    let token = login["access_token"]
        .as_str()
        .context("no access_token in the sign-in answer")?;
    let body = json!({
        "account_ids": [ACCOUNTS[0]],
        "resource_types": [TYPE],
        "d_time": { "eq": 0 },
        "tag": [{ "name": TAG_KEY, "operator": "Equal", "value": [TAG_VALUE] }],
        "count": PAGE,
    });
    let endpoint = format!("{base_url}/v1/resource");
    let send = || async {
        let response = client
            .post(&endpoint)
            .bearer_auth(token)
            .json(&body)
            .send()
            .await?;
        let status = response.status();
        let bytes = response.bytes().await?;
        if !status.is_success() {
            bail!(
                "POST /v1/resource answered {status}: {}",
                String::from_utf8_lossy(&bytes)
            );
        }
        anyhow::Ok(bytes)
    };
    for _ in 0..args.warmups {
        send().await?;
    }
    let mut samples = Vec::with_capacity(args.runs);
    let mut last = Default::default();
    for _ in 0..args.runs {
        let started = Instant::now();
        last = send().await?;
        samples.push(started.elapsed());
    }
    let answer: Value = serde_json::from_slice(&last)?;
    let http_rows = answer["resources"].as_array().map_or(0, Vec::len);
    let total = answer["total"]
        .as_u64()
        .context("no total in the /v1/resource answer")?;
    for resource in answer["resources"].as_array().into_iter().flatten() {
        anyhow::ensure!(
            resource["resource_type"] == TYPE
                && resource["account_id"] == ACCOUNTS[0]
                && resource["d_time"] == 0
                && resource["tags"][TAG_KEY] == TAG_VALUE,
            "/v1/resource answered a resource outside the filter: {resource}"
        );
    }
    let http = Timings::new(samples, http_rows);

    // The same query on the store, in-process (the server is still running: both only read).
    let store = costscope_store::connect(url).await?;
    let inventory = store.inventory();
    let query = store_query(now);
    let mut list = Vec::with_capacity(args.runs);
    let mut both = Vec::with_capacity(args.runs);
    let mut store_rows = 0;
    let mut store_total = 0;
    for _ in 0..args.warmups {
        inventory.list_resources(customer_id, &query).await?;
    }
    for _ in 0..args.runs {
        let started = Instant::now();
        store_rows = inventory.list_resources(customer_id, &query).await?.len();
        list.push(started.elapsed());
        let started = Instant::now();
        inventory.list_resources(customer_id, &query).await?;
        store_total = inventory
            .count_matching_resources(customer_id, &query)
            .await?;
        both.push(started.elapsed());
    }
    let snapshots = snapshot_count(url, customer_id).await?;
    store.close().await;
    anyhow::ensure!(
        store_rows == http_rows && store_total == total,
        "the store answered {store_rows} of {store_total} resources, HTTP {http_rows} of {total}"
    );
    Ok((
        snapshots,
        total,
        http,
        Timings::new(list, store_rows),
        Timings::new(both, store_rows),
    ))
}

async fn snapshot_count(url: &str, customer_id: i64) -> anyhow::Result<u64> {
    use sqlx::Connection as _;
    let mut connection = sqlx::SqliteConnection::connect(url).await?;
    let count: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM resource_snapshots WHERE customer_id = $1")
            .bind(customer_id)
            .fetch_one(&mut connection)
            .await?;
    connection.close().await?;
    Ok(u64::try_from(count).unwrap_or(0))
}

/// The section printed and written to docs/PERFORMANCE.md.
pub fn section(result: &InventoryResult) -> String {
    let ratio = result.http.p50() / result.store_list.p50();
    let verdict = if result.http.p50() < P50_TARGET_MS {
        "met"
    } else {
        "NOT met"
    };
    format!(
        "## Inventory (issue 14)\n\n\
         * Data: {} resources and {} property snapshots of one tenant in the SQLite store (3 \
         accounts, 6 regions, 16 resource types; 4 in 5 tagged `env`/`team`; 1 in 10 deleted), \
         written by `costscope_store::testing::generate_inventory` in {:.1} s.\n\
         * Query: one inventory page — account {}, type `{}`, live, tag `{}` Equal `{}`, count \
         {} (default 30-day window, newest first); {} resources match.\n\
         * HTTP: `POST /v1/resource` to `costscope serve` on that data dir, signed in (a page \
         and its `total`, each resource's cost joined from the — here empty — line items). \
         Store: `InventoryStore::list_resources` in-process on the same file; \"+ count\" adds \
         `count_matching_resources` as the handler does.\n\n\
         | Measure | p50 / p95 ms | rows |\n|---|---|---|\n\
         | HTTP `POST /v1/resource` | {:.1} / {:.1} | {} |\n\
         | store `list_resources` | {:.1} / {:.1} | {} |\n\
         | store `list_resources` + `count_matching_resources` | {:.1} / {:.1} | {} |\n\n\
         HTTP ÷ store `list_resources` (p50): {:.2}×. Target: HTTP p50 under {} ms — {}.\n",
        crate::report::thousands(result.resources as f64),
        crate::report::thousands(result.snapshots as f64),
        result.generate_secs,
        ACCOUNTS[0],
        TYPE,
        TAG_KEY,
        TAG_VALUE,
        PAGE,
        result.matching,
        result.http.p50(),
        result.http.p95(),
        result.http.answer_rows,
        result.store_list.p50(),
        result.store_list.p95(),
        result.store_list.answer_rows,
        result.store_list_and_count.p50(),
        result.store_list_and_count.p95(),
        result.store_list_and_count.answer_rows,
        ratio,
        P50_TARGET_MS,
        verdict,
    )
}

/// Puts the section into the report: replaces the previous inventory section, or appends it.
pub fn write(report: &Path, result: &InventoryResult) -> anyhow::Result<()> {
    let previous = std::fs::read_to_string(report).unwrap_or_default();
    let block = format!(
        "{SECTION_START}\n{}\n_Run {} with `costscope-bench --inventory` ({})._\n{SECTION_END}\n",
        section(result),
        Utc::now().format("%Y-%m-%d %H:%M UTC"),
        crate::report::machine(),
    );
    let updated = match (previous.find(SECTION_START), previous.find(SECTION_END)) {
        (Some(start), Some(end)) if end > start => format!(
            "{}{block}{}",
            &previous[..start],
            previous[end + SECTION_END.len()..].trim_start_matches('\n')
        ),
        _ => {
            let mut text = previous;
            if !text.ends_with('\n') && !text.is_empty() {
                text.push('\n');
            }
            text.push('\n');
            text.push_str(&block);
            text
        }
    };
    std::fs::write(report, updated)?;
    Ok(())
}
