//! `/v1/auth/*`: sign-up, sign-in, sessions, invitations.

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use chrono::Duration;
use costscope_core::{Email, FullName, Password, User, UserName};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::error::{ApiError, ErrorBody};
use super::extract::{ApiJson, AuthUser, ClientAddress};
use crate::auth::cookie::{cleared_refresh_cookie, refresh_cookie, refresh_token_from};
use crate::auth::rate_limit::{minutes_to_wait, RequestLimit};
use crate::auth::tokens::{random_token, token_hash, ACCESS_TOKEN_SECONDS, REFRESH_TOKEN_DAYS};
use crate::onboarding::{register_customer, Registration, RegistrationError};
use crate::state::AppState;

const INCORRECT_CREDENTIALS: &str = "Incorrect email or password";
const SESSION_EXPIRED: &str = "Your session has expired. Please sign in again.";
const INVALID_INVITATION: &str = "This invitation link is invalid or has already been used";
pub const SIGNUP_CLOSED: &str =
    "Sign-up is closed on this server. Ask an administrator of your organisation to invite you.";

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/v1/auth/signup", post(signup))
        .route("/v1/auth/login", post(login))
        .route("/v1/auth/refresh", post(refresh))
        .route("/v1/auth/logout", post(logout))
        .route("/v1/auth/me", get(me))
        .route("/v1/auth/invitations/{token}", get(invitation))
        .route(
            "/v1/auth/invitations/{token}/accept",
            post(accept_invitation),
        )
}

/// A signed-in session. The refresh token is not in the body: it comes as the `HttpOnly`
/// cookie `costscope_refresh` (`Path=/v1/auth`), out of reach of page scripts.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct AuthResponse {
    /// Bearer token for `Authorization`, valid `expires_in` seconds. Keep it in memory.
    pub access_token: String,
    /// Always `Bearer`.
    pub token_type: String,
    pub expires_in: i64,
    pub user: User,
}

/// A session answer: the JSON body, and the refresh token as a cookie. Never cached.
struct SessionAnswer {
    status: StatusCode,
    body: AuthResponse,
    refresh_token: String,
}

impl IntoResponse for SessionAnswer {
    fn into_response(self) -> Response {
        let mut response = (self.status, Json(self.body)).into_response();
        let headers = response.headers_mut();
        headers.append(header::SET_COOKIE, refresh_cookie(&self.refresh_token));
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        response
    }
}

/// The 429 of a per-address limit: "Too many {what} from your address. Try again in …".
fn too_many(what: &str, wait: Duration) -> ApiError {
    let minutes = minutes_to_wait(wait);
    let unit = if minutes == 1 { "minute" } else { "minutes" };
    ApiError::RateLimited {
        message: format!("Too many {what} from your address. Try again in {minutes} {unit}."),
        wait,
    }
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct SignupRequest {
    #[serde(default)]
    #[schema(required = true)]
    pub name: String,
    #[serde(default)]
    #[schema(required = true)]
    pub email: String,
    #[serde(default)]
    #[schema(required = true)]
    pub password: String,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct LoginRequest {
    #[serde(default)]
    #[schema(required = true)]
    pub email: String,
    #[serde(default)]
    #[schema(required = true)]
    pub password: String,
}

/// Optional body of `refresh` and `logout`: browsers send the cookie and no body; a client
/// without cookies may send the token it took from the `Set-Cookie` header instead.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct RefreshRequest {
    pub refresh_token: Option<String>,
}

/// Optional body of `logout`, like [`RefreshRequest`].
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct LogoutRequest {
    pub refresh_token: Option<String>,
}

/// The refresh token of a `refresh` or `logout` call: the cookie, else the JSON body.
fn presented_refresh_token(headers: &HeaderMap, body: &Bytes) -> Result<Option<String>, ApiError> {
    if let Some(token) = refresh_token_from(headers) {
        return Ok(Some(token));
    }
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(None);
    }
    let request: RefreshRequest = serde_json::from_slice(body)
        .map_err(|err| ApiError::BadRequest(format!("Invalid request body: {err}")))?;
    Ok(request.refresh_token.filter(|token| !token.is_empty()))
}

/// What an invitation link shows before it is accepted.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct InvitationInfo {
    pub email: String,
    pub customer_name: String,
    /// Name of the inviting user.
    pub invited_by: String,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct AcceptInvitationRequest {
    #[serde(default)]
    #[schema(required = true)]
    pub name: String,
    #[serde(default)]
    #[schema(required = true)]
    pub password: String,
}

/// Issues an access token and the first refresh token of a new token family.
async fn start_session(
    state: &AppState,
    user: User,
    status: StatusCode,
) -> Result<SessionAnswer, ApiError> {
    let refresh_token = random_token();
    let expires_at = state.clock.now() + Duration::days(REFRESH_TOKEN_DAYS);
    state
        .store
        .insert_refresh_token(user.id, &token_hash(&refresh_token), expires_at)
        .await?;
    session_answer(state, user, refresh_token, status)
}

fn session_answer(
    state: &AppState,
    user: User,
    refresh_token: String,
    status: StatusCode,
) -> Result<SessionAnswer, ApiError> {
    Ok(SessionAnswer {
        status,
        body: AuthResponse {
            access_token: state.access_tokens.issue(&user, state.clock.now())?,
            token_type: "Bearer".to_owned(),
            expires_in: ACCESS_TOKEN_SECONDS,
            user,
        },
        refresh_token,
    })
}

/// Create a customer (named after the user, 30-day Tier 0 trial) and its owner. Refused
/// when the server's `allow_signup` is off; limited per client address.
#[utoipa::path(post, path = "/v1/auth/signup", tag = "auth", request_body = SignupRequest, responses(
    (status = 201, body = AuthResponse, headers(("Set-Cookie" = String, description = "The refresh token: costscope_refresh, HttpOnly, Secure, SameSite=Strict, Path=/v1/auth"))),
    (status = 403, description = "Sign-up is closed on this server. Ask an administrator of your organisation to invite you.", body = ErrorBody),
    (status = 409, description = "User {email} already exists", body = ErrorBody),
    (status = 422, body = ErrorBody),
    (status = 429, description = "Too many sign-ups from your address. Try again in {n} minutes.", body = ErrorBody,
        headers(("Retry-After" = u64, description = "Seconds to wait"))),
))]
#[tracing::instrument(skip_all)]
pub async fn signup(
    State(state): State<AppState>,
    ClientAddress(client): ClientAddress,
    ApiJson(body): ApiJson<SignupRequest>,
) -> Result<Response, ApiError> {
    if !state.config.allow_signup {
        return Err(ApiError::Forbidden(SIGNUP_CLOSED));
    }
    if let Some(wait) = state
        .request_limits
        .acquire(RequestLimit::Signup, &client, state.clock.now())
        .await?
    {
        return Err(too_many("sign-ups", wait));
    }
    let registration = match (
        FullName::parse(&body.name),
        Email::parse(&body.email),
        Password::parse(&body.password),
    ) {
        (Ok(owner_name), Ok(email), Ok(password)) => Registration {
            owner_name,
            email,
            password,
            customer_name: None,
            is_demo: false,
        },
        (name, email, password) => {
            return Err(ApiError::validation([
                name.err(),
                email.err(),
                password.err(),
            ]))
        }
    };
    let (_, owner) = register_customer(state.store.as_ref(), state.clock.as_ref(), registration)
        .await
        .map_err(|err| match err {
            RegistrationError::EmailTaken(_) => ApiError::Conflict(err.to_string()),
            RegistrationError::Other(cause) => ApiError::Internal(cause),
        })?;
    Ok(start_session(&state, owner, StatusCode::CREATED)
        .await?
        .into_response())
}

/// Sign in with e-mail and password. Unknown e-mail, wrong password and pending user
/// answer alike; failures slow down the client address and e-mail pair (growing waits), and
/// each address has a budget of attempts.
#[utoipa::path(post, path = "/v1/auth/login", tag = "auth", request_body = LoginRequest, responses(
    (status = 200, body = AuthResponse, headers(("Set-Cookie" = String, description = "The refresh token cookie"))),
    (status = 401, description = "Incorrect email or password", body = ErrorBody),
    (status = 429, description = "Too many sign-in attempts. Try again in {n} minutes.", body = ErrorBody,
        headers(("Retry-After" = u64, description = "Seconds to wait"))),
))]
#[tracing::instrument(skip_all)]
pub async fn login(
    State(state): State<AppState>,
    ClientAddress(client): ClientAddress,
    ApiJson(body): ApiJson<LoginRequest>,
) -> Result<Response, ApiError> {
    let account = body.email.trim().to_lowercase();
    let now = state.clock.now();
    if let Some(wait) = state
        .login_limiter
        .check_attempt(&client, &account, now)
        .await?
    {
        return Err(ApiError::TooManyAttempts { wait });
    }
    let record = match Email::parse(&body.email) {
        Ok(email) => state.store.find_login(&email).await?,
        Err(_) => None,
    };
    let stored_hash = record
        .as_ref()
        .and_then(|record| record.password_hash.as_deref());
    let password_ok = state.passwords.verify(stored_hash, &body.password).await?;
    match record {
        Some(record) if password_ok => {
            state
                .login_limiter
                .record_success(&client, &account)
                .await?;
            Ok(start_session(&state, record.user, StatusCode::OK)
                .await?
                .into_response())
        }
        _ => {
            state
                .login_limiter
                .record_failure(&client, &account, now)
                .await?;
            Err(ApiError::Unauthorized(INCORRECT_CREDENTIALS))
        }
    }
}

/// Exchange the refresh token (the `costscope_refresh` cookie, or `refresh_token` in the
/// body) for a new session and a new refresh token; the old one stops working. Presenting a
/// token that was already exchanged ends the whole session (every token rotated from the same
/// sign-in).
#[utoipa::path(post, path = "/v1/auth/refresh", tag = "auth",
    request_body(content = Option<RefreshRequest>, description = "Optional: only without the cookie"),
    responses(
        (status = 200, body = AuthResponse, headers(("Set-Cookie" = String, description = "The new refresh token cookie"))),
        (status = 400, description = "Invalid request body", body = ErrorBody),
        (status = 401, description = "Your session has expired. Please sign in again.", body = ErrorBody),
        (status = 429, description = "Too many session refreshes from your address. Try again in 1 minute.", body = ErrorBody,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
    ))]
#[tracing::instrument(skip_all)]
pub async fn refresh(
    State(state): State<AppState>,
    ClientAddress(client): ClientAddress,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiError> {
    let now = state.clock.now();
    if let Some(wait) = state
        .request_limits
        .acquire(RequestLimit::Refresh, &client, now)
        .await?
    {
        return Err(too_many("session refreshes", wait));
    }
    let expired = || {
        let mut response = ApiError::Unauthorized(SESSION_EXPIRED).into_response();
        response
            .headers_mut()
            .append(header::SET_COOKIE, cleared_refresh_cookie());
        response
    };
    let Some(presented) = presented_refresh_token(&headers, &body)? else {
        return Ok(expired());
    };
    let new_token = random_token();
    let rotated = state
        .store
        .rotate_refresh_token(
            &token_hash(&presented),
            &token_hash(&new_token),
            now + Duration::days(REFRESH_TOKEN_DAYS),
            now,
        )
        .await?;
    match rotated {
        Some(user) => Ok(session_answer(&state, user, new_token, StatusCode::OK)?.into_response()),
        None => Ok(expired()),
    }
}

/// Revoke the refresh token (cookie or body) and clear the cookie. Without a token, or with an
/// unknown one, it answers 204 too.
#[utoipa::path(post, path = "/v1/auth/logout", tag = "auth",
    request_body(content = Option<LogoutRequest>, description = "Optional: only without the cookie"),
    responses(
        (status = 204, description = "Signed out", headers(("Set-Cookie" = String, description = "Clears the refresh token cookie"))),
        (status = 400, description = "Invalid request body", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all)]
pub async fn logout(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiError> {
    if let Some(presented) = presented_refresh_token(&headers, &body)? {
        state
            .store
            .revoke_refresh_token(&token_hash(&presented), state.clock.now())
            .await?;
    }
    let mut response = StatusCode::NO_CONTENT.into_response();
    response
        .headers_mut()
        .append(header::SET_COOKIE, cleared_refresh_cookie());
    Ok(response)
}

/// The signed-in user.
#[utoipa::path(get, path = "/v1/auth/me", tag = "auth", security(("bearer" = [])), responses(
    (status = 200, body = User),
    (status = 401, description = "Authentication required", body = ErrorBody),
))]
pub async fn me(AuthUser(user): AuthUser) -> Json<User> {
    Json(user)
}

/// What a live invitation link is for.
#[utoipa::path(get, path = "/v1/auth/invitations/{token}", tag = "auth",
    params(("token" = String, Path, description = "The token from the invitation link")),
    responses(
        (status = 200, body = InvitationInfo),
        (status = 404, description = "This invitation link is invalid or has already been used", body = ErrorBody),
        (status = 429, description = "Too many invitation attempts from your address. Try again in 1 minute.", body = ErrorBody,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
    ))]
#[tracing::instrument(skip_all)]
pub async fn invitation(
    State(state): State<AppState>,
    ClientAddress(client): ClientAddress,
    Path(token): Path<String>,
) -> Result<Json<InvitationInfo>, ApiError> {
    if let Some(wait) = state
        .request_limits
        .acquire(RequestLimit::Invitation, &client, state.clock.now())
        .await?
    {
        return Err(too_many("invitation attempts", wait));
    }
    let details = state
        .store
        .find_invitation(&token_hash(&token), state.clock.now())
        .await?
        .ok_or(ApiError::NotFound(INVALID_INVITATION))?;
    Ok(Json(InvitationInfo {
        email: details.email,
        customer_name: details.customer_name,
        invited_by: details.invited_by,
    }))
}

/// Accept an invitation: set name and password, become active, get signed in.
#[utoipa::path(post, path = "/v1/auth/invitations/{token}/accept", tag = "auth",
    params(("token" = String, Path, description = "The token from the invitation link")),
    request_body = AcceptInvitationRequest,
    responses(
        (status = 200, body = AuthResponse, headers(("Set-Cookie" = String, description = "The refresh token cookie"))),
        (status = 404, description = "This invitation link is invalid or has already been used", body = ErrorBody),
        (status = 422, body = ErrorBody),
        (status = 429, description = "Too many invitation attempts from your address. Try again in 1 minute.", body = ErrorBody,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
    ))]
#[tracing::instrument(skip_all)]
pub async fn accept_invitation(
    State(state): State<AppState>,
    ClientAddress(client): ClientAddress,
    Path(token): Path<String>,
    ApiJson(body): ApiJson<AcceptInvitationRequest>,
) -> Result<Response, ApiError> {
    if let Some(wait) = state
        .request_limits
        .acquire(RequestLimit::Invitation, &client, state.clock.now())
        .await?
    {
        return Err(too_many("invitation attempts", wait));
    }
    let hash = token_hash(&token);
    if state
        .store
        .find_invitation(&hash, state.clock.now())
        .await?
        .is_none()
    {
        return Err(ApiError::NotFound(INVALID_INVITATION));
    }
    let (name, password) = match (UserName::parse(&body.name), Password::parse(&body.password)) {
        (Ok(name), Ok(password)) => (name, password),
        (name, password) => return Err(ApiError::validation([name.err(), password.err()])),
    };
    let password_hash = crate::auth::password::hash_password(&password).await?;
    let user = state
        .store
        .accept_invitation(&hash, name.as_str(), &password_hash, state.clock.now())
        .await?
        .ok_or(ApiError::NotFound(INVALID_INVITATION))?;
    Ok(start_session(&state, user, StatusCode::OK)
        .await?
        .into_response())
}

#[cfg(test)]
mod tests {
    #[test]
    fn refresh_and_logout_bodies_are_optional_in_the_openapi_document() {
        let document: serde_json::Value =
            serde_json::from_str(&crate::http::openapi::document_json()).unwrap();
        for path in ["/v1/auth/refresh", "/v1/auth/logout"] {
            let body = &document["paths"][path]["post"]["requestBody"];
            assert_ne!(body["required"], true, "{path}: {body}");
        }
        let session = &document["components"]["schemas"]["AuthResponse"]["properties"];
        assert!(session.get("refresh_token").is_none(), "{session}");
    }
}
