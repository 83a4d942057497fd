use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::FieldError;

/// Longest spending date range, in days between start and end (spec 2 §5, §9).
pub const MAX_RANGE_DAYS: i64 = 730;
/// Smallest resources page size.
pub const MIN_PAGE_SIZE: i64 = 1;
/// Largest resources page size (also the export fetch size).
pub const MAX_PAGE_SIZE: i64 = 1000;
/// Resources page size when none is asked for (spec 2 §9, default 10).
pub const DEFAULT_PAGE_SIZE: i64 = 10;

/// A budget's spending date range, both days inclusive, in UTC (spec 2 §5 "Spending date range").
///
/// Dates are `YYYY-MM-DD`. Rules in order, first broken wins:
/// * either date missing or blank: 'Both start and end dates are required' (`dateRange`);
/// * not shaped `YYYY-MM-DD`: 'Invalid date format'; shaped but no such day (`2025-02-30`):
///   'Invalid date values' (on `startDate` or `endDate`);
/// * start after end: 'Start date cannot be after end date' (`startDate`);
/// * start after today: 'Start date cannot be in the future' (`startDate`); the end may be in
///   the future (the rest of the current period);
/// * more than 730 days from start to end: 'Date range cannot exceed 2 years' (`dateRange`);
///   exactly 730 days apart is allowed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SpendingRange {
    start: NaiveDate,
    end: NaiveDate,
}

impl SpendingRange {
    pub fn parse(
        start: Option<&str>,
        end: Option<&str>,
        today: NaiveDate,
    ) -> Result<Self, FieldError> {
        match (present(start), present(end)) {
            (Some(start), Some(end)) => Self::parse_present(start, end, today),
            _ => Err(FieldError::new(
                "dateRange",
                "Both start and end dates are required",
            )),
        }
    }

    fn parse_present(start: &str, end: &str, today: NaiveDate) -> Result<Self, FieldError> {
        let start = parse_date(start).map_err(|message| FieldError::new("startDate", message))?;
        let end = parse_date(end).map_err(|message| FieldError::new("endDate", message))?;
        if start > end {
            return Err(FieldError::new(
                "startDate",
                "Start date cannot be after end date",
            ));
        }
        if start > today {
            return Err(FieldError::new(
                "startDate",
                "Start date cannot be in the future",
            ));
        }
        if (end - start).num_days() > MAX_RANGE_DAYS {
            return Err(FieldError::new(
                "dateRange",
                "Date range cannot exceed 2 years",
            ));
        }
        Ok(Self { start, end })
    }

    pub fn start(&self) -> NaiveDate {
        self.start
    }

    pub fn end(&self) -> NaiveDate {
        self.end
    }
}

fn present(value: Option<&str>) -> Option<&str> {
    value.map(str::trim).filter(|value| !value.is_empty())
}

fn parse_date(text: &str) -> Result<NaiveDate, &'static str> {
    let bytes = text.as_bytes();
    let shaped = bytes.len() == 10
        && bytes.iter().enumerate().all(|(index, byte)| match index {
            4 | 7 => *byte == b'-',
            _ => byte.is_ascii_digit(),
        });
    if !shaped {
        return Err("Invalid date format");
    }
    let number = |range: std::ops::Range<usize>| text[range].parse::<u32>().unwrap_or(0);
    let year = i32::try_from(number(0..4)).unwrap_or(0);
    NaiveDate::from_ymd_opt(year, number(5..7), number(8..10)).ok_or("Invalid date values")
}

/// Order of the resources table.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum SortDirection {
    Asc,
    #[default]
    Desc,
}

/// A resources request as it arrives, before any rule is applied.
#[derive(Debug, Clone, Copy, Default)]
pub struct ResourcesQuery<'a> {
    pub budget_id: &'a str,
    pub start_date: Option<&'a str>,
    pub end_date: Option<&'a str>,
    pub page: Option<i64>,
    pub page_size: Option<i64>,
    pub sort_direction: Option<&'a str>,
}

/// A valid request for a budget's resources (spec 2 §5 "Resources request").
///
/// Rules in order, first broken wins:
/// * blank budget id: 'Budget ID is required' (`budgetId`);
/// * either date missing or blank: 'Start date and end date are required' (`dateRange`), then
///   the other rules of [`SpendingRange`];
/// * page below 1: 'Page number must be greater than 0' (`page`; default 1);
/// * page size outside 1 to 1000: 'Page size must be between 1 and 1000' (`pageSize`;
///   default 10);
/// * sort direction other than `asc` or `desc` in any letter case: 'Sort direction must be asc or
///   desc' (`sortDirection`; the spec gives the rule but no message). Default `desc`, largest
///   cost first (our choice; the spec gives no default).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResourcesRequest {
    pub budget_id: String,
    pub range: SpendingRange,
    pub page: u64,
    pub page_size: u64,
    pub sort_direction: SortDirection,
}

impl ResourcesRequest {
    pub fn parse(query: ResourcesQuery<'_>, today: NaiveDate) -> Result<Self, FieldError> {
        let budget_id = query.budget_id.trim();
        if budget_id.is_empty() {
            return Err(FieldError::new("budgetId", "Budget ID is required"));
        }
        if present(query.start_date).is_none() || present(query.end_date).is_none() {
            return Err(FieldError::new(
                "dateRange",
                "Start date and end date are required",
            ));
        }
        let range = SpendingRange::parse(query.start_date, query.end_date, today)?;
        let page = query.page.unwrap_or(1);
        let page = u64::try_from(page)
            .ok()
            .filter(|page| *page >= 1)
            .ok_or(FieldError::new(
                "page",
                "Page number must be greater than 0",
            ))?;
        let page_size = query.page_size.unwrap_or(DEFAULT_PAGE_SIZE);
        if !(MIN_PAGE_SIZE..=MAX_PAGE_SIZE).contains(&page_size) {
            return Err(FieldError::new(
                "pageSize",
                "Page size must be between 1 and 1000",
            ));
        }
        let sort_direction = match query.sort_direction.map(str::trim) {
            None | Some("") => SortDirection::default(),
            Some(text) if text.eq_ignore_ascii_case("asc") => SortDirection::Asc,
            Some(text) if text.eq_ignore_ascii_case("desc") => SortDirection::Desc,
            Some(_) => {
                return Err(FieldError::new(
                    "sortDirection",
                    "Sort direction must be asc or desc",
                ))
            }
        };
        Ok(Self {
            budget_id: budget_id.to_owned(),
            range,
            page,
            page_size: page_size.unsigned_abs(),
            sort_direction,
        })
    }

    /// Rows to skip before this page.
    pub fn offset(&self) -> u64 {
        (self.page - 1).saturating_mul(self.page_size)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(text: &str) -> NaiveDate {
        text.parse().unwrap()
    }

    const TODAY: &str = "2025-06-15";

    fn range(start: Option<&str>, end: Option<&str>) -> Result<SpendingRange, FieldError> {
        SpendingRange::parse(start, end, day(TODAY))
    }

    fn range_error(start: &str, end: &str) -> (&'static str, &'static str) {
        let error = range(Some(start), Some(end)).unwrap_err();
        (error.field, error.message)
    }

    #[test]
    fn both_dates_are_required() {
        for (start, end) in [
            (None, Some("2025-06-01")),
            (Some("2025-06-01"), None),
            (None, None),
            (Some("  "), Some("2025-06-01")),
        ] {
            let error = range(start, end).unwrap_err();
            assert_eq!(error.message, "Both start and end dates are required");
            assert_eq!(error.field, "dateRange");
        }
    }

    #[test]
    fn malformed_dates_are_an_invalid_format() {
        for bad in [
            "2025/06/01",
            "06-01-2025",
            "2025-6-1",
            "yesterday",
            "2025-06-01T00:00:00Z",
        ] {
            assert_eq!(
                range_error(bad, "2025-06-10"),
                ("startDate", "Invalid date format"),
                "input {bad}"
            );
        }
        assert_eq!(
            range_error("2025-06-01", "2025-06-1x"),
            ("endDate", "Invalid date format")
        );
    }

    #[test]
    fn impossible_days_are_invalid_values() {
        assert_eq!(
            range_error("2025-02-30", "2025-03-10"),
            ("startDate", "Invalid date values")
        );
        assert_eq!(
            range_error("2025-01-01", "2025-13-01"),
            ("endDate", "Invalid date values")
        );
        assert_eq!(
            range_error("2025-01-01", "2025-00-10"),
            ("endDate", "Invalid date values")
        );
    }

    #[test]
    fn start_after_end_is_refused_and_equal_is_allowed() {
        assert_eq!(
            range_error("2025-06-02", "2025-06-01"),
            ("startDate", "Start date cannot be after end date")
        );
        assert!(range(Some("2025-06-01"), Some("2025-06-01")).is_ok());
    }

    #[test]
    fn start_in_the_future_is_refused_but_today_and_a_future_end_are_allowed() {
        assert_eq!(
            range_error("2025-06-16", "2025-06-30"),
            ("startDate", "Start date cannot be in the future")
        );
        let current = range(Some(TODAY), Some("2025-06-30")).unwrap();
        assert_eq!(current.start(), day(TODAY));
        assert_eq!(current.end(), day("2025-06-30"));
    }

    #[test]
    fn at_most_730_days_between_start_and_end() {
        assert!(
            range(Some("2023-06-15"), Some("2025-06-14")).is_ok(),
            "730 days"
        );
        assert_eq!(
            range_error("2023-06-14", "2025-06-14"),
            ("dateRange", "Date range cannot exceed 2 years"),
            "731 days"
        );
    }

    fn query<'a>() -> ResourcesQuery<'a> {
        ResourcesQuery {
            budget_id: "42",
            start_date: Some("2025-06-01"),
            end_date: Some("2025-06-15"),
            ..ResourcesQuery::default()
        }
    }

    fn request(query: ResourcesQuery<'_>) -> Result<ResourcesRequest, FieldError> {
        ResourcesRequest::parse(query, day(TODAY))
    }

    fn request_error(query: ResourcesQuery<'_>) -> (&'static str, &'static str) {
        let error = request(query).unwrap_err();
        (error.field, error.message)
    }

    #[test]
    fn resources_defaults_are_first_page_of_ten_largest_first() {
        let parsed = request(query()).unwrap();
        assert_eq!(parsed.budget_id, "42");
        assert_eq!(parsed.page, 1);
        assert_eq!(parsed.page_size, 10);
        assert_eq!(parsed.sort_direction, SortDirection::Desc);
        assert_eq!(parsed.offset(), 0);
    }

    #[test]
    fn resources_need_a_budget_id() {
        for budget_id in ["", "   "] {
            assert_eq!(
                request_error(ResourcesQuery {
                    budget_id,
                    ..query()
                }),
                ("budgetId", "Budget ID is required")
            );
        }
    }

    #[test]
    fn resources_need_both_dates() {
        assert_eq!(
            request_error(ResourcesQuery {
                start_date: None,
                ..query()
            }),
            ("dateRange", "Start date and end date are required")
        );
        assert_eq!(
            request_error(ResourcesQuery {
                end_date: Some(""),
                ..query()
            }),
            ("dateRange", "Start date and end date are required")
        );
    }

    #[test]
    fn resources_dates_follow_the_spending_range_rules() {
        assert_eq!(
            request_error(ResourcesQuery {
                start_date: Some("2025-06-20"),
                ..query()
            }),
            ("startDate", "Start date cannot be after end date")
        );
    }

    #[test]
    fn page_must_be_at_least_one() {
        for page in [0, -1] {
            assert_eq!(
                request_error(ResourcesQuery {
                    page: Some(page),
                    ..query()
                }),
                ("page", "Page number must be greater than 0")
            );
        }
        assert_eq!(
            request(ResourcesQuery {
                page: Some(1),
                ..query()
            })
            .unwrap()
            .page,
            1
        );
    }

    #[test]
    fn page_size_must_be_between_1_and_1000() {
        for size in [0, 1001, -5] {
            assert_eq!(
                request_error(ResourcesQuery {
                    page_size: Some(size),
                    ..query()
                }),
                ("pageSize", "Page size must be between 1 and 1000")
            );
        }
        for size in [1, 1000] {
            let parsed = request(ResourcesQuery {
                page_size: Some(size),
                ..query()
            })
            .unwrap();
            assert_eq!(parsed.page_size, size.unsigned_abs());
        }
    }

    #[test]
    fn sort_direction_is_asc_or_desc() {
        for (text, direction) in [
            ("asc", SortDirection::Asc),
            ("DESC", SortDirection::Desc),
            (" Asc ", SortDirection::Asc),
        ] {
            let parsed = request(ResourcesQuery {
                sort_direction: Some(text),
                ..query()
            })
            .unwrap();
            assert_eq!(parsed.sort_direction, direction);
        }
        assert_eq!(
            request_error(ResourcesQuery {
                sort_direction: Some("up"),
                ..query()
            }),
            ("sortDirection", "Sort direction must be asc or desc")
        );
    }

    #[test]
    fn offset_skips_the_earlier_pages() {
        let parsed = request(ResourcesQuery {
            page: Some(3),
            page_size: Some(25),
            ..query()
        })
        .unwrap();
        assert_eq!(parsed.offset(), 50);
    }

    #[test]
    fn sort_direction_serialises_lower_case() {
        assert_eq!(
            serde_json::to_string(&SortDirection::Asc).unwrap(),
            "\"asc\""
        );
    }
}
