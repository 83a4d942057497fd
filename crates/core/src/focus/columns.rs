//! The cost-and-usage columns of each FOCUS version Costscope exports, in the specification's
//! (alphabetical) order, with their feature level and data type. Sources: the FOCUS 1.2
//! specification's column files (tag v1.2) and, for 1.3, its published column files
//! (ServiceProviderName and HostProviderName mandatory; ProviderName and PublisherName
//! deprecated but still mandatory until 1.4 removes them). See `/docs/FOCUS-EXPORT.md`.

/// A column's FOCUS data type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColumnType {
    String,
    Decimal,
    /// ISO 8601 UTC, `YYYY-MM-DDTHH:mm:ssZ`.
    DateTime,
    /// A JSON object (Tags, SkuPriceDetails, AllocatedTags, …).
    Json,
}

/// One column of a FOCUS version.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FocusColumn {
    /// The column id (PascalCase), as written in a file's header.
    pub name: &'static str,
    /// Feature level Mandatory: the column is present in every FOCUS dataset of the version.
    pub mandatory: bool,
    pub kind: ColumnType,
}

const fn mandatory(name: &'static str, kind: ColumnType) -> FocusColumn {
    FocusColumn {
        name,
        mandatory: true,
        kind,
    }
}

const fn optional(name: &'static str, kind: ColumnType) -> FocusColumn {
    FocusColumn {
        name,
        mandatory: false,
        kind,
    }
}

use ColumnType::{DateTime as D, Decimal as N, Json as J, String as S};

/// FOCUS 1.2: 57 columns, 21 of them mandatory.
pub const FOCUS_1_2: &[FocusColumn] = &[
    optional("AvailabilityZone", S),
    mandatory("BilledCost", N),
    mandatory("BillingAccountId", S),
    mandatory("BillingAccountName", S),
    optional("BillingAccountType", S),
    mandatory("BillingCurrency", S),
    mandatory("BillingPeriodEnd", D),
    mandatory("BillingPeriodStart", D),
    optional("CapacityReservationId", S),
    optional("CapacityReservationStatus", S),
    mandatory("ChargeCategory", S),
    mandatory("ChargeClass", S),
    mandatory("ChargeDescription", S),
    optional("ChargeFrequency", S),
    mandatory("ChargePeriodEnd", D),
    mandatory("ChargePeriodStart", D),
    optional("CommitmentDiscountCategory", S),
    optional("CommitmentDiscountId", S),
    optional("CommitmentDiscountName", S),
    optional("CommitmentDiscountQuantity", N),
    optional("CommitmentDiscountStatus", S),
    optional("CommitmentDiscountType", S),
    optional("CommitmentDiscountUnit", S),
    optional("ConsumedQuantity", N),
    optional("ConsumedUnit", S),
    mandatory("ContractedCost", N),
    optional("ContractedUnitPrice", N),
    mandatory("EffectiveCost", N),
    optional("InvoiceId", S),
    mandatory("InvoiceIssuerName", S),
    mandatory("ListCost", N),
    optional("ListUnitPrice", N),
    optional("PricingCategory", S),
    optional("PricingCurrency", S),
    optional("PricingCurrencyContractedUnitPrice", N),
    optional("PricingCurrencyEffectiveCost", N),
    optional("PricingCurrencyListUnitPrice", N),
    mandatory("PricingQuantity", N),
    mandatory("PricingUnit", S),
    mandatory("ProviderName", S),
    mandatory("PublisherName", S),
    optional("RegionId", S),
    optional("RegionName", S),
    optional("ResourceId", S),
    optional("ResourceName", S),
    optional("ResourceType", S),
    mandatory("ServiceCategory", S),
    mandatory("ServiceName", S),
    optional("ServiceSubcategory", S),
    optional("SkuId", S),
    optional("SkuMeter", S),
    optional("SkuPriceDetails", J),
    optional("SkuPriceId", S),
    optional("SubAccountId", S),
    optional("SubAccountName", S),
    optional("SubAccountType", S),
    optional("Tags", J),
];

/// FOCUS 1.3: the 57 columns of 1.2 and the eight it adds (65), 23 of them mandatory.
pub const FOCUS_1_3: &[FocusColumn] = &[
    optional("AllocatedMethodDetails", J),
    optional("AllocatedMethodId", S),
    optional("AllocatedResourceId", S),
    optional("AllocatedResourceName", S),
    optional("AllocatedTags", J),
    optional("AvailabilityZone", S),
    mandatory("BilledCost", N),
    mandatory("BillingAccountId", S),
    mandatory("BillingAccountName", S),
    optional("BillingAccountType", S),
    mandatory("BillingCurrency", S),
    mandatory("BillingPeriodEnd", D),
    mandatory("BillingPeriodStart", D),
    optional("CapacityReservationId", S),
    optional("CapacityReservationStatus", S),
    mandatory("ChargeCategory", S),
    mandatory("ChargeClass", S),
    mandatory("ChargeDescription", S),
    optional("ChargeFrequency", S),
    mandatory("ChargePeriodEnd", D),
    mandatory("ChargePeriodStart", D),
    optional("CommitmentDiscountCategory", S),
    optional("CommitmentDiscountId", S),
    optional("CommitmentDiscountName", S),
    optional("CommitmentDiscountQuantity", N),
    optional("CommitmentDiscountStatus", S),
    optional("CommitmentDiscountType", S),
    optional("CommitmentDiscountUnit", S),
    optional("ConsumedQuantity", N),
    optional("ConsumedUnit", S),
    optional("ContractApplied", J),
    mandatory("ContractedCost", N),
    optional("ContractedUnitPrice", N),
    mandatory("EffectiveCost", N),
    mandatory("HostProviderName", S),
    optional("InvoiceId", S),
    mandatory("InvoiceIssuerName", S),
    mandatory("ListCost", N),
    optional("ListUnitPrice", N),
    optional("PricingCategory", S),
    optional("PricingCurrency", S),
    optional("PricingCurrencyContractedUnitPrice", N),
    optional("PricingCurrencyEffectiveCost", N),
    optional("PricingCurrencyListUnitPrice", N),
    mandatory("PricingQuantity", N),
    mandatory("PricingUnit", S),
    mandatory("ProviderName", S),
    mandatory("PublisherName", S),
    optional("RegionId", S),
    optional("RegionName", S),
    optional("ResourceId", S),
    optional("ResourceName", S),
    optional("ResourceType", S),
    mandatory("ServiceCategory", S),
    mandatory("ServiceName", S),
    mandatory("ServiceProviderName", S),
    optional("ServiceSubcategory", S),
    optional("SkuId", S),
    optional("SkuMeter", S),
    optional("SkuPriceDetails", J),
    optional("SkuPriceId", S),
    optional("SubAccountId", S),
    optional("SubAccountName", S),
    optional("SubAccountType", S),
    optional("Tags", J),
];

/// The columns of `version`, in the specification's order.
pub fn columns(version: super::FocusVersion) -> &'static [FocusColumn] {
    match version {
        super::FocusVersion::V1_2 => FOCUS_1_2,
        super::FocusVersion::V1_3 => FOCUS_1_3,
    }
}

/// The allowed ChargeCategory values (1.0 to 1.3).
pub const CHARGE_CATEGORIES: [&str; 5] = ["Usage", "Purchase", "Tax", "Credit", "Adjustment"];

/// The allowed ServiceCategory values (1.2 and 1.3); each has the ServiceSubcategory
/// `Other (<category>)`.
pub const SERVICE_CATEGORIES: [&str; 19] = [
    "AI and Machine Learning",
    "Analytics",
    "Business Applications",
    "Compute",
    "Databases",
    "Developer Tools",
    "Multicloud",
    "Identity",
    "Integration",
    "Internet of Things",
    "Management and Governance",
    "Media",
    "Migration",
    "Mobile",
    "Networking",
    "Security",
    "Storage",
    "Web",
    "Other",
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::focus::FocusVersion;

    fn names(columns: &[FocusColumn]) -> Vec<&'static str> {
        columns.iter().map(|column| column.name).collect()
    }

    #[test]
    fn each_version_has_the_specifications_column_count_in_alphabetical_order() {
        for (version, count, mandatory) in
            [(FocusVersion::V1_2, 57, 21), (FocusVersion::V1_3, 65, 23)]
        {
            let list = columns(version);
            assert_eq!(list.len(), count, "{version:?}");
            assert_eq!(
                list.iter().filter(|column| column.mandatory).count(),
                mandatory,
                "{version:?}"
            );
            let mut sorted = names(list);
            sorted.sort_unstable();
            assert_eq!(
                sorted,
                names(list),
                "{version:?} is not in the spec's order"
            );
        }
    }

    #[test]
    fn version_1_3_keeps_every_1_2_column_with_the_same_level_and_adds_eight() {
        for column in FOCUS_1_2 {
            assert!(FOCUS_1_3.contains(column), "{} missing in 1.3", column.name);
        }
        let added: Vec<_> = FOCUS_1_3
            .iter()
            .filter(|column| !FOCUS_1_2.contains(column))
            .map(|column| column.name)
            .collect();
        assert_eq!(
            added,
            [
                "AllocatedMethodDetails",
                "AllocatedMethodId",
                "AllocatedResourceId",
                "AllocatedResourceName",
                "AllocatedTags",
                "ContractApplied",
                "HostProviderName",
                "ServiceProviderName",
            ]
        );
    }
}
