//! Per-tenant upload quotas (`[uploads]`): uploads and bytes per UTC day, and the line items a
//! tenant keeps. The messages name the limit and when it resets.

use chrono::{DateTime, Duration, Utc};
use costscope_ingest::{human_bytes, thousands};
use costscope_store::IngestUsage;

use crate::config::UploadLimits;

/// A quota the tenant has reached: what to tell it, and how long until it resets (`None`: it
/// does not reset by itself).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuotaReached {
    pub message: String,
    pub wait: Option<Duration>,
}

/// Midnight UTC that began `now`'s day: the start of the daily quotas' period.
pub fn utc_day_start(now: DateTime<Utc>) -> DateTime<Utc> {
    now.date_naive()
        .and_hms_opt(0, 0, 0)
        .expect("midnight exists")
        .and_utc()
}

/// How long until the daily quotas reset (the next midnight UTC).
pub fn until_reset(now: DateTime<Utc>) -> Duration {
    utc_day_start(now) + Duration::days(1) - now
}

fn resets(now: DateTime<Utc>) -> String {
    let wait = until_reset(now);
    let minutes = (wait.num_seconds() + 59) / 60;
    let (hours, minutes) = (minutes / 60, minutes % 60);
    let left = if hours > 0 {
        format!("{hours} h {minutes} min")
    } else {
        format!("{minutes} min")
    };
    format!("it resets at 00:00 UTC, in {left}")
}

/// Whether a new upload may start: answers the bytes it may still send today.
pub fn check_new_upload(
    limits: &UploadLimits,
    usage: &IngestUsage,
    now: DateTime<Utc>,
) -> Result<u64, QuotaReached> {
    if usage.loads >= u64::from(limits.max_loads_per_day) {
        return Err(QuotaReached {
            message: format!(
                "Daily upload limit reached: at most {} uploads per UTC day; {}",
                thousands(u64::from(limits.max_loads_per_day)),
                resets(now)
            ),
            wait: Some(until_reset(now)),
        });
    }
    if usage.bytes >= limits.max_bytes_per_day {
        return Err(bytes_per_day_reached(limits, now));
    }
    if usage.stored_rows >= limits.max_stored_rows {
        return Err(QuotaReached {
            message: format!(
                "Storage limit reached: your organisation keeps {} line items, the most \
                 allowed is {}; ask your administrator to raise it",
                thousands(usage.stored_rows),
                thousands(limits.max_stored_rows)
            ),
            wait: None,
        });
    }
    Ok(limits.max_bytes_per_day - usage.bytes)
}

/// The upload under way passed the bytes left today.
pub fn bytes_per_day_reached(limits: &UploadLimits, now: DateTime<Utc>) -> QuotaReached {
    QuotaReached {
        message: format!(
            "Daily upload volume reached: at most {} uploaded per UTC day; {}",
            human_bytes(limits.max_bytes_per_day),
            resets(now)
        ),
        wait: Some(until_reset(now)),
    }
}

/// A load's rows would take the tenant past its stored line items (counted before the
/// billing periods it replaces are removed).
pub fn check_stored_rows(limits: &UploadLimits, stored: u64, new_rows: u64) -> Result<(), String> {
    if stored.saturating_add(new_rows) > limits.max_stored_rows {
        return Err(format!(
            "Storage limit reached: this upload's {} rows and the {} line items your \
             organisation keeps would pass the most allowed, {}; ask your administrator to \
             raise it",
            thousands(new_rows),
            thousands(stored),
            thousands(limits.max_stored_rows)
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str) -> DateTime<Utc> {
        text.parse().unwrap()
    }

    #[test]
    fn daily_quotas_reset_at_midnight_utc() {
        let now = at("2026-11-23T21:30:10Z");
        assert_eq!(utc_day_start(now), at("2026-11-23T00:00:00Z"));
        assert_eq!(until_reset(now), Duration::seconds(2 * 3600 + 29 * 60 + 50));
        assert_eq!(resets(now), "it resets at 00:00 UTC, in 2 h 30 min");
    }

    #[test]
    fn each_quota_names_its_limit() {
        let limits = UploadLimits {
            max_loads_per_day: 3,
            max_bytes_per_day: 10 << 20,
            max_stored_rows: 1000,
            ..UploadLimits::default()
        };
        let now = at("2026-11-23T23:50:00Z");
        let usage = |loads, bytes, stored_rows| IngestUsage {
            loads,
            bytes,
            stored_rows,
        };
        assert_eq!(
            check_new_upload(&limits, &usage(2, 4 << 20, 10), now),
            Ok(6 << 20)
        );
        let refused = check_new_upload(&limits, &usage(3, 0, 0), now).unwrap_err();
        assert_eq!(
            refused.message,
            "Daily upload limit reached: at most 3 uploads per UTC day; it resets at 00:00 UTC, in 10 min"
        );
        assert_eq!(refused.wait, Some(Duration::minutes(10)));
        assert_eq!(
            check_new_upload(&limits, &usage(0, 10 << 20, 0), now)
                .unwrap_err()
                .message,
            "Daily upload volume reached: at most 10 MiB uploaded per UTC day; it resets at 00:00 UTC, in 10 min"
        );
        let refused = check_new_upload(&limits, &usage(0, 0, 1000), now).unwrap_err();
        assert!(refused.message.starts_with("Storage limit reached"));
        assert_eq!(refused.wait, None);
        assert!(check_stored_rows(&limits, 900, 100).is_ok());
        assert!(check_stored_rows(&limits, 900, 101)
            .unwrap_err()
            .contains("1,000"));
    }
}
