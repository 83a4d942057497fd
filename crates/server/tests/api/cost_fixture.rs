//! Cost data for the cost API tests: small FOCUS 1.2 CSV files written by a builder, loaded
//! through the real upload path, so that every expected number is known by construction.
//!
//! The standard data set (January 2026 unless noted; billed / effective / list):
//!
//! | # | provider | account (name)            | day        | service          | region       | charge  | usage type                 | billed | eff | list | tags                 |
//! |---|----------|---------------------------|------------|------------------|--------------|---------|----------------------------|--------|-----|------|----------------------|
//! | 1 | AWS      | 111111111111 (Production) | 2026-01-02 | AmazonCloudWatch | us-east-1    | Usage   | CW:Requests                |      4 |   4 |    4 | env=prod             |
//! | 2 | AWS      | 111111111111              | 2026-01-05 | AmazonEC2        | us-east-1    | Usage   | BoxUsage:m5.large          |    100 |  90 |  120 | env=prod, team=web   |
//! | 3 | AWS      | 111111111111              | 2026-01-06 | AmazonS3         | us-east-1    | Usage   | TimedStorage-ByteHrs       |     20 |  20 |   25 | env=prod             |
//! | 4 | GCP      | my-gcp-project (My Proj.) | 2026-01-07 | Compute Engine   | europe-west1 | Usage   | N1 Predefined Instance Core |    64 |  64 |   64 | env=prod, team=ml    |
//! | 5 | AWS      | 222222222222 (Staging)    | 2026-01-12 | AmazonEC2        | eu-west-1    | Usage   | BoxUsage:t3.micro          |     40 |  30 |   50 | env=dev, team=data   |
//! | 6 | AWS      | 111111111111              | 2026-01-20 | AmazonEC2        | (none)       | Tax     | (none)                     |      8 |   8 |    8 |                      |
//! | 7 | AWS      | 222222222222              | 2026-01-25 | AmazonEC2        | eu-west-1    | Credit  | (none)                     |    -10 | -10 |    0 |                      |
//! | 8 | Azure    | sub-aaaa (Azure Sub)      | 2026-01-31 | Virtual Machines | westeurope   | Usage   | D2 v3                      |     16 |  16 |   16 | team=web             |
//! | 9 | AWS      | 111111111111              | 2025-12-15 | AmazonEC2        | us-east-1    | Usage   | BoxUsage:m5.large          |     50 |  50 |   60 | env=prod             |
//! |10 | AWS      | 111111111111              | 2026-02-02 | AmazonEC2        | us-east-1    | Usage   | BoxUsage:m5.large          |   1000 |1000 | 1000 | env=prod             |
//!
//! January billed total 242 (effective 222, list 287); December 50; February 1000.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::helpers::{spawn_app, status_and_json, TestApp};

/// The standard range: January 2026.
pub const JANUARY: (&str, &str) = ("2026-01-01", "2026-01-31");
pub const JANUARY_BILLED: f64 = 242.0;

/// One FOCUS line item, charged over one day.
#[derive(Debug, Clone)]
pub struct Line {
    /// FOCUS ProviderName: `AWS`, `Google Cloud`, `Microsoft`.
    pub provider: &'static str,
    pub billing_account: &'static str,
    pub account_id: &'static str,
    pub account_name: &'static str,
    /// `YYYY-MM-DD`: the charge period is that whole day (UTC).
    pub day: &'static str,
    pub service: &'static str,
    pub region: &'static str,
    /// FOCUS ChargeCategory: `Usage`, `Tax`, `Credit`, `Purchase`, `Adjustment`.
    pub charge_category: &'static str,
    pub usage_type: &'static str,
    pub billed: f64,
    pub effective: f64,
    pub list: f64,
    /// A JSON object.
    pub tags: &'static str,
    /// FOCUS ResourceId, ResourceName, ResourceType (`""`: none).
    pub resource_id: &'static str,
    pub resource_name: &'static str,
    pub resource_type: &'static str,
}

impl Line {
    pub fn aws(account_id: &'static str, day: &'static str, billed: f64) -> Self {
        Self {
            provider: "AWS",
            billing_account: "900000000000",
            account_id,
            account_name: "",
            day,
            service: "AmazonEC2",
            region: "us-east-1",
            charge_category: "Usage",
            usage_type: "",
            billed,
            effective: billed,
            list: billed,
            tags: "{}",
            resource_id: "",
            resource_name: "",
            resource_type: "",
        }
    }
}

/// Writes FOCUS 1.2 CSV files.
#[derive(Debug, Default, Clone)]
pub struct FocusCsv {
    lines: Vec<Line>,
}

const HEADER: [&str; 24] = [
    "BilledCost",
    "BillingAccountId",
    "BillingAccountName",
    "BillingCurrency",
    "BillingPeriodEnd",
    "BillingPeriodStart",
    "ChargeCategory",
    "ChargeClass",
    "ChargeFrequency",
    "ChargePeriodEnd",
    "ChargePeriodStart",
    "ContractedCost",
    "EffectiveCost",
    "InvoiceIssuerName",
    "ListCost",
    "ProviderName",
    "PublisherName",
    "RegionId",
    "RegionName",
    "ServiceCategory",
    "ServiceName",
    "SkuMeter",
    "SubAccountId",
    "SubAccountName",
];

/// A quoted CSV field.
fn quoted(value: &str) -> String {
    format!("\"{}\"", value.replace('"', "\"\""))
}

/// The first day of the month after `day` (`YYYY-MM-DD`).
fn next_month(day: &str) -> String {
    let (year, month): (i32, u32) = (day[..4].parse().unwrap(), day[5..7].parse().unwrap());
    if month == 12 {
        format!("{}-01-01", year + 1)
    } else {
        format!("{year}-{:02}-01", month + 1)
    }
}

/// The day after `day`.
fn next_day(day: &str) -> String {
    let date = chrono::NaiveDate::parse_from_str(day, "%Y-%m-%d").unwrap();
    (date + chrono::Days::new(1)).to_string()
}

impl FocusCsv {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn line(mut self, line: Line) -> Self {
        self.lines.push(line);
        self
    }

    pub fn to_csv(&self) -> String {
        let mut csv = HEADER.join(",");
        csv.push_str(",ResourceId,ResourceName,ResourceType,Tags\n");
        for line in &self.lines {
            let month_start = format!("{}-01", &line.day[..7]);
            let fields = [
                line.billed.to_string(),
                line.billing_account.to_owned(),
                format!("{} billing", line.provider),
                "USD".to_owned(),
                format!("{}T00:00:00Z", next_month(line.day)),
                format!("{month_start}T00:00:00Z"),
                line.charge_category.to_owned(),
                String::new(),
                "Usage-Based".to_owned(),
                format!("{}T00:00:00Z", next_day(line.day)),
                format!("{}T00:00:00Z", line.day),
                line.effective.to_string(),
                line.effective.to_string(),
                line.provider.to_owned(),
                line.list.to_string(),
                line.provider.to_owned(),
                line.provider.to_owned(),
                line.region.to_owned(),
                line.region.to_owned(),
                "Compute".to_owned(),
                line.service.to_owned(),
                line.usage_type.to_owned(),
                line.account_id.to_owned(),
                line.account_name.to_owned(),
                line.resource_id.to_owned(),
                line.resource_name.to_owned(),
                line.resource_type.to_owned(),
                line.tags.to_owned(),
            ];
            let row: Vec<String> = fields.iter().map(|field| quoted(field)).collect();
            csv.push_str(&row.join(","));
            csv.push('\n');
        }
        csv
    }
}

#[allow(clippy::too_many_arguments)]
fn line(
    provider: &'static str,
    (account_id, account_name): (&'static str, &'static str),
    day: &'static str,
    service: &'static str,
    region: &'static str,
    charge_category: &'static str,
    usage_type: &'static str,
    (billed, effective, list): (f64, f64, f64),
    tags: &'static str,
) -> Line {
    let billing_account = match provider {
        "AWS" => "900000000000",
        "Google Cloud" => "01AAAA-BBBBBB-CCCCCC",
        _ => "azure-billing-1",
    };
    Line {
        provider,
        billing_account,
        account_id,
        account_name,
        day,
        service,
        region,
        charge_category,
        usage_type,
        billed,
        effective,
        list,
        tags,
        resource_id: "",
        resource_name: "",
        resource_type: "",
    }
}

/// The data set of the module documentation.
pub fn standard_data() -> FocusCsv {
    let production = ("111111111111", "Production");
    let staging = ("222222222222", "Staging");
    FocusCsv::new()
        .line(line(
            "AWS",
            production,
            "2026-01-02",
            "AmazonCloudWatch",
            "us-east-1",
            "Usage",
            "CW:Requests",
            (4.0, 4.0, 4.0),
            r#"{"env":"prod"}"#,
        ))
        .line(line(
            "AWS",
            production,
            "2026-01-05",
            "AmazonEC2",
            "us-east-1",
            "Usage",
            "BoxUsage:m5.large",
            (100.0, 90.0, 120.0),
            r#"{"env":"prod","team":"web"}"#,
        ))
        .line(line(
            "AWS",
            production,
            "2026-01-06",
            "AmazonS3",
            "us-east-1",
            "Usage",
            "TimedStorage-ByteHrs",
            (20.0, 20.0, 25.0),
            r#"{"env":"prod"}"#,
        ))
        .line(line(
            "Google Cloud",
            ("my-gcp-project", "My Project"),
            "2026-01-07",
            "Compute Engine",
            "europe-west1",
            "Usage",
            "N1 Predefined Instance Core",
            (64.0, 64.0, 64.0),
            r#"{"env":"prod","team":"ml"}"#,
        ))
        .line(line(
            "AWS",
            staging,
            "2026-01-12",
            "AmazonEC2",
            "eu-west-1",
            "Usage",
            "BoxUsage:t3.micro",
            (40.0, 30.0, 50.0),
            r#"{"env":"dev","team":"data"}"#,
        ))
        .line(line(
            "AWS",
            production,
            "2026-01-20",
            "AmazonEC2",
            "",
            "Tax",
            "",
            (8.0, 8.0, 8.0),
            "{}",
        ))
        .line(line(
            "AWS",
            staging,
            "2026-01-25",
            "AmazonEC2",
            "eu-west-1",
            "Credit",
            "",
            (-10.0, -10.0, 0.0),
            "{}",
        ))
        .line(line(
            "Microsoft",
            ("sub-aaaa", "Azure Sub"),
            "2026-01-31",
            "Virtual Machines",
            "westeurope",
            "Usage",
            "D2 v3",
            (16.0, 16.0, 16.0),
            r#"{"team":"web"}"#,
        ))
        .line(line(
            "AWS",
            production,
            "2025-12-15",
            "AmazonEC2",
            "us-east-1",
            "Usage",
            "BoxUsage:m5.large",
            (50.0, 50.0, 60.0),
            r#"{"env":"prod"}"#,
        ))
        .line(line(
            "AWS",
            production,
            "2026-02-02",
            "AmazonEC2",
            "us-east-1",
            "Usage",
            "BoxUsage:m5.large",
            (1000.0, 1000.0, 1000.0),
            r#"{"env":"prod"}"#,
        ))
}

/// Uploads `data` for the customer of `token` and checks that the load succeeded.
pub async fn upload(app: &TestApp, token: &str, data: &FocusCsv) {
    let job = app
        .ingest_files(token, &[("focus.csv", data.to_csv().into_bytes())])
        .await;
    assert_eq!(job["status"], "succeeded", "job: {job}");
}

/// A fresh app with one customer holding the standard data set; answers the owner's token.
pub async fn app_with_standard_data() -> (TestApp, String) {
    let app = spawn_app().await;
    let owner = app.signup_owner("Alice Owner", "alice@a.test").await;
    upload(&app, &owner.access_token, &standard_data()).await;
    (app, owner.access_token)
}

/// POSTs `body` to `path` and answers the JSON of a 200.
pub async fn post_ok(app: &TestApp, token: &str, path: &str, body: Value) -> Value {
    let (status, answer) = status_and_json(app.post(path, Some(token), &body).await).await;
    assert_eq!(status, StatusCode::OK, "{path} {body}: {answer}");
    answer
}

/// `/v2/cost/aggr` over January with `extra` merged into the body.
pub async fn aggr(app: &TestApp, token: &str, extra: Value) -> Value {
    let mut body = json!({"start_time": JANUARY.0, "end_time": JANUARY.1});
    merge(&mut body, extra);
    post_ok(app, token, "/v2/cost/aggr", body).await
}

/// January's billed total for `filters`.
pub async fn total(app: &TestApp, token: &str, filters: Value) -> f64 {
    let answer = aggr(app, token, json!({ "filters": filters })).await;
    answer["summary"]["accrued_cost"].as_f64().unwrap()
}

pub fn merge(body: &mut Value, extra: Value) {
    if let (Some(body), Value::Object(extra)) = (body.as_object_mut(), extra) {
        body.extend(extra);
    }
}

/// `(key, amount)` of answer rows, where key is the row's `grouping_path`.
pub fn amounts(answer: &Value) -> Vec<(String, f64)> {
    answer["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| {
            (
                row["grouping_path"].as_str().unwrap().to_owned(),
                row["amount"].as_f64().unwrap(),
            )
        })
        .collect()
}

/// `(timestamp, key, amount)` of answer rows.
pub fn bucket_amounts(answer: &Value) -> Vec<(String, String, f64)> {
    answer["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| {
            (
                row["timestamp"].as_str().unwrap().to_owned(),
                row["grouping_path"].as_str().unwrap().to_owned(),
                row["amount"].as_f64().unwrap(),
            )
        })
        .collect()
}

/// Pairs for comparison with [`amounts`].
pub fn pairs(expected: &[(&str, f64)]) -> Vec<(String, f64)> {
    expected
        .iter()
        .map(|(key, amount)| ((*key).to_owned(), *amount))
        .collect()
}
