use std::fmt;
use std::str::FromStr;

/// A supported billing export format (the `format` override of an upload uses these names).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// FOCUS 1.0, 1.1 and 1.2 (CSV, gzip CSV, Parquet).
    Focus,
    /// AWS Cost and Usage Report, legacy (`lineItem/UnblendedCost` columns; also the
    /// Athena-style `line_item_unblended_cost` flat variant of the legacy report).
    AwsCur,
    /// AWS CUR 2.0 / Data Exports (Parquet or CSV, `line_item_unblended_cost`, map columns).
    AwsCur2,
    /// GCP Cloud Billing export, standard or detailed schema, CSV or newline-delimited JSON.
    GcpBilling,
    /// Azure cost details export (EA, MCA and pay-as-you-go column variants).
    AzureCostDetails,
}

impl Format {
    pub const ALL: [Format; 5] = [
        Format::Focus,
        Format::AwsCur,
        Format::AwsCur2,
        Format::GcpBilling,
        Format::AzureCostDetails,
    ];

    /// The name used in messages: `FOCUS`, `AWS CUR`, `AWS CUR 2.0`, `GCP billing export`,
    /// `Azure cost details`.
    pub const fn display_name(self) -> &'static str {
        match self {
            Format::Focus => "FOCUS",
            Format::AwsCur => "AWS CUR",
            Format::AwsCur2 => "AWS CUR 2.0",
            Format::GcpBilling => "GCP billing export",
            Format::AzureCostDetails => "Azure cost details",
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Format::Focus => "focus",
            Format::AwsCur => "aws-cur",
            Format::AwsCur2 => "aws-cur2",
            Format::GcpBilling => "gcp-billing",
            Format::AzureCostDetails => "azure-cost-details",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Format {
    type Err = String;

    fn from_str(value: &str) -> Result<Self, Self::Err> {
        Format::ALL
            .into_iter()
            .find(|format| format.name() == value)
            .ok_or_else(|| {
                let names: Vec<_> = Format::ALL.iter().map(|f| f.name()).collect();
                format!(
                    "Unknown format {value}; expected one of {}",
                    names.join(", ")
                )
            })
    }
}
