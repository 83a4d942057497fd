//! Extractors: JSON bodies with JSON errors, and the signed-in user.

use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, FromRequestParts};
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
            .and_then(|value| value.strip_prefix("Bearer "))
            .ok_or_else(unauthorized)?;
        let claims = state
            .access_tokens
            .verify(token.trim())
            .ok_or_else(unauthorized)?;
        let user_id = claims.user_id().ok_or_else(unauthorized)?;
        match state.store.get_user(claims.cid, user_id).await? {
            Some(user) if user.status == UserStatus::Active => Ok(AuthUser(user)),
            _ => Err(unauthorized()),
        }
    }
}
