//! What a notification says, whatever carries it: one [`Message`] per event.

use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::digest::Digest;
use crate::anomaly::Contributor;
use crate::display::{dollars, money};

/// The button and link text of chat messages.
pub const OPEN_IN_COSTSCOPE: &str = "Open in Costscope";

/// One labelled value of a message (a Slack field, an Adaptive Card fact).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fact {
    pub title: String,
    pub value: String,
}

impl Fact {
    pub(crate) fn new(title: &str, value: String) -> Self {
        Self {
            title: title.to_owned(),
            value,
        }
    }
}

/// An event in words, for every channel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    /// One line: a mail's subject, a chat message's header.
    pub title: String,
    /// The sentence that says what happened.
    pub text: String,
    /// Paragraphs after it (mail); the facts say the same to chat channels.
    pub details: Vec<String>,
    pub facts: Vec<Fact>,
    /// Where to look: the budget's page, or the Costscope home.
    pub url: String,
    /// How a mail introduces `url` ("See the budget").
    pub link_text: String,
}

/// Something Costscope tells a channel.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// A budget threshold reached (the outbox's `budget_alert` payload).
    BudgetAlert(BudgetAlert),
    /// A new cost anomaly (the outbox's `anomaly` payload).
    Anomaly(AnomalyAlert),
    /// A user's scheduled digest (the outbox's `digest` payload, docs/NOTIFICATIONS.md "Digests").
    Digest(Box<Digest>),
    /// "Send test": proves the channel works.
    Test { channel_name: String },
}

impl Event {
    /// The event's name on the wire (`X-Costscope-Event`, the envelope's `event`).
    pub fn name(&self) -> &'static str {
        match self {
            Event::BudgetAlert(_) => BudgetAlert::EVENT,
            Event::Anomaly(_) => AnomalyAlert::EVENT,
            Event::Digest(_) => Digest::EVENT,
            Event::Test { .. } => "test",
        }
    }

    /// The event of an outbox notification, `None` for a kind this build does not know.
    pub fn from_outbox(kind: &str, payload: &Value) -> Option<Self> {
        match kind {
            BudgetAlert::EVENT => Some(Event::BudgetAlert(BudgetAlert::from_payload(payload))),
            AnomalyAlert::EVENT => Some(Event::Anomaly(AnomalyAlert::from_payload(payload))),
            Digest::EVENT => Some(Event::Digest(Box::new(Digest::from_payload(payload)))),
            _ => None,
        }
    }

    /// The event in words; links start at `public_url` (no trailing slash).
    pub fn message(&self, public_url: &str) -> Message {
        match self {
            Event::BudgetAlert(alert) => alert.message(public_url),
            Event::Anomaly(anomaly) => anomaly.message(public_url),
            Event::Digest(digest) => digest.message(public_url),
            Event::Test { channel_name } => Message {
                title: "Costscope test message".to_owned(),
                text: format!(
                    "This is a test message for the channel \"{channel_name}\": it works. \
                     Budget alerts will arrive here."
                ),
                details: Vec::new(),
                facts: Vec::new(),
                url: format!("{public_url}/"),
                link_text: "Open Costscope".to_owned(),
            },
        }
    }
}

/// A reached budget threshold, as the outbox holds it (self-contained: the budget may have
/// changed or gone since). Missing fields read as empty or zero.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BudgetAlert {
    pub alert_id: i64,
    pub budget_id: i64,
    pub budget_name: String,
    pub budget_amount: f64,
    /// `Monthly`, `Quarterly` or `Yearly`.
    pub budget_period: String,
    /// `Percentage` or `Absolute`.
    pub threshold_type: String,
    pub threshold_value: f64,
    pub spent_amount: f64,
    pub spend_percentage: f64,
    pub period_start: Option<NaiveDate>,
    pub triggered_at: Option<DateTime<Utc>>,
    /// `Actual` (the spend reached the threshold; also when missing) or `Forecasted` (the
    /// forecast total did).
    pub basis: String,
    /// A `Forecasted` alert's forecast total of the period.
    pub forecast_amount: Option<f64>,
    /// A `Forecasted` alert's day the forecast goes over the threshold.
    pub exceeds_on: Option<NaiveDate>,
}

/// `1st`, `2nd`, `3rd`, `4th` … `11th`, `12th`, `13th`, `21st`, `22nd`, `23rd`, `31st`.
pub fn ordinal(number: u32) -> String {
    let suffix = match (number % 10, number % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{number}{suffix}")
}

impl BudgetAlert {
    pub const EVENT: &'static str = "budget_alert";

    /// Reads the payload leniently: a field of another shape reads as missing.
    pub fn from_payload(payload: &Value) -> Self {
        let field = |name: &str| payload.get(name).cloned().unwrap_or(Value::Null);
        let text = |name: &str| field(name).as_str().unwrap_or_default().to_owned();
        let number = |name: &str| field(name).as_f64().unwrap_or_default();
        Self {
            alert_id: field("alertId").as_i64().unwrap_or_default(),
            budget_id: field("budgetId").as_i64().unwrap_or_default(),
            budget_name: text("budgetName"),
            budget_amount: number("budgetAmount"),
            budget_period: text("budgetPeriod"),
            threshold_type: text("thresholdType"),
            threshold_value: number("thresholdValue"),
            spent_amount: number("spentAmount"),
            spend_percentage: number("spendPercentage"),
            period_start: serde_json::from_value(field("periodStart")).ok(),
            triggered_at: serde_json::from_value(field("triggeredAt")).ok(),
            basis: text("basis"),
            forecast_amount: field("forecastAmount").as_f64(),
            exceeds_on: serde_json::from_value(field("exceedsOn")).ok(),
        }
    }

    /// Raised on the forecast total rather than the spend.
    pub fn is_forecasted(&self) -> bool {
        self.basis == "Forecasted"
    }

    /// `23rd` for a monthly budget, `23rd of December` for a longer period; `end of the period`
    /// without a day.
    fn exceeds_day(&self) -> String {
        use chrono::Datelike;
        match self.exceeds_on {
            None => "end of the period".to_owned(),
            Some(day) if self.budget_period == "Monthly" => ordinal(day.day()),
            Some(day) => format!("{} of {}", ordinal(day.day()), day.format("%B")),
        }
    }

    /// A `Forecasted` alert: `Budget {name} is forecast to exceed {threshold} by the {Nth}
    /// ({forecast} of {amount})` (docs/ANOMALIES.md "Forecast alerts").
    fn forecast_message(&self, public_url: &str) -> Message {
        let name = &self.budget_name;
        let threshold = self.threshold();
        let amount = dollars(self.budget_amount);
        let forecast = dollars(self.forecast_amount.unwrap_or_default());
        let spent = dollars(self.spent_amount);
        let start = self
            .period_start
            .map_or_else(String::new, |start| start.to_string());
        let sentence = format!(
            "Budget {name} is forecast to exceed {threshold} by the {} ({forecast} of {amount})",
            self.exceeds_day()
        );
        Message {
            title: sentence.clone(),
            text: format!("{sentence}."),
            details: vec![format!(
                "Spent so far in the period starting {start}: {spent} ({percent:.1}% of the budget).",
                percent = self.spend_percentage,
            )],
            facts: vec![
                Fact::new("Budget", name.clone()),
                Fact::new("Threshold", format!("{threshold} (forecast)")),
                Fact::new("Forecast", format!("{forecast} of {amount}")),
                Fact::new(
                    "Spent",
                    format!("{spent} ({:.1}% of {amount})", self.spend_percentage),
                ),
                Fact::new("Period", format!("{} from {start}", self.budget_period)),
            ],
            url: format!("{public_url}/budgets/view/{}", self.budget_id),
            link_text: "See the budget".to_owned(),
        }
    }

    /// `75%` or `$4,500.00`.
    fn threshold(&self) -> String {
        match self.threshold_type.as_str() {
            "Absolute" => dollars(self.threshold_value),
            _ => format!("{}%", self.threshold_value),
        }
    }

    pub fn message(&self, public_url: &str) -> Message {
        if self.is_forecasted() {
            return self.forecast_message(public_url);
        }
        let name = &self.budget_name;
        let threshold = self.threshold();
        let period = self.budget_period.to_lowercase();
        let amount = dollars(self.budget_amount);
        let spent = dollars(self.spent_amount);
        let start = self
            .period_start
            .map_or_else(String::new, |start| start.to_string());
        let triggered = self.triggered_at.map_or_else(String::new, |at| {
            format!(" on {}", at.format("%-d %B %Y %H:%M UTC"))
        });
        Message {
            title: format!("Budget \"{name}\" reached its {threshold} alert"),
            text: format!(
                "The {period} budget \"{name}\" of {amount} has reached its {threshold} alert \
                 threshold{triggered}."
            ),
            details: vec![format!(
                "Spent so far in the period starting {start}: {spent} ({percent:.1}% of the budget).",
                percent = self.spend_percentage,
            )],
            facts: vec![
                Fact::new("Budget", name.clone()),
                Fact::new("Threshold", threshold),
                Fact::new(
                    "Spent",
                    format!("{spent} ({:.1}% of {amount})", self.spend_percentage),
                ),
                Fact::new("Period", format!("{} from {start}", self.budget_period)),
            ],
            url: format!("{public_url}/budgets/view/{}", self.budget_id),
            link_text: "See the budget".to_owned(),
        }
    }
}

/// A new cost anomaly, as the outbox holds it (docs/ANOMALIES.md "Anomaly notifications"):
/// self-contained, so that it reads the same once the anomaly changed. The store writes it from
/// this type; a missing or misshapen payload reads as empty.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct AnomalyAlert {
    pub customer_id: i64,
    pub anomaly_id: i64,
    pub start: Option<NaiveDate>,
    pub provider: Option<String>,
    pub account_id: Option<String>,
    pub account_name: Option<String>,
    pub service: Option<String>,
    pub tag_key: Option<String>,
    pub tag_value: Option<String>,
    pub currency: String,
    pub actual: f64,
    pub expected: f64,
    pub impact: f64,
    pub impact_percent: Option<f64>,
    /// Up to 3 usage types.
    pub top_contributors: Vec<Contributor>,
}

/// An amount in `currency`: `$1,234.50` for US dollars, else `1,234.50 EUR`.
pub(crate) fn amount_in(value: f64, currency: &str) -> String {
    match currency {
        "USD" | "" => dollars(value),
        other => format!("{} {other}", money(value)),
    }
}

impl AnomalyAlert {
    pub const EVENT: &'static str = "anomaly";

    pub fn from_payload(payload: &Value) -> Self {
        serde_json::from_value(payload.clone()).unwrap_or_default()
    }

    pub fn to_payload(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    /// The service, or `tagKey=tagValue` on a tag series.
    pub fn subject(&self) -> String {
        match (&self.service, &self.tag_key) {
            (Some(service), _) => service.clone(),
            (None, Some(key)) => format!("{key}={}", self.tag_value.as_deref().unwrap_or("")),
            (None, None) => String::new(),
        }
    }

    /// The account's name, else its id; `None` on a tag series.
    fn account(&self) -> Option<&str> {
        self.account_name
            .as_deref()
            .filter(|name| !name.is_empty())
            .or(self.account_id.as_deref())
    }

    /// `Cost anomaly: {service or tagKey=tagValue} in {accountName or accountId} — {impact}
    /// above expected on {start}` (a tag series has no account: no "in …").
    pub fn title(&self) -> String {
        let start = self
            .start
            .map_or_else(String::new, |start| start.to_string());
        let place = self
            .account()
            .map_or_else(String::new, |account| format!(" in {account}"));
        format!(
            "Cost anomaly: {}{place} — {} above expected on {start}",
            self.subject(),
            amount_in(self.impact, &self.currency),
        )
    }

    pub fn message(&self, public_url: &str) -> Message {
        let actual = amount_in(self.actual, &self.currency);
        let expected = amount_in(self.expected, &self.currency);
        let impact = amount_in(self.impact, &self.currency);
        let percent = self
            .impact_percent
            .map_or_else(String::new, |percent| format!(" (+{percent:.1}%)"));
        let start = self
            .start
            .map_or_else(String::new, |start| start.to_string());
        let mut facts = vec![Fact::new("Series", self.subject())];
        if let Some(account) = self.account() {
            facts.push(Fact::new("Account", account.to_owned()));
        }
        if let Some(provider) = &self.provider {
            facts.push(Fact::new("Provider", provider.clone()));
        }
        facts.push(Fact::new("Since", start.clone()));
        facts.push(Fact::new("Actual", actual.clone()));
        facts.push(Fact::new("Expected", expected.clone()));
        facts.push(Fact::new("Impact", format!("{impact}{percent}")));
        let mut details = Vec::new();
        if !self.top_contributors.is_empty() {
            let parts: Vec<String> = self
                .top_contributors
                .iter()
                .map(|part| {
                    format!(
                        "{} (+{})",
                        part.key,
                        amount_in(part.difference, &self.currency)
                    )
                })
                .collect();
            let list = parts.join(", ");
            details.push(format!("Largest rises: {list}."));
            facts.push(Fact::new("Top usage types", list));
        }
        Message {
            title: self.title(),
            text: format!(
                "{} cost {actual} where {expected} was expected since {start}: {impact}{percent} \
                 above expected.",
                self.subject()
            ),
            details,
            facts,
            url: format!("{public_url}/anomalies/{}", self.anomaly_id),
            link_text: "See the anomaly".to_owned(),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn payload() -> Value {
        json!({
            "customerId": 3, "alertId": 11, "budgetId": 7, "budgetName": "Prod AWS",
            "budgetAmount": 5000.0, "budgetPeriod": "Monthly", "thresholdType": "Percentage",
            "thresholdValue": 75.0, "spentAmount": 5310.42, "spendPercentage": 106.2084,
            "periodStart": "2026-11-01", "triggeredAt": "2026-11-23T10:00:02Z",
        })
    }

    #[test]
    fn a_budget_alert_names_the_budget_threshold_and_spend() {
        let event = Event::from_outbox("budget_alert", &payload()).unwrap();
        assert_eq!(event.name(), "budget_alert");
        let message = event.message("https://costs.acme.test");
        assert_eq!(message.title, "Budget \"Prod AWS\" reached its 75% alert");
        assert_eq!(
            message.text,
            "The monthly budget \"Prod AWS\" of $5,000.00 has reached its 75% alert threshold \
             on 23 November 2026 10:00 UTC."
        );
        assert_eq!(
            message.details,
            vec![
                "Spent so far in the period starting 2026-11-01: $5,310.42 (106.2% of the budget)."
                    .to_owned()
            ]
        );
        assert_eq!(
            message.facts,
            vec![
                Fact::new("Budget", "Prod AWS".to_owned()),
                Fact::new("Threshold", "75%".to_owned()),
                Fact::new("Spent", "$5,310.42 (106.2% of $5,000.00)".to_owned()),
                Fact::new("Period", "Monthly from 2026-11-01".to_owned()),
            ]
        );
        assert_eq!(message.url, "https://costs.acme.test/budgets/view/7");
    }

    #[test]
    fn a_forecasted_budget_alert_says_when_the_forecast_goes_over() {
        let mut payload = payload();
        payload["thresholdValue"] = json!(100.0);
        payload["spentAmount"] = json!(3100.0);
        payload["spendPercentage"] = json!(62.0);
        payload["basis"] = json!("Forecasted");
        payload["forecastAmount"] = json!(5620.5);
        payload["exceedsOn"] = json!("2026-11-23");
        let message = Event::from_outbox("budget_alert", &payload)
            .unwrap()
            .message("https://costs.acme.test");
        assert_eq!(
            message.title,
            "Budget Prod AWS is forecast to exceed 100% by the 23rd ($5,620.50 of $5,000.00)"
        );
        assert_eq!(message.text, format!("{}.", message.title));
        assert_eq!(
            message.facts[2],
            Fact::new("Forecast", "$5,620.50 of $5,000.00".to_owned())
        );
        assert_eq!(message.url, "https://costs.acme.test/budgets/view/7");
        payload["budgetPeriod"] = json!("Quarterly");
        let quarterly = BudgetAlert::from_payload(&payload).message("");
        assert!(
            quarterly.title.contains("by the 23rd of November"),
            "{}",
            quarterly.title
        );
    }

    #[test]
    fn an_alert_without_a_basis_is_an_actual_one() {
        let alert = BudgetAlert::from_payload(&payload());
        assert!(!alert.is_forecasted());
        assert_eq!(alert.exceeds_on, None);
    }

    #[test]
    fn ordinals_follow_english() {
        let all: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 31]
            .into_iter()
            .map(ordinal)
            .collect();
        assert_eq!(
            all,
            ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "31st"]
        );
    }

    #[test]
    fn an_absolute_threshold_is_in_dollars_and_missing_fields_read_empty() {
        let alert = BudgetAlert::from_payload(
            &json!({"budgetName": "X", "thresholdType": "Absolute", "thresholdValue": 4500.0,
                    "triggeredAt": 12}),
        );
        assert_eq!(alert.triggered_at, None);
        let message = alert.message("");
        assert_eq!(message.title, "Budget \"X\" reached its $4,500.00 alert");
        assert_eq!(
            message.text,
            "The  budget \"X\" of $0.00 has reached its $4,500.00 alert threshold."
        );
    }

    #[test]
    fn an_anomaly_names_its_series_account_impact_and_links_to_it() {
        let payload = json!({
            "customerId": 3, "anomalyId": 42, "start": "2026-11-20", "provider": "aws",
            "accountId": "123456789012", "accountName": "Prod", "service": "Amazon EC2",
            "tagKey": null, "tagValue": null, "currency": "USD", "actual": 1800.0,
            "expected": 600.0, "impact": 1200.0, "impactPercent": 200.0,
            "topContributors": [{"key": "BoxUsage", "actual": 1500.0, "expected": 400.0, "difference": 1100.0}],
        });
        let event = Event::from_outbox("anomaly", &payload).unwrap();
        assert_eq!(event.name(), "anomaly");
        let message = event.message("https://costs.acme.test");
        assert_eq!(
            message.title,
            "Cost anomaly: Amazon EC2 in Prod — $1,200.00 above expected on 2026-11-20"
        );
        assert_eq!(message.url, "https://costs.acme.test/anomalies/42");
        assert_eq!(
            message.details,
            vec!["Largest rises: BoxUsage (+$1,100.00).".to_owned()]
        );
        let Event::Anomaly(anomaly) = event else {
            panic!("an anomaly")
        };
        assert_eq!(AnomalyAlert::from_payload(&anomaly.to_payload()), anomaly);
    }

    #[test]
    fn a_tag_anomaly_names_key_and_value_and_no_account() {
        let alert = AnomalyAlert {
            anomaly_id: 7,
            start: Some("2026-11-01".parse().unwrap()),
            tag_key: Some("team".to_owned()),
            tag_value: Some("data".to_owned()),
            currency: "EUR".to_owned(),
            impact: 1234.5,
            ..AnomalyAlert::default()
        };
        assert_eq!(
            alert.title(),
            "Cost anomaly: team=data — 1,234.50 EUR above expected on 2026-11-01"
        );
    }

    #[test]
    fn an_unknown_kind_is_no_event_and_a_test_names_its_channel() {
        assert_eq!(Event::from_outbox("anomaly_v9", &json!({})), None);
        let test = Event::Test {
            channel_name: "Ops".to_owned(),
        };
        assert_eq!(test.name(), "test");
        let message = test.message("https://costs.acme.test");
        assert_eq!(message.title, "Costscope test message");
        assert!(message.text.contains("\"Ops\""));
        assert_eq!(message.url, "https://costs.acme.test/");
    }
}
