//! The GCP part of the demo: a Cloud Billing detailed export (BigQuery schema) as
//! newline-delimited JSON, two projects on one billing account.

use std::io::{self, Write};

use chrono::{Datelike, NaiveDate};

use super::rng::{name_key, Rng};
use super::{amount, day_key, growth, json_string, next_month, weekday_factor, DemoDays};

const BILLING_ACCOUNT: &str = "01A2B3-C4D5E6-F7A8B9";

struct Project {
    id: &'static str,
    number: &'static str,
    name: &'static str,
    region: &'static str,
    team: &'static str,
    env: &'static str,
    scale: f64,
}

const PROJECTS: &[Project] = &[
    Project {
        id: "acme-web-prod",
        number: "123456789012",
        name: "Acme Web Production",
        region: "us-central1",
        team: "web",
        env: "prod",
        scale: 1.0,
    },
    Project {
        id: "acme-analytics",
        number: "234567890123",
        name: "Acme Analytics",
        region: "europe-west1",
        team: "data",
        env: "prod",
        scale: 0.8,
    },
];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Credit {
    None,
    SustainedUse,
    FreeTier,
    Promotion,
}

struct Sku {
    service_id: &'static str,
    service: &'static str,
    sku_id: &'static str,
    sku: &'static str,
    /// Pricing unit and the usage unit it is measured in, with the factor between them.
    pricing_unit: &'static str,
    usage_unit: &'static str,
    units_per_pricing_unit: f64,
    price: f64,
    /// Pricing units a day per resource at full scale.
    daily: f64,
    weekend: f64,
    resources: u32,
    resource_kind: &'static str,
    app: &'static str,
    credit: Credit,
    /// Multi-region (`US`/`EU`) rather than a region.
    multi_region: bool,
    /// Only in this project (`""`: both).
    only: &'static str,
}

#[allow(clippy::too_many_arguments)]
const fn sku(
    service_id: &'static str,
    service: &'static str,
    sku_id: &'static str,
    sku: &'static str,
    pricing_unit: &'static str,
    usage_unit: &'static str,
    units_per_pricing_unit: f64,
    price: f64,
    daily: f64,
    weekend: f64,
    resources: u32,
    resource_kind: &'static str,
    app: &'static str,
) -> Sku {
    Sku {
        service_id,
        service,
        sku_id,
        sku,
        pricing_unit,
        usage_unit,
        units_per_pricing_unit,
        price,
        daily,
        weekend,
        resources,
        resource_kind,
        app,
        credit: Credit::None,
        multi_region: false,
        only: "",
    }
}

const COMPUTE: (&str, &str) = ("6F81-5844-456A", "Compute Engine");
const STORAGE: (&str, &str) = ("95FF-2EF5-5EA1", "Cloud Storage");
const BIGQUERY: (&str, &str) = ("24E6-581D-38E5", "BigQuery");
const SQL: (&str, &str) = ("9662-B51E-5089", "Cloud SQL");
const GKE: (&str, &str) = ("CCD8-9BF1-090E", "Kubernetes Engine");
const RUN: (&str, &str) = ("152E-C115-5142", "Cloud Run");
const NETWORK: (&str, &str) = ("E505-1604-58F8", "Networking");

fn catalog() -> Vec<Sku> {
    vec![
        Sku {
            credit: Credit::SustainedUse,
            ..sku(
                COMPUTE.0,
                COMPUTE.1,
                "BB77-5FDC-BCEF",
                "N2 Instance Core running in Americas",
                "hour",
                "seconds",
                3600.0,
                0.031611,
                96.0,
                0.7,
                4,
                "instances",
                "storefront",
            )
        },
        Sku {
            credit: Credit::SustainedUse,
            ..sku(
                COMPUTE.0,
                COMPUTE.1,
                "A5BD-2F0B-3C4B",
                "N2 Instance Ram running in Americas",
                "gibibyte hour",
                "byte-seconds",
                3_865_470_566_400.0,
                0.004237,
                384.0,
                0.7,
                4,
                "instances",
                "storefront",
            )
        },
        sku(
            COMPUTE.0,
            COMPUTE.1,
            "D973-5D65-BAB2",
            "Storage PD Capacity",
            "gibibyte month",
            "byte-seconds",
            2_783_138_807_808_000.0,
            0.04,
            16.7,
            1.0,
            4,
            "disks",
            "storefront",
        ),
        sku(
            STORAGE.0,
            STORAGE.1,
            "E5F0-6A5D-7BAD",
            "Standard Storage US Multi-region",
            "gibibyte month",
            "byte-seconds",
            2_783_138_807_808_000.0,
            0.026,
            330.0,
            1.0,
            2,
            "buckets",
            "assets",
        ),
        sku(
            STORAGE.0,
            STORAGE.1,
            "1E6D-66F1-E0A3",
            "Multi-Region Standard Class A Operations",
            "requests",
            "requests",
            1.0,
            0.00001,
            120_000.0,
            0.5,
            1,
            "buckets",
            "assets",
        ),
        Sku {
            multi_region: true,
            credit: Credit::Promotion,
            only: "acme-analytics",
            ..sku(
                BIGQUERY.0,
                BIGQUERY.1,
                "3362-E469-6BEF",
                "Analysis",
                "tebibyte",
                "bytes",
                1_099_511_627_776.0,
                6.25,
                2.2,
                0.2,
                3,
                "jobs",
                "reporting",
            )
        },
        Sku {
            multi_region: true,
            only: "acme-analytics",
            ..sku(
                BIGQUERY.0,
                BIGQUERY.1,
                "6A7B-0D3B-A2E1",
                "Active Logical Storage",
                "gibibyte month",
                "byte-seconds",
                2_783_138_807_808_000.0,
                0.02,
                1_600.0,
                1.0,
                1,
                "datasets",
                "warehouse",
            )
        },
        sku(
            SQL.0,
            SQL.1,
            "A6B8-6B7D-1C2E",
            "Cloud SQL for PostgreSQL: Zonal - vCPU in Americas",
            "hour",
            "seconds",
            3600.0,
            0.0413,
            96.0,
            1.0,
            1,
            "instances",
            "orders",
        ),
        sku(
            SQL.0,
            SQL.1,
            "B3F5-0D1A-9E8C",
            "Cloud SQL for PostgreSQL: Zonal - RAM in Americas",
            "gibibyte hour",
            "byte-seconds",
            3_865_470_566_400.0,
            0.007,
            360.0,
            1.0,
            1,
            "instances",
            "orders",
        ),
        Sku {
            only: "acme-web-prod",
            ..sku(
                GKE.0,
                GKE.1,
                "B561-BFBD-1264",
                "Regional Kubernetes Clusters",
                "hour",
                "seconds",
                3600.0,
                0.1,
                24.0,
                1.0,
                1,
                "clusters",
                "platform",
            )
        },
        Sku {
            credit: Credit::FreeTier,
            only: "acme-web-prod",
            ..sku(
                RUN.0,
                RUN.1,
                "CA5C-7A3E-0B22",
                "CPU Allocation Time",
                "vCPU-second",
                "seconds",
                1.0,
                0.000024,
                420_000.0,
                0.5,
                2,
                "services",
                "api",
            )
        },
        Sku {
            credit: Credit::FreeTier,
            only: "acme-web-prod",
            ..sku(
                RUN.0,
                RUN.1,
                "5F7A-4A7B-9C2C",
                "Requests",
                "requests",
                "requests",
                1.0,
                0.0000004,
                2_500_000.0,
                0.5,
                2,
                "services",
                "api",
            )
        },
        sku(
            NETWORK.0,
            NETWORK.1,
            "9DE9-9092-B3BC",
            "Network Internet Egress from Americas to Americas",
            "gibibyte",
            "bytes",
            1_073_741_824.0,
            0.12,
            180.0,
            0.6,
            0,
            "",
            "storefront",
        ),
        sku(
            NETWORK.0,
            NETWORK.1,
            "DE9E-AFBC-A15A",
            "Network Inter Zone Egress",
            "gibibyte",
            "bytes",
            1_073_741_824.0,
            0.01,
            900.0,
            0.8,
            0,
            "",
            "platform",
        ),
    ]
}

fn ts(day: NaiveDate) -> String {
    format!("{}T00:00:00Z", day.format("%Y-%m-%d"))
}

fn labels(pairs: &[(&str, &str)]) -> String {
    let items: Vec<String> = pairs
        .iter()
        .map(|(k, v)| {
            format!(
                "{{\"key\":{},\"value\":{}}}",
                json_string(k),
                json_string(v)
            )
        })
        .collect();
    format!("[{}]", items.join(","))
}

struct Row<'a> {
    project: &'a Project,
    service: (&'a str, &'a str),
    sku: (&'a str, &'a str),
    start: NaiveDate,
    end: NaiveDate,
    month: NaiveDate,
    labels: String,
    location: String,
    resource: String,
    cost: f64,
    cost_type: &'static str,
    usage: String,
    credits: String,
    price: String,
}

fn write_row(out: &mut dyn Write, row: &Row<'_>) -> io::Result<()> {
    let project = row.project;
    writeln!(
        out,
        "{{\"billing_account_id\":{ba},\"service\":{{\"id\":{sid},\"description\":{sdesc}}},\
\"sku\":{{\"id\":{kid},\"description\":{kdesc}}},\"usage_start_time\":\"{start}\",\
\"usage_end_time\":\"{end}\",\"project\":{{\"id\":{pid},\"number\":{pnum},\"name\":{pname},\
\"labels\":{plabels},\"ancestry_numbers\":\"/1234567890/{pnumraw}/\"}},\"labels\":{labels},\
\"system_labels\":[],\"location\":{location},\"resource\":{resource},\
\"export_time\":\"{export_day}T06:12:44.000Z\",\"cost\":{cost},\"currency\":\"USD\",\
\"currency_conversion_rate\":1.0,\"usage\":{usage},\"credits\":{credits},\
\"invoice\":{{\"month\":\"{invoice}\"}},\"cost_type\":\"{cost_type}\",\
\"adjustment_info\":null,\"price\":{price},\"cost_at_list\":{cost},\
\"transaction_type\":\"GOOGLE\",\"seller_name\":\"Google LLC\"}}",
        ba = json_string(BILLING_ACCOUNT),
        sid = json_string(row.service.0),
        sdesc = json_string(row.service.1),
        kid = json_string(row.sku.0),
        kdesc = json_string(row.sku.1),
        start = ts(row.start),
        end = ts(row.end),
        pid = json_string(project.id),
        pnum = json_string(project.number),
        pname = json_string(project.name),
        plabels = labels(&[(
            "cost-center",
            if project.team == "web" {
                "cc-100"
            } else {
                "cc-200"
            }
        )]),
        pnumraw = project.number,
        labels = row.labels,
        location = row.location,
        resource = row.resource,
        export_day = row.end.format("%Y-%m-%d"),
        cost = amount(row.cost, 6),
        usage = row.usage,
        credits = row.credits,
        invoice = row.month.format("%Y%m"),
        cost_type = row.cost_type,
        price = row.price,
    )
}

fn credit(name: &str, full_name: &str, id: &str, kind: &str, value: f64) -> String {
    format!(
        "[{{\"name\":{},\"amount\":{},\"full_name\":{},\"id\":{},\"type\":\"{kind}\"}}]",
        json_string(name),
        amount(value, 6),
        json_string(full_name),
        json_string(id),
    )
}

pub(super) fn write(out: &mut dyn Write, days: &DemoDays) -> io::Result<()> {
    let catalog = catalog();
    let closed: Vec<NaiveDate> = days.closed_months().collect();
    for (month_index, month) in days.months().enumerate() {
        let end = next_month(month);
        let mut month_cost = [0.0_f64; 2];
        for day in month
            .iter_days()
            .take_while(|d| *d < end && *d <= days.today)
        {
            let next = day.succ_opt().expect("next day");
            for (project_index, project) in PROJECTS.iter().enumerate() {
                for (sku_index, sku) in catalog.iter().enumerate() {
                    if !sku.only.is_empty() && sku.only != project.id {
                        continue;
                    }
                    let resources = sku.resources.max(1);
                    for resource in 0..resources {
                        let mut rng = Rng::for_key(&[
                            name_key("gcp"),
                            day_key(day),
                            project_index as u64,
                            sku_index as u64,
                            u64::from(resource),
                        ]);
                        let quantity = sku.daily
                            * project.scale
                            * growth(day)
                            * weekday_factor(day, sku.weekend)
                            * rng.jitter(0.12);
                        let cost = quantity * sku.price;
                        month_cost[project_index] += cost;
                        let location = if sku.multi_region {
                            let area = if project.region.starts_with("europe") {
                                "EU"
                            } else {
                                "US"
                            };
                            format!("{{\"location\":\"{area}\",\"country\":\"{area}\",\"region\":null,\"zone\":null}}")
                        } else {
                            format!(
                                "{{\"location\":\"{r}\",\"country\":\"{c}\",\"region\":\"{r}\",\"zone\":\"{r}-{z}\"}}",
                                r = project.region,
                                c = if project.region.starts_with("europe") { "BE" } else { "US" },
                                z = ["a", "b", "c"][resource as usize % 3],
                            )
                        };
                        let resource_json = if sku.resources == 0 {
                            "{\"name\":null,\"global_name\":null}".to_owned()
                        } else {
                            let name = format!(
                                "{}-{}-{}",
                                sku.app,
                                sku.resource_kind.trim_end_matches('s'),
                                resource + 1
                            );
                            format!(
                                "{{\"name\":{},\"global_name\":{}}}",
                                json_string(&name),
                                json_string(&format!(
                                    "//{}.googleapis.com/projects/{}/{}/{}",
                                    sku.service.to_lowercase().replace(' ', ""),
                                    project.number,
                                    sku.resource_kind,
                                    name
                                ))
                            )
                        };
                        let day_of_month = f64::from(day.day());
                        let credits = match sku.credit {
                            Credit::SustainedUse => credit(
                                "Sustained Usage Discount",
                                "Sustained Usage Discount",
                                "SUD-N2",
                                "SUSTAINED_USAGE_DISCOUNT",
                                -cost * (0.2 * day_of_month / 30.0).min(0.2),
                            ),
                            Credit::FreeTier => credit(
                                "Free Tier",
                                "Free Tier",
                                "FreeTier-CloudRun",
                                "FREE_TIER",
                                -cost.min(0.6),
                            ),
                            Credit::Promotion if month_index < 4 => credit(
                                "Google for Startups Cloud Program",
                                "Google for Startups Cloud Program credits",
                                "promo-startups-2025",
                                "PROMOTION",
                                -cost * 0.3,
                            ),
                            _ => "[]".to_owned(),
                        };
                        let row = Row {
                            project,
                            service: (sku.service_id, sku.service),
                            sku: (sku.sku_id, sku.sku),
                            start: day,
                            end: next,
                            month,
                            labels: if rng.unit() < 0.1 {
                                "[]".to_owned()
                            } else {
                                labels(&[("app", sku.app), ("env", project.env), ("team", project.team)])
                            },
                            location,
                            resource: resource_json,
                            cost,
                            cost_type: "regular",
                            usage: format!(
                                "{{\"amount\":{},\"unit\":\"{}\",\"amount_in_pricing_units\":{},\"pricing_unit\":\"{}\"}}",
                                amount(quantity * sku.units_per_pricing_unit, 2),
                                sku.usage_unit,
                                amount(quantity, 6),
                                sku.pricing_unit
                            ),
                            credits,
                            price: format!(
                                "{{\"effective_price\":{},\"tier_start_amount\":0,\"unit\":\"{}\",\"pricing_unit_quantity\":1}}",
                                amount(sku.price, 6),
                                sku.pricing_unit
                            ),
                        };
                        write_row(out, &row)?;
                    }
                }
            }
        }
        if closed.contains(&month) {
            for (project_index, project) in PROJECTS.iter().enumerate() {
                let row = Row {
                    project,
                    service: ("", "Invoice"),
                    sku: ("", "Tax"),
                    start: month,
                    end,
                    month,
                    labels: "[]".to_owned(),
                    location: "{\"location\":null,\"country\":null,\"region\":null,\"zone\":null}"
                        .to_owned(),
                    resource: "{\"name\":null,\"global_name\":null}".to_owned(),
                    cost: month_cost[project_index] * 0.06,
                    cost_type: "tax",
                    usage: "{\"amount\":0,\"unit\":null,\"amount_in_pricing_units\":0,\"pricing_unit\":null}".to_owned(),
                    credits: "[]".to_owned(),
                    price: "null".to_owned(),
                };
                write_row(out, &row)?;
            }
        }
    }
    Ok(())
}
