//! The cost of inventory resources (issue 14): billed cost per line-item resource id over a
//! range for the ids the inventory knows, and the spend of resource ids it does not know.
//!
//! The ids travel as ONE bound text parameter split in SQL (`string_split`), so the statement's
//! text is the same whatever their number (DuckDB binds no list parameters) and nothing of them
//! is ever written into the SQL. Amounts are summed as DECIMALs and read as DOUBLE.

use std::collections::{HashMap, HashSet};

use costscope_core::cost::{CostFilter, Provider, TimeRange};
use duckdb::types::{Type, Value};
use duckdb::Connection;

use super::currency::{self, Plan};
use super::read::{query_rows, RollupPays};
use crate::query_builder::{self, Dialect, Sql, COST_TABLE};
use crate::{CurrencyNote, EngineError, ResourceCosts, UnmatchedResource, UnmatchedSpend};

/// Separates the ids in their one parameter: a control character no resource id or ARN holds
/// (an id that holds it is dropped: it could match nothing anyway).
const SEPARATOR: char = '\u{1}';

/// The ids that can match, for the statements: without duplicates, empties and ids holding
/// [`SEPARATOR`].
pub(crate) fn usable_ids(ids: &[String]) -> Vec<&str> {
    let mut seen = HashSet::new();
    ids.iter()
        .map(String::as_str)
        .filter(|id| !id.is_empty() && !id.contains(SEPARATOR) && seen.insert(*id))
        .collect()
}

/// `WITH ids AS (…)`: one row per id of the bound parameter (DuckDB).
fn ids_cte(sql: &mut Sql, ids: &[&str]) {
    sql.text
        .push_str("WITH ids AS MATERIALIZED (SELECT DISTINCT unnest(string_split(?, ?)) AS id)");
    sql.params
        .push(Value::Text(ids.join(&SEPARATOR.to_string())));
    sql.params.push(Value::Text(SEPARATOR.to_string()));
}

/// `resource_id IN <the ids>` (`NOT IN` when `not`): DuckDB reads them from `ids`
/// ([`ids_cte`]); ClickHouse gets them as literals. ClickHouse with no id: nothing is excluded
/// (DuckDB's empty parameter splits into one empty id, which no `resource_id <> ''` matches).
fn ids_condition(sql: &mut Sql, ids: &[&str], not: bool) {
    let operator = if not { " NOT IN " } else { " IN " };
    match sql.dialect {
        Dialect::DuckDb => {
            sql.text.push_str(" AND resource_id");
            sql.text.push_str(operator);
            sql.text.push_str("(SELECT id FROM ids)");
        }
        Dialect::ClickHouse { .. } if ids.is_empty() => {}
        Dialect::ClickHouse { .. } => {
            sql.text.push_str(" AND resource_id");
            sql.text.push_str(operator);
            let literals: Vec<String> = ids
                .iter()
                .map(|id| Dialect::literal(&Value::Text((*id).to_owned())))
                .collect();
            sql.text.push('(');
            sql.text.push_str(&literals.join(", "));
            sql.text.push(')');
        }
    }
}

/// `customer_id = ? AND <range>` of every line item of `range` (every charge type: credits and
/// refunds lower a resource's cost as they lower the bill).
fn range_scope(sql: &mut Sql, customer: i64, range: &TimeRange) {
    let scope = query_builder::scope_in(sql.dialect, customer, Some(range), &CostFilter::default());
    sql.text.push_str(&scope.text);
    sql.params.extend(scope.params);
}

/// The answer's currency: `Some(target)` when only rows in `target` count (the tenant's data is
/// in several currencies), `None` when all rows are summed as they are (one currency).
fn target_of(plan: &Plan) -> Option<&str> {
    match plan {
        Plan::AsIs(_) => None,
        Plan::Convert { target, .. } => Some(target),
    }
}

fn main_currency(
    connection: &Connection,
    customer: i64,
) -> Result<(Plan, CurrencyNote), EngineError> {
    // No display currency: the tenant's main currency, nothing converted.
    let plan = RollupPays::default().plan(connection, customer, None)?;
    let note = plan.as_is_note(connection, customer)?;
    Ok((plan, note))
}

/// The statement of [`resource_costs`] in `dialect` for the (kept, non-empty) `ids`. Columns:
/// `resource_id`, `currency`, billed cost (an amount).
pub(crate) fn resource_costs_sql(
    dialect: Dialect,
    customer: i64,
    range: &TimeRange,
    ids: &[&str],
) -> Sql {
    let mut sql = Sql::new(dialect);
    if dialect == Dialect::DuckDb {
        ids_cte(&mut sql, ids);
        sql.text.push(' ');
    }
    sql.text.push_str("SELECT resource_id, currency, ");
    sql.text.push_str(&dialect.amount("sum(billed_cost)"));
    sql.text.push_str(" AS cost FROM ");
    sql.text.push_str(&dialect.table(COST_TABLE));
    sql.text.push_str(" WHERE ");
    range_scope(&mut sql, customer, range);
    ids_condition(&mut sql, ids, false);
    sql.text
        .push_str(" GROUP BY resource_id, currency ORDER BY resource_id, currency");
    sql
}

/// One row of [`resource_costs_sql`]: resource id, currency, cost.
pub(crate) type ResourceCostRow = (String, String, f64);

/// The answer of [`resource_costs_sql`]'s rows (either engine's) under `plan`.
pub(crate) fn resource_costs_of(
    plan: &Plan,
    currency: CurrencyNote,
    rows: Vec<ResourceCostRow>,
) -> ResourceCosts {
    let mut answer = ResourceCosts {
        costs: HashMap::new(),
        currency,
    };
    let target = target_of(plan);
    for (id, row_currency, cost) in rows {
        match target {
            Some(target) if row_currency != target => {
                currency::add_other(&mut answer.currency.other_currencies, row_currency, cost);
            }
            _ => *answer.costs.entry(id).or_default() += cost,
        }
    }
    answer
}

pub(crate) fn resource_costs(
    connection: &Connection,
    customer: i64,
    range: &TimeRange,
    ids: &[String],
) -> Result<ResourceCosts, EngineError> {
    let (plan, currency) = main_currency(connection, customer)?;
    let ids = usable_ids(ids);
    if ids.is_empty() {
        return Ok(resource_costs_of(&plan, currency, Vec::new()));
    }
    let sql = resource_costs_sql(Dialect::DuckDb, customer, range, &ids);
    let rows = query_rows(connection, &sql, |row| {
        Ok((
            row.get::<_, String>(0)?,
            row.get::<_, String>(1)?,
            row.get::<_, f64>(2)?,
        ))
    })?;
    Ok(resource_costs_of(&plan, currency, rows))
}

/// `SELECT resource_id, currency, provider, account_id, service, cost` of the spend per
/// resource id and currency of the ids not in `known`.
fn spend_select(sql: &mut Sql, customer: i64, range: &TimeRange, known: &[&str]) {
    sql.text.push_str(
        "SELECT resource_id, currency, max(provider) AS provider, \
         max(account_id) AS account_id, max(service) AS service, sum(billed_cost) AS cost FROM ",
    );
    sql.text.push_str(&sql.dialect.table(COST_TABLE));
    sql.text.push_str(" WHERE ");
    range_scope(sql, customer, range);
    sql.text.push_str(" AND resource_id <> ''");
    ids_condition(sql, known, true);
    sql.text.push_str(" GROUP BY resource_id, currency");
}

/// The statement of [`unmatched_resource_spend`] in `dialect`: per currency its resources
/// ordered by cost (largest first, then id), at most `limit` (at least one: each currency's
/// first row carries its totals). Columns: `resource_id`, `currency`, `provider`, `account_id`,
/// `service`, cost (an amount), the currency's resource count and total (an amount); DuckDB
/// then the place in the currency, ClickHouse (no window functions in 18.16) answers the rows
/// in that order, by currency ([`unmatched_rows`] numbers them).
pub(crate) fn unmatched_sql(
    dialect: Dialect,
    customer: i64,
    range: &TimeRange,
    known: &[&str],
    limit: u32,
) -> Sql {
    let mut sql = Sql::new(dialect);
    let limit = u64::from(limit.max(1));
    if dialect == Dialect::DuckDb {
        ids_cte(&mut sql, known);
        sql.text.push_str(", spend AS (");
        spend_select(&mut sql, customer, range, known);
        sql.text.push_str(
            "), \
             ranked AS (SELECT *, count(*) OVER (PARTITION BY currency) AS resource_count, \
             sum(cost) OVER (PARTITION BY currency) AS total, \
             row_number() OVER (PARTITION BY currency ORDER BY cost DESC, resource_id) AS place \
             FROM spend) \
             SELECT resource_id, currency, provider, account_id, service, CAST(cost AS DOUBLE), \
             resource_count, CAST(total AS DOUBLE), place FROM ranked WHERE place <= ? \
             ORDER BY currency, place",
        );
        sql.params.push(Value::UBigInt(limit));
        return sql;
    }
    let mut spend = Sql::new(dialect);
    spend_select(&mut spend, customer, range, known);
    sql.text.push_str(
        "SELECT resource_id, currency, provider, account_id, service, toString(cost), \
         resource_count, toString(total) FROM (",
    );
    sql.text.push_str(&spend.text);
    sql.text.push_str(
        ") GLOBAL ANY LEFT JOIN (SELECT currency, count() AS resource_count, sum(cost) AS total \
         FROM (",
    );
    sql.text.push_str(&spend.text);
    sql.text.push_str(
        ") GROUP BY currency) USING currency ORDER BY currency, cost DESC, resource_id LIMIT ",
    );
    sql.text.push_str(&Dialect::literal(&Value::UBigInt(limit)));
    sql.text.push_str(" BY currency");
    sql
}

/// One row of [`unmatched_sql`]: currency, the resource, the currency's resource count and
/// total, the resource's place in its currency (from 1).
pub(crate) type UnmatchedRow = (String, UnmatchedResource, i64, f64, i64);

/// The provider of a stored line item (loads store only parseable names; anything else is a
/// damaged database).
pub(crate) fn stored_provider(code: &str) -> Result<Provider, String> {
    code.parse::<Provider>()
}

/// The answer of [`unmatched_sql`]'s rows (either engine's) under `plan`.
pub(crate) fn unmatched_of(
    plan: &Plan,
    currency: CurrencyNote,
    limit: u32,
    rows: Vec<UnmatchedRow>,
) -> UnmatchedSpend {
    let mut answer = UnmatchedSpend {
        currency,
        ..UnmatchedSpend::default()
    };
    let target = target_of(plan);
    let mut merged: Vec<UnmatchedResource> = Vec::new();
    for (row_currency, resource, count, total, position) in rows {
        if target.is_some_and(|target| row_currency != target) {
            if position == 1 {
                currency::add_other(&mut answer.currency.other_currencies, row_currency, total);
            }
            continue;
        }
        if position == 1 {
            answer.resource_count += count.max(0).unsigned_abs();
            answer.total += total;
        }
        if position <= i64::from(limit) {
            merged.push(resource);
        }
    }
    // One currency counts (or the data has one): the rows are already in cost order; sorting
    // again keeps the order should the as-is data hold stray currencies.
    merged.sort_by(|a, b| {
        b.cost
            .total_cmp(&a.cost)
            .then_with(|| a.resource_id.cmp(&b.resource_id))
    });
    merged.truncate(limit as usize);
    answer.resources = merged;
    answer
}

pub(crate) fn unmatched_resource_spend(
    connection: &Connection,
    customer: i64,
    range: &TimeRange,
    known_ids: &[String],
    limit: u32,
) -> Result<UnmatchedSpend, EngineError> {
    let (plan, currency) = main_currency(connection, customer)?;
    let known = usable_ids(known_ids);
    let sql = unmatched_sql(Dialect::DuckDb, customer, range, &known, limit);
    let rows = query_rows(connection, &sql, |row| {
        const PROVIDER: usize = 2;
        let code: String = row.get(PROVIDER)?;
        let provider = stored_provider(&code).map_err(|message| {
            duckdb::Error::FromSqlConversionFailure(PROVIDER, Type::Text, message.into())
        })?;
        Ok((
            row.get::<_, String>(1)?,
            UnmatchedResource {
                resource_id: row.get(0)?,
                provider,
                account_id: row.get(3)?,
                service: row.get(4)?,
                cost: row.get(5)?,
            },
            row.get::<_, i64>(6)?,
            row.get::<_, f64>(7)?,
            row.get::<_, i64>(8)?,
        ))
    })?;
    Ok(unmatched_of(&plan, currency, limit, rows))
}
