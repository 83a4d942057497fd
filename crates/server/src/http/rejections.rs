//! Every refusal as the JSON `{message}` body: axum's own rejections (path, query, body, 405),
//! oversized bodies (413) and panics (500).

use std::any::Any;

use axum::body::Body;
use axum::extract::Request;
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Json;

use super::error::{ApiError, ErrorBody};

/// The largest body a JSON route reads (the upload routes set their own limits).
pub const JSON_BODY_LIMIT: usize = 1024 * 1024;

/// Error texts longer than this are cut (axum's rejections are short; this bounds the work).
const MAX_MESSAGE_BYTES: usize = 4096;

/// The refusal of a JSON body past the limit (413).
pub fn body_too_large_error() -> ApiError {
    ApiError::PayloadTooLarge(format!(
        "The request body is larger than the limit of {} MiB.",
        JSON_BODY_LIMIT / (1024 * 1024)
    ))
}

/// Middleware: turns any error answer that is not JSON (axum's plain-text rejections, the
/// empty 405) into the JSON `{message}` body, keeping its status, headers and extensions. A
/// plain 413 is `DefaultBodyLimit` refusing a JSON body (whether its `Content-Length` said so or
/// its chunks passed the limit): it gets [`body_too_large_error`], counted as a refusal.
pub async fn json_errors(request: Request, next: Next) -> Response {
    let response = next.run(request).await;
    if !response.status().is_client_error() && !response.status().is_server_error() {
        return response;
    }
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.starts_with("application/json"));
    if is_json {
        return response;
    }
    if response.status() == StatusCode::PAYLOAD_TOO_LARGE {
        return body_too_large_error().into_response();
    }
    let (mut parts, body) = response.into_parts();
    let text = match axum::body::to_bytes(body, MAX_MESSAGE_BYTES).await {
        Ok(bytes) => String::from_utf8_lossy(&bytes).trim().to_owned(),
        Err(_) => String::new(),
    };
    let message = if text.is_empty() {
        parts
            .status
            .canonical_reason()
            .unwrap_or("Request refused")
            .to_owned()
    } else {
        text
    };
    let json = serde_json::to_vec(&ErrorBody {
        message,
        details: None,
    })
    .unwrap_or_default();
    parts.headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    parts.headers.remove(header::CONTENT_LENGTH);
    Response::from_parts(parts, Body::from(json))
}

/// For `CatchPanicLayer`: logs the panic and answers 500 with the usual JSON body; the
/// connection stays open for the client's next request.
pub fn panic_response(panic: Box<dyn Any + Send + 'static>) -> Response {
    let detail = panic
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| panic.downcast_ref::<&str>().copied())
        .unwrap_or("(no message)");
    tracing::error!(panic = detail, "a request handler panicked");
    (
        StatusCode::INTERNAL_SERVER_ERROR,
        Json(ErrorBody {
            message: "Internal server error".to_owned(),
            details: None,
        }),
    )
        .into_response()
}
