use crate::FieldError;

/// Default relative margin: a day must cost 20 % more than expected.
pub const DEFAULT_RELATIVE: f64 = 0.20;
/// Default absolute margin: and at least 100 more (in the series' currency) than expected.
pub const DEFAULT_ABSOLUTE: f64 = 100.0;
/// Largest relative margin a tenant may set: 10 = 1 000 %.
pub const MAX_RELATIVE: f64 = 10.0;
/// Largest absolute margin a tenant may set, per day.
pub const MAX_ABSOLUTE: f64 = 1_000_000_000.0;

const RELATIVE_MESSAGE: &str = "The relative threshold must be between 0 and 10 (0 % to 1000 %)";
const ABSOLUTE_MESSAGE: &str = "The absolute threshold must be between 0 and 1000000000";

/// How far above its expected cost a day must be, by both margins, to be an anomaly. The
/// tenant sets them; the defaults are 20 % and 100 a day, so a cheap series is not flagged for
/// doubling from 3 to 6 and an expensive one is not flagged for 101 on 50 000.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Thresholds {
    relative: f64,
    absolute: f64,
}

impl Default for Thresholds {
    fn default() -> Self {
        Self {
            relative: DEFAULT_RELATIVE,
            absolute: DEFAULT_ABSOLUTE,
        }
    }
}

impl Thresholds {
    /// `relative` as a fraction (0.2 = 20 %), `absolute` in the series' currency per day.
    pub fn new(relative: f64, absolute: f64) -> Result<Self, FieldError> {
        if !(relative.is_finite() && (0.0..=MAX_RELATIVE).contains(&relative)) {
            return Err(FieldError::new("relativeThreshold", RELATIVE_MESSAGE));
        }
        if !(absolute.is_finite() && (0.0..=MAX_ABSOLUTE).contains(&absolute)) {
            return Err(FieldError::new("absoluteThreshold", ABSOLUTE_MESSAGE));
        }
        Ok(Self { relative, absolute })
    }

    pub fn relative(&self) -> f64 {
        self.relative
    }

    pub fn absolute(&self) -> f64 {
        self.absolute
    }

    /// `actual` is above `expected` by more than both margins. The relative margin is taken on
    /// the size of `expected`, so a series of credits (negative costs) is judged the same way.
    pub fn exceeded(&self, actual: f64, expected: f64) -> bool {
        let excess = actual - expected;
        excess > self.absolute && excess > self.relative * expected.abs()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_twenty_percent_and_one_hundred() {
        let thresholds = Thresholds::default();
        assert_eq!(thresholds.relative(), 0.20);
        assert_eq!(thresholds.absolute(), 100.0);
    }

    #[test]
    fn both_margins_must_be_exceeded() {
        let thresholds = Thresholds::default();
        // 25 % but only 50 above.
        assert!(!thresholds.exceeded(250.0, 200.0));
        // 500 above but only 1 %.
        assert!(!thresholds.exceeded(50_500.0, 50_000.0));
        // 30 % and 300 above.
        assert!(thresholds.exceeded(1_300.0, 1_000.0));
        // Exactly on a margin is not above it.
        assert!(!thresholds.exceeded(1_200.0, 1_000.0));
        // Nothing expected: the absolute margin decides.
        assert!(thresholds.exceeded(101.0, 0.0));
    }

    #[test]
    fn out_of_range_margins_are_refused_with_their_field() {
        assert_eq!(
            Thresholds::new(-0.1, 100.0).unwrap_err().field,
            "relativeThreshold"
        );
        assert_eq!(
            Thresholds::new(f64::NAN, 100.0).unwrap_err().field,
            "relativeThreshold"
        );
        assert_eq!(
            Thresholds::new(11.0, 100.0).unwrap_err().field,
            "relativeThreshold"
        );
        assert_eq!(
            Thresholds::new(0.2, -1.0).unwrap_err().field,
            "absoluteThreshold"
        );
        assert_eq!(
            Thresholds::new(0.2, f64::INFINITY).unwrap_err().field,
            "absoluteThreshold"
        );
        assert!(Thresholds::new(0.0, 0.0).is_ok());
        assert!(Thresholds::new(MAX_RELATIVE, MAX_ABSOLUTE).is_ok());
    }
}
