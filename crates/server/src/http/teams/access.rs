//! Graph as a Teams integration's signed-in user: its access token (decrypted), refreshed with
//! the refresh token when fewer than 5 minutes remain or when Graph refuses it (401), the new
//! tokens stored encrypted. A refresh refused with `invalid_grant` is
//! [`TeamsAccessError::SignInExpired`]. Used by the Teams routes and by delivery.

use std::future::Future;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use anyhow::Context;
use chrono::{DateTime, TimeDelta, Utc};
use costscope_connectors::{TeamsClient, TeamsEndpoints, TeamsError, TokenGrant};
use costscope_core::notify::teams::{needs_refresh, SCOPES, SIGN_IN_EXPIRED};
use costscope_store::{MetadataStore, TeamsIntegration, TeamsTokens};
use secrecy::ExposeSecret;

use crate::config::TeamsConfig;
use crate::secrets::SecretBox;
use crate::state::AppState;

/// How long one identity platform or Graph request may take.
pub const TEAMS_TIMEOUT: Duration = Duration::from_secs(10);

#[derive(Debug, thiserror::Error)]
pub enum TeamsAccessError {
    /// The refresh token was refused (`invalid_grant`): someone has to connect again.
    #[error("{}", SIGN_IN_EXPIRED)]
    SignInExpired,
    /// The integration has no tokens (its sign-in never finished).
    #[error("the Microsoft sign-in of this channel never finished")]
    NotSignedIn,
    /// The identity platform or Graph refused or failed (the message says why).
    #[error(transparent)]
    Teams(#[from] TeamsError),
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

/// Refreshes one at a time, so that two users of one integration never both spend its
/// refresh token (each is valid once).
fn refreshing() -> &'static tokio::sync::Mutex<()> {
    static REFRESHING: OnceLock<tokio::sync::Mutex<()>> = OnceLock::new();
    REFRESHING.get_or_init(|| tokio::sync::Mutex::new(()))
}

/// The Teams client with the store and secrets key its tokens need. Cheap to clone.
#[derive(Debug, Clone)]
pub struct TeamsAccess {
    pub client: TeamsClient,
    store: Arc<dyn MetadataStore>,
    secrets: Arc<SecretBox>,
}

impl TeamsAccess {
    pub fn new(
        config: &TeamsConfig,
        store: Arc<dyn MetadataStore>,
        secrets: Arc<SecretBox>,
    ) -> Self {
        let client = TeamsClient::new(
            TeamsEndpoints {
                authority: config.authority.clone(),
                graph_url: config.graph_url.clone(),
                client_id: config.client_id.clone(),
                client_secret: config.client_secret.expose_secret().to_owned(),
            },
            TEAMS_TIMEOUT,
        );
        Self {
            client,
            store,
            secrets,
        }
    }

    /// `None` when Teams is not configured.
    pub fn from_state(state: &AppState) -> Option<Self> {
        state
            .config
            .teams
            .as_ref()
            .map(|config| Self::new(config, state.store.clone(), state.secrets.clone()))
    }

    /// Stores `grant` (keeping `previous_refresh` when it brought no new refresh token):
    /// encrypted, expiring `expires_in` seconds after `now`. Answers the expiry.
    pub async fn save(
        &self,
        integration: &TeamsIntegration,
        grant: &TokenGrant,
        previous_refresh: Option<&str>,
        now: DateTime<Utc>,
    ) -> Result<DateTime<Utc>, TeamsAccessError> {
        let refresh = grant
            .refresh_token
            .as_deref()
            .or(previous_refresh)
            .ok_or_else(|| {
                TeamsError::TokenRefused(
                    "the identity platform answered without a refresh token (offline_access)"
                        .to_owned(),
                )
            })?;
        let expires_at = now + TimeDelta::seconds(grant.expires_in.max(0));
        let access = self.secrets.encrypt(&grant.access_token);
        let refresh = self.secrets.encrypt(refresh);
        self.store
            .teams()
            .save_tokens(
                integration.customer_id,
                integration.id,
                TeamsTokens {
                    access_token: &access,
                    refresh_token: &refresh,
                    expires_at,
                },
            )
            .await
            .context("storing the Microsoft tokens")?;
        Ok(expires_at)
    }

    /// Runs `call` with a valid access token of `integration`; when Graph refuses the token
    /// (401), refreshes it and runs `call` once more.
    pub async fn with_token<T, F, Fut>(
        &self,
        integration: &TeamsIntegration,
        now: DateTime<Utc>,
        call: F,
    ) -> Result<T, TeamsAccessError>
    where
        F: Fn(String) -> Fut,
        Fut: Future<Output = Result<T, TeamsError>>,
    {
        let token = self.access_token(integration, now).await?;
        match call(token.clone()).await {
            Err(error) if error.is_unauthorized() => {
                let token = self.refresh(integration, now, Some(&token)).await?;
                Ok(call(token).await?)
            }
            answer => Ok(answer?),
        }
    }

    /// The access token, refreshed first when fewer than 5 minutes remain.
    async fn access_token(
        &self,
        integration: &TeamsIntegration,
        now: DateTime<Utc>,
    ) -> Result<String, TeamsAccessError> {
        let (Some(access), Some(expires_at)) = (&integration.access_token, integration.expires_at)
        else {
            return Err(TeamsAccessError::NotSignedIn);
        };
        if needs_refresh(expires_at, now) {
            return self.refresh(integration, now, None).await;
        }
        Ok(self.decrypt(access)?)
    }

    /// A fresh access token from the refresh token. Under the refresh lock the integration is
    /// read again: when another task refreshed it meanwhile (its token is not `rejected` and
    /// has time left), that token is used.
    async fn refresh(
        &self,
        integration: &TeamsIntegration,
        now: DateTime<Utc>,
        rejected: Option<&str>,
    ) -> Result<String, TeamsAccessError> {
        let _one_at_a_time = refreshing().lock().await;
        let current = self
            .store
            .teams()
            .integration(integration.customer_id, integration.id)
            .await
            .context("reading the Teams integration")?
            .ok_or(TeamsAccessError::NotSignedIn)?;
        let (Some(access), Some(refresh), Some(expires_at)) = (
            &current.access_token,
            &current.refresh_token,
            current.expires_at,
        ) else {
            return Err(TeamsAccessError::NotSignedIn);
        };
        let access = self.decrypt(access)?;
        let refreshed_meanwhile =
            current.access_token != integration.access_token && rejected != Some(access.as_str());
        if refreshed_meanwhile && !needs_refresh(expires_at, now) {
            return Ok(access);
        }
        let refresh = self.decrypt(refresh)?;
        let grant = match self.client.refresh(&refresh, SCOPES).await {
            Ok(grant) => grant,
            Err(TeamsError::InvalidGrant(reason)) => {
                tracing::info!(integration_id = integration.id, reason = %reason, "a Teams refresh token was refused");
                return Err(TeamsAccessError::SignInExpired);
            }
            Err(error) => return Err(error.into()),
        };
        self.save(&current, &grant, Some(refresh.as_str()), now)
            .await?;
        Ok(grant.access_token)
    }

    /// Posts `message` (a Graph `chatMessage`, JSON) to the team and channel of the
    /// integration that notification channel `channel_id` of `customer_id` came from.
    pub async fn post_to_channel(
        &self,
        customer_id: i64,
        channel_id: i64,
        message: Vec<u8>,
        now: DateTime<Utc>,
    ) -> Result<(), TeamsAccessError> {
        let integration = self
            .store
            .teams()
            .integration_of_channel(customer_id, channel_id)
            .await
            .context("reading the Teams integration")?
            .ok_or(TeamsAccessError::NotSignedIn)?;
        let (Some(team_id), Some(team_channel_id)) = (
            integration.team_id.clone(),
            integration.team_channel_id.clone(),
        ) else {
            return Err(TeamsAccessError::NotSignedIn);
        };
        self.with_token(&integration, now, |token| {
            let client = self.client.clone();
            let (team_id, team_channel_id, message) =
                (team_id.clone(), team_channel_id.clone(), message.clone());
            async move {
                client
                    .post_message(&token, &team_id, &team_channel_id, message)
                    .await
            }
        })
        .await
    }

    fn decrypt(&self, sealed: &str) -> anyhow::Result<String> {
        self.secrets
            .decrypt(sealed)
            .context("reading the stored Microsoft tokens")
    }
}
