use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::FieldError;

/// At most this many filters on one budget (spec 2 §5 Budget, spec 1 §9 "budget 5").
pub const MAX_FILTERS: usize = 5;

/// What a budget filter narrows spend by (spec 2 §3 Budget). The `costCategory` of one reading
/// is not offered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub enum BudgetFilterType {
    CloudProvider,
    Account,
    Region,
    Service,
    Tag,
}

impl BudgetFilterType {
    pub const ALL: [BudgetFilterType; 5] = [
        BudgetFilterType::CloudProvider,
        BudgetFilterType::Account,
        BudgetFilterType::Region,
        BudgetFilterType::Service,
        BudgetFilterType::Tag,
    ];

    /// The wire name: `cloudProvider`, `account`, `region`, `service`, `tag`.
    pub const fn as_str(self) -> &'static str {
        match self {
            BudgetFilterType::CloudProvider => "cloudProvider",
            BudgetFilterType::Account => "account",
            BudgetFilterType::Region => "region",
            BudgetFilterType::Service => "service",
            BudgetFilterType::Tag => "tag",
        }
    }
}

/// One filter as sent and stored: a type and the values it matches (any of them).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct BudgetFilter {
    #[serde(rename = "filterType")]
    pub filter_type: BudgetFilterType,
    #[serde(rename = "filterValues", default)]
    #[schema(required = true)]
    pub values: Vec<String>,
}

/// A budget's filters, combined with AND (spec 2 §5 Budget).
///
/// Parsing trims each value and drops blank and repeated values; a filter left without values
/// constrains nothing and is dropped, as the wizard only sends configured filters. What remains
/// must be 1 to 5 filters ('At least one filter must be configured', 'Maximum of 5 filters
/// allowed') of distinct types ('Duplicate filter types are not allowed'). The count is checked
/// before duplicates so that both messages can be reached (six filters always repeat a type).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BudgetFilters(Vec<BudgetFilter>);

impl BudgetFilters {
    pub fn parse(filters: Vec<BudgetFilter>) -> Result<Self, FieldError> {
        let filters: Vec<BudgetFilter> = filters
            .into_iter()
            .map(normalise)
            .filter(|filter| !filter.values.is_empty())
            .collect();
        let broken = if filters.is_empty() {
            "At least one filter must be configured"
        } else if filters.len() > MAX_FILTERS {
            "Maximum of 5 filters allowed"
        } else if has_duplicate_types(&filters) {
            "Duplicate filter types are not allowed"
        } else {
            return Ok(Self(filters));
        };
        Err(FieldError::new("filters", broken))
    }

    pub fn as_slice(&self) -> &[BudgetFilter] {
        &self.0
    }

    pub fn into_inner(self) -> Vec<BudgetFilter> {
        self.0
    }
}

fn normalise(filter: BudgetFilter) -> BudgetFilter {
    let mut values: Vec<String> = Vec::with_capacity(filter.values.len());
    for value in filter.values {
        let value = value.trim();
        if !value.is_empty() && !values.iter().any(|kept| kept == value) {
            values.push(value.to_owned());
        }
    }
    BudgetFilter {
        filter_type: filter.filter_type,
        values,
    }
}

fn has_duplicate_types(filters: &[BudgetFilter]) -> bool {
    filters.iter().enumerate().any(|(index, filter)| {
        filters[..index]
            .iter()
            .any(|earlier| earlier.filter_type == filter.filter_type)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn filter(filter_type: BudgetFilterType, values: &[&str]) -> BudgetFilter {
        BudgetFilter {
            filter_type,
            values: values.iter().map(|value| (*value).to_owned()).collect(),
        }
    }

    fn message(filters: Vec<BudgetFilter>) -> &'static str {
        BudgetFilters::parse(filters).unwrap_err().message
    }

    #[test]
    fn no_filters_is_refused() {
        assert_eq!(message(vec![]), "At least one filter must be configured");
    }

    #[test]
    fn filters_without_values_do_not_count() {
        assert_eq!(
            message(vec![
                filter(BudgetFilterType::Account, &[]),
                filter(BudgetFilterType::Region, &["", "  "]),
            ]),
            "At least one filter must be configured"
        );
    }

    #[test]
    fn one_filter_with_a_value_is_enough() {
        let filters =
            BudgetFilters::parse(vec![filter(BudgetFilterType::Account, &["123456789012"])])
                .unwrap();
        assert_eq!(filters.as_slice().len(), 1);
    }

    #[test]
    fn five_filters_are_accepted() {
        let all = BudgetFilterType::ALL
            .iter()
            .map(|filter_type| filter(*filter_type, &["x"]))
            .collect();
        assert_eq!(BudgetFilters::parse(all).unwrap().as_slice().len(), 5);
    }

    #[test]
    fn six_filters_are_too_many() {
        let mut six: Vec<BudgetFilter> = BudgetFilterType::ALL
            .iter()
            .map(|filter_type| filter(*filter_type, &["x"]))
            .collect();
        six.push(filter(BudgetFilterType::Tag, &["env:prod"]));
        assert_eq!(message(six), "Maximum of 5 filters allowed");
    }

    #[test]
    fn the_same_type_twice_is_refused() {
        assert_eq!(
            message(vec![
                filter(BudgetFilterType::Service, &["Amazon EC2"]),
                filter(BudgetFilterType::Service, &["Amazon S3"]),
            ]),
            "Duplicate filter types are not allowed"
        );
    }

    #[test]
    fn values_are_trimmed_and_deduplicated_and_empty_filters_dropped() {
        let filters = BudgetFilters::parse(vec![
            filter(
                BudgetFilterType::Region,
                &[" us-east-1 ", "us-east-1", "", "eu-west-1"],
            ),
            filter(BudgetFilterType::Region, &[]),
        ])
        .unwrap();
        assert_eq!(
            filters.into_inner(),
            vec![filter(
                BudgetFilterType::Region,
                &["us-east-1", "eu-west-1"]
            )]
        );
    }

    #[test]
    fn errors_are_on_the_filters_field() {
        assert_eq!(BudgetFilters::parse(vec![]).unwrap_err().field, "filters");
    }

    #[test]
    fn serde_uses_the_spec_field_and_type_names() {
        let json = r#"{"filterType":"cloudProvider","filterValues":["AWS"]}"#;
        let parsed: BudgetFilter = serde_json::from_str(json).unwrap();
        assert_eq!(parsed, filter(BudgetFilterType::CloudProvider, &["AWS"]));
        assert_eq!(serde_json::to_string(&parsed).unwrap(), json);
        for filter_type in BudgetFilterType::ALL {
            assert_eq!(
                serde_json::to_string(&filter_type).unwrap(),
                format!("\"{}\"", filter_type.as_str())
            );
        }
        assert!(serde_json::from_str::<BudgetFilterType>("\"costCategory\"").is_err());
    }
}
