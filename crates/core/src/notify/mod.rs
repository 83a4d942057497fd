//! Notification channels: their rules and how an event is rendered for each (docs/NOTIFICATIONS.md).
