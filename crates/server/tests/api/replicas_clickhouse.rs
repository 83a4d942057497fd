//! Issue 18, "Replicas" on ONE ClickHouse cost database: two real `costscope serve` processes on
//! one metadata store, one uploads directory and one ClickHouse database (a fresh one on every
//! shard of the test servers, `COSTSCOPE_TEST_CLICKHOUSE_URL`), whatever engine the other API
//! tests run on. Uploads through either replica are loaded exactly once and both replicas give
//! the same answers; a replica killed with SIGKILL mid-load has its load taken over by the other
//! and the answer holds the upload's rows once.

use std::time::{Duration, Instant};

use costscope_store::IngestJobStatus;
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::helpers::status_and_json;
use crate::ingest::{focus_row, HEADER};
use crate::replicas_jobs::{
    six_uploads_in_turn, succeeded_on_one_of, two_tenants, Replica, Shared, TakenOver,
};

/// `POST /v2/cost/aggr` on `replica`: the answer's JSON.
async fn aggr(replica: &Replica, token: &str, body: &Value) -> Value {
    let response = reqwest::Client::new()
        .post(replica.url("/v2/cost/aggr"))
        .bearer_auth(token)
        .json(body)
        .send()
        .await
        .expect("POST /v2/cost/aggr");
    let (status, answer) = status_and_json(response).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    answer
}

/// The first half of 2026, by month and account.
fn half_year_by_month_and_account() -> Value {
    json!({"start_time": "2026-01-01", "end_time": "2026-06-30", "interval": "month",
           "group_by": "account", "limit": 100})
}

/// A FOCUS file of `months` of 2026, each with `rows` line items of AWS account 111111111111
/// billed `billed` each (effective and list the same).
fn months_csv(months: std::ops::RangeInclusive<u32>, rows: u32, billed: &str) -> Vec<u8> {
    let mut csv = format!("{HEADER}\n");
    for month in months {
        for row in 0..rows {
            let line = focus_row(
                "AWS",
                "111111111111",
                1 + row % 27,
                (billed, billed, billed),
            );
            csv.push_str(
                &line
                    .replace("2026-11-01T", &format!("2026-{:02}-01T", month + 1))
                    .replace("2026-10-", &format!("2026-{month:02}-")),
            );
            csv.push('\n');
        }
    }
    csv.into_bytes()
}

#[tokio::test]
async fn replicas_on_one_clickhouse_load_each_upload_once_and_answer_alike() {
    let shared = Shared::with_clickhouse().await;
    let store = shared.store().await;
    let a = shared.replica(None);
    let b = shared.replica(None);
    let tenants = two_tenants(&a, &b).await;
    let jobs = six_uploads_in_turn(&a, &b, &tenants).await;

    // Each job ran on one replica, once, and its rows are in the one database once.
    let engine = shared.clickhouse_engine().await;
    for (id, _, customer_id) in &jobs {
        succeeded_on_one_of(store.as_ref(), [&a, &b], *customer_id, *id).await;
        let (loaded_for, summary) = engine
            .committed_load(&id.to_string())
            .await
            .expect("read the load's marker")
            .expect("the load committed in ClickHouse");
        assert_eq!(loaded_for, *customer_id);
        assert_eq!(summary.rows, 2);
        assert_eq!(summary.replaced_rows, 0, "job {id} loaded once");
    }

    // Both replicas answer the same, byte for byte, from the one database.
    let question = half_year_by_month_and_account();
    for ((token, _), months) in tenants.iter().zip([[1, 3, 5], [2, 4, 6]]) {
        let from_a = aggr(&a, token, &question).await;
        let from_b = aggr(&b, token, &question).await;
        assert_eq!(from_a.to_string(), from_b.to_string());
        // Billed `<month>0` and 1 in each of the tenant's months, nothing doubled.
        let expected: f64 = months.iter().map(|month| f64::from(month * 10) + 1.0).sum();
        assert_eq!(
            from_a["summary"]["accrued_cost"],
            json!(expected),
            "{from_a}"
        );
    }
    drop((a, b));
    shared.finish().await;
}

#[tokio::test]
async fn a_replica_killed_mid_load_on_clickhouse_is_taken_over_and_its_rows_count_once() {
    let shared = Shared::with_clickhouse().await;
    let store = shared.store().await;
    let a = shared.replica(None);
    let b = shared.replica(None);
    let (token, customer_id) = a.signup("Acme", "ops@acme.test").await;

    // January to March loaded once (two rows a month, 1000 each)…
    let first = a
        .upload(&token, "q1-draft.csv", months_csv(1..=3, 2, "1000"))
        .await;
    let job = a.wait_for_job(&token, first, Duration::from_secs(60)).await;
    assert_eq!(job["status"], "succeeded", "{job}");

    // …then replaced by a large upload of the same months, whose loading replica is killed
    // while it loads.
    const ROWS_PER_MONTH: u32 = 30_000;
    let second = a
        .upload(&token, "q1.csv", months_csv(1..=3, ROWS_PER_MONTH, "0.5"))
        .await;
    let loading = loop {
        let job = store
            .get_ingest_job(customer_id, second)
            .await
            .unwrap()
            .unwrap();
        match job.status {
            IngestJobStatus::Running => break job.lease_holder.expect("the loading replica"),
            IngestJobStatus::Succeeded | IngestJobStatus::Failed => {
                panic!("the load ended before it could be interrupted: {job:?}")
            }
            IngestJobStatus::Queued => tokio::time::sleep(Duration::from_millis(20)).await,
        }
    };
    let (mut killed, survivor) = if a.holds(&loading) { (a, b) } else { (b, a) };
    killed.kill();
    let taken = TakenOver {
        token: &token,
        customer_id,
        id: second,
        killed_at: Instant::now(),
    };
    taken
        .finished_by(
            &survivor,
            store.as_ref(),
            u64::from(3 * ROWS_PER_MONTH),
            Duration::from_secs(120),
        )
        .await;

    // The months hold the large upload's rows once: neither the draft nor a double.
    let answer = aggr(
        &survivor,
        &token,
        &json!({"start_time": "2026-01-01", "end_time": "2026-03-31", "interval": "month"}),
    )
    .await;
    let month_total = f64::from(ROWS_PER_MONTH) * 0.5;
    assert_eq!(
        answer["summary"]["accrued_cost"],
        json!(3.0 * month_total),
        "{answer}"
    );
    let amounts: Vec<f64> = answer["data"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|row| row["amount"].as_f64().unwrap())
        .collect();
    assert_eq!(amounts, vec![month_total; 3], "{answer}");
    drop((killed, survivor));
    shared.finish().await;
}
