//! Prometheus metrics: HTTP requests by method, route template and status, their latency, and
//! the requests refused by a limit. Every label has a bounded set of values.

use std::time::Instant;

use axum::extract::{MatchedPath, Request, State};
use axum::http::Method;
use axum::middleware::Next;
use axum::response::Response;
use prometheus::{
    Encoder, HistogramOpts, HistogramVec, IntCounterVec, Opts, Registry, TextEncoder,
};

use crate::http::error::Refusal;
use crate::state::AppState;

#[derive(Debug)]
pub struct Metrics {
    registry: Registry,
    requests: IntCounterVec,
    latency: HistogramVec,
    refused: IntCounterVec,
    /// Cloud syncs by provider and outcome.
    syncs: IntCounterVec,
    /// Billing periods loaded by cloud syncs, by provider.
    synced_periods: IntCounterVec,
    /// Discovery runs by outcome.
    discovery_runs: IntCounterVec,
    /// Accounts discovered, by outcome.
    discovered_accounts: IntCounterVec,
    /// Resources created, changed, deleted or revived by discovery.
    discovered_changes: IntCounterVec,
}

impl Metrics {
    pub fn new() -> Self {
        let registry = Registry::new();
        let requests = IntCounterVec::new(
            Opts::new(
                "http_requests_total",
                "HTTP requests by method, matched route and status",
            ),
            &["method", "route", "status"],
        )
        .expect("valid metric");
        let latency = HistogramVec::new(
            HistogramOpts::new(
                "http_request_duration_seconds",
                "HTTP request latency by method and matched route",
            ),
            &["method", "route"],
        )
        .expect("valid metric");
        let refused = IntCounterVec::new(
            Opts::new(
                "costscope_refused_requests_total",
                "Requests refused before doing their work, by reason \
                 (rate_limit, quota, bound, timeout)",
            ),
            &["reason"],
        )
        .expect("valid metric");
        let syncs = IntCounterVec::new(
            Opts::new(
                "costscope_cloud_syncs_total",
                "Syncs of cloud connections by provider and outcome (succeeded, failed)",
            ),
            &["provider", "outcome"],
        )
        .expect("valid metric");
        let synced_periods = IntCounterVec::new(
            Opts::new(
                "costscope_cloud_sync_periods_loaded_total",
                "Billing periods loaded by syncs of cloud connections, by provider",
            ),
            &["provider"],
        )
        .expect("valid metric");
        for provider in SYNC_PROVIDERS {
            for outcome in ["succeeded", "failed"] {
                syncs.with_label_values(&[provider, outcome]);
            }
            synced_periods.with_label_values(&[provider]);
        }
        registry
            .register(Box::new(syncs.clone()))
            .expect("register syncs");
        registry
            .register(Box::new(synced_periods.clone()))
            .expect("register synced periods");
        let discovery_runs = IntCounterVec::new(
            Opts::new(
                "costscope_discovery_runs_total",
                "Discovery runs by outcome (succeeded, partial, failed)",
            ),
            &["outcome"],
        )
        .expect("valid metric");
        let discovered_accounts = IntCounterVec::new(
            Opts::new(
                "costscope_discovery_accounts_total",
                "AWS accounts discovered by outcome (succeeded, partial, failed)",
            ),
            &["outcome"],
        )
        .expect("valid metric");
        let discovered_changes = IntCounterVec::new(
            Opts::new(
                "costscope_discovery_resources_total",
                "Resources discovery recorded, by change (created, changed, deleted, revived)",
            ),
            &["change"],
        )
        .expect("valid metric");
        for outcome in DISCOVERY_OUTCOMES {
            discovery_runs.with_label_values(&[outcome]);
            discovered_accounts.with_label_values(&[outcome]);
        }
        for change in DISCOVERY_CHANGES {
            discovered_changes.with_label_values(&[change]);
        }
        for metric in [&discovery_runs, &discovered_accounts, &discovered_changes] {
            registry
                .register(Box::new(metric.clone()))
                .expect("register discovery metrics");
        }
        // Every reason is listed from the start, at 0.
        for reason in Refusal::ALL {
            refused.with_label_values(&[reason.label()]);
        }
        registry
            .register(Box::new(refused.clone()))
            .expect("register refused");
        registry
            .register(Box::new(requests.clone()))
            .expect("register requests");
        registry
            .register(Box::new(latency.clone()))
            .expect("register latency");
        Self {
            registry,
            requests,
            latency,
            refused,
            syncs,
            synced_periods,
            discovery_runs,
            discovered_accounts,
            discovered_changes,
        }
    }

    /// Counts a finished discovery run (`succeeded`, `partial` or `failed`).
    pub fn discovery_finished(&self, outcome: &str) {
        self.discovery_runs
            .with_label_values(&[discovery_outcome_label(outcome)])
            .inc();
    }

    /// Counts a discovered account and the resources it changed, by change.
    pub fn discovered_account(&self, outcome: &str, changes: &[(&str, u64)]) {
        self.discovered_accounts
            .with_label_values(&[discovery_outcome_label(outcome)])
            .inc();
        for (change, count) in changes {
            if let Some(label) = DISCOVERY_CHANGES.into_iter().find(|known| known == change) {
                self.discovered_changes
                    .with_label_values(&[label])
                    .inc_by(*count);
            }
        }
    }

    /// Counts a finished sync of a connection of `provider`.
    pub fn sync_finished(&self, provider: &str, succeeded: bool) {
        let outcome = if succeeded { "succeeded" } else { "failed" };
        self.syncs
            .with_label_values(&[sync_provider_label(provider), outcome])
            .inc();
    }

    /// Counts billing periods a sync loaded.
    pub fn periods_loaded(&self, provider: &str, periods: u64) {
        self.synced_periods
            .with_label_values(&[sync_provider_label(provider)])
            .inc_by(periods);
    }

    /// The Prometheus text exposition format.
    pub fn render(&self) -> String {
        let mut buffer = Vec::new();
        TextEncoder::new()
            .encode(&self.registry.gather(), &mut buffer)
            .expect("encode metrics");
        String::from_utf8(buffer).expect("metrics are UTF-8")
    }
}

impl Default for Metrics {
    fn default() -> Self {
        Self::new()
    }
}

const SYNC_PROVIDERS: [&str; 4] = ["aws", "gcp", "azure", "other"];

const DISCOVERY_OUTCOMES: [&str; 3] = ["succeeded", "partial", "failed"];
const DISCOVERY_CHANGES: [&str; 4] = ["created", "changed", "deleted", "revived"];

/// A run's or account's outcome as a label: one of a fixed set (anything else counts failed).
fn discovery_outcome_label(outcome: &str) -> &'static str {
    DISCOVERY_OUTCOMES
        .into_iter()
        .find(|known| *known == outcome)
        .unwrap_or("failed")
}

/// A connection's provider as a label: one of a fixed set.
fn sync_provider_label(provider: &str) -> &'static str {
    SYNC_PROVIDERS
        .into_iter()
        .find(|known| *known == provider)
        .unwrap_or("other")
}

/// The method as a label: one of a fixed set, whatever a client sends.
pub fn method_label(method: &Method) -> &'static str {
    match *method {
        Method::GET => "GET",
        Method::POST => "POST",
        Method::PUT => "PUT",
        Method::PATCH => "PATCH",
        Method::DELETE => "DELETE",
        _ => "other",
    }
}

/// The route template (`/v1/users/{id}`), or `unmatched` for the web app and unknown paths:
/// never the raw path, which a client chooses.
pub fn route_label(request: &Request) -> String {
    request
        .extensions()
        .get::<MatchedPath>()
        .map_or_else(|| "unmatched".to_owned(), |path| path.as_str().to_owned())
}

/// Middleware: counts and times every request under its method and route template, and counts
/// the answers marked with a [`Refusal`].
pub async fn track(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let route = route_label(&request);
    let method = method_label(request.method());
    let started = Instant::now();
    let response = next.run(request).await;
    let status = response.status().as_u16().to_string();
    state
        .metrics
        .requests
        .with_label_values(&[method, route.as_str(), status.as_str()])
        .inc();
    state
        .metrics
        .latency
        .with_label_values(&[method, route.as_str()])
        .observe(started.elapsed().as_secs_f64());
    if let Some(refusal) = response.extensions().get::<Refusal>() {
        state
            .metrics
            .refused
            .with_label_values(&[refusal.label()])
            .inc();
    }
    response
}
