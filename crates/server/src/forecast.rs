//! Forecasts from the cost engine (docs/ANOMALIES.md "Forecast API and where it shows"): the
//! daily cost series a forecast reads, and the forecast of a period from it with
//! `costscope_core::forecast`. Used by `GET /v1/forecast` and by every budget answer.

use chrono::{Days, NaiveDate};
use costscope_core::anomaly::DailySeries;
use costscope_core::budget::BudgetPeriod;
use costscope_core::cost::{
    AggregateQuery, CostFilter, CurrencyCode, Dimension, Interval, Metric, TimeRange,
};
use costscope_core::forecast::{forecast_range, ForecastError, ForecastParams, PeriodForecast};
use costscope_engine::{Aggregate, AggregateRow, CostEngine, CustomerId, EngineError};

/// The last known day of a tenant's cost: its latest charge day, not after `today` (rows
/// dated in the future, a provider's estimate, are not known days yet).
pub async fn last_known_day(
    engine: &dyn CostEngine,
    customer: CustomerId,
    today: NaiveDate,
) -> Result<Option<NaiveDate>, EngineError> {
    Ok(engine
        .latest_charge_date(customer)
        .await?
        .map(|day| day.min(today)))
}

/// First and last day of the calendar month, quarter or year (UTC) containing `day`.
pub fn period_containing(period: BudgetPeriod, day: NaiveDate) -> (NaiveDate, NaiveDate) {
    period.current_range(day.and_hms_opt(12, 0, 0).expect("noon exists").and_utc())
}

/// The first day to read for a forecast of `start..=end` known up to `as_of`: the weekday
/// pattern's window and every backtest origin of the remaining days with the model's own
/// window before it, and never after `start`. A longer series gives the same forecast, so the
/// work is bounded (at most about 500 days, for a year forecast made on its first day).
pub fn history_start(as_of: NaiveDate, (start, end): (NaiveDate, NaiveDate)) -> NaiveDate {
    let params = ForecastParams::default();
    let remaining = u64::try_from((end - as_of).num_days()).unwrap_or(0);
    let needed = remaining
        + params.backtest_origins as u64
        + params.weekday_window_days as u64
        + params.min_history_days.max(14) as u64;
    as_of
        .checked_sub_days(Days::new(needed))
        .unwrap_or(as_of)
        .min(start)
}

/// Daily cost over `first..=last` of the rows matching `filter`, per group of `dimension` (the
/// `limit` groups of most cost over those days) or in total, in `display` or the tenant's main
/// currency (as every cost answer: amounts in other currencies are left out, never added).
#[allow(clippy::too_many_arguments)]
pub async fn daily_cost(
    engine: &dyn CostEngine,
    customer: CustomerId,
    filter: CostFilter,
    metric: Metric,
    dimension: Option<Dimension>,
    limit: u32,
    (first, last): (NaiveDate, NaiveDate),
    display: Option<&CurrencyCode>,
) -> Result<Aggregate, EngineError> {
    let query = AggregateQuery {
        range: TimeRange::whole_days(first, last).expect("the first day is not after the last"),
        filter,
        dimensions: dimension.into_iter().collect(),
        interval: Some(Interval::Daily),
        cumulative: false,
        metric,
        limit: Some(limit.max(1)),
        offset: 0,
        ascending: false,
    };
    engine.aggregate_in(customer, &query, display).await
}

/// The first day any of `rows` is dated: a series starts there, since the days before the
/// tenant's data are unknown rather than free.
pub fn first_day(rows: &[AggregateRow]) -> Option<NaiveDate> {
    rows.iter().filter_map(|row| row.timestamp).min()
}

/// The daily series of `rows` from `first` to `as_of` (missing days cost 0).
pub fn series<'a>(
    rows: impl IntoIterator<Item = &'a AggregateRow>,
    first: NaiveDate,
    as_of: NaiveDate,
) -> DailySeries {
    DailySeries::from_days(
        first,
        as_of,
        rows.into_iter()
            .filter_map(|row| Some((row.timestamp?, row.amount))),
    )
}

/// The forecast of `start..=end` from `series`, known up to `as_of`, with the measured
/// default parameters.
pub fn forecast(
    series: &DailySeries,
    as_of: NaiveDate,
    (start, end): (NaiveDate, NaiveDate),
) -> Result<PeriodForecast, ForecastError> {
    forecast_range(series, as_of, start, end, &ForecastParams::default())
}

/// The forecast of `start..=end` of the rows matching `filter` (billed cost, in total), or
/// `None` when there is none: no data, `as_of` outside the period (or the day before it), or
/// fewer than 7 known days. One engine read.
pub async fn forecast_filtered(
    engine: &dyn CostEngine,
    customer: CustomerId,
    filter: CostFilter,
    as_of: Option<NaiveDate>,
    period: (NaiveDate, NaiveDate),
    display: Option<&CurrencyCode>,
) -> Result<Option<PeriodForecast>, EngineError> {
    let Some(as_of) = as_of.filter(|&day| {
        day <= period.1
            && period
                .0
                .checked_sub_days(Days::new(1))
                .is_some_and(|eve| day >= eve)
    }) else {
        return Ok(None);
    };
    let aggregate = daily_cost(
        engine,
        customer,
        filter,
        Metric::Billed,
        None,
        1,
        (history_start(as_of, period), as_of),
        display,
    )
    .await?;
    let Some(first) = first_day(&aggregate.rows) else {
        return Ok(None);
    };
    Ok(forecast(&series(&aggregate.rows, first, as_of), as_of, period).ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(text: &str) -> NaiveDate {
        text.parse().unwrap()
    }

    #[test]
    fn the_history_covers_the_backtest_of_the_remaining_days_and_the_period() {
        let month = (day("2026-11-01"), day("2026-11-30"));
        // 20 days left + 56 origins + 56 days of pattern + 14.
        assert_eq!(history_start(day("2026-11-10"), month), day("2026-06-17"));
        let year = (day("2026-01-01"), day("2026-12-31"));
        assert_eq!(
            history_start(day("2026-01-01"), year),
            day("2026-01-01") - Days::new(364 + 56 + 56 + 14)
        );
    }

    #[test]
    fn a_period_is_the_calendar_one_containing_the_day() {
        assert_eq!(
            period_containing(BudgetPeriod::Quarterly, day("2026-11-26")),
            (day("2026-10-01"), day("2026-12-31"))
        );
    }

    #[test]
    fn a_series_adds_the_rows_of_a_day_and_starts_at_the_first() {
        let row = |date: &str, amount| AggregateRow {
            timestamp: Some(day(date)),
            group: vec![],
            account_name: None,
            amount,
        };
        let rows = vec![
            row("2026-11-03", 2.0),
            row("2026-11-02", 1.0),
            row("2026-11-03", 3.0),
        ];
        let first = first_day(&rows).unwrap();
        assert_eq!(first, day("2026-11-02"));
        let series = series(&rows, first, day("2026-11-05"));
        assert_eq!(series.values(), &[1.0, 5.0, 0.0, 0.0]);
    }
}
