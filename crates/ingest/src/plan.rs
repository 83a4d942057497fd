//! What a reader hands to `stage`: one SQL expression per normalised column (over the raw
//! table, whose columns are the file's own, all VARCHAR) and the checks to run first.

use costscope_core::cost::Provider;

use crate::sql::{quote_ident, quote_literal};
use crate::{Format, IngestError, NORMALISED_COLUMNS};

/// What a raw column holds. CSV and JSON give text only; a Parquet file's typed columns are
/// read as they are, which spares the text round trip and makes their checks unnecessary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ColumnKind {
    Text,
    /// Any integer, decimal or floating point type.
    Number,
    /// TIMESTAMP (without time zone) or DATE.
    Timestamp,
}

impl ColumnKind {
    /// The kind a Parquet column of this DuckDB type is kept as; None: read it as text.
    pub(crate) fn of_duckdb_type(kind: &str) -> Option<Self> {
        const NUMBERS: &[&str] = &[
            "TINYINT",
            "SMALLINT",
            "INTEGER",
            "BIGINT",
            "HUGEINT",
            "UTINYINT",
            "USMALLINT",
            "UINTEGER",
            "UBIGINT",
            "UHUGEINT",
            "FLOAT",
            "DOUBLE",
        ];
        match kind {
            "VARCHAR" => Some(Self::Text),
            "TIMESTAMP" | "TIMESTAMP_S" | "TIMESTAMP_MS" | "TIMESTAMP_NS" | "DATE" => {
                Some(Self::Timestamp)
            }
            _ if NUMBERS.contains(&kind) || kind.starts_with("DECIMAL") => Some(Self::Number),
            _ => None,
        }
    }
}

/// The columns of the raw (file-shaped) table, with lookups by name.
#[derive(Debug, Clone)]
pub(crate) struct Header {
    names: Vec<String>,
    kinds: Vec<ColumnKind>,
}

impl Header {
    /// Columns that all hold text.
    pub(crate) fn new(names: Vec<String>) -> Self {
        let kinds = vec![ColumnKind::Text; names.len()];
        Self { names, kinds }
    }

    /// Columns as `DESCRIBE` gives them (name, DuckDB type); types kept as they are get their
    /// kind, every other column is text.
    pub(crate) fn described(columns: Vec<(String, String)>) -> Self {
        let (names, kinds) = columns
            .into_iter()
            .map(|(name, kind)| {
                let kind = ColumnKind::of_duckdb_type(&kind).unwrap_or(ColumnKind::Text);
                (name, kind)
            })
            .unzip();
        Self { names, kinds }
    }

    /// The kind of a column of the file (by its exact name); text when unknown.
    pub(crate) fn kind_of(&self, name: &str) -> ColumnKind {
        self.names
            .iter()
            .position(|n| n == name)
            .map_or(ColumnKind::Text, |i| self.kinds[i])
    }

    pub(crate) fn names(&self) -> &[String] {
        &self.names
    }

    /// The file's own name of the first candidate present. Matching ignores ASCII case, and a
    /// localised header such as `Kategorie der Verbrauchseinheit (MeterCategory)` also answers
    /// to the English name in its trailing parentheses.
    pub(crate) fn find(&self, candidates: &[&str]) -> Option<&str> {
        candidates.iter().find_map(|candidate| {
            self.names
                .iter()
                .find(|name| name.eq_ignore_ascii_case(candidate))
                .or_else(|| {
                    self.names.iter().find(|name| {
                        english_name(name)
                            .is_some_and(|inner| inner.eq_ignore_ascii_case(candidate))
                    })
                })
                .map(String::as_str)
        })
    }

    pub(crate) fn has(&self, name: &str) -> bool {
        self.find(&[name]).is_some()
    }
}

/// `Name` of a `Localised text (Name)` header.
fn english_name(header: &str) -> Option<&str> {
    let inner = header.strip_suffix(')')?;
    let open = inner.rfind(" (")?;
    Some(&inner[open + 2..])
}

/// Where the provider of each row comes from.
pub(crate) enum ProviderSource {
    Fixed(Provider),
    /// A column whose values are provider names (FOCUS ServiceProviderName or ProviderName);
    /// each distinct value is resolved with `Provider::from_str` (the clouds' names to their
    /// codes, any other name as given); a value that cannot be a name refuses the file.
    Column(String),
}

/// One check over the raw table: `bad` is a SQL condition true for a row that breaks it; the
/// message is `row N, column "{column}": "{value}" {problem}`.
pub(crate) struct Check {
    pub column: String,
    pub bad: String,
    pub problem: &'static str,
}

/// The SQL expression of every normalised column except `provider`, in NORMALISED_COLUMNS
/// order, starting with `billing_account_id`.
#[derive(Clone)]
pub(crate) struct Exprs {
    pub billing_account_id: String,
    pub account_id: String,
    pub account_name: String,
    pub charge_period_start: String,
    pub charge_period_end: String,
    pub billing_period_start: String,
    pub service: String,
    pub service_category: String,
    pub region: String,
    pub usage_type: String,
    pub charge_category: String,
    pub cost_type: String,
    pub resource_id: String,
    pub resource_name: String,
    pub resource_type: String,
    pub billed_cost: String,
    pub effective_cost: String,
    pub list_cost: String,
    pub currency: String,
    pub usage_quantity: String,
    pub usage_unit: String,
    pub tags: String,
    pub details: Details,
}

/// The SQL expressions of the nullable FOCUS detail columns (NORMALISED_COLUMNS after `tags`);
/// `Details::default()` is NULL for every one, and a reader sets what its export has.
#[derive(Clone)]
pub(crate) struct Details {
    pub billing_account_name: String,
    pub billing_period_end: String,
    pub charge_class: String,
    pub charge_description: String,
    pub charge_frequency: String,
    pub contracted_cost: String,
    pub pricing_quantity: String,
    pub pricing_unit: String,
    pub pricing_category: String,
    pub sku_id: String,
    pub sku_price_id: String,
    pub invoice_issuer: String,
    pub host_provider: String,
    pub commitment_discount_id: String,
    pub commitment_discount_type: String,
    pub commitment_discount_status: String,
    pub availability_zone: String,
    pub region_name: String,
    pub extra: String,
}

impl Default for Details {
    fn default() -> Self {
        let null = || "NULL".to_owned();
        Self {
            billing_account_name: null(),
            billing_period_end: null(),
            charge_class: null(),
            charge_description: null(),
            charge_frequency: null(),
            contracted_cost: null(),
            pricing_quantity: null(),
            pricing_unit: null(),
            pricing_category: null(),
            sku_id: null(),
            sku_price_id: null(),
            invoice_issuer: null(),
            host_provider: null(),
            commitment_discount_id: null(),
            commitment_discount_type: null(),
            commitment_discount_status: null(),
            availability_zone: null(),
            region_name: null(),
            extra: null(),
        }
    }
}

impl Exprs {
    /// `SELECT` list producing exactly NORMALISED_COLUMNS, `provider` first.
    pub(crate) fn select_list(&self, provider: &str) -> String {
        let values = [
            provider,
            &self.billing_account_id,
            &self.account_id,
            &self.account_name,
            &self.charge_period_start,
            &self.charge_period_end,
            &self.billing_period_start,
            &self.service,
            &self.service_category,
            &self.region,
            &self.usage_type,
            &self.charge_category,
            &self.cost_type,
            &self.resource_id,
            &self.resource_name,
            &self.resource_type,
            &self.billed_cost,
            &self.effective_cost,
            &self.list_cost,
            &self.currency,
            &self.usage_quantity,
            &self.usage_unit,
            &self.tags,
            &self.details.billing_account_name,
            &self.details.billing_period_end,
            &self.details.charge_class,
            &self.details.charge_description,
            &self.details.charge_frequency,
            &self.details.contracted_cost,
            &self.details.pricing_quantity,
            &self.details.pricing_unit,
            &self.details.pricing_category,
            &self.details.sku_id,
            &self.details.sku_price_id,
            &self.details.invoice_issuer,
            &self.details.host_provider,
            &self.details.commitment_discount_id,
            &self.details.commitment_discount_type,
            &self.details.commitment_discount_status,
            &self.details.availability_zone,
            &self.details.region_name,
            &self.details.extra,
        ];
        assert_eq!(values.len(), NORMALISED_COLUMNS.len());
        values
            .iter()
            .zip(NORMALISED_COLUMNS)
            .map(|(expr, (name, kind))| {
                let kind = kind.trim_end_matches(" NOT NULL");
                format!("CAST(({expr}) AS {kind}) AS {}", quote_ident(name))
            })
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// A reader's answer: rows from the raw table, optional extra rows (GCP credits) and checks.
pub(crate) struct Plan {
    pub provider: ProviderSource,
    pub main: Exprs,
    /// Additional rows: expressions and the `FROM …` clause they read.
    pub extra: Option<(Exprs, String)>,
    pub checks: Vec<Check>,
}

/// Builds expressions over the header's columns and records the checks they need.
pub(crate) struct Columns<'a> {
    header: &'a Header,
    format: Format,
    display_name: &'a str,
    pub checks: Vec<Check>,
}

pub(crate) const EMPTY_TAGS: &str = "CAST(MAP {} AS MAP(VARCHAR, VARCHAR))";

impl<'a> Columns<'a> {
    pub(crate) fn new(header: &'a Header, format: Format, display_name: &'a str) -> Self {
        Self {
            header,
            format,
            display_name,
            checks: Vec::new(),
        }
    }

    pub(crate) fn header(&self) -> &Header {
        self.header
    }

    /// The file's name of the first candidate present.
    pub(crate) fn name(&self, candidates: &[&str]) -> Option<String> {
        self.header.find(candidates).map(str::to_owned)
    }

    /// Like `name`, but a missing column refuses the file (named by the first candidate).
    pub(crate) fn required(&self, candidates: &[&str]) -> Result<String, IngestError> {
        self.name(candidates).ok_or_else(|| {
            IngestError::new(format!(
                "{}: missing column \"{}\" required by the {} format",
                self.display_name,
                candidates[0],
                self.format.display_name()
            ))
        })
    }

    /// Text of the first candidate present, '' when none is (or the value is empty).
    pub(crate) fn text(&self, candidates: &[&str]) -> String {
        match self.name(candidates) {
            Some(name) => format!("costscope_txt({})", quote_ident(&name)),
            None => "''".to_owned(),
        }
    }

    /// The first non-empty value among every candidate present ('' when none).
    pub(crate) fn first_text(&self, candidates: &[&str]) -> String {
        let present: Vec<String> = candidates
            .iter()
            .filter_map(|c| self.name(&[c]))
            .map(|name| format!("costscope_clean({})", quote_ident(&name)))
            .collect();
        if present.is_empty() {
            "''".to_owned()
        } else {
            format!("coalesce({}, '')", present.join(", "))
        }
    }

    /// Text of the first candidate present, NULL when none is (or the value is empty).
    pub(crate) fn opt_text(&self, candidates: &[&str]) -> String {
        match self.name(candidates) {
            Some(name) => format!("costscope_clean({})", quote_ident(&name)),
            None => "NULL".to_owned(),
        }
    }

    /// The first non-empty value among every candidate present, NULL when none.
    pub(crate) fn opt_first_text(&self, candidates: &[&str]) -> String {
        match self.first_text(candidates).as_str() {
            "''" => "NULL".to_owned(),
            coalesced => format!("nullif({coalesced}, '')"),
        }
    }

    pub(crate) fn text_required(&self, candidates: &[&str]) -> Result<String, IngestError> {
        let name = self.required(candidates)?;
        Ok(format!("costscope_txt({})", quote_ident(&name)))
    }

    fn check(&mut self, name: &str, bad: String, problem: &'static str) {
        if !self
            .checks
            .iter()
            .any(|c| c.column == name && c.problem == problem)
        {
            self.checks.push(Check {
                column: name.to_owned(),
                bad,
                problem,
            });
        }
    }

    fn money_of(&mut self, name: &str) -> String {
        let ident = quote_ident(name);
        if self.header.kind_of(name) == ColumnKind::Number {
            return format!("coalesce(CAST({ident} AS DECIMAL(18,9)), CAST(0 AS DECIMAL(18,9)))");
        }
        self.check(
            name,
            format!("costscope_bad_money({ident})"),
            "is not a number",
        );
        format!("costscope_money({ident})")
    }

    /// Money (DECIMAL(18,9)) of the first candidate present; None when none is.
    pub(crate) fn money(&mut self, candidates: &[&str]) -> Option<String> {
        let name = self.name(candidates)?;
        Some(self.money_of(&name))
    }

    pub(crate) fn money_required(&mut self, candidates: &[&str]) -> Result<String, IngestError> {
        let name = self.required(candidates)?;
        Ok(self.money_of(&name))
    }

    /// Money that may be absent: NULL when no candidate is present or the value is empty.
    pub(crate) fn opt_money(&mut self, candidates: &[&str]) -> String {
        let Some(name) = self.name(candidates) else {
            return "NULL".to_owned();
        };
        let ident = quote_ident(&name);
        if self.header.kind_of(&name) == ColumnKind::Number {
            return format!("CAST({ident} AS DECIMAL(18,9))");
        }
        self.check(
            &name,
            format!("costscope_bad_money({ident})"),
            "is not a number",
        );
        format!("costscope_money_or_null({ident})")
    }

    /// A quantity that may be absent: NULL when no candidate is present or the value is empty.
    pub(crate) fn opt_quantity(&mut self, candidates: &[&str]) -> String {
        let Some(name) = self.name(candidates) else {
            return "NULL".to_owned();
        };
        let ident = quote_ident(&name);
        if self.header.kind_of(&name) == ColumnKind::Number {
            return format!("CAST({ident} AS DOUBLE)");
        }
        self.check(
            &name,
            format!("costscope_bad_qty({ident})"),
            "is not a number",
        );
        format!("costscope_qty_or_null({ident})")
    }

    /// A quantity (DOUBLE), 0 when no candidate is present.
    pub(crate) fn quantity(&mut self, candidates: &[&str]) -> String {
        match self.name(candidates) {
            Some(name) if self.header.kind_of(&name) == ColumnKind::Number => {
                format!("coalesce(CAST({} AS DOUBLE), 0)", quote_ident(&name))
            }
            Some(name) => {
                let ident = quote_ident(&name);
                self.check(
                    &name,
                    format!("costscope_bad_qty({ident})"),
                    "is not a number",
                );
                format!("costscope_qty({ident})")
            }
            None => "0".to_owned(),
        }
    }

    fn timestamp_of(&mut self, name: &str, required: bool) -> String {
        let ident = quote_ident(name);
        if self.header.kind_of(name) == ColumnKind::Timestamp {
            if required {
                self.check(name, format!("{ident} IS NULL"), "is not a date");
            }
            return format!("CAST({ident} AS TIMESTAMP)");
        }
        let bad = if required {
            format!("(costscope_bad_ts({ident}) OR costscope_clean({ident}) IS NULL)")
        } else {
            format!("costscope_bad_ts({ident})")
        };
        self.check(name, bad, "is not a date");
        format!("costscope_ts({ident})")
    }

    /// A timestamp every row must have.
    pub(crate) fn timestamp_required(
        &mut self,
        candidates: &[&str],
    ) -> Result<String, IngestError> {
        let name = self.required(candidates)?;
        Ok(self.timestamp_of(&name, true))
    }

    /// A timestamp that may be empty (NULL then); None when no candidate is present.
    pub(crate) fn timestamp(&mut self, candidates: &[&str]) -> Option<String> {
        let name = self.name(candidates)?;
        Some(self.timestamp_of(&name, false))
    }

    /// A JSON object (outer braces optional, as in Azure EA exports) as a tag map.
    pub(crate) fn json_tags(&mut self, candidates: &[&str]) -> Option<String> {
        let name = self.name(candidates)?;
        let ident = quote_ident(&name);
        self.check(
            &name,
            format!("costscope_bad_json_map({ident})"),
            "is not a JSON object",
        );
        Some(format!(
            "coalesce(costscope_json_map({ident}), {EMPTY_TAGS})"
        ))
    }

    /// A check of the caller's making on a column of the file.
    pub(crate) fn custom_check(&mut self, name: &str, bad: String, problem: &'static str) {
        self.check(name, bad, problem);
    }
}

/// A map literal `{key: column value}` from (key, column) pairs, leaving out empty values.
pub(crate) fn tags_from_columns(pairs: &[(String, String)]) -> String {
    let entries: Vec<(String, String)> = pairs
        .iter()
        .map(|(key, column)| {
            (
                key.clone(),
                format!("costscope_txt({})", quote_ident(column)),
            )
        })
        .collect();
    map_of(&entries)
}

/// A map literal `{key: text expression}` from (key, expression) pairs, leaving out the entries
/// whose value is '' (every expression must give text, never NULL); empty without pairs.
pub(crate) fn map_of(entries: &[(String, String)]) -> String {
    if entries.is_empty() {
        return EMPTY_TAGS.to_owned();
    }
    let entries: Vec<String> = entries
        .iter()
        .map(|(key, value)| format!("{{'k': {}, 'v': {value}}}", quote_literal(key)))
        .collect();
    format!(
        "coalesce(map_from_entries(list_filter([{}], lambda e: e.v <> '')), {EMPTY_TAGS})",
        entries.join(", ")
    )
}

/// The macros the expressions above use. Values arrive as VARCHAR (or NULL); the tokens `NULL`
/// and `null` (written by some exports for a missing value) count as empty, and surrounding
/// spaces are ignored.
///
/// Each macro tries the plain cast of the value first and falls back to the careful (trimming,
/// pattern-matching) path only for the values that cast refuses: on a clean export that is
/// none of them, and the careful path costs ten times the cast.
pub(crate) const MACROS: &[&str] = &[
    r"CREATE OR REPLACE TEMP MACRO costscope_clean_slow(v) AS CASE WHEN v IS NULL OR trim(CAST(v AS VARCHAR)) = '' OR upper(trim(CAST(v AS VARCHAR))) = 'NULL' THEN NULL ELSE trim(CAST(v AS VARCHAR)) END",
    // Text that needs no cleaning: no surrounding space and not the NULL token.
    r"CREATE OR REPLACE TEMP MACRO costscope_plain(t) AS NOT (starts_with(t, ' ') OR ends_with(t, ' ') OR (length(t) = 4 AND upper(t) = 'NULL'))",
    r"CREATE OR REPLACE TEMP MACRO costscope_clean(v) AS CASE WHEN v IS NULL THEN NULL WHEN costscope_plain(CAST(v AS VARCHAR)) THEN nullif(CAST(v AS VARCHAR), '') ELSE costscope_clean_slow(v) END",
    r"CREATE OR REPLACE TEMP MACRO costscope_txt(v) AS coalesce(costscope_clean(v), '')",
    r"CREATE OR REPLACE TEMP MACRO costscope_money(v) AS coalesce(TRY_CAST(v AS DECIMAL(18,9)), CASE WHEN v IS NULL THEN NULL ELSE TRY_CAST(costscope_clean_slow(v) AS DECIMAL(18,9)) END, CAST(0 AS DECIMAL(18,9)))",
    r"CREATE OR REPLACE TEMP MACRO costscope_bad_money(v) AS v IS NOT NULL AND TRY_CAST(v AS DECIMAL(18,9)) IS NULL AND costscope_clean_slow(v) IS NOT NULL AND TRY_CAST(costscope_clean_slow(v) AS DECIMAL(18,9)) IS NULL",
    // Nullable money and quantities: an empty value (or the NULL token) is NULL, not 0.
    r"CREATE OR REPLACE TEMP MACRO costscope_money_or_null(v) AS coalesce(TRY_CAST(v AS DECIMAL(18,9)), CASE WHEN v IS NULL THEN NULL ELSE TRY_CAST(costscope_clean_slow(v) AS DECIMAL(18,9)) END)",
    r"CREATE OR REPLACE TEMP MACRO costscope_qty_or_null(v) AS coalesce(TRY_CAST(v AS DOUBLE), CASE WHEN v IS NULL THEN NULL ELSE TRY_CAST(costscope_clean_slow(v) AS DOUBLE) END)",
    r"CREATE OR REPLACE TEMP MACRO costscope_qty(v) AS coalesce(TRY_CAST(v AS DOUBLE), CASE WHEN v IS NULL THEN NULL ELSE TRY_CAST(costscope_clean_slow(v) AS DOUBLE) END, 0)",
    r"CREATE OR REPLACE TEMP MACRO costscope_bad_qty(v) AS v IS NOT NULL AND TRY_CAST(v AS DOUBLE) IS NULL AND costscope_clean_slow(v) IS NOT NULL AND TRY_CAST(costscope_clean_slow(v) AS DOUBLE) IS NULL",
    // ISO 8601 text (and typed Parquet timestamps, read as text) takes the plain cast; only text
    // it refuses goes through the US date patterns and the ` UTC` suffix.
    r"CREATE OR REPLACE TEMP MACRO costscope_ts_text(c) AS CASE WHEN regexp_full_match(c, '\d{1,2}/\d{1,2}/\d{2}') THEN try_strptime(c, '%m/%d/%y') WHEN regexp_full_match(c, '\d{1,2}/\d{1,2}/\d{4}( .*)?') THEN try_strptime(c, ['%m/%d/%Y', '%m/%d/%Y %H:%M:%S', '%m/%d/%Y %H:%M', '%m/%d/%Y %I:%M:%S %p', '%m/%d/%Y %I:%M %p']) ELSE TRY_CAST(regexp_replace(c, ' UTC$', '+00') AS TIMESTAMP) END",
    r"CREATE OR REPLACE TEMP MACRO costscope_ts_slow(v) AS CASE WHEN costscope_clean_slow(v) IS NULL THEN NULL ELSE coalesce(TRY_CAST(costscope_clean_slow(v) AS TIMESTAMP), costscope_ts_text(costscope_clean_slow(v))) END",
    r"CREATE OR REPLACE TEMP MACRO costscope_ts(v) AS coalesce(TRY_CAST(v AS TIMESTAMP), CASE WHEN v IS NULL THEN NULL ELSE costscope_ts_slow(v) END)",
    r"CREATE OR REPLACE TEMP MACRO costscope_bad_ts(v) AS v IS NOT NULL AND TRY_CAST(v AS TIMESTAMP) IS NULL AND costscope_clean_slow(v) IS NOT NULL AND costscope_ts_slow(v) IS NULL",
    r"CREATE OR REPLACE TEMP MACRO costscope_json_map_slow(v) AS CASE WHEN costscope_clean_slow(v) IS NULL THEN NULL ELSE TRY_CAST(TRY_CAST(CASE WHEN starts_with(costscope_clean_slow(v), '{') THEN costscope_clean_slow(v) ELSE '{' || costscope_clean_slow(v) || '}' END AS JSON) AS MAP(VARCHAR, VARCHAR)) END",
    r"CREATE OR REPLACE TEMP MACRO costscope_json_map(v) AS coalesce(TRY_CAST(TRY_CAST(v AS JSON) AS MAP(VARCHAR, VARCHAR)), CASE WHEN v IS NULL THEN NULL ELSE costscope_json_map_slow(v) END)",
    r"CREATE OR REPLACE TEMP MACRO costscope_bad_json_map(v) AS v IS NOT NULL AND TRY_CAST(TRY_CAST(v AS JSON) AS MAP(VARCHAR, VARCHAR)) IS NULL AND costscope_clean_slow(v) IS NOT NULL AND costscope_json_map_slow(v) IS NULL",
    r"CREATE OR REPLACE TEMP MACRO costscope_charge_category(v) AS CASE lower(costscope_txt(v)) WHEN 'tax' THEN 'Tax' WHEN 'credit' THEN 'Credit' WHEN 'refund' THEN 'Credit' WHEN 'bundleddiscount' THEN 'Credit' WHEN 'discount' THEN 'Credit' WHEN 'edpdiscount' THEN 'Credit' WHEN 'privateratediscount' THEN 'Credit' WHEN 'distributordiscount' THEN 'Credit' WHEN 'fee' THEN 'Purchase' WHEN 'rifee' THEN 'Purchase' WHEN 'savingsplanrecurringfee' THEN 'Purchase' WHEN 'savingsplanupfrontfee' THEN 'Purchase' WHEN 'purchase' THEN 'Purchase' WHEN 'adjustment' THEN 'Adjustment' WHEN 'rounding_error' THEN 'Adjustment' WHEN 'roundingadjustment' THEN 'Adjustment' ELSE 'Usage' END",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_lookup_ignores_case_and_reads_localised_names() {
        let header = Header::new(vec![
            "costInBillingCurrency".into(),
            "Kategorie der Verbrauchseinheit (MeterCategory)".into(),
            "Date".into(),
        ]);
        assert_eq!(
            header.find(&["CostInBillingCurrency"]),
            Some("costInBillingCurrency")
        );
        assert_eq!(
            header.find(&["MeterCategory"]),
            Some("Kategorie der Verbrauchseinheit (MeterCategory)")
        );
        assert_eq!(header.find(&["UsageDateTime", "date"]), Some("Date"));
        assert_eq!(header.find(&["PreTaxCost"]), None);
    }
}
