//! The read calls: run the query builder's SQL and turn rows into the engine's answer types.

use chrono::{DateTime, NaiveDate, Utc};
use costscope_core::cost::{
    AggregateQuery, CostFilter, CurrencyCode, Dimension, Metric, Provider, TimeRange,
};
use duckdb::types::{TimeUnit, Value};
use duckdb::{params_from_iter, Connection, Row};

use super::currency::{self, Plan};
use super::database_error;
use crate::query_builder::{self, Reads, Rollup, Source, Sql};
use crate::{
    AccountOption, Aggregate, AggregateRow, CurrencyNote, EngineError, FilterOptions, SeenAccount,
    ServiceSpend, SpendBreakdown,
};

/// Runs `sql` (prepared statements are cached per connection) and maps every row.
pub(crate) fn query_rows<T>(
    connection: &Connection,
    sql: &Sql,
    mut map: impl FnMut(&Row<'_>) -> duckdb::Result<T>,
) -> Result<Vec<T>, EngineError> {
    let mut statement = connection
        .prepare_cached(&sql.text)
        .map_err(database_error)?;
    let rows = statement
        .query_map(params_from_iter(sql.params.iter()), |row| map(row))
        .map_err(database_error)?;
    rows.collect::<Result<Vec<_>, _>>().map_err(database_error)
}

/// A `DATE` (or `TIMESTAMP`) value as a date; `None` for NULL.
pub(crate) fn date_of(value: &Value) -> Option<NaiveDate> {
    let epoch = NaiveDate::from_ymd_opt(1970, 1, 1)?;
    match value {
        Value::Date32(days) => epoch.checked_add_signed(chrono::Duration::days(i64::from(*days))),
        Value::Timestamp(..) => timestamp_of(value).map(|at| at.date_naive()),
        _ => None,
    }
}

/// A `TIMESTAMP` value as a UTC instant; `None` for NULL.
pub(crate) fn timestamp_of(value: &Value) -> Option<DateTime<Utc>> {
    match value {
        Value::Timestamp(unit, amount) => {
            let micros = match unit {
                TimeUnit::Second => amount.checked_mul(1_000_000)?,
                TimeUnit::Millisecond => amount.checked_mul(1_000)?,
                TimeUnit::Microsecond => *amount,
                TimeUnit::Nanosecond => amount / 1_000,
            };
            DateTime::from_timestamp_micros(micros)
        }
        _ => None,
    }
}

/// A tenant's row counts ([`query_builder::rollup_stats`]); a rollup's is `None` while it is
/// not kept.
#[derive(Debug, Clone, Copy, Default)]
struct Stats {
    line_items: i64,
    monthly_rows: Option<i64>,
    core_rows: Option<i64>,
    daily_rows: Option<i64>,
    one_currency: bool,
}

impl Stats {
    fn pays(&self, source: Source) -> bool {
        let rows = match source {
            Source::LineItems => return true,
            Source::Monthly => self.monthly_rows,
            Source::CoreDaily => self.core_rows,
            Source::Daily => self.daily_rows,
        };
        rows.is_some_and(|rows| query_builder::rollup_pays(rows, self.line_items))
    }

    /// Whether the rollups built with the core daily one are kept (every load and the schema
    /// migration keep them; a tenant without a stats row has no rollups).
    fn derived_kept(&self) -> bool {
        self.core_rows.is_some()
    }
}

/// The tenant's row counts and currencies, asked of the database at most once per engine call,
/// however many questions the call asks.
#[derive(Default)]
pub(crate) struct RollupPays(Option<Stats>);

impl RollupPays {
    fn stats(&mut self, connection: &Connection, customer: i64) -> Result<Stats, EngineError> {
        if let Some(stats) = self.0 {
            return Ok(stats);
        }
        let stats = query_rows(connection, &query_builder::rollup_stats(customer), |row| {
            Ok(Stats {
                line_items: row.get(0)?,
                monthly_rows: row.get(1)?,
                core_rows: row.get(2)?,
                daily_rows: row.get(3)?,
                one_currency: row.get(4)?,
            })
        })?
        .first()
        .copied()
        .unwrap_or_default();
        self.0 = Some(stats);
        Ok(stats)
    }

    /// How the call treats currencies (see [`Plan`]).
    pub(crate) fn plan(
        &mut self,
        connection: &Connection,
        customer: i64,
        display: Option<&CurrencyCode>,
    ) -> Result<Plan, EngineError> {
        let one_currency = self.stats(connection, customer)?.one_currency;
        currency::plan(connection, customer, display, one_currency)
    }
}

/// Whether `rollup` gives the line items' answer on `range` (no row of a partly covered day
/// straddles the range's boundary).
fn exact_on(
    connection: &Connection,
    customer: i64,
    range: Option<&TimeRange>,
    rollup: Rollup,
) -> Result<bool, EngineError> {
    let Some(check) =
        range.and_then(|range| query_builder::straddle_check(customer, range, rollup))
    else {
        return Ok(true);
    };
    let straddling = query_rows(connection, &check, |row| row.get::<_, i64>(0))?;
    Ok(straddling.first().copied().unwrap_or_default() == 0)
}

/// The table that answers a question reading `reads` on `range`: the narrowest rollup that
/// holds what it reads, pays for itself and gives the line items' answer exactly.
fn source_for(
    connection: &Connection,
    customer: i64,
    range: Option<&TimeRange>,
    reads: Reads,
    rollup_pays: &mut RollupPays,
) -> Result<Source, EngineError> {
    let stats = rollup_pays.stats(connection, customer)?;
    for source in Source::ROLLUPS {
        if source.covers(reads)
            && stats.pays(source)
            && exact_on(connection, customer, range, Rollup::Costs(source))?
        {
            return Ok(source);
        }
    }
    Ok(Source::LineItems)
}

pub(crate) fn aggregate(
    connection: &Connection,
    customer: i64,
    query: &AggregateQuery,
    display: Option<&CurrencyCode>,
) -> Result<Aggregate, EngineError> {
    let dimensions = query_builder::distinct_dimensions(&query.dimensions);
    let with_account_name = dimensions.contains(&Dimension::Account);
    let mut total_groups = 0_u64;
    let mut total = 0.0;
    let mut currency = None;
    let mut others = (Value::Null, Value::Null);
    let mut converted = false;
    let mut rollup_pays = RollupPays::default();
    let plan = rollup_pays.plan(connection, customer, display)?;
    let currencies = match plan.conversion() {
        Some(conversion) => query_builder::Currencies::Convert(conversion),
        None => query_builder::Currencies::One,
    };
    let converting = plan.conversion().is_some();
    let source = source_for(
        connection,
        customer,
        Some(&query.range),
        Reads::aggregation(query, &query.range, converting),
        &mut rollup_pays,
    )?;
    let rows = query_rows(
        connection,
        &query_builder::aggregate_with(source, customer, query, currencies),
        |row| {
            total_groups = row.get::<_, i64>(1)?.max(0).unsigned_abs();
            total = row.get::<_, Option<f64>>(4)?.unwrap_or_default();
            currency = row.get::<_, Option<String>>(5)?;
            others = (row.get(6)?, row.get(7)?);
            converted = row.get::<_, Option<bool>>(8)?.unwrap_or_default();
            let amount: Option<f64> = row.get(3)?;
            let Some(amount) = amount else {
                return Ok(None);
            };
            let bucket: Value = row.get(0)?;
            let account_name: Option<String> = row.get(2)?;
            let mut group = Vec::with_capacity(dimensions.len());
            for index in 0..dimensions.len() {
                let value: Option<String> = row.get(9 + index)?;
                group.push(value.unwrap_or_default());
            }
            Ok(Some(AggregateRow {
                timestamp: date_of(&bucket),
                group,
                account_name: if with_account_name {
                    Some(account_name.unwrap_or_default())
                } else {
                    None
                },
                amount,
            }))
        },
    )?;
    let rows: Vec<AggregateRow> = rows.into_iter().flatten().collect();
    let previous = query.range.previous();
    let source = source_for(
        connection,
        customer,
        Some(&previous),
        Reads::aggregation(query, &previous, converting),
        &mut rollup_pays,
    )?;
    let previous_total = query_rows(
        connection,
        &query_builder::previous_total_with(source, customer, query, plan.conversion()),
        |row| row.get::<_, f64>(0),
    )?
    .first()
    .copied()
    .unwrap_or_default();
    Ok(Aggregate {
        rows,
        total_groups,
        total,
        previous_total,
        currency: plan.answer_currency(currency),
        converted,
        other_currencies: currency::other_currencies(&others.0, &others.1),
    })
}

pub(crate) fn filter_options(
    connection: &Connection,
    customer: i64,
    range: Option<&TimeRange>,
    filter: &CostFilter,
) -> Result<FilterOptions, EngineError> {
    let mut rollup_pays = RollupPays::default();
    let unfiltered = query_builder::is_unfiltered(filter);
    let values_sql = if unfiltered
        && rollup_pays.stats(connection, customer)?.derived_kept()
        && exact_on(connection, customer, range, Rollup::Values)?
    {
        query_builder::filter_values_daily(customer, range)
    } else {
        // The lists include the usage types.
        let reads = Reads {
            usage_type: true,
            ..Reads::of_filter(filter)
        };
        let source = source_for(connection, customer, range, reads, &mut rollup_pays)?;
        query_builder::filter_values_on(source, customer, range, filter)
    };
    let values = query_rows(connection, &values_sql, |row| {
        Ok((
            row.get::<_, i32>(0)?,
            row.get::<_, Option<String>>(1)?,
            row.get::<_, Option<String>>(2)?,
            row.get::<_, Option<String>>(3)?,
        ))
    })?;
    let tag_values = if unfiltered && exact_on(connection, customer, range, Rollup::Tags)? {
        query_builder::tag_values_daily(customer, range)
    } else {
        query_builder::tag_values(customer, range, filter)
    };
    let tags = query_rows(connection, &tag_values, |row| {
        Ok((row.get::<_, String>(0)?, row.get::<_, String>(1)?))
    })?;
    Ok(filter_options_of(values, tags))
}

/// One row of [`query_builder::filter_values`]: `gid`, provider, value, account name.
pub(crate) type FilterValueRow = (i32, Option<String>, Option<String>, Option<String>);

/// `/v2/cost/filters` from the rows of [`query_builder::filter_values`] and
/// [`query_builder::tag_values`] (key, value), in their order.
pub(crate) fn filter_options_of(
    values: Vec<FilterValueRow>,
    tags: Vec<(String, String)>,
) -> FilterOptions {
    let mut options = FilterOptions::default();
    for (set, provider, value, account_name) in values {
        let provider = provider.and_then(|provider| provider.parse::<Provider>().ok());
        let value = value.unwrap_or_default();
        match set {
            0 => {
                if let (Some(provider), false) = (provider, value.is_empty()) {
                    options.accounts.push(AccountOption {
                        provider,
                        account_id: value,
                        account_name: account_name.unwrap_or_default(),
                    });
                }
            }
            5 => options.cloud_providers.extend(provider),
            _ if value.is_empty() => {}
            1 => options.regions.push(value),
            2 => options.services.push(value),
            3 => options.cost_types.push(value),
            _ => options.usage_types.push(value),
        }
    }
    options.cloud_providers.sort();
    options.cloud_providers.dedup();
    for (key, value) in tags {
        options.tags.entry(key).or_default().push(value);
    }
    options
}

pub(crate) fn spend(
    connection: &Connection,
    customer: i64,
    range: &TimeRange,
    filter: &CostFilter,
    metric: Metric,
    display: Option<&CurrencyCode>,
) -> Result<SpendBreakdown, EngineError> {
    let mut rollup_pays = RollupPays::default();
    let plan = rollup_pays.plan(connection, customer, display)?;
    let reads = Reads::over(filter, range, plan.conversion().is_some());
    let source = source_for(connection, customer, Some(range), reads, &mut rollup_pays)?;
    let currency = plan.as_is_note(connection, customer)?;
    let rows = match plan.conversion() {
        None => query_rows(
            connection,
            &query_builder::spend_on(source, customer, range, filter, metric),
            |row| Ok((row.get(0)?, row.get(1)?, None, row.get::<_, f64>(2)?, false)),
        )?,
        Some(conversion) => query_rows(
            connection,
            &query_builder::spend_converted(source, customer, range, filter, metric, conversion),
            |row| {
                Ok((
                    row.get(0)?,
                    row.get(1)?,
                    row.get::<_, Option<String>>(2)?,
                    row.get::<_, f64>(3)?,
                    row.get::<_, Option<bool>>(4)?.unwrap_or_default(),
                ))
            },
        )?,
    };
    Ok(spend_of(currency, rows))
}

/// One row of a spend answer: provider, cost type, the currency no rate converts (`None`: the
/// amount is in the answer's currency), amount, whether some of it was converted.
pub(crate) type SpendRow = (String, String, Option<String>, f64, bool);

/// The spend breakdown from the rows of [`query_builder::spend`] or
/// [`query_builder::spend_converted`], in their order (amounts add up in that order).
pub(crate) fn spend_of(currency: CurrencyNote, rows: Vec<SpendRow>) -> SpendBreakdown {
    let mut spend = SpendBreakdown {
        currency,
        ..SpendBreakdown::default()
    };
    for (provider, cost_type, other, amount, converted) in rows {
        if let Some(other) = other {
            currency::add_other(&mut spend.currency.other_currencies, other, amount);
            continue;
        }
        spend.currency.converted |= converted;
        spend.total += amount;
        if let Ok(provider) = provider.parse::<Provider>() {
            *spend.by_provider.entry(provider).or_insert(0.0) += amount;
        }
        *spend.by_cost_type.entry(cost_type).or_insert(0.0) += amount;
    }
    spend
}

/// Spend per provider, service and currency with the distinct non-empty service categories of
/// its rows.
pub(crate) fn service_spend(
    connection: &Connection,
    customer: i64,
    range: &TimeRange,
    filter: &CostFilter,
    metric: Metric,
) -> Result<Vec<ServiceSpend>, EngineError> {
    let rows = query_rows(
        connection,
        &query_builder::service_spend(customer, range, filter, metric),
        |row| {
            Ok((
                row.get::<_, String>(0)?,
                row.get::<_, String>(1)?,
                row.get::<_, String>(2)?,
                row.get::<_, String>(3)?,
                row.get::<_, Option<f64>>(4)?.unwrap_or_default(),
            ))
        },
    )?;
    Ok(service_spend_of(rows))
}

/// Service spend from the rows of [`query_builder::service_spend`] (provider, service,
/// currency, category, amount), in their order.
pub(crate) fn service_spend_of(
    rows: Vec<(String, String, String, String, f64)>,
) -> Vec<ServiceSpend> {
    let mut services: Vec<ServiceSpend> = Vec::new();
    for (provider, service, currency, category, amount) in rows {
        let Ok(provider) = provider.parse::<Provider>() else {
            continue;
        };
        // Rows come ordered by provider, service and currency: a group's rows are adjacent.
        let same = services.last().is_some_and(|last| {
            last.provider == provider && last.service == service && last.currency == currency
        });
        if !same {
            services.push(ServiceSpend {
                provider,
                service,
                currency,
                focus_categories: Vec::new(),
                amount: 0.0,
            });
        }
        if let Some(last) = services.last_mut() {
            last.amount += amount;
            if !category.trim().is_empty() {
                last.focus_categories.push(category);
            }
        }
    }
    services
}

pub(crate) fn accounts(
    connection: &Connection,
    customer: i64,
) -> Result<Vec<SeenAccount>, EngineError> {
    let rows = query_rows(connection, &query_builder::accounts(customer), |row| {
        Ok((
            row.get::<_, String>(0)?,
            row.get::<_, String>(1)?,
            row.get::<_, Option<String>>(2)?,
            timestamp_of(&row.get::<_, Value>(3)?),
        ))
    })?;
    Ok(accounts_of(rows))
}

/// One row of [`query_builder::accounts`]: provider, account id, name, earliest charge.
pub(crate) type AccountRow = (String, String, Option<String>, Option<DateTime<Utc>>);

/// The accounts of [`query_builder::accounts`]' rows (either engine's); a row whose provider or
/// earliest charge does not read is left out.
pub(crate) fn accounts_of(rows: Vec<AccountRow>) -> Vec<SeenAccount> {
    let mut accounts = Vec::with_capacity(rows.len());
    for (provider, account_id, account_name, first_seen) in rows {
        let (Ok(provider), Some(first_seen)) = (provider.parse::<Provider>(), first_seen) else {
            continue;
        };
        accounts.push(SeenAccount {
            provider,
            account_id,
            account_name: account_name.unwrap_or_default(),
            first_seen,
        });
    }
    accounts
}

pub(crate) fn latest_charge_date(
    connection: &Connection,
    customer: i64,
) -> Result<Option<NaiveDate>, EngineError> {
    let rows = query_rows(
        connection,
        &query_builder::latest_charge_date(customer),
        |row| row.get::<_, Value>(0),
    )?;
    Ok(rows.first().and_then(date_of))
}
