//! Issue 12, "Sign-in and sessions": the review's findings, tried as an attacker would.

use costscope_server::config::{LoginRateLimit, RateLimits};
use costscope_server::startup::Application;
use reqwest::{Response, StatusCode};
use secrecy::SecretString;
use serde_json::{json, Value};

use crate::helpers::{
    assert_error, invite_token, refresh_cookie, spawn_app, spawn_app_with, status_and_json,
    Session, TestApp, PASSWORD,
};

const TOO_MANY_SIGN_INS_15: &str = "Too many sign-in attempts. Try again in 15 minutes.";
const SESSION_EXPIRED: &str = "Your session has expired. Please sign in again.";

/// The app behind a reverse proxy on 127.0.0.1 (the test client's address), with sign-in
/// limits as shipped.
async fn app_behind_proxy(
    configure: impl FnOnce(&mut costscope_server::config::Config),
) -> TestApp {
    spawn_app_with(|config| {
        config.trusted_proxies =
            costscope_server::auth::client_address::TrustedProxies::parse(&["127.0.0.1"]).unwrap();
        config.login_rate_limit = LoginRateLimit::default();
        configure(config);
    })
    .await
}

/// `POST path` with `body` as if from `client` (the proxy's `X-Forwarded-For`).
async fn post_from(app: &TestApp, client: &str, path: &str, body: &Value) -> Response {
    app.client
        .post(app.url(path))
        .header("x-forwarded-for", client)
        .json(body)
        .send()
        .await
        .expect("POST")
}

pub(crate) async fn login_from(
    app: &TestApp,
    client: &str,
    email: &str,
    password: &str,
) -> Response {
    post_from(
        app,
        client,
        "/v1/auth/login",
        &json!({"email": email, "password": password}),
    )
    .await
}

#[tokio::test]
async fn ten_wrong_passwords_from_a_stranger_do_not_lock_the_owner_out() {
    let app = app_behind_proxy(|_| {}).await;
    app.signup_owner("Ada", "ada@example.com").await;
    let attacker = "203.0.113.66";

    let mut answers = Vec::new();
    for _ in 0..10 {
        answers.push(
            login_from(&app, attacker, "ada@example.com", "guess")
                .await
                .status(),
        );
    }

    // The first failures are answered; then the stranger has to wait, growing waits.
    assert!(answers[..5].iter().all(|s| *s == StatusCode::UNAUTHORIZED));
    assert!(answers[5..]
        .iter()
        .all(|s| *s == StatusCode::TOO_MANY_REQUESTS));
    let refused = login_from(&app, attacker, "ada@example.com", PASSWORD).await;
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
    // Ada, from her own address, signs in at once.
    let own = login_from(&app, "198.51.100.7", "ada@example.com", PASSWORD).await;
    assert_eq!(own.status(), StatusCode::OK);
}

#[tokio::test]
async fn forwarded_for_from_an_untrusted_peer_is_ignored() {
    // No trusted proxies: the header is the client's own claim, and the peer address counts.
    let app = spawn_app_with(|config| {
        config.login_rate_limit = LoginRateLimit {
            max_attempts_per_address: 3,
            ..LoginRateLimit::default()
        };
    })
    .await;
    for n in 0..3 {
        let spoofed = format!("203.0.113.{n}");
        let answer = login_from(&app, &spoofed, "x@example.com", "guess").await;
        assert_eq!(answer.status(), StatusCode::UNAUTHORIZED);
    }

    let refused = login_from(&app, "198.51.100.250", "y@example.com", "guess").await;

    assert_error(refused, StatusCode::TOO_MANY_REQUESTS, TOO_MANY_SIGN_INS_15).await;
}

#[tokio::test]
async fn a_trusted_proxy_gives_each_client_its_own_attempt_budget() {
    let app = app_behind_proxy(|config| config.login_rate_limit.max_attempts_per_address = 3).await;
    for n in 0..3 {
        let answer = login_from(&app, "203.0.113.1", &format!("u{n}@example.com"), "x").await;
        assert_eq!(answer.status(), StatusCode::UNAUTHORIZED);
    }
    let refused = login_from(&app, "203.0.113.1", "u9@example.com", "x").await;
    assert_error(refused, StatusCode::TOO_MANY_REQUESTS, TOO_MANY_SIGN_INS_15).await;

    let other = login_from(&app, "203.0.113.2", "u9@example.com", "x").await;
    assert_eq!(other.status(), StatusCode::UNAUTHORIZED);
    // A forged left-most entry does not help: the proxy's right-most entry counts.
    let forged = login_from(&app, "10.9.9.9, 203.0.113.1", "u9@example.com", "x").await;
    assert_eq!(forged.status(), StatusCode::TOO_MANY_REQUESTS);
}

#[tokio::test]
async fn sign_up_is_limited_per_address() {
    let app = app_behind_proxy(|config| {
        config.rate_limits = RateLimits {
            signups_per_hour: 3,
            ..RateLimits::default()
        };
    })
    .await;
    let signup = |client: &'static str, n: u32| {
        let app = &app;
        async move {
            post_from(
                app,
                client,
                "/v1/auth/signup",
                &json!({"name": "Mallory", "email": format!("m{n}@example.com"), "password": PASSWORD}),
            )
            .await
        }
    };
    for n in 0..3 {
        assert_eq!(signup("203.0.113.5", n).await.status(), StatusCode::CREATED);
    }

    let refused = signup("203.0.113.5", 3).await;

    let wait: i64 = refused.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((3590..=3600).contains(&wait), "{wait}");
    assert_error(
        refused,
        StatusCode::TOO_MANY_REQUESTS,
        "Too many sign-ups from your address. Try again in 60 minutes.",
    )
    .await;
    assert_eq!(
        signup("198.51.100.9", 4).await.status(),
        StatusCode::CREATED
    );
}

#[tokio::test]
async fn refresh_and_invitation_links_are_limited_per_address() {
    let app = spawn_app_with(|config| {
        config.rate_limits = RateLimits {
            refreshes_per_minute: 2,
            invitation_attempts_per_minute: 2,
            ..RateLimits::default()
        };
    })
    .await;
    for _ in 0..2 {
        assert_eq!(
            app.refresh("made-up").await.status(),
            StatusCode::UNAUTHORIZED
        );
    }
    let refused = app.refresh("made-up").await;
    assert!(refused.headers().contains_key("retry-after"));
    assert_error(
        refused,
        StatusCode::TOO_MANY_REQUESTS,
        "Too many session refreshes from your address. Try again in 1 minute.",
    )
    .await;

    let guess = |n: u32| {
        let app = &app;
        async move {
            app.get(&format!("/v1/auth/invitations/guess-{n}"), None)
                .await
        }
    };
    assert_eq!(guess(1).await.status(), StatusCode::NOT_FOUND);
    let accept = app
        .post(
            "/v1/auth/invitations/guess-2/accept",
            None,
            &json!({"name": "Mallory", "password": PASSWORD}),
        )
        .await;
    assert_eq!(accept.status(), StatusCode::NOT_FOUND);
    assert_error(
        guess(3).await,
        StatusCode::TOO_MANY_REQUESTS,
        "Too many invitation attempts from your address. Try again in 1 minute.",
    )
    .await;
}

#[tokio::test]
async fn a_replayed_rotated_refresh_token_revokes_its_successor() {
    let app = spawn_app().await;
    let first = app.signup_owner("Ada", "ada@example.com").await;
    let elsewhere = Session::from_response(app.login("ada@example.com", PASSWORD).await).await;
    let rotated = app.refresh(&first.refresh_token).await;
    assert_eq!(rotated.status(), StatusCode::OK);
    let successor = refresh_cookie(&rotated).expect("a new refresh token");

    // A thief replays the old token: refused, and the cookie is cleared …
    let replay = app.refresh(&first.refresh_token).await;
    assert_eq!(refresh_cookie(&replay).as_deref(), Some(""));
    assert_error(replay, StatusCode::UNAUTHORIZED, SESSION_EXPIRED).await;
    // … and the successor, whoever holds it, is revoked with it.
    assert_error(
        app.refresh(&successor).await,
        StatusCode::UNAUTHORIZED,
        SESSION_EXPIRED,
    )
    .await;
    // A session from another sign-in lives on.
    assert_eq!(
        app.refresh(&elsewhere.refresh_token).await.status(),
        StatusCode::OK
    );
}

#[tokio::test]
async fn the_refresh_token_travels_only_in_an_http_only_strict_cookie() {
    let app = spawn_app().await;
    let signup = app
        .signup(&json!({"name": "Ada", "email": "ada@example.com", "password": PASSWORD}))
        .await;
    let login = app.login("ada@example.com", PASSWORD).await;
    for response in [signup, login] {
        let cookie = response.headers()["set-cookie"]
            .to_str()
            .unwrap()
            .to_owned();
        assert!(cookie.starts_with("costscope_refresh="), "{cookie}");
        for attribute in ["HttpOnly", "Secure", "SameSite=Strict", "Path=/v1/auth"] {
            assert!(cookie.contains(attribute), "{attribute} missing: {cookie}");
        }
        assert_eq!(response.headers()["cache-control"], "no-store");
        let body: Value = response.json().await.unwrap();
        assert!(body.get("refresh_token").is_none(), "{body}");
        assert!(body["access_token"].is_string());
    }
}

#[tokio::test]
async fn a_client_without_cookies_may_send_the_token_in_the_body() {
    let app = spawn_app().await;
    let session = app.signup_owner("Ada", "ada@example.com").await;
    let body = json!({ "refresh_token": session.refresh_token });

    let renewed = app.post("/v1/auth/refresh", None, &body).await;
    assert_eq!(renewed.status(), StatusCode::OK);
    let next = refresh_cookie(&renewed).unwrap();
    let logout = app
        .post("/v1/auth/logout", None, &json!({ "refresh_token": next }))
        .await;
    assert_eq!(logout.status(), StatusCode::NO_CONTENT);
    assert_eq!(refresh_cookie(&logout).as_deref(), Some(""));
    assert_error(
        app.refresh(&next).await,
        StatusCode::UNAUTHORIZED,
        SESSION_EXPIRED,
    )
    .await;
    // No cookie and no body: the session is simply not there.
    let bare = app
        .client
        .post(app.url("/v1/auth/refresh"))
        .send()
        .await
        .unwrap();
    assert_error(bare, StatusCode::UNAUTHORIZED, SESSION_EXPIRED).await;
}

#[tokio::test]
async fn the_bearer_scheme_is_case_insensitive() {
    let app = spawn_app().await;
    let session = app.signup_owner("Ada", "ada@example.com").await;
    for scheme in ["Bearer", "bearer", "BEARER"] {
        let response = app
            .client
            .get(app.url("/v1/auth/me"))
            .header(
                "authorization",
                format!("{scheme} {}", session.access_token),
            )
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{scheme}");
    }
}

#[tokio::test]
async fn with_sign_up_closed_sign_up_is_403_and_invitations_still_work() {
    let app = spawn_app_with(|config| config.allow_signup = false).await;
    let (_, public) = status_and_json(app.get("/v1/auth/config", None).await).await;
    assert_eq!(public["allow_signup"], false);

    let response = app
        .signup(&json!({"name": "Ada", "email": "ada@example.com", "password": PASSWORD}))
        .await;

    assert_error(
        response,
        StatusCode::FORBIDDEN,
        "Sign-up is closed on this server. Ask an administrator of your organisation to invite you.",
    )
    .await;
    // The company's owner (created with `costscope user create`) still invites people.
    let (customer, owner) = costscope_server::onboarding::register_customer(
        app.store.as_ref(),
        &costscope_core::SystemClock,
        costscope_server::onboarding::Registration {
            owner_name: costscope_core::FullName::parse("Olive Owner").unwrap(),
            email: costscope_core::Email::parse("olive@acme.test").unwrap(),
            password: costscope_core::Password::parse(PASSWORD).unwrap(),
            customer_name: None,
            is_demo: false,
        },
    )
    .await
    .unwrap();
    assert_eq!(owner.customer_id, customer.id);
    let token = Session::from_response(app.login("olive@acme.test", PASSWORD).await)
        .await
        .access_token;
    let member = app
        .add_member(&token, "Uma User", "uma@acme.test", "User")
        .await;
    assert_eq!(member.user.customer_id, customer.id);
}

#[tokio::test]
async fn a_configured_auth_secret_shorter_than_32_bytes_stops_the_start() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = costscope_server::config::Config::with_data_dir(dir.path());
    config.addr = "127.0.0.1:0".to_owned();
    config.auth_secret = Some(SecretString::from("too-short-secret"));

    let error = Application::build(config)
        .await
        .err()
        .expect("a start-up error");

    assert!(
        error
            .to_string()
            .contains("the configured auth secret has 16 bytes; it needs at least 32"),
        "{error:#}"
    );
}

#[tokio::test]
async fn the_invitation_link_still_works_once_per_token() {
    // Guard for the limiter: an honest invitee is never refused.
    let app = spawn_app().await;
    let owner = app.signup_owner("Olive", "olive@acme.test").await;
    let invited: Value = app
        .invite(&owner.access_token, "uma@acme.test", "User")
        .await
        .json()
        .await
        .unwrap();
    let link = invited["invite_url"].as_str().unwrap();
    assert_eq!(
        app.get(
            &format!("/v1/auth/invitations/{}", invite_token(link)),
            None
        )
        .await
        .status(),
        StatusCode::OK
    );
    let accepted = app.accept_invitation(link, "Uma User", PASSWORD).await;
    assert_eq!(accepted.status(), StatusCode::OK);
    assert!(refresh_cookie(&accepted).is_some_and(|token| token.len() >= 43));
}
