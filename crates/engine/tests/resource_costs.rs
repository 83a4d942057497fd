//! The cost of inventory resources (issue 14): billed cost per exact resource id over a range,
//! the spend of resource ids the inventory does not know, currencies and tenancy.

mod support;

use costscope_core::cost::Provider;
use costscope_engine::{
    CostEngine, DuckDbEngine, LoadRequest, ResourceCosts, SourceFile, UnmatchedResource,
};
use costscope_ingest::{Format, IngestError};
use support::*;

const ARN: &str = "arn:aws:ec2:us-east-1:111111111111:instance/i-web";

/// Loads lines each with its resource id (the support stager writes every line with `i-1`).
async fn load_with_ids(engine: &DuckDbEngine, customer: i64, items: Vec<(Line, &'static str)>) {
    let (lines, ids): (Vec<Line>, Vec<&'static str>) = items.into_iter().unzip();
    let request = LoadRequest {
        load_id: format!("load-{customer}"),
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
                for (rowid, id) in ids.iter().enumerate() {
                    sql.push_str(&format!(
                        "UPDATE {table} SET resource_id = '{}' WHERE rowid = {rowid};",
                        id.replace('\'', "''")
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

/// Customer 1, January: i-web 10.25 + 5.5 (and a -1.25 credit), vol-1 3, the ARN-named row
/// 2, the unknown i-gone 30 and s3 bucket 0.75, a tax without a resource 2.5; December: i-web 100.
async fn engine_with_data() -> DuckDbEngine {
    let engine = DuckDbEngine::open_in_memory().unwrap();
    load_with_ids(
        &engine,
        1,
        vec![
            (Line::new("2026-01-05", "10.25"), "i-web"),
            (Line::new("2026-01-06", "5.5"), "i-web"),
            (
                Line::new("2026-01-07", "-1.25").cost_type("Credit"),
                "i-web",
            ),
            (Line::new("2026-01-08", "3"), "vol-1"),
            (Line::new("2026-01-09", "2"), ARN),
            (Line::new("2026-01-10", "30").service("AmazonRDS"), "i-gone"),
            (
                Line::new("2026-01-11", "0.75").service("AmazonS3"),
                "my-bucket",
            ),
            (Line::new("2026-01-20", "2.5").cost_type("Tax"), ""),
            (Line::new("2025-12-20", "100"), "i-web"),
        ],
    )
    .await;
    load_with_ids(&engine, 2, vec![(Line::new("2026-01-05", "999"), "i-web")]).await;
    engine
}

fn ids(list: &[&str]) -> Vec<String> {
    list.iter().map(|id| (*id).to_owned()).collect()
}

fn cost(answer: &ResourceCosts, id: &str) -> Option<f64> {
    answer.costs.get(id).copied().map(round)
}

#[tokio::test]
async fn each_asked_id_gets_its_billed_cost_over_the_range_to_the_cent() {
    let engine = engine_with_data().await;
    let january = days("2026-01-01", "2026-01-31");
    let answer = engine
        .resource_costs(1, january, &ids(&["i-web", ARN, "vol-1", "i-none"]))
        .await
        .unwrap();
    // Credits lower the cost; December's row is outside the range.
    assert_eq!(cost(&answer, "i-web"), Some(14.5));
    assert_eq!(cost(&answer, ARN), Some(2.0));
    assert_eq!(cost(&answer, "vol-1"), Some(3.0));
    // An id no line item names is absent (the inventory shows no cost, not 0).
    assert_eq!(cost(&answer, "i-none"), None);
    assert_eq!(answer.costs.len(), 3);
    assert_eq!(answer.currency.currency, "USD");
    assert!(answer.currency.other_currencies.is_empty());

    let december = days("2025-12-01", "2025-12-31");
    let answer = engine
        .resource_costs(1, december, &ids(&["i-web", "vol-1"]))
        .await
        .unwrap();
    assert_eq!(cost(&answer, "i-web"), Some(100.0));
    assert_eq!(answer.costs.len(), 1);
}

#[tokio::test]
async fn ids_match_exactly_never_by_case_prefix_or_pattern() {
    let engine = engine_with_data().await;
    let january = days("2026-01-01", "2026-01-31");
    let answer = engine
        .resource_costs(
            1,
            january,
            &ids(&["I-WEB", "i-we", "i-%", "i-web ", "%", "", "vol-1\u{1}i-web"]),
        )
        .await
        .unwrap();
    assert!(answer.costs.is_empty(), "{answer:?}");
    // Asking twice for one id counts it once.
    let answer = engine
        .resource_costs(1, january, &ids(&["vol-1", "vol-1"]))
        .await
        .unwrap();
    assert_eq!(cost(&answer, "vol-1"), Some(3.0));
}

#[tokio::test]
async fn no_ids_and_no_data_answer_empty() {
    let engine = engine_with_data().await;
    let january = days("2026-01-01", "2026-01-31");
    let answer = engine.resource_costs(1, january, &[]).await.unwrap();
    assert!(answer.costs.is_empty());
    let empty = DuckDbEngine::open_in_memory().unwrap();
    let answer = empty
        .resource_costs(1, january, &ids(&["i-web"]))
        .await
        .unwrap();
    assert!(answer.costs.is_empty());
    assert_eq!(answer.currency.currency, "USD");
    let unmatched = empty
        .unmatched_resource_spend(1, january, &[], 10)
        .await
        .unwrap();
    assert!(unmatched.resources.is_empty());
    assert_eq!(unmatched.resource_count, 0);
    assert_eq!(unmatched.total, 0.0);
}

#[tokio::test]
async fn a_tenant_never_sees_another_tenants_cost() {
    let engine = engine_with_data().await;
    let january = days("2026-01-01", "2026-01-31");
    let answer = engine
        .resource_costs(2, january, &ids(&["i-web", "vol-1"]))
        .await
        .unwrap();
    assert_eq!(cost(&answer, "i-web"), Some(999.0));
    assert_eq!(answer.costs.len(), 1);
    let answer = engine
        .resource_costs(3, january, &ids(&["i-web"]))
        .await
        .unwrap();
    assert!(answer.costs.is_empty());
    let unmatched = engine
        .unmatched_resource_spend(2, january, &ids(&["i-web"]), 10)
        .await
        .unwrap();
    assert_eq!(unmatched.resource_count, 0);
}

#[tokio::test]
async fn unmatched_spend_lists_the_largest_unknown_ids_with_the_totals_of_all() {
    let engine = engine_with_data().await;
    let january = days("2026-01-01", "2026-01-31");
    let known = ids(&["i-web", ARN]);
    let answer = engine
        .unmatched_resource_spend(1, january, &known, 10)
        .await
        .unwrap();
    assert_eq!(
        answer
            .resources
            .iter()
            .map(|row| (row.resource_id.as_str(), round(row.cost)))
            .collect::<Vec<_>>(),
        vec![("i-gone", 30.0), ("vol-1", 3.0), ("my-bucket", 0.75)]
    );
    assert_eq!(
        answer.resources[0],
        UnmatchedResource {
            resource_id: "i-gone".into(),
            provider: Provider::Aws,
            account_id: "111111111111".into(),
            service: "AmazonRDS".into(),
            cost: answer.resources[0].cost,
        }
    );
    assert_eq!(answer.resource_count, 3);
    // Rows without a resource id (the tax) are not resources.
    assert_eq!(round(answer.total), 33.75);
    assert_eq!(answer.currency.currency, "USD");

    // The limit cuts the list, never the totals.
    let answer = engine
        .unmatched_resource_spend(1, january, &known, 1)
        .await
        .unwrap();
    assert_eq!(answer.resources.len(), 1);
    assert_eq!(answer.resources[0].resource_id, "i-gone");
    assert_eq!(answer.resource_count, 3);
    assert_eq!(round(answer.total), 33.75);
    let answer = engine
        .unmatched_resource_spend(1, january, &known, 0)
        .await
        .unwrap();
    assert!(answer.resources.is_empty());
    assert_eq!(answer.resource_count, 3);
    assert_eq!(round(answer.total), 33.75);

    // Nothing known: every resource id of the range.
    let answer = engine
        .unmatched_resource_spend(1, january, &[], 10)
        .await
        .unwrap();
    assert_eq!(answer.resource_count, 5);
    assert_eq!(round(answer.total), 50.25);
}

#[tokio::test]
async fn equal_costs_are_ordered_by_id() {
    let engine = DuckDbEngine::open_in_memory().unwrap();
    load_with_ids(
        &engine,
        1,
        vec![
            (Line::new("2026-01-05", "4"), "b"),
            (Line::new("2026-01-05", "4"), "a"),
            (Line::new("2026-01-05", "4"), "c"),
        ],
    )
    .await;
    let answer = engine
        .unmatched_resource_spend(1, days("2026-01-01", "2026-01-31"), &[], 10)
        .await
        .unwrap();
    let order: Vec<&str> = answer
        .resources
        .iter()
        .map(|row| row.resource_id.as_str())
        .collect();
    assert_eq!(order, vec!["a", "b", "c"]);
}

#[tokio::test]
async fn only_the_main_currency_counts_other_currencies_are_listed_apart() {
    let engine = DuckDbEngine::open_in_memory().unwrap();
    load_with_ids(
        &engine,
        1,
        vec![
            (Line::new("2026-01-05", "50"), "i-web"),
            (Line::new("2026-01-06", "20"), "i-db"),
            (Line::new("2026-01-07", "8").currency("EUR"), "i-web"),
            (Line::new("2026-01-08", "6").currency("EUR"), "i-eu"),
        ],
    )
    .await;
    let january = days("2026-01-01", "2026-01-31");
    let answer = engine
        .resource_costs(1, january, &ids(&["i-web", "i-eu"]))
        .await
        .unwrap();
    assert_eq!(answer.currency.currency, "USD");
    assert_eq!(cost(&answer, "i-web"), Some(50.0));
    assert_eq!(cost(&answer, "i-eu"), None);
    assert_eq!(answer.currency.other_currencies.len(), 1);
    assert_eq!(answer.currency.other_currencies[0].currency, "EUR");
    assert_eq!(round(answer.currency.other_currencies[0].amount), 14.0);

    let unmatched = engine
        .unmatched_resource_spend(1, january, &ids(&["i-web"]), 10)
        .await
        .unwrap();
    assert_eq!(unmatched.resource_count, 1);
    assert_eq!(round(unmatched.total), 20.0);
    assert_eq!(unmatched.resources[0].resource_id, "i-db");
    assert_eq!(unmatched.currency.other_currencies.len(), 1);
    assert_eq!(round(unmatched.currency.other_currencies[0].amount), 6.0);
}

#[tokio::test]
async fn many_ids_go_in_one_call() {
    let engine = engine_with_data().await;
    let january = days("2026-01-01", "2026-01-31");
    let mut many: Vec<String> = (0..20_000).map(|n| format!("i-{n:08x}")).collect();
    many.push("vol-1".into());
    let answer = engine.resource_costs(1, january, &many).await.unwrap();
    assert_eq!(cost(&answer, "vol-1"), Some(3.0));
    assert_eq!(answer.costs.len(), 1);
    let unmatched = engine
        .unmatched_resource_spend(1, january, &many, 10)
        .await
        .unwrap();
    assert_eq!(unmatched.resource_count, 4);
}
