//! `GET /v1/export/focus` (docs/FOCUS-EXPORT.md): the export holds every column of its FOCUS
//! version, reads back through our own reader to the cent, passes the FinOps Foundation's
//! validator, and holds only the caller's rows.
//!
//! The validator is PyPI `focus-validator` in the virtualenv `scripts/ensure-focus-validator.sh`
//! makes (`make ensure`); `COSTSCOPE_FOCUS_VALIDATOR_VENV` points elsewhere. Without it the
//! validator tests fail, saying how to install it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use costscope_core::focus::{FOCUS_1_2, FOCUS_1_3};
use reqwest::StatusCode;
use serde_json::json;

use crate::cli_ingest::{costscope, create_customer, stderr};
use crate::cost_fixture::{post_ok, standard_data, upload, FocusCsv, Line};
use crate::helpers::{assert_invalid, spawn_app, TestApp};

/// Every day of the standard data set (December 2025 to February 2026).
const ALL_DAYS: (&str, &str) = ("2025-12-01", "2026-02-28");

async fn export(app: &TestApp, token: &str, query: &str) -> reqwest::Response {
    app.get(&format!("/v1/export/focus?{query}"), Some(token))
        .await
}

/// The export's bytes, checking the 200 and its headers.
async fn export_ok(app: &TestApp, token: &str, format: &str, version: &str) -> Vec<u8> {
    let query = format!(
        "start={}&end={}&format={format}&version={version}",
        ALL_DAYS.0, ALL_DAYS.1
    );
    let response = export(app, token, &query).await;
    assert_eq!(response.status(), StatusCode::OK, "{query}");
    let header = |name: &str| {
        response
            .headers()
            .get(name)
            .and_then(|value| value.to_str().ok())
            .unwrap_or_default()
            .to_owned()
    };
    assert_eq!(
        header("content-disposition"),
        format!(
            "attachment; filename=\"focus-{version}-{}-{}.{format}\"",
            ALL_DAYS.0, ALL_DAYS.1
        )
    );
    let content_type = if format == "csv" {
        "text/csv; charset=utf-8"
    } else {
        "application/vnd.apache.parquet"
    };
    assert_eq!(header("content-type"), content_type);
    response.bytes().await.expect("the export's body").to_vec()
}

/// Billed, effective and list cost per day and provider (`/v2/cost/aggr`),
/// rounded to the cent.
async fn totals_per_day_and_provider(
    app: &TestApp,
    token: &str,
) -> BTreeMap<(String, String, String), i64> {
    let mut totals = BTreeMap::new();
    for metric in ["billed", "effective", "list"] {
        let answer = post_ok(
            app,
            token,
            "/v2/cost/aggr",
            json!({
                "start_time": ALL_DAYS.0, "end_time": ALL_DAYS.1,
                "group_by": "cloud_provider", "interval": "daily", "metric": metric,
            }),
        )
        .await;
        for row in answer["data"].as_array().expect("rows") {
            let cents = (row["amount"].as_f64().expect("amount") * 100.0).round() as i64;
            let key = (
                metric.to_owned(),
                row["timestamp"].as_str().expect("day").to_owned(),
                row["grouping_path"].as_str().expect("provider").to_owned(),
            );
            *totals.entry(key).or_insert(0) += cents;
        }
    }
    totals.retain(|_, cents| *cents != 0);
    totals
}

#[tokio::test]
async fn export_round_trips_through_our_reader_to_the_cent_in_csv_and_parquet() {
    let app = spawn_app().await;
    let alice = app.signup_owner("Alice Owner", "alice@a.test").await;
    upload(&app, &alice.access_token, &standard_data()).await;
    let expected = totals_per_day_and_provider(&app, &alice.access_token).await;
    // The fixture's own figures (cost_fixture's table): January billed 242 in all.
    let january_billed: i64 = expected
        .iter()
        .filter(|((metric, day, _), _)| metric == "billed" && day.starts_with("2026-01"))
        .map(|(_, cents)| cents)
        .sum();
    assert_eq!(january_billed, 24_200, "{expected:?}");

    for (format, version) in [
        ("csv", "1.2"),
        ("parquet", "1.2"),
        ("csv", "1.3"),
        ("parquet", "1.3"),
    ] {
        let bytes = export_ok(&app, &alice.access_token, format, version).await;
        let email = format!("bob-{format}-{}@b.test", version.replace('.', "-"));
        let bob = app.signup_owner("Bob Owner", &email).await;
        let job = app
            .ingest_files(&bob.access_token, &[(&format!("export.{format}"), bytes)])
            .await;
        assert_eq!(job["status"], "succeeded", "{format} {version}: {job}");
        assert_eq!(job["rows"], 10, "{format} {version}: {job}");
        let read_back = totals_per_day_and_provider(&app, &bob.access_token).await;
        assert_eq!(read_back, expected, "{format} {version}");
    }
}

#[tokio::test]
async fn csv_export_has_every_column_of_its_version_in_order_with_focus_formats() {
    let app = spawn_app().await;
    let alice = app.signup_owner("Alice Owner", "alice@a.test").await;
    upload(&app, &alice.access_token, &standard_data()).await;

    for (version, columns) in [("1.2", FOCUS_1_2), ("1.3", FOCUS_1_3)] {
        let csv = String::from_utf8(export_ok(&app, &alice.access_token, "csv", version).await)
            .expect("UTF-8");
        let mut lines = csv.lines();
        let header: Vec<&str> = lines.next().expect("a header").split(',').collect();
        let focus: Vec<&str> = columns.iter().map(|column| column.name).collect();
        assert_eq!(&header[..focus.len()], &focus[..], "FOCUS {version}");
        assert!(header[focus.len()..]
            .iter()
            .all(|name| name.starts_with("x_")));
        let rows: Vec<BTreeMap<&str, &str>> = lines
            .map(|line| header.iter().copied().zip(split_csv_line(line)).collect())
            .collect();
        assert_eq!(rows.len(), 10);

        // The February EC2 line (cost_fixture row 10), oldest first so it is the last row.
        let last = rows.last().unwrap();
        assert_eq!(last["ChargePeriodStart"], "2026-02-02T00:00:00Z");
        assert_eq!(last["ChargePeriodEnd"], "2026-02-03T00:00:00Z");
        assert_eq!(last["BillingPeriodStart"], "2026-02-01T00:00:00Z");
        assert_eq!(last["BillingPeriodEnd"], "2026-03-01T00:00:00Z");
        assert_eq!(last["BilledCost"], "1000.0000000000");
        assert_eq!(last["ProviderName"], "Amazon Web Services");
        // Stored from the loaded file (cost_fixture writes the provider's short name there).
        assert_eq!(last["InvoiceIssuerName"], "AWS");
        assert_eq!(last["ChargeCategory"], "Usage");
        assert_eq!(last["ChargeClass"], "");
        assert_eq!(last["ChargeFrequency"], "Usage-Based");
        assert_eq!(last["ServiceCategory"], "Compute");
        assert_eq!(last["ServiceSubcategory"], "Other (Compute)");
        assert_eq!(last["Tags"], r#"{""env"":""prod""}"#);
        assert_eq!(last["x_UsageType"], "BoxUsage:m5.large");
        if version == "1.3" {
            assert_eq!(last["ServiceProviderName"], "Amazon Web Services");
            // Stored at load (the fixture names no host: the loader keeps the provider's name).
            assert_eq!(last["HostProviderName"], "AWS");
        }
        for row in &rows {
            for column in columns.iter().filter(|column| column.mandatory) {
                let nullable = [
                    "ChargeClass",
                    "BillingAccountName",
                    "ChargeDescription",
                    "PricingQuantity",
                    "PricingUnit",
                ];
                assert!(
                    nullable.contains(&column.name) || !row[column.name].is_empty(),
                    "{} is empty in {row:?}",
                    column.name
                );
            }
            for column in columns {
                assert!(!row[column.name].contains('e') || !looks_numeric(row[column.name]));
            }
        }
        let providers: Vec<&str> = rows.iter().map(|row| row["ProviderName"]).collect();
        assert!(providers.contains(&"Google Cloud") && providers.contains(&"Microsoft"));
        let credit = rows
            .iter()
            .find(|row| row["ChargeCategory"] == "Credit")
            .unwrap();
        assert_eq!(credit["ContractedCost"], credit["BilledCost"]);
        // As the loaded file says (cost_fixture writes Usage-Based on every line).
        assert_eq!(credit["ChargeFrequency"], "Usage-Based");
    }
}

/// `value` parses as a number (so an `e` in it would be exponent notation).
fn looks_numeric(value: &str) -> bool {
    value.parse::<f64>().is_ok()
}

/// The fields of one CSV line (RFC 4180 quoting; no line breaks inside fields here).
fn split_csv_line(line: &str) -> Vec<&str> {
    let mut fields = Vec::new();
    let (mut start, mut quoted) = (0, false);
    for (at, c) in line.char_indices() {
        match c {
            '"' => quoted = !quoted,
            ',' if !quoted => {
                fields.push(unquote(&line[start..at]));
                start = at + 1;
            }
            _ => {}
        }
    }
    fields.push(unquote(&line[start..]));
    fields
}

fn unquote(field: &str) -> &str {
    field
        .strip_prefix('"')
        .and_then(|rest| rest.strip_suffix('"'))
        .unwrap_or(field)
}

#[tokio::test]
async fn another_customers_export_holds_none_of_my_rows() {
    let app = spawn_app().await;
    let alice = app.signup_owner("Alice Owner", "alice@a.test").await;
    upload(&app, &alice.access_token, &standard_data()).await;
    let mallory = app.signup_owner("Mallory Owner", "mallory@m.test").await;
    // A provider with no connector, exported under the name its data gives.
    let oracle = Line {
        provider: "Oracle",
        ..Line::aws("333333333333", "2026-01-10", 7.0)
    };
    let theirs = FocusCsv::new().line(oracle);
    upload(&app, &mallory.access_token, &theirs).await;

    let csv = String::from_utf8(export_ok(&app, &mallory.access_token, "csv", "1.2").await)
        .expect("UTF-8");
    let rows: Vec<&str> = csv.lines().skip(1).collect();
    assert_eq!(rows.len(), 1, "{csv}");
    assert!(rows[0].contains("333333333333"));
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let fields = split_csv_line(rows[0]);
    let column = |name: &str| fields[header.iter().position(|h| *h == name).unwrap()];
    assert_eq!(column("ProviderName"), "Oracle");
    assert_eq!(column("PublisherName"), "Oracle");
    for alices in ["111111111111", "222222222222", "my-gcp-project", "sub-aaaa"] {
        assert!(!csv.contains(alices), "{alices} leaked: {csv}");
    }
}

#[tokio::test]
async fn custom_x_columns_of_the_loaded_file_are_written_back() {
    let app = spawn_app().await;
    let alice = app.signup_owner("Alice Owner", "alice@a.test").await;
    let mut with_team = String::new();
    for (index, line) in standard_data().to_csv().lines().enumerate() {
        let team = if index == 0 {
            "x_Team"
        } else if index % 2 == 0 {
            "\"web, ops\""
        } else {
            ""
        };
        with_team.push_str(&format!("{line},{team}\n"));
    }
    let job = app
        .ingest_files(&alice.access_token, &[("team.csv", with_team.into_bytes())])
        .await;
    assert_eq!(job["status"], "succeeded", "{job}");

    let csv = String::from_utf8(export_ok(&app, &alice.access_token, "csv", "1.2").await).unwrap();
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(
        &header[header.len() - 3..],
        ["x_UsageType", "x_CostType", "x_Team"]
    );
    let teams: Vec<String> = lines
        .map(|line| split_csv_line(line).last().unwrap().to_string())
        .collect();
    assert_eq!(
        teams.iter().filter(|team| *team == "web, ops").count(),
        5,
        "{csv}"
    );
    assert_eq!(
        teams.iter().filter(|team| team.is_empty()).count(),
        5,
        "{csv}"
    );
}

#[tokio::test]
async fn every_role_may_export_and_a_signed_out_caller_may_not() {
    let app = spawn_app().await;
    let alice = app.signup_owner("Alice Owner", "alice@a.test").await;
    upload(&app, &alice.access_token, &standard_data()).await;
    let member = app
        .add_member(&alice.access_token, "Uma User", "uma@a.test", "User")
        .await;
    let csv = export_ok(&app, &member.access_token, "csv", "1.2").await;
    assert_eq!(String::from_utf8(csv).unwrap().lines().count(), 11);
    let response = app
        .client
        .get(app.url("/v1/export/focus?start=2026-01-01&end=2026-01-31"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn bad_requests_name_the_field() {
    let app = spawn_app().await;
    let alice = app.signup_owner("Alice Owner", "alice@a.test").await;
    let token = &alice.access_token;
    for (query, field, message) in [
        ("end=2026-01-31", "start", "start is required"),
        ("start=2026-01-01", "end", "end is required"),
        (
            "start=01/01/2026&end=2026-01-31",
            "start",
            "start must be a date (YYYY-MM-DD)",
        ),
        (
            "start=2026-01-01&end=2026-13-01",
            "end",
            "end must be a date (YYYY-MM-DD)",
        ),
        (
            "start=2026-02-01&end=2026-01-31",
            "end",
            "end must not be before start",
        ),
        (
            "start=2025-01-01&end=2026-01-02",
            "end",
            "An export covers at most 366 days",
        ),
        (
            "start=2026-01-01&end=2026-01-31&format=xlsx",
            "format",
            "format must be csv or parquet",
        ),
        (
            "start=2026-01-01&end=2026-01-31&version=1.1",
            "version",
            "version must be 1.2 or 1.3",
        ),
    ] {
        assert_invalid(export(&app, token, query).await, field, message).await;
    }
    // Nothing was left behind in the export folder.
    let left = std::fs::read_dir(app.data_dir.path().join("exports"))
        .map(|dir| dir.count())
        .unwrap_or(0);
    assert_eq!(left, 0);
}

#[test]
fn the_cli_writes_the_export_to_the_output_file() {
    let data_dir = tempfile::tempdir().unwrap();
    create_customer(data_dir.path());
    let input = data_dir.path().join("standard.csv");
    std::fs::write(&input, standard_data().to_csv()).unwrap();
    let loaded = costscope(
        data_dir.path(),
        &["ingest", input.to_str().unwrap(), "--customer", "1"],
    );
    assert!(loaded.status.success(), "{}", stderr(&loaded));

    let output = data_dir.path().join("january.csv");
    let args = |start: &str, end: &str| {
        vec![
            "export".to_owned(),
            "focus".to_owned(),
            "--customer".to_owned(),
            "1".to_owned(),
            "--start".to_owned(),
            start.to_owned(),
            "--end".to_owned(),
            end.to_owned(),
            "--version".to_owned(),
            "1.3".to_owned(),
            "--output".to_owned(),
            output.to_str().unwrap().to_owned(),
        ]
    };
    let run = |args: Vec<String>| {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        costscope(data_dir.path(), &args)
    };
    let exported = run(args("2026-01-01", "2026-01-31"));
    assert!(exported.status.success(), "{}", stderr(&exported));
    assert_eq!(
        String::from_utf8_lossy(&exported.stdout).trim(),
        format!(
            "Wrote 8 line items as FOCUS 1.3 (csv) to {}",
            output.display()
        )
    );
    let csv = std::fs::read_to_string(&output).unwrap();
    assert!(csv.starts_with("AllocatedMethodDetails,AllocatedMethodId,"));
    assert_eq!(csv.lines().count(), 9);
    let billed: f64 = {
        let mut lines = csv.lines();
        let header: Vec<&str> = lines.next().unwrap().split(',').collect();
        let at = header
            .iter()
            .position(|name| *name == "BilledCost")
            .unwrap();
        lines
            .map(|line| split_csv_line(line)[at].parse::<f64>().unwrap())
            .sum()
    };
    assert!((billed - 242.0).abs() < 0.005, "{billed}");
    assert!(!data_dir.path().join("january.csv.partial").exists());

    let refused = run(args("2026-02-01", "2026-01-31"));
    assert!(!refused.status.success());
    assert!(
        stderr(&refused).contains("--end: end must not be before start"),
        "{}",
        stderr(&refused)
    );
}

// ------------------------------------------------------------------ the FinOps Foundation's validator

/// focus-validator 1.0.0's FOCUS 1.0 rules name four columns as no FOCUS version does
/// (`InvoiceIssuer`, `Provider`, `Publisher`, `ResourceID` for the specification's
/// InvoiceIssuerName, ProviderName, PublisherName, ResourceId), so a conforming file fails their
/// "column required" checks. Each is checked twice: the file as exported must have the
/// specification's column, and a copy with these four headers spelled as the validator spells
/// them must pass every one of the validator's checks on their values.
const VALIDATOR_SPELLINGS: [(&str, &str); 4] = [
    ("InvoiceIssuerName", "InvoiceIssuer"),
    ("ProviderName", "Provider"),
    ("PublisherName", "Publisher"),
    ("ResourceId", "ResourceID"),
];

struct Validator {
    python: PathBuf,
    program: PathBuf,
    /// focus-validator reads its currency list from `focus_validator/utils/currency_codes.csv`
    /// relative to the working directory: it runs from its site-packages folder.
    site_packages: PathBuf,
}

impl Validator {
    /// The installed validator; panics (fails the test) when it is missing.
    fn installed() -> Self {
        let venv = std::env::var_os("COSTSCOPE_FOCUS_VALIDATOR_VENV")
            .map(PathBuf::from)
            .unwrap_or_else(|| {
                PathBuf::from(std::env::var_os("HOME").expect("HOME")).join(".cache/costscope-venv")
            });
        let program = venv.join("bin/focus-validator");
        let python = venv.join("bin/python");
        assert!(
            program.is_file() && python.is_file(),
            "the FOCUS validator is not installed at {}: run scripts/ensure-focus-validator.sh \
             (or `make ensure`)",
            program.display()
        );
        let output = Command::new(&python)
            .args([
                "-c",
                "import focus_validator, os; print(os.path.dirname(os.path.dirname(focus_validator.__file__)))",
            ])
            .output()
            .expect("run the validator's python");
        assert!(output.status.success(), "{output:?}");
        let site_packages = PathBuf::from(String::from_utf8(output.stdout).unwrap().trim());
        Self {
            python,
            program,
            site_packages,
        }
    }

    /// Runs the validator's FOCUS 1.0 rules (the newest it has) on `file`: the failed checks as
    /// `(check, column)`, and the validator's console report for messages.
    fn failed_checks(&self, file: &Path) -> (Vec<(String, String)>, String) {
        let report = file.with_extension("xml");
        let run = |args: &[&std::ffi::OsStr]| {
            let output = Command::new(&self.program)
                .current_dir(&self.site_packages)
                .arg("--data-file")
                .arg(file)
                .args(["--validate-version", "1.0"])
                .args(args)
                .output()
                .expect("run focus-validator");
            let text = format!(
                "{}{}",
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&output.stderr)
            );
            assert!(output.status.success(), "focus-validator failed: {text}");
            text
        };
        // The console report says why a check failed; the unittest report lists every check.
        let console = run(&[]);
        run(&[
            "--output-type".as_ref(),
            "unittest".as_ref(),
            "--output-destination".as_ref(),
            report.as_os_str(),
        ]);
        let xml = std::fs::read_to_string(&report).expect("the validator's report");
        assert!(
            xml.contains("tests=\"133\"") && xml.contains("errors=\"0\""),
            "unexpected report: {xml}"
        );
        let mut failed = Vec::new();
        for suite in xml.split("<testsuite ").skip(1) {
            if suite.contains("<failure") || suite.contains("<error") {
                let name = suite.split('"').nth(1).unwrap_or_default();
                let (check, column) = name.rsplit_once('-').unwrap_or((name, ""));
                failed.push((check.to_owned(), column.to_owned()));
            }
        }
        (failed, format!("{console}\n{xml}"))
    }

    /// A copy of a Parquet export with the four columns of [`VALIDATOR_SPELLINGS`] renamed.
    fn respelled_parquet(&self, file: &Path, target: &Path) {
        let renames: Vec<String> = VALIDATOR_SPELLINGS
            .iter()
            .map(|(ours, theirs)| format!("'{ours}': '{theirs}'"))
            .collect();
        let script = format!(
            "import sys, pyarrow.parquet as pq\nt = pq.read_table(sys.argv[1])\nr = {{{}}}\n\
             pq.write_table(t.rename_columns([r.get(n, n) for n in t.column_names]), sys.argv[2])",
            renames.join(", ")
        );
        let status = Command::new(&self.python)
            .arg("-c")
            .arg(script)
            .arg(file)
            .arg(target)
            .status()
            .expect("run python");
        assert!(status.success());
    }
}

fn respelled_csv(csv: &str) -> String {
    let (header, rest) = csv.split_once('\n').expect("a header line");
    let header: Vec<&str> = header
        .split(',')
        .map(|name| {
            VALIDATOR_SPELLINGS
                .iter()
                .find(|(ours, _)| *ours == name)
                .map_or(name, |(_, theirs)| *theirs)
        })
        .collect();
    format!("{}\n{rest}", header.join(","))
}

fn misspelled_required_checks() -> Vec<(String, String)> {
    VALIDATOR_SPELLINGS
        .iter()
        .map(|(_, theirs)| (format!("{theirs}_Required"), (*theirs).to_owned()))
        .collect()
}

/// focus-validator 1.0.0's `SkuPriceId_Nullable` queries `ChargeType`, the FOCUS 0.5 column that
/// 1.0 renamed ChargeCategory, so it stops with `KeyError("ChargeType")` on every 1.0-or-later
/// file. (SkuPriceId is a conditional column, not a mandatory one.) Takes that failure out of
/// `failed` after checking that the report shows exactly this cause.
fn without_charge_type_defect(
    mut failed: Vec<(String, String)>,
    report: &str,
) -> Vec<(String, String)> {
    let check = ("SkuPriceId_Nullable".to_owned(), "SkuPriceId".to_owned());
    if let Some(at) = failed.iter().position(|failure| *failure == check) {
        let cause = report
            .split("SkuPriceId_Nullable failed:")
            .nth(1)
            .and_then(|rest| rest.split("Example values:").nth(1))
            .and_then(|rest| rest.lines().next())
            .unwrap_or_default();
        assert_eq!(cause.trim(), "KeyError(\"ChargeType\")", "{report}");
        failed.remove(at);
    }
    failed
}

#[tokio::test]
async fn the_finops_foundations_validator_passes_the_parquet_export_of_both_versions() {
    let validator = Validator::installed();
    let app = spawn_app().await;
    let alice = app.signup_owner("Alice Owner", "alice@a.test").await;
    upload(&app, &alice.access_token, &standard_data()).await;
    let dir = tempfile::tempdir().unwrap();

    for version in ["1.2", "1.3"] {
        let file = dir.path().join(format!("focus-{version}.parquet"));
        std::fs::write(
            &file,
            export_ok(&app, &alice.access_token, "parquet", version).await,
        )
        .unwrap();
        let (failed, report) = validator.failed_checks(&file);
        let failed = without_charge_type_defect(failed, &report);
        assert_eq!(
            failed,
            misspelled_required_checks(),
            "FOCUS {version}: {report}"
        );

        let respelled = dir.path().join(format!("respelled-{version}.parquet"));
        validator.respelled_parquet(&file, &respelled);
        let (failed, report) = validator.failed_checks(&respelled);
        let failed = without_charge_type_defect(failed, &report);
        assert!(failed.is_empty(), "FOCUS {version}: {failed:?}\n{report}");
    }
}

#[tokio::test]
async fn the_finops_foundations_validator_passes_the_csv_export_of_both_versions() {
    let validator = Validator::installed();
    let app = spawn_app().await;
    let alice = app.signup_owner("Alice Owner", "alice@a.test").await;
    upload(&app, &alice.access_token, &standard_data()).await;
    let dir = tempfile::tempdir().unwrap();

    for version in ["1.2", "1.3"] {
        let csv =
            String::from_utf8(export_ok(&app, &alice.access_token, "csv", version).await).unwrap();
        let file = dir.path().join(format!("focus-{version}.csv"));
        std::fs::write(&file, &csv).unwrap();
        let (failed, report) = validator.failed_checks(&file);
        let failed = without_charge_type_defect(failed, &report);
        assert_eq!(
            failed,
            misspelled_required_checks(),
            "FOCUS {version}: {report}"
        );

        let respelled = dir.path().join(format!("respelled-{version}.csv"));
        std::fs::write(&respelled, respelled_csv(&csv)).unwrap();
        let (failed, report) = validator.failed_checks(&respelled);
        let failed = without_charge_type_defect(failed, &report);
        assert!(failed.is_empty(), "FOCUS {version}: {failed:?}\n{report}");
    }
}
