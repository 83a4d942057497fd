//! Throwaway PostgreSQL databases, one per test, so that tests can run in parallel.

use std::sync::atomic::{AtomicU32, Ordering};

use sqlx::{Connection, PgConnection};

/// The environment variable naming a PostgreSQL server for tests
/// (e.g. `postgres://postgres@127.0.0.1:5432/test`).
pub const POSTGRES_URL_VAR: &str = "COSTSCOPE_TEST_POSTGRES_URL";

/// A freshly created, uniquely named database. Call [`TestDatabase::drop_database`] when done.
#[derive(Debug)]
pub struct TestDatabase {
    server_url: String,
    name: String,
    url: String,
}

impl TestDatabase {
    /// Creates a database on the server named by [`POSTGRES_URL_VAR`], if it is set.
    pub async fn create_if_configured() -> Option<Self> {
        let server_url = std::env::var(POSTGRES_URL_VAR).ok()?;
        Some(Self::create(&server_url).await)
    }

    pub async fn create(server_url: &str) -> Self {
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let name = format!(
            "costscope_test_{}_{}_{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed),
            chrono::Utc::now().timestamp_micros()
        );
        let mut admin = PgConnection::connect(server_url)
            .await
            .expect("connect to the test PostgreSQL server");
        // The name is generated above from digits and underscores only.
        sqlx::query(&format!("CREATE DATABASE \"{name}\""))
            .execute(&mut admin)
            .await
            .expect("create test database");
        admin.close().await.expect("close admin connection");
        let base = server_url.split('?').next().unwrap_or(server_url);
        let (server, _) = base.rsplit_once('/').expect("the URL names a database");
        Self {
            server_url: server_url.to_owned(),
            url: format!("{server}/{name}"),
            name,
        }
    }

    /// The URL of the new database.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Drops the database, closing any connection still open on it.
    pub async fn drop_database(self) {
        let mut admin = PgConnection::connect(&self.server_url)
            .await
            .expect("connect to the test PostgreSQL server");
        sqlx::query(&format!("DROP DATABASE \"{}\" WITH (FORCE)", self.name))
            .execute(&mut admin)
            .await
            .expect("drop test database");
        admin.close().await.expect("close admin connection");
    }
}
