//! The DuckDB SQL of 2,401 representative statements, compared with what this builder wrote
//! before it learnt a second dialect (`duckdb_sql.golden`: a digest of each statement's text and
//! parameters, made from the builder of commit 4543e27): rendering ClickHouse must not change one
//! byte of what DuckDB runs. `COSTSCOPE_BLESS_SQL=1` rewrites the file (only when the DuckDB SQL
//! is meant to change).

use costscope_core::cost::{
    AggregateQuery, CostFilter, Dimension, FilterGroup, GroupJoin, Interval, MatchOperator, Metric,
    TagCondition, TimeRange, ValueCondition,
};

use super::*;
use crate::{ResourceSort, ResourcesQuery};

const GOLDEN: &str = "src/query_builder/duckdb_sql.golden";

fn range(start: &str, end: &str) -> TimeRange {
    TimeRange::new(start.parse().unwrap(), end.parse().unwrap()).unwrap()
}

fn condition(operator: MatchOperator, values: &[&str]) -> ValueCondition {
    ValueCondition {
        operator,
        values: values.iter().map(|v| (*v).to_owned()).collect(),
    }
}

/// Filters exercising every operator, tags, groups joined both ways and inclusions.
fn filters() -> Vec<CostFilter> {
    let operators = [
        MatchOperator::Equals,
        MatchOperator::NotEquals,
        MatchOperator::In,
        MatchOperator::NotIn,
        MatchOperator::Contains,
        MatchOperator::NotContains,
        MatchOperator::StartsWith,
        MatchOperator::EndsWith,
        MatchOperator::IsEmpty,
        MatchOperator::IsNotEmpty,
    ];
    let mut filters = vec![CostFilter::default()];
    for operator in operators {
        filters.push(CostFilter {
            groups: vec![FilterGroup {
                services: vec![condition(operator, &["Amazon'EC2", "s3"])],
                tags: vec![TagCondition {
                    key: "team".into(),
                    value: Some(condition(operator, &["Web"])),
                }],
                ..FilterGroup::default()
            }],
            cost_type_inclusions: None,
        });
    }
    filters.push(CostFilter {
        groups: vec![
            FilterGroup {
                accounts: vec![condition(MatchOperator::In, &["1", "2"])],
                regions: vec![condition(MatchOperator::Equals, &[])],
                ..FilterGroup::default()
            },
            FilterGroup {
                join: GroupJoin::Or,
                cloud_providers: vec![condition(MatchOperator::Equals, &["aws"])],
                usage_types: vec![condition(MatchOperator::Contains, &[])],
                tags: vec![TagCondition {
                    key: "env".into(),
                    value: None,
                }],
                ..FilterGroup::default()
            },
            FilterGroup {
                join: GroupJoin::And,
                cost_types: vec![condition(MatchOperator::NotIn, &["Tax"])],
                ..FilterGroup::default()
            },
        ],
        cost_type_inclusions: Some(vec!["Usage".into(), "Credit".into()]),
    });
    filters
}

fn ranges() -> Vec<TimeRange> {
    vec![
        range("2026-01-01T00:00:00Z", "2026-01-31T23:59:59.999999Z"),
        range("2026-01-01T00:00:00Z", "2026-03-31T23:59:59.999Z"),
        range("2026-01-03T10:30:00Z", "2026-02-10T08:00:00Z"),
    ]
}

fn conversions() -> [Option<Conversion<'static>>; 3] {
    [
        None,
        Some(Conversion {
            target: "EUR",
            with_rates: true,
        }),
        Some(Conversion {
            target: "USD",
            with_rates: false,
        }),
    ]
}

/// 64-bit FNV-1a: a stable digest of each statement (the file keeps digests, not 4 MB of SQL).
fn digest(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(*byte)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// One line per statement: the digest of its text and parameters, and what it answers.
fn render(out: &mut String, label: &str, sql: &Sql) {
    let statement = format!("{}\n{:?}", sql.text, sql.params);
    out.push_str(&format!("{:016x} {label}\n", digest(statement.as_bytes())));
}

/// Every statement the DuckDB engine's reads build, for a spread of questions.
fn all_sql() -> String {
    let mut out = String::new();
    let dimension_sets = [
        vec![],
        vec![Dimension::Account],
        vec![Dimension::Service, Dimension::Region, Dimension::Service],
        vec![
            Dimension::CloudProvider,
            Dimension::CostType,
            Dimension::UsageType,
            Dimension::Account,
        ],
    ];
    let sources = [
        Source::LineItems,
        Source::Daily,
        Source::CoreDaily,
        Source::Monthly,
    ];
    for (r, range) in ranges().into_iter().enumerate() {
        for (f, filter) in filters().into_iter().enumerate() {
            for source in sources {
                let base = AggregateQuery {
                    range,
                    filter: filter.clone(),
                    dimensions: vec![Dimension::Service],
                    interval: Some(Interval::Daily),
                    cumulative: false,
                    metric: Metric::Effective,
                    limit: Some(10),
                    offset: 2,
                    ascending: false,
                };
                render(
                    &mut out,
                    &format!("aggregate r{r} f{f} {source:?}"),
                    &aggregate_on(source, 7, &base),
                );
                for conversion in conversions() {
                    render(
                        &mut out,
                        &format!("previous r{r} f{f} {source:?} {conversion:?}"),
                        &previous_total_with(source, 7, &base, conversion),
                    );
                }
                render(
                    &mut out,
                    &format!("spend r{r} f{f} {source:?}"),
                    &spend_on(source, 7, &range, &filter, Metric::List),
                );
                render(
                    &mut out,
                    &format!("spend converted r{r} f{f} {source:?}"),
                    &spend_converted(
                        source,
                        7,
                        &range,
                        &filter,
                        Metric::Billed,
                        Conversion {
                            target: "EUR",
                            with_rates: true,
                        },
                    ),
                );
                render(
                    &mut out,
                    &format!("filter values r{r} f{f} {source:?}"),
                    &filter_values_on(source, 7, Some(&range), &filter),
                );
                for rollup in [Rollup::Costs(source), Rollup::Tags, Rollup::Values] {
                    if let Some(sql) = straddle_check(7, &range, rollup) {
                        render(&mut out, &format!("straddle r{r} {rollup:?}"), &sql);
                    }
                }
            }
            render(
                &mut out,
                &format!("service spend r{r} f{f}"),
                &service_spend(7, &range, &filter, Metric::Billed),
            );
            render(
                &mut out,
                &format!("tag values r{r} f{f}"),
                &tag_values(7, Some(&range), &filter),
            );
            render(
                &mut out,
                &format!("scope r{r} f{f}"),
                &scope(7, Some(&range), &filter),
            );
            for sort in [ResourceSort::Cost, ResourceSort::Region] {
                for conversion in conversions() {
                    let query = ResourcesQuery {
                        range,
                        filter: filter.clone(),
                        metric: Metric::Billed,
                        sort,
                        ascending: sort == ResourceSort::Region,
                        limit: 25,
                        offset: 5,
                    };
                    render(
                        &mut out,
                        &format!("resources r{r} f{f} {sort:?} {conversion:?}"),
                        &resources_with(7, &query, conversion),
                    );
                }
            }
        }
        for dimensions in &dimension_sets {
            for interval in [
                None,
                Some(Interval::Daily),
                Some(Interval::Weekly),
                Some(Interval::Monthly),
            ] {
                for cumulative in [false, true] {
                    for (limit, ascending) in [(None, false), (Some(3), true)] {
                        let query = AggregateQuery {
                            range,
                            filter: CostFilter::default(),
                            dimensions: dimensions.clone(),
                            interval,
                            cumulative,
                            metric: Metric::Billed,
                            limit,
                            offset: 0,
                            ascending,
                        };
                        let currencies = [
                            Currencies::One,
                            Currencies::Several,
                            Currencies::Convert(Conversion {
                                target: "EUR",
                                with_rates: true,
                            }),
                            Currencies::Convert(Conversion {
                                target: "USD",
                                with_rates: false,
                            }),
                        ];
                        for currencies in currencies {
                            render(
                                &mut out,
                                &format!(
                                    "aggregate r{r} {dimensions:?} {interval:?} {cumulative} \
                                     {limit:?} {currencies:?}"
                                ),
                                &aggregate_with(Source::LineItems, 7, &query, currencies),
                            );
                        }
                    }
                }
            }
        }
        render(
            &mut out,
            &format!("filter values daily r{r}"),
            &filter_values_daily(7, Some(&range)),
        );
        render(
            &mut out,
            &format!("tag values daily r{r}"),
            &tag_values_daily(7, Some(&range)),
        );
    }
    render(
        &mut out,
        "filter values all time",
        &filter_values(7, None, &CostFilter::default()),
    );
    render(
        &mut out,
        "tag values all time",
        &tag_values(7, None, &CostFilter::default()),
    );
    render(&mut out, "rollup stats", &rollup_stats(7));
    render(&mut out, "accounts", &accounts(7));
    render(&mut out, "latest charge date", &latest_charge_date(7));
    render(&mut out, "data currencies", &data_currencies(7));
    render(&mut out, "some currency", &some_currency(7));
    out
}

#[test]
fn duckdb_sql_is_unchanged() {
    let rendered = all_sql();
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(GOLDEN);
    if std::env::var_os("COSTSCOPE_BLESS_SQL").is_some() {
        std::fs::write(&path, &rendered).expect("write the golden file");
    }
    let expected = std::fs::read_to_string(&path).expect("the golden file");
    if rendered != expected {
        let line = rendered
            .lines()
            .zip(expected.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(0);
        panic!(
            "the DuckDB SQL changed, first at line {}:\n  now: {}\n  was: {}",
            line + 1,
            rendered.lines().nth(line).unwrap_or(""),
            expected.lines().nth(line).unwrap_or("")
        );
    }
}
