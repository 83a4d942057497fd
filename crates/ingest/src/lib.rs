//! Billing export readers. Each reader turns one file into rows of the normalised cost table
//! (DESIGN §4), read by DuckDB's own streaming CSV / Parquet / JSON scanners, checked (every
//! number and date parses, every required column is there) and mapped with SQL into a DuckDB
//! temporary view (`stage_view`, which the cost engine inserts from, in one transaction, so the
//! rows are written once) or table (`stage`). Nothing here knows about customers or HTTP.

mod bounds;
pub mod demo;
mod focus;
mod plan;
mod readers;
pub mod sql;
mod stage;

pub use bounds::{check_bounds, human_bytes, thousands, BoundedFile, LoadBounds, Measured};
// The normalised columns, the formats and a file's error live in costscope-core, where the cost
// engine reads them too without depending on this crate (DESIGN §4).
pub use costscope_core::normalised::{required_columns, Format, IngestError, NORMALISED_COLUMNS};
pub use stage::{file_error, stage, stage_view, unstage, StagedFile};

