//! `costscope backup` and `costscope restore`: a consistent copy of the metadata (SQLite) and the
//! cost database (DuckDB), taken while the server runs.
//!
//! With the cost data in ClickHouse (`cost_engine`), a backup holds the metadata (SQLite), the
//! data directory's keys and a manifest saying so: ClickHouse's data is backed up with
//! ClickHouse's own tools ([`CLICKHOUSE_BACKUP_NOTE`]), as PostgreSQL's is with `pg_dump`.
//!
//! A running server holds the DuckDB file locked, so it makes the copy itself: the command calls
//! `POST /ops/backup` on the loopback address the server wrote to `ops.addr`, with the random
//! token it wrote to `ops.token` (owner-only) at start. Without a running server the command
//! opens the files and copies them itself, with the same code.
//!
//! Consistency: the metadata is copied first (`VACUUM INTO`, one read transaction), then the cost
//! database (`COPY FROM DATABASE`, one read transaction). A load is one DuckDB transaction and its
//! job is recorded `completed` only after that transaction committed, so every load completed in
//! the metadata copy is whole in the cost copy; a load still running has its job `running` in the
//! copy, which the server's start-up handles like an interrupted load.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use crate::cost_engine::{CostEngineSetting, OpenedEngine, COST_DATABASE_FILE};
use anyhow::Context;
use costscope_engine::DuckDbEngine;
use secrecy::{ExposeSecret, SecretString};
use serde::{Deserialize, Serialize};
use sqlx::sqlite::SqliteConnectOptions;
use sqlx::{ConnectOptions, Connection};

use crate::auth::secret::SECRET_FILE;
use crate::secrets::{PREVIOUS_KEYS_FILE, SECRETS_KEY_FILE};

/// The generated keys of the data dir a backup carries: without the secrets key, the stored
/// connection secrets of a restored server could not be decrypted.
const KEY_FILES: [&str; 3] = [SECRET_FILE, SECRETS_KEY_FILE, PREVIOUS_KEYS_FILE];

/// The token the backup command proves itself with (in the data dir, mode 0600).
pub const OPS_TOKEN_FILE: &str = "ops.token";
/// The address the running server listens on, for the backup command.
pub const OPS_ADDR_FILE: &str = "ops.addr";
/// The header carrying the token.
pub const OPS_TOKEN_HEADER: &str = "x-costscope-ops-token";
/// What a backup directory holds, written last (a directory without it is not a backup).
pub const MANIFEST_FILE: &str = "costscope-backup.json";
/// The metadata copy's name inside a backup directory.
pub const METADATA_FILE: &str = "costscope.db";
/// How cost data in ClickHouse is backed up: not by Costscope.
pub const CLICKHOUSE_BACKUP_NOTE: &str = "The cost data is in ClickHouse: back it up with \
     ClickHouse's own tools (clickhouse-backup, or `ALTER TABLE … FREEZE` on every shard; \
     `BACKUP DATABASE` on ClickHouse 22.8 and newer), see docs/OPERATIONS.md.";
/// How cost data in ClickHouse is restored.
pub const CLICKHOUSE_RESTORE_NOTE: &str = "The cost data is in ClickHouse: restore it with \
     ClickHouse's own tools (clickhouse-backup restore, or `ALTER TABLE … ATTACH PARTITION` \
     from a FREEZE copy on every shard; `RESTORE DATABASE` on ClickHouse 22.8 and newer).";

/// A backup directory's description.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct Manifest {
    /// Version of this layout.
    pub format: u32,
    pub created_at: chrono::DateTime<chrono::Utc>,
    /// The costscope version that wrote it.
    pub version: String,
    /// `sqlite` (copied as `costscope.db`) or `postgresql` (not copied: `pg_dump` it).
    pub metadata: String,
    /// `duckdb` (copied as `costs.duckdb`) or `clickhouse` (not copied: ClickHouse's tools
    /// back it up). Backups written before ClickHouse existed are `duckdb`.
    #[serde(default = "duckdb")]
    pub cost_engine: String,
    /// The files of the directory, besides the manifest.
    pub files: Vec<String>,
}

const FORMAT: u32 = 1;

fn duckdb() -> String {
    "duckdb".to_owned()
}

/// The cost data a backup copies: the DuckDB file, or nothing (ClickHouse's tools back it up).
#[derive(Debug, Clone, Copy)]
pub enum CostData<'a> {
    DuckDb(&'a DuckDbEngine),
    ClickHouse,
}

impl<'a> From<&'a OpenedEngine> for CostData<'a> {
    fn from(engine: &'a OpenedEngine) -> Self {
        match engine {
            OpenedEngine::DuckDb(engine) => Self::DuckDb(engine),
            OpenedEngine::ClickHouse(_) => Self::ClickHouse,
        }
    }
}

/// What the running server needs to take a backup for the command.
#[derive(Debug, Clone)]
pub struct LiveData {
    token: SecretString,
    database_url: SecretString,
    data_dir: PathBuf,
    cost_database: OpenedEngine,
}

impl LiveData {
    /// Writes a new random `ops.token` (0600) and `ops.addr` into the data dir.
    pub fn publish(
        data_dir: &Path,
        database_url: &SecretString,
        address: std::net::SocketAddr,
        cost_database: OpenedEngine,
    ) -> anyhow::Result<Self> {
        let token = crate::auth::tokens::random_token();
        let token_path = data_dir.join(OPS_TOKEN_FILE);
        let _ = std::fs::remove_file(&token_path);
        crate::auth::secret::owner_only_file(&token_path)
            .and_then(|mut file| file.write_all(token.as_bytes()))
            .with_context(|| format!("writing {}", token_path.display()))?;
        let addr_path = data_dir.join(OPS_ADDR_FILE);
        std::fs::write(&addr_path, loopback(address).to_string())
            .with_context(|| format!("writing {}", addr_path.display()))?;
        Ok(Self {
            token: SecretString::from(token),
            database_url: database_url.clone(),
            data_dir: data_dir.to_path_buf(),
            cost_database,
        })
    }

    /// Whether `presented` is this server's ops token (compared in constant time).
    pub fn accepts(&self, presented: &str) -> bool {
        let expected = self.token.expose_secret().as_bytes();
        let presented = presented.as_bytes();
        expected.len() == presented.len()
            && expected
                .iter()
                .zip(presented)
                .fold(0u8, |diff, (a, b)| diff | (a ^ b))
                == 0
    }

    /// Takes a backup into `target` (a new or empty directory).
    pub async fn backup_to(&self, target: &Path) -> anyhow::Result<Manifest> {
        write_backup(
            CostData::from(&self.cost_database),
            &self.database_url,
            &self.data_dir,
            target,
        )
        .await
    }
}

/// Connecting to `0.0.0.0:8080` means this machine: the command calls the loopback address.
fn loopback(address: std::net::SocketAddr) -> std::net::SocketAddr {
    let mut address = address;
    if address.ip().is_unspecified() {
        address.set_ip(match address {
            std::net::SocketAddr::V4(_) => std::net::Ipv4Addr::LOCALHOST.into(),
            std::net::SocketAddr::V6(_) => std::net::Ipv6Addr::LOCALHOST.into(),
        });
    }
    address
}

/// Copies the metadata (SQLite only), then the cost database (DuckDB only), the generated keys,
/// and writes the manifest last.
pub async fn write_backup(
    cost_data: CostData<'_>,
    database_url: &SecretString,
    data_dir: &Path,
    target: &Path,
) -> anyhow::Result<Manifest> {
    prepare_target(target)?;
    let mut files = Vec::new();
    let metadata = match sqlite_path(database_url)? {
        Some(_) => {
            copy_sqlite(database_url, &target.join(METADATA_FILE)).await?;
            files.push(METADATA_FILE.to_owned());
            "sqlite"
        }
        None => "postgresql",
    };
    let cost_engine = match cost_data {
        CostData::DuckDb(cost_database) => {
            let connection = cost_database
                .connection()
                .context("connecting to the cost database")?;
            let cost_target = target.join(COST_DATABASE_FILE);
            tokio::task::spawn_blocking(move || copy_duckdb(&connection, &cost_target))
                .await
                .context("the cost database copy stopped")??;
            files.push(COST_DATABASE_FILE.to_owned());
            "duckdb"
        }
        CostData::ClickHouse => "clickhouse",
    };
    for name in KEY_FILES {
        let key = data_dir.join(name);
        if key.is_file() {
            std::fs::copy(&key, target.join(name))
                .with_context(|| format!("copying {}", key.display()))?;
            files.push(name.to_owned());
        }
    }
    let manifest = Manifest {
        format: FORMAT,
        created_at: chrono::Utc::now(),
        version: env!("CARGO_PKG_VERSION").to_owned(),
        metadata: metadata.to_owned(),
        cost_engine: cost_engine.to_owned(),
        files,
    };
    std::fs::write(
        target.join(MANIFEST_FILE),
        serde_json::to_vec_pretty(&manifest)?,
    )
    .context("writing the backup manifest")?;
    Ok(manifest)
}

/// The target must be new or empty: a backup never mixes with other files.
fn ensure_new_or_empty(target: &Path) -> anyhow::Result<()> {
    if target.exists() {
        let mut entries =
            std::fs::read_dir(target).with_context(|| format!("reading {}", target.display()))?;
        anyhow::ensure!(
            entries.next().is_none(),
            "{} is not empty: back up into a new or empty directory",
            target.display()
        );
    }
    Ok(())
}

fn prepare_target(target: &Path) -> anyhow::Result<()> {
    ensure_new_or_empty(target)?;
    std::fs::create_dir_all(target).with_context(|| format!("creating {}", target.display()))
}

/// The SQLite file of a `sqlite:` URL; `None` for PostgreSQL.
pub fn sqlite_path(database_url: &SecretString) -> anyhow::Result<Option<PathBuf>> {
    let url = database_url.expose_secret();
    if !url.starts_with("sqlite:") {
        return Ok(None);
    }
    let options = SqliteConnectOptions::from_str(url).context("reading the SQLite URL")?;
    Ok(Some(options.get_filename().to_path_buf()))
}

/// `VACUUM INTO`: a consistent, compact copy taken in one read transaction (WAL readers do not
/// block the server's writers).
async fn copy_sqlite(database_url: &SecretString, target: &Path) -> anyhow::Result<()> {
    let options = SqliteConnectOptions::from_str(database_url.expose_secret())?
        .read_only(true)
        .busy_timeout(std::time::Duration::from_secs(30));
    let mut connection = options
        .connect()
        .await
        .context("opening the metadata database")?;
    sqlx::query("VACUUM INTO ?")
        .bind(target.to_string_lossy().into_owned())
        .execute(&mut connection)
        .await
        .context("copying the metadata database")?;
    connection.close().await.ok();
    Ok(())
}

/// `COPY FROM DATABASE` into a new DuckDB file attached for the purpose: one statement, one
/// snapshot of every table.
fn copy_duckdb(connection: &duckdb::Connection, target: &Path) -> anyhow::Result<()> {
    let source: String = connection
        .query_row("SELECT current_database()", [], |row| row.get(0))
        .context("naming the cost database")?;
    let path = target.to_string_lossy().replace('\'', "''");
    let alias = "costscope_backup";
    connection
        .execute_batch(&format!(
            "ATTACH '{path}' AS {alias}; COPY FROM DATABASE \"{}\" TO {alias}; DETACH {alias};",
            source.replace('"', "\"\"")
        ))
        .context("copying the cost database")?;
    Ok(())
}

/// Reads and checks a backup directory's manifest.
pub fn read_manifest(source: &Path) -> anyhow::Result<Manifest> {
    let path = source.join(MANIFEST_FILE);
    let text = std::fs::read(&path).with_context(|| {
        format!(
            "{} is not a Costscope backup (no {MANIFEST_FILE})",
            source.display()
        )
    })?;
    let manifest: Manifest =
        serde_json::from_slice(&text).with_context(|| format!("reading {}", path.display()))?;
    anyhow::ensure!(
        manifest.format == FORMAT,
        "{} has backup format {}; this version reads format {FORMAT}",
        path.display(),
        manifest.format
    );
    for file in &manifest.files {
        anyhow::ensure!(
            source.join(file).is_file(),
            "the backup {} lacks {file}",
            source.display()
        );
    }
    Ok(manifest)
}

/// Puts a backup's files in place in a data dir no server runs on (the caller checked), each
/// copied beside its destination and renamed over it, with stale WAL files removed.
pub fn restore_files(
    source: &Path,
    manifest: &Manifest,
    data_dir: &Path,
    database_url: &SecretString,
    cost_engine: &CostEngineSetting,
) -> anyhow::Result<Vec<String>> {
    std::fs::create_dir_all(data_dir)
        .with_context(|| format!("creating {}", data_dir.display()))?;
    let mut notes = Vec::new();
    if manifest.files.iter().any(|file| file == METADATA_FILE) {
        match sqlite_path(database_url)? {
            Some(path) => {
                place(&source.join(METADATA_FILE), &path, &["-wal", "-shm"])?;
            }
            None => notes.push(format!(
                "The backup's metadata is SQLite ({METADATA_FILE}) but this configuration uses \
                 PostgreSQL: the metadata was not restored."
            )),
        }
    } else {
        notes.push(
            "The metadata is in PostgreSQL: restore it with pg_restore (or psql) from the \
             pg_dump taken with this backup."
                .to_owned(),
        );
    }
    if manifest.files.iter().any(|file| file == COST_DATABASE_FILE) {
        place(
            &source.join(COST_DATABASE_FILE),
            &data_dir.join(COST_DATABASE_FILE),
            &[".wal"],
        )?;
        if let CostEngineSetting::ClickHouse(_) = cost_engine {
            notes.push(format!(
                "The backup's cost data is DuckDB ({COST_DATABASE_FILE}), put in the data \
                 directory, but this configuration's cost engine is ClickHouse: the server reads \
                 it only with cost_engine = duckdb."
            ));
        }
    } else {
        notes.push(CLICKHOUSE_RESTORE_NOTE.to_owned());
    }
    for name in KEY_FILES {
        if manifest.files.iter().any(|file| file == name) {
            let target = data_dir.join(name);
            place(&source.join(name), &target, &[])?;
            restrict_to_owner(&target)?;
        }
    }
    Ok(notes)
}

fn place(source: &Path, target: &Path, stale_suffixes: &[&str]) -> anyhow::Result<()> {
    let mut partial = target.as_os_str().to_owned();
    partial.push(".restoring");
    let partial = PathBuf::from(partial);
    std::fs::copy(source, &partial)
        .with_context(|| format!("copying {} to {}", source.display(), partial.display()))?;
    for suffix in stale_suffixes {
        let mut stale = target.as_os_str().to_owned();
        stale.push(suffix);
        match std::fs::remove_file(PathBuf::from(&stale)) {
            Ok(()) => {}
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
            Err(error) => return Err(error).context("removing a stale WAL file"),
        }
    }
    std::fs::rename(&partial, target)
        .with_context(|| format!("moving {} into place", target.display()))?;
    Ok(())
}

#[cfg(unix)]
fn restrict_to_owner(path: &Path) -> anyhow::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))
        .with_context(|| format!("restricting {}", path.display()))
}

#[cfg(not(unix))]
fn restrict_to_owner(_path: &Path) -> anyhow::Result<()> {
    Ok(())
}

/// `costscope backup --to DIR`: through the running server when one holds the DuckDB file,
/// directly otherwise (always directly with ClickHouse: no file is held).
pub async fn run_backup(config: &crate::config::Config, to: &Path) -> anyhow::Result<Manifest> {
    let target = absolute(to)?;
    // Checked here too, before asking the server: a clear refusal at once.
    ensure_new_or_empty(&target)?;
    if let CostEngineSetting::ClickHouse(_) = config.cost_engine {
        return write_backup(
            CostData::ClickHouse,
            &config.database_url,
            &config.data_dir,
            &target,
        )
        .await;
    }
    match crate::cost_engine::open_duckdb(config) {
        Ok(engine) => {
            write_backup(
                CostData::DuckDb(&engine),
                &config.database_url,
                &config.data_dir,
                &target,
            )
            .await
        }
        Err(costscope_engine::EngineError::Locked(_)) => {
            request_backup_from_server(&config.data_dir, &target).await
        }
        Err(other) => Err(anyhow::Error::new(other).context("opening the cost database")),
    }
}

/// `costscope restore --from DIR`: into a data dir no server runs on.
pub async fn run_restore(
    config: &crate::config::Config,
    from: &Path,
) -> anyhow::Result<Vec<String>> {
    let manifest = read_manifest(from)?;
    let in_use = || {
        anyhow::anyhow!(
            "The data directory {} is in use by a running Costscope server: stop it before \
             restoring into it.",
            config.data_dir.display()
        )
    };
    let clickhouse = matches!(config.cost_engine, CostEngineSetting::ClickHouse(_));
    if clickhouse && server_answers(&config.data_dir).await {
        return Err(in_use());
    }
    if crate::cost_engine::duckdb_path(config).exists() {
        match crate::cost_engine::open_duckdb(config) {
            Ok(engine) => drop(engine),
            Err(costscope_engine::EngineError::Locked(_)) => return Err(in_use()),
            // A damaged database is what a restore replaces.
            Err(_) => {}
        }
    }
    restore_files(
        from,
        &manifest,
        &config.data_dir,
        &config.database_url,
        &config.cost_engine,
    )
}

/// Whether a server answers at the address a server on this data dir published (`ops.addr`):
/// with ClickHouse no file lock tells that a server runs. (With DuckDB the lock does, and a
/// stopped server's address may since belong to another process.)
async fn server_answers(data_dir: &Path) -> bool {
    let Ok(address) = std::fs::read_to_string(data_dir.join(OPS_ADDR_FILE)) else {
        return false;
    };
    let connect = tokio::net::TcpStream::connect(address.trim());
    matches!(
        tokio::time::timeout(std::time::Duration::from_secs(2), connect).await,
        Ok(Ok(_))
    )
}

fn absolute(path: &Path) -> anyhow::Result<PathBuf> {
    if path.is_absolute() {
        Ok(path.to_path_buf())
    } else {
        Ok(std::env::current_dir()
            .context("reading the current directory")?
            .join(path))
    }
}

/// Asks the server on this data dir (its `ops.addr` and `ops.token`) to take the backup.
async fn request_backup_from_server(data_dir: &Path, target: &Path) -> anyhow::Result<Manifest> {
    let read = |name: &str| {
        std::fs::read_to_string(data_dir.join(name))
            .map(|text| text.trim().to_owned())
            .with_context(|| {
                format!(
                    "A running server holds {}, but its {name} cannot be read: run the backup \
                     as the user the server runs as",
                    data_dir.display()
                )
            })
    };
    let token = read(OPS_TOKEN_FILE)?;
    let address = read(OPS_ADDR_FILE)?;
    let body = serde_json::to_vec(&serde_json::json!({ "to": target }))?;
    let (status, answer) = post_local(&address, "/ops/backup", &token, &body).await?;
    if status == 200 {
        return serde_json::from_slice(&answer).context("reading the server's answer");
    }
    let message = serde_json::from_slice::<serde_json::Value>(&answer)
        .ok()
        .and_then(|body| body["message"].as_str().map(str::to_owned))
        .unwrap_or_else(|| String::from_utf8_lossy(&answer).into_owned());
    anyhow::bail!("The server at {address} refused the backup ({status}): {message}")
}

/// One HTTP/1.1 POST to the server on this machine (no TLS: loopback only).
async fn post_local(
    address: &str,
    path: &str,
    token: &str,
    body: &[u8],
) -> anyhow::Result<(u16, Vec<u8>)> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(address)
        .await
        .with_context(|| format!("connecting to the running server at {address}"))?;
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\n\
         {OPS_TOKEN_HEADER}: {token}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).await?;
    stream.write_all(body).await?;
    let mut answer = Vec::new();
    stream
        .read_to_end(&mut answer)
        .await
        .context("reading the server's answer")?;
    let end = answer
        .windows(4)
        .position(|window| window == b"\r\n\r\n")
        .context("the server's answer has no header end")?;
    let head = String::from_utf8_lossy(&answer[..end]).into_owned();
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .context("the server's answer has no status")?;
    let chunked = head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked");
    let raw = answer[end + 4..].to_vec();
    Ok((status, if chunked { dechunk(&raw) } else { raw }))
}

/// The body of a `Transfer-Encoding: chunked` answer.
fn dechunk(mut raw: &[u8]) -> Vec<u8> {
    let mut body = Vec::new();
    while let Some(line_end) = raw.windows(2).position(|window| window == b"\r\n") {
        let size = std::str::from_utf8(&raw[..line_end])
            .ok()
            .and_then(|size| usize::from_str_radix(size.trim(), 16).ok())
            .unwrap_or(0);
        if size == 0 {
            break;
        }
        let start = line_end + 2;
        let Some(chunk) = raw.get(start..start + size) else {
            break;
        };
        body.extend_from_slice(chunk);
        raw = raw.get(start + size + 2..).unwrap_or_default();
    }
    body
}
