//! Two periods side by side by one grouping (`POST /v2/cost/compare`, docs/API-COST.md and
//! docs/ANALYST-FLOW.md "Compare", "Top movers"): the merge of two group → amount lists into rows,
//! each row's change, percent change and status, the orders a client may ask for, the totals, and
//! the messages of the request rules that belong to the comparison itself.

use std::cmp::Ordering;
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::bounds::{BoundExceeded, MAX_ANSWER_ROWS};

/// An amount whose magnitude is below half a cent shows as $0: a change that small is no change,
/// and a period with that little is a period without spend.
pub const HALF_CENT: f64 = 0.005;

/// The key of the one row of a comparison without grouping (`group_by: "none"`).
pub const TOTAL_KEY: &str = "total";

/// Rows per page when the request sets no `limit`.
pub const DEFAULT_LIMIT: u32 = 100;
/// The largest `limit`.
pub const MAX_LIMIT: u32 = 1_000;

/// 422 `order_by`: an order the comparison does not know.
pub const ORDER_BY_MESSAGE: &str =
    "order_by must be change, increase, decrease, current, previous or percent_change";
/// 422 `previous_start_time`: only one end of the previous period was sent.
pub const PREVIOUS_TOGETHER_MESSAGE: &str = "previous_start_time and previous_end_time go together";
/// 422 `limit`.
pub const LIMIT_MESSAGE: &str = "Limit must be between 1 and 1000";
/// 422 `offset` (the wording of `/v2/cost/aggr`).
pub const OFFSET_MESSAGE: &str = "Offset must be a whole number of groups, 0 or more";
/// 422 `group_by`: the comparison needs a grouping (`none` for one row).
pub const GROUP_BY_REQUIRED_MESSAGE: &str = "group_by is required";

/// A request rule broken: the request field to change and the message (a 422).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invalid {
    pub field: &'static str,
    pub message: String,
}

impl Invalid {
    fn new(field: &'static str, message: &str) -> Self {
        Self {
            field,
            message: message.to_owned(),
        }
    }
}

/// How the rows are ordered; ties are broken by key (ascending) in every order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OrderBy {
    /// Largest absolute change first, rises and falls alike (the default).
    #[default]
    Change,
    /// Largest rise first (falls last).
    Increase,
    /// Largest fall first (rises last).
    Decrease,
    /// Largest current amount first.
    Current,
    /// Largest previous amount first.
    Previous,
    /// Largest percent change first; rows without a previous amount last.
    PercentChange,
}

impl OrderBy {
    /// `None` or blank → [`OrderBy::Change`]; names are case-insensitive.
    pub fn parse(name: Option<&str>) -> Result<Self, Invalid> {
        let Some(name) = name.map(str::trim).filter(|name| !name.is_empty()) else {
            return Ok(Self::default());
        };
        Ok(match name.to_ascii_lowercase().as_str() {
            "change" => Self::Change,
            "increase" => Self::Increase,
            "decrease" => Self::Decrease,
            "current" => Self::Current,
            "previous" => Self::Previous,
            "percent_change" => Self::PercentChange,
            _ => return Err(Invalid::new("order_by", ORDER_BY_MESSAGE)),
        })
    }
}

/// The previous period's two ends as sent: both (`Some`) or neither (`None`: the period of the
/// same length just before). A blank value counts as absent. Only one → 422
/// `previous_start_time`.
pub fn previous_ends<'a>(
    start: Option<&'a str>,
    end: Option<&'a str>,
) -> Result<Option<(&'a str, &'a str)>, Invalid> {
    let given = |value: Option<&'a str>| value.filter(|value| !value.trim().is_empty());
    match (given(start), given(end)) {
        (None, None) => Ok(None),
        (Some(start), Some(end)) => Ok(Some((start, end))),
        _ => Err(Invalid::new(
            "previous_start_time",
            PREVIOUS_TOGETHER_MESSAGE,
        )),
    }
}

/// Each period's groups are all read to be merged: at most [`MAX_ANSWER_ROWS`] of them (the
/// row bound of "Limits"), else 422 `group_by`.
pub fn check_groups(groups: u64) -> Result<(), BoundExceeded> {
    if groups > MAX_ANSWER_ROWS {
        return Err(BoundExceeded {
            field: "group_by",
            message: format!(
                "The comparison would have {groups} groups in one period, more than \
                 {MAX_ANSWER_ROWS}: group by another dimension or filter the costs"
            ),
        });
    }
    Ok(())
}

/// A page of rows: `limit` 1–[`MAX_LIMIT`] (default [`DEFAULT_LIMIT`]), `offset` 0 or more.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Page {
    pub limit: u32,
    pub offset: u32,
}

impl Page {
    pub fn parse(limit: Option<i64>, offset: Option<i64>) -> Result<Self, Invalid> {
        let limit = match limit {
            None => DEFAULT_LIMIT,
            Some(limit) => u32::try_from(limit)
                .ok()
                .filter(|limit| (1..=MAX_LIMIT).contains(limit))
                .ok_or_else(|| Invalid::new("limit", LIMIT_MESSAGE))?,
        };
        let offset = u32::try_from(offset.unwrap_or(0))
            .map_err(|_| Invalid::new("offset", OFFSET_MESSAGE))?;
        Ok(Self { limit, offset })
    }

    /// The rows of this page.
    pub fn of<T>(&self, rows: Vec<T>) -> Vec<T> {
        rows.into_iter()
            .skip(self.offset as usize)
            .take(self.limit as usize)
            .collect()
    }
}

/// One group's amount in one period, as the cost engine answers it.
#[derive(Debug, Clone, PartialEq)]
pub struct GroupAmount {
    /// The group's value (`""` where the data has none; [`TOTAL_KEY`] without grouping).
    pub key: String,
    /// The account's name when grouped by account.
    pub name: Option<String>,
    pub amount: f64,
}

/// How a group moved between the two periods.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ChangeStatus {
    /// Both periods show spend and the current one is at least half a cent more.
    Grew,
    /// Both periods show spend and the current one is at least half a cent less.
    Fell,
    /// The change is less than half a cent.
    Unchanged,
    /// The previous period shows $0 (less than half a cent), the current one spend.
    New,
    /// The current period shows $0 (less than half a cent), the previous one spend.
    Gone,
}

impl ChangeStatus {
    pub fn of(current: f64, previous: f64) -> Self {
        if is_zero(current - previous) {
            Self::Unchanged
        } else if is_zero(previous) {
            Self::New
        } else if is_zero(current) {
            Self::Gone
        } else if current > previous {
            Self::Grew
        } else {
            Self::Fell
        }
    }
}

/// One group in both periods (0 where it had no cost).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct CompareRow {
    /// The group's value (`"total"` without grouping).
    pub key: String,
    /// The account's name when grouped by account (null when it has none), else null.
    #[schema(required = true)]
    pub name: Option<String>,
    pub current: f64,
    pub previous: f64,
    /// `current - previous`.
    pub change: f64,
    /// `(current - previous) / |previous| × 100`, unrounded; null when `previous` shows as $0.
    #[schema(required = true)]
    pub percent_change: Option<f64>,
    pub status: ChangeStatus,
}

impl CompareRow {
    pub fn new(key: String, name: Option<String>, current: f64, previous: f64) -> Self {
        Self {
            key,
            name,
            current,
            previous,
            change: current - previous,
            percent_change: percent_change(current, previous),
            status: ChangeStatus::of(current, previous),
        }
    }
}

/// Both periods over every group (not only a page).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct CompareTotals {
    pub current: f64,
    pub previous: f64,
    pub change: f64,
    /// Null when `previous` shows as $0.
    #[schema(required = true)]
    pub percent_change: Option<f64>,
}

/// Every row of a comparison, in the asked order, with the totals.
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    pub rows: Vec<CompareRow>,
    pub totals: CompareTotals,
}

fn is_zero(amount: f64) -> bool {
    amount.abs() < HALF_CENT
}

/// `(current - previous) / |previous| × 100`; `None` when `previous` shows as $0.
pub fn percent_change(current: f64, previous: f64) -> Option<f64> {
    (!is_zero(previous)).then(|| (current - previous) / previous.abs() * 100.0)
}

/// Largest first; `-0.0` and `0.0` are equal (a tie goes to the key).
fn larger_first(a: f64, b: f64) -> Ordering {
    (b + 0.0).total_cmp(&(a + 0.0))
}

/// Merges the two periods' groups into one row per group present in either (0 in the other),
/// ordered by `order` then key. Names come from the current period, else the previous one; an
/// empty name is no name. A key listed twice in one period is summed.
pub fn compare(current: &[GroupAmount], previous: &[GroupAmount], order: OrderBy) -> Comparison {
    #[derive(Default)]
    struct Both {
        name: Option<String>,
        current: f64,
        previous: f64,
    }
    let mut groups: BTreeMap<&str, Both> = BTreeMap::new();
    for (amounts, is_current) in [(current, true), (previous, false)] {
        for group in amounts {
            let both = groups.entry(group.key.as_str()).or_default();
            if is_current {
                both.current += group.amount;
            } else {
                both.previous += group.amount;
            }
            if both.name.is_none() {
                both.name = group.name.clone().filter(|name| !name.is_empty());
            }
        }
    }
    let mut rows: Vec<CompareRow> = groups
        .into_iter()
        .map(|(key, both)| CompareRow::new(key.to_owned(), both.name, both.current, both.previous))
        .collect();
    let (current_total, previous_total) = rows.iter().fold((0.0, 0.0), |(c, p), row| {
        (c + row.current, p + row.previous)
    });
    sort(&mut rows, order);
    Comparison {
        rows,
        totals: CompareTotals {
            current: current_total,
            previous: previous_total,
            change: current_total - previous_total,
            percent_change: percent_change(current_total, previous_total),
        },
    }
}

/// Orders `rows` by `order`, ties by key.
pub fn sort(rows: &mut [CompareRow], order: OrderBy) {
    rows.sort_by(|a, b| {
        let by_order = match order {
            OrderBy::Change => larger_first(a.change.abs(), b.change.abs()),
            OrderBy::Increase => larger_first(a.change, b.change),
            OrderBy::Decrease => larger_first(b.change, a.change),
            OrderBy::Current => larger_first(a.current, b.current),
            OrderBy::Previous => larger_first(a.previous, b.previous),
            OrderBy::PercentChange => match (a.percent_change, b.percent_change) {
                (Some(a), Some(b)) => larger_first(a, b),
                (Some(_), None) => Ordering::Less,
                (None, Some(_)) => Ordering::Greater,
                (None, None) => Ordering::Equal,
            },
        };
        by_order.then_with(|| a.key.cmp(&b.key))
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn group(key: &str, amount: f64) -> GroupAmount {
        GroupAmount {
            key: key.to_owned(),
            name: None,
            amount,
        }
    }

    fn keys(comparison: &Comparison) -> Vec<&str> {
        comparison.rows.iter().map(|row| row.key.as_str()).collect()
    }

    /// EC2 grew 100 → 150, S3 fell 40 → 10, Lambda is new (30), RDS gone (was 60), KMS unchanged.
    fn periods() -> (Vec<GroupAmount>, Vec<GroupAmount>) {
        (
            vec![
                group("EC2", 150.0),
                group("S3", 10.0),
                group("Lambda", 30.0),
                group("KMS", 5.0),
            ],
            vec![
                group("EC2", 100.0),
                group("S3", 40.0),
                group("RDS", 60.0),
                group("KMS", 5.001),
            ],
        )
    }

    #[test]
    fn a_group_in_either_period_is_a_row_with_0_in_the_other() {
        let (current, previous) = periods();
        let comparison = compare(&current, &previous, OrderBy::Change);
        let rds = comparison.rows.iter().find(|row| row.key == "RDS").unwrap();
        assert_eq!((rds.current, rds.previous, rds.change), (0.0, 60.0, -60.0));
        assert_eq!(rds.percent_change, Some(-100.0));
        assert_eq!(rds.status, ChangeStatus::Gone);
        let lambda = comparison
            .rows
            .iter()
            .find(|row| row.key == "Lambda")
            .unwrap();
        assert_eq!((lambda.current, lambda.previous), (30.0, 0.0));
        assert_eq!(lambda.percent_change, None);
        assert_eq!(lambda.status, ChangeStatus::New);
        assert_eq!(comparison.rows.len(), 5);
    }

    #[test]
    fn change_percent_and_status_follow_the_half_cent_rule() {
        let row = CompareRow::new("EC2".into(), None, 150.0, 100.0);
        assert_eq!(
            (row.change, row.percent_change, row.status),
            (50.0, Some(50.0), ChangeStatus::Grew)
        );
        let row = CompareRow::new("S3".into(), None, 10.0, 40.0);
        assert_eq!(
            (row.change, row.percent_change, row.status),
            (-30.0, Some(-75.0), ChangeStatus::Fell)
        );
        assert_eq!(ChangeStatus::of(5.0, 5.004), ChangeStatus::Unchanged);
        assert_eq!(ChangeStatus::of(5.0, 5.006), ChangeStatus::Fell);
        assert_eq!(ChangeStatus::of(0.0, 0.0), ChangeStatus::Unchanged);
        assert_eq!(ChangeStatus::of(0.003, 0.0), ChangeStatus::Unchanged);
        // Less than half a cent shows as $0: no percent, and the row is new or gone.
        assert_eq!(ChangeStatus::of(2.0, 0.004), ChangeStatus::New);
        assert_eq!(percent_change(2.0, 0.004), None);
        assert_eq!(ChangeStatus::of(0.004, 2.0), ChangeStatus::Gone);
        // Credits: a negative previous amount counts by its size.
        assert_eq!(percent_change(-5.0, -10.0), Some(50.0));
        assert_eq!(ChangeStatus::of(-5.0, -10.0), ChangeStatus::Grew);
        assert_eq!(ChangeStatus::of(0.0, -10.0), ChangeStatus::Gone);
    }

    #[test]
    fn every_order_with_ties_by_key() {
        let (current, previous) = periods();
        let order = |order| {
            let comparison = compare(&current, &previous, order);
            keys(&comparison)
                .into_iter()
                .map(str::to_owned)
                .collect::<Vec<_>>()
        };
        // Changes: EC2 +50, S3 -30, Lambda +30, RDS -60, KMS -0.001.
        assert_eq!(
            order(OrderBy::Change),
            ["RDS", "EC2", "Lambda", "S3", "KMS"]
        );
        assert_eq!(
            order(OrderBy::Increase),
            ["EC2", "Lambda", "KMS", "S3", "RDS"]
        );
        assert_eq!(
            order(OrderBy::Decrease),
            ["RDS", "S3", "KMS", "Lambda", "EC2"]
        );
        assert_eq!(
            order(OrderBy::Current),
            ["EC2", "Lambda", "S3", "KMS", "RDS"]
        );
        assert_eq!(
            order(OrderBy::Previous),
            ["EC2", "RDS", "S3", "KMS", "Lambda"]
        );
        // EC2 +50 %, KMS -0.02 %, S3 -75 %, RDS -100 %, Lambda none (last).
        assert_eq!(
            order(OrderBy::PercentChange),
            ["EC2", "KMS", "S3", "RDS", "Lambda"]
        );
    }

    #[test]
    fn ties_go_to_the_key_and_signed_zeros_tie() {
        let current = [group("b", 10.0), group("a", 10.0), group("c", 0.0)];
        let previous = [group("b", 5.0), group("a", 15.0), group("c", 0.0)];
        let comparison = compare(&current, &previous, OrderBy::Change);
        assert_eq!(keys(&comparison), ["a", "b", "c"]);
        let mut rows = vec![
            CompareRow::new("y".into(), None, 0.0, 0.0),
            CompareRow::new("x".into(), None, -0.0, 0.0),
        ];
        rows[1].change = -0.0;
        sort(&mut rows, OrderBy::Increase);
        assert_eq!(rows[0].key, "x");
        let none = compare(
            &[group("q", 0.0)],
            &[group("p", 0.0)],
            OrderBy::PercentChange,
        );
        assert_eq!(keys(&none), ["p", "q"]);
    }

    #[test]
    fn totals_cover_every_group() {
        let (current, previous) = periods();
        let comparison = compare(&current, &previous, OrderBy::Change);
        assert_eq!(comparison.totals.current, 195.0);
        assert!((comparison.totals.previous - 205.001).abs() < 1e-9);
        assert!((comparison.totals.change + 10.001).abs() < 1e-9);
        let percent = comparison.totals.percent_change.unwrap();
        assert!((percent - (-10.001 / 205.001 * 100.0)).abs() < 1e-9);
        let empty = compare(&[], &[], OrderBy::Change);
        assert!(empty.rows.is_empty());
        assert_eq!(
            empty.totals,
            CompareTotals {
                current: 0.0,
                previous: 0.0,
                change: 0.0,
                percent_change: None
            }
        );
    }

    #[test]
    fn names_come_from_either_period_and_repeated_keys_are_summed() {
        let named = |key: &str, name: &str, amount| GroupAmount {
            key: key.to_owned(),
            name: Some(name.to_owned()),
            amount,
        };
        let current = [named("111", "", 5.0), named("111", "", 2.0)];
        let previous = [named("111", "Production", 3.0), named("222", "", 1.0)];
        let comparison = compare(&current, &previous, OrderBy::Current);
        assert_eq!(comparison.rows[0].key, "111");
        assert_eq!(comparison.rows[0].current, 7.0);
        assert_eq!(comparison.rows[0].name.as_deref(), Some("Production"));
        assert_eq!(comparison.rows[1].name, None);
    }

    #[test]
    fn order_by_names_and_its_message() {
        assert_eq!(OrderBy::parse(None), Ok(OrderBy::Change));
        assert_eq!(OrderBy::parse(Some(" ")), Ok(OrderBy::Change));
        assert_eq!(
            OrderBy::parse(Some("Percent_Change")),
            Ok(OrderBy::PercentChange)
        );
        for (name, order) in [
            ("change", OrderBy::Change),
            ("increase", OrderBy::Increase),
            ("decrease", OrderBy::Decrease),
            ("current", OrderBy::Current),
            ("previous", OrderBy::Previous),
        ] {
            assert_eq!(OrderBy::parse(Some(name)), Ok(order));
        }
        assert_eq!(
            OrderBy::parse(Some("amount")),
            Err(Invalid {
                field: "order_by",
                message: "order_by must be change, increase, decrease, current, previous or \
                          percent_change"
                    .to_owned()
            })
        );
    }

    #[test]
    fn previous_ends_go_together() {
        assert_eq!(previous_ends(None, None), Ok(None));
        assert_eq!(previous_ends(Some(""), Some("  ")), Ok(None));
        assert_eq!(
            previous_ends(Some("2026-01-01"), Some("2026-01-31")),
            Ok(Some(("2026-01-01", "2026-01-31")))
        );
        for (start, end) in [(Some("2026-01-01"), None), (None, Some("2026-01-31"))] {
            assert_eq!(
                previous_ends(start, end),
                Err(Invalid {
                    field: "previous_start_time",
                    message: "previous_start_time and previous_end_time go together".to_owned()
                })
            );
        }
    }

    #[test]
    fn each_period_may_have_at_most_200000_groups() {
        assert_eq!(check_groups(200_000), Ok(()));
        let refused = check_groups(200_001).unwrap_err();
        assert_eq!(refused.field, "group_by");
        assert_eq!(
            refused.message,
            "The comparison would have 200001 groups in one period, more than 200000: group by \
             another dimension or filter the costs"
        );
    }

    #[test]
    fn pages_of_1_to_1000_rows() {
        assert_eq!(
            Page::parse(None, None),
            Ok(Page {
                limit: 100,
                offset: 0
            })
        );
        assert_eq!(
            Page::parse(Some(1000), Some(3)),
            Ok(Page {
                limit: 1000,
                offset: 3
            })
        );
        for limit in [0, 1001, -1, i64::MAX] {
            assert_eq!(
                Page::parse(Some(limit), None).unwrap_err(),
                Invalid {
                    field: "limit",
                    message: "Limit must be between 1 and 1000".to_owned()
                }
            );
        }
        assert_eq!(Page::parse(None, Some(-1)).unwrap_err().field, "offset");
        let page = Page::parse(Some(2), Some(1)).unwrap();
        assert_eq!(page.of(vec![1, 2, 3, 4]), [2, 3]);
        assert_eq!(page.of(Vec::<i32>::new()), Vec::<i32>::new());
    }
}
