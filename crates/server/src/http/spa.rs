//! The embedded web app (`web/dist`), with client-side routes falling back to `index.html`.

use axum::body::Body;
use axum::http::{header, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::Json;
use rust_embed::Embed;

use super::error::ErrorBody;

#[derive(Embed)]
#[folder = "../../web/dist/"]
#[allow_missing = true]
struct WebApp;

const NOT_BUILT: &str = "The web app has not been built: run `make run`";

/// Fallback for every path no route matched.
pub async fn fallback(method: Method, uri: Uri) -> Response {
    let path = uri.path();
    let is_api = ["/v1", "/v2"]
        .iter()
        .any(|prefix| path == *prefix || path.starts_with(&format!("{prefix}/")));
    if is_api || !(method == Method::GET || method == Method::HEAD) {
        return json_not_found();
    }
    let file = path.trim_start_matches('/');
    if let Some(response) = embedded(file) {
        return response;
    }
    if file.starts_with("assets/") {
        return (StatusCode::NOT_FOUND, "Not found").into_response();
    }
    embedded("index.html")
        .unwrap_or_else(|| (StatusCode::SERVICE_UNAVAILABLE, NOT_BUILT).into_response())
}

fn json_not_found() -> Response {
    (
        StatusCode::NOT_FOUND,
        Json(ErrorBody {
            message: "Not found".to_owned(),
            details: None,
        }),
    )
        .into_response()
}

fn embedded(file: &str) -> Option<Response> {
    if file.is_empty() {
        return None;
    }
    let asset = WebApp::get(file)?;
    let mime = mime_guess::from_path(file).first_or_octet_stream();
    // Vite puts content hashes into the names under assets/, so they never change.
    let cache = if file.starts_with("assets/") {
        "public, max-age=31536000, immutable"
    } else {
        "no-cache"
    };
    Response::builder()
        .header(header::CONTENT_TYPE, mime.as_ref())
        .header(header::CACHE_CONTROL, cache)
        .body(Body::from(asset.data.into_owned()))
        .ok()
}
