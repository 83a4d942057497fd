//! The GCP connector against the local BigQuery stand-in (no BigQuery emulator exists): the
//! key file's checks, the JWT-bearer token exchange and its cache, jobs.query /
//! getQueryResults with paging, incomplete jobs and retries, the month list and its
//! fingerprints, and a fetched month that Costscope's GCP reader loads to the cent.

use std::path::Path;
use std::time::Duration;

use costscope_connectors::gcp::{
    validate_export_table, GcpBillingSource, KeyError, ServiceAccountKey, INVALID_KEY_FILE,
};
use costscope_connectors::settings::GcpExportSettings;
use costscope_connectors::testing::bigquery::BigQueryStandIn;
use costscope_connectors::{BillingExportSource, ExportPeriod, FetchLimits};
use serde_json::{json, Value};

const NO_LIMIT: FetchLimits = FetchLimits { max_bytes: 1 << 30 };

/// One export line: `cost` and credit amounts as JSON numbers, like the export.
fn line(month: &str, day: u32, service: &str, cost: f64, credits: &[f64], export: &str) -> Value {
    let year = &month[..4];
    let mon = &month[4..];
    json!({
        "billing_account_id": "012345-ABCDEF-678901",
        "service": {"id": "6F81-5844-456A", "description": service},
        "sku": {"id": "CP-COMPUTEENGINE-VMIMAGE-N1", "description": "N1 Predefined Instance Core"},
        "usage_start_time": format!("{year}-{mon}-{day:02}T00:00:00Z"),
        "usage_end_time": format!("{year}-{mon}-{day:02}T01:00:00Z"),
        "project": {"id": "shop-prod", "name": "Shop", "labels": [{"key": "team", "value": "web"}]},
        "labels": [{"key": "app", "value": "shop"}, {"key": "env", "value": "prod"}],
        "location": {"location": "us-central1", "region": "us-central1", "zone": "us-central1-a"},
        "resource": {"name": "vm-1", "global_name": "//compute.googleapis.com/projects/shop-prod/zones/us-central1-a/instances/1"},
        "export_time": export,
        "cost": cost,
        "currency": "USD",
        "usage": {"amount": 3600.0, "unit": "seconds", "amount_in_pricing_units": 1.0, "pricing_unit": "hour"},
        "credits": credits.iter().map(|a| json!({"name": "Sustained use discount", "amount": a, "type": "SUSTAINED_USAGE_DISCOUNT"})).collect::<Vec<_>>(),
        "invoice": {"month": month},
        "cost_type": "regular",
        "cost_at_list": cost,
    })
}

fn october() -> Vec<Value> {
    vec![
        line(
            "202610",
            1,
            "Compute Engine",
            10.0,
            &[-1.5, -0.5],
            "2026-10-02T06:00:00Z",
        ),
        line(
            "202610",
            2,
            "Cloud Storage",
            0.123456789,
            &[],
            "2026-10-03T06:00:00Z",
        ),
        line(
            "202610",
            3,
            "Compute Engine",
            2.25,
            &[-0.00000015],
            "2026-10-04T06:00:00Z",
        ),
        line(
            "202610",
            4,
            "BigQuery",
            0.00002,
            &[],
            "2026-10-05T06:00:00Z",
        ),
        line(
            "202610",
            5,
            "Compute Engine",
            1234.56,
            &[-34.56],
            "2026-10-06T06:00:00Z",
        ),
        line(
            "202610",
            6,
            "Cloud Storage",
            0.01,
            &[],
            "2026-10-07T06:00:00Z",
        ),
        line(
            "202610",
            7,
            "Networking",
            3.3,
            &[-0.3],
            "2026-10-08T06:00:00Z",
        ),
    ]
}

fn september() -> Vec<Value> {
    vec![
        line(
            "202609",
            28,
            "Compute Engine",
            5.0,
            &[],
            "2026-10-01T06:00:00Z",
        ),
        line(
            "202609",
            29,
            "Cloud Storage",
            1.75,
            &[-0.25],
            "2026-10-01T06:00:00Z",
        ),
    ]
}

async fn stand_in() -> BigQueryStandIn {
    let mut rows = september();
    rows.extend(october());
    BigQueryStandIn::start(rows).await
}

fn source(standin: &BigQueryStandIn) -> GcpBillingSource {
    source_with(standin, standin.settings(), &standin.key_json())
}

fn source_with(
    standin: &BigQueryStandIn,
    settings: GcpExportSettings,
    key: &str,
) -> GcpBillingSource {
    let key = ServiceAccountKey::parse(key).expect("the stand-in's key parses");
    GcpBillingSource::new(settings, key, &standin.url()).with_retries(4, Duration::from_millis(10))
}

fn period(periods: &[ExportPeriod], month: u32) -> &ExportPeriod {
    periods
        .iter()
        .find(|p| p.billing_period == chrono::NaiveDate::from_ymd_opt(2026, month, 1).unwrap())
        .unwrap_or_else(|| panic!("no period for month {month} in {periods:?}"))
}

/// A decimal amount as nano-units, exactly.
fn nanos(amount: f64) -> i128 {
    let text = format!("{amount:.9}");
    let (whole, frac) = text.split_once('.').unwrap();
    let negative = whole.starts_with('-');
    let value = whole.trim_start_matches('-').parse::<i128>().unwrap() * 1_000_000_000
        + frac.parse::<i128>().unwrap();
    if negative {
        -value
    } else {
        value
    }
}

fn nanos_text(value: i128) -> String {
    let sign = if value < 0 { "-" } else { "" };
    let v = value.abs();
    format!("{sign}{}.{:09}", v / 1_000_000_000, v % 1_000_000_000)
}

/// The lines' costs plus their credits.
fn expected_net(rows: &[Value]) -> i128 {
    rows.iter()
        .map(|row| {
            nanos(row["cost"].as_f64().unwrap())
                + row["credits"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|c| nanos(c["amount"].as_f64().unwrap()))
                    .sum::<i128>()
        })
        .sum()
}

// ------------------------------------------------------------------ the key file

fn openssl(args: &[&str], input: Option<&str>) -> String {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new("openssl")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the openssl command (Debian: apt-get install openssl)");
    let mut stdin = child.stdin.take().unwrap();
    if let Some(input) = input {
        stdin.write_all(input.as_bytes()).unwrap();
    }
    drop(stdin);
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "openssl {args:?} failed");
    String::from_utf8(output.stdout).unwrap()
}

fn good_key() -> Value {
    let pem = openssl(
        &[
            "genpkey",
            "-algorithm",
            "RSA",
            "-pkeyopt",
            "rsa_keygen_bits:2048",
        ],
        None,
    );
    json!({
        "type": "service_account",
        "project_id": "shop-prod",
        "private_key_id": "0123456789abcdef",
        "private_key": pem,
        "client_email": "reader@shop-prod.iam.gserviceaccount.com",
        "client_id": "1234567890",
        "token_uri": "https://oauth2.googleapis.com/token",
    })
}

/// The refusal of `key`, checked to carry nothing of the private key.
fn refusal(key: &Value) -> String {
    let error = ServiceAccountKey::parse(&key.to_string()).expect_err("the key was accepted");
    let shown = error.to_string();
    let debug = format!("{error:?}");
    for text in [&shown, &debug] {
        assert!(!text.contains("PRIVATE KEY"), "{text}");
        assert!(!text.contains("MII"), "{text}");
    }
    shown
}

#[test]
fn a_good_key_parses_and_its_debug_hides_the_private_key() {
    let key_json = good_key();
    let key = ServiceAccountKey::parse(&key_json.to_string()).expect("a good key");
    assert_eq!(key.project_id(), "shop-prod");
    assert_eq!(
        key.client_email(),
        "reader@shop-prod.iam.gserviceaccount.com"
    );
    assert_eq!(key.token_uri(), "https://oauth2.googleapis.com/token");
    assert_eq!(key.private_key_id(), "0123456789abcdef");
    let debug = format!("{key:?}");
    assert!(debug.contains("[redacted]"), "{debug}");
    let pem = key_json["private_key"].as_str().unwrap();
    let body_line = pem.lines().nth(1).unwrap();
    assert!(
        !debug.contains("PRIVATE KEY") && !debug.contains(body_line),
        "{debug}"
    );
    // A PKCS#1 key ("BEGIN RSA PRIVATE KEY") is accepted too.
    let pkcs1 = openssl(&["rsa", "-traditional"], Some(pem));
    assert!(pkcs1.contains("BEGIN RSA PRIVATE KEY"), "{pkcs1}");
    let mut legacy = key_json.clone();
    legacy["private_key"] = json!(pkcs1);
    ServiceAccountKey::parse(&legacy.to_string()).expect("a PKCS#1 key");
}

#[test]
fn every_key_refusal_names_what_is_wrong() {
    assert_eq!(
        INVALID_KEY_FILE,
        "Invalid JSON file. Please upload a valid service account key file."
    );
    for not_json in ["", "not json", "{\"type\": ", "\u{feff}{"] {
        assert_eq!(
            ServiceAccountKey::parse(not_json).unwrap_err(),
            KeyError::NotJson
        );
        assert_eq!(
            ServiceAccountKey::parse(not_json).unwrap_err().to_string(),
            INVALID_KEY_FILE
        );
    }
    assert_eq!(
        refusal(&json!(["service_account"])),
        "The key file is not a service account key: it is not a JSON object"
    );

    let good = good_key();
    let mut key = good.clone();
    key["type"] = json!("authorized_user");
    assert_eq!(
        refusal(&key),
        "The key file is not a service account key: \"type\" is \"authorized_user\""
    );
    key["type"] = json!(7);
    assert_eq!(
        refusal(&key),
        "The key file is not a service account key: \"type\" is 7"
    );
    for field in [
        "type",
        "project_id",
        "private_key_id",
        "private_key",
        "client_email",
        "token_uri",
    ] {
        let mut key = good.clone();
        key.as_object_mut().unwrap().remove(field);
        assert_eq!(refusal(&key), format!("The key file has no \"{field}\""));
        let mut key = good.clone();
        key[field] = json!(null);
        assert_eq!(refusal(&key), format!("The key file has no \"{field}\""));
        if field != "type" {
            let mut key = good.clone();
            key[field] = json!("  ");
            assert_eq!(refusal(&key), format!("The key file has no \"{field}\""));
            key[field] = json!(12);
            assert_eq!(refusal(&key), format!("The key file has no \"{field}\""));
        }
    }

    let invalid_pem = "The key file's \"private_key\" is not an RSA private key in PEM form";
    let pem = good["private_key"].as_str().unwrap().to_owned();
    let mut key = good.clone();
    key["private_key"] = json!("not a key");
    assert_eq!(refusal(&key), invalid_pem);
    // A truncated key: the PEM frame is there but the key inside does not parse.
    let lines: Vec<&str> = pem.lines().collect();
    let truncated = format!(
        "{}\n{}\n{}\n",
        lines[0],
        lines[1..6].join("\n"),
        lines[lines.len() - 1]
    );
    key["private_key"] = json!(truncated);
    assert_eq!(refusal(&key), invalid_pem);
    // An EC key is not an RSA key.
    let ec = openssl(
        &[
            "genpkey",
            "-algorithm",
            "EC",
            "-pkeyopt",
            "ec_paramgen_curve:P-256",
        ],
        None,
    );
    key["private_key"] = json!(ec);
    assert_eq!(refusal(&key), invalid_pem);

    let mut key = good.clone();
    key["client_email"] = json!("reader");
    assert_eq!(
        refusal(&key),
        "The key file's \"client_email\" is not an email address"
    );
    let mut key = good.clone();
    key["token_uri"] = json!("file:///etc/passwd");
    assert_eq!(
        refusal(&key),
        "The key file's \"token_uri\" is not an http or https URL"
    );
}

#[test]
fn export_table_names_are_checked() {
    assert!(
        validate_export_table("shop-prod.billing.gcp_billing_export_v1_012345_ABCDEF_678901")
            .is_ok()
    );
    assert!(validate_export_table(
        "shop-prod.billing.gcp_billing_export_resource_v1_012345_ABCDEF_678901"
    )
    .is_ok());
    let message = validate_export_table("billing.gcp_billing_export_v1").unwrap_err();
    assert!(
        message.starts_with("The export table must be written project.dataset.table"),
        "{message}"
    );
    let message = validate_export_table("shop-prod.billing.t` WHERE 1=1 --").unwrap_err();
    assert!(
        message.contains("may have only letters, digits, underscores and hyphens"),
        "{message}"
    );
}

// ------------------------------------------------------------------ tokens

#[tokio::test]
async fn a_token_is_exchanged_once_and_reused_until_shortly_before_it_expires() {
    let standin = stand_in().await;
    let source = source(&standin);
    source.periods().await.unwrap();
    source.periods().await.unwrap();
    source.check().await.unwrap();
    assert_eq!(standin.token_requests(), 1, "the token was not cached");

    // Tokens that live 2 s are replaced after half their life.
    standin.set_token_lifetime(2);
    let short = self::source(&standin);
    short.periods().await.unwrap();
    assert_eq!(standin.token_requests(), 2);
    short.periods().await.unwrap();
    assert_eq!(standin.token_requests(), 2);
    tokio::time::sleep(Duration::from_millis(1100)).await;
    short.periods().await.unwrap();
    assert_eq!(standin.token_requests(), 3, "an old token was not replaced");
}

#[tokio::test]
async fn a_token_bigquery_refuses_is_replaced_once() {
    let standin = stand_in().await;
    let source = source(&standin);
    source.periods().await.unwrap();
    standin.revoke_tokens();
    assert_eq!(source.periods().await.unwrap().len(), 2);
    assert_eq!(standin.token_requests(), 2, "a new token after the 401");
}

#[tokio::test]
async fn a_refused_key_names_the_token_endpoints_error() {
    let standin = stand_in().await;
    let source = source_with(&standin, standin.settings(), &standin.foreign_key_json());
    let error = source.check().await.unwrap_err();
    assert_eq!(
        error.message,
        "The service account key was refused by the token endpoint: invalid_grant: Invalid JWT Signature."
    );
    assert!(!error.retryable);
    assert_eq!(standin.token_requests(), 1, "a refusal is not retried");
    assert_eq!(standin.query_requests(), 0);
}

// ------------------------------------------------------------------ queries

#[tokio::test]
async fn periods_list_months_with_fingerprints_that_change_with_new_rows() {
    let standin = stand_in().await;
    let source = source(&standin);
    assert_eq!(
        source.check().await.unwrap(),
        format!("Found 2 billing months in `{}`", standin.table())
    );
    let periods = source.periods().await.unwrap();
    assert_eq!(periods.len(), 2);
    assert!(
        periods[0].billing_period < periods[1].billing_period,
        "oldest first"
    );
    let september = period(&periods, 9).clone();
    let october = period(&periods, 10).clone();
    assert_eq!(september.fingerprint, "2:2026-10-01T06:00:00Z");
    assert_eq!(october.fingerprint, "7:2026-10-08T06:00:00Z");
    assert_eq!(
        october.location,
        format!("{} (invoice.month 202610)", standin.table())
    );
    assert!(october.objects.is_empty());

    // A later export adds a line to October: only October's fingerprint changes.
    standin.add_rows(vec![line(
        "202610",
        8,
        "Compute Engine",
        1.0,
        &[],
        "2026-10-09T06:00:00Z",
    )]);
    let periods = source.periods().await.unwrap();
    assert_eq!(period(&periods, 9).fingerprint, september.fingerprint);
    assert_eq!(period(&periods, 10).fingerprint, "8:2026-10-09T06:00:00Z");
    // A new month appears.
    standin.add_rows(vec![line(
        "202611",
        1,
        "Compute Engine",
        1.0,
        &[],
        "2026-11-02T06:00:00Z",
    )]);
    assert_eq!(source.periods().await.unwrap().len(), 3);
}

#[tokio::test]
async fn an_empty_export_has_no_periods() {
    let standin = BigQueryStandIn::start(Vec::new()).await;
    let source = source(&standin);
    assert!(source.periods().await.unwrap().is_empty());
    assert_eq!(
        source.check().await.unwrap(),
        format!("Found no billing months in `{}` yet", standin.table())
    );
}

#[tokio::test]
async fn an_incomplete_job_is_polled_until_complete() {
    let standin = stand_in().await;
    standin.set_incomplete_polls(3);
    let source = source(&standin);
    let periods = source.periods().await.unwrap();
    assert_eq!(periods.len(), 2);
    assert_eq!(standin.query_requests(), 1);
    // jobs.query answered jobComplete false, then two polls false, the third true.
    assert_eq!(standin.results_requests(), 3);

    standin.set_incomplete_polls(0);
    source.periods().await.unwrap();
    assert_eq!(standin.query_requests(), 2);
    assert_eq!(
        standin.results_requests(),
        3,
        "a complete answer needs no poll"
    );
}

#[tokio::test]
async fn busy_answers_are_retried_and_give_up_after_a_bound() {
    let standin = stand_in().await;
    let source = source(&standin);
    standin.fail_next(2, 503);
    assert_eq!(source.periods().await.unwrap().len(), 2);
    assert_eq!(standin.query_requests(), 3, "two 503s then the query");

    // 429 (rate limit) and 500 likewise, up to the fourth try.
    standin.fail_next(1, 429);
    standin.fail_next(1, 500);
    standin.fail_next(1, 503);
    assert_eq!(source.periods().await.unwrap().len(), 2);
    assert_eq!(standin.query_requests(), 3 + 4);

    // More failures than tries: the last error, marked retryable.
    standin.fail_next(10, 503);
    let error = source.periods().await.unwrap_err();
    assert_eq!(error.message, "The service is currently unavailable.");
    assert!(error.retryable);
    assert_eq!(standin.query_requests(), 7 + 4, "four tries");
}

#[tokio::test]
async fn a_missing_table_answers_bigquerys_not_found() {
    let standin = stand_in().await;
    let mut settings = standin.settings();
    settings.table = format!("{}.billing_export.no_such_table", standin.project_id());
    let source = source_with(&standin, settings, &standin.key_json());
    let error = source.check().await.unwrap_err();
    assert_eq!(
        error.message,
        format!(
            "Not found: Table {}:billing_export.no_such_table was not found in location US",
            standin.project_id()
        )
    );
    assert!(!error.retryable);
    assert_eq!(standin.query_requests(), 1, "a 404 is not retried");
}

#[tokio::test]
async fn a_table_name_that_is_not_one_is_refused_before_any_call() {
    let standin = stand_in().await;
    let mut settings = standin.settings();
    settings.table = format!("{}` WHERE TRUE --", standin.table());
    let source = source_with(&standin, settings, &standin.key_json());
    let error = source.periods().await.unwrap_err();
    assert!(
        error.message.starts_with("The export table's name"),
        "{}",
        error.message
    );
    assert_eq!(standin.token_requests() + standin.query_requests(), 0);
}

// ------------------------------------------------------------------ fetch

async fn fetch_month(
    source: &GcpBillingSource,
    month: u32,
    dir: &Path,
) -> Vec<costscope_connectors::FetchedFile> {
    let periods = source.periods().await.unwrap();
    source
        .fetch(period(&periods, month), dir, NO_LIMIT)
        .await
        .unwrap()
}

fn staged_total(conn: &duckdb::Connection) -> String {
    conn.query_row(
        "SELECT CAST(sum(billed_cost) AS VARCHAR) FROM staged",
        [],
        |r| r.get(0),
    )
    .unwrap()
}

#[tokio::test]
async fn a_fetched_month_pages_through_and_loads_as_the_gcp_export_to_the_cent() {
    let standin = stand_in().await;
    let source = source(&standin).with_page_rows(3);
    let dir = tempfile::tempdir().unwrap();
    let periods = source.periods().await.unwrap();
    let results_before = standin.results_requests();
    let files = source
        .fetch(period(&periods, 10), dir.path(), NO_LIMIT)
        .await
        .unwrap();
    assert_eq!(files.len(), 1);
    let file = &files[0];
    assert_eq!(file.path, dir.path().join("gcp-billing-202610.jsonl"));
    assert_eq!(
        file.name,
        format!("{} (invoice.month 202610)", standin.table())
    );
    assert_eq!(file.bytes, std::fs::metadata(&file.path).unwrap().len());
    // 7 rows in pages of 3: the poll that finds the job complete brings page 1, then 2 more
    // pages by pageToken.
    assert_eq!(standin.results_requests() - results_before, 3);
    let text = std::fs::read_to_string(&file.path).unwrap();
    assert_eq!(text.lines().count(), 7);
    // The month was a query parameter, not text in the SQL.
    let fetch_sql = standin.queries().last().unwrap().clone();
    assert!(
        fetch_sql.contains("@month") && !fetch_sql.contains("202610"),
        "{fetch_sql}"
    );

    // The export's own shape: nested records, repeated labels and credits, plain numbers,
    // RFC 3339 timestamps.
    let first: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(first["service"]["description"], "Compute Engine");
    assert_eq!(first["labels"][1], json!({"key": "env", "value": "prod"}));
    assert_eq!(first["credits"][0]["amount"], json!(-1.5));
    assert_eq!(first["usage_start_time"], "2026-10-01T00:00:00Z");
    assert_eq!(first["invoice"]["month"], "202610");
    assert_eq!(first["resource"]["name"], "vm-1");
    let exponent = text.as_bytes().windows(3).any(|w| {
        w[0].is_ascii_digit()
            && (w[1] == b'e' || w[1] == b'E')
            && (w[2] == b'-' || w[2] == b'+' || w[2].is_ascii_digit())
    });
    assert!(!exponent, "a number with an exponent was written: {text}");
    assert!(text.contains("\"amount\":-0.00000015,"), "{text}");

    // Costscope's GCP reader loads it, with the totals the stand-in served.
    let conn = duckdb::Connection::open_in_memory().unwrap();
    let staged = costscope_ingest::stage(&conn, &file.path, &file.name, None, "staged")
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(staged.format, costscope_ingest::Format::GcpBilling);
    // One row per line and one per credit.
    assert_eq!(staged.rows, 7 + 5);
    let total = staged_total(&conn);
    assert_eq!(total, nanos_text(expected_net(&october())));
    assert_eq!(total, "1213.383476639");
    let (months, accounts): (String, String) = conn
        .query_row(
            "SELECT string_agg(DISTINCT CAST(billing_period_start AS VARCHAR), ','), \
             string_agg(DISTINCT account_id, ',') FROM staged",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!(months, "2026-10-01");
    assert_eq!(accounts, "shop-prod");
}

#[tokio::test]
async fn a_standard_export_without_resource_columns_is_read_too() {
    let standin = stand_in().await;
    standin.drop_columns(&["resource", "cost_at_list"]);
    let source = source(&standin);
    let dir = tempfile::tempdir().unwrap();
    let files = fetch_month(&source, 9, dir.path()).await;
    let text = std::fs::read_to_string(&files[0].path).unwrap();
    assert_eq!(text.lines().count(), 2);
    assert!(!text.contains("\"resource\"") && !text.contains("cost_at_list"));
    let conn = duckdb::Connection::open_in_memory().unwrap();
    costscope_ingest::stage(&conn, &files[0].path, &files[0].name, None, "staged").unwrap();
    assert_eq!(staged_total(&conn), nanos_text(expected_net(&september())));
}

#[tokio::test]
async fn a_month_larger_than_the_limit_fails_and_leaves_nothing() {
    let standin = stand_in().await;
    let source = source(&standin).with_page_rows(2);
    let dir = tempfile::tempdir().unwrap();
    let periods = source.periods().await.unwrap();
    let error = source
        .fetch(
            period(&periods, 10),
            dir.path(),
            FetchLimits { max_bytes: 3000 },
        )
        .await
        .unwrap_err();
    assert!(
        error
            .message
            .contains("for invoice month 202610 is larger than the limit"),
        "{}",
        error.message
    );
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[tokio::test]
async fn a_month_without_rows_fetches_no_file() {
    let standin = stand_in().await;
    let source = source(&standin);
    let dir = tempfile::tempdir().unwrap();
    let periods = source.periods().await.unwrap();
    let mut gone = period(&periods, 10).clone();
    gone.billing_period = chrono::NaiveDate::from_ymd_opt(2026, 8, 1).unwrap();
    assert!(source
        .fetch(&gone, dir.path(), NO_LIMIT)
        .await
        .unwrap()
        .is_empty());
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

// ------------------------------------------------------------------ secrets

#[tokio::test]
async fn no_secret_in_any_error_or_debug_print() {
    let standin = stand_in().await;
    let key_json: Value = serde_json::from_str(&standin.key_json()).unwrap();
    let pem = key_json["private_key"].as_str().unwrap();
    let pem_lines: Vec<&str> = pem.lines().filter(|l| !l.starts_with("-----")).collect();
    let secret_free = |text: &str| {
        assert!(!text.contains("PRIVATE KEY"), "{text}");
        assert!(!text.contains("ya29."), "an access token in {text}");
        for line in &pem_lines {
            assert!(!text.contains(line), "a line of the private key in {text}");
        }
    };
    let key = ServiceAccountKey::parse(&standin.key_json()).unwrap();
    secret_free(&format!("{key:?}"));
    let source = source(&standin);
    source.periods().await.unwrap();
    secret_free(&format!("{source:?}"));

    let mut errors = Vec::new();
    let refused = source_with(&standin, standin.settings(), &standin.foreign_key_json());
    errors.push(refused.check().await.unwrap_err());
    let mut settings = standin.settings();
    settings.table = format!("{}.billing_export.nothing", standin.project_id());
    errors.push(
        source_with(&standin, settings, &standin.key_json())
            .check()
            .await
            .unwrap_err(),
    );
    standin.fail_next(10, 503);
    errors.push(source.periods().await.unwrap_err());
    let unreachable = GcpBillingSource::new(
        standin.settings(),
        ServiceAccountKey::parse(&standin.key_json()).unwrap(),
        "http://127.0.0.1:9",
    )
    .with_retries(1, Duration::from_millis(1));
    errors.push(unreachable.check().await.unwrap_err());
    for error in &errors {
        secret_free(&error.message);
        secret_free(&format!("{error:?}"));
    }
    let mut broken = key_json.clone();
    broken["client_email"] = json!("nobody");
    let error = ServiceAccountKey::parse(&broken.to_string()).unwrap_err();
    secret_free(&error.to_string());
    secret_free(&format!("{error:?}"));
}
