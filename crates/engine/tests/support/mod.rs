//! Test helpers: hand-made line items staged with SQL, ranges, queries.
#![allow(dead_code)]

use std::sync::{Arc, Mutex};

use chrono::{DateTime, NaiveDate, Utc};
use costscope_core::cost::{
    AggregateQuery, CostFilter, Dimension, FilterGroup, GroupJoin, Interval, MatchOperator, Metric,
    TagCondition, TimeRange, ValueCondition,
};
use costscope_engine::{
    CostEngine, DuckDbEngine, LoadError, LoadProgress, LoadRequest, LoadSummary, SourceFile,
};
use costscope_ingest::{Format, IngestError, NORMALISED_COLUMNS};

/// One normalised line item; `Line::new` gives sensible defaults.
#[derive(Debug, Clone)]
pub struct Line {
    pub provider: &'static str,
    pub billing_account_id: &'static str,
    pub account_id: &'static str,
    pub account_name: &'static str,
    /// `YYYY-MM-DD` or `YYYY-MM-DD HH:MM:SS`.
    pub charge: &'static str,
    pub service: &'static str,
    pub region: &'static str,
    pub usage_type: &'static str,
    pub cost_type: &'static str,
    pub billed: &'static str,
    pub effective: &'static str,
    pub list: &'static str,
    pub currency: &'static str,
    /// `i-1` unless given.
    pub resource_id: &'static str,
    pub tags: Vec<(&'static str, &'static str)>,
}

impl Line {
    pub fn new(charge: &'static str, billed: &'static str) -> Self {
        Self {
            provider: "aws",
            billing_account_id: "999999999999",
            account_id: "111111111111",
            account_name: "Production",
            charge,
            service: "AmazonEC2",
            region: "us-east-1",
            usage_type: "BoxUsage:m5.large",
            cost_type: "Usage",
            billed,
            effective: billed,
            list: billed,
            currency: "USD",
            resource_id: "i-1",
            tags: Vec::new(),
        }
    }

    pub fn resource(mut self, id: &'static str) -> Self {
        self.resource_id = id;
        self
    }
    pub fn provider(mut self, provider: &'static str) -> Self {
        self.provider = provider;
        self
    }
    pub fn billing_account(mut self, id: &'static str) -> Self {
        self.billing_account_id = id;
        self
    }
    pub fn account(mut self, id: &'static str, name: &'static str) -> Self {
        self.account_id = id;
        self.account_name = name;
        self
    }
    pub fn service(mut self, service: &'static str) -> Self {
        self.service = service;
        self
    }
    pub fn region(mut self, region: &'static str) -> Self {
        self.region = region;
        self
    }
    pub fn usage_type(mut self, usage_type: &'static str) -> Self {
        self.usage_type = usage_type;
        self
    }
    pub fn cost_type(mut self, cost_type: &'static str) -> Self {
        self.cost_type = cost_type;
        self
    }
    pub fn costs(mut self, effective: &'static str, list: &'static str) -> Self {
        self.effective = effective;
        self.list = list;
        self
    }
    pub fn currency(mut self, currency: &'static str) -> Self {
        self.currency = currency;
        self
    }
    pub fn tag(mut self, key: &'static str, value: &'static str) -> Self {
        self.tags.push((key, value));
        self
    }
}

fn quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', "''"))
}

/// `CREATE TEMP TABLE {table}` with the normalised columns and the lines (test data only, so
/// literals are fine here).
pub fn stage_sql(table: &str, lines: &[Line]) -> String {
    let columns: Vec<String> = NORMALISED_COLUMNS
        .iter()
        .map(|(name, kind)| format!("{name} {kind}"))
        .collect();
    let mut sql = format!("CREATE TEMP TABLE {table} ({});", columns.join(", "));
    for line in lines {
        let tags = if line.tags.is_empty() {
            "MAP {}::MAP(VARCHAR, VARCHAR)".to_owned()
        } else {
            let entries: Vec<String> = line
                .tags
                .iter()
                .map(|(key, value)| format!("{}: {}", quote(key), quote(value)))
                .collect();
            format!("MAP {{{}}}", entries.join(", "))
        };
        let charge = quote(line.charge);
        sql.push_str(&format!(
            "INSERT INTO {table} ({required}) VALUES ({provider}, {billing}, {account}, {name}, \
             CAST({charge} AS TIMESTAMP), CAST({charge} AS TIMESTAMP) + INTERVAL 1 HOUR, \
             CAST(date_trunc('month', CAST({charge} AS TIMESTAMP)) AS DATE), {service}, 'Compute', \
             {region}, {usage}, 'Usage', {cost_type}, {resource}, 'web', 'instance', {billed}, \
             {effective}, {list}, {currency}, 1.0, 'Hrs', {tags});",
            required = costscope_ingest::required_columns()
                .collect::<Vec<_>>()
                .join(", "),
            provider = quote(line.provider),
            billing = quote(line.billing_account_id),
            account = quote(line.account_id),
            name = quote(line.account_name),
            service = quote(line.service),
            region = quote(line.region),
            usage = quote(line.usage_type),
            cost_type = quote(line.cost_type),
            resource = quote(line.resource_id),
            billed = line.billed,
            effective = line.effective,
            list = line.list,
            currency = quote(line.currency),
        ));
    }
    sql
}

/// Loads `files` (each a list of lines) for `customer` through the engine's real load path,
/// with a stager that creates the staged tables by SQL. A file whose name starts with `bad`
/// is refused.
pub async fn load_files(
    engine: &DuckDbEngine,
    customer: i64,
    load_id: &str,
    files: Vec<(&'static str, Vec<Line>)>,
) -> Result<LoadSummary, LoadError> {
    let request = LoadRequest {
        load_id: load_id.to_owned(),
        files: files
            .iter()
            .map(|(name, _)| SourceFile {
                path: name.into(),
                display_name: (*name).to_owned(),
            })
            .collect(),
        format: None,
        progress: None,
    };
    let by_name: Vec<(String, Vec<Line>)> = files
        .into_iter()
        .map(|(name, lines)| (name.to_owned(), lines))
        .collect();
    engine
        .load_with(
            customer,
            request,
            Box::new(move |connection, file, _format, table| {
                if file.display_name.starts_with("bad") {
                    return Err(IngestError::new(format!(
                        "{}: row 3, column \"BilledCost\": \"12,5x\" is not a number",
                        file.display_name
                    )));
                }
                let lines = &by_name
                    .iter()
                    .find(|(name, _)| *name == file.display_name)
                    .expect("file")
                    .1;
                connection
                    .execute_batch(&stage_sql(table, lines))
                    .map_err(|error| IngestError::new(error.to_string()))?;
                Ok((Format::Focus, lines.len() as u64))
            }),
        )
        .await
}

pub async fn load(engine: &DuckDbEngine, customer: i64, lines: Vec<Line>) -> LoadSummary {
    load_files(engine, customer, "load-1", vec![("lines.csv", lines)])
        .await
        .expect("load")
}

pub fn at(text: &str) -> DateTime<Utc> {
    text.parse().expect("instant")
}

/// The closed range of whole days `first`..=`last`.
pub fn days(first: &str, last: &str) -> TimeRange {
    TimeRange::new(
        at(&format!("{first}T00:00:00Z")),
        at(&format!("{last}T23:59:59.999Z")),
    )
    .expect("range")
}

pub fn date(text: &str) -> NaiveDate {
    text.parse().expect("date")
}

pub fn query(range: TimeRange) -> AggregateQuery {
    AggregateQuery {
        range,
        filter: CostFilter::default(),
        dimensions: Vec::new(),
        interval: None,
        cumulative: false,
        metric: Metric::Billed,
        limit: None,
        offset: 0,
        ascending: false,
    }
}

pub fn grouped(
    range: TimeRange,
    dimensions: &[Dimension],
    interval: Option<Interval>,
) -> AggregateQuery {
    AggregateQuery {
        dimensions: dimensions.to_vec(),
        interval,
        ..query(range)
    }
}

pub fn cond(operator: MatchOperator, values: &[&str]) -> ValueCondition {
    ValueCondition {
        operator,
        values: values.iter().map(|value| (*value).to_owned()).collect(),
    }
}

pub fn tag(key: &str, value: Option<ValueCondition>) -> TagCondition {
    TagCondition {
        key: key.to_owned(),
        value,
    }
}

pub fn group(join: GroupJoin) -> FilterGroup {
    FilterGroup {
        join,
        ..FilterGroup::default()
    }
}

pub fn filter(groups: Vec<FilterGroup>) -> CostFilter {
    CostFilter {
        groups,
        cost_type_inclusions: None,
    }
}

/// The total of the whole range under `filter` (no grouping).
pub async fn total(
    engine: &DuckDbEngine,
    customer: i64,
    range: TimeRange,
    filter: CostFilter,
) -> f64 {
    let answer = engine
        .aggregate(
            customer,
            &AggregateQuery {
                filter,
                ..query(range)
            },
        )
        .await
        .expect("aggregate");
    round(answer.total)
}

pub fn round(amount: f64) -> f64 {
    (amount * 1_000_000.0).round() / 1_000_000.0
}

/// Collects progress reports.
pub fn recorder() -> (Arc<Mutex<Vec<LoadProgress>>>, costscope_engine::ProgressFn) {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&seen);
    (
        seen,
        Arc::new(move |progress| sink.lock().unwrap().push(progress)),
    )
}
