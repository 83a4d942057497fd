//! The embedded web app (`web/dist`), with client-side routes falling back to `index.html`.

use axum::body::Body;
use axum::http::{header, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::Json;
use rust_embed::Embed;
use std::path::{Component, Path, PathBuf};
use std::sync::OnceLock;

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

/// For web development: `COSTSCOPE_WEB_DIR=web/dist` serves a freshly built app from disk
/// instead of the copy embedded at compile time, so a `vite build` needs no cargo rebuild.
fn web_dir_override() -> Option<&'static Path> {
    static DIR: OnceLock<Option<PathBuf>> = OnceLock::new();
    DIR.get_or_init(|| std::env::var_os("COSTSCOPE_WEB_DIR").map(PathBuf::from))
        .as_deref()
}

fn asset_bytes(file: &str) -> Option<Vec<u8>> {
    match web_dir_override() {
        // Only plain relative names: no `..`, no absolute paths out of the directory.
        Some(dir) => {
            let relative = Path::new(file);
            let plain = relative
                .components()
                .all(|c| matches!(c, Component::Normal(_)));
            plain.then(|| std::fs::read(dir.join(relative)).ok())?
        }
        None => WebApp::get(file).map(|asset| asset.data.into_owned()),
    }
}

fn embedded(file: &str) -> Option<Response> {
    if file.is_empty() {
        return None;
    }
    let bytes = asset_bytes(file)?;
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
        .body(Body::from(bytes))
        .ok()
}
