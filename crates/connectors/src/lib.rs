//! Clients for services outside Costscope: SMTP, webhooks (Slack, Teams Workflows, signed
//! webhooks), Microsoft Teams through Microsoft Graph, and the cloud billing exports that
//! connected accounts sync from (AWS Data Exports and CUR in S3, the GCP billing export in
//! BigQuery, Azure Cost Management exports in Blob Storage).

pub mod aws;
pub mod azure;
mod export_source;
pub mod gcp;
pub mod settings;
mod smtp;
mod teams;
#[cfg(feature = "test-support")]
pub mod testing;
mod webhook;

pub use export_source::{
    BillingExportSource, ExportObject, ExportPeriod, FetchLimits, FetchedFile, SourceError,
};
pub use smtp::{MailError, Mailer, OutgoingMail};
pub use teams::{
    AuthorizationRequest, GraphItem, TeamsClient, TeamsEndpoints, TeamsError, TokenGrant,
};
pub use webhook::{WebhookClient, WebhookError};
