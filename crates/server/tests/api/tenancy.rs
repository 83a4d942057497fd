//! A user of customer A never sees or changes customer B's users.

use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::{assert_error, spawn_app, status_and_json};

#[tokio::test]
async fn another_customers_user_is_404_for_get_put_and_delete_and_stays_unchanged() {
    let app = spawn_app().await;
    let owner_a = app.signup_owner("Alice Owner", "alice@a.test").await;
    let owner_b = app.signup_owner("Bob Owner", "bob@b.test").await;
    let member_b = app
        .add_member(&owner_b.access_token, "Bea Member", "bea@b.test", "User")
        .await;

    assert_error(
        app.get_user(&owner_a.access_token, member_b.user.id).await,
        StatusCode::NOT_FOUND,
        "User not found",
    )
    .await;
    let edit = app
        .update_user(
            &owner_a.access_token,
            member_b.user.id,
            &json!({"name": "Hijacked", "role": "Admin"}),
        )
        .await;
    assert_error(edit, StatusCode::NOT_FOUND, "User not found").await;
    assert_error(
        app.delete_user(&owner_a.access_token, member_b.user.id)
            .await,
        StatusCode::NOT_FOUND,
        "User not found",
    )
    .await;
    assert_error(
        app.delete_user(&owner_a.access_token, owner_b.user.id)
            .await,
        StatusCode::NOT_FOUND,
        "User not found",
    )
    .await;

    let (status, body) =
        status_and_json(app.get_user(&owner_b.access_token, member_b.user.id).await).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body, serde_json::to_value(&member_b.user).unwrap());
    assert_eq!(
        app.get("/v1/auth/me", Some(&member_b.access_token))
            .await
            .status(),
        StatusCode::OK
    );
}

#[tokio::test]
async fn the_user_list_holds_only_the_callers_customer() {
    let app = spawn_app().await;
    let owner_a = app.signup_owner("Alice Owner", "alice@a.test").await;
    let owner_b = app.signup_owner("Bob Owner", "bob@b.test").await;
    app.add_member(&owner_b.access_token, "Bea Member", "bea@b.test", "User")
        .await;

    let (_, body) = status_and_json(app.get("/v1/users", Some(&owner_a.access_token)).await).await;

    let emails: Vec<&str> = body
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u["email"].as_str().unwrap())
        .collect();
    assert_eq!(emails, ["alice@a.test"]);
}
