//! OAuth2 access tokens for a service account (RFC 7523 JWT bearer, Google's flow): an RS256
//! assertion signed with the key, exchanged at the key's `token_uri`, cached until shortly
//! before it expires.

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use super::key::ServiceAccountKey;
use crate::SourceError;

/// The scope the connector asks for: read-only BigQuery.
pub const BIGQUERY_READONLY_SCOPE: &str = "https://www.googleapis.com/auth/bigquery.readonly";
/// The grant type of the exchange.
pub(crate) const JWT_BEARER_GRANT: &str = "urn:ietf:params:oauth:grant-type:jwt-bearer";
/// An assertion's lifetime (Google accepts at most one hour).
const ASSERTION_LIFETIME_SECS: u64 = 3600;
/// A cached token is replaced this long before it expires.
const REFRESH_MARGIN: Duration = Duration::from_secs(120);

/// The claims of the assertion.
#[derive(Serialize, Deserialize)]
pub(crate) struct AssertionClaims {
    pub iss: String,
    pub scope: String,
    pub aud: String,
    pub iat: u64,
    pub exp: u64,
}

#[derive(Deserialize)]
struct TokenAnswer {
    access_token: String,
    #[serde(default)]
    expires_in: Option<u64>,
}

#[derive(Deserialize, Default)]
struct TokenRefusal {
    #[serde(default)]
    error: Option<String>,
    #[serde(default)]
    error_description: Option<String>,
}

struct Cached {
    token: String,
    refresh_at: Instant,
}

/// Access tokens for one key. Never prints a token or the key.
pub(crate) struct TokenSource {
    key: ServiceAccountKey,
    http: reqwest::Client,
    cached: tokio::sync::Mutex<Option<Cached>>,
}

impl TokenSource {
    pub(crate) fn new(key: ServiceAccountKey, http: reqwest::Client) -> Self {
        Self {
            key,
            http,
            cached: tokio::sync::Mutex::new(None),
        }
    }

    pub(crate) fn key(&self) -> &ServiceAccountKey {
        &self.key
    }

    /// A valid access token: the cached one, or a new one from the token endpoint (one
    /// exchange at a time).
    pub(crate) async fn token(&self) -> Result<String, SourceError> {
        let mut cached = self.cached.lock().await;
        if let Some(current) = cached.as_ref() {
            if Instant::now() < current.refresh_at {
                return Ok(current.token.clone());
            }
        }
        let (token, lifetime) = self.exchange().await?;
        let margin = REFRESH_MARGIN.min(lifetime / 2);
        *cached = Some(Cached {
            token: token.clone(),
            refresh_at: Instant::now() + lifetime - margin,
        });
        Ok(token)
    }

    /// Forgets the cached token (BigQuery answered 401 with it).
    pub(crate) async fn invalidate(&self) {
        *self.cached.lock().await = None;
    }

    async fn exchange(&self) -> Result<(String, Duration), SourceError> {
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or_default();
        let claims = AssertionClaims {
            iss: self.key.client_email().to_owned(),
            scope: BIGQUERY_READONLY_SCOPE.to_owned(),
            aud: self.key.token_uri().to_owned(),
            iat: now,
            exp: now + ASSERTION_LIFETIME_SECS,
        };
        let assertion = self.key.sign(&claims).map_err(|error| {
            SourceError::new(format!("The service account key cannot sign: {error}"))
        })?;
        let uri = self.key.token_uri();
        let answer = self
            .http
            .post(uri)
            .form(&[("grant_type", JWT_BEARER_GRANT), ("assertion", &assertion)])
            .send()
            .await
            .map_err(|error| {
                SourceError::retryable(format!(
                    "Could not reach the token endpoint {uri}: {}",
                    without_url(&error)
                ))
            })?;
        let status = answer.status();
        let body = answer.bytes().await.map_err(|error| {
            SourceError::retryable(format!(
                "The token endpoint {uri} did not answer in full: {}",
                without_url(&error)
            ))
        })?;
        if status.is_success() {
            let token: TokenAnswer = serde_json::from_slice(&body).map_err(|_| {
                SourceError::new(format!(
                    "The token endpoint {uri} answered without an access token"
                ))
            })?;
            let lifetime = Duration::from_secs(token.expires_in.unwrap_or(3600).max(1));
            return Ok((token.access_token, lifetime));
        }
        let refusal: TokenRefusal = serde_json::from_slice(&body).unwrap_or_default();
        let reason = match (refusal.error, refusal.error_description) {
            (Some(error), Some(description)) => format!("{error}: {description}"),
            (Some(error), None) => error,
            (None, Some(description)) => description,
            (None, None) => format!("HTTP {}", status.as_u16()),
        };
        let reason = shorten(&reason, 300);
        if status.is_server_error() || status.as_u16() == 429 {
            Err(SourceError::retryable(format!(
                "The token endpoint {uri} is unavailable: {reason}"
            )))
        } else {
            Err(SourceError::new(format!(
                "The service account key was refused by the token endpoint: {reason}"
            )))
        }
    }
}

/// A reqwest error's text without the request URL (which may carry a page token).
pub(crate) fn without_url(error: &reqwest::Error) -> String {
    let mut text = error.to_string();
    if let Some(url) = error.url() {
        text = text
            .replace(&format!(" ({url})"), "")
            .replace(url.as_str(), "");
    }
    let mut source = std::error::Error::source(error);
    while let Some(inner) = source {
        text.push_str(": ");
        text.push_str(&inner.to_string());
        source = inner.source();
    }
    text
}

pub(crate) fn shorten(text: &str, max_chars: usize) -> String {
    if text.chars().count() <= max_chars {
        text.to_owned()
    } else {
        let cut: String = text.chars().take(max_chars - 1).collect();
        format!("{cut}…")
    }
}
