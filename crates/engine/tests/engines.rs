//! The same rows in the DuckDB engine and in ClickHouse (two shards behind a `Distributed`
//! table), the same questions to both, the same answers: every row, group, total and currency
//! note, every amount to the bit (answers are compared by their `Debug` text, which differs for
//! any two different `f64`s).
//!
//! ClickHouse runs on the local shards of `make ensure-clickhouse` (or
//! `COSTSCOPE_TEST_CLICKHOUSE_URL`); a test fails, never skips, when none answers. Both engines
//! are filled by their own loads from the same staged lines ([`support_clickhouse`]).

mod support;
mod support_clickhouse;

use costscope_core::cost::{
    parse_rates_csv, AggregateQuery, CostFilter, CurrencyCode, Dimension, FilterGroup, GroupJoin,
    Interval, MatchOperator, Metric, TimeRange,
};
use std::collections::BTreeMap;

use costscope_core::anomaly::SeriesKey;
use costscope_engine::{
    ClickHouseEngine, ClickHouseReads, CostEngine, CostPart, DuckDbEngine, ResourceCosts,
    ResourceSort, ResourcesQuery, SeriesCostsBy, SeriesCostsQuery,
};
use support::*;

/// Several currencies, with rates (given and only the other way round).
const MULTI: i64 = 11;
/// One currency.
const SINGLE: i64 = 12;
/// No rows at all.
const NOBODY: i64 = 13;

/// Both engines holding the same rows.
struct Both {
    duckdb: DuckDbEngine,
    clickhouse: ClickHouseReads,
    _engine: ClickHouseEngine,
}

fn code(text: &str) -> CurrencyCode {
    text.parse().unwrap()
}

/// Line items over December 2025 to March 2026, three providers, tags, several charge hours a
/// day, and sums past 2^53 units (about 9 million at scale 9), where DuckDB's DOUBLE of a
/// DECIMAL is not the correctly rounded one.
fn multi_currency_lines() -> Vec<Line> {
    vec![
        Line::new("2025-12-30 23:00:00", "12.345678901").tag("team", "web"),
        Line::new("2026-01-01 00:00:00", "100.1")
            .currency("EUR")
            .account("222222222222", "Staging")
            .tag("team", "data")
            .tag("env", "prod"),
        Line::new("2026-01-01 13:45:00", "0.000000001").usage_type("DataTransfer-Out-Bytes"),
        Line::new("2026-01-02 08:00:00", "9007199.254740993")
            .service("AmazonS3")
            .resource("bucket-a")
            .region("eu-west-1")
            .tag("team", "Web"),
        Line::new("2026-01-02 08:00:00", "1234567.891234567")
            .service("AmazonS3")
            .resource("bucket-a")
            .region("eu-west-1"),
        Line::new("2026-01-03 10:00:00", "50.5")
            .currency("EUR")
            .cost_type("Tax")
            .tag("env", "dev"),
        Line::new("2026-01-03 11:00:00", "-20.25")
            .cost_type("Credit")
            .resource("")
            .account("222222222222", "Staging"),
        Line::new("2026-01-05 00:00:00", "7.77")
            .currency("GBP")
            .provider("azure")
            .billing_account("sub-billing")
            .account("sub-1", "Azure Sub")
            .service("Virtual Machines")
            .resource("vm-1")
            .region("westeurope"),
        Line::new("2026-01-12 18:30:00", "33.333333333")
            .provider("gcp")
            .billing_account("gcp-billing")
            .account("proj-1", "Project One")
            .service("Compute Engine")
            .resource("vm-2")
            .region("us-central1")
            .tag("team", "data"),
        Line::new("2026-01-31 23:59:59", "99999999.999999999")
            .service("AmazonRDS")
            .resource("db-1")
            .costs("88888888.888888888", "123456789.123456789"),
        Line::new("2026-02-01 00:00:01", "1.1").currency("EUR"),
        Line::new("2026-02-10 07:59:59", "2.2")
            .currency("JPY")
            .service("AmazonS3"),
        Line::new("2026-02-10 08:00:01", "3.3").service("AmazonS3"),
        Line::new("2026-03-15 12:00:00", "4444.4444")
            .provider("azure")
            .billing_account("sub-billing")
            .account("sub-1", "Azure Sub")
            .service("Storage")
            .currency("EUR"),
    ]
}

fn single_currency_lines() -> Vec<Line> {
    vec![
        Line::new("2026-01-01 00:00:00", "10.5").tag("team", "web"),
        Line::new("2026-01-02 06:00:00", "9999999.999999999").service("AmazonS3"),
        Line::new("2026-01-09 12:00:00", "0.123456789")
            .account("333333333333", "Dev")
            .usage_type("Requests"),
        Line::new("2026-02-03 00:00:00", "-1.5").cost_type("Credit"),
    ]
}

/// Both engines with the tenants' rows, and rates for [`MULTI`]: the same lines and rates
/// through each engine's own load.
async fn both(database: &str) -> Both {
    // EUR→USD given; GBP only as USD→GBP (inverted); JPY none. EUR→GBP for a display in GBP.
    let csv = "date,from,to,rate\n\
               2025-12-15,EUR,USD,1.10\n\
               2026-01-02,EUR,USD,1.2345\n\
               2026-02-01,EUR,USD,1.0777777\n\
               2025-12-01,USD,GBP,0.8\n\
               2026-01-20,USD,GBP,0.7777\n\
               2026-01-01,EUR,GBP,0.86\n";
    let rates = parse_rates_csv(csv.as_bytes()).unwrap();
    let tenants = vec![
        (MULTI, multi_currency_lines()),
        (SINGLE, single_currency_lines()),
    ];
    let duckdb = DuckDbEngine::open_in_memory().unwrap();
    for (customer, lines) in tenants.clone() {
        load(&duckdb, customer, lines).await;
    }
    duckdb.replace_rates(MULTI, rates.clone()).await.unwrap();
    let (engine, clickhouse) =
        support_clickhouse::clickhouse_with(database, tenants, vec![(MULTI, rates)]).await;
    Both {
        duckdb,
        clickhouse,
        _engine: engine,
    }
}

/// `answer` with its costs in id order (a `HashMap`'s `Debug` order is arbitrary).
fn ordered(answer: ResourceCosts) -> String {
    let costs: BTreeMap<_, _> = answer.costs.into_iter().collect();
    format!("{costs:#?} {:#?}", answer.currency)
}

impl Both {
    /// The accounts, resource costs and unmatched resource spend of `customer` on both.
    async fn resource_reads(&self, customer: i64, range: TimeRange) {
        let expected = self.duckdb.accounts(customer).await.unwrap();
        let got = self.clickhouse.accounts(customer).await.unwrap();
        assert_eq!(
            format!("{got:#?}"),
            format!("{expected:#?}"),
            "accounts of {customer}"
        );
        let id_sets: [&[&str]; 3] = [
            &[],
            &["i-1"],
            &["bucket-a", "db-1", "vm-1", "vm-2", "nope", "i-1", "i-1", ""],
        ];
        for ids in id_sets {
            let ids: Vec<String> = ids.iter().map(|id| (*id).to_owned()).collect();
            let expected = self
                .duckdb
                .resource_costs(customer, range, &ids)
                .await
                .unwrap();
            let got = self
                .clickhouse
                .resource_costs(customer, range, &ids)
                .await
                .unwrap_or_else(|error| panic!("resource costs {ids:?}: {error}"));
            assert_eq!(
                ordered(got),
                ordered(expected),
                "resource costs of {customer}, {range:?}, {ids:?}"
            );
            for limit in [0, 1, 2, 10] {
                let expected = self
                    .duckdb
                    .unmatched_resource_spend(customer, range, &ids, limit)
                    .await
                    .unwrap();
                let got = self
                    .clickhouse
                    .unmatched_resource_spend(customer, range, &ids, limit)
                    .await
                    .unwrap_or_else(|error| panic!("unmatched {ids:?} {limit}: {error}"));
                assert_eq!(
                    format!("{got:#?}"),
                    format!("{expected:#?}"),
                    "unmatched spend of {customer}, {range:?}, known {ids:?}, limit {limit}"
                );
            }
        }
    }

    async fn resources(&self, customer: i64, query: &ResourcesQuery, display: Option<&str>) {
        let display = display.map(code);
        let expected = self
            .duckdb
            .resources_in(customer, query, display.as_ref())
            .await
            .unwrap();
        let got = self
            .clickhouse
            .resources_in(customer, query, display.as_ref())
            .await
            .unwrap_or_else(|error| panic!("{query:?} {display:?}: {error}"));
        assert_eq!(
            format!("{got:#?}"),
            format!("{expected:#?}"),
            "resources of {customer}, display {display:?}, {query:#?}"
        );
    }

    async fn series_costs(&self, customer: i64, query: &SeriesCostsQuery) {
        let expected = self.duckdb.series_costs(customer, query).await.unwrap();
        let got = self
            .clickhouse
            .series_costs(customer, query)
            .await
            .unwrap_or_else(|error| panic!("{query:?}: {error}"));
        assert_eq!(
            format!("{got:#?}"),
            format!("{expected:#?}"),
            "series costs of {customer}, {query:#?}"
        );
    }

    async fn aggregate(&self, customer: i64, query: &AggregateQuery, display: Option<&str>) {
        let display = display.map(code);
        let expected = self
            .duckdb
            .aggregate_in(customer, query, display.as_ref())
            .await
            .unwrap();
        let got = self
            .clickhouse
            .aggregate_in(customer, query, display.as_ref())
            .await
            .unwrap_or_else(|error| panic!("{query:?} {display:?}: {error}"));
        assert_eq!(
            format!("{got:#?}"),
            format!("{expected:#?}"),
            "customer {customer}, display {display:?}, {query:#?}"
        );
    }

    async fn spend(
        &self,
        customer: i64,
        range: &TimeRange,
        filter: &CostFilter,
        metrics: &[Metric],
        display: Option<&str>,
    ) {
        let display = display.map(code);
        for &metric in metrics {
            let expected = self
                .duckdb
                .spend_in(customer, *range, filter, metric, display.as_ref())
                .await
                .unwrap();
            let got = self
                .clickhouse
                .spend_in(customer, *range, filter, metric, display.as_ref())
                .await
                .unwrap_or_else(|error| panic!("{filter:?}: {error}"));
            assert_eq!(
                format!("{got:#?}"),
                format!("{expected:#?}"),
                "customer {customer}, {metric:?}, display {display:?}, {range:?}, {filter:#?}"
            );
            let expected = self
                .duckdb
                .service_spend(customer, *range, filter, metric)
                .await
                .unwrap();
            let got = self
                .clickhouse
                .service_spend(customer, *range, filter, metric)
                .await
                .unwrap();
            assert_eq!(
                format!("{got:#?}"),
                format!("{expected:#?}"),
                "service spend, customer {customer}, {metric:?}, {range:?}, {filter:#?}"
            );
        }
    }

    async fn filter_options(&self, customer: i64, range: Option<TimeRange>, filter: &CostFilter) {
        let expected = self
            .duckdb
            .filter_options(customer, range, filter)
            .await
            .unwrap();
        let got = self
            .clickhouse
            .filter_options(customer, range, filter)
            .await
            .unwrap();
        assert_eq!(got, expected, "customer {customer}, {range:?}, {filter:#?}");
    }
}

fn ranges() -> Vec<TimeRange> {
    vec![
        days("2026-01-01", "2026-01-31"),
        days("2025-12-01", "2026-03-31"),
        TimeRange::new(at("2026-01-01T13:45:00Z"), at("2026-02-10T08:00:00Z")).unwrap(),
        TimeRange::new(at("2026-01-02T08:00:00Z"), at("2026-01-02T08:00:00Z")).unwrap(),
        // Nothing charged.
        days("2024-06-01", "2024-06-30"),
    ]
}

/// Filters including and excluding on every column, with every operator kind, on tags, in
/// groups joined both ways, and with charge type inclusions.
fn filters() -> Vec<CostFilter> {
    let on = |build: fn(&mut FilterGroup)| {
        let mut group = FilterGroup::default();
        build(&mut group);
        filter(vec![group])
    };
    let mut filters = vec![
        CostFilter::default(),
        on(|g| g.services = vec![cond(MatchOperator::Equals, &["AmazonS3"])]),
        on(|g| g.services = vec![cond(MatchOperator::NotIn, &["AmazonS3", "AmazonRDS"])]),
        on(|g| g.accounts = vec![cond(MatchOperator::In, &["222222222222", "sub-1"])]),
        on(|g| g.regions = vec![cond(MatchOperator::NotEquals, &["us-east-1"])]),
        on(|g| g.cloud_providers = vec![cond(MatchOperator::Equals, &["azure", "gcp"])]),
        on(|g| g.cost_types = vec![cond(MatchOperator::NotIn, &["Tax"])]),
        on(|g| g.usage_types = vec![cond(MatchOperator::Contains, &["transfer"])]),
        on(|g| g.services = vec![cond(MatchOperator::StartsWith, &["amazon"])]),
        on(|g| g.services = vec![cond(MatchOperator::EndsWith, &["engine", "S3"])]),
        on(|g| g.services = vec![cond(MatchOperator::NotContains, &["ec2"])]),
        on(|g| g.regions = vec![cond(MatchOperator::IsNotEmpty, &[])]),
        on(|g| g.services = vec![cond(MatchOperator::In, &[])]),
        on(|g| g.services = vec![cond(MatchOperator::NotIn, &[])]),
        on(|g| g.tags = vec![tag("team", Some(cond(MatchOperator::Equals, &["web"])))]),
        on(|g| g.tags = vec![tag("team", Some(cond(MatchOperator::Contains, &["WE"])))]),
        on(|g| g.tags = vec![tag("team", Some(cond(MatchOperator::NotEquals, &["web"])))]),
        on(|g| g.tags = vec![tag("team", Some(cond(MatchOperator::IsEmpty, &[])))]),
        on(|g| g.tags = vec![tag("env", None)]),
    ];
    let mut either = group(GroupJoin::And);
    either.tags = vec![tag("env", Some(cond(MatchOperator::Equals, &["prod"])))];
    let mut or = group(GroupJoin::Or);
    or.services = vec![cond(MatchOperator::Equals, &["Storage"])];
    let mut and = group(GroupJoin::And);
    and.regions = vec![cond(MatchOperator::NotIn, &["eu-west-1"])];
    filters.push(filter(vec![either, FilterGroup::default(), or, and]));
    filters.push(CostFilter {
        groups: Vec::new(),
        cost_type_inclusions: Some(vec!["Usage".into(), "Credit".into()]),
    });
    filters
}

fn dimension_sets() -> Vec<Vec<Dimension>> {
    vec![
        vec![],
        vec![Dimension::Account],
        vec![Dimension::Region],
        vec![Dimension::Service],
        vec![Dimension::CloudProvider],
        vec![Dimension::CostType],
        vec![Dimension::UsageType],
        vec![Dimension::Service, Dimension::Account, Dimension::Service],
        vec![
            Dimension::CloudProvider,
            Dimension::Region,
            Dimension::CostType,
            Dimension::UsageType,
        ],
    ]
}

#[tokio::test]
async fn aggregations_answer_alike_for_every_dimension_interval_and_page() {
    let both = both("h4_engines_aggregate").await;
    for range in ranges() {
        for (index, dimensions) in dimension_sets().into_iter().enumerate() {
            for interval in [
                None,
                Some(Interval::Daily),
                Some(Interval::Weekly),
                Some(Interval::Monthly),
            ] {
                let pages = [
                    (false, None, 0, false),
                    (true, Some(2), 1, true),
                    (false, Some(1), 5, false),
                ];
                for (cumulative, limit, offset, ascending) in pages {
                    let query = AggregateQuery {
                        dimensions: dimensions.clone(),
                        interval,
                        cumulative,
                        limit,
                        offset,
                        ascending,
                        ..query(range)
                    };
                    both.aggregate(MULTI, &query, None).await;
                    if index % 3 == 0 {
                        both.aggregate(SINGLE, &query, None).await;
                        both.aggregate(NOBODY, &query, None).await;
                    }
                }
            }
        }
    }
}

#[tokio::test]
async fn aggregations_answer_alike_with_every_filter_metric_and_display_currency() {
    let both = both("h4_engines_filters").await;
    for (index, range) in ranges().into_iter().enumerate() {
        for filter in filters() {
            let metrics: &[Metric] = if index == 0 {
                &[Metric::Billed, Metric::Effective, Metric::List]
            } else {
                &[Metric::Billed]
            };
            for metric in metrics {
                let query = AggregateQuery {
                    filter: filter.clone(),
                    metric: *metric,
                    dimensions: vec![Dimension::Service],
                    interval: Some(Interval::Daily),
                    ..query(range)
                };
                both.aggregate(MULTI, &query, None).await;
                both.aggregate(SINGLE, &query, None).await;
            }
            if index % 2 == 1 {
                continue;
            }
            let query = AggregateQuery {
                filter: filter.clone(),
                dimensions: vec![Dimension::Account],
                interval: Some(Interval::Weekly),
                limit: Some(3),
                ..query(range)
            };
            for display in [Some("USD"), Some("GBP"), Some("JPY")] {
                both.aggregate(MULTI, &query, display).await;
            }
            for display in [Some("EUR"), Some("USD")] {
                both.aggregate(SINGLE, &query, display).await;
            }
            both.aggregate(NOBODY, &query, Some("CHF")).await;
        }
    }
}

#[tokio::test]
async fn converted_aggregations_answer_alike_in_every_shape() {
    let both = both("h4_engines_converted").await;
    for range in ranges() {
        for dimensions in [vec![], vec![Dimension::Account, Dimension::Region]] {
            for interval in [None, Some(Interval::Daily), Some(Interval::Monthly)] {
                for cumulative in [false, true] {
                    let query = AggregateQuery {
                        dimensions: dimensions.clone(),
                        interval,
                        cumulative,
                        limit: Some(4),
                        ..query(range)
                    };
                    for display in [Some("USD"), Some("GBP"), Some("EUR")] {
                        both.aggregate(MULTI, &query, display).await;
                    }
                }
            }
        }
    }
}

#[tokio::test]
async fn spend_and_service_spend_answer_alike() {
    let both = both("h4_engines_spend").await;
    for (index, range) in ranges().into_iter().enumerate() {
        for filter in filters() {
            let metrics: &[Metric] = if index == 0 {
                &[Metric::Billed, Metric::Effective, Metric::List]
            } else {
                &[Metric::Billed]
            };
            for display in [None, Some("USD"), Some("GBP"), Some("JPY")] {
                both.spend(MULTI, &range, &filter, metrics, display).await;
            }
            both.spend(SINGLE, &range, &filter, metrics, None).await;
            both.spend(SINGLE, &range, &filter, &[Metric::Billed], Some("EUR"))
                .await;
            both.spend(NOBODY, &range, &filter, &[Metric::Billed], None)
                .await;
        }
    }
}

#[tokio::test]
async fn filter_options_answer_alike() {
    let both = both("h4_engines_filter_options").await;
    let mut all_ranges: Vec<Option<TimeRange>> = ranges().into_iter().map(Some).collect();
    all_ranges.push(None);
    for range in all_ranges {
        for filter in filters() {
            for customer in [MULTI, SINGLE, NOBODY] {
                both.filter_options(customer, range, &filter).await;
            }
        }
    }
}

/// Every shape of the anomaly scan's reads, on series the lines have and on ones they do not.
fn series_shapes() -> Vec<SeriesCostsBy> {
    let service = |service: &str, currency: &str| SeriesKey::Service {
        provider: "aws".to_owned(),
        account_id: "111111111111".to_owned(),
        service: service.to_owned(),
        currency: currency.to_owned(),
    };
    let tag = |key: &str, value: &str, currency: &str| SeriesKey::Tag {
        key: key.to_owned(),
        value: value.to_owned(),
        currency: currency.to_owned(),
    };
    vec![
        SeriesCostsBy::Service,
        SeriesCostsBy::Tag("team".to_owned()),
        SeriesCostsBy::Tag("env".to_owned()),
        SeriesCostsBy::Tag("absent".to_owned()),
        SeriesCostsBy::Series(service("AmazonS3", "USD")),
        SeriesCostsBy::Series(tag("team", "data", "EUR")),
        SeriesCostsBy::Series(tag("team", "nobody", "USD")),
        SeriesCostsBy::Parts {
            series: service("AmazonEC2", "USD"),
            part: CostPart::UsageType,
        },
        SeriesCostsBy::Parts {
            series: service("AmazonS3", "USD"),
            part: CostPart::Resource,
        },
        SeriesCostsBy::Parts {
            series: tag("team", "data", "USD"),
            part: CostPart::Resource,
        },
    ]
}

#[tokio::test]
async fn the_other_reads_answer_alike_and_a_tenant_sees_nothing_of_another() {
    let both = both("h4_engines_tenancy").await;
    for customer in [MULTI, SINGLE, NOBODY] {
        for range in [
            days("2025-12-01", "2026-03-31"),
            days("2026-01-02", "2026-01-12"),
        ] {
            both.resource_reads(customer, range).await;
        }
    }
    for by in series_shapes() {
        for (first, last, limit) in [
            ("2025-12-01", "2026-03-31", 10),
            ("2026-01-01", "2026-01-12", 2),
        ] {
            let query = SeriesCostsQuery {
                first: date(first),
                last: date(last),
                by: by.clone(),
                limit,
            };
            for customer in [MULTI, SINGLE, NOBODY] {
                both.series_costs(customer, &query).await;
            }
        }
    }
    let sorts = [
        (ResourceSort::Cost, false),
        (ResourceSort::Cost, true),
        (ResourceSort::ResourceName, true),
        (ResourceSort::ResourceType, false),
        (ResourceSort::Region, true),
        (ResourceSort::AccountId, false),
        (ResourceSort::CloudProvider, true),
    ];
    // The first filter is none; the others of the suite's list, a few of them.
    let resource_filters = filters();
    for (index, (sort, ascending)) in sorts.into_iter().enumerate() {
        for (limit, offset) in [(10, 0), (2, 1), (3, 50)] {
            let query = ResourcesQuery {
                range: days("2025-12-01", "2026-03-31"),
                filter: resource_filters[index * 3 % resource_filters.len()].clone(),
                metric: [Metric::Billed, Metric::Effective, Metric::List][index % 3],
                sort,
                ascending,
                limit,
                offset,
            };
            for display in [None, Some("USD"), Some("EUR"), Some("GBP")] {
                both.resources(MULTI, &query, display).await;
            }
            both.resources(SINGLE, &query, None).await;
            both.resources(SINGLE, &query, Some("EUR")).await;
            both.resources(NOBODY, &query, None).await;
        }
    }
    // The comparisons above compared something: resources in the main currency and others.
    let whole = days("2025-12-01", "2026-03-31");
    let costs = both
        .clickhouse
        .resource_costs(MULTI, whole, &["bucket-a".to_owned(), "vm-1".to_owned()])
        .await
        .unwrap();
    assert!(costs.costs["bucket-a"] > 9e6, "{costs:?}");
    assert_eq!(
        costs.currency.other_currencies[0].currency, "GBP",
        "{costs:?}"
    );
    let unmatched = both
        .clickhouse
        .unmatched_resource_spend(MULTI, whole, &[], 10)
        .await
        .unwrap();
    assert!(unmatched.resources.len() >= 3, "{unmatched:?}");
    assert!(
        !unmatched.currency.other_currencies.is_empty(),
        "{unmatched:?}"
    );
    let query = grouped(
        days("2025-01-01", "2026-12-31"),
        &[Dimension::Account],
        Some(Interval::Monthly),
    );
    let answer = both
        .clickhouse
        .aggregate_in(NOBODY, &query, None)
        .await
        .unwrap();
    assert!(answer.rows.is_empty() && answer.total == 0.0 && answer.total_groups == 0);
    let single = both
        .clickhouse
        .aggregate_in(SINGLE, &query, None)
        .await
        .unwrap();
    let accounts: Vec<&str> = single
        .rows
        .iter()
        .map(|row| row.group[0].as_str())
        .collect();
    assert!(
        !accounts.contains(&"222222222222") && !accounts.contains(&"sub-1"),
        "{accounts:?}"
    );
    let options = both
        .clickhouse
        .filter_options(SINGLE, None, &CostFilter::default())
        .await
        .unwrap();
    assert_eq!(options.cloud_providers.len(), 1, "{options:?}");
    assert!(!options.tags.contains_key("env"), "{options:?}");
}
