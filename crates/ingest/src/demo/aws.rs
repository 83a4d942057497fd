//! The AWS part of the demo: a CUR 2.0 (Data Exports) CSV of a payer with three accounts.

use std::collections::BTreeMap;
use std::io::{self, Write};

use chrono::{Datelike, NaiveDate};

use super::rng::{name_key, Rng};
use super::{amount, csv, day_key, growth, json_object, next_month, weekday_factor, DemoDays};

const PAYER_ID: &str = "999999999999";
const PAYER_NAME: &str = "Acme Corp Management";
const SAVINGS_PLAN_ARN: &str =
    "arn:aws:savingsplans::999999999999:savingsplan/3f1e2d4c-5b6a-4789-8a0b-1c2d3e4f5a6b";
/// Hourly commitment of the Compute Savings Plan covering Production's c5.xlarge fleet.
const SAVINGS_PLAN_COMMITMENT_PER_HOUR: f64 = 0.75;
const SAVINGS_PLAN_RATE: f64 = 0.119;

const COLUMNS: &[&str] = &[
    "bill_bill_type",
    "bill_billing_entity",
    "bill_billing_period_end_date",
    "bill_billing_period_start_date",
    "bill_invoice_id",
    "bill_invoicing_entity",
    "bill_payer_account_id",
    "bill_payer_account_name",
    "cost_category",
    "discount",
    "identity_line_item_id",
    "identity_time_interval",
    "line_item_availability_zone",
    "line_item_blended_cost",
    "line_item_blended_rate",
    "line_item_currency_code",
    "line_item_legal_entity",
    "line_item_line_item_description",
    "line_item_line_item_type",
    "line_item_net_unblended_cost",
    "line_item_operation",
    "line_item_product_code",
    "line_item_resource_id",
    "line_item_tax_type",
    "line_item_unblended_cost",
    "line_item_unblended_rate",
    "line_item_usage_account_id",
    "line_item_usage_account_name",
    "line_item_usage_amount",
    "line_item_usage_end_date",
    "line_item_usage_start_date",
    "line_item_usage_type",
    "pricing_currency",
    "pricing_public_on_demand_cost",
    "pricing_public_on_demand_rate",
    "pricing_term",
    "pricing_unit",
    "product",
    "product_instance_type",
    "product_location",
    "product_product_family",
    "product_region_code",
    "product_servicecode",
    "product_usagetype",
    "reservation_effective_cost",
    "resource_tags",
    "savings_plan_savings_plan_a_r_n",
    "savings_plan_savings_plan_effective_cost",
    "savings_plan_savings_plan_rate",
    "savings_plan_total_commitment_to_date",
    "savings_plan_used_commitment",
];

struct Account {
    id: &'static str,
    name: &'static str,
    env: &'static str,
    regions: &'static [&'static str],
    /// Size relative to Production.
    scale: f64,
}

const ACCOUNTS: &[Account] = &[
    Account {
        id: "111111111111",
        name: "Production",
        env: "prod",
        regions: &["us-east-1", "eu-west-1"],
        scale: 1.0,
    },
    Account {
        id: "222222222222",
        name: "Staging",
        env: "staging",
        regions: &["us-east-1"],
        scale: 0.35,
    },
    Account {
        id: "333333333333",
        name: "Data Platform",
        env: "prod",
        regions: &["us-west-2", "us-east-1"],
        scale: 0.7,
    },
];

#[derive(Clone, Copy)]
enum Quantity {
    /// Hours a day per resource; weekend share of the fleet.
    Hours { weekend: f64 },
    /// GB stored, billed per GB-month (prorated per day).
    StorageGb(f64),
    /// A daily amount (requests, GB transferred, GB-seconds…), lower at weekends.
    Daily { amount: f64, weekend: f64 },
}

struct Item {
    product: &'static str,
    /// Usage type without the region prefix.
    usage: &'static str,
    operation: &'static str,
    family: &'static str,
    unit: &'static str,
    rate: f64,
    quantity: Quantity,
    /// Resources per region at Production's scale (0: not a per-resource charge).
    resources: u32,
    resource_prefix: &'static str,
    instance_type: &'static str,
    team: &'static str,
    app: &'static str,
    global: bool,
}

#[allow(clippy::too_many_arguments)]
const fn item(
    product: &'static str,
    usage: &'static str,
    operation: &'static str,
    family: &'static str,
    unit: &'static str,
    rate: f64,
    quantity: Quantity,
    resources: u32,
    resource_prefix: &'static str,
    team: &'static str,
    app: &'static str,
) -> Item {
    Item {
        product,
        usage,
        operation,
        family,
        unit,
        rate,
        quantity,
        resources,
        resource_prefix,
        instance_type: "",
        team,
        app,
        global: false,
    }
}

const fn hours(weekend: f64) -> Quantity {
    Quantity::Hours { weekend }
}

const fn daily(amount: f64, weekend: f64) -> Quantity {
    Quantity::Daily { amount, weekend }
}

fn catalog() -> Vec<Item> {
    vec![
        Item {
            instance_type: "m5.large",
            ..item(
                "AmazonEC2",
                "BoxUsage:m5.large",
                "RunInstances",
                "Compute Instance",
                "Hrs",
                0.096,
                hours(0.6),
                4,
                "i-",
                "web",
                "checkout",
            )
        },
        Item {
            instance_type: "c5.xlarge",
            ..item(
                "AmazonEC2",
                "BoxUsage:c5.xlarge",
                "RunInstances",
                "Compute Instance",
                "Hrs",
                0.17,
                hours(1.0),
                3,
                "i-",
                "platform",
                "api",
            )
        },
        item(
            "AmazonEC2",
            "EBS:VolumeUsage.gp3",
            "CreateVolume-Gp3",
            "Storage",
            "GB-Mo",
            0.08,
            Quantity::StorageGb(500.0),
            4,
            "vol-",
            "platform",
            "api",
        ),
        Item {
            instance_type: "db.r5.large",
            ..item(
                "AmazonRDS",
                "InstanceUsage:db.r5.large",
                "CreateDBInstance:0002",
                "Database Instance",
                "Hrs",
                0.25,
                hours(1.0),
                2,
                "db:",
                "data",
                "orders",
            )
        },
        item(
            "AmazonRDS",
            "RDS:GP2-Storage",
            "CreateDBInstance:0002",
            "Database Storage",
            "GB-Mo",
            0.115,
            Quantity::StorageGb(800.0),
            1,
            "db:",
            "data",
            "orders",
        ),
        item(
            "AmazonS3",
            "TimedStorage-ByteHrs",
            "StandardStorage",
            "Storage",
            "GB-Mo",
            0.023,
            Quantity::StorageGb(12_000.0),
            2,
            "bucket:",
            "data",
            "analytics",
        ),
        item(
            "AmazonS3",
            "Requests-Tier1",
            "PutObject",
            "API Request",
            "Requests",
            0.000005,
            daily(900_000.0, 0.5),
            1,
            "bucket:",
            "data",
            "analytics",
        ),
        item(
            "AWSLambda",
            "Lambda-GB-Second",
            "Invoke",
            "Serverless",
            "Lambda-GB-Second",
            0.0000166667,
            daily(2_400_000.0, 0.4),
            2,
            "function:",
            "web",
            "search",
        ),
        item(
            "AWSLambda",
            "Request",
            "Invoke",
            "Serverless",
            "Requests",
            0.0000002,
            daily(5_000_000.0, 0.4),
            0,
            "",
            "web",
            "search",
        ),
        Item {
            global: true,
            ..item(
                "AmazonCloudFront",
                "US-DataTransfer-Out-Bytes",
                "GET",
                "Data Transfer",
                "GB",
                0.085,
                daily(1_500.0, 0.7),
                1,
                "distribution/E",
                "web",
                "checkout",
            )
        },
        item(
            "AmazonDynamoDB",
            "TimedStorage-ByteHrs",
            "StandardStorage",
            "Database Storage",
            "GB-Mo",
            0.25,
            Quantity::StorageGb(300.0),
            1,
            "table/",
            "web",
            "sessions",
        ),
        item(
            "AmazonDynamoDB",
            "ReadCapacityUnit-Hrs",
            "CommittedThroughput",
            "Provisioned IOPS",
            "ReadCapacityUnit-Hrs",
            0.00013,
            daily(48_000.0, 0.8),
            1,
            "table/",
            "web",
            "sessions",
        ),
        item(
            "AmazonEKS",
            "AmazonEKS-Hours:perCluster",
            "CreateOperation",
            "Compute",
            "Hours",
            0.10,
            hours(1.0),
            1,
            "cluster/",
            "platform",
            "kubernetes",
        ),
        item(
            "AmazonVPC",
            "NatGateway-Hours",
            "NatGateway",
            "NAT Gateway",
            "Hrs",
            0.045,
            hours(1.0),
            2,
            "natgateway/nat-",
            "platform",
            "network",
        ),
        item(
            "AmazonVPC",
            "NatGateway-Bytes",
            "NatGateway",
            "NAT Gateway",
            "GB",
            0.045,
            daily(700.0, 0.6),
            0,
            "",
            "platform",
            "network",
        ),
        item(
            "AWSDataTransfer",
            "DataTransfer-Out-Bytes",
            "RunInstances",
            "Data Transfer",
            "GB",
            0.09,
            daily(900.0, 0.6),
            0,
            "",
            "web",
            "checkout",
        ),
        item(
            "AWSDataTransfer",
            "DataTransfer-Regional-Bytes",
            "InterZone-In",
            "Data Transfer",
            "GB",
            0.01,
            daily(2_000.0, 0.7),
            0,
            "",
            "platform",
            "api",
        ),
        item(
            "AmazonCloudWatch",
            "CW:MetricMonitorUsage",
            "MetricStorage",
            "Metric",
            "Metrics",
            0.01,
            daily(1_200.0, 1.0),
            0,
            "",
            "platform",
            "observability",
        ),
        item(
            "AmazonCloudWatch",
            "CW:Requests",
            "GetMetricData",
            "API Request",
            "Requests",
            0.00001,
            daily(400_000.0, 0.9),
            0,
            "",
            "platform",
            "observability",
        ),
    ]
}

fn region_prefix(region: &str) -> &'static str {
    match region {
        "eu-west-1" => "EU-",
        "us-west-2" => "USW2-",
        _ => "",
    }
}

fn location(region: &str) -> &'static str {
    match region {
        "eu-west-1" => "EU (Ireland)",
        "us-west-2" => "US West (Oregon)",
        "us-east-1" => "US East (N. Virginia)",
        _ => "",
    }
}

/// One CUR line, before it is written.
#[derive(Default)]
struct Line {
    account: usize,
    start: String,
    end: String,
    line_type: &'static str,
    product: String,
    usage_type: String,
    operation: String,
    resource_id: String,
    description: String,
    usage_amount: f64,
    rate: f64,
    cost: f64,
    public_cost: f64,
    public_rate: f64,
    unit: &'static str,
    family: &'static str,
    instance_type: &'static str,
    region: &'static str,
    zone: String,
    tags: String,
    tax_type: &'static str,
    savings_plan_effective_cost: Option<f64>,
    savings_plan_rate: Option<f64>,
    savings_plan_commitment: Option<(f64, f64)>,
}

struct Writer<'a> {
    out: &'a mut dyn Write,
    month: NaiveDate,
    invoice: String,
    period_end: String,
    rng: Rng,
}

fn timestamp(day: NaiveDate) -> String {
    format!("{}T00:00:00Z", day.format("%Y-%m-%d"))
}

impl Writer<'_> {
    fn write(&mut self, line: &Line) -> io::Result<()> {
        let account = &ACCOUNTS[line.account];
        let (sp_arn, sp_effective, sp_rate) = match line.savings_plan_effective_cost {
            Some(cost) => (
                SAVINGS_PLAN_ARN,
                amount(cost, 8),
                amount(line.savings_plan_rate.unwrap_or(0.0), 6),
            ),
            None => ("", String::new(), String::new()),
        };
        let (commitment, used) = match line.savings_plan_commitment {
            Some((total, used)) => (amount(total, 8), amount(used, 8)),
            None => (String::new(), String::new()),
        };
        let sp_arn = if line.savings_plan_commitment.is_some() {
            SAVINGS_PLAN_ARN
        } else {
            sp_arn
        };
        let product_map = json_object(&[("region", line.region), ("servicename", &line.product)]);
        let cells: Vec<String> = vec![
            "Anniversary".into(),
            "AWS".into(),
            self.period_end.clone(),
            timestamp(self.month),
            self.invoice.clone(),
            "Amazon Web Services, Inc.".into(),
            PAYER_ID.into(),
            PAYER_NAME.into(),
            "{}".into(),
            "{}".into(),
            self.rng.hex(52),
            format!("{}/{}", line.start, line.end),
            line.zone.clone(),
            amount(line.cost, 8),
            amount(line.rate, 8),
            "USD".into(),
            "Amazon Web Services, Inc.".into(),
            line.description.clone(),
            line.line_type.into(),
            amount(line.cost, 8),
            line.operation.clone(),
            line.product.clone(),
            line.resource_id.clone(),
            line.tax_type.into(),
            amount(line.cost, 8),
            amount(line.rate, 8),
            account.id.into(),
            account.name.into(),
            amount(line.usage_amount, 6),
            line.end.clone(),
            line.start.clone(),
            line.usage_type.clone(),
            "USD".into(),
            amount(line.public_cost, 8),
            amount(line.public_rate, 8),
            if line.line_type == "Usage" || line.line_type == "SavingsPlanCoveredUsage" {
                "OnDemand".into()
            } else {
                String::new()
            },
            line.unit.into(),
            product_map,
            line.instance_type.into(),
            location(line.region).into(),
            line.family.into(),
            line.region.into(),
            line.product.clone(),
            line.usage_type.clone(),
            "0".into(),
            line.tags.clone(),
            sp_arn.into(),
            sp_effective,
            sp_rate,
            commitment,
            used,
        ];
        debug_assert_eq!(cells.len(), COLUMNS.len());
        let row: Vec<String> = cells.iter().map(|cell| csv(cell)).collect();
        writeln!(self.out, "{}", row.join(","))
    }
}

fn resource_tags(rng_key: u64, team: &str, env: &str, app: &str) -> String {
    // About one resource in eight is untagged, as in any real estate.
    if Rng::for_key(&[rng_key, 17]).unit() < 0.125 {
        return "{}".to_owned();
    }
    json_object(&[("user_app", app), ("user_env", env), ("user_team", team)])
}

pub(super) fn write(out: &mut dyn Write, days: &DemoDays) -> io::Result<()> {
    writeln!(out, "{}", COLUMNS.join(","))?;
    let catalog = catalog();
    let closed: Vec<NaiveDate> = days.closed_months().collect();
    for (month_index, month) in days.months().enumerate() {
        let end = next_month(month);
        let mut rng = Rng::for_key(&[name_key("aws-ids"), day_key(month)]);
        let invoice = if closed.contains(&month) {
            format!("{}", 1_000_000_000 + rng.next_u64() % 9_000_000_000)
        } else {
            String::new()
        };
        let mut writer = Writer {
            out: &mut *out,
            month,
            invoice,
            period_end: timestamp(end),
            rng,
        };
        // Usage per account and product, for the month's taxes.
        let mut spend: BTreeMap<(usize, String), f64> = BTreeMap::new();
        for day in month
            .iter_days()
            .take_while(|d| *d < end && *d <= days.today)
        {
            for line in day_lines(&catalog, day) {
                *spend
                    .entry((line.account, line.product.clone()))
                    .or_default() += line.cost;
                writer.write(&line)?;
            }
        }
        if closed.contains(&month) {
            for line in month_lines(month, month_index, &spend) {
                writer.write(&line)?;
            }
        }
    }
    Ok(())
}

fn day_lines(catalog: &[Item], day: NaiveDate) -> Vec<Line> {
    let start = timestamp(day);
    let end = timestamp(day.succ_opt().expect("next day"));
    let days_in_month = f64::from(
        (next_month(day.with_day(1).expect("day 1")) - day.with_day(1).expect("day 1")).num_days()
            as u32,
    );
    let mut lines = Vec::new();
    for (account_index, account) in ACCOUNTS.iter().enumerate() {
        for (region_index, region) in account.regions.iter().enumerate() {
            for (item_index, item) in catalog.iter().enumerate() {
                if item.global && region_index > 0 {
                    continue;
                }
                // Staging has no CloudFront and no NAT traffic to speak of.
                if account.env == "staging"
                    && matches!(item.product, "AmazonCloudFront" | "AmazonDynamoDB")
                {
                    continue;
                }
                let resources = if item.resources == 0 {
                    1
                } else {
                    ((f64::from(item.resources) * account.scale).round() as u32).max(1)
                };
                for resource in 0..resources {
                    let key = [
                        name_key("aws"),
                        day_key(day),
                        account_index as u64,
                        region_index as u64,
                        item_index as u64,
                        u64::from(resource),
                    ];
                    let mut rng = Rng::for_key(&key);
                    let resource_key = name_key(&format!(
                        "{}{}{}{}",
                        account.id, region, item.usage, resource
                    ));
                    let mut ids = Rng::for_key(&[resource_key]);
                    let quantity = match item.quantity {
                        Quantity::Hours { weekend } => {
                            24.0 * if rng.unit() < weekday_factor(day, weekend) {
                                1.0
                            } else {
                                rng.range(0.1, 0.6)
                            }
                        }
                        Quantity::StorageGb(gb) => {
                            gb * account.scale * growth(day) * rng.jitter(0.02) / days_in_month
                        }
                        Quantity::Daily { amount, weekend } => {
                            amount
                                * account.scale
                                * growth(day)
                                * weekday_factor(day, weekend)
                                * rng.jitter(0.15)
                        }
                    };
                    let public_cost = quantity * item.rate;
                    let region_code = if item.global { "" } else { *region };
                    let usage_type = if item.global {
                        item.usage.to_owned()
                    } else {
                        format!("{}{}", region_prefix(region), item.usage)
                    };
                    let resource_id = if item.resources == 0 {
                        String::new()
                    } else {
                        match item.resource_prefix {
                            "bucket:" => {
                                format!("acme-{}-{}-{}", account.env, item.app, ids.hex(6))
                            }
                            "db:" => format!(
                                "arn:aws:rds:{region}:{}:db:{}-{}",
                                account.id, item.app, resource
                            ),
                            "i-" | "vol-" => format!("{}{}", item.resource_prefix, ids.hex(17)),
                            prefix => format!(
                                "arn:aws:{}:{region}:{}:{prefix}{}",
                                item.product.trim_start_matches("Amazon").to_lowercase(),
                                account.id,
                                ids.hex(12)
                            ),
                        }
                    };
                    let tags = resource_tags(
                        resource_key,
                        if account.name == "Data Platform" {
                            "data"
                        } else {
                            item.team
                        },
                        account.env,
                        item.app,
                    );
                    let zone = if item.family == "Compute Instance" {
                        format!("{region}{}", ["a", "b", "c"][resource as usize % 3])
                    } else {
                        String::new()
                    };
                    let covered = item.usage == "BoxUsage:c5.xlarge" && account_index == 0;
                    let description = if item.unit == "Hrs" {
                        format!(
                            "${} per On Demand Linux {} Instance Hour",
                            item.rate,
                            if item.instance_type.is_empty() {
                                item.usage
                            } else {
                                item.instance_type
                            }
                        )
                    } else {
                        format!("${} per {} for {}", item.rate, item.unit, item.usage)
                    };
                    let base = Line {
                        account: account_index,
                        start: start.clone(),
                        end: end.clone(),
                        line_type: "Usage",
                        product: item.product.to_owned(),
                        usage_type,
                        operation: item.operation.to_owned(),
                        resource_id,
                        description,
                        usage_amount: quantity,
                        rate: item.rate,
                        cost: public_cost,
                        public_cost,
                        public_rate: item.rate,
                        unit: item.unit,
                        family: item.family,
                        instance_type: item.instance_type,
                        region: region_code_static(region_code),
                        zone,
                        tags,
                        ..Line::default()
                    };
                    if covered {
                        let negation = Line {
                            line_type: "SavingsPlanNegation",
                            cost: -public_cost,
                            public_cost: 0.0,
                            usage_amount: 0.0,
                            description: format!(
                                "SavingsPlanNegation used by AccountId : {} and UsageSku : {}",
                                account.id,
                                ids.hex(16).to_uppercase()
                            ),
                            start: base.start.clone(),
                            end: base.end.clone(),
                            product: base.product.clone(),
                            usage_type: base.usage_type.clone(),
                            operation: base.operation.clone(),
                            resource_id: base.resource_id.clone(),
                            tags: base.tags.clone(),
                            zone: base.zone.clone(),
                            ..Line {
                                account: account_index,
                                rate: item.rate,
                                unit: item.unit,
                                family: item.family,
                                instance_type: item.instance_type,
                                region: base.region,
                                ..Line::default()
                            }
                        };
                        lines.push(Line {
                            line_type: "SavingsPlanCoveredUsage",
                            description: format!("{} covered by Compute Savings Plan", item.usage),
                            savings_plan_effective_cost: Some(quantity * SAVINGS_PLAN_RATE),
                            savings_plan_rate: Some(SAVINGS_PLAN_RATE),
                            ..base
                        });
                        lines.push(negation);
                    } else {
                        lines.push(base);
                    }
                }
            }
        }
    }
    lines.extend(injected_lines(day, &start, &end));
    // The savings plan's daily commitment, billed to the payer's Production account.
    let used: f64 = lines
        .iter()
        .filter_map(|line| line.savings_plan_effective_cost)
        .sum();
    let commitment = SAVINGS_PLAN_COMMITMENT_PER_HOUR * 24.0;
    lines.push(Line {
        account: 0,
        start: start.clone(),
        end: end.clone(),
        line_type: "SavingsPlanRecurringFee",
        product: "ComputeSavingsPlans".into(),
        usage_type: "ComputeSP:1yrNoUpfront".into(),
        description: "1 year No Upfront Compute Savings Plan".into(),
        usage_amount: 24.0,
        rate: SAVINGS_PLAN_COMMITMENT_PER_HOUR,
        cost: commitment,
        unit: "Hrs",
        family: "Savings Plan",
        savings_plan_commitment: Some((commitment, used.min(commitment))),
        tags: "{}".into(),
        ..Line::default()
    });
    lines
}

/// The anomalies injected on `day` (see [`super::anomalies`]), in each account's first region.
fn injected_lines(day: NaiveDate, start: &str, end: &str) -> Vec<Line> {
    super::anomalies::injected(day)
        .into_iter()
        .map(|injected| {
            let account = &ACCOUNTS[injected.account];
            let region = account.regions[0];
            Line {
                account: injected.account,
                start: start.to_owned(),
                end: end.to_owned(),
                line_type: "Usage",
                product: injected.product.to_owned(),
                usage_type: format!("{}{}", region_prefix(region), injected.usage),
                operation: injected.operation.to_owned(),
                resource_id: injected.resource_id.to_owned(),
                description: format!(
                    "${} per {} for {}",
                    injected.rate, injected.unit, injected.usage
                ),
                usage_amount: injected.quantity,
                rate: injected.rate,
                cost: injected.cost(),
                public_cost: injected.cost(),
                public_rate: injected.rate,
                unit: injected.unit,
                region: region_code_static(region),
                tags: json_object(&[("user_env", account.env)]),
                ..Line::default()
            }
        })
        .collect()
}

fn region_code_static(region: &str) -> &'static str {
    ["us-east-1", "eu-west-1", "us-west-2"]
        .into_iter()
        .find(|known| *known == region)
        .unwrap_or("")
}

/// Monthly charges of a closed month: taxes, the support fee, credits, refunds, one-off fees.
fn month_lines(
    month: NaiveDate,
    month_index: usize,
    spend: &BTreeMap<(usize, String), f64>,
) -> Vec<Line> {
    let start = timestamp(month);
    let end = timestamp(next_month(month));
    let monthly = |account: usize,
                   line_type: &'static str,
                   product: &str,
                   usage_type: &str,
                   description: String,
                   cost: f64| Line {
        account,
        start: start.clone(),
        end: end.clone(),
        line_type,
        product: product.to_owned(),
        usage_type: usage_type.to_owned(),
        description,
        cost,
        tags: "{}".into(),
        ..Line::default()
    };
    let mut lines = Vec::new();
    for ((account, product), cost) in spend {
        if !matches!(product.as_str(), "AmazonEC2" | "AmazonRDS" | "AmazonS3") {
            continue;
        }
        let mut tax = monthly(
            *account,
            "Tax",
            product,
            "",
            format!("Tax for product code {product}"),
            cost * 0.0725,
        );
        tax.tax_type = "USSalesTax";
        lines.push(tax);
    }
    let total: f64 = spend.values().sum();
    lines.push(monthly(
        0,
        "Fee",
        "AWSSupportBusiness",
        "Dollar",
        "AWS Support (Business)".into(),
        (total * 0.1).max(100.0),
    ));
    if month_index < 6 {
        lines.push(monthly(
            2,
            "Credit",
            "AmazonEC2",
            "",
            "AWS Activate Credits".into(),
            -150.0,
        ));
    }
    match month_index {
        3 => lines.push(monthly(
            0,
            "Refund",
            "AmazonEC2",
            "BoxUsage:m5.large",
            "Refund for duplicate instance charges".into(),
            -85.4213,
        )),
        5 => lines.push(monthly(
            2,
            "Fee",
            "AmazonRoute53",
            "Global-DomainRegistration",
            "Domain registration: acme-data.com".into(),
            12.0,
        )),
        9 => lines.push(monthly(
            1,
            "Refund",
            "AmazonRDS",
            "InstanceUsage:db.r5.large",
            "Refund for RDS maintenance outage".into(),
            -23.17,
        )),
        _ => {}
    }
    lines
}
