//! A local Microsoft identity platform and Microsoft Graph for tests (docs/NOTIFICATIONS.md
//! "Microsoft Teams through Microsoft Graph"): the authorisation endpoint (checks the app, the
//! `S256` challenge and answers a redirect with a code and the state), the token endpoint
//! (checks the client secret, the code's redirect URI and the PKCE verifier against the
//! challenge; refreshes, each refresh token once), and Graph's `GET /me/joinedTeams`,
//! `GET /teams/{id}/channels` and `POST /teams/{id}/channels/{id}/messages`, answering the
//! documented shapes (`{"value": [...]}`, 201, `{"error": {"code", "message"}}`).
//!
//! On demand it expires every access token issued so far, revokes every refresh token, fails
//! the next Graph call, or issues tokens of a shorter life; it records the posted messages and
//! the token requests.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Form, Json, Router};
use costscope_core::notify::pkce;
use reqwest::Url;
use serde_json::{json, Value};

use crate::teams::TeamsEndpoints;

/// The app registration the stand-in knows.
pub const CLIENT_ID: &str = "11111111-2222-3333-4444-555555555555";
pub const CLIENT_SECRET: &str = "stand-in-client-secret";

/// One message posted to a channel.
#[derive(Debug, Clone)]
pub struct PostedMessage {
    pub team_id: String,
    pub channel_id: String,
    pub body: Value,
    /// The access token it was posted with.
    pub access_token: String,
}

struct Team {
    id: String,
    name: String,
    channels: Vec<(String, String)>,
}

struct PendingCode {
    challenge: String,
    redirect_uri: String,
}

struct Shared {
    codes: HashMap<String, PendingCode>,
    /// Access token → when it expires.
    access: HashMap<String, Instant>,
    refresh: HashSet<String>,
    teams: Vec<Team>,
    messages: Vec<PostedMessage>,
    /// `grant_type` of every token request, in order.
    grants: Vec<String>,
    expires_in: u64,
    fail_next: Option<(u16, String, String)>,
    issued: u64,
}

impl Shared {
    fn next(&mut self, prefix: &str) -> String {
        self.issued += 1;
        format!("{prefix}-{}-{:016x}", self.issued, rand_part(self.issued))
    }

    fn grant(&mut self) -> Value {
        let access = self.next("access");
        let refresh = self.next("refresh");
        self.access.insert(
            access.clone(),
            Instant::now() + Duration::from_secs(self.expires_in),
        );
        self.refresh.insert(refresh.clone());
        json!({
            "token_type": "Bearer",
            "scope": "User.Read Team.ReadBasic.All Channel.ReadBasic.All ChannelMessage.Send",
            "expires_in": self.expires_in,
            "access_token": access,
            "refresh_token": refresh,
        })
    }
}

/// Not a secret generator: makes tokens of one run differ from another's.
fn rand_part(n: u64) -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    nanos.rotate_left(17) ^ n.wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

type Handle = Arc<Mutex<Shared>>;

pub struct TeamsStandIn {
    base: String,
    shared: Handle,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for TeamsStandIn {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl TeamsStandIn {
    /// Listens on a free port of 127.0.0.1; tokens live an hour.
    pub async fn start() -> Self {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind the Teams stand-in");
        let base = format!("http://{}", listener.local_addr().expect("local addr"));
        let shared = Arc::new(Mutex::new(Shared {
            codes: HashMap::new(),
            access: HashMap::new(),
            refresh: HashSet::new(),
            teams: Vec::new(),
            messages: Vec::new(),
            grants: Vec::new(),
            expires_in: 3600,
            fail_next: None,
            issued: 0,
        }));
        let router = Router::new()
            .route("/common/oauth2/v2.0/authorize", get(authorize))
            .route("/common/oauth2/v2.0/token", post(token))
            .route("/v1.0/me/joinedTeams", get(joined_teams))
            .route("/v1.0/teams/{team}/channels", get(channels))
            .route(
                "/v1.0/teams/{team}/channels/{channel}/messages",
                post(post_message),
            )
            .with_state(shared.clone());
        let task = tokio::spawn(async move {
            let _ = axum::serve(listener, router).await;
        });
        Self { base, shared, task }
    }

    /// `http://127.0.0.1:<port>/common`.
    pub fn authority(&self) -> String {
        format!("{}/common", self.base)
    }

    /// `http://127.0.0.1:<port>/v1.0`.
    pub fn graph_url(&self) -> String {
        format!("{}/v1.0", self.base)
    }

    /// The stand-in's endpoints with its app registration.
    pub fn endpoints(&self) -> TeamsEndpoints {
        TeamsEndpoints {
            authority: self.authority(),
            graph_url: self.graph_url(),
            client_id: CLIENT_ID.to_owned(),
            client_secret: CLIENT_SECRET.to_owned(),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Shared> {
        self.shared.lock().expect("lock")
    }

    /// A team the signed-in user is a member of, with its channels (id, name).
    pub fn add_team(&self, id: &str, name: &str, channels: &[(&str, &str)]) {
        self.lock().teams.push(Team {
            id: id.to_owned(),
            name: name.to_owned(),
            channels: channels
                .iter()
                .map(|(id, name)| ((*id).to_owned(), (*name).to_owned()))
                .collect(),
        });
    }

    /// Tokens issued from now on live `seconds`.
    pub fn set_expires_in(&self, seconds: u64) {
        self.lock().expires_in = seconds;
    }

    /// Every access token issued so far stops working (Graph answers 401).
    pub fn expire_access_tokens(&self) {
        let past = Instant::now();
        for expiry in self.lock().access.values_mut() {
            *expiry = past;
        }
    }

    /// Every refresh token issued so far is refused (`invalid_grant`).
    pub fn revoke_refresh_tokens(&self) {
        self.lock().refresh.clear();
    }

    /// The next Graph call answers `status` with `{"error": {code, message}}`.
    pub fn fail_next_graph_call(&self, status: u16, code: &str, message: &str) {
        self.lock().fail_next = Some((status, code.to_owned(), message.to_owned()));
    }

    /// An access token valid for Graph, without a sign-in.
    pub fn issue_access_token(&self) -> String {
        let mut shared = self.lock();
        shared.grant()["access_token"]
            .as_str()
            .expect("a token")
            .to_owned()
    }

    /// Every message posted so far, in order.
    pub fn messages(&self) -> Vec<PostedMessage> {
        self.lock().messages.clone()
    }

    /// The `grant_type` of every token request so far (`authorization_code`,
    /// `refresh_token`), in order.
    pub fn grants(&self) -> Vec<String> {
        self.lock().grants.clone()
    }

    /// What a browser does with an authorisation URL: GETs it and answers where the identity
    /// platform sends it back (the redirect URI with `code` and `state`, or `error`).
    ///
    /// # Panics
    /// When the stand-in refuses the URL (it answers why).
    pub async fn sign_in(&self, authorization_url: &str) -> Url {
        let client = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .expect("client");
        let response = client
            .get(authorization_url)
            .send()
            .await
            .expect("GET the authorisation URL");
        let status = response.status();
        let location = response
            .headers()
            .get(header::LOCATION)
            .and_then(|value| value.to_str().ok())
            .map(str::to_owned);
        match location {
            Some(location) if status.is_redirection() => {
                Url::parse(&location).expect("a redirect URL")
            }
            _ => panic!(
                "the authorisation URL was refused ({status}): {}",
                response.text().await.unwrap_or_default()
            ),
        }
    }
}

fn refused(text: &str) -> Response {
    (StatusCode::BAD_REQUEST, text.to_owned()).into_response()
}

async fn authorize(
    State(shared): State<Handle>,
    Query(query): Query<HashMap<String, String>>,
) -> Response {
    let field = |name: &str| query.get(name).map(String::as_str).unwrap_or_default();
    if field("client_id") != CLIENT_ID {
        return refused("AADSTS700016: application not found");
    }
    if field("response_type") != "code" {
        return refused("response_type must be code");
    }
    if field("code_challenge_method") != pkce::CHALLENGE_METHOD
        || field("code_challenge").is_empty()
    {
        return refused("AADSTS9002325: PKCE S256 is required");
    }
    if !field("scope")
        .split(' ')
        .any(|scope| scope == "offline_access")
    {
        return refused("offline_access is needed for a refresh token");
    }
    let Ok(mut redirect) = Url::parse(field("redirect_uri")) else {
        return refused("redirect_uri is not a URL");
    };
    let code = {
        let mut shared = shared.lock().expect("lock");
        let code = shared.next("code");
        shared.codes.insert(
            code.clone(),
            PendingCode {
                challenge: field("code_challenge").to_owned(),
                redirect_uri: field("redirect_uri").to_owned(),
            },
        );
        code
    };
    redirect
        .query_pairs_mut()
        .append_pair("code", &code)
        .append_pair("state", field("state"));
    (
        StatusCode::FOUND,
        [(header::LOCATION, redirect.to_string())],
    )
        .into_response()
}

fn token_error(status: StatusCode, error: &str, description: &str) -> Response {
    (
        status,
        Json(json!({"error": error, "error_description": description,
                    "error_codes": [], "trace_id": "stand-in"})),
    )
        .into_response()
}

async fn token(
    State(shared): State<Handle>,
    Form(form): Form<HashMap<String, String>>,
) -> Response {
    let field = |name: &str| form.get(name).map(String::as_str).unwrap_or_default();
    let mut shared = shared.lock().expect("lock");
    shared.grants.push(field("grant_type").to_owned());
    if field("client_id") != CLIENT_ID || field("client_secret") != CLIENT_SECRET {
        return token_error(
            StatusCode::UNAUTHORIZED,
            "invalid_client",
            "AADSTS7000215: Invalid client secret provided.",
        );
    }
    match field("grant_type") {
        "authorization_code" => {
            // A code is redeemed once, whether the redemption succeeds or not.
            let Some(pending) = shared.codes.remove(field("code")) else {
                return token_error(
                    StatusCode::BAD_REQUEST,
                    "invalid_grant",
                    "AADSTS70008: The provided authorization code or refresh token has expired or was already used.",
                );
            };
            if pending.redirect_uri != field("redirect_uri") {
                return token_error(
                    StatusCode::BAD_REQUEST,
                    "invalid_grant",
                    "AADSTS50148: The redirect_uri does not match the one of the authorization request.",
                );
            }
            if !pkce::verifies(field("code_verifier"), &pending.challenge) {
                return token_error(
                    StatusCode::BAD_REQUEST,
                    "invalid_grant",
                    "AADSTS501481: The Code_Verifier does not match the code_challenge supplied in the authorization request.",
                );
            }
            Json(shared.grant()).into_response()
        }
        "refresh_token" => {
            if !shared.refresh.remove(field("refresh_token")) {
                return token_error(
                    StatusCode::BAD_REQUEST,
                    "invalid_grant",
                    "AADSTS700082: The refresh token has expired or was revoked.\r\nTrace ID: stand-in",
                );
            }
            Json(shared.grant()).into_response()
        }
        other => token_error(
            StatusCode::BAD_REQUEST,
            "unsupported_grant_type",
            &format!("grant_type {other:?} is not supported"),
        ),
    }
}

fn graph_error(status: u16, code: &str, message: &str) -> Response {
    (
        StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
        Json(json!({"error": {"code": code, "message": message,
                              "innerError": {"request-id": "stand-in"}}})),
    )
        .into_response()
}

/// The bearer token when valid, else the Graph answer to give.
fn authorised(shared: &mut Shared, headers: &HeaderMap) -> Result<String, Box<Response>> {
    if let Some((status, code, message)) = shared.fail_next.take() {
        return Err(Box::new(graph_error(status, &code, &message)));
    }
    let token = headers
        .get(header::AUTHORIZATION)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.strip_prefix("Bearer "))
        .unwrap_or_default();
    match shared.access.get(token) {
        Some(expiry) if Instant::now() < *expiry => Ok(token.to_owned()),
        _ => Err(Box::new(graph_error(
            401,
            "InvalidAuthenticationToken",
            "Access token has expired or is not valid.",
        ))),
    }
}

fn list(items: impl Iterator<Item = (String, String)>) -> Response {
    let value: Vec<Value> = items
        .map(|(id, name)| json!({"id": id, "displayName": name, "description": null}))
        .collect();
    Json(json!({"@odata.context": "stand-in", "value": value})).into_response()
}

async fn joined_teams(State(shared): State<Handle>, headers: HeaderMap) -> Response {
    let mut shared = shared.lock().expect("lock");
    if let Err(answer) = authorised(&mut shared, &headers) {
        return *answer;
    }
    list(
        shared
            .teams
            .iter()
            .map(|team| (team.id.clone(), team.name.clone())),
    )
}

async fn channels(
    State(shared): State<Handle>,
    Path(team_id): Path<String>,
    headers: HeaderMap,
) -> Response {
    let mut shared = shared.lock().expect("lock");
    if let Err(answer) = authorised(&mut shared, &headers) {
        return *answer;
    }
    match shared.teams.iter().find(|team| team.id == team_id) {
        Some(team) => list(team.channels.iter().cloned()),
        None => graph_error(
            404,
            "NotFound",
            &format!("No team found with Group Id {team_id}"),
        ),
    }
}

async fn post_message(
    State(shared): State<Handle>,
    Path((team_id, channel_id)): Path<(String, String)>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Response {
    let mut shared = shared.lock().expect("lock");
    let token = match authorised(&mut shared, &headers) {
        Ok(token) => token,
        Err(answer) => return *answer,
    };
    let known = shared
        .teams
        .iter()
        .any(|team| team.id == team_id && team.channels.iter().any(|(id, _)| *id == channel_id));
    if !known {
        return graph_error(404, "NotFound", "Channel not found");
    }
    let Ok(body) = serde_json::from_slice::<Value>(&body) else {
        return graph_error(400, "BadRequest", "Invalid JSON body");
    };
    let id = shared.next("message");
    shared.messages.push(PostedMessage {
        team_id,
        channel_id,
        body,
        access_token: token,
    });
    (
        StatusCode::CREATED,
        Json(json!({"id": id, "messageType": "message"})),
    )
        .into_response()
}
