//! The SQL both backends share. The queries are written once (`$n` placeholders work in
//! SQLite and PostgreSQL alike); the macro stamps the trait impl onto each backend's store,
//! because sqlx's executors are concrete per database and a generic impl would drown the
//! queries in trait bounds.

macro_rules! impl_metadata_store {
    // `$skip_locked`: appended to the claim's row lookup (PostgreSQL's `FOR UPDATE SKIP
    // LOCKED`; SQLite's single writer makes the one UPDATE atomic without it).
    ($store:ty, $migrator:expr, $skip_locked:literal) => {
        #[async_trait::async_trait]
        impl crate::MetadataStore for $store {
            #[tracing::instrument(skip_all)]
            async fn migrate(&self) -> Result<(), crate::StoreError> {
                $migrator.run(&self.pool).await?;
                Ok(())
            }

            async fn ping(&self) -> Result<(), crate::StoreError> {
                sqlx::query("SELECT 1").execute(&self.pool).await?;
                Ok(())
            }

            async fn close(&self) {
                self.pool.close().await;
            }

            fn inventory(&self) -> &dyn crate::inventory::InventoryStore {
                self
            }

            fn channels(&self) -> &dyn crate::channels::ChannelStore {
                self
            }

            fn teams(&self) -> &dyn crate::teams::TeamsStore {
                self
            }

            fn anomalies(&self) -> &dyn crate::anomalies::AnomalyStore {
                self
            }

            fn digests(&self) -> &dyn crate::digests::DigestStore {
                self
            }

            fn leases(&self) -> &dyn crate::leases::LeaseStore {
                self
            }

            fn rate_limits(&self) -> &dyn crate::rate_limits::RateLimitStore {
                self
            }

            #[tracing::instrument(skip_all)]
            async fn create_customer_with_owner(
                &self,
                new: crate::NewCustomer<'_>,
            ) -> Result<(costscope_core::Customer, costscope_core::User), crate::StoreError> {
                use crate::rows::{CustomerRow, UserRow, CUSTOMER_COLUMNS, USER_COLUMNS};
                let mut tx = self.begin_write().await?;
                let customer: CustomerRow = sqlx::query_as(&format!(
                    "INSERT INTO customers (name, tier, trial_end, is_demo, created_at) \
                     VALUES ($1, 0, $2, $3, $4) RETURNING {CUSTOMER_COLUMNS}"
                ))
                .bind(new.name)
                .bind(new.trial_end)
                .bind(new.is_demo)
                .bind(new.now)
                .fetch_one(&mut *tx)
                .await?;
                let customer = costscope_core::Customer::from(customer);
                let owner: UserRow = sqlx::query_as(&format!(
                    "INSERT INTO users (customer_id, name, email, password_hash, role, status, created_at) \
                     VALUES ($1, $2, $3, $4, 'owner', 'active', $5) RETURNING {USER_COLUMNS}"
                ))
                .bind(customer.id)
                .bind(new.owner_name)
                .bind(new.owner_email.as_str())
                .bind(new.owner_password_hash)
                .bind(new.now)
                .fetch_one(&mut *tx)
                .await?;
                tx.commit().await?;
                Ok((customer, owner.try_into()?))
            }

            #[tracing::instrument(skip_all, fields(customer_id))]
            async fn get_customer(
                &self,
                customer_id: i64,
            ) -> Result<Option<costscope_core::Customer>, crate::StoreError> {
                use crate::rows::{CustomerRow, CUSTOMER_COLUMNS};
                let row: Option<CustomerRow> =
                    sqlx::query_as(&format!("SELECT {CUSTOMER_COLUMNS} FROM customers WHERE id = $1"))
                        .bind(customer_id)
                        .fetch_optional(&self.pool)
                        .await?;
                Ok(row.map(Into::into))
            }

            #[tracing::instrument(skip_all, fields(customer_id))]
            async fn set_trial_end(
                &self,
                customer_id: i64,
                trial_end: chrono::DateTime<chrono::Utc>,
            ) -> Result<(), crate::StoreError> {
                sqlx::query("UPDATE customers SET trial_end = $1 WHERE id = $2")
                    .bind(trial_end)
                    .bind(customer_id)
                    .execute(&self.pool)
                    .await?;
                Ok(())
            }

            #[tracing::instrument(skip_all, fields(customer_id))]
            async fn display_currency(
                &self,
                customer_id: i64,
            ) -> Result<Option<String>, crate::StoreError> {
                let row: Option<(Option<String>,)> =
                    sqlx::query_as("SELECT display_currency FROM customers WHERE id = $1")
                        .bind(customer_id)
                        .fetch_optional(&self.pool)
                        .await?;
                Ok(row.and_then(|(currency,)| currency))
            }

            #[tracing::instrument(skip_all, fields(customer_id))]
            async fn set_display_currency(
                &self,
                customer_id: i64,
                currency: Option<&str>,
            ) -> Result<(), crate::StoreError> {
                sqlx::query("UPDATE customers SET display_currency = $1 WHERE id = $2")
                    .bind(currency)
                    .bind(customer_id)
                    .execute(&self.pool)
                    .await?;
                Ok(())
            }

            #[tracing::instrument(skip_all)]
            async fn find_login(
                &self,
                email: &costscope_core::Email,
            ) -> Result<Option<crate::LoginRecord>, crate::StoreError> {
                use crate::rows::{LoginRow, USER_COLUMNS};
                let row: Option<LoginRow> = sqlx::query_as(&format!(
                    "SELECT {USER_COLUMNS}, password_hash FROM users WHERE lower(email) = lower($1)"
                ))
                .bind(email.as_str())
                .fetch_optional(&self.pool)
                .await?;
                row.map(TryInto::try_into).transpose()
            }

            #[tracing::instrument(skip_all, fields(customer_id, user_id))]
            async fn get_user(
                &self,
                customer_id: i64,
                user_id: i64,
            ) -> Result<Option<costscope_core::User>, crate::StoreError> {
                use crate::rows::{UserRow, USER_COLUMNS};
                let row: Option<UserRow> = sqlx::query_as(&format!(
                    "SELECT {USER_COLUMNS} FROM users WHERE customer_id = $1 AND id = $2"
                ))
                .bind(customer_id)
                .bind(user_id)
                .fetch_optional(&self.pool)
                .await?;
                row.map(TryInto::try_into).transpose()
            }

            #[tracing::instrument(skip_all, fields(customer_id))]
            async fn get_owner(
                &self,
                customer_id: i64,
            ) -> Result<Option<costscope_core::User>, crate::StoreError> {
                use crate::rows::{UserRow, USER_COLUMNS};
                let row: Option<UserRow> = sqlx::query_as(&format!(
                    "SELECT {USER_COLUMNS} FROM users WHERE customer_id = $1 AND role = 'owner' \
                     ORDER BY id LIMIT 1"
                ))
                .bind(customer_id)
                .fetch_optional(&self.pool)
                .await?;
                row.map(TryInto::try_into).transpose()
            }

            #[tracing::instrument(skip_all, fields(customer_id))]
            async fn list_users(
                &self,
                customer_id: i64,
            ) -> Result<Vec<costscope_core::User>, crate::StoreError> {
                use crate::rows::{UserRow, USER_COLUMNS};
                let rows: Vec<UserRow> = sqlx::query_as(&format!(
                    "SELECT {USER_COLUMNS} FROM users WHERE customer_id = $1 \
                     ORDER BY CASE WHEN role = 'owner' THEN 0 ELSE 1 END, lower(name), id"
                ))
                .bind(customer_id)
                .fetch_all(&self.pool)
                .await?;
                crate::rows::users(rows)
            }

            #[tracing::instrument(skip_all, fields(customer_id = invite.customer_id))]
            async fn invite_user(
                &self,
                invite: crate::NewInvitation<'_>,
            ) -> Result<costscope_core::User, crate::StoreError> {
                use crate::rows::{UserRow, USER_COLUMNS};
                let mut tx = self.begin_write().await?;
                let user: UserRow = sqlx::query_as(&format!(
                    "INSERT INTO users (customer_id, name, email, password_hash, role, status, created_at) \
                     VALUES ($1, '', $2, NULL, $3, 'pending', $4) RETURNING {USER_COLUMNS}"
                ))
                .bind(invite.customer_id)
                .bind(invite.email.as_str())
                .bind(invite.role.as_str())
                .bind(invite.now)
                .fetch_one(&mut *tx)
                .await?;
                let user = costscope_core::User::try_from(user)?;
                sqlx::query(
                    "INSERT INTO invitations (token_hash, user_id, invited_by, expires_at) \
                     SELECT $1, $2, id, $3 FROM users WHERE id = $4 AND customer_id = $5",
                )
                .bind(invite.token_hash)
                .bind(user.id)
                .bind(invite.expires_at)
                .bind(invite.invited_by)
                .bind(invite.customer_id)
                .execute(&mut *tx)
                .await?;
                tx.commit().await?;
                Ok(user)
            }

            #[tracing::instrument(skip_all, fields(customer_id, user_id))]
            async fn update_user(
                &self,
                customer_id: i64,
                user_id: i64,
                changes: crate::UserChanges<'_>,
            ) -> Result<Option<costscope_core::User>, crate::StoreError> {
                use crate::rows::{UserRow, USER_COLUMNS};
                let row: Option<UserRow> = sqlx::query_as(&format!(
                    "UPDATE users SET name = COALESCE($1, name), role = COALESCE($2, role) \
                     WHERE customer_id = $3 AND id = $4 RETURNING {USER_COLUMNS}"
                ))
                .bind(changes.name)
                .bind(changes.role.map(costscope_core::Role::as_str))
                .bind(customer_id)
                .bind(user_id)
                .fetch_optional(&self.pool)
                .await?;
                row.map(TryInto::try_into).transpose()
            }

            #[tracing::instrument(skip_all, fields(customer_id, user_id))]
            async fn delete_user(&self, customer_id: i64, user_id: i64) -> Result<bool, crate::StoreError> {
                // Sessions and invitations go with the user (ON DELETE CASCADE).
                let deleted = sqlx::query("DELETE FROM users WHERE customer_id = $1 AND id = $2")
                    .bind(customer_id)
                    .bind(user_id)
                    .execute(&self.pool)
                    .await?;
                Ok(deleted.rows_affected() > 0)
            }

            #[tracing::instrument(skip_all, fields(user_id))]
            async fn insert_refresh_token(
                &self,
                user_id: i64,
                token_hash: &str,
                expires_at: chrono::DateTime<chrono::Utc>,
            ) -> Result<(), crate::StoreError> {
                // A sign-in starts a family named after its first token.
                sqlx::query("INSERT INTO refresh_tokens (token_hash, family_id, user_id, expires_at) VALUES ($1, $1, $2, $3)")
                    .bind(token_hash)
                    .bind(user_id)
                    .bind(expires_at)
                    .execute(&self.pool)
                    .await?;
                Ok(())
            }

            #[tracing::instrument(skip_all)]
            async fn rotate_refresh_token(
                &self,
                old_hash: &str,
                new_hash: &str,
                new_expires_at: chrono::DateTime<chrono::Utc>,
                now: chrono::DateTime<chrono::Utc>,
            ) -> Result<Option<costscope_core::User>, crate::StoreError> {
                use crate::rows::{UserRow, USER_COLUMNS};
                let mut tx = self.begin_write().await?;
                let live: Option<(i64, String)> = sqlx::query_as(
                    "UPDATE refresh_tokens SET revoked_at = $1 \
                     WHERE token_hash = $2 AND revoked_at IS NULL AND expires_at > $1 \
                     RETURNING user_id, COALESCE(family_id, token_hash)",
                )
                .bind(now)
                .bind(old_hash)
                .fetch_optional(&mut *tx)
                .await?;
                let Some((user_id, family_id)) = live else {
                    // A token that was already rotated or revoked is being replayed: whoever
                    // holds it (a thief, or the user after the thief) must not keep the
                    // session, so the whole family goes, its live successor included.
                    let replayed: Option<String> = sqlx::query_scalar(
                        "SELECT COALESCE(family_id, token_hash) FROM refresh_tokens \
                         WHERE token_hash = $1 AND revoked_at IS NOT NULL",
                    )
                    .bind(old_hash)
                    .fetch_optional(&mut *tx)
                    .await?;
                    if let Some(family_id) = replayed {
                        sqlx::query(
                            "UPDATE refresh_tokens SET revoked_at = $1 \
                             WHERE family_id = $2 AND revoked_at IS NULL",
                        )
                        .bind(now)
                        .bind(&family_id)
                        .execute(&mut *tx)
                        .await?;
                        tx.commit().await?;
                        tracing::warn!("a rotated refresh token was replayed: its session family is revoked");
                    }
                    return Ok(None);
                };
                sqlx::query("INSERT INTO refresh_tokens (token_hash, family_id, user_id, expires_at) VALUES ($1, $2, $3, $4)")
                    .bind(new_hash)
                    .bind(family_id)
                    .bind(user_id)
                    .bind(new_expires_at)
                    .execute(&mut *tx)
                    .await?;
                let user: UserRow = sqlx::query_as(&format!("SELECT {USER_COLUMNS} FROM users WHERE id = $1"))
                    .bind(user_id)
                    .fetch_one(&mut *tx)
                    .await?;
                tx.commit().await?;
                Ok(Some(user.try_into()?))
            }

            #[tracing::instrument(skip_all)]
            async fn revoke_refresh_token(
                &self,
                token_hash: &str,
                now: chrono::DateTime<chrono::Utc>,
            ) -> Result<(), crate::StoreError> {
                sqlx::query("UPDATE refresh_tokens SET revoked_at = $1 WHERE token_hash = $2 AND revoked_at IS NULL")
                    .bind(now)
                    .bind(token_hash)
                    .execute(&self.pool)
                    .await?;
                Ok(())
            }

            #[tracing::instrument(skip_all)]
            async fn find_invitation(
                &self,
                token_hash: &str,
                now: chrono::DateTime<chrono::Utc>,
            ) -> Result<Option<crate::InvitationDetails>, crate::StoreError> {
                let row: Option<crate::rows::InvitationRow> = sqlx::query_as(
                    "SELECT u.id AS user_id, u.customer_id, u.email, c.name AS customer_name, \
                            COALESCE(inviter.name, c.name) AS invited_by \
                     FROM invitations i \
                     JOIN users u ON u.id = i.user_id \
                     JOIN customers c ON c.id = u.customer_id \
                     LEFT JOIN users inviter ON inviter.id = i.invited_by \
                     WHERE i.token_hash = $1 AND i.used_at IS NULL AND i.expires_at > $2",
                )
                .bind(token_hash)
                .bind(now)
                .fetch_optional(&self.pool)
                .await?;
                Ok(row.map(Into::into))
            }

            #[tracing::instrument(skip_all)]
            async fn accept_invitation(
                &self,
                token_hash: &str,
                name: &str,
                password_hash: &str,
                now: chrono::DateTime<chrono::Utc>,
            ) -> Result<Option<costscope_core::User>, crate::StoreError> {
                use crate::rows::{UserRow, USER_COLUMNS};
                let mut tx = self.begin_write().await?;
                let user_id: Option<i64> = sqlx::query_scalar(
                    "UPDATE invitations SET used_at = $1 \
                     WHERE token_hash = $2 AND used_at IS NULL AND expires_at > $1 RETURNING user_id",
                )
                .bind(now)
                .bind(token_hash)
                .fetch_optional(&mut *tx)
                .await?;
                let Some(user_id) = user_id else {
                    return Ok(None);
                };
                let user: UserRow = sqlx::query_as(&format!(
                    "UPDATE users SET name = $1, password_hash = $2, status = 'active' \
                     WHERE id = $3 RETURNING {USER_COLUMNS}"
                ))
                .bind(name)
                .bind(password_hash)
                .bind(user_id)
                .fetch_one(&mut *tx)
                .await?;
                tx.commit().await?;
                Ok(Some(user.try_into()?))
            }

            #[tracing::instrument(skip_all, fields(customer_id))]
            async fn list_cloud_accounts(
                &self,
                customer_id: i64,
            ) -> Result<Vec<costscope_core::CloudAccount>, crate::StoreError> {
                use crate::rows::{CloudAccountRow, CLOUD_ACCOUNT_COLUMNS};
                let rows: Vec<CloudAccountRow> = sqlx::query_as(&format!(
                    "SELECT {CLOUD_ACCOUNT_COLUMNS} FROM cloud_accounts WHERE customer_id = $1 \
                     ORDER BY provider, account_name, id"
                ))
                .bind(customer_id)
                .fetch_all(&self.pool)
                .await?;
                Ok(rows.into_iter().map(Into::into).collect())
            }

            #[tracing::instrument(skip_all, fields(customer_id))]
            async fn add_cloud_account(
                &self,
                customer_id: i64,
                account: crate::NewCloudAccount<'_>,
            ) -> Result<costscope_core::CloudAccount, crate::StoreError> {
                use crate::rows::{CloudAccountRow, CLOUD_ACCOUNT_COLUMNS};
                let row: CloudAccountRow = sqlx::query_as(&format!(
                    "INSERT INTO cloud_accounts (customer_id, provider, account_id, account_name, created_at) \
                     VALUES ($1, $2, $3, $4, $5) RETURNING {CLOUD_ACCOUNT_COLUMNS}"
                ))
                .bind(customer_id)
                .bind(account.provider)
                .bind(account.account_id)
                .bind(account.account_name)
                .bind(account.now)
                .fetch_one(&self.pool)
                .await?;
                Ok(row.into())
            }

            #[tracing::instrument(skip_all, fields(customer_id = new.customer_id))]
            async fn create_connection(
                &self,
                new: crate::NewCloudConnection<'_>,
            ) -> Result<crate::CloudConnection, crate::StoreError> {
                use crate::connections::{connection_columns, settings_text, ConnectionRow};
                // A member account's parent must be one of the same customer's connections.
                let row: Option<ConnectionRow> = sqlx::query_as(&format!(
                    "INSERT INTO cloud_accounts \
                     (customer_id, provider, account_id, account_name, organization_id, parent_id, \
                      settings, secret, created_by_user_id, created_at) \
                     SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10 \
                     WHERE $6 IS NULL OR EXISTS (SELECT 1 FROM cloud_accounts p \
                         WHERE p.id = $6 AND p.customer_id = $1) \
                     RETURNING {}",
                    connection_columns("")
                ))
                .bind(new.customer_id)
                .bind(new.provider)
                .bind(new.account_id)
                .bind(new.account_name)
                .bind(new.organization_id)
                .bind(new.parent_id)
                .bind(settings_text(new.settings))
                .bind(new.encrypted_secret)
                .bind(new.created_by_user_id)
                .bind(new.now)
                .fetch_optional(&self.pool)
                .await?;
                match row {
                    Some(row) => row.try_into(),
                    None => Err(crate::StoreError::Corrupt(format!(
                        "parent connection {} is not one of customer {}'s",
                        new.parent_id.unwrap_or_default(),
                        new.customer_id
                    ))),
                }
            }

            #[tracing::instrument(skip_all, fields(customer_id))]
            async fn list_connections(
                &self,
                customer_id: i64,
            ) -> Result<Vec<crate::CloudConnection>, crate::StoreError> {
                use crate::connections::{connection_columns, ConnectionRow};
                // Each row sorts by its top-level connection (itself, or its parent), the
                // top-level one before its members.
                let rows: Vec<ConnectionRow> = sqlx::query_as(&format!(
                    "SELECT {} FROM cloud_accounts c \
                     LEFT JOIN cloud_accounts p ON p.id = c.parent_id \
                     WHERE c.customer_id = $1 \
                     ORDER BY COALESCE(p.provider, c.provider), \
                              lower(COALESCE(p.account_name, c.account_name)), \
                              COALESCE(p.id, c.id), \
                              CASE WHEN c.parent_id IS NULL THEN 0 ELSE 1 END, \
                              lower(c.account_name), c.id",
                    connection_columns("c.")
                ))
                .bind(customer_id)
                .fetch_all(&self.pool)
                .await?;
                rows.into_iter().map(TryInto::try_into).collect()
            }

            #[tracing::instrument(skip_all, fields(customer_id, id))]
            async fn get_connection(
                &self,
                customer_id: i64,
                id: i64,
            ) -> Result<Option<crate::CloudConnection>, crate::StoreError> {
                use crate::connections::{connection_columns, ConnectionRow};
                let row: Option<ConnectionRow> = sqlx::query_as(&format!(
                    "SELECT {} FROM cloud_accounts WHERE customer_id = $1 AND id = $2",
                    connection_columns("")
                ))
                .bind(customer_id)
                .bind(id)
                .fetch_optional(&self.pool)
                .await?;
                row.map(TryInto::try_into).transpose()
            }

            #[tracing::instrument(skip_all, fields(customer_id))]
            async fn find_connection(
                &self,
                customer_id: i64,
                provider: &str,
                account_id: &str,
            ) -> Result<Option<crate::CloudConnection>, crate::StoreError> {
                use crate::connections::{connection_columns, ConnectionRow};
                let row: Option<ConnectionRow> = sqlx::query_as(&format!(
                    "SELECT {} FROM cloud_accounts \
                     WHERE customer_id = $1 AND provider = $2 AND account_id = $3",
                    connection_columns("")
                ))
                .bind(customer_id)
                .bind(provider)
                .bind(account_id)
                .fetch_optional(&self.pool)
                .await?;
                row.map(TryInto::try_into).transpose()
            }

            #[tracing::instrument(skip_all, fields(customer_id, id))]
            async fn connection_secret(
                &self,
                customer_id: i64,
                id: i64,
            ) -> Result<Option<String>, crate::StoreError> {
                let secret: Option<Option<String>> = sqlx::query_scalar(
                    "SELECT secret FROM cloud_accounts WHERE customer_id = $1 AND id = $2",
                )
                .bind(customer_id)
                .bind(id)
                .fetch_optional(&self.pool)
                .await?;
                Ok(secret.flatten())
            }

            #[tracing::instrument(skip_all, fields(customer_id, id))]
            async fn update_connection_settings(
                &self,
                customer_id: i64,
                id: i64,
                settings: &serde_json::Value,
                encrypted_secret: Option<Option<&str>>,
            ) -> Result<bool, crate::StoreError> {
                use crate::connections::settings_text;
                let updated = match encrypted_secret {
                    Some(secret) => {
                        sqlx::query(
                            "UPDATE cloud_accounts SET settings = $1, secret = $2 \
                             WHERE customer_id = $3 AND id = $4",
                        )
                        .bind(settings_text(settings))
                        .bind(secret)
                        .bind(customer_id)
                        .bind(id)
                        .execute(&self.pool)
                        .await?
                    }
                    None => {
                        sqlx::query(
                            "UPDATE cloud_accounts SET settings = $1 \
                             WHERE customer_id = $2 AND id = $3",
                        )
                        .bind(settings_text(settings))
                        .bind(customer_id)
                        .bind(id)
                        .execute(&self.pool)
                        .await?
                    }
                };
                Ok(updated.rows_affected() > 0)
            }

            #[tracing::instrument(skip_all, fields(customer_id, id))]
            async fn rename_connection(
                &self,
                customer_id: i64,
                id: i64,
                account_name: &str,
                organization_id: Option<&str>,
            ) -> Result<bool, crate::StoreError> {
                let updated = sqlx::query(
                    "UPDATE cloud_accounts SET account_name = $1, organization_id = $2, \
                     parent_id = NULL WHERE customer_id = $3 AND id = $4",
                )
                .bind(account_name)
                .bind(organization_id)
                .bind(customer_id)
                .bind(id)
                .execute(&self.pool)
                .await?;
                Ok(updated.rows_affected() > 0)
            }

            #[tracing::instrument(skip_all, fields(customer_id, count = account_ids.len()))]
            async fn delete_connections(
                &self,
                customer_id: i64,
                provider: &str,
                account_ids: &[String],
            ) -> Result<u64, crate::StoreError> {
                if account_ids.is_empty() {
                    return Ok(0);
                }
                // Member accounts and sync records go with their connection (ON DELETE
                // CASCADE); loads keep their history (ingest_jobs.cloud_account_id SET NULL).
                let sql = format!(
                    "DELETE FROM cloud_accounts WHERE customer_id = $1 AND provider = $2 \
                     AND account_id IN ({})",
                    crate::connections::placeholders(3, account_ids.len())
                );
                let mut query = sqlx::query(&sql).bind(customer_id).bind(provider);
                for account_id in account_ids {
                    query = query.bind(account_id);
                }
                let deleted = query.execute(&self.pool).await?;
                Ok(deleted.rows_affected())
            }

            #[tracing::instrument(skip_all, fields(customer_id, parent_id, members = members.len()))]
            async fn replace_member_accounts(
                &self,
                customer_id: i64,
                parent_id: i64,
                members: &[crate::MemberAccount],
                now: chrono::DateTime<chrono::Utc>,
            ) -> Result<(), crate::StoreError> {
                let mut tx = self.begin_write().await?;
                // A write that changes nothing comes first: it locks the parent (PostgreSQL)
                // or takes the write lock (SQLite), so two replacements run one after the
                // other; and it answers nothing when the parent is not the customer's.
                let parent: Option<(String, Option<String>)> = sqlx::query_as(
                    "UPDATE cloud_accounts SET account_name = account_name \
                     WHERE customer_id = $1 AND id = $2 AND parent_id IS NULL \
                     RETURNING provider, organization_id",
                )
                .bind(customer_id)
                .bind(parent_id)
                .fetch_optional(&mut *tx)
                .await?;
                let Some((provider, organization_id)) = parent else {
                    return Ok(());
                };
                let known: Vec<(i64, String, String, Option<i64>)> = sqlx::query_as(
                    "SELECT id, account_id, account_name, parent_id FROM cloud_accounts \
                     WHERE customer_id = $1 AND provider = $2",
                )
                .bind(customer_id)
                .bind(&provider)
                .fetch_all(&mut *tx)
                .await?;
                let mut seen = std::collections::HashSet::new();
                for member in members {
                    if !seen.insert(member.account_id.as_str()) {
                        continue;
                    }
                    match known.iter().find(|(_, account_id, _, _)| *account_id == member.account_id) {
                        // Listed under this organisation: renamed when its name changed.
                        Some((id, _, name, Some(parent))) if *parent == parent_id => {
                            if *name != member.account_name {
                                sqlx::query("UPDATE cloud_accounts SET account_name = $1 WHERE id = $2")
                                    .bind(&member.account_name)
                                    .bind(id)
                                    .execute(&mut *tx)
                                    .await?;
                            }
                        }
                        // Connected on its own (or the organisation itself, or listed under
                        // another organisation): left as it is.
                        Some(_) => {}
                        None => {
                            sqlx::query(
                                "INSERT INTO cloud_accounts \
                                 (customer_id, provider, account_id, account_name, organization_id, \
                                  parent_id, created_at) \
                                 VALUES ($1, $2, $3, $4, $5, $6, $7)",
                            )
                            .bind(customer_id)
                            .bind(&provider)
                            .bind(&member.account_id)
                            .bind(&member.account_name)
                            .bind(&organization_id)
                            .bind(parent_id)
                            .bind(now)
                            .execute(&mut *tx)
                            .await?;
                        }
                    }
                }
                for (id, account_id, _, parent) in &known {
                    let listed = members.iter().any(|member| member.account_id == *account_id);
                    if *parent == Some(parent_id) && !listed {
                        sqlx::query("DELETE FROM cloud_accounts WHERE id = $1")
                            .bind(id)
                            .execute(&mut *tx)
                            .await?;
                    }
                }
                tx.commit().await?;
                Ok(())
            }

            #[tracing::instrument(skip_all, fields(customer_id, id))]
            async fn start_registration_check(
                &self,
                customer_id: i64,
                id: i64,
                now: chrono::DateTime<chrono::Utc>,
                stale_before: chrono::DateTime<chrono::Utc>,
            ) -> Result<bool, crate::StoreError> {
                let started = sqlx::query(
                    "UPDATE cloud_accounts SET registration_state = $1, registration_details = NULL, \
                     registration_started_at = $2, registration_finished_at = NULL \
                     WHERE customer_id = $3 AND id = $4 \
                     AND (registration_state IS NULL OR registration_state <> $1 \
                          OR registration_started_at < $5)",
                )
                .bind(crate::REGISTRATION_RUNNING)
                .bind(now)
                .bind(customer_id)
                .bind(id)
                .bind(stale_before)
                .execute(&self.pool)
                .await?;
                Ok(started.rows_affected() > 0)
            }

            #[tracing::instrument(skip_all, fields(id, state))]
            async fn finish_registration_check(
                &self,
                id: i64,
                state: i32,
                details: &str,
                now: chrono::DateTime<chrono::Utc>,
            ) -> Result<(), crate::StoreError> {
                sqlx::query(
                    "UPDATE cloud_accounts SET registration_state = $1, registration_details = $2, \
                     registration_finished_at = $3 WHERE id = $4 AND registration_state = $5",
                )
                .bind(state)
                .bind(details)
                .bind(now)
                .bind(id)
                .bind(crate::REGISTRATION_RUNNING)
                .execute(&self.pool)
                .await?;
                Ok(())
            }

            #[tracing::instrument(skip_all, fields(customer_id, id))]
            async fn request_sync(
                &self,
                customer_id: i64,
                id: i64,
                now: chrono::DateTime<chrono::Utc>,
            ) -> Result<bool, crate::StoreError> {
                // A member account syncs with its organisation: the request goes to it.
                let requested = sqlx::query(
                    "UPDATE cloud_accounts SET sync_requested_at = $1 \
                     WHERE customer_id = $2 AND id = (SELECT COALESCE(m.parent_id, m.id) \
                         FROM cloud_accounts m WHERE m.customer_id = $2 AND m.id = $3)",
                )
                .bind(now)
                .bind(customer_id)
                .bind(id)
                .execute(&self.pool)
                .await?;
                Ok(requested.rows_affected() > 0)
            }

            #[tracing::instrument(skip_all, fields(limit))]
            async fn claim_due_syncs(
                &self,
                now: chrono::DateTime<chrono::Utc>,
                due_before: chrono::DateTime<chrono::Utc>,
                stale_before: chrono::DateTime<chrono::Utc>,
                limit: u32,
            ) -> Result<Vec<crate::CloudConnection>, crate::StoreError> {
                use crate::connections::{connection_columns, ConnectionRow};
                if limit == 0 {
                    return Ok(Vec::new());
                }
                // PostgreSQL refuses timestamps before 4713 BC (e.g. `DateTime::MIN_UTC` for
                // "no schedule"); no sync started before 1970, so the bounds mean the same.
                let floor = chrono::DateTime::<chrono::Utc>::UNIX_EPOCH;
                let (due_before, stale_before) = (due_before.max(floor), stale_before.max(floor));
                let mut tx = self.begin_write().await?;
                // SQLite: a write first takes the write lock, so the read below and the
                // updates after it see no other claim in between. PostgreSQL: a no-op; the
                // row locks (FOR UPDATE SKIP LOCKED) keep concurrent claims apart.
                sqlx::query("UPDATE cloud_accounts SET sync_state = sync_state WHERE id = -1")
                    .execute(&mut *tx)
                    .await?;
                let rows: Vec<ConnectionRow> = sqlx::query_as(&format!(
                    "SELECT {} FROM cloud_accounts \
                     WHERE parent_id IS NULL AND settings <> '{{}}' AND ( \
                         (COALESCE(sync_state, '') <> 'running' AND (sync_requested_at IS NOT NULL \
                             OR sync_started_at IS NULL OR sync_started_at < $1)) \
                         OR (sync_state = 'running' AND (sync_started_at IS NULL OR sync_started_at < $2))) \
                     ORDER BY CASE WHEN sync_requested_at IS NULL THEN 1 ELSE 0 END, \
                              sync_requested_at, sync_started_at NULLS FIRST, id \
                     LIMIT $3{}",
                    connection_columns(""),
                    $skip_locked
                ))
                .bind(due_before)
                .bind(stale_before)
                .bind(i64::from(limit))
                .fetch_all(&mut *tx)
                .await?;
                let mut claimed = Vec::with_capacity(rows.len());
                for row in rows {
                    let mut connection = crate::CloudConnection::try_from(row)?;
                    sqlx::query(
                        "UPDATE cloud_accounts SET sync_state = 'running', sync_started_at = $1, \
                         sync_requested_at = NULL WHERE id = $2",
                    )
                    .bind(now)
                    .bind(connection.id)
                    .execute(&mut *tx)
                    .await?;
                    connection.sync.state = Some(crate::SyncState::Running);
                    connection.sync.started_at = Some(now);
                    connection.sync.requested_at = None;
                    claimed.push(connection);
                }
                tx.commit().await?;
                Ok(claimed)
            }

            #[tracing::instrument(skip_all, fields(id))]
            async fn finish_sync(
                &self,
                id: i64,
                outcome: &crate::SyncOutcome,
                now: chrono::DateTime<chrono::Utc>,
            ) -> Result<(), crate::StoreError> {
                let (state, error, details) = match outcome {
                    crate::SyncOutcome::Succeeded { details } => {
                        (crate::SyncState::Succeeded, None, Some(details.as_str()))
                    }
                    crate::SyncOutcome::Failed { error } => {
                        (crate::SyncState::Failed, Some(error.as_str()), None)
                    }
                };
                // The claim cleared the request: one there now was made during the sync and
                // stays for the next round.
                sqlx::query(
                    "UPDATE cloud_accounts SET sync_state = $1, sync_finished_at = $2, \
                     sync_error = $3, sync_details = $4 WHERE id = $5 AND sync_state = 'running'",
                )
                .bind(state.as_str())
                .bind(now)
                .bind(error)
                .bind(details)
                .bind(id)
                .execute(&self.pool)
                .await?;
                Ok(())
            }

            #[tracing::instrument(skip_all, fields(connection_id))]
            async fn synced_periods(
                &self,
                connection_id: i64,
            ) -> Result<Vec<crate::SyncedPeriod>, crate::StoreError> {
                use crate::connections::{SyncedPeriodRow, SYNCED_PERIOD_COLUMNS};
                let rows: Vec<SyncedPeriodRow> = sqlx::query_as(&format!(
                    "SELECT {SYNCED_PERIOD_COLUMNS} FROM sync_periods \
                     WHERE cloud_account_id = $1 ORDER BY billing_period"
                ))
                .bind(connection_id)
                .fetch_all(&self.pool)
                .await?;
                Ok(rows.into_iter().map(Into::into).collect())
            }

            #[tracing::instrument(skip_all, fields(connection_id))]
            async fn record_synced_period(
                &self,
                connection_id: i64,
                period: &crate::SyncedPeriod,
            ) -> Result<(), crate::StoreError> {
                sqlx::query(
                    "INSERT INTO sync_periods \
                     (cloud_account_id, billing_period, fingerprint, ingest_job_id, synced_at) \
                     VALUES ($1, $2, $3, $4, $5) \
                     ON CONFLICT (cloud_account_id, billing_period) DO UPDATE SET \
                     fingerprint = excluded.fingerprint, ingest_job_id = excluded.ingest_job_id, \
                     synced_at = excluded.synced_at",
                )
                .bind(connection_id)
                .bind(period.billing_period)
                .bind(&period.fingerprint)
                .bind(period.ingest_job_id)
                .bind(period.synced_at)
                .execute(&self.pool)
                .await?;
                Ok(())
            }

            #[tracing::instrument(skip_all, fields(customer_id))]
            async fn aws_external_id(
                &self,
                customer_id: i64,
                candidate: &str,
            ) -> Result<String, crate::StoreError> {
                let id: Option<String> = sqlx::query_scalar(
                    "UPDATE customers SET aws_external_id = COALESCE(aws_external_id, $1) \
                     WHERE id = $2 RETURNING aws_external_id",
                )
                .bind(candidate)
                .bind(customer_id)
                .fetch_optional(&self.pool)
                .await?;
                id.ok_or_else(|| {
                    crate::StoreError::Corrupt(format!("customer {customer_id} does not exist"))
                })
            }

            #[tracing::instrument(skip_all, fields(customer_id = new.customer_id))]
            async fn create_ingest_job(
                &self,
                new: crate::NewIngestJob<'_>,
            ) -> Result<i64, crate::StoreError> {
                let (status, format, files, started_at) = match new.upload {
                    Some(upload) => (
                        "running",
                        upload.format,
                        crate::ingest_jobs::to_json(&upload.files),
                        Some(new.now),
                    ),
                    None => ("receiving", None, "[]".to_owned(), None),
                };
                let id: i64 = sqlx::query_scalar(
                    "INSERT INTO ingest_jobs \
                     (customer_id, status, format, files, created_by_user_id, created_by, created_at, \
                      started_at, source, cloud_account_id) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id",
                )
                .bind(new.customer_id)
                .bind(status)
                .bind(format)
                .bind(files)
                .bind(new.created_by_user_id)
                .bind(new.created_by)
                .bind(new.now)
                .bind(started_at)
                .bind(new.source)
                .bind(new.cloud_account_id)
                .fetch_one(&self.pool)
                .await?;
                Ok(id)
            }

            #[tracing::instrument(skip_all, fields(id))]
            async fn queue_ingest_job(
                &self,
                id: i64,
                upload: crate::IngestUpload<'_>,
            ) -> Result<bool, crate::StoreError> {
                let queued = sqlx::query(
                    "UPDATE ingest_jobs SET status = 'queued', format = $1, files = $2 \
                     WHERE id = $3 AND status = 'receiving'",
                )
                .bind(upload.format)
                .bind(crate::ingest_jobs::to_json(&upload.files))
                .bind(id)
                .execute(&self.pool)
                .await?;
                Ok(queued.rows_affected() > 0)
            }

            #[tracing::instrument(skip_all, fields(id))]
            async fn delete_ingest_job(&self, id: i64) -> Result<(), crate::StoreError> {
                sqlx::query("DELETE FROM ingest_jobs WHERE id = $1 AND status = 'receiving'")
                    .bind(id)
                    .execute(&self.pool)
                    .await?;
                Ok(())
            }

            #[tracing::instrument(skip_all)]
            async fn delete_abandoned_receiving_ingest_jobs(
                &self,
                created_before: chrono::DateTime<chrono::Utc>,
            ) -> Result<Vec<i64>, crate::StoreError> {
                let ids: Vec<(i64,)> = sqlx::query_as(
                    "DELETE FROM ingest_jobs WHERE status = 'receiving' AND created_at < $1 \
                     RETURNING id",
                )
                .bind(created_before)
                .fetch_all(&self.pool)
                .await?;
                Ok(ids.into_iter().map(|(id,)| id).collect())
            }

            #[tracing::instrument(skip_all, fields(customer_id, id))]
            async fn get_ingest_job(
                &self,
                customer_id: i64,
                id: i64,
            ) -> Result<Option<crate::IngestJob>, crate::StoreError> {
                use crate::ingest_jobs::{IngestJobRow, INGEST_JOB_COLUMNS};
                let row: Option<IngestJobRow> = sqlx::query_as(&format!(
                    "SELECT {INGEST_JOB_COLUMNS} FROM ingest_jobs \
                     WHERE customer_id = $1 AND id = $2 AND status <> 'receiving'"
                ))
                .bind(customer_id)
                .bind(id)
                .fetch_optional(&self.pool)
                .await?;
                row.map(TryInto::try_into).transpose()
            }

            #[tracing::instrument(skip_all, fields(customer_id))]
            async fn list_ingest_jobs(
                &self,
                customer_id: i64,
                limit: u32,
            ) -> Result<Vec<crate::IngestJob>, crate::StoreError> {
                use crate::ingest_jobs::{IngestJobRow, INGEST_JOB_COLUMNS};
                let rows: Vec<IngestJobRow> = sqlx::query_as(&format!(
                    "SELECT {INGEST_JOB_COLUMNS} FROM ingest_jobs \
                     WHERE customer_id = $1 AND status <> 'receiving' \
                     ORDER BY created_at DESC, id DESC LIMIT $2"
                ))
                .bind(customer_id)
                .bind(i64::from(limit))
                .fetch_all(&self.pool)
                .await?;
                rows.into_iter().map(TryInto::try_into).collect()
            }

            #[tracing::instrument(skip_all, fields(holder = lease.holder))]
            async fn claim_next_ingest_job(
                &self,
                lease: crate::IngestLease<'_>,
            ) -> Result<Option<crate::ClaimedIngestJob>, crate::StoreError> {
                use crate::ingest_jobs::{IngestJobRow, INGEST_JOB_COLUMNS};
                // Abandoned: running under a lease that has expired, or without one (left
                // running before leases existed) and started longer than a lease's time ago.
                const ABANDONED: &str = "status = 'running' AND (lease_expires_at < $3 OR \
                     (lease_expires_at IS NULL AND COALESCE(started_at, created_at) < $4))";
                let unheld_before = lease.now - (lease.until - lease.now);
                let taken: Option<IngestJobRow> = sqlx::query_as(&format!(
                    "UPDATE ingest_jobs SET lease_holder = $1, lease_expires_at = $2 \
                     WHERE {ABANDONED} AND id = (\
                         SELECT id FROM ingest_jobs WHERE {ABANDONED} ORDER BY id LIMIT 1{}) \
                     RETURNING {INGEST_JOB_COLUMNS}",
                    $skip_locked
                ))
                .bind(lease.holder)
                .bind(lease.until)
                .bind(lease.now)
                .bind(unheld_before)
                .fetch_optional(&self.pool)
                .await?;
                if let Some(row) = taken {
                    return Ok(Some(crate::ClaimedIngestJob {
                        job: row.try_into()?,
                        taken_over: true,
                    }));
                }
                let row: Option<IngestJobRow> = sqlx::query_as(&format!(
                    // Fair between tenants: only a tenant without a running load, and of
                    // those the one whose last load started longest ago (never: first), its
                    // oldest upload first.
                    "UPDATE ingest_jobs SET status = 'running', started_at = $1, \
                         lease_holder = $2, lease_expires_at = $3 \
                     WHERE status = 'queued' AND id = (\
                         SELECT q.id FROM ingest_jobs q WHERE q.status = 'queued' \
                         AND NOT EXISTS (SELECT 1 FROM ingest_jobs r \
                             WHERE r.customer_id = q.customer_id AND r.status = 'running') \
                         ORDER BY (SELECT max(s.started_at) FROM ingest_jobs s \
                             WHERE s.customer_id = q.customer_id) NULLS FIRST, q.id \
                         LIMIT 1{}) \
                     RETURNING {INGEST_JOB_COLUMNS}",
                    $skip_locked
                ))
                .bind(lease.now)
                .bind(lease.holder)
                .bind(lease.until)
                .fetch_optional(&self.pool)
                .await?;
                row.map(|row| {
                    Ok(crate::ClaimedIngestJob {
                        job: row.try_into()?,
                        taken_over: false,
                    })
                })
                .transpose()
            }

            #[tracing::instrument(skip_all, fields(id, holder = lease.holder))]
            async fn start_ingest_job(
                &self,
                id: i64,
                upload: crate::IngestUpload<'_>,
                lease: crate::IngestLease<'_>,
            ) -> Result<bool, crate::StoreError> {
                let started = sqlx::query(
                    "UPDATE ingest_jobs SET status = 'running', format = $1, files = $2, \
                         started_at = $3, lease_holder = $4, lease_expires_at = $5 \
                     WHERE id = $6 AND status = 'receiving'",
                )
                .bind(upload.format)
                .bind(crate::ingest_jobs::to_json(&upload.files))
                .bind(lease.now)
                .bind(lease.holder)
                .bind(lease.until)
                .bind(id)
                .execute(&self.pool)
                .await?;
                Ok(started.rows_affected() > 0)
            }

            #[tracing::instrument(skip_all, fields(id, holder))]
            async fn release_ingest_job(
                &self,
                id: i64,
                holder: &str,
            ) -> Result<bool, crate::StoreError> {
                let released = sqlx::query(
                    "UPDATE ingest_jobs SET lease_expires_at = $1 \
                     WHERE id = $2 AND status = 'running' AND lease_holder = $3",
                )
                .bind(chrono::DateTime::<chrono::Utc>::UNIX_EPOCH)
                .bind(id)
                .bind(holder)
                .execute(&self.pool)
                .await?;
                Ok(released.rows_affected() > 0)
            }

            #[tracing::instrument(skip_all)]
            async fn running_ingest_jobs(
                &self,
            ) -> Result<Vec<crate::IngestJob>, crate::StoreError> {
                use crate::ingest_jobs::{IngestJobRow, INGEST_JOB_COLUMNS};
                let rows: Vec<IngestJobRow> = sqlx::query_as(&format!(
                    "SELECT {INGEST_JOB_COLUMNS} FROM ingest_jobs WHERE status = 'running' \
                     ORDER BY id"
                ))
                .fetch_all(&self.pool)
                .await?;
                rows.into_iter().map(TryInto::try_into).collect()
            }

            #[tracing::instrument(skip_all, fields(id, holder))]
            async fn hold_ingest_job(
                &self,
                id: i64,
                holder: &str,
                until: chrono::DateTime<chrono::Utc>,
            ) -> Result<bool, crate::StoreError> {
                let held = sqlx::query(
                    "UPDATE ingest_jobs SET lease_expires_at = $2 \
                     WHERE id = $3 AND status = 'running' AND lease_holder = $1",
                )
                .bind(holder)
                .bind(until)
                .bind(id)
                .execute(&self.pool)
                .await?;
                Ok(held.rows_affected() > 0)
            }

            #[tracing::instrument(skip_all, fields(id))]
            async fn record_ingest_progress(
                &self,
                id: i64,
                progress: &crate::IngestProgress,
            ) -> Result<(), crate::StoreError> {
                sqlx::query(
                    "UPDATE ingest_jobs SET progress = $1 WHERE id = $2 AND status = 'running'",
                )
                .bind(crate::ingest_jobs::to_json(progress))
                .bind(id)
                .execute(&self.pool)
                .await?;
                Ok(())
            }

            #[tracing::instrument(skip_all, fields(id))]
            async fn finish_ingest_job(
                &self,
                id: i64,
                outcome: &crate::IngestOutcome,
                now: chrono::DateTime<chrono::Utc>,
            ) -> Result<(), crate::StoreError> {
                use crate::ingest_jobs::{count, to_json};
                match outcome {
                    crate::IngestOutcome::Succeeded(result) => {
                        sqlx::query(
                            "UPDATE ingest_jobs SET status = 'succeeded', files = $1, rows = $2, \
                             replaced_rows = $3, billing_periods = $4, totals = $5, error = NULL, \
                             finished_at = $6 WHERE id = $7 AND status = 'running'",
                        )
                        .bind(to_json(&result.files))
                        .bind(count(result.rows))
                        .bind(count(result.replaced_rows))
                        .bind(to_json(&result.billing_periods))
                        .bind(to_json(&result.totals))
                        .bind(now)
                        .bind(id)
                        .execute(&self.pool)
                        .await?;
                    }
                    crate::IngestOutcome::Failed(message) => {
                        sqlx::query(
                            "UPDATE ingest_jobs SET status = 'failed', error = $1, finished_at = $2 \
                             WHERE id = $3 AND status = 'running'",
                        )
                        .bind(message)
                        .bind(now)
                        .bind(id)
                        .execute(&self.pool)
                        .await?;
                    }
                }
                Ok(())
            }

            #[tracing::instrument(skip_all, fields(customer_id))]
            async fn ingest_usage(
                &self,
                customer_id: i64,
                since: chrono::DateTime<chrono::Utc>,
            ) -> Result<crate::IngestUsage, crate::StoreError> {
                // Only what people uploaded: a cloud sync's loads (`source` set) are bounded by
                // the schedule, not by the daily upload quotas, and never use them up.
                let files: Vec<String> = sqlx::query_scalar(
                    "SELECT files FROM ingest_jobs \
                     WHERE customer_id = $1 AND created_at >= $2 AND source IS NULL",
                )
                .bind(customer_id)
                .bind(since)
                .fetch_all(&self.pool)
                .await?;
                let mut bytes: u64 = 0;
                for recorded in &files {
                    bytes = bytes.saturating_add(crate::ingest_jobs::uploaded_bytes(recorded)?);
                }
                let stored: i64 = sqlx::query_scalar(
                    "SELECT CAST(COALESCE(SUM(rows - replaced_rows), 0) AS BIGINT) \
                     FROM ingest_jobs WHERE customer_id = $1 AND status = 'succeeded'",
                )
                .bind(customer_id)
                .fetch_one(&self.pool)
                .await?;
                Ok(crate::IngestUsage {
                    loads: files.len() as u64,
                    bytes,
                    stored_rows: u64::try_from(stored).unwrap_or(0),
                })
            }

            async fn create_budget(
                &self,
                customer_id: i64,
                user_id: i64,
                new: crate::NewBudget,
            ) -> Result<crate::Budget, crate::StoreError> {
                self.create_budget_with_channels(customer_id, user_id, new, &[]).await
            }

            #[tracing::instrument(skip_all, fields(customer_id, user_id))]
            async fn create_budget_with_channels(
                &self,
                customer_id: i64,
                user_id: i64,
                new: crate::NewBudget,
                channel_ids: &[i64],
            ) -> Result<crate::Budget, crate::StoreError> {
                use crate::budgets::{BudgetRow, BUDGET_COLUMNS};
                let values = new.values();
                let mut tx = self.begin_write().await?;
                let row: BudgetRow = sqlx::query_as(&format!(
                    "INSERT INTO budgets \
                     (customer_id, name, amount, period, filters, alerts, created_by_user_id, created_at, updated_at) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8) RETURNING {BUDGET_COLUMNS}"
                ))
                .bind(customer_id)
                .bind(values.name)
                .bind(values.amount)
                .bind(values.period)
                .bind(values.filters)
                .bind(values.alerts)
                .bind(user_id)
                .bind(new.now)
                .fetch_one(&mut *tx)
                .await?;
                let budget = crate::Budget::try_from(row)?;
                let entry = new.created_entry();
                sqlx::query(
                    "INSERT INTO budget_config_history \
                     (budget_id, customer_id, changed_by_user_id, changed_at, field, old_value, new_value) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7)",
                )
                .bind(budget.id)
                .bind(customer_id)
                .bind(user_id)
                .bind(new.now)
                .bind(entry.field.as_str())
                .bind(entry.old_value)
                .bind(entry.new_value)
                .execute(&mut *tx)
                .await?;
                if !channel_ids.is_empty() {
                    crate::sql_store::replace_budget_channels!(tx, customer_id, budget.id, channel_ids);
                }
                tx.commit().await?;
                Ok(budget)
            }

            #[tracing::instrument(skip_all, fields(customer_id))]
            async fn list_budgets(
                &self,
                customer_id: i64,
            ) -> Result<Vec<crate::Budget>, crate::StoreError> {
                use crate::budgets::{BudgetRow, BUDGET_COLUMNS};
                let rows: Vec<BudgetRow> = sqlx::query_as(&format!(
                    "SELECT {BUDGET_COLUMNS} FROM budgets WHERE customer_id = $1 ORDER BY id"
                ))
                .bind(customer_id)
                .fetch_all(&self.pool)
                .await?;
                rows.into_iter().map(TryInto::try_into).collect()
            }

            #[tracing::instrument(skip_all, fields(customer_id, id))]
            async fn get_budget(
                &self,
                customer_id: i64,
                id: i64,
            ) -> Result<Option<crate::Budget>, crate::StoreError> {
                use crate::budgets::{BudgetRow, BUDGET_COLUMNS};
                let row: Option<BudgetRow> = sqlx::query_as(&format!(
                    "SELECT {BUDGET_COLUMNS} FROM budgets WHERE customer_id = $1 AND id = $2"
                ))
                .bind(customer_id)
                .bind(id)
                .fetch_optional(&self.pool)
                .await?;
                row.map(TryInto::try_into).transpose()
            }

            async fn update_budget(
                &self,
                customer_id: i64,
                user_id: i64,
                id: i64,
                changes: crate::BudgetChanges,
            ) -> Result<Option<crate::Budget>, crate::StoreError> {
                self.edit_budget(customer_id, user_id, id, changes, None).await
            }

            async fn update_budget_with_channels(
                &self,
                customer_id: i64,
                user_id: i64,
                id: i64,
                changes: crate::BudgetChanges,
                channel_ids: &[i64],
            ) -> Result<Option<crate::Budget>, crate::StoreError> {
                self.edit_budget(customer_id, user_id, id, changes, Some(channel_ids)).await
            }

            #[tracing::instrument(skip_all, fields(customer_id, id))]
            async fn delete_budget(&self, customer_id: i64, id: i64) -> Result<bool, crate::StoreError> {
                // Its history goes with it (ON DELETE CASCADE).
                let deleted = sqlx::query("DELETE FROM budgets WHERE customer_id = $1 AND id = $2")
                    .bind(customer_id)
                    .bind(id)
                    .execute(&self.pool)
                    .await?;
                Ok(deleted.rows_affected() > 0)
            }

            #[tracing::instrument(skip_all, fields(customer_id, id))]
            async fn budget_config_history(
                &self,
                customer_id: i64,
                id: i64,
            ) -> Result<Vec<crate::BudgetConfigChange>, crate::StoreError> {
                use crate::budgets::{BudgetConfigChangeRow, BUDGET_CONFIG_CHANGE_COLUMNS};
                let rows: Vec<BudgetConfigChangeRow> = sqlx::query_as(&format!(
                    "SELECT {BUDGET_CONFIG_CHANGE_COLUMNS} FROM budget_config_history h \
                     LEFT JOIN users u ON u.id = h.changed_by_user_id \
                     WHERE h.customer_id = $1 AND h.budget_id = $2 \
                     ORDER BY h.changed_at DESC, h.id DESC"
                ))
                .bind(customer_id)
                .bind(id)
                .fetch_all(&self.pool)
                .await?;
                rows.into_iter().map(TryInto::try_into).collect()
            }

            #[tracing::instrument(skip_all)]
            async fn budgets_of_all_customers(&self) -> Result<Vec<crate::Budget>, crate::StoreError> {
                use crate::budgets::{BudgetRow, BUDGET_COLUMNS};
                let rows: Vec<BudgetRow> = sqlx::query_as(&format!(
                    "SELECT {BUDGET_COLUMNS} FROM budgets ORDER BY customer_id, id"
                ))
                .fetch_all(&self.pool)
                .await?;
                rows.into_iter().map(TryInto::try_into).collect()
            }

            #[tracing::instrument(skip_all, fields(customer_id = alert.customer_id, budget_id = alert.budget_id))]
            async fn record_budget_alert(
                &self,
                alert: crate::NewBudgetAlert,
            ) -> Result<Option<crate::BudgetAlert>, crate::StoreError> {
                use crate::budget_alerts::{
                    alert_notification_payload, basis_text, threshold_type_text, BudgetAlertRow, BUDGET_ALERT_COLUMNS,
                };
                use crate::budgets::{BudgetRow, BUDGET_COLUMNS};
                let mut tx = self.begin_write().await?;
                // The write comes first (it takes SQLite's write lock, and PostgreSQL's unique
                // index makes a concurrent twin wait for this transaction): no row when the
                // budget is not the customer's or the alert is already recorded.
                let row: Option<BudgetAlertRow> = sqlx::query_as(&format!(
                    "INSERT INTO budget_alert_history \
                     (budget_id, customer_id, period_start, threshold_type, threshold_value, \
                      spent_amount, spend_percentage, triggered_at, basis) \
                     SELECT id, customer_id, $1, $2, $3, $4, $5, $6, $9 FROM budgets \
                     WHERE customer_id = $7 AND id = $8 \
                     ON CONFLICT (budget_id, period_start, threshold_type, threshold_value, basis) DO NOTHING \
                     RETURNING {BUDGET_ALERT_COLUMNS}"
                ))
                .bind(alert.period_start)
                .bind(threshold_type_text(alert.threshold.threshold_type))
                .bind(alert.threshold.value)
                .bind(alert.spent_amount)
                .bind(alert.spend_percentage)
                .bind(alert.triggered_at)
                .bind(alert.customer_id)
                .bind(alert.budget_id)
                .bind(basis_text(alert.threshold.basis))
                .fetch_optional(&mut *tx)
                .await?;
                let Some(row) = row else {
                    return Ok(None);
                };
                let recorded = crate::BudgetAlert::try_from(row)?;
                let budget: BudgetRow = sqlx::query_as(&format!(
                    "SELECT {BUDGET_COLUMNS} FROM budgets WHERE id = $1"
                ))
                .bind(recorded.budget_id)
                .fetch_one(&mut *tx)
                .await?;
                let payload =
                    alert_notification_payload(alert.customer_id, &recorded, &budget.try_into()?, alert.forecast.as_ref());
                sqlx::query(
                    "INSERT INTO notification_outbox \
                     (customer_id, kind, payload, created_at, next_attempt_at, budget_alert_id) \
                     VALUES ($1, $2, $3, $4, $4, $5)",
                )
                .bind(alert.customer_id)
                .bind(crate::NotificationKind::BudgetAlert.as_str())
                .bind(payload.to_string())
                .bind(alert.triggered_at)
                .bind(recorded.id)
                .execute(&mut *tx)
                .await?;
                tx.commit().await?;
                Ok(Some(recorded))
            }

            #[tracing::instrument(skip_all, fields(customer_id, budget_id))]
            async fn list_budget_alerts(
                &self,
                customer_id: i64,
                budget_id: i64,
                triggered_between: Option<(chrono::DateTime<chrono::Utc>, chrono::DateTime<chrono::Utc>)>,
            ) -> Result<Vec<crate::BudgetAlert>, crate::StoreError> {
                use crate::budget_alerts::{BudgetAlertRow, BUDGET_ALERT_COLUMNS};
                let (first, last) = triggered_between.unzip();
                let rows: Vec<BudgetAlertRow> = sqlx::query_as(&format!(
                    "SELECT {BUDGET_ALERT_COLUMNS} FROM budget_alert_history \
                     WHERE customer_id = $1 AND budget_id = $2 \
                     AND ($3 IS NULL OR triggered_at >= $3) AND ($4 IS NULL OR triggered_at <= $4) \
                     ORDER BY triggered_at DESC, id DESC"
                ))
                .bind(customer_id)
                .bind(budget_id)
                .bind(first)
                .bind(last)
                .fetch_all(&self.pool)
                .await?;
                rows.into_iter().map(TryInto::try_into).collect()
            }

            #[tracing::instrument(skip_all)]
            async fn pending_notifications(
                &self,
                now: chrono::DateTime<chrono::Utc>,
                limit: i64,
            ) -> Result<Vec<crate::OutboxNotification>, crate::StoreError> {
                use crate::notifications::{OutboxNotificationRow, OUTBOX_COLUMNS};
                let rows: Vec<OutboxNotificationRow> = sqlx::query_as(&format!(
                    "SELECT {OUTBOX_COLUMNS} FROM notification_outbox o \
                     WHERE o.delivered_at IS NULL AND o.fanned_out_at IS NULL AND o.next_attempt_at <= $1 \
                     AND NOT EXISTS (SELECT 1 FROM notification_channels c WHERE c.customer_id = o.customer_id) \
                     AND o.kind <> 'digest' \
                     ORDER BY o.created_at, o.id LIMIT $2"
                ))
                .bind(now)
                .bind(limit)
                .fetch_all(&self.pool)
                .await?;
                rows.into_iter().map(TryInto::try_into).collect()
            }

            #[tracing::instrument(skip_all, fields(id))]
            async fn mark_notification_delivered(
                &self,
                id: i64,
                now: chrono::DateTime<chrono::Utc>,
            ) -> Result<bool, crate::StoreError> {
                let marked = sqlx::query(
                    "UPDATE notification_outbox SET delivered_at = $1, attempts = attempts + 1 \
                     WHERE id = $2 AND delivered_at IS NULL",
                )
                .bind(now)
                .bind(id)
                .execute(&self.pool)
                .await?;
                Ok(marked.rows_affected() > 0)
            }

            #[tracing::instrument(skip_all, fields(id))]
            async fn record_notification_failure(
                &self,
                id: i64,
                error: &str,
                next_attempt_at: chrono::DateTime<chrono::Utc>,
            ) -> Result<bool, crate::StoreError> {
                let recorded = sqlx::query(
                    "UPDATE notification_outbox \
                     SET attempts = attempts + 1, last_error = $1, next_attempt_at = $2 \
                     WHERE id = $3 AND delivered_at IS NULL",
                )
                .bind(error)
                .bind(next_attempt_at)
                .bind(id)
                .execute(&self.pool)
                .await?;
                Ok(recorded.rows_affected() > 0)
            }
        }

        impl $store {
            /// An edit of a budget and, with `Some`, the channels it names, in one transaction.
            #[tracing::instrument(skip_all, fields(customer_id, user_id, id))]
            async fn edit_budget(
                &self,
                customer_id: i64,
                user_id: i64,
                id: i64,
                changes: crate::BudgetChanges,
                channel_ids: Option<&[i64]>,
            ) -> Result<Option<crate::Budget>, crate::StoreError> {
                use crate::budgets::{apply_changes, BudgetRow, BUDGET_COLUMNS};
                let mut tx = self.begin_write().await?;
                // A write that changes nothing, to lock the row (PostgreSQL) or take the write
                // lock (SQLite) before reading it: concurrent edits see each other's result, so
                // every history row's old value is the value it replaced.
                let row: Option<BudgetRow> = sqlx::query_as(&format!(
                    "UPDATE budgets SET updated_at = updated_at \
                     WHERE customer_id = $1 AND id = $2 RETURNING {BUDGET_COLUMNS}"
                ))
                .bind(customer_id)
                .bind(id)
                .fetch_optional(&mut *tx)
                .await?;
                let Some(row) = row else {
                    return Ok(None);
                };
                let current = crate::Budget::try_from(row)?;
                if let Some(channel_ids) = channel_ids {
                    crate::sql_store::replace_budget_channels!(tx, customer_id, id, channel_ids);
                }
                let (values, entries) = apply_changes(&current, &changes);
                if entries.is_empty() {
                    tx.commit().await?;
                    return Ok(Some(current));
                }
                let row: BudgetRow = sqlx::query_as(&format!(
                    "UPDATE budgets SET name = $1, amount = $2, period = $3, filters = $4, \
                     alerts = $5, updated_at = $6 \
                     WHERE customer_id = $7 AND id = $8 RETURNING {BUDGET_COLUMNS}"
                ))
                .bind(values.name)
                .bind(values.amount)
                .bind(values.period)
                .bind(values.filters)
                .bind(values.alerts)
                .bind(changes.now)
                .bind(customer_id)
                .bind(id)
                .fetch_one(&mut *tx)
                .await?;
                let budget = crate::Budget::try_from(row)?;
                for entry in entries {
                    sqlx::query(
                        "INSERT INTO budget_config_history \
                         (budget_id, customer_id, changed_by_user_id, changed_at, field, old_value, new_value) \
                         VALUES ($1, $2, $3, $4, $5, $6, $7)",
                    )
                    .bind(id)
                    .bind(customer_id)
                    .bind(user_id)
                    .bind(changes.now)
                    .bind(entry.field.as_str())
                    .bind(entry.old_value)
                    .bind(entry.new_value)
                    .execute(&mut *tx)
                    .await?;
                }
                tx.commit().await?;
                Ok(Some(budget))
            }
        }
    };
}

pub(crate) use impl_metadata_store;

/// Inside a budget write's transaction `$tx`: replaces the channels budget `$budget_id` sends
/// its alerts to with `$ids`, which must all be `$customer_id`'s channels
/// ([`crate::StoreError::UnknownChannel`] otherwise; a channel deleted meanwhile is one too).
macro_rules! replace_budget_channels {
    ($tx:ident, $customer_id:expr, $budget_id:expr, $ids:expr) => {{
        let known: Vec<(i64,)> =
            sqlx::query_as("SELECT id FROM notification_channels WHERE customer_id = $1")
                .bind($customer_id)
                .fetch_all(&mut *$tx)
                .await?;
        let known: Vec<i64> = known.into_iter().map(|(id,)| id).collect();
        let ids = crate::channels::checked_channel_ids($ids, &known)?;
        sqlx::query("DELETE FROM budget_channels WHERE customer_id = $1 AND budget_id = $2")
            .bind($customer_id)
            .bind($budget_id)
            .execute(&mut *$tx)
            .await?;
        for channel_id in ids {
            sqlx::query(
                "INSERT INTO budget_channels (budget_id, channel_id, customer_id) VALUES ($1, $2, $3)",
            )
            .bind($budget_id)
            .bind(channel_id)
            .bind($customer_id)
            .execute(&mut *$tx)
            .await
            .map_err(|err| match &err {
                sqlx::Error::Database(db) if db.is_foreign_key_violation() => {
                    crate::StoreError::UnknownChannel
                }
                _ => crate::StoreError::from(err),
            })?;
        }
    }};
}

pub(crate) use replace_budget_channels;
