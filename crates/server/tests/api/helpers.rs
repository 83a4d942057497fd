//! `spawn_app()` and typed requests against the real server.

use std::sync::Arc;

use costscope_core::User;
use costscope_engine::CostEngine;
use costscope_server::config::{Config, LoginRateLimit, RateLimits};
use costscope_server::startup::Application;
use costscope_store::testing::TestDatabase;
use costscope_store::MetadataStore;
use reqwest::{Response, StatusCode};
use secrecy::SecretString;
use serde_json::{json, Value};
use tempfile::TempDir;

/// At least 32 bytes, as the server requires of a configured secret.
pub const TEST_AUTH_SECRET: &str = "test-secret-for-api-tests-at-least-32-bytes";
pub const PASSWORD: &str = "correct-horse-battery";

pub struct TestApp {
    pub address: String,
    pub client: reqwest::Client,
    /// Kept so the data directory lives as long as the app.
    pub data_dir: TempDir,
    /// The app's own store, for arranging what the API cannot.
    pub store: Arc<dyn MetadataStore>,
    /// The app's own cost engine, for driving jobs directly.
    pub engine: Arc<dyn CostEngine>,
    /// The app's whole state (its wake-ups, its source factory for cloud syncs).
    pub state: costscope_server::state::AppState,
    /// The PostgreSQL database of this test, when `COSTSCOPE_TEST_POSTGRES_URL` is set.
    _postgres: Option<DropDatabaseOnExit>,
}

/// The real app on a free port with a fresh data directory, on SQLite, or on a fresh
/// PostgreSQL database when `COSTSCOPE_TEST_POSTGRES_URL` is set; its cost data on DuckDB, or
/// on a fresh ClickHouse database when `COSTSCOPE_TEST_COST_ENGINE=clickhouse`.
pub async fn spawn_app() -> TestApp {
    spawn_app_with(|_| {}).await
}

pub async fn spawn_app_with(configure: impl FnOnce(&mut Config)) -> TestApp {
    let postgres = TestDatabase::create_if_configured().await;
    let database_url = postgres.as_ref().map(|database| database.url().to_owned());
    let mut app = spawn_app_in(tempfile::tempdir().expect("temp dir"), |config| {
        if let Some(url) = database_url {
            config.database_url = SecretString::from(url);
        }
        configure(config);
    })
    .await;
    app._postgres = postgres.map(|database| DropDatabaseOnExit(Some(database)));
    app
}

/// The real app on SQLite in `data_dir` (which may already hold data), its cost data in the
/// engine under test ([`crate::engine_under_test`]: DuckDB in `data_dir`, or the ClickHouse
/// database of `data_dir`) unless `configure` names another.
pub async fn spawn_app_in(data_dir: TempDir, configure: impl FnOnce(&mut Config)) -> TestApp {
    let mut config = Config::with_data_dir(data_dir.path());
    config.cost_engine = crate::engine_under_test::setting_for(data_dir.path());
    config.addr = "127.0.0.1:0".to_owned();
    config.auth_secret = Some(SecretString::from(TEST_AUTH_SECRET));
    // Generous limits so that only the rate-limit tests hit them.
    config.login_rate_limit = LoginRateLimit {
        max_failures_per_pair: 1000,
        max_attempts_per_address: 1000,
        ..LoginRateLimit::default()
    };
    config.rate_limits = RateLimits {
        signups_per_hour: 1000,
        refreshes_per_minute: 1000,
        invitation_attempts_per_minute: 1000,
        ..RateLimits::default()
    };
    // The tests' emulators and stand-ins listen on loopback (cloud_endpoints.rs tests the default).
    config.cloud.allow_custom_endpoints = true;
    configure(&mut config);
    let app = Application::build(config).await.expect("build the app");
    let address = format!("http://127.0.0.1:{}", app.port());
    let store = app.state().store.clone();
    let engine = app.state().engine.clone();
    let state = app.state().clone();
    tokio::spawn(app.run_until_stopped());
    TestApp {
        address,
        client: reqwest::Client::new(),
        data_dir,
        store,
        engine,
        state,
        _postgres: None,
    }
}

/// Drops the test's PostgreSQL database when the test ends.
struct DropDatabaseOnExit(Option<TestDatabase>);

impl Drop for DropDatabaseOnExit {
    fn drop(&mut self) {
        let Some(database) = self.0.take() else {
            return;
        };
        // Drop cannot await: drop the database from a runtime of its own.
        std::thread::spawn(move || {
            tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("runtime")
                .block_on(database.drop_database());
        })
        .join()
        .expect("drop the test database");
    }
}

impl TestApp {
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.address)
    }

    pub async fn get(&self, path: &str, token: Option<&str>) -> Response {
        let mut request = self.client.get(self.url(path));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        request.send().await.expect("GET")
    }

    pub async fn post(&self, path: &str, token: Option<&str>, body: &Value) -> Response {
        let mut request = self.client.post(self.url(path)).json(body);
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        request.send().await.expect("POST")
    }

    pub async fn put(&self, path: &str, token: &str, body: &Value) -> Response {
        self.client
            .put(self.url(path))
            .bearer_auth(token)
            .json(body)
            .send()
            .await
            .expect("PUT")
    }

    pub async fn delete(&self, path: &str, token: &str) -> Response {
        self.client
            .delete(self.url(path))
            .bearer_auth(token)
            .send()
            .await
            .expect("DELETE")
    }

    pub async fn signup(&self, body: &Value) -> Response {
        self.post("/v1/auth/signup", None, body).await
    }

    /// Signs up a new customer and returns its owner's session.
    pub async fn signup_owner(&self, name: &str, email: &str) -> Session {
        let response = self
            .signup(&json!({"name": name, "email": email, "password": PASSWORD}))
            .await;
        assert_eq!(response.status(), StatusCode::CREATED);
        Session::from_response(response).await
    }

    pub async fn login(&self, email: &str, password: &str) -> Response {
        self.post(
            "/v1/auth/login",
            None,
            &json!({"email": email, "password": password}),
        )
        .await
    }

    pub async fn invite(&self, token: &str, email: &str, role: &str) -> Response {
        self.post(
            "/v1/users/invite",
            Some(token),
            &json!({"email": email, "role": role}),
        )
        .await
    }

    pub async fn accept_invitation(
        &self,
        invite_url: &str,
        name: &str,
        password: &str,
    ) -> Response {
        let token = invite_token(invite_url);
        self.post(
            &format!("/v1/auth/invitations/{token}/accept"),
            None,
            &json!({"name": name, "password": password}),
        )
        .await
    }

    /// Invites `email` with `role` into the inviter's customer and signs them in.
    pub async fn add_member(
        &self,
        inviter_token: &str,
        name: &str,
        email: &str,
        role: &str,
    ) -> Session {
        let invited = self.invite(inviter_token, email, role).await;
        assert_eq!(invited.status(), StatusCode::CREATED);
        let invited: Value = invited.json().await.unwrap();
        let accepted = self
            .accept_invitation(invited["invite_url"].as_str().unwrap(), name, PASSWORD)
            .await;
        assert_eq!(accepted.status(), StatusCode::OK);
        Session::from_response(accepted).await
    }

    /// `POST /v1/auth/refresh` with the refresh token in its cookie, as a browser sends it.
    pub async fn refresh(&self, refresh_token: &str) -> Response {
        self.client
            .post(self.url("/v1/auth/refresh"))
            .header("cookie", format!("{REFRESH_COOKIE}={refresh_token}"))
            .send()
            .await
            .expect("POST /v1/auth/refresh")
    }

    /// `POST /v1/auth/logout` with the refresh token in its cookie.
    pub async fn logout(&self, refresh_token: &str) -> Response {
        self.client
            .post(self.url("/v1/auth/logout"))
            .header("cookie", format!("{REFRESH_COOKIE}={refresh_token}"))
            .send()
            .await
            .expect("POST /v1/auth/logout")
    }

    pub async fn get_user(&self, token: &str, user_id: i64) -> Response {
        self.get(&format!("/v1/users/{user_id}"), Some(token)).await
    }

    pub async fn delete_user(&self, token: &str, user_id: i64) -> Response {
        self.delete(&format!("/v1/users/{user_id}"), token).await
    }

    pub async fn update_user(&self, token: &str, user_id: i64, body: &Value) -> Response {
        self.put(&format!("/v1/users/{user_id}/role"), token, body)
            .await
    }
}

pub const REFRESH_COOKIE: &str = "costscope_refresh";

/// A signed-in session as a client holds it: the JSON answer's access token and user, and
/// the refresh token from the `Set-Cookie` header.
#[derive(Debug)]
pub struct Session {
    pub access_token: String,
    pub refresh_token: String,
    pub user: User,
}

impl Session {
    pub async fn from_response(response: Response) -> Self {
        let refresh_token = refresh_cookie(&response).expect("a refresh token cookie");
        let body: Value = response.json().await.expect("an AuthResponse");
        Session {
            access_token: body["access_token"]
                .as_str()
                .expect("access_token")
                .to_owned(),
            refresh_token,
            user: serde_json::from_value(body["user"].clone()).expect("a user"),
        }
    }
}

/// The refresh token a response sets in its cookie (`None` without one, `Some("")` when the
/// response clears it).
pub fn refresh_cookie(response: &Response) -> Option<String> {
    response
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|value| value.to_str().ok())
        .filter_map(|value| value.split(';').next())
        .filter_map(|pair| pair.split_once('='))
        .find(|(name, _)| *name == REFRESH_COOKIE)
        .map(|(_, value)| value.to_owned())
}

pub fn invite_token(invite_url: &str) -> &str {
    invite_url
        .rsplit_once("/invite/")
        .expect("an invite link")
        .1
}

/// Status and JSON body, for one-line assertions.
pub async fn status_and_json(response: Response) -> (StatusCode, Value) {
    let status = response.status();
    (status, response.json().await.expect("a JSON body"))
}

/// Asserts an error answer: status and `message`.
pub async fn assert_error(response: Response, status: StatusCode, message: &str) {
    let (actual_status, body) = status_and_json(response).await;
    assert_eq!(
        (actual_status, body["message"].as_str()),
        (status, Some(message)),
        "body: {body}"
    );
}

/// Asserts a 422 whose `details[field]` holds `message`.
pub async fn assert_invalid(response: Response, field: &str, message: &str) {
    let (status, body) = status_and_json(response).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "body: {body}");
    assert_eq!(body["details"][field], json!([message]), "body: {body}");
}

/// Uploads through `POST /v1/ingest` (see `tests/api/ingest.rs`).
impl TestApp {
    /// Sends `files` (name, content) as `file` parts, with a `format` part when given.
    pub async fn upload_files(
        &self,
        token: &str,
        files: &[(&str, Vec<u8>)],
        format: Option<&str>,
    ) -> Response {
        let mut form = reqwest::multipart::Form::new();
        for (name, content) in files {
            form = form.part(
                "file",
                reqwest::multipart::Part::bytes(content.clone()).file_name(name.to_string()),
            );
        }
        if let Some(format) = format {
            form = form.text("format", format.to_owned());
        }
        self.client
            .post(self.url("/v1/ingest"))
            .bearer_auth(token)
            .multipart(form)
            .send()
            .await
            .expect("POST /v1/ingest")
    }

    /// Polls `GET /v1/ingest/{id}` until the upload succeeded or failed (30 s at most), and
    /// answers the job.
    pub async fn wait_for_upload(&self, token: &str, id: i64) -> Value {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        loop {
            let (status, job) =
                status_and_json(self.get(&format!("/v1/ingest/{id}"), Some(token)).await).await;
            assert_eq!(status, StatusCode::OK, "body: {job}");
            if job["status"] == "succeeded" || job["status"] == "failed" {
                return job;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "upload {id} still {} after 30 s",
                job["status"]
            );
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
    }

    /// Uploads `files` (name, content) and waits for the load: the finished job (which may
    /// have failed; check `status`).
    pub async fn ingest_files(&self, token: &str, files: &[(&str, Vec<u8>)]) -> Value {
        let (status, body) = status_and_json(self.upload_files(token, files, None).await).await;
        assert_eq!(status, StatusCode::ACCEPTED, "body: {body}");
        self.wait_for_upload(token, body["id"].as_i64().expect("an upload id"))
            .await
    }
}

/// The child's stderr, line by line (read on a thread, so a test can wait with a timeout).
pub fn stderr_lines(child: &mut std::process::Child) -> std::sync::mpsc::Receiver<String> {
    use std::io::BufRead;
    let stderr = child.stderr.take().expect("the child's stderr is piped");
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stderr).lines() {
            let Ok(line) = line else { break };
            if sender.send(line).is_err() {
                break;
            }
        }
    });
    receiver
}

/// The metadata database several replicas share: a fresh PostgreSQL database when
/// `COSTSCOPE_TEST_POSTGRES_URL` is set, else a SQLite file in `dir`. Its URL, and the
/// PostgreSQL database to drop at the end.
pub async fn shared_metadata_database(
    dir: &std::path::Path,
) -> (String, Option<costscope_store::testing::TestDatabase>) {
    let postgres = costscope_store::testing::TestDatabase::create_if_configured().await;
    let url = match &postgres {
        Some(database) => database.url().to_owned(),
        None => format!("sqlite://{}", dir.join("shared.db").display()),
    };
    (url, postgres)
}
