//! The cost engine on ClickHouse (issue 18): line items in a MergeTree table on every shard of
//! a cluster (or on one server), loaded by staging each upload in an in-memory DuckDB database
//! with the same reader as the embedded engine and swapping its billing periods in with
//! `REPLACE PARTITION` ([`load`]), read through the query builder's ClickHouse dialect
//! ([`ClickHouseReads`]) and exported as FOCUS by the DuckDB engine's writer ([`export`]). Talks
//! to ClickHouse only through `costscope-clickhouse`. A [`crate::CostEngine`] ([`cost_engine`]).

mod cost_engine;
mod export;
mod load;
mod markers;
mod rates;
mod read;
mod read_amounts;
mod rollups;
mod rows;
mod schema;
mod shard;

pub use read::ClickHouseReads;

use std::sync::{Arc, Mutex, PoisonError};

use chrono::NaiveDate;
use costscope_clickhouse::{literal, Client, ServerVersion};

use crate::query_builder::{self, Dialect};
use crate::{CustomerId, EngineError, LoadError, LoadRequest, LoadSettings, LoadSummary, Stager};

/// The oldest ClickHouse release the layout and its SQL are written for (Debian 12's).
const OLDEST_SERVER: ServerVersion = ServerVersion::new(18, 16);

/// The cost engine on ClickHouse. Cheap to clone (shared state).
#[derive(Clone)]
pub struct ClickHouseEngine {
    inner: Arc<Inner>,
}

struct Inner {
    /// The server the URL names: reads go there (to the `Distributed` tables with a cluster).
    client: Client,
    /// The reads, through `client`.
    reads: ClickHouseReads,
    /// Every shard, in shard order; the one server without a cluster.
    shards: Vec<Client>,
    /// Memory limit and spill directory of the in-memory DuckDB database a load stages in.
    load_settings: Mutex<LoadSettings>,
    /// Loads run one at a time (two loads of the same billing period must not interleave).
    loading: tokio::sync::Mutex<()>,
}

impl std::fmt::Debug for ClickHouseEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClickHouseEngine")
            .field("url", &self.inner.client.url().to_string())
            .field("shards", &self.inner.shards.len())
            .finish_non_exhaustive()
    }
}

fn client_error(error: costscope_clickhouse::Error) -> EngineError {
    EngineError::Database(format!("ClickHouse: {error}"))
}

impl ClickHouseEngine {
    /// Connects to `url` (`clickhouse://user:password@host:8123/database?cluster=NAME&shards=…`),
    /// checks that every shard runs ClickHouse 18.16 or newer, and creates the layout on every
    /// shard where missing (refusing one written by a newer Costscope).
    pub async fn connect(url: &str) -> Result<Self, EngineError> {
        let client = Client::from_url(url).map_err(client_error)?;
        let clustered = client.url().cluster().is_some();
        let shards = if clustered {
            client.shards().await.map_err(client_error)?
        } else {
            vec![client.clone()]
        };
        for shard in std::iter::once(&client).chain(&shards) {
            let version = shard.server_version().await.map_err(client_error)?;
            if version < OLDEST_SERVER {
                return Err(EngineError::Database(format!(
                    "ClickHouse at {} is release {version}; Costscope needs {OLDEST_SERVER} or newer",
                    shard.url()
                )));
            }
        }
        for shard in &shards {
            schema::prepare(shard, client.url().cluster()).await?;
            schema::drop_stale_staging(shard, markers::new_marker()).await?;
        }
        Ok(Self {
            inner: Arc::new(Inner {
                reads: ClickHouseReads::new(client.clone()),
                client,
                shards,
                load_settings: Mutex::new(LoadSettings::default()),
                loading: tokio::sync::Mutex::new(()),
            }),
        })
    }

    /// The memory limit and spill directory of the DuckDB database each load stages in.
    pub fn configure(&self, settings: &LoadSettings) {
        *self
            .inner
            .load_settings
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = settings.clone();
    }

    fn load_settings(&self) -> LoadSettings {
        self.inner
            .load_settings
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Loads an upload, replacing for each provider + billing account + billing period it
    /// contains whatever was loaded before (see [`load`]): the trait's `load`.
    pub async fn load(
        &self,
        customer: CustomerId,
        request: LoadRequest,
    ) -> Result<LoadSummary, LoadError> {
        load::load(self, customer, request, None).await
    }

    /// Loads an upload like [`ClickHouseEngine::load`], with `stage` creating each file's staged
    /// table instead of the file reader (synthetic data staged with SQL, tests).
    pub async fn load_with(
        &self,
        customer: CustomerId,
        request: LoadRequest,
        stage: Box<Stager<'static>>,
    ) -> Result<LoadSummary, LoadError> {
        load::load(self, customer, request, Some(stage)).await
    }

    /// What the engine holds of load `load_id`, from its marker: `None` when the load never
    /// committed. With the customer it was for (read at start-up, as the DuckDB engine's).
    pub async fn committed_load(
        &self,
        load_id: &str,
    ) -> Result<Option<(i64, LoadSummary)>, EngineError> {
        markers::committed_load(self.first_shard(), load_id).await
    }

    /// The server the URL names (reads go there).
    pub fn client(&self) -> &Client {
        &self.inner.client
    }

    /// The engine's reads (the trait's reads answer with them).
    pub fn reads(&self) -> &ClickHouseReads {
        &self.inner.reads
    }

    /// Every shard, in shard order (the one server without a cluster).
    pub fn shards(&self) -> &[Client] {
        &self.inner.shards
    }

    /// The shard (an index of [`ClickHouseEngine::shards`]) that holds `customer`'s billing
    /// periods of `provider` + `billing_account`.
    pub fn shard_of(&self, customer: CustomerId, provider: &str, billing_account: &str) -> usize {
        shard::shard_of(customer, provider, billing_account, self.inner.shards.len())
    }

    /// The latest charge date of the tenant, `None` without rows: the trait's
    /// `latest_charge_date`.
    pub async fn latest_charge_date(
        &self,
        customer: CustomerId,
    ) -> Result<Option<NaiveDate>, EngineError> {
        let answer = self
            .inner
            .client
            .query_tsv(&format!(
                "SELECT count(), max(charge_date) FROM {} WHERE customer_id = {}",
                self.dialect().table(query_builder::COST_TABLE),
                literal::integer(customer)
            ))
            .await
            .map_err(client_error)?;
        let unreadable = |reason: String| EngineError::Database(format!("ClickHouse: {reason}"));
        let row = answer
            .first()
            .ok_or_else(|| unreadable("no answer to the latest charge date".to_owned()))?;
        // Without rows, max() is ClickHouse's zero date, not NULL.
        if row.parse::<u64>(0).map_err(|e| unreadable(e.to_string()))? == 0 {
            return Ok(None);
        }
        let day = row.text(1).map_err(|e| unreadable(e.to_string()))?;
        day.parse()
            .map(Some)
            .map_err(|_| unreadable(format!("`{day}` is not a date")))
    }

    /// The dialect of the engine's reads: the `Distributed` tables with a cluster, else the
    /// server's `_local` ones.
    fn dialect(&self) -> Dialect {
        Dialect::ClickHouse {
            distributed: self.inner.client.url().cluster().is_some(),
        }
    }

    /// The shard that holds what lives on one shard only (exchange rates, load markers).
    fn first_shard(&self) -> &Client {
        &self.inner.shards[0]
    }
}
