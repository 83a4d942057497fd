//! The FOCUS reader (versions 0.5 to 1.4 and the vendors' flavours of it): which columns the
//! specification defines, which custom columns a file adds, which FOCUS datasets are not cost
//! line items, and the mapping of a Cost and Usage file to the normalised columns.

use crate::plan::{map_of, Columns, Details, Exprs, Header, Plan, ProviderSource, EMPTY_TAGS};
use crate::sql::quote_ident;
use crate::IngestError;

/// Every column the FOCUS Cost and Usage dataset defines, from 0.5 to 1.4 (deprecated and
/// renamed ones included, and the 1.0-preview names `Provider`, `Publisher`, `InvoiceIssuer`
/// that OCI's FOCUS reports still use). Any other column of a FOCUS file is a custom column (`x_…` by the
/// specification, but vendors also write their own names, e.g. OCI's `oci_…`), kept in `extra`.
const STANDARD_COLUMNS: &[&str] = &[
    "AllocatedMethodDetails",
    "AllocatedMethodId",
    "AllocatedResourceId",
    "AllocatedResourceName",
    "AllocatedTags",
    "AmortizedCost",
    "AvailabilityZone",
    "BilledCost",
    "BillingAccountId",
    "BillingAccountName",
    "BillingAccountType",
    "BillingCurrency",
    "BillingPeriodEnd",
    "BillingPeriodStart",
    "CapacityReservationId",
    "CapacityReservationStatus",
    "ChargeCategory",
    "ChargeClass",
    "ChargeDescription",
    "ChargeFrequency",
    "ChargePeriodEnd",
    "ChargePeriodStart",
    "ChargeSubcategory",
    "ChargeType",
    "CommitmentDiscountCategory",
    "CommitmentDiscountId",
    "CommitmentDiscountName",
    "CommitmentDiscountQuantity",
    "CommitmentDiscountStatus",
    "CommitmentDiscountType",
    "CommitmentDiscountUnit",
    "ConsumedQuantity",
    "ConsumedUnit",
    "ContractApplied",
    "ContractedCost",
    "ContractedUnitPrice",
    "EffectiveCost",
    "HostProviderName",
    "InvoiceId",
    "InvoiceIssuer",
    "InvoiceIssuerName",
    "ListCost",
    "ListUnitPrice",
    "PricingCategory",
    "PricingCurrency",
    "PricingCurrencyContractedUnitPrice",
    "PricingCurrencyEffectiveCost",
    "PricingCurrencyListUnitPrice",
    "PricingQuantity",
    "PricingUnit",
    "Provider",
    "ProviderName",
    "Publisher",
    "PublisherName",
    "Region",
    "RegionId",
    "RegionName",
    "ResourceId",
    "ResourceName",
    "ResourceType",
    "ServiceCategory",
    "ServiceName",
    "ServiceProviderName",
    "ServiceSubcategory",
    "SkuId",
    "SkuMeter",
    "SkuPriceDetails",
    "SkuPriceId",
    "SubAccountId",
    "SubAccountName",
    "SubAccountType",
    "Tags",
    "UsageQuantity",
    "UsageUnit",
];

/// The split cost allocation columns of FOCUS 1.3 (docs/INGESTION.md says how they are read).
/// They are also kept in `extra` as they are, so that nothing of the allocation is lost.
const ALLOCATED_COLUMNS: &[&str] = &[
    "AllocatedMethodId",
    "AllocatedMethodDetails",
    "AllocatedResourceId",
    "AllocatedResourceName",
    "AllocatedTags",
];

/// The FOCUS datasets other than Cost and Usage, each with columns only it has. A file of one
/// of them holds no cost line items and is refused by name rather than read as costs.
const OTHER_DATASETS: &[(&str, &[&str])] = &[
    (
        "Invoice Detail",
        &[
            "InvoiceDetailId",
            "InvoiceDetailCreated",
            "InvoiceDetailDescription",
            "InvoiceIssueDate",
        ],
    ),
    (
        "Billing Period",
        &[
            "BillingPeriodStatus",
            "BillingPeriodCreated",
            "BillingPeriodLastUpdated",
        ],
    ),
    (
        "Contract Commitment",
        &[
            "ContractCommitmentId",
            "ContractCommitmentCost",
            "ContractCommitmentPeriodStart",
        ],
    ),
];

/// The FOCUS dataset a header belongs to when it is not Cost and Usage (it has no
/// ChargePeriodStart, and columns only that dataset has).
pub(crate) fn other_dataset(header: &Header) -> Option<&'static str> {
    if header.has("ChargePeriodStart") {
        return None;
    }
    OTHER_DATASETS
        .iter()
        .find(|(_, columns)| columns.iter().any(|column| header.has(column)))
        .map(|(name, _)| *name)
}

/// The refusal of a FOCUS dataset that is not cost line items.
pub(crate) fn other_dataset_refusal(display_name: &str, dataset: &str) -> IngestError {
    IngestError::new(format!(
        "{display_name}: this is a FOCUS {dataset} dataset, not cost and usage line items; \
         upload the FOCUS Cost and Usage dataset of the same export"
    ))
}

fn is_standard(name: &str) -> bool {
    STANDARD_COLUMNS
        .iter()
        .any(|standard| standard.eq_ignore_ascii_case(name))
}

pub(crate) fn plan(c: &mut Columns<'_>, display_name: &str) -> Result<Plan, IngestError> {
    // FOCUS 1.3 names the provider ServiceProviderName (ProviderName is deprecated there and
    // gone in 1.4); up to 1.2 only ProviderName exists (`Provider` in OCI's reports).
    let provider = c
        .name(&["ServiceProviderName", "ProviderName", "Provider"])
        .ok_or_else(|| {
            IngestError::new(format!(
                "{display_name}: missing column \"ProviderName\" (\"ServiceProviderName\" from \
                 FOCUS 1.3) required by the FOCUS format"
            ))
        })?;
    let billing_account_id = c.text_required(&["BillingAccountId"])?;
    let billing_period_start = c.timestamp_required(&["BillingPeriodStart"])?;
    let charge_period_start = c.timestamp_required(&["ChargePeriodStart"])?;
    let charge_period_end = c.timestamp_required(&["ChargePeriodEnd"])?;
    let service = c.text_required(&["ServiceName"])?;
    let charge_category = c.text_required(&["ChargeCategory", "ChargeType"])?;
    let billed_cost = c.money_required(&["BilledCost"])?;
    let effective_cost = c.money_required(&["EffectiveCost", "AmortizedCost"])?;
    let currency = c.text_required(&["BillingCurrency"])?;
    let list_cost = c.money(&["ListCost"]).unwrap_or_else(|| "0".into());
    let usage_quantity = c.quantity(&["ConsumedQuantity", "UsageQuantity", "PricingQuantity"]);
    let usage_unit = c.text(&["ConsumedUnit", "UsageUnit", "PricingUnit"]);
    let resource_tags = c.json_tags(&["Tags"]);
    let allocated_tags = c.json_tags(&["AllocatedTags"]);
    // An allocated charge is attributed to the allocated resource, with its tags added to (and
    // taking precedence over) the origin resource's.
    let tags = match (resource_tags, allocated_tags) {
        (Some(tags), Some(allocated)) => format!("map_concat({tags}, {allocated})"),
        (Some(tags), None) | (None, Some(tags)) => tags,
        (None, None) => EMPTY_TAGS.into(),
    };
    let details = Details {
        billing_account_name: c.opt_text(&["BillingAccountName"]),
        billing_period_end: c
            .timestamp(&["BillingPeriodEnd"])
            .unwrap_or_else(|| "NULL".into()),
        charge_class: c.opt_text(&["ChargeClass"]),
        charge_description: c.opt_text(&["ChargeDescription"]),
        charge_frequency: c.opt_text(&["ChargeFrequency"]),
        contracted_cost: c.opt_money(&["ContractedCost"]),
        pricing_quantity: c.opt_quantity(&["PricingQuantity"]),
        pricing_unit: c.opt_text(&["PricingUnit"]),
        pricing_category: c.opt_text(&["PricingCategory"]),
        sku_id: c.opt_text(&["SkuId"]),
        sku_price_id: c.opt_text(&["SkuPriceId"]),
        invoice_issuer: c.opt_text(&["InvoiceIssuerName", "InvoiceIssuer"]),
        host_provider: c.opt_text(&["HostProviderName", "PublisherName", "Publisher"]),
        commitment_discount_id: c.opt_text(&["CommitmentDiscountId"]),
        commitment_discount_type: c.opt_text(&["CommitmentDiscountType"]),
        commitment_discount_status: c.opt_text(&["CommitmentDiscountStatus"]),
        availability_zone: c.opt_text(&["AvailabilityZone"]),
        region_name: c.opt_text(&["RegionName"]),
        extra: extra(c),
    };
    let main = Exprs {
        billing_account_id,
        account_id: c.text(&["SubAccountId"]),
        account_name: c.text(&["SubAccountName"]),
        charge_period_start,
        charge_period_end,
        billing_period_start,
        service,
        service_category: c.text(&["ServiceCategory"]),
        region: c.text(&["RegionId", "Region"]),
        usage_type: c.first_text(&["x_UsageType", "SkuMeter", "ChargeDescription", "SkuId"]),
        cost_type: charge_category.clone(),
        charge_category,
        resource_id: c.first_text(&["AllocatedResourceId", "ResourceId"]),
        resource_name: c.first_text(&["AllocatedResourceName", "ResourceName"]),
        resource_type: c.text(&["ResourceType"]),
        billed_cost,
        effective_cost,
        list_cost,
        currency,
        usage_quantity,
        usage_unit,
        tags,
        details,
    };
    Ok(Plan {
        provider: ProviderSource::Column(provider),
        main,
        extra: None,
        checks: std::mem::take(&mut c.checks),
    })
}

/// The `extra` map: every custom column of the file by its own name, the 1.3 Allocated*
/// columns, and, on an allocated row, the origin charge's ResourceId and ResourceName (which
/// `resource_id` / `resource_name` replace with the allocated resource's). NULL (no cost at all)
/// for a file without custom or Allocated* columns.
fn extra(c: &Columns<'_>) -> String {
    let mut entries: Vec<(String, String)> = Vec::new();
    let text = |name: &str| format!("costscope_txt({})", quote_ident(name));
    for name in c.header().names() {
        let allocated = ALLOCATED_COLUMNS
            .iter()
            .any(|column| column.eq_ignore_ascii_case(name));
        if (allocated || !is_standard(name)) && !name.is_empty() {
            entries.push((name.clone(), text(name)));
        }
    }
    if let Some(allocated) = c.name(&["AllocatedResourceId"]) {
        for origin in ["ResourceId", "ResourceName"] {
            if let Some(column) = c.name(&[origin]) {
                entries.push((
                    origin.to_owned(),
                    format!(
                        "CASE WHEN costscope_clean({}) IS NULL THEN '' ELSE {} END",
                        quote_ident(&allocated),
                        text(&column)
                    ),
                ));
            }
        }
    }
    if entries.is_empty() {
        "NULL".to_owned()
    } else {
        map_of(&entries)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invoice_detail_and_billing_period_files_are_other_datasets() {
        let header = |names: &[&str]| Header::new(names.iter().map(|n| (*n).to_owned()).collect());
        assert_eq!(
            other_dataset(&header(&[
                "BilledCost",
                "BillingAccountId",
                "InvoiceDetailId",
                "InvoiceId"
            ])),
            Some("Invoice Detail")
        );
        assert_eq!(
            other_dataset(&header(&[
                "BillingPeriodStart",
                "BillingPeriodEnd",
                "BillingPeriodStatus"
            ])),
            Some("Billing Period")
        );
        assert_eq!(
            other_dataset(&header(&[
                "BilledCost",
                "ChargePeriodStart",
                "InvoiceDetailId"
            ])),
            None
        );
    }

    #[test]
    fn standard_columns_are_matched_ignoring_case() {
        assert!(is_standard("SkuPriceid"));
        assert!(is_standard("ServiceProviderName"));
        assert!(!is_standard("x_SkuMeterCategory"));
        assert!(!is_standard("oci_CompartmentId"));
    }
}
