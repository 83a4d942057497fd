//! A service principal's access token for Azure Storage: the OAuth2 client-credentials flow
//! of the Microsoft identity platform (`POST {authority}/{tenant}/oauth2/v2.0/token` with
//! scope `https://storage.azure.com/.default`), kept until shortly before it expires.

use std::time::{Duration, Instant};

use reqwest::Url;
use serde::Deserialize;
use tokio::sync::Mutex;

use super::blob::Secret;
use crate::SourceError;

pub(crate) const STORAGE_SCOPE: &str = "https://storage.azure.com/.default";

/// How long before its expiry a token is replaced.
const EARLY: Duration = Duration::from_secs(120);

pub(crate) struct TokenSource {
    http: reqwest::Client,
    /// `{authority}/{tenant}/oauth2/v2.0/token`.
    token_url: Url,
    authority: String,
    tenant_id: String,
    client_id: String,
    client_secret: Secret,
    cached: Mutex<Option<(Secret, Instant)>>,
    /// Every token handed out, to keep them out of messages.
    issued: std::sync::Mutex<Vec<String>>,
}

#[derive(Deserialize)]
struct TokenAnswer {
    access_token: String,
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

impl TokenSource {
    pub(crate) fn new(
        authority_url: &str,
        tenant_id: &str,
        client_id: &str,
        client_secret: String,
    ) -> Result<TokenSource, SourceError> {
        let tenant_id = tenant_id.trim();
        let client_id = client_id.trim();
        if tenant_id.is_empty()
            || !tenant_id
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_'))
        {
            return Err(SourceError::new(
                "The service principal's tenant id must be the directory (tenant) id or its domain, e.g. 72f988bf-86f1-41af-91ab-2d7cd011db47 or contoso.onmicrosoft.com",
            ));
        }
        if client_id.is_empty() {
            return Err(SourceError::new(
                "The service principal's client (application) id is missing",
            ));
        }
        if client_secret.trim().is_empty() {
            return Err(SourceError::new(
                "The service principal's client secret is missing",
            ));
        }
        let authority = authority_url.trim().trim_end_matches('/').to_owned();
        let parsed = Url::parse(&authority).ok().filter(|u| {
            matches!(u.scheme(), "http" | "https") && u.host_str().is_some() && u.query().is_none()
        });
        let Some(_) = parsed else {
            return Err(SourceError::new(format!(
                "The Azure authority URL {} is not an http(s) URL such as https://login.microsoftonline.com",
                super::blob::strip_query(&authority)
            )));
        };
        let token_url = Url::parse(&format!("{authority}/{tenant_id}/oauth2/v2.0/token"))
            .map_err(|_| SourceError::new("The Azure authority URL cannot hold the tenant id"))?;
        Ok(TokenSource {
            http: reqwest::Client::builder()
                .connect_timeout(Duration::from_secs(20))
                .timeout(Duration::from_secs(60))
                .build()
                .map_err(|e| SourceError::new(format!("Cannot set up the HTTPS client: {e}")))?,
            token_url,
            authority,
            tenant_id: tenant_id.to_owned(),
            client_id: client_id.to_owned(),
            client_secret: Secret(client_secret.trim().to_owned()),
            cached: Mutex::new(None),
            issued: std::sync::Mutex::new(Vec::new()),
        })
    }

    pub(crate) fn set_http(&mut self, http: reqwest::Client) {
        self.http = http;
    }

    /// `service principal <client id> of tenant <tenant>`, for messages.
    pub(crate) fn describe(&self) -> String {
        format!(
            "service principal {} of tenant {}",
            self.client_id, self.tenant_id
        )
    }

    pub(crate) fn secrets(&self) -> Vec<String> {
        let mut out = vec![self.client_secret.0.clone()];
        if let Ok(issued) = self.issued.lock() {
            out.extend(issued.iter().cloned());
        }
        out
    }

    /// A valid access token, from the cache or the token endpoint.
    pub(crate) async fn token(&self) -> Result<Secret, SourceError> {
        let mut cached = self.cached.lock().await;
        if let Some((token, until)) = cached.as_ref() {
            if Instant::now() < *until {
                return Ok(token.clone());
            }
        }
        let (token, lifetime) = self.request().await?;
        if let Ok(mut issued) = self.issued.lock() {
            issued.push(token.0.clone());
            if issued.len() > 8 {
                issued.remove(0);
            }
        }
        let until = Instant::now() + lifetime.saturating_sub(EARLY);
        *cached = Some((token.clone(), until));
        Ok(token)
    }

    async fn request(&self) -> Result<(Secret, Duration), SourceError> {
        let form = [
            ("grant_type", "client_credentials"),
            ("client_id", self.client_id.as_str()),
            ("client_secret", self.client_secret.0.as_str()),
            ("scope", STORAGE_SCOPE),
        ];
        let endpoint = format!("{}/{}", self.authority, self.tenant_id);
        let response = self
            .http
            .post(self.token_url.clone())
            .form(&form)
            .send()
            .await
            .map_err(|e| {
                SourceError::retryable(format!(
                    "The identity platform at {endpoint} could not be reached for {}'s token: {}",
                    self.describe(),
                    self.redact(&e.without_url().to_string())
                ))
            })?;
        let status = response.status();
        let body = response.text().await.unwrap_or_default();
        if status.is_success() {
            let answer: TokenAnswer = serde_json::from_str(&body).map_err(|_| {
                SourceError::new(format!(
                    "The identity platform at {endpoint} answered without an access token for {}",
                    self.describe()
                ))
            })?;
            let seconds = match answer.expires_in {
                Some(serde_json::Value::Number(n)) => n.as_u64(),
                Some(serde_json::Value::String(s)) => s.parse().ok(),
                _ => None,
            }
            .unwrap_or(3600);
            tracing::debug!(principal = %self.describe(), expires_in = seconds, "got a storage access token");
            return Ok((Secret(answer.access_token), Duration::from_secs(seconds)));
        }
        let refusal: Option<TokenRefusal> = serde_json::from_str(&body).ok();
        let (error, description) = match refusal {
            Some(r) => (r.error, r.error_description),
            None => (None, None),
        };
        let description = description
            .as_deref()
            .and_then(|d| d.lines().next())
            .map(|d| d.trim().to_owned())
            .filter(|d| !d.is_empty());
        let reason = match (error, description) {
            (Some(e), Some(d)) => format!("{e}: {d}"),
            (Some(e), None) => e,
            (None, Some(d)) => d,
            (None, None) => format!("HTTP {}", status.as_u16()),
        };
        let message = self.redact(&format!(
            "The identity platform at {endpoint} refused {}: {reason}",
            self.describe()
        ));
        tracing::warn!(status = status.as_u16(), principal = %self.describe(), "token request refused");
        if status.is_server_error() || status.as_u16() == 429 {
            Err(SourceError::retryable(message))
        } else {
            Err(SourceError::new(message))
        }
    }

    fn redact(&self, text: &str) -> String {
        let mut out = text.to_owned();
        for secret in self.secrets() {
            if secret.len() >= 4 {
                out = out.replace(&secret, "[redacted]");
            }
        }
        out
    }
}
