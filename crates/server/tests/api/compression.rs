//! Speed over a real network (docs/ANALYST-FLOW.md): the web app's files come precompressed
//! (`.br`/`.gz` written by `npm run build`) as the request's Accept-Encoding allows, and JSON
//! and CSV answers are compressed on the fly above 1 KiB.

use std::io::Read;

use reqwest::{Method, Response, StatusCode};
use serde_json::Value;

use crate::cost_fixture::app_with_standard_data;
use crate::helpers::{spawn_app, TestApp};

async fn request(
    app: &TestApp,
    method: Method,
    path: &str,
    accept_encoding: Option<&str>,
    token: Option<&str>,
) -> Response {
    let mut request = app.client.request(method, app.url(path));
    if let Some(value) = accept_encoding {
        request = request.header("accept-encoding", value);
    }
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    request.send().await.expect("the request")
}

fn header(response: &Response, name: &str) -> Option<String> {
    response
        .headers()
        .get(name)
        .map(|value| value.to_str().expect("an ASCII header").to_owned())
}

fn decode(encoding: Option<&str>, body: &[u8]) -> Vec<u8> {
    let mut decoded = Vec::new();
    match encoding {
        None => decoded.extend_from_slice(body),
        Some("br") => {
            brotli::Decompressor::new(body, 4096)
                .read_to_end(&mut decoded)
                .expect("a brotli body");
        }
        Some("gzip") => {
            flate2::read::GzDecoder::new(body)
                .read_to_end(&mut decoded)
                .expect("a gzip body");
        }
        Some(other) => panic!("unexpected Content-Encoding {other}"),
    }
    decoded
}

/// Status, Content-Encoding, headers and the decoded body of one GET.
struct Fetched {
    status: StatusCode,
    encoding: Option<String>,
    content_type: Option<String>,
    cache_control: Option<String>,
    vary: Option<String>,
    raw_length: usize,
    body: Vec<u8>,
}

async fn fetch(
    app: &TestApp,
    path: &str,
    accept_encoding: Option<&str>,
    token: Option<&str>,
) -> Fetched {
    let response = request(app, Method::GET, path, accept_encoding, token).await;
    let status = response.status();
    let encoding = header(&response, "content-encoding");
    let content_type = header(&response, "content-type");
    let cache_control = header(&response, "cache-control");
    let vary = header(&response, "vary");
    let content_length = header(&response, "content-length");
    let raw = response.bytes().await.expect("the body").to_vec();
    if let Some(length) = content_length {
        assert_eq!(length, raw.len().to_string(), "Content-Length of {path}");
    }
    Fetched {
        status,
        encoding: encoding.clone(),
        content_type,
        cache_control,
        vary,
        raw_length: raw.len(),
        body: decode(encoding.as_deref(), &raw),
    }
}

/// The entry script index.html loads (`/assets/index-<hash>.js`).
fn entry_script(index_html: &str) -> String {
    let start = index_html
        .find("src=\"/assets/")
        .expect("index.html loads a script from /assets/")
        + "src=\"".len();
    let end = start + index_html[start..].find('"').expect("a closing quote");
    index_html[start..end].to_owned()
}

#[tokio::test]
async fn web_app_files_come_precompressed_as_accept_encoding_allows() {
    let app = spawn_app().await;
    let index = fetch(&app, "/", None, None).await;
    if index.status == StatusCode::SERVICE_UNAVAILABLE {
        // No web/dist at compile time (ops.rs checks the hint): nothing to serve compressed.
        assert_eq!(index.encoding, None);
        return;
    }
    assert_eq!(index.status, StatusCode::OK);
    let html = String::from_utf8(index.body.clone()).expect("UTF-8 index.html");

    // index.html is under 1 KiB: no variants, the same bytes whatever the client accepts.
    for accept in ["br", "gzip", "br, gzip"] {
        let page = fetch(&app, "/", Some(accept), None).await;
        assert_eq!(page.status, StatusCode::OK);
        assert_eq!(page.encoding, None, "{accept}");
        assert_eq!(page.body, index.body, "{accept}");
        assert_eq!(page.cache_control.as_deref(), Some("no-cache"));
    }

    // The entry script (hundreds of KiB): brotli preferred, gzip next, identity otherwise.
    let script = entry_script(&html);
    let plain = fetch(&app, &script, None, None).await;
    assert_eq!(plain.status, StatusCode::OK, "{script}");
    assert_eq!(plain.encoding, None);
    assert!(plain.body.len() > 1024, "{script} is larger than 1 KiB");
    assert_eq!(plain.vary.as_deref(), Some("accept-encoding"));
    let cases = [
        ("br", Some("br")),
        ("gzip", Some("gzip")),
        ("gzip, deflate, br, zstd", Some("br")),
        ("br;q=0, gzip", Some("gzip")),
        ("gzip;q=0.5, br;q=0.1", Some("br")),
        ("*", Some("br")),
        ("*;q=0", None),
        ("gzip;q=0, br;q=0", None),
        ("identity", None),
        ("deflate", None),
    ];
    for (accept, expected) in cases {
        let got = fetch(&app, &script, Some(accept), None).await;
        assert_eq!(got.status, StatusCode::OK, "{accept}");
        assert_eq!(got.encoding.as_deref(), expected, "{accept}");
        assert_eq!(got.body, plain.body, "{accept}: decoded bytes");
        assert_eq!(got.content_type, plain.content_type, "{accept}");
        assert!(got
            .content_type
            .as_deref()
            .is_some_and(|value| value.contains("javascript")));
        assert_eq!(
            got.cache_control.as_deref(),
            Some("public, max-age=31536000, immutable"),
            "{accept}"
        );
        assert_eq!(got.vary.as_deref(), Some("accept-encoding"), "{accept}");
        if expected.is_some() {
            assert!(
                got.raw_length * 2 < plain.body.len(),
                "{accept}: {} bytes for {}",
                got.raw_length,
                plain.body.len()
            );
        }
    }

    // HEAD: the headers of the GET, no body.
    let head = request(&app, Method::HEAD, &script, Some("br"), None).await;
    assert_eq!(head.status(), StatusCode::OK);
    assert_eq!(header(&head, "content-encoding").as_deref(), Some("br"));
    let br_length = fetch(&app, &script, Some("br"), None).await.raw_length;
    assert_eq!(header(&head, "content-length"), Some(br_length.to_string()));
    assert!(head.bytes().await.unwrap().is_empty());

    // The variants are no files of their own.
    for suffix in [".br", ".gz"] {
        let variant = fetch(&app, &format!("{script}{suffix}"), Some("br, gzip"), None).await;
        assert_eq!(variant.status, StatusCode::NOT_FOUND, "{script}{suffix}");
    }

    // A client-side route is index.html, whatever is accepted.
    let route = fetch(&app, "/settings/users", Some("br, gzip"), None).await;
    assert_eq!(route.status, StatusCode::OK);
    assert_eq!(route.body, index.body);
}

#[tokio::test]
async fn json_answers_are_compressed_on_the_fly_above_1_kib() {
    let app = spawn_app().await;
    let plain = fetch(&app, "/openapi.json", None, None).await;
    assert_eq!(plain.status, StatusCode::OK);
    assert_eq!(plain.encoding, None);
    assert!(
        plain.body.len() > 100 * 1024,
        "the OpenAPI document is large"
    );
    let document: Value = serde_json::from_slice(&plain.body).unwrap();

    for (accept, expected) in [
        ("br", Some("br")),
        ("gzip", Some("gzip")),
        ("gzip, br", Some("br")),
        ("br;q=0, gzip", Some("gzip")),
        ("identity", None),
    ] {
        let got = fetch(&app, "/openapi.json", Some(accept), None).await;
        assert_eq!(got.status, StatusCode::OK, "{accept}");
        assert_eq!(got.encoding.as_deref(), expected, "{accept}");
        assert!(got
            .content_type
            .as_deref()
            .is_some_and(|value| value.starts_with("application/json")));
        let decoded: Value = serde_json::from_slice(&got.body).expect("JSON once decoded");
        assert_eq!(decoded, document, "{accept}");
        if expected.is_some() {
            assert!(got
                .vary
                .as_deref()
                .is_some_and(|value| value.contains("accept-encoding")));
            assert!(got.raw_length * 4 < plain.body.len(), "{accept}");
        }
    }

    // Small answers are left alone.
    let config = fetch(&app, "/v1/auth/config", Some("br, gzip"), None).await;
    assert_eq!(config.status, StatusCode::OK);
    assert!(config.body.len() < 1024, "{} bytes", config.body.len());
    assert_eq!(config.encoding, None);
    let health = fetch(&app, "/healthz", Some("br, gzip"), None).await;
    assert_eq!(health.status, StatusCode::OK);
    assert_eq!(health.encoding, None);

    // Errors too: JSON, small, uncompressed.
    let missing = fetch(&app, "/v1/no-such-route", Some("br, gzip"), None).await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    assert_eq!(missing.encoding, None);
    let error: Value = serde_json::from_slice(&missing.body).unwrap();
    assert_eq!(error["message"], "Not found");
}

#[tokio::test]
async fn a_streamed_csv_export_arrives_compressed_and_whole() {
    let (app, token) = app_with_standard_data().await;
    let path = "/v1/export/focus?start=2025-12-01&end=2026-02-28&format=csv&version=1.2";
    let plain = fetch(&app, path, None, Some(&token)).await;
    assert_eq!(plain.status, StatusCode::OK);
    assert_eq!(plain.encoding, None);
    assert!(plain.body.len() > 1024);

    for encoding in ["br", "gzip"] {
        let got = fetch(&app, path, Some(encoding), Some(&token)).await;
        assert_eq!(got.status, StatusCode::OK, "{encoding}");
        assert_eq!(got.encoding.as_deref(), Some(encoding));
        assert_eq!(
            got.content_type.as_deref(),
            Some("text/csv; charset=utf-8"),
            "{encoding}"
        );
        assert!(got.raw_length < plain.body.len(), "{encoding}");
        assert_eq!(
            got.body, plain.body,
            "{encoding}: the same CSV once decoded"
        );
    }

    // Parquet is compressed already: sent as it is.
    let parquet = fetch(
        &app,
        "/v1/export/focus?start=2025-12-01&end=2026-02-28&format=parquet&version=1.2",
        Some("br, gzip"),
        Some(&token),
    )
    .await;
    assert_eq!(parquet.status, StatusCode::OK);
    assert_eq!(parquet.encoding, None);
}
