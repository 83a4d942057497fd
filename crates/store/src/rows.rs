//! Rows as both backends return them, converted into domain records.

use chrono::{DateTime, Utc};
use costscope_core::{CloudAccount, Customer, Role, User, UserStatus};

use crate::{InvitationDetails, LoginRecord, StoreError};

pub(crate) const USER_COLUMNS: &str = "id, customer_id, name, email, role, status, created_at";
pub(crate) const CUSTOMER_COLUMNS: &str = "id, name, tier, trial_end, is_demo, created_at";
pub(crate) const CLOUD_ACCOUNT_COLUMNS: &str =
    "id, customer_id, provider, account_id, account_name, created_at";

#[derive(sqlx::FromRow)]
pub(crate) struct UserRow {
    id: i64,
    customer_id: i64,
    name: String,
    email: String,
    role: String,
    status: String,
    created_at: DateTime<Utc>,
}

impl TryFrom<UserRow> for User {
    type Error = StoreError;

    fn try_from(row: UserRow) -> Result<Self, Self::Error> {
        let role: Role = row
            .role
            .parse()
            .map_err(|e| StoreError::Corrupt(format!("{e}")))?;
        let status = match row.status.as_str() {
            "active" => UserStatus::Active,
            "pending" => UserStatus::Pending,
            other => {
                return Err(StoreError::Corrupt(format!(
                    "unknown user status {other:?}"
                )))
            }
        };
        Ok(User {
            id: row.id,
            customer_id: row.customer_id,
            name: row.name,
            email: row.email,
            role,
            status,
            created_at: row.created_at,
        })
    }
}

#[derive(sqlx::FromRow)]
pub(crate) struct LoginRow {
    #[sqlx(flatten)]
    user: UserRow,
    password_hash: Option<String>,
}

impl TryFrom<LoginRow> for LoginRecord {
    type Error = StoreError;

    fn try_from(row: LoginRow) -> Result<Self, Self::Error> {
        Ok(LoginRecord {
            user: row.user.try_into()?,
            password_hash: row.password_hash,
        })
    }
}

#[derive(sqlx::FromRow)]
pub(crate) struct CustomerRow {
    id: i64,
    name: String,
    tier: i32,
    trial_end: DateTime<Utc>,
    is_demo: bool,
    created_at: DateTime<Utc>,
}

impl From<CustomerRow> for Customer {
    fn from(row: CustomerRow) -> Self {
        Customer {
            id: row.id,
            name: row.name,
            tier: row.tier,
            trial_end: row.trial_end,
            is_demo: row.is_demo,
            created_at: row.created_at,
        }
    }
}

#[derive(sqlx::FromRow)]
pub(crate) struct CloudAccountRow {
    id: i64,
    customer_id: i64,
    provider: String,
    account_id: String,
    account_name: String,
    created_at: DateTime<Utc>,
}

impl From<CloudAccountRow> for CloudAccount {
    fn from(row: CloudAccountRow) -> Self {
        CloudAccount {
            id: row.id,
            customer_id: row.customer_id,
            provider: row.provider,
            account_id: row.account_id,
            account_name: row.account_name,
            created_at: row.created_at,
        }
    }
}

#[derive(sqlx::FromRow)]
pub(crate) struct InvitationRow {
    user_id: i64,
    customer_id: i64,
    email: String,
    customer_name: String,
    invited_by: String,
}

impl From<InvitationRow> for InvitationDetails {
    fn from(row: InvitationRow) -> Self {
        InvitationDetails {
            user_id: row.user_id,
            customer_id: row.customer_id,
            email: row.email,
            customer_name: row.customer_name,
            invited_by: row.invited_by,
        }
    }
}

pub(crate) fn users(rows: Vec<UserRow>) -> Result<Vec<User>, StoreError> {
    rows.into_iter().map(User::try_from).collect()
}
