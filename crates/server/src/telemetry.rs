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
/// is authenticated: the `AuthUser` extractor in `http/extract.rs`).
pub fn record_tenant(customer_id: i64) {
    tracing::Span::current().record("tenant_id", customer_id);
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use axum::routing::get;
    use serde_json::Value;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    /// A log writer into memory.
    #[derive(Clone, Default)]
    struct Captured(Arc<Mutex<Vec<u8>>>);

    impl std::io::Write for Captured {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[tokio::test]
    async fn events_of_a_request_carry_its_method_route_and_tenant() {
        let captured = Captured::default();
        let writer = captured.clone();
        let subscriber = tracing_subscriber::fmt()
            .json()
            .with_span_list(true)
            .with_writer(move || writer.clone())
            .finish();
        // The test's runtime, the server's middleware and its handler all run on this thread.
        let _default = tracing::subscriber::set_default(subscriber);
        let router = axum::Router::new()
            .route(
                "/items/{id}",
                get(|| async {
                    // What the signed-in-user extractor does once it knows the caller.
                    super::record_tenant(42);
                    tracing::info!("served for a tenant");
                    "ok"
                }),
            )
            .layer(axum::middleware::from_fn(super::request_span));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, router).await });

        let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
        stream
            .write_all(b"GET /items/7 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            .await
            .unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).await.unwrap();
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");

        let logs = String::from_utf8(captured.0.lock().unwrap().clone()).unwrap();
        let event: Value = logs
            .lines()
            .filter_map(|line| serde_json::from_str::<Value>(line).ok())
            .find(|event| event["fields"]["message"] == "served for a tenant")
            .unwrap_or_else(|| panic!("no event in {logs}"));
        let request = &event["spans"][0];
        assert_eq!(request["name"], "request", "{event}");
        assert_eq!(request["method"], "GET", "{event}");
        assert_eq!(request["route"], "/items/{id}", "{event}");
        assert_eq!(request["tenant_id"], 42, "{event}");
    }
}
