//! `aggregate`: filters, groups, intervals, paging and totals against an in-memory engine.

mod support;

use costscope_core::cost::{
    AggregateQuery, CostFilter, Dimension, FilterGroup, GroupJoin, Interval, MatchOperator as Op,
    Metric,
};
use costscope_engine::{AggregateRow, CostEngine, DuckDbEngine};
use support::*;

const CUSTOMER: i64 = 1;

/// Eight January lines, one distinguishing value each, amounts powers of two so that every
/// filter's total names exactly the lines it kept.
fn lines() -> Vec<Line> {
    vec![
        Line::new("2026-01-05", "1")
            .tag("team", "web")
            .tag("env", "prod"),
        Line::new("2026-01-06", "2")
            .account("222222222222", "Staging")
            .tag("team", "data"),
        Line::new("2026-01-07", "4")
            .region("eu-west-1")
            .tag("env", "dev"),
        Line::new("2026-01-08", "8").service("AmazonS3"),
        Line::new("2026-01-09", "16")
            .provider("gcp")
            .billing_account("01ABCD")
            .account("my-project", "My Project")
            .service("Compute Engine")
            .region("europe-west1")
            .usage_type("N1 Predefined Instance Core")
            .cost_type("regular"),
        Line::new("2026-01-10", "32").cost_type("Tax").region(""),
        Line::new("2026-01-11", "64")
            .usage_type("DataTransfer-Out-Bytes")
            .tag("team", ""),
        Line::new("2026-01-12", "-128").cost_type("Credit"),
    ]
}

async fn engine() -> DuckDbEngine {
    let engine = DuckDbEngine::open_in_memory().unwrap();
    load(&engine, CUSTOMER, lines()).await;
    engine
}

fn january() -> costscope_core::cost::TimeRange {
    days("2026-01-01", "2026-01-31")
}

fn one(field: impl FnOnce(&mut FilterGroup)) -> CostFilter {
    let mut group = group(GroupJoin::And);
    field(&mut group);
    filter(vec![group])
}

#[tokio::test]
async fn every_list_operator_on_every_column() {
    let engine = engine().await;
    let all = 1.0 + 2.0 + 4.0 + 8.0 + 16.0 + 32.0 + 64.0 - 128.0;
    type Setter = fn(&mut FilterGroup, costscope_core::cost::ValueCondition);
    let columns: Vec<(&str, Setter, &str, &str, f64, f64)> = vec![
        // (name, setter, value, second value, total of value, total of both)
        (
            "accounts",
            |g, c| g.accounts.push(c),
            "222222222222",
            "my-project",
            2.0,
            18.0,
        ),
        (
            "regions",
            |g, c| g.regions.push(c),
            "eu-west-1",
            "europe-west1",
            4.0,
            20.0,
        ),
        (
            "services",
            |g, c| g.services.push(c),
            "AmazonS3",
            "Compute Engine",
            8.0,
            24.0,
        ),
        (
            "cloud_providers",
            |g, c| g.cloud_providers.push(c),
            "gcp",
            "azure",
            16.0,
            16.0,
        ),
        (
            "cost_types",
            |g, c| g.cost_types.push(c),
            "Tax",
            "Credit",
            32.0,
            -96.0,
        ),
        (
            "usage_types",
            |g, c| g.usage_types.push(c),
            "DataTransfer-Out-Bytes",
            "N1 Predefined Instance Core",
            64.0,
            80.0,
        ),
    ];
    for (name, set, first, second, first_total, both_total) in columns {
        let check = |operator, values: &[&str]| one(|g| set(g, cond(operator, values)));
        assert_eq!(
            total(&engine, CUSTOMER, january(), check(Op::Equals, &[first])).await,
            first_total,
            "{name} equals"
        );
        assert_eq!(
            total(&engine, CUSTOMER, january(), check(Op::NotEquals, &[first])).await,
            all - first_total,
            "{name} not_equals"
        );
        assert_eq!(
            total(
                &engine,
                CUSTOMER,
                january(),
                check(Op::In, &[first, second])
            )
            .await,
            both_total,
            "{name} in"
        );
        assert_eq!(
            total(
                &engine,
                CUSTOMER,
                january(),
                check(Op::Equals, &[first, second])
            )
            .await,
            both_total,
            "{name} equals several"
        );
        assert_eq!(
            total(
                &engine,
                CUSTOMER,
                january(),
                check(Op::NotIn, &[first, second])
            )
            .await,
            all - both_total,
            "{name} not_in"
        );
    }
}

#[tokio::test]
async fn not_in_keeps_rows_whose_value_is_missing() {
    let engine = engine().await;
    // The Tax line has no region: `not_in` keeps it, `in` never matches it.
    let kept = total(
        &engine,
        CUSTOMER,
        january(),
        one(|g| g.regions.push(cond(Op::NotIn, &["us-east-1"]))),
    )
    .await;
    assert_eq!(kept, 4.0 + 16.0 + 32.0);
}

#[tokio::test]
async fn tag_conditions() {
    let engine = engine().await;
    let all = -1.0;
    let with = |condition| one(|g| g.tags.push(condition));
    // Key only: the key exists (even with an empty value).
    assert_eq!(
        total(&engine, CUSTOMER, january(), with(tag("team", None))).await,
        1.0 + 2.0 + 64.0
    );
    assert_eq!(
        total(
            &engine,
            CUSTOMER,
            january(),
            with(tag("env", Some(cond(Op::Equals, &["prod"]))))
        )
        .await,
        1.0
    );
    // not_equals keeps rows lacking the key.
    assert_eq!(
        total(
            &engine,
            CUSTOMER,
            january(),
            with(tag("env", Some(cond(Op::NotEquals, &["prod"]))))
        )
        .await,
        all - 1.0
    );
    assert_eq!(
        total(
            &engine,
            CUSTOMER,
            january(),
            with(tag("team", Some(cond(Op::In, &["web", "data"]))))
        )
        .await,
        3.0
    );
    assert_eq!(
        total(
            &engine,
            CUSTOMER,
            january(),
            with(tag("team", Some(cond(Op::NotIn, &["web", "data"]))))
        )
        .await,
        all - 3.0
    );
    assert_eq!(
        total(&engine, CUSTOMER, january(), with(tag("nope", None))).await,
        0.0
    );
    // Two tag conditions in one group are ANDed.
    let both = one(|g| {
        g.tags.push(tag("team", Some(cond(Op::Equals, &["web"]))));
        g.tags.push(tag("env", None));
    });
    assert_eq!(total(&engine, CUSTOMER, january(), both).await, 1.0);
}

#[tokio::test]
async fn string_operators_of_the_advanced_query() {
    let engine = engine().await;
    let all = -1.0;
    let services = |operator, values: &[&str]| one(|g| g.services.push(cond(operator, values)));
    assert_eq!(
        total(
            &engine,
            CUSTOMER,
            january(),
            services(Op::Contains, &["s3"])
        )
        .await,
        8.0
    );
    assert_eq!(
        total(
            &engine,
            CUSTOMER,
            january(),
            services(Op::NotContains, &["amazon"])
        )
        .await,
        16.0
    );
    assert_eq!(
        total(
            &engine,
            CUSTOMER,
            january(),
            services(Op::StartsWith, &["Compute"])
        )
        .await,
        16.0
    );
    assert_eq!(
        total(
            &engine,
            CUSTOMER,
            january(),
            services(Op::EndsWith, &["EC2", "S3"])
        )
        .await,
        all - 16.0
    );
    let regions = |operator| one(|g| g.regions.push(cond(operator, &[])));
    assert_eq!(
        total(&engine, CUSTOMER, january(), regions(Op::IsEmpty)).await,
        32.0
    );
    assert_eq!(
        total(&engine, CUSTOMER, january(), regions(Op::IsNotEmpty)).await,
        all - 32.0
    );
    // A missing tag reads as empty.
    let team = |operator| one(|g| g.tags.push(tag("team", Some(cond(operator, &[])))));
    assert_eq!(
        total(&engine, CUSTOMER, january(), team(Op::IsNotEmpty)).await,
        3.0
    );
    assert_eq!(
        total(&engine, CUSTOMER, january(), team(Op::IsEmpty)).await,
        all - 3.0
    );
    let contains = one(|g| g.tags.push(tag("team", Some(cond(Op::Contains, &["AT"])))));
    assert_eq!(total(&engine, CUSTOMER, january(), contains).await, 2.0);
}

#[tokio::test]
async fn groups_are_ored_and_conditions_anded_and_empty_groups_dropped() {
    let engine = engine().await;
    let s3 = FilterGroup {
        join: GroupJoin::And,
        services: vec![cond(Op::Equals, &["AmazonS3"])],
        ..FilterGroup::default()
    };
    let eu = FilterGroup {
        join: GroupJoin::Or,
        regions: vec![cond(Op::Equals, &["eu-west-1"])],
        ..FilterGroup::default()
    };
    assert_eq!(
        total(
            &engine,
            CUSTOMER,
            january(),
            filter(vec![s3.clone(), eu.clone()])
        )
        .await,
        12.0
    );
    // An empty group is dropped, not "match everything".
    let ored = filter(vec![
        s3.clone(),
        FilterGroup {
            join: GroupJoin::Or,
            ..FilterGroup::default()
        },
        eu.clone(),
    ]);
    assert_eq!(total(&engine, CUSTOMER, january(), ored).await, 12.0);
    assert_eq!(
        total(
            &engine,
            CUSTOMER,
            january(),
            filter(vec![FilterGroup::default()])
        )
        .await,
        -1.0
    );
    // AND between groups.
    let anded = filter(vec![
        s3.clone(),
        FilterGroup {
            join: GroupJoin::And,
            ..eu.clone()
        },
    ]);
    assert_eq!(total(&engine, CUSTOMER, january(), anded).await, 0.0);
    // Conditions inside a group are ANDed.
    let inside = one(|g| {
        g.cloud_providers.push(cond(Op::Equals, &["aws"]));
        g.cost_types.push(cond(Op::NotIn, &["Credit", "Tax"]));
        g.accounts.push(cond(Op::Equals, &["111111111111"]));
    });
    assert_eq!(
        total(&engine, CUSTOMER, january(), inside).await,
        1.0 + 4.0 + 8.0 + 64.0
    );
    // Left to right: (s3 OR eu) AND gcp → nothing; (s3 AND aws) OR eu → 12.
    let gcp = FilterGroup {
        join: GroupJoin::And,
        cloud_providers: vec![cond(Op::Equals, &["gcp"])],
        ..FilterGroup::default()
    };
    assert_eq!(
        total(
            &engine,
            CUSTOMER,
            january(),
            filter(vec![s3.clone(), eu.clone(), gcp])
        )
        .await,
        0.0
    );
}

#[tokio::test]
async fn cost_type_inclusions() {
    let engine = engine().await;
    let with = |inclusions: Option<Vec<&str>>| CostFilter {
        groups: Vec::new(),
        cost_type_inclusions: inclusions.map(|list| list.into_iter().map(str::to_owned).collect()),
    };
    assert_eq!(
        total(&engine, CUSTOMER, january(), with(Some(vec!["Usage"]))).await,
        1.0 + 2.0 + 4.0 + 8.0 + 64.0
    );
    assert_eq!(
        total(
            &engine,
            CUSTOMER,
            january(),
            with(Some(vec!["Tax", "Credit"]))
        )
        .await,
        -96.0
    );
    assert_eq!(
        total(&engine, CUSTOMER, january(), with(Some(vec![]))).await,
        -1.0
    );
    assert_eq!(total(&engine, CUSTOMER, january(), with(None)).await, -1.0);
}

#[tokio::test]
async fn each_metric_sums_its_column() {
    let engine = DuckDbEngine::open_in_memory().unwrap();
    load(
        &engine,
        CUSTOMER,
        vec![
            Line::new("2026-01-05", "10.123456789").costs("7.5", "12"),
            Line::new("2026-01-06", "0.000000001").costs("0.5", "1"),
        ],
    )
    .await;
    for (metric, expected) in [
        (Metric::Billed, 10.12345679),
        (Metric::Effective, 8.0),
        (Metric::List, 13.0),
    ] {
        let answer = engine
            .aggregate(
                CUSTOMER,
                &AggregateQuery {
                    metric,
                    ..query(january())
                },
            )
            .await
            .unwrap();
        assert_eq!((answer.total * 1e8).round() / 1e8, expected, "{metric:?}");
        assert_eq!(answer.rows.len(), 1);
        assert_eq!(answer.rows[0].amount, answer.total);
    }
}

fn series(rows: &[AggregateRow]) -> Vec<(String, Vec<String>, f64)> {
    rows.iter()
        .map(|row| {
            (
                row.timestamp.map(|d| d.to_string()).unwrap_or_default(),
                row.group.clone(),
                round(row.amount),
            )
        })
        .collect()
}

#[tokio::test]
async fn intervals_bucket_by_day_iso_week_and_month_clamped_to_the_range_start() {
    let engine = DuckDbEngine::open_in_memory().unwrap();
    load(
        &engine,
        CUSTOMER,
        vec![
            Line::new("2026-01-30 10:00:00", "1"), // Friday
            Line::new("2026-01-31 23:00:00", "2"), // Saturday
            Line::new("2026-02-01", "4"),          // Sunday
            Line::new("2026-02-02", "8"),          // Monday
            Line::new("2026-03-15", "16"),
        ],
    )
    .await;
    let range = days("2026-01-31", "2026-03-31");
    let daily = engine
        .aggregate(CUSTOMER, &grouped(range, &[], Some(Interval::Daily)))
        .await
        .unwrap();
    assert_eq!(
        series(&daily.rows),
        vec![
            ("2026-01-31".into(), vec![], 2.0),
            ("2026-02-01".into(), vec![], 4.0),
            ("2026-02-02".into(), vec![], 8.0),
            ("2026-03-15".into(), vec![], 16.0),
        ]
    );
    let weekly = engine
        .aggregate(CUSTOMER, &grouped(range, &[], Some(Interval::Weekly)))
        .await
        .unwrap();
    // The week of Monday 26 January starts at the range start (31 January).
    assert_eq!(
        series(&weekly.rows),
        vec![
            ("2026-01-31".into(), vec![], 6.0),
            ("2026-02-02".into(), vec![], 8.0),
            ("2026-03-09".into(), vec![], 16.0),
        ]
    );
    let monthly = engine
        .aggregate(CUSTOMER, &grouped(range, &[], Some(Interval::Monthly)))
        .await
        .unwrap();
    assert_eq!(
        series(&monthly.rows),
        vec![
            ("2026-01-31".into(), vec![], 2.0),
            ("2026-02-01".into(), vec![], 12.0),
            ("2026-03-01".into(), vec![], 16.0),
        ]
    );
    assert_eq!(monthly.total, 30.0);
    assert_eq!(monthly.previous_total, 1.0);
}

#[tokio::test]
async fn cumulative_is_a_running_total_per_group_over_every_day() {
    let engine = DuckDbEngine::open_in_memory().unwrap();
    load(
        &engine,
        CUSTOMER,
        vec![
            Line::new("2026-01-01", "1"),
            Line::new("2026-01-03", "2"),
            Line::new("2026-01-02", "10").service("AmazonS3"),
        ],
    )
    .await;
    let query = AggregateQuery {
        cumulative: true,
        ..grouped(
            days("2026-01-01", "2026-01-04"),
            &[Dimension::Service],
            Some(Interval::Daily),
        )
    };
    let answer = engine.aggregate(CUSTOMER, &query).await.unwrap();
    let ec2 = vec!["AmazonEC2".to_owned()];
    let s3 = vec!["AmazonS3".to_owned()];
    assert_eq!(
        series(&answer.rows),
        vec![
            ("2026-01-01".into(), s3.clone(), 0.0),
            ("2026-01-01".into(), ec2.clone(), 1.0),
            ("2026-01-02".into(), s3.clone(), 10.0),
            ("2026-01-02".into(), ec2.clone(), 1.0),
            ("2026-01-03".into(), s3.clone(), 10.0),
            ("2026-01-03".into(), ec2.clone(), 3.0),
            ("2026-01-04".into(), s3.clone(), 10.0),
            ("2026-01-04".into(), ec2.clone(), 3.0),
        ]
    );
    assert_eq!(answer.total_groups, 2);
    // Without an interval a cumulative view is daily.
    let no_interval = AggregateQuery {
        interval: None,
        ..query
    };
    assert_eq!(
        engine
            .aggregate(CUSTOMER, &no_interval)
            .await
            .unwrap()
            .rows
            .len(),
        8
    );
}

#[tokio::test]
async fn groups_by_one_to_four_dimensions_with_account_names() {
    let engine = engine().await;
    let answer = engine
        .aggregate(CUSTOMER, &grouped(january(), &[Dimension::Account], None))
        .await
        .unwrap();
    let accounts: Vec<_> = answer
        .rows
        .iter()
        .map(|row| {
            (
                row.group[0].as_str(),
                row.account_name.as_deref(),
                round(row.amount),
            )
        })
        .collect();
    assert_eq!(
        accounts,
        vec![
            ("my-project", Some("My Project"), 16.0),
            ("222222222222", Some("Staging"), 2.0),
            ("111111111111", Some("Production"), -19.0)
        ]
    );
    let two = engine
        .aggregate(
            CUSTOMER,
            &grouped(
                january(),
                &[Dimension::CloudProvider, Dimension::Service],
                None,
            ),
        )
        .await
        .unwrap();
    assert_eq!(
        series(&two.rows),
        vec![
            (
                String::new(),
                vec!["gcp".into(), "Compute Engine".into()],
                16.0
            ),
            (String::new(), vec!["aws".into(), "AmazonS3".into()], 8.0),
            (String::new(), vec!["aws".into(), "AmazonEC2".into()], -25.0),
        ]
    );
    assert!(two.rows.iter().all(|row| row.account_name.is_none()));
    let four = [
        Dimension::Region,
        Dimension::CostType,
        Dimension::UsageType,
        Dimension::Account,
    ];
    let answer = engine
        .aggregate(
            CUSTOMER,
            &grouped(january(), &four, Some(Interval::Monthly)),
        )
        .await
        .unwrap();
    // Lines 1 and 4 share all four values (they differ by service only).
    assert_eq!(answer.total_groups, 7);
    assert_eq!(answer.rows.len(), 7);
    let tax = answer
        .rows
        .iter()
        .find(|row| row.group[1] == "Tax")
        .unwrap();
    assert_eq!(
        tax.group,
        vec!["", "Tax", "BoxUsage:m5.large", "111111111111"]
    );
    assert_eq!(tax.account_name.as_deref(), Some("Production"));
    assert_eq!(tax.timestamp, Some(date("2026-01-01")));
    // Duplicated dimensions count once.
    let dup = engine
        .aggregate(
            CUSTOMER,
            &grouped(january(), &[Dimension::Service, Dimension::Service], None),
        )
        .await
        .unwrap();
    assert_eq!(dup.rows[0].group.len(), 1);
    assert_eq!(dup.total_groups, 3);
}

#[tokio::test]
async fn limit_and_offset_page_over_groups_ranked_by_total() {
    let engine = engine().await;
    let base = grouped(january(), &[Dimension::UsageType], Some(Interval::Daily));
    let page = |limit, offset, ascending| AggregateQuery {
        limit,
        offset,
        ascending,
        ..base.clone()
    };
    let all = engine
        .aggregate(CUSTOMER, &page(None, 0, false))
        .await
        .unwrap();
    assert_eq!(all.total_groups, 3);
    let names = |rows: &[AggregateRow]| {
        let mut seen: Vec<String> = Vec::new();
        for row in rows {
            if !seen.contains(&row.group[0]) {
                seen.push(row.group[0].clone());
            }
        }
        seen
    };
    // Ranked by total: DataTransfer 64, N1 16, BoxUsage -81; rows by day then rank.
    let first = engine
        .aggregate(CUSTOMER, &page(Some(1), 0, false))
        .await
        .unwrap();
    assert_eq!(names(&first.rows), vec!["DataTransfer-Out-Bytes"]);
    assert_eq!(first.total_groups, 3);
    assert_eq!(first.total, -1.0);
    let second = engine
        .aggregate(CUSTOMER, &page(Some(2), 1, false))
        .await
        .unwrap();
    // Rows come by day, so BoxUsage (5 January) shows before N1 (9 January).
    assert_eq!(
        names(&second.rows),
        vec!["BoxUsage:m5.large", "N1 Predefined Instance Core"]
    );
    let same_day = engine
        .aggregate(
            CUSTOMER,
            &AggregateQuery {
                interval: Some(Interval::Monthly),
                ..page(Some(2), 1, false)
            },
        )
        .await
        .unwrap();
    assert_eq!(
        names(&same_day.rows),
        vec!["N1 Predefined Instance Core", "BoxUsage:m5.large"]
    );
    // Every bucket of a kept group.
    assert_eq!(
        second
            .rows
            .iter()
            .filter(|row| row.group[0] == "BoxUsage:m5.large")
            .count(),
        6
    );
    let days_in_order: Vec<_> = second
        .rows
        .iter()
        .map(|row| row.timestamp.unwrap())
        .collect();
    let mut sorted = days_in_order.clone();
    sorted.sort();
    assert_eq!(days_in_order, sorted);
    let ascending = engine
        .aggregate(
            CUSTOMER,
            &AggregateQuery {
                interval: None,
                ..page(Some(2), 0, true)
            },
        )
        .await
        .unwrap();
    assert_eq!(
        names(&ascending.rows),
        vec!["BoxUsage:m5.large", "N1 Predefined Instance Core"]
    );
    let past_the_end = engine
        .aggregate(CUSTOMER, &page(Some(5), 10, false))
        .await
        .unwrap();
    assert!(past_the_end.rows.is_empty());
    assert_eq!(past_the_end.total_groups, 3);
}

#[tokio::test]
async fn totals_previous_period_and_currency() {
    let engine = DuckDbEngine::open_in_memory().unwrap();
    load(
        &engine,
        CUSTOMER,
        vec![
            Line::new("2025-12-15", "5").currency("EUR"),
            Line::new("2026-01-02", "1").currency("EUR"),
            Line::new("2026-01-03", "2").currency("EUR"),
            Line::new("2026-01-04", "4").currency("USD"),
            Line::new("2026-02-01", "100"),
        ],
    )
    .await;
    // Two currencies and no display currency: the figures are in the main currency (USD: 104
    // billed against 8 EUR) and the EUR amounts are listed apart, never added.
    let answer = engine.aggregate(CUSTOMER, &query(january())).await.unwrap();
    assert_eq!(answer.total, 4.0);
    assert_eq!(answer.previous_total, 0.0);
    assert_eq!(answer.currency, "USD");
    assert!(!answer.converted);
    assert_eq!(
        answer.other_currencies,
        vec![costscope_engine::CurrencyAmount {
            currency: "EUR".into(),
            amount: 3.0
        }]
    );
    let empty = engine
        .aggregate(CUSTOMER, &query(days("2030-01-01", "2030-01-31")))
        .await
        .unwrap();
    assert_eq!(
        (empty.total, empty.previous_total, empty.total_groups),
        (0.0, 0.0, 0)
    );
    assert!(empty.rows.is_empty());
    assert_eq!(empty.currency, "USD");
    // The range is closed: a charge at 23:59:59 on the last day counts, midnight after does not.
    let engine = DuckDbEngine::open_in_memory().unwrap();
    load(
        &engine,
        CUSTOMER,
        vec![
            Line::new("2026-01-31 23:59:59", "1"),
            Line::new("2026-02-01 00:00:00", "2"),
        ],
    )
    .await;
    assert_eq!(
        total(&engine, CUSTOMER, january(), CostFilter::default()).await,
        1.0
    );
}
