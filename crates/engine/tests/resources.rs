//! Spend per resource (a budget's resources table): grouping, totals, paging, order, filters and
//! tenancy.

mod support;

use costscope_core::cost::{CostFilter, GroupJoin, MatchOperator as Op, Metric, Provider};
use costscope_engine::query_builder;
use costscope_engine::{
    CostEngine, DuckDbEngine, LoadRequest, ResourceSort, ResourceSpend, ResourcesPage,
    ResourcesQuery, SourceFile,
};
use costscope_ingest::{Format, IngestError};
use support::*;

/// The resource columns of one line: id, name, type (`""` where the export has none).
type Resource = (&'static str, &'static str, &'static str);

const NO_RESOURCE: Resource = ("", "", "");

/// Loads lines with their resource columns: the support stager writes every line with resource
/// `i-1`, so each staged row (rowid = its position) is then given its own.
async fn load_resources(engine: &DuckDbEngine, customer: i64, items: Vec<(Line, Resource)>) {
    let (lines, resources): (Vec<Line>, Vec<Resource>) = items.into_iter().unzip();
    let request = LoadRequest {
        load_id: "load-1".into(),
        files: vec![SourceFile {
            path: "lines.csv".into(),
            display_name: "lines.csv".into(),
        }],
        format: None,
        progress: None,
    };
    engine
        .load_with(
            customer,
            request,
            Box::new(move |connection, _file, _format, table| {
                let mut sql = stage_sql(table, &lines);
                let text = |value: &str| format!("'{}'", value.replace('\'', "''"));
                for (rowid, (id, name, kind)) in resources.iter().enumerate() {
                    sql.push_str(&format!(
                        "UPDATE {table} SET resource_id = {}, resource_name = {}, \
                         resource_type = {} WHERE rowid = {rowid};",
                        text(id),
                        text(name),
                        text(kind)
                    ));
                }
                connection
                    .execute_batch(&sql)
                    .map_err(|error| IngestError::new(error.to_string()))?;
                Ok((Format::Focus, lines.len() as u64))
            }),
        )
        .await
        .expect("load");
}

fn production(charge: &'static str, billed: &'static str) -> Line {
    Line::new(charge, billed)
}

fn staging(charge: &'static str, billed: &'static str) -> Line {
    Line::new(charge, billed).account("222222222222", "Staging")
}

fn gcp(charge: &'static str, billed: &'static str) -> Line {
    Line::new(charge, billed)
        .provider("gcp")
        .billing_account("01ABCD")
        .account("my-project", "My Project")
        .service("Compute Engine")
        .region("europe-west1")
        .cost_type("regular")
}

/// Customer 1's data. January resources (account, id → cost): 111/i-db 40, my-project/vm-1 20,
/// 111/i-web 15, 222/i-web 7, 111/vol-1 7 (together 89); without a resource id: a tax of 2.5
/// (Jan 20) and a credit of -4 (Jan 21), so January's whole spend is 87.5. December has i-old.
fn customer_one() -> Vec<(Line, Resource)> {
    vec![
        (
            production("2026-01-05", "10")
                .costs("9", "12")
                .tag("team", "web"),
            ("i-web", "web", "instance"),
        ),
        // The second row of i-web has no name: the first row's name is shown.
        (
            production("2026-01-06", "5")
                .costs("4", "6")
                .tag("team", "web"),
            ("i-web", "", "instance"),
        ),
        (
            production("2026-01-07", "40")
                .service("AmazonRDS")
                .region("eu-west-1")
                .tag("team", "data"),
            ("i-db", "", ""),
        ),
        (
            production("2026-01-08", "3"),
            ("vol-1", "data-volume", "volume"),
        ),
        (production("2026-01-09", "4"), ("vol-1", "", "volume")),
        (
            staging("2026-01-10", "7").region("us-west-2"),
            ("i-web", "web-staging", "instance"),
        ),
        (
            gcp("2026-01-11", "20").tag("env", "dev"),
            ("projects/p/instances/vm-1", "vm-1", "vm"),
        ),
        (
            production("2026-01-20", "2.5").cost_type("Tax"),
            NO_RESOURCE,
        ),
        (
            gcp("2026-01-21", "-4").cost_type("Credit").region(""),
            NO_RESOURCE,
        ),
        (
            production("2025-12-20", "100"),
            ("i-old", "old", "instance"),
        ),
    ]
}

fn january() -> costscope_core::cost::TimeRange {
    days("2026-01-01", "2026-01-31")
}

fn request(sort: ResourceSort, ascending: bool) -> ResourcesQuery {
    ResourcesQuery {
        range: january(),
        filter: CostFilter::default(),
        metric: Metric::Billed,
        sort,
        ascending,
        limit: 100,
        offset: 0,
    }
}

async fn engine_with_data() -> DuckDbEngine {
    let engine = DuckDbEngine::open_in_memory().unwrap();
    load_resources(&engine, 1, customer_one()).await;
    load_resources(
        &engine,
        2,
        vec![(
            production("2026-01-05", "999"),
            ("i-secret", "secret", "instance"),
        )],
    )
    .await;
    engine
}

async fn page(engine: &DuckDbEngine, customer: i64, query: &ResourcesQuery) -> ResourcesPage {
    engine.resources(customer, query).await.expect("resources")
}

/// Each row's resource as a short label: `db`, `web`, `vol` (Production), `stage` (Staging's
/// i-web), `vm` (GCP), `secret` (customer 2).
fn labels(page: &ResourcesPage) -> Vec<&'static str> {
    page.rows
        .iter()
        .map(
            |row| match (row.account_id.as_str(), row.resource_id.as_str()) {
                (PROD, "i-db") => "db",
                (PROD, "i-web") => "web",
                (PROD, "vol-1") => "vol",
                (STAGE, "i-web") => "stage",
                (PROJECT, VM) => "vm",
                (PROD, "i-secret") => "secret",
                other => panic!("unexpected resource {other:?}"),
            },
        )
        .collect()
}

const PROD: &str = "111111111111";
const STAGE: &str = "222222222222";
const PROJECT: &str = "my-project";
const VM: &str = "projects/p/instances/vm-1";

#[tokio::test]
async fn one_row_per_resource_with_its_described_columns() {
    let engine = engine_with_data().await;
    let answer = page(&engine, 1, &request(ResourceSort::Cost, false)).await;
    assert_eq!(answer.total_count, 5);
    assert_eq!(round(answer.resources_cost), 89.0);
    assert_eq!(round(answer.total_cost), 87.5);
    assert_eq!(
        answer.rows[0],
        ResourceSpend {
            provider: Provider::Aws,
            account_id: PROD.into(),
            account_name: "Production".into(),
            resource_id: "i-db".into(),
            // No name: the id; no type: the service.
            resource_name: "i-db".into(),
            resource_type: "AmazonRDS".into(),
            region: "eu-west-1".into(),
            service: "AmazonRDS".into(),
            cost: 40.0,
        }
    );
    assert_eq!(
        answer.rows[1],
        ResourceSpend {
            provider: Provider::Gcp,
            account_id: PROJECT.into(),
            account_name: "My Project".into(),
            resource_id: VM.into(),
            resource_name: "vm-1".into(),
            resource_type: "vm".into(),
            region: "europe-west1".into(),
            service: "Compute Engine".into(),
            cost: 20.0,
        }
    );
    // Two rows of i-web, one without a name: summed, and the name that exists is shown.
    let web = &answer.rows[2];
    assert_eq!(
        (web.account_id.as_str(), web.resource_id.as_str()),
        (PROD, "i-web")
    );
    assert_eq!(web.resource_name, "web");
    assert_eq!(web.cost, 15.0);
    // The same resource id in another account is another resource.
    assert_eq!(answer.rows[3].account_id, STAGE);
    assert_eq!(answer.rows[3].resource_name, "web-staging");
    assert_eq!(answer.rows[4].resource_name, "data-volume");
    assert!(answer.rows.iter().all(|row| !row.resource_id.is_empty()));
    assert!(answer.rows.iter().all(|row| row.resource_id != "i-old"));
}

#[tokio::test]
async fn totals_reconcile_with_spend_for_every_metric_and_filter() {
    let engine = engine_with_data().await;
    let mut account = group(GroupJoin::And);
    account.accounts.push(cond(Op::Equals, &[PROD]));
    let mut team = group(GroupJoin::And);
    team.tags.push(tag("team", None));
    let filters = [
        CostFilter::default(),
        filter(vec![account]),
        filter(vec![team]),
    ];
    for metric in [Metric::Billed, Metric::Effective, Metric::List] {
        for cost_filter in &filters {
            let query = ResourcesQuery {
                filter: cost_filter.clone(),
                metric,
                ..request(ResourceSort::Cost, false)
            };
            let answer = page(&engine, 1, &query).await;
            let spend = engine
                .spend(1, january(), cost_filter, metric)
                .await
                .unwrap();
            assert_eq!(
                (answer.total_cost * 100.0).round(),
                (spend.total * 100.0).round(),
                "{metric:?} {cost_filter:?}"
            );
            let summed: f64 = answer.rows.iter().map(|row| row.cost).sum();
            assert_eq!(
                (answer.resources_cost * 100.0).round(),
                (summed * 100.0).round()
            );
        }
    }
    // The metric picks the column: i-web's effective cost is 9 + 4.
    let effective = page(
        &engine,
        1,
        &ResourcesQuery {
            metric: Metric::Effective,
            ..request(ResourceSort::Cost, false)
        },
    )
    .await;
    let web = effective
        .rows
        .iter()
        .find(|row| row.account_id == PROD && row.resource_id == "i-web")
        .unwrap();
    assert_eq!(web.cost, 13.0);
}

#[tokio::test]
async fn rows_without_a_resource_id_count_only_in_the_total() {
    let engine = engine_with_data().await;
    let answer = page(&engine, 1, &request(ResourceSort::Cost, false)).await;
    assert_eq!(round(answer.total_cost - answer.resources_cost), -1.5);

    // Only the tax and the credit in the range: no resource, but a total.
    let charges_only = page(
        &engine,
        1,
        &ResourcesQuery {
            range: days("2026-01-20", "2026-01-21"),
            ..request(ResourceSort::Cost, false)
        },
    )
    .await;
    assert_eq!(
        charges_only,
        ResourcesPage {
            rows: Vec::new(),
            total_count: 0,
            resources_cost: 0.0,
            total_cost: -1.5,
            currency: costscope_engine::CurrencyNote {
                currency: "USD".into(),
                ..Default::default()
            },
        }
    );
}

#[tokio::test]
async fn pages_follow_offset_and_limit_and_keep_the_totals() {
    let engine = engine_with_data().await;
    let whole = page(&engine, 1, &request(ResourceSort::Cost, false)).await;
    let mut paged = Vec::new();
    for offset in [0, 2, 4] {
        let part = page(
            &engine,
            1,
            &ResourcesQuery {
                limit: 2,
                offset,
                ..request(ResourceSort::Cost, false)
            },
        )
        .await;
        assert_eq!(part.total_count, 5);
        assert_eq!(part.resources_cost, whole.resources_cost);
        assert_eq!(part.total_cost, whole.total_cost);
        assert_eq!(part.rows.len(), if offset == 4 { 1 } else { 2 });
        paged.extend(part.rows);
    }
    assert_eq!(paged, whole.rows);

    let past_the_end = page(
        &engine,
        1,
        &ResourcesQuery {
            limit: 10,
            offset: 10,
            ..request(ResourceSort::Cost, false)
        },
    )
    .await;
    assert!(past_the_end.rows.is_empty());
    assert_eq!(past_the_end.total_count, 5);
    assert_eq!(past_the_end.total_cost, whole.total_cost);
}

#[tokio::test]
async fn every_sort_field_in_both_directions_ties_broken_by_resource_id() {
    let engine = engine_with_data().await;
    // Ties keep the resource's identity ascending whatever the direction.
    let cases = [
        (
            ResourceSort::Cost,
            ["stage", "vol", "web", "vm", "db"],
            ["db", "vm", "web", "stage", "vol"],
        ),
        (
            // data-volume, i-db, vm-1, web, web-staging
            ResourceSort::ResourceName,
            ["vol", "db", "vm", "web", "stage"],
            ["stage", "web", "vm", "db", "vol"],
        ),
        (
            // AmazonRDS, instance ×2, vm, volume
            ResourceSort::ResourceType,
            ["db", "web", "stage", "vm", "vol"],
            ["vol", "vm", "web", "stage", "db"],
        ),
        (
            // eu-west-1, europe-west1, us-east-1 ×2, us-west-2
            ResourceSort::Region,
            ["db", "vm", "web", "vol", "stage"],
            ["stage", "web", "vol", "vm", "db"],
        ),
        (
            ResourceSort::AccountId,
            ["db", "web", "vol", "stage", "vm"],
            ["vm", "stage", "db", "web", "vol"],
        ),
        (
            ResourceSort::CloudProvider,
            ["db", "web", "stage", "vol", "vm"],
            ["vm", "db", "web", "stage", "vol"],
        ),
    ];
    for (sort, ascending, descending) in cases {
        for (direction, expected) in [(true, ascending), (false, descending)] {
            let answer = page(&engine, 1, &request(sort, direction)).await;
            assert_eq!(labels(&answer), expected, "{sort:?} ascending={direction}");
            // A page of the same order starts where the previous one ended.
            let second = page(
                &engine,
                1,
                &ResourcesQuery {
                    limit: 2,
                    offset: 2,
                    ..request(sort, direction)
                },
            )
            .await;
            assert_eq!(labels(&second), expected[2..4], "{sort:?} page 2");
        }
    }
}

#[tokio::test]
async fn filters_on_account_tag_and_provider_narrow_rows_and_totals() {
    let engine = engine_with_data().await;
    let run = |cost_filter: CostFilter| {
        let engine = engine.clone();
        async move {
            page(
                &engine,
                1,
                &ResourcesQuery {
                    filter: cost_filter,
                    ..request(ResourceSort::Cost, false)
                },
            )
            .await
        }
    };

    let mut account = group(GroupJoin::And);
    account.accounts.push(cond(Op::Equals, &[STAGE]));
    let staging_only = run(filter(vec![account])).await;
    assert_eq!(labels(&staging_only), ["stage"]);
    assert_eq!(staging_only.total_cost, 7.0);

    let mut team_data = group(GroupJoin::And);
    team_data
        .tags
        .push(tag("team", Some(cond(Op::Equals, &["data"]))));
    let data_team = run(filter(vec![team_data])).await;
    assert_eq!(labels(&data_team), ["db"]);
    assert_eq!(data_team.resources_cost, 40.0);
    assert_eq!(data_team.total_cost, 40.0);

    let mut has_team = group(GroupJoin::And);
    has_team.tags.push(tag("team", None));
    let tagged = run(filter(vec![has_team])).await;
    assert_eq!(labels(&tagged), ["db", "web"]);

    // GCP: the VM and the credit without a resource id.
    let mut google = group(GroupJoin::And);
    google.cloud_providers.push(cond(Op::Equals, &["gcp"]));
    let on_gcp = run(filter(vec![google])).await;
    assert_eq!(labels(&on_gcp), ["vm"]);
    assert_eq!(on_gcp.resources_cost, 20.0);
    assert_eq!(on_gcp.total_cost, 16.0);

    let inclusions = CostFilter {
        groups: Vec::new(),
        cost_type_inclusions: Some(vec!["Tax".into()]),
    };
    let tax = run(inclusions).await;
    assert_eq!(tax.total_count, 0);
    assert_eq!(tax.total_cost, 2.5);
}

#[tokio::test]
async fn another_customers_resources_never_appear() {
    let engine = engine_with_data().await;
    let mine = page(&engine, 1, &request(ResourceSort::Cost, false)).await;
    assert!(mine.rows.iter().all(|row| row.resource_id != "i-secret"));

    let theirs = page(&engine, 2, &request(ResourceSort::Cost, false)).await;
    assert_eq!(labels(&theirs), ["secret"]);
    assert_eq!(theirs.total_cost, 999.0);

    // A tenant without data, even filtering on the others' account.
    let mut account = group(GroupJoin::And);
    account.accounts.push(cond(Op::Equals, &[PROD]));
    let nobody = page(
        &engine,
        3,
        &ResourcesQuery {
            filter: filter(vec![account]),
            ..request(ResourceSort::Cost, false)
        },
    )
    .await;
    assert_eq!(
        nobody,
        ResourcesPage {
            currency: costscope_engine::CurrencyNote {
                currency: "USD".into(),
                ..Default::default()
            },
            ..ResourcesPage::default()
        }
    );
}

#[test]
fn request_values_are_bound_never_pasted() {
    let mut hostile = group(GroupJoin::And);
    hostile.tags.push(tag(
        "te'am",
        Some(cond(Op::Equals, &["x'); DROP TABLE t; --"])),
    ));
    let query = ResourcesQuery {
        filter: filter(vec![hostile]),
        limit: 25,
        offset: 50,
        ..request(ResourceSort::ResourceName, true)
    };
    let sql = query_builder::resources(7, &query);
    assert!(!sql.text.contains("DROP"));
    assert!(!sql.text.contains("te'am"));
    assert!(sql.text.contains("customer_id = ?"));
    assert_eq!(sql.text.matches('?').count(), sql.params.len());
    assert_eq!(sql.params[0], duckdb::types::Value::BigInt(7));
}
