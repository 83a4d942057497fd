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
use crate::query_builder::{self, Sql, COST_TABLE};
use crate::{CurrencyNote, EngineError, ResourceCosts, UnmatchedResource, UnmatchedSpend};

/// Separates the ids in their one parameter: a control character no resource id or ARN holds
/// (an id that holds it is dropped: it could match nothing anyway).
const SEPARATOR: char = '\u{1}';

/// The ids joined by [`SEPARATOR`], without duplicates, empties and ids holding it.
fn joined(ids: &[String]) -> (String, usize) {
    let mut seen = HashSet::new();
    let kept: Vec<&str> = ids
        .iter()
        .map(String::as_str)
        .filter(|id| !id.is_empty() && !id.contains(SEPARATOR) && seen.insert(*id))
        .collect();
    (kept.join(&SEPARATOR.to_string()), kept.len())
}

/// `WITH ids AS (…)`: one row per id of the bound parameter.
fn ids_cte(sql: &mut Sql, joined: String) {
    sql.text
        .push_str("WITH ids AS MATERIALIZED (SELECT DISTINCT unnest(string_split(?, ?)) AS id)");
    sql.params.push(Value::Text(joined));
    sql.params.push(Value::Text(SEPARATOR.to_string()));
}

/// `customer_id = ? AND <range>` of every line item of `range` (every charge type: credits and
/// refunds lower a resource's cost as they lower the bill).
fn range_scope(sql: &mut Sql, customer: i64, range: &TimeRange) {
    let scope = query_builder::scope(customer, Some(range), &CostFilter::default());
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

pub(crate) fn resource_costs(
    connection: &Connection,
    customer: i64,
    range: &TimeRange,
    ids: &[String],
) -> Result<ResourceCosts, EngineError> {
    let (plan, currency) = main_currency(connection, customer)?;
    let mut answer = ResourceCosts {
        costs: HashMap::new(),
        currency,
    };
    let (ids, count) = joined(ids);
    if count == 0 {
        return Ok(answer);
    }
    let mut sql = Sql::default();
    ids_cte(&mut sql, ids);
    sql.text
        .push_str(" SELECT resource_id, currency, CAST(sum(billed_cost) AS DOUBLE) AS cost FROM ");
    sql.text.push_str(COST_TABLE);
    sql.text.push_str(" WHERE ");
    range_scope(&mut sql, customer, range);
    sql.text.push_str(
        " AND resource_id IN (SELECT id FROM ids) GROUP BY resource_id, currency \
         ORDER BY resource_id, currency",
    );
    let rows = query_rows(connection, &sql, |row| {
        Ok((
            row.get::<_, String>(0)?,
            row.get::<_, String>(1)?,
            row.get::<_, f64>(2)?,
        ))
    })?;
    let target = target_of(&plan);
    for (id, row_currency, cost) in rows {
        match target {
            Some(target) if row_currency != target => {
                currency::add_other(&mut answer.currency.other_currencies, row_currency, cost);
            }
            _ => *answer.costs.entry(id).or_default() += cost,
        }
    }
    Ok(answer)
}

pub(crate) fn unmatched_resource_spend(
    connection: &Connection,
    customer: i64,
    range: &TimeRange,
    known_ids: &[String],
    limit: u32,
) -> Result<UnmatchedSpend, EngineError> {
    let (plan, currency) = main_currency(connection, customer)?;
    let mut answer = UnmatchedSpend {
        currency,
        ..UnmatchedSpend::default()
    };
    let (known, _) = joined(known_ids);
    let mut sql = Sql::default();
    ids_cte(&mut sql, known);
    sql.text.push_str(
        ", spend AS (SELECT resource_id, currency, max(provider) AS provider, \
         max(account_id) AS account_id, max(service) AS service, sum(billed_cost) AS cost FROM ",
    );
    sql.text.push_str(COST_TABLE);
    sql.text.push_str(" WHERE ");
    range_scope(&mut sql, customer, range);
    sql.text.push_str(
        " AND resource_id <> '' AND resource_id NOT IN (SELECT id FROM ids) \
         GROUP BY resource_id, currency), \
         ranked AS (SELECT *, count(*) OVER (PARTITION BY currency) AS resource_count, \
         sum(cost) OVER (PARTITION BY currency) AS total, \
         row_number() OVER (PARTITION BY currency ORDER BY cost DESC, resource_id) AS place \
         FROM spend) \
         SELECT resource_id, currency, provider, account_id, service, CAST(cost AS DOUBLE), \
         resource_count, CAST(total AS DOUBLE), place FROM ranked WHERE place <= ? \
         ORDER BY currency, place",
    );
    // Each currency's first row carries its totals even when `limit` is 0.
    sql.params.push(Value::UBigInt(u64::from(limit.max(1))));
    let rows = query_rows(connection, &sql, |row| {
        const PROVIDER: usize = 2;
        let code: String = row.get(PROVIDER)?;
        // Loads store only parseable provider names; anything else is a damaged database.
        let provider = code.parse::<Provider>().map_err(|message| {
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
    let target = target_of(&plan);
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
    Ok(answer)
}
