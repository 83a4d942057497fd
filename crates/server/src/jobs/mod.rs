//! Background jobs (DESIGN §6): each a `run_once() -> Outcome` that tests drive directly, run
//! in a loop by `serve` next to the HTTP server.

pub mod anomalies;
pub mod budgets;
pub mod claim_loop;
pub mod digests;
pub mod discovery;
pub mod ingest;
pub mod lease;
pub mod notifications;
pub mod sync;
