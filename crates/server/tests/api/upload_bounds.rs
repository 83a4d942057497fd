//! Hostile uploads (issue 12): a gzip bomb, files the readers refuse, per-tenant quotas, the
//! fair queue and upload names. Each refusal leaves the tenant's totals as they were.

use std::io::Write;

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::helpers::{spawn_app_with, status_and_json, TestApp};
use crate::ingest::{focus_csv, focus_row, HEADER};

/// October 2026's billed total of the caller's tenant.
async fn october_total(app: &TestApp, token: &str) -> f64 {
    let body = json!({"start_time": "2026-10-01", "end_time": "2026-10-31"});
    let (status, answer) =
        status_and_json(app.post("/v2/cost/aggr", Some(token), &body).await).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    answer["summary"]["accrued_cost"].as_f64().unwrap()
}

/// `bytes` gzipped by the system's `gzip` (the server crate has no gzip encoder of its own).
fn gzip(bytes: &[u8]) -> Vec<u8> {
    use std::process::{Command, Stdio};
    let mut child = Command::new("gzip")
        .args(["-9", "-c"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("run gzip");
    let mut stdin = child.stdin.take().unwrap();
    let input = bytes.to_vec();
    let writer = std::thread::spawn(move || stdin.write_all(&input).unwrap());
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert!(output.status.success());
    output.stdout
}

/// A gzip of a FOCUS header and `rows` copies of one row.
fn focus_gzip_of(rows: usize) -> Vec<u8> {
    let row = focus_row("AWS", "111111111111", 2, ("1", "1", "1"));
    gzip(format!("{HEADER}\n{}", format!("{row}\n").repeat(rows)).as_bytes())
}

/// Uploads and waits: the finished job.
async fn refused(app: &TestApp, token: &str, name: &str, content: Vec<u8>) -> Value {
    let job = app.ingest_files(token, &[(name, content)]).await;
    assert_eq!(job["status"], "failed", "{job}");
    job
}

/// The message of a refused load says nothing of the engine or the server.
fn assert_plain(message: &str) {
    for internal in [
        "SELECT",
        "read_csv",
        "DuckDB",
        "Possible fixes",
        "/tmp",
        "uploads/",
        "Error:",
    ] {
        assert!(!message.contains(internal), "{internal:?} in {message}");
    }
    assert!(message.len() < 400, "{} bytes: {message}", message.len());
}

#[tokio::test]
async fn a_gzip_bomb_is_refused_early_and_named() {
    let app = spawn_app_with(|config| {
        config.uploads.max_compression_ratio = 50;
        config.uploads.ratio_checked_after_bytes = 1 << 20;
    })
    .await;
    let owner = app.signup_owner("Olive Owner", "olive@acme.test").await;
    let token = &owner.access_token;
    app.ingest_files(token, &[("focus.csv", focus_csv())]).await;
    let before = october_total(&app, token).await;

    // 40,000 identical rows: about 12 MB of text in a few tens of KB of gzip.
    let bomb = focus_gzip_of(40_000);
    assert!(bomb.len() < 200 << 10, "{} bytes", bomb.len());
    let started = std::time::Instant::now();
    let job = refused(&app, token, "bomb.csv.gz", bomb).await;

    assert_eq!(
        job["error"],
        "bomb.csv.gz: the file expands more than 50 times when decompressed and was refused as \
         a possible compression bomb"
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(20));
    assert_eq!(october_total(&app, token).await, before);
}

#[tokio::test]
async fn decompressed_bytes_and_rows_per_load_are_bounded() {
    let app = spawn_app_with(|config| {
        config.uploads.max_decompressed_bytes = 100 << 10;
        config.uploads.max_rows_per_load = 150;
    })
    .await;
    let owner = app.signup_owner("Olive Owner", "olive@acme.test").await;
    let token = &owner.access_token;
    let before = october_total(&app, token).await;

    // 120 rows (under the row bound) of over 1 KB each.
    let long_row = focus_row("AWS", "111111111111", 2, ("1", "1", "1")).replacen(
        "Compute usage",
        &"long description ".repeat(60),
        1,
    );
    let long = format!("{HEADER}\n{}", format!("{long_row}\n").repeat(120));
    let job = refused(&app, token, "big.csv.gz", gzip(long.as_bytes())).await;
    assert_eq!(
        job["error"],
        "big.csv.gz: the upload is larger than 100 KiB once decompressed, the most one load may \
         hold; split the export into smaller uploads"
    );
    let row = focus_row("AWS", "111111111111", 2, ("1", "1", "1"));
    let many = format!("{HEADER}\n{}", format!("{row}\n").repeat(151));
    let job = refused(&app, token, "many.csv", gzip(many.as_bytes())).await;
    assert_eq!(
        job["error"],
        "many.csv: the upload has more than 150 rows, the most one load may hold; split the \
         export into smaller uploads"
    );
    assert_eq!(october_total(&app, token).await, before);

    // Exactly at the bound loads.
    let enough = format!("{HEADER}\n{}", format!("{row}\n").repeat(150));
    let job = app
        .ingest_files(token, &[("enough.csv", enough.into_bytes())])
        .await;
    assert_eq!(job["status"], "succeeded", "{job}");
    assert_eq!(job["rows"], 150);
}

#[tokio::test]
async fn files_the_readers_refuse_get_messages_a_person_can_act_on() {
    let app = spawn_app_with(|_| {}).await;
    let owner = app.signup_owner("Olive Owner", "olive@acme.test").await;
    let token = &owner.access_token;
    app.ingest_files(token, &[("focus.csv", focus_csv())]).await;
    let before = october_total(&app, token).await;

    let mut zip = b"PK\x03\x04\x14\x00\x00\x00\x08\x00".to_vec();
    zip.extend_from_slice(&[0x42; 300]);
    let wide_header: Vec<String> = (0..1000).map(|i| format!("c{i}")).collect();
    let wide_row: Vec<String> = (0..1000).map(|i| i.to_string()).collect();
    let row = focus_row("AWS", "111111111111", 2, ("1", "1", "1"));
    let mut ragged = format!("{HEADER}\n");
    for _ in 0..25_000 {
        ragged.push_str(&row);
        ragged.push('\n');
    }
    ragged.push_str(&format!("{row},one too many\n"));
    let cases: Vec<(&str, Vec<u8>, String)> =
        vec![
        ("empty.csv", Vec::new(), "empty.csv: the file is empty".to_owned()),
        (
            "header.csv",
            format!("{HEADER}\n").into_bytes(),
            "header.csv: the file has a header but no rows".to_owned(),
        ),
        (
            "binary.csv",
            (0..=255u8).cycle().take(5000).collect(),
            "binary.csv: the file is not UTF-8 text (it looks like binary data); upload CSV, \
             .csv.gz, Parquet or newline-delimited JSON files"
                .to_owned(),
        ),
        (
            "export.zip",
            zip,
            "export.zip: zip files are not supported; extract the export and upload the CSV, \
             .csv.gz, Parquet or newline-delimited JSON files inside"
                .to_owned(),
        ),
        (
            "wide.csv",
            format!("{}\n{}\n", wide_header.join(","), wide_row.join(",")).into_bytes(),
            "wide.csv: unknown billing export format: the header matches none of FOCUS, AWS \
             CUR, AWS CUR 2.0, GCP billing export, Azure cost details"
                .to_owned(),
        ),
        (
            "ragged.csv",
            ragged.into_bytes(),
            "ragged.csv: cannot read the file as CSV: line 25002: expected 26 columns as in the \
             header, found 27"
                .to_owned(),
        ),
    ];
    for (name, content, expected) in cases {
        let job = refused(&app, token, name, content).await;
        let message = job["error"].as_str().unwrap();
        assert_eq!(message, expected);
        assert_plain(message);
        assert_eq!(october_total(&app, token).await, before, "after {name}");
    }
}

#[tokio::test]
async fn quoted_newlines_and_formula_cells_are_stored_as_text() {
    let app = spawn_app_with(|_| {}).await;
    let owner = app.signup_owner("Olive Owner", "olive@acme.test").await;
    let token = &owner.access_token;
    let formula = "=cmd|' /C calc'!A0";
    let row = focus_row("AWS", "111111111111", 2, ("2", "2", "2"));
    let text = format!(
        "{HEADER}\n{}\n{}\n",
        row.replacen("Compute usage", "\"Compute\nusage\"", 1),
        row.replacen("Production", &format!("\"{formula}\""), 1)
    );
    let job = app
        .ingest_files(token, &[("hostile.csv", text.into_bytes())])
        .await;
    assert_eq!(job["status"], "succeeded", "{job}");
    assert_eq!(job["rows"], 2);
    assert_eq!(october_total(&app, token).await, 4.0);
}

#[tokio::test]
async fn upload_names_are_stored_without_control_or_bidi_characters_and_bounded() {
    let app = spawn_app_with(|_| {}).await;
    let owner = app.signup_owner("Olive Owner", "olive@acme.test").await;
    let long = format!("{}.csv", "n".repeat(5000));
    let job = app
        .ingest_files(
            &owner.access_token,
            &[
                ("invoice\u{202E}vsc.csv", focus_csv()),
                ("zero\u{200B}width\u{2066}.csv", focus_csv()),
                (long.as_str(), focus_csv()),
            ],
        )
        .await;
    assert_eq!(job["files"][0]["name"], "invoicevsc.csv", "{job}");
    assert_eq!(job["files"][1]["name"], "zerowidth.csv");
    let shown = job["files"][2]["name"].as_str().unwrap();
    assert_eq!(shown.chars().count(), 200);
    assert!(shown.ends_with("nnn.csv"), "{shown}");
}

#[tokio::test]
async fn daily_upload_and_byte_quotas_answer_429_with_the_limit_and_reset() {
    let app = spawn_app_with(|config| {
        config.uploads.max_loads_per_day = 2;
        config.uploads.max_bytes_per_day = 1 << 20;
    })
    .await;
    let owner = app.signup_owner("Olive Owner", "olive@acme.test").await;
    let other = app.signup_owner("Otto Other", "otto@other.test").await;
    let token = &owner.access_token;

    // Over the bytes left today: refused while streaming, nothing queued.
    let big = vec![b'x'; (1 << 20) + 10];
    let response = app.upload_files(token, &[("big.csv", big)], None).await;
    assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
    let retry_after: i64 = response.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=86_400).contains(&retry_after));
    let (_, body) = status_and_json(response).await;
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .starts_with("Daily upload volume reached: at most 1 MiB uploaded per UTC day; it resets at 00:00 UTC, in "),
        "{body}"
    );

    app.ingest_files(token, &[("one.csv", focus_csv())]).await;
    app.ingest_files(token, &[("two.csv", focus_csv())]).await;
    let response = app
        .upload_files(token, &[("three.csv", focus_csv())], None)
        .await;
    assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
    let (_, body) = status_and_json(response).await;
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .starts_with("Daily upload limit reached: at most 2 uploads per UTC day; it resets at 00:00 UTC, in "),
        "{body}"
    );
    let (status, history) = status_and_json(app.get("/v1/ingest", Some(token)).await).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(history.as_array().unwrap().len(), 2, "{history}");

    // Another tenant's quota is its own.
    let job = app
        .ingest_files(&other.access_token, &[("mine.csv", focus_csv())])
        .await;
    assert_eq!(job["status"], "succeeded", "{job}");
}

#[tokio::test]
async fn stored_rows_are_bounded_per_tenant() {
    let app = spawn_app_with(|config| config.uploads.max_stored_rows = 6).await;
    let owner = app.signup_owner("Olive Owner", "olive@acme.test").await;
    let token = &owner.access_token;
    let job = app.ingest_files(token, &[("focus.csv", focus_csv())]).await;
    assert_eq!(job["status"], "succeeded", "{job}");

    // 4 kept + 4 more would pass 6.
    let job = refused(&app, token, "again.csv", focus_csv()).await;
    assert_eq!(
        job["error"],
        "Storage limit reached: this upload's 4 rows and the 4 line items your organisation \
         keeps would pass the most allowed, 6; ask your administrator to raise it"
    );
    assert_eq!(october_total(&app, token).await, 31.875 + 7.123456);
}

/// Tenant A queues several big uploads; tenant B's small one, queued after them, is loaded
/// before A's queue drains (one load of a tenant at a time, tenants taking turns).
#[tokio::test]
async fn one_tenants_queue_never_holds_another_tenants_upload() {
    let app = spawn_app_with(|config| config.uploads.concurrent_loads = 1).await;
    let a = app.signup_owner("Ann A", "ann@a.test").await;
    let b = app.signup_owner("Bob B", "bob@b.test").await;
    let big = focus_gzip_of(100_000);
    let mut a_jobs = Vec::new();
    for _ in 0..4 {
        let (status, body) = status_and_json(
            app.upload_files(&a.access_token, &[("big.csv.gz", big.clone())], None)
                .await,
        )
        .await;
        assert_eq!(status, StatusCode::ACCEPTED, "{body}");
        a_jobs.push(body["id"].as_i64().unwrap());
    }
    let b_job = app
        .ingest_files(&b.access_token, &[("small.csv", focus_csv())])
        .await;
    assert_eq!(b_job["status"], "succeeded", "{b_job}");

    let b_finished = b_job["finished_at"].as_str().unwrap().to_owned();
    let mut a_finished = Vec::new();
    for id in &a_jobs {
        let job = app.wait_for_upload(&a.access_token, *id).await;
        assert_eq!(job["status"], "succeeded", "{job}");
        a_finished.push(job["finished_at"].as_str().unwrap().to_owned());
    }
    let a_last = a_finished.iter().max().unwrap();
    let parse = |text: &str| text.parse::<chrono::DateTime<chrono::Utc>>().unwrap();
    assert!(
        parse(&b_finished) < parse(a_last),
        "B finished at {b_finished}, A's uploads at {a_finished:?}"
    );
    // At most one of A's loads ran before B's.
    let before_b = a_finished
        .iter()
        .filter(|finished| parse(finished) < parse(&b_finished))
        .count();
    assert!(before_b <= 1, "{before_b} of A's loads ran before B's");
}
