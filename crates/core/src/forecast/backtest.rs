//! Forecast accuracy measured the way it is used: stand on a day of a past period, forecast the
//! period's total, compare with what it came to.

use chrono::{Days, NaiveDate};

use crate::anomaly::DailySeries;
use crate::budget::BudgetPeriod;

use super::{forecast_period, ForecastParams};

/// Accuracy at one number of days into the period, over many series and periods.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Accuracy {
    /// Days of the period known when forecasting (7 = standing on the 7th).
    pub days_into: usize,
    pub cases: usize,
    /// Mean absolute percentage error of the total: mean of |forecast − actual| / actual.
    pub mape: f64,
    /// Share of cases whose actual total was inside the interval.
    pub coverage: f64,
    /// Mean width of the interval relative to the actual total.
    pub mean_width: f64,
}

/// One case of a backtest: a period of a series, forecast from one of its days.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BacktestCase {
    pub start: NaiveDate,
    pub as_of: NaiveDate,
    pub actual: f64,
    pub forecast: f64,
    pub low: f64,
    pub high: f64,
}

/// Forecasts every whole `period` of every series whose start has at least `warm_up_days`
/// of history before it, from each of `days_into` days into it, and sums up the errors per
/// number of days. Cases whose actual total is not positive are left out (no percentage).
pub fn backtest(
    series: &[DailySeries],
    period: BudgetPeriod,
    days_into: &[usize],
    warm_up_days: usize,
    params: &ForecastParams,
) -> Vec<Accuracy> {
    let mut sums = vec![(0usize, 0.0f64, 0usize, 0.0f64); days_into.len()];
    for one in series {
        for case in backtest_cases(one, period, days_into, warm_up_days, params) {
            let (slot, case) = case;
            let sum = &mut sums[slot];
            sum.0 += 1;
            sum.1 += (case.forecast - case.actual).abs() / case.actual;
            sum.2 += usize::from((case.low..=case.high).contains(&case.actual));
            sum.3 += (case.high - case.low) / case.actual;
        }
    }
    days_into
        .iter()
        .zip(sums)
        .map(|(&days, (cases, errors, covered, widths))| {
            let n = cases.max(1) as f64;
            Accuracy {
                days_into: days,
                cases,
                mape: errors / n,
                coverage: covered as f64 / n,
                mean_width: widths / n,
            }
        })
        .collect()
}

/// The cases of one series behind [`backtest`], each with the index of its entry in
/// `days_into`.
pub fn backtest_cases(
    series: &DailySeries,
    period: BudgetPeriod,
    days_into: &[usize],
    warm_up_days: usize,
    params: &ForecastParams,
) -> Vec<(usize, BacktestCase)> {
    let mut found = Vec::new();
    let Some(first) = series
        .start()
        .checked_add_days(Days::new(warm_up_days as u64))
    else {
        return found;
    };
    let mut start = first_period_start(first, period);
    loop {
        let noon = start.and_hms_opt(12, 0, 0).expect("noon exists").and_utc();
        let (_, end) = period.current_range(noon);
        if end > series.end() {
            break;
        }
        let actual: f64 = (0..=(end - start).num_days())
            .map(|offset| series.value_on(start + Days::new(offset as u64)))
            .sum();
        for (slot, &days) in days_into.iter().enumerate() {
            let as_of = start + Days::new(days.saturating_sub(1) as u64);
            if actual <= 0.0 || as_of > end {
                continue;
            }
            if let Ok(forecast) = forecast_period(series, as_of, period, params) {
                found.push((
                    slot,
                    BacktestCase {
                        start,
                        as_of,
                        actual,
                        forecast: forecast.forecast,
                        low: forecast.low,
                        high: forecast.high,
                    },
                ));
            }
        }
        start = end + Days::new(1);
    }
    found
}

/// The first start of a `period` on or after `day`.
fn first_period_start(day: NaiveDate, period: BudgetPeriod) -> NaiveDate {
    let noon = day.and_hms_opt(12, 0, 0).expect("noon exists").and_utc();
    let (start, end) = period.current_range(noon);
    if start == day {
        start
    } else {
        end + Days::new(1)
    }
}
