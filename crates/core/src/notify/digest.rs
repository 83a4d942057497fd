//! Scheduled digests (issue 15, docs/NOTIFICATIONS.md "Digests"): a user's choice and its
//! messages, which period a digest covers, what it says (totals per currency, top movers, open
//! anomalies, budgets at risk) and how it reads.

use std::collections::BTreeMap;

use chrono::{Datelike, Days, NaiveDate, Weekday};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use super::event::{amount_in, Fact, Message};
use crate::FieldError;

pub const FREQUENCY_MESSAGE: &str = "Choose a frequency: off, daily or weekly";
pub const EMAIL_NEEDS_SMTP: &str = "E-mail digests need SMTP configured on the server";
/// Services listed in each direction of the top movers.
pub const TOP_MOVERS: usize = 5;
/// Open anomalies listed (the count covers all).
pub const LARGEST_ANOMALIES: usize = 3;
/// A budget is at risk from this share of its amount spent in the current period…
pub const AT_RISK_PERCENT: f64 = 75.0;
/// … or with its period's forecast at this share.
pub const AT_RISK_FORECAST_PERCENT: f64 = 100.0;

/// How often a user receives a digest.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum DigestFrequency {
    #[default]
    Off,
    Daily,
    Weekly,
}

impl DigestFrequency {
    pub const fn as_str(self) -> &'static str {
        match self {
            DigestFrequency::Off => "off",
            DigestFrequency::Daily => "daily",
            DigestFrequency::Weekly => "weekly",
        }
    }

    /// The stored or requested name; `None` for anything else.
    pub fn parse(text: &str) -> Option<Self> {
        [Self::Off, Self::Daily, Self::Weekly]
            .into_iter()
            .find(|frequency| frequency.as_str() == text)
    }

    /// The period a digest sent `today` covers, with the one it is compared with, when one is
    /// due: daily, the latest complete charge day (`latest`, never today's or later) against
    /// the day before; weekly, only on Mondays (UTC), the 7 days ending with it against the 7
    /// before. `None`: off, not Monday for a weekly one, or no complete charge day.
    pub fn period(self, latest: NaiveDate, today: NaiveDate) -> Option<DigestPeriod> {
        if latest >= today {
            return None;
        }
        let days = match self {
            DigestFrequency::Off => return None,
            DigestFrequency::Daily => 1,
            DigestFrequency::Weekly if today.weekday() == Weekday::Mon => 7,
            DigestFrequency::Weekly => return None,
        };
        let start = latest - Days::new(days - 1);
        let previous_end = start.pred_opt()?;
        Some(DigestPeriod {
            start,
            end: latest,
            previous_start: previous_end - Days::new(days - 1),
            previous_end,
        })
    }
}

/// A user's digest choice as sent (`PUT /v1/me/digest`); a missing field takes its default.
#[derive(Debug, Clone, Copy, Default)]
pub struct DigestInput<'a> {
    pub frequency: Option<&'a str>,
    pub email: Option<bool>,
    pub channel_id: Option<i64>,
}

/// A checked digest choice. Whether the channel is one of the tenant's is the store's to say
/// (`Unknown channel` under `channelId`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ValidDigest {
    pub frequency: DigestFrequency,
    pub email: bool,
    pub channel_id: Option<i64>,
}

/// The contract's rules: a known frequency (`off` when missing), and e-mail only with SMTP
/// configured on the server (`smtp`). Every broken rule is answered.
pub fn validate_digest(input: DigestInput<'_>, smtp: bool) -> Result<ValidDigest, Vec<FieldError>> {
    let mut errors = Vec::new();
    let frequency = match input.frequency {
        None => Some(DigestFrequency::Off),
        Some(text) => DigestFrequency::parse(text),
    };
    if frequency.is_none() {
        errors.push(FieldError::new("frequency", FREQUENCY_MESSAGE));
    }
    let email = input.email.unwrap_or(true);
    if email && !smtp {
        errors.push(FieldError::new("email", EMAIL_NEEDS_SMTP));
    }
    match frequency {
        Some(frequency) if errors.is_empty() => Ok(ValidDigest {
            frequency,
            email,
            channel_id: input.channel_id,
        }),
        _ => Err(errors),
    }
}

/// The days a digest covers and the ones before it, both included.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DigestPeriod {
    pub start: NaiveDate,
    pub end: NaiveDate,
    pub previous_start: NaiveDate,
    pub previous_end: NaiveDate,
}

/// Spend of one provider's service in one currency over one period.
#[derive(Debug, Clone, PartialEq)]
pub struct ServiceAmount {
    pub provider: String,
    pub service: String,
    pub currency: String,
    pub amount: f64,
}

/// `current` against `previous`.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Change {
    pub current: f64,
    pub previous: f64,
    /// `current - previous`.
    pub change: f64,
    /// `change` in percent of `previous`; null when nothing was spent before.
    pub change_percent: Option<f64>,
}

impl Change {
    pub fn new(current: f64, previous: f64) -> Self {
        Self {
            current,
            previous,
            change: current - previous,
            change_percent: (previous != 0.0)
                .then(|| (current - previous) / previous.abs() * 100.0),
        }
    }

    /// `+12.5 %`, `-3.0 %`, or `new` without a previous amount.
    pub fn percent_text(&self) -> String {
        match self.change_percent {
            Some(percent) => format!("{percent:+.1} %"),
            None => "new".to_owned(),
        }
    }
}

/// The tenant's total in one currency (currencies are never added together).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct CurrencyTotal {
    pub currency: String,
    #[serde(flatten)]
    pub change: Change,
}

/// One service whose spend moved.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Mover {
    pub provider: String,
    pub service: String,
    pub currency: String,
    #[serde(flatten)]
    pub change: Change,
}

/// The services that rose most and fell most, by absolute change.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Movers {
    pub up: Vec<Mover>,
    pub down: Vec<Mover>,
}

/// An open anomaly as a digest lists it.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct DigestAnomaly {
    pub id: i64,
    /// The service, or `tagKey=tagValue`.
    pub subject: String,
    pub start: Option<NaiveDate>,
    pub currency: String,
    pub impact: f64,
    pub url: String,
}

/// The tenant's open anomalies.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct DigestAnomalies {
    pub open_count: i64,
    /// The [`LARGEST_ANOMALIES`] largest by impact.
    pub largest: Vec<DigestAnomaly>,
}

/// A budget whose current period is at risk ([`is_at_risk`]).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct BudgetAtRisk {
    pub id: i64,
    pub name: String,
    /// The budget's amount, in `currency`.
    pub amount: f64,
    pub currency: String,
    pub spent: f64,
    pub percent_used: f64,
    /// The current period's forecast total, when there is one.
    pub forecast: Option<f64>,
    pub forecast_percent: Option<f64>,
    pub url: String,
}

/// Spent at least [`AT_RISK_PERCENT`] of the amount, or forecast to reach
/// [`AT_RISK_FORECAST_PERCENT`].
pub fn is_at_risk(percent_used: f64, forecast_percent: Option<f64>) -> bool {
    percent_used >= AT_RISK_PERCENT
        || forecast_percent.is_some_and(|percent| percent >= AT_RISK_FORECAST_PERCENT)
}

/// A digest as the outbox holds it (kind `digest`): self-contained, it reads the same later.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Digest {
    pub customer_id: i64,
    pub user_id: i64,
    pub frequency: DigestFrequency,
    pub start: Option<NaiveDate>,
    pub end: Option<NaiveDate>,
    pub previous_start: Option<NaiveDate>,
    pub previous_end: Option<NaiveDate>,
    /// Per currency, the largest this period first.
    pub totals: Vec<CurrencyTotal>,
    pub movers: Movers,
    pub anomalies: DigestAnomalies,
    pub budgets_at_risk: Vec<BudgetAtRisk>,
}

/// The totals per currency of both periods, the largest this period first.
pub fn totals(current: &[ServiceAmount], previous: &[ServiceAmount]) -> Vec<CurrencyTotal> {
    let mut sums: BTreeMap<&str, (f64, f64)> = BTreeMap::new();
    for row in current {
        sums.entry(row.currency.as_str()).or_default().0 += row.amount;
    }
    for row in previous {
        sums.entry(row.currency.as_str()).or_default().1 += row.amount;
    }
    let mut totals: Vec<CurrencyTotal> = sums
        .into_iter()
        .map(|(currency, (now, before))| CurrencyTotal {
            currency: currency.to_owned(),
            change: Change::new(now, before),
        })
        .collect();
    totals.sort_by(|a, b| b.change.current.total_cmp(&a.change.current));
    totals
}

/// The [`TOP_MOVERS`] services (per provider and currency) that rose most and the ones that
/// fell most, by absolute change; a service that did not move is in neither.
pub fn movers(current: &[ServiceAmount], previous: &[ServiceAmount]) -> Movers {
    let mut sums: BTreeMap<(&str, &str, &str), (f64, f64)> = BTreeMap::new();
    for row in current {
        let key = (
            row.provider.as_str(),
            row.service.as_str(),
            row.currency.as_str(),
        );
        sums.entry(key).or_default().0 += row.amount;
    }
    for row in previous {
        let key = (
            row.provider.as_str(),
            row.service.as_str(),
            row.currency.as_str(),
        );
        sums.entry(key).or_default().1 += row.amount;
    }
    let all: Vec<Mover> = sums
        .into_iter()
        .map(|((provider, service, currency), (now, before))| Mover {
            provider: provider.to_owned(),
            service: service.to_owned(),
            currency: currency.to_owned(),
            change: Change::new(now, before),
        })
        .collect();
    let mut up: Vec<Mover> = all
        .iter()
        .filter(|m| m.change.change > 0.0)
        .cloned()
        .collect();
    let mut down: Vec<Mover> = all.into_iter().filter(|m| m.change.change < 0.0).collect();
    up.sort_by(|a, b| b.change.change.total_cmp(&a.change.change));
    down.sort_by(|a, b| a.change.change.total_cmp(&b.change.change));
    up.truncate(TOP_MOVERS);
    down.truncate(TOP_MOVERS);
    Movers { up, down }
}

impl Digest {
    pub const EVENT: &'static str = "digest";

    pub fn from_payload(payload: &Value) -> Self {
        serde_json::from_value(payload.clone()).unwrap_or_default()
    }

    pub fn to_payload(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    fn dates(&self) -> String {
        let day = |day: Option<NaiveDate>| day.map_or_else(String::new, |day| day.to_string());
        format!("{} – {}", day(self.start), day(self.end))
    }

    /// `$1,234.00 (+12.5 %)` per currency, joined with `, `; `no spend` without any.
    fn totals_text(&self) -> String {
        if self.totals.is_empty() {
            return "no spend".to_owned();
        }
        self.totals
            .iter()
            .map(|total| {
                format!(
                    "{} ({})",
                    amount_in(total.change.current, &total.currency),
                    total.change.percent_text()
                )
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// `Costscope weekly digest: {total} ({±change %}) for {start} – {end}`.
    pub fn title(&self) -> String {
        let frequency = match self.frequency {
            DigestFrequency::Daily => "daily",
            _ => "weekly",
        };
        format!(
            "Costscope {frequency} digest: {} for {}",
            self.totals_text(),
            self.dates()
        )
    }

    pub fn message(&self, public_url: &str) -> Message {
        let mut details = Vec::new();
        let mut facts = Vec::new();
        for total in &self.totals {
            let previous = amount_in(total.change.previous, &total.currency);
            let change = amount_in(total.change.change, &total.currency);
            let line = format!(
                "{} this period, {previous} the period before: {}{change} ({}).",
                amount_in(total.change.current, &total.currency),
                if total.change.change > 0.0 { "+" } else { "" },
                total.change.percent_text(),
            );
            facts.push(Fact::new(
                &format!("Total ({})", total.currency),
                line.clone(),
            ));
            details.push(format!("Total in {}: {line}", total.currency));
        }
        let mover_line = |mover: &Mover| {
            format!(
                "{} ({}): {}{} ({})",
                mover.service,
                mover.provider,
                if mover.change.change > 0.0 { "+" } else { "" },
                amount_in(mover.change.change, &mover.currency),
                mover.change.percent_text()
            )
        };
        for (label, list) in [
            ("Top increases", &self.movers.up),
            ("Top decreases", &self.movers.down),
        ] {
            if !list.is_empty() {
                let lines: Vec<String> = list.iter().map(mover_line).collect();
                details.push(format!("{label}:\n{}", lines.join("\n")));
                facts.push(Fact::new(label, lines.join("; ")));
            }
        }
        let anomalies = &self.anomalies;
        let mut anomaly_text = format!("Open anomalies: {}", anomalies.open_count);
        for anomaly in &anomalies.largest {
            let start = anomaly
                .start
                .map_or_else(String::new, |day| day.to_string());
            anomaly_text.push_str(&format!(
                "\n{} from {start}: {} above expected ({})",
                anomaly.subject,
                amount_in(anomaly.impact, &anomaly.currency),
                anomaly.url
            ));
        }
        details.push(anomaly_text);
        facts.push(Fact::new(
            "Open anomalies",
            anomalies.open_count.to_string(),
        ));
        if self.budgets_at_risk.is_empty() {
            details.push("Budgets at risk: none".to_owned());
        } else {
            let lines: Vec<String> = self
                .budgets_at_risk
                .iter()
                .map(|budget| {
                    let forecast = budget.forecast.map_or_else(String::new, |forecast| {
                        format!(
                            ", forecast {} ({:.1} %)",
                            amount_in(forecast, &budget.currency),
                            budget.forecast_percent.unwrap_or_default()
                        )
                    });
                    format!(
                        "{}: {} of {} ({:.1} %){forecast} ({})",
                        budget.name,
                        amount_in(budget.spent, &budget.currency),
                        amount_in(budget.amount, &budget.currency),
                        budget.percent_used,
                        budget.url
                    )
                })
                .collect();
            details.push(format!("Budgets at risk:\n{}", lines.join("\n")));
        }
        facts.push(Fact::new(
            "Budgets at risk",
            self.budgets_at_risk.len().to_string(),
        ));
        Message {
            title: self.title(),
            text: format!("Your Costscope digest for {}.", self.dates()),
            details,
            facts,
            url: format!("{public_url}/dashboard"),
            link_text: "Open Costscope".to_owned(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(text: &str) -> NaiveDate {
        text.parse().unwrap()
    }

    fn row(service: &str, currency: &str, amount: f64) -> ServiceAmount {
        ServiceAmount {
            provider: "AWS".to_owned(),
            service: service.to_owned(),
            currency: currency.to_owned(),
            amount,
        }
    }

    #[test]
    fn a_choice_needs_a_known_frequency_and_smtp_for_email() {
        let input = |frequency, email| DigestInput {
            frequency,
            email,
            channel_id: Some(3),
        };
        assert_eq!(
            validate_digest(input(Some("weekly"), Some(true)), true),
            Ok(ValidDigest {
                frequency: DigestFrequency::Weekly,
                email: true,
                channel_id: Some(3)
            })
        );
        assert_eq!(
            validate_digest(input(Some("hourly"), None), false),
            Err(vec![
                FieldError::new("frequency", FREQUENCY_MESSAGE),
                FieldError::new("email", EMAIL_NEEDS_SMTP)
            ])
        );
        assert!(validate_digest(input(Some("daily"), Some(false)), false).is_ok());
    }

    #[test]
    fn frequencies_round_trip_and_others_are_refused() {
        for frequency in [
            DigestFrequency::Off,
            DigestFrequency::Daily,
            DigestFrequency::Weekly,
        ] {
            assert_eq!(DigestFrequency::parse(frequency.as_str()), Some(frequency));
        }
        assert_eq!(DigestFrequency::parse("monthly"), None);
    }

    #[test]
    fn a_weekly_digest_is_due_on_mondays_for_the_seven_days_ending_with_the_latest_day() {
        // 2026-11-23 is a Monday.
        let period = DigestFrequency::Weekly
            .period(day("2026-11-22"), day("2026-11-23"))
            .unwrap();
        assert_eq!(
            (
                period.start,
                period.end,
                period.previous_start,
                period.previous_end
            ),
            (
                day("2026-11-16"),
                day("2026-11-22"),
                day("2026-11-09"),
                day("2026-11-15")
            )
        );
        assert_eq!(
            DigestFrequency::Weekly.period(day("2026-11-23"), day("2026-11-24")),
            None
        );
        assert_eq!(
            DigestFrequency::Off.period(day("2026-11-22"), day("2026-11-23")),
            None
        );
    }

    #[test]
    fn a_daily_digest_covers_the_latest_complete_day_against_the_day_before() {
        let period = DigestFrequency::Daily
            .period(day("2026-11-24"), day("2026-11-26"))
            .unwrap();
        assert_eq!(
            (period.start, period.end),
            (day("2026-11-24"), day("2026-11-24"))
        );
        assert_eq!(
            (period.previous_start, period.previous_end),
            (day("2026-11-23"), day("2026-11-23"))
        );
        // Today's charges are not complete.
        assert_eq!(
            DigestFrequency::Daily.period(day("2026-11-26"), day("2026-11-26")),
            None
        );
    }

    #[test]
    fn totals_stay_per_currency_and_movers_rank_by_absolute_change() {
        let current = [
            row("EC2", "USD", 150.0),
            row("S3", "USD", 10.0),
            row("VM", "EUR", 40.0),
        ];
        let previous = [
            row("EC2", "USD", 100.0),
            row("S3", "USD", 30.0),
            row("RDS", "USD", 5.0),
        ];
        let totals = totals(&current, &previous);
        assert_eq!(totals.len(), 2);
        assert_eq!(totals[0].currency, "USD");
        assert_eq!(totals[0].change, Change::new(160.0, 135.0));
        assert_eq!(totals[1].change.change_percent, None);
        let movers = movers(&current, &previous);
        let names = |list: &[Mover]| list.iter().map(|m| m.service.clone()).collect::<Vec<_>>();
        assert_eq!(names(&movers.up), ["EC2", "VM"]);
        assert_eq!(names(&movers.down), ["S3", "RDS"]);
        assert_eq!(movers.up[0].change.change_percent, Some(50.0));
    }

    #[test]
    fn budgets_are_at_risk_from_75_percent_spent_or_a_forecast_of_100_percent() {
        assert!(is_at_risk(75.0, None));
        assert!(!is_at_risk(74.9, Some(99.9)));
        assert!(is_at_risk(10.0, Some(100.0)));
    }

    #[test]
    fn the_title_names_each_currency_its_change_and_the_dates() {
        let digest = Digest {
            frequency: DigestFrequency::Weekly,
            start: Some(day("2026-11-16")),
            end: Some(day("2026-11-22")),
            totals: vec![CurrencyTotal {
                currency: "USD".to_owned(),
                change: Change::new(1100.0, 1000.0),
            }],
            ..Digest::default()
        };
        assert_eq!(
            digest.title(),
            "Costscope weekly digest: $1,100.00 (+10.0 %) for 2026-11-16 – 2026-11-22"
        );
        assert_eq!(Digest::from_payload(&digest.to_payload()), digest);
    }
}
