use chrono::{Duration, Utc};
use costscope_server::auth::tokens::Claims;
use costscope_server::config::LoginRateLimit;
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::helpers::{
    assert_error, assert_invalid, refresh_cookie, spawn_app, spawn_app_with, status_and_json,
    PASSWORD, TEST_AUTH_SECRET,
};

#[tokio::test]
async fn signup_creates_an_owner_and_returns_a_session() {
    let app = spawn_app().await;

    let response = app
        .signup(&json!({"name": "Ada Lovelace", "email": "Ada@Example.com", "password": PASSWORD}))
        .await;

    assert!(refresh_cookie(&response).is_some_and(|token| token.len() >= 43));
    let (status, body) = status_and_json(response).await;
    assert_eq!(status, StatusCode::CREATED);
    assert_eq!(body["token_type"], "Bearer");
    assert_eq!(body["expires_in"], 900);
    assert!(body["access_token"].as_str().unwrap().len() > 20);
    assert!(
        body.get("refresh_token").is_none(),
        "the refresh token is only a cookie"
    );
    let user = &body["user"];
    assert_eq!(user["name"], "Ada Lovelace");
    assert_eq!(user["email"], "ada@example.com");
    assert_eq!(user["role"], "owner");
    assert_eq!(user["status"], "active");
}

#[tokio::test]
async fn signup_reports_every_missing_field_with_422() {
    let app = spawn_app().await;

    let (status, body) = status_and_json(app.signup(&json!({})).await).await;

    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(body["message"], "Name is required");
    assert_eq!(
        body["details"],
        json!({"name": ["Name is required"], "email": ["Email is required"], "password": ["Password is required"]})
    );
}

#[tokio::test]
async fn signup_rejects_an_invalid_email_with_422() {
    let app = spawn_app().await;
    let response = app
        .signup(&json!({"name": "Ada", "email": "ada.example.com", "password": PASSWORD}))
        .await;
    assert_invalid(response, "email", "Enter a valid email address").await;
}

#[tokio::test]
async fn signup_rejects_a_password_shorter_than_eight_characters_with_422() {
    let app = spawn_app().await;
    let response = app
        .signup(&json!({"name": "Ada", "email": "ada@example.com", "password": "1234567"}))
        .await;
    assert_invalid(
        response,
        "password",
        "Password must be at least 8 characters",
    )
    .await;
}

#[tokio::test]
async fn signup_rejects_a_blank_name_with_422() {
    let app = spawn_app().await;
    let response = app
        .signup(&json!({"name": "   ", "email": "ada@example.com", "password": PASSWORD}))
        .await;
    assert_invalid(response, "name", "Name is required").await;
}

#[tokio::test]
async fn signup_rejects_a_taken_email_with_409_in_any_letter_case() {
    let app = spawn_app().await;
    app.signup_owner("Ada", "ada@example.com").await;

    let response = app
        .signup(&json!({"name": "Other", "email": "ADA@example.com", "password": PASSWORD}))
        .await;

    assert_error(
        response,
        StatusCode::CONFLICT,
        "User ada@example.com already exists",
    )
    .await;
}

#[tokio::test]
async fn signup_rejects_a_malformed_body_with_a_json_400() {
    let app = spawn_app().await;
    let response = app
        .client
        .post(app.url("/v1/auth/signup"))
        .header("content-type", "application/json")
        .body("{not json")
        .send()
        .await
        .unwrap();
    let (status, body) = status_and_json(response).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(body["message"]
        .as_str()
        .unwrap()
        .starts_with("Invalid request body"));
}

#[tokio::test]
async fn login_with_the_right_password_returns_a_session() {
    let app = spawn_app().await;
    app.signup_owner("Ada", "ada@example.com").await;

    let response = app.login("ADA@example.com", PASSWORD).await;

    let (status, body) = status_and_json(response).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["user"]["email"], "ada@example.com");
    assert_eq!(body["token_type"], "Bearer");
}

#[tokio::test]
async fn login_fails_identically_for_unknown_email_wrong_password_and_pending_user() {
    let app = spawn_app().await;
    let owner = app.signup_owner("Ada", "ada@example.com").await;
    app.invite(&owner.access_token, "pending@example.com", "User")
        .await;

    let mut answers = Vec::new();
    for (email, password) in [
        ("nobody@example.com", PASSWORD),
        ("ada@example.com", "wrong-password"),
        ("pending@example.com", PASSWORD),
    ] {
        answers.push(status_and_json(app.login(email, password).await).await);
    }

    for answer in &answers {
        assert_eq!(
            answer,
            &(
                StatusCode::UNAUTHORIZED,
                json!({"message": "Incorrect email or password"})
            )
        );
    }
}

#[tokio::test]
async fn login_from_one_address_waits_after_too_many_failures_for_one_account() {
    let app = spawn_app_with(|config| {
        config.login_rate_limit = LoginRateLimit {
            max_failures_per_pair: 3,
            max_attempts_per_address: 100,
            ..LoginRateLimit::default()
        };
    })
    .await;
    app.signup_owner("Ada", "ada@example.com").await;
    for _ in 0..3 {
        assert_eq!(
            app.login("ada@example.com", "wrong-password")
                .await
                .status(),
            StatusCode::UNAUTHORIZED
        );
    }

    let refused = app.login("ada@example.com", PASSWORD).await;

    assert!(refused.headers().contains_key("retry-after"));
    assert_error(
        refused,
        StatusCode::TOO_MANY_REQUESTS,
        "Too many sign-in attempts. Try again in 1 minutes.",
    )
    .await;
    assert_eq!(
        app.login("other@example.com", "x").await.status(),
        StatusCode::UNAUTHORIZED,
        "other accounts still try"
    );
}

#[tokio::test]
async fn login_is_refused_with_429_after_too_many_attempts_from_one_address() {
    let app = spawn_app_with(|config| {
        config.login_rate_limit = LoginRateLimit {
            max_failures_per_pair: 100,
            max_attempts_per_address: 4,
            ..LoginRateLimit::default()
        };
    })
    .await;
    app.signup_owner("Ada", "ada@example.com").await;
    for n in 0..4 {
        app.login(&format!("user{n}@example.com"), "whatever").await;
    }

    let refused = app.login("ada@example.com", PASSWORD).await;

    assert_error(
        refused,
        StatusCode::TOO_MANY_REQUESTS,
        "Too many sign-in attempts. Try again in 15 minutes.",
    )
    .await;
}

#[tokio::test]
async fn refresh_rotates_the_session_and_refuses_the_used_token() {
    let app = spawn_app().await;
    let session = app.signup_owner("Ada", "ada@example.com").await;

    let response = app.refresh(&session.refresh_token).await;
    assert_eq!(response.status(), StatusCode::OK);
    let renewed = crate::helpers::Session::from_response(response).await;
    assert_ne!(renewed.refresh_token, session.refresh_token);
    assert_eq!(
        app.get("/v1/auth/me", Some(&renewed.access_token))
            .await
            .status(),
        StatusCode::OK
    );

    let reused = app.refresh(&session.refresh_token).await;
    assert_error(
        reused,
        StatusCode::UNAUTHORIZED,
        "Your session has expired. Please sign in again.",
    )
    .await;
    // The replay ended the session: the successor is revoked too (reuse detection).
    let next = app.refresh(&renewed.refresh_token).await;
    assert_eq!(next.status(), StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn refresh_with_an_unknown_token_is_401() {
    let app = spawn_app().await;
    let response = app.refresh("made-up").await;
    assert_error(
        response,
        StatusCode::UNAUTHORIZED,
        "Your session has expired. Please sign in again.",
    )
    .await;
}

#[tokio::test]
async fn logout_revokes_the_refresh_token() {
    let app = spawn_app().await;
    let session = app.signup_owner("Ada", "ada@example.com").await;

    let response = app.logout(&session.refresh_token).await;
    assert_eq!(response.status(), StatusCode::NO_CONTENT);

    let refresh = app.refresh(&session.refresh_token).await;
    assert_error(
        refresh,
        StatusCode::UNAUTHORIZED,
        "Your session has expired. Please sign in again.",
    )
    .await;
}

#[tokio::test]
async fn logout_with_an_unknown_token_is_still_204() {
    let app = spawn_app().await;
    let response = app.logout("never-issued").await;
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
}

#[tokio::test]
async fn me_returns_the_signed_in_user() {
    let app = spawn_app().await;
    let session = app.signup_owner("Ada", "ada@example.com").await;

    let (status, body) =
        status_and_json(app.get("/v1/auth/me", Some(&session.access_token)).await).await;

    assert_eq!(status, StatusCode::OK);
    assert_eq!(body, serde_json::to_value(&session.user).unwrap());
}

fn signed_token(claims: &Claims, secret: &str) -> String {
    jsonwebtoken::encode(
        &jsonwebtoken::Header::default(),
        claims,
        &jsonwebtoken::EncodingKey::from_secret(secret.as_bytes()),
    )
    .unwrap()
}

#[tokio::test]
async fn missing_garbage_expired_and_foreign_tokens_are_401() {
    let app = spawn_app().await;
    let session = app.signup_owner("Ada", "ada@example.com").await;
    let now = Utc::now();
    let claims = |issued: chrono::DateTime<Utc>| Claims {
        sub: session.user.id.to_string(),
        cid: session.user.customer_id,
        iat: issued.timestamp(),
        exp: (issued + Duration::minutes(15)).timestamp(),
    };
    let expired = signed_token(&claims(now - Duration::minutes(16)), TEST_AUTH_SECRET);
    let foreign = signed_token(&claims(now), "some-other-secret");
    assert_eq!(
        app.get(
            "/v1/auth/me",
            Some(&signed_token(&claims(now), TEST_AUTH_SECRET))
        )
        .await
        .status(),
        StatusCode::OK
    );

    for token in [
        None,
        Some("garbage"),
        Some(expired.as_str()),
        Some(foreign.as_str()),
    ] {
        for path in ["/v1/auth/me", "/v1/customer", "/v1/account", "/v1/users"] {
            let response = app.get(path, token).await;
            assert_error(
                response,
                StatusCode::UNAUTHORIZED,
                "Authentication required",
            )
            .await;
        }
    }
}

#[tokio::test]
async fn a_non_bearer_authorization_header_is_401() {
    let app = spawn_app().await;
    let response = app
        .client
        .get(app.url("/v1/auth/me"))
        .basic_auth("ada", Some("pw"))
        .send()
        .await
        .unwrap();
    let (status, body): (StatusCode, Value) = status_and_json(response).await;
    assert_eq!(
        (status, body),
        (
            StatusCode::UNAUTHORIZED,
            json!({"message": "Authentication required"})
        )
    );
}
