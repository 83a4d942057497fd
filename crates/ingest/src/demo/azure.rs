//! The Azure part of the demo: a cost details export (Microsoft Customer Agreement columns,
//! actual cost) of one subscription.

use std::io::{self, Write};

use chrono::NaiveDate;

use super::rng::{name_key, Rng};
use super::{amount, csv, day_key, growth, json_object, next_month, weekday_factor, DemoDays};

const BILLING_ACCOUNT_ID: &str =
    "8a4e3c1d-5b2f-4e6a-9c7d-0f1e2d3c4b5a:7e6d5c4b-3a2f-1e0d-9c8b-7a6f5e4d3c2b_2019-05-31";
const BILLING_ACCOUNT_NAME: &str = "Acme Corp";
const BILLING_PROFILE_ID: &str = "QWER-TY12-BG7-PGB";
const SUBSCRIPTION_ID: &str = "4f1d8a3c-2b7e-4c9a-9d3f-6e5a1b2c3d4e";
const SUBSCRIPTION_NAME: &str = "Acme Azure Production";

const COLUMNS: &[&str] = &[
    "invoiceId",
    "previousInvoiceId",
    "billingAccountId",
    "billingAccountName",
    "billingProfileId",
    "billingProfileName",
    "invoiceSectionId",
    "invoiceSectionName",
    "partnerName",
    "resellerName",
    "resellerMpnId",
    "cspTenantId",
    "billingPeriodStartDate",
    "billingPeriodEndDate",
    "servicePeriodStartDate",
    "servicePeriodEndDate",
    "date",
    "serviceFamily",
    "productOrderId",
    "productOrderName",
    "consumedService",
    "meterId",
    "meterName",
    "meterCategory",
    "meterSubCategory",
    "meterRegion",
    "ProductId",
    "ProductName",
    "SubscriptionId",
    "subscriptionName",
    "publisherType",
    "publisherId",
    "publisherName",
    "resourceGroupName",
    "ResourceId",
    "resourceLocation",
    "location",
    "effectivePrice",
    "quantity",
    "unitOfMeasure",
    "chargeType",
    "billingCurrency",
    "pricingCurrency",
    "costInBillingCurrency",
    "costInPricingCurrency",
    "costInUsd",
    "paygCostInBillingCurrency",
    "paygCostInUsd",
    "exchangeRatePricingToBilling",
    "exchangeRateDate",
    "isAzureCreditEligible",
    "serviceInfo1",
    "serviceInfo2",
    "additionalInfo",
    "tags",
    "PayGPrice",
    "frequency",
    "term",
    "reservationId",
    "reservationName",
    "pricingModel",
    "unitPrice",
    "costAllocationRuleName",
    "benefitId",
    "benefitName",
    "provider",
];

struct Meter {
    family: &'static str,
    service: &'static str,
    meter_id: &'static str,
    name: &'static str,
    category: &'static str,
    sub_category: &'static str,
    product: &'static str,
    unit: &'static str,
    price: f64,
    /// Units a day per resource.
    daily: f64,
    weekend: f64,
    resources: u32,
    group: &'static str,
    resource_type: &'static str,
    team: &'static str,
    app: &'static str,
}

const METERS: &[Meter] = &[
    Meter {
        family: "Compute",
        service: "Microsoft.Compute",
        meter_id: "2b6a5e8c-1f0d-4c3b-9a8e-7d6c5b4a3f21",
        name: "D4s v5",
        category: "Virtual Machines",
        sub_category: "Dsv5 Series",
        product: "Virtual Machines Dsv5 Series - D4s v5 - EU West",
        unit: "1 Hour",
        price: 0.192,
        daily: 24.0,
        weekend: 0.75,
        resources: 6,
        group: "rg-crm-prod",
        resource_type: "Microsoft.Compute/virtualMachines",
        team: "crm",
        app: "crm",
    },
    Meter {
        family: "Storage",
        service: "Microsoft.Compute",
        meter_id: "7c1e2d3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f",
        name: "P10 LRS Disk",
        category: "Storage",
        sub_category: "Premium SSD Managed Disks",
        product: "Premium SSD Managed Disks - P10 LRS - EU West",
        unit: "1/Month",
        price: 19.71,
        daily: 1.0 / 30.0,
        weekend: 1.0,
        resources: 6,
        group: "rg-crm-prod",
        resource_type: "Microsoft.Compute/disks",
        team: "crm",
        app: "crm",
    },
    Meter {
        family: "Storage",
        service: "Microsoft.Storage",
        meter_id: "3d4e5f6a-7b8c-4d9e-8f0a-1b2c3d4e5f6a",
        name: "Hot LRS Data Stored",
        category: "Storage",
        sub_category: "Blob Storage",
        product: "Blob Storage - Hot LRS - EU West",
        unit: "1 GB/Month",
        price: 0.0184,
        daily: 4_000.0 / 30.0,
        weekend: 1.0,
        resources: 3,
        group: "rg-shared-storage",
        resource_type: "Microsoft.Storage/storageAccounts",
        team: "platform",
        app: "backups",
    },
    Meter {
        family: "Databases",
        service: "Microsoft.Sql",
        meter_id: "9e8d7c6b-5a4f-4e3d-2c1b-0a9f8e7d6c5b",
        name: "vCore",
        category: "SQL Database",
        sub_category: "General Purpose - Compute Gen5",
        product: "SQL Database Single General Purpose - Compute Gen5 - EU West",
        unit: "1 Hour",
        price: 0.5044,
        daily: 48.0,
        weekend: 1.0,
        resources: 2,
        group: "rg-crm-prod",
        resource_type: "Microsoft.Sql/servers/databases",
        team: "crm",
        app: "crm-db",
    },
    Meter {
        family: "Compute",
        service: "Microsoft.Web",
        meter_id: "5b4a3f2e-1d0c-4b9a-8f7e-6d5c4b3a2f1e",
        name: "P1 v3 App",
        category: "Azure App Service",
        sub_category: "Premium v3 Plan",
        product: "Azure App Service Premium v3 Plan - P1 v3 - EU West",
        unit: "1 Hour",
        price: 0.25,
        daily: 24.0,
        weekend: 1.0,
        resources: 3,
        group: "rg-portal-prod",
        resource_type: "Microsoft.Web/serverfarms",
        team: "web",
        app: "customer-portal",
    },
    Meter {
        family: "Networking",
        service: "Microsoft.Network",
        meter_id: "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
        name: "Standard Data Transfer Out",
        category: "Bandwidth",
        sub_category: "",
        product: "Rtn Preference: MGN - Standard Data Transfer Out - Zone 1",
        unit: "1 GB",
        price: 0.087,
        daily: 220.0,
        weekend: 0.6,
        resources: 2,
        group: "rg-portal-prod",
        resource_type: "Microsoft.Network/publicIPAddresses",
        team: "web",
        app: "customer-portal",
    },
];

fn us_date(day: NaiveDate) -> String {
    day.format("%m/%d/%Y").to_string()
}

struct Charge<'a> {
    month: NaiveDate,
    invoice: &'a str,
    day: NaiveDate,
    meter: Option<&'a Meter>,
    resource: Option<(String, String)>,
    quantity: f64,
    price: f64,
    cost: f64,
    charge_type: &'static str,
    product: &'a str,
    family: &'a str,
    frequency: &'static str,
    pricing_model: &'static str,
    reservation: (&'a str, &'a str),
    tags: String,
}

fn write_charge(out: &mut dyn Write, charge: &Charge<'_>) -> io::Result<()> {
    let end = next_month(charge.month).pred_opt().expect("day before");
    let meter = charge.meter;
    let field = |f: fn(&Meter) -> &'static str| meter.map(f).unwrap_or("").to_owned();
    let (group, resource_id) = charge.resource.clone().unwrap_or_default();
    let cells: Vec<String> = vec![
        charge.invoice.to_owned(),
        String::new(),
        BILLING_ACCOUNT_ID.to_owned(),
        BILLING_ACCOUNT_NAME.to_owned(),
        BILLING_PROFILE_ID.to_owned(),
        "Acme Corp Billing".to_owned(),
        "ZXCV-BN98-PJA-PGB".to_owned(),
        "Engineering".to_owned(),
        String::new(),
        String::new(),
        String::new(),
        String::new(),
        us_date(charge.month),
        us_date(end),
        us_date(charge.month),
        us_date(end),
        us_date(charge.day),
        charge.family.to_owned(),
        "0c1d2e3f-4a5b-4c6d-7e8f-9a0b1c2d3e4f".to_owned(),
        "Azure plan".to_owned(),
        field(|m| m.service),
        field(|m| m.meter_id),
        field(|m| m.name),
        field(|m| m.category),
        field(|m| m.sub_category),
        if meter.is_some() {
            "EU West".into()
        } else {
            String::new()
        },
        "DZH318Z0BQ4L".to_owned(),
        charge.product.to_owned(),
        SUBSCRIPTION_ID.to_owned(),
        SUBSCRIPTION_NAME.to_owned(),
        "Microsoft".to_owned(),
        String::new(),
        "Microsoft".to_owned(),
        group,
        resource_id,
        if meter.is_some() {
            "westeurope".into()
        } else {
            String::new()
        },
        "EU West".to_owned(),
        amount(charge.price, 6),
        amount(charge.quantity, 9),
        field(|m| m.unit),
        charge.charge_type.to_owned(),
        "USD".to_owned(),
        "USD".to_owned(),
        amount(charge.cost, 9),
        amount(charge.cost, 9),
        amount(charge.cost, 9),
        amount(charge.cost, 9),
        amount(charge.cost, 9),
        "1".to_owned(),
        us_date(charge.month),
        "True".to_owned(),
        String::new(),
        String::new(),
        String::new(),
        charge.tags.clone(),
        amount(charge.price, 6),
        charge.frequency.to_owned(),
        if charge.reservation.0.is_empty() {
            String::new()
        } else {
            "12".into()
        },
        charge.reservation.0.to_owned(),
        charge.reservation.1.to_owned(),
        charge.pricing_model.to_owned(),
        amount(charge.price, 6),
        String::new(),
        String::new(),
        String::new(),
        "Azure".to_owned(),
    ];
    debug_assert_eq!(cells.len(), COLUMNS.len());
    let row: Vec<String> = cells.iter().map(|cell| csv(cell)).collect();
    writeln!(out, "{}", row.join(","))
}

const RESERVATION_ID: &str = "6e5d4c3b-2a1f-4e0d-9c8b-7a6f5e4d3c2b";
const RESERVATION_NAME: &str = "VM_RI_D4s_v5_EU_West";

pub(super) fn write(out: &mut dyn Write, days: &DemoDays) -> io::Result<()> {
    writeln!(out, "{}", COLUMNS.join(","))?;
    let closed: Vec<NaiveDate> = days.closed_months().collect();
    for (month_index, month) in days.months().enumerate() {
        let end = next_month(month);
        let invoice = if closed.contains(&month) {
            format!("G{:09}", 10_000_000 + month_index * 7_919)
        } else {
            String::new()
        };
        let mut month_cost = 0.0;
        for day in month
            .iter_days()
            .take_while(|d| *d < end && *d <= days.today)
        {
            for (meter_index, meter) in METERS.iter().enumerate() {
                for resource in 0..meter.resources {
                    let mut rng = Rng::for_key(&[
                        name_key("azure"),
                        day_key(day),
                        meter_index as u64,
                        u64::from(resource),
                    ]);
                    let quantity = meter.daily
                        * weekday_factor(day, meter.weekend)
                        * if meter.unit == "1 Hour" {
                            1.0
                        } else {
                            growth(day)
                        }
                        * rng.jitter(if meter.unit == "1 Hour" { 0.0 } else { 0.1 });
                    let cost = quantity * meter.price;
                    month_cost += cost;
                    let name = format!("{}-{:02}", meter.app, resource + 1);
                    let resource_id = format!(
                        "/subscriptions/{SUBSCRIPTION_ID}/resourceGroups/{}/providers/{}/{name}",
                        meter.group, meter.resource_type
                    );
                    let tags = if resource == 0 && meter.category == "Bandwidth" {
                        String::new()
                    } else {
                        json_object(&[("app", meter.app), ("env", "prod"), ("team", meter.team)])
                    };
                    write_charge(
                        out,
                        &Charge {
                            month,
                            invoice: &invoice,
                            day,
                            meter: Some(meter),
                            resource: Some((meter.group.to_owned(), resource_id)),
                            quantity,
                            price: meter.price,
                            cost,
                            charge_type: "Usage",
                            product: meter.product,
                            family: meter.family,
                            frequency: "UsageBased",
                            pricing_model: "OnDemand",
                            reservation: ("", ""),
                            tags,
                        },
                    )?;
                }
            }
        }
        let invoice_ref: &str = &invoice;
        let one_off = move |charge_type: &'static str, cost: f64, product: &'static str| Charge {
            month,
            invoice: invoice_ref,
            day: month,
            meter: None,
            resource: None,
            quantity: 1.0,
            price: cost,
            cost,
            charge_type,
            product,
            family: "Compute",
            frequency: "OneTime",
            pricing_model: "Reservation",
            reservation: (RESERVATION_ID, RESERVATION_NAME),
            tags: String::new(),
        };
        match month_index {
            2 => write_charge(
                out,
                &one_off(
                    "Purchase",
                    1_223.76,
                    "Reserved VM Instance, Standard_D4s_v5, EU West, 1 Year",
                ),
            )?,
            7 => write_charge(
                out,
                &one_off(
                    "Refund",
                    -305.94,
                    "Reserved VM Instance, Standard_D4s_v5, EU West, 1 Year",
                ),
            )?,
            _ => {}
        }
        if closed.contains(&month) {
            let tax = month_cost * 0.21;
            write_charge(
                out,
                &Charge {
                    family: "",
                    frequency: "OneTime",
                    pricing_model: "",
                    reservation: ("", ""),
                    ..one_off("Tax", tax, "Tax")
                },
            )?;
        }
    }
    Ok(())
}
