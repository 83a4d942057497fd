//! `/v1/auth/*`: sign-up, sign-in, sessions, invitations.

use std::net::SocketAddr;

use axum::extract::{ConnectInfo, Path, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use chrono::Duration;
use costscope_core::{Email, FullName, Password, User, UserName};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::error::{ApiError, ErrorBody};
use super::extract::{ApiJson, AuthUser};
use crate::auth::tokens::{random_token, token_hash, ACCESS_TOKEN_SECONDS, REFRESH_TOKEN_DAYS};
use crate::onboarding::{register_customer, Registration, RegistrationError};
use crate::state::AppState;

const INCORRECT_CREDENTIALS: &str = "Incorrect email or password";
const SESSION_EXPIRED: &str = "Your session has expired. Please sign in again.";
const INVALID_INVITATION: &str = "This invitation link is invalid or has already been used";

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

/// A signed-in session.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct AuthResponse {
    /// Bearer token for `Authorization`, valid `expires_in` seconds.
    pub access_token: String,
    /// Exchange at `/v1/auth/refresh` for a new pair; valid 30 days, single use.
    pub refresh_token: String,
    /// Always `Bearer`.
    pub token_type: String,
    pub expires_in: i64,
    pub user: User,
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

#[derive(Debug, Deserialize, ToSchema)]
pub struct RefreshRequest {
    pub refresh_token: String,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct LogoutRequest {
    pub refresh_token: String,
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

/// Issues an access token and a new stored refresh token.
async fn start_session(state: &AppState, user: User) -> Result<AuthResponse, ApiError> {
    let refresh_token = random_token();
    let expires_at = state.clock.now() + Duration::days(REFRESH_TOKEN_DAYS);
    state
        .store
        .insert_refresh_token(user.id, &token_hash(&refresh_token), expires_at)
        .await?;
    session_response(state, user, refresh_token)
}

fn session_response(
    state: &AppState,
    user: User,
    refresh_token: String,
) -> Result<AuthResponse, ApiError> {
    Ok(AuthResponse {
        access_token: state.access_tokens.issue(&user, state.clock.now())?,
        refresh_token,
        token_type: "Bearer".to_owned(),
        expires_in: ACCESS_TOKEN_SECONDS,
        user,
    })
}

/// Create a customer (named after the user, 30-day Tier 0 trial) and its owner.
#[utoipa::path(post, path = "/v1/auth/signup", tag = "auth", request_body = SignupRequest, responses(
    (status = 201, body = AuthResponse),
    (status = 409, description = "User {email} already exists", body = ErrorBody),
    (status = 422, body = ErrorBody),
))]
#[tracing::instrument(skip_all)]
pub async fn signup(
    State(state): State<AppState>,
    ApiJson(body): ApiJson<SignupRequest>,
) -> Result<(StatusCode, Json<AuthResponse>), ApiError> {
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
    Ok((
        StatusCode::CREATED,
        Json(start_session(&state, owner).await?),
    ))
}

/// Sign in with e-mail and password. Unknown e-mail, wrong password and pending user
/// answer alike; failures are throttled per account and per client address.
#[utoipa::path(post, path = "/v1/auth/login", tag = "auth", request_body = LoginRequest, responses(
    (status = 200, body = AuthResponse),
    (status = 401, description = "Incorrect email or password", body = ErrorBody),
    (status = 429, description = "Too many sign-in attempts", body = ErrorBody),
))]
#[tracing::instrument(skip_all)]
pub async fn login(
    State(state): State<AppState>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    ApiJson(body): ApiJson<LoginRequest>,
) -> Result<Json<AuthResponse>, ApiError> {
    let account = body.email.trim().to_lowercase();
    let now = state.clock.now();
    if let Some(wait) = state
        .login_limiter
        .check_attempt(&client.ip().to_string(), &account, now)
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
            state.login_limiter.record_success(&account);
            Ok(Json(start_session(&state, record.user).await?))
        }
        _ => {
            state.login_limiter.record_failure(&account, now);
            Err(ApiError::Unauthorized(INCORRECT_CREDENTIALS))
        }
    }
}

/// Exchange a refresh token for a new session; the old refresh token stops working.
#[utoipa::path(post, path = "/v1/auth/refresh", tag = "auth", request_body = RefreshRequest, responses(
    (status = 200, body = AuthResponse),
    (status = 401, description = "Your session has expired. Please sign in again.", body = ErrorBody),
))]
#[tracing::instrument(skip_all)]
pub async fn refresh(
    State(state): State<AppState>,
    ApiJson(body): ApiJson<RefreshRequest>,
) -> Result<Json<AuthResponse>, ApiError> {
    let now = state.clock.now();
    let new_token = random_token();
    let rotated = state
        .store
        .rotate_refresh_token(
            &token_hash(&body.refresh_token),
            &token_hash(&new_token),
            now + Duration::days(REFRESH_TOKEN_DAYS),
            now,
        )
        .await?;
    let user = rotated.ok_or(ApiError::Unauthorized(SESSION_EXPIRED))?;
    Ok(Json(session_response(&state, user, new_token)?))
}

/// Revoke a refresh token. Unknown tokens are accepted too.
#[utoipa::path(post, path = "/v1/auth/logout", tag = "auth", request_body = LogoutRequest, responses(
    (status = 204, description = "Signed out"),
))]
#[tracing::instrument(skip_all)]
pub async fn logout(
    State(state): State<AppState>,
    ApiJson(body): ApiJson<LogoutRequest>,
) -> Result<StatusCode, ApiError> {
    state
        .store
        .revoke_refresh_token(&token_hash(&body.refresh_token), state.clock.now())
        .await?;
    Ok(StatusCode::NO_CONTENT)
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
    ))]
#[tracing::instrument(skip_all)]
pub async fn invitation(
    State(state): State<AppState>,
    Path(token): Path<String>,
) -> Result<Json<InvitationInfo>, ApiError> {
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
        (status = 200, body = AuthResponse),
        (status = 404, description = "This invitation link is invalid or has already been used", body = ErrorBody),
        (status = 422, body = ErrorBody),
    ))]
#[tracing::instrument(skip_all)]
pub async fn accept_invitation(
    State(state): State<AppState>,
    Path(token): Path<String>,
    ApiJson(body): ApiJson<AcceptInvitationRequest>,
) -> Result<Json<AuthResponse>, ApiError> {
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
    Ok(Json(start_session(&state, user).await?))
}
