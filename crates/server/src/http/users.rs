//! `/v1/users`: the customer's team (spec 2 §6 roles and permissions).

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::{get, post, put};
use axum::{Json, Router};
use chrono::Duration;
use costscope_connectors::OutgoingMail;
use costscope_core::{Email, Role, User, UserName};
use costscope_store::{NewInvitation, StoreError, UserChanges};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::error::{ApiError, ErrorBody};
use super::extract::{require_admin_level, ApiJson, AuthUser};
use crate::auth::tokens::{random_token, token_hash};
use crate::state::AppState;

const INVITATION_DAYS: i64 = 7;
const ADMINS_ONLY: &str = "Only owners and admins can manage users";
const USER_NOT_FOUND: &str = "User not found";

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/v1/users", get(list_users))
        .route("/v1/users/invite", post(invite_user))
        .route("/v1/users/{id}", get(get_user).delete(delete_user))
        .route("/v1/users/{id}/role", put(update_user))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct InviteRequest {
    #[serde(default)]
    #[schema(required = true)]
    pub email: String,
    /// `Admin` or `User`, in any letter case.
    #[serde(default)]
    #[schema(required = true)]
    pub role: String,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct InviteResponse {
    /// The new pending user.
    pub user: User,
    /// One-time link, valid 7 days, to share with the invitee.
    pub invite_url: String,
    /// Whether the link was e-mailed (SMTP configured and delivery succeeded).
    pub email_sent: bool,
}

/// Both fields optional; at least one must change something.
#[derive(Debug, Deserialize, ToSchema)]
pub struct UpdateUserRequest {
    pub name: Option<String>,
    /// `Admin` or `User`, in any letter case.
    pub role: Option<String>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct MessageResponse {
    pub message: String,
}

async fn find_user(state: &AppState, caller: &User, user_id: i64) -> Result<User, ApiError> {
    state
        .store
        .get_user(caller.customer_id, user_id)
        .await?
        .ok_or(ApiError::NotFound(USER_NOT_FOUND))
}

/// The team, owner first, then by name.
#[utoipa::path(get, path = "/v1/users", tag = "users", security(("bearer" = [])), responses(
    (status = 200, body = [User]),
    (status = 401, description = "Authentication required", body = ErrorBody),
))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id))]
pub async fn list_users(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
) -> Result<Json<Vec<User>>, ApiError> {
    Ok(Json(state.store.list_users(caller.customer_id).await?))
}

#[utoipa::path(get, path = "/v1/users/{id}", tag = "users", security(("bearer" = [])),
    params(("id" = i64, Path, description = "User id")),
    responses(
        (status = 200, body = User),
        (status = 404, description = "User not found", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id, user_id))]
pub async fn get_user(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
    Path(user_id): Path<i64>,
) -> Result<Json<User>, ApiError> {
    Ok(Json(find_user(&state, &caller, user_id).await?))
}

/// Invite a team member: a pending user with a one-time link, e-mailed when SMTP is set up.
#[utoipa::path(post, path = "/v1/users/invite", tag = "users", security(("bearer" = [])),
    request_body = InviteRequest,
    responses(
        (status = 201, body = InviteResponse),
        (status = 403, description = "Only owners and admins can manage users", body = ErrorBody),
        (status = 409, description = "User {email} already exists", body = ErrorBody),
        (status = 422, body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id))]
pub async fn invite_user(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
    ApiJson(body): ApiJson<InviteRequest>,
) -> Result<(StatusCode, Json<InviteResponse>), ApiError> {
    require_admin_level(&caller, ADMINS_ONLY)?;
    let (email, role) = match (
        Email::parse(&body.email),
        Role::parse_assignable(&body.role),
    ) {
        (Ok(email), Ok(role)) => (email, role),
        (email, role) => return Err(ApiError::validation([email.err(), role.err()])),
    };
    let token = random_token();
    let now = state.clock.now();
    let invited = state
        .store
        .invite_user(NewInvitation {
            customer_id: caller.customer_id,
            email: &email,
            role,
            invited_by: caller.id,
            token_hash: &token_hash(&token),
            expires_at: now + Duration::days(INVITATION_DAYS),
            now,
        })
        .await;
    let user = match invited {
        Ok(user) => user,
        Err(StoreError::Conflict) => {
            return Err(ApiError::Conflict(format!("User {email} already exists")))
        }
        Err(err) => return Err(err.into()),
    };
    let invite_url = format!("{}/invite/{token}", state.public_url);
    let email_sent = send_invitation(&state, &caller, &email, &invite_url).await;
    Ok((
        StatusCode::CREATED,
        Json(InviteResponse {
            user,
            invite_url,
            email_sent,
        }),
    ))
}

/// E-mails the link when SMTP is configured. A delivery failure is logged, not fatal:
/// the admin still gets the link to share.
async fn send_invitation(
    state: &AppState,
    inviter: &User,
    email: &Email,
    invite_url: &str,
) -> bool {
    let Some(mailer) = &state.mailer else {
        return false;
    };
    let customer_name = match state.store.get_customer(inviter.customer_id).await {
        Ok(Some(customer)) => customer.name,
        _ => "Costscope".to_owned(),
    };
    let mail = OutgoingMail {
        to: email.to_string(),
        subject: format!(
            "{} invited you to {customer_name} on Costscope",
            inviter.name
        ),
        body: format!(
            "{} invited you to join {customer_name} on Costscope.\n\n\
             Accept the invitation and choose your password here:\n{invite_url}\n\n\
             The link works once and expires in {INVITATION_DAYS} days.\n",
            inviter.name
        ),
    };
    match mailer.send(mail).await {
        Ok(()) => true,
        Err(err) => {
            tracing::warn!(error = %err, "could not e-mail the invitation");
            false
        }
    }
}

/// Edit a user's name and/or role.
#[utoipa::path(put, path = "/v1/users/{id}/role", tag = "users", security(("bearer" = [])),
    params(("id" = i64, Path, description = "User id")),
    request_body = UpdateUserRequest,
    responses(
        (status = 200, body = User),
        (status = 400, description = "No changes made", body = ErrorBody),
        (status = 403, body = ErrorBody),
        (status = 404, description = "User not found", body = ErrorBody),
        (status = 422, body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id, user_id))]
pub async fn update_user(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
    Path(user_id): Path<i64>,
    ApiJson(body): ApiJson<UpdateUserRequest>,
) -> Result<Json<User>, ApiError> {
    let target = find_user(&state, &caller, user_id).await?;
    check_may_edit(&caller, &target, body.role.is_some())?;
    let role = body.role.as_deref().map(Role::parse_assignable);
    let name = body.name.as_deref().map(UserName::parse);
    let (role, name) = match (role.transpose(), name.transpose()) {
        (Ok(role), Ok(name)) => (role, name),
        (role, name) => return Err(ApiError::validation([name.err(), role.err()])),
    };
    let changes = UserChanges {
        name: name
            .as_ref()
            .map(UserName::as_str)
            .filter(|name| *name != target.name),
        role: role.filter(|role| *role != target.role),
    };
    if changes.name.is_none() && changes.role.is_none() {
        return Err(ApiError::BadRequest("No changes made".to_owned()));
    }
    let updated = state
        .store
        .update_user(caller.customer_id, target.id, changes)
        .await?;
    Ok(Json(updated.ok_or(ApiError::NotFound(USER_NOT_FOUND))?))
}

/// Who may edit whom (spec 2 §6): nobody edits the owner, plain users edit only their own
/// name, and nobody changes their own role.
fn check_may_edit(caller: &User, target: &User, changes_role: bool) -> Result<(), ApiError> {
    if target.role == Role::Owner {
        return Err(ApiError::Forbidden("The account owner cannot be edited"));
    }
    if !caller.role.is_admin_level() && (target.id != caller.id || changes_role) {
        return Err(ApiError::Forbidden("You can only edit your own name"));
    }
    if changes_role && target.id == caller.id {
        return Err(ApiError::Forbidden("You cannot change your own role"));
    }
    Ok(())
}

/// Remove a user; their sessions end at once.
#[utoipa::path(delete, path = "/v1/users/{id}", tag = "users", security(("bearer" = [])),
    params(("id" = i64, Path, description = "User id")),
    responses(
        (status = 200, body = MessageResponse),
        (status = 403, body = ErrorBody),
        (status = 404, description = "User not found", body = ErrorBody),
    ))]
#[tracing::instrument(skip_all, fields(customer_id = caller.customer_id, user_id))]
pub async fn delete_user(
    State(state): State<AppState>,
    AuthUser(caller): AuthUser,
    Path(user_id): Path<i64>,
) -> Result<Json<MessageResponse>, ApiError> {
    require_admin_level(&caller, ADMINS_ONLY)?;
    let target = find_user(&state, &caller, user_id).await?;
    if target.role == Role::Owner {
        return Err(ApiError::Forbidden("The account owner cannot be deleted"));
    }
    if target.id == caller.id {
        return Err(ApiError::Forbidden("You cannot delete yourself"));
    }
    if !state
        .store
        .delete_user(caller.customer_id, target.id)
        .await?
    {
        return Err(ApiError::NotFound(USER_NOT_FOUND));
    }
    Ok(Json(MessageResponse {
        message: "User deleted successfully".to_owned(),
    }))
}
