//! Microsoft Teams integrations (docs/NOTIFICATIONS.md "Microsoft Teams through Microsoft
//! Graph"): `teams_sign_ins` (a sign-in in progress) and `teams_integrations` (its tokens, then
//! the team and channel picked, which became a notification channel of type `teams`).
//!
//! [`TeamsStore`] is a trait beside [`crate::ChannelStore`], reached through
//! [`crate::MetadataStore::teams`]; the macro below stamps its SQL onto both backends. Tokens
//! and the PKCE verifier arrive encrypted: the store never sees them in clear.

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use crate::channels::ChannelCreation;
use crate::StoreError;

/// A sign-in to start: a new integration, waiting for its code.
#[derive(Debug, Clone, Copy)]
pub struct NewSignIn<'a> {
    pub customer_id: i64,
    /// Random, unique: the authorisation URL's `state`.
    pub state: &'a str,
    /// The PKCE verifier, encrypted.
    pub verifier: &'a str,
    pub redirect_uri: &'a str,
    pub expires_at: DateTime<Utc>,
    pub now: DateTime<Utc>,
}

/// A sign-in taken by its callback.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignIn {
    pub integration_id: i64,
    /// Encrypted.
    pub verifier: String,
    pub redirect_uri: String,
}

/// Tokens of a signed-in integration (both encrypted).
#[derive(Debug, Clone, Copy)]
pub struct TeamsTokens<'a> {
    pub access_token: &'a str,
    pub refresh_token: &'a str,
    pub expires_at: DateTime<Utc>,
}

/// An integration as stored (tokens encrypted).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamsIntegration {
    pub id: i64,
    pub customer_id: i64,
    /// The notification channel it became, once configured.
    pub channel_id: Option<i64>,
    pub access_token: Option<String>,
    pub refresh_token: Option<String>,
    pub expires_at: Option<DateTime<Utc>>,
    pub team_id: Option<String>,
    pub team_channel_id: Option<String>,
    pub team_name: Option<String>,
    pub team_channel_name: Option<String>,
    pub configured_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
}

/// The team and channel picked for an integration, and the notification channel it becomes
/// (or, configured before, is renamed to).
#[derive(Debug, Clone, Copy)]
pub struct TeamsSelection<'a> {
    pub customer_id: i64,
    pub integration_id: i64,
    pub team_id: &'a str,
    pub team_channel_id: &'a str,
    pub team_name: &'a str,
    pub team_channel_name: &'a str,
    /// The notification channel's name, target (the Graph path, encrypted) and hint.
    pub channel_name: &'a str,
    pub target: &'a str,
    pub target_hint: &'a str,
    pub now: DateTime<Utc>,
    /// The tenant's channels at most.
    pub max_channels: i64,
}

/// How a [`TeamsStore::configure`] ended.
#[derive(Debug, Clone, PartialEq)]
pub enum TeamsConfiguration {
    Configured(TeamsIntegration),
    /// Not one of the tenant's integrations, or not signed in.
    NotFound,
    /// Creating or renaming the channel failed: its name is taken, or the tenant has its
    /// channels' limit.
    Refused(ChannelCreation),
}

/// The tenant's Teams integrations. Every call takes the customer id and only ever sees that
/// customer's rows, but [`TeamsStore::save_tokens`] and [`TeamsStore::integration_of_channel`]
/// as the delivery job uses them (by the ids a due delivery carries).
#[async_trait]
pub trait TeamsStore: Send + Sync {
    /// Starts a sign-in: a new integration and its sign-in row, in one transaction; answers the
    /// integration's id. The tenant's sign-ins that expired are deleted, and so are its
    /// integrations never configured that have neither tokens nor a sign-in left, or were
    /// started more than a day ago.
    async fn start_sign_in(&self, new: NewSignIn<'_>) -> Result<i64, StoreError>;
    /// Takes (deletes) the tenant's sign-in with `state` if it has not expired at `now`.
    async fn take_sign_in(
        &self,
        customer_id: i64,
        state: &str,
        now: DateTime<Utc>,
    ) -> Result<Option<SignIn>, StoreError>;
    /// Stores new tokens of one of the tenant's integrations; `false` when not the tenant's.
    async fn save_tokens(
        &self,
        customer_id: i64,
        integration_id: i64,
        tokens: TeamsTokens<'_>,
    ) -> Result<bool, StoreError>;
    /// One of the tenant's integrations.
    async fn integration(
        &self,
        customer_id: i64,
        integration_id: i64,
    ) -> Result<Option<TeamsIntegration>, StoreError>;
    /// The integration a notification channel of type `teams` came from.
    async fn integration_of_channel(
        &self,
        customer_id: i64,
        channel_id: i64,
    ) -> Result<Option<TeamsIntegration>, StoreError>;
    /// Picks the team and channel of a signed-in integration: creates its notification
    /// channel (within the tenant's limit, under a unique name) or, configured before, renames
    /// it; all in one transaction.
    async fn configure(
        &self,
        selection: TeamsSelection<'_>,
    ) -> Result<TeamsConfiguration, StoreError>;
    /// The tenant's configured integrations, oldest first.
    async fn configured(&self, customer_id: i64) -> Result<Vec<TeamsIntegration>, StoreError>;
    /// Deletes one of the tenant's integrations and its notification channel (with the
    /// channel's pending deliveries, as [`crate::ChannelStore::delete_channel`]), in one
    /// transaction; `false` when not the tenant's.
    async fn delete_integration(
        &self,
        customer_id: i64,
        integration_id: i64,
    ) -> Result<bool, StoreError>;
}

pub(crate) const INTEGRATION_COLUMNS: &str = "id, customer_id, channel_id, access_token, \
     refresh_token, expires_at, team_id, team_channel_id, team_name, team_channel_name, \
     configured_at, created_at";

#[derive(sqlx::FromRow)]
pub(crate) struct IntegrationRow {
    id: i64,
    customer_id: i64,
    channel_id: Option<i64>,
    access_token: Option<String>,
    refresh_token: Option<String>,
    expires_at: Option<DateTime<Utc>>,
    team_id: Option<String>,
    team_channel_id: Option<String>,
    team_name: Option<String>,
    team_channel_name: Option<String>,
    configured_at: Option<DateTime<Utc>>,
    created_at: DateTime<Utc>,
}

impl From<IntegrationRow> for TeamsIntegration {
    fn from(row: IntegrationRow) -> Self {
        TeamsIntegration {
            id: row.id,
            customer_id: row.customer_id,
            channel_id: row.channel_id,
            access_token: row.access_token,
            refresh_token: row.refresh_token,
            expires_at: row.expires_at,
            team_id: row.team_id,
            team_channel_id: row.team_channel_id,
            team_name: row.team_name,
            team_channel_name: row.team_channel_name,
            configured_at: row.configured_at,
            created_at: row.created_at,
        }
    }
}

macro_rules! impl_teams_store {
    ($store:ty) => {
        #[async_trait::async_trait]
        impl crate::teams::TeamsStore for $store {
            #[tracing::instrument(skip_all, fields(customer_id = new.customer_id))]
            async fn start_sign_in(
                &self,
                new: crate::teams::NewSignIn<'_>,
            ) -> Result<i64, crate::StoreError> {
                let mut tx = self.begin_write().await?;
                sqlx::query("DELETE FROM teams_sign_ins WHERE customer_id = $1 AND expires_at <= $2")
                    .bind(new.customer_id)
                    .bind(new.now)
                    .execute(&mut *tx)
                    .await?;
                sqlx::query(
                    "DELETE FROM teams_integrations WHERE customer_id = $1 AND channel_id IS NULL \
                     AND ((access_token IS NULL AND NOT EXISTS \
                           (SELECT 1 FROM teams_sign_ins s WHERE s.integration_id = teams_integrations.id)) \
                          OR created_at < $2)",
                )
                .bind(new.customer_id)
                .bind(new.now - chrono::TimeDelta::days(1))
                .execute(&mut *tx)
                .await?;
                let (id,): (i64,) = sqlx::query_as(
                    "INSERT INTO teams_integrations (customer_id, created_at) VALUES ($1, $2) RETURNING id",
                )
                .bind(new.customer_id)
                .bind(new.now)
                .fetch_one(&mut *tx)
                .await?;
                sqlx::query(
                    "INSERT INTO teams_sign_ins \
                     (state, integration_id, customer_id, verifier, redirect_uri, expires_at) \
                     VALUES ($1, $2, $3, $4, $5, $6)",
                )
                .bind(new.state)
                .bind(id)
                .bind(new.customer_id)
                .bind(new.verifier)
                .bind(new.redirect_uri)
                .bind(new.expires_at)
                .execute(&mut *tx)
                .await?;
                tx.commit().await?;
                Ok(id)
            }

            #[tracing::instrument(skip_all, fields(customer_id))]
            async fn take_sign_in(
                &self,
                customer_id: i64,
                state: &str,
                now: chrono::DateTime<chrono::Utc>,
            ) -> Result<Option<crate::teams::SignIn>, crate::StoreError> {
                let taken: Option<(i64, String, String)> = sqlx::query_as(
                    "DELETE FROM teams_sign_ins WHERE customer_id = $1 AND state = $2 AND expires_at > $3 \
                     RETURNING integration_id, verifier, redirect_uri",
                )
                .bind(customer_id)
                .bind(state)
                .bind(now)
                .fetch_optional(&self.pool)
                .await?;
                Ok(taken.map(|(integration_id, verifier, redirect_uri)| crate::teams::SignIn {
                    integration_id,
                    verifier,
                    redirect_uri,
                }))
            }

            #[tracing::instrument(skip_all, fields(customer_id, integration_id))]
            async fn save_tokens(
                &self,
                customer_id: i64,
                integration_id: i64,
                tokens: crate::teams::TeamsTokens<'_>,
            ) -> Result<bool, crate::StoreError> {
                let saved = sqlx::query(
                    "UPDATE teams_integrations SET access_token = $1, refresh_token = $2, expires_at = $3 \
                     WHERE customer_id = $4 AND id = $5",
                )
                .bind(tokens.access_token)
                .bind(tokens.refresh_token)
                .bind(tokens.expires_at)
                .bind(customer_id)
                .bind(integration_id)
                .execute(&self.pool)
                .await?;
                Ok(saved.rows_affected() > 0)
            }

            #[tracing::instrument(skip_all, fields(customer_id, integration_id))]
            async fn integration(
                &self,
                customer_id: i64,
                integration_id: i64,
            ) -> Result<Option<crate::teams::TeamsIntegration>, crate::StoreError> {
                use crate::teams::{IntegrationRow, INTEGRATION_COLUMNS};
                let row: Option<IntegrationRow> = sqlx::query_as(&format!(
                    "SELECT {INTEGRATION_COLUMNS} FROM teams_integrations WHERE customer_id = $1 AND id = $2"
                ))
                .bind(customer_id)
                .bind(integration_id)
                .fetch_optional(&self.pool)
                .await?;
                Ok(row.map(Into::into))
            }

            #[tracing::instrument(skip_all, fields(customer_id, channel_id))]
            async fn integration_of_channel(
                &self,
                customer_id: i64,
                channel_id: i64,
            ) -> Result<Option<crate::teams::TeamsIntegration>, crate::StoreError> {
                use crate::teams::{IntegrationRow, INTEGRATION_COLUMNS};
                let row: Option<IntegrationRow> = sqlx::query_as(&format!(
                    "SELECT {INTEGRATION_COLUMNS} FROM teams_integrations \
                     WHERE customer_id = $1 AND channel_id = $2"
                ))
                .bind(customer_id)
                .bind(channel_id)
                .fetch_optional(&self.pool)
                .await?;
                Ok(row.map(Into::into))
            }

            #[tracing::instrument(skip_all, fields(customer_id = selection.customer_id, integration_id = selection.integration_id))]
            async fn configure(
                &self,
                selection: crate::teams::TeamsSelection<'_>,
            ) -> Result<crate::teams::TeamsConfiguration, crate::StoreError> {
                use crate::channels::ChannelCreation;
                use crate::teams::TeamsConfiguration;
                let mut tx = self.begin_write().await?;
                let found: Option<(Option<i64>,)> = sqlx::query_as(
                    "SELECT channel_id FROM teams_integrations \
                     WHERE customer_id = $1 AND id = $2 AND access_token IS NOT NULL",
                )
                .bind(selection.customer_id)
                .bind(selection.integration_id)
                .fetch_optional(&mut *tx)
                .await?;
                let Some((existing,)) = found else {
                    return Ok(TeamsConfiguration::NotFound);
                };
                let channel_id = match existing {
                    Some(channel_id) => {
                        let renamed = sqlx::query(
                            "UPDATE notification_channels SET name = $1, target = $2, target_hint = $3 \
                             WHERE customer_id = $4 AND id = $5",
                        )
                        .bind(selection.channel_name)
                        .bind(selection.target)
                        .bind(selection.target_hint)
                        .bind(selection.customer_id)
                        .bind(channel_id)
                        .execute(&mut *tx)
                        .await;
                        match renamed {
                            Ok(_) => channel_id,
                            Err(sqlx::Error::Database(db)) if db.is_unique_violation() => {
                                return Ok(TeamsConfiguration::Refused(ChannelCreation::NameTaken));
                            }
                            Err(err) => return Err(err.into()),
                        }
                    }
                    None => {
                        let created = crate::channels::insert_channel!(
                            &mut *tx,
                            crate::channels::NewChannel {
                                customer_id: selection.customer_id,
                                kind: costscope_core::notify::ChannelKind::Teams,
                                name: selection.channel_name,
                                target: selection.target,
                                target_hint: selection.target_hint,
                                secret: None,
                                now: selection.now,
                                max_channels: selection.max_channels,
                            }
                        )?;
                        match created {
                            ChannelCreation::Created(channel) => channel.id,
                            refused => return Ok(TeamsConfiguration::Refused(refused)),
                        }
                    }
                };
                use crate::teams::{IntegrationRow, INTEGRATION_COLUMNS};
                let row: IntegrationRow = sqlx::query_as(&format!(
                    "UPDATE teams_integrations SET channel_id = $1, team_id = $2, team_channel_id = $3, \
                     team_name = $4, team_channel_name = $5, configured_at = $6 \
                     WHERE customer_id = $7 AND id = $8 RETURNING {INTEGRATION_COLUMNS}"
                ))
                .bind(channel_id)
                .bind(selection.team_id)
                .bind(selection.team_channel_id)
                .bind(selection.team_name)
                .bind(selection.team_channel_name)
                .bind(selection.now)
                .bind(selection.customer_id)
                .bind(selection.integration_id)
                .fetch_one(&mut *tx)
                .await?;
                tx.commit().await?;
                Ok(TeamsConfiguration::Configured(row.into()))
            }

            #[tracing::instrument(skip_all, fields(customer_id))]
            async fn configured(
                &self,
                customer_id: i64,
            ) -> Result<Vec<crate::teams::TeamsIntegration>, crate::StoreError> {
                use crate::teams::{IntegrationRow, INTEGRATION_COLUMNS};
                let rows: Vec<IntegrationRow> = sqlx::query_as(&format!(
                    "SELECT {INTEGRATION_COLUMNS} FROM teams_integrations \
                     WHERE customer_id = $1 AND channel_id IS NOT NULL ORDER BY configured_at, id"
                ))
                .bind(customer_id)
                .fetch_all(&self.pool)
                .await?;
                Ok(rows.into_iter().map(Into::into).collect())
            }

            #[tracing::instrument(skip_all, fields(customer_id, integration_id))]
            async fn delete_integration(
                &self,
                customer_id: i64,
                integration_id: i64,
            ) -> Result<bool, crate::StoreError> {
                let mut tx = self.begin_write().await?;
                let found: Option<(Option<i64>,)> = sqlx::query_as(
                    "SELECT channel_id FROM teams_integrations WHERE customer_id = $1 AND id = $2",
                )
                .bind(customer_id)
                .bind(integration_id)
                .fetch_optional(&mut *tx)
                .await?;
                let Some((channel_id,)) = found else {
                    return Ok(false);
                };
                if let Some(channel_id) = channel_id {
                    crate::channels::delete_channel_rows!(tx, customer_id, channel_id);
                }
                sqlx::query("DELETE FROM teams_integrations WHERE customer_id = $1 AND id = $2")
                    .bind(customer_id)
                    .bind(integration_id)
                    .execute(&mut *tx)
                    .await?;
                tx.commit().await?;
                Ok(true)
            }
        }
    };
}

pub(crate) use impl_teams_store;
