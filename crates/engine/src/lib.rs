//! The cost engine: normalised cost line items in a columnar database (DuckDB embedded by
//! default), the query builder that turns cost questions into SQL with bound values, and loading
//! of billing exports staged by `costscope-ingest`.

mod api;

pub use api::*;

mod clickhouse_engine;
mod duckdb_engine;

pub use clickhouse_engine::{ClickHouseEngine, ClickHouseReads};
pub use duckdb_engine::{
    DailyRollup, DuckDbEngine, LoadSettings, ReadLimits, Stager, DEFAULT_LOAD_MEMORY_LIMIT,
};

pub mod export_query;
pub mod query_builder;
