//! Notification channels: their rules and how an event is rendered for each (docs/NOTIFICATIONS.md).
//!
//! - [`channel`]: the four channel types, the rules of a new channel (with the contract's
//!   messages) and the hint an answer shows instead of the target.
//! - [`event`]: what is sent (a budget alert, a test message) as one [`Message`].
//! - [`digest`]: scheduled digests (the user's choice, the period, what one says).
//! - [`render`]: a [`Message`] as each channel carries it (Slack blocks, a Teams Workflows
//!   Adaptive Card, the signed webhook's envelope, an e-mail).
//! - [`signature`]: the webhook signature, computed and verified.
//! - [`retry`]: when a failed delivery is tried again, and when it is given up.
//! - [`teams`] and [`pkce`]: Microsoft Teams through Microsoft Graph (the sign-in's rules and
//!   messages, PKCE S256).

pub mod channel;
pub mod digest;
pub mod event;
pub mod pkce;
pub mod render;
pub mod retry;
pub mod signature;
pub mod teams;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub use channel::{target_hint, validate_channel, ChannelInput, ChannelKind, ValidChannel};
pub use event::{Event, Fact, Message};

/// Where a delivery of one event to one channel stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum DeliveryStatus {
    /// Not tried yet.
    Pending,
    /// Tried and failed; it will be tried again.
    Retrying,
    /// The receiver answered 2xx (SMTP: accepted the mail).
    Delivered,
    /// Failed [`retry::MAX_ATTEMPTS`] times: not tried again.
    Failed,
}

impl DeliveryStatus {
    pub const fn as_str(self) -> &'static str {
        match self {
            DeliveryStatus::Pending => "pending",
            DeliveryStatus::Retrying => "retrying",
            DeliveryStatus::Delivered => "delivered",
            DeliveryStatus::Failed => "failed",
        }
    }

    /// The stored name back; `None` for anything else.
    pub fn parse(text: &str) -> Option<Self> {
        [
            DeliveryStatus::Pending,
            DeliveryStatus::Retrying,
            DeliveryStatus::Delivered,
            DeliveryStatus::Failed,
        ]
        .into_iter()
        .find(|status| status.as_str() == text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delivery_statuses_round_trip_through_their_stored_names() {
        for status in [
            DeliveryStatus::Pending,
            DeliveryStatus::Retrying,
            DeliveryStatus::Delivered,
            DeliveryStatus::Failed,
        ] {
            assert_eq!(DeliveryStatus::parse(status.as_str()), Some(status));
            assert_eq!(
                serde_json::to_value(status).unwrap(),
                serde_json::json!(status.as_str())
            );
        }
        assert_eq!(DeliveryStatus::parse("sent"), None);
    }
}
