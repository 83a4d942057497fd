//! A budget's filters as a cost-engine filter (docs/API-BUDGETS.md "Spend").
//!
//! Filters of different types are ANDed; the values of one filter are alternatives. Tag values
//! are `key:value` (split at the first `:`) or a bare `key` ("has the tag"). Tags of different
//! keys are alternatives too, which one filter group cannot say (its conditions are ANDed), so
//! the filter becomes one group per tag key, each carrying every other condition, ORed:
//! `others AND (tag₁ OR tag₂ …)`.

use std::collections::BTreeMap;

use costscope_core::budget::{BudgetFilter, BudgetFilterType};
use costscope_core::cost::{
    CostFilter, FilterGroup, GroupJoin, MatchOperator, Provider, TagCondition, ValueCondition,
};

/// Every charge type counts (no inclusions): a budget tracks the invoice's figure.
pub fn cost_filter(filters: &[BudgetFilter]) -> CostFilter {
    let mut common = FilterGroup::default();
    let mut tags: Vec<TagCondition> = Vec::new();
    for filter in filters {
        let values = filter.values.clone();
        match filter.filter_type {
            BudgetFilterType::CloudProvider => common.cloud_providers.push(any_of(
                values
                    .iter()
                    .map(|value| Provider::code_for(value))
                    .collect::<Vec<_>>(),
            )),
            BudgetFilterType::Account => common.accounts.push(any_of(values)),
            BudgetFilterType::Region => common.regions.push(any_of(values)),
            BudgetFilterType::Service => common.services.push(any_of(values)),
            BudgetFilterType::Tag => tags = tag_conditions(&values),
        }
    }
    let groups = if tags.is_empty() {
        vec![common]
    } else {
        tags.into_iter()
            .enumerate()
            .map(|(index, tag)| FilterGroup {
                join: if index == 0 {
                    GroupJoin::And
                } else {
                    GroupJoin::Or
                },
                tags: vec![tag],
                ..common.clone()
            })
            .collect()
    };
    CostFilter {
        groups,
        cost_type_inclusions: None,
    }
}

fn any_of(values: Vec<String>) -> ValueCondition {
    ValueCondition {
        operator: MatchOperator::In,
        values,
    }
}

/// One condition per tag key: a bare key means "has the tag" and wins over values of that key.
fn tag_conditions(values: &[String]) -> Vec<TagCondition> {
    let mut by_key: BTreeMap<String, Option<Vec<String>>> = BTreeMap::new();
    for value in values {
        match value.split_once(':') {
            Some((key, tag_value)) => {
                let entry = by_key
                    .entry(key.trim().to_owned())
                    .or_insert_with(|| Some(Vec::new()));
                if let Some(list) = entry {
                    list.push(tag_value.trim().to_owned());
                }
            }
            None => {
                by_key.insert(value.trim().to_owned(), None);
            }
        }
    }
    by_key
        .into_iter()
        .map(|(key, values)| TagCondition {
            key,
            value: values.map(any_of),
        })
        .collect()
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

    fn strings(values: &[&str]) -> Vec<String> {
        values.iter().map(|value| (*value).to_owned()).collect()
    }

    #[test]
    fn filters_of_different_types_are_one_and_group_with_every_charge_type() {
        let filter = cost_filter(&[
            filter(BudgetFilterType::CloudProvider, &["AWS", "Google Cloud"]),
            filter(BudgetFilterType::Account, &["111111111111", "222222222222"]),
            filter(BudgetFilterType::Region, &["us-east-1"]),
            filter(BudgetFilterType::Service, &["Amazon S3"]),
        ]);
        assert_eq!(filter.cost_type_inclusions, None);
        assert_eq!(filter.groups.len(), 1);
        let group = &filter.groups[0];
        assert_eq!(
            group.cloud_providers,
            vec![any_of(strings(&["aws", "gcp"]))]
        );
        assert_eq!(
            group.accounts,
            vec![any_of(strings(&["111111111111", "222222222222"]))]
        );
        assert_eq!(group.regions, vec![any_of(strings(&["us-east-1"]))]);
        assert_eq!(group.services, vec![any_of(strings(&["Amazon S3"]))]);
        assert!(group.tags.is_empty());
    }

    #[test]
    fn another_provider_name_is_kept_as_written() {
        let filter = cost_filter(&[filter(BudgetFilterType::CloudProvider, &["Oracle"])]);
        assert_eq!(
            filter.groups[0].cloud_providers,
            vec![any_of(strings(&["Oracle"]))]
        );
    }

    #[test]
    fn tag_keys_become_ored_groups_that_each_keep_the_other_conditions() {
        let filter = cost_filter(&[
            filter(BudgetFilterType::Account, &["111111111111"]),
            filter(
                BudgetFilterType::Tag,
                &["team:data", "env:prod", "team:web", "owner"],
            ),
        ]);
        let keys: Vec<(&str, GroupJoin)> = filter
            .groups
            .iter()
            .map(|group| (group.tags[0].key.as_str(), group.join))
            .collect();
        assert_eq!(
            keys,
            vec![
                ("env", GroupJoin::And),
                ("owner", GroupJoin::Or),
                ("team", GroupJoin::Or)
            ]
        );
        for group in &filter.groups {
            assert_eq!(group.accounts, vec![any_of(strings(&["111111111111"]))]);
        }
        assert_eq!(
            filter.groups[2].tags[0].value,
            Some(any_of(strings(&["data", "web"])))
        );
        assert_eq!(filter.groups[1].tags[0].value, None);
    }

    #[test]
    fn a_tag_value_may_itself_hold_colons() {
        let filter = cost_filter(&[filter(BudgetFilterType::Tag, &["url:https://x"])]);
        assert_eq!(
            filter.groups[0].tags[0],
            TagCondition {
                key: "url".to_owned(),
                value: Some(any_of(strings(&["https://x"]))),
            }
        );
    }
}
