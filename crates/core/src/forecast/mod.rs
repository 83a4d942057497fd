//! Period-end cost forecasts with an interval, weekday-aware, backtested (docs/ANOMALIES.md).
