use super::*;
use crate::anomaly::synthetic::Scenario;

fn day(text: &str) -> NaiveDate {
    text.parse().unwrap()
}

/// Every day costs `cost`, from `start` to `end`.
fn flat(start: &str, end: &str, cost: f64) -> DailySeries {
    let (start, end) = (day(start), day(end));
    let days = (end - start).num_days() as usize + 1;
    DailySeries::new(start, vec![cost; days])
}

fn params() -> ForecastParams {
    ForecastParams::default()
}

#[test]
fn a_flat_series_forecasts_its_month_exactly() {
    let series = flat("2024-01-01", "2024-03-10", 100.0);
    let forecast =
        forecast_period(&series, day("2024-03-10"), BudgetPeriod::Monthly, &params()).unwrap();
    assert_eq!(
        (forecast.start, forecast.end),
        (day("2024-03-01"), day("2024-03-31"))
    );
    assert_eq!(forecast.actual_to_date, 1_000.0);
    assert!((forecast.forecast - 3_100.0).abs() < 1e-6, "{forecast:?}");
    assert!((forecast.low - 3_100.0).abs() < 1e-6 && (forecast.high - 3_100.0).abs() < 1e-6);
    assert_eq!(forecast.daily.len(), 31);
}

#[test]
fn the_forecast_counts_the_weekdays_left() {
    // 100 on weekdays, 20 at weekends, from Monday 2024-01-01.
    let start = day("2024-01-01");
    let values: Vec<f64> = (0..70)
        .map(|i| if i % 7 >= 5 { 20.0 } else { 100.0 })
        .collect();
    let series = DailySeries::new(start, values);
    // Standing on Sunday 2024-03-10: March 11–31 has 15 weekdays and 6 weekend days.
    let forecast =
        forecast_period(&series, day("2024-03-10"), BudgetPeriod::Monthly, &params()).unwrap();
    // March 1–10: Fri 1, Sat 2, Sun 3, Mon 4 – Fri 8, Sat 9, Sun 10.
    assert_eq!(forecast.actual_to_date, 6.0 * 100.0 + 4.0 * 20.0);
    let expected = forecast.actual_to_date + 15.0 * 100.0 + 6.0 * 20.0;
    assert!((forecast.forecast - expected).abs() < 1e-6, "{forecast:?}");
}

#[test]
fn the_interval_holds_the_forecast_and_closes_on_the_last_day() {
    let scenario = Scenario::clean();
    let series = scenario.generate(3, 0).series;
    let forecast =
        forecast_period(&series, day("2024-06-10"), BudgetPeriod::Monthly, &params()).unwrap();
    assert!(
        forecast.low < forecast.forecast && forecast.forecast < forecast.high,
        "{forecast:?}"
    );
    assert!(forecast.low > forecast.actual_to_date);
    let last =
        forecast_period(&series, day("2024-06-30"), BudgetPeriod::Monthly, &params()).unwrap();
    assert_eq!(last.forecast, last.actual_to_date);
    assert_eq!((last.low, last.high), (last.forecast, last.forecast));
}

#[test]
fn the_day_before_the_period_forecasts_all_of_it() {
    let series = flat("2024-01-01", "2024-03-31", 50.0);
    let forecast = forecast_range(
        &series,
        day("2024-03-31"),
        day("2024-04-01"),
        day("2024-04-30"),
        &params(),
    )
    .unwrap();
    assert_eq!(forecast.actual_to_date, 0.0);
    assert!((forecast.forecast - 1_500.0).abs() < 1e-6);
}

#[test]
fn quarters_and_years_are_forecast_to_their_end() {
    let series = flat("2024-01-01", "2024-05-15", 10.0);
    let quarter = forecast_period(
        &series,
        day("2024-05-15"),
        BudgetPeriod::Quarterly,
        &params(),
    )
    .unwrap();
    assert_eq!(
        (quarter.start, quarter.end),
        (day("2024-04-01"), day("2024-06-30"))
    );
    assert!((quarter.forecast - 910.0).abs() < 1e-6);
    let year =
        forecast_period(&series, day("2024-05-15"), BudgetPeriod::Yearly, &params()).unwrap();
    assert!(
        (year.forecast - 3_660.0).abs() < 1e-6,
        "2024 has 366 days: {year:?}"
    );
}

#[test]
fn days_of_the_period_before_the_series_cost_nothing() {
    // A service that started on the 11th.
    let series = flat("2024-03-11", "2024-03-20", 100.0);
    let forecast =
        forecast_period(&series, day("2024-03-20"), BudgetPeriod::Monthly, &params()).unwrap();
    assert_eq!(forecast.actual_to_date, 1_000.0);
    assert_eq!(forecast.daily[0], 0.0);
    assert!((forecast.forecast - 2_100.0).abs() < 1e-6);
}

#[test]
fn refusals() {
    let series = flat("2024-01-01", "2024-03-10", 100.0);
    let march = (day("2024-03-01"), day("2024-03-31"));
    let at = |as_of: &str| forecast_range(&series, day(as_of), march.0, march.1, &params());
    assert_eq!(at("2024-02-28").unwrap_err(), ForecastError::OutsidePeriod);
    assert_eq!(at("2024-04-01").unwrap_err(), ForecastError::OutsidePeriod);
    assert_eq!(at("2024-03-11").unwrap_err(), ForecastError::AfterSeries);
    assert!(at("2024-02-29").is_ok());
    let young = flat("2024-03-05", "2024-03-10", 100.0);
    assert_eq!(
        forecast_range(&young, day("2024-03-10"), march.0, march.1, &params()).unwrap_err(),
        ForecastError::NotEnoughHistory
    );
}

#[test]
fn the_budget_is_forecast_to_be_exceeded_by_the_23rd() {
    // 100 a day: 2 300 spent by the end of the 23rd, 2 200 by the 22nd.
    let series = flat("2024-01-01", "2024-03-10", 100.0);
    let forecast =
        forecast_period(&series, day("2024-03-10"), BudgetPeriod::Monthly, &params()).unwrap();
    assert_eq!(
        forecast.exceeds_on(2_250.0),
        Some(Exceedance {
            day: day("2024-03-23"),
            forecast: true
        })
    );
    // Exactly reached is not exceeded: 2 300 is crossed on the 24th.
    assert_eq!(forecast.exceeds_on(2_300.0).unwrap().day, day("2024-03-24"));
    // Already crossed on the 5th (500 < 450 first on day 5).
    assert_eq!(
        forecast.exceeds_on(450.0),
        Some(Exceedance {
            day: day("2024-03-05"),
            forecast: false
        })
    );
    assert_eq!(forecast.exceeds_on(3_100.0), None);
}

/// The backtest docs/ANOMALIES.md reports (seed 2; the parameters were chosen on seed 1):
/// 300 clean series and 300 with injected anomalies, every month from the third, standing on
/// the 7th, 14th and 21st. The bounds are the measured figures rounded.
#[test]
fn month_end_forecast_accuracy_on_the_synthetic_series() {
    let clean: Vec<DailySeries> = (0..300)
        .map(|i| Scenario::clean().generate(2, i).series)
        .collect();
    let injected: Vec<DailySeries> = (0..300)
        .map(|i| Scenario::injected().generate(2, i).series)
        .collect();
    let on_clean = backtest(&clean, BudgetPeriod::Monthly, &[7, 14, 21], 56, &params());
    let on_injected = backtest(
        &injected,
        BudgetPeriod::Monthly,
        &[7, 14, 21],
        56,
        &params(),
    );
    let figures = format!("clean {on_clean:?}\ninjected {on_injected:?}");
    for (accuracy, (clean_mape, injected_mape)) in on_clean
        .iter()
        .zip(&on_injected)
        .map(|(c, i)| (c, (c.mape, i.mape)))
    {
        assert!(accuracy.cases >= 1_000, "{figures}");
        assert!(
            clean_mape <= CLEAN_MAPE[accuracy.days_into / 7 - 1],
            "{figures}"
        );
        assert!(
            injected_mape <= INJECTED_MAPE[accuracy.days_into / 7 - 1],
            "{figures}"
        );
        assert!((0.75..=0.9).contains(&accuracy.coverage), "{figures}");
    }
}

/// Bounds on the MAPE at 7, 14 and 21 days into a month.
const CLEAN_MAPE: [f64; 3] = [0.04, 0.03, 0.02];
const INJECTED_MAPE: [f64; 3] = [0.13, 0.08, 0.04];
