//! Currency conversion in SQL (docs/CURRENCY.md). A query that converts first groups its rows
//! into a CTE named `pre` with at least `currency`, `charge_date` and `amount` (a DECIMAL sum);
//! [`conversion_ctes`] then adds `conv`: every row of `pre` with `converted`, its amount in the
//! target currency as `DECIMAL(38, 12)`, or NULL when no rate converts it. Amounts are multiplied
//! as DECIMALs; nothing is rounded to cents here.

use duckdb::types::Value;

use super::Sql;

/// The tenant's exchange rates (one row per date and pair; replaced whole by each upload).
pub(crate) const RATES_TABLE: &str = "exchange_rates";

/// `CREATE TABLE` of [`RATES_TABLE`]: `1 from_currency = rate to_currency` on `rate_date`.
pub(crate) fn rates_schema() -> String {
    format!(
        "CREATE TABLE IF NOT EXISTS {RATES_TABLE} (customer_id BIGINT NOT NULL, \
         rate_date DATE NOT NULL, from_currency VARCHAR NOT NULL, to_currency VARCHAR NOT NULL, \
         rate DECIMAL(38,12) NOT NULL);"
    )
}

/// What a converting query converts to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Conversion<'a> {
    /// The currency of the answer's figures.
    pub target: &'a str,
    /// Whether the tenant's rates convert other currencies (a display currency is chosen);
    /// without, amounts in other currencies are only listed apart.
    pub with_rates: bool,
}

/// `, xr AS (…), …, conv AS (…)` after a `pre` CTE: which rate converts a row of `pre` to
/// the target — the rate of its currency to the target with the latest date on or before the
/// row's charge date, else the earliest one after; a pair given only the other way round is used
/// inverted; rows already in the target currency are kept as they are.
pub(crate) fn conversion_ctes(sql: &mut Sql, customer: i64, conversion: Conversion<'_>) {
    let target = || Value::Text(conversion.target.to_owned());
    if conversion.with_rates {
        rates_cte(sql, customer, conversion.target);
    } else {
        sql.push(
            ", xr AS (SELECT CAST(NULL AS VARCHAR) AS cur, CAST(NULL AS DATE) AS rate_date, \
             CAST(NULL AS DECIMAL(38,12)) AS rate WHERE FALSE)",
        );
    }
    sql.push(", xr_first AS (SELECT cur, arg_min(rate, rate_date) AS rate FROM xr GROUP BY cur)");
    sql.push(", xr_days AS (SELECT DISTINCT currency, charge_date FROM pre WHERE currency <> ");
    sql.bind(target());
    sql.push(")");
    sql.push(
        ", xr_day AS (SELECT d.currency, d.charge_date, coalesce(r.rate, f.rate) AS rate \
         FROM xr_days d ASOF LEFT JOIN xr r ON d.currency = r.cur AND d.charge_date >= r.rate_date \
         LEFT JOIN xr_first f ON f.cur = d.currency)",
    );
    sql.push(", conv AS MATERIALIZED (SELECT pre.*, CASE WHEN pre.currency = ");
    sql.bind(target());
    sql.push(
        " THEN CAST(pre.amount AS DECIMAL(38,12)) \
         ELSE CAST(pre.amount * x.rate AS DECIMAL(38,12)) END AS converted \
         FROM pre LEFT JOIN xr_day x ON x.currency = pre.currency AND x.charge_date = pre.charge_date)",
    );
}

/// `(SELECT <columns>, …, converted FROM (pre) …)`: [`conversion_ctes`]' `conv` for a dialect
/// without CTEs nor `ASOF JOIN` (ClickHouse 18.16), as a subquery of `pre`'s `columns` and
/// `converted`, the same rule written with arrays: each currency's rates to the target sorted
/// by date (as text: 18.16's `groupArray` crashes on tuples holding a Decimal128), the latest on
/// or before the row's charge date, else the earliest; the product
/// rounded half away from zero to 12 places, as DuckDB's DECIMAL cast rounds (ClickHouse's
/// truncates, hence the half added first). The charge date goes into the lambdas as an
/// argument (`replicate`): 18.16 drops a column that only a lambda captures from a subquery.
/// The rates are joined `GLOBAL` (read once and sent to the shards): ClickHouse refuses a
/// `Distributed` table joined into a query over another one otherwise.
pub(crate) fn converted_rows(
    sql: &mut Sql,
    pre: &Sql,
    columns: &str,
    customer: i64,
    conversion: Conversion<'_>,
) {
    sql.push("(SELECT ").push(columns).push(", if(currency = ");
    sql.bind(Value::Text(conversion.target.to_owned()));
    sql.push(", toNullable(toDecimal128(amount, 12)), ");
    if conversion.with_rates {
        sql.push(
            "if(empty(rates), NULL, toNullable(",
        )
        .push(&round_half_away("scaled", 12))
        .push(
            "))) AS converted, \
             amount * toDecimal128(if(arrayExists((r, day) -> r.1 <= day, rates, \
             replicate(charge_date, rates)), tupleElement(arrayFilter((r, day) -> r.1 <= day, \
             rates, replicate(charge_date, rates))[-1], 2), \
             if(empty(rates), '0', tupleElement(rates[1], 2))), 12) AS scaled FROM (",
        )
        .append(pre)
        .push(") GLOBAL ANY LEFT JOIN (SELECT cur AS currency, arraySort(groupArray((rate_date, toString(rate)))) AS rates FROM (");
        clickhouse_rates(sql, customer, conversion.target);
        sql.push(") GROUP BY cur) USING currency)");
    } else {
        sql.push("NULL) AS converted FROM (").append(pre).push("))");
    }
}

/// `expression` (a ClickHouse Decimal) rounded half away from zero to `scale` places, as DuckDB
/// rounds a DECIMAL cast to fewer places (ClickHouse's own cast truncates).
pub(crate) fn round_half_away(expression: &str, scale: usize) -> String {
    let half = format!("0.{}5", "0".repeat(scale));
    format!(
        "toDecimal128(if({expression} < 0, {expression} - toDecimal128('{half}', {places}), \
         {expression} + toDecimal128('{half}', {places})), {scale})",
        places = scale + 1
    )
}

/// The rates to `target` as `cur`, `rate_date`, `rate`, given or given the other way round
/// (inverted, rounded to 12 places as DuckDB casts a DOUBLE to its DECIMAL) for a currency with
/// no rate given this way: [`rates_cte`] in ClickHouse.
fn clickhouse_rates(sql: &mut Sql, customer: i64, target: &str) {
    let table = sql.dialect.table(RATES_TABLE);
    let target = || Value::Text(target.to_owned());
    let customer = || Value::BigInt(customer);
    sql.push("SELECT from_currency AS cur, rate_date, rate FROM ")
        .push(&table)
        .push(" WHERE customer_id = ");
    sql.bind(customer());
    sql.push(" AND to_currency = ");
    sql.bind(target());
    sql.push(
        " UNION ALL SELECT to_currency, rate_date, \
         toDecimal128(round(1 / toFloat64(rate) * 1e12), 0) * toDecimal128('0.000000000001', 12) \
         FROM ",
    )
    .push(&table)
    .push(" WHERE customer_id = ");
    sql.bind(customer());
    sql.push(" AND from_currency = ");
    sql.bind(target());
    sql.push(" AND to_currency GLOBAL NOT IN (SELECT from_currency FROM ")
        .push(&table)
        .push(" WHERE customer_id = ");
    sql.bind(customer());
    sql.push(" AND to_currency = ");
    sql.bind(target());
    sql.push(")");
}

/// `, xr AS (…)`: the rates to `target`, given, or given the other way round (inverted) for a
/// currency with no rate given this way.
fn rates_cte(sql: &mut Sql, customer: i64, target: &str) {
    let target = || Value::Text(target.to_owned());
    let customer = || Value::BigInt(customer);
    sql.push(", xr AS (SELECT from_currency AS cur, rate_date, rate FROM ")
        .push(RATES_TABLE)
        .push(" WHERE customer_id = ");
    sql.bind(customer());
    sql.push(" AND to_currency = ");
    sql.bind(target());
    sql.push(
        " UNION ALL SELECT e.to_currency, e.rate_date, \
         CAST(1 / CAST(e.rate AS DOUBLE) AS DECIMAL(38,12)) FROM ",
    )
    .push(RATES_TABLE)
    .push(" e WHERE e.customer_id = ");
    sql.bind(customer());
    sql.push(" AND e.from_currency = ");
    sql.bind(target());
    sql.push(" AND NOT EXISTS (SELECT 1 FROM ")
        .push(RATES_TABLE)
        .push(" d WHERE d.customer_id = ");
    sql.bind(customer());
    sql.push(" AND d.from_currency = e.to_currency AND d.to_currency = ");
    sql.bind(target());
    sql.push("))");
}

/// Three columns summing up `conv`: `other_currencies` (VARCHAR[]) and `other_amounts`
/// (DOUBLE[]), the amounts no rate converts by currency, sorted; `converted` (BOOLEAN), whether
/// any amount in the figures was converted.
pub(crate) fn conversion_columns(sql: &mut Sql, target: &str) {
    sql.push(
        "(SELECT list(currency ORDER BY currency) FROM (SELECT currency FROM conv \
         WHERE converted IS NULL GROUP BY currency)) AS other_currencies, \
         (SELECT list(amount ORDER BY currency) FROM (SELECT currency, \
         CAST(sum(amount) AS DOUBLE) AS amount FROM conv WHERE converted IS NULL \
         GROUP BY currency)) AS other_amounts, \
         (SELECT coalesce(bool_or(currency <> ",
    );
    sql.bind(Value::Text(target.to_owned()));
    sql.push("), false) FROM conv WHERE converted IS NOT NULL) AS converted");
}

/// [`conversion_columns`] of a query that does not convert: no other currency, not converted.
pub(crate) fn no_conversion_columns(sql: &mut Sql) {
    sql.push(
        "CAST(NULL AS VARCHAR[]) AS other_currencies, CAST(NULL AS DOUBLE[]) AS other_amounts, \
         false AS converted",
    );
}

/// Billed cost per currency over all of the tenant's data (from the core daily rollup, the
/// narrowest one every load keeps whole), largest first. Columns: currency, billed (DOUBLE).
pub fn data_currencies(customer: i64) -> Sql {
    let mut sql = Sql::default();
    sql.push("SELECT currency, CAST(sum(billed_cost) AS DOUBLE) AS billed FROM ")
        .push(super::CORE_DAILY_TABLE)
        .push(" WHERE customer_id = ");
    sql.bind(Value::BigInt(customer));
    sql.push(" GROUP BY currency ORDER BY sum(billed_cost) DESC, currency");
    sql
}

/// [`data_currencies`] in `dialect`: on ClickHouse from the monthly rollup (the same sums in
/// fewer rows; every load keeps it), the amount an exact decimal.
pub fn data_currencies_in(dialect: super::Dialect, customer: i64) -> Sql {
    let mut sql = Sql::new(dialect);
    sql.push("SELECT currency, ")
        .push(&dialect.amount("sum(billed_cost)"))
        .push(" AS billed FROM ")
        .push(&dialect.table(super::MONTHLY_TABLE))
        .push(" WHERE customer_id = ");
    sql.bind(Value::BigInt(customer));
    sql.push(" GROUP BY currency ORDER BY sum(billed_cost) DESC, currency");
    sql
}

/// One currency of the tenant's data (any; for a tenant whose data is in one currency).
pub fn some_currency(customer: i64) -> Sql {
    let mut sql = Sql::default();
    sql.push("SELECT currency FROM ")
        .push(super::CORE_DAILY_TABLE)
        .push(" WHERE customer_id = ");
    sql.bind(Value::BigInt(customer));
    sql.push(" LIMIT 1");
    sql
}
