//! The FOCUS export query: one `COPY (SELECT …) TO 'file'` that writes a customer's line items of
//! a range as a FOCUS 1.2 or 1.3 dataset, every column of the version in the specification's
//! order ([`costscope_core::focus::columns`]), then the custom `x_` columns.
//!
//! Every value in the SQL is one we typed ourselves: the customer id (an integer), the range's
//! instants (rendered from `chrono` values), the target path and the provider names (escaped
//! literals). Column names come only from the fixed lists below. How each FOCUS column is
//! derived when the cost table does not store it is explained in docs/FOCUS-EXPORT.md.

use chrono::{DateTime, Utc};
use costscope_core::cost::Provider;
use costscope_core::focus::{
    self, ColumnType, ExportFormat, FocusExportRequest, CHARGE_CATEGORIES, SERVICE_CATEGORIES,
};
use costscope_core::normalised::sql::{quote_ident, quote_literal};

use crate::query_builder::COST_TABLE;

/// The FOCUS detail columns the cost table stores, NULL where the loaded export lacked them: the
/// nullable [`costscope_core::normalised::NORMALISED_COLUMNS`] but the `extra` map, as `(column, SQL
/// type)`. Where one is missing from an old cost table the export derives the FOCUS value from
/// the columns every version has.
fn detail_columns() -> impl Iterator<Item = (&'static str, &'static str)> {
    costscope_core::normalised::NORMALISED_COLUMNS
        .iter()
        .filter(|(name, kind)| !kind.ends_with("NOT NULL") && *name != "extra")
        .map(|(name, kind)| (*name, *kind))
}

/// Custom columns written after the FOCUS ones: `(column, expression)`. `x_UsageType` is what
/// Costscope's FOCUS reader reads the usage type from, so an export loads back unchanged.
const CUSTOM_COLUMNS: &[(&str, &str)] = &[
    ("x_UsageType", "nullif(usage_type, '')"),
    ("x_CostType", "nullif(cost_type, '')"),
];

/// The most custom columns of the loaded files an export writes back.
pub const MAX_EXTRA_COLUMNS: usize = 200;

/// The names in the stored `extra` maps (the loaded files' custom columns) of the export's rows,
/// read before the export to know which of them it writes back ([`focus_export`]).
pub fn extra_keys(customer: i64, request: &FocusExportRequest) -> String {
    format!(
        "SELECT DISTINCT unnest(map_keys(extra)) AS key FROM {COST_TABLE} WHERE {} \
         AND extra IS NOT NULL ORDER BY key",
        rows_of(customer, request)
    )
}

/// `COPY (the export's SELECT) TO target`. `stored(column)` says whether the cost table has one
/// of the detail columns ([`detail_columns`]); `extra` lists the names in the rows' `extra` maps
/// ([`extra_keys`]).
pub fn focus_export(
    customer: i64,
    request: &FocusExportRequest,
    target: &str,
    stored: &dyn Fn(&str) -> bool,
    extra: &[String],
) -> String {
    // PRESERVE_ORDER: the file keeps the SELECT's ORDER BY although the database runs without
    // insertion order (`preserve_insertion_order = false`, `duckdb_engine::load::apply_settings`).
    let options = match request.format {
        ExportFormat::Csv => "(FORMAT csv, HEADER true, DELIMITER ',', QUOTE '\"', PRESERVE_ORDER)",
        ExportFormat::Parquet => "(FORMAT parquet, COMPRESSION zstd, PRESERVE_ORDER)",
    };
    format!(
        "COPY ({}) TO {} {options}",
        select(customer, request, stored, extra),
        quote_literal(target)
    )
}

/// The customer's rows whose charge period starts in the request's days.
fn rows_of(customer: i64, request: &FocusExportRequest) -> String {
    let range = request.range();
    format!(
        "customer_id = {customer} AND charge_period_start >= {} AND charge_period_start <= {}",
        timestamp_literal(range.start()),
        timestamp_literal(range.end()),
    )
}

/// The stored custom columns written back as columns of their own: `x_` names (the prefix FOCUS
/// requires of custom columns; other vendor columns are not written), not the ones the export
/// writes itself nor a FOCUS column's name, once per name (any case), at most
/// [`MAX_EXTRA_COLUMNS`].
fn custom_extra_columns<'k>(request: &FocusExportRequest, extra: &'k [String]) -> Vec<&'k str> {
    let taken = |key: &str| {
        CUSTOM_COLUMNS
            .iter()
            .map(|(name, _)| *name)
            .chain(
                focus::columns(request.version)
                    .iter()
                    .map(|column| column.name),
            )
            .any(|name| name.eq_ignore_ascii_case(key))
    };
    let mut written: Vec<&str> = Vec::new();
    for key in extra {
        let custom =
            key.len() > 2 && key.is_char_boundary(2) && key[..2].eq_ignore_ascii_case("x_");
        if custom
            && !taken(key)
            && !written.iter().any(|name| name.eq_ignore_ascii_case(key))
            && written.len() < MAX_EXTRA_COLUMNS
        {
            written.push(key);
        }
    }
    written
}

/// The export's SELECT: the range's rows of one customer, oldest charge first, in one order
/// (ties broken by every column).
pub fn select(
    customer: i64,
    request: &FocusExportRequest,
    stored: &dyn Fn(&str) -> bool,
    extra: &[String],
) -> String {
    let mut sql = String::from("WITH r AS (SELECT *");
    for (column, kind) in detail_columns() {
        let value = if stored(column) {
            let cast = format!("CAST({} AS {kind})", quote_ident(column));
            if kind == "VARCHAR" {
                format!("nullif(trim({cast}), '')")
            } else {
                cast
            }
        } else {
            format!("CAST(NULL AS {kind})")
        };
        sql.push_str(&format!(", {value} AS s_{column}"));
    }
    sql.push_str(&format!(
        ", {} AS focus_charge_category, {} AS focus_provider, {} AS focus_service_category \
         FROM {COST_TABLE} WHERE {}) SELECT ",
        charge_category(),
        provider_name(),
        service_category(),
        rows_of(customer, request),
    ));
    let columns = focus::columns(request.version);
    let mut first = true;
    for column in columns {
        if !first {
            sql.push_str(", ");
        }
        first = false;
        // A column Costscope does not keep (1.3's Allocated…) comes from the loaded file's
        // custom columns when it had it.
        let value = match expression(column.name) {
            Some(value) => value.to_owned(),
            None if extra.iter().any(|key| key == column.name) => extra_value(column.name),
            None => "NULL".to_owned(),
        };
        sql.push_str(&format!(
            "{} AS {}",
            typed(&value, column.kind, request.format),
            quote_ident(column.name)
        ));
    }
    for (name, value) in CUSTOM_COLUMNS {
        sql.push_str(&format!(", {value} AS {}", quote_ident(name)));
    }
    let custom = custom_extra_columns(request, extra);
    for key in &custom {
        sql.push_str(&format!(", {} AS {}", extra_value(key), quote_ident(key)));
    }
    // Then every written column, by position: rows that tie on the keys come out in one order
    // whatever order the database holds them in (the same file from either cost engine).
    sql.push_str(
        " FROM r ORDER BY charge_period_start, provider, billing_account_id, account_id, service",
    );
    let written = columns.len() + CUSTOM_COLUMNS.len() + custom.len();
    for position in 1..=written {
        sql.push_str(&format!(", {position}"));
    }
    sql
}

/// How the export fills a FOCUS column, over the CTE `r` (the line item, its optional stored
/// columns as `s_…`, and `focus_charge_category`, `focus_provider`, `focus_service_category`).
/// `None`: the column is written NULL (Costscope does not know it).
pub fn expression(column: &str) -> Option<&'static str> {
    Some(match column {
        "AvailabilityZone" => "s_availability_zone",
        "BilledCost" => "billed_cost",
        "BillingAccountId" => "billing_account_id",
        "BillingAccountName" => "s_billing_account_name",
        "BillingCurrency" => "currency",
        "BillingPeriodEnd" => {
            "coalesce(s_billing_period_end, CAST(billing_period_start AS TIMESTAMP) + INTERVAL 1 MONTH)"
        }
        "BillingPeriodStart" => "CAST(billing_period_start AS TIMESTAMP)",
        "ChargeCategory" => "focus_charge_category",
        "ChargeClass" => CHARGE_CLASS,
        "ChargeDescription" => "coalesce(s_charge_description, nullif(usage_type, ''))",
        "ChargeFrequency" => {
            "coalesce(CASE lower(s_charge_frequency) WHEN 'one-time' THEN 'One-Time' \
             WHEN 'recurring' THEN 'Recurring' WHEN 'usage-based' THEN 'Usage-Based' END, \
             CASE WHEN focus_charge_category = 'Usage' THEN 'Usage-Based' ELSE 'One-Time' END)"
        }
        "ChargePeriodEnd" => "charge_period_end",
        "ChargePeriodStart" => "charge_period_start",
        "CommitmentDiscountCategory" => {
            "CASE WHEN s_commitment_discount_id IS NOT NULL THEN CASE \
             WHEN regexp_matches(lower(coalesce(s_commitment_discount_type, '')), 'saving|spend') \
             THEN 'Spend' ELSE 'Usage' END END"
        }
        "CommitmentDiscountId" => "s_commitment_discount_id",
        "CommitmentDiscountStatus" => {
            "CASE WHEN s_commitment_discount_id IS NOT NULL AND focus_charge_category = 'Usage' \
             THEN CASE lower(s_commitment_discount_status) WHEN 'used' THEN 'Used' \
             WHEN 'unused' THEN 'Unused' END END"
        }
        "CommitmentDiscountType" => {
            "CASE WHEN s_commitment_discount_id IS NOT NULL THEN s_commitment_discount_type END"
        }
        "ConsumedQuantity" => {
            "CASE WHEN focus_charge_category = 'Usage' AND usage_unit <> '' THEN usage_quantity END"
        }
        "ConsumedUnit" => {
            "CASE WHEN focus_charge_category = 'Usage' AND usage_unit <> '' THEN usage_unit END"
        }
        "ContractedCost" => {
            // The spec: ListCost when no negotiated terms apply to a usage or purchase charge;
            // BilledCost for credits; the related charges' for taxes (their billed amount here).
            "coalesce(s_contracted_cost, CASE WHEN focus_charge_category IN ('Usage', 'Purchase') \
             AND coalesce(lower(s_charge_class), '') <> 'correction' THEN list_cost \
             ELSE billed_cost END)"
        }
        "EffectiveCost" => "effective_cost",
        "HostProviderName" => "coalesce(s_host_provider, focus_provider)",
        "InvoiceIssuerName" => "coalesce(s_invoice_issuer, focus_provider)",
        "ListCost" => "list_cost",
        "PricingCategory" => {
            "CASE lower(s_pricing_category) WHEN 'standard' THEN 'Standard' \
             WHEN 'dynamic' THEN 'Dynamic' WHEN 'committed' THEN 'Committed' \
             WHEN 'other' THEN 'Other' END"
        }
        "PricingQuantity" => {
            "CASE WHEN s_pricing_quantity IS NOT NULL AND s_pricing_unit IS NOT NULL \
             THEN s_pricing_quantity WHEN focus_charge_category IN ('Usage', 'Purchase') \
             AND usage_unit <> '' THEN usage_quantity END"
        }
        "PricingUnit" => {
            "CASE WHEN s_pricing_quantity IS NOT NULL AND s_pricing_unit IS NOT NULL \
             THEN s_pricing_unit WHEN focus_charge_category IN ('Usage', 'Purchase') \
             AND usage_unit <> '' THEN usage_unit END"
        }
        "ProviderName" | "PublisherName" | "ServiceProviderName" => "focus_provider",
        "RegionId" => "nullif(region, '')",
        "RegionName" => "coalesce(s_region_name, nullif(region, ''))",
        "ResourceId" => "nullif(resource_id, '')",
        "ResourceName" => "nullif(resource_name, '')",
        "ResourceType" => "nullif(resource_type, '')",
        "ServiceCategory" => "focus_service_category",
        "ServiceName" => "service",
        "ServiceSubcategory" => "'Other (' || focus_service_category || ')'",
        "SkuId" => "s_sku_id",
        "SkuPriceId" => "s_sku_price_id",
        "SubAccountId" => "nullif(account_id, '')",
        "SubAccountName" => "nullif(account_name, '')",
        "Tags" => "CAST(to_json(tags) AS VARCHAR)",
        _ => return None,
    })
}

/// The text of one stored custom column (NULL when the row lacks it).
fn extra_value(key: &str) -> String {
    format!("nullif(extra[{}], '')", quote_literal(key))
}

/// ChargeClass: `Correction` where the data says so, else NULL (a regular charge).
const CHARGE_CLASS: &str = "CASE WHEN lower(s_charge_class) = 'correction' THEN 'Correction' END";

/// `value` in the column's FOCUS type as the format writes it: date/times as
/// `YYYY-MM-DDTHH:mm:ssZ` text in CSV and UTC-adjusted timestamps in Parquet; decimals as
/// fixed-point text in CSV (never exponent notation) and DOUBLE in Parquet (what pandas-based
/// tools, the FOCUS validator among them, read as numbers).
fn typed(value: &str, kind: ColumnType, format: ExportFormat) -> String {
    match (kind, format) {
        (ColumnType::String | ColumnType::Json, _) => format!("CAST({value} AS VARCHAR)"),
        (ColumnType::Decimal, ExportFormat::Csv) => format!("TRY_CAST({value} AS DECIMAL(38,10))"),
        (ColumnType::Decimal, ExportFormat::Parquet) => format!("TRY_CAST({value} AS DOUBLE)"),
        (ColumnType::DateTime, ExportFormat::Csv) => {
            format!("strftime(CAST({value} AS TIMESTAMP), '%Y-%m-%dT%H:%M:%SZ')")
        }
        // Read as UTC whatever the session's time zone: the text carries its offset.
        (ColumnType::DateTime, ExportFormat::Parquet) => format!(
            "CAST(strftime(CAST({value} AS TIMESTAMP), '%Y-%m-%d %H:%M:%S.%f') || '+00' AS TIMESTAMPTZ)"
        ),
    }
}

/// The stored charge category as one of the FOCUS values (any case); a refund is a credit; any
/// other value is usage, as Costscope's readers classify native charge types.
fn charge_category() -> String {
    let mut sql = String::from("CASE lower(charge_category)");
    for category in CHARGE_CATEGORIES {
        sql.push_str(&format!(
            " WHEN {} THEN {}",
            quote_literal(&category.to_lowercase()),
            quote_literal(category)
        ));
    }
    sql.push_str(" WHEN 'refund' THEN 'Credit' ELSE 'Usage' END");
    sql
}

/// The stored provider code as the FOCUS provider name ([`focus::provider_name`]).
fn provider_name() -> String {
    let mut sql = String::from("CASE provider");
    for provider in Provider::CLOUDS {
        sql.push_str(&format!(
            " WHEN {} THEN {}",
            quote_literal(provider.code()),
            quote_literal(focus::provider_name(&provider))
        ));
    }
    sql.push_str(" ELSE provider END");
    sql
}

/// The stored service category when it is a FOCUS ServiceCategory (any case), else `Other`.
fn service_category() -> String {
    let mut sql = String::from("CASE lower(trim(service_category))");
    for category in SERVICE_CATEGORIES {
        sql.push_str(&format!(
            " WHEN {} THEN {}",
            quote_literal(&category.to_lowercase()),
            quote_literal(category)
        ));
    }
    sql.push_str(" ELSE 'Other' END");
    sql
}

/// A `TIMESTAMP` literal of a UTC instant (microseconds).
fn timestamp_literal(at: DateTime<Utc>) -> String {
    format!("TIMESTAMP '{}'", at.format("%Y-%m-%d %H:%M:%S%.6f"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use costscope_core::focus::{FocusVersion, FOCUS_1_2, FOCUS_1_3};

    #[test]
    fn every_mandatory_column_of_every_version_has_a_value() {
        for column in FOCUS_1_2.iter().chain(FOCUS_1_3) {
            if column.mandatory && column.name != "ChargeClass" {
                assert!(
                    expression(column.name).is_some(),
                    "{} is mandatory",
                    column.name
                );
            }
        }
        // ChargeClass is mandatory but NULL for regular charges (only corrections say so).
        assert_eq!(expression("ChargeClass"), Some(CHARGE_CLASS));
    }

    #[test]
    fn the_select_lists_the_versions_columns_in_order_then_the_custom_ones() {
        let request =
            FocusExportRequest::parse(Some("2026-01-01"), Some("2026-01-31"), None, Some("1.3"))
                .unwrap();
        assert_eq!(request.version, FocusVersion::V1_3);
        let sql = select(7, &request, &|_| false, &[]);
        let mut at = 0;
        for column in FOCUS_1_3 {
            let alias = format!("AS \"{}\"", column.name);
            let found = sql[at..].find(&alias).unwrap_or_else(|| panic!("{alias}"));
            at += found + alias.len();
        }
        assert!(sql[at..].contains("AS \"x_UsageType\""));
        assert!(sql.contains("customer_id = 7 AND charge_period_start >= TIMESTAMP '2026-01-01 00:00:00.000000' AND charge_period_start <= TIMESTAMP '2026-01-31 23:59:59.999000'"));
        assert!(sql.contains("CAST(NULL AS VARCHAR) AS s_sku_id"));
    }

    #[test]
    fn stored_optional_columns_are_read_when_the_table_has_them() {
        let request =
            FocusExportRequest::parse(Some("2026-01-01"), Some("2026-01-01"), None, None).unwrap();
        let sql = select(1, &request, &|column| column == "sku_id", &[]);
        assert!(sql.contains("nullif(trim(CAST(\"sku_id\" AS VARCHAR)), '') AS s_sku_id"));
        assert!(sql.contains("CAST(NULL AS VARCHAR) AS s_sku_price_id"));
    }

    #[test]
    fn stored_x_columns_and_allocated_columns_are_written_back_once_each() {
        let request =
            FocusExportRequest::parse(Some("2026-01-01"), Some("2026-01-01"), None, Some("1.3"))
                .unwrap();
        let extra: Vec<String> = [
            "AllocatedMethodId",
            "oci_Reference",
            "x_Team",
            "X_TEAM",
            "x_UsageType",
            "x_It's",
        ]
        .into_iter()
        .map(str::to_owned)
        .collect();
        let sql = select(1, &request, &|_| true, &extra);
        assert!(sql.contains(
            "CAST(nullif(extra['AllocatedMethodId'], '') AS VARCHAR) AS \"AllocatedMethodId\""
        ));
        assert!(sql.contains(", nullif(extra['x_Team'], '') AS \"x_Team\""));
        assert!(!sql.contains("X_TEAM"));
        assert!(!sql.contains("oci_Reference"));
        assert!(!sql.contains("extra['x_UsageType']"));
        assert!(sql.contains(", nullif(extra['x_It''s'], '') AS \"x_It's\""));
        assert_eq!(custom_extra_columns(&request, &extra), ["x_Team", "x_It's"]);
    }

    #[test]
    fn the_target_path_is_an_escaped_literal() {
        let request =
            FocusExportRequest::parse(Some("2026-01-01"), Some("2026-01-01"), None, None).unwrap();
        let sql = focus_export(1, &request, "/tmp/it's.csv", &|_| false, &[]);
        assert!(sql.contains("TO '/tmp/it''s.csv' (FORMAT csv"));
    }
}
