//! Anomalies as the product stores and sends them (docs/ANOMALIES.md "In the product"): the
//! series an anomaly belongs to, the runs of a scan, which new runs notify, and the settings a
//! tenant chooses.

use std::collections::BTreeMap;

use chrono::{Days, NaiveDate};
use serde::{Deserialize, Serialize};

use super::detect::Detection;
use super::explain::Contributor;
use super::thresholds::{Thresholds, DEFAULT_ABSOLUTE, DEFAULT_RELATIVE};
use crate::FieldError;

/// Days of a scan whose verdicts are kept: older days were judged by earlier runs.
pub const JUDGED_DAYS: u64 = 35;
/// A new run notifies when it ends within this many days of the latest charge day.
pub const NOTIFY_WITHIN_DAYS: u64 = 3;
/// New runs notified per tenant and detection run at most (the largest impacts).
pub const MAX_NOTIFIED: usize = 10;
/// Contributors kept per dimension.
pub const CONTRIBUTORS: usize = 5;
/// Usage types named in a notification.
pub const NOTIFIED_CONTRIBUTORS: usize = 3;
/// Days before a run's start whose mean day is the contributors' baseline.
pub const BASELINE_DAYS: u64 = 28;
/// Series scanned per tenant and run at most (the largest by cost in the scanned days).
pub const MAX_SERIES: u32 = 5_000;
/// Tag keys a tenant may monitor.
pub const MAX_TAG_KEYS: usize = 5;
/// Longest monitored tag key, in characters.
pub const MAX_TAG_KEY_CHARS: usize = 128;

pub const TOO_MANY_TAG_KEYS: &str = "Monitor at most 5 tag keys";
pub const TAG_KEY_LENGTH: &str = "A tag key must be 1 to 128 characters";
pub const SETTINGS_MANAGERS_ONLY: &str = "Only owners and admins can change anomaly settings";
pub const ANOMALY_MANAGERS_ONLY: &str = "Only owners and admins can change an anomaly";
pub const STATUS_MESSAGE: &str = "Choose a status: open, dismissed or expected";
pub const NO_ANOMALY_FOUND: &str = "No anomaly found.";

/// One daily series of a tenant: whose cost it is, in one currency.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SeriesKey {
    /// Provider × account (`sub_account_id`) × service.
    Service {
        provider: String,
        account_id: String,
        service: String,
        currency: String,
    },
    /// One value of a monitored tag key (line items without the key are no series).
    Tag {
        key: String,
        value: String,
        currency: String,
    },
}

impl SeriesKey {
    pub fn currency(&self) -> &str {
        match self {
            SeriesKey::Service { currency, .. } | SeriesKey::Tag { currency, .. } => currency,
        }
    }

    /// The stored identity (unique per tenant and start day): a JSON array, unambiguous
    /// whatever the values hold.
    pub fn stored(&self) -> String {
        let parts: Vec<&str> = match self {
            SeriesKey::Service {
                provider,
                account_id,
                service,
                currency,
            } => vec!["service", provider, account_id, service, currency],
            SeriesKey::Tag {
                key,
                value,
                currency,
            } => vec!["tag", key, value, currency],
        };
        serde_json::to_string(&parts).unwrap_or_default()
    }

    /// The key back from its stored form.
    pub fn parse(stored: &str) -> Option<Self> {
        let parts: Vec<String> = serde_json::from_str(stored).ok()?;
        match parts.as_slice() {
            [kind, provider, account_id, service, currency] if kind == "service" => {
                Some(SeriesKey::Service {
                    provider: provider.clone(),
                    account_id: account_id.clone(),
                    service: service.clone(),
                    currency: currency.clone(),
                })
            }
            [kind, key, value, currency] if kind == "tag" => Some(SeriesKey::Tag {
                key: key.clone(),
                value: value.clone(),
                currency: currency.clone(),
            }),
            _ => None,
        }
    }
}

/// What is behind an anomaly, found for its first day.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Contributors {
    pub usage_types: Vec<Contributor>,
    pub resources: Vec<Contributor>,
}

/// A run of consecutive anomalous days of one series, as a scan found it.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    pub start: NaiveDate,
    /// Its latest anomalous day.
    pub end: NaiveDate,
    pub days: u32,
    /// Summed over the run's days.
    pub actual: f64,
    pub expected: f64,
}

impl Run {
    pub fn impact(&self) -> f64 {
        self.actual - self.expected
    }

    /// The run's anomalous days, `start..=end` (a run has no gaps).
    pub fn contains(&self, day: NaiveDate) -> bool {
        (self.start..=self.end).contains(&day)
    }
}

/// The first day whose verdicts a scan up to `latest` keeps ([`JUDGED_DAYS`] days).
pub fn judged_from(latest: NaiveDate) -> NaiveDate {
    latest - Days::new(JUDGED_DAYS - 1)
}

/// The runs of a scanned series that have a day on `first..=last`, by start. A run that began
/// before `first` counts whole (its earlier days were scanned again too).
pub fn runs(detection: &Detection, first: NaiveDate, last: NaiveDate) -> Vec<Run> {
    let mut by_start: BTreeMap<NaiveDate, Run> = BTreeMap::new();
    for anomaly in detection.anomalies().filter(|a| a.day <= last) {
        let run = by_start.entry(anomaly.since).or_insert(Run {
            start: anomaly.since,
            end: anomaly.day,
            days: 0,
            actual: 0.0,
            expected: 0.0,
        });
        run.end = run.end.max(anomaly.day);
        run.days += 1;
        run.actual += anomaly.actual;
        run.expected += anomaly.expected;
    }
    by_start
        .into_values()
        .filter(|run| run.end >= first)
        .collect()
}

/// Which of the new runs notify: those ending within [`NOTIFY_WITHIN_DAYS`] of `latest`, the
/// [`MAX_NOTIFIED`] largest impacts among them. Answers one flag per run, in order.
pub fn notified(runs: &[(NaiveDate, f64)], latest: NaiveDate) -> Vec<bool> {
    let recent_from = latest - Days::new(NOTIFY_WITHIN_DAYS);
    let mut recent: Vec<usize> = (0..runs.len())
        .filter(|&i| runs[i].0 >= recent_from)
        .collect();
    recent.sort_by(|&a, &b| runs[b].1.total_cmp(&runs[a].1).then(a.cmp(&b)));
    recent.truncate(MAX_NOTIFIED);
    let mut flags = vec![false; runs.len()];
    for i in recent {
        flags[i] = true;
    }
    flags
}

/// `impact / expected` in percent; `None` when nothing was expected.
pub fn impact_percent(actual: f64, expected: f64) -> Option<f64> {
    (expected > 0.0).then(|| (actual - expected) / expected * 100.0)
}

/// Where an anomaly stands with people.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum AnomalyStatus {
    Open,
    Dismissed,
    Expected,
}

impl AnomalyStatus {
    pub const fn as_str(self) -> &'static str {
        match self {
            AnomalyStatus::Open => "open",
            AnomalyStatus::Dismissed => "dismissed",
            AnomalyStatus::Expected => "expected",
        }
    }

    /// The stored (and wire) name back; `None` for anything else.
    pub fn parse(text: &str) -> Option<Self> {
        [
            AnomalyStatus::Open,
            AnomalyStatus::Dismissed,
            AnomalyStatus::Expected,
        ]
        .into_iter()
        .find(|status| status.as_str() == text)
    }

    /// A status a request names, or the contract's message under `status`.
    pub fn parse_field(text: Option<&str>) -> Result<Self, FieldError> {
        text.and_then(Self::parse)
            .ok_or(FieldError::new("status", STATUS_MESSAGE))
    }
}

/// A tenant's anomaly settings.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct AnomalySettings {
    pub thresholds: Thresholds,
    /// Trimmed, de-duplicated, in the order given.
    pub tag_keys: Vec<String>,
    /// Where anomaly notifications go; empty: every channel.
    pub channel_ids: Vec<i64>,
}

/// Settings as a request gives them; a missing field takes its default.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SettingsInput {
    pub relative_threshold: Option<f64>,
    pub absolute_threshold: Option<f64>,
    pub tag_keys: Option<Vec<String>>,
    pub channel_ids: Option<Vec<i64>>,
}

/// The settings' rules (docs/ANOMALIES.md "Settings"), every broken field reported. Channel ids
/// are only de-duplicated here: whether they are the tenant's is the store's to say.
pub fn validate_settings(input: SettingsInput) -> Result<AnomalySettings, Vec<FieldError>> {
    let relative = input.relative_threshold.unwrap_or(DEFAULT_RELATIVE);
    let absolute = input.absolute_threshold.unwrap_or(DEFAULT_ABSOLUTE);
    let mut errors = Vec::new();
    // Each margin checked on its own, so both messages show when both are wrong.
    errors.extend(Thresholds::new(relative, DEFAULT_ABSOLUTE).err());
    errors.extend(Thresholds::new(DEFAULT_RELATIVE, absolute).err());
    let mut tag_keys: Vec<String> = Vec::new();
    for key in input.tag_keys.unwrap_or_default() {
        let key = key.trim();
        let length = key.chars().count();
        if length == 0 || length > MAX_TAG_KEY_CHARS {
            errors.push(FieldError::new("tagKeys", TAG_KEY_LENGTH));
            break;
        }
        if !tag_keys.iter().any(|known| known == key) {
            tag_keys.push(key.to_owned());
        }
    }
    if tag_keys.len() > MAX_TAG_KEYS {
        errors.push(FieldError::new("tagKeys", TOO_MANY_TAG_KEYS));
    }
    let mut channel_ids = input.channel_ids.unwrap_or_default();
    channel_ids.sort_unstable();
    channel_ids.dedup();
    match Thresholds::new(relative, absolute) {
        Ok(thresholds) if errors.is_empty() => Ok(AnomalySettings {
            thresholds,
            tag_keys,
            channel_ids,
        }),
        _ => Err(errors),
    }
}

#[cfg(test)]
mod tests {
    use super::super::detect::{DayJudgement, Detection};
    use super::super::Band;
    use super::*;

    fn day(text: &str) -> NaiveDate {
        text.parse().unwrap()
    }

    #[test]
    fn series_keys_round_trip_through_their_stored_form() {
        let keys = [
            SeriesKey::Service {
                provider: "aws".into(),
                account_id: "1\"2".into(),
                service: "EC2".into(),
                currency: "USD".into(),
            },
            SeriesKey::Tag {
                key: "team".into(),
                value: "".into(),
                currency: "EUR".into(),
            },
        ];
        for key in keys {
            assert_eq!(SeriesKey::parse(&key.stored()), Some(key.clone()));
        }
        assert_eq!(SeriesKey::parse("[\"x\"]"), None);
    }

    fn judged(text: &str, actual: f64, expected: f64, since: Option<&str>) -> DayJudgement {
        DayJudgement {
            day: day(text),
            actual,
            band: Some(Band {
                expected,
                low: expected * 0.8,
                high: expected * 1.2,
            }),
            since: since.map(day),
        }
    }

    #[test]
    fn runs_group_days_by_their_first_day_and_keep_those_reaching_the_window() {
        let detection = Detection {
            days: vec![
                judged("2026-01-01", 500.0, 100.0, Some("2026-01-01")),
                judged("2026-01-02", 100.0, 100.0, None),
                judged("2026-01-03", 300.0, 100.0, Some("2026-01-03")),
                judged("2026-01-04", 400.0, 100.0, Some("2026-01-03")),
                judged("2026-01-05", 100.0, 100.0, None),
            ],
        };
        let found = runs(&detection, day("2026-01-04"), day("2026-01-05"));
        assert_eq!(
            found,
            vec![Run {
                start: day("2026-01-03"),
                end: day("2026-01-04"),
                days: 2,
                actual: 700.0,
                expected: 200.0,
            }]
        );
        assert_eq!(found[0].impact(), 500.0);
        assert_eq!(
            runs(&detection, day("2026-01-01"), day("2026-01-05")).len(),
            2
        );
    }

    #[test]
    fn only_recent_runs_notify_and_at_most_ten_of_the_largest() {
        let latest = day("2026-03-31");
        let mut runs: Vec<(NaiveDate, f64)> =
            (0..12).map(|i| (day("2026-03-30"), f64::from(i))).collect();
        // Ends 4 days before the latest day: too old.
        runs.push((day("2026-03-27"), 1_000.0));
        runs.push((day("2026-03-28"), 999.0));
        let flags = notified(&runs, latest);
        // Recent: the twelve on the 30th and the one on the 28th; the ten largest notify.
        assert!(flags[13], "the largest recent one");
        assert!(
            flags[..3].iter().all(|flag| !flag),
            "the three smallest stay silent"
        );
        assert!(flags[3..12].iter().all(|flag| *flag));
        assert!(!flags[12], "ended 4 days before the latest day");
        assert_eq!(flags.iter().filter(|flag| **flag).count(), 10);
    }

    #[test]
    fn impact_percent_is_none_when_nothing_was_expected() {
        assert_eq!(impact_percent(150.0, 100.0), Some(50.0));
        assert_eq!(impact_percent(150.0, 0.0), None);
    }

    #[test]
    fn statuses_parse_and_refuse_others_with_the_contracts_message() {
        assert_eq!(
            AnomalyStatus::parse_field(Some("dismissed")),
            Ok(AnomalyStatus::Dismissed)
        );
        let error = AnomalyStatus::parse_field(Some("closed")).unwrap_err();
        assert_eq!((error.field, error.message), ("status", STATUS_MESSAGE));
        assert!(AnomalyStatus::parse_field(None).is_err());
    }

    #[test]
    fn settings_report_every_broken_field() {
        let errors = validate_settings(SettingsInput {
            relative_threshold: Some(11.0),
            absolute_threshold: Some(-1.0),
            tag_keys: Some(vec!["a".into(), " ".into()]),
            channel_ids: None,
        })
        .unwrap_err();
        let fields: Vec<(&str, &str)> = errors.iter().map(|e| (e.field, e.message)).collect();
        assert_eq!(
            fields,
            vec![
                (
                    "relativeThreshold",
                    "The relative threshold must be between 0 and 10 (0 % to 1000 %)"
                ),
                (
                    "absoluteThreshold",
                    "The absolute threshold must be between 0 and 1000000000"
                ),
                ("tagKeys", TAG_KEY_LENGTH),
            ]
        );
        let too_many = validate_settings(SettingsInput {
            tag_keys: Some((0..6).map(|i| format!("k{i}")).collect()),
            ..SettingsInput::default()
        })
        .unwrap_err();
        assert_eq!(too_many[0].message, TOO_MANY_TAG_KEYS);
    }

    #[test]
    fn settings_trim_and_deduplicate_and_default_missing_fields() {
        let settings = validate_settings(SettingsInput {
            tag_keys: Some(vec![" team ".into(), "team".into(), "env".into()]),
            channel_ids: Some(vec![3, 1, 3]),
            ..SettingsInput::default()
        })
        .unwrap();
        assert_eq!(settings.tag_keys, vec!["team", "env"]);
        assert_eq!(settings.channel_ids, vec![1, 3]);
        assert_eq!(settings.thresholds, Thresholds::default());
    }
}
