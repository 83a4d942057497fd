//! Local peers for tests: an SMTP sink, a webhook receiver, a Microsoft identity platform and
//! Graph stand-in, and the cloud emulators and stand-ins the sync tests talk to. Each peer
//! module is owned by its connector.

pub mod azurite;
pub mod bigquery;
pub mod moto;
mod smtp;
pub mod teams;
pub mod webhook;

pub use smtp::*;
