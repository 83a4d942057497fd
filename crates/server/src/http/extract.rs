//! Extractors: JSON bodies with JSON errors, and the signed-in user.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use axum::extract::rejection::JsonRejection;
use axum::extract::{ConnectInfo, FromRequest, FromRequestParts};
use axum::http::header::AUTHORIZATION;
use axum::http::request::Parts;
use costscope_core::{User, UserStatus};

use super::error::{ApiError, AUTHENTICATION_REQUIRED};
use crate::state::AppState;

/// `axum::Json`, but a malformed body answers 400 with the usual JSON error.
#[derive(Debug, FromRequest)]
#[from_request(via(axum::Json), rejection(ApiError))]
pub struct ApiJson<T>(pub T);

impl From<JsonRejection> for ApiError {
    fn from(rejection: JsonRejection) -> Self {
        if rejection.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE {
            return super::rejections::body_too_large_error();
        }
        ApiError::BadRequest(format!("Invalid request body: {}", rejection.body_text()))
    }
}

/// Owners and admins only (spec 2 §6): anyone else gets 403 with `message`, the rule's own
/// wording ("Only owners and admins can manage budgets", …).
pub fn require_admin_level(caller: &User, message: &'static str) -> Result<(), ApiError> {
    if caller.role.is_admin_level() {
        Ok(())
    } else {
        Err(ApiError::Forbidden(message))
    }
}

/// The caller, proven by a bearer access token and re-read from the store on every
/// request so that deletion and role changes apply at once.
#[derive(Debug, Clone)]
pub struct AuthUser(pub User);

impl FromRequestParts<AppState> for AuthUser {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let unauthorized = || ApiError::Unauthorized(AUTHENTICATION_REQUIRED);
        let token = parts
            .headers
            .get(AUTHORIZATION)
            .and_then(|value| value.to_str().ok())
            .and_then(bearer_token)
            .ok_or_else(unauthorized)?;
        let claims = state.access_tokens.verify(token).ok_or_else(unauthorized)?;
        let user_id = claims.user_id().ok_or_else(unauthorized)?;
        match state.store.get_user(claims.cid, user_id).await? {
            Some(user) if user.status == UserStatus::Active => {
                crate::telemetry::record_tenant(user.customer_id);
                Ok(AuthUser(user))
            }
            _ => Err(unauthorized()),
        }
    }
}

/// The token of an `Authorization: Bearer <token>` header; the scheme is case-insensitive
/// (RFC 9110 §11.1), so `bearer` and `BEARER` work too.
fn bearer_token(value: &str) -> Option<&str> {
    let (scheme, token) = value.trim().split_once(' ')?;
    let token = token.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty()).then_some(token)
}

/// The client's address for rate limits: the TCP peer, or the address a trusted reverse proxy
/// reports (`trusted_proxies`), as text.
#[derive(Debug, Clone)]
pub struct ClientAddress(pub String);

impl FromRequestParts<AppState> for ClientAddress {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        // Without connection info (a router driven in-process) all callers share one address.
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |info| info.0.ip());
        let client = state
            .config
            .trusted_proxies
            .client_address(peer, &parts.headers);
        Ok(ClientAddress(client.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::bearer_token;

    #[test]
    fn the_bearer_scheme_is_case_insensitive() {
        for header in ["Bearer abc", "bearer abc", "BEARER abc", "  bEaReR   abc "] {
            assert_eq!(bearer_token(header), Some("abc"), "{header}");
        }
        for header in ["Basic abc", "Bearer", "Bearer ", "Bearerabc", "abc"] {
            assert_eq!(bearer_token(header), None, "{header}");
        }
    }
}
