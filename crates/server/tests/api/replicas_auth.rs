//! Issue 18, "Replicas": two real servers, each with its own data directory, on ONE metadata
//! store (the PostgreSQL of `COSTSCOPE_TEST_POSTGRES_URL`; without it, one SQLite file both
//! open) share rate limits and sessions.

use std::path::Path;

use costscope_server::auth::client_address::TrustedProxies;
use costscope_server::config::{Config, LoginRateLimit, Overrides};
use costscope_store::testing::TestDatabase;
use reqwest::StatusCode;
use secrecy::SecretString;
use tempfile::TempDir;

use crate::helpers::{assert_error, shared_metadata_database, spawn_app_in, Session, TestApp, PASSWORD};
use crate::sign_in_abuse::login_from;

const SESSION_EXPIRED: &str = "Your session has expired. Please sign in again.";

/// One metadata store for the replicas; dropped (on PostgreSQL) by [`Shared::finish`].
struct Shared {
    database_url: String,
    postgres: Option<TestDatabase>,
    /// The SQLite file, and the key files the operator gives every replica.
    dir: TempDir,
}

impl Shared {
    async fn new() -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        let (database_url, postgres) = shared_metadata_database(dir.path()).await;
        Self {
            database_url,
            postgres,
            dir,
        }
    }

    /// A key file as an operator writes it (`openssl rand -base64 48` and a newline).
    fn key_file(&self, name: &str, key: &str) -> std::path::PathBuf {
        let path = self.dir.path().join(name);
        std::fs::write(&path, format!("{key}\n")).unwrap();
        path
    }

    /// A replica: its own empty data directory, the shared store, behind a proxy on 127.0.0.1
    /// (so `X-Forwarded-For` names the client), sign-in limits as shipped.
    async fn replica(&self, configure: impl FnOnce(&mut Config)) -> TestApp {
        let url = self.database_url.clone();
        spawn_app_in(tempfile::tempdir().expect("temp dir"), |config| {
            config.database_url = SecretString::from(url);
            config.trusted_proxies = TrustedProxies::parse(&["127.0.0.1"]).unwrap();
            config.login_rate_limit = LoginRateLimit::default();
            configure(config);
        })
        .await
    }

    async fn finish(self) {
        if let Some(database) = self.postgres {
            database.drop_database().await;
        }
    }
}

/// The auth secret and the secrets key as `serve` reads them from `COSTSCOPE_AUTH_SECRET_FILE`
/// and `COSTSCOPE_SECRETS_KEY_FILE`.
fn keys_from_files(config: &mut Config, auth_secret_file: &Path, secrets_key_file: &Path) {
    let loaded = Config::load(Overrides {
        auth_secret_file: Some(auth_secret_file.to_owned()),
        secrets_key_file: Some(secrets_key_file.to_owned()),
        ..Overrides::default()
    })
    .unwrap();
    config.auth_secret = loaded.auth_secret;
    config.secrets_key = loaded.secrets_key;
}

#[tokio::test]
async fn failures_counted_on_one_replica_delay_sign_in_on_the_other() {
    let shared = Shared::new().await;
    let a = shared.replica(|_| {}).await;
    let b = shared.replica(|_| {}).await;
    a.signup_owner("Ada", "ada@example.com").await;
    let attacker = "203.0.113.66";

    // The five free failures, spread over both replicas.
    for replica in [&a, &b, &a, &b, &a] {
        let answer = login_from(replica, attacker, "ada@example.com", "guess").await;
        assert_eq!(answer.status(), StatusCode::UNAUTHORIZED);
    }

    let refused = login_from(&b, attacker, "ada@example.com", PASSWORD).await;

    assert_eq!(refused.status(), StatusCode::TOO_MANY_REQUESTS);
    let wait: u64 = refused.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((29..=30).contains(&wait), "the first wait is 30 s: {wait}");
    assert_error(
        refused,
        StatusCode::TOO_MANY_REQUESTS,
        "Too many sign-in attempts. Try again in 1 minutes.",
    )
    .await;
    let again_on_a = login_from(&a, attacker, "ada@example.com", PASSWORD).await;
    assert_eq!(again_on_a.status(), StatusCode::TOO_MANY_REQUESTS);
    // Ada, from her own address, signs in at once on either replica.
    for replica in [&a, &b] {
        let own = login_from(replica, "198.51.100.7", "ada@example.com", PASSWORD).await;
        assert_eq!(own.status(), StatusCode::OK);
    }
    shared.finish().await;
}

#[tokio::test]
async fn an_addresss_attempt_budget_is_spent_across_replicas() {
    let shared = Shared::new().await;
    let three = |config: &mut Config| config.login_rate_limit.max_attempts_per_address = 3;
    let a = shared.replica(three).await;
    let b = shared.replica(three).await;
    for (replica, n) in [(&a, 0), (&b, 1), (&a, 2)] {
        let answer = login_from(replica, "203.0.113.1", &format!("u{n}@example.com"), "x").await;
        assert_eq!(answer.status(), StatusCode::UNAUTHORIZED);
    }

    let refused = login_from(&b, "203.0.113.1", "u9@example.com", "x").await;

    assert_error(
        refused,
        StatusCode::TOO_MANY_REQUESTS,
        "Too many sign-in attempts. Try again in 15 minutes.",
    )
    .await;
    let other = login_from(&b, "203.0.113.2", "u9@example.com", "x").await;
    assert_eq!(other.status(), StatusCode::UNAUTHORIZED);
    shared.finish().await;
}

#[tokio::test]
async fn a_session_started_on_one_replica_lives_and_ends_on_the_other() {
    let shared = Shared::new().await;
    let auth_secret = shared.key_file(
        "auth-secret",
        "shared-auth-secret-of-the-replicas-0123456789",
    );
    let secrets_key = shared.key_file(
        "secrets-key",
        "shared-secrets-key-of-the-replicas-0123456789",
    );
    let a = shared
        .replica(|config| keys_from_files(config, &auth_secret, &secrets_key))
        .await;
    let b = shared
        .replica(|config| keys_from_files(config, &auth_secret, &secrets_key))
        .await;
    let ada = a.signup_owner("Ada", "ada@example.com").await;

    // A's access token is accepted by B.
    let me = b.get("/v1/auth/me", Some(&ada.access_token)).await;
    assert_eq!(me.status(), StatusCode::OK);
    // B rotates A's refresh token; the rotated one is a replay on A.
    let rotated = Session::from_response(b.refresh(&ada.refresh_token).await).await;
    assert_eq!(
        a.get("/v1/auth/me", Some(&rotated.access_token))
            .await
            .status(),
        StatusCode::OK
    );
    // A signs the session out; B refuses its refresh token.
    let second = Session::from_response(a.login("ada@example.com", PASSWORD).await).await;
    assert_eq!(
        a.logout(&second.refresh_token).await.status(),
        StatusCode::NO_CONTENT
    );
    assert_error(
        b.refresh(&second.refresh_token).await,
        StatusCode::UNAUTHORIZED,
        SESSION_EXPIRED,
    )
    .await;
    // A connection secret B stores, A reads.
    let sealed = b.state.secrets.encrypt("azure-client-secret");
    assert_eq!(
        a.state.secrets.decrypt(&sealed).unwrap(),
        "azure-client-secret"
    );
    shared.finish().await;
}

/// Why the keys must be shared: replicas that each generate their own into their data
/// directory refuse each other's access tokens and stored secrets (refresh tokens, in the
/// store, still work everywhere).
#[tokio::test]
async fn replicas_with_their_own_generated_keys_refuse_each_others_tokens() {
    let shared = Shared::new().await;
    let generated = |config: &mut Config| {
        config.auth_secret = None;
        config.secrets_key = None;
    };
    let a = shared.replica(generated).await;
    let b = shared.replica(generated).await;
    assert!(a.data_dir.path().join("auth-secret.key").exists());
    let ada = a.signup_owner("Ada", "ada@example.com").await;

    assert_error(
        b.get("/v1/auth/me", Some(&ada.access_token)).await,
        StatusCode::UNAUTHORIZED,
        "Authentication required",
    )
    .await;
    let sealed = a.state.secrets.encrypt("gcp-key");
    assert!(b.state.secrets.decrypt(&sealed).is_err());
    let refreshed = b.refresh(&ada.refresh_token).await;
    assert_eq!(refreshed.status(), StatusCode::OK);
    shared.finish().await;
}
