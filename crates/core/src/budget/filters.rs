use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::FieldError;

/// At most this many filters on one budget (spec 2 §5 Budget, spec 1 §9 "budget 5").
pub const MAX_FILTERS: usize = 5;
/// At most this many filter entries in a request, empty ones included (those are dropped, and
/// only the 5 left may have values); more is refused before anything else is read.
pub const MAX_FILTER_ENTRIES: usize = 20;
/// At most this many values in one filter (the spec gives no figure; a budget's spend is read
/// with every value in the query, on every list of the tenant's budgets).
pub const MAX_FILTER_VALUES: usize = 100;
/// At most this many characters in one filter value (spec 1 §9 "max filter value length 100").
pub const MAX_FILTER_VALUE_CHARS: usize = 100;
/// At most this many tag keys in the tag filter: each key becomes one ORed condition group of
/// the spend query, carrying every other filter (see the server's `budgets::filter`).
pub const MAX_TAG_KEYS: usize = 10;

pub const TOO_MANY_FILTERS: &str = "Maximum of 5 filters allowed";
pub const TOO_MANY_VALUES: &str = "Maximum of 100 values allowed per filter";
pub const VALUE_TOO_LONG: &str = "Filter values must be at most 100 characters";
pub const TOO_MANY_TAG_KEYS: &str = "Maximum of 10 tag keys allowed";

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
        Self::check_size(&filters)?;
        let filters: Vec<BudgetFilter> = filters
            .into_iter()
            .map(normalise)
            .filter(|filter| !filter.values.is_empty())
            .collect();
        let broken = if filters.is_empty() {
            "At least one filter must be configured"
        } else if filters.len() > MAX_FILTERS {
            TOO_MANY_FILTERS
        } else if has_duplicate_types(&filters) {
            "Duplicate filter types are not allowed"
        } else {
            return Ok(Self(filters));
        };
        Err(FieldError::new("filters", broken))
    }

    /// The size bounds, checked on the filters as sent before any other rule, so that a huge
    /// list is refused at once (and never stored, to be re-read on every budget list):
    /// at most 20 entries ('Maximum of 5 filters allowed'), 100 values per filter ('Maximum of
    /// 100 values allowed per filter'), 100 characters per value ('Filter values must be at
    /// most 100 characters') and 10 tag keys ('Maximum of 10 tag keys allowed'); all on the
    /// `filters` field.
    pub fn check_size(filters: &[BudgetFilter]) -> Result<(), FieldError> {
        let broken = if filters.len() > MAX_FILTER_ENTRIES {
            TOO_MANY_FILTERS
        } else if filters
            .iter()
            .any(|filter| filter.values.len() > MAX_FILTER_VALUES)
        {
            TOO_MANY_VALUES
        } else if filters
            .iter()
            .flat_map(|filter| &filter.values)
            .any(|value| value.trim().chars().count() > MAX_FILTER_VALUE_CHARS)
        {
            VALUE_TOO_LONG
        } else if tag_keys(filters) > MAX_TAG_KEYS {
            TOO_MANY_TAG_KEYS
        } else {
            return Ok(());
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

/// Distinct tag keys over every tag filter: `key:value` counts `key`, a bare `key` itself.
fn tag_keys(filters: &[BudgetFilter]) -> usize {
    let keys: std::collections::HashSet<&str> = filters
        .iter()
        .filter(|filter| filter.filter_type == BudgetFilterType::Tag)
        .flat_map(|filter| &filter.values)
        .map(|value| {
            value
                .split_once(':')
                .map_or(value.as_str(), |(key, _)| key)
                .trim()
        })
        .filter(|key| !key.is_empty())
        .collect();
    keys.len()
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

    fn many(prefix: &str, count: usize) -> Vec<String> {
        (0..count).map(|index| format!("{prefix}{index}")).collect()
    }

    #[test]
    fn a_filter_may_hold_100_values_but_not_101() {
        let values = |count| BudgetFilter {
            filter_type: BudgetFilterType::Account,
            values: many("acct-", count),
        };
        assert_eq!(
            BudgetFilters::parse(vec![values(100)]).unwrap().as_slice()[0]
                .values
                .len(),
            100
        );
        assert_eq!(message(vec![values(101)]), TOO_MANY_VALUES);
        assert_eq!(message(vec![values(100_000)]), TOO_MANY_VALUES);
    }

    #[test]
    fn a_value_may_have_100_characters_but_not_101() {
        let long = |count| filter(BudgetFilterType::Service, &[&"s".repeat(count)]);
        assert!(BudgetFilters::parse(vec![long(100)]).is_ok());
        assert_eq!(message(vec![long(101)]), VALUE_TOO_LONG);
        // Surrounding blanks are trimmed before counting.
        let padded = format!("  {}  ", "s".repeat(100));
        assert!(BudgetFilters::parse(vec![filter(BudgetFilterType::Service, &[&padded])]).is_ok());
    }

    #[test]
    fn the_tag_filter_may_name_10_keys_but_not_11() {
        let tags = |count: usize| BudgetFilter {
            filter_type: BudgetFilterType::Tag,
            values: (0..count)
                .flat_map(|key| [format!("key{key}:a"), format!("key{key}:b")])
                .collect(),
        };
        assert!(BudgetFilters::parse(vec![tags(10)]).is_ok());
        assert_eq!(message(vec![tags(11)]), TOO_MANY_TAG_KEYS);
    }

    #[test]
    fn more_than_20_filter_entries_are_refused_even_when_empty() {
        let empty = |count| vec![filter(BudgetFilterType::Region, &[]); count];
        let mut twenty = empty(19);
        twenty.push(filter(BudgetFilterType::Account, &["1"]));
        assert!(BudgetFilters::parse(twenty).is_ok());
        assert_eq!(message(empty(21)), TOO_MANY_FILTERS);
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
