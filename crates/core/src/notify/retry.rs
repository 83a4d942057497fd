//! When a failed delivery is tried again: after 1, 2, 4 … minutes (at most six hours between
//! tries); after [`MAX_ATTEMPTS`] failed attempts it is given up.

use chrono::TimeDelta;

/// Failed attempts after which a channel delivery is `failed` and not tried again.
pub const MAX_ATTEMPTS: i64 = 8;
const FIRST_RETRY_DELAY: TimeDelta = TimeDelta::minutes(1);
const MAX_RETRY_DELAY: TimeDelta = TimeDelta::hours(6);

/// The wait after `failed_attempts` failed attempts (1 → 1 min, 2 → 2 min, 3 → 4 min …), at
/// most six hours. Without a cap on the attempts (the e-mail to owners and admins of a tenant
/// without channels is retried until it goes out).
pub fn retry_delay(failed_attempts: i64) -> TimeDelta {
    let doublings = u32::try_from(failed_attempts.clamp(1, 20) - 1).unwrap_or(0);
    FIRST_RETRY_DELAY
        .checked_mul(1 << doublings)
        .map_or(MAX_RETRY_DELAY, |delay| delay.min(MAX_RETRY_DELAY))
}

/// The wait before a channel delivery's next attempt after `failed_attempts` failed ones;
/// `None` once it has failed [`MAX_ATTEMPTS`] times (given up).
pub fn next_attempt(failed_attempts: i64) -> Option<TimeDelta> {
    (failed_attempts < MAX_ATTEMPTS).then(|| retry_delay(failed_attempts))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retries_wait_longer_each_time_up_to_six_hours() {
        assert_eq!(retry_delay(1), TimeDelta::minutes(1));
        assert_eq!(retry_delay(2), TimeDelta::minutes(2));
        assert_eq!(retry_delay(3), TimeDelta::minutes(4));
        assert_eq!(retry_delay(4), TimeDelta::minutes(8));
        assert_eq!(retry_delay(9), TimeDelta::hours(4) + TimeDelta::minutes(16));
        assert_eq!(retry_delay(10), TimeDelta::hours(6));
        assert_eq!(retry_delay(500), TimeDelta::hours(6));
        assert_eq!(retry_delay(0), TimeDelta::minutes(1));
    }

    #[test]
    fn a_channel_delivery_is_given_up_after_eight_failures() {
        let waits: Vec<i64> = (1..MAX_ATTEMPTS)
            .map(|failed| next_attempt(failed).unwrap().num_minutes())
            .collect();
        assert_eq!(waits, vec![1, 2, 4, 8, 16, 32, 64]);
        assert_eq!(next_attempt(8), None);
        assert_eq!(next_attempt(9), None);
    }
}
