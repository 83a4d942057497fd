//! Helpers shared by the store's test suites (a module of each, not a test crate of its own).

use std::future::Future;
use std::sync::Arc;

use chrono::{DateTime, Duration, SubsecRound, Utc};
use costscope_core::{Email, User};
use costscope_store::testing::TestDatabase;
use costscope_store::{connect, MetadataStore, NewCustomer};

/// Runs `test` on SQLite, then on PostgreSQL when `COSTSCOPE_TEST_POSTGRES_URL` names a server
/// (each run gets its own database).
pub async fn for_each_backend<F, Fut>(test: F)
where
    F: Fn(Arc<dyn MetadataStore>) -> Fut,
    Fut: Future<Output = ()>,
{
    let dir = tempfile::tempdir().unwrap();
    let store = connect(&format!(
        "sqlite://{}",
        dir.path().join("test.db").display()
    ))
    .await
    .unwrap();
    store.migrate().await.unwrap();
    test(store.clone()).await;
    store.close().await;

    if let Some(database) = TestDatabase::create_if_configured().await {
        let store = connect(database.url()).await.unwrap();
        store.migrate().await.unwrap();
        test(store.clone()).await;
        store.close().await;
        database.drop_database().await;
    }
}

pub fn now() -> DateTime<Utc> {
    Utc::now().trunc_subsecs(6)
}

pub fn email(address: &str) -> Email {
    Email::parse(address).unwrap()
}

pub async fn create_customer(store: &dyn MetadataStore, owner_email: &str) -> (i64, User) {
    let owner_email = email(owner_email);
    let (customer, owner) = store
        .create_customer_with_owner(NewCustomer {
            name: "Acme",
            trial_end: now() + Duration::days(30),
            is_demo: false,
            owner_name: "Olive Owner",
            owner_email: &owner_email,
            owner_password_hash: "hash",
            now: now(),
        })
        .await
        .unwrap();
    (customer.id, owner)
}
