//! The ClickHouse side of the bench: a fresh `bench_<rows>` database on every shard of the
//! `--clickhouse-url` cluster, the same Parquet files the DuckDB side loaded sent through the
//! ClickHouse cost engine's load (in-process, one load per file as `costscope ingest` does),
//! and the bytes its tables then hold on disk (`system.parts`).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::Context;
use costscope_clickhouse::{literal, Client};
use costscope_engine::{
    ClickHouseEngine, CustomerId, LoadRequest, LoadSettings, SourceFile,
    DEFAULT_LOAD_MEMORY_LIMIT,
};

/// The table of line items on each shard (the engine's `schema::LINE_ITEMS`).
const LINE_ITEMS_TABLE: &str = "cost_line_items_local";

/// `base` (`--clickhouse-url`) with its database replaced by `bench_<rows>`.
pub fn url_for(base: &str, rows: u64) -> anyhow::Result<String> {
    with_database(base, &format!("bench_{rows}"))
}

fn with_database(base: &str, database: &str) -> anyhow::Result<String> {
    let mut url = reqwest::Url::parse(base).with_context(|| "--clickhouse-url".to_owned())?;
    url.set_path(&format!("/{database}"));
    Ok(url.to_string())
}

/// The shards of `url` (the one server without a cluster), through their `default` database.
async fn shards(url: &str) -> anyhow::Result<Vec<Client>> {
    let entry = Client::from_url(&with_database(url, "default")?)?;
    Ok(match entry.url().cluster() {
        Some(_) => entry.shards().await?,
        None => vec![entry],
    })
}

/// Whether every shard of `url` answers (what `--engines` defaults on), with the server's
/// release when it does.
pub async fn answers(url: &str) -> Option<String> {
    let shards = shards(url).await.ok()?;
    let mut version = None;
    for shard in &shards {
        version = Some(shard.server_version().await.ok()?.to_string());
    }
    version
}

/// What the ClickHouse side measured of one size.
pub struct ClickHouseLoad {
    /// `url` without its password.
    pub url: String,
    pub server_version: String,
    pub shards: usize,
    /// The loads' wall time, summed over the files.
    pub wall: Duration,
    pub files: usize,
    /// The rows the loads say they loaded.
    pub rows: u64,
    pub storage: Storage,
}

/// `system.parts` of the bench database, summed over the shards.
pub struct Storage {
    /// Every table's active parts: the line items and whatever the engine keeps beside them.
    pub bytes_on_disk: u64,
    pub line_item_bytes: u64,
    pub line_item_rows: u64,
}

/// Drops and creates the size's database on every shard, connects the engine to it (which
/// creates its tables) and loads `files` for `customer`, one load each.
pub async fn load(
    url: &str,
    customer: CustomerId,
    files: &[PathBuf],
    spill_dir: &Path,
) -> anyhow::Result<(ClickHouseEngine, ClickHouseLoad)> {
    let shards = shards(url).await?;
    let entry = Client::from_url(url)?;
    let database = literal::identifier(entry.url().database());
    for shard in &shards {
        shard
            .execute(&format!("DROP DATABASE IF EXISTS {database}"))
            .await?;
        shard.execute(&format!("CREATE DATABASE {database}")).await?;
    }
    let engine = ClickHouseEngine::connect(url).await?;
    engine.configure(&LoadSettings {
        memory_limit: DEFAULT_LOAD_MEMORY_LIMIT,
        temp_directory: Some(spill_dir.to_owned()),
    });
    let (mut wall, mut rows) = (Duration::ZERO, 0);
    for (n, file) in files.iter().enumerate() {
        let request = LoadRequest {
            load_id: format!("bench-{n}"),
            files: vec![SourceFile {
                path: file.clone(),
                display_name: file
                    .file_name()
                    .map_or_else(|| file.display().to_string(), |name| {
                        name.to_string_lossy().into_owned()
                    }),
            }],
            format: None,
            progress: None,
        };
        let started = Instant::now();
        let summary = engine
            .load(customer, request)
            .await
            .with_context(|| format!("ClickHouse load of {}", file.display()))?;
        wall += started.elapsed();
        rows += summary.rows;
    }
    let storage = storage(&shards, entry.url().database()).await?;
    let server_version = entry.server_version().await?.to_string();
    Ok((
        engine,
        ClickHouseLoad {
            url: entry.url().to_string(),
            server_version,
            shards: shards.len(),
            wall,
            files: files.len(),
            rows,
            storage,
        },
    ))
}

async fn storage(shards: &[Client], database: &str) -> anyhow::Result<Storage> {
    let mut storage = Storage {
        bytes_on_disk: 0,
        line_item_bytes: 0,
        line_item_rows: 0,
    };
    let sql = format!(
        "SELECT table, sum(bytes_on_disk), sum(rows) FROM system.parts \
         WHERE active AND database = {} GROUP BY table",
        literal::string(database)
    );
    for shard in shards {
        for row in shard.query_tsv(&sql).await? {
            let (bytes, rows): (u64, u64) = (row.parse(1)?, row.parse(2)?);
            storage.bytes_on_disk += bytes;
            if row.text(0)? == LINE_ITEMS_TABLE {
                storage.line_item_bytes += bytes;
                storage.line_item_rows += rows;
            }
        }
    }
    Ok(storage)
}
