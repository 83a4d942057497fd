//! The ClickHouse layout (DESIGN §4, issue 18): every table in the URL's database on every
//! shard, created when missing.
//!
//! * [`LINE_ITEMS`] — one row per normalised line item: `customer_id`, `load_id`, `charge_date`
//!   and the columns of [`costscope_ingest::NORMALISED_COLUMNS`] in ClickHouse's types
//!   ([`ColumnKind`]), partitioned so that one partition is one tenant's provider + billing
//!   account + billing period (what an upload replaces, [`partition`]), and each partition on
//!   one shard ([`super::shard`]).
//! * [`RATES`] — the tenants' exchange rates, on shard 0.
//! * [`MARKERS`], [`MARKER_FILES`], [`MARKER_KEYS`] — what each load committed, on shard 0.
//! * The rollups ([`super::rollups`]): the core daily and monthly cost rollups and the row
//!   counts per billing period, partitioned like [`LINE_ITEMS`].
//! * [`SCHEMA_TABLE`] — the layout's version, one row on every shard.
//!
//! With a cluster, the line items, rates and rollups under their names without `_local` are
//! `Distributed` tables over every shard's local table; [`Dialect::table`] names the table a read
//! goes to.
//!
//! Only what ClickHouse 18.16 reads too: no `Map` (a map is two parallel arrays), no
//! `DateTime64` (a timestamp keeps its microseconds in an `Int64` beside it), and a `Float64`
//! is sent as its bits (18.16's text parser can be one unit in the last place off).

use costscope_clickhouse::{literal, Client, Date};

use super::rollups;
use crate::query_builder::{self, Dialect};
use crate::EngineError;

pub(crate) const LINE_ITEMS: &str = "cost_line_items_local";
pub(crate) const RATES: &str = "exchange_rates_local";
pub(crate) const MARKERS: &str = "load_markers_local";
pub(crate) const MARKER_FILES: &str = "load_marker_files_local";
pub(crate) const MARKER_KEYS: &str = "load_marker_keys_local";
pub(crate) const SCHEMA_TABLE: &str = "costscope_engine_schema_local";

/// The names of a load's staging tables (`<prefix><marker>_<index>`) and of a rates upload's
/// (`<prefix><marker>`), where the marker is the time they were made in nanoseconds.
pub(crate) const LINE_ITEMS_STAGING: &str = "cost_line_items_stage_";
pub(crate) const RATES_STAGING: &str = "exchange_rates_stage_";
/// A staging table this old was left by a load that stopped (a crash): no load runs this long.
const STALE_STAGING_NANOS: u64 = 24 * 3600 * 1_000_000_000;

/// The version of the layout this build writes; a database of a newer one is refused. 2: the
/// rollups (a version 1 database gets them built at connect, see [`prepare`]).
pub(crate) const SCHEMA_VERSION: u32 = 2;

/// The local tables that have a `Distributed` table over every shard.
const DISTRIBUTED: [&str; 5] = [
    query_builder::COST_TABLE,
    query_builder::RATES_TABLE,
    rollups::ROLLUPS[0],
    rollups::ROLLUPS[1],
    rollups::ROLLUPS[2],
];

/// How one normalised column is stored, from its DuckDB type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ColumnKind {
    /// `VARCHAR` → `String` / `Nullable(String)`.
    Text,
    /// `DATE` → `Date`.
    Date,
    /// `TIMESTAMP` → `<name>_us Int64` (microseconds since the epoch, what is sent) and
    /// `<name> DateTime('UTC')` (whole seconds, computed from it).
    Timestamp,
    /// `DECIMAL(18,9)` → `Decimal(18, 9)`.
    Decimal,
    /// `DOUBLE` → `<name>_bits UInt64` (what is sent) and `<name> Float64` (computed from it).
    Double,
    /// `MAP(VARCHAR, VARCHAR)` → `<name>_keys` and `<name>_values Array(String)` in the map's
    /// order; a nullable map also `<name>_present UInt8` (0: NULL, and empty arrays).
    Map,
}

/// One column of [`costscope_ingest::NORMALISED_COLUMNS`] as ClickHouse keeps it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct NormalisedColumn {
    pub(crate) name: &'static str,
    pub(crate) kind: ColumnKind,
    pub(crate) nullable: bool,
}

impl NormalisedColumn {
    /// The columns a load sends for it, in order.
    pub(crate) fn sent(&self) -> Vec<String> {
        let name = self.name;
        match self.kind {
            ColumnKind::Text | ColumnKind::Date | ColumnKind::Decimal => vec![name.to_owned()],
            ColumnKind::Timestamp => vec![format!("{name}_us")],
            ColumnKind::Double => vec![format!("{name}_bits")],
            ColumnKind::Map if self.nullable => vec![
                format!("{name}_keys"),
                format!("{name}_values"),
                format!("{name}_present"),
            ],
            ColumnKind::Map => vec![format!("{name}_keys"), format!("{name}_values")],
        }
    }

    /// Its column definitions in `CREATE TABLE`.
    pub(crate) fn definitions(&self) -> Vec<String> {
        let name = self.name;
        let nullable = |kind: &str| {
            if self.nullable {
                format!("Nullable({kind})")
            } else {
                kind.to_owned()
            }
        };
        // `value` of the sent column, or NULL when it is.
        let computed = |sent: &str, value: &str| {
            if self.nullable {
                format!(
                    "if(isNull({sent}), NULL, {})",
                    value.replace("{}", &format!("assumeNotNull({sent})"))
                )
            } else {
                value.replace("{}", sent)
            }
        };
        match self.kind {
            ColumnKind::Text => vec![format!("{name} {}", nullable("String"))],
            ColumnKind::Date => vec![format!("{name} {}", nullable("Date"))],
            ColumnKind::Decimal => vec![format!("{name} {}", nullable("Decimal(18, 9)"))],
            ColumnKind::Timestamp => {
                let sent = format!("{name}_us");
                vec![
                    format!("{sent} {}", nullable("Int64")),
                    format!(
                        "{name} {} DEFAULT {}",
                        nullable("DateTime('UTC')"),
                        computed(&sent, "toDateTime(intDiv({}, 1000000), 'UTC')")
                    ),
                ]
            }
            ColumnKind::Double => {
                let sent = format!("{name}_bits");
                vec![
                    format!("{sent} {}", nullable("UInt64")),
                    format!(
                        "{name} {} DEFAULT {}",
                        nullable("Float64"),
                        computed(&sent, "reinterpretAsFloat64(reinterpretAsString({}))")
                    ),
                ]
            }
            ColumnKind::Map => {
                let mut columns = vec![
                    format!("{name}_keys Array(String)"),
                    format!("{name}_values Array(String)"),
                ];
                if self.nullable {
                    columns.push(format!("{name}_present UInt8"));
                }
                columns
            }
        }
    }
}

/// [`costscope_ingest::NORMALISED_COLUMNS`] as ClickHouse keeps them. Panics on a DuckDB type
/// this layout has no column for (a test reads every one).
pub(crate) fn normalised_columns() -> Vec<NormalisedColumn> {
    costscope_ingest::NORMALISED_COLUMNS
        .iter()
        .map(|(name, duckdb_type)| {
            let (base, nullable) = match duckdb_type.strip_suffix(" NOT NULL") {
                Some(base) => (base, false),
                None => (*duckdb_type, true),
            };
            let kind = match base {
                "VARCHAR" => ColumnKind::Text,
                "DATE" => ColumnKind::Date,
                "TIMESTAMP" => ColumnKind::Timestamp,
                "DECIMAL(18,9)" => ColumnKind::Decimal,
                "DOUBLE" => ColumnKind::Double,
                "MAP(VARCHAR, VARCHAR)" => ColumnKind::Map,
                other => panic!("normalised column {name} has type {other}, which the ClickHouse layout does not store"),
            };
            NormalisedColumn {
                name,
                kind,
                nullable,
            }
        })
        .collect()
}

/// The UTC day of `charge_period_start`, computed from what is sent.
const CHARGE_DATE: &str =
    "charge_date Date DEFAULT toDate(toDateTime(intDiv(charge_period_start_us, 1000000), 'UTC'))";

/// `PARTITION BY` of [`LINE_ITEMS`]: one partition per tenant, billing period and provider +
/// billing account (hashed: a string in a partition key is not accepted by `REPLACE PARTITION`
/// on every release).
pub(crate) const PARTITION_BY: &str =
    "(customer_id, billing_period_start, cityHash64(provider, billing_account_id))";

/// The partition of [`LINE_ITEMS`] holding one tenant's billing period of a provider's billing
/// account, as `ALTER TABLE … PARTITION` reads it.
pub(crate) fn partition(customer: i64, provider: &str, account: &str, period: Date) -> String {
    format!(
        "({}, {}, cityHash64({}, {}))",
        literal::integer(customer),
        literal::date(period),
        literal::string(provider),
        literal::string(account)
    )
}

fn line_items_sql() -> String {
    let mut columns = vec![
        "customer_id Int64".to_owned(),
        "load_id String".to_owned(),
        CHARGE_DATE.to_owned(),
    ];
    for column in normalised_columns() {
        columns.extend(column.definitions());
    }
    format!(
        "CREATE TABLE IF NOT EXISTS {} ({}) ENGINE = MergeTree PARTITION BY {PARTITION_BY} \
         ORDER BY (customer_id, charge_date, provider, account_id, service)",
        literal::identifier(LINE_ITEMS),
        columns.join(", ")
    )
}

/// The `CREATE TABLE IF NOT EXISTS` of every local table.
fn local_tables_sql() -> Vec<String> {
    let table = |name: &str, columns: &str, engine: &str| {
        format!(
            "CREATE TABLE IF NOT EXISTS {} ({columns}) ENGINE = {engine}",
            literal::identifier(name)
        )
    };
    let mut tables = vec![
        line_items_sql(),
        // As the DuckDB engine keeps them: `1 from_currency = rate to_currency` on `rate_date`.
        table(
            RATES,
            "customer_id Int64, rate_date Date, from_currency String, to_currency String, \
             rate Decimal(38, 12)",
            "MergeTree PARTITION BY customer_id ORDER BY (customer_id, rate_date, from_currency, \
             to_currency)",
        ),
        // A load's marker is its row here; its files and keys rows count only with it (they
        // are written first). `marker` tells a retried load id's markers apart.
        table(
            MARKERS,
            "load_id String, marker UInt64, customer_id Int64, rows UInt64, replaced_rows UInt64, \
             committed_at DateTime('UTC')",
            "MergeTree ORDER BY (load_id, marker)",
        ),
        table(
            MARKER_FILES,
            "load_id String, marker UInt64, position UInt32, name String, format String, \
             rows UInt64",
            "MergeTree ORDER BY (load_id, marker, position)",
        ),
        table(
            MARKER_KEYS,
            "load_id String, marker UInt64, provider String, billing_account_id String, \
             billing_period_start Date, currency String, line_items UInt64, \
             billed Decimal(38, 9), effective Decimal(38, 9), list Decimal(38, 9)",
            "MergeTree ORDER BY (load_id, marker)",
        ),
        table(SCHEMA_TABLE, "version UInt32", "TinyLog"),
    ];
    tables.extend(rollups::tables_sql());
    tables
}

fn database_error(shard: &Client, error: costscope_clickhouse::Error) -> EngineError {
    EngineError::Database(format!("ClickHouse at {}: {error}", shard.url()))
}

/// Creates the layout on `shard` where missing (with the `Distributed` tables over `cluster`
/// when there is one), records the schema version there, and refuses a newer one. A database
/// of version 1 (an earlier build's, whose loads kept no rollups) gets its rollups built from
/// its line items first ([`rollups::backfill`]), before any load or read of this build.
pub(crate) async fn prepare(shard: &Client, cluster: Option<&str>) -> Result<(), EngineError> {
    let fail = |error| database_error(shard, error);
    for sql in local_tables_sql() {
        shard.execute(&sql).await.map_err(fail)?;
    }
    if let Some(cluster) = cluster {
        for name in DISTRIBUTED {
            let local = Dialect::ClickHouse { distributed: false }.table(name);
            shard
                .execute(&format!(
                    "CREATE TABLE IF NOT EXISTS {} AS {} ENGINE = Distributed({}, {}, {})",
                    literal::identifier(name),
                    literal::identifier(&local),
                    literal::string(cluster),
                    literal::string(shard.url().database()),
                    literal::string(&local)
                ))
                .await
                .map_err(fail)?;
        }
    }
    let table = literal::identifier(SCHEMA_TABLE);
    let rows = shard
        .query_tsv(&format!("SELECT count(), max(version) FROM {table}"))
        .await
        .map_err(fail)?;
    let unexpected =
        |reason: String| EngineError::Database(format!("ClickHouse at {}: {reason}", shard.url()));
    let row = rows
        .first()
        .ok_or_else(|| unexpected("no answer to the schema version".to_owned()))?;
    let count: u64 = row.parse(0).map_err(|e| unexpected(e.to_string()))?;
    let version: u32 = row.parse(1).map_err(|e| unexpected(e.to_string()))?;
    if count == 0 {
        record_version(shard).await?;
    } else if version > SCHEMA_VERSION {
        return Err(unexpected(format!(
            "the cost database has schema version {version}; this Costscope reads up to \
             version {SCHEMA_VERSION}"
        )));
    } else if version < 2 {
        rollups::backfill(shard, super::markers::new_marker()).await?;
        record_version(shard).await?;
    }
    Ok(())
}

/// Records on `shard` that its layout is this build's.
async fn record_version(shard: &Client) -> Result<(), EngineError> {
    shard
        .execute(&format!(
            "INSERT INTO {} (version) VALUES ({})",
            literal::identifier(SCHEMA_TABLE),
            literal::integer(SCHEMA_VERSION)
        ))
        .await
        .map_err(|error| database_error(shard, error))
}

/// Whether table `name` is a staging table made before `now` (nanoseconds) minus a day.
fn stale_staging(name: &str, now: u64) -> bool {
    let rollups = rollups::ROLLUPS.map(rollups::staging_prefix);
    let mut prefixes = [LINE_ITEMS_STAGING, RATES_STAGING]
        .into_iter()
        .chain(rollups.iter().map(String::as_str));
    prefixes.any(|prefix| {
        name.strip_prefix(prefix)
            .and_then(|rest| rest.split('_').next())
            .and_then(|marker| marker.parse::<u64>().ok())
            .is_some_and(|made| made.saturating_add(STALE_STAGING_NANOS) < now)
    })
}

/// Drops the staging tables on `shard` that stopped loads left behind (see [`stale_staging`]).
pub(crate) async fn drop_stale_staging(shard: &Client, now: u64) -> Result<(), EngineError> {
    let fail = |error| database_error(shard, error);
    let tables = shard
        .query_tsv("SELECT name FROM system.tables WHERE database = currentDatabase()")
        .await
        .map_err(fail)?;
    for row in &tables {
        let name = row
            .text(0)
            .map_err(|error| database_error(shard, error.into()))?;
        if stale_staging(name, now) {
            tracing::warn!(table = name, "dropping a staging table a stopped load left");
            shard
                .execute(&format!(
                    "DROP TABLE IF EXISTS {}",
                    literal::identifier(name)
                ))
                .await
                .map_err(fail)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_normalised_column_has_a_clickhouse_type() {
        let columns = normalised_columns();
        assert_eq!(columns.len(), costscope_ingest::NORMALISED_COLUMNS.len());
        let find = |name: &str| *columns.iter().find(|c| c.name == name).unwrap();
        assert_eq!(find("provider").definitions(), ["provider String"]);
        assert_eq!(find("sku_id").definitions(), ["sku_id Nullable(String)"]);
        assert_eq!(
            find("billed_cost").definitions(),
            ["billed_cost Decimal(18, 9)"]
        );
        assert_eq!(
            find("charge_period_start").definitions(),
            [
                "charge_period_start_us Int64",
                "charge_period_start DateTime('UTC') DEFAULT \
                 toDateTime(intDiv(charge_period_start_us, 1000000), 'UTC')"
            ]
        );
        assert_eq!(
            find("billing_period_end").definitions(),
            [
                "billing_period_end_us Nullable(Int64)",
                "billing_period_end Nullable(DateTime('UTC')) DEFAULT if(isNull(billing_period_end_us), \
                 NULL, toDateTime(intDiv(assumeNotNull(billing_period_end_us), 1000000), 'UTC'))"
            ]
        );
        assert_eq!(find("usage_quantity").sent(), ["usage_quantity_bits"]);
        assert_eq!(find("tags").sent(), ["tags_keys", "tags_values"]);
        assert_eq!(
            find("extra").sent(),
            ["extra_keys", "extra_values", "extra_present"]
        );
    }

    #[test]
    fn staging_tables_are_stale_a_day_after_they_were_made() {
        let day = STALE_STAGING_NANOS;
        let now = 10 * day;
        assert!(stale_staging(
            &format!("cost_line_items_stage_{}_3", now - day - 1),
            now
        ));
        assert!(stale_staging(
            &format!("exchange_rates_stage_{}", now - 2 * day),
            now
        ));
        assert!(!stale_staging(
            &format!("cost_line_items_stage_{}_0", now - day + 1),
            now
        ));
        assert!(!stale_staging(&format!("exchange_rates_stage_{now}"), now));
        assert!(!stale_staging("cost_line_items_local", now));
        assert!(!stale_staging("cost_line_items_stage_x_1", now));
        assert!(stale_staging(
            &format!("cost_monthly_stage_{}_2", now - 2 * day),
            now
        ));
        assert!(!stale_staging(
            &format!("cost_rollup_stats_stage_{now}_2"),
            now
        ));
        assert!(!stale_staging("cost_daily_core_local", now));
    }

    #[test]
    fn the_distributed_tables_are_over_the_local_ones() {
        let local = |name| Dialect::ClickHouse { distributed: false }.table(name);
        assert_eq!(
            DISTRIBUTED.map(local),
            [
                LINE_ITEMS,
                RATES,
                "cost_daily_core_local",
                "cost_monthly_local",
                "cost_rollup_stats_local"
            ]
        );
    }

    #[test]
    fn a_partition_is_named_by_tenant_period_and_hashed_account() {
        let period = Date::new(chrono::NaiveDate::from_ymd_opt(2024, 1, 1).unwrap()).unwrap();
        assert_eq!(
            partition(3, "aws", "it's", period),
            r"(3, toDate('2024-01-01'), cityHash64('aws', 'it\'s'))"
        );
    }
}
