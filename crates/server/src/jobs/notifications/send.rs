//! One event to one channel (docs/NOTIFICATIONS.md "Channels" and "Signed webhooks"): the
//! delivery job's attempts and "Send test" both go through [`Sender::send`].

use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use chrono::{DateTime, Utc};
use costscope_connectors::{Mailer, OutgoingMail, TeamsError, WebhookClient};
use costscope_core::notify::teams::NOT_CONFIGURED;
use costscope_core::notify::{render, signature, ChannelKind, Event};
use costscope_store::ChannelTarget;
use serde_json::Value;

use crate::http::teams::access::{TeamsAccess, TeamsAccessError};
use crate::secrets::SecretBox;

/// How long one attempt (and one test message) may take.
pub const SEND_TIMEOUT: Duration = Duration::from_secs(10);

/// What a webhook says about the delivery it carries.
#[derive(Debug, Clone)]
pub struct Outgoing<'a> {
    pub event: &'a Event,
    /// `X-Costscope-Delivery` and the envelope's `id`: the delivery's id (a number), or a
    /// test message's `test-…`.
    pub delivery_id: Value,
    /// The event's own payload: the envelope's `data`.
    pub data: &'a Value,
    /// When the event was raised: the envelope's `createdAt`.
    pub raised_at: DateTime<Utc>,
    /// The moment of sending: `X-Costscope-Timestamp`, signed with the body.
    pub now: DateTime<Utc>,
}

/// Whether a failed attempt must not be retried: the Teams sign-in behind the channel expired
/// (its refresh token was refused), which only connecting the channel again mends.
pub fn is_permanent(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        matches!(
            cause.downcast_ref::<TeamsAccessError>(),
            Some(TeamsAccessError::SignInExpired)
        )
    })
}

/// Sends to channels: webhooks over HTTP, e-mail through SMTP, Teams through Microsoft Graph.
/// Cheap to clone.
#[derive(Debug, Clone)]
pub struct Sender {
    webhooks: WebhookClient,
    mailer: Option<Mailer>,
    /// `None` without `[teams]`: a `teams` channel's attempts fail.
    teams: Option<TeamsAccess>,
    secrets: Arc<SecretBox>,
    /// Base of the links in messages, without a trailing slash.
    public_url: String,
}

impl Sender {
    pub fn new(secrets: Arc<SecretBox>, mailer: Option<Mailer>, public_url: String) -> Self {
        Self {
            webhooks: WebhookClient::new(SEND_TIMEOUT),
            mailer,
            teams: None,
            secrets,
            public_url,
        }
    }

    /// Sends to `teams` channels through `teams` (the server's `[teams]`, when configured).
    pub fn with_teams(mut self, teams: Option<TeamsAccess>) -> Self {
        self.teams = teams;
        self
    }

    /// Sends `outgoing` to `channel`; `Ok` once the receiver answered 2xx (SMTP: accepted).
    /// The error says why in words fit for the delivery history (never the target URL).
    pub async fn send(
        &self,
        channel: &ChannelTarget,
        outgoing: Outgoing<'_>,
    ) -> anyhow::Result<()> {
        let target = self
            .secrets
            .decrypt(&channel.target)
            .context("reading the channel's target")?;
        let message = outgoing.event.message(&self.public_url);
        let json = |body: Value| body.to_string().into_bytes();
        match channel.kind {
            ChannelKind::Email => {
                let mailer = self
                    .mailer
                    .as_ref()
                    .context("SMTP is not configured on the server")?;
                let mail = render::mail(&message);
                mailer
                    .send(OutgoingMail {
                        to: target,
                        subject: mail.subject,
                        body: mail.body,
                    })
                    .await?;
            }
            ChannelKind::Slack => {
                self.webhooks
                    .post_json(&target, &[], json(render::slack(&message)))
                    .await?;
            }
            ChannelKind::TeamsWebhook => {
                self.webhooks
                    .post_json(&target, &[], json(render::teams(&message)))
                    .await?;
            }
            ChannelKind::Teams => {
                let teams = self.teams.as_ref().context(NOT_CONFIGURED)?;
                teams
                    .post_to_channel(
                        channel.customer_id,
                        channel.id,
                        json(render::teams_graph(&message)),
                        outgoing.now,
                    )
                    .await
                    .map_err(|error| match error {
                        TeamsAccessError::Teams(TeamsError::Graph {
                            status, message, ..
                        }) => anyhow::anyhow!("Microsoft Graph answered {status}: {message}"),
                        other => anyhow::Error::new(other),
                    })?;
            }
            ChannelKind::Webhook => {
                let secret = channel
                    .secret
                    .as_deref()
                    .context("the webhook channel has no secret")?;
                let secret = self
                    .secrets
                    .decrypt(secret)
                    .context("reading the channel's secret")?;
                let body = json(render::webhook_envelope(
                    outgoing.delivery_id.clone(),
                    outgoing.event.name(),
                    outgoing.raised_at,
                    outgoing.data,
                ));
                let timestamp = outgoing.now.timestamp();
                let delivery = match &outgoing.delivery_id {
                    Value::String(id) => id.clone(),
                    other => other.to_string(),
                };
                let headers = [
                    (signature::EVENT_HEADER, outgoing.event.name().to_owned()),
                    (signature::DELIVERY_HEADER, delivery),
                    (signature::TIMESTAMP_HEADER, timestamp.to_string()),
                    (
                        signature::SIGNATURE_HEADER,
                        signature::sign(&secret, timestamp, &body),
                    ),
                ];
                self.webhooks.post_json(&target, &headers, body).await?;
            }
        }
        Ok(())
    }
}
