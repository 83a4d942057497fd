//! Delivery of the notification outbox (DESIGN §6 "notification delivery with retry"). The one
//! channel so far is e-mail, when SMTP is configured: a budget alert goes to the customer's
//! active owners and admins. Without SMTP, notifications wait in the outbox for a channel.

use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use chrono::{DateTime, TimeDelta, Utc};
use costscope_connectors::{Mailer, OutgoingMail};
use costscope_core::{Clock, UserStatus};
use costscope_store::{MetadataStore, NotificationKind, OutboxNotification};
use serde_json::Value;
use tokio::sync::Notify;

use crate::format::dollars;
use crate::state::AppState;

/// Notifications taken per run.
const BATCH: i64 = 50;
/// How often the outbox is looked at when nothing woke the job.
pub const POLL_INTERVAL: Duration = Duration::from_secs(60);
/// The wait before the first retry; it doubles per failed attempt up to [`MAX_RETRY_DELAY`].
const FIRST_RETRY_DELAY: TimeDelta = TimeDelta::minutes(1);
const MAX_RETRY_DELAY: TimeDelta = TimeDelta::hours(6);

/// What one [`NotificationDelivery::run_once`] did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Outcome {
    pub delivered: usize,
    /// Attempts that failed; each is retried later.
    pub failed: usize,
}

#[derive(Debug, Clone)]
pub struct NotificationDelivery {
    store: Arc<dyn MetadataStore>,
    clock: Arc<dyn Clock>,
    /// `None`: no channel yet, everything stays in the outbox.
    mailer: Option<Mailer>,
    /// Base of the links in messages, without a trailing slash.
    public_url: String,
}

/// The wait before the next attempt after `attempts` failed ones (1, 2, 4 … minutes, at most
/// six hours).
pub fn retry_delay(attempts: i64) -> TimeDelta {
    let doublings = u32::try_from(attempts.clamp(1, 20) - 1).unwrap_or(0);
    FIRST_RETRY_DELAY
        .checked_mul(1 << doublings)
        .map_or(MAX_RETRY_DELAY, |delay| delay.min(MAX_RETRY_DELAY))
}

impl NotificationDelivery {
    pub fn new(
        store: Arc<dyn MetadataStore>,
        clock: Arc<dyn Clock>,
        mailer: Option<Mailer>,
        public_url: String,
    ) -> Self {
        Self {
            store,
            clock,
            mailer,
            public_url,
        }
    }

    pub fn from_state(state: &AppState) -> Self {
        Self::new(
            state.store.clone(),
            state.clock.clone(),
            state.mailer.clone(),
            state.public_url.clone(),
        )
    }

    /// Delivers the notifications that are due. A failed one is retried later with a growing
    /// delay; the others still go out.
    #[tracing::instrument(skip_all)]
    pub async fn run_once(&self) -> anyhow::Result<Outcome> {
        let Some(mailer) = &self.mailer else {
            return Ok(Outcome::default());
        };
        let now = self.clock.now();
        let due = self
            .store
            .pending_notifications(now, BATCH)
            .await
            .context("reading the notification outbox")?;
        let mut outcome = Outcome::default();
        for notification in due {
            match self.deliver(mailer, &notification).await {
                Ok(()) => {
                    self.store
                        .mark_notification_delivered(notification.id, self.clock.now())
                        .await?;
                    outcome.delivered += 1;
                }
                Err(error) => {
                    let message = format!("{error:#}");
                    tracing::warn!(notification_id = notification.id, error = %message, "a notification was not delivered");
                    let next = self.clock.now() + retry_delay(notification.attempts + 1);
                    self.store
                        .record_notification_failure(notification.id, &message, next)
                        .await?;
                    outcome.failed += 1;
                }
            }
        }
        Ok(outcome)
    }

    /// E-mails one notification to each active owner and admin of its customer.
    async fn deliver(
        &self,
        mailer: &Mailer,
        notification: &OutboxNotification,
    ) -> anyhow::Result<()> {
        let (subject, body) = match notification.kind {
            NotificationKind::BudgetAlert => {
                budget_alert_mail(&notification.payload, &self.public_url)
            }
        };
        let users = self.store.list_users(notification.customer_id).await?;
        let recipients = users
            .iter()
            .filter(|user| user.status == UserStatus::Active && user.role.is_admin_level());
        for user in recipients {
            mailer
                .send(OutgoingMail {
                    to: user.email.to_string(),
                    subject: subject.clone(),
                    body: body.clone(),
                })
                .await
                .with_context(|| format!("e-mailing {}", user.email))?;
        }
        Ok(())
    }

    /// Delivers what is due, then again when woken (an alert was recorded) or every minute.
    /// Never returns unless the task is dropped.
    pub async fn run(self, wake: Arc<Notify>) -> anyhow::Result<()> {
        loop {
            if let Err(error) = self.run_once().await {
                tracing::error!(error = ?error, "delivering notifications failed");
            }
            tokio::select! {
                () = wake.notified() => {}
                () = tokio::time::sleep(POLL_INTERVAL) => {}
            }
        }
    }
}

fn text<'a>(payload: &'a Value, field: &str) -> &'a str {
    payload[field].as_str().unwrap_or_default()
}

fn number(payload: &Value, field: &str) -> f64 {
    payload[field].as_f64().unwrap_or_default()
}

/// The subject and body of a budget alert (payload fields: see `NotificationKind`).
pub fn budget_alert_mail(payload: &Value, public_url: &str) -> (String, String) {
    let name = text(payload, "budgetName");
    let threshold = match text(payload, "thresholdType") {
        "Absolute" => dollars(number(payload, "thresholdValue")),
        _ => format!("{}%", number(payload, "thresholdValue")),
    };
    let subject = format!("Budget \"{name}\" reached its {threshold} alert");
    let triggered = payload["triggeredAt"]
        .as_str()
        .and_then(|at| at.parse::<DateTime<Utc>>().ok())
        .map_or_else(String::new, |at| {
            format!(" on {}", at.format("%-d %B %Y %H:%M UTC"))
        });
    let body = format!(
        "The {period} budget \"{name}\" of {amount} has reached its {threshold} alert threshold{triggered}.\n\n\
         Spent so far in the period starting {start}: {spent} ({percent:.1}% of the budget).\n\n\
         See the budget: {public_url}/budgets/view/{id}\n",
        period = text(payload, "budgetPeriod").to_lowercase(),
        amount = dollars(number(payload, "budgetAmount")),
        start = text(payload, "periodStart"),
        spent = dollars(number(payload, "spentAmount")),
        percent = number(payload, "spendPercentage"),
        id = payload["budgetId"],
    );
    (subject, body)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn retries_wait_longer_each_time_up_to_six_hours() {
        assert_eq!(retry_delay(1), TimeDelta::minutes(1));
        assert_eq!(retry_delay(2), TimeDelta::minutes(2));
        assert_eq!(retry_delay(4), TimeDelta::minutes(8));
        assert_eq!(retry_delay(9), TimeDelta::hours(4) + TimeDelta::minutes(16));
        assert_eq!(retry_delay(10), TimeDelta::hours(6));
        assert_eq!(retry_delay(500), TimeDelta::hours(6));
    }

    #[test]
    fn a_budget_alert_mail_names_the_budget_threshold_and_spend() {
        let payload = json!({
            "budgetId": 7, "budgetName": "Prod AWS", "budgetAmount": 5000.0,
            "budgetPeriod": "Monthly", "thresholdType": "Percentage", "thresholdValue": 75.0,
            "spentAmount": 5310.42, "spendPercentage": 106.2084, "periodStart": "2026-11-01",
            "triggeredAt": "2026-11-23T10:00:02Z",
        });
        let (subject, body) = budget_alert_mail(&payload, "https://costs.acme.test");
        assert_eq!(subject, "Budget \"Prod AWS\" reached its 75% alert");
        assert_eq!(
            body,
            "The monthly budget \"Prod AWS\" of $5,000.00 has reached its 75% alert threshold on \
             23 November 2026 10:00 UTC.\n\nSpent so far in the period starting 2026-11-01: \
             $5,310.42 (106.2% of the budget).\n\nSee the budget: \
             https://costs.acme.test/budgets/view/7\n"
        );
        let absolute =
            json!({"budgetName": "X", "thresholdType": "Absolute", "thresholdValue": 4500.0});
        assert_eq!(
            budget_alert_mail(&absolute, "").0,
            "Budget \"X\" reached its $4,500.00 alert"
        );
    }
}
