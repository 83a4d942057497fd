use chrono::{DateTime, Duration, Utc};
use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::{spawn_app, status_and_json};

#[tokio::test]
async fn customer_shows_a_30_day_tier_0_trial_and_the_owner() {
    let app = spawn_app().await;
    let owner = app.signup_owner("Ada Lovelace", "ada@example.com").await;

    let (status, body) =
        status_and_json(app.get("/v1/customer", Some(&owner.access_token)).await).await;

    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["id"], owner.user.customer_id);
    assert_eq!(body["name"], "Ada Lovelace");
    assert_eq!(body["Tier"], 0);
    assert_eq!(body["Role"], "owner");
    assert_eq!(body["EmailID"], "ada@example.com");
    assert_eq!(body["OwnerName"], "Ada Lovelace");
    assert_eq!(body["OwnerEmailID"], "ada@example.com");
    assert_eq!(body["is_demo"], false);
    let trial_end: DateTime<Utc> = body["trialEndDate"].as_str().unwrap().parse().unwrap();
    let days_left = trial_end - Utc::now();
    assert!(
        days_left > Duration::days(30) - Duration::minutes(1) && days_left <= Duration::days(30)
    );
    assert_eq!(body["EndTime"], trial_end.timestamp());
}

#[tokio::test]
async fn customer_shows_the_callers_role_and_email_for_a_member() {
    let app = spawn_app().await;
    let owner = app.signup_owner("Ada Lovelace", "ada@example.com").await;
    let admin = app
        .add_member(
            &owner.access_token,
            "Grace Hopper",
            "grace@example.com",
            "Admin",
        )
        .await;

    let (_, body) = status_and_json(app.get("/v1/customer", Some(&admin.access_token)).await).await;

    assert_eq!(body["Role"], "admin");
    assert_eq!(body["EmailID"], "grace@example.com");
    assert_eq!(body["OwnerName"], "Ada Lovelace");
    assert_eq!(body["OwnerEmailID"], "ada@example.com");
}

#[tokio::test]
async fn a_new_customer_has_no_cloud_accounts() {
    let app = spawn_app().await;
    let owner = app.signup_owner("Ada", "ada@example.com").await;

    let (status, body) =
        status_and_json(app.get("/v1/account", Some(&owner.access_token)).await).await;

    assert_eq!((status, body), (StatusCode::OK, json!([])));
}
