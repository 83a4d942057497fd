//! Period-end cost forecasts with an interval, weekday-aware, backtested (docs/ANOMALIES.md).
//!
//! A store reads one [`DailySeries`] per tenant, provider, account or service up to the last
//! loaded day and asks for the forecast of the month, quarter or year containing it
//! ([`forecast_period`]) or of any range ([`forecast_range`]). [`PeriodForecast::exceeds_on`]
//! gives the day a budget amount is forecast to be crossed.

mod backtest;
mod interval;
mod model;

pub use backtest::{backtest, backtest_cases, Accuracy, BacktestCase};

use chrono::{Days, NaiveDate};
use serde::{Deserialize, Serialize};

use crate::anomaly::DailySeries;
use crate::budget::{micros, BudgetPeriod};

/// The knobs of the forecast. The defaults are the ones measured in docs/ANOMALIES.md.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ForecastParams {
    /// Recent days whose level (the median, weekday-adjusted) the forecast continues: one of
    /// each weekday, so a step a week ago is already the level and a spike is not.
    pub level_days: usize,
    /// Days the weekday pattern is read from.
    pub weekday_window_days: usize,
    /// Fewest known days for a forecast.
    pub min_history_days: usize,
    /// Probability the interval should hold the actual total (0.8 = from the 10th to the 90th
    /// percentile of the backtest errors).
    pub coverage: f64,
    /// Past origins the interval is measured on, and the fewest it needs before it stops
    /// falling back on the noise of the days.
    pub backtest_origins: usize,
    pub min_backtest_origins: usize,
    /// The backtest errors' quantiles are widened by this factor: consecutive origins share
    /// most of their days, so they understate how far off a forecast can be.
    pub interval_widening: f64,
}

impl Default for ForecastParams {
    fn default() -> Self {
        Self {
            level_days: 7,
            weekday_window_days: 56,
            min_history_days: 7,
            coverage: 0.8,
            backtest_origins: 56,
            min_backtest_origins: 14,
            interval_widening: 1.2,
        }
    }
}

/// Why there is no forecast.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ForecastError {
    #[error("the last known day is outside the period (or the day before it)")]
    OutsidePeriod,
    #[error("the last known day is after the series ends")]
    AfterSeries,
    #[error("fewer known days than a forecast needs")]
    NotEnoughHistory,
}

/// A period's forecast total with its interval, from the days known so far.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PeriodForecast {
    /// First and last day of the period (both included).
    pub start: NaiveDate,
    pub end: NaiveDate,
    /// The last known day.
    pub as_of: NaiveDate,
    /// Cost of the period's days up to `as_of`.
    pub actual_to_date: f64,
    /// `actual_to_date` plus the expected cost of the remaining days.
    pub forecast: f64,
    /// The interval around `forecast` that should hold the actual total with the
    /// probability `ForecastParams::coverage`.
    pub low: f64,
    pub high: f64,
    /// Cost of each known day of the period, then the expected cost of each remaining day:
    /// `start..=end`, one value a day.
    pub daily: Vec<f64>,
}

/// The day a limit is crossed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Exceedance {
    pub day: NaiveDate,
    /// The crossing is forecast (a day after `as_of`), not already in the actual cost.
    pub forecast: bool,
}

impl PeriodForecast {
    /// The first day on which the running total of the period is more than `limit`: a
    /// known day if it already happened, else a forecast day; `None` if the forecast stays
    /// within it. Compared to the micro-unit, like budget thresholds.
    pub fn exceeds_on(&self, limit: f64) -> Option<Exceedance> {
        let limit = micros(limit);
        let known = (self.as_of - self.start).num_days() + 1;
        let mut total = 0.0;
        for (offset, cost) in self.daily.iter().enumerate() {
            total += cost;
            if micros(total) > limit {
                return Some(Exceedance {
                    day: self.start + Days::new(offset as u64),
                    forecast: offset as i64 >= known,
                });
            }
        }
        None
    }
}

/// The forecast of the `period` containing `as_of` (the last known day).
pub fn forecast_period(
    series: &DailySeries,
    as_of: NaiveDate,
    period: BudgetPeriod,
    params: &ForecastParams,
) -> Result<PeriodForecast, ForecastError> {
    let noon = as_of.and_hms_opt(12, 0, 0).expect("noon exists").and_utc();
    let (start, end) = period.current_range(noon);
    forecast_range(series, as_of, start, end, params)
}

/// The forecast of `start..=end` knowing the series up to `as_of`, which may be any day of the
/// range or the day before it (nothing of the range known yet). Days of the range before the
/// series starts cost 0.
pub fn forecast_range(
    series: &DailySeries,
    as_of: NaiveDate,
    start: NaiveDate,
    end: NaiveDate,
    params: &ForecastParams,
) -> Result<PeriodForecast, ForecastError> {
    if as_of < start - Days::new(1) || as_of > end {
        return Err(ForecastError::OutsidePeriod);
    }
    if as_of > series.end() {
        return Err(ForecastError::AfterSeries);
    }
    let origin = series
        .index_of(as_of)
        .filter(|&i| i + 1 >= params.min_history_days.max(1))
        .ok_or(ForecastError::NotEnoughHistory)?;
    let (values, first_weekday) = model::parts(series);
    let model = model::Model::fit(values, first_weekday, origin, params)
        .ok_or(ForecastError::NotEnoughHistory)?;
    let remaining = usize::try_from((end - as_of).num_days()).unwrap_or(0);
    let mut daily: Vec<f64> = Vec::new();
    let mut day = start;
    while day <= as_of {
        daily.push(series.value_on(day));
        day = day + Days::new(1);
    }
    let actual_to_date: f64 = daily.iter().sum();
    daily.extend((1..=remaining).map(|ahead| model.day(ahead)));
    let expected_rest = model.sum(remaining);
    let (low_ratio, high_ratio) =
        interval::ratios(values, first_weekday, origin, remaining, params);
    Ok(PeriodForecast {
        start,
        end,
        as_of,
        actual_to_date,
        forecast: actual_to_date + expected_rest,
        low: actual_to_date + expected_rest * low_ratio,
        high: actual_to_date + expected_rest * high_ratio,
        daily,
    })
}

#[cfg(test)]
mod tests;
