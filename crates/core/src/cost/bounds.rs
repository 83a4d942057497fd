//! The most work one cost request may ask for (docs/API-COST.md "Limits"): the dates and length
//! of a range, the groups and rows of an answer, and the lists of a request body. Each check
//! answers a [`BoundExceeded`] naming the field and the limit; the HTTP layer answers it 422.

use chrono::{DateTime, Datelike, Months, NaiveDate, Utc};

use super::{FilterGroup, Interval, TimeRange};

/// The first day a cost request may name.
pub const EARLIEST_DAY: NaiveDate = match NaiveDate::from_ymd_opt(1970, 1, 1) {
    Some(day) => day,
    None => panic!("a valid date"),
};
/// The last day a cost request may name.
pub const LATEST_DAY: NaiveDate = match NaiveDate::from_ymd_opt(2100, 12, 31) {
    Some(day) => day,
    None => panic!("a valid date"),
};
/// The longest range of one request, in calendar years (2021-01-01 to 2025-12-31 is 5 years).
pub const MAX_RANGE_YEARS: u32 = 5;

/// Groups per page when the request sets no `limit`.
pub const DEFAULT_GROUPS: u32 = 1_000;
/// The largest `limit` (groups per page).
pub const MAX_GROUPS: u32 = 10_000;
/// Rows of one answer: buckets × groups of the page, or the combinations of a hierarchy.
pub const MAX_ANSWER_ROWS: u64 = 200_000;

/// Filter groups of one request.
pub const MAX_FILTER_GROUPS: usize = 20;
/// Conditions of one filter group, tag conditions included (spec 1 §9 "Max filters per group 20").
pub const MAX_CONDITIONS_PER_GROUP: usize = 20;
/// Values of one condition.
pub const MAX_VALUES_PER_CONDITION: usize = 1_000;
/// Values of every condition of one request together.
pub const MAX_FILTER_VALUES: usize = 5_000;
/// Characters of one filter value or tag key (AWS's and Azure's longest tag value).
pub const MAX_VALUE_CHARS: usize = 256;
/// Entries of a list of names (`group_by_dimensions`, `cost_type.inclusions`), blanks and
/// repeats included.
pub const MAX_NAMES: usize = 50;

/// A request asking for more than one request may do; `field` is the request field to change.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {message}")]
pub struct BoundExceeded {
    pub field: &'static str,
    pub message: String,
}

impl BoundExceeded {
    fn new(field: &'static str, message: String) -> Self {
        Self { field, message }
    }
}

/// `{field} must be a date between 1970-01-01 and 2100-12-31`.
pub fn date_out_of_bounds(field: &'static str) -> BoundExceeded {
    BoundExceeded::new(
        field,
        format!("{field} must be a date between {EARLIEST_DAY} and {LATEST_DAY}"),
    )
}

/// The day of `instant` (UTC) is between [`EARLIEST_DAY`] and [`LATEST_DAY`].
pub fn check_instant(field: &'static str, instant: DateTime<Utc>) -> Result<(), BoundExceeded> {
    check_day(field, instant.date_naive())
}

pub fn check_day(field: &'static str, day: NaiveDate) -> Result<(), BoundExceeded> {
    if (EARLIEST_DAY..=LATEST_DAY).contains(&day) {
        Ok(())
    } else {
        Err(date_out_of_bounds(field))
    }
}

/// Both ends inside the years 1970–2100 and at most [`MAX_RANGE_YEARS`] apart.
pub fn check_range(
    range: &TimeRange,
    start_field: &'static str,
    end_field: &'static str,
) -> Result<(), BoundExceeded> {
    check_instant(start_field, range.start())?;
    check_instant(end_field, range.end())?;
    let longest = range.start() + Months::new(12 * MAX_RANGE_YEARS);
    if range.end() >= longest {
        return Err(BoundExceeded::new(
            end_field,
            format!(
                "The range from {start_field} to {end_field} must be at most {MAX_RANGE_YEARS} years"
            ),
        ));
    }
    Ok(())
}

/// A text that reads as a date whose year is signed or has more than four digits
/// (`-0001-01-01`, `+10000-01-01`, `1000000000000-01-01`): a date outside the bounds rather
/// than an unreadable one.
pub fn is_out_of_range_year(text: &str) -> bool {
    let text = text.trim();
    let unsigned = text.trim_start_matches(['+', '-']);
    let signed = unsigned.len() != text.len();
    let digits = unsigned.bytes().take_while(u8::is_ascii_digit).count();
    let year_shaped = digits >= 1 && unsigned[digits..].starts_with('-');
    year_shaped && (signed || digits > 4)
}

/// The buckets of an answer: days, ISO weeks or months the range touches; 1 without interval.
pub fn bucket_count(range: &TimeRange, interval: Option<Interval>) -> u64 {
    let (first, last) = (range.start().date_naive(), range.end().date_naive());
    let days = |from: NaiveDate, to: NaiveDate| (to - from).num_days().max(0).unsigned_abs();
    match interval {
        None => 1,
        Some(Interval::Daily) => days(first, last) + 1,
        Some(Interval::Weekly) => {
            let monday = |day: NaiveDate| {
                day - chrono::Duration::days(i64::from(day.weekday().num_days_from_monday()))
            };
            days(monday(first), monday(last)) / 7 + 1
        }
        Some(Interval::Monthly) => {
            let month = |day: NaiveDate| i64::from(day.year()) * 12 + i64::from(day.month0());
            (month(last) - month(first)).max(0).unsigned_abs() + 1
        }
    }
}

/// The groups one aggregation page may hold, fixed before the query runs so that buckets ×
/// groups never passes [`MAX_ANSWER_ROWS`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GroupPage {
    /// Groups the query keeps (the `LIMIT` it runs with).
    pub limit: u32,
    /// Groups the request asked for (its `limit`, else [`DEFAULT_GROUPS`]).
    pub requested: u32,
    pub buckets: u64,
}

impl GroupPage {
    /// `requested`: the request's `limit` (already within 1..=[`MAX_GROUPS`]).
    pub fn new(requested: Option<u32>, buckets: u64) -> Self {
        let requested = requested.unwrap_or(DEFAULT_GROUPS);
        let fitting = (MAX_ANSWER_ROWS / buckets.max(1)).max(1);
        let limit = u32::try_from(fitting).unwrap_or(u32::MAX).min(requested);
        Self {
            limit,
            requested,
            buckets,
        }
    }

    /// After the query: refuses an answer the row cap cut short (more groups past `offset`
    /// than fitted, fewer than asked for).
    pub fn check(&self, total_groups: u64, offset: u32) -> Result<(), BoundExceeded> {
        let past_offset = total_groups.saturating_sub(u64::from(offset));
        if self.limit < self.requested && past_offset > u64::from(self.limit) {
            return Err(BoundExceeded::new(
                "limit",
                format!(
                    "The answer would have more than {MAX_ANSWER_ROWS} rows ({} time buckets × \
                     up to {} groups): set limit to at most {}, or choose a coarser interval \
                     or a shorter range",
                    self.buckets,
                    past_offset.min(u64::from(self.requested)),
                    self.limit
                ),
            ));
        }
        Ok(())
    }
}

/// The combinations of a hierarchy answer (every combination is fetched to build the tree).
pub fn check_hierarchy(combinations: u64) -> Result<(), BoundExceeded> {
    if combinations > MAX_ANSWER_ROWS {
        return Err(BoundExceeded::new(
            "group_by_dimensions",
            format!(
                "The hierarchy would have {combinations} combinations, more than \
                 {MAX_ANSWER_ROWS}: group by fewer dimensions or filter the costs"
            ),
        ));
    }
    Ok(())
}

/// At most [`MAX_FILTER_GROUPS`] filter groups, counted as sent.
pub fn check_filter_groups(count: usize) -> Result<(), BoundExceeded> {
    if count > MAX_FILTER_GROUPS {
        return Err(BoundExceeded::new(
            "filters",
            format!("Maximum {MAX_FILTER_GROUPS} filter groups allowed"),
        ));
    }
    Ok(())
}

/// At most [`MAX_CONDITIONS_PER_GROUP`] conditions in filter group `number` (1-based), counted
/// as sent.
pub fn check_group_conditions(number: usize, count: usize) -> Result<(), BoundExceeded> {
    if count > MAX_CONDITIONS_PER_GROUP {
        return Err(BoundExceeded::new(
            "filters",
            format!(
                "Filter group {number}: maximum {MAX_CONDITIONS_PER_GROUP} conditions allowed \
                 (tags included)"
            ),
        ));
    }
    Ok(())
}

/// Counts the values of a request's conditions against the per-condition and per-request
/// limits and checks each value's length.
#[derive(Debug, Default)]
pub struct FilterValueCount {
    total: usize,
}

impl FilterValueCount {
    /// `field` names the condition's field (`regions`, `tags`, …) in the message.
    pub fn add(&mut self, field: &str, values: &[String]) -> Result<(), BoundExceeded> {
        if values.len() > MAX_VALUES_PER_CONDITION {
            return Err(BoundExceeded::new(
                "filters",
                format!(
                    "A {field} condition has {} values; maximum {MAX_VALUES_PER_CONDITION} values \
                     per condition",
                    values.len()
                ),
            ));
        }
        for value in values {
            check_value_length(field, value)?;
        }
        self.total += values.len();
        if self.total > MAX_FILTER_VALUES {
            return Err(BoundExceeded::new(
                "filters",
                format!("Maximum {MAX_FILTER_VALUES} filter values allowed in one request"),
            ));
        }
        Ok(())
    }

    /// Checks parsed `groups` (their number, conditions and values), for callers that build
    /// them without the HTTP parser (saved filters, tests).
    pub fn add_groups(&mut self, groups: &[FilterGroup]) -> Result<(), BoundExceeded> {
        check_filter_groups(groups.len())?;
        for (index, group) in groups.iter().enumerate() {
            let conditions = group.accounts.len()
                + group.regions.len()
                + group.services.len()
                + group.cloud_providers.len()
                + group.cost_types.len()
                + group.usage_types.len()
                + group.tags.len();
            check_group_conditions(index + 1, conditions)?;
            for (field, conditions) in [
                ("accounts", &group.accounts),
                ("regions", &group.regions),
                ("services", &group.services),
                ("cloud_providers", &group.cloud_providers),
                ("cost_types", &group.cost_types),
                ("usage_types", &group.usage_types),
            ] {
                for condition in conditions {
                    self.add(field, &condition.values)?;
                }
            }
            for tag in &group.tags {
                check_value_length("tags", &tag.key)?;
                if let Some(value) = &tag.value {
                    self.add("tags", &value.values)?;
                }
            }
        }
        Ok(())
    }
}

/// A filter value or tag key of at most [`MAX_VALUE_CHARS`] characters.
pub fn check_value_length(field: &str, value: &str) -> Result<(), BoundExceeded> {
    if value.chars().count() > MAX_VALUE_CHARS {
        return Err(BoundExceeded::new(
            "filters",
            format!("A {field} filter value is longer than {MAX_VALUE_CHARS} characters"),
        ));
    }
    Ok(())
}

/// A list of names (`group_by_dimensions`, `cost_type.inclusions`) of at most [`MAX_NAMES`]
/// entries.
pub fn check_names(field: &'static str, count: usize) -> Result<(), BoundExceeded> {
    if count > MAX_NAMES {
        return Err(BoundExceeded::new(
            field,
            format!("{field} may list at most {MAX_NAMES} names"),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cost::{MatchOperator, TagCondition, ValueCondition};

    fn day(text: &str) -> NaiveDate {
        text.parse().unwrap()
    }

    fn days(first: &str, last: &str) -> TimeRange {
        TimeRange::whole_days(day(first), day(last)).unwrap()
    }

    #[test]
    fn ranges_stay_within_1970_to_2100_and_five_years() {
        assert_eq!(
            check_range(&days("2021-01-01", "2025-12-31"), "s", "e"),
            Ok(())
        );
        assert_eq!(
            check_range(&days("1970-01-01", "1970-01-01"), "s", "e"),
            Ok(())
        );
        assert_eq!(
            check_range(&days("2100-01-01", "2100-12-31"), "s", "e"),
            Ok(())
        );
        let too_long = check_range(&days("2021-01-01", "2026-01-01"), "start_time", "end_time");
        assert_eq!(
            too_long,
            Err(BoundExceeded::new(
                "end_time",
                "The range from start_time to end_time must be at most 5 years".to_owned()
            ))
        );
        let early = check_range(&days("1969-12-31", "1970-01-02"), "start_time", "end_time");
        assert_eq!(
            early.unwrap_err().message,
            "start_time must be a date between 1970-01-01 and 2100-12-31"
        );
        let late = check_range(&days("2100-12-01", "2101-01-01"), "start_time", "end_time");
        assert_eq!(late.unwrap_err().field, "end_time");
        let finding = check_range(&days("1950-01-01", "2100-12-31"), "start_time", "end_time");
        assert_eq!(finding.unwrap_err().field, "start_time");
    }

    #[test]
    fn signed_and_long_years_read_as_out_of_range_dates() {
        for text in [
            "-0001-01-01",
            "+10000-01-01",
            "1000000000000-01-01",
            "+2026-01-01T00:00:00Z",
            "-5-1-1",
        ] {
            assert!(is_out_of_range_year(text), "{text}");
        }
        for text in [
            "2026-01-01",
            "yesterday",
            "",
            "-",
            "12345",
            "2026/01/01",
            "+",
        ] {
            assert!(!is_out_of_range_year(text), "{text}");
        }
    }

    #[test]
    fn buckets_are_the_days_weeks_or_months_touched() {
        let january = days("2026-01-01", "2026-01-31");
        assert_eq!(bucket_count(&january, None), 1);
        assert_eq!(bucket_count(&january, Some(Interval::Daily)), 31);
        // 2026-01-01 is a Thursday: weeks of Dec 29, Jan 5, 12, 19, 26.
        assert_eq!(bucket_count(&january, Some(Interval::Weekly)), 5);
        assert_eq!(bucket_count(&january, Some(Interval::Monthly)), 1);
        let years = days("2021-01-01", "2025-12-31");
        assert_eq!(bucket_count(&years, Some(Interval::Daily)), 1826);
        assert_eq!(bucket_count(&years, Some(Interval::Monthly)), 60);
        let one_day = days("2026-01-05", "2026-01-05");
        assert_eq!(bucket_count(&one_day, Some(Interval::Weekly)), 1);
    }

    #[test]
    fn a_page_keeps_buckets_times_groups_under_the_row_cap() {
        let small = GroupPage::new(None, 31);
        assert_eq!(
            (small.limit, small.requested),
            (DEFAULT_GROUPS, DEFAULT_GROUPS)
        );
        assert_eq!(small.check(5_000, 0), Ok(()));
        let daily_years = GroupPage::new(Some(MAX_GROUPS), 1826);
        assert_eq!(daily_years.limit, 109);
        assert!(u64::from(daily_years.limit) * 1826 <= MAX_ANSWER_ROWS);
        // As many groups as fit: the answer is whole.
        assert_eq!(daily_years.check(109, 0), Ok(()));
        assert_eq!(daily_years.check(200, 150), Ok(()));
        let refused = daily_years.check(110, 0).unwrap_err();
        assert_eq!(refused.field, "limit");
        assert_eq!(
            refused.message,
            "The answer would have more than 200000 rows (1826 time buckets × up to 110 groups): \
             set limit to at most 109, or choose a coarser interval or a shorter range"
        );
        // Never fewer than one group, even past the cap.
        assert_eq!(GroupPage::new(Some(5), 10_000_000).limit, 1);
        assert_eq!(GroupPage::new(Some(5), 0).limit, 5);
    }

    #[test]
    fn hierarchies_have_at_most_the_row_cap_in_combinations() {
        assert_eq!(check_hierarchy(MAX_ANSWER_ROWS), Ok(()));
        assert_eq!(
            check_hierarchy(MAX_ANSWER_ROWS + 1).unwrap_err().field,
            "group_by_dimensions"
        );
    }

    fn values(count: usize) -> Vec<String> {
        (0..count).map(|index| index.to_string()).collect()
    }

    #[test]
    fn filter_lists_are_bounded() {
        assert!(check_filter_groups(MAX_FILTER_GROUPS).is_ok());
        assert_eq!(
            check_filter_groups(MAX_FILTER_GROUPS + 1)
                .unwrap_err()
                .message,
            "Maximum 20 filter groups allowed"
        );
        assert_eq!(
            check_group_conditions(3, 21).unwrap_err().message,
            "Filter group 3: maximum 20 conditions allowed (tags included)"
        );
        let mut count = FilterValueCount::default();
        assert!(count
            .add("regions", &values(MAX_VALUES_PER_CONDITION))
            .is_ok());
        assert_eq!(
            FilterValueCount::default()
                .add("regions", &values(100_000))
                .unwrap_err()
                .message,
            "A regions condition has 100000 values; maximum 1000 values per condition"
        );
        for _ in 0..4 {
            assert!(count.add("accounts", &values(1_000)).is_ok());
        }
        assert_eq!(
            count.add("accounts", &values(1)).unwrap_err().message,
            "Maximum 5000 filter values allowed in one request"
        );
        let long = vec!["x".repeat(MAX_VALUE_CHARS + 1)];
        assert_eq!(
            FilterValueCount::default()
                .add("tags", &long)
                .unwrap_err()
                .message,
            "A tags filter value is longer than 256 characters"
        );
        assert!(check_names("group_by_dimensions", MAX_NAMES).is_ok());
        assert_eq!(
            check_names("group_by_dimensions", MAX_NAMES + 1)
                .unwrap_err()
                .message,
            "group_by_dimensions may list at most 50 names"
        );
    }

    #[test]
    fn groups_count_their_tag_values_and_keys() {
        let group = FilterGroup {
            tags: vec![TagCondition {
                key: "k".repeat(MAX_VALUE_CHARS + 1),
                value: None,
            }],
            ..FilterGroup::default()
        };
        assert!(FilterValueCount::default().add_groups(&[group]).is_err());
        let group = FilterGroup {
            regions: vec![ValueCondition {
                operator: MatchOperator::In,
                values: values(3_000),
            }],
            ..FilterGroup::default()
        };
        assert!(FilterValueCount::default().add_groups(&[group]).is_err());
    }
}
