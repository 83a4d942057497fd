//! The ClickHouse engine with the same rows as a DuckDB engine of the shared suite: the same
//! hand-made lines staged with the same SQL and loaded through the ClickHouse engine's own load
//! (two shards behind `Distributed` tables), the same rates through its own `replace_rates`.
//! Each suite works in a database of its own, made afresh on every shard.
#![allow(dead_code)]

use costscope_clickhouse::{literal, Client};
use costscope_core::cost::ExchangeRate;
use costscope_engine::{
    ClickHouseEngine, ClickHouseReads, LoadError, LoadRequest, LoadSummary, SourceFile,
};
use costscope_ingest::{Format, IngestError};

use crate::support::{stage_sql, Line};

/// The variable naming the test server(s), else [`DEFAULT_URL`].
pub const URL_VAR: &str = "COSTSCOPE_TEST_CLICKHOUSE_URL";

/// The two local shards of `make ensure-clickhouse`.
const DEFAULT_URL: &str =
    "clickhouse://default@127.0.0.1:8123/test?cluster=costscope&shards=127.0.0.1:8123,127.0.0.1:8124";

/// The test server's URL ([`URL_VAR`]) with `database` in place of its own.
pub fn url_with_database(database: &str) -> String {
    let url = std::env::var(URL_VAR).unwrap_or_else(|_| DEFAULT_URL.to_owned());
    let (scheme, rest) = url.split_once("://").expect("a clickhouse:// URL");
    let (authority, tail) = rest.split_at(rest.find(['/', '?']).unwrap_or(rest.len()));
    let query = tail.find('?').map_or("", |at| &tail[at..]);
    format!("{scheme}://{authority}/{database}{query}")
}

/// `database`, empty, on every shard; fails (never skips) when ClickHouse does not answer.
async fn fresh_database(database: &str) {
    let url = url_with_database("default");
    let entry = Client::from_url(&url).expect("the ClickHouse test URL");
    let shards = match entry.url().cluster() {
        Some(_) => entry.shards().await,
        None => entry.server_version().await.map(|_| vec![entry.clone()]),
    }
    .unwrap_or_else(|error| {
        panic!(
            "no ClickHouse answers at {url}: {error}\nRun `make ensure-clickhouse` or set \
             COSTSCOPE_TEST_CLICKHOUSE_URL"
        )
    });
    let name = literal::identifier(database);
    for shard in shards {
        shard
            .execute(&format!("DROP DATABASE IF EXISTS {name}"))
            .await
            .unwrap();
        shard
            .execute(&format!("CREATE DATABASE {name}"))
            .await
            .unwrap();
    }
}

/// Loads `lines` as one file for `customer` through the ClickHouse engine's load, staged as
/// the DuckDB suite stages them ([`crate::support::load`]).
pub async fn load_lines(
    engine: &ClickHouseEngine,
    customer: i64,
    load_id: &str,
    lines: Vec<Line>,
) -> Result<LoadSummary, LoadError> {
    let request = LoadRequest {
        load_id: load_id.to_owned(),
        files: vec![SourceFile {
            path: "lines.csv".into(),
            display_name: "lines.csv".to_owned(),
        }],
        format: None,
        progress: None,
    };
    let rows = lines.len() as u64;
    engine
        .load_with(
            customer,
            request,
            Box::new(move |connection, _file, _format, table| {
                connection
                    .execute_batch(&stage_sql(table, &lines))
                    .map_err(|error| IngestError::new(error.to_string()))?;
                Ok((Format::Focus, rows))
            }),
        )
        .await
}

/// The ClickHouse engine (database `database`) holding `tenants`' lines and rates, and its reads.
pub async fn clickhouse_with(
    database: &str,
    tenants: Vec<(i64, Vec<Line>)>,
    rates: Vec<(i64, Vec<ExchangeRate>)>,
) -> (ClickHouseEngine, ClickHouseReads) {
    fresh_database(database).await;
    let engine = ClickHouseEngine::connect(&url_with_database(database))
        .await
        .expect("the ClickHouse engine");
    for (customer, lines) in tenants {
        load_lines(&engine, customer, "load-1", lines)
            .await
            .expect("ClickHouse load");
    }
    for (customer, rates) in rates {
        engine
            .replace_rates(customer, rates)
            .await
            .expect("ClickHouse rates");
    }
    let reads = ClickHouseReads::new(engine.client().clone());
    (engine, reads)
}
