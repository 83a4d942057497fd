//! The one error type of the HTTP layer and its JSON body.

use std::collections::BTreeMap;

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use costscope_core::FieldError;
use costscope_engine::EngineError;
use costscope_store::StoreError;
use serde::Serialize;
use utoipa::ToSchema;

use crate::auth::rate_limit::minutes_to_wait;

pub const AUTHENTICATION_REQUIRED: &str = "Authentication required";

/// Every error answer: a message for people, and for 422 the messages per field.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorBody {
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub details: Option<BTreeMap<String, Vec<String>>>,
}

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("{0}")]
    BadRequest(String),
    #[error("{0}")]
    Unauthorized(&'static str),
    #[error("{0}")]
    Forbidden(&'static str),
    #[error("{0}")]
    NotFound(&'static str),
    #[error("{0}")]
    Conflict(String),
    #[error("validation failed: {0:?}")]
    Validation(Vec<FieldError>),
    /// A 422 whose message is built from the input (it names the offending value).
    #[error("validation failed: {field}: {message}")]
    Invalid {
        field: &'static str,
        message: String,
    },
    #[error("too many sign-in attempts")]
    TooManyAttempts { wait: chrono::Duration },
    /// 422: a request asks for more work than one request may do (a range, a number of
    /// groups or rows, a list's length). Counted as refused by a bound.
    #[error("bound exceeded: {field}: {message}")]
    TooMuch {
        field: &'static str,
        message: String,
    },
    /// 413: the body (or an upload) is larger than accepted.
    #[error("{0}")]
    PayloadTooLarge(String),
    /// 429 with `Retry-After`: a rate limit other than sign-in's (sign-up, refresh, …).
    #[error("{message}")]
    RateLimited {
        message: String,
        wait: chrono::Duration,
    },
    /// 429: a tenant quota (loads or bytes per day, stored rows); `Retry-After` when waiting
    /// helps.
    #[error("{message}")]
    QuotaExceeded {
        message: String,
        wait: Option<chrono::Duration>,
    },
    /// 503 with `Retry-After`: the engine is saturated or the query ran past its time limit
    /// and was cancelled.
    #[error("{message}")]
    Unavailable {
        message: String,
        retry_after_seconds: u64,
    },
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

impl ApiError {
    /// A 422 from the failed checks among `checks` (`None` = passed).
    pub fn validation(checks: impl IntoIterator<Item = Option<FieldError>>) -> Self {
        ApiError::Validation(checks.into_iter().flatten().collect())
    }
}

impl From<FieldError> for ApiError {
    fn from(error: FieldError) -> Self {
        ApiError::Validation(vec![error])
    }
}

impl From<StoreError> for ApiError {
    fn from(error: StoreError) -> Self {
        ApiError::Internal(error.into())
    }
}

impl From<EngineError> for ApiError {
    fn from(error: EngineError) -> Self {
        match error {
            // A cancelled or never-started cost query: 503 with a retry hint, its message
            // names the time limit (no engine detail).
            EngineError::TimedOut {
                retry_after_seconds,
                ..
            }
            | EngineError::Busy {
                retry_after_seconds,
            } => ApiError::Unavailable {
                message: error.to_string(),
                retry_after_seconds,
            },
            other => ApiError::Internal(other.into()),
        }
    }
}

/// Why a request was refused before doing its work; the metrics middleware counts answers
/// carrying this extension (`costscope_refused_requests_total{reason}`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    RateLimit,
    Quota,
    Bound,
    Timeout,
}

impl Refusal {
    pub fn label(self) -> &'static str {
        match self {
            Refusal::RateLimit => "rate_limit",
            Refusal::Quota => "quota",
            Refusal::Bound => "bound",
            Refusal::Timeout => "timeout",
        }
    }

    pub const ALL: [Refusal; 4] = [
        Refusal::RateLimit,
        Refusal::Quota,
        Refusal::Bound,
        Refusal::Timeout,
    ];
}

/// A JSON `{message}` answer with `status`, marked as refused for `reason`, with
/// `Retry-After` when `retry_after` is given.
pub fn refusal_response(
    status: StatusCode,
    message: String,
    reason: Refusal,
    retry_after: Option<chrono::Duration>,
) -> Response {
    let mut response = (
        status,
        Json(ErrorBody {
            message,
            details: None,
        }),
    )
        .into_response();
    if let Some(wait) = retry_after {
        set_retry_after(&mut response, wait);
    }
    response.extensions_mut().insert(reason);
    response
}

fn set_retry_after(response: &mut Response, wait: chrono::Duration) {
    let seconds = wait.num_seconds().max(1).to_string();
    if let Ok(value) = HeaderValue::from_str(&seconds) {
        response.headers_mut().insert(header::RETRY_AFTER, value);
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, message) = match self {
            ApiError::TooMuch { field, message } => {
                let mut response = validation_response([(field, message.as_str())]);
                response.extensions_mut().insert(Refusal::Bound);
                return response;
            }
            ApiError::PayloadTooLarge(message) => {
                return refusal_response(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    message,
                    Refusal::Bound,
                    None,
                )
            }
            ApiError::RateLimited { message, wait } => {
                return refusal_response(
                    StatusCode::TOO_MANY_REQUESTS,
                    message,
                    Refusal::RateLimit,
                    Some(wait),
                )
            }
            ApiError::QuotaExceeded { message, wait } => {
                return refusal_response(
                    StatusCode::TOO_MANY_REQUESTS,
                    message,
                    Refusal::Quota,
                    wait,
                )
            }
            ApiError::Unavailable {
                message,
                retry_after_seconds,
            } => {
                return refusal_response(
                    StatusCode::SERVICE_UNAVAILABLE,
                    message,
                    Refusal::Timeout,
                    Some(chrono::Duration::seconds(retry_after_seconds as i64)),
                )
            }
            ApiError::BadRequest(message) => (StatusCode::BAD_REQUEST, message),
            ApiError::Conflict(message) => (StatusCode::CONFLICT, message),
            ApiError::Unauthorized(message) => (StatusCode::UNAUTHORIZED, message.to_owned()),
            ApiError::Forbidden(message) => (StatusCode::FORBIDDEN, message.to_owned()),
            ApiError::NotFound(message) => (StatusCode::NOT_FOUND, message.to_owned()),
            ApiError::Validation(errors) => {
                return validation_response(errors.iter().map(|e| (e.field, e.message)))
            }
            ApiError::Invalid { field, message } => {
                return validation_response([(field, message.as_str())])
            }
            ApiError::TooManyAttempts { wait } => return too_many_attempts_response(wait),
            ApiError::Internal(cause) => {
                tracing::error!(error = ?cause, "internal error");
                (
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "Internal server error".to_owned(),
                )
            }
        };
        (
            status,
            Json(ErrorBody {
                message,
                details: None,
            }),
        )
            .into_response()
    }
}

/// 422 with `details` field → messages; `message` is the first message.
fn validation_response<'a>(errors: impl IntoIterator<Item = (&'a str, &'a str)>) -> Response {
    let mut message = None;
    let mut details: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (field, text) in errors {
        message.get_or_insert_with(|| text.to_owned());
        details
            .entry(field.to_owned())
            .or_default()
            .push(text.to_owned());
    }
    let message = message.unwrap_or_else(|| "Invalid input".to_owned());
    (
        StatusCode::UNPROCESSABLE_ENTITY,
        Json(ErrorBody {
            message,
            details: Some(details),
        }),
    )
        .into_response()
}

fn too_many_attempts_response(wait: chrono::Duration) -> Response {
    let minutes = minutes_to_wait(wait);
    let body = ErrorBody {
        message: format!("Too many sign-in attempts. Try again in {minutes} minutes."),
        details: None,
    };
    let mut response = (StatusCode::TOO_MANY_REQUESTS, Json(body)).into_response();
    set_retry_after(&mut response, wait);
    response.extensions_mut().insert(Refusal::RateLimit);
    response
}
