use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::helpers::{
    assert_error, assert_invalid, spawn_app, status_and_json, Session, TestApp, PASSWORD,
};

/// A customer with an owner, an admin and a plain user, all signed in.
struct Team {
    owner: Session,
    admin: Session,
    member: Session,
}

async fn team(app: &TestApp) -> Team {
    let owner = app.signup_owner("Olive Owner", "olive@acme.test").await;
    let admin = app
        .add_member(&owner.access_token, "Adam Admin", "adam@acme.test", "Admin")
        .await;
    let member = app
        .add_member(&owner.access_token, "Uma User", "uma@acme.test", "User")
        .await;
    Team {
        owner,
        admin,
        member,
    }
}

#[tokio::test]
async fn list_users_shows_the_owner_first_then_by_name() {
    let app = spawn_app().await;
    let team = team(&app).await;

    let (status, body) =
        status_and_json(app.get("/v1/users", Some(&team.member.access_token)).await).await;

    assert_eq!(status, StatusCode::OK);
    let names: Vec<&str> = body
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Olive Owner", "Adam Admin", "Uma User"]);
}

#[tokio::test]
async fn invite_creates_a_pending_user_with_a_one_time_link() {
    let app = spawn_app().await;
    let owner = app.signup_owner("Olive Owner", "olive@acme.test").await;

    let (status, body) = status_and_json(
        app.invite(&owner.access_token, "new@acme.test", "User")
            .await,
    )
    .await;

    assert_eq!(status, StatusCode::CREATED);
    assert_eq!(body["user"]["email"], "new@acme.test");
    assert_eq!(body["user"]["role"], "user");
    assert_eq!(body["user"]["status"], "pending");
    assert_eq!(body["user"]["customer_id"], owner.user.customer_id);
    assert_eq!(body["email_sent"], false);
    let link = body["invite_url"].as_str().unwrap();
    assert!(
        link.starts_with(&format!("{}/invite/", app.address)),
        "{link}"
    );
}

#[tokio::test]
async fn invite_accepts_the_role_in_any_letter_case() {
    let app = spawn_app().await;
    let owner = app.signup_owner("Olive Owner", "olive@acme.test").await;
    for (email, role, stored) in [
        ("a@acme.test", "ADMIN", "admin"),
        ("b@acme.test", "user", "user"),
        ("c@acme.test", "Admin", "admin"),
    ] {
        let (_, body) = status_and_json(app.invite(&owner.access_token, email, role).await).await;
        assert_eq!(body["user"]["role"], stored);
    }
}

#[tokio::test]
async fn invite_requires_email_and_role_with_422() {
    let app = spawn_app().await;
    let owner = app.signup_owner("Olive Owner", "olive@acme.test").await;

    let (status, body) = status_and_json(
        app.post("/v1/users/invite", Some(&owner.access_token), &json!({}))
            .await,
    )
    .await;

    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(body["message"], "Email is required");
    assert_eq!(
        body["details"],
        json!({"email": ["Email is required"], "role": ["Role is required"]})
    );
}

#[tokio::test]
async fn invite_rejects_an_invalid_email_with_422() {
    let app = spawn_app().await;
    let owner = app.signup_owner("Olive Owner", "olive@acme.test").await;
    let response = app
        .invite(&owner.access_token, "not-an-email", "User")
        .await;
    assert_invalid(response, "email", "Enter a valid email address").await;
}

#[tokio::test]
async fn invite_rejects_owner_or_unknown_roles_with_422() {
    let app = spawn_app().await;
    let owner = app.signup_owner("Olive Owner", "olive@acme.test").await;
    for role in ["Owner", "superuser"] {
        let response = app.invite(&owner.access_token, "new@acme.test", role).await;
        assert_invalid(response, "role", "Role must be Admin or User").await;
    }
}

#[tokio::test]
async fn invite_rejects_duplicate_email_with_409() {
    let app = spawn_app().await;
    let owner = app.signup_owner("Olive Owner", "olive@acme.test").await;
    app.signup_owner("Other Owner", "other@elsewhere.test")
        .await;
    app.invite(&owner.access_token, "new@acme.test", "User")
        .await;

    let again = app
        .invite(&owner.access_token, "NEW@acme.test", "Admin")
        .await;
    assert_error(
        again,
        StatusCode::CONFLICT,
        "User new@acme.test already exists",
    )
    .await;
    let in_other_customer = app
        .invite(&owner.access_token, "other@elsewhere.test", "User")
        .await;
    assert_error(
        in_other_customer,
        StatusCode::CONFLICT,
        "User other@elsewhere.test already exists",
    )
    .await;
}

#[tokio::test]
async fn an_admin_can_invite() {
    let app = spawn_app().await;
    let team = team(&app).await;
    let response = app
        .invite(&team.admin.access_token, "new@acme.test", "User")
        .await;
    assert_eq!(response.status(), StatusCode::CREATED);
}

#[tokio::test]
async fn a_plain_user_cannot_invite_with_403() {
    let app = spawn_app().await;
    let team = team(&app).await;
    let response = app
        .invite(&team.member.access_token, "new@acme.test", "User")
        .await;
    assert_error(
        response,
        StatusCode::FORBIDDEN,
        "Only owners and admins can manage users",
    )
    .await;
}

#[tokio::test]
async fn get_user_returns_a_team_member_and_404_for_unknown_ids() {
    let app = spawn_app().await;
    let team = team(&app).await;

    let (status, body) = status_and_json(
        app.get_user(&team.member.access_token, team.admin.user.id)
            .await,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body, serde_json::to_value(&team.admin.user).unwrap());

    let missing = app
        .get("/v1/users/999999", Some(&team.owner.access_token))
        .await;
    assert_error(missing, StatusCode::NOT_FOUND, "User not found").await;
}

#[tokio::test]
async fn the_owner_cannot_be_edited() {
    let app = spawn_app().await;
    let team = team(&app).await;
    for token in [
        &team.owner.access_token,
        &team.admin.access_token,
        &team.member.access_token,
    ] {
        let response = app
            .update_user(token, team.owner.user.id, &json!({"name": "New Name"}))
            .await;
        assert_error(
            response,
            StatusCode::FORBIDDEN,
            "The account owner cannot be edited",
        )
        .await;
    }
}

#[tokio::test]
async fn nobody_can_change_their_own_role() {
    let app = spawn_app().await;
    let team = team(&app).await;
    let response = app
        .update_user(
            &team.admin.access_token,
            team.admin.user.id,
            &json!({"role": "User"}),
        )
        .await;
    assert_error(
        response,
        StatusCode::FORBIDDEN,
        "You cannot change your own role",
    )
    .await;
}

#[tokio::test]
async fn a_plain_user_can_only_edit_their_own_name() {
    let app = spawn_app().await;
    let team = team(&app).await;
    let token = &team.member.access_token;

    let others_row = app
        .update_user(token, team.admin.user.id, &json!({"name": "Renamed"}))
        .await;
    assert_error(
        others_row,
        StatusCode::FORBIDDEN,
        "You can only edit your own name",
    )
    .await;
    let own_role = app
        .update_user(token, team.member.user.id, &json!({"role": "Admin"}))
        .await;
    assert_error(
        own_role,
        StatusCode::FORBIDDEN,
        "You can only edit your own name",
    )
    .await;

    let (status, body) = status_and_json(
        app.update_user(token, team.member.user.id, &json!({"name": "Uma Renamed"}))
            .await,
    )
    .await;
    assert_eq!(
        (status, &body["name"]),
        (StatusCode::OK, &json!("Uma Renamed"))
    );
}

#[tokio::test]
async fn an_admin_changes_a_members_role_in_any_letter_case_and_name() {
    let app = spawn_app().await;
    let team = team(&app).await;

    let response = app
        .update_user(
            &team.admin.access_token,
            team.member.user.id,
            &json!({"role": "ADMIN", "name": "Uma Upgraded   "}),
        )
        .await;

    let (status, body) = status_and_json(response).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["role"], "admin");
    assert_eq!(body["name"], "Uma Upgraded");
    let me: Value = app
        .get("/v1/auth/me", Some(&team.member.access_token))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        me["role"], "admin",
        "the role applies to the member's existing token at once"
    );
}

#[tokio::test]
async fn the_owner_role_cannot_be_granted() {
    let app = spawn_app().await;
    let team = team(&app).await;
    let response = app
        .update_user(
            &team.owner.access_token,
            team.member.user.id,
            &json!({"role": "owner"}),
        )
        .await;
    assert_invalid(response, "role", "Role must be Admin or User").await;
}

#[tokio::test]
async fn name_edits_follow_the_user_name_rules() {
    let app = spawn_app().await;
    let team = team(&app).await;
    for (name, message) in [
        ("", "Username cannot be empty"),
        ("    ", "Username cannot be empty"),
        (" Uma", "Can't start with a space"),
        ("Uma    User", "Too many consecutive spaces"),
        ("Uma", "Must be at least 4 characters"),
    ] {
        let response = app
            .update_user(
                &team.member.access_token,
                team.member.user.id,
                &json!({"name": name}),
            )
            .await;
        assert_invalid(response, "name", message).await;
    }
}

#[tokio::test]
async fn an_edit_that_changes_nothing_is_400() {
    let app = spawn_app().await;
    let team = team(&app).await;
    for body in [
        json!({}),
        json!({"name": "Uma User"}),
        json!({"name": "Uma User  ", "role": "user"}),
    ] {
        let response = app
            .update_user(&team.owner.access_token, team.member.user.id, &body)
            .await;
        assert_error(response, StatusCode::BAD_REQUEST, "No changes made").await;
    }
}

#[tokio::test]
async fn a_plain_user_cannot_delete_with_403() {
    let app = spawn_app().await;
    let team = team(&app).await;
    let response = app
        .delete_user(&team.member.access_token, team.admin.user.id)
        .await;
    assert_error(
        response,
        StatusCode::FORBIDDEN,
        "Only owners and admins can manage users",
    )
    .await;
}

#[tokio::test]
async fn the_owner_cannot_be_deleted() {
    let app = spawn_app().await;
    let team = team(&app).await;
    let response = app
        .delete_user(&team.admin.access_token, team.owner.user.id)
        .await;
    assert_error(
        response,
        StatusCode::FORBIDDEN,
        "The account owner cannot be deleted",
    )
    .await;
}

#[tokio::test]
async fn nobody_can_delete_themselves() {
    let app = spawn_app().await;
    let team = team(&app).await;
    let response = app
        .delete_user(&team.admin.access_token, team.admin.user.id)
        .await;
    assert_error(
        response,
        StatusCode::FORBIDDEN,
        "You cannot delete yourself",
    )
    .await;
}

#[tokio::test]
async fn deleting_a_user_ends_their_sessions_at_once() {
    let app = spawn_app().await;
    let team = team(&app).await;

    let response = app
        .delete_user(&team.admin.access_token, team.member.user.id)
        .await;

    let (status, body) = status_and_json(response).await;
    assert_eq!(
        (status, body),
        (
            StatusCode::OK,
            json!({"message": "User deleted successfully"})
        )
    );
    let me = app
        .get("/v1/auth/me", Some(&team.member.access_token))
        .await;
    assert_error(me, StatusCode::UNAUTHORIZED, "Authentication required").await;
    let refresh = app.refresh(&team.member.refresh_token).await;
    assert_error(
        refresh,
        StatusCode::UNAUTHORIZED,
        "Your session has expired. Please sign in again.",
    )
    .await;
    let login = app.login("uma@acme.test", PASSWORD).await;
    assert_error(
        login,
        StatusCode::UNAUTHORIZED,
        "Incorrect email or password",
    )
    .await;
    let again = app
        .delete_user(&team.admin.access_token, team.member.user.id)
        .await;
    assert_error(again, StatusCode::NOT_FOUND, "User not found").await;
}
