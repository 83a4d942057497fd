use chrono::{DateTime, Datelike, Days, Months, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// How often a budget's spend starts again from zero (spec 2 §3 Budget). Periods are calendar
/// months, quarters and years in UTC (spec 1 §9 "Dates computed in UTC"). The "Weekly" of one
/// reading is not offered.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
pub enum BudgetPeriod {
    #[default]
    Monthly,
    Quarterly,
    Yearly,
}

impl BudgetPeriod {
    pub const fn as_str(self) -> &'static str {
        match self {
            BudgetPeriod::Monthly => "Monthly",
            BudgetPeriod::Quarterly => "Quarterly",
            BudgetPeriod::Yearly => "Yearly",
        }
    }

    const fn months(self) -> Months {
        match self {
            BudgetPeriod::Monthly => Months::new(1),
            BudgetPeriod::Quarterly => Months::new(3),
            BudgetPeriod::Yearly => Months::new(12),
        }
    }

    /// First day of the period that contains `day`.
    fn start_containing(self, day: NaiveDate) -> NaiveDate {
        let month = match self {
            BudgetPeriod::Monthly => day.month(),
            BudgetPeriod::Quarterly => (day.month() - 1) / 3 * 3 + 1,
            BudgetPeriod::Yearly => 1,
        };
        NaiveDate::from_ymd_opt(day.year(), month, 1).expect("the first of a month exists")
    }

    /// First and last day (both inclusive) of the period containing `now`'s UTC date.
    pub fn current_range(self, now: DateTime<Utc>) -> (NaiveDate, NaiveDate) {
        let start = self.start_containing(now.date_naive());
        let next = start
            .checked_add_months(self.months())
            .expect("date within chrono's range");
        (start, day_before(next))
    }

    /// First and last day (both inclusive) of the period just before the current one: the
    /// previous month, quarter or year (what `previousSpent` covers).
    pub fn previous_range(self, now: DateTime<Utc>) -> (NaiveDate, NaiveDate) {
        let (current_start, _) = self.current_range(now);
        let start = current_start
            .checked_sub_months(self.months())
            .expect("date within chrono's range");
        (start, day_before(current_start))
    }

    /// Days left in the current period, today included: 1 on the period's last day, the period's
    /// length on its first (spec 1 §9, counted to the end of the month, quarter or year in UTC;
    /// the same as rounding up the time left to 23:59:59.999 of the last day).
    pub fn days_remaining(self, now: DateTime<Utc>) -> i64 {
        let (_, end) = self.current_range(now);
        (end - now.date_naive()).num_days() + 1
    }
}

fn day_before(day: NaiveDate) -> NaiveDate {
    day.checked_sub_days(Days::new(1))
        .expect("date within chrono's range")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str) -> DateTime<Utc> {
        text.parse().unwrap()
    }

    fn day(text: &str) -> NaiveDate {
        text.parse().unwrap()
    }

    fn range(start: &str, end: &str) -> (NaiveDate, NaiveDate) {
        (day(start), day(end))
    }

    #[test]
    fn default_is_monthly_and_serde_uses_the_capitalised_names() {
        assert_eq!(BudgetPeriod::default(), BudgetPeriod::Monthly);
        for period in [
            BudgetPeriod::Monthly,
            BudgetPeriod::Quarterly,
            BudgetPeriod::Yearly,
        ] {
            let json = serde_json::to_string(&period).unwrap();
            assert_eq!(json, format!("\"{}\"", period.as_str()));
            assert_eq!(serde_json::from_str::<BudgetPeriod>(&json).unwrap(), period);
        }
        assert!(serde_json::from_str::<BudgetPeriod>("\"Weekly\"").is_err());
    }

    #[test]
    fn monthly_range_is_the_calendar_month() {
        let now = at("2024-02-15T12:00:00Z");
        assert_eq!(
            BudgetPeriod::Monthly.current_range(now),
            range("2024-02-01", "2024-02-29")
        );
        assert_eq!(
            BudgetPeriod::Monthly.previous_range(now),
            range("2024-01-01", "2024-01-31")
        );
    }

    #[test]
    fn monthly_previous_range_crosses_the_year() {
        let now = at("2025-01-01T00:00:00Z");
        assert_eq!(
            BudgetPeriod::Monthly.current_range(now),
            range("2025-01-01", "2025-01-31")
        );
        assert_eq!(
            BudgetPeriod::Monthly.previous_range(now),
            range("2024-12-01", "2024-12-31")
        );
    }

    #[test]
    fn quarterly_range_is_the_calendar_quarter() {
        let cases = [
            ("2025-01-01T00:00:00Z", "2025-01-01", "2025-03-31"),
            ("2025-03-31T23:59:59.999Z", "2025-01-01", "2025-03-31"),
            ("2025-04-01T00:00:00Z", "2025-04-01", "2025-06-30"),
            ("2025-08-15T00:00:00Z", "2025-07-01", "2025-09-30"),
            ("2025-12-31T10:00:00Z", "2025-10-01", "2025-12-31"),
        ];
        for (now, start, end) in cases {
            assert_eq!(
                BudgetPeriod::Quarterly.current_range(at(now)),
                range(start, end),
                "now {now}"
            );
        }
        assert_eq!(
            BudgetPeriod::Quarterly.previous_range(at("2025-02-10T00:00:00Z")),
            range("2024-10-01", "2024-12-31")
        );
    }

    #[test]
    fn yearly_range_is_the_calendar_year() {
        let now = at("2024-06-30T08:00:00Z");
        assert_eq!(
            BudgetPeriod::Yearly.current_range(now),
            range("2024-01-01", "2024-12-31")
        );
        assert_eq!(
            BudgetPeriod::Yearly.previous_range(now),
            range("2023-01-01", "2023-12-31")
        );
    }

    #[test]
    fn ranges_use_the_utc_date() {
        let now = DateTime::parse_from_rfc3339("2025-03-31T23:30:00-02:00")
            .unwrap()
            .with_timezone(&Utc);
        assert_eq!(
            BudgetPeriod::Monthly.current_range(now),
            range("2025-04-01", "2025-04-30")
        );
    }

    #[test]
    fn days_remaining_counts_today_up_to_the_last_day() {
        assert_eq!(
            BudgetPeriod::Monthly.days_remaining(at("2025-04-01T00:00:00Z")),
            30
        );
        assert_eq!(
            BudgetPeriod::Monthly.days_remaining(at("2025-04-30T23:59:59Z")),
            1
        );
        assert_eq!(
            BudgetPeriod::Quarterly.days_remaining(at("2025-06-29T12:00:00Z")),
            2
        );
        assert_eq!(
            BudgetPeriod::Yearly.days_remaining(at("2024-01-01T00:00:00Z")),
            366
        );
        assert_eq!(
            BudgetPeriod::Yearly.days_remaining(at("2025-12-31T00:00:00Z")),
            1
        );
    }
}
