//! The Azure Cost Management export reader against Azurite (the Azure Storage emulator,
//! `scripts/ensure-azurite.sh`), started by each test on a free port: export layouts with and
//! without a manifest, fingerprints, paging, limits, the errors a person sees (never with the
//! SAS token in them), the service-principal path over HTTPS against a stand-in of the identity
//! platform's token endpoint, and that fetched files load as Azure cost details with the
//! uploaded totals.

use std::io::Write;
use std::path::Path;

use chrono::{NaiveDate, Utc};
use costscope_connectors::azure::{AzureExportSource, DEFAULT_AUTHORITY_URL};
use costscope_connectors::settings::{AzureExportSettings, AzureStorageAuth};
use costscope_connectors::testing::azurite::{account_sas, Azurite, IdentityPlatform, DEV_ACCOUNT};
use costscope_connectors::{BillingExportSource, ExportObject, ExportPeriod, FetchLimits};

const CONTAINER: &str = "exports";
const DIRECTORY: &str = "billing/costscope-actual";
const NO_LIMIT: FetchLimits = FetchLimits { max_bytes: 1 << 30 };

const HEADER: &str = "BillingAccountId,BillingAccountName,BillingPeriodStartDate,BillingPeriodEndDate,SubscriptionId,SubscriptionName,Date,MeterCategory,MeterSubCategory,MeterName,ResourceLocation,ResourceId,Quantity,UnitOfMeasure,CostInBillingCurrency,BillingCurrency,ChargeType";

/// An Azure cost details CSV (actual cost) of `(day, meter category, cost)` rows.
fn cost_csv(month: &str, rows: &[(u32, &str, &str)]) -> String {
    let mut out = format!("{HEADER}\n");
    for (day, category, cost) in rows {
        out.push_str(&format!(
            "8611537,Contoso,{month}-01,{month}-28,11111111-2222-3333-4444-555555555555,Production,{month}-{day:02},{category},General,Usage,westeurope,/subscriptions/11111111-2222-3333-4444-555555555555/resourcegroups/rg/providers/x/y,1,1 Hour,{cost},EUR,Usage\n"
        ));
    }
    out
}

/// The sum of the rows' costs in cents, computed from the decimal strings.
fn cents(rows: &[(u32, &str, &str)]) -> i64 {
    rows.iter()
        .map(|(_, _, cost)| {
            let (units, fraction) = cost.split_once('.').unwrap_or((cost, "0"));
            let fraction = format!("{fraction:0<2}");
            units.parse::<i64>().unwrap() * 100 + fraction[..2].parse::<i64>().unwrap()
        })
        .sum()
}

fn gzip(text: &str) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(text.as_bytes()).unwrap();
    encoder.finish().unwrap()
}

fn manifest(run_id: &str, submitted: &str, month: &str, blobs: &[(&str, usize)]) -> String {
    serde_json::json!({
        "manifestVersion": "2024-04-01",
        "byteCount": blobs.iter().map(|b| b.1).sum::<usize>(),
        "blobCount": blobs.len(),
        "dataRowCount": 3,
        "exportConfig": {
            "exportName": "costscope-actual",
            "resourceId": "/subscriptions/11111111-2222-3333-4444-555555555555/providers/Microsoft.CostManagement/exports/costscope-actual",
            "dataVersion": "2023-12-01-preview",
            "apiVersion": "2023-07-01-preview",
            "type": "ActualCost",
            "timeFrame": "MonthToDate",
            "granularity": "Daily"
        },
        "deliveryConfig": {
            "partitionData": true,
            "dataOverwriteBehavior": "CreateNewReport",
            "fileFormat": "Csv",
            "compressionMode": "gzip",
            "containerUri": "/subscriptions/11111111-2222-3333-4444-555555555555/resourceGroups/rg/providers/Microsoft.Storage/storageAccounts/devstoreaccount1",
            "rootFolderPath": "billing"
        },
        "runInfo": {
            "executionType": "Scheduled",
            "submittedTime": submitted,
            "runId": run_id,
            "startDate": format!("{month}-01T00:00:00"),
            "endDate": format!("{month}-28T00:00:00Z")
        },
        "blobs": blobs.iter().map(|(name, bytes)| serde_json::json!({
            "blobName": name, "byteCount": bytes, "dataRowCount": 1
        })).collect::<Vec<_>>()
    })
    .to_string()
}

/// Uploads one export run the way Cost Management writes it:
/// `<dir>/<range>/<run time>/<run id>/{part_0_0001.csv.gz, part_0_0002.csv, manifest.json}`.
/// Returns the rows' cents.
async fn upload_run(
    azurite: &Azurite,
    range: &str,
    month: &str,
    run_time: &str,
    run_id: &str,
    submitted: &str,
    rows: &[(u32, &str, &str)],
) -> i64 {
    let folder = format!("{DIRECTORY}/{range}/{run_time}/{run_id}");
    let (first, second) = rows.split_at(rows.len() / 2);
    let part1 = gzip(&cost_csv(month, first));
    let part2 = cost_csv(month, second).into_bytes();
    let name1 = format!("{folder}/part_0_0001.csv.gz");
    let name2 = format!("{folder}/part_0_0002.csv");
    azurite.upload(CONTAINER, &name1, part1.clone()).await;
    azurite.upload(CONTAINER, &name2, part2.clone()).await;
    let manifest = manifest(
        run_id,
        submitted,
        month,
        &[(&name1, part1.len()), (&name2, part2.len())],
    );
    azurite
        .upload(CONTAINER, &format!("{folder}/manifest.json"), manifest)
        .await;
    cents(rows)
}

fn settings(azurite: &Azurite, container: &str, directory: &str) -> AzureExportSettings {
    AzureExportSettings {
        storage_account: DEV_ACCOUNT.into(),
        container: container.into(),
        directory: directory.into(),
        auth: AzureStorageAuth::Sas,
        blob_endpoint: Some(azurite.blob_endpoint()),
    }
}

fn sas_source(azurite: &Azurite, sas: &str) -> AzureExportSource {
    AzureExportSource::new(
        settings(azurite, CONTAINER, DIRECTORY),
        sas.to_owned(),
        DEFAULT_AUTHORITY_URL,
    )
    .unwrap()
}

fn signature(sas: &str) -> String {
    sas.split('&')
        .find_map(|p| p.strip_prefix("sig="))
        .unwrap()
        .to_owned()
}

fn assert_no_secret(text: &str, sas: &str) {
    let sig = signature(sas);
    let decoded = percent_encoding::percent_decode_str(&sig)
        .decode_utf8_lossy()
        .into_owned();
    assert!(!text.contains(&sig), "the SAS signature leaked: {text}");
    assert!(!text.contains(&decoded), "the SAS signature leaked: {text}");
    assert!(!text.contains("sig="), "a SAS leaked: {text}");
}

/// Stages every fetched file with the ingest readers: each is Azure cost details; answers the
/// total billed cost in cents.
fn staged_cents(paths: &[&Path]) -> i64 {
    let mut total = 0;
    for path in paths {
        let conn = duckdb::Connection::open_in_memory().unwrap();
        let staged = costscope_ingest::stage(
            &conn,
            path,
            &path.file_name().unwrap().to_string_lossy(),
            None,
            "staged",
        )
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(staged.format, costscope_ingest::Format::AzureCostDetails);
        let cents: i64 = conn
            .query_row(
                "SELECT CAST(round(sum(billed_cost) * 100) AS BIGINT) FROM staged",
                [],
                |row| row.get(0),
            )
            .unwrap();
        total += cents;
    }
    total
}

const OCTOBER: &[(u32, &str, &str)] = &[
    (1, "Virtual Machines", "12.34"),
    (2, "Storage", "0.05"),
    (3, "Virtual Machines", "100.10"),
    (4, "Bandwidth", "7.77"),
];
const NOVEMBER: &[(u32, &str, &str)] = &[
    (1, "Virtual Machines", "3.21"),
    (2, "Azure Database for PostgreSQL", "45.00"),
];

#[tokio::test]
async fn a_manifest_export_of_two_months_is_listed_fetched_and_loads_to_the_cent() {
    let azurite = Azurite::start().await;
    azurite.create_container(CONTAINER).await;
    let october = upload_run(
        &azurite,
        "20261001-20261031",
        "2026-10",
        "202611010612",
        "0c1d7a52-octo-0001",
        "2026-11-01T06:12:44.1234567Z",
        OCTOBER,
    )
    .await;
    upload_run(
        &azurite,
        "20261101-20261130",
        "2026-11",
        "202611220611",
        "9f3e2b10-nove-0001",
        "2026-11-22T06:11:02.7654321Z",
        NOVEMBER,
    )
    .await;
    // Not part of the export: ignored.
    azurite
        .upload(CONTAINER, &format!("{DIRECTORY}/README.txt"), "hello")
        .await;

    let sas = azurite.sas_token("rl");
    let source = sas_source(&azurite, &sas);
    let checked = source.check().await.unwrap();
    assert_eq!(
        checked,
        format!(
            "Found 2 billing months under {}/{CONTAINER}/{DIRECTORY}",
            azurite.blob_endpoint()
        )
    );

    let periods = source.periods().await.unwrap();
    assert_eq!(periods.len(), 2);
    assert_eq!(
        periods[0].billing_period,
        NaiveDate::from_ymd_opt(2026, 10, 1).unwrap()
    );
    assert_eq!(
        periods[1].billing_period,
        NaiveDate::from_ymd_opt(2026, 11, 1).unwrap()
    );
    assert!(
        periods[0]
            .fingerprint
            .starts_with("run 0c1d7a52-octo-0001 manifest etag "),
        "{}",
        periods[0].fingerprint
    );
    assert_eq!(
        periods[0].location,
        format!(
            "{}/{CONTAINER}/{DIRECTORY}/20261001-20261031/202611010612/0c1d7a52-octo-0001/manifest.json",
            azurite.blob_endpoint()
        )
    );
    assert_eq!(periods[0].objects.len(), 2);
    assert!(periods[0].objects.iter().all(|o| o.bytes.is_some()));

    let dir = tempfile::tempdir().unwrap();
    let files = source
        .fetch(&periods[0], dir.path(), NO_LIMIT)
        .await
        .unwrap();
    assert_eq!(files.len(), 2);
    assert_eq!(
        files[0].name,
        format!("{DIRECTORY}/20261001-20261031/202611010612/0c1d7a52-octo-0001/part_0_0001.csv.gz")
    );
    assert!(files[0].path.to_string_lossy().ends_with(".csv.gz"));
    assert!(files[1].path.to_string_lossy().ends_with(".csv"));
    for file in &files {
        assert!(file.path.starts_with(dir.path()));
        assert_eq!(std::fs::metadata(&file.path).unwrap().len(), file.bytes);
    }
    let paths: Vec<&Path> = files.iter().map(|f| f.path.as_path()).collect();
    assert_eq!(staged_cents(&paths), october);
    assert_eq!(october, 12_026);
}

#[tokio::test]
async fn a_rerun_of_a_month_changes_its_fingerprint_and_an_unchanged_month_keeps_it() {
    let azurite = Azurite::start().await;
    azurite.create_container(CONTAINER).await;
    upload_run(
        &azurite,
        "20261001-20261031",
        "2026-10",
        "202611010612",
        "run-october-1",
        "2026-11-01T06:12:44.1000000Z",
        OCTOBER,
    )
    .await;
    upload_run(
        &azurite,
        "20261101-20261130",
        "2026-11",
        "202611220611",
        "run-november-1",
        "2026-11-22T06:11:02.0000000Z",
        NOVEMBER,
    )
    .await;
    let sas = azurite.sas_token("rl");
    let source = sas_source(&azurite, &sas);
    let before = source.periods().await.unwrap();
    let again = source.periods().await.unwrap();
    assert_eq!(before, again, "nothing changed, nothing differs");

    // October is exported again (a new run folder, as Cost Management's daily runs write),
    // possibly within the same second as the first: the manifest's submittedTime decides.
    let rerun: &[(u32, &str, &str)] = &[
        (1, "Virtual Machines", "12.34"),
        (2, "Storage", "0.05"),
        (3, "Virtual Machines", "100.10"),
        (4, "Bandwidth", "7.77"),
        (5, "Bandwidth", "0.99"),
        (6, "Storage", "1.01"),
    ];
    let rerun_cents = upload_run(
        &azurite,
        "20261001-20261031",
        "2026-10",
        "202611020612",
        "run-october-2",
        "2026-11-02T06:12:44.9000000Z",
        rerun,
    )
    .await;
    let after = source.periods().await.unwrap();
    assert_eq!(after.len(), 2);
    assert_ne!(after[0].fingerprint, before[0].fingerprint);
    assert!(
        after[0].fingerprint.starts_with("run run-october-2 "),
        "{}",
        after[0].fingerprint
    );
    assert!(after[0]
        .objects
        .iter()
        .all(|o| o.key.contains("run-october-2")));
    assert_eq!(after[1], before[1], "November did not change");

    let dir = tempfile::tempdir().unwrap();
    let files = source.fetch(&after[0], dir.path(), NO_LIMIT).await.unwrap();
    let paths: Vec<&Path> = files.iter().map(|f| f.path.as_path()).collect();
    assert_eq!(staged_cents(&paths), rerun_cents);

    // The same run's manifest rewritten (same run id, new ETag) is a change too.
    let manifest_name =
        format!("{DIRECTORY}/20261101-20261130/202611220611/run-november-1/manifest.json");
    let november_before = after[1].fingerprint.clone();
    let text = manifest(
        "run-november-1",
        "2026-11-22T06:11:02.0000000Z",
        "2026-11",
        &[
            (
                &format!(
                    "{DIRECTORY}/20261101-20261130/202611220611/run-november-1/part_0_0001.csv.gz"
                ),
                1,
            ),
            (
                &format!(
                    "{DIRECTORY}/20261101-20261130/202611220611/run-november-1/part_0_0002.csv"
                ),
                1,
            ),
        ],
    );
    azurite.upload(CONTAINER, &manifest_name, text).await;
    let last = source.periods().await.unwrap();
    assert!(last[1]
        .fingerprint
        .starts_with("run run-november-1 manifest etag "));
    assert_ne!(last[1].fingerprint, november_before);
}

#[tokio::test]
async fn without_a_manifest_the_newest_file_of_each_month_is_read() {
    let azurite = Azurite::start().await;
    azurite.create_container(CONTAINER).await;
    let dir = "legacy/costscope-usage";
    let older: &[(u32, &str, &str)] = &[(1, "Storage", "1.00")];
    let newer: &[(u32, &str, &str)] = &[(1, "Storage", "1.00"), (2, "Storage", "2.50")];
    azurite
        .upload(
            CONTAINER,
            &format!("{dir}/20261001-20261031/costscope-usage_0a1b2c3d.csv"),
            cost_csv("2026-10", older),
        )
        .await;
    // Last-Modified has whole seconds: the next delivery comes a second later.
    tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
    azurite
        .upload(
            CONTAINER,
            &format!("{dir}/20261001-20261031/costscope-usage_ffee0011.csv"),
            cost_csv("2026-10", newer),
        )
        .await;
    // Run folders without a manifest: the newest folder wins, all its files.
    azurite
        .upload(
            CONTAINER,
            &format!("{dir}/20260901-20260930/202610010500/run-a/part1.csv"),
            cost_csv("2026-09", older),
        )
        .await;
    tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
    azurite
        .upload(
            CONTAINER,
            &format!("{dir}/20260901-20260930/202610020500/run-b/part1.csv"),
            cost_csv("2026-09", newer),
        )
        .await;
    azurite
        .upload(
            CONTAINER,
            &format!("{dir}/20260901-20260930/202610020500/run-b/part2.csv"),
            cost_csv("2026-09", older),
        )
        .await;

    let sas = azurite.sas_token("rl");
    let source = AzureExportSource::new(
        settings(&azurite, CONTAINER, dir),
        format!("?{sas}"),
        DEFAULT_AUTHORITY_URL,
    )
    .unwrap();
    let periods = source.periods().await.unwrap();
    assert_eq!(periods.len(), 2);
    let (september, october) = (&periods[0], &periods[1]);
    assert_eq!(
        september.billing_period,
        NaiveDate::from_ymd_opt(2026, 9, 1).unwrap()
    );
    assert_eq!(
        september
            .objects
            .iter()
            .map(|o| o.key.as_str())
            .collect::<Vec<_>>(),
        [
            format!("{dir}/20260901-20260930/202610020500/run-b/part1.csv"),
            format!("{dir}/20260901-20260930/202610020500/run-b/part2.csv"),
        ]
    );
    assert!(september
        .fingerprint
        .starts_with(&format!("{dir}/20260901-20260930/202610020500/run-b/part")));
    assert!(september.fingerprint.ends_with(" files 2"));
    assert_eq!(october.objects.len(), 1);
    assert_eq!(
        october.objects[0].key,
        format!("{dir}/20261001-20261031/costscope-usage_ffee0011.csv")
    );
    assert!(october.fingerprint.starts_with(&format!(
        "{dir}/20261001-20261031/costscope-usage_ffee0011.csv etag "
    )));

    let target = tempfile::tempdir().unwrap();
    let files = source
        .fetch(october, target.path(), NO_LIMIT)
        .await
        .unwrap();
    let paths: Vec<&Path> = files.iter().map(|f| f.path.as_path()).collect();
    assert_eq!(staged_cents(&paths), cents(newer));
    let target = tempfile::tempdir().unwrap();
    let files = source
        .fetch(september, target.path(), NO_LIMIT)
        .await
        .unwrap();
    let paths: Vec<&Path> = files.iter().map(|f| f.path.as_path()).collect();
    assert_eq!(staged_cents(&paths), cents(newer) + cents(older));
}

#[tokio::test]
async fn an_empty_directory_has_no_billing_months() {
    let azurite = Azurite::start().await;
    azurite.create_container(CONTAINER).await;
    azurite
        .upload(
            CONTAINER,
            "somewhere-else/20261001-20261031/x.csv",
            "a,b\n1,2\n",
        )
        .await;
    let sas = azurite.sas_token("rl");
    let source = sas_source(&azurite, &sas);
    assert!(source.periods().await.unwrap().is_empty());
    assert_eq!(
        source.check().await.unwrap(),
        format!(
            "Found 0 billing months under {}/{CONTAINER}/{DIRECTORY}",
            azurite.blob_endpoint()
        )
    );
}

#[tokio::test]
async fn a_missing_container_is_named() {
    let azurite = Azurite::start().await;
    let sas = azurite.sas_token("rl");
    let source = AzureExportSource::new(
        settings(&azurite, "costexports", DIRECTORY),
        sas.clone(),
        DEFAULT_AUTHORITY_URL,
    )
    .unwrap();
    let error = source.check().await.unwrap_err();
    assert_eq!(
        error.message,
        "ContainerNotFound: container costexports does not exist in storage account devstoreaccount1"
    );
    assert!(!error.retryable);
    assert_no_secret(&error.message, &sas);
}

#[tokio::test]
async fn a_wrong_or_too_narrow_sas_token_is_refused_in_words_without_the_token() {
    let azurite = Azurite::start().await;
    azurite.create_container(CONTAINER).await;
    upload_run(
        &azurite,
        "20261001-20261031",
        "2026-10",
        "202611010612",
        "run-1",
        "2026-11-01T06:12:44Z",
        OCTOBER,
    )
    .await;

    // Signed with another key.
    let forged = account_sas(
        DEV_ACCOUNT,
        "c29tZSBvdGhlciBrZXkgdGhhdCBpcyBub3QgdGhlIGFjY291bnQncw==",
        "rl",
        Utc::now() + chrono::Duration::days(1),
    );
    let error = sas_source(&azurite, &forged).check().await.unwrap_err();
    // Azure says AuthenticationFailed, Azurite AuthorizationFailure: the words are the same.
    assert!(
        (error.message.starts_with("AuthenticationFailed: ")
            || error.message.starts_with("AuthorizationFailure: "))
            && error.message.contains(
                ": the SAS token was refused by storage account devstoreaccount1: check that it was made for this account"
            ),
        "{}",
        error.message
    );
    assert_no_secret(&error.message, &forged);
    assert_no_secret(&format!("{error:?}"), &forged);

    // Expired.
    let expired = account_sas(
        DEV_ACCOUNT,
        costscope_connectors::testing::azurite::DEV_ACCOUNT_KEY,
        "rl",
        Utc::now() - chrono::Duration::hours(1),
    );
    let error = sas_source(&azurite, &expired).check().await.unwrap_err();
    assert!(
        error.message.contains("the SAS token was refused")
            && error.message.contains("has not expired"),
        "{}",
        error.message
    );
    assert!(!error.retryable);
    assert_no_secret(&error.message, &expired);

    // Read but not list.
    let read_only = azurite.sas_token("r");
    let error = sas_source(&azurite, &read_only).check().await.unwrap_err();
    assert!(
        error
            .message
            .contains("the SAS token does not allow reading the export in container exports")
            && error.message.contains("sp=rl"),
        "{}",
        error.message
    );
    assert_no_secret(&error.message, &read_only);
}

#[tokio::test]
async fn the_listing_is_followed_across_pages() {
    let azurite = Azurite::start().await;
    azurite.create_container(CONTAINER).await;
    // Nine blobs over three months; two blobs a page makes five pages.
    for (range, month, run) in [
        ("20260801-20260831", "2026-08", "run-aug"),
        ("20260901-20260930", "2026-09", "run-sep"),
        ("20261001-20261031", "2026-10", "run-oct"),
    ] {
        upload_run(
            &azurite,
            range,
            month,
            "202611010000",
            run,
            "2026-11-01T00:00:00Z",
            OCTOBER,
        )
        .await;
    }
    let sas = azurite.sas_token("rl");
    let whole = sas_source(&azurite, &sas).periods().await.unwrap();
    let paged = sas_source(&azurite, &sas)
        .with_page_size(2)
        .periods()
        .await
        .unwrap();
    assert_eq!(whole.len(), 3);
    assert_eq!(paged, whole);
    let months: Vec<String> = paged
        .iter()
        .map(|p| p.billing_period.format("%Y-%m").to_string())
        .collect();
    assert_eq!(months, ["2026-08", "2026-09", "2026-10"]);
    let single = sas_source(&azurite, &sas)
        .with_page_size(1)
        .periods()
        .await
        .unwrap();
    assert_eq!(single, whole);
}

#[tokio::test]
async fn fetch_limits_are_enforced_and_leave_nothing_behind() {
    let azurite = Azurite::start().await;
    azurite.create_container(CONTAINER).await;
    upload_run(
        &azurite,
        "20261001-20261031",
        "2026-10",
        "202611010612",
        "run-1",
        "2026-11-01T06:12:44Z",
        OCTOBER,
    )
    .await;
    let sas = azurite.sas_token("rl");
    let source = sas_source(&azurite, &sas);
    let periods = source.periods().await.unwrap();
    let total: u64 = periods[0].objects.iter().map(|o| o.bytes.unwrap()).sum();

    // Known sizes past the limit: refused before downloading.
    let dir = tempfile::tempdir().unwrap();
    let error = source
        .fetch(
            &periods[0],
            dir.path(),
            FetchLimits {
                max_bytes: total - 1,
            },
        )
        .await
        .unwrap_err();
    assert!(
        error
            .message
            .starts_with("The export's delivery for 2026-10 (")
            && error.message.contains("is larger than the limit of"),
        "{}",
        error.message
    );
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);

    // Sizes not known beforehand: stopped as soon as the bytes go past the limit, and the
    // first file (already written) is removed too.
    let unknown = ExportPeriod {
        objects: periods[0]
            .objects
            .iter()
            .map(|o| ExportObject {
                key: o.key.clone(),
                bytes: None,
            })
            .collect(),
        ..periods[0].clone()
    };
    let first = periods[0].objects[0].bytes.unwrap();
    let error = source
        .fetch(
            &unknown,
            dir.path(),
            FetchLimits {
                max_bytes: first + 1,
            },
        )
        .await
        .unwrap_err();
    assert!(
        error.message.contains("is larger than the limit of"),
        "{}",
        error.message
    );
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);

    // Exactly the limit is fine.
    let files = source
        .fetch(&periods[0], dir.path(), FetchLimits { max_bytes: total })
        .await
        .unwrap();
    assert_eq!(files.iter().map(|f| f.bytes).sum::<u64>(), total);
}

#[tokio::test]
async fn a_blob_the_manifest_lists_but_the_container_lacks_is_named_without_the_sas() {
    let azurite = Azurite::start().await;
    azurite.create_container(CONTAINER).await;
    upload_run(
        &azurite,
        "20261001-20261031",
        "2026-10",
        "202611010612",
        "run-1",
        "2026-11-01T06:12:44Z",
        OCTOBER,
    )
    .await;
    let missing = format!("{DIRECTORY}/20261001-20261031/202611010612/run-1/part_0_0002.csv");
    azurite.delete_blob(CONTAINER, &missing).await;
    let sas = azurite.sas_token("rl");
    let source = sas_source(&azurite, &sas);
    let periods = source.periods().await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let error = source
        .fetch(&periods[0], dir.path(), NO_LIMIT)
        .await
        .unwrap_err();
    assert_eq!(
        error.message,
        format!("BlobNotFound: blob {missing} (listed by the export run) does not exist in container exports")
    );
    assert_no_secret(&error.message, &sas);
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[tokio::test]
async fn an_unreachable_endpoint_is_retryable_and_names_no_secret() {
    // A port nothing listens on.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let sas = "sv=2018-11-09&ss=b&srt=sco&sp=rl&se=2027-01-01T00%3A00%3A00Z&sig=c2VjcmV0LXNpZ25hdHVyZQ%3D%3D";
    let source = AzureExportSource::new(
        AzureExportSettings {
            storage_account: DEV_ACCOUNT.into(),
            container: CONTAINER.into(),
            directory: DIRECTORY.into(),
            auth: AzureStorageAuth::Sas,
            blob_endpoint: Some(format!("http://127.0.0.1:{port}/{DEV_ACCOUNT}")),
        },
        sas.into(),
        DEFAULT_AUTHORITY_URL,
    )
    .unwrap();
    let error = source.check().await.unwrap_err();
    assert!(error.retryable);
    assert!(
        error
            .message
            .starts_with(&format!("Storage account devstoreaccount1 could not be reached at http://127.0.0.1:{port}/devstoreaccount1")),
        "{}",
        error.message
    );
    assert_no_secret(&error.message, sas);
}

const TENANT: &str = "72f988bf-86f1-41af-91ab-2d7cd011db47";
const CLIENT: &str = "0a5c3d21-7e4f-4b4b-9d55-1c2f3a4b5c6d";
const CLIENT_SECRET: &str = "Xy7Q~client.secret-value_0123456789abcdef";

fn sp_settings(azurite: &Azurite) -> AzureExportSettings {
    AzureExportSettings {
        storage_account: DEV_ACCOUNT.into(),
        container: CONTAINER.into(),
        directory: DIRECTORY.into(),
        auth: AzureStorageAuth::ServicePrincipal {
            tenant_id: TENANT.into(),
            client_id: CLIENT.into(),
        },
        blob_endpoint: Some(azurite.blob_endpoint()),
    }
}

/// The service-principal path end to end: a client-credentials token from the identity
/// platform stand-in, then Azurite over HTTPS (`--oauth basic`, which accepts bearer tokens
/// only over HTTPS) lists and serves the export with `Authorization: Bearer`.
#[tokio::test]
async fn a_service_principal_reads_the_export_with_a_bearer_token_over_https() {
    let azurite = Azurite::start_https_oauth().await;
    assert!(azurite.blob_endpoint().starts_with("https://"));
    azurite.create_container(CONTAINER).await;
    let october = upload_run(
        &azurite,
        "20261001-20261031",
        "2026-10",
        "202611010612",
        "run-1",
        "2026-11-01T06:12:44Z",
        OCTOBER,
    )
    .await;
    let identity = IdentityPlatform::start(TENANT, CLIENT, CLIENT_SECRET).await;
    let source = AzureExportSource::new(
        sp_settings(&azurite),
        CLIENT_SECRET.into(),
        &identity.authority_url(),
    )
    .unwrap()
    .with_http_client(azurite.http_client());
    assert_eq!(
        source.check().await.unwrap(),
        format!(
            "Found 1 billing month under {}/{CONTAINER}/{DIRECTORY}",
            azurite.blob_endpoint()
        )
    );
    let periods = source.periods().await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let files = source
        .fetch(&periods[0], dir.path(), NO_LIMIT)
        .await
        .unwrap();
    let paths: Vec<&Path> = files.iter().map(|f| f.path.as_path()).collect();
    assert_eq!(staged_cents(&paths), october);

    // One token for all of it, asked for as the identity platform documents.
    let requests = identity.requests();
    assert_eq!(requests.len(), 1, "{requests:?}");
    assert_eq!(requests[0].path, format!("/{TENANT}/oauth2/v2.0/token"));
    assert_eq!(requests[0].form["grant_type"], "client_credentials");
    assert_eq!(requests[0].form["client_id"], CLIENT);
    assert_eq!(requests[0].form["client_secret"], CLIENT_SECRET);
    assert_eq!(
        requests[0].form["scope"],
        "https://storage.azure.com/.default"
    );

    // Without a token Azurite refuses: the bearer token is what let the reads through.
    let anonymous = azurite
        .http_client()
        .get(format!(
            "{}/{CONTAINER}?restype=container&comp=list",
            azurite.blob_endpoint()
        ))
        .send()
        .await
        .unwrap();
    assert!(!anonymous.status().is_success());
}

#[tokio::test]
async fn a_refused_service_principal_is_named_with_the_identity_platforms_reason_not_its_secret() {
    let azurite = Azurite::start_https_oauth().await;
    azurite.create_container(CONTAINER).await;
    let identity = IdentityPlatform::start(TENANT, CLIENT, CLIENT_SECRET).await;

    let wrong_secret = "Wr0ng~secret.value_that_must_not_leak";
    let source = AzureExportSource::new(
        sp_settings(&azurite),
        wrong_secret.into(),
        &identity.authority_url(),
    )
    .unwrap()
    .with_http_client(azurite.http_client());
    let error = source.check().await.unwrap_err();
    assert!(
        error.message.starts_with(&format!(
            "The identity platform at {}/{TENANT} refused service principal {CLIENT} of tenant {TENANT}: invalid_client: AADSTS7000215: Invalid client secret provided.",
            identity.authority_url()
        )),
        "{}",
        error.message
    );
    assert!(!error.message.contains("Trace ID"), "{}", error.message);
    assert!(!error.message.contains(wrong_secret));
    assert!(!format!("{source:?}").contains(wrong_secret));

    let mut other_tenant = sp_settings(&azurite);
    other_tenant.auth = AzureStorageAuth::ServicePrincipal {
        tenant_id: "contoso.onmicrosoft.com".into(),
        client_id: CLIENT.into(),
    };
    let error = AzureExportSource::new(
        other_tenant,
        CLIENT_SECRET.into(),
        &identity.authority_url(),
    )
    .unwrap()
    .with_http_client(azurite.http_client())
    .check()
    .await
    .unwrap_err();
    assert!(
        error
            .message
            .contains("invalid_request: AADSTS90002: Tenant 'contoso.onmicrosoft.com' not found"),
        "{}",
        error.message
    );
    assert!(!error.message.contains(CLIENT_SECRET));

    // A token for the right principal but a container that is not there.
    let mut missing = sp_settings(&azurite);
    missing.container = "nosuchcontainer".into();
    let error = AzureExportSource::new(missing, CLIENT_SECRET.into(), &identity.authority_url())
        .unwrap()
        .with_http_client(azurite.http_client())
        .check()
        .await
        .unwrap_err();
    assert_eq!(
        error.message,
        "ContainerNotFound: container nosuchcontainer does not exist in storage account devstoreaccount1"
    );
}
