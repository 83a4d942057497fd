//! The one place that turns cost questions into SQL, for DuckDB or ClickHouse ([`Dialect`]).
//! Every value that comes from a request is a bound `?` parameter (DuckDB) or a literal written
//! by `costscope_clickhouse::literal` (ClickHouse); column names come only from the fixed
//! allow-lists below.

use std::borrow::Cow;

use chrono::{DateTime, NaiveDate, Utc};
use costscope_core::cost::{
    AggregateQuery, CostFilter, Dimension, FilterGroup, GroupJoin, Interval, MatchOperator, Metric,
    TagCondition, TimeRange, ValueCondition,
};
use duckdb::types::{TimeUnit, Value};

use crate::{ResourceSort, ResourcesQuery};

mod aggregate_nested;
mod conversion;
mod dialect;
mod factored_groups;
#[cfg(test)]
mod golden;

pub use conversion::{data_currencies, data_currencies_in, some_currency, Conversion};
pub(crate) use conversion::{rates_schema, RATES_TABLE};
pub use dialect::Dialect;

/// The cost line item table (DESIGN §4).
pub(crate) const COST_TABLE: &str = "cost_line_items";
/// The daily rollup of [`COST_TABLE`]: one row per customer, charge date, billing period and
/// every column a filter or a dimension reads except tags and resources, with the sums, the line
/// item count and the earliest/latest charge instant. Maintained in each load's transaction.
pub(crate) const DAILY_TABLE: &str = "cost_daily";
/// Distinct non-empty tag pairs per customer, charge date and billing period, with the
/// earliest/latest charge instant. Maintained in each load's transaction.
pub(crate) const TAGS_TABLE: &str = "cost_tags_daily";
/// [`DAILY_TABLE`] without the usage type: one row per customer, charge date, billing period,
/// account, service, region, cost type and currency. Usage types multiply the daily rows (a
/// dozen per service in the benchmark data, hundreds in a real AWS export), so most questions
/// read this narrower rollup instead. Maintained in each load's transaction.
pub(crate) const CORE_DAILY_TABLE: &str = "cost_daily_core";
/// [`CORE_DAILY_TABLE`] by calendar month: `charge_date` is the month's first day. Answers
/// questions on whole months bucketed by month (or not at all), without a currency conversion
/// (rates are daily). Maintained in each load's transaction.
pub(crate) const MONTHLY_TABLE: &str = "cost_monthly";
/// The values `/v2/cost/filters` lists, per customer, charge date and billing period: one row
/// per list (`gid`, as in [`filter_values`]) and value, with the provider (the billing period's)
/// and the latest account name. Answers the unfiltered question. Maintained in each load's
/// transaction.
pub(crate) const VALUES_TABLE: &str = "cost_values_daily";
/// Per customer: the number of line items, of rows of each rollup and of distinct currencies
/// (kept by each load; `currencies`, `core_rows` and `monthly_rows` are NULL until the first
/// load or migration of an older database).
pub(crate) const ROLLUP_STATS_TABLE: &str = "cost_rollup_stats";
/// The billing period of a rollup row: the key a load replaces.
pub(crate) const PERIOD_KEYS: &str = "provider, billing_account_id, billing_period_start";
/// The columns of [`DAILY_TABLE`] besides the customer, date, period keys and sums.
pub(crate) const DAILY_DIMENSIONS: &str =
    "account_id, account_name, service, region, usage_type, cost_type, currency";
/// [`DAILY_DIMENSIONS`] without the usage type: the columns of [`CORE_DAILY_TABLE`] and
/// [`MONTHLY_TABLE`] besides the customer, date, period keys and sums.
pub(crate) const CORE_DIMENSIONS: &str =
    "account_id, account_name, service, region, cost_type, currency";
/// A daily rollup is read instead of the line items only when it has at most this fraction of
/// their rows (data with a resource or hour per row rolls up well; data that does not is read
/// faster from the line items, whose sums are narrower).
pub(crate) const ROLLUP_MAX_RATIO: f64 = 0.5;

/// Which table a query reads. Every source gives the same answers for the questions it can
/// answer (see [`Source::covers`] and [`straddle_check`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// [`COST_TABLE`]: every question.
    LineItems,
    /// [`DAILY_TABLE`] ([`TAGS_TABLE`] for tag values): no tag condition, and no row group of a
    /// boundary day on both sides of the range's boundary instant.
    Daily,
    /// [`CORE_DAILY_TABLE`]: what [`Source::Daily`] answers, without the usage type.
    CoreDaily,
    /// [`MONTHLY_TABLE`]: what [`Source::CoreDaily`] answers, on whole months by month.
    Monthly,
}

/// What a question reads, for choosing its [`Source`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Reads {
    /// A tag (a condition on one): only the line items have them.
    pub tags: bool,
    /// The usage type (a grouping, a condition or its list of values).
    pub usage_type: bool,
    /// Whole calendar months, bucketed by month or not at all, not converted.
    pub whole_months: bool,
}

impl Reads {
    /// What an aggregation (or its previous total, on `range`) reads.
    pub fn aggregation(query: &AggregateQuery, range: &TimeRange, converting: bool) -> Self {
        let over = Self::over(&query.filter, range, converting);
        let monthly_buckets =
            !query.cumulative && matches!(query.interval, None | Some(Interval::Monthly));
        Self {
            usage_type: over.usage_type || query.dimensions.contains(&Dimension::UsageType),
            whole_months: over.whole_months && monthly_buckets,
            ..over
        }
    }

    /// What a total of `range` filtered by `filter` (converted or not) reads.
    pub fn over(filter: &CostFilter, range: &TimeRange, converting: bool) -> Self {
        Self {
            whole_months: !converting && is_whole_months(range),
            ..Self::of_filter(filter)
        }
    }

    /// What a question filtered by `filter` reads besides its grouping.
    pub fn of_filter(filter: &CostFilter) -> Self {
        Self {
            tags: needs_line_items(filter),
            usage_type: reads_usage_type(filter),
            whole_months: false,
        }
    }
}

fn reads_usage_type(filter: &CostFilter) -> bool {
    filter
        .groups
        .iter()
        .any(|group| !group.usage_types.is_empty())
}

/// True when `range` runs from a month's first midnight to (any instant of) a month's last day:
/// calendar months, which [`MONTHLY_TABLE`] answers exactly when nothing was charged on the
/// last day after the range's end (its [`straddle_check`]).
pub fn is_whole_months(range: &TimeRange) -> bool {
    use chrono::Datelike;
    let (first, _) = partial_days(range);
    let after_end = range.end().date_naive().succ_opt();
    first.is_none() && range.start().day() == 1 && after_end.is_some_and(|day| day.day() == 1)
}

impl Source {
    /// The rollups, narrowest first (each has at most the rows of the next).
    pub const ROLLUPS: [Source; 3] = [Source::Monthly, Source::CoreDaily, Source::Daily];

    /// The table it names.
    pub fn table(self) -> &'static str {
        match self {
            Source::LineItems => COST_TABLE,
            Source::Daily => DAILY_TABLE,
            Source::CoreDaily => CORE_DAILY_TABLE,
            Source::Monthly => MONTHLY_TABLE,
        }
    }

    /// Whether this source holds what `reads` needs.
    pub fn covers(self, reads: Reads) -> bool {
        match self {
            Source::LineItems => true,
            Source::Daily => !reads.tags,
            Source::CoreDaily => !reads.tags && !reads.usage_type,
            Source::Monthly => !reads.tags && !reads.usage_type && reads.whole_months,
        }
    }

    /// The number of line items of the rows read.
    fn line_items(self) -> &'static str {
        match self {
            Source::LineItems => "count(*)",
            _ => "sum(line_items)",
        }
    }

    /// The earliest / latest charge instant of a row.
    fn instants(self) -> (&'static str, &'static str) {
        match self {
            Source::LineItems => ("charge_period_start", "charge_period_start"),
            _ => ("earliest_start", "latest_start"),
        }
    }
}

/// The tenant's row counts: line items, monthly, core daily and daily rollup rows (NULL when not
/// kept yet), then whether all its costs are in one currency (no row for a tenant without data).
pub fn rollup_stats(customer: i64) -> Sql {
    rollup_stats_in(Dialect::DuckDb, customer)
}

/// [`rollup_stats`] in `dialect`. ClickHouse keeps the counts per billing period (a row per
/// partition, swapped with it, see `clickhouse_engine::rollups`): their sums (NULL for a tenant
/// without data, as DuckDB's missing row), the daily rollup with usage types never kept (NULL),
/// and no currency column.
pub fn rollup_stats_in(dialect: Dialect, customer: i64) -> Sql {
    let mut sql = Sql::new(dialect);
    if dialect.is_clickhouse() {
        sql.push(
            "SELECT sum(line_items), if(count() = 0, NULL, sum(monthly_rows)), \
             if(count() = 0, NULL, sum(core_rows)), NULL FROM ",
        )
        .push(&dialect.table(ROLLUP_STATS_TABLE))
        .push(" WHERE customer_id = ");
        sql.bind(Value::BigInt(customer));
        return sql;
    }
    sql.push("SELECT line_items, monthly_rows, core_rows, daily_rows, coalesce(currencies = 1, false) FROM ")
        .push(ROLLUP_STATS_TABLE)
        .push(" WHERE customer_id = ");
    sql.bind(Value::BigInt(customer));
    sql
}

/// A tenant's row counts as [`rollup_stats`] gives them: a rollup's is `None` while it is not
/// kept.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RollupRows {
    pub line_items: i64,
    pub monthly: Option<i64>,
    pub core: Option<i64>,
    pub daily: Option<i64>,
}

impl RollupRows {
    /// Whether `source` is kept and worth reading instead of the line items.
    pub fn pays(&self, source: Source) -> bool {
        let rows = match source {
            Source::LineItems => return true,
            Source::Monthly => self.monthly,
            Source::CoreDaily => self.core,
            Source::Daily => self.daily,
        };
        rows.is_some_and(|rows| rollup_pays(rows, self.line_items))
    }

    /// The rollups that hold what `reads` needs and pay, narrowest first: the source of a
    /// question is the first of them that answers its range exactly ([`straddle_check`]), else
    /// the line items.
    pub fn candidates(self, reads: Reads) -> impl Iterator<Item = Source> {
        Source::ROLLUPS
            .into_iter()
            .filter(move |source| source.covers(reads) && self.pays(*source))
    }
}

/// Whether a rollup of `rows` rows is worth reading instead of `line_items` line items.
pub fn rollup_pays(rows: i64, line_items: i64) -> bool {
    rows as f64 <= line_items as f64 * ROLLUP_MAX_RATIO
}

/// True when the filter reads a tag, which only the line items have.
pub fn needs_line_items(filter: &CostFilter) -> bool {
    filter.groups.iter().any(|group| !group.tags.is_empty())
}

/// True when the filter has no condition at all (tag values can come from [`TAGS_TABLE`]).
pub fn is_unfiltered(filter: &CostFilter) -> bool {
    filter
        .cost_type_inclusions
        .as_ref()
        .is_none_or(|list| list.is_empty())
        && groups_condition(&filter.groups).is_none()
}

/// A boundary day and the boundary instant on it.
type PartialDay = (NaiveDate, Value);

/// Days the range covers only in part: `(first day, start)` when `start` is not midnight,
/// `(last day, end)` when `end` is not the day's last microsecond.
fn partial_days(range: &TimeRange) -> (Option<PartialDay>, Option<PartialDay>) {
    const DAY_MICROS: i64 = 86_400_000_000;
    let (start, end) = (range.start(), range.end());
    let first = (start.timestamp_micros().rem_euclid(DAY_MICROS) != 0)
        .then(|| (start.date_naive(), timestamp_value(start)));
    let last = (end.timestamp_micros().rem_euclid(DAY_MICROS) != DAY_MICROS - 1)
        .then(|| (end.date_naive(), timestamp_value(end)));
    (first, last)
}

/// A rollup a [`straddle_check`] reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rollup {
    /// The rollup of a [`Source`] other than the line items.
    Costs(Source),
    /// [`TAGS_TABLE`].
    Tags,
    /// [`VALUES_TABLE`].
    Values,
}

impl Rollup {
    fn table(self) -> &'static str {
        match self {
            Rollup::Costs(source) => source.table(),
            Rollup::Tags => TAGS_TABLE,
            Rollup::Values => VALUES_TABLE,
        }
    }
}

/// The number of rows of a partly covered boundary day that keep `rollup` from answering the
/// range exactly (it does only when this is 0). `None` when no day is partly covered (nothing to
/// check).
pub fn straddle_check(customer: i64, range: &TimeRange, rollup: Rollup) -> Option<Sql> {
    straddle_check_in(Dialect::DuckDb, customer, range, rollup)
}

/// [`straddle_check`] in `dialect`.
pub fn straddle_check_in(
    dialect: Dialect,
    customer: i64,
    range: &TimeRange,
    rollup: Rollup,
) -> Option<Sql> {
    let (first, last) = partial_days(range);
    if first.is_none() && last.is_none() {
        return None;
    }
    // A month row holds its boundary day whole: it answers exactly only when nothing on that
    // day was charged outside the range (read from the core daily rows). A daily row answers
    // exactly unless it holds charges on both sides of the boundary.
    let (table, straddling) = match rollup {
        Rollup::Costs(Source::Monthly) => (CORE_DAILY_TABLE, false),
        _ => (rollup.table(), true),
    };
    let (earliest, latest) = (
        dialect.instant("earliest_start"),
        dialect.instant("latest_start"),
    );
    let mut sql = Sql::new(dialect);
    sql.push("SELECT count(*) FROM ")
        .push(&dialect.table(table))
        .push(" WHERE customer_id = ");
    sql.bind(Value::BigInt(customer));
    sql.push(" AND (").push(dialect.boolean(false));
    if let Some((day, start)) = first {
        sql.push(" OR (charge_date = ");
        sql.bind(date_value(day));
        sql.push(" AND ").push(&earliest).push(" < ");
        sql.bind(start.clone());
        if straddling {
            sql.push(" AND ").push(&latest).push(" >= ");
            sql.bind(start);
        }
        sql.push(")");
    }
    if let Some((day, end)) = last {
        sql.push(" OR (charge_date = ");
        sql.bind(date_value(day));
        sql.push(" AND ").push(&latest).push(" > ");
        sql.bind(end.clone());
        if straddling {
            sql.push(" AND ").push(&earliest).push(" <= ");
            sql.bind(end);
        }
        sql.push(")");
    }
    sql.push(")");
    Some(sql)
}

/// SQL text with its bound values, in placeholder order (DuckDB); ClickHouse SQL has its
/// values written into the text and no parameters.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Sql {
    pub text: String,
    pub params: Vec<Value>,
    pub dialect: Dialect,
}

impl Sql {
    /// Empty SQL of `dialect`.
    pub fn new(dialect: Dialect) -> Self {
        Self {
            dialect,
            ..Self::default()
        }
    }

    fn push(&mut self, text: &str) -> &mut Self {
        self.text.push_str(text);
        self
    }

    fn bind(&mut self, value: Value) -> &mut Self {
        match self.dialect {
            Dialect::DuckDb => {
                self.text.push('?');
                self.params.push(value);
            }
            Dialect::ClickHouse { .. } => self.text.push_str(&Dialect::literal(&value)),
        }
        self
    }

    fn bind_text(&mut self, value: &str) -> &mut Self {
        self.bind(Value::Text(value.to_owned()))
    }

    /// `(?, ?, …)` with one placeholder per value.
    fn bind_list<'a>(&mut self, values: impl IntoIterator<Item = &'a str>) -> &mut Self {
        self.push("(");
        for (index, value) in values.into_iter().enumerate() {
            if index > 0 {
                self.push(", ");
            }
            self.bind_text(value);
        }
        self.push(")")
    }

    fn append(&mut self, other: &Sql) -> &mut Self {
        self.text.push_str(&other.text);
        self.params.extend(other.params.iter().cloned());
        self
    }
}

/// The column a grouping dimension reads (allow-list).
pub const fn dimension_column(dimension: Dimension) -> &'static str {
    match dimension {
        Dimension::Account => "account_id",
        Dimension::Region => "region",
        Dimension::Service => "service",
        Dimension::CloudProvider => "provider",
        Dimension::CostType => "cost_type",
        Dimension::UsageType => "usage_type",
    }
}

/// The amount column a metric sums (allow-list).
pub const fn metric_column(metric: Metric) -> &'static str {
    match metric {
        Metric::Billed => "billed_cost",
        Metric::Effective => "effective_cost",
        Metric::List => "list_cost",
    }
}

/// A `TIMESTAMP` parameter (the table stores UTC instants as naive timestamps).
pub fn timestamp_value(at: DateTime<Utc>) -> Value {
    Value::Timestamp(TimeUnit::Microsecond, at.timestamp_micros())
}

/// A `DATE` parameter.
pub fn date_value(date: NaiveDate) -> Value {
    let epoch = NaiveDate::from_ymd_opt(1970, 1, 1).expect("valid date");
    let days = (date - epoch).num_days();
    Value::Date32(i32::try_from(days).unwrap_or(i32::MAX))
}

/// What a condition compares: a column, or one tag's value (`''` when the row lacks the tag).
#[derive(Debug, Clone, Copy)]
enum Target<'a> {
    Column(&'static str),
    Tag(&'a str),
}

impl Target<'_> {
    fn emit(self, sql: &mut Sql) {
        match self {
            Target::Column(column) => {
                sql.push(column);
            }
            Target::Tag(key) if sql.dialect.is_clickhouse() => {
                // The tags are two parallel arrays; a missing key reads index 0, i.e. ''.
                sql.push("tags_values[indexOf(tags_keys, ");
                sql.bind_text(key);
                sql.push(")]");
            }
            Target::Tag(key) => {
                sql.push("coalesce(map_extract_value(tags, ");
                sql.bind_text(key);
                sql.push("), '')");
            }
        }
    }
}

/// One condition. Columns are `NOT NULL` with `''` for a missing value, so `NOT IN` keeps rows
/// without a value; a missing tag reads as `''` for the same reason. The string operators of
/// `/v1/query` compare case-insensitively; several values mean "any of them" (`not_contains`:
/// none of them).
fn condition(sql: &mut Sql, target: Target<'_>, condition: &ValueCondition, lower_values: bool) {
    let values: Vec<String> = condition
        .values
        .iter()
        .map(|value| {
            if lower_values {
                value.to_lowercase()
            } else {
                value.clone()
            }
        })
        .collect();
    let values_str = || values.iter().map(String::as_str);
    match condition.operator {
        MatchOperator::Equals
        | MatchOperator::In
        | MatchOperator::NotEquals
        | MatchOperator::NotIn => {
            if values.is_empty() {
                // An empty list cannot be written as `IN ()`; it matches nothing (`NOT IN`:
                // everything). The HTTP layer skips such conditions, this is the safe reading.
                let negated = matches!(
                    condition.operator,
                    MatchOperator::NotEquals | MatchOperator::NotIn
                );
                sql.push(sql.dialect.boolean(negated));
                return;
            }
            target.emit(sql);
            match condition.operator {
                MatchOperator::NotEquals | MatchOperator::NotIn => sql.push(" NOT IN "),
                _ => sql.push(" IN "),
            };
            sql.bind_list(values_str());
        }
        MatchOperator::IsEmpty => {
            target.emit(sql);
            sql.push(" = ''");
        }
        MatchOperator::IsNotEmpty => {
            target.emit(sql);
            sql.push(" <> ''");
        }
        MatchOperator::Contains
        | MatchOperator::NotContains
        | MatchOperator::StartsWith
        | MatchOperator::EndsWith => {
            let negated = condition.operator == MatchOperator::NotContains;
            let (function, after) = match (condition.operator, sql.dialect) {
                (MatchOperator::Contains | MatchOperator::NotContains, Dialect::DuckDb) => {
                    ("contains", ")")
                }
                (MatchOperator::StartsWith, Dialect::DuckDb) => ("starts_with", ")"),
                (_, Dialect::DuckDb) => ("ends_with", ")"),
                (MatchOperator::Contains | MatchOperator::NotContains, _) => ("position", ") > 0"),
                (MatchOperator::StartsWith, _) => ("startsWith", ")"),
                _ => ("endsWith", ")"),
            };
            if values.is_empty() {
                sql.push(sql.dialect.boolean(negated));
                return;
            }
            sql.push(if negated { "NOT (" } else { "(" });
            for (index, value) in values.iter().enumerate() {
                if index > 0 {
                    sql.push(" OR ");
                }
                let lower = sql.dialect.lower();
                sql.push(function).push("(").push(lower).push("(");
                target.emit(sql);
                sql.push("), ");
                sql.bind_text(&value.to_lowercase());
                sql.push(after);
            }
            sql.push(")");
        }
    }
}

fn tag_condition(sql: &mut Sql, tag: &TagCondition) {
    match &tag.value {
        None => {
            sql.push(if sql.dialect.is_clickhouse() {
                "has(tags_keys, "
            } else {
                "map_contains(tags, "
            });
            sql.bind_text(&tag.key);
            sql.push(")");
        }
        Some(value) => condition(sql, Target::Tag(&tag.key), value, false),
    }
}

/// The conditions of one group, ANDed; `None` for a group without conditions.
fn group_condition(dialect: Dialect, group: &FilterGroup) -> Option<Sql> {
    let parts = group_parts(dialect, group);
    if parts.is_empty() {
        return None;
    }
    let mut sql = Sql::new(dialect);
    sql.push("(");
    for (index, part) in parts.iter().enumerate() {
        if index > 0 {
            sql.push(" AND ");
        }
        sql.append(part);
    }
    sql.push(")");
    Some(sql)
}

/// The conditions of one group, each on its own, in the order they are written.
fn group_parts(dialect: Dialect, group: &FilterGroup) -> Vec<Sql> {
    let columns: [(&'static str, &Vec<ValueCondition>, bool); 6] = [
        ("account_id", &group.accounts, false),
        ("region", &group.regions, false),
        ("service", &group.services, false),
        // Provider values arrive as stored codes (`Provider::code_for`): a cloud's lower-case
        // code, or another provider's name as written ("Oracle"), so they are not lowered.
        ("provider", &group.cloud_providers, false),
        ("cost_type", &group.cost_types, false),
        ("usage_type", &group.usage_types, false),
    ];
    let mut parts = Vec::new();
    for (column, conditions, lower) in columns {
        for item in conditions {
            let mut sql = Sql::new(dialect);
            condition(&mut sql, Target::Column(column), item, lower);
            parts.push(sql);
        }
    }
    for tag in &group.tags {
        let mut sql = Sql::new(dialect);
        tag_condition(&mut sql, tag);
        parts.push(sql);
    }
    parts
}

/// The filter groups joined left to right by their operator (the first group's operator is
/// ignored). Groups without conditions are dropped (spec 1 §5). `None` when nothing is left.
pub fn groups_condition(groups: &[FilterGroup]) -> Option<Sql> {
    groups_condition_in(Dialect::DuckDb, groups)
}

/// [`groups_condition`] in `dialect`. ClickHouse writes the conditions that OR'd groups share
/// once ([`factored_groups`]).
pub fn groups_condition_in(dialect: Dialect, groups: &[FilterGroup]) -> Option<Sql> {
    if dialect.is_clickhouse() {
        return factored_groups::groups_condition(dialect, groups);
    }
    let mut combined: Option<Sql> = None;
    for group in groups {
        let Some(part) = group_condition(dialect, group) else {
            continue;
        };
        combined = Some(match combined {
            None => part,
            Some(left) => {
                let mut sql = Sql::new(dialect);
                sql.push("(");
                sql.append(&left);
                sql.push(match group.join {
                    GroupJoin::And => " AND ",
                    GroupJoin::Or => " OR ",
                });
                sql.append(&part);
                sql.push(")");
                sql
            }
        });
    }
    combined
}

/// `customer_id = ?` (always first), the range on `charge_period_start`, the charge type
/// inclusions and the filter groups. Without `WHERE`.
pub fn scope(customer: i64, range: Option<&TimeRange>, filter: &CostFilter) -> Sql {
    scope_in(Dialect::DuckDb, customer, range, filter)
}

/// [`scope`] in `dialect`.
pub fn scope_in(
    dialect: Dialect,
    customer: i64,
    range: Option<&TimeRange>,
    filter: &CostFilter,
) -> Sql {
    scope_of(dialect, Source::LineItems, customer, range, filter)
}

fn scope_on(source: Source, customer: i64, range: Option<&TimeRange>, filter: &CostFilter) -> Sql {
    scope_of(Dialect::DuckDb, source, customer, range, filter)
}

fn scope_of(
    dialect: Dialect,
    source: Source,
    customer: i64,
    range: Option<&TimeRange>,
    filter: &CostFilter,
) -> Sql {
    let mut sql = Sql::new(dialect);
    sql.push("customer_id = ");
    sql.bind(Value::BigInt(customer));
    if let Some(range) = range {
        range_condition(&mut sql, source, range);
    }
    filter_conditions(&mut sql, filter);
    sql
}

/// `charge_period_start BETWEEN start AND end`, written on the `charge_date` column (the date of
/// `charge_period_start`: small, sorted, pruned by zone maps) with the exact instant compared only
/// on a boundary day the range does not cover whole.
fn range_condition(sql: &mut Sql, source: Source, range: &TimeRange) {
    let (earliest, latest) = source.instants();
    sql.push(" AND charge_date BETWEEN ");
    sql.bind(date_value(range.start().date_naive()));
    sql.push(" AND ");
    sql.bind(date_value(range.end().date_naive()));
    let (first, last) = partial_days(range);
    if let Some((day, start)) = first {
        sql.push(" AND (charge_date > ");
        sql.bind(date_value(day));
        let earliest = sql.dialect.instant(earliest);
        sql.push(" OR ").push(&earliest).push(" >= ");
        sql.bind(start);
        sql.push(")");
    }
    if let Some((day, end)) = last {
        sql.push(" AND (charge_date < ");
        sql.bind(date_value(day));
        let latest = sql.dialect.instant(latest);
        sql.push(" OR ").push(&latest).push(" <= ");
        sql.bind(end);
        sql.push(")");
    }
}

fn filter_conditions(sql: &mut Sql, filter: &CostFilter) {
    if let Some(inclusions) = filter
        .cost_type_inclusions
        .as_ref()
        .filter(|list| !list.is_empty())
    {
        sql.push(" AND cost_type IN ");
        sql.bind_list(inclusions.iter().map(String::as_str));
    }
    if let Some(groups) = groups_condition_in(sql.dialect, &filter.groups) {
        sql.push(" AND ");
        sql.append(&groups);
    }
}

/// The start of a row's bucket, never before the range's first day.
fn bucket_expression(sql: &mut Sql, interval: Interval, column: &str, range: &TimeRange) {
    if sql.dialect.is_clickhouse() {
        let truncate = match interval {
            Interval::Daily => "",
            Interval::Weekly => "toMonday",
            Interval::Monthly => "toStartOfMonth",
        };
        sql.push("greatest(")
            .push(truncate)
            .push("(")
            .push(column)
            .push("), ");
        sql.bind(date_value(range.start().date_naive()));
        sql.push(")");
        return;
    }
    let unit = match interval {
        Interval::Daily => "day",
        Interval::Weekly => "week",
        Interval::Monthly => "month",
    };
    sql.push("greatest(CAST(date_trunc('")
        .push(unit)
        .push("', ")
        .push(column)
        .push(") AS DATE), ");
    sql.bind(date_value(range.start().date_naive()));
    sql.push(")");
}

/// Columns of the aggregation answer, in order: `bucket` (DATE or NULL), `total_groups`,
/// `account_name` (or NULL), `amount` (DOUBLE), `total` (DOUBLE, every group), `currency` (the
/// most common one, NULL without rows), then `g0…gN` (VARCHAR). With no row kept (empty data or
/// an offset past the end) one row with a NULL `amount` carries the totals.
pub fn aggregate(customer: i64, query: &AggregateQuery) -> Sql {
    aggregate_on(Source::LineItems, customer, query)
}

/// How many currencies the tenant's costs are in: with one, the aggregation need not keep the
/// rows of each currency apart (a narrower grouping, about 15 % faster on line items).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Currencies<'a> {
    One,
    /// Summed as they are, the answer's currency being the most common one (the rollup tests
    /// compare sources with it).
    Several,
    /// Every amount converted to this currency with the tenant's rates; amounts no rate
    /// converts are left out of the figures and listed apart (docs/CURRENCY.md).
    Convert(Conversion<'a>),
}

/// [`aggregate`] on `source` in `dialect`. DuckDB's columns are [`aggregate`]'s; ClickHouse
/// (whose 18.16 has no CTEs nor window functions) answers the same figures as rows of three
/// kinds, see [`aggregate_nested`].
pub fn aggregate_in(
    dialect: Dialect,
    source: Source,
    customer: i64,
    query: &AggregateQuery,
    currencies: Currencies<'_>,
) -> Sql {
    if dialect.is_clickhouse() {
        return aggregate_nested::aggregate(dialect, source, customer, query, currencies);
    }
    aggregate_with(source, customer, query, currencies)
}

/// [`aggregate`] on `source`.
pub fn aggregate_on(source: Source, customer: i64, query: &AggregateQuery) -> Sql {
    aggregate_with(source, customer, query, Currencies::Several)
}

/// [`aggregate_on`], told how many currencies the tenant has.
pub fn aggregate_with(
    source: Source,
    customer: i64,
    query: &AggregateQuery,
    currencies: Currencies<'_>,
) -> Sql {
    let dimensions = distinct_dimensions(&query.dimensions);
    let interval = bucket_interval(query);
    let metric = metric_column(query.metric);
    let group_by_account = dimensions.contains(&Dimension::Account);
    let keys = group_keys(&dimensions);
    let key_list = keys.join(", ");
    let output_keys: String = if dimensions.is_empty() {
        String::new()
    } else {
        keys.iter().map(|key| format!(", r.{key}")).collect()
    };

    let mut sql = Sql::default();
    // base: one row per group and bucket, summed as DECIMAL.
    // raw: one row per group, charge instant and currency, straight from the table. Charge
    // instants are few (daily or hourly rows), so bucketing the pre-aggregated rows is much
    // cheaper than truncating every line item's timestamp.
    // Converting: `pre` keeps each currency and charge date apart, `conv` converts it and `raw`
    // reads the converted amounts.
    let converting = match currencies {
        Currencies::Convert(conversion) => Some(conversion),
        _ => None,
    };
    sql.push(if converting.is_some() {
        "WITH pre AS MATERIALIZED (SELECT "
    } else {
        "WITH raw AS MATERIALIZED (SELECT "
    });
    select_keys(&mut sql, &dimensions, &keys);
    if converting.is_some() {
        sql.push(", charge_date");
    } else if interval.is_some() {
        // The bucket of a charge instant is the bucket of its date.
        sql.push(", charge_date AS charged");
    }
    if group_by_account {
        sql.push(", max(account_name) AS account_name");
    } else {
        sql.push(", CAST(NULL AS VARCHAR) AS account_name");
    }
    let currency = match currencies {
        Currencies::One => ", any_value(currency) AS currency",
        Currencies::Several | Currencies::Convert(_) => ", currency",
    };
    sql.push(currency)
        .push(", sum(")
        .push(metric)
        .push(") AS amount, ")
        .push(source.line_items())
        .push(" AS line_items FROM ")
        .push(source.table())
        .push(" WHERE ");
    sql.append(&scope_on(
        source,
        customer,
        Some(&query.range),
        &query.filter,
    ));
    sql.push(" GROUP BY ").push(&key_list);
    if converting.is_some() {
        sql.push(", charge_date");
    } else if interval.is_some() {
        sql.push(", charged");
    }
    if currencies != Currencies::One {
        sql.push(", currency");
    }
    sql.push(")");
    if let Some(conversion) = converting {
        conversion::conversion_ctes(&mut sql, customer, conversion);
        sql.push(", raw AS MATERIALIZED (SELECT ").push(&key_list);
        if interval.is_some() {
            sql.push(", charge_date AS charged");
        }
        sql.push(", account_name, currency, converted AS amount, line_items FROM conv WHERE converted IS NOT NULL)");
    }

    // base: one row per group and bucket.
    sql.push(", base AS MATERIALIZED (SELECT ").push(&key_list);
    if let Some(interval) = interval {
        sql.push(", ");
        bucket_expression(&mut sql, interval, "charged", &query.range);
        sql.push(" AS bucket");
    } else {
        sql.push(", CAST(NULL AS DATE) AS bucket");
    }
    sql.push(", max(account_name) AS account_name, sum(amount) AS amount FROM raw GROUP BY ")
        .push(&key_list)
        .push(", bucket)");

    // groups: ranked by total, then by key for a stable order.
    let direction = if query.ascending { "ASC" } else { "DESC" };
    let key_order: String = keys.iter().map(|key| format!(", {key} ASC")).collect();
    sql.push(", groups AS (SELECT ")
        .push(&key_list)
        .push(", max(account_name) AS account_name, sum(amount) AS total, row_number() OVER (ORDER BY sum(amount) ")
        .push(direction)
        .push(&key_order)
        .push(") AS rank FROM base GROUP BY ")
        .push(&key_list)
        .push(")");
    sql.push(", kept AS (SELECT * FROM groups WHERE rank > ");
    sql.bind(Value::BigInt(i64::from(query.offset)));
    if let Some(limit) = query.limit {
        sql.push(" AND rank <= ");
        sql.bind(Value::BigInt(i64::from(query.offset) + i64::from(limit)));
    }
    sql.push(")");

    // rows: every bucket of the kept groups (cumulative: a running sum over every bucket of the
    // range, days without cost included).
    if query.cumulative {
        let interval = interval.unwrap_or(Interval::Daily);
        sql.push(", buckets AS (SELECT DISTINCT ");
        bucket_expression(&mut sql, interval, "day", &query.range);
        sql.push(" AS bucket FROM range(CAST(");
        sql.bind(date_value(query.range.start().date_naive()));
        sql.push(" AS TIMESTAMP), CAST(");
        sql.bind(date_value(query.range.end().date_naive()));
        sql.push(" AS TIMESTAMP) + INTERVAL 1 DAY, INTERVAL 1 DAY) AS days(day))");
        sql.push(", rows AS (SELECT buckets.bucket, kept.rank, kept.account_name");
        for key in &keys {
            sql.push(", kept.").push(key).push(" AS ").push(key);
        }
        sql.push(", sum(coalesce(base.amount, 0)) OVER (PARTITION BY kept.rank ORDER BY buckets.bucket ROWS UNBOUNDED PRECEDING) AS amount FROM kept CROSS JOIN buckets LEFT JOIN base ON base.bucket = buckets.bucket");
        for key in &keys {
            sql.push(" AND base.").push(key).push(" = kept.").push(key);
        }
        sql.push(")");
    } else if interval.is_some() {
        sql.push(", rows AS (SELECT base.bucket, kept.rank, kept.account_name, base.amount");
        for key in &keys {
            sql.push(", kept.").push(key).push(" AS ").push(key);
        }
        sql.push(" FROM base JOIN kept ON TRUE");
        for key in &keys {
            sql.push(" AND base.").push(key).push(" = kept.").push(key);
        }
        sql.push(")");
    } else {
        sql.push(", rows AS (SELECT CAST(NULL AS DATE) AS bucket, kept.rank, kept.account_name, kept.total AS amount");
        for key in &keys {
            sql.push(", kept.").push(key).push(" AS ").push(key);
        }
        sql.push(" FROM kept)");
    }

    sql.push(
        " SELECT r.bucket, c.total_groups, r.account_name, CAST(r.amount AS DOUBLE) AS amount, \
         CAST(c.total AS DOUBLE) AS total, (SELECT currency FROM raw GROUP BY currency \
         ORDER BY sum(line_items) DESC, currency LIMIT 1) AS currency, ",
    );
    match converting {
        Some(conversion) => conversion::conversion_columns(&mut sql, conversion.target),
        None => conversion::no_conversion_columns(&mut sql),
    }
    sql.push(&output_keys).push(
        " FROM (SELECT count(*) AS total_groups, sum(total) AS total FROM groups) c \
         LEFT JOIN rows r ON TRUE ORDER BY r.bucket ASC NULLS FIRST, r.rank ASC",
    );
    sql
}

/// The buckets of an aggregation: its interval, by day when cumulative without one.
fn bucket_interval(query: &AggregateQuery) -> Option<Interval> {
    match (query.interval, query.cumulative) {
        (None, true) => Some(Interval::Daily),
        (interval, _) => interval,
    }
}

/// Group key columns: g0…gN; with no dimension, one constant key so that "no rows" means
/// "no group".
fn group_keys(dimensions: &[Dimension]) -> Vec<String> {
    if dimensions.is_empty() {
        vec!["g0".to_owned()]
    } else {
        (0..dimensions.len())
            .map(|index| format!("g{index}"))
            .collect()
    }
}

/// `dimension AS gI, …` (`'' AS g0` without a dimension).
fn select_keys(sql: &mut Sql, dimensions: &[Dimension], keys: &[String]) {
    if dimensions.is_empty() {
        sql.push("'' AS g0");
    } else {
        for (index, dimension) in dimensions.iter().enumerate() {
            if index > 0 {
                sql.push(", ");
            }
            sql.push(dimension_column(*dimension))
                .push(" AS ")
                .push(&keys[index]);
        }
    }
}

/// The total of the same filter over [`TimeRange::previous`] (one DOUBLE).
pub fn previous_total(customer: i64, query: &AggregateQuery) -> Sql {
    previous_total_on(Source::LineItems, customer, query)
}

/// [`previous_total`] on `source`.
pub fn previous_total_on(source: Source, customer: i64, query: &AggregateQuery) -> Sql {
    previous_total_with(source, customer, query, None)
}

/// [`previous_total_on`], converted to `convert_to` when given (amounts no rate converts are left
/// out, like in [`aggregate_with`]).
pub fn previous_total_with(
    source: Source,
    customer: i64,
    query: &AggregateQuery,
    convert_to: Option<Conversion<'_>>,
) -> Sql {
    previous_total_of(Dialect::DuckDb, source, customer, query, convert_to)
}

/// [`previous_total_with`] in `dialect`; the amount is an exact decimal in ClickHouse (see
/// [`Dialect::amount`]).
pub fn previous_total_in(
    dialect: Dialect,
    source: Source,
    customer: i64,
    query: &AggregateQuery,
    convert_to: Option<Conversion<'_>>,
) -> Sql {
    previous_total_of(dialect, source, customer, query, convert_to)
}

fn previous_total_of(
    dialect: Dialect,
    source: Source,
    customer: i64,
    query: &AggregateQuery,
    convert_to: Option<Conversion<'_>>,
) -> Sql {
    let mut sql = Sql::new(dialect);
    let previous = query.range.previous();
    if let Some(conversion) = convert_to {
        let mut pre = Sql::new(dialect);
        pre.push("SELECT charge_date, currency, sum(")
            .push(metric_column(query.metric))
            .push(") AS amount FROM ")
            .push(&dialect.table(source.table()))
            .push(" WHERE ");
        pre.append(&scope_of(
            dialect,
            source,
            customer,
            Some(&previous),
            &query.filter,
        ));
        pre.push(" GROUP BY charge_date, currency");
        if dialect.is_clickhouse() {
            sql.push("SELECT ")
                .push(&dialect.amount("ifNull(sum(converted), toDecimal128(0, 12))"))
                .push(" FROM ");
            conversion::converted_rows(
                &mut sql,
                &pre,
                "charge_date, currency, amount",
                customer,
                conversion,
            );
            return sql;
        }
        sql.push("WITH pre AS (").append(&pre).push(")");
        conversion::conversion_ctes(&mut sql, customer, conversion);
        sql.push(" SELECT CAST(coalesce(sum(converted), 0) AS DOUBLE) FROM conv");
        return sql;
    }
    // ClickHouse's sum of no rows is 0 already.
    let sum = if dialect.is_clickhouse() {
        format!("sum({})", metric_column(query.metric))
    } else {
        format!("coalesce(sum({}), 0)", metric_column(query.metric))
    };
    sql.push("SELECT ")
        .push(&dialect.amount(&sum))
        .push(" FROM ")
        .push(&dialect.table(source.table()))
        .push(" WHERE ");
    sql.append(&scope_of(
        dialect,
        source,
        customer,
        Some(&previous),
        &query.filter,
    ));
    sql
}

/// Distinct values for `/v2/cost/filters`, one grouping set per list. Columns: `gid` (0 accounts,
/// 1 region, 2 service, 3 cost type, 4 usage type, 5 provider), `provider`, `value`, `account_name`.
pub fn filter_values(customer: i64, range: Option<&TimeRange>, filter: &CostFilter) -> Sql {
    filter_values_on(Source::LineItems, customer, range, filter)
}

/// [`filter_values`] on `source`.
pub fn filter_values_on(
    source: Source,
    customer: i64,
    range: Option<&TimeRange>,
    filter: &CostFilter,
) -> Sql {
    let mut sql = Sql::default();
    sql.push(
        "SELECT CASE WHEN grouping(account_id) = 0 THEN 0 WHEN grouping(region) = 0 THEN 1 \
         WHEN grouping(service) = 0 THEN 2 WHEN grouping(cost_type) = 0 THEN 3 \
         WHEN grouping(usage_type) = 0 THEN 4 ELSE 5 END AS gid, \
         provider, coalesce(account_id, region, service, cost_type, usage_type) AS value, \
         max(account_name) AS account_name FROM ",
    );
    sql.push(source.table()).push(" WHERE ");
    sql.append(&scope_on(source, customer, range, filter));
    sql.push(
        " GROUP BY GROUPING SETS ((provider, account_id), (provider), (region), (service), \
         (cost_type), (usage_type)) ORDER BY gid, value, provider",
    );
    sql
}

/// [`filter_values`] from the line items in `dialect`: the same rows in the same order
/// (ClickHouse 18.16 has no `GROUPING SETS`: each row is turned into its six `(gid, provider,
/// value)` entries by an `ARRAY JOIN` and those are grouped, in one pass; `provider` is `''`
/// where DuckDB's grouping sets give NULL, and `value` `''` for the provider list).
pub fn filter_values_in(
    dialect: Dialect,
    customer: i64,
    range: Option<&TimeRange>,
    filter: &CostFilter,
) -> Sql {
    if !dialect.is_clickhouse() {
        return filter_values(customer, range, filter);
    }
    let mut sql = Sql::new(dialect);
    sql.push(
        "SELECT entry.1 AS gid, entry.2 AS list_provider, entry.3 AS value, \
         max(account_name) AS name FROM ",
    )
    .push(&dialect.table(COST_TABLE))
    .push(
        " ARRAY JOIN [(toUInt8(0), provider, account_id), (1, '', region), (2, '', service), \
         (3, '', cost_type), (4, '', usage_type), (5, provider, '')] AS entry WHERE ",
    );
    sql.append(&scope_in(dialect, customer, range, filter));
    sql.push(" GROUP BY gid, list_provider, value ORDER BY gid, value, list_provider");
    sql
}

/// [`filter_values`] of an unfiltered question (see [`is_unfiltered`]) from [`VALUES_TABLE`]:
/// the same rows in the same order.
pub fn filter_values_daily(customer: i64, range: Option<&TimeRange>) -> Sql {
    let mut sql = Sql::default();
    sql.push(
        "SELECT gid, CASE WHEN gid IN (0, 5) THEN provider END AS provider, value, \
         max(account_name) AS account_name FROM ",
    )
    .push(VALUES_TABLE)
    .push(" WHERE ");
    sql.append(&unfiltered_rollup_scope(customer, range));
    sql.push(" GROUP BY gid, 2, value ORDER BY gid, value, provider");
    sql
}

/// Distinct non-empty `(key, value)` pairs of the tags of the matching rows, sorted.
pub fn tag_values(customer: i64, range: Option<&TimeRange>, filter: &CostFilter) -> Sql {
    tag_values_in(Dialect::DuckDb, customer, range, filter)
}

/// [`tag_values`] in `dialect` (ClickHouse: the parallel key and value arrays, array-joined).
pub fn tag_values_in(
    dialect: Dialect,
    customer: i64,
    range: Option<&TimeRange>,
    filter: &CostFilter,
) -> Sql {
    let mut sql = Sql::new(dialect);
    if dialect.is_clickhouse() {
        sql.push("SELECT DISTINCT tag_key, tag_value FROM ")
            .push(&dialect.table(COST_TABLE))
            .push(" ARRAY JOIN tags_keys AS tag_key, tags_values AS tag_value WHERE ");
        sql.append(&scope_in(dialect, customer, range, filter));
        sql.push(" AND tag_key <> '' AND tag_value <> '' ORDER BY tag_key, tag_value");
        return sql;
    }
    sql.push("SELECT DISTINCT entry.key AS key, entry.value AS value FROM (SELECT unnest(map_entries(tags)) AS entry FROM ");
    sql.push(COST_TABLE).push(" WHERE ");
    sql.append(&scope(customer, range, filter));
    sql.push(" AND cardinality(tags) > 0) WHERE entry.key <> '' AND entry.value <> '' ORDER BY key, value");
    sql
}

/// [`tag_values`] of an unfiltered question (see [`is_unfiltered`]) from [`TAGS_TABLE`].
pub fn tag_values_daily(customer: i64, range: Option<&TimeRange>) -> Sql {
    let mut sql = Sql::default();
    sql.push("SELECT DISTINCT key, value FROM ")
        .push(TAGS_TABLE)
        .push(" WHERE ");
    sql.append(&unfiltered_rollup_scope(customer, range));
    sql.push(" ORDER BY key, value");
    sql
}

/// The scope of an unfiltered question on a daily rollup (rows with earliest/latest instants).
fn unfiltered_rollup_scope(customer: i64, range: Option<&TimeRange>) -> Sql {
    scope_on(Source::Daily, customer, range, &CostFilter::default())
}

/// Spend of one range by provider and cost type. Columns: provider, cost_type, amount (DOUBLE).
pub fn spend(customer: i64, range: &TimeRange, filter: &CostFilter, metric: Metric) -> Sql {
    spend_on(Source::LineItems, customer, range, filter, metric)
}

/// [`spend`] on `source`.
pub fn spend_on(
    source: Source,
    customer: i64,
    range: &TimeRange,
    filter: &CostFilter,
    metric: Metric,
) -> Sql {
    spend_of(Dialect::DuckDb, source, customer, range, filter, metric)
}

/// [`spend_on`] in `dialect` (an exact decimal amount in ClickHouse, see [`Dialect::amount`]).
pub fn spend_in(
    dialect: Dialect,
    source: Source,
    customer: i64,
    range: &TimeRange,
    filter: &CostFilter,
    metric: Metric,
) -> Sql {
    spend_of(dialect, source, customer, range, filter, metric)
}

fn spend_of(
    dialect: Dialect,
    source: Source,
    customer: i64,
    range: &TimeRange,
    filter: &CostFilter,
    metric: Metric,
) -> Sql {
    let scope = scope_of(dialect, source, customer, Some(range), filter);
    sums_by(dialect, source, "provider, cost_type", &scope, metric)
}

/// `SELECT <columns>, <the metric's sum> FROM <source> WHERE <scope> GROUP BY <columns> ORDER BY
/// <columns>` (the sum a DOUBLE in DuckDB, an exact decimal in ClickHouse).
fn sums_by(dialect: Dialect, source: Source, columns: &str, scope: &Sql, metric: Metric) -> Sql {
    let mut sql = Sql::new(dialect);
    let sum = format!("sum({})", metric_column(metric));
    sql.push("SELECT ")
        .push(columns)
        .push(", ")
        .push(&dialect.amount(&sum))
        .push(" FROM ")
        .push(&dialect.table(source.table()))
        .push(" WHERE ");
    sql.append(scope);
    sql.push(" GROUP BY ")
        .push(columns)
        .push(" ORDER BY ")
        .push(columns);
    sql
}

/// [`spend_on`] converted to `target` with the tenant's rates. Columns: provider, cost_type,
/// `other` (NULL for amounts in `target`, else the currency no rate converts), amount (DOUBLE),
/// converted (BOOLEAN: some of the amount was converted).
pub fn spend_converted(
    source: Source,
    customer: i64,
    range: &TimeRange,
    filter: &CostFilter,
    metric: Metric,
    conversion: Conversion<'_>,
) -> Sql {
    spend_converted_of(
        Dialect::DuckDb,
        source,
        customer,
        range,
        filter,
        metric,
        conversion,
    )
}

/// [`spend_converted`] in `dialect` (ClickHouse: exact decimal amounts, see
/// [`Dialect::amount`], and `converted` as 0/1).
pub fn spend_converted_in(
    dialect: Dialect,
    source: Source,
    customer: i64,
    range: &TimeRange,
    filter: &CostFilter,
    metric: Metric,
    conversion: Conversion<'_>,
) -> Sql {
    spend_converted_of(dialect, source, customer, range, filter, metric, conversion)
}

fn spend_converted_of(
    dialect: Dialect,
    source: Source,
    customer: i64,
    range: &TimeRange,
    filter: &CostFilter,
    metric: Metric,
    conversion: Conversion<'_>,
) -> Sql {
    let mut sql = Sql::new(dialect);
    let mut pre = Sql::new(dialect);
    pre.push("SELECT provider, cost_type, charge_date, currency, sum(")
        .push(metric_column(metric))
        .push(") AS amount FROM ")
        .push(&dialect.table(source.table()))
        .push(" WHERE ");
    pre.append(&scope_of(dialect, source, customer, Some(range), filter));
    pre.push(" GROUP BY provider, cost_type, charge_date, currency");
    if dialect.is_clickhouse() {
        sql.push(
            "SELECT provider, cost_type, if(converted IS NULL, toNullable(currency), NULL) AS other, \
             toString(sum(ifNull(",
        )
        // DuckDB's `coalesce(converted, amount)` is a DECIMAL(38, 9): 38 digits cannot hold
        // both the sums' 29 integer digits and the conversion's 12 places.
        .push(&conversion::round_half_away("converted", 9))
        .push(
            ", amount))), max(converted IS NOT NULL AND currency <> ",
        );
        sql.bind(Value::Text(conversion.target.to_owned()));
        sql.push(") FROM ");
        conversion::converted_rows(
            &mut sql,
            &pre,
            "provider, cost_type, charge_date, currency, amount",
            customer,
            conversion,
        );
        sql.push(
            " GROUP BY provider, cost_type, other ORDER BY provider, cost_type, other NULLS FIRST",
        );
        return sql;
    }
    sql.push("WITH pre AS (").append(&pre).push(")");
    conversion::conversion_ctes(&mut sql, customer, conversion);
    sql.push(" SELECT provider, cost_type, CASE WHEN converted IS NULL THEN currency END AS other,          CAST(sum(coalesce(converted, amount)) AS DOUBLE), bool_or(converted IS NOT NULL AND currency <> ");
    sql.bind(Value::Text(conversion.target.to_owned()));
    sql.push(") FROM conv GROUP BY ALL ORDER BY provider, cost_type, other NULLS FIRST");
    sql
}

/// Spend per provider, service, currency and service category (the FOCUS `ServiceCategory`, or
/// whatever a native export put there), always from the line items: the rollups have no service
/// category. Columns: `provider`, `service`, `currency`, `service_category`, amount (DOUBLE).
pub fn service_spend(customer: i64, range: &TimeRange, filter: &CostFilter, metric: Metric) -> Sql {
    service_spend_in(Dialect::DuckDb, customer, range, filter, metric)
}

/// [`service_spend`] in `dialect` (an exact decimal amount in ClickHouse).
pub fn service_spend_in(
    dialect: Dialect,
    customer: i64,
    range: &TimeRange,
    filter: &CostFilter,
    metric: Metric,
) -> Sql {
    let scope = scope_in(dialect, customer, Some(range), filter);
    sums_by(
        dialect,
        Source::LineItems,
        "provider, service, currency, service_category",
        &scope,
        metric,
    )
}

/// One page of spend per resource (provider, account, non-empty resource id) with the totals of
/// every page, always from the line items (the rollups have no resources). One pass groups every
/// row of the range and filter by resource (rows without a resource id fall in one group per
/// account and count only in `total_cost`); descriptive columns take the greatest value, so a
/// non-empty one wins over `''`. Columns: `resource_count`, `resources_cost` (DOUBLE),
/// `total_cost` (DOUBLE), then `provider`, `account_id`, `account_name`, `resource_id`,
/// `resource_name` (else the id), `resource_type` (else the service), `region`, `service`, `cost`
/// (DOUBLE) of the page's rows in order. With no row on the page (no resources, or an offset
/// past the end) one row with NULL resource columns carries the totals.
pub fn resources(customer: i64, query: &ResourcesQuery) -> Sql {
    resources_with(customer, query, None)
}

/// [`resources`], converted to `convert_to` when given: every cost is in that currency and
/// amounts no rate converts are left out of every figure. Then two more columns end each row:
/// `other_currencies`, `other_amounts` (see `conversion_columns`), and `converted`.
pub fn resources_with(
    customer: i64,
    query: &ResourcesQuery,
    convert_to: Option<Conversion<'_>>,
) -> Sql {
    let order = resource_order(query.sort, query.ascending);
    let mut sql = Sql::default();
    let descriptive = "max(account_name) AS account_name, max(resource_name) AS name, \
         max(resource_type) AS type, max(region) AS region, max(service) AS service";
    if let Some(conversion) = convert_to {
        sql.push("WITH pre AS MATERIALIZED (SELECT provider, account_id, resource_id, charge_date, currency, max(account_name) AS account_name, max(resource_name) AS resource_name, max(resource_type) AS resource_type, max(region) AS region, max(service) AS service, sum(")
            .push(metric_column(query.metric))
            .push(") AS amount FROM ")
            .push(COST_TABLE)
            .push(" WHERE ");
        sql.append(&scope(customer, Some(&query.range), &query.filter));
        sql.push(" GROUP BY provider, account_id, resource_id, charge_date, currency)");
        conversion::conversion_ctes(&mut sql, customer, conversion);
        sql.push(", grouped AS MATERIALIZED (SELECT provider, account_id, resource_id, ")
            .push(descriptive)
            .push(", sum(converted) AS cost FROM conv WHERE converted IS NOT NULL GROUP BY provider, account_id, resource_id)");
    } else {
        sql.push("WITH grouped AS MATERIALIZED (SELECT provider, account_id, resource_id, ")
            .push(descriptive)
            .push(", sum(")
            .push(metric_column(query.metric))
            .push(") AS cost FROM ")
            .push(COST_TABLE)
            .push(" WHERE ");
        sql.append(&scope(customer, Some(&query.range), &query.filter));
        sql.push(" GROUP BY provider, account_id, resource_id)");
    }
    sql.push(
        ", resources AS (SELECT provider, account_id, account_name, resource_id, \
         CASE WHEN name = '' THEN resource_id ELSE name END AS resource_name, \
         CASE WHEN type = '' THEN service ELSE type END AS resource_type, region, service, cost \
         FROM grouped WHERE resource_id <> ''), \
         totals AS (SELECT count(*) FILTER (WHERE resource_id <> '') AS resource_count, \
         coalesce(sum(cost) FILTER (WHERE resource_id <> ''), 0) AS resources_cost, \
         coalesce(sum(cost), 0) AS total_cost FROM grouped), \
         page AS (SELECT * FROM resources ORDER BY ",
    )
    .push(&order)
    .push(" LIMIT ");
    sql.bind(Value::UBigInt(query.limit)).push(" OFFSET ");
    sql.bind(Value::UBigInt(query.offset));
    sql.push(
        ") SELECT resource_count, CAST(resources_cost AS DOUBLE), CAST(total_cost AS DOUBLE), \
         provider, account_id, account_name, resource_id, resource_name, resource_type, region, \
         service, CAST(cost AS DOUBLE)",
    );
    if let Some(conversion) = convert_to {
        sql.push(", ");
        conversion::conversion_columns(&mut sql, conversion.target);
    }
    sql.push(" FROM totals LEFT JOIN page ON TRUE ORDER BY ")
        .push(&order);
    sql
}

/// [`resources_with`] in `dialect`. ClickHouse 18.16 has no CTEs nor `FILTER`: the totals are
/// joined to the page, so every row carries them, and a page with no row is one row of totals
/// whose `resource_id` is `''` (18.16's join fills in defaults, not NULLs); amounts are exact
/// decimals, and a converting question's other currencies and converted flag come from
/// [`resource_currencies_in`] (these columns end no row).
pub fn resources_in(
    dialect: Dialect,
    customer: i64,
    query: &ResourcesQuery,
    convert_to: Option<Conversion<'_>>,
) -> Sql {
    if !dialect.is_clickhouse() {
        return resources_with(customer, query, convert_to);
    }
    let grouped = clickhouse_resources_grouped(dialect, customer, query, convert_to);
    let order = resource_order(query.sort, query.ascending);
    let mut sql = Sql::new(dialect);
    sql.push(
        "SELECT resource_count, toString(resources_cost), toString(total_cost), provider, \
         account_id, account_name, resource_id, resource_name, resource_type, region, service, \
         toString(cost) FROM (SELECT 1 AS k, countIf(resource_id <> '') AS resource_count, \
         sumIf(cost, resource_id <> '') AS resources_cost, sum(cost) AS total_cost FROM (",
    )
    .append(&grouped)
    .push(
        ")) GLOBAL ALL LEFT JOIN (SELECT 1 AS k, provider, account_id, \
         max_account_name AS account_name, resource_id, \
         if(max_name = '', resource_id, max_name) AS resource_name, \
         if(max_type = '', max_service, max_type) AS resource_type, max_region AS region, \
         max_service AS service, cost FROM (",
    )
    .append(&grouped)
    .push(") WHERE resource_id <> '' ORDER BY ")
    .push(&order)
    .push(" LIMIT ");
    sql.bind(Value::UBigInt(query.offset)).push(", ");
    sql.bind(Value::UBigInt(query.limit));
    sql.push(") USING k ORDER BY ").push(&order);
    sql
}

/// The resources of [`resources_in`] on ClickHouse: per provider, account and resource id the
/// descriptive columns (as `max_…`: a ClickHouse alias named as a column would stand for the
/// aggregate in the filters too) and `cost`, converted (only what converts) when converting.
fn clickhouse_resources_grouped(
    dialect: Dialect,
    customer: i64,
    query: &ResourcesQuery,
    convert_to: Option<Conversion<'_>>,
) -> Sql {
    let descriptive = |prefix: &str| {
        format!(
            "max({prefix}account_name) AS max_account_name, max({prefix}resource_name) AS \
             max_name, max({prefix}resource_type) AS max_type, max({prefix}region) AS \
             max_region, max({prefix}service) AS max_service"
        )
    };
    let mut sql = Sql::new(dialect);
    let Some(conversion) = convert_to else {
        sql.push("SELECT provider, account_id, resource_id, ")
            .push(&descriptive(""))
            .push(", sum(")
            .push(metric_column(query.metric))
            .push(") AS cost");
        from_line_items_in(&mut sql, customer, Some(&query.range), &query.filter);
        sql.push(" GROUP BY provider, account_id, resource_id");
        return sql;
    };
    sql.push("SELECT provider, account_id, resource_id, ")
        .push(&descriptive("pre_"))
        .push(", sum(assumeNotNull(converted)) AS cost FROM ");
    resource_converted_rows(&mut sql, customer, query, conversion);
    sql.push(" WHERE converted IS NOT NULL GROUP BY provider, account_id, resource_id");
    sql
}

/// The resources' rows per day and currency with `converted` (`conversion::converted_rows`).
fn resource_converted_rows(
    sql: &mut Sql,
    customer: i64,
    query: &ResourcesQuery,
    conversion: Conversion<'_>,
) {
    let dialect = sql.dialect;
    let mut pre = Sql::new(dialect);
    pre.push(
        "SELECT provider, account_id, resource_id, charge_date, currency, \
         max(account_name) AS pre_account_name, max(resource_name) AS pre_resource_name, \
         max(resource_type) AS pre_resource_type, max(region) AS pre_region, \
         max(service) AS pre_service, sum(",
    )
    .push(metric_column(query.metric))
    .push(") AS amount");
    from_line_items_in(&mut pre, customer, Some(&query.range), &query.filter);
    pre.push(" GROUP BY provider, account_id, resource_id, charge_date, currency");
    conversion::converted_rows(
        sql,
        &pre,
        "provider, account_id, resource_id, charge_date, currency, pre_account_name, \
         pre_resource_name, pre_resource_type, pre_region, pre_service, amount",
        customer,
        conversion,
    );
}

/// What [`conversion::conversion_columns`] adds to a converting [`resources_with`], on
/// ClickHouse: per currency of the question's rows, the amount no rate converts (an exact
/// decimal), how many of its rows no rate converts, and whether a row of it was converted.
pub fn resource_currencies_in(
    dialect: Dialect,
    customer: i64,
    query: &ResourcesQuery,
    conversion: Conversion<'_>,
) -> Sql {
    let mut sql = Sql::new(dialect);
    sql.push(
        "SELECT currency, toString(sumIf(amount, converted IS NULL)), \
         countIf(converted IS NULL), max(converted IS NOT NULL AND currency <> ",
    );
    sql.bind(Value::Text(conversion.target.to_owned()));
    sql.push(") FROM ");
    resource_converted_rows(&mut sql, customer, query, conversion);
    sql.push(" GROUP BY currency ORDER BY currency");
    sql
}

/// ` FROM <line items> WHERE <scope>` in `sql`'s dialect.
pub(crate) fn from_line_items_in(
    sql: &mut Sql,
    customer: i64,
    range: Option<&TimeRange>,
    filter: &CostFilter,
) {
    let dialect = sql.dialect;
    sql.push(" FROM ")
        .push(&dialect.table(COST_TABLE))
        .push(" WHERE ");
    sql.append(&scope_in(dialect, customer, range, filter));
}

/// `ORDER BY` of the resources table: the sort column, then the resource's identity ascending
/// whatever the direction (a total order, so pages never overlap).
fn resource_order(sort: ResourceSort, ascending: bool) -> String {
    let column = match sort {
        ResourceSort::Cost => "cost",
        ResourceSort::ResourceName => "resource_name",
        ResourceSort::ResourceType => "resource_type",
        ResourceSort::Region => "region",
        ResourceSort::AccountId => "account_id",
        ResourceSort::CloudProvider => "provider",
    };
    let direction = if ascending { "ASC" } else { "DESC" };
    format!("{column} {direction}, resource_id ASC, provider ASC, account_id ASC")
}

/// Accounts seen in the tenant's data with their earliest charge (from the core daily rollup,
/// as every question about all of a tenant's data that needs neither usage types nor tags).
pub fn accounts(customer: i64) -> Sql {
    accounts_in(Dialect::DuckDb, customer)
}

/// [`accounts`] in `dialect`. ClickHouse reads the monthly rollup (the same accounts, names and
/// earliest charges in fewer rows; every load keeps it), the earliest charge as microseconds
/// since the epoch (`earliest_start_us`).
pub fn accounts_in(dialect: Dialect, customer: i64) -> Sql {
    let (table, earliest) = if dialect.is_clickhouse() {
        (dialect.table(MONTHLY_TABLE), "min(earliest_start_us)")
    } else {
        (Cow::Borrowed(CORE_DAILY_TABLE), "min(earliest_start)")
    };
    let mut sql = Sql::new(dialect);
    sql.push("SELECT provider, account_id, max(account_name), ")
        .push(earliest)
        .push(" FROM ")
        .push(&table)
        .push(" WHERE customer_id = ");
    sql.bind(Value::BigInt(customer));
    sql.push(" AND account_id <> '' GROUP BY provider, account_id ORDER BY provider, account_id");
    sql
}

/// The latest charge date of the tenant (NULL when it has no rows).
pub fn latest_charge_date(customer: i64) -> Sql {
    let mut sql = Sql::default();
    sql.push("SELECT max(charge_date) FROM ")
        .push(CORE_DAILY_TABLE)
        .push(" WHERE customer_id = ");
    sql.bind(Value::BigInt(customer));
    sql
}

/// The query's dimensions without duplicates, in order.
pub fn distinct_dimensions(dimensions: &[Dimension]) -> Vec<Dimension> {
    let mut seen = Vec::with_capacity(dimensions.len());
    for dimension in dimensions {
        if !seen.contains(dimension) {
            seen.push(*dimension);
        }
    }
    seen
}

#[cfg(test)]
mod tests {
    use super::*;
    use costscope_core::cost::FilterGroup;

    fn range() -> TimeRange {
        TimeRange::new(
            "2026-01-01T00:00:00Z".parse().unwrap(),
            "2026-01-31T23:59:59.999Z".parse().unwrap(),
        )
        .unwrap()
    }

    fn equals(values: &[&str]) -> ValueCondition {
        ValueCondition {
            operator: MatchOperator::Equals,
            values: values.iter().map(|v| (*v).to_owned()).collect(),
        }
    }

    #[test]
    fn request_values_are_bound_never_pasted() {
        let filter = CostFilter {
            groups: vec![FilterGroup {
                services: vec![equals(&["x'); DROP TABLE cost_line_items; --"])],
                tags: vec![TagCondition {
                    key: "te'am".into(),
                    value: Some(equals(&["a'b"])),
                }],
                ..FilterGroup::default()
            }],
            cost_type_inclusions: Some(vec!["Usage'".into()]),
        };
        let sql = scope(7, Some(&range()), &filter);
        assert!(!sql.text.contains("DROP"));
        assert!(!sql.text.contains("te'am"));
        assert!(!sql.text.contains("a'b"));
        assert!(sql.text.starts_with("customer_id = ?"));
        assert_eq!(sql.text.matches('?').count(), sql.params.len());
        assert_eq!(sql.params[0], Value::BigInt(7));
    }

    #[test]
    fn groups_join_left_to_right_and_empty_groups_are_dropped() {
        let group = |join, value: &str| FilterGroup {
            join,
            regions: vec![equals(&[value])],
            ..FilterGroup::default()
        };
        let groups = vec![
            group(GroupJoin::And, "a"),
            FilterGroup::default(),
            group(GroupJoin::Or, "b"),
            group(GroupJoin::And, "c"),
        ];
        let sql = groups_condition(&groups).unwrap();
        assert_eq!(
            sql.text,
            "(((region IN (?)) OR (region IN (?))) AND (region IN (?)))"
        );
        assert!(groups_condition(&[FilterGroup::default()]).is_none());
    }

    #[test]
    fn service_spend_binds_every_placeholder_and_reads_the_line_items() {
        let sql = service_spend(7, &range(), &CostFilter::default(), Metric::Effective);
        assert_eq!(
            sql.text.matches('?').count(),
            sql.params.len(),
            "{}",
            sql.text
        );
        assert!(sql.text.contains(COST_TABLE), "{}", sql.text);
        assert!(sql.text.contains("sum(effective_cost)"), "{}", sql.text);
    }

    #[test]
    fn placeholders_match_parameters_in_every_aggregate_shape() {
        for cumulative in [false, true] {
            for interval in [None, Some(Interval::Daily), Some(Interval::Weekly)] {
                for dimensions in [vec![], vec![Dimension::Account, Dimension::Service]] {
                    let query = AggregateQuery {
                        range: range(),
                        filter: CostFilter::default(),
                        dimensions,
                        interval,
                        cumulative,
                        metric: Metric::Billed,
                        limit: Some(5),
                        offset: 1,
                        ascending: false,
                    };
                    let sql = aggregate(1, &query);
                    assert_eq!(
                        sql.text.matches('?').count(),
                        sql.params.len(),
                        "{}",
                        sql.text
                    );
                }
            }
        }
    }
}
