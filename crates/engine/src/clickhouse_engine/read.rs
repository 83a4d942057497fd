//! The ClickHouse engine's reads: the query builder's SQL in the ClickHouse dialect, sent by
//! `costscope-clickhouse` (bounded by the client's `max_execution_time` and timeout), its exact
//! `TabSeparated` answer turned into the engine's answer types by the same shaping as the
//! DuckDB engine's, amounts converted as DuckDB converts them ([`read_amounts`]). Every
//! statement is scoped to one customer by the builder (`customer_id = …` first).
//!
//! A question reads the table the DuckDB engine's would ([`query_builder::Source`]): the
//! narrowest rollup ([`super::rollups`]) that holds what it reads, pays for itself by the
//! tenant's row counts and answers its range exactly, else the line items; the answers are the
//! same either way (exact sums). Tables are the `Distributed` ones when the URL names a cluster,
//! else the one server's `_local` ones ([`Dialect::table`]).

use chrono::{DateTime, NaiveDate};
use costscope_clickhouse::{Client, Row};
use costscope_core::cost::{
    AggregateQuery, CostFilter, CurrencyCode, Dimension, Metric, TimeRange,
};

use super::read_amounts::duckdb_double;
use crate::duckdb_engine::currency::{choose_plan, Plan};
use crate::duckdb_engine::read::{
    accounts_of, filter_options_of, service_spend_of, spend_of, SpendRow,
};
use crate::duckdb_engine::reads::timed_out;
use crate::duckdb_engine::resource_costs::{
    resource_costs_of, resource_costs_sql, stored_provider, unmatched_of, unmatched_sql, usable_ids,
};
use crate::duckdb_engine::series_costs::{groups_of, series_costs_sql};
use crate::query_builder::{self, Currencies, Dialect, Reads, Rollup, RollupRows, Source, Sql};
use crate::{
    Aggregate, AggregateRow, CurrencyAmount, CustomerId, EngineError, FilterOptions, ResourceCosts,
    ResourceSpend, ResourcesPage, ResourcesQuery, SeenAccount, SeriesCost, SeriesCostsQuery,
    ServiceSpend, SpendBreakdown, UnmatchedResource, UnmatchedSpend,
};

/// ClickHouse's "Timeout exceeded" (`max_execution_time`).
const TIMEOUT_EXCEEDED: u32 = 159;

/// The reads of the cost engine on ClickHouse. Cheap to clone.
#[derive(Debug, Clone)]
pub struct ClickHouseReads {
    client: Client,
    dialect: Dialect,
}

impl ClickHouseReads {
    /// Reads through `client`: the `Distributed` tables when its URL names a cluster, else the
    /// server's local tables.
    pub fn new(client: Client) -> Self {
        let distributed = client.url().cluster().is_some();
        Self {
            client,
            dialect: Dialect::ClickHouse { distributed },
        }
    }

    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// Runs one statement of the builder and returns its rows.
    async fn rows(&self, sql: &Sql) -> Result<Vec<Row>, EngineError> {
        debug_assert!(
            sql.params.is_empty() && sql.dialect == self.dialect,
            "ClickHouse SQL carries its values as literals"
        );
        self.client
            .query_tsv(&sql.text)
            .await
            .map_err(|error| self.engine_error(error))
    }

    /// Runs one statement and turns each row of its answer with `of`.
    async fn rows_as<T>(
        &self,
        sql: &Sql,
        of: impl Fn(&Row) -> Result<T, EngineError>,
    ) -> Result<Vec<T>, EngineError> {
        self.rows(sql).await?.iter().map(of).collect()
    }

    fn engine_error(&self, error: costscope_clickhouse::Error) -> EngineError {
        let limit = self.client.settings().max_execution_time;
        match (&error, limit) {
            (costscope_clickhouse::Error::Timeout { timeout, .. }, _) => timed_out(*timeout),
            (_, Some(limit)) if error.code() == Some(TIMEOUT_EXCEEDED) => timed_out(limit),
            _ => EngineError::Database(error.to_string()),
        }
    }

    /// Billed cost per currency over all of the tenant's data, largest first.
    pub async fn data_currencies(
        &self,
        customer: CustomerId,
    ) -> Result<Vec<CurrencyAmount>, EngineError> {
        let sql = query_builder::data_currencies_in(self.dialect, customer);
        self.rows_as(&sql, |row| {
            Ok(CurrencyAmount {
                currency: text(row, 0)?.to_owned(),
                amount: amount(row, 1)?,
            })
        })
        .await
    }

    /// The tenant's row counts, for choosing a question's [`Source`].
    async fn rollup_rows(&self, customer: CustomerId) -> Result<RollupRows, EngineError> {
        let sql = query_builder::rollup_stats_in(self.dialect, customer);
        let count = |row: &Row, index| -> Result<Option<i64>, EngineError> {
            opt(row, index)?
                .map(|text| text.parse().map_err(|_| answer_error_text(row, text)))
                .transpose()
        };
        let rows = self
            .rows_as(&sql, |row| {
                Ok(RollupRows {
                    line_items: count(row, 0)?.unwrap_or_default(),
                    monthly: count(row, 1)?,
                    core: count(row, 2)?,
                    daily: count(row, 3)?,
                })
            })
            .await?;
        Ok(rows.first().copied().unwrap_or_default())
    }

    /// The table that answers a question reading `reads` on `range`: the first of the rollups
    /// that hold what it reads and pay ([`RollupRows::candidates`]) that answers the range
    /// exactly, else the line items.
    async fn source_for(
        &self,
        customer: CustomerId,
        range: &TimeRange,
        reads: Reads,
        rows: RollupRows,
    ) -> Result<Source, EngineError> {
        for source in rows.candidates(reads) {
            let Some(check) = query_builder::straddle_check_in(
                self.dialect,
                customer,
                range,
                Rollup::Costs(source),
            ) else {
                return Ok(source);
            };
            let straddling: u64 = match self.rows(&check).await?.first() {
                Some(row) => parse(row, 0)?,
                None => 0,
            };
            if straddling == 0 {
                return Ok(source);
            }
        }
        Ok(Source::LineItems)
    }

    /// How a call treats currencies (the DuckDB engine's rule), from the tenant's currencies.
    async fn plan(
        &self,
        customer: CustomerId,
        display: Option<&CurrencyCode>,
    ) -> Result<(Plan, Option<String>), EngineError> {
        let currencies = self.data_currencies(customer).await?;
        let first = currencies.first().map(|main| main.currency.clone());
        let plan = choose_plan(
            display,
            currencies.len() == 1,
            || Ok::<_, EngineError>(first.clone()),
            || Ok(first.clone()),
        )?;
        Ok((plan, first))
    }

    pub async fn aggregate_in(
        &self,
        customer: CustomerId,
        query: &AggregateQuery,
        display: Option<&CurrencyCode>,
    ) -> Result<Aggregate, EngineError> {
        let dimensions = query_builder::distinct_dimensions(&query.dimensions);
        let with_account_name = dimensions.contains(&Dimension::Account);
        let (plan, _) = self.plan(customer, display).await?;
        let currencies = match plan.conversion() {
            Some(conversion) => Currencies::Convert(conversion),
            None => Currencies::One,
        };
        let converting = plan.conversion().is_some();
        let rollup_rows = self.rollup_rows(customer).await?;
        let reads = Reads::aggregation(query, &query.range, converting);
        let source = self
            .source_for(customer, &query.range, reads, rollup_rows)
            .await?;
        let sql = query_builder::aggregate_in(self.dialect, source, customer, query, currencies);
        let mut answer = Aggregate {
            rows: Vec::new(),
            total_groups: 0,
            total: 0.0,
            previous_total: 0.0,
            currency: String::new(),
            converted: false,
            other_currencies: Vec::new(),
        };
        let mut most_common = None;
        // Columns: kind, bucket, rank, name, amount, flag, g0…gN (see the builder).
        for row in self.rows(&sql).await? {
            match text(&row, 0)? {
                "0" => {
                    answer.total_groups = parse(&row, 2)?;
                    most_common = Some(text(&row, 3)?.to_owned());
                    answer.total = amount(&row, 4)?;
                    answer.converted = text(&row, 5)? == "1";
                }
                "1" => answer.other_currencies.push(CurrencyAmount {
                    currency: text(&row, 3)?.to_owned(),
                    amount: amount(&row, 4)?,
                }),
                _ => {
                    let bucket = text(&row, 1)?;
                    let mut group = Vec::with_capacity(dimensions.len());
                    for index in 0..dimensions.len() {
                        group.push(text(&row, 6 + index)?.to_owned());
                    }
                    answer.rows.push(AggregateRow {
                        timestamp: if bucket.is_empty() {
                            None
                        } else {
                            Some(date(&row, bucket)?)
                        },
                        group,
                        account_name: with_account_name
                            .then(|| text(&row, 3).map(str::to_owned))
                            .transpose()?,
                        amount: amount(&row, 4)?,
                    });
                }
            }
        }
        answer.currency = plan.answer_currency(most_common);
        let previous_range = query.range.previous();
        let reads = Reads::aggregation(query, &previous_range, converting);
        let source = self
            .source_for(customer, &previous_range, reads, rollup_rows)
            .await?;
        let previous = query_builder::previous_total_in(
            self.dialect,
            source,
            customer,
            query,
            plan.conversion(),
        );
        answer.previous_total = match self.rows(&previous).await?.first() {
            Some(row) => amount(row, 0)?,
            None => 0.0,
        };
        Ok(answer)
    }

    pub async fn filter_options(
        &self,
        customer: CustomerId,
        range: Option<TimeRange>,
        filter: &CostFilter,
    ) -> Result<FilterOptions, EngineError> {
        let values_sql =
            query_builder::filter_values_in(self.dialect, customer, range.as_ref(), filter);
        let values = self
            .rows_as(&values_sql, |row| {
                Ok((
                    parse::<i32>(row, 0)?,
                    Some(text(row, 1)?.to_owned()),
                    Some(text(row, 2)?.to_owned()),
                    Some(text(row, 3)?.to_owned()),
                ))
            })
            .await?;
        let tags_sql = query_builder::tag_values_in(self.dialect, customer, range.as_ref(), filter);
        let tags = self
            .rows_as(&tags_sql, |row| {
                Ok((text(row, 0)?.to_owned(), text(row, 1)?.to_owned()))
            })
            .await?;
        Ok(filter_options_of(values, tags))
    }

    pub async fn spend_in(
        &self,
        customer: CustomerId,
        range: TimeRange,
        filter: &CostFilter,
        metric: Metric,
        display: Option<&CurrencyCode>,
    ) -> Result<SpendBreakdown, EngineError> {
        let (plan, first) = self.plan(customer, display).await?;
        let currency = plan.note(|| Ok::<_, EngineError>(first))?;
        let reads = Reads::over(filter, &range, plan.conversion().is_some());
        let rollup_rows = self.rollup_rows(customer).await?;
        let source = self
            .source_for(customer, &range, reads, rollup_rows)
            .await?;
        let sql = match plan.conversion() {
            None => query_builder::spend_in(self.dialect, source, customer, &range, filter, metric),
            Some(conversion) => query_builder::spend_converted_in(
                self.dialect,
                source,
                customer,
                &range,
                filter,
                metric,
                conversion,
            ),
        };
        // Columns: provider, cost_type, amount; converting: provider, cost_type, other,
        // amount, converted.
        let rows = self
            .rows_as(&sql, |row| {
                let converting = row.len() == 5;
                Ok::<SpendRow, EngineError>((
                    text(row, 0)?.to_owned(),
                    text(row, 1)?.to_owned(),
                    if converting {
                        opt(row, 2)?.map(str::to_owned)
                    } else {
                        None
                    },
                    amount(row, if converting { 3 } else { 2 })?,
                    converting && text(row, 4)? == "1",
                ))
            })
            .await?;
        Ok(spend_of(currency, rows))
    }

    pub async fn service_spend(
        &self,
        customer: CustomerId,
        range: TimeRange,
        filter: &CostFilter,
        metric: Metric,
    ) -> Result<Vec<ServiceSpend>, EngineError> {
        let sql = query_builder::service_spend_in(self.dialect, customer, &range, filter, metric);
        let rows = self
            .rows_as(&sql, |row| {
                Ok((
                    text(row, 0)?.to_owned(),
                    text(row, 1)?.to_owned(),
                    text(row, 2)?.to_owned(),
                    text(row, 3)?.to_owned(),
                    amount(row, 4)?,
                ))
            })
            .await?;
        Ok(service_spend_of(rows))
    }
    /// The accounts seen in the tenant's data, as the DuckDB engine lists them.
    pub async fn accounts(&self, customer: CustomerId) -> Result<Vec<SeenAccount>, EngineError> {
        let sql = query_builder::accounts_in(self.dialect, customer);
        let rows = self
            .rows_as(&sql, |row| {
                Ok((
                    text(row, 0)?.to_owned(),
                    text(row, 1)?.to_owned(),
                    opt(row, 2)?.map(str::to_owned),
                    DateTime::from_timestamp_micros(parse(row, 3)?),
                ))
            })
            .await?;
        Ok(accounts_of(rows))
    }
    /// Billed cost per resource id of `ids` over `range`, in the tenant's main currency (as
    /// the DuckDB engine answers it).
    pub async fn resource_costs(
        &self,
        customer: CustomerId,
        range: TimeRange,
        ids: &[String],
    ) -> Result<ResourceCosts, EngineError> {
        let (plan, first) = self.plan(customer, None).await?;
        let currency = plan.note(|| Ok::<_, EngineError>(first))?;
        let ids = usable_ids(ids);
        if ids.is_empty() {
            return Ok(resource_costs_of(&plan, currency, Vec::new()));
        }
        let sql = resource_costs_sql(self.dialect, customer, &range, &ids);
        let rows = self
            .rows_as(&sql, |row| {
                Ok((
                    text(row, 0)?.to_owned(),
                    text(row, 1)?.to_owned(),
                    amount(row, 2)?,
                ))
            })
            .await?;
        Ok(resource_costs_of(&plan, currency, rows))
    }

    /// The spend of resource ids not in `known_ids` over `range`, largest first (as the DuckDB
    /// engine answers it).
    pub async fn unmatched_resource_spend(
        &self,
        customer: CustomerId,
        range: TimeRange,
        known: &[String],
        limit: u32,
    ) -> Result<UnmatchedSpend, EngineError> {
        let (plan, first) = self.plan(customer, None).await?;
        let currency = plan.note(|| Ok::<_, EngineError>(first))?;
        let known = usable_ids(known);
        let sql = unmatched_sql(self.dialect, customer, &range, &known, limit);
        // The rows come by currency in cost order: their place is counted here.
        let mut place = 0;
        let mut previous: Option<String> = None;
        let mut rows = Vec::new();
        for row in self.rows(&sql).await? {
            let row_currency = text(&row, 1)?.to_owned();
            place = if previous.as_ref() == Some(&row_currency) {
                place + 1
            } else {
                1
            };
            previous = Some(row_currency.clone());
            let provider = stored_provider(text(&row, 2)?).map_err(|message| {
                EngineError::Database(format!("ClickHouse answer: {message}"))
            })?;
            rows.push((
                row_currency,
                UnmatchedResource {
                    resource_id: text(&row, 0)?.to_owned(),
                    provider,
                    account_id: text(&row, 3)?.to_owned(),
                    service: text(&row, 4)?.to_owned(),
                    cost: amount(&row, 5)?,
                },
                parse::<i64>(&row, 6)?,
                amount(&row, 7)?,
                place,
            ));
        }
        Ok(unmatched_of(&plan, currency, limit, rows))
    }
    /// Billed cost per day and series (or per part of one series), as the DuckDB engine
    /// answers the anomaly scan.
    pub async fn series_costs(
        &self,
        customer: CustomerId,
        query: &SeriesCostsQuery,
    ) -> Result<Vec<SeriesCost>, EngineError> {
        let groups = groups_of(&query.by);
        let sql = series_costs_sql(self.dialect, customer, query);
        self.rows_as(&sql, |row| {
            let mut group = Vec::with_capacity(groups);
            for i in 0..groups {
                group.push(opt(row, 1 + i)?.unwrap_or_default().to_owned());
            }
            Ok(SeriesCost {
                day: opt(row, 0)?.map(|day| date(row, day)).transpose()?,
                group,
                account_name: opt(row, 1 + groups)?.unwrap_or_default().to_owned(),
                currency: text(row, 2 + groups)?.to_owned(),
                amount: amount(row, 3 + groups)?,
            })
        })
        .await
    }
    /// Spend per resource, one page of it, as the DuckDB engine answers it.
    pub async fn resources_in(
        &self,
        customer: CustomerId,
        query: &ResourcesQuery,
        display: Option<&CurrencyCode>,
    ) -> Result<ResourcesPage, EngineError> {
        let (plan, first) = self.plan(customer, display).await?;
        let conversion = plan.conversion();
        let mut page = ResourcesPage {
            currency: plan.note(|| Ok::<_, EngineError>(first))?,
            ..ResourcesPage::default()
        };
        let sql = query_builder::resources_in(self.dialect, customer, query, conversion);
        // Every row carries the totals; a row with no resource id carries only them.
        for row in self.rows(&sql).await? {
            page.total_count = parse(&row, 0)?;
            page.resources_cost = amount(&row, 1)?;
            page.total_cost = amount(&row, 2)?;
            let resource_id = text(&row, 6)?;
            if resource_id.is_empty() {
                continue;
            }
            page.rows.push(ResourceSpend {
                provider: stored_provider(text(&row, 3)?).map_err(|message| {
                    EngineError::Database(format!("ClickHouse answer: {message}"))
                })?,
                account_id: text(&row, 4)?.to_owned(),
                account_name: text(&row, 5)?.to_owned(),
                resource_id: resource_id.to_owned(),
                resource_name: text(&row, 7)?.to_owned(),
                resource_type: text(&row, 8)?.to_owned(),
                region: text(&row, 9)?.to_owned(),
                service: text(&row, 10)?.to_owned(),
                cost: amount(&row, 11)?,
            });
        }
        if let Some(conversion) = conversion {
            let sql =
                query_builder::resource_currencies_in(self.dialect, customer, query, conversion);
            // Columns: currency, amount not converted, rows not converted, converted.
            for row in self.rows(&sql).await? {
                if parse::<u64>(&row, 2)? > 0 {
                    page.currency.other_currencies.push(CurrencyAmount {
                        currency: text(&row, 0)?.to_owned(),
                        amount: amount(&row, 1)?,
                    });
                }
                page.currency.converted |= text(&row, 3)? == "1";
            }
        }
        Ok(page)
    }
}

fn answer_error(error: costscope_clickhouse::tsv::TsvError) -> EngineError {
    EngineError::Database(format!("ClickHouse answer: {error}"))
}

fn answer_error_text(row: &Row, text: &str) -> EngineError {
    EngineError::Database(format!(
        "ClickHouse answer: `{text}` in row {} is not a count",
        row.number()
    ))
}

fn text(row: &Row, index: usize) -> Result<&str, EngineError> {
    row.text(index).map_err(answer_error)
}

fn opt(row: &Row, index: usize) -> Result<Option<&str>, EngineError> {
    row.opt(index).map_err(answer_error)
}

fn parse<T: std::str::FromStr>(row: &Row, index: usize) -> Result<T, EngineError> {
    row.parse(index).map_err(answer_error)
}

/// An amount column (an exact decimal) as the DuckDB engine's DOUBLE.
fn amount(row: &Row, index: usize) -> Result<f64, EngineError> {
    duckdb_double(text(row, index)?)
}

fn date(row: &Row, text: &str) -> Result<NaiveDate, EngineError> {
    text.parse().map_err(|_| {
        EngineError::Database(format!(
            "ClickHouse answer: `{text}` in row {} is not a date",
            row.number()
        ))
    })
}
