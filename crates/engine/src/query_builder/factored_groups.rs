//! The filter groups of a ClickHouse statement with the conditions they share written once:
//! `(C AND X1) OR (C AND X2)` is `C AND (X1 OR X2)`, and `C OR (C AND X)` is `C`. A budget's
//! filter at the API's bounds repeats a hundred-value condition in every group; ClickHouse
//! analyses each copy (on every shard, in every subquery), so the shared part is written once.
//! Conditions are compared by their text: ClickHouse's values are literals, so the same
//! condition on the same values reads the same.

use costscope_core::cost::{FilterGroup, GroupJoin};

use super::{group_parts, Dialect, Sql};

/// The groups joined left to right by their operator, as [`super::groups_condition_in`] reads
/// them, with shared conditions factored out of each `OR`. `None` when no group has a condition.
pub(super) fn groups_condition(dialect: Dialect, groups: &[FilterGroup]) -> Option<Sql> {
    let mut combined: Option<Conjunction> = None;
    for group in groups {
        let parts = group_parts(dialect, group);
        if parts.is_empty() {
            continue;
        }
        let part = Conjunction::of(parts.into_iter().map(|sql| sql.text));
        combined = Some(match combined {
            None => part,
            Some(left) => match group.join {
                GroupJoin::And => left.and(part),
                GroupJoin::Or => left.or(part),
            },
        });
    }
    combined.map(|conjunction| {
        let mut sql = Sql::new(dialect);
        sql.push("(").push(&conjunction.render()).push(")");
        sql
    })
}

/// Conditions ANDed, each one's text once, in the order first written.
#[derive(Debug, Clone, PartialEq)]
struct Conjunction(Vec<String>);

impl Conjunction {
    fn of(conditions: impl IntoIterator<Item = String>) -> Self {
        let mut conjunction = Self(Vec::new());
        conjunction.extend(conditions);
        conjunction
    }

    fn extend(&mut self, conditions: impl IntoIterator<Item = String>) {
        for condition in conditions {
            if !self.0.contains(&condition) {
                self.0.push(condition);
            }
        }
    }

    fn and(mut self, right: Self) -> Self {
        self.extend(right.0);
        self
    }

    /// `(C AND L) OR (C AND R)` as `C AND (L OR R)`; `C` alone when `L` or `R` is empty (the
    /// side that is only `C` takes in the other).
    fn or(self, right: Self) -> Self {
        let (common, left_rest): (Vec<String>, Vec<String>) =
            self.0.into_iter().partition(|item| right.0.contains(item));
        let right_rest: Vec<String> = right
            .0
            .into_iter()
            .filter(|item| !common.contains(item))
            .collect();
        let mut factored = Self(common);
        if !left_rest.is_empty() && !right_rest.is_empty() {
            let left = Self(left_rest).render();
            let right = Self(right_rest).render();
            factored.0.push(format!("({left} OR {right})"));
        }
        factored
    }

    /// The conditions joined by `AND` (in parentheses when more than one).
    fn render(&self) -> String {
        match self.0.as_slice() {
            [only] => only.clone(),
            items => format!("({})", items.join(" AND ")),
        }
    }
}

#[cfg(test)]
mod tests {
    use costscope_core::cost::{MatchOperator, TagCondition, ValueCondition};

    use super::*;

    const CLICKHOUSE: Dialect = Dialect::ClickHouse { distributed: true };

    fn equals(values: &[&str]) -> ValueCondition {
        ValueCondition {
            operator: MatchOperator::In,
            values: values.iter().map(|value| value.to_string()).collect(),
        }
    }

    fn group(join: GroupJoin, regions: &[&str], tag: Option<&str>) -> FilterGroup {
        FilterGroup {
            join,
            regions: vec![equals(regions)],
            tags: tag
                .map(|key| TagCondition {
                    key: key.into(),
                    value: None,
                })
                .into_iter()
                .collect(),
            ..FilterGroup::default()
        }
    }

    fn text(groups: &[FilterGroup]) -> String {
        groups_condition(CLICKHOUSE, groups).unwrap().text
    }

    #[test]
    fn shared_conditions_are_written_once() {
        let groups = [
            group(GroupJoin::And, &["eu", "us"], Some("team")),
            group(GroupJoin::Or, &["eu", "us"], Some("env")),
            group(GroupJoin::Or, &["eu", "us"], Some("app")),
        ];
        assert_eq!(
            text(&groups),
            "((region IN ('eu', 'us') AND ((has(tags_keys, 'team') OR has(tags_keys, 'env')) \
             OR has(tags_keys, 'app'))))"
        );
    }

    #[test]
    fn a_group_that_is_only_the_common_part_is_the_whole_filter() {
        let groups = [
            group(GroupJoin::And, &["eu"], Some("team")),
            group(GroupJoin::Or, &["eu"], None),
            group(GroupJoin::Or, &["eu"], Some("env")),
        ];
        assert_eq!(text(&groups), "(region IN ('eu'))");
    }

    #[test]
    fn groups_without_a_common_part_are_ored_whole() {
        let groups = [
            group(GroupJoin::And, &["eu"], Some("team")),
            group(GroupJoin::Or, &["us"], Some("env")),
        ];
        assert_eq!(
            text(&groups),
            "(((region IN ('eu') AND has(tags_keys, 'team')) OR \
             (region IN ('us') AND has(tags_keys, 'env'))))"
        );
    }

    #[test]
    fn one_group_is_its_conditions_anded() {
        let groups = [group(GroupJoin::And, &["eu"], Some("team"))];
        assert_eq!(
            text(&groups),
            "((region IN ('eu') AND has(tags_keys, 'team')))"
        );
        assert!(groups_condition(CLICKHOUSE, &[FilterGroup::default()]).is_none());
    }

    #[test]
    fn and_joins_keep_the_left_to_right_reading() {
        // ((eu OR us) AND team): the OR has nothing in common, the AND adds its condition.
        let groups = [
            group(GroupJoin::And, &["eu"], None),
            group(GroupJoin::Or, &["us"], None),
            group(GroupJoin::And, &["eu", "us"], Some("team")),
        ];
        assert_eq!(
            text(&groups),
            "(((region IN ('eu') OR region IN ('us')) AND region IN ('eu', 'us') \
             AND has(tags_keys, 'team')))"
        );
    }
}
