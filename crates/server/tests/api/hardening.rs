//! Hostile requests: panics, oversized bodies, malformed paths and queries, wrong methods, and
//! the security headers of every answer.

use std::net::SocketAddr;

use axum::routing::get;
use costscope_server::config::Config;
use costscope_server::http;
use costscope_server::http::headers::CONTENT_SECURITY_POLICY;
use costscope_server::startup::Application;
use reqwest::StatusCode;
use secrecy::SecretString;
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::helpers::{spawn_app, status_and_json, TEST_AUTH_SECRET};

/// The production router and layers, plus `/test/panic`, served on a free port.
async fn serve_with_test_routes() -> (SocketAddr, tempfile::TempDir) {
    let data_dir = tempfile::tempdir().unwrap();
    let mut config = Config::with_data_dir(data_dir.path());
    config.addr = "127.0.0.1:0".to_owned();
    config.auth_secret = Some(SecretString::from(TEST_AUTH_SECRET));
    let app = Application::build(config).await.unwrap();
    let routes = http::routes().route(
        "/test/panic",
        get(|| async {
            let items: Vec<u8> = Vec::new();
            // An index out of bounds, as a bug in a handler would.
            items[usize::from(items.is_empty())].to_string()
        }),
    );
    let router = http::with_layers(routes, app.state().clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move {
        axum::serve(
            listener,
            router.into_make_service_with_connect_info::<SocketAddr>(),
        )
        .await
    });
    (address, data_dir)
}

/// Sends one HTTP/1.1 request on `stream` and reads its answer: (status, body).
async fn exchange(stream: &mut TcpStream, path: &str) -> (u16, String) {
    let request = format!("GET {path} HTTP/1.1\r\nHost: localhost\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut received = Vec::new();
    let mut buffer = [0u8; 4096];
    loop {
        let read = stream.read(&mut buffer).await.unwrap();
        assert!(read > 0, "the server closed the connection");
        received.extend_from_slice(&buffer[..read]);
        let text = String::from_utf8_lossy(&received).into_owned();
        let Some(end) = text.find("\r\n\r\n") else {
            continue;
        };
        let head = text[..end].to_ascii_lowercase();
        let length: usize = head
            .lines()
            .find_map(|line| line.strip_prefix("content-length:"))
            .map(|value| value.trim().parse().unwrap())
            .expect("a content-length");
        if received.len() >= end + 4 + length {
            let status = head[9..12].parse().unwrap();
            return (status, text[end + 4..end + 4 + length].to_owned());
        }
    }
}

#[tokio::test]
async fn a_panicking_handler_answers_500_json_and_the_connection_serves_the_next_request() {
    let (address, _data_dir) = serve_with_test_routes().await;
    let mut stream = TcpStream::connect(address).await.unwrap();

    let (status, body) = exchange(&mut stream, "/test/panic").await;
    assert_eq!(status, 500);
    assert_eq!(
        serde_json::from_str::<Value>(&body).unwrap(),
        json!({"message": "Internal server error"})
    );

    let (status, body) = exchange(&mut stream, "/healthz").await;
    assert_eq!((status, body.as_str()), (200, "ok"));
}

#[tokio::test]
async fn a_json_body_over_one_mib_answers_413_json() {
    let app = spawn_app().await;
    let huge = json!({"email": "a".repeat(3 * 1024 * 1024), "password": "x"});

    let (status, body) = status_and_json(app.post("/v1/auth/login", None, &huge).await).await;

    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(
        body,
        json!({"message": "The request body is larger than the limit of 1 MiB."})
    );
}

#[tokio::test]
async fn a_chunked_json_body_over_one_mib_answers_413_json() {
    let app = spawn_app().await;
    let address = app.address.trim_start_matches("http://").to_owned();
    let mut stream = TcpStream::connect(address).await.unwrap();
    let head = "POST /v1/auth/login HTTP/1.1\r\nHost: localhost\r\n\
                Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n";
    stream.write_all(head.as_bytes()).await.unwrap();
    let chunk = vec![b' '; 64 * 1024];
    for _ in 0..24 {
        let mut framed = format!("{:x}\r\n", chunk.len()).into_bytes();
        framed.extend_from_slice(&chunk);
        framed.extend_from_slice(b"\r\n");
        // The server may answer and stop reading before the end.
        if stream.write_all(&framed).await.is_err() {
            break;
        }
    }
    let _ = stream.write_all(b"0\r\n\r\n").await;

    let mut answer = Vec::new();
    let _ = tokio::time::timeout(
        std::time::Duration::from_secs(10),
        stream.read_to_end(&mut answer),
    )
    .await;
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(
        answer.contains(r#"{"message":"The request body is larger than the limit of 1 MiB."}"#),
        "{answer}"
    );
}

#[tokio::test]
async fn uploads_keep_their_own_body_limit() {
    let app = spawn_app().await;
    let body = vec![b'x'; 2 * 1024 * 1024];

    let response = app
        .client
        .post(app.url("/v1/ingest"))
        .body(body)
        .send()
        .await
        .unwrap();

    // Past the JSON limit, and still read by the upload route (which asks who is calling).
    assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn path_query_and_method_rejections_answer_json() {
    let app = spawn_app().await;
    let owner = app.signup_owner("Ada", "ada@example.com").await;
    let token = Some(owner.access_token.as_str());

    let cases = [
        (app.get("/v1/users/not-a-number", token).await, 400),
        (app.get("/v1/exchange-rates?limit=many", token).await, 400),
        (
            app.client
                .delete(app.url("/v1/auth/login"))
                .send()
                .await
                .unwrap(),
            405,
        ),
    ];
    for (response, expected) in cases {
        let url = response.url().to_string();
        assert_eq!(response.status().as_u16(), expected, "{url}");
        assert!(
            response.headers()["content-type"]
                .to_str()
                .unwrap()
                .starts_with("application/json"),
            "{url}"
        );
        let body: Value = response.json().await.unwrap();
        let message = body["message"].as_str().unwrap_or_default();
        assert!(!message.is_empty(), "{url}: {body}");
    }
    let response = app
        .client
        .post(app.url("/v1/auth/login"))
        .header("content-type", "application/json")
        .body("{not json")
        .send()
        .await
        .unwrap();
    assert!(response.status().is_client_error());
    let body: Value = response.json().await.unwrap();
    assert!(body["message"].is_string(), "{body}");
}

#[tokio::test]
async fn every_answer_carries_the_security_headers() {
    let app = spawn_app().await;
    let responses = [
        app.get("/healthz", None).await,
        app.get("/v1/auth/me", None).await,
        app.get("/v1/nothing", None).await,
        app.get("/", None).await,
        app.get("/settings/users", None).await,
    ];
    for response in responses {
        let url = response.url().to_string();
        let headers = response.headers();
        assert_eq!(
            headers["content-security-policy"], CONTENT_SECURITY_POLICY,
            "{url}"
        );
        assert_eq!(headers["x-content-type-options"], "nosniff", "{url}");
        assert_eq!(headers["referrer-policy"], "no-referrer", "{url}");
        assert_eq!(headers["x-frame-options"], "DENY", "{url}");
    }
    for directive in [
        "default-src 'self'",
        "script-src 'self';",
        "frame-ancestors 'none'",
        "base-uri 'none'",
        "connect-src 'self'",
    ] {
        assert!(CONTENT_SECURITY_POLICY.contains(directive), "{directive}");
    }
}
