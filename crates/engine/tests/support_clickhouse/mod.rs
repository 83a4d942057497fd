//! The ClickHouse engine with the same rows as a DuckDB engine of the shared suite: the same
//! hand-made lines staged with the same SQL and loaded through the ClickHouse engine's own load
//! (two shards behind `Distributed` tables), the same rates through its own `replace_rates`.
//! Each suite works in a database of its own, made afresh on every shard for each run.
#![allow(dead_code, unused_imports)]

use costscope_clickhouse::testing;
use costscope_core::cost::ExchangeRate;
use costscope_engine::{
    ClickHouseEngine, ClickHouseReads, LoadError, LoadRequest, LoadSummary, SourceFile,
};
use costscope_ingest::{Format, IngestError};

use crate::support::{stage_sql, Line};

pub use costscope_clickhouse::testing::{url_with_database, URL_VAR};

/// A database of its own for `prefix`, empty, on every shard: `<prefix>_<process>_…`, so two
/// runs on the same servers never meet; what runs no longer alive left behind is dropped first.
/// Fails (never skips) when ClickHouse does not answer.
async fn fresh_database(prefix: &str) -> String {
    testing::drop_abandoned(prefix).await;
    testing::TestDatabase::create(prefix).await.name().to_owned()
}

/// The test URL of the database `engine` works in (to connect to it again).
pub fn url_of(engine: &ClickHouseEngine) -> String {
    url_with_database(engine.client().url().database())
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

/// The ClickHouse engine (a fresh database named after `database`) holding `tenants`' lines and rates, and its reads.
pub async fn clickhouse_with(
    database: &str,
    tenants: Vec<(i64, Vec<Line>)>,
    rates: Vec<(i64, Vec<ExchangeRate>)>,
) -> (ClickHouseEngine, ClickHouseReads) {
    let database = fresh_database(database).await;
    let engine = ClickHouseEngine::connect(&url_with_database(&database))
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
