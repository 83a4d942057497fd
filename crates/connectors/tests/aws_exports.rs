//! The AWS connector against moto (a real local AWS emulator, started per test on a free
//! port; `scripts/ensure-moto.sh` installs it). Buckets, roles, organisations and export
//! deliveries are created through moto's own API.
//!
//! moto checks neither trust policies nor external ids: any role can be assumed with any
//! external id here. That every AssumeRole call carries the tenant's external id is checked
//! by the unit tests of `aws::assume` (on the wire, against a local listener).

use std::path::{Path, PathBuf};

use chrono::NaiveDate;
use costscope_connectors::aws::{list_organization_accounts, AwsExportSource, OrgAccount};
use costscope_connectors::settings::AwsExportSettings;
use costscope_connectors::testing::moto::{Moto, MOTO_ACCOUNT_ID};
use costscope_connectors::{BillingExportSource, FetchLimits};

const BUCKET: &str = "costscope-exports";
const EXTERNAL_ID: &str = "cs-ext-0d4c2b9e7a";
const NO_LIMIT: FetchLimits = FetchLimits { max_bytes: 1 << 40 };

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../ingest/tests/fixtures")
        .join(name)
}

/// AWS's own FOCUS 1.2 export (gzip CSV), as the ingest tests read it.
fn focus_csv_gz() -> Vec<u8> {
    std::fs::read(fixture("vendors/aws_focus_1_2.csv.gz")).unwrap()
}

/// A FOCUS 1.0 file as Parquet (the synthetic fixture written by DuckDB).
fn focus_parquet() -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let parquet = dir.path().join("focus.parquet");
    let conn = duckdb::Connection::open_in_memory().unwrap();
    conn.execute_batch(&format!(
        "COPY (SELECT * FROM read_csv('{}')) TO '{}' (FORMAT parquet)",
        fixture("synthetic/focus_1_0.csv").display(),
        parquet.display()
    ))
    .unwrap();
    let bytes = std::fs::read(&parquet).unwrap();
    assert!(bytes.starts_with(b"PAR1"));
    bytes
}

fn day(y: i32, m: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, 1).unwrap()
}

/// A bucket and a role in a fresh moto; the settings of export `focus` under `exports/`.
async fn setup(moto: &Moto) -> AwsExportSettings {
    moto.create_bucket(BUCKET).await;
    let role = moto.create_role("CostscopeReadOnly", EXTERNAL_ID).await;
    assert_eq!(
        role,
        format!("arn:aws:iam::{MOTO_ACCOUNT_ID}:role/CostscopeReadOnly")
    );
    moto.export_settings(&role, EXTERNAL_ID, BUCKET, "exports", "focus")
}

#[tokio::test]
async fn check_finds_the_delivered_billing_periods() {
    let moto = Moto::start();
    let settings = setup(&moto).await;
    moto.put_data_export(
        &settings,
        "2026-09",
        &[("focus-00001.csv.gz", &focus_csv_gz())],
    )
    .await;
    moto.put_data_export(
        &settings,
        "2026-10",
        &[("focus-00001.csv.gz", &focus_csv_gz())],
    )
    .await;
    let source = AwsExportSource::new(&moto.sdk(), settings);
    assert_eq!(
        source.check().await.unwrap(),
        "Found 2 billing periods under s3://costscope-exports/exports/focus"
    );
}

#[tokio::test]
async fn a_missing_bucket_is_named() {
    let moto = Moto::start();
    let mut settings = setup(&moto).await;
    settings.bucket = "costscope-exports-missing".into();
    let source = AwsExportSource::new(&moto.sdk(), settings);
    let err = source.check().await.unwrap_err();
    assert_eq!(
        err.message,
        "NoSuchBucket: bucket costscope-exports-missing does not exist"
    );
    assert!(!err.retryable);
    let err = source.periods().await.unwrap_err();
    assert_eq!(
        err.message,
        "NoSuchBucket: bucket costscope-exports-missing does not exist"
    );
}

#[tokio::test]
async fn a_missing_prefix_or_an_empty_export_is_not_an_error() {
    let moto = Moto::start();
    let settings = setup(&moto).await;
    // Nothing at all under the prefix (AWS delivers the first data within 24 hours).
    let source = AwsExportSource::new(&moto.sdk(), settings.clone());
    assert_eq!(
        source.check().await.unwrap(),
        "No billing data delivered yet under s3://costscope-exports/exports/focus"
    );
    assert_eq!(source.periods().await.unwrap(), vec![]);

    // Objects under the export that are no delivery (no manifest yet; another export's
    // manifest; an assembly folder's copy): still nothing.
    moto.put_object(
        BUCKET,
        "exports/focus/data/BILLING_PERIOD=2026-10/focus-00001.csv.gz",
        focus_csv_gz(),
    )
    .await;
    moto.put_object(
        BUCKET,
        "exports/focus/metadata/BILLING_PERIOD=2026-10/other-Manifest.json",
        "{}",
    )
    .await;
    moto.put_object(
        BUCKET,
        "exports/focus-old/metadata/BILLING_PERIOD=2026-10/focus-old-Manifest.json",
        "{}",
    )
    .await;
    assert_eq!(source.periods().await.unwrap(), vec![]);
    assert_eq!(
        source.check().await.unwrap(),
        "No billing data delivered yet under s3://costscope-exports/exports/focus"
    );

    // Without a prefix, the export sits at the bucket's root.
    let mut at_root = settings;
    at_root.prefix = String::new();
    let source = AwsExportSource::new(&moto.sdk(), at_root.clone());
    assert_eq!(
        source.check().await.unwrap(),
        "No billing data delivered yet under s3://costscope-exports/focus"
    );
    moto.put_data_export(
        &at_root,
        "2026-11",
        &[("focus-00001.csv.gz", &focus_csv_gz())],
    )
    .await;
    assert_eq!(
        source.check().await.unwrap(),
        "Found 1 billing period under s3://costscope-exports/focus"
    );
}

#[tokio::test]
async fn data_exports_periods_and_fetch_gzip_csv_and_parquet() {
    let moto = Moto::start();
    let settings = setup(&moto).await;
    let csv_gz = focus_csv_gz();
    let parquet = focus_parquet();
    // Delivered out of order: October first, then September.
    moto.put_data_export(
        &settings,
        "2026-10",
        &[
            ("focus-00001.snappy.parquet", &parquet),
            ("focus-00002.snappy.parquet", &parquet),
        ],
    )
    .await;
    moto.put_data_export(&settings, "2026-09", &[("focus-00001.csv.gz", &csv_gz)])
        .await;

    let source = AwsExportSource::new(&moto.sdk(), settings);
    let periods = source.periods().await.unwrap();
    assert_eq!(
        periods.iter().map(|p| p.billing_period).collect::<Vec<_>>(),
        [day(2026, 9), day(2026, 10)],
        "oldest first"
    );
    let september = &periods[0];
    assert_eq!(
        september.location,
        "s3://costscope-exports/exports/focus/metadata/BILLING_PERIOD=2026-09/focus-Manifest.json"
    );
    assert_eq!(september.objects.len(), 1);
    assert_eq!(
        september.objects[0].key,
        "exports/focus/data/BILLING_PERIOD=2026-09/focus-00001.csv.gz"
    );
    assert_eq!(september.objects[0].bytes, Some(csv_gz.len() as u64));
    assert_eq!(periods[1].objects.len(), 2);

    let dir = tempfile::tempdir().unwrap();
    let files = source.fetch(september, dir.path(), NO_LIMIT).await.unwrap();
    assert_eq!(files.len(), 1);
    assert_eq!(files[0].name, september.objects[0].key);
    assert_eq!(files[0].bytes, csv_gz.len() as u64);
    assert!(files[0].path.starts_with(dir.path()));
    assert!(files[0].path.to_str().unwrap().ends_with(".csv.gz"));
    assert_eq!(std::fs::read(&files[0].path).unwrap(), csv_gz);

    let dir = tempfile::tempdir().unwrap();
    let files = source
        .fetch(&periods[1], dir.path(), NO_LIMIT)
        .await
        .unwrap();
    assert_eq!(files.len(), 2);
    for file in &files {
        assert!(
            file.path.to_str().unwrap().ends_with(".parquet"),
            "{file:?}"
        );
        assert_eq!(std::fs::read(&file.path).unwrap(), parquet);
    }
    assert_ne!(files[0].path, files[1].path);
}

#[tokio::test]
async fn a_new_delivery_changes_the_fingerprint_an_unchanged_manifest_keeps_it() {
    let moto = Moto::start();
    let settings = setup(&moto).await;
    let csv_gz = focus_csv_gz();
    moto.put_data_export(&settings, "2026-10", &[("focus-00001.csv.gz", &csv_gz)])
        .await;
    moto.put_data_export(&settings, "2026-11", &[("focus-00001.csv.gz", &csv_gz)])
        .await;
    let source = AwsExportSource::new(&moto.sdk(), settings.clone());
    let first = source.periods().await.unwrap();
    let again = source.periods().await.unwrap();
    assert_eq!(first, again, "nothing delivered: same fingerprints");
    assert!(!first[0].fingerprint.is_empty());

    // AWS delivers November again (a new execution, two files now).
    moto.put_data_export(
        &settings,
        "2026-11",
        &[
            ("focus-00001.csv.gz", &csv_gz),
            ("focus-00002.csv.gz", &csv_gz),
        ],
    )
    .await;
    let after = source.periods().await.unwrap();
    assert_eq!(after[0], first[0], "October was not delivered again");
    assert_ne!(after[1].fingerprint, first[1].fingerprint);
    assert_eq!(after[1].objects.len(), 2);

    // The same manifest written again (same content, so the same ETag and execution id):
    // the fingerprint does not change.
    let manifest_key = Moto::data_export_manifest_key(&settings, "2026-11");
    let client = moto.sdk().s3();
    let body = client
        .get_object()
        .bucket(BUCKET)
        .key(&manifest_key)
        .send()
        .await
        .unwrap()
        .body
        .collect()
        .await
        .unwrap()
        .into_bytes()
        .to_vec();
    moto.put_object(BUCKET, &manifest_key, body).await;
    let rewritten = source.periods().await.unwrap();
    assert_eq!(rewritten[1].fingerprint, after[1].fingerprint);
}

#[tokio::test]
async fn legacy_cur_reports_are_read_from_their_manifest() {
    let moto = Moto::start();
    moto.create_bucket(BUCKET).await;
    let role = moto.create_role("CostscopeCur", EXTERNAL_ID).await;
    let settings = moto.export_settings(&role, EXTERNAL_ID, BUCKET, "cur", "costscope-cur");
    let csv_gz = focus_csv_gz();
    let manifest = moto
        .put_cur_report(
            &settings,
            "2026-10",
            &[("costscope-cur-00001.csv.gz", &csv_gz)],
        )
        .await;
    assert_eq!(
        manifest,
        "cur/costscope-cur/20261001-20261101/costscope-cur-Manifest.json"
    );
    let source = AwsExportSource::new(&moto.sdk(), settings.clone());
    assert_eq!(
        source.check().await.unwrap(),
        "Found 1 billing period under s3://costscope-exports/cur/costscope-cur"
    );
    let periods = source.periods().await.unwrap();
    assert_eq!(periods.len(), 1);
    let october = &periods[0];
    assert_eq!(october.billing_period, day(2026, 10));
    assert_eq!(
        october.location,
        format!("s3://{BUCKET}/cur/costscope-cur/20261001-20261101/costscope-cur-Manifest.json")
    );
    assert_eq!(october.objects.len(), 1);
    assert!(october.objects[0]
        .key
        .starts_with("cur/costscope-cur/20261001-20261101/"));
    assert!(october.objects[0]
        .key
        .ends_with("/costscope-cur-00001.csv.gz"));

    let dir = tempfile::tempdir().unwrap();
    let files = source.fetch(october, dir.path(), NO_LIMIT).await.unwrap();
    assert_eq!(files.len(), 1);
    assert_eq!(std::fs::read(&files[0].path).unwrap(), csv_gz);

    // A new assembly of the same month replaces the period's manifest: a new fingerprint.
    moto.put_cur_report(
        &settings,
        "2026-10",
        &[("costscope-cur-00001.csv.gz", &csv_gz)],
    )
    .await;
    let again = source.periods().await.unwrap();
    assert_eq!(again.len(), 1);
    assert_ne!(again[0].fingerprint, october.fingerprint);
    assert_ne!(again[0].objects, october.objects);
}

#[tokio::test]
async fn fetch_refuses_a_delivery_over_the_limit_and_leaves_nothing() {
    let moto = Moto::start();
    let settings = setup(&moto).await;
    let csv_gz = focus_csv_gz();
    moto.put_data_export(
        &settings,
        "2026-10",
        &[
            ("focus-00001.csv.gz", &csv_gz),
            ("focus-00002.csv.gz", &csv_gz),
        ],
    )
    .await;
    let source = AwsExportSource::new(&moto.sdk(), settings);
    let mut period = source.periods().await.unwrap().remove(0);
    let limit = FetchLimits {
        max_bytes: csv_gz.len() as u64 + 10,
    };

    // Refused from the sizes the listing gave, before anything is downloaded.
    let dir = tempfile::tempdir().unwrap();
    let err = source.fetch(&period, dir.path(), limit).await.unwrap_err();
    assert!(
        err.message.starts_with("The delivery of billing period 2026-10 (s3://costscope-exports/exports/focus/metadata/BILLING_PERIOD=2026-10/focus-Manifest.json) is larger than the limit of"),
        "{}",
        err.message
    );
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);

    // Refused while downloading when the sizes are not known beforehand: the first file is
    // written, the second goes past the limit, and both are removed.
    for object in &mut period.objects {
        object.bytes = None;
    }
    let err = source.fetch(&period, dir.path(), limit).await.unwrap_err();
    assert!(
        err.message.contains("is larger than the limit of"),
        "{}",
        err.message
    );
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[tokio::test]
async fn a_data_file_that_went_missing_is_named() {
    let moto = Moto::start();
    let settings = setup(&moto).await;
    moto.put_data_export(
        &settings,
        "2026-10",
        &[("focus-00001.csv.gz", &focus_csv_gz())],
    )
    .await;
    let source = AwsExportSource::new(&moto.sdk(), settings.clone());
    let period = source.periods().await.unwrap().remove(0);
    moto.delete_object(BUCKET, &period.objects[0].key).await;
    let dir = tempfile::tempdir().unwrap();
    let err = source
        .fetch(&period, dir.path(), NO_LIMIT)
        .await
        .unwrap_err();
    assert_eq!(
        err.message,
        "NoSuchKey: s3://costscope-exports/exports/focus/data/BILLING_PERIOD=2026-10/focus-00001.csv.gz does not exist"
    );
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[tokio::test]
async fn an_unreadable_manifest_is_named() {
    let moto = Moto::start();
    let settings = setup(&moto).await;
    moto.put_object(
        BUCKET,
        &Moto::data_export_manifest_key(&settings, "2026-10"),
        "<html>not a manifest</html>",
    )
    .await;
    let source = AwsExportSource::new(&moto.sdk(), settings);
    let err = source.check().await.unwrap_err();
    assert!(
        err.message.starts_with("The manifest s3://costscope-exports/exports/focus/metadata/BILLING_PERIOD=2026-10/focus-Manifest.json is not a readable AWS billing manifest:"),
        "{}",
        err.message
    );
}

#[tokio::test]
async fn an_unreachable_endpoint_is_retryable_and_named() {
    // A port nothing listens on.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let sdk = costscope_connectors::aws::AwsSdk::for_endpoint(
        &format!("http://127.0.0.1:{port}"),
        "us-east-1",
    );
    let source = AwsExportSource::new(
        &sdk,
        AwsExportSettings {
            role_arn: "arn:aws:iam::123456789012:role/CostscopeReadOnly".into(),
            external_id: EXTERNAL_ID.into(),
            bucket: BUCKET.into(),
            prefix: "exports".into(),
            export_name: "focus".into(),
            region: "us-east-1".into(),
        },
    );
    let err = source.check().await.unwrap_err();
    assert!(
        err.message.starts_with(
            "STS could not be reached to assume role arn:aws:iam::123456789012:role/CostscopeReadOnly: "
        ),
        "{}",
        err.message
    );
    assert!(err.retryable);
    assert!(!err.message.contains("testing"), "{}", err.message);
}

#[tokio::test]
async fn an_organisation_lists_its_member_accounts() {
    let moto = Moto::start();
    let role = moto.create_role("CostscopeOrg", EXTERNAL_ID).await;
    let settings = moto.export_settings(&role, EXTERNAL_ID, BUCKET, "exports", "focus");

    // (Outside an organisation AWS answers AWSOrganizationsNotInUseException, which the
    // connector names; moto answers an empty list instead, so that case is not asserted here.)
    assert_eq!(
        list_organization_accounts(&moto.sdk(), &settings)
            .await
            .unwrap(),
        vec![]
    );

    let created = moto
        .create_organization(&[
            ("Production", "prod@example.com"),
            ("Staging", "staging@example.com"),
        ])
        .await;
    let accounts = list_organization_accounts(&moto.sdk(), &settings)
        .await
        .unwrap();
    assert_eq!(accounts, created);
    assert_eq!(accounts.len(), 3, "{accounts:?}");
    let names: Vec<&str> = accounts.iter().map(|a| a.name.as_str()).collect();
    assert!(
        names.contains(&"Production") && names.contains(&"Staging"),
        "{names:?}"
    );
    assert!(accounts.contains(&OrgAccount {
        account_id: MOTO_ACCOUNT_ID.into(),
        name: accounts
            .iter()
            .find(|a| a.account_id == MOTO_ACCOUNT_ID)
            .map(|a| a.name.clone())
            .unwrap(),
    }));
    for account in &accounts {
        assert_eq!(account.account_id.len(), 12, "{account:?}");
        assert!(account.account_id.bytes().all(|b| b.is_ascii_digit()));
    }
}
