//! `/v1/api/teams/…` (docs/NOTIFICATIONS.md "Microsoft Teams through Microsoft Graph"): the
//! sign-in with Microsoft (authorisation code with PKCE), the team and channel picker, the
//! configured channels and their removal. Answers are the spec's (snake_case; Graph's own
//! `displayName`). Owners and admins connect, pick and remove; every role lists the configured
//! channels. Without `[teams]` every route answers 503.
//!
//! The `channel_id` of these routes is the integration's id; once a team and channel are
//! picked, the integration is also a notification channel of type `teams` (its own id in
//! `GET /v1/channels`), and deleting either deletes both.

pub mod access;

use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use axum::{Json, Router};
use chrono::{DateTime, Utc};
use costscope_connectors::{AuthorizationRequest, GraphItem};
use costscope_core::notify::channel::{name_taken, too_many_channels, MAX_CHANNELS};
use costscope_core::notify::pkce;
use costscope_core::notify::teams::{
    self as rules, check_redirect_uri, sign_in_expiry, MANAGERS_ONLY, NONE_CONFIGURED,
    NOT_CONFIGURED, NOT_IN_TEAMS, NO_TEAMS_CHANNEL, SCOPES, SIGN_IN_NOT_STARTED,
};
use costscope_core::User;
use costscope_store::{
    ChannelCreation, NewSignIn, StoreError, TeamsConfiguration, TeamsIntegration, TeamsSelection,
};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use self::access::{TeamsAccess, TeamsAccessError};
use crate::http::error::{ApiError, ErrorBody};
use crate::http::extract::{require_admin_level, ApiJson, AuthUser};
use crate::state::AppState;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/v1/api/teams/oauth/login", get(login))
        .route("/v1/api/teams/oauth/callback", post(callback))
        .route("/v1/api/teams/oauth/channel", delete(remove))
        .route(
            "/v1/api/teams/oauth/channel/{channel_id}/teams",
            get(list_teams),
        )
        .route(
            "/v1/api/teams/oauth/channel/{channel_id}/teams/{team_id}/channels",
            get(list_channels),
        )
        .route(
            "/v1/api/teams/oauth/channel/{channel_id}/teams/{team_id}/channels/{team_channel_id}",
            post(select),
        )
        .route("/v1/api/teams/configuredchannels", get(configured))
}

/// The Teams routes' errors: the API's, 503 without `[teams]`, 502 when Microsoft refused or
/// failed (its message).
#[derive(Debug)]
pub enum TeamsApiError {
    Api(ApiError),
    NotConfigured,
    Upstream(String),
}

impl IntoResponse for TeamsApiError {
    fn into_response(self) -> Response {
        let (status, message) = match self {
            TeamsApiError::Api(error) => return error.into_response(),
            TeamsApiError::NotConfigured => {
                (StatusCode::SERVICE_UNAVAILABLE, NOT_CONFIGURED.to_owned())
            }
            TeamsApiError::Upstream(message) => (StatusCode::BAD_GATEWAY, message),
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

impl From<ApiError> for TeamsApiError {
    fn from(error: ApiError) -> Self {
        TeamsApiError::Api(error)
    }
}

impl From<StoreError> for TeamsApiError {
    fn from(error: StoreError) -> Self {
        TeamsApiError::Api(error.into())
    }
}

impl From<TeamsAccessError> for TeamsApiError {
    fn from(error: TeamsAccessError) -> Self {
        match error {
            TeamsAccessError::Internal(error) => TeamsApiError::Api(ApiError::Internal(error)),
            TeamsAccessError::NotSignedIn => {
                TeamsApiError::Api(ApiError::BadRequest(SIGN_IN_NOT_STARTED.to_owned()))
            }
            other => {
                tracing::info!(error = %other, "Microsoft refused or failed");
                TeamsApiError::Upstream(other.to_string())
            }
        }
    }
}

type Answer<T> = Result<T, TeamsApiError>;

/// The configured Teams access, after the caller's role when `managers_only`.
fn teams_access(state: &AppState, caller: &User, managers_only: bool) -> Answer<TeamsAccess> {
    let access = TeamsAccess::from_state(state).ok_or(TeamsApiError::NotConfigured)?;
    if managers_only {
        require_admin_level(caller, MANAGERS_ONLY)?;
    }
    Ok(access)
}

/// One of the caller's tenant's integrations.
async fn find_integration(state: &AppState, caller: &User, id: i64) -> Answer<TeamsIntegration> {
    state
        .store
        .teams()
        .integration(caller.customer_id, id)
        .await?
        .ok_or(TeamsApiError::Api(ApiError::NotFound(NO_TEAMS_CHANNEL)))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct LoginParams {
    /// `{public_url}/teams-oauth-callback`, or that path on the page's own origin.
    pub redirect_uri: String,
}

/// OAuth start response.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(as = TeamsOAuthStart)]
pub struct OAuthStart {
    /// The identity platform's authorisation URL to go to.
    pub auth_url: String,
    /// The integration being connected (kept by the page for the picker).
    pub channel_id: i64,
}

/// Starts "Connect with Microsoft Teams": a pending integration (10 minutes to sign in) and the
/// identity platform's authorisation URL (PKCE S256).
#[utoipa::path(get, path = "/v1/api/teams/oauth/login", operation_id = "teamsOAuthLogin", tag = "teams", security(("bearer" = [])),
    params(LoginParams),
    responses(
        (status = 200, body = OAuthStart),
        (status = 403, description = "Only owners and admins can manage Microsoft Teams", body = ErrorBody),
        (status = 422, description = "redirect_uri must point to /teams-oauth-callback", body = ErrorBody),
        (status = 503, description = "Microsoft Teams is not configured on this server", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id))]
pub async fn login(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
    headers: HeaderMap,
    Query(params): Query<LoginParams>,
) -> Answer<Json<OAuthStart>> {
    let access = teams_access(&state, &caller, true)?;
    let redirect_uri = check_redirect_uri(
        &params.redirect_uri,
        &state.public_url,
        &page_origins(&headers),
    )
    .map_err(|message| ApiError::Invalid {
        field: "redirect_uri",
        message: message.to_owned(),
    })?;
    let sign_in_state = crate::auth::tokens::random_token();
    let mut random = [0u8; 32];
    {
        use argon2::password_hash::rand_core::{OsRng, RngCore};
        OsRng.fill_bytes(&mut random);
    }
    let verifier = pkce::verifier(&random);
    let now = state.clock.now();
    let sealed_verifier = state.secrets.encrypt(&verifier);
    let channel_id = state
        .store
        .teams()
        .start_sign_in(NewSignIn {
            customer_id: caller.customer_id,
            state: &sign_in_state,
            verifier: &sealed_verifier,
            redirect_uri: &redirect_uri,
            expires_at: sign_in_expiry(now),
            now,
        })
        .await?;
    let auth_url = access
        .client
        .authorization_url(AuthorizationRequest {
            redirect_uri: &redirect_uri,
            state: &sign_in_state,
            code_challenge: &pkce::challenge(&verifier),
            scope: SCOPES,
        })
        .map_err(|error| ApiError::Internal(error.into()))?;
    Ok(Json(OAuthStart {
        auth_url,
        channel_id,
    }))
}

/// The origins the page may be on: its `Origin`, and its `Host` over http and https.
fn page_origins(headers: &HeaderMap) -> Vec<String> {
    let mut origins = Vec::new();
    if let Some(origin) = headers.get(header::ORIGIN).and_then(|v| v.to_str().ok()) {
        origins.push(origin.to_owned());
    }
    if let Some(host) = headers.get(header::HOST).and_then(|v| v.to_str().ok()) {
        origins.push(format!("http://{host}"));
        origins.push(format!("https://{host}"));
    }
    origins
}

/// What the return page received from the identity platform.
#[derive(Debug, Deserialize, ToSchema)]
#[schema(as = TeamsOAuthCallback)]
pub struct CallbackRequest {
    pub code: String,
    pub state: String,
}

/// The integration the callback signed in.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(as = TeamsOAuthSignedIn)]
pub struct SignedIn {
    pub channel_id: i64,
}

/// Redeems the code of a sign-in started here (its `state`, 10 minutes) with its PKCE
/// verifier; the tokens are kept encrypted.
#[utoipa::path(post, path = "/v1/api/teams/oauth/callback", operation_id = "teamsOAuthCallback", tag = "teams", security(("bearer" = [])),
    request_body = CallbackRequest,
    responses(
        (status = 200, body = SignedIn),
        (status = 400, description = "The Microsoft sign-in expired or was not started here; connect again", body = ErrorBody),
        (status = 403, description = "Only owners and admins can manage Microsoft Teams", body = ErrorBody),
        (status = 502, description = "The identity platform refused the code (its message)", body = ErrorBody),
        (status = 503, description = "Microsoft Teams is not configured on this server", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id))]
pub async fn callback(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
    ApiJson(body): ApiJson<CallbackRequest>,
) -> Answer<Json<SignedIn>> {
    let access = teams_access(&state, &caller, true)?;
    let now = state.clock.now();
    let sign_in = state
        .store
        .teams()
        .take_sign_in(caller.customer_id, body.state.trim(), now)
        .await?
        .ok_or(ApiError::BadRequest(SIGN_IN_NOT_STARTED.to_owned()))?;
    let integration = find_integration(&state, &caller, sign_in.integration_id).await?;
    let verifier = state
        .secrets
        .decrypt(&sign_in.verifier)
        .map_err(|error| ApiError::Internal(error.into()))?;
    let grant = access
        .client
        .redeem_code(body.code.trim(), &sign_in.redirect_uri, &verifier, SCOPES)
        .await
        .map_err(TeamsAccessError::from)?;
    access.save(&integration, &grant, None, now).await?;
    Ok(Json(SignedIn {
        channel_id: integration.id,
    }))
}

/// Teams list item and channel list item: Graph's `{id, displayName}`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = TeamsListItem)]
pub struct TeamsItem {
    pub id: String,
    pub display_name: String,
}

impl From<GraphItem> for TeamsItem {
    fn from(item: GraphItem) -> Self {
        Self {
            id: item.id,
            display_name: item.display_name,
        }
    }
}

/// The teams the signed-in user is a member of (Graph `GET /me/joinedTeams`).
#[utoipa::path(get, path = "/v1/api/teams/oauth/channel/{channel_id}/teams", operation_id = "teamsListTeams", tag = "teams", security(("bearer" = [])),
    params(("channel_id" = i64, Path, description = "The integration (OAuth start's channel_id)")),
    responses(
        (status = 200, body = [TeamsItem]),
        (status = 400, description = "The Microsoft sign-in expired or was not started here; connect again", body = ErrorBody),
        (status = 403, description = "Only owners and admins can manage Microsoft Teams", body = ErrorBody),
        (status = 404, description = "No Microsoft Teams channel found.", body = ErrorBody),
        (status = 502, description = "Microsoft Graph's error message", body = ErrorBody),
        (status = 503, description = "Microsoft Teams is not configured on this server", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id, channel_id))]
pub async fn list_teams(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
    Path(channel_id): Path<i64>,
) -> Answer<Json<Vec<TeamsItem>>> {
    let access = teams_access(&state, &caller, true)?;
    let integration = find_integration(&state, &caller, channel_id).await?;
    let teams = access
        .with_token(&integration, state.clock.now(), |token| {
            let client = access.client.clone();
            async move { client.joined_teams(&token).await }
        })
        .await?;
    Ok(Json(teams.into_iter().map(Into::into).collect()))
}

/// The channels of one of the user's teams (Graph `GET /teams/{id}/channels`).
#[utoipa::path(get, path = "/v1/api/teams/oauth/channel/{channel_id}/teams/{team_id}/channels", operation_id = "teamsListChannels", tag = "teams", security(("bearer" = [])),
    params(
        ("channel_id" = i64, Path, description = "The integration (OAuth start's channel_id)"),
        ("team_id" = String, Path, description = "The team's Graph id"),
    ),
    responses(
        (status = 200, body = [TeamsItem]),
        (status = 400, description = "The Microsoft sign-in expired or was not started here; connect again", body = ErrorBody),
        (status = 403, description = "Only owners and admins can manage Microsoft Teams", body = ErrorBody),
        (status = 404, description = "No Microsoft Teams channel found.", body = ErrorBody),
        (status = 502, description = "Microsoft Graph's error message", body = ErrorBody),
        (status = 503, description = "Microsoft Teams is not configured on this server", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id, channel_id))]
pub async fn list_channels(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
    Path((channel_id, team_id)): Path<(i64, String)>,
) -> Answer<Json<Vec<TeamsItem>>> {
    let access = teams_access(&state, &caller, true)?;
    let integration = find_integration(&state, &caller, channel_id).await?;
    let channels = access
        .with_token(&integration, state.clock.now(), |token| {
            let client = access.client.clone();
            let team_id = team_id.clone();
            async move { client.channels(&token, &team_id).await }
        })
        .await?;
    Ok(Json(channels.into_iter().map(Into::into).collect()))
}

/// Channel selection response.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(as = TeamsChannelSelected)]
pub struct Selected {
    pub channel_id: i64,
    pub team_id: String,
    pub team_channel_id: String,
    /// When the current access token expires (it is refreshed before use).
    pub expires_at: DateTime<Utc>,
}

/// Picks the team and channel alerts are posted to (names read from Graph): the integration
/// becomes the notification channel `Teams: {team} / {channel}`.
#[utoipa::path(post, path = "/v1/api/teams/oauth/channel/{channel_id}/teams/{team_id}/channels/{team_channel_id}", operation_id = "teamsSelectChannel", tag = "teams", security(("bearer" = [])),
    params(
        ("channel_id" = i64, Path, description = "The integration (OAuth start's channel_id)"),
        ("team_id" = String, Path, description = "The team's Graph id"),
        ("team_channel_id" = String, Path, description = "The channel's Graph id"),
    ),
    responses(
        (status = 200, body = Selected),
        (status = 400, description = "The Microsoft sign-in expired or was not started here; connect again", body = ErrorBody),
        (status = 403, description = "Only owners and admins can manage Microsoft Teams", body = ErrorBody),
        (status = 404, description = "No Microsoft Teams channel found. / the team or channel is not the user's", body = ErrorBody),
        (status = 409, description = "A channel named \"{name}\" already exists", body = ErrorBody),
        (status = 422, description = "A tenant may have at most 20 channels (`details.channels`)", body = ErrorBody),
        (status = 502, description = "Microsoft Graph's error message", body = ErrorBody),
        (status = 503, description = "Microsoft Teams is not configured on this server", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id, channel_id))]
pub async fn select(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
    Path((channel_id, team_id, team_channel_id)): Path<(i64, String, String)>,
) -> Answer<Json<Selected>> {
    let access = teams_access(&state, &caller, true)?;
    let integration = find_integration(&state, &caller, channel_id).await?;
    let now = state.clock.now();
    let (team, channel) = access
        .with_token(&integration, now, |token| {
            let client = access.client.clone();
            let team_id = team_id.clone();
            let team_channel_id = team_channel_id.clone();
            async move {
                let team = client
                    .joined_teams(&token)
                    .await?
                    .into_iter()
                    .find(|team| team.id == team_id);
                let Some(team) = team else {
                    return Ok(None);
                };
                let channel = client
                    .channels(&token, &team_id)
                    .await?
                    .into_iter()
                    .find(|channel| channel.id == team_channel_id);
                Ok(channel.map(|channel| (team, channel)))
            }
        })
        .await?
        .ok_or(ApiError::NotFound(NOT_IN_TEAMS))?;
    let name = rules::channel_name(&team.display_name, &channel.display_name);
    let hint = rules::target_hint(&team.display_name, &channel.display_name);
    let target = state
        .secrets
        .encrypt(&format!("teams/{}/channels/{}", team.id, channel.id));
    let configured = state
        .store
        .teams()
        .configure(TeamsSelection {
            customer_id: caller.customer_id,
            integration_id: integration.id,
            team_id: &team.id,
            team_channel_id: &channel.id,
            team_name: &team.display_name,
            team_channel_name: &channel.display_name,
            channel_name: &name,
            target: &target,
            target_hint: &hint,
            now,
            max_channels: MAX_CHANNELS as i64,
        })
        .await?;
    let configured = match configured {
        TeamsConfiguration::Configured(configured) => configured,
        TeamsConfiguration::NotFound => {
            return Err(ApiError::BadRequest(SIGN_IN_NOT_STARTED.to_owned()).into())
        }
        TeamsConfiguration::Refused(ChannelCreation::NameTaken) => {
            return Err(ApiError::Conflict(name_taken(&name)).into())
        }
        TeamsConfiguration::Refused(_) => return Err(ApiError::from(too_many_channels()).into()),
    };
    Ok(Json(Selected {
        channel_id: configured.id,
        team_id: team.id,
        team_channel_id: channel.id,
        expires_at: configured.expires_at.unwrap_or(now),
    }))
}

/// Configured channel response.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(as = TeamsConfiguredChannel)]
pub struct ConfiguredChannel {
    pub channel_id: i64,
    pub team_id: String,
    pub team_channel_id: String,
    pub team_name: String,
    pub team_channel_name: String,
    pub configured_date: DateTime<Utc>,
}

/// The tenant's configured Teams channels, oldest first; 404 when there is none.
#[utoipa::path(get, path = "/v1/api/teams/configuredchannels", operation_id = "teamsConfiguredChannels", tag = "teams", security(("bearer" = [])),
    responses(
        (status = 200, body = [ConfiguredChannel]),
        (status = 404, description = "No Microsoft Teams channel is configured", body = ErrorBody),
        (status = 503, description = "Microsoft Teams is not configured on this server", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id))]
pub async fn configured(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
) -> Answer<Json<Vec<ConfiguredChannel>>> {
    teams_access(&state, &caller, false)?;
    let configured: Vec<ConfiguredChannel> = state
        .store
        .teams()
        .configured(caller.customer_id)
        .await?
        .into_iter()
        .filter_map(|integration| {
            Some(ConfiguredChannel {
                channel_id: integration.id,
                team_id: integration.team_id?,
                team_channel_id: integration.team_channel_id?,
                team_name: integration.team_name?,
                team_channel_name: integration.team_channel_name?,
                configured_date: integration.configured_at?,
            })
        })
        .collect();
    if configured.is_empty() {
        return Err(ApiError::NotFound(NONE_CONFIGURED).into());
    }
    Ok(Json(configured))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct RemoveParams {
    /// The integration (a configured channel's `channel_id`).
    pub channel_id: i64,
}

/// Removes a Teams integration and the notification channel it became (its pending
/// deliveries are dropped; the history keeps its name).
#[utoipa::path(delete, path = "/v1/api/teams/oauth/channel", operation_id = "teamsRemoveChannel", tag = "teams", security(("bearer" = [])),
    params(RemoveParams),
    responses(
        (status = 204, description = "Removed"),
        (status = 403, description = "Only owners and admins can manage Microsoft Teams", body = ErrorBody),
        (status = 404, description = "No Microsoft Teams channel found.", body = ErrorBody),
        (status = 503, description = "Microsoft Teams is not configured on this server", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id))]
pub async fn remove(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
    Query(params): Query<RemoveParams>,
) -> Answer<StatusCode> {
    teams_access(&state, &caller, true)?;
    if state
        .store
        .teams()
        .delete_integration(caller.customer_id, params.channel_id)
        .await?
    {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(ApiError::NotFound(NO_TEAMS_CHANNEL).into())
    }
}
