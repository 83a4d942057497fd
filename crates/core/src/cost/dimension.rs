use std::str::FromStr;

/// At most this many `group_by_dimensions` (spec 1 §9 "Group by limit 4").
pub const MAX_GROUP_BY_DIMENSIONS: usize = 4;

/// A grouping dimension of the cost API (spec 1 §9 "Group keys mapped": `none` means no grouping
/// and is not a dimension).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dimension {
    Account,
    Region,
    Service,
    CloudProvider,
    CostType,
    UsageType,
}

impl Dimension {
    /// The key used in requests and as the field name in answer rows.
    pub const fn key(self) -> &'static str {
        match self {
            Dimension::Account => "account",
            Dimension::Region => "region",
            Dimension::Service => "service",
            Dimension::CloudProvider => "cloud_provider",
            Dimension::CostType => "cost_type",
            Dimension::UsageType => "usage_type",
        }
    }
}

impl FromStr for Dimension {
    type Err = String;

    fn from_str(value: &str) -> Result<Self, Self::Err> {
        match value {
            "account" => Ok(Dimension::Account),
            "region" => Ok(Dimension::Region),
            "service" => Ok(Dimension::Service),
            "cloud_provider" => Ok(Dimension::CloudProvider),
            "cost_type" => Ok(Dimension::CostType),
            "usage_type" => Ok(Dimension::UsageType),
            other => Err(format!("Unknown group by dimension {other}")),
        }
    }
}
