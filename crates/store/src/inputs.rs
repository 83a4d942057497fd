use chrono::{DateTime, Utc};
use costscope_core::{Email, Role, User};

/// A new customer with its owner (sign-up, `costscope user create`, demo).
#[derive(Debug, Clone)]
pub struct NewCustomer<'a> {
    pub name: &'a str,
    pub trial_end: DateTime<Utc>,
    pub is_demo: bool,
    pub owner_name: &'a str,
    pub owner_email: &'a Email,
    pub owner_password_hash: &'a str,
    pub now: DateTime<Utc>,
}

/// A pending user invited into `customer_id`, with the hash of their one-time link token.
#[derive(Debug, Clone)]
pub struct NewInvitation<'a> {
    pub customer_id: i64,
    pub email: &'a Email,
    pub role: Role,
    pub invited_by: i64,
    pub token_hash: &'a str,
    pub expires_at: DateTime<Utc>,
    pub now: DateTime<Utc>,
}

/// What an edit changes; `None` leaves the field as it is.
#[derive(Debug, Clone, Copy, Default)]
pub struct UserChanges<'a> {
    pub name: Option<&'a str>,
    pub role: Option<Role>,
}

#[derive(Debug, Clone)]
pub struct NewCloudAccount<'a> {
    pub provider: &'a str,
    pub account_id: &'a str,
    pub account_name: &'a str,
    pub now: DateTime<Utc>,
}

/// A user with their password hash (absent while pending), for sign-in.
#[derive(Debug, Clone)]
pub struct LoginRecord {
    pub user: User,
    pub password_hash: Option<String>,
}

/// What an invitation link shows before it is accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvitationDetails {
    pub user_id: i64,
    pub customer_id: i64,
    pub email: String,
    pub customer_name: String,
    /// The inviting user's name, or the customer's name when they have been deleted since.
    pub invited_by: String,
}
