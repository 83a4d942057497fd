use std::io::IsTerminal;

use tracing_subscriber::{fmt, EnvFilter};

use crate::config::LogFormat;

/// Logs go to stderr (stdout carries command output such as `openapi`).
/// `RUST_LOG` filters; the default is `info`.
pub fn init(format: LogFormat) {
    let filter =
        EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn"));
    let builder = fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal());
    // A second call (tests) keeps the first subscriber.
    let _ = match format {
        LogFormat::Pretty => builder.try_init(),
        LogFormat::Json => builder.json().try_init(),
    };
}

/// Middleware: runs each request in a `request` span naming its method, route template and
/// (once the caller is known) the tenant, so every event and span under it carries them.
pub async fn request_span(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use tracing::Instrument;
    let route = crate::metrics::route_label(&request);
    let span = tracing::info_span!(
        "request",
        method = crate::metrics::method_label(request.method()),
        route = %route,
        tenant_id = tracing::field::Empty,
    );
    next.run(request).instrument(span).await
}

/// Records the signed-in caller's tenant on the current request span (called where the caller
/// is authenticated: the `CurrentUser` extractor).
pub fn record_tenant(customer_id: i64) {
    tracing::Span::current().record("tenant_id", customer_id);
}
