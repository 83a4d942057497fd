//! Every refusal as the JSON `{message}` body: axum's own rejections (path, query, body, 405),
//! oversized bodies (413) and panics (500).

use std::any::Any;

use axum::body::Body;
use axum::extract::{MatchedPath, Request};
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Json;

use super::error::{ApiError, ErrorBody};

/// The largest body a JSON route reads (the upload routes set their own limits).
pub const JSON_BODY_LIMIT: usize = 1024 * 1024;

/// Routes that read bodies larger than [`JSON_BODY_LIMIT`] with their own limit and message:
/// uploads (`max_upload_bytes`) and exchange-rate files.
const OWN_BODY_LIMIT: [&str; 2] = ["/v1/ingest", "/v1/exchange-rates"];

/// Error texts longer than this are cut (axum's rejections are short; this bounds the work).
const MAX_MESSAGE_BYTES: usize = 4096;

/// Middleware: refuses with 413 a body past [`JSON_BODY_LIMIT`] before a handler reads it:
/// by its declared `Content-Length`, or, for a body sent in chunks without one, by reading it
/// up to the limit here (a JSON body is read whole by its handler anyway).
pub async fn limit_body(request: Request, next: Next) -> Response {
    let own_limit = request
        .extensions()
        .get::<MatchedPath>()
        .is_some_and(|path| OWN_BODY_LIMIT.contains(&path.as_str()));
    if own_limit {
        return next.run(request).await;
    }
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.parse::<u64>().ok());
    let chunked = request.headers().contains_key(header::TRANSFER_ENCODING);
    match declared {
        Some(length) if length > JSON_BODY_LIMIT as u64 => body_too_large(),
        None if chunked => {
            let (parts, body) = request.into_parts();
            match read_up_to_limit(body).await {
                Ok(bytes) => {
                    next.run(Request::from_parts(parts, Body::from(bytes)))
                        .await
                }
                Err(response) => response,
            }
        }
        _ => next.run(request).await,
    }
}

/// The whole body, or the refusal: 413 past the limit, 400 when it cannot be read.
async fn read_up_to_limit(body: Body) -> Result<Vec<u8>, Response> {
    use futures_util::StreamExt;
    let mut stream = body.into_data_stream();
    let mut bytes = Vec::new();
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.map_err(|_| {
            ApiError::BadRequest("The request body could not be read".to_owned()).into_response()
        })?;
        if bytes.len() + chunk.len() > JSON_BODY_LIMIT {
            return Err(body_too_large());
        }
        bytes.extend_from_slice(&chunk);
    }
    Ok(bytes)
}

/// The 413 answer for a JSON body past the limit.
pub fn body_too_large() -> Response {
    ApiError::PayloadTooLarge(format!(
        "The request body is larger than the limit of {} MiB.",
        JSON_BODY_LIMIT / (1024 * 1024)
    ))
    .into_response()
}

/// Middleware: turns any error answer that is not JSON (axum's plain-text rejections, the
/// empty 405) into the JSON `{message}` body, keeping its status, headers and extensions.
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
