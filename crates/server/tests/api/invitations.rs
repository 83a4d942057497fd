use costscope_connectors::testing::FakeSmtpServer;
use reqwest::StatusCode;
use secrecy::SecretString;
use serde_json::{json, Value};

use crate::helpers::{
    assert_error, assert_invalid, invite_token, spawn_app, spawn_app_with, status_and_json,
    PASSWORD,
};
use costscope_server::config::SmtpConfig;

const INVALID_LINK: &str = "This invitation link is invalid or has already been used";

async fn invite_link(app: &crate::helpers::TestApp, owner_token: &str, email: &str) -> String {
    let body: Value = app
        .invite(owner_token, email, "User")
        .await
        .json()
        .await
        .unwrap();
    body["invite_url"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn an_invitation_link_shows_email_customer_and_inviter() {
    let app = spawn_app().await;
    let owner = app.signup_owner("Olive Owner", "olive@acme.test").await;
    let link = invite_link(&app, &owner.access_token, "pat@acme.test").await;

    let response = app
        .get(
            &format!("/v1/auth/invitations/{}", invite_token(&link)),
            None,
        )
        .await;

    let (status, body) = status_and_json(response).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        body,
        json!({"email": "pat@acme.test", "customer_name": "Olive Owner", "invited_by": "Olive Owner"})
    );
}

#[tokio::test]
async fn accepting_sets_name_and_password_and_the_user_can_sign_in() {
    let app = spawn_app().await;
    let owner = app.signup_owner("Olive Owner", "olive@acme.test").await;
    let link = invite_link(&app, &owner.access_token, "pat@acme.test").await;

    let (status, body) = status_and_json(
        app.accept_invitation(&link, "Pat Person  ", "pat-password")
            .await,
    )
    .await;

    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["user"]["name"], "Pat Person");
    assert_eq!(body["user"]["status"], "active");
    assert_eq!(body["user"]["role"], "user");
    let login = app.login("pat@acme.test", "pat-password").await;
    assert_eq!(login.status(), StatusCode::OK);
}

#[tokio::test]
async fn an_invitation_link_works_only_once() {
    let app = spawn_app().await;
    let owner = app.signup_owner("Olive Owner", "olive@acme.test").await;
    let link = invite_link(&app, &owner.access_token, "pat@acme.test").await;
    assert_eq!(
        app.accept_invitation(&link, "Pat Person", PASSWORD)
            .await
            .status(),
        StatusCode::OK
    );

    let info = app
        .get(
            &format!("/v1/auth/invitations/{}", invite_token(&link)),
            None,
        )
        .await;
    assert_error(info, StatusCode::NOT_FOUND, INVALID_LINK).await;
    let again = app
        .accept_invitation(&link, "Someone Else", "other-password")
        .await;
    assert_error(again, StatusCode::NOT_FOUND, INVALID_LINK).await;
}

#[tokio::test]
async fn an_unknown_invitation_link_is_404() {
    let app = spawn_app().await;
    assert_error(
        app.get("/v1/auth/invitations/unknown", None).await,
        StatusCode::NOT_FOUND,
        INVALID_LINK,
    )
    .await;
    let accept = app
        .accept_invitation("http://x/invite/unknown", "Pat Person", PASSWORD)
        .await;
    assert_error(accept, StatusCode::NOT_FOUND, INVALID_LINK).await;
}

#[tokio::test]
async fn accepting_validates_the_name_and_password() {
    let app = spawn_app().await;
    let owner = app.signup_owner("Olive Owner", "olive@acme.test").await;
    let link = invite_link(&app, &owner.access_token, "pat@acme.test").await;

    assert_invalid(
        app.accept_invitation(&link, "Pat", PASSWORD).await,
        "name",
        "Must be at least 4 characters",
    )
    .await;
    assert_invalid(
        app.accept_invitation(&link, " Pat Person", PASSWORD).await,
        "name",
        "Can't start with a space",
    )
    .await;
    assert_invalid(
        app.accept_invitation(&link, "Pat Person", "short").await,
        "password",
        "Password must be at least 8 characters",
    )
    .await;
    assert_invalid(
        app.accept_invitation(&link, "Pat Person", "").await,
        "password",
        "Password is required",
    )
    .await;
    assert_eq!(
        app.accept_invitation(&link, "Pat Person", PASSWORD)
            .await
            .status(),
        StatusCode::OK,
        "the link survived"
    );
}

#[tokio::test]
async fn the_invitation_is_emailed_when_smtp_is_configured() {
    let smtp = FakeSmtpServer::start().await;
    let smtp_url = smtp.url();
    let app = spawn_app_with(|config| {
        config.public_url = Some("https://costscope.acme.test/".to_owned());
        config.smtp = Some(SmtpConfig {
            url: SecretString::from(smtp_url),
            from: "Costscope <noreply@acme.test>".to_owned(),
        });
    })
    .await;
    let owner = app.signup_owner("Olive Owner", "olive@acme.test").await;

    let (status, body) = status_and_json(
        app.invite(&owner.access_token, "pat@acme.test", "User")
            .await,
    )
    .await;

    assert_eq!(status, StatusCode::CREATED);
    assert_eq!(body["email_sent"], true);
    let link = body["invite_url"].as_str().unwrap();
    assert!(
        link.starts_with("https://costscope.acme.test/invite/"),
        "{link}"
    );
    let mail = smtp.next_message().await;
    assert_eq!(mail.recipients, ["pat@acme.test"]);
    assert!(
        mail.data.contains(link),
        "the mail holds the link: {}",
        mail.data
    );
    assert!(mail.data.contains("Olive Owner"));
}
