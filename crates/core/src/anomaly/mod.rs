//! Cost anomaly detection: a weekday-aware baseline per daily series, and the days above it (docs/ANOMALIES.md).
//!
//! A store reads one [`DailySeries`] per service × account (or tag value) after a load, scans it
//! with a [`Detector`] carrying the tenant's [`Thresholds`], and keeps the [`Anomaly`]s of the
//! days just loaded; [`explain`] ranks the usage types or resources behind one. [`synthetic`]
//! makes labelled series to measure all of it on.

mod baseline;
mod detect;
mod explain;
pub mod record;
mod series;
pub(crate) mod stats;
pub mod synthetic;
mod thresholds;
pub(crate) mod weekday;

pub use baseline::{Band, DetectorParams};
pub use detect::{Anomaly, DayJudgement, Detection, Detector};
pub use explain::{explain, Contributor};
pub use record::{AnomalySettings, AnomalyStatus, Contributors, Run, SeriesKey};
pub use series::DailySeries;
pub use thresholds::{Thresholds, DEFAULT_ABSOLUTE, DEFAULT_RELATIVE, MAX_ABSOLUTE, MAX_RELATIVE};
