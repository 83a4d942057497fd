//! The aggregation for a dialect without CTEs or window functions (ClickHouse 18.16): the same
//! steps as [`super::aggregate_with`] — `raw` (per group, charge date and currency), `base` (per
//! group and bucket), the groups ranked by total then key, the kept page, its rows — written as
//! nested subqueries, the ranking as the place in a sorted subquery, a cumulative row as the
//! sum of its group's buckets up to its own. Amounts stay exact decimals (text) to the end.
//!
//! One statement answers three kinds of rows, in this order (`kind`, `bucket`, `rank`, `name`,
//! `amount`, `flag`, then `g0…gN`):
//! * `0`: one row of totals — `rank` is the number of groups, `name` the most common currency
//!   (`''` without rows), `amount` the total, `flag` 1 when some amount was converted;
//! * `1`: converting, one row per currency no rate converts (sorted): `name` and `amount`;
//! * `2`: the answer rows by bucket (`''` without an interval) then rank: `name` is the account
//!   name (`''` unless grouped by account), `amount` the row's.

use costscope_core::cost::{AggregateQuery, Dimension};

use super::{
    bucket_expression, bucket_interval, conversion, date_value, distinct_dimensions, group_keys,
    metric_column, scope_of, select_keys, Conversion, Currencies, Dialect, Source, Sql,
};

/// ClickHouse aggregates a `GROUP BY` of constants only (`'' AS g0` without a dimension) like
/// no `GROUP BY`: one row even of no rows. No group without rows, as in DuckDB.
const NOT_EMPTY: &str = " HAVING count() > 0";

pub(super) fn aggregate(
    dialect: Dialect,
    source: Source,
    customer: i64,
    query: &AggregateQuery,
    currencies: Currencies<'_>,
) -> Sql {
    let dimensions = distinct_dimensions(&query.dimensions);
    let keys = group_keys(&dimensions);
    let key_list = keys.join(", ");
    let converting = match currencies {
        Currencies::Convert(conversion) => Some(conversion),
        _ => None,
    };
    let read = Read {
        source,
        customer,
        query,
    };
    let raw = raw(dialect, read, &dimensions, currencies);
    let base = base(dialect, query, &key_list, &raw);
    let groups = format!(
        "SELECT {key_list}, max(bname) AS gname, sum(bamount) AS total FROM ({}) GROUP BY \
         {key_list}{NOT_EMPTY}",
        base.text
    );

    let mut sql = Sql::new(dialect);
    let empty_keys: String = keys.iter().map(|key| format!(", '' AS {key}")).collect();
    sql.push("SELECT kind, bucket, rank, name, amount, flag, ")
        .push(&key_list)
        .push(" FROM (SELECT toUInt8(0) AS kind, '' AS bucket, count() AS rank, ifNull((SELECT cur FROM (")
        .push(&raw.text)
        .push(") GROUP BY cur ORDER BY sum(items) DESC, cur LIMIT 1), '') AS name, toString(sum(total)) AS amount, ");
    match converting {
        Some(conversion) => {
            sql.push("ifNull((SELECT max(currency <> ");
            sql.bind(duckdb::types::Value::Text(conversion.target.to_owned()));
            sql.push(") FROM ");
            converted(&mut sql, read, &dimensions, conversion);
            sql.push(" WHERE converted IS NOT NULL), 0) AS flag");
        }
        None => {
            sql.push("toUInt8(0) AS flag");
        }
    }
    sql.push(&empty_keys)
        .push(" FROM (")
        .push(&groups)
        .push(")");
    if let Some(conversion) = converting {
        sql.push(" UNION ALL SELECT toUInt8(1), '', toUInt64(0), currency, toString(sum(amount)), toUInt8(0)")
            .push(&empty_keys)
            .push(" FROM ");
        converted(&mut sql, read, &dimensions, conversion);
        sql.push(" WHERE converted IS NULL GROUP BY currency");
    }
    sql.push(" UNION ALL SELECT toUInt8(2), bucket_text, toUInt64(rank), kname, toString(amount), toUInt8(0), ")
        .push(&key_list)
        .push(" FROM (");
    rows(&mut sql, query, &keys, &base, &groups);
    sql.push(")) ORDER BY kind, bucket, rank, name");
    sql
}

/// What an aggregation reads: the table, the tenant and the question.
#[derive(Clone, Copy)]
struct Read<'a> {
    source: Source,
    customer: i64,
    query: &'a AggregateQuery,
}

/// `pre` of a converting aggregation: per group, charge date and currency.
fn pre(dialect: Dialect, read: Read<'_>, dimensions: &[Dimension]) -> Sql {
    let query = read.query;
    let keys = group_keys(dimensions);
    let mut sql = Sql::new(dialect);
    sql.push("SELECT ");
    select_keys(&mut sql, dimensions, &keys);
    sql.push(", charge_date, ")
        .push(account_name(dimensions))
        .push(", currency, sum(")
        .push(metric_column(query.metric))
        .push(") AS amount");
    from_source(&mut sql, read);
    sql.push(" GROUP BY ")
        .push(&keys.join(", "))
        .push(", charge_date, currency");
    sql
}

/// `, <line items counted> AS items FROM <the source> WHERE <the query's scope>`.
fn from_source(sql: &mut Sql, read: Read<'_>) {
    let dialect = sql.dialect;
    sql.push(", ")
        .push(read.source.line_items())
        .push(" AS items FROM ")
        .push(&dialect.table(read.source.table()))
        .push(" WHERE ");
    sql.append(&scope_of(
        dialect,
        read.source,
        read.customer,
        Some(&read.query.range),
        &read.query.filter,
    ));
}

/// `(conv)`: the rows of [`pre`] with their `converted` amount.
fn converted(sql: &mut Sql, read: Read<'_>, dimensions: &[Dimension], conversion: Conversion<'_>) {
    let pre = pre(sql.dialect, read, dimensions);
    let columns = format!(
        "{}, charge_date, rname, currency, amount, items",
        group_keys(dimensions).join(", ")
    );
    conversion::converted_rows(sql, &pre, &columns, read.customer, conversion);
}

/// `max(account_name) AS rname` when grouped by account (else `''`): ClickHouse resolves an
/// alias equal to a column inside the aggregate, so no alias here repeats a column's name.
fn account_name(dimensions: &[Dimension]) -> &'static str {
    if dimensions.contains(&Dimension::Account) {
        "max(account_name) AS rname"
    } else {
        "'' AS rname"
    }
}

/// `raw`: per group (and charge date with an interval, and currency unless there is one):
/// `gI`, `charged`, `rname`, `cur`, `amt`, `items`.
fn raw(
    dialect: Dialect,
    read: Read<'_>,
    dimensions: &[Dimension],
    currencies: Currencies<'_>,
) -> Sql {
    let query = read.query;
    let keys = group_keys(dimensions);
    let key_list = keys.join(", ");
    let interval = bucket_interval(query);
    let mut sql = Sql::new(dialect);
    if let Currencies::Convert(conversion) = currencies {
        sql.push("SELECT ").push(&key_list);
        if interval.is_some() {
            sql.push(", charge_date AS charged");
        }
        sql.push(", rname, currency AS cur, assumeNotNull(converted) AS amt, items FROM ");
        converted(&mut sql, read, dimensions, conversion);
        sql.push(" WHERE converted IS NOT NULL");
        return sql;
    }
    sql.push("SELECT ");
    select_keys(&mut sql, dimensions, &keys);
    if interval.is_some() {
        sql.push(", charge_date AS charged");
    }
    sql.push(", ").push(account_name(dimensions));
    sql.push(match currencies {
        Currencies::One => ", any(currency) AS cur",
        _ => ", currency AS cur",
    });
    sql.push(", sum(")
        .push(metric_column(query.metric))
        .push(") AS amt");
    from_source(&mut sql, read);
    sql.push(" GROUP BY ").push(&key_list);
    if interval.is_some() {
        sql.push(", charged");
    }
    if currencies != Currencies::One {
        sql.push(", cur");
    }
    sql.push(NOT_EMPTY);
    sql
}

/// `base`: per group and bucket (per group without an interval): `gI`, `bucket`, `bname`,
/// `bamount`.
fn base(dialect: Dialect, query: &AggregateQuery, key_list: &str, raw: &Sql) -> Sql {
    let mut sql = Sql::new(dialect);
    sql.push("SELECT ").push(key_list);
    if let Some(interval) = bucket_interval(query) {
        sql.push(", ");
        bucket_expression(&mut sql, interval, "charged", &query.range);
        sql.push(" AS bucket");
    }
    sql.push(", max(rname) AS bname, sum(amt) AS bamount FROM (")
        .push(&raw.text)
        .push(") GROUP BY ")
        .push(key_list);
    if bucket_interval(query).is_some() {
        sql.push(", bucket");
    }
    sql.push(NOT_EMPTY);
    sql
}

/// The kept page of groups, ranked by total (the query's direction) then key ascending: 18.16
/// has no `row_number()`, so the rank is the row's place in the sorted subquery's one stream
/// (`rowNumberInAllBlocks`), filtered a level above (arrays of 18.16 `groupArray` would do it
/// without relying on the stream, but it crashes on tuples holding a Decimal128). Columns:
/// `gI`, `kname`, `ktotal`, `rank`.
fn kept(sql: &mut Sql, query: &AggregateQuery, keys: &[String], groups: &str) {
    let key_list = keys.join(", ");
    let direction = if query.ascending { "ASC" } else { "DESC" };
    let key_order: String = keys.iter().map(|key| format!(", {key} ASC")).collect();
    sql.push("SELECT ")
        .push(&key_list)
        .push(", kname, ktotal, rank FROM (SELECT ")
        .push(&key_list)
        .push(", gname AS kname, total AS ktotal, rowNumberInAllBlocks() + 1 AS rank FROM (SELECT ")
        .push(&key_list)
        .push(", gname, total FROM (")
        .push(groups)
        .push(") ORDER BY total ")
        .push(direction)
        .push(&key_order)
        .push(")) WHERE rank > ");
    sql.bind(duckdb::types::Value::BigInt(i64::from(query.offset)));
    if let Some(limit) = query.limit {
        sql.push(" AND rank <= ");
        sql.bind(duckdb::types::Value::BigInt(
            i64::from(query.offset) + i64::from(limit),
        ));
    }
}

/// The answer rows of the kept groups: `bucket_text`, `rank`, `kname`, `amount`, `gI`.
fn rows(sql: &mut Sql, query: &AggregateQuery, keys: &[String], base: &Sql, groups: &str) {
    let key_list = keys.join(", ");
    let Some(interval) = bucket_interval(query) else {
        sql.push("SELECT '' AS bucket_text, rank, kname, ktotal AS amount, ")
            .push(&key_list)
            .push(" FROM (");
        kept(sql, query, keys, groups);
        sql.push(")");
        return;
    };
    if !query.cumulative {
        sql.push("SELECT toString(bucket) AS bucket_text, rank, kname, bamount AS amount, ")
            .push(&key_list)
            .push(" FROM (")
            .push(&base.text)
            .push(") ALL INNER JOIN (");
        kept(sql, query, keys, groups);
        sql.push(") USING (").push(&key_list).push(")");
        return;
    }
    // Every bucket of the range's days (days without cost included), each the sum of the
    // group's buckets up to it (every kept group has buckets, so each row joins some).
    let start = query.range.start().date_naive();
    let days = (query.range.end().date_naive() - start).num_days() + 1;
    sql.push("SELECT toString(bucket) AS bucket_text, rank, kname, sumIf(bamount, base_bucket <= bucket) AS amount, ")
        .push(&key_list)
        .push(" FROM (");
    kept(sql, query, keys, groups);
    sql.push(") ARRAY JOIN arrayDistinct(arrayMap(day -> ");
    let mut day = Sql::new(sql.dialect);
    day.push("(");
    day.bind(date_value(start));
    day.push(" + day)");
    bucket_expression(sql, interval, &day.text, &query.range);
    sql.push(&format!(", range({}))) AS bucket", days.max(0)))
        .push(" ALL INNER JOIN (SELECT ")
        .push(&key_list)
        .push(", bucket AS base_bucket, bamount FROM (")
        .push(&base.text)
        .push(")) USING (")
        .push(&key_list)
        .push(") GROUP BY bucket, rank, kname, ")
        .push(&key_list);
}
