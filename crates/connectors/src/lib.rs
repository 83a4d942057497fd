//! Clients for services outside Costscope.

mod smtp;
#[cfg(feature = "test-support")]
pub mod testing;

pub use smtp::{MailError, Mailer, OutgoingMail};
