//! Microsoft Teams through Microsoft Graph end to end (docs/NOTIFICATIONS.md), against the
//! local identity platform and Graph stand-in: sign-in with PKCE, the picker, the configured
//! channel, a budget alert posted once as an Adaptive Card with a token refresh in between,
//! removal; and every error: 503 unconfigured, 400 bad state, 422 redirect URI, 502 Graph
//! error, 403 roles, 404 none configured or another tenant's.

use std::collections::HashMap;

use costscope_connectors::testing::teams::{PostedMessage, TeamsStandIn, CLIENT_ID, CLIENT_SECRET};
use costscope_core::notify::teams::{
    MANAGERS_ONLY, NONE_CONFIGURED, NOT_CONFIGURED, NO_TEAMS_CHANNEL, REDIRECT_URI_MESSAGE,
    SIGN_IN_EXPIRED, SIGN_IN_NOT_STARTED,
};
use costscope_server::config::TeamsConfig;
use reqwest::{StatusCode, Url};
use secrecy::SecretString;
use serde_json::{json, Value};

use crate::budgets::{budget_data, create};
use crate::channels::deliveries_until;
use crate::cost_fixture::upload;
use crate::helpers::{
    assert_error, assert_invalid, spawn_app, spawn_app_with, status_and_json, TestApp,
};

pub const TEAM_ID: &str = "8f9d2c1e-team-ops";
pub const ALERTS_ID: &str = "19:alerts0000@thread.tacv2";
pub const GENERAL_ID: &str = "19:general000@thread.tacv2";

/// The stand-in with one team of two channels, and `[teams]` pointing at it.
pub async fn stand_in(team_name: &str) -> TeamsStandIn {
    let stand_in = TeamsStandIn::start().await;
    stand_in.add_team(
        TEAM_ID,
        team_name,
        &[(ALERTS_ID, "Alerts"), (GENERAL_ID, "General")],
    );
    stand_in
}

pub fn teams_config(stand_in: &TeamsStandIn) -> TeamsConfig {
    TeamsConfig {
        client_id: CLIENT_ID.to_owned(),
        client_secret: SecretString::from(CLIENT_SECRET),
        authority: stand_in.authority(),
        graph_url: stand_in.graph_url(),
    }
}

fn login_path(app: &TestApp) -> String {
    let redirect = app.url("/teams-oauth-callback");
    format!(
        "/v1/api/teams/oauth/login?redirect_uri={}",
        url_encode(&redirect)
    )
}

fn url_encode(text: &str) -> String {
    Url::parse_with_params("http://x/", &[("v", text)])
        .unwrap()
        .query()
        .unwrap()
        .trim_start_matches("v=")
        .to_owned()
}

fn query_of(url: &Url) -> HashMap<String, String> {
    url.query_pairs().into_owned().collect()
}

/// Login, the identity platform's redirect, the callback: the signed-in integration's id.
pub async fn sign_in(app: &TestApp, token: &str, stand_in: &TeamsStandIn) -> i64 {
    let (status, start) = status_and_json(app.get(&login_path(app), Some(token)).await).await;
    assert_eq!(status, StatusCode::OK, "{start}");
    let back = stand_in.sign_in(start["auth_url"].as_str().unwrap()).await;
    let back = query_of(&back);
    let (status, signed_in) = status_and_json(
        app.post(
            "/v1/api/teams/oauth/callback",
            Some(token),
            &json!({"code": back["code"], "state": back["state"]}),
        )
        .await,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{signed_in}");
    assert_eq!(signed_in["channel_id"], start["channel_id"]);
    start["channel_id"].as_i64().unwrap()
}

/// A signed-in integration with the team's Alerts channel picked.
pub async fn connect(app: &TestApp, token: &str, stand_in: &TeamsStandIn) -> i64 {
    let id = sign_in(app, token, stand_in).await;
    let (status, selected) = status_and_json(
        app.post(&select_path(id, ALERTS_ID), Some(token), &json!({}))
            .await,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{selected}");
    id
}

fn select_path(id: i64, channel: &str) -> String {
    format!(
        "/v1/api/teams/oauth/channel/{id}/teams/{TEAM_ID}/channels/{}",
        url_encode(channel)
    )
}

fn teams_path(id: i64) -> String {
    format!("/v1/api/teams/oauth/channel/{id}/teams")
}

fn channels_path(id: i64) -> String {
    format!("/v1/api/teams/oauth/channel/{id}/teams/{TEAM_ID}/channels")
}

fn delete_path(id: i64) -> String {
    format!("/v1/api/teams/oauth/channel?channel_id={id}")
}

/// An $800 monthly budget on account 111111111111 alerting at 75 %: the budget data's $808
/// reaches it at once, one alert.
fn one_alert_budget(name: &str) -> Value {
    json!({
        "name": name, "amount": 800.0, "period": "Monthly",
        "filters": [{"filterType": "account", "filterValues": ["111111111111"]}],
        "alerts": [{"thresholdType": "Percentage", "thresholdValue": 75}],
    })
}

const ALERT_TITLE: &str = "Budget \"Prod AWS\" reached its 75% alert";

/// The delivery of the budget alert among `list` (other events, such as anomalies in the
/// uploaded data, may be delivered beside it).
fn alert_delivery(list: &[Value]) -> Option<&Value> {
    list.iter()
        .find(|delivery| delivery["title"] == ALERT_TITLE)
}

/// The card of a posted Graph message: its attachment's content, parsed.
pub fn card_of(message: &PostedMessage) -> Value {
    serde_json::from_str(message.body["attachments"][0]["content"].as_str().unwrap()).unwrap()
}

/// An app with `[teams]` pointing at the stand-in, and its owner's token with the budget data loaded.
async fn owner_with_budget_data(stand_in: &TeamsStandIn) -> (TestApp, String) {
    let config = teams_config(stand_in);
    let app = spawn_app_with(move |c| c.teams = Some(config)).await;
    let token = app
        .signup_owner("Olive Owner", "olive@acme.test")
        .await
        .access_token;
    upload(&app, &token, &budget_data()).await;
    (app, token)
}

#[tokio::test]
async fn every_teams_route_answers_503_until_the_server_is_configured() {
    let app = spawn_app().await;
    let token = app
        .signup_owner("Olive Owner", "olive@acme.test")
        .await
        .access_token;
    for response in [
        app.get(&login_path(&app), Some(&token)).await,
        app.post(
            "/v1/api/teams/oauth/callback",
            Some(&token),
            &json!({"code": "c", "state": "s"}),
        )
        .await,
        app.get(&teams_path(1), Some(&token)).await,
        app.get(&channels_path(1), Some(&token)).await,
        app.post(&select_path(1, ALERTS_ID), Some(&token), &json!({}))
            .await,
        app.get("/v1/api/teams/configuredchannels", Some(&token))
            .await,
        app.delete(&delete_path(1), &token).await,
    ] {
        assert_error(response, StatusCode::SERVICE_UNAVAILABLE, NOT_CONFIGURED).await;
    }
}

#[tokio::test]
async fn a_budget_alert_reaches_the_picked_teams_channel_once_through_graph() {
    let stand_in = stand_in("Ops").await;
    let (app, token) = owner_with_budget_data(&stand_in).await;

    // Login: the identity platform's authorisation URL with PKCE S256.
    let (status, start) = status_and_json(app.get(&login_path(&app), Some(&token)).await).await;
    assert_eq!(status, StatusCode::OK, "{start}");
    let auth_url = Url::parse(start["auth_url"].as_str().unwrap()).unwrap();
    assert_eq!(
        auth_url.as_str().split('?').next().unwrap(),
        format!("{}/oauth2/v2.0/authorize", stand_in.authority())
    );
    let query = query_of(&auth_url);
    assert_eq!(query["client_id"], CLIENT_ID);
    assert_eq!(query["redirect_uri"], app.url("/teams-oauth-callback"));
    assert_eq!(query["response_type"], "code");
    assert_eq!(query["code_challenge_method"], "S256");
    assert_eq!(query["code_challenge"].len(), 43, "base64url of a SHA-256");
    assert!(query["state"].len() >= 32);
    assert_eq!(
        query["scope"],
        "offline_access User.Read Team.ReadBasic.All Channel.ReadBasic.All ChannelMessage.Send"
    );
    let channel_id = start["channel_id"].as_i64().unwrap();

    // The identity platform sends the browser back; the page hands code and state over.
    let back = query_of(&stand_in.sign_in(auth_url.as_str()).await);
    assert_eq!(back["state"], query["state"]);
    let callback = json!({"code": back["code"], "state": back["state"]});
    let (status, signed_in) = status_and_json(
        app.post("/v1/api/teams/oauth/callback", Some(&token), &callback)
            .await,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{signed_in}");
    assert_eq!(signed_in, json!({"channel_id": channel_id}));
    assert_eq!(
        stand_in.grants(),
        ["authorization_code"],
        "the verifier matched"
    );
    assert_error(
        app.post("/v1/api/teams/oauth/callback", Some(&token), &callback)
            .await,
        StatusCode::BAD_REQUEST,
        SIGN_IN_NOT_STARTED,
    )
    .await;

    // The picker.
    let (status, teams) =
        status_and_json(app.get(&teams_path(channel_id), Some(&token)).await).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(teams, json!([{"id": TEAM_ID, "displayName": "Ops"}]));
    let (status, channels) =
        status_and_json(app.get(&channels_path(channel_id), Some(&token)).await).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        channels,
        json!([{"id": ALERTS_ID, "displayName": "Alerts"}, {"id": GENERAL_ID, "displayName": "General"}])
    );
    let (status, selected) = status_and_json(
        app.post(
            &select_path(channel_id, ALERTS_ID),
            Some(&token),
            &json!({}),
        )
        .await,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{selected}");
    assert_eq!(selected["channel_id"], channel_id);
    assert_eq!(selected["team_id"], TEAM_ID);
    assert_eq!(selected["team_channel_id"], ALERTS_ID);
    assert!(selected["expires_at"].as_str().unwrap().ends_with('Z'));

    let (status, configured) = status_and_json(
        app.get("/v1/api/teams/configuredchannels", Some(&token))
            .await,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(configured.as_array().unwrap().len(), 1);
    assert_eq!(configured[0]["channel_id"], channel_id);
    assert_eq!(configured[0]["team_id"], TEAM_ID);
    assert_eq!(configured[0]["team_channel_id"], ALERTS_ID);
    assert_eq!(configured[0]["team_name"], "Ops");
    assert_eq!(configured[0]["team_channel_name"], "Alerts");
    assert!(configured[0]["configured_date"].is_string());
    let (_, listed) = status_and_json(app.get("/v1/channels", Some(&token)).await).await;
    assert_eq!(listed.as_array().unwrap().len(), 1);
    assert_eq!(listed[0]["type"], "teams");
    assert_eq!(listed[0]["name"], "Teams: Ops / Alerts");
    assert_eq!(listed[0]["targetHint"], "Ops / Alerts");

    // "Send test" posts through Graph too.
    let (status, tested) = status_and_json(
        app.post(
            &format!("/v1/channels/{}/test", listed[0]["id"]),
            Some(&token),
            &json!({}),
        )
        .await,
    )
    .await;
    assert_eq!(
        (status, tested),
        (StatusCode::OK, json!({"delivered": true}))
    );
    let test_message = stand_in.messages().pop().expect("the test message");
    assert_eq!(test_message.channel_id, ALERTS_ID);
    assert_ne!(card_of(&test_message)["body"][0]["text"], ALERT_TITLE);

    // Graph stops taking the token it has: the alert goes out after one refresh.
    stand_in.expire_access_tokens();
    let budget = create(&app, &token, &one_alert_budget("Prod AWS")).await;
    let delivered = deliveries_until(&app, &token, |list| {
        alert_delivery(list).is_some_and(|delivery| delivery["status"] == "delivered")
    })
    .await;
    assert_eq!(
        alert_delivery(&delivered).unwrap()["channelName"],
        "Teams: Ops / Alerts"
    );
    assert_eq!(
        stand_in.grants(),
        ["authorization_code", "refresh_token"],
        "one refresh, however many messages went out at once"
    );
    let messages: Vec<PostedMessage> = stand_in
        .messages()
        .into_iter()
        .filter(|message| card_of(message)["body"][0]["text"] == ALERT_TITLE)
        .collect();
    assert_eq!(messages.len(), 1, "exactly once");
    assert_eq!(
        (
            messages[0].team_id.as_str(),
            messages[0].channel_id.as_str()
        ),
        (TEAM_ID, ALERTS_ID)
    );
    let body = &messages[0].body;
    assert_eq!(
        body["body"],
        json!({"contentType": "html", "content": "<attachment id=\"card\"></attachment>"})
    );
    assert_eq!(body["attachments"][0]["id"], "card");
    assert_eq!(
        body["attachments"][0]["contentType"],
        "application/vnd.microsoft.card.adaptive"
    );
    let card = card_of(&messages[0]);
    assert_eq!(card["type"], "AdaptiveCard");
    assert_eq!(card["version"], "1.4");
    assert_eq!(card["body"][0]["text"], ALERT_TITLE);
    assert_eq!(
        card["actions"][0]["url"],
        app.url(&format!("/budgets/view/{}", budget["id"]))
    );

    // Removed through the Teams route: gone from the channels too.
    let removed = app.delete(&delete_path(channel_id), &token).await;
    assert_eq!(removed.status(), StatusCode::NO_CONTENT);
    assert_error(
        app.get("/v1/api/teams/configuredchannels", Some(&token))
            .await,
        StatusCode::NOT_FOUND,
        NONE_CONFIGURED,
    )
    .await;
    let (_, listed) = status_and_json(app.get("/v1/channels", Some(&token)).await).await;
    assert_eq!(listed, json!([]));
    let alerts = stand_in
        .messages()
        .iter()
        .filter(|m| card_of(m)["body"][0]["text"] == ALERT_TITLE)
        .count();
    assert_eq!(alerts, 1, "still once");
}

#[tokio::test]
async fn a_token_near_its_expiry_is_refreshed_and_a_refused_refresh_fails_the_delivery() {
    let stand_in = stand_in("Ops").await;
    let (app, token) = owner_with_budget_data(&stand_in).await;
    // Four minutes to live: less than the five that make a refresh.
    stand_in.set_expires_in(240);
    let id = sign_in(&app, &token, &stand_in).await;
    let (status, _) = status_and_json(app.get(&teams_path(id), Some(&token)).await).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(stand_in.grants(), ["authorization_code", "refresh_token"]);
    stand_in.set_expires_in(3600);
    let (status, _) = status_and_json(app.get(&channels_path(id), Some(&token)).await).await;
    assert_eq!(status, StatusCode::OK);
    let (status, selected) = status_and_json(
        app.post(&select_path(id, GENERAL_ID), Some(&token), &json!({}))
            .await,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{selected}");
    assert_eq!(
        stand_in.grants().len(),
        3,
        "the refreshed token lasts: one more refresh only"
    );

    // The refresh token is revoked and the access token expires: the sign-in is over.
    stand_in.revoke_refresh_tokens();
    stand_in.expire_access_tokens();
    assert_error(
        app.get(&teams_path(id), Some(&token)).await,
        StatusCode::BAD_GATEWAY,
        SIGN_IN_EXPIRED,
    )
    .await;
    create(&app, &token, &one_alert_budget("Prod AWS")).await;
    let list = deliveries_until(&app, &token, |list| {
        alert_delivery(list).is_some_and(|delivery| delivery["status"] != "pending")
    })
    .await;
    let failed = alert_delivery(&list).unwrap();
    assert_eq!(failed["status"], "failed", "not retried: {failed}");
    assert_eq!(failed["attempts"], 1);
    assert_eq!(failed["nextAttemptAt"], Value::Null);
    assert_eq!(failed["lastError"], SIGN_IN_EXPIRED);
    assert!(stand_in.messages().is_empty());
}

#[tokio::test]
async fn sign_in_errors_answer_their_messages() {
    let stand_in = stand_in("Ops").await;
    let config = teams_config(&stand_in);
    let app = spawn_app_with(move |c| c.teams = Some(config)).await;
    let token = app
        .signup_owner("Olive Owner", "olive@acme.test")
        .await
        .access_token;

    for redirect in [
        "https://evil.test/teams-oauth-callback".to_owned(),
        app.url("/elsewhere"),
        format!("{}?next=/x", app.url("/teams-oauth-callback")),
    ] {
        assert_invalid(
            app.get(
                &format!(
                    "/v1/api/teams/oauth/login?redirect_uri={}",
                    url_encode(&redirect)
                ),
                Some(&token),
            )
            .await,
            "redirect_uri",
            REDIRECT_URI_MESSAGE,
        )
        .await;
    }
    assert_error(
        app.post(
            "/v1/api/teams/oauth/callback",
            Some(&token),
            &json!({"code": "any", "state": "never-started-here"}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        SIGN_IN_NOT_STARTED,
    )
    .await;
    assert_error(
        app.get("/v1/api/teams/configuredchannels", Some(&token))
            .await,
        StatusCode::NOT_FOUND,
        NONE_CONFIGURED,
    )
    .await;

    // A Graph error is answered 502 with Graph's message.
    let id = sign_in(&app, &token, &stand_in).await;
    stand_in.fail_next_graph_call(403, "Forbidden", "Missing role permissions on the request.");
    assert_error(
        app.get(&teams_path(id), Some(&token)).await,
        StatusCode::BAD_GATEWAY,
        "Missing role permissions on the request.",
    )
    .await;
    let (status, channels) = status_and_json(
        app.get(
            &format!("/v1/api/teams/oauth/channel/{id}/teams/no-such-team/channels"),
            Some(&token),
        )
        .await,
    )
    .await;
    assert_eq!(status, StatusCode::BAD_GATEWAY);
    assert_eq!(
        channels["message"],
        "No team found with Group Id no-such-team"
    );
}

#[tokio::test]
async fn only_owners_and_admins_connect_and_another_tenant_gets_404() {
    let stand_in = stand_in("Ops").await;
    let config = teams_config(&stand_in);
    let app = spawn_app_with(move |c| c.teams = Some(config)).await;
    let owner = app
        .signup_owner("Olive Owner", "olive@acme.test")
        .await
        .access_token;
    let admin = app
        .add_member(&owner, "Adam Admin", "adam@acme.test", "Admin")
        .await
        .access_token;
    let user = app
        .add_member(&owner, "Uma User", "uma@acme.test", "User")
        .await
        .access_token;
    let id = connect(&app, &admin, &stand_in).await;

    for response in [
        app.get(&login_path(&app), Some(&user)).await,
        app.post(
            "/v1/api/teams/oauth/callback",
            Some(&user),
            &json!({"code": "c", "state": "s"}),
        )
        .await,
        app.get(&teams_path(id), Some(&user)).await,
        app.get(&channels_path(id), Some(&user)).await,
        app.post(&select_path(id, ALERTS_ID), Some(&user), &json!({}))
            .await,
        app.delete(&delete_path(id), &user).await,
    ] {
        assert_error(response, StatusCode::FORBIDDEN, MANAGERS_ONLY).await;
    }
    let (status, configured) = status_and_json(
        app.get("/v1/api/teams/configuredchannels", Some(&user))
            .await,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "every role reads: {configured}");
    assert_eq!(configured[0]["channel_id"], id);

    let other = app
        .signup_owner("Bob Other", "bob@other.test")
        .await
        .access_token;
    for response in [
        app.get(&teams_path(id), Some(&other)).await,
        app.get(&channels_path(id), Some(&other)).await,
        app.post(&select_path(id, ALERTS_ID), Some(&other), &json!({}))
            .await,
        app.delete(&delete_path(id), &other).await,
    ] {
        assert_error(response, StatusCode::NOT_FOUND, NO_TEAMS_CHANNEL).await;
    }
    assert_error(
        app.get("/v1/api/teams/configuredchannels", Some(&other))
            .await,
        StatusCode::NOT_FOUND,
        NONE_CONFIGURED,
    )
    .await;

    // Deleting the notification channel removes the integration.
    let (_, channels) = status_and_json(app.get("/v1/channels", Some(&owner)).await).await;
    let channel_id = channels[0]["id"].as_i64().unwrap();
    let removed = app
        .delete(&format!("/v1/channels/{channel_id}"), &owner)
        .await;
    assert_eq!(removed.status(), StatusCode::NO_CONTENT);
    assert_error(
        app.get("/v1/api/teams/configuredchannels", Some(&owner))
            .await,
        StatusCode::NOT_FOUND,
        NONE_CONFIGURED,
    )
    .await;
    assert_error(
        app.get(&teams_path(id), Some(&owner)).await,
        StatusCode::NOT_FOUND,
        NO_TEAMS_CHANNEL,
    )
    .await;
}
