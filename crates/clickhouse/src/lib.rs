//! The one place Costscope talks to ClickHouse: the groundwork of the scale-out cost engine
//! (DESIGN §1 and §4, issue 18), over ClickHouse's HTTP interface.
//!
//! * [`url`]: `clickhouse://user:password@host:8123/database?cluster=NAME&shards=…` parsed once;
//! * [`literal`]: the only way a value or a name goes into SQL text (ClickHouse 18.16 has no
//!   query parameters);
//! * [`value`]: decimals and dates that the server stores exactly, refused otherwise;
//! * [`tsv`]: `TabSeparated` encoding for bulk inserts and decoding of answers;
//! * [`rowbinary`]: `RowBinary` encoding for fast, exact bulk inserts;
//! * [`client`]: statements, queries and streamed bulk inserts, with timeouts and limits;
//! * [`testing`]: a throwaway database per test on every shard of the test servers.
//!
//! It targets ClickHouse **18.16** (what Debian 12 ships, and what the tests run against) and
//! every newer release: SQL written here avoids what 18.16 lacks (`Map`, `LowCardinality` without
//! an experimental setting, query parameters, `ON CLUSTER` without ZooKeeper; see
//! docs/DEVELOPMENT.md). A newer-server feature goes behind a [`Client::server_version`] check.

pub mod client;
pub mod error;
pub mod literal;
pub mod rowbinary;
pub mod testing;
pub mod tsv;
pub mod url;
pub mod value;

pub use client::{Client, ServerVersion, Settings};
pub use error::Error;
pub use tsv::{Row, RowWriter, TsvField, TsvRow};
pub use url::{ClickHouseUrl, UrlError};
pub use value::{Date, DateTime, Decimal, ValueError};
