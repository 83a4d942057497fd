use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::Role;

/// Whether a user has signed in yet: invited users stay pending until they accept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum UserStatus {
    Active,
    Pending,
}

impl UserStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            UserStatus::Active => "active",
            UserStatus::Pending => "pending",
        }
    }
}

/// A member of one customer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct User {
    pub id: i64,
    pub customer_id: i64,
    /// Empty while the invitation is pending.
    pub name: String,
    pub email: String,
    pub role: Role,
    pub status: UserStatus,
    pub created_at: DateTime<Utc>,
}

/// A tenant: owns users, cloud accounts and everything below them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Customer {
    pub id: i64,
    pub name: String,
    pub tier: i32,
    pub trial_end: DateTime<Utc>,
    pub is_demo: bool,
    pub created_at: DateTime<Utc>,
}

/// A connected AWS account, GCP project or Azure subscription.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CloudAccount {
    pub id: i64,
    pub customer_id: i64,
    pub provider: String,
    pub account_id: String,
    pub account_name: String,
    pub created_at: DateTime<Utc>,
}
