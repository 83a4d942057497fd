//! Creating a customer with its owner (sign-up, `costscope user create`, the demo), and where a
//! connected account's onboarding age starts.

use chrono::{DateTime, Duration, Utc};
use costscope_core::{Clock, Customer, Email, FullName, Password, User};
use costscope_store::{MetadataStore, NewCustomer, StoreError};

use crate::auth::password::hash_password;

pub const TRIAL_DAYS: i64 = 30;

#[derive(Debug)]
pub struct Registration {
    pub owner_name: FullName,
    pub email: Email,
    pub password: Password,
    /// Defaults to the owner's name.
    pub customer_name: Option<String>,
    pub is_demo: bool,
}

#[derive(Debug, thiserror::Error)]
pub enum RegistrationError {
    #[error("User {0} already exists")]
    EmailTaken(String),
    #[error(transparent)]
    Other(#[from] anyhow::Error),
}

/// A new customer on a 30-day Tier 0 trial, owned by the registering user.
#[tracing::instrument(skip_all)]
pub async fn register_customer(
    store: &dyn MetadataStore,
    clock: &dyn Clock,
    registration: Registration,
) -> Result<(Customer, User), RegistrationError> {
    let password_hash = hash_password(&registration.password).await?;
    let now = clock.now();
    let customer_name = registration
        .customer_name
        .as_deref()
        .map(str::trim)
        .filter(|name| !name.is_empty())
        .unwrap_or(registration.owner_name.as_str());
    let created = store
        .create_customer_with_owner(NewCustomer {
            name: customer_name,
            trial_end: now + Duration::days(TRIAL_DAYS),
            is_demo: registration.is_demo,
            owner_name: registration.owner_name.as_str(),
            owner_email: &registration.email,
            owner_password_hash: &password_hash,
            now,
        })
        .await;
    match created {
        Ok(created) => Ok(created),
        Err(StoreError::Conflict) => Err(RegistrationError::EmailTaken(
            registration.email.to_string(),
        )),
        Err(err) => Err(RegistrationError::Other(err.into())),
    }
}

/// Where the "Getting Your Data Ready" age of a connected account starts (spec 2 §2, §9: the
/// notice shows while an account is less than 24 hours old): when it was connected (a member
/// account: when its organisation's check listed it), not its earliest charge, which a
/// connection's first sync brings from months back.
pub fn data_ready_since(connection: &costscope_store::CloudConnection) -> DateTime<Utc> {
    connection.created_at
}
