//! The billing export readers against real sample exports and small synthetic files. Expected
//! totals come from `fixtures/expected_totals.py` (Python csv/json + decimal.Decimal), computed
//! independently of the readers.

#[path = "readers/support.rs"]
mod support;

#[path = "readers/focus.rs"]
mod focus;

#[path = "readers/aws.rs"]
mod aws;

#[path = "readers/azure.rs"]
mod azure;

#[path = "readers/gcp.rs"]
mod gcp;

#[path = "readers/refusals.rs"]
mod refusals;

#[path = "readers/oracle.rs"]
mod oracle;

#[path = "readers/vendors.rs"]
mod vendors;

#[path = "readers/details.rs"]
mod details;
