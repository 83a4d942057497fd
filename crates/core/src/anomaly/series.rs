use chrono::{Datelike, Days, NaiveDate, Weekday};

/// One cost per calendar day from `start`, for one service × account (or one tag value).
///
/// Days the cost engine has no row for cost 0: a series is dense by construction, so the
/// detectors and forecasters index days by position and read the weekday from the date.
#[derive(Debug, Clone, PartialEq)]
pub struct DailySeries {
    start: NaiveDate,
    values: Vec<f64>,
}

impl DailySeries {
    /// `values[i]` is the cost of `start + i` days. Non-finite values (a sum that overflowed, a
    /// NaN from upstream) count as 0 rather than poisoning every median they enter.
    pub fn new(start: NaiveDate, values: Vec<f64>) -> Self {
        let values = values
            .into_iter()
            .map(|value| if value.is_finite() { value } else { 0.0 })
            .collect();
        Self { start, values }
    }

    /// The days `first..=last` from sparse `(day, cost)` rows, as a store reads them: costs of
    /// the same day add up, missing days are 0 and rows outside the range are left out.
    pub fn from_days(
        first: NaiveDate,
        last: NaiveDate,
        rows: impl IntoIterator<Item = (NaiveDate, f64)>,
    ) -> Self {
        let len = usize::try_from((last - first).num_days() + 1).unwrap_or(0);
        let mut values = vec![0.0; len];
        for (day, cost) in rows {
            let offset = (day - first).num_days();
            if let Some(slot) = usize::try_from(offset).ok().and_then(|i| values.get_mut(i)) {
                *slot += cost;
            }
        }
        Self::new(first, values)
    }

    pub fn start(&self) -> NaiveDate {
        self.start
    }

    /// The last day, or the day before `start` for an empty series.
    pub fn end(&self) -> NaiveDate {
        self.day(self.values.len()) - Days::new(1)
    }

    pub fn len(&self) -> usize {
        self.values.len()
    }

    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    pub fn values(&self) -> &[f64] {
        &self.values
    }

    /// The date of position `index`.
    pub fn day(&self, index: usize) -> NaiveDate {
        self.start + Days::new(index as u64)
    }

    /// The position of `day`, when the series covers it.
    pub fn index_of(&self, day: NaiveDate) -> Option<usize> {
        let offset = usize::try_from((day - self.start).num_days()).ok()?;
        (offset < self.values.len()).then_some(offset)
    }

    /// The cost on `day`; 0 outside the series (a missing day costs nothing).
    pub fn value_on(&self, day: NaiveDate) -> f64 {
        self.index_of(day).map_or(0.0, |i| self.values[i])
    }

    /// Weekday of position `index` as 0 (Monday) to 6 (Sunday).
    pub(crate) fn weekday_index(&self, index: usize) -> usize {
        weekday_index(self.day(index).weekday())
    }
}

pub(crate) fn weekday_index(weekday: Weekday) -> usize {
    weekday.num_days_from_monday() as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(text: &str) -> NaiveDate {
        text.parse().unwrap()
    }

    #[test]
    fn from_days_fills_missing_days_with_zero_and_adds_up_duplicates() {
        let series = DailySeries::from_days(
            day("2024-03-01"),
            day("2024-03-05"),
            [
                (day("2024-03-02"), 10.0),
                (day("2024-03-02"), 5.0),
                (day("2024-03-05"), 1.0),
                (day("2024-02-29"), 99.0),
                (day("2024-03-06"), 99.0),
            ],
        );
        assert_eq!(series.values(), &[0.0, 15.0, 0.0, 0.0, 1.0]);
        assert_eq!(series.end(), day("2024-03-05"));
        assert_eq!(series.value_on(day("2024-03-02")), 15.0);
        assert_eq!(series.value_on(day("2024-03-09")), 0.0);
        assert_eq!(series.index_of(day("2024-02-29")), None);
    }

    #[test]
    fn non_finite_values_count_as_zero() {
        let series = DailySeries::new(day("2024-01-01"), vec![f64::NAN, 2.0, f64::INFINITY]);
        assert_eq!(series.values(), &[0.0, 2.0, 0.0]);
    }

    #[test]
    fn weekday_index_starts_on_monday() {
        // 2024-01-01 was a Monday.
        let series = DailySeries::new(day("2024-01-01"), vec![0.0; 8]);
        assert_eq!(series.weekday_index(0), 0);
        assert_eq!(series.weekday_index(6), 6);
        assert_eq!(series.weekday_index(7), 0);
    }

    #[test]
    fn an_empty_range_is_an_empty_series() {
        let series = DailySeries::from_days(day("2024-01-02"), day("2024-01-01"), []);
        assert!(series.is_empty());
        assert_eq!(series.end(), day("2024-01-01"));
    }
}
