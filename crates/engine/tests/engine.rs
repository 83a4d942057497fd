//! The other engine calls, loading, tenancy and the database file.

mod support;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use costscope_core::cost::{
    AggregateQuery, CostFilter, Dimension, GroupJoin, Interval, MatchOperator as Op, Metric,
    Provider,
};
use costscope_engine::{
    AccountOption, BillingPeriodKey, CostEngine, DuckDbEngine, EngineError, LoadError, LoadPhase,
    LoadProgress, LoadRequest, SourceFile,
};
use costscope_ingest::{Format, IngestError};
use support::*;

fn mixed() -> Vec<Line> {
    vec![
        Line::new("2026-01-05", "10")
            .tag("team", "web")
            .tag("env", "prod"),
        Line::new("2026-01-06", "5")
            .account("222222222222", "Staging")
            .region("eu-west-1")
            .tag("team", "data"),
        Line::new("2026-01-07", "-3").cost_type("Credit").region(""),
        Line::new("2026-01-08", "20")
            .provider("gcp")
            .billing_account("01ABCD")
            .account("my-project", "My Project")
            .service("Compute Engine")
            .region("europe-west1")
            .usage_type("N1 Core")
            .cost_type("regular")
            .tag("env", "dev"),
        Line::new("2026-01-09", "7")
            .provider("azure")
            .billing_account("ea-1")
            .account("sub-1", "")
            .service("Virtual Machines")
            .region("westeurope")
            .cost_type("Usage"),
        Line::new("2025-12-20", "100").service("AmazonS3"),
    ]
}

fn january() -> costscope_core::cost::TimeRange {
    days("2026-01-01", "2026-01-31")
}

#[tokio::test]
async fn filter_options_lists_sorted_distinct_non_empty_values() {
    let engine = DuckDbEngine::open_in_memory().unwrap();
    load(&engine, 1, mixed()).await;
    let options = engine
        .filter_options(1, Some(january()), &CostFilter::default())
        .await
        .unwrap();
    assert_eq!(
        options.accounts,
        vec![
            AccountOption {
                provider: Provider::Aws,
                account_id: "111111111111".into(),
                account_name: "Production".into()
            },
            AccountOption {
                provider: Provider::Aws,
                account_id: "222222222222".into(),
                account_name: "Staging".into()
            },
            AccountOption {
                provider: Provider::Gcp,
                account_id: "my-project".into(),
                account_name: "My Project".into()
            },
            AccountOption {
                provider: Provider::Azure,
                account_id: "sub-1".into(),
                account_name: String::new()
            },
        ]
    );
    assert_eq!(
        options.regions,
        vec!["eu-west-1", "europe-west1", "us-east-1", "westeurope"]
    );
    assert_eq!(
        options.services,
        vec!["AmazonEC2", "Compute Engine", "Virtual Machines"]
    );
    assert_eq!(
        options.cloud_providers,
        vec![Provider::Aws, Provider::Gcp, Provider::Azure]
    );
    assert_eq!(options.cost_types, vec!["Credit", "Usage", "regular"]);
    assert_eq!(options.usage_types, vec!["BoxUsage:m5.large", "N1 Core"]);
    assert_eq!(options.tags.len(), 2);
    assert_eq!(options.tags["env"], vec!["dev", "prod"]);
    assert_eq!(options.tags["team"], vec!["data", "web"]);

    // No range: all data (December's S3 appears).
    let all = engine
        .filter_options(1, None, &CostFilter::default())
        .await
        .unwrap();
    assert_eq!(
        all.services,
        vec![
            "AmazonEC2",
            "AmazonS3",
            "Compute Engine",
            "Virtual Machines"
        ]
    );

    // A provider-restricted group gives that provider's options.
    let mut gcp = group(GroupJoin::And);
    gcp.cloud_providers.push(cond(Op::Equals, &["gcp"]));
    let only_gcp = engine
        .filter_options(1, Some(january()), &filter(vec![gcp]))
        .await
        .unwrap();
    assert_eq!(only_gcp.cloud_providers, vec![Provider::Gcp]);
    assert_eq!(only_gcp.services, vec!["Compute Engine"]);
    assert_eq!(only_gcp.tags.keys().collect::<Vec<_>>(), vec!["env"]);
    assert_eq!(only_gcp.accounts.len(), 1);

    let nothing = engine
        .filter_options(2, None, &CostFilter::default())
        .await
        .unwrap();
    assert_eq!(nothing, Default::default());
}

#[tokio::test]
async fn spend_by_provider_and_cost_type() {
    let engine = DuckDbEngine::open_in_memory().unwrap();
    load(&engine, 1, mixed()).await;
    let spend = engine
        .spend(1, january(), &CostFilter::default(), Metric::Billed)
        .await
        .unwrap();
    assert_eq!(spend.total, 39.0);
    assert_eq!(spend.by_provider[&Provider::Aws], 12.0);
    assert_eq!(spend.by_provider[&Provider::Gcp], 20.0);
    assert_eq!(spend.by_provider[&Provider::Azure], 7.0);
    assert_eq!(spend.by_cost_type["Usage"], 22.0);
    assert_eq!(spend.by_cost_type["Credit"], -3.0);
    assert_eq!(spend.by_cost_type["regular"], 20.0);
    let usage_only = CostFilter {
        groups: vec![],
        cost_type_inclusions: Some(vec!["Usage".into()]),
    };
    let spend = engine
        .spend(1, january(), &usage_only, Metric::Billed)
        .await
        .unwrap();
    assert_eq!(spend.total, 22.0);
    assert_eq!(spend.by_cost_type.len(), 1);
}

#[tokio::test]
async fn accounts_and_latest_charge_date() {
    let engine = DuckDbEngine::open_in_memory().unwrap();
    assert_eq!(engine.latest_charge_date(1).await.unwrap(), None);
    load(&engine, 1, mixed()).await;
    let accounts = engine.accounts(1).await.unwrap();
    let seen: Vec<_> = accounts
        .iter()
        .map(|a| {
            (
                a.provider.clone(),
                a.account_id.as_str(),
                a.account_name.as_str(),
                a.first_seen.to_rfc3339(),
            )
        })
        .collect();
    assert_eq!(
        seen,
        vec![
            (
                Provider::Aws,
                "111111111111",
                "Production",
                "2025-12-20T00:00:00+00:00".to_owned()
            ),
            (
                Provider::Aws,
                "222222222222",
                "Staging",
                "2026-01-06T00:00:00+00:00".to_owned()
            ),
            (
                Provider::Azure,
                "sub-1",
                "",
                "2026-01-09T00:00:00+00:00".to_owned()
            ),
            (
                Provider::Gcp,
                "my-project",
                "My Project",
                "2026-01-08T00:00:00+00:00".to_owned()
            ),
        ]
    );
    assert_eq!(
        engine.latest_charge_date(1).await.unwrap(),
        Some(date("2026-01-09"))
    );
}

#[tokio::test]
async fn a_customer_never_sees_another_customers_rows() {
    let engine = DuckDbEngine::open_in_memory().unwrap();
    load(&engine, 1, mixed()).await;
    load(
        &engine,
        2,
        vec![Line::new("2026-01-15", "1")
            .account("333333333333", "Other")
            .service("AmazonRDS")],
    )
    .await;
    let query = AggregateQuery {
        limit: Some(100),
        ..grouped(
            january(),
            &[Dimension::Account, Dimension::Service],
            Some(Interval::Daily),
        )
    };
    let answer = engine.aggregate(2, &query).await.unwrap();
    assert_eq!(answer.total, 1.0);
    assert_eq!(answer.total_groups, 1);
    assert_eq!(answer.rows.len(), 1);
    assert_eq!(answer.rows[0].group, vec!["333333333333", "AmazonRDS"]);
    let options = engine
        .filter_options(2, None, &CostFilter::default())
        .await
        .unwrap();
    assert_eq!(options.services, vec!["AmazonRDS"]);
    assert_eq!(options.accounts.len(), 1);
    assert!(options.tags.is_empty());
    assert_eq!(
        engine
            .spend(2, january(), &CostFilter::default(), Metric::Billed)
            .await
            .unwrap()
            .total,
        1.0
    );
    assert_eq!(engine.accounts(2).await.unwrap().len(), 1);
    assert_eq!(
        engine.latest_charge_date(2).await.unwrap(),
        Some(date("2026-01-15"))
    );
    // An OR group cannot widen the scope past the tenant.
    let mut any = group(GroupJoin::Or);
    any.cost_types.push(cond(Op::NotIn, &["nothing"]));
    let mut other = group(GroupJoin::Or);
    other.accounts.push(cond(Op::Equals, &["111111111111"]));
    let widened = engine
        .aggregate(
            2,
            &AggregateQuery {
                filter: filter(vec![other, any]),
                ..query.clone()
            },
        )
        .await
        .unwrap();
    assert_eq!(widened.total, 1.0);
    // Customer 3 has nothing.
    assert_eq!(engine.aggregate(3, &query).await.unwrap().total_groups, 0);
    // Customer 2's load of the same billing account and period does not replace customer 1's rows.
    assert_eq!(engine.aggregate(1, &query).await.unwrap().total, 39.0);
}

#[tokio::test]
async fn loading_replaces_billing_periods_instead_of_adding() {
    let engine = DuckDbEngine::open_in_memory().unwrap();
    let (seen, progress) = recorder();
    let january_lines = vec![Line::new("2026-01-05", "10"), Line::new("2026-01-06", "5")];
    let february = vec![Line::new("2026-02-02", "1")];
    let gcp = vec![Line::new("2026-01-07", "20")
        .provider("gcp")
        .billing_account("01ABCD")
        .account("p", "P")];
    let first = load_files(
        &engine,
        1,
        "a",
        vec![
            ("jan.csv", january_lines.clone()),
            ("feb.csv", february),
            ("gcp.csv", gcp),
        ],
    )
    .await
    .unwrap();
    assert_eq!((first.rows, first.replaced_rows), (4, 0));
    assert_eq!(
        first
            .files
            .iter()
            .map(|f| (f.name.as_str(), f.rows))
            .collect::<Vec<_>>(),
        vec![("jan.csv", 2), ("feb.csv", 1), ("gcp.csv", 1)]
    );
    assert_eq!(
        first.billing_periods,
        vec![
            BillingPeriodKey {
                provider: Provider::Aws,
                billing_account_id: "999999999999".into(),
                billing_period_start: date("2026-01-01")
            },
            BillingPeriodKey {
                provider: Provider::Aws,
                billing_account_id: "999999999999".into(),
                billing_period_start: date("2026-02-01")
            },
            BillingPeriodKey {
                provider: Provider::Gcp,
                billing_account_id: "01ABCD".into(),
                billing_period_start: date("2026-01-01")
            },
        ]
    );
    assert_eq!(first.totals.len(), 2);
    assert_eq!(
        (
            first.totals[0].provider.clone(),
            first.totals[0].rows,
            first.totals[0].billed_cost
        ),
        (Provider::Aws, 3, 16.0)
    );
    assert_eq!(first.totals[1].currency, "USD");
    let whole = days("2026-01-01", "2026-02-28");
    assert_eq!(total(&engine, 1, whole, CostFilter::default()).await, 36.0);

    // The same file again: nothing changes.
    let again = load_files(&engine, 1, "b", vec![("jan.csv", january_lines)])
        .await
        .unwrap();
    assert_eq!((again.rows, again.replaced_rows), (2, 2));
    assert_eq!(total(&engine, 1, whole, CostFilter::default()).await, 36.0);

    // A month-to-date file with more rows replaces January of that account only.
    let request = LoadRequest {
        load_id: "c".into(),
        files: vec![SourceFile {
            path: "jan2.csv".into(),
            display_name: "jan2.csv".into(),
        }],
        format: None,
        progress: Some(progress),
    };
    let lines = vec![
        Line::new("2026-01-05", "10"),
        Line::new("2026-01-06", "5"),
        Line::new("2026-01-20", "100"),
    ];
    let summary = engine
        .load_with(
            1,
            request,
            Box::new(move |connection, _file, _format, table| {
                connection.execute_batch(&stage_sql(table, &lines)).unwrap();
                Ok((costscope_ingest::Format::Focus, 3))
            }),
        )
        .await
        .unwrap();
    assert_eq!((summary.rows, summary.replaced_rows), (3, 2));
    assert_eq!(total(&engine, 1, whole, CostFilter::default()).await, 136.0);
    assert_eq!(
        *seen.lock().unwrap(),
        [
            (LoadPhase::Reading, 0),
            (LoadPhase::Reading, 3),
            (LoadPhase::Writing, 3),
            (LoadPhase::Rollups, 3)
        ]
        .map(|(phase, rows_read)| LoadProgress {
            phase,
            file_index: 0,
            files: 1,
            file_name: "jan2.csv".into(),
            rows_read,
            // The synthetic file does not exist on disk.
            bytes_read: 0,
            bytes_total: 0,
        })
    );
}

#[tokio::test]
async fn a_refused_file_stores_nothing_of_the_upload() {
    let engine = DuckDbEngine::open_in_memory().unwrap();
    load(&engine, 1, vec![Line::new("2026-01-05", "10")]).await;
    let error = load_files(
        &engine,
        1,
        "x",
        vec![
            (
                "good.csv",
                vec![Line::new("2026-01-05", "999"), Line::new("2026-03-01", "1")],
            ),
            ("bad.csv", vec![]),
        ],
    )
    .await
    .unwrap_err();
    assert!(matches!(error, LoadError::Invalid(_)));
    assert_eq!(
        error.to_string(),
        "bad.csv: row 3, column \"BilledCost\": \"12,5x\" is not a number"
    );
    assert_eq!(
        total(
            &engine,
            1,
            days("2026-01-01", "2026-03-31"),
            CostFilter::default()
        )
        .await,
        10.0
    );
    // The staged tables are gone: the next load works with the same names.
    let next = load_files(
        &engine,
        1,
        "y",
        vec![("good.csv", vec![Line::new("2026-01-05", "11")])],
    )
    .await
    .unwrap();
    assert_eq!(next.replaced_rows, 1);
    assert_eq!(
        total(
            &engine,
            1,
            days("2026-01-01", "2026-03-31"),
            CostFilter::default()
        )
        .await,
        11.0
    );
}

#[tokio::test]
async fn a_row_the_cost_table_refuses_names_its_file_and_keeps_what_was_stored() {
    // The rows are written straight from each file's staged rows into the cost table, inside
    // the load's transaction: a row refused there (here a missing service, which a real stager
    // never lets through) fails the whole upload and leaves the earlier load whole.
    let engine = DuckDbEngine::open_in_memory().unwrap();
    load(&engine, 1, vec![Line::new("2026-01-05", "10")]).await;
    let request = LoadRequest {
        load_id: "x".into(),
        files: ["good.csv", "holes.csv"]
            .map(|name| SourceFile {
                path: name.into(),
                display_name: name.into(),
            })
            .to_vec(),
        format: None,
        progress: None,
    };
    let error = engine
        .load_with(
            1,
            request,
            Box::new(|connection, file, _format, table| {
                let lines = [Line::new("2026-01-05", "999"), Line::new("2026-03-01", "1")];
                let mut sql = stage_sql(table, &lines);
                if file.display_name == "holes.csv" {
                    // The same rows in a table without the NOT NULL constraints, one service
                    // missing.
                    sql = sql.replace(" NOT NULL", "");
                    sql.push_str(&format!(
                        "UPDATE {table} SET service = NULL WHERE billed_cost = 1;"
                    ));
                }
                connection
                    .execute_batch(&sql)
                    .map_err(|error| IngestError::new(error.to_string()))?;
                Ok((Format::Focus, 2))
            }),
        )
        .await
        .unwrap_err();
    assert!(matches!(error, LoadError::Invalid(_)), "{error:?}");
    assert_eq!(
        error.to_string(),
        "holes.csv: cannot load the file (the server log has the details)"
    );
    let whole = days("2026-01-01", "2026-03-31");
    assert_eq!(total(&engine, 1, whole, CostFilter::default()).await, 10.0);
    let rows = engine
        .connection()
        .unwrap()
        .query_row("SELECT count(*) FROM cost_line_items", [], |row| {
            row.get::<_, i64>(0)
        })
        .unwrap();
    assert_eq!(rows, 1);
}

#[tokio::test]
async fn a_load_retried_with_its_id_replaces_its_own_rows() {
    let engine = DuckDbEngine::open_in_memory().unwrap();
    let lines = vec![Line::new("2026-01-05", "10"), Line::new("2026-01-06", "5")];
    let first = load_files(&engine, 1, "same", vec![("jan.csv", lines.clone())])
        .await
        .unwrap();
    assert_eq!((first.rows, first.replaced_rows), (2, 0));
    let again = load_files(&engine, 1, "same", vec![("jan.csv", lines)])
        .await
        .unwrap();
    assert_eq!((again.rows, again.replaced_rows), (2, 2));
    let whole = days("2026-01-01", "2026-01-31");
    assert_eq!(total(&engine, 1, whole, CostFilter::default()).await, 15.0);
}

const FOCUS_CSV: &str = "ProviderName,BillingAccountId,BillingPeriodStart,ChargePeriodStart,ChargePeriodEnd,ServiceName,ChargeCategory,BilledCost,EffectiveCost,ListCost,BillingCurrency,SubAccountId,SubAccountName,RegionId,Tags
AWS,999999999999,2026-01-01T00:00:00Z,2026-01-05T00:00:00Z,2026-01-06T00:00:00Z,AmazonEC2,Usage,12.5,10,13,USD,111111111111,Production,us-east-1,\"{\"\"team\"\":\"\"web\"\"}\"
AWS,999999999999,2026-01-01T00:00:00Z,2026-01-06T00:00:00Z,2026-01-07T00:00:00Z,AmazonS3,Usage,2.25,2.25,3,USD,111111111111,Production,us-east-1,
AWS,999999999999,2026-01-01T00:00:00Z,2026-01-07T00:00:00Z,2026-01-08T00:00:00Z,Tax,Tax,1.5,1.5,1.5,USD,111111111111,Production,,
";

#[tokio::test]
async fn a_focus_file_loads_through_ingest_and_reloads_idempotently() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("focus.csv");
    std::fs::write(&path, FOCUS_CSV).unwrap();
    let engine = DuckDbEngine::open_in_memory().unwrap();
    let request = || LoadRequest {
        load_id: "f".into(),
        files: vec![SourceFile {
            path: path.clone(),
            display_name: "focus.csv".into(),
        }],
        format: None,
        progress: None,
    };
    let first = engine.load(1, request()).await.unwrap();
    assert_eq!((first.rows, first.replaced_rows), (3, 0));
    assert_eq!(first.files[0].format, costscope_ingest::Format::Focus);
    assert_eq!(first.totals[0].billed_cost, 16.25);
    let again = engine.load(1, request()).await.unwrap();
    assert_eq!((again.rows, again.replaced_rows), (3, 3));
    let answer = engine
        .aggregate(1, &grouped(january(), &[Dimension::Service], None))
        .await
        .unwrap();
    assert_eq!(answer.total, 16.25);
    assert_eq!(
        answer
            .rows
            .iter()
            .map(|r| (r.group[0].as_str(), r.amount))
            .collect::<Vec<_>>(),
        vec![("AmazonEC2", 12.5), ("AmazonS3", 2.25), ("Tax", 1.5)]
    );
    let options = engine
        .filter_options(1, None, &CostFilter::default())
        .await
        .unwrap();
    assert_eq!(options.tags["team"], vec!["web"]);

    // A broken file is refused with its name and nothing is stored.
    let bad = dir.path().join("bad.csv");
    std::fs::write(&bad, FOCUS_CSV.replace("2.25,2.25", "2.2x,2.25")).unwrap();
    let error = engine
        .load(
            1,
            LoadRequest {
                files: vec![SourceFile {
                    path: bad,
                    display_name: "bad.csv".into(),
                }],
                ..request()
            },
        )
        .await
        .unwrap_err();
    assert!(matches!(error, LoadError::Invalid(_)), "{error:?}");
    assert!(error.to_string().contains("bad.csv"), "{error}");
    assert_eq!(
        engine.aggregate(1, &query(january())).await.unwrap().total,
        16.25
    );
}

#[tokio::test]
async fn reopening_the_file_keeps_the_data() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nested").join("cost.duckdb");
    {
        let engine = DuckDbEngine::open(&path).unwrap();
        load(&engine, 1, mixed()).await;
        assert_eq!(engine.path(), Some(path.as_path()));
    }
    let engine = DuckDbEngine::open(&path).unwrap();
    assert_eq!(
        total(&engine, 1, january(), CostFilter::default()).await,
        39.0
    );
    assert_eq!(
        engine.latest_charge_date(1).await.unwrap(),
        Some(date("2026-01-09"))
    );
}

/// When `COSTSCOPE_ENGINE_TEST_HOLD` names a file, this "test" (run in a child process by
/// `a_locked_file_names_the_other_process`) opens it, says so, and waits for stdin to close.
#[test]
fn lock_holder() {
    let Ok(path) = std::env::var("COSTSCOPE_ENGINE_TEST_HOLD") else {
        return;
    };
    let _engine = DuckDbEngine::open(std::path::Path::new(&path)).unwrap();
    println!("HOLDING");
    let mut line = String::new();
    let _ = std::io::stdin().read_line(&mut line);
}

#[test]
fn a_locked_file_names_the_other_process() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cost.duckdb");
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "lock_holder", "--nocapture", "--test-threads=1"])
        .env("COSTSCOPE_ENGINE_TEST_HOLD", &path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    while stdout.read_line(&mut line).unwrap() > 0 && !line.contains("HOLDING") {
        line.clear();
    }
    assert!(
        line.contains("HOLDING"),
        "the child did not open the database"
    );
    let error = DuckDbEngine::open(&path).unwrap_err();
    drop(child.stdin.take());
    child.wait().unwrap();
    match error {
        EngineError::Locked(message) => assert_eq!(
            message,
            format!(
                "The cost database {} is in use by another Costscope process (pid {}).",
                path.display(),
                child.id()
            )
        ),
        other => panic!("expected Locked, got {other:?}"),
    }
    // Once the other process is gone the file opens.
    DuckDbEngine::open(&path).unwrap();
}
