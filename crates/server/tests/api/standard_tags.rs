//! Standard tags (spec 1 §2.9, §3 Standard tag, §5; issue 14): `GET|POST /tags/standard`,
//! `PUT|DELETE /tags/standard/{id}`, `GET /tags/standard/stats` — the values as a list or the
//! dialog's comma-separated text, every message, duplicate keys, roles, the demo, tenancy, and
//! how the live resources stand against each tag with the cost they carry.

use chrono::{Duration, Utc};
use costscope_core::inventory::resource_types as types;
use costscope_core::inventory::StandardTagInput;
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::cloud_accounts::demo_owner;
use crate::cost_fixture::FocusCsv;
use crate::helpers::{assert_error, assert_invalid, spawn_app, status_and_json, TestApp};
use crate::inventory::{cost_line, discover, now_s, resource, upload, PROD, WEB_ARN};

async fn create(app: &TestApp, token: &str, body: Value) -> Value {
    let (status, tag) = status_and_json(app.post("/tags/standard", Some(token), &body).await).await;
    assert_eq!(status, StatusCode::CREATED, "{body}: {tag}");
    tag
}

async fn listed(app: &TestApp, token: &str) -> Value {
    let (status, tags) = status_and_json(app.get("/tags/standard", Some(token)).await).await;
    assert_eq!(status, StatusCode::OK, "{tags}");
    tags
}

#[tokio::test]
async fn owners_add_edit_list_and_delete_standard_tags() {
    let app = spawn_app().await;
    let token = app
        .signup_owner("Olga Owner", "olga@std.test")
        .await
        .access_token;
    assert_eq!(listed(&app, &token).await, json!([]));

    // The dialog's text: split by commas, trimmed, empties and duplicates dropped.
    let env = create(
        &app,
        &token,
        json!({"key": "  env ", "values": " prod, dev ,, prod,"}),
    )
    .await;
    assert_eq!(env["key"], "env");
    assert_eq!(env["values"], json!(["prod", "dev"]));
    let id = env["id"].as_i64().unwrap();
    // A list is taken item by item (commas kept); no values: any value.
    let owner = create(
        &app,
        &token,
        json!({"key": "owner", "values": ["a,b", " c "]}),
    )
    .await;
    assert_eq!(owner["values"], json!(["a,b", "c"]));
    let team = create(&app, &token, json!({"key": "team"})).await;
    assert_eq!(team["values"], json!([]));
    assert_eq!(listed(&app, &token).await, json!([env, owner, team]));

    let (status, edited) = status_and_json(
        app.put(
            &format!("/tags/standard/{id}"),
            &token,
            &json!({"key": "Environment", "values": ["production"]}),
        )
        .await,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{edited}");
    assert_eq!(
        edited,
        json!({"id": id, "key": "Environment", "values": ["production"]})
    );
    // Keeping its own key is no conflict.
    let (status, _) = status_and_json(
        app.put(
            &format!("/tags/standard/{id}"),
            &token,
            &json!({"key": "Environment", "values": "a, b"}),
        )
        .await,
    )
    .await;
    assert_eq!(status, StatusCode::OK);

    let deleted = app.delete(&format!("/tags/standard/{id}"), &token).await;
    assert_eq!(deleted.status(), StatusCode::NO_CONTENT);
    assert_eq!(listed(&app, &token).await, json!([owner, team]));
    assert_error(
        app.delete(&format!("/tags/standard/{id}"), &token).await,
        StatusCode::NOT_FOUND,
        "Standard tag not found",
    )
    .await;
    assert_error(
        app.put(
            &format!("/tags/standard/{id}"),
            &token,
            &json!({"key": "x"}),
        )
        .await,
        StatusCode::NOT_FOUND,
        "Standard tag not found",
    )
    .await;
}

#[tokio::test]
async fn a_duplicate_key_is_a_conflict_keys_are_case_sensitive() {
    let app = spawn_app().await;
    let token = app
        .signup_owner("Olga Owner", "olga@std409.test")
        .await
        .access_token;
    create(&app, &token, json!({"key": "env", "values": []})).await;
    assert_error(
        app.post(
            "/tags/standard",
            Some(&token),
            &json!({"key": " env", "values": "x"}),
        )
        .await,
        StatusCode::CONFLICT,
        "A standard tag with the key \"env\" already exists",
    )
    .await;
    // AWS tag keys are case-sensitive: another key.
    let upper = create(&app, &token, json!({"key": "Env"})).await;
    assert_error(
        app.put(
            &format!("/tags/standard/{}", upper["id"]),
            &token,
            &json!({"key": "env"}),
        )
        .await,
        StatusCode::CONFLICT,
        "A standard tag with the key \"env\" already exists",
    )
    .await;
    // Another customer may use the same key.
    let other = app
        .signup_owner("Bob Other", "bob@std409.test")
        .await
        .access_token;
    create(&app, &other, json!({"key": "env"})).await;
}

#[tokio::test]
async fn every_message_of_the_dialog_names_its_field() {
    let app = spawn_app().await;
    let token = app
        .signup_owner("Olga Owner", "olga@std422.test")
        .await
        .access_token;
    let fifty_one: Vec<String> = (0..51).map(|i| format!("v{i}")).collect();
    let cases: Vec<(Value, &str, &str)> = vec![
        (json!({}), "key", StandardTagInput::KEY_REQUIRED),
        (
            json!({"key": "   ", "values": "a"}),
            "key",
            StandardTagInput::KEY_REQUIRED,
        ),
        (
            json!({"key": "k".repeat(129)}),
            "key",
            StandardTagInput::KEY_TOO_LONG,
        ),
        (
            json!({"key": "env\u{7}"}),
            "key",
            StandardTagInput::KEY_CONTROL,
        ),
        (
            json!({"key": "env", "values": ["v".repeat(257)]}),
            "values",
            StandardTagInput::VALUE_TOO_LONG,
        ),
        (
            json!({"key": "env", "values": ["pr\u{0}od"]}),
            "values",
            StandardTagInput::VALUE_CONTROL,
        ),
        (
            json!({"key": "env", "values": fifty_one}),
            "values",
            StandardTagInput::TOO_MANY_VALUES,
        ),
    ];
    let existing = create(&app, &token, json!({"key": "existing"})).await;
    for (body, field, message) in cases {
        assert_invalid(
            app.post("/tags/standard", Some(&token), &body).await,
            field,
            message,
        )
        .await;
        assert_invalid(
            app.put(&format!("/tags/standard/{}", existing["id"]), &token, &body)
                .await,
            field,
            message,
        )
        .await;
    }
    // 128 characters and 50 values are fine.
    create(&app, &token, json!({"key": "k".repeat(128), "values": (0..50).map(|i| format!("v{i}")).collect::<Vec<_>>()})).await;
    // Values that are neither a list nor a text: 400.
    let (status, _) = status_and_json(
        app.post(
            "/tags/standard",
            Some(&token),
            &json!({"key": "x", "values": 5}),
        )
        .await,
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(listed(&app, &token).await.as_array().unwrap().len(), 2);
}

#[tokio::test]
async fn users_read_owners_and_admins_write_the_demo_never() {
    let app = spawn_app().await;
    let owner = app
        .signup_owner("Olga Owner", "olga@stdroles.test")
        .await
        .access_token;
    let user = app
        .add_member(&owner, "Uma User", "uma@stdroles.test", "User")
        .await
        .access_token;
    let admin = app
        .add_member(&owner, "Adam Admin", "adam@stdroles.test", "Admin")
        .await
        .access_token;
    let tag = create(&app, &owner, json!({"key": "env"})).await;
    let path = format!("/tags/standard/{}", tag["id"]);
    const MANAGERS: &str = "Only owners and admins can manage standard tags";
    assert_error(
        app.post("/tags/standard", Some(&user), &json!({"key": "team"}))
            .await,
        StatusCode::FORBIDDEN,
        MANAGERS,
    )
    .await;
    assert_error(
        app.put(&path, &user, &json!({"key": "team"})).await,
        StatusCode::FORBIDDEN,
        MANAGERS,
    )
    .await;
    assert_error(
        app.delete(&path, &user).await,
        StatusCode::FORBIDDEN,
        MANAGERS,
    )
    .await;
    // A user reads the list and the stats.
    assert_eq!(listed(&app, &user).await, json!([tag]));
    let (status, _) = status_and_json(app.get("/tags/standard/stats", Some(&user)).await).await;
    assert_eq!(status, StatusCode::OK);
    // An admin manages.
    create(&app, &admin, json!({"key": "team"})).await;
    let (status, _) =
        status_and_json(app.put(&path, &admin, &json!({"key": "environment"})).await).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        app.delete(&path, &admin).await.status(),
        StatusCode::NO_CONTENT
    );

    // The demo's owner reads but never writes.
    let demo = demo_owner(&app).await;
    assert_eq!(listed(&app, &demo).await, json!([]));
    const DEMO: &str = "Standard tags cannot be changed in the demo";
    assert_error(
        app.post("/tags/standard", Some(&demo), &json!({"key": "env"}))
            .await,
        StatusCode::FORBIDDEN,
        DEMO,
    )
    .await;
    assert_error(
        app.put("/tags/standard/1", &demo, &json!({"key": "env"}))
            .await,
        StatusCode::FORBIDDEN,
        DEMO,
    )
    .await;
    assert_error(
        app.delete("/tags/standard/1", &demo).await,
        StatusCode::FORBIDDEN,
        DEMO,
    )
    .await;
    // Without a token: 401.
    assert_error(
        app.get("/tags/standard", None).await,
        StatusCode::UNAUTHORIZED,
        "Authentication required",
    )
    .await;
}

#[tokio::test]
async fn another_customers_standard_tags_are_out_of_reach() {
    let app = spawn_app().await;
    let a = app
        .signup_owner("Alice Alpha", "alice@stdiso.test")
        .await
        .access_token;
    let b = app
        .signup_owner("Bob Bravo", "bob@stdiso.test")
        .await
        .access_token;
    let tag = create(&app, &a, json!({"key": "alpha-only", "values": ["x"]})).await;
    let path = format!("/tags/standard/{}", tag["id"]);
    assert_eq!(listed(&app, &b).await, json!([]));
    assert_error(
        app.put(&path, &b, &json!({"key": "stolen"})).await,
        StatusCode::NOT_FOUND,
        "Standard tag not found",
    )
    .await;
    assert_error(
        app.delete(&path, &b).await,
        StatusCode::NOT_FOUND,
        "Standard tag not found",
    )
    .await;
    let (_, stats) = status_and_json(app.get("/tags/standard/stats", Some(&b)).await).await;
    assert_eq!(stats, json!([]));
    assert_eq!(listed(&app, &a).await, json!([tag]));
}

#[tokio::test]
async fn stats_count_compliant_missing_and_invalid_resources_with_their_cost() {
    let app = spawn_app().await;
    let owner = app.signup_owner("Olga Owner", "olga@stdstats.test").await;
    let token = owner.access_token.as_str();
    let customer = owner.user.customer_id;
    let found = now_s() - Duration::days(5);
    let instance = |id: &str, arn: Option<&str>, tags: &[(&str, &str)]| {
        resource(
            PROD,
            "us-east-1",
            types::EC2_INSTANCE,
            id,
            arn,
            json!({}),
            tags,
        )
    };
    discover(
        &app,
        customer,
        PROD,
        found,
        &[],
        &[
            instance(
                "i-0web",
                Some(WEB_ARN),
                &[("env", "prod"), ("owner", "ann")],
            ),
            instance("i-0bad", None, &[("env", "Prod")]),
            instance("i-0none", None, &[]),
            instance("i-0gone", None, &[]),
            // Access keys cannot carry tags: never checked.
            resource(
                PROD,
                "global",
                types::IAM_ACCESS_KEY,
                "AKIA1",
                None,
                json!({}),
                &[],
            ),
        ],
    )
    .await;
    // i-0gone is deleted: not checked either.
    discover(
        &app,
        customer,
        PROD,
        found + Duration::days(1),
        &[("us-east-1", types::EC2_INSTANCE)],
        &[
            instance(
                "i-0web",
                Some(WEB_ARN),
                &[("env", "prod"), ("owner", "ann")],
            ),
            instance("i-0bad", None, &[("env", "Prod")]),
            instance("i-0none", None, &[]),
        ],
    )
    .await;
    let day = Utc::now().date_naive() - Duration::days(1);
    upload(
        &app,
        token,
        FocusCsv::new()
            .line(cost_line(PROD, day, "i-0web", 1.11))
            .line(cost_line(PROD, day, WEB_ARN, 0.01))
            .line(cost_line(PROD, day, "i-0bad", 2.22))
            .line(cost_line(PROD, day, "i-0none", 4.44))
            .line(cost_line(PROD, day, "i-0gone", 8.88)),
    )
    .await;
    let env = create(&app, token, json!({"key": "env", "values": "prod, dev"})).await;
    let owner_tag = create(&app, token, json!({"key": "owner"})).await;
    let (status, stats) = status_and_json(app.get("/tags/standard/stats", Some(token)).await).await;
    assert_eq!(status, StatusCode::OK, "{stats}");
    assert_eq!(
        stats,
        json!([
            {"id": env["id"], "key": "env", "compliant": 1, "missing": 1, "invalid": 1,
             "missing_cost": 4.44, "invalid_cost": 2.22},
            {"id": owner_tag["id"], "key": "owner", "compliant": 1, "missing": 2, "invalid": 0,
             "missing_cost": 6.66, "invalid_cost": 0.0},
        ])
    );
}
