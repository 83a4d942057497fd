//! [`Client`]: statements, `TabSeparated` queries and streamed bulk inserts over ClickHouse's
//! HTTP interface.
//!
//! Every request names the database (`database=`), sends the credentials in the
//! `X-ClickHouse-User` / `X-ClickHouse-Key` headers (18.16 reads them; the password never goes
//! into a URL), has a timeout, and carries the [`Settings`] of the client. Statements and queries
//! ask for `wait_end_of_query=1`: ClickHouse then answers only once the statement is done, so an
//! error is an HTTP error status and never a message appended to a half-sent answer. Statements
//! and queries may be up to 64 MiB of SQL text (`max_query_size`).
//!
//! SQL text comes from the caller: values and names in it are written by [`crate::literal`].

use std::io;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::error::Error;
use crate::literal;
use crate::tsv::{self, Row, TsvEncoder, TsvError, TsvRow};
use crate::url::ClickHouseUrl;

/// The request timeout unless [`Client::with_timeout`] says otherwise.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(300);

/// A bulk insert is sent in chunks of about this size as its rows are encoded.
const INSERT_CHUNK_BYTES: usize = 1 << 20;

/// `max_query_size` sent with every request: the longest SQL text the server parses. The
/// default (256 KiB) is less than a cost question with the largest filters the API accepts,
/// whose values a nested ClickHouse statement repeats.
const MAX_QUERY_SIZE: &str = "67108864";

/// ClickHouse settings sent with each request (request parameters, never SQL). Unset ones are
/// the server's (its user profile).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Settings {
    /// `max_execution_time`: the server stops a statement after this long (whole seconds,
    /// rounded up), with `Code: 159 … Timeout exceeded`.
    pub max_execution_time: Option<Duration>,
    /// `max_memory_usage`: bytes one statement may use on one server (`Code: 241 … Memory limit
    /// (for query) exceeded`).
    pub max_memory_usage: Option<u64>,
    /// `insert_distributed_sync=1`: an insert into a `Distributed` table returns once every
    /// shard has its rows (by default they are queued and sent in the background).
    pub insert_distributed_sync: bool,
}

impl Settings {
    fn params(&self) -> Vec<(&'static str, String)> {
        let mut params = Vec::new();
        if let Some(limit) = self.max_execution_time {
            let seconds = limit.as_secs() + u64::from(limit.subsec_nanos() > 0);
            params.push(("max_execution_time", seconds.max(1).to_string()));
        }
        if let Some(bytes) = self.max_memory_usage {
            params.push(("max_memory_usage", bytes.to_string()));
        }
        if self.insert_distributed_sync {
            params.push(("insert_distributed_sync", "1".to_owned()));
        }
        params
    }
}

/// `major.minor` of a server, for feature checks: `version >= ServerVersion::new(19, 1)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ServerVersion {
    pub major: u32,
    pub minor: u32,
}

impl ServerVersion {
    pub const fn new(major: u32, minor: u32) -> Self {
        Self { major, minor }
    }

    /// Reads `18.16.1`, `24.3.1.2672`, ….
    pub fn parse(version: &str) -> Option<Self> {
        let mut parts = version.trim().split('.');
        let major = parts.next()?.parse().ok()?;
        let minor = parts.next()?.parse().ok()?;
        Some(Self { major, minor })
    }
}

impl std::fmt::Display for ServerVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

/// A ClickHouse server (the entry point of a cluster when the URL names one). Cheap to clone.
#[derive(Debug, Clone)]
pub struct Client {
    http: reqwest::Client,
    url: ClickHouseUrl,
    timeout: Duration,
    settings: Settings,
}

impl Client {
    pub fn new(url: ClickHouseUrl) -> Result<Self, Error> {
        let http = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(10))
            // Below the server's keep_alive_timeout (3 s in 18.16's default config), so that a
            // pooled connection is not reused just as the server closes it.
            .pool_idle_timeout(Duration::from_secs(2))
            .build()
            .map_err(|e| Error::transport(url.to_string(), DEFAULT_TIMEOUT, e))?;
        Ok(Self {
            http,
            url,
            timeout: DEFAULT_TIMEOUT,
            settings: Settings::default(),
        })
    }

    /// Parses the URL (see [`crate::url`]) and makes a client for it.
    pub fn from_url(url: &str) -> Result<Self, Error> {
        Self::new(ClickHouseUrl::parse(url)?)
    }

    /// The same client with another request timeout (connection, statement and answer).
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// The same client sending other settings.
    pub fn with_settings(mut self, settings: Settings) -> Self {
        self.settings = settings;
        self
    }

    pub fn url(&self) -> &ClickHouseUrl {
        &self.url
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// One client per shard of the URL's cluster (its `shards`, in shard order), after checking
    /// that the cluster has that many shards. What each shard holds for itself (the local tables
    /// under a `Distributed` one, staging tables, `REPLACE PARTITION`) is done through these.
    pub async fn shards(&self) -> Result<Vec<Client>, Error> {
        let unexpected = |reason: String| Error::Unexpected {
            server: self.url.to_string(),
            reason,
        };
        let Some(cluster) = self.url.cluster() else {
            return Err(unexpected("the URL names no cluster".to_owned()));
        };
        let urls = self.url.shard_urls();
        let sql = format!(
            "SELECT count(DISTINCT shard_num) FROM system.clusters WHERE cluster = {}",
            literal::string(cluster)
        );
        let rows = self.query_tsv(&sql).await?;
        let count: usize = one_row(&rows, &self.url)?.parse(0)?;
        if count == 0 || count != urls.len() {
            return Err(unexpected(format!(
                "cluster `{cluster}` has {count} shards there; the URL lists {} in `shards`",
                urls.len()
            )));
        }
        Ok(urls
            .into_iter()
            .map(|url| Client {
                http: self.http.clone(),
                url,
                timeout: self.timeout,
                settings: self.settings.clone(),
            })
            .collect())
    }

    /// Runs a statement (DDL, `INSERT … SELECT`, `ALTER`, …) and waits for it to finish.
    #[tracing::instrument(skip_all, fields(server = %self.url))]
    pub async fn execute(&self, sql: &str) -> Result<(), Error> {
        tracing::debug!(sql, "clickhouse execute");
        self.post(
            &[("max_query_size", MAX_QUERY_SIZE.to_owned())],
            reqwest::Body::from(sql.to_owned()),
        )
        .await?;
        Ok(())
    }

    /// Runs a query and returns its rows, read from ClickHouse's `TabSeparated` answer (exact for
    /// strings and decimals). The SQL must not name a `FORMAT`.
    #[tracing::instrument(skip_all, fields(server = %self.url))]
    pub async fn query_tsv(&self, sql: &str) -> Result<Vec<Row>, Error> {
        tracing::debug!(sql, "clickhouse query");
        let body = self
            .post(
                &[
                    ("default_format", "TabSeparated".to_owned()),
                    ("max_query_size", MAX_QUERY_SIZE.to_owned()),
                ],
                reqwest::Body::from(sql.to_owned()),
            )
            .await?;
        Ok(tsv::decode(&body)?)
    }

    /// `INSERT INTO table (columns) FORMAT TabSeparated`, the rows encoded and sent as the
    /// request body while they are read from `rows`. Returns the number of rows sent.
    ///
    /// Not atomic: ClickHouse commits an insert in blocks (`max_insert_block_size`, about a
    /// million rows), so one that fails part way may leave its first blocks behind. Load into a
    /// staging table and swap it in (`ALTER TABLE … REPLACE PARTITION … FROM staging`).
    #[tracing::instrument(skip_all, fields(server = %self.url, table = %table))]
    pub async fn insert_tsv<I>(&self, table: &str, columns: &[&str], rows: I) -> Result<u64, Error>
    where
        I: IntoIterator,
        I::IntoIter: Send + 'static,
        I::Item: TsvRow,
    {
        let names: Vec<String> = columns.iter().map(|c| literal::identifier(c)).collect();
        let sql = format!(
            "INSERT INTO {} ({}) FORMAT TabSeparated",
            literal::identifier(table),
            names.join(", ")
        );
        let chunks = Chunks {
            rows: rows.into_iter(),
            encoder: TsvEncoder::new(columns.len()),
            sent: Arc::new(AtomicU64::new(0)),
            failure: Arc::new(Mutex::new(None)),
            done: false,
        };
        let (sent, failure) = (chunks.sent.clone(), chunks.failure.clone());
        let body = reqwest::Body::wrap_stream(futures_util::stream::iter(chunks));
        let result = self.post(&[("query", sql)], body).await;
        // A row that did not fit its columns stopped the body: that is the error to report,
        // rather than whatever the server made of the cut request.
        if let Some(error) = failure.lock().unwrap_or_else(|e| e.into_inner()).take() {
            return Err(error.into());
        }
        result?;
        let sent = sent.load(Ordering::Relaxed);
        tracing::debug!(rows = sent, "clickhouse insert");
        Ok(sent)
    }

    /// `INSERT INTO table (columns) FORMAT RowBinary`, the body sent as `chunks` come (rows
    /// encoded by [`crate::rowbinary`], whole rows per chunk or not). Streams: memory is the
    /// chunks in flight. Not atomic, as [`Client::insert_tsv`]: insert into a staging table.
    #[tracing::instrument(skip_all, fields(server = %self.url, table = %table))]
    pub async fn insert_row_binary<I>(
        &self,
        table: &str,
        columns: &[&str],
        chunks: I,
    ) -> Result<(), Error>
    where
        I: IntoIterator<Item = Vec<u8>>,
        I::IntoIter: Send + 'static,
    {
        let names: Vec<String> = columns.iter().map(|c| literal::identifier(c)).collect();
        let sql = format!(
            "INSERT INTO {} ({}) FORMAT RowBinary",
            literal::identifier(table),
            names.join(", ")
        );
        let chunks = chunks.into_iter().map(Ok::<_, io::Error>);
        let body = reqwest::Body::wrap_stream(futures_util::stream::iter(chunks));
        self.post(&[("query", sql)], body).await?;
        Ok(())
    }

    /// `major.minor` of the server, for feature checks against 18.16.
    pub async fn server_version(&self) -> Result<ServerVersion, Error> {
        let rows = self.query_tsv("SELECT version()").await?;
        let text = one_row(&rows, &self.url)?.text(0)?;
        ServerVersion::parse(text).ok_or_else(|| Error::Unexpected {
            server: self.url.to_string(),
            reason: format!("version `{text}` is not MAJOR.MINOR…"),
        })
    }

    async fn post(
        &self,
        params: &[(&'static str, String)],
        body: reqwest::Body,
    ) -> Result<Vec<u8>, Error> {
        let server = || self.url.to_string();
        let response = self
            .http
            .post(self.url.http_base())
            .timeout(self.timeout)
            .header("X-ClickHouse-User", self.url.user())
            .header("X-ClickHouse-Key", self.url.password())
            .query(&[("database", self.url.database())])
            .query(&[("wait_end_of_query", "1")])
            .query(&self.settings.params())
            .query(params)
            .body(body)
            .send()
            .await
            .map_err(|e| Error::transport(server(), self.timeout, e))?;
        let status = response.status();
        let body = response
            .bytes()
            .await
            .map_err(|e| Error::transport(server(), self.timeout, e))?;
        if !status.is_success() {
            return Err(Error::server(
                status.as_u16(),
                &String::from_utf8_lossy(&body),
            ));
        }
        Ok(body.to_vec())
    }
}

fn one_row<'a>(rows: &'a [Row], url: &ClickHouseUrl) -> Result<&'a Row, Error> {
    match rows {
        [row] => Ok(row),
        _ => Err(Error::Unexpected {
            server: url.to_string(),
            reason: format!("{} rows where one was expected", rows.len()),
        }),
    }
}

/// The body of a bulk insert: rows encoded into chunks of about [`INSERT_CHUNK_BYTES`] as the
/// HTTP client asks for them. A row of the wrong width ends the body with an error (kept in
/// `failure` for [`Client::insert_tsv`] to report).
struct Chunks<It> {
    rows: It,
    encoder: TsvEncoder,
    sent: Arc<AtomicU64>,
    failure: Arc<Mutex<Option<TsvError>>>,
    done: bool,
}

impl<It> Iterator for Chunks<It>
where
    It: Iterator,
    It::Item: TsvRow,
{
    type Item = Result<Vec<u8>, io::Error>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let mut chunk = Vec::with_capacity(INSERT_CHUNK_BYTES + 4096);
        while chunk.len() < INSERT_CHUNK_BYTES {
            let Some(row) = self.rows.next() else {
                self.done = true;
                break;
            };
            if let Err(error) = self.encoder.write(&row, &mut chunk) {
                self.done = true;
                let message = error.to_string();
                *self.failure.lock().unwrap_or_else(|e| e.into_inner()) = Some(error);
                return Some(Err(io::Error::new(io::ErrorKind::InvalidData, message)));
            }
        }
        self.sent.store(self.encoder.rows(), Ordering::Relaxed);
        (!chunk.is_empty()).then_some(Ok(chunk))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_become_request_parameters() {
        assert!(Settings::default().params().is_empty());
        let settings = Settings {
            max_execution_time: Some(Duration::from_millis(2500)),
            max_memory_usage: Some(1 << 30),
            insert_distributed_sync: true,
        };
        assert_eq!(
            settings.params(),
            [
                ("max_execution_time", "3".to_owned()),
                ("max_memory_usage", "1073741824".to_owned()),
                ("insert_distributed_sync", "1".to_owned()),
            ]
        );
        let tiny = Settings {
            max_execution_time: Some(Duration::from_millis(1)),
            ..Settings::default()
        };
        assert_eq!(tiny.params(), [("max_execution_time", "1".to_owned())]);
    }

    #[test]
    fn server_versions_compare_by_major_then_minor() {
        let old = ServerVersion::parse("18.16.1").unwrap();
        assert_eq!(old, ServerVersion::new(18, 16));
        assert!(old < ServerVersion::parse("24.3.1.2672").unwrap());
        assert!(ServerVersion::new(19, 1) > old);
        assert_eq!(ServerVersion::parse("x.1"), None);
        assert_eq!(ServerVersion::parse("18"), None);
    }

    #[test]
    fn insert_bodies_come_in_chunks_and_stop_at_a_bad_row() {
        let rows = (0..200_000u64).map(|i| {
            if i == 150_000 {
                vec![i.to_string()]
            } else {
                vec![i.to_string(), "x".to_owned()]
            }
        });
        let chunks = Chunks {
            rows,
            encoder: TsvEncoder::new(2),
            sent: Arc::new(AtomicU64::new(0)),
            failure: Arc::new(Mutex::new(None)),
            done: false,
        };
        let failure = chunks.failure.clone();
        let results: Vec<_> = chunks.collect();
        assert!(results.len() > 1, "several chunks");
        assert!(results[..results.len() - 1].iter().all(Result::is_ok));
        assert!(results.last().unwrap().is_err());
        let error = failure.lock().unwrap().take().unwrap();
        assert_eq!(error.to_string(), "row 150001 has 1 fields for 2 columns");
    }
}
