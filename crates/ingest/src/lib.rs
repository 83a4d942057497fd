//! Billing export readers. Each reader turns one file into rows of the normalised cost table
//! (DESIGN §4), staged in a DuckDB temporary table by DuckDB's own streaming CSV / Parquet /
//! JSON scanners, checked (every number and date parses, every required column is there) and
//! mapped with SQL. The cost engine then moves the staged rows into its table in one
//! transaction. Nothing here knows about customers or HTTP.

pub mod demo;
mod error;
mod format;
mod plan;
mod readers;
pub mod sql;
mod stage;

pub use error::IngestError;
pub use format::Format;
pub use stage::{stage, StagedFile};

/// The columns of a staged (normalised) table, in order, with their DuckDB types. The engine's
/// cost table has these plus `customer_id` and `load_id` in front.
pub const NORMALISED_COLUMNS: &[(&str, &str)] = &[
    ("provider", "VARCHAR NOT NULL"),
    ("billing_account_id", "VARCHAR NOT NULL"),
    ("account_id", "VARCHAR NOT NULL"),
    ("account_name", "VARCHAR NOT NULL"),
    ("charge_period_start", "TIMESTAMP NOT NULL"),
    ("charge_period_end", "TIMESTAMP NOT NULL"),
    ("billing_period_start", "DATE NOT NULL"),
    ("service", "VARCHAR NOT NULL"),
    ("service_category", "VARCHAR NOT NULL"),
    ("region", "VARCHAR NOT NULL"),
    ("usage_type", "VARCHAR NOT NULL"),
    ("charge_category", "VARCHAR NOT NULL"),
    ("cost_type", "VARCHAR NOT NULL"),
    ("resource_id", "VARCHAR NOT NULL"),
    ("resource_name", "VARCHAR NOT NULL"),
    ("resource_type", "VARCHAR NOT NULL"),
    ("billed_cost", "DECIMAL(18,9) NOT NULL"),
    ("effective_cost", "DECIMAL(18,9) NOT NULL"),
    ("list_cost", "DECIMAL(18,9) NOT NULL"),
    ("currency", "VARCHAR NOT NULL"),
    ("usage_quantity", "DOUBLE NOT NULL"),
    ("usage_unit", "VARCHAR NOT NULL"),
    ("tags", "MAP(VARCHAR, VARCHAR) NOT NULL"),
];
