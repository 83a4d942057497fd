use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::helpers::{spawn_app, status_and_json};

#[tokio::test]
async fn healthz_answers_ok() {
    let app = spawn_app().await;
    let response = app.get("/healthz", None).await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.text().await.unwrap(), "ok");
}

#[tokio::test]
async fn readyz_answers_ok_when_the_store_answers() {
    let app = spawn_app().await;
    assert_eq!(app.get("/readyz", None).await.status(), StatusCode::OK);
}

#[tokio::test]
async fn readyz_answers_503_when_the_store_does_not() {
    let app = spawn_app().await;
    app.store.close().await;
    let response = app.get("/readyz", None).await;
    assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(
        app.get("/healthz", None).await.status(),
        StatusCode::OK,
        "the process itself is still healthy"
    );
}

#[tokio::test]
async fn metrics_count_requests_by_route_and_status() {
    let app = spawn_app().await;
    app.get("/v1/users/42", None).await;
    app.get("/healthz", None).await;

    let response = app.get("/metrics", None).await;

    assert_eq!(response.status(), StatusCode::OK);
    assert!(response.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/plain"));
    let text = response.text().await.unwrap();
    assert!(
        text.contains(r#"http_requests_total{method="GET",route="/v1/users/{id}",status="401"} 1"#),
        "{text}"
    );
    assert!(
        text.contains(r#"http_requests_total{method="GET",route="/healthz",status="200"} 1"#),
        "{text}"
    );
    assert!(
        text.contains("http_request_duration_seconds_bucket"),
        "{text}"
    );
}

#[tokio::test]
async fn metric_labels_are_route_templates_and_a_fixed_set_of_methods() {
    let app = spawn_app().await;
    let custom = reqwest::Method::from_bytes(b"BREW").unwrap();
    for path in ["/v1/users/1", "/v1/users/2", "/some/client/path", "/v1/x/y"] {
        app.client
            .request(custom.clone(), app.url(path))
            .send()
            .await
            .unwrap();
    }
    app.get("/v1/users/3", None).await;
    app.get("/any/raw/path-123", None).await;

    let text = app.get("/metrics", None).await.text().await.unwrap();

    let lines: Vec<&str> = text
        .lines()
        .filter(|line| line.starts_with("http_requests_total{"))
        .collect();
    for line in &lines {
        assert!(!line.contains("BREW"), "{line}");
        assert!(!line.contains("/v1/users/1"), "{line}");
        assert!(!line.contains("path-123"), "{line}");
        assert!(!line.contains("/some/client"), "{line}");
    }
    assert!(
        text.contains(
            r#"http_requests_total{method="other",route="/v1/users/{id}",status="405"} 2"#
        ),
        "{text}"
    );
    assert!(
        text.contains(r#"http_requests_total{method="GET",route="/v1/users/{id}",status="401"} 1"#),
        "{text}"
    );
    assert!(
        text.contains(r#"http_requests_total{method="GET",route="unmatched",status="200"} 1"#)
            || text
                .contains(r#"http_requests_total{method="GET",route="unmatched",status="503"} 1"#),
        "{text}"
    );
}

#[tokio::test]
async fn refused_requests_are_counted_by_reason_from_zero() {
    let app = spawn_app().await;
    let before = app.get("/metrics", None).await.text().await.unwrap();
    for reason in ["rate_limit", "quota", "bound", "timeout"] {
        assert!(
            before.contains(&format!(
                r#"costscope_refused_requests_total{{reason="{reason}"}} 0"#
            )),
            "{before}"
        );
    }

    let huge = json!({"email": "a".repeat(2 * 1024 * 1024), "password": "x"});
    let response = app.post("/v1/auth/login", None, &huge).await;
    assert_eq!(response.status(), StatusCode::PAYLOAD_TOO_LARGE);

    let after = app.get("/metrics", None).await.text().await.unwrap();
    assert!(
        after.contains(r#"costscope_refused_requests_total{reason="bound"} 1"#),
        "{after}"
    );
    assert!(
        after.contains(r#"costscope_refused_requests_total{reason="quota"} 0"#),
        "{after}"
    );
}

#[tokio::test]
async fn openapi_json_names_the_schemas_the_web_app_uses() {
    let app = spawn_app().await;

    let (status, doc) = status_and_json(app.get("/openapi.json", None).await).await;

    assert_eq!(status, StatusCode::OK);
    assert!(doc["openapi"].as_str().unwrap().starts_with("3.1"));
    let schemas = doc["components"]["schemas"].as_object().unwrap();
    for name in [
        "User",
        "Role",
        "UserStatus",
        "AuthResponse",
        "SignupRequest",
        "LoginRequest",
        "RefreshRequest",
        "LogoutRequest",
        "Customer",
        "CloudAccount",
        "InviteRequest",
        "InviteResponse",
        "UpdateUserRequest",
        "MessageResponse",
        "ErrorBody",
        "PublicConfig",
        "FeatureFlags",
        "InvitationInfo",
        "AcceptInvitationRequest",
    ] {
        assert!(schemas.contains_key(name), "missing schema {name}");
    }
    assert_eq!(
        doc["components"]["securitySchemes"]["bearer"]["scheme"],
        "bearer"
    );
    let paths = doc["paths"].as_object().unwrap();
    for path in [
        "/v1/auth/signup",
        "/v1/auth/login",
        "/v1/customer",
        "/v1/account",
        "/v1/users/{id}/role",
    ] {
        assert!(paths.contains_key(path), "missing path {path}");
    }
}

#[tokio::test]
async fn unknown_api_paths_answer_a_json_404() {
    let app = spawn_app().await;
    for path in ["/v1/x", "/v2/cost/nothing", "/v1"] {
        let (status, body) = status_and_json(app.get(path, None).await).await;
        assert_eq!(
            (status, body),
            (StatusCode::NOT_FOUND, json!({"message": "Not found"})),
            "{path}"
        );
    }
    let (status, body): (StatusCode, Value) =
        status_and_json(app.post("/v1/nothing", None, &json!({})).await).await;
    assert_eq!(
        (status, body),
        (StatusCode::NOT_FOUND, json!({"message": "Not found"}))
    );
}

#[tokio::test]
async fn client_routes_get_the_web_app_or_a_build_hint() {
    let app = spawn_app().await;
    let web_app_built = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../web/dist/index.html")
        .exists();

    for path in ["/", "/settings/users", "/invite/some-token"] {
        let response = app.get(path, None).await;
        if web_app_built {
            assert_eq!(response.status(), StatusCode::OK, "{path}");
            assert!(response.headers()["content-type"]
                .to_str()
                .unwrap()
                .starts_with("text/html"));
            assert_eq!(response.headers()["cache-control"], "no-cache");
        } else {
            assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE, "{path}");
            let body: Value = response.json().await.unwrap();
            assert_eq!(
                body,
                json!({"message": "The web app has not been built: run `make run`"})
            );
        }
    }
    assert_eq!(
        app.get("/assets/missing-0123abcd.js", None).await.status(),
        StatusCode::NOT_FOUND
    );
}
