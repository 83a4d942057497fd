//! The per-format mappings from a file's own columns to the normalised columns (DESIGN §4).

use costscope_core::cost::Provider;

use crate::plan::{
    tags_from_columns, Columns, Details, Exprs, Header, Plan, ProviderSource, EMPTY_TAGS,
};
use crate::sql::{quote_ident, quote_literal};
use crate::{Format, IngestError};

/// The format a header belongs to, if any.
pub(crate) fn detect(header: &Header) -> Option<Format> {
    let has = |name: &str| header.has(name);
    if has("BilledCost") && has("ChargePeriodStart") {
        return Some(Format::Focus);
    }
    if has("lineItem/UnblendedCost") {
        return Some(Format::AwsCur);
    }
    if has("line_item_unblended_cost") {
        // CUR 2.0 keeps tags, product attributes, cost categories and discounts in map
        // columns; the legacy report's Athena naming flattens them into many columns.
        let cur2 = [
            "resource_tags",
            "product",
            "cost_category",
            "discount",
            "line_item_usage_account_name",
        ]
        .iter()
        .any(|name| has(name));
        return Some(if cur2 {
            Format::AwsCur2
        } else {
            Format::AwsCur
        });
    }
    if has("cost") && has("usage_start_time") && has("billing_account_id") {
        return Some(Format::GcpBilling);
    }
    let azure_cost = ["CostInBillingCurrency", "PreTaxCost", "Cost"]
        .iter()
        .any(|n| has(n));
    let azure_date = ["Date", "UsageDateTime", "UsageDate"]
        .iter()
        .any(|n| has(n));
    if azure_cost && azure_date && has("MeterCategory") {
        return Some(Format::AzureCostDetails);
    }
    None
}

pub(crate) fn plan(
    format: Format,
    header: &Header,
    display_name: &str,
) -> Result<Plan, IngestError> {
    let mut columns = Columns::new(header, format, display_name);
    match format {
        Format::Focus => crate::focus::plan(&mut columns, display_name),
        Format::AwsCur | Format::AwsCur2 => aws(&mut columns, format),
        Format::GcpBilling => gcp(&mut columns),
        Format::AzureCostDetails => azure(&mut columns),
    }
}

fn take(c: &mut Columns<'_>) -> Vec<crate::plan::Check> {
    std::mem::take(&mut c.checks)
}

/// AWS column names: the legacy report's `category/Name` and the snake_case names used by the
/// legacy report's Athena/Parquet variant and by CUR 2.0.
fn aws_names(legacy: &'static str, snake: &'static str) -> [&'static str; 2] {
    [legacy, snake]
}

fn aws(c: &mut Columns<'_>, format: Format) -> Result<Plan, IngestError> {
    let n = aws_names;
    let required_name = |c: &Columns<'_>, names: [&str; 2]| -> Result<String, IngestError> {
        // Name the column the way this file's naming scheme would.
        let slash = c.header().names().iter().any(|h| h.contains('/'));
        let ordered = if slash { names } else { [names[1], names[0]] };
        c.required(&ordered)
    };
    let unblended_name = required_name(c, n("lineItem/UnblendedCost", "line_item_unblended_cost"))?;
    let payer = required_name(c, n("bill/PayerAccountId", "bill_payer_account_id"))?;
    let account = required_name(
        c,
        n("lineItem/UsageAccountId", "line_item_usage_account_id"),
    )?;
    let start_name = required_name(
        c,
        n("lineItem/UsageStartDate", "line_item_usage_start_date"),
    )?;
    let period_name = required_name(
        c,
        n(
            "bill/BillingPeriodStartDate",
            "bill_billing_period_start_date",
        ),
    )?;
    let type_name = required_name(c, n("lineItem/LineItemType", "line_item_line_item_type"))?;

    let unblended = c.money_required(&[&unblended_name])?;
    let charge_period_start = c.timestamp_required(&[&start_name])?;
    let billing_period_start = c.timestamp_required(&[&period_name])?;
    let charge_period_end = c
        .timestamp(&n("lineItem/UsageEndDate", "line_item_usage_end_date"))
        .map(|end| format!("coalesce({end}, {charge_period_start})"))
        .unwrap_or_else(|| charge_period_start.clone());
    let line_type = format!("costscope_txt({})", quote_ident(&type_name));

    // Amortised cost, as AWS defines it for the legacy report and CUR 2.0.
    let mut effective = format!("CASE {line_type}");
    if let Some(ri) = c.money(&n(
        "reservation/EffectiveCost",
        "reservation_effective_cost",
    )) {
        effective += &format!(" WHEN 'DiscountedUsage' THEN {ri}");
    }
    if let Some(sp) = c.money(&n(
        "savingsPlan/SavingsPlanEffectiveCost",
        "savings_plan_savings_plan_effective_cost",
    )) {
        effective += &format!(" WHEN 'SavingsPlanCoveredUsage' THEN {sp}");
    }
    effective += " WHEN 'SavingsPlanNegation' THEN 0 WHEN 'SavingsPlanUpfrontFee' THEN 0";
    if let (Some(total), Some(used)) = (
        c.money(&n(
            "savingsPlan/TotalCommitmentToDate",
            "savings_plan_total_commitment_to_date",
        )),
        c.money(&n(
            "savingsPlan/UsedCommitment",
            "savings_plan_used_commitment",
        )),
    ) {
        effective += &format!(" WHEN 'SavingsPlanRecurringFee' THEN {total} - {used}");
    }
    if let (Some(amortized), Some(recurring)) = (
        c.money(&n(
            "reservation/UnusedAmortizedUpfrontFeeForBillingPeriod",
            "reservation_unused_amortized_upfront_fee_for_billing_period",
        )),
        c.money(&n(
            "reservation/UnusedRecurringFee",
            "reservation_unused_recurring_fee",
        )),
    ) {
        effective += &format!(" WHEN 'RIFee' THEN {amortized} + {recurring}");
    }
    if let Some(arn) = c.name(&n(
        "reservation/ReservationARN",
        "reservation_reservation_a_r_n",
    )) {
        // The upfront fee of a reservation is spread over its usage (DiscountedUsage above).
        effective += &format!(
            " WHEN 'Fee' THEN CASE WHEN costscope_txt({}) <> '' THEN 0 ELSE {unblended} END",
            quote_ident(&arn)
        );
    }
    effective += &format!(" ELSE {unblended} END");

    let list_cost = c
        .money(&n(
            "pricing/publicOnDemandCost",
            "pricing_public_on_demand_cost",
        ))
        .unwrap_or_else(|| "0".into());

    let mut region = c.first_text(&[
        "product/regionCode",
        "product/region",
        "product_region_code",
        "product_region",
    ]);
    let tags;
    if format == Format::AwsCur2 {
        if let Some(product) = c.name(&["product"]) {
            region = format!(
                "coalesce(nullif({region}, ''), json_extract_string(costscope_clean({}), '$.region'), '')",
                quote_ident(&product)
            );
        }
        tags = match c.json_tags(&["resource_tags"]) {
            // CUR 2.0 keys are `user_<tag>` for user tags and `aws_<tag>` for AWS tags.
            Some(map) => format!(
                "coalesce(map_from_entries(list_filter(list_transform(map_entries({map}), \
                 lambda e: {{'k': CASE WHEN starts_with(e.key, 'user_') THEN e.key[6:] ELSE e.key END, \
                 'v': coalesce(e.value, '')}}), lambda e: e.v <> '')), {EMPTY_TAGS})"
            ),
            None => EMPTY_TAGS.to_owned(),
        };
    } else {
        let mut pairs = Vec::new();
        for name in c.header().names() {
            let key = if let Some(rest) = strip_prefix_ci(name, "resourceTags/") {
                rest.strip_prefix("user:").unwrap_or(rest).to_owned()
            } else if let Some(rest) = strip_prefix_ci(name, "resource_tags_user_") {
                rest.to_owned()
            } else if let Some(rest) = strip_prefix_ci(name, "resource_tags_aws_") {
                format!("aws:{rest}")
            } else {
                continue;
            };
            if !key.is_empty() && !pairs.iter().any(|(k, _): &(String, String)| *k == key) {
                pairs.push((key, name.clone()));
            }
        }
        tags = tags_from_columns(&pairs);
    }

    let main = Exprs {
        billing_account_id: format!("costscope_txt({})", quote_ident(&payer)),
        account_id: format!("costscope_txt({})", quote_ident(&account)),
        account_name: c.text(&["line_item_usage_account_name"]),
        charge_period_start,
        charge_period_end,
        billing_period_start: format!("CAST({billing_period_start} AS DATE)"),
        service: c.first_text(&[
            "lineItem/ProductCode",
            "line_item_product_code",
            "product_servicecode",
            "product/ProductName",
            "product_product_name",
        ]),
        service_category: c.text(&["product/productFamily", "product_product_family"]),
        region,
        usage_type: c.text(&n("lineItem/UsageType", "line_item_usage_type")),
        charge_category: format!("costscope_charge_category({line_type})"),
        cost_type: line_type,
        resource_id: c.text(&n("lineItem/ResourceId", "line_item_resource_id")),
        resource_name: "''".into(),
        resource_type: "''".into(),
        billed_cost: unblended,
        effective_cost: effective,
        list_cost,
        currency: c.text(&n("lineItem/CurrencyCode", "line_item_currency_code")),
        usage_quantity: c.quantity(&n("lineItem/UsageAmount", "line_item_usage_amount")),
        usage_unit: c.text(&n("pricing/unit", "pricing_unit")),
        tags,
        details: Details {
            billing_account_name: c.opt_text(&["bill_payer_account_name"]),
            billing_period_end: c
                .timestamp(&n(
                    "bill/BillingPeriodEndDate",
                    "bill_billing_period_end_date",
                ))
                .unwrap_or_else(|| "NULL".into()),
            charge_description: c.opt_text(&n(
                "lineItem/LineItemDescription",
                "line_item_line_item_description",
            )),
            pricing_unit: c.opt_text(&n("pricing/unit", "pricing_unit")),
            sku_id: c.opt_text(&n("product/sku", "product_sku")),
            sku_price_id: c.opt_text(&n("pricing/RateCode", "pricing_rate_code")),
            invoice_issuer: c.opt_text(&n("bill/InvoicingEntity", "bill_invoicing_entity")),
            commitment_discount_id: c.opt_first_text(&[
                "reservation/ReservationARN",
                "reservation_reservation_a_r_n",
                "savingsPlan/SavingsPlanARN",
                "savings_plan_savings_plan_a_r_n",
            ]),
            availability_zone: c.opt_text(&n(
                "lineItem/AvailabilityZone",
                "line_item_availability_zone",
            )),
            region_name: c.opt_text(&n("product/location", "product_location")),
            ..Details::default()
        },
    };
    Ok(Plan {
        provider: ProviderSource::Fixed(Provider::Aws),
        main,
        extra: None,
        checks: take(c),
    })
}

fn strip_prefix_ci<'s>(value: &'s str, prefix: &str) -> Option<&'s str> {
    let head = value.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| &value[prefix.len()..])
}

/// `'amount': -1.5` (the koku CSV dump writes Python literals) or `"amount":-1.5` (JSON).
const CREDIT_AMOUNT: &str = r#"['"]amount['"]\s*:\s*([-+0-9.eE]+)"#;
/// `{'key': 'app', 'value': 'web'}` in either quoting.
const LABEL: &str =
    r#"['"]key['"]\s*:\s*['"]([^'"]*)['"]\s*,\s*['"]value['"]\s*:\s*['"]([^'"]*)['"]"#;

fn gcp(c: &mut Columns<'_>) -> Result<Plan, IngestError> {
    let billing_account_id = c.text_required(&["billing_account_id"])?;
    let service = c.text_required(&["service.description"])?;
    let charge_period_start = c.timestamp_required(&["usage_start_time"])?;
    let cost = c.money_required(&["cost"])?;
    let currency = c.text_required(&["currency"])?;
    let charge_period_end = c
        .timestamp(&["usage_end_time"])
        .map(|end| format!("coalesce({end}, {charge_period_start})"))
        .unwrap_or_else(|| charge_period_start.clone());
    let month_of_usage = format!("CAST(date_trunc('month', {charge_period_start}) AS DATE)");
    let billing_period_start = match c.name(&["invoice.month"]) {
        Some(name) => {
            let ident = quote_ident(&name);
            let month = format!("try_strptime(costscope_clean({ident}), '%Y%m')");
            c.custom_check(
                &name,
                format!("(costscope_clean({ident}) IS NOT NULL AND {month} IS NULL)"),
                "is not a date",
            );
            format!("coalesce(CAST({month} AS DATE), {month_of_usage})")
        }
        None => month_of_usage,
    };
    let list_cost = c.money(&["cost_at_list"]).unwrap_or_else(|| "0".into());
    let cost_type = match c.name(&["cost_type"]) {
        Some(name) => format!(
            "coalesce(costscope_clean({}), 'regular')",
            quote_ident(&name)
        ),
        None => "'regular'".into(),
    };
    let tags = match c.name(&["labels"]) {
        Some(name) => {
            let ident = quote_ident(&name);
            let pattern = quote_literal(LABEL);
            format!(
                "coalesce(map_from_entries(list_zip(regexp_extract_all(costscope_txt({ident}), {pattern}, 1), \
                 regexp_extract_all(costscope_txt({ident}), {pattern}, 2))), {EMPTY_TAGS})"
            )
        }
        None => EMPTY_TAGS.into(),
    };
    let main = Exprs {
        billing_account_id,
        account_id: c.text(&["project.id"]),
        account_name: c.text(&["project.name"]),
        charge_period_start,
        charge_period_end,
        billing_period_start,
        service,
        service_category: "''".into(),
        region: c.first_text(&["location.region", "location.location"]),
        usage_type: c.text(&["sku.description"]),
        charge_category: format!("costscope_charge_category({cost_type})"),
        cost_type,
        resource_id: c.text(&["resource.global_name"]),
        resource_name: c.text(&["resource.name"]),
        resource_type: "''".into(),
        billed_cost: cost.clone(),
        effective_cost: cost,
        list_cost,
        currency,
        usage_quantity: c.quantity(&["usage.amount"]),
        usage_unit: c.text(&["usage.unit"]),
        tags,
        details: Details {
            charge_description: c.opt_text(&["sku.description"]),
            pricing_quantity: c.opt_quantity(&["usage.amount_in_pricing_units"]),
            pricing_unit: c.opt_text(&["usage.pricing_unit"]),
            sku_id: c.opt_text(&["sku.id"]),
            availability_zone: c.opt_text(&["location.zone"]),
            ..Details::default()
        },
    };
    // Each credit becomes a row of its own (cost type `Credit`), so that the line's net cost
    // is the sum of its rows.
    let extra = match c.name(&["credits"]) {
        Some(name) => {
            let ident = quote_ident(&name);
            let amounts = format!(
                "regexp_extract_all(costscope_txt({ident}), {}, 1)",
                quote_literal(CREDIT_AMOUNT)
            );
            c.custom_check(
                &name,
                format!(
                    "len(list_filter({amounts}, lambda a: TRY_CAST(a AS DECIMAL(18,9)) IS NULL)) > 0"
                ),
                "is not a list of credits with numeric amounts",
            );
            let amount = "costscope_money(costscope_credit_amount)".to_owned();
            let credit = Exprs {
                charge_category: "'Credit'".into(),
                cost_type: "'Credit'".into(),
                billed_cost: amount.clone(),
                effective_cost: amount,
                list_cost: "0".into(),
                usage_quantity: "0".into(),
                usage_unit: "''".into(),
                details: Details {
                    charge_class: "NULL".into(),
                    pricing_quantity: "NULL".into(),
                    ..main.details.clone()
                },
                ..main.clone()
            };
            Some((
                credit,
                format!("(SELECT *, unnest({amounts}) AS costscope_credit_amount FROM {{raw}})"),
            ))
        }
        None => None,
    };
    Ok(Plan {
        provider: ProviderSource::Fixed(Provider::Gcp),
        main,
        extra,
        checks: take(c),
    })
}

fn azure(c: &mut Columns<'_>) -> Result<Plan, IngestError> {
    let cost = c.money_required(&["CostInBillingCurrency", "PreTaxCost", "Cost"])?;
    let date = c.timestamp_required(&["Date", "UsageDateTime", "UsageDate"])?;
    let subscription = c.required(&["SubscriptionId", "SubscriptionGuid"])?;
    let currency = c.text_required(&["BillingCurrency", "BillingCurrencyCode", "Currency"])?;
    let service = c.text_required(&["MeterCategory"])?;
    let account_id = format!("costscope_txt({})", quote_ident(&subscription));
    let billing_account_id = match c.name(&["BillingAccountId"]) {
        Some(name) => format!(
            "coalesce(costscope_clean({}), {account_id})",
            quote_ident(&name)
        ),
        // Pay-as-you-go exports have no billing account: the subscription is the account.
        None => account_id.clone(),
    };
    let month_of_usage = format!("CAST(date_trunc('month', {date}) AS DATE)");
    let billing_period_start = match c.timestamp(&["BillingPeriodStartDate"]) {
        Some(start) => format!("coalesce(CAST({start} AS DATE), {month_of_usage})"),
        None => month_of_usage,
    };
    let list_cost = match c.money(&["paygCostInBillingCurrency"]) {
        Some(list) => list,
        None => match (
            c.name(&["PayGPrice"]),
            c.name(&["Quantity", "UsageQuantity"]),
        ) {
            (Some(price), Some(quantity)) => {
                let price = c.money(&[&price]).unwrap_or_default();
                c.quantity(&[&quantity]);
                format!(
                    "CAST({price} * coalesce(TRY_CAST(costscope_clean({}) AS DECIMAL(18,9)), 0) AS DECIMAL(18,9))",
                    quote_ident(&quantity)
                )
            }
            _ => "0".into(),
        },
    };
    let cost_type = match c.name(&["ChargeType"]) {
        Some(name) => format!("coalesce(costscope_clean({}), 'Usage')", quote_ident(&name)),
        None => "'Usage'".into(),
    };
    let tags = c.json_tags(&["Tags"]).unwrap_or_else(|| EMPTY_TAGS.into());
    let main = Exprs {
        billing_account_id,
        account_id,
        account_name: c.text(&["SubscriptionName"]),
        charge_period_end: format!("{date} + INTERVAL 1 DAY"),
        charge_period_start: date,
        billing_period_start,
        service,
        service_category: c.text(&["ServiceFamily"]),
        region: c.first_text(&["ResourceLocation", "Location", "MeterRegion"]),
        usage_type: c.first_text(&["MeterName", "MeterSubCategory"]),
        charge_category: format!("costscope_charge_category({cost_type})"),
        cost_type,
        resource_id: c.first_text(&["ResourceId", "InstanceId", "InstanceName"]),
        resource_name: c.text(&["ResourceName"]),
        resource_type: c.text(&["ResourceType"]),
        billed_cost: cost.clone(),
        effective_cost: cost,
        list_cost,
        currency,
        usage_quantity: c.quantity(&["Quantity", "UsageQuantity"]),
        usage_unit: c.text(&["UnitOfMeasure"]),
        tags,
        details: azure_details(c),
    };
    Ok(Plan {
        provider: ProviderSource::Fixed(Provider::Azure),
        main,
        extra: None,
        checks: take(c),
    })
}

/// What an Azure cost details export has of the FOCUS details, with Microsoft's values turned
/// into FOCUS's where the two differ (ChargeFrequency, PricingCategory).
fn azure_details(c: &mut Columns<'_>) -> Details {
    let frequency = match c.name(&["Frequency"]) {
        Some(name) => format!(
            "CASE lower(costscope_txt({})) WHEN 'usagebased' THEN 'Usage-Based' \
             WHEN 'onetime' THEN 'One-Time' WHEN 'recurring' THEN 'Recurring' END",
            quote_ident(&name)
        ),
        None => "NULL".into(),
    };
    let pricing_category = match c.name(&["PricingModel"]) {
        Some(name) => format!(
            "CASE lower(costscope_txt({})) WHEN 'ondemand' THEN 'Standard' \
             WHEN 'spot' THEN 'Dynamic' WHEN 'reservation' THEN 'Committed' \
             WHEN 'savingsplan' THEN 'Committed' END",
            quote_ident(&name)
        ),
        None => "NULL".into(),
    };
    Details {
        billing_account_name: c.opt_text(&["BillingAccountName"]),
        billing_period_end: c
            .timestamp(&["BillingPeriodEndDate"])
            .unwrap_or_else(|| "NULL".into()),
        charge_description: c.opt_text(&["ProductName", "Product"]),
        charge_frequency: frequency,
        pricing_quantity: c.opt_quantity(&["Quantity", "UsageQuantity"]),
        pricing_unit: c.opt_text(&["UnitOfMeasure"]),
        pricing_category,
        sku_id: c.opt_text(&["ProductId"]),
        commitment_discount_id: c.opt_first_text(&["BenefitId", "ReservationId"]),
        ..Details::default()
    }
}
