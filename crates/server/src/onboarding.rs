//! Creating a customer with its owner: sign-up, `costscope user create` and the demo.

use chrono::Duration;
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
