use chrono::{DateTime, SubsecRound, Utc};

/// Source of "now", injectable so that rules depending on time can be tested.
pub trait Clock: Send + Sync + std::fmt::Debug {
    fn now(&self) -> DateTime<Utc>;
}

/// The wall clock, truncated to microseconds (the precision every store keeps).
#[derive(Debug, Default, Clone, Copy)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> DateTime<Utc> {
        Utc::now().trunc_subsecs(6)
    }
}
