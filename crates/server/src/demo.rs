//! The demo tenant that `serve --demo` keeps available.

use chrono::Duration;
use costscope_core::{Clock, Email, FullName, Password};
use costscope_store::MetadataStore;

use crate::onboarding::{register_customer, Registration, TRIAL_DAYS};

pub const DEMO_EMAIL: &str = "demo@costscope.dev";
pub const DEMO_PASSWORD: &str = "costscope-demo";
pub const DEMO_USER_NAME: &str = "Demo User";
pub const DEMO_CUSTOMER_NAME: &str = "Demo Company";

/// Creates the demo customer and owner if missing; otherwise renews its trial to 30 days.
#[tracing::instrument(skip_all)]
pub async fn ensure_demo_tenant(
    store: &dyn MetadataStore,
    clock: &dyn Clock,
) -> anyhow::Result<()> {
    let email = Email::parse(DEMO_EMAIL).expect("valid demo e-mail");
    if let Some(existing) = store.find_login(&email).await? {
        let trial_end = clock.now() + Duration::days(TRIAL_DAYS);
        store
            .set_trial_end(existing.user.customer_id, trial_end)
            .await?;
        tracing::info!(
            customer_id = existing.user.customer_id,
            "renewed the demo trial"
        );
        return Ok(());
    }
    let registration = Registration {
        owner_name: FullName::parse(DEMO_USER_NAME).expect("valid demo name"),
        email,
        password: Password::parse(DEMO_PASSWORD).expect("valid demo password"),
        customer_name: Some(DEMO_CUSTOMER_NAME.to_owned()),
        is_demo: true,
    };
    let (customer, _) = register_customer(store, clock, registration).await?;
    tracing::info!(customer_id = customer.id, "created the demo tenant");
    Ok(())
}
