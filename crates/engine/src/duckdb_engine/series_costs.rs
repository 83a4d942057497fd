//! The anomaly scan's reads: billed cost per day and series (provider × account × service, or
//! one tag key's values), each in its own currency, and one series' parts (usage types or
//! resources) over a few days. Read from the line items (tags and resources are only there),
//! every value bound; the tag key, the series and the days are parameters, never SQL text.

use costscope_core::anomaly::SeriesKey;
use duckdb::types::Value;
use duckdb::Connection;

use super::read::{date_of, query_rows};
use crate::query_builder::{date_value as date, Dialect, Sql, COST_TABLE};
use crate::{CostPart, EngineError, SeriesCost, SeriesCostsBy, SeriesCostsQuery};

fn text(value: &str) -> Value {
    Value::Text(value.to_owned())
}

/// `value`: a `?` bound (DuckDB) or a literal (ClickHouse).
fn bind(sql: &mut Sql, value: Value) {
    match sql.dialect {
        Dialect::DuckDb => {
            sql.text.push('?');
            sql.params.push(value);
        }
        Dialect::ClickHouse { .. } => sql.text.push_str(&Dialect::literal(&value)),
    }
}

/// How many grouping columns (g0, g1, …) the shape has.
pub(crate) fn groups_of(by: &SeriesCostsBy) -> usize {
    match by {
        SeriesCostsBy::Service => 3,
        SeriesCostsBy::Tag(_) | SeriesCostsBy::Series(_) | SeriesCostsBy::Parts { .. } => 1,
    }
}

/// `<tag key>'s value` of a row (which has it).
fn tag_value(sql: &mut Sql, key: &str) {
    let clickhouse = sql.dialect.is_clickhouse();
    // ClickHouse keeps the tags as two parallel arrays.
    sql.text.push_str(if clickhouse {
        "tags_values[indexOf(tags_keys, "
    } else {
        "map_extract_value(tags, "
    });
    bind(sql, text(key));
    sql.text.push_str(if clickhouse { ")]" } else { ")" });
}

/// ` AND <the row has tag key>`.
fn has_tag(sql: &mut Sql, key: &str) {
    sql.text.push_str(if sql.dialect.is_clickhouse() {
        " AND has(tags_keys, "
    } else {
        " AND map_contains(tags, "
    });
    bind(sql, text(key));
    sql.text.push(')');
}

/// The per-day (or per-part) sums `s` of `query`: `SELECT day, g0…, account_name, currency,
/// cost … GROUP BY day, g0…, currency`.
fn sums_sql(dialect: Dialect, customer: i64, query: &SeriesCostsQuery) -> Sql {
    let mut sql = Sql::new(dialect);
    let daily = !matches!(query.by, SeriesCostsBy::Parts { .. });
    sql.text.push_str("SELECT ");
    sql.text.push_str(match (daily, dialect) {
        (true, _) => "charge_date AS day, ",
        (false, Dialect::DuckDb) => "CAST(NULL AS DATE) AS day, ",
        (false, Dialect::ClickHouse { .. }) => "CAST(NULL AS Nullable(Date)) AS day, ",
    });
    match &query.by {
        SeriesCostsBy::Service => sql.text.push_str(
            "provider AS g0, account_id AS g1, service AS g2, max(account_name) AS account_name, ",
        ),
        SeriesCostsBy::Tag(key) => {
            tag_value(&mut sql, key);
            sql.text.push_str(" AS g0, '' AS account_name, ");
        }
        SeriesCostsBy::Series(_) => sql.text.push_str("'' AS g0, '' AS account_name, "),
        SeriesCostsBy::Parts { part, .. } => sql.text.push_str(match part {
            CostPart::UsageType => {
                "coalesce(nullif(usage_type, ''), nullif(charge_description, ''), '') AS g0, \
                 '' AS account_name, "
            }
            CostPart::Resource => "resource_id AS g0, '' AS account_name, ",
        }),
    }
    sql.text
        .push_str("currency, sum(billed_cost) AS cost FROM ");
    sql.text.push_str(&dialect.table(COST_TABLE));
    sql.text.push_str(" WHERE customer_id = ");
    bind(&mut sql, Value::BigInt(customer));
    sql.text.push_str(" AND charge_date BETWEEN ");
    bind(&mut sql, date(query.first));
    sql.text.push_str(" AND ");
    bind(&mut sql, date(query.last));
    match &query.by {
        SeriesCostsBy::Service => {}
        SeriesCostsBy::Tag(key) => has_tag(&mut sql, key),
        SeriesCostsBy::Series(series) | SeriesCostsBy::Parts { series, .. } => {
            match series {
                SeriesKey::Service {
                    provider,
                    account_id,
                    service,
                    ..
                } => {
                    sql.text.push_str(" AND provider = ");
                    bind(&mut sql, text(provider));
                    sql.text.push_str(" AND account_id = ");
                    bind(&mut sql, text(account_id));
                    sql.text.push_str(" AND service = ");
                    bind(&mut sql, text(service));
                }
                SeriesKey::Tag { key, value, .. } => {
                    has_tag(&mut sql, key);
                    sql.text.push_str(" AND ");
                    tag_value(&mut sql, key);
                    sql.text.push_str(" = ");
                    bind(&mut sql, text(value));
                }
            }
            sql.text.push_str(" AND currency = ");
            bind(&mut sql, text(series.currency()));
            if let SeriesCostsBy::Parts {
                part: CostPart::Resource,
                ..
            } = &query.by
            {
                sql.text.push_str(" AND resource_id <> ''");
            }
        }
    }
    sql.text.push_str(&format!(
        " GROUP BY day, {}, currency",
        columns(groups_of(&query.by), "")
    ));
    sql
}

/// `g0, g1, …` (each after `prefix`).
fn columns(groups: usize, prefix: &str) -> String {
    (0..groups)
        .map(|i| format!("{prefix}g{i}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The statement of `query` for `customer` in `dialect`. Columns: `day` (NULL for parts), g0…,
/// `account_name`, `currency`, the cost (an amount), by series and day.
pub(crate) fn series_costs_sql(dialect: Dialect, customer: i64, query: &SeriesCostsQuery) -> Sql {
    let sums = sums_sql(dialect, customer, query);
    let columns = columns(groups_of(&query.by), "");
    let every_series = !matches!(
        query.by,
        SeriesCostsBy::Parts { .. } | SeriesCostsBy::Series(_)
    );
    let mut sql = Sql::new(dialect);
    if dialect == Dialect::DuckDb {
        sql.text.push_str("WITH s AS (");
        sql.text.push_str(&sums.text);
        sql.params.extend(sums.params);
        sql.text.push(')');
        if !every_series {
            sql.text.push_str(&format!(
                " SELECT day, {columns}, account_name, currency, CAST(cost AS DOUBLE) FROM s \
                 ORDER BY {columns}, currency, day"
            ));
            return sql;
        }
        // The largest series by absolute cost over the days, at most `limit` of them.
        sql.text.push_str(&format!(
            ", top AS (SELECT {columns}, currency FROM s GROUP BY {columns}, currency \
             ORDER BY sum(abs(cost)) DESC, {columns}, currency LIMIT "
        ));
        bind(&mut sql, Value::UBigInt(u64::from(query.limit)));
        sql.text.push_str(&format!(
            ") SELECT s.day, {prefixed}, s.account_name, s.currency, CAST(s.cost AS DOUBLE) \
             FROM s JOIN top USING ({columns}, currency) ORDER BY {prefixed}, s.currency, s.day",
            prefixed = self::columns(groups_of(&query.by), "s.")
        ));
        return sql;
    }
    // ClickHouse 18.16 has no CTEs: `s` is a subquery (twice for the top series).
    sql.text.push_str(&format!(
        "SELECT day, {columns}, account_name, currency, toString(cost) FROM ({})",
        sums.text
    ));
    if every_series {
        sql.text.push_str(&format!(
            " GLOBAL ALL INNER JOIN (SELECT {columns}, currency FROM ({}) GROUP BY {columns}, \
             currency ORDER BY sum(abs(cost)) DESC, {columns}, currency LIMIT ",
            sums.text
        ));
        bind(&mut sql, Value::UBigInt(u64::from(query.limit)));
        sql.text.push_str(&format!(") USING ({columns}, currency)"));
    }
    sql.text
        .push_str(&format!(" ORDER BY {columns}, currency, day"));
    sql
}

pub(crate) fn series_costs(
    connection: &Connection,
    customer: i64,
    query: &SeriesCostsQuery,
) -> Result<Vec<SeriesCost>, EngineError> {
    let groups = groups_of(&query.by);
    let sql = series_costs_sql(Dialect::DuckDb, customer, query);
    query_rows(connection, &sql, |row| {
        let day: Value = row.get(0)?;
        let mut group = Vec::with_capacity(groups);
        for i in 0..groups {
            group.push(row.get::<_, Option<String>>(1 + i)?.unwrap_or_default());
        }
        Ok(SeriesCost {
            day: date_of(&day),
            group,
            account_name: row
                .get::<_, Option<String>>(1 + groups)?
                .unwrap_or_default(),
            currency: row.get(2 + groups)?,
            amount: row.get(3 + groups)?,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn placeholders(sql: &Sql) -> usize {
        sql.text.matches('?').count()
    }

    #[test]
    fn placeholders_match_parameters_in_every_shape() {
        let first = chrono::NaiveDate::from_ymd_opt(2026, 1, 1).unwrap();
        let last = chrono::NaiveDate::from_ymd_opt(2026, 2, 1).unwrap();
        let service = SeriesKey::Service {
            provider: "aws".into(),
            account_id: "1".into(),
            service: "EC2'; DROP TABLE x".into(),
            currency: "USD".into(),
        };
        let tag = SeriesKey::Tag {
            key: "team".into(),
            value: "a".into(),
            currency: "EUR".into(),
        };
        let shapes = [
            SeriesCostsBy::Service,
            SeriesCostsBy::Tag("team'".into()),
            SeriesCostsBy::Parts {
                series: service,
                part: CostPart::UsageType,
            },
            SeriesCostsBy::Parts {
                series: tag.clone(),
                part: CostPart::Resource,
            },
            SeriesCostsBy::Series(tag),
        ];
        for by in shapes {
            let sql = series_costs_sql(
                Dialect::DuckDb,
                7,
                &SeriesCostsQuery {
                    first,
                    last,
                    by,
                    limit: 10,
                },
            );
            assert_eq!(placeholders(&sql), sql.params.len(), "{}", sql.text);
            assert!(!sql.text.contains("DROP") && !sql.text.contains("team'"));
        }
    }
}
