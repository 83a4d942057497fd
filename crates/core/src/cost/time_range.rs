use chrono::{DateTime, Duration, NaiveDate, NaiveTime, Utc};

/// A closed time range in UTC, as the cost calls send it (`start_time` 00:00:00.000 of the first
/// day, `end_time` 23:59:59.999 of the last, spec 1 §9). A line item is inside when its charge
/// period starts inside.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimeRange {
    start: DateTime<Utc>,
    end: DateTime<Utc>,
}

impl TimeRange {
    /// `None` when `end` is before `start`.
    pub fn new(start: DateTime<Utc>, end: DateTime<Utc>) -> Option<Self> {
        (start <= end).then_some(Self { start, end })
    }

    /// The whole UTC days `first..=last`: 00:00:00.000 of the first to 23:59:59.999 of the last.
    /// `None` when `last` is before `first`.
    pub fn whole_days(first: NaiveDate, last: NaiveDate) -> Option<Self> {
        let start = first.and_time(NaiveTime::MIN).and_utc();
        let end =
            last.and_time(NaiveTime::MIN).and_utc() + Duration::days(1) - Duration::milliseconds(1);
        Self::new(start, end)
    }

    pub fn start(&self) -> DateTime<Utc> {
        self.start
    }

    pub fn end(&self) -> DateTime<Utc> {
        self.end
    }

    /// The range of the same length that ends just before this one starts (the comparison
    /// period of `accrued_change` and the spend answer).
    pub fn previous(&self) -> Self {
        let length = self.end - self.start + Duration::milliseconds(1);
        Self {
            start: self.start - length,
            end: self.start - Duration::milliseconds(1),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str) -> DateTime<Utc> {
        text.parse().unwrap()
    }

    #[test]
    fn previous_period_has_the_same_length_and_ends_before_start() {
        let november =
            TimeRange::new(at("2026-11-01T00:00:00Z"), at("2026-11-30T23:59:59.999Z")).unwrap();
        let previous = november.previous();
        assert_eq!(previous.start(), at("2026-10-02T00:00:00Z"));
        assert_eq!(previous.end(), at("2026-10-31T23:59:59.999Z"));
    }

    #[test]
    fn whole_days_run_from_the_first_midnight_to_the_last_millisecond() {
        let day = |text: &str| text.parse::<NaiveDate>().unwrap();
        let november = TimeRange::whole_days(day("2026-11-01"), day("2026-11-30")).unwrap();
        assert_eq!(november.start(), at("2026-11-01T00:00:00Z"));
        assert_eq!(november.end(), at("2026-11-30T23:59:59.999Z"));
        assert!(TimeRange::whole_days(day("2026-11-02"), day("2026-11-01")).is_none());
    }

    #[test]
    fn rejects_an_end_before_the_start() {
        assert!(TimeRange::new(at("2026-11-02T00:00:00Z"), at("2026-11-01T00:00:00Z")).is_none());
    }
}
