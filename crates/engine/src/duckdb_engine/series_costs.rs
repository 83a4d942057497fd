//! The anomaly scan's reads: billed cost per day and series (provider × account × service, or
//! one tag key's values), each in its own currency, and one series' parts (usage types or
//! resources) over a few days. Read from the line items (tags and resources are only there),
//! every value bound; the tag key, the series and the days are parameters, never SQL text.

use costscope_core::anomaly::SeriesKey;
use duckdb::types::Value;
use duckdb::Connection;

use super::read::{date_of, query_rows};
use crate::query_builder::{date_value as date, Sql, COST_TABLE};
use crate::{CostPart, EngineError, SeriesCost, SeriesCostsBy, SeriesCostsQuery};

fn text(value: &str) -> Value {
    Value::Text(value.to_owned())
}

/// `?` for `value`.
fn bind(sql: &mut Sql, value: Value) {
    sql.text.push('?');
    sql.params.push(value);
}

/// The statement of `query` for `customer`.
pub(crate) fn series_costs_sql(customer: i64, query: &SeriesCostsQuery) -> Sql {
    let mut sql = Sql::default();
    // How many grouping columns (g0, g1, …) the shape has, and whether it is per day.
    let (groups, daily): (usize, bool) = match &query.by {
        SeriesCostsBy::Service => (3, true),
        SeriesCostsBy::Tag(_) | SeriesCostsBy::Series(_) => (1, true),
        SeriesCostsBy::Parts { .. } => (1, false),
    };
    sql.text.push_str("WITH s AS (SELECT ");
    sql.text.push_str(if daily {
        "charge_date AS day, "
    } else {
        "CAST(NULL AS DATE) AS day, "
    });
    match &query.by {
        SeriesCostsBy::Service => sql.text.push_str(
            "provider AS g0, account_id AS g1, service AS g2, max(account_name) AS account_name, ",
        ),
        SeriesCostsBy::Tag(key) => {
            sql.text.push_str("map_extract_value(tags, ");
            bind(&mut sql, text(key));
            sql.text.push_str(") AS g0, '' AS account_name, ");
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
    sql.text.push_str(COST_TABLE);
    sql.text.push_str(" WHERE customer_id = ");
    bind(&mut sql, Value::BigInt(customer));
    sql.text.push_str(" AND charge_date BETWEEN ");
    bind(&mut sql, date(query.first));
    sql.text.push_str(" AND ");
    bind(&mut sql, date(query.last));
    match &query.by {
        SeriesCostsBy::Service => {}
        SeriesCostsBy::Tag(key) => {
            sql.text.push_str(" AND map_contains(tags, ");
            bind(&mut sql, text(key));
            sql.text.push(')');
        }
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
                    sql.text.push_str(" AND map_contains(tags, ");
                    bind(&mut sql, text(key));
                    sql.text.push_str(") AND map_extract_value(tags, ");
                    bind(&mut sql, text(key));
                    sql.text.push_str(") = ");
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
    let columns: Vec<String> = (0..groups).map(|i| format!("g{i}")).collect();
    let columns = columns.join(", ");
    sql.text
        .push_str(&format!(" GROUP BY day, {columns}, currency)"));
    match &query.by {
        SeriesCostsBy::Parts { .. } | SeriesCostsBy::Series(_) => {
            sql.text.push_str(&format!(
                " SELECT day, {columns}, account_name, currency, CAST(cost AS DOUBLE) FROM s \
                 ORDER BY {columns}, currency, day"
            ));
        }
        _ => {
            // The largest series by absolute cost over the days, at most `limit` of them.
            sql.text.push_str(&format!(
                ", top AS (SELECT {columns}, currency FROM s GROUP BY {columns}, currency \
                 ORDER BY sum(abs(cost)) DESC, {columns}, currency LIMIT "
            ));
            bind(&mut sql, Value::UBigInt(u64::from(query.limit)));
            sql.text.push_str(&format!(
                ") SELECT s.day, {prefixed}, s.account_name, s.currency, CAST(s.cost AS DOUBLE) \
                 FROM s JOIN top USING ({columns}, currency) ORDER BY {prefixed}, s.currency, s.day",
                prefixed = (0..groups)
                    .map(|i| format!("s.g{i}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
    }
    sql
}

pub(crate) fn series_costs(
    connection: &Connection,
    customer: i64,
    query: &SeriesCostsQuery,
) -> Result<Vec<SeriesCost>, EngineError> {
    let groups = match query.by {
        SeriesCostsBy::Service => 3,
        SeriesCostsBy::Tag(_) | SeriesCostsBy::Series(_) | SeriesCostsBy::Parts { .. } => 1,
    };
    query_rows(connection, &series_costs_sql(customer, query), |row| {
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
