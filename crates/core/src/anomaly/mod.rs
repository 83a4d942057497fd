//! Cost anomaly detection: a weekday-aware baseline per daily series, and the days above it (docs/ANOMALIES.md).
