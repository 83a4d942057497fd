//! What a billing export becomes before the cost engine stores it: the normalised columns of a
//! staged row, the export formats, the error that refuses a file, and the DuckDB quoting of the
//! SQL built around them. Shared by the readers (`costscope-ingest`) and the cost engine
//! (`costscope-engine`), which does not depend on the readers (DESIGN §4).

mod error;
mod format;
pub mod sql;

pub use error::IngestError;
pub use format::Format;

/// The columns of a staged (normalised) table, in order, with their DuckDB types. The engine's
/// cost table has these plus `customer_id` and `load_id` in front.
///
/// The `NOT NULL` columns are the ones every reader fills. The nullable ones after `tags` are the
/// FOCUS details (named after their FOCUS columns) that our own FOCUS export writes back: NULL
/// where the file has no such column. `extra` holds the file's custom columns (FOCUS `x_…` and
/// vendor columns such as OCI's `oci_…`, and the 1.3 `Allocated…` columns) as name → text; it is
/// NULL for a file without any, and an empty map for a row whose custom values are all empty.
/// Columns are only ever appended here: the engine adds the new ones to existing databases.
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
    ("billing_account_name", "VARCHAR"),
    ("billing_period_end", "TIMESTAMP"),
    ("charge_class", "VARCHAR"),
    ("charge_description", "VARCHAR"),
    ("charge_frequency", "VARCHAR"),
    ("contracted_cost", "DECIMAL(18,9)"),
    ("pricing_quantity", "DOUBLE"),
    ("pricing_unit", "VARCHAR"),
    ("pricing_category", "VARCHAR"),
    ("sku_id", "VARCHAR"),
    ("sku_price_id", "VARCHAR"),
    ("invoice_issuer", "VARCHAR"),
    ("host_provider", "VARCHAR"),
    ("commitment_discount_id", "VARCHAR"),
    ("commitment_discount_type", "VARCHAR"),
    ("commitment_discount_status", "VARCHAR"),
    ("availability_zone", "VARCHAR"),
    ("region_name", "VARCHAR"),
    ("extra", "MAP(VARCHAR, VARCHAR)"),
];

/// The names of the columns every staged row has a value in (the `NOT NULL` ones, `provider`
/// to `tags`), in order: what a hand-written staged row must give.
pub fn required_columns() -> impl Iterator<Item = &'static str> {
    NORMALISED_COLUMNS
        .iter()
        .filter(|(_, kind)| kind.ends_with(" NOT NULL"))
        .map(|(name, _)| *name)
}
