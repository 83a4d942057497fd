//! The GCP connector: a service-account key, OAuth2 JWT-bearer tokens made from it, and the
//! Cloud Billing export read from BigQuery (REST v2) one invoice month at a time.

mod bigquery;
mod key;
mod rows;
mod source;
mod token;

pub use key::{KeyError, ServiceAccountKey, INVALID_KEY_FILE};
pub use source::{validate_export_table, GcpBillingSource, DEFAULT_BIGQUERY_URL};
pub use token::BIGQUERY_READONLY_SCOPE;
