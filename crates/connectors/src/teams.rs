//! Microsoft Teams through Microsoft Graph (docs/NOTIFICATIONS.md): the identity platform's
//! authorisation code flow with PKCE (`{authority}/oauth2/v2.0/authorize` and `…/token`,
//! form-encoded; `{access_token, refresh_token, expires_in, …}` or `{error,
//! error_description}`), and the Graph v1.0 calls Costscope makes as the signed-in user:
//! `GET /me/joinedTeams`, `GET /teams/{id}/channels` (`{"value": [{id, displayName, …}]}`)
//! and `POST /teams/{id}/channels/{id}/messages` (201); Graph errors are `{"error": {code,
//! message}}`.
//!
//! Like webhook.rs: every request has a time limit, redirects are not followed, and no error
//! names a URL, a token, the client secret or the code.

use std::time::Duration;

use reqwest::redirect::Policy;
use reqwest::Url;
use serde::Deserialize;

use crate::webhook::{cause_chain, host_and_port, innermost_cause};

/// Where the identity platform and Graph are, and the app registration.
#[derive(Clone)]
pub struct TeamsEndpoints {
    /// e.g. `https://login.microsoftonline.com/common` (no trailing slash needed).
    pub authority: String,
    /// e.g. `https://graph.microsoft.com/v1.0`.
    pub graph_url: String,
    pub client_id: String,
    pub client_secret: String,
}

impl std::fmt::Debug for TeamsEndpoints {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TeamsEndpoints")
            .field("authority", &self.authority)
            .field("graph_url", &self.graph_url)
            .field("client_id", &self.client_id)
            .field("client_secret", &"[REDACTED]")
            .finish()
    }
}

/// What an authorisation URL carries besides the app's id.
#[derive(Debug, Clone, Copy)]
pub struct AuthorizationRequest<'a> {
    pub redirect_uri: &'a str,
    pub state: &'a str,
    /// The PKCE `S256` challenge.
    pub code_challenge: &'a str,
    /// Space-separated.
    pub scope: &'a str,
}

/// Tokens the identity platform issued.
#[derive(Clone, PartialEq, Eq)]
pub struct TokenGrant {
    pub access_token: String,
    /// `None` when a refresh answered without a new one (the old one stays valid).
    pub refresh_token: Option<String>,
    /// Seconds the access token lives.
    pub expires_in: i64,
}

impl std::fmt::Debug for TokenGrant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TokenGrant")
            .field("expires_in", &self.expires_in)
            .finish_non_exhaustive()
    }
}

/// A team or a channel: `{id, displayName}`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GraphItem {
    pub id: String,
    #[serde(default)]
    pub display_name: String,
}

#[derive(Debug, thiserror::Error)]
pub enum TeamsError {
    /// The token endpoint refused a refresh token or a code with `invalid_grant` (expired,
    /// revoked, already used): the user has to sign in again.
    #[error("the Microsoft sign-in is no longer valid: {0}")]
    InvalidGrant(String),
    /// The token endpoint refused for another reason (`{error}: {first line of the
    /// description}`).
    #[error("Microsoft sign-in refused: {0}")]
    TokenRefused(String),
    /// Graph answered an error: its `error.message` (or the status when it had none).
    #[error("{message}")]
    Graph {
        status: u16,
        code: Option<String>,
        message: String,
    },
    #[error("no answer within {0} s")]
    TimedOut(u64),
    #[error("could not connect to {host}: {reason}")]
    Connect { host: String, reason: String },
    #[error("the request failed: {0}")]
    Request(String),
}

impl TeamsError {
    /// Whether Graph refused the access token itself (401): a fresh one may do.
    pub fn is_unauthorized(&self) -> bool {
        matches!(self, TeamsError::Graph { status: 401, .. })
    }
}

#[derive(Deserialize)]
struct TokenAnswer {
    access_token: String,
    #[serde(default)]
    refresh_token: Option<String>,
    #[serde(default)]
    expires_in: Option<serde_json::Value>,
}

#[derive(Deserialize)]
struct TokenRefusal {
    #[serde(default)]
    error: Option<String>,
    #[serde(default)]
    error_description: Option<String>,
}

#[derive(Deserialize)]
struct GraphList {
    value: Vec<GraphItem>,
}

#[derive(Deserialize)]
struct GraphErrorBody {
    error: GraphErrorDetail,
}

#[derive(Deserialize)]
struct GraphErrorDetail {
    #[serde(default)]
    code: Option<String>,
    #[serde(default)]
    message: Option<String>,
}

/// The identity platform and Graph, for one app registration. Cheap to clone.
#[derive(Debug, Clone)]
pub struct TeamsClient {
    http: reqwest::Client,
    endpoints: TeamsEndpoints,
    timeout: Duration,
}

impl TeamsClient {
    /// A client whose requests take at most `timeout` each.
    ///
    /// # Panics
    /// Like `reqwest::Client::new`, when the TLS backend cannot be initialised.
    pub fn new(endpoints: TeamsEndpoints, timeout: Duration) -> Self {
        let http = reqwest::Client::builder()
            .timeout(timeout)
            .connect_timeout(timeout)
            .redirect(Policy::none())
            .user_agent(concat!("Costscope/", env!("CARGO_PKG_VERSION")))
            .build()
            .expect("the HTTP client builds (rustls, default roots)");
        let endpoints = TeamsEndpoints {
            authority: endpoints.authority.trim_end_matches('/').to_owned(),
            graph_url: endpoints.graph_url.trim_end_matches('/').to_owned(),
            ..endpoints
        };
        Self {
            http,
            endpoints,
            timeout,
        }
    }

    /// `{authority}/oauth2/v2.0/authorize?client_id=…&response_type=code&redirect_uri=…&
    /// response_mode=query&scope=…&state=…&code_challenge=…&code_challenge_method=S256`.
    pub fn authorization_url(
        &self,
        request: AuthorizationRequest<'_>,
    ) -> Result<String, TeamsError> {
        let mut url = Url::parse(&format!(
            "{}/oauth2/v2.0/authorize",
            self.endpoints.authority
        ))
        .map_err(|_| TeamsError::Request("the configured authority is not a URL".to_owned()))?;
        url.query_pairs_mut()
            .append_pair("client_id", &self.endpoints.client_id)
            .append_pair("response_type", "code")
            .append_pair("redirect_uri", request.redirect_uri)
            .append_pair("response_mode", "query")
            .append_pair("scope", request.scope)
            .append_pair("state", request.state)
            .append_pair("code_challenge", request.code_challenge)
            .append_pair(
                "code_challenge_method",
                costscope_core::notify::pkce::CHALLENGE_METHOD,
            );
        Ok(url.into())
    }

    /// Redeems an authorisation code with its PKCE verifier.
    #[tracing::instrument(skip_all)]
    pub async fn redeem_code(
        &self,
        code: &str,
        redirect_uri: &str,
        verifier: &str,
        scope: &str,
    ) -> Result<TokenGrant, TeamsError> {
        self.token(&[
            ("grant_type", "authorization_code"),
            ("code", code),
            ("redirect_uri", redirect_uri),
            ("code_verifier", verifier),
            ("scope", scope),
        ])
        .await
    }

    /// New tokens for a refresh token.
    #[tracing::instrument(skip_all)]
    pub async fn refresh(
        &self,
        refresh_token: &str,
        scope: &str,
    ) -> Result<TokenGrant, TeamsError> {
        self.token(&[
            ("grant_type", "refresh_token"),
            ("refresh_token", refresh_token),
            ("scope", scope),
        ])
        .await
    }

    async fn token(&self, grant: &[(&str, &str)]) -> Result<TokenGrant, TeamsError> {
        let url = format!("{}/oauth2/v2.0/token", self.endpoints.authority);
        let mut form = vec![
            ("client_id", self.endpoints.client_id.as_str()),
            ("client_secret", self.endpoints.client_secret.as_str()),
        ];
        form.extend_from_slice(grant);
        let response = self
            .http
            .post(&url)
            .form(&form)
            .send()
            .await
            .map_err(|err| self.failure(&url, err))?;
        let status = response.status();
        let body = response
            .text()
            .await
            .map_err(|err| self.failure(&url, err))?;
        if status.is_success() {
            let answer: TokenAnswer = serde_json::from_str(&body).map_err(|_| {
                TeamsError::TokenRefused(
                    "the token endpoint answered without an access token".to_owned(),
                )
            })?;
            let expires_in = match answer.expires_in {
                Some(serde_json::Value::Number(n)) => n.as_i64(),
                Some(serde_json::Value::String(s)) => s.parse().ok(),
                _ => None,
            }
            .unwrap_or(3600);
            return Ok(TokenGrant {
                access_token: answer.access_token,
                refresh_token: answer.refresh_token,
                expires_in,
            });
        }
        let refusal: Option<TokenRefusal> = serde_json::from_str(&body).ok();
        let (error, description) = refusal.map_or((None, None), |r| (r.error, r.error_description));
        let description = description
            .as_deref()
            .and_then(|d| d.lines().next())
            .map(|d| d.trim().to_owned())
            .filter(|d| !d.is_empty());
        let reason = match (&error, description) {
            (Some(e), Some(d)) => format!("{e}: {d}"),
            (Some(e), None) => e.clone(),
            (None, Some(d)) => d,
            (None, None) => format!("the token endpoint answered {status}"),
        };
        if error.as_deref() == Some("invalid_grant") {
            Err(TeamsError::InvalidGrant(reason))
        } else {
            Err(TeamsError::TokenRefused(reason))
        }
    }

    /// `GET /me/joinedTeams`: the teams the signed-in user is a member of.
    #[tracing::instrument(skip_all)]
    pub async fn joined_teams(&self, access_token: &str) -> Result<Vec<GraphItem>, TeamsError> {
        self.list(access_token, &["me", "joinedTeams"]).await
    }

    /// `GET /teams/{team_id}/channels`.
    #[tracing::instrument(skip_all)]
    pub async fn channels(
        &self,
        access_token: &str,
        team_id: &str,
    ) -> Result<Vec<GraphItem>, TeamsError> {
        self.list(access_token, &["teams", team_id, "channels"])
            .await
    }

    /// `POST /teams/{team_id}/channels/{channel_id}/messages` with `message` (a Graph
    /// `chatMessage`, JSON); `Ok` once Graph answered 2xx.
    #[tracing::instrument(skip_all)]
    pub async fn post_message(
        &self,
        access_token: &str,
        team_id: &str,
        channel_id: &str,
        message: Vec<u8>,
    ) -> Result<(), TeamsError> {
        let url = self.graph(&["teams", team_id, "channels", channel_id, "messages"])?;
        let response = self
            .http
            .post(url.clone())
            .bearer_auth(access_token)
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            .body(message)
            .send()
            .await
            .map_err(|err| self.failure(url.as_str(), err))?;
        if response.status().is_success() {
            return Ok(());
        }
        Err(graph_error(response).await)
    }

    async fn list(
        &self,
        access_token: &str,
        segments: &[&str],
    ) -> Result<Vec<GraphItem>, TeamsError> {
        let url = self.graph(segments)?;
        let response = self
            .http
            .get(url.clone())
            .bearer_auth(access_token)
            .send()
            .await
            .map_err(|err| self.failure(url.as_str(), err))?;
        if !response.status().is_success() {
            return Err(graph_error(response).await);
        }
        let status = response.status().as_u16();
        let list: GraphList = response.json().await.map_err(|_| TeamsError::Graph {
            status,
            code: None,
            message: "Microsoft Graph answered a list Costscope cannot read".to_owned(),
        })?;
        Ok(list.value)
    }

    /// `{graph_url}/{segments…}`, each segment percent-encoded (channel ids hold `:` and `@`).
    fn graph(&self, segments: &[&str]) -> Result<Url, TeamsError> {
        let mut url = Url::parse(&self.endpoints.graph_url)
            .map_err(|_| TeamsError::Request("the configured Graph URL is not a URL".to_owned()))?;
        url.path_segments_mut()
            .map_err(|()| {
                TeamsError::Request("the configured Graph URL cannot hold a path".to_owned())
            })?
            .pop_if_empty()
            .extend(segments);
        Ok(url)
    }

    fn failure(&self, url: &str, err: reqwest::Error) -> TeamsError {
        if err.is_timeout() {
            TeamsError::TimedOut(self.timeout.as_secs().max(1))
        } else if err.is_connect() {
            TeamsError::Connect {
                host: host_and_port(url),
                reason: innermost_cause(&err),
            }
        } else {
            TeamsError::Request(cause_chain(&err.without_url()))
        }
    }
}

/// A Graph error answer as [`TeamsError::Graph`]: `error.message`, else the status.
async fn graph_error(response: reqwest::Response) -> TeamsError {
    let status = response.status();
    let body = response.bytes().await.unwrap_or_default();
    let detail = serde_json::from_slice::<GraphErrorBody>(&body)
        .ok()
        .map(|body| body.error);
    let (code, message) = detail.map_or((None, None), |detail| (detail.code, detail.message));
    TeamsError::Graph {
        status: status.as_u16(),
        code,
        message: message
            .filter(|message| !message.trim().is_empty())
            .unwrap_or_else(|| format!("Microsoft Graph answered {status}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::teams::{TeamsStandIn, CLIENT_ID, CLIENT_SECRET};
    use costscope_core::notify::pkce;

    fn client(stand_in: &TeamsStandIn) -> TeamsClient {
        TeamsClient::new(stand_in.endpoints(), Duration::from_secs(5))
    }

    const REDIRECT: &str = "http://127.0.0.1:1/teams-oauth-callback";

    #[tokio::test]
    async fn signs_in_with_pkce_lists_teams_and_channels_and_posts() {
        let stand_in = TeamsStandIn::start().await;
        stand_in.add_team("team-1", "Ops", &[("19:abc@thread.tacv2", "Alerts")]);
        let client = client(&stand_in);
        let verifier = pkce::verifier(&[7; 32]);
        let url = client
            .authorization_url(AuthorizationRequest {
                redirect_uri: REDIRECT,
                state: "state-1",
                code_challenge: &pkce::challenge(&verifier),
                scope: "offline_access User.Read",
            })
            .unwrap();
        let parsed = Url::parse(&url).unwrap();
        let query: std::collections::HashMap<_, _> = parsed.query_pairs().into_owned().collect();
        assert_eq!(query["client_id"], CLIENT_ID);
        assert_eq!(query["code_challenge_method"], "S256");
        let back = stand_in.sign_in(&url).await;
        let back_query: std::collections::HashMap<_, _> = back.query_pairs().into_owned().collect();
        assert_eq!(back_query["state"], "state-1");

        let wrong = client
            .redeem_code(
                &back_query["code"],
                REDIRECT,
                &pkce::verifier(&[8; 32]),
                "x",
            )
            .await
            .unwrap_err();
        assert!(matches!(wrong, TeamsError::InvalidGrant(_)), "{wrong}");
        let back = stand_in.sign_in(&url).await;
        let code = back
            .query_pairs()
            .find(|(k, _)| k == "code")
            .unwrap()
            .1
            .into_owned();
        let grant = client
            .redeem_code(&code, REDIRECT, &verifier, "x")
            .await
            .unwrap();
        assert_eq!(grant.expires_in, 3600);

        let teams = client.joined_teams(&grant.access_token).await.unwrap();
        assert_eq!(
            teams,
            vec![GraphItem {
                id: "team-1".into(),
                display_name: "Ops".into()
            }]
        );
        let channels = client
            .channels(&grant.access_token, "team-1")
            .await
            .unwrap();
        assert_eq!(channels[0].id, "19:abc@thread.tacv2");
        client
            .post_message(
                &grant.access_token,
                "team-1",
                "19:abc@thread.tacv2",
                br#"{"body":{}}"#.to_vec(),
            )
            .await
            .unwrap();
        let posted = stand_in.messages();
        assert_eq!(posted.len(), 1);
        assert_eq!(posted[0].channel_id, "19:abc@thread.tacv2");

        let refreshed = client
            .refresh(grant.refresh_token.as_deref().unwrap(), "x")
            .await
            .unwrap();
        assert_ne!(refreshed.access_token, grant.access_token);
        let reused = client
            .refresh(grant.refresh_token.as_deref().unwrap(), "x")
            .await
            .unwrap_err();
        assert!(
            matches!(reused, TeamsError::InvalidGrant(_)),
            "a refresh token is used once"
        );
    }

    #[tokio::test]
    async fn graph_errors_carry_their_message_and_no_secret() {
        let stand_in = TeamsStandIn::start().await;
        let client = client(&stand_in);
        let err = client.joined_teams("not-a-token").await.unwrap_err();
        assert!(err.is_unauthorized(), "{err}");
        let token = stand_in.issue_access_token();
        stand_in.fail_next_graph_call(403, "Forbidden", "Missing scope Team.ReadBasic.All");
        let err = client.joined_teams(&token).await.unwrap_err();
        assert_eq!(err.to_string(), "Missing scope Team.ReadBasic.All");
        let err = client.channels(&token, "no-such-team").await.unwrap_err();
        assert!(
            matches!(err, TeamsError::Graph { status: 404, .. }),
            "{err}"
        );

        let nowhere = TeamsClient::new(
            TeamsEndpoints {
                authority: "http://127.0.0.1:9/common".into(),
                graph_url: "http://127.0.0.1:9/v1.0".into(),
                client_id: CLIENT_ID.into(),
                client_secret: CLIENT_SECRET.into(),
            },
            Duration::from_secs(5),
        );
        let text = nowhere
            .refresh("refresh-secret", "x")
            .await
            .unwrap_err()
            .to_string();
        assert!(
            text.starts_with("could not connect to 127.0.0.1:9"),
            "{text}"
        );
        assert!(
            !text.contains("refresh-secret") && !text.contains(CLIENT_SECRET),
            "{text}"
        );
    }
}
