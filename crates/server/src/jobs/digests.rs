//! Scheduled digests (issue 15, docs/NOTIFICATIONS.md "Digests"). Every hour, for each tenant
//! with users who chose a frequency: when a digest is due (daily: the latest complete charge
//! day; weekly: on Mondays, UTC, the 7 days ending with it) its content is read once for the
//! tenant (totals per currency, top movers, open anomalies, budgets at risk) and each of those
//! users gets it recorded: a `digest_sends` row unique per user, frequency and period, with its
//! outbox event in the same transaction, so an hour later (or on another replica) nothing is
//! sent twice. The delivery job carries it to the user's channel and address
//! ([`send_digest_mails`] for the latter). One tenant's failure does not stop the others.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use chrono::{Days, NaiveDate};
use costscope_connectors::{Mailer, OutgoingMail};
use costscope_core::anomaly::AnomalyStatus;
use costscope_core::cost::{CostFilter, Metric};
use costscope_core::notify::digest::{
    is_at_risk, movers, totals, BudgetAtRisk, Digest, DigestAnomalies, DigestAnomaly,
    DigestFrequency, DigestPeriod, ServiceAmount, LARGEST_ANOMALIES,
};
use costscope_core::notify::{render, retry, Event};
use costscope_core::Clock;
use costscope_engine::CostEngine;
use costscope_store::{DigestSubscriber, MetadataStore, NewDigest};
use tokio::sync::Notify;

use crate::budgets::forecast::budget_forecast;
use crate::budgets::standing::{current_spend, days};
use crate::forecast::last_known_day;
use crate::http::anomalies::DEFAULT_RANGE_DAYS;
use crate::jobs::lease::{run_while_holding, JobLease, PeriodicJob};
use crate::state::AppState;

/// How often the job looks for digests due.
pub const TICK: Duration = Duration::from_secs(60 * 60);
/// Digest e-mails sent per run of the delivery job at most.
const MAIL_BATCH: i64 = 50;

/// What one [`DigestJob::run_once`] did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Outcome {
    /// Digests recorded (each once per user and period).
    pub recorded: usize,
    /// Digests due that were recorded before.
    pub already_sent: usize,
    /// Tenants whose digests failed (logged; the others still ran).
    pub failed: usize,
}

#[derive(Debug, Clone)]
pub struct DigestJob {
    store: Arc<dyn MetadataStore>,
    engine: Arc<dyn CostEngine>,
    clock: Arc<dyn Clock>,
    /// `None`: no SMTP, digests are not e-mailed.
    mailer: Option<Mailer>,
    /// Base of the links in digests, without a trailing slash.
    public_url: String,
    /// Woken when a run recorded digests (the delivery job waits on it).
    notified: Option<Arc<Notify>>,
    /// The job's lease: rounds run only while this process holds it.
    lease: JobLease,
}

impl DigestJob {
    pub fn new(
        store: Arc<dyn MetadataStore>,
        engine: Arc<dyn CostEngine>,
        clock: Arc<dyn Clock>,
        mailer: Option<Mailer>,
        public_url: String,
    ) -> Self {
        let lease = JobLease::new(store.clone(), clock.clone(), Self::NAME);
        Self {
            store,
            engine,
            clock,
            mailer,
            public_url,
            notified: None,
            lease,
        }
    }

    /// Runs on `clock` instead (tests stop time on a Monday).
    pub fn with_clock(mut self, clock: Arc<dyn Clock>) -> Self {
        self.clock = clock;
        self
    }

    pub fn from_state(state: &AppState) -> Self {
        let mut job = Self::new(
            state.store.clone(),
            state.engine.clone(),
            state.clock.clone(),
            state.mailer.clone(),
            state.public_url.clone(),
        );
        job.notified = Some(state.notification_wake.clone());
        job.lease = job
            .lease
            .held_by(state.holder.clone())
            .with_times(state.config.jobs.lease);
        job
    }

    /// Records every digest due now (see the module docs).
    #[tracing::instrument(skip_all)]
    pub async fn run_once(&self) -> anyhow::Result<Outcome> {
        let mut outcome = Outcome::default();
        for frequency in [DigestFrequency::Daily, DigestFrequency::Weekly] {
            let subscribers = self
                .store
                .digests()
                .digest_subscribers(frequency)
                .await
                .context("reading the digest subscribers")?;
            let mut by_tenant: BTreeMap<i64, Vec<DigestSubscriber>> = BTreeMap::new();
            for subscriber in subscribers {
                by_tenant
                    .entry(subscriber.customer_id)
                    .or_default()
                    .push(subscriber);
            }
            for (customer_id, users) in by_tenant {
                if let Err(error) = self
                    .tenant(customer_id, frequency, &users, &mut outcome)
                    .await
                {
                    outcome.failed += 1;
                    tracing::error!(customer_id, error = ?error, "recording a tenant's digests failed");
                }
            }
        }
        if outcome.recorded > 0 {
            tracing::info!(recorded = outcome.recorded, "digests recorded");
            if let Some(notify) = &self.notified {
                notify.notify_one();
            }
        }
        Ok(outcome)
    }

    async fn tenant(
        &self,
        customer_id: i64,
        frequency: DigestFrequency,
        users: &[DigestSubscriber],
        outcome: &mut Outcome,
    ) -> anyhow::Result<()> {
        let now = self.clock.now();
        let today = now.date_naive();
        let Some(yesterday) = today.pred_opt() else {
            return Ok(());
        };
        // The latest complete charge day: today's charges are still coming in.
        let Some(latest) = last_known_day(self.engine.as_ref(), customer_id, yesterday).await?
        else {
            return Ok(());
        };
        let Some(period) = frequency.period(latest, today) else {
            return Ok(());
        };
        let mut content: Option<Digest> = None;
        for user in users {
            let email_to =
                (user.settings.email && self.mailer.is_some()).then_some(user.address.as_str());
            if email_to.is_none() && user.settings.channel_id.is_none() {
                continue;
            }
            if content.is_none() {
                content = Some(self.content(customer_id, frequency, period).await?);
            }
            let Some(digest) = &content else {
                continue;
            };
            let payload = Digest {
                user_id: user.user_id,
                ..digest.clone()
            }
            .to_payload();
            let recorded = self
                .store
                .digests()
                .record_digest(NewDigest {
                    customer_id,
                    user_id: user.user_id,
                    frequency,
                    period_end: period.end,
                    payload: &payload,
                    channel_id: user.settings.channel_id,
                    email_to,
                    now,
                })
                .await?;
            if recorded {
                outcome.recorded += 1;
            } else {
                outcome.already_sent += 1;
            }
        }
        Ok(())
    }

    /// What the tenant's digest of `period` says (the same for each of its users).
    async fn content(
        &self,
        customer_id: i64,
        frequency: DigestFrequency,
        period: DigestPeriod,
    ) -> anyhow::Result<Digest> {
        let current = self
            .service_amounts(customer_id, period.start, period.end)
            .await?;
        let previous = self
            .service_amounts(customer_id, period.previous_start, period.previous_end)
            .await?;
        Ok(Digest {
            customer_id,
            user_id: 0,
            frequency,
            start: Some(period.start),
            end: Some(period.end),
            previous_start: Some(period.previous_start),
            previous_end: Some(period.previous_end),
            totals: totals(&current, &previous),
            movers: movers(&current, &previous),
            anomalies: self.open_anomalies(customer_id, period.end).await?,
            budgets_at_risk: self.budgets_at_risk(customer_id).await?,
        })
    }

    /// Billed cost per provider, service and currency of the whole days `first..=last`.
    async fn service_amounts(
        &self,
        customer_id: i64,
        first: NaiveDate,
        last: NaiveDate,
    ) -> anyhow::Result<Vec<ServiceAmount>> {
        let rows = self
            .engine
            .service_spend(
                customer_id,
                days(first, last),
                &CostFilter::default(),
                Metric::Billed,
            )
            .await?;
        Ok(rows
            .into_iter()
            .map(|row| ServiceAmount {
                provider: row.provider.to_string(),
                service: row.service,
                currency: row.currency,
                amount: row.amount,
            })
            .collect())
    }

    /// The open anomalies the Anomalies page lists by default (the 90 days up to `end`).
    async fn open_anomalies(
        &self,
        customer_id: i64,
        end: NaiveDate,
    ) -> anyhow::Result<DigestAnomalies> {
        let first = end - Days::new(DEFAULT_RANGE_DAYS - 1);
        let open = self
            .store
            .anomalies()
            .list_anomalies(customer_id, first, end, Some(AnomalyStatus::Open))
            .await?;
        let largest = open
            .iter()
            .take(LARGEST_ANOMALIES)
            .map(|anomaly| {
                let alert = anomaly.alert();
                DigestAnomaly {
                    id: anomaly.id,
                    subject: alert.subject(),
                    start: Some(anomaly.start),
                    currency: alert.currency,
                    impact: anomaly.impact(),
                    url: format!("{}/anomalies/{}", self.public_url, anomaly.id),
                }
            })
            .collect();
        Ok(DigestAnomalies {
            open_count: i64::try_from(open.len()).unwrap_or(i64::MAX),
            largest,
        })
    }

    /// The budgets whose current period is at risk, with the figures their pages show.
    async fn budgets_at_risk(&self, customer_id: i64) -> anyhow::Result<Vec<BudgetAtRisk>> {
        let now = self.clock.now();
        let budgets = self.store.list_budgets(customer_id).await?;
        if budgets.is_empty() {
            return Ok(Vec::new());
        }
        let display = self
            .store
            .display_currency(customer_id)
            .await?
            .and_then(|code| code.parse().ok());
        let as_of = last_known_day(self.engine.as_ref(), customer_id, now.date_naive()).await?;
        let mut at_risk = Vec::new();
        for budget in budgets {
            let spend = current_spend(self.engine.as_ref(), &budget, now, display.as_ref()).await?;
            let period = (spend.period_start, spend.period_end);
            let forecast = budget_forecast(
                self.engine.as_ref(),
                &budget,
                period,
                as_of,
                display.as_ref(),
            )
            .await?
            .map(|forecast| forecast.forecast);
            let amount = budget.amount.value();
            let forecast_percent = forecast.map(|forecast| forecast / amount * 100.0);
            if is_at_risk(spend.percent_used, forecast_percent) {
                at_risk.push(BudgetAtRisk {
                    id: budget.id,
                    name: budget.name.as_str().to_owned(),
                    amount,
                    currency: spend.currency.currency.clone(),
                    spent: spend.spent,
                    percent_used: spend.percent_used,
                    forecast,
                    forecast_percent,
                    url: format!("{}/budgets/view/{}", self.public_url, budget.id),
                });
            }
        }
        Ok(at_risk)
    }

    /// On the replica holding the job's lease: records what is due, then again every hour.
    /// Never returns unless the task is dropped.
    pub async fn run(self) -> anyhow::Result<()> {
        run_while_holding(self, None).await
    }
}

impl PeriodicJob for DigestJob {
    const NAME: &'static str = "digests";

    fn interval(&self) -> Option<Duration> {
        Some(TICK)
    }

    fn lease(&self) -> &JobLease {
        &self.lease
    }

    async fn round(&self) -> anyhow::Result<()> {
        self.run_once().await.map(drop)
    }
}

/// What [`send_digest_mails`] did: e-mails accepted, attempts failed, and given up for good.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MailOutcome {
    pub delivered: usize,
    pub failed: usize,
    pub given_up: usize,
}

/// Sends the digest e-mails due to their users' own addresses (part of the delivery job's run),
/// retried at the growing delays of channel deliveries and failed after as many attempts.
pub async fn send_digest_mails(
    store: &dyn MetadataStore,
    mailer: &Mailer,
    clock: &dyn Clock,
    public_url: &str,
) -> anyhow::Result<MailOutcome> {
    let mut outcome = MailOutcome::default();
    let due = store
        .digests()
        .due_digest_mails(clock.now(), MAIL_BATCH)
        .await
        .context("reading the digest e-mails due")?;
    for mail in due {
        let message =
            Event::Digest(Box::new(Digest::from_payload(&mail.payload))).message(public_url);
        let rendered = render::mail(&message);
        let sent = mailer
            .send(OutgoingMail {
                to: mail.to.clone(),
                subject: rendered.subject,
                body: rendered.body,
            })
            .await;
        match sent {
            Ok(()) => {
                store
                    .digests()
                    .mark_digest_mail_delivered(mail.id, clock.now())
                    .await?;
                outcome.delivered += 1;
            }
            Err(error) => {
                let message = format!("{error:#}");
                let next = retry::next_attempt(mail.attempts + 1).map(|wait| clock.now() + wait);
                tracing::warn!(digest_send_id = mail.id, error = %message, given_up = next.is_none(), "a digest e-mail failed");
                store
                    .digests()
                    .record_digest_mail_failure(mail.id, &message, next)
                    .await?;
                outcome.failed += 1;
                outcome.given_up += usize::from(next.is_none());
            }
        }
    }
    Ok(outcome)
}
